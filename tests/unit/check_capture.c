/* check_capture.c - capture layer on real traces: pcap (us/ns), pcapng (own reader), ERF via
 * libtrace, compressed traces, stdin, truncated and garbage input, chaining, dump, live.
 *
 * Expected values come from TShark 4.0.17, tcpdump and capinfos run on the same files (the
 * command is next to each value) or from the corpus MANIFEST.tsv (packet_count, by TShark).
 * Files made at test time (compressed, cut, patched copies) go to TN_BINARY_DIR/capture-test.
 */
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <pcap/pcap.h>

#include "capture.h"
#include "corpus_helper.h"

#define TMPDIR TN_BINARY_DIR "/capture-test"

static const char *tmp_path(const char *name)
{
    static char buf[4][1024];
    static int k;
    char *p = buf[k++ % 4];
    snprintf(p, sizeof buf[0], "%s/%s", TMPDIR, name);
    return p;
}

static void setup_tmp(void)
{
    mkdir(TMPDIR, 0755);
}

/* Read everything from an open capture; returns the frame count, stops at the first error. */
static long count_frames(struct tn_capture *c, struct tn_err *err, int *last_rc)
{
    struct tn_frame f;
    long n = 0;
    int r;
    while ((r = tn_capture_next(c, &f, err)) == 1)
        n++;
    *last_rc = r;
    return n;
}

static long count_file(const char *path)
{
    struct tn_capture *c;
    struct tn_err err = {0};
    int r = tn_capture_open_file(&c, path, &err);
    ck_assert_msg(r == 0, "open %s: %s", path, err.msg);
    long n = count_frames(c, &err, &r);
    ck_assert_msg(r == 0, "read %s: %s", path, err.msg);
    ck_assert_int_eq(tn_capture_close(c, &err), 0);
    return n;
}

static void copy_prefix(const char *src, const char *dst, long len)
{
    FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
    ck_assert_ptr_nonnull(in);
    ck_assert_ptr_nonnull(out);
    char buf[4096];
    long left = len < 0 ? (long)1 << 40 : len;
    size_t n;
    while (left > 0 && (n = fread(buf, 1, left < (long)sizeof buf ? (size_t)left : sizeof buf,
                                  in)) > 0) {
        fwrite(buf, 1, n, out);
        left -= (long)n;
    }
    fclose(in);
    ck_assert_int_eq(fclose(out), 0);
}

static void write_bytes(const char *dst, const void *p, size_t n)
{
    FILE *out = fopen(dst, "wb");
    ck_assert_ptr_nonnull(out);
    ck_assert_uint_eq(fwrite(p, 1, n, out), n);
    ck_assert_int_eq(fclose(out), 0);
}

/* ---- classic pcap ---- */

/* libtrace/100_packets.pcap (us) and 100_packetsns.pcap (ns) hold the same 100 packets.
 * tshark -r FILE -c 2 -T fields -e frame.time_epoch -e frame.cap_len -e frame.len
 *   1095292801.000721000  54  827
 *   1095292801.000789000  62  66     (same for both files) */
static const char *const us_ns[] = {"libtrace/100_packets.pcap", "libtrace/100_packetsns.pcap"};

START_TEST(test_pcap_us_and_ns)
{
    struct tn_capture *c;
    struct tn_err err = {0};
    char path[1024];
    snprintf(path, sizeof path, "%s", tn_test_corpus_path(us_ns[_i]));
    ck_assert_msg(tn_capture_open_file(&c, path, &err) == 0, "%s", err.msg);
    ck_assert_str_eq(tn_capture_backend(c), "pcap");
    struct tn_frame f;
    ck_assert_int_eq(tn_capture_next(c, &f, &err), 1);
    ck_assert_int_eq(f.ts.sec, 1095292801);
    ck_assert_uint_eq(f.ts.nsec, 721000);
    ck_assert_uint_eq(f.caplen, 54);
    ck_assert_uint_eq(f.wirelen, 827);
    ck_assert_int_eq(f.linktype, 1);   /* EN10MB: tcpdump -r FILE -c 1 */
    ck_assert_uint_eq(f.num, 1);
    ck_assert_str_eq(f.source, path);
    ck_assert_int_eq(tn_capture_next(c, &f, &err), 1);
    ck_assert_uint_eq(f.ts.nsec, 789000);
    ck_assert_uint_eq(f.caplen, 62);
    ck_assert_uint_eq(f.num, 2);
    int r;
    long n = count_frames(c, &err, &r);
    ck_assert_int_eq(r, 0);
    ck_assert_int_eq(n + 2, 100);   /* MANIFEST.tsv packet_count */
    struct tn_capture_stats st;
    tn_capture_get_stats(c, &st);
    ck_assert_uint_eq(st.frames, 100);
    ck_assert(!st.live);
    ck_assert_int_eq(tn_capture_erf_type(c), -1);
    tn_capture_close(c, NULL);
}
END_TEST

/* A nanosecond pcap whose stamps use all nine digits.
 * tshark -r tcpdump-tests/tcp-handshake-nano.pcap -T fields -e frame.time_epoch -e frame.cap_len
 *   1418145369.924505488 76 / 1418145370.052027262 76 / 1418145370.052115157 68
 * (tcpdump --nano -tt -r FILE agrees); link type LINUX_SLL (113). */
START_TEST(test_pcap_nanoseconds_exact)
{
    struct tn_capture *c;
    struct tn_err err = {0};
    ck_assert(tn_capture_open_file(&c, tn_test_corpus_path("tcpdump-tests/tcp-handshake-nano.pcap"), &err) == 0);
    static const struct { int64_t sec; uint32_t nsec, caplen; } want[] = {
        {1418145369, 924505488, 76}, {1418145370, 52027262, 76}, {1418145370, 52115157, 68}};
    struct tn_frame f;
    for (size_t i = 0; i < 3; i++) {
        ck_assert_int_eq(tn_capture_next(c, &f, &err), 1);
        ck_assert_int_eq(f.ts.sec, want[i].sec);
        ck_assert_uint_eq(f.ts.nsec, want[i].nsec);
        ck_assert_uint_eq(f.caplen, want[i].caplen);
        ck_assert_int_eq(f.linktype, 113);
    }
    ck_assert_int_eq(tn_capture_next(c, &f, &err), 0);
    tn_capture_close(c, NULL);
}
END_TEST

/* ---- pcapng (own reader) ---- */

/* libtrace/complex.pcapng: big-endian section; blocks (python walk of the file, and
 * tshark -r FILE -T fields -e frame.interface_id -e frame.encap_type -e frame.cap_len
 * -e frame.len -e frame.time_epoch): custom, NRB, IDB0 linktype 1 snaplen 96, IDB1 linktype 0,
 * ISB, EPB(if0), ISB, ISB, custom, IDB2 linktype 1, EPB(if2), ISB, SPB (origlen 314), NRB,
 * EPB(if0), ISB, EPB(if1), custom, NRB, ISB.  TShark's 8 "frames" (MANIFEST) include the three
 * custom blocks (its frames 1, 3, 8, without interface); the packets are the other five.
 * tcpdump refuses it: "an interface has a type 0 different from the type of the first". */
START_TEST(test_pcapng_mixed_linktypes_big_endian)
{
    struct tn_capture *c;
    struct tn_err err = {0};
    ck_assert_msg(tn_capture_open_file(&c, tn_test_corpus_path("libtrace/complex.pcapng"), &err) == 0, "%s",
                  err.msg);
    ck_assert_str_eq(tn_capture_backend(c), "pcapng-own");
    static const struct { int lt; uint32_t cap, len; int64_t sec; uint32_t nsec; } want[] = {
        {1, 96, 314, 1340954905, 298858000},
        {1, 342, 342, 1340954905, 298858000},
        {1, 96, 314, 1340954905, 298858000},   /* SPB: no stamp, gets the previous frame's */
        {1, 96, 342, 1340954905, 300858000},
        {0, 168, 168, 1340954905, 301858000},  /* interface 1: BSD loopback (tshark encap 15) */
    };
    struct tn_frame f;
    for (size_t i = 0; i < TN_ARRAY_LEN(want); i++) {
        ck_assert_msg(tn_capture_next(c, &f, &err) == 1, "frame %zu: %s", i + 1, err.msg);
        ck_assert_int_eq(f.linktype, want[i].lt);
        ck_assert_uint_eq(f.caplen, want[i].cap);
        ck_assert_uint_eq(f.wirelen, want[i].len);
        ck_assert_int_eq(f.ts.sec, want[i].sec);
        ck_assert_uint_eq(f.ts.nsec, want[i].nsec);
        ck_assert_uint_eq(f.num, i + 1);
    }
    ck_assert_int_eq(tn_capture_next(c, &f, &err), 0);
    tn_capture_close(c, NULL);
}
END_TEST

