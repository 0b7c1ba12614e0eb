/* check_hostile.c - the capture layer on hand-made hostile files: records that libtrace asserted
 * on, fractions and time stamps out of range, a file cut or grown while it is read.
 *
 * Every file is built here byte by byte (no corpus needed); the expected values follow from the
 * bytes written (pcap-savefile(5), draft-ietf-opsawg-pcapng, Endace ERF EDM11-01).
 */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capture.h"
#include "render_csvfile.h"
#include "safeout.h"

#define TMPDIR TN_BINARY_DIR "/hostile-test"

static const char *tmp_path(const char *name)
{
    static char buf[1024];
    mkdir(TMPDIR, 0755);
    snprintf(buf, sizeof buf, "%s/%s", TMPDIR, name);
    return buf;
}

static void write_bytes(const char *path, const void *p, size_t n, const char *mode)
{
    FILE *fp = fopen(path, mode);
    ck_assert_ptr_nonnull(fp);
    ck_assert_uint_eq(fwrite(p, 1, n, fp), n);
    ck_assert_int_eq(fclose(fp), 0);
}

static void put32(uint8_t *p, uint32_t v)   /* little-endian: our pcap files are written so */
{
    memcpy(p, &v, 4);
}

/* A little-endian microsecond pcap header, Ethernet. */
static void pcap_header(uint8_t h[24])
{
    memset(h, 0, 24);
    put32(h, 0xa1b2c3d4);
    h[4] = 2;
    h[6] = 4;
    put32(h + 16, 65535);
    put32(h + 20, 1);
}

/* One record of len bytes (zeros) with the given seconds and fraction. */
static size_t pcap_record(uint8_t *out, uint32_t sec, uint32_t frac, uint32_t len)
{
    put32(out, sec);
    put32(out + 4, frac);
    put32(out + 8, len);
    put32(out + 12, len);
    memset(out + 16, 0, len);
    return 16 + (size_t)len;
}

static int read_all(const char *path, long *frames, struct tn_err *err)
{
    struct tn_capture *c;
    int r = tn_capture_open_file(&c, path, err);
    if (r < 0)
        return r;
    struct tn_frame f;
    *frames = 0;
    while ((r = tn_capture_next(c, &f, err)) == 1)
        (*frames)++;
    tn_capture_close(c, NULL);
    return r;
}

/* ---- ERF: our own reader, where libtrace 3.0.22 asserted ---- */

/* An ERF ETH record header: type 2, the given rlen and wlen, a 2001 time stamp. */
static void erf_header(uint8_t h[16], unsigned rlen, unsigned wlen)
{
    static const uint8_t ts[8] = {0x00, 0x11, 0x53, 0x18, 0xa2, 0x58, 0x26, 0x3b};
    memcpy(h, ts, 8);
    h[8] = 2;
    h[9] = 0;
    h[10] = (uint8_t)(rlen >> 8);
    h[11] = (uint8_t)rlen;
    h[12] = h[13] = 0;
    h[14] = (uint8_t)(wlen >> 8);
    h[15] = (uint8_t)wlen;
}

/* The 17-byte reproducer (../shared/repro/erf-libtrace-assert-caplen.erf): an ETH record of
 * rlen 17, one byte short of header + 2-byte pad.  libtrace aborted (exit 134). */
START_TEST(test_erf_rlen_shorter_than_framing)
{
    static const uint8_t repro[17] = {0xd4, 0xc3, 0xa1, 0xff, 0xff, 0xfe, 0x4d, 0xb2, 0x02, 0x00,
                                      0x00, 0x11, 0x00, 0x84, 0x80, 0x00, 0x00};
    const char *p = tmp_path("short.erf");
    write_bytes(p, repro, sizeof repro, "wb");
    long n;
    struct tn_err err = {0};
    ck_assert_int_eq(read_all(p, &n, &err), -TN_EFORMAT);
    ck_assert_int_eq(n, 0);
    ck_assert_msg(strstr(err.msg, "packet 1: bad ERF record header (record length 17, shorter "
                                  "than its 18 bytes of framing)"), "%s", err.msg);
}
END_TEST