/* pcapplusplus/PacketExamples/ldap.pcapng: 11 interfaces, link types 1 and 113, some with
 * if_tsresol 9 (ns), others with the default (us).
 * tshark -r FILE -T fields -e frame.number -e frame.interface_id -e frame.encap_type
 *   -e frame.time_epoch:  1 5 1 1103276405.901593000 ... 7 2 25 1695728003.815495640
 *   (encap 25 = Linux SLL; interface 2 has IDB linktype 113 and option 09 00 01 00 09) */
START_TEST(test_pcapng_tsresol_per_interface)
{
    struct tn_capture *c;
    struct tn_err err = {0};
    ck_assert(tn_capture_open_file(&c, tn_test_corpus_path("pcapplusplus/PacketExamples/ldap.pcapng"), &err) == 0);
    struct tn_frame f;
    int r;
    ck_assert_int_eq(tn_capture_next(c, &f, &err), 1);
    ck_assert_int_eq(f.ts.sec, 1103276405);
    ck_assert_uint_eq(f.ts.nsec, 901593000);
    ck_assert_uint_eq(f.caplen, 1406);
    ck_assert_int_eq(f.linktype, 1);
    for (int i = 2; i <= 7; i++)
        ck_assert_int_eq(tn_capture_next(c, &f, &err), 1);
    ck_assert_uint_eq(f.num, 7);
    ck_assert_int_eq(f.ts.sec, 1695728003);
    ck_assert_uint_eq(f.ts.nsec, 815495640);
    ck_assert_int_eq(f.linktype, 113);
    ck_assert_uint_eq(f.caplen, 256);
    long n = count_frames(c, &err, &r);
    ck_assert_int_eq(r, 0);
    ck_assert_int_eq(n + 7, 25);   /* MANIFEST.tsv packet_count */
    tn_capture_close(c, NULL);
}
END_TEST

/* Frame counts of pcapng files against MANIFEST.tsv packet_count (TShark 4.0.17). */
/* held: the end-of-file warning of time stamps outside 1970-2106, or NULL */
static const struct { const char *path; long frames; const char *held; } ng_counts[] = {
    {"pcapplusplus/PcapExamples/many_interfaces-1.pcapng", 64, NULL},   /* 11 IDBs, types 1/0/12 */
    /* tshark: frames 60-159 at 18446744073204.126329 s (a negative time as unsigned) */
    {"pcapplusplus/PcapExamples/pcapng-example.pcapng", 159,
     "100 packets from packet 60 have time stamps outside 1970-2106"},
    {"emmakofod-itsi/SACK example .pcapng", 39, NULL},
    {"tcpdump-tests/of13_ericsson.pcapng", 174, NULL},
    {"libtrace/100_packets.pcapng", 100, NULL},
    {"tcpdump-tests/empty.pcapng", 0, NULL},
};

/* Read path to its end: frames frames, then (held not NULL) the end-of-file warning of time
 * stamps held to what a time stamp can be, then the end. */
static void check_count(const char *rel, long frames, const char *held)
{
    char path[1024];
    snprintf(path, sizeof path, "%s", tn_test_corpus_path(rel));
    if (!held) {
        ck_assert_int_eq(count_file(path), frames);
        return;
    }
    struct tn_capture *c;
    struct tn_err err = {0};
    int r = tn_capture_open_file(&c, path, &err);
    ck_assert_msg(r == 0, "open %s: %s", path, err.msg);
    ck_assert_int_eq(count_frames(c, &err, &r), frames);
    ck_assert_int_eq(r, -TN_ETRUNC);   /* a warning, after the last frame */
    ck_assert_msg(strstr(err.msg, held) != NULL, "%s", err.msg);
    ck_assert_int_eq(count_frames(c, &err, &r), 0);
    ck_assert_int_eq(r, 0);
    tn_capture_close(c, NULL);
}

START_TEST(test_pcapng_counts)
{
    check_count(ng_counts[_i].path, ng_counts[_i].frames, ng_counts[_i].held);
}
END_TEST

/* tcpdump's own captures of broken time stamps: tcpdump -tt reads every packet (the frames
 * below are its counts) and prints the fractions as they are (1418145370.1000000,
 * .2147483648); we read them too, with the fractions held to 999999 us and one warning. */
static const struct { const char *path; long frames; const char *held; } held_ts[] = {
    {"tcpdump-tests/timestamp_invalid_micro.pcap", 3,
     "2 packets from packet 2 have time stamp fractions not below one second"},
    {"tcpdump-tests/timestamp_invalid_nano.pcap", 3,
     "2 packets from packet 2 have time stamp fractions not below one second"},
    /* tcpdump: 28315904.000000, the year 2107 wrapped past 2^32 s */
    {"tcpdump-tests/time_2107.pcapng", 1, "packet 1 has a time stamp outside 1970-2106"},
};

START_TEST(test_time_stamps_held)
{
    check_count(held_ts[_i].path, held_ts[_i].frames, held_ts[_i].held);
}
END_TEST

/* many_interfaces-1.pcapng frame 3 is on interface 10 (utun0), IDB linktype 0 (IDB bytes at
 * offset 616: 01 00 00 00 78 00 00 00 00 00 ...); tshark: "3 10 15 168 168 1439753725.701568000" */
START_TEST(test_pcapng_many_interfaces)
{
    struct tn_capture *c;
    struct tn_err err = {0};
    ck_assert(tn_capture_open_file(&c, tn_test_corpus_path("pcapplusplus/PcapExamples/many_interfaces-1.pcapng"),
                                   &err) == 0);
    struct tn_frame f;
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(tn_capture_next(c, &f, &err), 1);
    ck_assert_int_eq(f.linktype, 0);
    ck_assert_uint_eq(f.caplen, 168);
    ck_assert_int_eq(f.ts.sec, 1439753725);
    ck_assert_uint_eq(f.ts.nsec, 701568000);
    tn_capture_close(c, NULL);
}
END_TEST

/* Hand-made pcapng (little-endian) for what the corpus lacks: an obsolete Packet Block, a
 * power-of-two if_tsresol and if_tsoffset, and an unknown block skipped by length. */
static size_t put32(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, 4);   /* host order = the section's order (BOM written in host order) */
    return 4;
}

static size_t put16(uint8_t *p, uint16_t v)
{
    memcpy(p, &v, 2);
    return 2;
}

START_TEST(test_pcapng_opb_binary_resolution)
{
    uint8_t b[512];
    size_t o = 0;
    /* SHB: type, len 28, BOM, v1.0, section length -1, len */
    o += put32(b + o, 0x0A0D0D0A); o += put32(b + o, 28); o += put32(b + o, 0x1A2B3C4D);
    o += put16(b + o, 1); o += put16(b + o, 0);
    o += put32(b + o, 0xffffffff); o += put32(b + o, 0xffffffff); o += put32(b + o, 28);
    /* IDB: linktype 101 (raw IP), snaplen 0, options if_tsresol = 0x8a (2^-10 s),
     * if_tsoffset = 100 s, end; 20 + 8 + 12 + 4 = 44 bytes */
    o += put32(b + o, 1); o += put32(b + o, 44);
    o += put16(b + o, 101); o += put16(b + o, 0); o += put32(b + o, 0);
    o += put16(b + o, 9); o += put16(b + o, 1); b[o++] = 0x8a; b[o++] = 0; b[o++] = 0; b[o++] = 0;
    o += put16(b + o, 14); o += put16(b + o, 8); o += put32(b + o, 100); o += put32(b + o, 0);
    o += put16(b + o, 0); o += put16(b + o, 0);
    o += put32(b + o, 44);
    /* unknown block type 0x0BADBEEF, 16 bytes */
    o += put32(b + o, 0x0BADBEEF); o += put32(b + o, 16); o += put32(b + o, 0xdeadbeef);
    o += put32(b + o, 16);
    /* OPB: iface 0, drops 0, ts = 3.5 s in units of 2^-10 (3584), caplen 5, len 20, 5 bytes
     * of data padded to 8; 28 + 8 + 4 = 40 */
    o += put32(b + o, 2); o += put32(b + o, 40);
    o += put16(b + o, 0); o += put16(b + o, 0); o += put32(b + o, 0); o += put32(b + o, 3584);
    o += put32(b + o, 5); o += put32(b + o, 20);
    memcpy(b + o, "\x45\x00\x00\x14\x00\x00\x00\x00", 8); o += 8;
    o += put32(b + o, 40);
    /* EPB: iface 0, ts = 2^10 + 1 units = 1 s + 1/1024 s = 1.0009765625 s, caplen 0 */
    o += put32(b + o, 6); o += put32(b + o, 32);
    o += put32(b + o, 0); o += put32(b + o, 0); o += put32(b + o, 1025);
    o += put32(b + o, 0); o += put32(b + o, 0);
    o += put32(b + o, 32);
    const char *path = tmp_path("handmade.pcapng");
    write_bytes(path, b, o);

    struct tn_capture *c;
    struct tn_err err = {0};
    ck_assert_msg(tn_capture_open_file(&c, path, &err) == 0, "%s", err.msg);
    struct tn_frame f;
    ck_assert_msg(tn_capture_next(c, &f, &err) == 1, "%s", err.msg);
    ck_assert_int_eq(f.linktype, 101);
    ck_assert_int_eq(f.ts.sec, 103);          /* 3584 / 1024 = 3.5, + 100 offset */
    ck_assert_uint_eq(f.ts.nsec, 500000000);
    ck_assert_uint_eq(f.caplen, 5);
    ck_assert_uint_eq(f.wirelen, 20);
    ck_assert_uint_eq(f.data[0], 0x45);
    ck_assert_int_eq(tn_capture_next(c, &f, &err), 1);
    ck_assert_int_eq(f.ts.sec, 101);
    ck_assert_uint_eq(f.ts.nsec, 976562);     /* 1/1024 s = 976562.5 ns, truncated */
    ck_assert_uint_eq(f.num, 2);
    ck_assert_int_eq(tn_capture_next(c, &f, &err), 0);
    tn_capture_close(c, NULL);

    /* The same file claiming version 2.0 is refused with a message naming the file. */
    b[12] = 2;
    write_bytes(path, b, o);
    ck_assert(tn_capture_open_file(&c, path, &err) == 0);
    ck_assert_int_eq(tn_capture_next(c, &f, &err), -TN_EFORMAT);
    ck_assert_ptr_nonnull(strstr(err.msg, "handmade.pcapng: pcapng version 2.0"));
    tn_capture_close(c, NULL);
}
END_TEST

/* ---- ERF through libtrace ---- */

/* tshark -r FILE -c 1 -T fields -e frame.time_epoch -e frame.cap_len -e frame.len
 * -e erf.types.type; capinfos -c FILE for the count.  The link layer is what libtrace returns:
 * for ATM the 4-byte cell header is dropped (LLC/SNAP remains: 52 - 4 = 48 bytes). */
static const struct {
    const char *path;
    long frames;
    int erf_type, linktype;
    int64_t sec;
    uint32_t nsec, caplen, wirelen;
} erfs[] = {
    {"tcptrace-input/other-formats/eth.erf", 22, 2, 1, 992368802, 95017493, 54, 66},
    {"tcptrace-input/other-formats/chdlc.erf", 3, 1, 104, 993203618, 532316327, 312, 312},
    {"tcptrace-input/other-formats/atm.erf", 13, 3, 100, 992368804, 558952272, 48, 48},
};

START_TEST(test_erf)
{
    char path[1024];
    snprintf(path, sizeof path, "%s", tn_test_corpus_path(erfs[_i].path));
    struct tn_capture *c;
    struct tn_err err = {0};
    ck_assert_msg(tn_capture_open_file(&c, path, &err) == 0, "%s", err.msg);
    ck_assert_str_eq(tn_capture_backend(c), "erf");
    struct tn_frame f;
    ck_assert_msg(tn_capture_next(c, &f, &err) == 1, "%s", err.msg);
    ck_assert_int_eq(tn_capture_erf_type(c), erfs[_i].erf_type);
    ck_assert_int_eq(f.linktype, erfs[_i].linktype);
    ck_assert_int_eq(f.ts.sec, erfs[_i].sec);
    ck_assert_uint_eq(f.ts.nsec, erfs[_i].nsec);
    ck_assert_uint_eq(f.caplen, erfs[_i].caplen);
    ck_assert_uint_eq(f.wirelen, erfs[_i].wirelen);
    if (erfs[_i].linktype == 100)   /* LLC/SNAP header: aa aa 03 00 00 00 08 00 */
        ck_assert_int_eq(memcmp(f.data, "\xaa\xaa\x03\x00\x00\x00\x08\x00", 8), 0);
    int r;
    long n = count_frames(c, &err, &r);
    ck_assert_msg(r == 0, "%s", err.msg);
    ck_assert_int_eq(n + 1, erfs[_i].frames);
    tn_capture_close(c, NULL);
}
END_TEST

/* ERF has no magic number: without the .erf name the first record header is checked instead. */
START_TEST(test_erf_without_extension)
{
    const char *copy = tmp_path("eth-erf-renamed.trace");
    copy_prefix(tn_test_corpus_path("tcptrace-input/other-formats/eth.erf"), copy, -1);
    struct tn_capture *c;
    struct tn_err err = {0};
    ck_assert_msg(tn_capture_open_file(&c, copy, &err) == 0, "%s", err.msg);
    ck_assert_str_eq(tn_capture_backend(c), "erf");
    tn_capture_close(c, NULL);
    ck_assert_int_eq(count_file(copy), 22);   /* capinfos -c eth.erf */
}
END_TEST

/* Random bytes must not pass for ERF (which has no magic number).  A probe that looked at one
 * record header accepted about 3% of random 4 KiB files (exit 0, empty report).
 *  - the reproducer: "GARBAGE!" as the time stamp, type 2 (ETH), flags 0x04, rlen 0x8000, then
 *    zeros: { printf 'GARBAGE!'; printf '\x02\x04\x80\x00'; head -c 4084 /dev/zero; } > x.bin
 *  - 400 files of 4096 bytes from a fixed-seed xorshift64 generator (deterministic), plus the
 *    same with a plausible first header patched in (type 2, flags 0, rlen 0x60, wlen 0x40, and
 *    a 2009 time stamp) so that the chain check, not the first header, has to reject them.
 * Every one must be -TN_EFORMAT "not a packet trace". */