/* Two good 60-byte Ethernet records, then the short one: two frames, then a cut (warning). */
START_TEST(test_erf_bad_record_after_good)
{
    uint8_t buf[2 * 78 + 17];
    size_t off = 0;
    for (int i = 0; i < 2; i++) {
        erf_header(buf + off, 78, 64);   /* 16 + 2 pad + 60 frame; wlen counts the FCS */
        memset(buf + off + 16, 0, 62);
        off += 78;
    }
    erf_header(buf + off, 17, 64);
    buf[off + 16] = 0;
    off += 17;
    const char *p = tmp_path("good-then-short.erf");
    write_bytes(p, buf, off, "wb");
    struct tn_capture *c;
    struct tn_err err = {0};
    ck_assert_int_eq(tn_capture_open_file(&c, p, &err), 0);
    ck_assert_str_eq(tn_capture_backend(c), "erf");
    struct tn_frame f;
    ck_assert_int_eq(tn_capture_next(c, &f, &err), 1);
    ck_assert_uint_eq(f.caplen, 60);   /* rlen 78 - 16 - 2 */
    ck_assert_uint_eq(f.wirelen, 64);
    ck_assert_int_eq(f.linktype, 1);
    ck_assert_int_eq(tn_capture_next(c, &f, &err), 1);
    ck_assert_int_eq(tn_capture_next(c, &f, &err), -TN_ETRUNC);
    ck_assert_msg(strstr(err.msg, "packet 3: bad ERF record header") &&
                  strstr(err.msg, "the rest of the file is skipped"), "%s", err.msg);
    ck_assert_int_eq(tn_capture_next(c, &f, &err), 0);
    tn_capture_close(c, NULL);
}
END_TEST

/* Extension headers that run past rlen, and a record cut by the end of the file. */
START_TEST(test_erf_extension_and_cut)
{
    uint8_t buf[24];
    erf_header(buf, 24, 64);
    buf[8] = 0x82;             /* ETH with an extension header ... */
    memset(buf + 16, 0x80, 8); /* ... that says another follows, past rlen */
    const char *p = tmp_path("ext.erf");
    write_bytes(p, buf, sizeof buf, "wb");
    long n;
    struct tn_err err = {0};
    ck_assert_int_eq(read_all(p, &n, &err), -TN_EFORMAT);
    ck_assert_msg(strstr(err.msg, "extension headers go past the record length 24"), "%s", err.msg);

    uint8_t cut[40];
    erf_header(cut, 78, 64);   /* says 78 bytes, the file has 40 */
    memset(cut + 16, 0, 24);
    p = tmp_path("cut.erf");
    write_bytes(p, cut, sizeof cut, "wb");
    ck_assert_int_eq(read_all(p, &n, &err), -TN_ETRUNC);
    ck_assert_msg(strstr(err.msg, "truncated in packet 1 (ERF record of 78 bytes, 40 left)"), "%s",
                  err.msg);
}
END_TEST

/* ---- pcap fractions ---- */

/* A microsecond fraction of 10^6 or more is not a time stamp (../shared/repro/07b: 0xffffffff
 * wrapped silently), but the record's lengths are sound: the packet is read with its fraction
 * held to the second's last microsecond, and a warning at the end of the file says so. */
START_TEST(test_pcap_usec_fraction)
{
    uint8_t buf[24 + 3 * 76];
    pcap_header(buf);
    size_t off = 24;
    off += pcap_record(buf + off, 1600000000, 999999, 60);
    off += pcap_record(buf + off, 1600000001, 1000000, 60);   /* one second: out of range */
    off += pcap_record(buf + off, 1600000002, 0, 60);
    const char *p = tmp_path("frac.pcap");
    write_bytes(p, buf, off, "wb");
    struct tn_capture *c;
    struct tn_err err = {0};
    ck_assert_int_eq(tn_capture_open_file(&c, p, &err), 0);
    struct tn_frame f;
    ck_assert_int_eq(tn_capture_next(c, &f, &err), 1);
    ck_assert_uint_eq(f.ts.nsec, 999999000u);
    ck_assert_int_eq(tn_capture_next(c, &f, &err), 1);
    ck_assert_int_eq(f.ts.sec, 1600000001);
    ck_assert_uint_eq(f.ts.nsec, 999999000u);
    ck_assert_int_eq(tn_capture_next(c, &f, &err), 1);
    ck_assert_int_eq(f.ts.sec, 1600000002);
    ck_assert_uint_eq(f.ts.nsec, 0);
    ck_assert_int_eq(tn_capture_next(c, &f, &err), -TN_ETRUNC);
    ck_assert_msg(strstr(err.msg, "frac.pcap: packet 2 has a time stamp fraction not below one "
                                  "second"), "%s", err.msg);
    ck_assert_int_eq(tn_capture_next(c, &f, &err), 0);
    tn_capture_close(c, NULL);

    /* the same through libpcap (standard input goes there): the same packets and warning */
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        ck_assert_ptr_nonnull(freopen(p, "rb", stdin));
        struct tn_capture *s;
        struct tn_err e2 = {0};
        int ok = tn_capture_open_file(&s, "-", &e2) == 0 && tn_capture_next(s, &f, &e2) == 1 &&
                 tn_capture_next(s, &f, &e2) == 1 && f.ts.nsec == 999999000u &&
                 tn_capture_next(s, &f, &e2) == 1 && tn_capture_next(s, &f, &e2) == -TN_ETRUNC &&
                 strstr(e2.msg, "packet 2 has a time stamp fraction not below one second") != NULL;
        _exit(ok ? 0 : 1);
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}
END_TEST