static uint64_t xorshift64(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

START_TEST(test_erf_probe_random)
{
    uint8_t buf[4096];
    const char *path = tmp_path("random.bin");
    struct tn_capture *c;
    struct tn_err err = {0};

    memset(buf, 0, sizeof buf);
    memcpy(buf, "GARBAGE!\x02\x04\x80\x00", 12);
    write_bytes(path, buf, sizeof buf);
    ck_assert_int_eq(tn_capture_open_file(&c, path, &err), -TN_EFORMAT);
    ck_assert_ptr_nonnull(strstr(err.msg, "not a packet trace"));

    uint64_t seed = 0x9e3779b97f4a7c15u;
    int accepted = 0;
    for (int i = 0; i < 400; i++) {
        for (size_t k = 0; k < sizeof buf; k += 8) {
            uint64_t v = xorshift64(&seed);
            memcpy(buf + k, &v, 8);
        }
        if (i % 2) {
            /* ts 0x4a9ebe50.00000000 LE (2009-09-02), type 2, flags 0, rlen 96, lctr 0, wlen 64 */
            static const uint8_t hdr[16] = {0, 0, 0, 0, 0x50, 0xbe, 0x9e, 0x4a,
                                            2, 0, 0, 0x60, 0, 0, 0, 0x40};
            memcpy(buf, hdr, sizeof hdr);
        }
        write_bytes(path, buf, sizeof buf);
        int r = tn_capture_open_file(&c, path, &err);
        if (r == 0) {
            accepted++;
            tn_capture_close(c, NULL);
            continue;
        }
        ck_assert_msg(r == -TN_EFORMAT && strstr(err.msg, "not a packet trace"),
                      "file %d: %d %s", i, r, err.msg);
    }
    ck_assert_msg(accepted == 0, "%d of 400 random files accepted", accepted);
}
END_TEST

/* ---- compressed ---- */

static const struct { const char *tool, *ext; } zips[] = {
    {"gzip", "gz"}, {"bzip2", "bz2"}, {"xz", "xz"}, {"zstd -q", "zst"}};

/* Compress a corpus file with the system tool; frames and first time stamp must match the
 * uncompressed original (values as in test_pcap_us_and_ns / test_pcapng_mixed_linktypes). */
START_TEST(test_compressed)
{
    static const struct { const char *src; long frames; int64_t sec; uint32_t nsec; } srcs[] = {
        {"libtrace/100_packetsns.pcap", 100, 1095292801, 721000},
        {"libtrace/complex.pcapng", 5, 1340954905, 298858000},
        {"tcptrace-input/other-formats/eth.erf", 22, 992368802, 95017493},
    };
    const char *tool = zips[_i].tool, *ext = zips[_i].ext;
    for (size_t s = 0; s < TN_ARRAY_LEN(srcs); s++) {
        const char *base = strrchr(srcs[s].src, '/') + 1;
        char name[256], cmd[2048];
        snprintf(name, sizeof name, "%s.%s", base, ext);
        const char *dst = tmp_path(name);
        snprintf(cmd, sizeof cmd, "%s -c '%s' > '%s'", tool, tn_test_corpus_path(srcs[s].src), dst);
        ck_assert_int_eq(system(cmd), 0);
        struct tn_capture *c;
        struct tn_err err = {0};
        int r = tn_capture_open_file(&c, dst, &err);
        if (r < 0 && strcmp(ext, "zst") == 0) {
            /* Debian's libwandio 1.0 has no zstd: a clear refusal is the right answer. */
            ck_assert_int_eq(r, -TN_EFORMAT);
            ck_assert_msg(strstr(err.msg, "zstd") && strstr(err.msg, name), "%s", err.msg);
            continue;
        }
        ck_assert_msg(r == 0, "%s: %s", dst, err.msg);
        struct tn_frame f;
        ck_assert_msg(tn_capture_next(c, &f, &err) == 1, "%s", err.msg);
        ck_assert_int_eq(f.ts.sec, srcs[s].sec);
        ck_assert_uint_eq(f.ts.nsec, srcs[s].nsec);
        long n = count_frames(c, &err, &r);
        ck_assert_msg(r == 0, "%s: %s", dst, err.msg);
        ck_assert_int_eq(n + 1, srcs[s].frames);
        tn_capture_close(c, NULL);
    }
}
END_TEST

/* A gzip file cut short: libwandio 1.0 reads ahead in large blocks and drops the block in which
 * the compressed data ends, so fewer frames come than the prefix holds; then -TN_ETRUNC.
 *   gzip -c ip-in-mpls.pcap | head -c 150000 > cut.gz; gzip -dc cut.gz | tshark -r - | wc -l
 *   -> 6843 frames in the decompressible prefix (of 10507, MANIFEST.tsv) */
START_TEST(test_compressed_truncated)
{
    char cmd[2048];
    const char *cut = tmp_path("mpls-cut.pcap.gz");
    snprintf(cmd, sizeof cmd, "gzip -c '%s' | head -c 150000 > '%s'",
             tn_test_corpus_path("libtrace/ip-in-mpls.pcap"), cut);
    ck_assert_int_eq(system(cmd), 0);
    struct tn_capture *c;
    struct tn_err err = {0};
    ck_assert_msg(tn_capture_open_file(&c, cut, &err) == 0, "%s", err.msg);
    int r;
    long n = count_frames(c, &err, &r);
    ck_assert_int_eq(r, -TN_ETRUNC);
    ck_assert_int_gt(n, 0);
    ck_assert_int_le(n, 6843);
    char want[1200];
    snprintf(want, sizeof want, "%s: truncated in packet %ld (the compressed data ends early or "
             "is damaged)", cut, n + 1);
    ck_assert_str_eq(err.msg, want);
    struct tn_frame f;
    ck_assert_int_eq(tn_capture_next(c, &f, &err), 0);
    tn_capture_close(c, NULL);
}
END_TEST

/* ---- standard input ---- */

static void read_via_stdin_pipe(const char *file, long want, int64_t sec, uint32_t nsec)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {   /* writer: cat FILE > pipe */
        close(fds[0]);
        FILE *in = fopen(file, "rb");
        char buf[4096];
        size_t n;
        while (in && (n = fread(buf, 1, sizeof buf, in)) > 0)
            if (write(fds[1], buf, n) != (ssize_t)n)
                break;
        _exit(0);
    }
    close(fds[1]);
    int saved = dup(0);
    fflush(stdin);
    ck_assert_int_eq(dup2(fds[0], 0), 0);
    close(fds[0]);
    clearerr(stdin);

    struct tn_capture *c;
    struct tn_err err = {0};
    ck_assert_msg(tn_capture_open_file(&c, "-", &err) == 0, "%s", err.msg);
    struct tn_frame f;
    ck_assert_int_eq(tn_capture_next(c, &f, &err), 1);
    ck_assert_int_eq(f.ts.sec, sec);
    ck_assert_uint_eq(f.ts.nsec, nsec);
    ck_assert_str_eq(f.source, "(stdin)");
    int r;
    long n = count_frames(c, &err, &r);
    ck_assert_msg(r == 0, "%s", err.msg);
    ck_assert_int_eq(n + 1, want);
    tn_capture_close(c, NULL);

    dup2(saved, 0);
    close(saved);
    clearerr(stdin);
    int status;
    waitpid(pid, &status, 0);
}

START_TEST(test_stdin)
{
    read_via_stdin_pipe(tn_test_corpus_path("tcpdump-tests/tcp-handshake-nano.pcap"), 3, 1418145369, 924505488);
    read_via_stdin_pipe(tn_test_corpus_path("libtrace/100_packets.pcapng"), 100, 1095292801, 721000);
}
END_TEST

/* Alexey Kuznetsov's "modified" pcap (magic 0xa1b2cd34, written little-endian: 34 cd b2 a1),
 * 24-byte record headers (the usual 16 + ifindex 4, protocol 2, pkt_type 1, pad 1), link type 14
 * (raw IP, written with OpenBSD's DLT_RAW).
 *   capinfos fritzbox-ip_02.09.09_2049.eth -> "Modified tcpdump - pcap", Raw IP, 54 packets
 *   tshark -r F -c 1 -T fields -e frame.time_epoch -e frame.cap_len -e frame.len
 *     -> 1251917392.099907000 40 40
 *   xxd -s 24 -l 24 F -> 50be9e4a 43860100 28000000 28000000 00000000 0e000000 */
START_TEST(test_pcap_modified)
{
    const char *path = tn_test_corpus_path("wireshark-samplecaptures/fritzbox-ip_02.09.09_2049.eth");
    struct tn_capture *c;
    struct tn_err err = {0};
    ck_assert_msg(tn_capture_open_file(&c, path, &err) == 0, "%s", err.msg);
    struct tn_frame f;
    ck_assert_int_eq(tn_capture_next(c, &f, &err), 1);
    ck_assert_int_eq(f.ts.sec, 1251917392);
    ck_assert_uint_eq(f.ts.nsec, 99907000);
    ck_assert_uint_eq(f.caplen, 40);
    ck_assert_uint_eq(f.wirelen, 40);
    ck_assert_int_eq(f.linktype, 14);
    ck_assert_uint_eq(f.data[0], 0x45);   /* the IPv4 header, not the 8 extra header bytes */
    int r;
    ck_assert_int_eq(1 + count_frames(c, &err, &r), 54);
    ck_assert_msg(r == 0, "%s", err.msg);
    tn_capture_close(c, NULL);
}
END_TEST

/* Plain pcap files are mapped and read in place; libpcap reads everything else.  Both must give
 * the same frames: every frame of these files through tn_capture (mapped) and through libpcap's
 * own pcap_next_ex (nanosecond precision) must agree on time stamp, lengths and bytes.  The files
 * cover both byte orders (100_packets.pcap is little-endian, TNS_Oracle2.pcap big-endian with
 * 2057 time stamps: capinfos "First packet time: 2057-11-28 16:12:52"), nanoseconds, version 2.2
 * with caplen and len swapped (pcap_v2.2.dmp, big-endian too: xxd -l 8 -> a1b2c3d4 0002 0002),
 * and the modified format. */
static const char *const mapped_files[] = {
    "libtrace/100_packets.pcap",
    "libtrace/100_packetsns.pcap",
    "wireshark-samplecaptures/TNS_Oracle2.pcap",
    "tcptrace-input/pcap_v2.2.dmp",
    "wireshark-samplecaptures/fritzbox-ip_02.09.09_2049.eth",
    "tcptrace-input/long_rtt.dmp",
};

START_TEST(test_pcap_mapped_vs_libpcap)
{
    char path[1024], ebuf[PCAP_ERRBUF_SIZE];
    snprintf(path, sizeof path, "%s", tn_test_corpus_path(mapped_files[_i]));
    pcap_t *p = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, ebuf);
    ck_assert_msg(p != NULL, "%s: %s", path, ebuf);
    struct tn_capture *c;
    struct tn_err err = {0};
    ck_assert_msg(tn_capture_open_file(&c, path, &err) == 0, "%s", err.msg);
    struct pcap_pkthdr *h;
    const u_char *d;
    struct tn_frame f;
    long n = 0;
    while (pcap_next_ex(p, &h, &d) == 1) {
        n++;
        ck_assert_int_eq(tn_capture_next(c, &f, &err), 1);
        ck_assert_msg(f.ts.sec == (int64_t)h->ts.tv_sec && f.ts.nsec == (uint32_t)h->ts.tv_usec,
                      "%s frame %ld: time", path, n);
        ck_assert_msg(f.caplen == h->caplen && f.wirelen == h->len, "%s frame %ld: %u/%u vs %u/%u",
                      path, n, f.caplen, f.wirelen, h->caplen, h->len);
        ck_assert_msg(memcmp(f.data, d, h->caplen) == 0, "%s frame %ld: bytes", path, n);
    }
    ck_assert_int_gt(n, 0);
    ck_assert_int_eq(tn_capture_next(c, &f, &err), 0);
    pcap_close(p);
    tn_capture_close(c, NULL);
}
END_TEST

/* ---- bad input ---- */

/* 100_packets.pcap cut at byte 3850: records start at 24 + sum(16 + caplen); packet 52 starts at
 * 3802 with caplen 66, so 32 of its bytes remain.
 *   head -c 3850 100_packets.pcap > cut.pcap; tshark -r cut.pcap | wc -l  -> 51 ("appears to
 *   have been cut short in the middle of a packet"); tcpdump -r cut.pcap -> "truncated dump
 *   file; tried to read 66 captured bytes, only got 32" */
START_TEST(test_truncated_pcap)
{
    const char *cut = tmp_path("cut.pcap");
    copy_prefix(tn_test_corpus_path("libtrace/100_packets.pcap"), cut, 3850);
    struct tn_capture *c;
    struct tn_err err = {0};
    ck_assert(tn_capture_open_file(&c, cut, &err) == 0);
    int r;
    ck_assert_int_eq(count_frames(c, &err, &r), 51);
    ck_assert_int_eq(r, -TN_ETRUNC);
    ck_assert_int_eq(err.code, TN_ETRUNC);
    char want[1200];
    snprintf(want, sizeof want,
             "%s: truncated in packet 52 (record header says 66 bytes, 32 left)", cut);
    ck_assert_str_eq(err.msg, want);
    struct tn_frame f;
    ck_assert_int_eq(tn_capture_next(c, &f, &err), 0);   /* then the end */
    tn_capture_close(c, NULL);

    /* Cut inside a record header (packet 52's header starts at 3802): 51 frames again. */
    copy_prefix(tn_test_corpus_path("libtrace/100_packets.pcap"), cut, 3810);
    ck_assert(tn_capture_open_file(&c, cut, &err) == 0);
    ck_assert_int_eq(count_frames(c, &err, &r), 51);
    ck_assert_int_eq(r, -TN_ETRUNC);
    ck_assert_ptr_nonnull(strstr(err.msg, "truncated in packet 52"));
    tn_capture_close(c, NULL);
}
END_TEST

/* pcapng-example.pcapng cut at byte 2000, inside the 10th EPB (offset 1852, 1296 bytes):
 *   head -c 2000 pcapng-example.pcapng > cut.pcapng; tshark -r cut.pcapng | wc -l -> 9 */
START_TEST(test_truncated_pcapng)
{
    const char *cut = tmp_path("cut.pcapng");
    copy_prefix(tn_test_corpus_path("pcapplusplus/PcapExamples/pcapng-example.pcapng"), cut, 2000);
    struct tn_capture *c;
    struct tn_err err = {0};
    ck_assert(tn_capture_open_file(&c, cut, &err) == 0);
    int r;
    ck_assert_int_eq(count_frames(c, &err, &r), 9);
    ck_assert_int_eq(r, -TN_ETRUNC);
    char want[1200];
    snprintf(want, sizeof want,
             "%s: truncated in packet 10 (block header says 1296 bytes, 148 left)", cut);
    ck_assert_str_eq(err.msg, want);
    tn_capture_close(c, NULL);
}
END_TEST

/* A record header with an absurd captured length mid-file is treated like a cut file: the frames
 * before it stay, -TN_ETRUNC (a warning; the CLI exits 0) names the packet and the problem, and
 * the rest of the file is skipped.  In the FIRST record it is still -TN_EFORMAT.
 *  - 100_packets.pcap, packet 3's caplen (record at byte 172, caplen at 180) set to 0x7fffffff:
 *    tcpdump -r: "invalid packet capture length 2147483647, bigger than snaplen of 65536" after
 *    2 packets;
 *  - packet 1's caplen (byte 32) set to 0x7fffffff: no frame;
 *  - suricata-verify/bug-1450-04/tls_DER-incomplete-header.pcap: capinfos "An error occurred
 *    after reading 6 packets ... File has 4325376-byte packet, bigger than maximum of 262144";
 *  - pcapng-example.pcapng, the 10th EPB (byte 1852, tshark: 9 packets before it) with its block
 *    length (byte 1856) set to 0x7ffffffc (xxd -s 1852 -l 8: 06000000 10050000 = EPB, 1296). */
static const struct bad_rec {
    const char *what, *src, *copy;
    long patch_at;             /* -1: the corpus file as it is */
    const char *patch;
    long frames;
    int rc;
    const char *msg;           /* expected in err.msg */
} bad_recs[] = {
    {"pcap packet 3", "libtrace/100_packets.pcap", "badrec3.pcap", 180, "\xff\xff\xff\x7f", 2,
     -TN_ETRUNC, "badrec3.pcap: packet 3: bad record header"},
    {"pcap packet 1", "libtrace/100_packets.pcap", "badrec1.pcap", 32, "\xff\xff\xff\x7f", 0,
     -TN_EFORMAT, "badrec1.pcap: packet 1: bad record header"},
    {"bug-1450-04", "suricata-verify/bug-1450-04/tls_DER-incomplete-header.pcap", "bug1450.pcap",
     -1, NULL, 6, -TN_ETRUNC, "bug1450.pcap: packet 7: bad record header"},
    {"pcapng packet 10", "pcapplusplus/PcapExamples/pcapng-example.pcapng", "badrec10.pcapng", 1856,
     "\xfc\xff\xff\x7f", 9, -TN_ETRUNC, "badrec10.pcapng: packet 10: block at byte 1852 has a bad "
     "length 2147483644"},
};

static void check_bad_record(const struct bad_rec *br, const char *src)
{
    const char *bad = tmp_path(br->copy);
    copy_prefix(src, bad, -1);
    if (br->patch_at >= 0) {
        FILE *fp = fopen(bad, "r+b");
        ck_assert_ptr_nonnull(fp);
        fseek(fp, br->patch_at, SEEK_SET);
        fwrite(br->patch, 1, 4, fp);
        fclose(fp);
    }
    struct tn_capture *c;
    struct tn_err err = {0};
    ck_assert(tn_capture_open_file(&c, bad, &err) == 0);
    int r;
    ck_assert_int_eq(count_frames(c, &err, &r), br->frames);
    ck_assert_msg(r == br->rc, "%s: rc %d (%s)", br->what, r, err.msg);
    ck_assert_msg(strstr(err.msg, br->msg) != NULL, "%s: %s", br->what, err.msg);
    struct tn_frame f;
    ck_assert_int_eq(tn_capture_next(c, &f, &err), 0);   /* the rest of that file is given up */
    tn_capture_close(c, NULL);
}

START_TEST(test_garbage_record)
{
    check_bad_record(&bad_recs[_i], tn_test_corpus_path(bad_recs[_i].src));
}
END_TEST

/* The same on the sample: loopback-iperf3.pcap's packet 3 record starts at byte 232
 * (24 + 16 + 86 + 16 + 90), its caplen (42) at 240, set to 0x7fffffff: tcpdump -r prints 2
 * packets, then "invalid packet capture length 2147483647, bigger than snaplen of 128". */
START_TEST(test_sample_garbage_record)
{
    static const struct bad_rec br = {"sample packet 3", NULL, "sample-badrec3.pcap", 240,
                                      "\xff\xff\xff\x7f", 2, -TN_ETRUNC,
                                      "sample-badrec3.pcap: packet 3: bad record header"};
    check_bad_record(&br, TN_SAMPLES_DIR "/loopback-iperf3.pcap");
}
END_TEST

START_TEST(test_not_a_trace)
{
    struct tn_capture *c = (struct tn_capture *)1;
    struct tn_err err = {0};
    const char *txt = tmp_path("garbage.txt");
    static const char garbage[] = "This is not a packet trace, just some text.\n";
    write_bytes(txt, garbage, sizeof garbage - 1);
    ck_assert_int_eq(tn_capture_open_file(&c, txt, &err), -TN_EFORMAT);
    ck_assert_ptr_null(c);
    char want[1200];
    snprintf(want, sizeof want, "%s: not a packet trace (unknown format)", txt);
    ck_assert_str_eq(err.msg, want);

    const char *empty = tmp_path("empty.pcap");
    write_bytes(empty, "", 0);
    ck_assert_int_eq(tn_capture_open_file(&c, empty, &err), -TN_EFORMAT);
    ck_assert_ptr_nonnull(strstr(err.msg, "empty.pcap: empty file"));

    /* pcap magic and nothing else: libpcap's "truncated dump file" on the file header */
    write_bytes(tmp_path("hdronly.pcap"), "\xd4\xc3\xb2\xa1\x02\x00\x04\x00", 8);
    ck_assert_int_eq(tn_capture_open_file(&c, tmp_path("hdronly.pcap"), &err), -TN_EFORMAT);
    ck_assert_ptr_nonnull(strstr(err.msg, "hdronly.pcap: not a readable pcap file"));

    ck_assert_int_eq(tn_capture_open_file(&c, TMPDIR "/no-such-file.pcap", &err), -TN_EIO);
    ck_assert_str_eq(err.msg, TMPDIR "/no-such-file.pcap: No such file or directory");
    ck_assert_int_eq(err.code, TN_EIO);

    ck_assert_int_eq(tn_capture_open_file(&c, TMPDIR, &err), -TN_EIO);   /* a directory */
    ck_assert_msg(strstr(err.msg, "Is a directory") != NULL, "%s", err.msg);
}
END_TEST