/* ---- pcapng time stamps ---- */

static size_t ng_block(uint8_t *out, uint32_t type, const uint8_t *body, uint32_t blen)
{
    uint32_t total = 12 + blen;
    put32(out, type);
    put32(out + 4, total);
    memcpy(out + 8, body, blen);
    put32(out + 8 + blen, total);
    return total;
}

/* if_tsresol 10^0 (seconds) with a 2^64-1 time stamp, and if_tsoffset near INT64_MAX: the
 * seconds are held at 2^32-1, TN_TIME_SEC_MAX (../shared/repro/13a made UBSan abort); one near
 * INT64_MIN at 0; a warning at the end of the file counts them. */
START_TEST(test_pcapng_huge_time_stamps)
{
    uint8_t buf[512];
    size_t off = 0;
    uint8_t shb[16] = {0};
    put32(shb, 0x1A2B3C4D);
    shb[4] = 1;                                   /* version 1.0 */
    memset(shb + 8, 0xff, 8);                     /* section length unknown */
    off += ng_block(buf + off, 0x0A0D0D0A, shb, 16);
    uint8_t idb[8 + 8 + 12 + 4] = {0};
    idb[0] = 1;                                   /* LINKTYPE_ETHERNET */
    put32(idb + 4, 65535);
    idb[8] = 9;                                   /* if_tsresol, length 1: 10^0 */
    idb[10] = 1;
    idb[12] = 0;
    idb[16] = 14;                                 /* if_tsoffset, length 8 */
    idb[18] = 8;
    int64_t big = INT64_MAX - 5;
    memcpy(idb + 20, &big, 8);
    off += ng_block(buf + off, 1, idb, 32);       /* ends with opt_endofopt (zeros) */
    int64_t small = INT64_MIN + 5;                /* interface 1: an offset near INT64_MIN */
    memcpy(idb + 20, &small, 8);
    off += ng_block(buf + off, 1, idb, 32);
    uint8_t epb[20 + 60] = {0};
    put32(epb + 4, 0xffffffff);                   /* time stamp high */
    put32(epb + 8, 0xffffffff);                   /* low */
    put32(epb + 12, 60);
    put32(epb + 16, 60);
    off += ng_block(buf + off, 6, epb, sizeof epb);
    put32(epb, 1);                                /* the same packet on interface 1, at 0 */
    put32(epb + 4, 0);
    put32(epb + 8, 0);
    off += ng_block(buf + off, 6, epb, sizeof epb);
    const char *p = tmp_path("huge-ts.pcapng");
    write_bytes(p, buf, off, "wb");
    struct tn_capture *c;
    struct tn_err err = {0};
    ck_assert_msg(tn_capture_open_file(&c, p, &err) == 0, "%s", err.msg);
    struct tn_frame f;
    ck_assert_msg(tn_capture_next(c, &f, &err) == 1, "%s", err.msg);
    ck_assert_int_eq(f.ts.sec, 4294967295);
    ck_assert_int_eq(tn_time_ns(f.ts), INT64_C(4294967295) * 1000000000);   /* no overflow */
    ck_assert_msg(tn_capture_next(c, &f, &err) == 1, "%s", err.msg);
    ck_assert_int_eq(f.ts.sec, 0);
    /* told once, at the end of the file, as a warning */
    ck_assert_int_eq(tn_capture_next(c, &f, &err), -TN_ETRUNC);
    ck_assert_msg(strstr(err.msg, "huge-ts.pcapng: 2 packets from packet 1 have time stamps outside "
                         "1970-2106") != NULL, "%s", err.msg);
    ck_assert_int_eq(tn_capture_next(c, &f, &err), 0);
    tn_capture_close(c, NULL);
}
END_TEST