/* ---- chaining ---- */

START_TEST(test_chain_with_bad_files)
{
    const char *txt = tmp_path("chain-garbage.txt");
    write_bytes(txt, "garbage garbage garbage\n", 24);
    const char *paths[] = {
        tn_test_corpus_path("libtrace/100_packets.pcap"),   /* 100 frames, EN10MB */
        TMPDIR "/missing.pcap",               /* -TN_EIO */
        txt,                                  /* -TN_EFORMAT */
        tn_test_corpus_path("libtrace/100_sll.pcap"),       /* 100 frames, LINUX_SLL (113); tshark -c 1:
                                               * 1095292801.000721000 70 843 */
    };
    struct tn_capture *c;
    struct tn_err err = {0};
    ck_assert_int_eq(tn_capture_open_files(&c, paths, 4, &err), 0);
    ck_assert_str_eq(tn_capture_backend(c), "pcap");
    struct tn_frame f;
    int r;
    for (int i = 1; i <= 100; i++) {
        ck_assert_int_eq(tn_capture_next(c, &f, &err), 1);
        ck_assert_uint_eq(f.num, (uint64_t)i);
    }
    ck_assert_str_eq(f.source, paths[0]);
    r = tn_capture_next(c, &f, &err);
    ck_assert_int_eq(r, -TN_EIO);
    ck_assert_ptr_nonnull(strstr(err.msg, "missing.pcap: No such file or directory"));
    r = tn_capture_next(c, &f, &err);
    ck_assert_int_eq(r, -TN_EFORMAT);
    ck_assert_ptr_nonnull(strstr(err.msg, "chain-garbage.txt: not a packet trace"));
    ck_assert_int_eq(tn_capture_next(c, &f, &err), 1);
    ck_assert_uint_eq(f.num, 1);
    ck_assert_str_eq(f.source, paths[3]);
    ck_assert_int_eq(f.linktype, 113);
    ck_assert_uint_eq(f.caplen, 70);
    ck_assert_uint_eq(f.wirelen, 843);
    long n = count_frames(c, &err, &r);
    ck_assert_int_eq(r, 0);
    ck_assert_int_eq(n, 99);
    struct tn_capture_stats st;
    tn_capture_get_stats(c, &st);
    ck_assert_uint_eq(st.frames, 200);
    tn_capture_close(c, NULL);

    /* An unreadable first file is told by the first next(), not by the open. */
    const char *first_bad[] = {TMPDIR "/missing.pcap", tn_test_corpus_path("libtrace/qinq.pcap")};
    ck_assert_int_eq(tn_capture_open_files(&c, first_bad, 2, &err), 0);
    ck_assert_int_eq(tn_capture_next(c, &f, &err), -TN_EIO);
    ck_assert_int_eq(count_frames(c, &err, &r), 2);   /* MANIFEST: qinq.pcap 2 packets */
    ck_assert_int_eq(r, 0);
    tn_capture_close(c, NULL);
}
END_TEST

/* ---- pcap writer (-w, --export) ---- */

static void dump_and_compare(const char *src, const char *dst, long want_written,
                             uint64_t want_skipped)
{
    struct tn_capture *c, *d;
    struct tn_err err = {0};
    unlink(dst);
    ck_assert(tn_capture_open_file(&c, src, &err) == 0);
    struct tn_pcap_writer *w;
    ck_assert_msg(tn_pcap_writer_open(&w, dst, tn_capture_snaplen(c), false, &err) == 0, "%s", err.msg);
    struct tn_frame f;
    int r;
    while ((r = tn_capture_next(c, &f, &err)) == 1)
        ck_assert_int_ge(tn_pcap_writer_put(w, f.linktype, f.ts, f.data, f.caplen, f.wirelen, &err), 0);
    ck_assert_int_eq(r, 0);
    ck_assert_uint_eq(tn_pcap_writer_skipped(w), want_skipped);
    ck_assert_int_eq(access(dst, F_OK), -1);          /* written under a temporary name ... */
    ck_assert_int_eq(tn_pcap_writer_close(w, tn_capture_linktype(c), &err), 0);
    ck_assert_int_eq(access(dst, F_OK), 0);           /* ... renamed at close */
    tn_capture_close(c, NULL);

    /* Frame by frame: the dump holds the source's frames of the first link type. */
    ck_assert(tn_capture_open_file(&c, src, &err) == 0);
    ck_assert_msg(tn_capture_open_file(&d, dst, &err) == 0, "%s", err.msg);
    ck_assert_str_eq(tn_capture_backend(d), "pcap");
    struct tn_frame a, b;
    long n = 0;
    int lt = -1;
    while (tn_capture_next(c, &a, &err) == 1) {
        if (lt < 0)
            lt = a.linktype;
        if (a.linktype != lt)
            continue;
        ck_assert_int_eq(tn_capture_next(d, &b, &err), 1);
        ck_assert_int_eq(a.ts.sec, b.ts.sec);
        ck_assert_uint_eq(a.ts.nsec, b.ts.nsec);
        ck_assert_uint_eq(a.caplen, b.caplen);
        ck_assert_uint_eq(a.wirelen, b.wirelen);
        ck_assert_int_eq(a.linktype, b.linktype);
        ck_assert_int_eq(memcmp(a.data, b.data, a.caplen), 0);
        n++;
    }
    ck_assert_int_eq(tn_capture_next(d, &b, &err), 0);
    ck_assert_int_eq(n, want_written);
    tn_capture_close(c, NULL);
    tn_capture_close(d, NULL);
}

START_TEST(test_dump_round_trip)
{
    dump_and_compare(tn_test_corpus_path("tcpdump-tests/tcp-handshake-nano.pcap"), tmp_path("dump-nano.pcap"),
                     3, 0);
    dump_and_compare(tn_test_corpus_path("libtrace/100_packets.pcap"), tmp_path("dump-100.pcap"), 100, 0);
    /* complex.pcapng: 4 Ethernet frames written, the BSD-loopback one skipped and counted */
    dump_and_compare(tn_test_corpus_path("libtrace/complex.pcapng"), tmp_path("dump-complex.pcap"), 4, 1);
    dump_and_compare(tn_test_corpus_path("tcptrace-input/other-formats/eth.erf"), tmp_path("dump-erf.pcap"),
                     22, 0);
}
END_TEST

/* The writer's failures: no such directory, a final name it cannot take (the .tmp is removed),
 * no frame at all (still a valid file of the link type given), an abort (nothing left). */
START_TEST(test_writer_failures)
{
    struct tn_pcap_writer *w;
    struct tn_err err = {0};
    ck_assert_int_eq(tn_pcap_writer_open(&w, TMPDIR "/no/such/dir/x.pcap", 0, false, &err), -TN_EIO);
    ck_assert_msg(strstr(err.msg, "x.pcap: cannot create a file in its directory: No such file or "
                             "directory"), "%s", err.msg);

    const char *dir = tmp_path("writer-isdir");
    mkdir(dir, 0700);
    ck_assert_int_eq(tn_pcap_writer_open(&w, dir, 0, false, &err), 0);
    uint8_t frame[60] = {0};
    ck_assert_int_eq(tn_pcap_writer_put(w, 1, (struct tn_time){1, 2}, frame, 60, 60, &err), 1);
    ck_assert_int_eq(tn_pcap_writer_put(w, 113, (struct tn_time){1, 3}, frame, 60, 60, &err), 0);
    ck_assert_uint_eq(tn_pcap_writer_skipped(w), 1);
    ck_assert_int_eq(tn_pcap_writer_close(w, -1, &err), -TN_EIO);
    ck_assert_ptr_nonnull(strstr(err.msg, "cannot rename"));
    char tmp[1100];

    const char *empty = tmp_path("writer-empty.pcap");
    ck_assert_int_eq(tn_pcap_writer_open(&w, empty, 0, false, &err), 0);
    ck_assert_int_eq(tn_pcap_writer_close(w, 113, &err), 0);
    struct tn_capture *c;
    ck_assert_msg(tn_capture_open_file(&c, empty, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(tn_capture_linktype(c), 113);
    struct tn_frame f;
    ck_assert_int_eq(tn_capture_next(c, &f, &err), 0);
    tn_capture_close(c, NULL);

    const char *gone = tmp_path("writer-abort.pcap");
    ck_assert_int_eq(tn_pcap_writer_open(&w, gone, 0, false, &err), 0);
    tn_pcap_writer_abort(w);
    ck_assert_int_eq(access(gone, F_OK), -1);
    snprintf(tmp, sizeof tmp, "find %s -name '.writer-*' | grep -q .", TMPDIR);
    ck_assert_int_ne(system(tmp), 0);   /* no temporary left, of the rename failure or the abort */
}
END_TEST

/* ---- the project's own samples (run on every clone; the corpus tests above need ../shared) ---- */

#define SAMPLE(name) TN_SAMPLES_DIR "/" name

/* capinfos -c FILE; tshark -r FILE -c 2 -T fields -e frame.time_epoch -e frame.cap_len
 * -e frame.len.  loopback-iperf3.pcap has microsecond stamps, snd1_eth0.pcap nanosecond ones
 * (file(1): "pcap capture file, microsecond ts" / "nanosecond ts"). */
static const struct sample_pcap {
    const char *path;
    long frames;
    int64_t sec;
    uint32_t nsec, caplen, nsec2;
} sample_pcaps[] = {
    {SAMPLE("loopback-iperf3.pcap"), 1353, 1796044016, 989951000, 86, 257902000},
    {SAMPLE("reno-smallq/snd1_eth0.pcap"), 3455, 1796045296, 59940074, 74, 80178481},
};

START_TEST(test_sample_pcap)
{
    const struct sample_pcap *sp = &sample_pcaps[_i];
    struct tn_capture *c;
    struct tn_err err = {0};
    ck_assert_msg(tn_capture_open_file(&c, sp->path, &err) == 0, "%s", err.msg);
    ck_assert_str_eq(tn_capture_backend(c), "pcap");
    struct tn_frame f;
    ck_assert_int_eq(tn_capture_next(c, &f, &err), 1);
    ck_assert_int_eq(f.ts.sec, sp->sec);
    ck_assert_uint_eq(f.ts.nsec, sp->nsec);
    ck_assert_uint_eq(f.caplen, sp->caplen);
    ck_assert_uint_eq(f.wirelen, sp->caplen);
    ck_assert_int_eq(f.linktype, 1);
    ck_assert_str_eq(f.source, sp->path);
    ck_assert_int_eq(tn_capture_next(c, &f, &err), 1);
    ck_assert_uint_eq(f.ts.nsec, sp->nsec2);
    ck_assert_uint_eq(f.num, 2);
    int r;
    long n = count_frames(c, &err, &r);
    ck_assert_int_eq(r, 0);
    ck_assert_int_eq(n + 2, sp->frames);
    tn_capture_close(c, NULL);
}
END_TEST

/* The own pcapng reader against the pcap reader on the same frames: editcap -F pcapng writes the
 * sample as pcapng (SHB, IDB with if_tsresol, EPBs); every frame must come back identical. */
START_TEST(test_sample_pcapng_equals_pcap)
{
    const struct sample_pcap *sp = &sample_pcaps[_i];
    if (system("command -v editcap >/dev/null 2>&1") != 0) {
        fprintf(stderr, "test_sample_pcapng_equals_pcap: skipped (no editcap)\n");
        return;
    }
    const char *ng = tmp_path(_i ? "sample1.pcapng" : "sample0.pcapng");
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "editcap -F pcapng '%s' '%s'", sp->path, ng);
    ck_assert_int_eq(system(cmd), 0);
    struct tn_capture *a, *b;
    struct tn_err err = {0};
    ck_assert(tn_capture_open_file(&a, sp->path, &err) == 0);
    ck_assert_msg(tn_capture_open_file(&b, ng, &err) == 0, "%s", err.msg);
    ck_assert_str_eq(tn_capture_backend(b), "pcapng-own");
    struct tn_frame fa, fb;
    long n = 0;
    while (tn_capture_next(a, &fa, &err) == 1) {
        ck_assert_msg(tn_capture_next(b, &fb, &err) == 1, "frame %ld: %s", n + 1, err.msg);
        ck_assert_int_eq(fa.ts.sec, fb.ts.sec);
        ck_assert_uint_eq(fa.ts.nsec, fb.ts.nsec);
        ck_assert_uint_eq(fa.caplen, fb.caplen);
        ck_assert_uint_eq(fa.wirelen, fb.wirelen);
        ck_assert_int_eq(fa.linktype, fb.linktype);
        ck_assert_int_eq(memcmp(fa.data, fb.data, fa.caplen), 0);
        n++;
    }
    ck_assert_int_eq(tn_capture_next(b, &fb, &err), 0);
    ck_assert_int_eq(n, sp->frames);
    tn_capture_close(a, NULL);
    tn_capture_close(b, NULL);
}
END_TEST

/* gzip, bzip2 and xz copies of a sample read as the original (zstd: refused, see
 * test_compressed). */
START_TEST(test_sample_compressed)
{
    const struct sample_pcap *sp = &sample_pcaps[0];
    const char *tool = zips[_i].tool, *ext = zips[_i].ext;
    char name[64], cmd[2048];
    snprintf(name, sizeof name, "sample.pcap.%s", ext);
    const char *dst = tmp_path(name);
    snprintf(cmd, sizeof cmd, "%s -c '%s' > '%s'", tool, sp->path, dst);
    ck_assert_int_eq(system(cmd), 0);
    struct tn_capture *c;
    struct tn_err err = {0};
    int r = tn_capture_open_file(&c, dst, &err);
    if (r < 0 && strcmp(ext, "zst") == 0) {
        ck_assert_int_eq(r, -TN_EFORMAT);
        ck_assert_msg(strstr(err.msg, "zstd") && strstr(err.msg, name), "%s", err.msg);
        return;
    }
    ck_assert_msg(r == 0, "%s: %s", dst, err.msg);
    struct tn_frame f;
    ck_assert_msg(tn_capture_next(c, &f, &err) == 1, "%s", err.msg);
    ck_assert_int_eq(f.ts.sec, sp->sec);
    ck_assert_uint_eq(f.ts.nsec, sp->nsec);
    long n = count_frames(c, &err, &r);
    ck_assert_msg(r == 0, "%s: %s", dst, err.msg);
    ck_assert_int_eq(n + 1, sp->frames);
    tn_capture_close(c, NULL);
}
END_TEST

START_TEST(test_sample_stdin)
{
    const struct sample_pcap *sp = &sample_pcaps[_i];
    read_via_stdin_pipe(sp->path, sp->frames, sp->sec, sp->nsec);
}
END_TEST

/* loopback-iperf3.pcap: every record is 16 + caplen bytes after the 24-byte file header; packet
 * 100 starts at byte 11724 with caplen 128 (python walk of the record headers).
 *   head -c 11800 F > cut.pcap; tshark -r cut.pcap | wc -l -> 99; tcpdump -r cut.pcap ->
 *   "truncated dump file; tried to read 128 captured bytes, only got 60"
 *   head -c 11730 F (inside packet 100's record header) -> 99 */
START_TEST(test_sample_truncated)
{
    const char *cut = tmp_path("sample-cut.pcap");
    copy_prefix(sample_pcaps[0].path, cut, 11800);
    struct tn_capture *c;
    struct tn_err err = {0};
    ck_assert(tn_capture_open_file(&c, cut, &err) == 0);
    int r;
    ck_assert_int_eq(count_frames(c, &err, &r), 99);
    ck_assert_int_eq(r, -TN_ETRUNC);
    char want[1200];
    snprintf(want, sizeof want,
             "%s: truncated in packet 100 (record header says 128 bytes, 60 left)", cut);
    ck_assert_str_eq(err.msg, want);
    struct tn_frame f;
    ck_assert_int_eq(tn_capture_next(c, &f, &err), 0);
    tn_capture_close(c, NULL);

    copy_prefix(sample_pcaps[0].path, cut, 11730);
    ck_assert(tn_capture_open_file(&c, cut, &err) == 0);
    ck_assert_int_eq(count_frames(c, &err, &r), 99);
    ck_assert_int_eq(r, -TN_ETRUNC);
    ck_assert_ptr_nonnull(strstr(err.msg, "truncated in packet 100"));
    tn_capture_close(c, NULL);
}
END_TEST

/* Two samples chained around a missing file and a text file: frames numbered per file, the bad
 * files told in order, the counts of both samples (capinfos) in the total. */
START_TEST(test_sample_chain)
{
    const char *txt = tmp_path("sample-chain.txt");
    write_bytes(txt, "not a trace\n", 12);
    const char *paths[] = {sample_pcaps[0].path, TMPDIR "/missing.pcap", txt, sample_pcaps[1].path};
    struct tn_capture *c;
    struct tn_err err = {0};
    ck_assert_int_eq(tn_capture_open_files(&c, paths, 4, &err), 0);
    int r;
    ck_assert_int_eq(count_frames(c, &err, &r), sample_pcaps[0].frames);
    ck_assert_int_eq(r, -TN_EIO);
    ck_assert_ptr_nonnull(strstr(err.msg, "missing.pcap: No such file or directory"));
    struct tn_frame f;
    ck_assert_int_eq(tn_capture_next(c, &f, &err), -TN_EFORMAT);
    ck_assert_ptr_nonnull(strstr(err.msg, "sample-chain.txt: not a packet trace"));
    ck_assert_int_eq(tn_capture_next(c, &f, &err), 1);
    ck_assert_uint_eq(f.num, 1);
    ck_assert_str_eq(f.source, paths[3]);
    ck_assert_uint_eq(f.ts.nsec, sample_pcaps[1].nsec);
    ck_assert_int_eq(count_frames(c, &err, &r) + 1, sample_pcaps[1].frames);
    ck_assert_int_eq(r, 0);
    struct tn_capture_stats st;
    tn_capture_get_stats(c, &st);
    ck_assert_uint_eq(st.frames, (uint64_t)(sample_pcaps[0].frames + sample_pcaps[1].frames));
    tn_capture_close(c, NULL);
}
END_TEST

START_TEST(test_sample_dump_round_trip)
{
    dump_and_compare(sample_pcaps[_i].path, tmp_path(_i ? "dump-s1.pcap" : "dump-s0.pcap"),
                     sample_pcaps[_i].frames, 0);
}
END_TEST

/* ---- live (root only; skipped otherwise) ---- */

START_TEST(test_live_loopback)
{
    struct tn_capture *c;
    struct tn_err err = {0};
    struct tn_live_opts o = {.iface = "lo", .filter = "udp and dst port 39253", .snaplen = 0,
                             .immediate = true};
    int r = tn_capture_open_live(&c, &o, &err);
    if (r < 0 && geteuid() != 0) {
        fprintf(stderr, "test_live_loopback: skipped (not root: %s)\n", err.msg);
        return;
    }
    ck_assert_msg(r == 0, "%s", err.msg);
    ck_assert_str_eq(tn_capture_backend(c), "live");
    int s = socket(AF_INET, SOCK_DGRAM, 0);
    ck_assert_int_ge(s, 0);
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(39253)};
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    char payload[300];
    memset(payload, 'x', sizeof payload);
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(sendto(s, payload, sizeof payload, 0, (struct sockaddr *)&to, sizeof to),
                         (int)sizeof payload);
    close(s);
    struct tn_frame f;
    for (int i = 1; i <= 5; i++) {
        ck_assert_msg(tn_capture_next(c, &f, &err) == 1, "%s", err.msg);
        ck_assert_int_eq(f.linktype, 1);             /* lo is DLT_EN10MB on Linux */
        ck_assert_uint_eq(f.caplen, 256);            /* default snaplen */
        ck_assert_uint_eq(f.wirelen, 14 + 20 + 8 + 300);
        ck_assert_uint_eq(f.num, (uint64_t)i);
        ck_assert_str_eq(f.source, "lo");
    }
    struct tn_capture_stats st;
    tn_capture_get_stats(c, &st);
    ck_assert(st.live);
    ck_assert_uint_eq(st.frames, 5);
    ck_assert_uint_ge(st.kernel_recv, 5);
    tn_capture_break(c);
    ck_assert_int_eq(tn_capture_next(c, &f, &err), 0);
    tn_capture_close(c, NULL);

    o.filter = "this is not bpf";
    ck_assert_int_eq(tn_capture_open_live(&c, &o, &err), -TN_EUSAGE);
    ck_assert_ptr_nonnull(strstr(err.msg, "lo: bad filter"));
    o.iface = "tn-no-such-if0";
    o.filter = NULL;
    ck_assert_int_lt(tn_capture_open_live(&c, &o, &err), 0);
    ck_assert_ptr_nonnull(strstr(err.msg, "tn-no-such-if0"));
}
END_TEST