/* ---- a file that changes while it is read ---- */

enum { BIG_FRAMES = 4000, BIG_LEN = 1000 };   /* 4 MB: several 1 MiB reads */

static const char *big_pcap(const char *name)
{
    const char *p = tmp_path(name);
    FILE *fp = fopen(p, "wb");
    ck_assert_ptr_nonnull(fp);
    uint8_t h[24], rec[16 + BIG_LEN];
    pcap_header(h);
    fwrite(h, 1, 24, fp);
    for (uint32_t i = 0; i < BIG_FRAMES; i++)
        fwrite(rec, 1, pcap_record(rec, 1600000000 + i, 0, BIG_LEN), fp);
    ck_assert_int_eq(fclose(fp), 0);
    return p;
}

/* tcpdump -C/-W rotation truncates a file while it is read: the mapped reader died of SIGBUS
 * (exit 135).  Now: the frames that were there, then a warning that names the sizes. */
START_TEST(test_pcap_shrinks_while_read)
{
    const char *p = big_pcap("shrink.pcap");
    struct tn_capture *c;
    struct tn_err err = {0};
    ck_assert_int_eq(tn_capture_open_file(&c, p, &err), 0);
    struct tn_frame f;
    ck_assert_int_eq(tn_capture_next(c, &f, &err), 1);
    ck_assert_int_eq(truncate(p, 24 + 1500 * (16 + BIG_LEN) + 100), 0);   /* mid-record 1501 */
    long n = 1;
    int r;
    while ((r = tn_capture_next(c, &f, &err)) == 1)
        n++;
    ck_assert_int_eq(r, -TN_ETRUNC);
    ck_assert_msg(strstr(err.msg, "the file shrank from 4064024 to 1524124 bytes while it was "
                                  "read"), "%s", err.msg);
    /* the first 1 MiB was read before the cut, so at least its 1031 frames; at most 1500 */
    ck_assert_int_ge(n, 1031);
    ck_assert_int_le(n, 1500);
    tn_capture_close(c, NULL);
}
END_TEST

/* A file that grows while it is read (tcpdump -w still writing): read to its end, told. */
START_TEST(test_pcap_grows_while_read)
{
    const char *p = big_pcap("grow.pcap");
    struct tn_capture *c;
    struct tn_err err = {0};
    ck_assert_int_eq(tn_capture_open_file(&c, p, &err), 0);
    uint8_t rec[16 + BIG_LEN];
    write_bytes(p, rec, pcap_record(rec, 1700000000, 0, BIG_LEN), "ab");
    struct tn_frame f;
    long n = 0;
    int r;
    while ((r = tn_capture_next(c, &f, &err)) == 1)
        n++;
    ck_assert_int_eq(n, BIG_FRAMES + 1);
    ck_assert_int_eq(r, -TN_ETRUNC);
    ck_assert_msg(strstr(err.msg, "the file grew from 4064024 to 4065040 bytes while it was read"),
                  "%s", err.msg);
    tn_capture_close(c, NULL);
}
END_TEST

/* ---- outputs ---- */

static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    ck_assert_ptr_nonnull(fp);
    static char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    buf[n] = 0;
    fclose(fp);
    return buf;
}

/* Text cells that a spreadsheet would run as a formula (OWASP "CSV Injection": = + - @, tab,
 * CR) become quoted text with a leading apostrophe; numbers, negative ones too, are numbers. */