/* A warning of a successful live open is kept with the capture (not in the error buffer):
 * libpcap on Linux turns promiscuous mode off on the "any" device and activates it with
 * PCAP_WARNING_PROMISC_NOTSUP (pcap-linux.c).  A file capture has no warning. */
START_TEST(test_live_warning)
{
    struct tn_capture *c;
    struct tn_err err = {0};
    ck_assert_int_eq(tn_capture_open_file(&c, TN_SAMPLES_DIR "/loopback-iperf3.pcap", &err), 0);
    ck_assert_ptr_null(tn_capture_warning(c, 0));
    tn_capture_close(c, NULL);

    struct tn_live_opts o = {.iface = "any", .promisc = true, .filter = "udp port 9"};
    int r = tn_capture_open_live(&c, &o, &err);
    if (r < 0 && geteuid() != 0) {
        fprintf(stderr, "test_live_warning: skipped (not root: %s)\n", err.msg);
        return;
    }
    ck_assert_msg(r == 0, "%s", err.msg);
    const char *w = tn_capture_warning(c, 0);
    ck_assert_ptr_nonnull(w);
    ck_assert_msg(strncmp(w, "any: ", 5) == 0 && strstr(w, "romisc"), "%s", w);
    ck_assert_ptr_null(tn_capture_warning(c, 1));
    tn_capture_close(c, NULL);
}
END_TEST

Suite *tn_capture_suite(void)
{
    Suite *s = suite_create("capture");
    TCase *tc = tcase_create("own");   /* hand-made bytes and the project's samples */
    tcase_add_unchecked_fixture(tc, setup_tmp, NULL);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_pcapng_opb_binary_resolution);
    tcase_add_test(tc, test_erf_probe_random);
    tcase_add_test(tc, test_not_a_trace);
    tcase_add_loop_test(tc, test_sample_pcap, 0, (int)TN_ARRAY_LEN(sample_pcaps));
    tcase_add_loop_test(tc, test_sample_pcapng_equals_pcap, 0, (int)TN_ARRAY_LEN(sample_pcaps));
    tcase_add_loop_test(tc, test_sample_compressed, 0, (int)TN_ARRAY_LEN(zips));
    tcase_add_loop_test(tc, test_sample_stdin, 0, (int)TN_ARRAY_LEN(sample_pcaps));
    tcase_add_test(tc, test_sample_truncated);
    tcase_add_test(tc, test_sample_chain);
    tcase_add_test(tc, test_sample_garbage_record);
    tcase_add_loop_test(tc, test_sample_dump_round_trip, 0, (int)TN_ARRAY_LEN(sample_pcaps));
    tcase_add_test(tc, test_writer_failures);
    suite_add_tcase(s, tc);

    tc = tn_test_corpus_tcase(s, "capture-corpus");
    if (tc) {
        tcase_add_unchecked_fixture(tc, setup_tmp, NULL);
        tcase_set_timeout(tc, 60);
        tcase_add_loop_test(tc, test_pcap_us_and_ns, 0, (int)TN_ARRAY_LEN(us_ns));
        tcase_add_test(tc, test_pcap_nanoseconds_exact);
        tcase_add_test(tc, test_pcap_modified);
        tcase_add_loop_test(tc, test_pcap_mapped_vs_libpcap, 0, (int)TN_ARRAY_LEN(mapped_files));
        tcase_add_test(tc, test_pcapng_mixed_linktypes_big_endian);
        tcase_add_test(tc, test_pcapng_tsresol_per_interface);
        tcase_add_loop_test(tc, test_pcapng_counts, 0, (int)TN_ARRAY_LEN(ng_counts));
        tcase_add_loop_test(tc, test_time_stamps_held, 0, (int)TN_ARRAY_LEN(held_ts));
        tcase_add_test(tc, test_pcapng_many_interfaces);
        tcase_add_loop_test(tc, test_erf, 0, (int)TN_ARRAY_LEN(erfs));
        tcase_add_test(tc, test_erf_without_extension);
        tcase_add_loop_test(tc, test_compressed, 0, (int)TN_ARRAY_LEN(zips));
        tcase_add_test(tc, test_compressed_truncated);
        tcase_add_test(tc, test_stdin);
        tcase_add_test(tc, test_truncated_pcap);
        tcase_add_test(tc, test_truncated_pcapng);
        tcase_add_loop_test(tc, test_garbage_record, 0, (int)TN_ARRAY_LEN(bad_recs));
        tcase_add_test(tc, test_chain_with_bad_files);
        tcase_add_test(tc, test_dump_round_trip);
    }

    TCase *live = tcase_create("live");
    tcase_set_timeout(live, 30);
    tcase_add_test(live, test_live_loopback);
    tcase_add_test(live, test_live_warning);
    suite_add_tcase(s, live);
    return s;
}