START_TEST(test_csv_formula_cells)
{
    const char *dir = tmp_path("csv");
    struct tn_csvfile f;
    struct tn_err err = {0};
    ck_assert_int_eq(tn_csvfile_open(&f, dir, "x.csv", "a,b,c,d,e,f", &err), 0);
    tn_csvfile_str(&f, "=HYPERLINK(\"http://x\")");
    tn_csvfile_str(&f, "+1");
    tn_csvfile_str(&f, "-2+3");
    tn_csvfile_str(&f, "@SUM(A1)");
    tn_csvfile_str(&f, "rtt=10ms");
    tn_csvfile_dbl(&f, -1.5, 1);
    tn_csvfile_end_row(&f);
    ck_assert_int_eq(tn_csvfile_close(&f, &err), 0);
    char path[1100];
    snprintf(path, sizeof path, "%s/x.csv", dir);
    ck_assert_str_eq(slurp(path), "a,b,c,d,e,f\r\n\"'=HYPERLINK(\"\"http://x\"\")\",\"'+1\","
                                  "\"'-2+3\",\"'@SUM(A1)\",rtt=10ms,-1.5\r\n");
}
END_TEST

/* The temporary is a fresh mkstemp name in the target's directory; an abort leaves nothing,
 * a commit leaves exactly the final file (with the umask's mode, not mkstemp's 0600). */
START_TEST(test_safeout_commit_and_abort)
{
    const char *dir = tmp_path("safe");
    mkdir(dir, 0755);
    char path[1100];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    unlink(path);
    struct tn_safeout o;
    struct tn_err err = {0};
    ck_assert_int_eq(tn_safeout_open(&o, path, &err), 0);
    ck_assert_int_eq(strncmp(o.tmp, dir, strlen(dir)), 0);
    ck_assert_ptr_nonnull(strstr(o.tmp, "/.out.txt."));
    fputs("partial", o.fp);
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", o.tmp);
    tn_safeout_abort(&o);
    ck_assert_int_ne(access(tmp, F_OK), 0);
    ck_assert_int_ne(access(path, F_OK), 0);
    ck_assert_int_eq(tn_safeout_open(&o, path, &err), 0);
    fputs("whole", o.fp);
    ck_assert_int_eq(tn_safeout_commit(&o, &err), 0);
    ck_assert_str_eq(slurp(path), "whole");
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    mode_t mask = umask(0);
    umask(mask);
    ck_assert_uint_eq(st.st_mode & 0777, 0666 & ~mask);
}
END_TEST

/* /dev/full fails every write with ENOSPC: commit says so, names the file, removes the
 * temporary and leaves no final file. */
START_TEST(test_safeout_write_error)
{
    const char *dir = tmp_path("safe-full");
    mkdir(dir, 0755);
    char path[1100];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    unlink(path);
    struct tn_safeout o;
    struct tn_err err = {0};
    ck_assert_int_eq(tn_safeout_open(&o, path, &err), 0);
    /* swap the descriptor for /dev/full's: the next flush fails as on a full disk */
    int full = open("/dev/full", O_WRONLY);
    if (full < 0) {
        tn_safeout_abort(&o);
        return;   /* no /dev/full here: fault_outputs.sh covers the full tmpfs */
    }
    ck_assert_int_ge(dup2(full, o.fd), 0);
    close(full);
    fputs("data", o.fp);
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", o.tmp);
    ck_assert_int_eq(tn_safeout_commit(&o, &err), -TN_EIO);
    ck_assert_msg(strstr(err.msg, "out.txt: cannot write: No space left on device; the file was "
                                  "not written"), "%s", err.msg);
    ck_assert_int_ne(access(tmp, F_OK), 0);
    ck_assert_int_ne(access(path, F_OK), 0);
}
END_TEST

Suite *tn_hostile_suite(void)
{
    Suite *s = suite_create("hostile");
    TCase *tc = tcase_create("capture");
    tcase_add_test(tc, test_erf_rlen_shorter_than_framing);
    tcase_add_test(tc, test_erf_bad_record_after_good);
    tcase_add_test(tc, test_erf_extension_and_cut);
    tcase_add_test(tc, test_pcap_usec_fraction);
    tcase_add_test(tc, test_pcapng_huge_time_stamps);
    tcase_add_test(tc, test_pcap_shrinks_while_read);
    tcase_add_test(tc, test_pcap_grows_while_read);
    suite_add_tcase(s, tc);
    TCase *out = tcase_create("outputs");
    tcase_add_test(out, test_csv_formula_cells);
    tcase_add_test(out, test_safeout_commit_and_abort);
    tcase_add_test(out, test_safeout_write_error);
    suite_add_tcase(s, out);
    return s;
}
