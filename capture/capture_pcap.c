/* capture_pcap.c - libpcap backends: classic pcap files (us and ns) and live interfaces.
 *
 * Plain files are read by our own record reader (see "offline" below); other inputs are read with
 * pcap_fopen_offline_with_tstamp_precision(PCAP_TSTAMP_PRECISION_NANO), so a microsecond file's
 * time stamps are scaled by libpcap to exact nanoseconds and a nanosecond file's are kept.
 * Reference: pcap-savefile(5), pcap_next_ex(3PCAP), pcap_create(3PCAP), pcap_activate(3PCAP).
 */
#include "capture_int.h"

#include <errno.h>
#include <fcntl.h>
#include <pcap/pcap.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* pcap_datalink() returns the DLT_ of this platform; a few differ from the LINKTYPE_ written in
 * files (libpcap's pcap-common.c, dlt_to_linktype).  Only the Linux ones that matter here. */
static const struct {
    int dlt, linktype;
} dlt_map[] = {
    {DLT_ATM_RFC1483, TN_LINK_ATM_RFC1483},  /* 11 -> 100 */
    {DLT_RAW, TN_LINK_RAW},                  /* 12 -> 101 */
#ifdef DLT_SLIP_BSDOS
    {DLT_SLIP_BSDOS, TN_LINK_SLIP_BSDOS},
    {DLT_PPP_BSDOS, TN_LINK_PPP_BSDOS},
#endif
    {0, 0},
};

static int dlt_to_linktype(int dlt)
{
    for (size_t i = 0; dlt_map[i].dlt || dlt_map[i].linktype; i++)
        if (dlt_map[i].dlt == dlt)
            return dlt_map[i].linktype;
    return dlt;
}

/* ---- offline ----
 *
 * A plain file is read by our own record reader in large chunks (pread of 1 MiB, more for a
 * larger record) into one buffer, and a frame's data is a pointer into it: one system call per
 * chunk and no allocation or copy per record (libpcap's loop is fread + memcpy per record, a
 * quarter of the whole run on large traces).  It used to map the file, but a mapped file that is
 * truncated while it is read (tcpdump -C/-W rotation) kills the process with SIGBUS; reading
 * sees the new end instead, and says so.  The record reader follows libpcap 1.10's sf-pcap.c so
 * that frames, lengths, time stamps, link types and the truncation messages are the same on both
 * paths.  Standard input, pipes and decompressed streams go through libpcap, as does any file
 * whose header this reader does not take (libpcap then gives its own message).
 *
 * File header (24 bytes): magic, version major (2) / minor, thiszone, sigfigs, snaplen,
 * linktype (low 26 bits; FCS bits above).  Record header: ts_sec, ts_usec (ns in nanosecond
 * files), caplen, len; Kuznetsov's modified format adds ifindex(4), protocol(2), pkt_type(1),
 * pad(1).  Versions before 2.3 (and DG/UX's 543.0) have caplen and len swapped; 2.3 files may
 * have them either way (libpcap swaps when caplen > len). */

enum {
    PCAP_FILE_HDR = 24,
    PCAP_REC_HDR = 16,
    PCAP_REC_HDR_KUZNETSOV = 24,
    PCAP_MAX_SNAPLEN = 262144,     /* libpcap's MAXIMUM_SNAPLEN */
};

#define PCAP_CHUNK ((size_t)1 << 20)   /* bytes read at a time */

enum lengths { LEN_NOT_SWAPPED, LEN_MAYBE_SWAPPED, LEN_SWAPPED };

struct pcapfile {
    pcap_t *p;                /* libpcap reader, or NULL for our own */
    int linktype;
    bool compressed;

    /* own reader */
    FILE *fp;                 /* owned; read with pread on its descriptor */
    int fd;
    uint8_t *buf;             /* bytes [pos, len) of the buffer are read but not used yet */
    size_t bufcap, pos, len;
    uint64_t buf_off;         /* file offset of buf[0] */
    uint64_t size_at_open;
    bool eof, ioerr;
    bool swap, nsec;
    unsigned rec_hdr;
    enum lengths lengths;
    uint32_t snapshot, max_snap;
    uint64_t frames;
};

static bool pcapfile_probe(const uint8_t *m, size_t len, const char *path)
{
    (void)path;
    if (len < 4)
        return false;
    uint32_t be = (uint32_t)m[0] << 24 | (uint32_t)m[1] << 16 | (uint32_t)m[2] << 8 | m[3];
    return be == 0xa1b2c3d4 || be == 0xd4c3b2a1 ||   /* microsecond, either byte order */
           be == 0xa1b23c4d || be == 0x4d3cb2a1 ||   /* nanosecond */
           be == 0xa1b2cd34 || be == 0x34cdb2a1;     /* Kuznetsov's "modified" pcap: 24-byte
                                                      * records (+ ifindex, protocol, pkt_type,
                                                      * pad); libpcap reads it (sf-pcap.c) */
}

/* libpcap's max_snaplen_for_dlt (pcap-int.h): a record longer than this is corrupt. */
static uint32_t max_snaplen(int linktype)
{
    switch (linktype) {
    case TN_LINK_DBUS:
        return 128u * 1024 * 1024;
    case TN_LINK_EBHSCR:
        return 8u * 1024 * 1024;
    case TN_LINK_USBPCAP:
        return 1024u * 1024;
    default:
        return PCAP_MAX_SNAPLEN;
    }
}

static uint32_t mm32(const struct pcapfile *pf, const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return pf->swap ? __builtin_bswap32(v) : v;
}

/* The next n bytes of the file as a pointer into the buffer, valid until the next call; *got <
 * n only at the end of the file as it is now (or on a read error: pf->ioerr). */
static const uint8_t *take(struct pcapfile *pf, size_t n, size_t *got)
{
    if (pf->len - pf->pos < n && !pf->eof) {
        size_t have = pf->len - pf->pos;
        if (pf->pos && have)
            memmove(pf->buf, pf->buf + pf->pos, have);
        pf->buf_off += pf->pos;
        pf->pos = 0;
        pf->len = have;
        tn_grow((void **)&pf->buf, &pf->bufcap, n > PCAP_CHUNK ? n : PCAP_CHUNK, 1);
        while (pf->len < n) {
            ssize_t r = pread(pf->fd, pf->buf + pf->len, pf->bufcap - pf->len,
                              (off_t)(pf->buf_off + pf->len));
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0) {
                pf->ioerr = r < 0;
                pf->eof = true;
                break;
            }
            pf->len += (size_t)r;
        }
    }
    size_t have = pf->len - pf->pos;
    *got = have < n ? have : n;
    const uint8_t *p = pf->buf + pf->pos;
    pf->pos += *got;
    return p;
}

/* Take fp's file when it is a plain file with a header this reader takes; false otherwise (the
 * caller goes on with libpcap, fp untouched). */
static bool pcapfile_own(struct pcapfile *pf, FILE *fp)
{
    int fd = fileno(fp);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size < PCAP_FILE_HDR)
        return false;
    uint8_t h[PCAP_FILE_HDR];
    if (pread(fd, h, sizeof h, 0) != (ssize_t)sizeof h)
        return false;
    uint32_t magic;
    memcpy(&magic, h, 4);
    bool swap = false;
    if (magic == 0xd4c3b2a1u || magic == 0x4d3cb2a1u || magic == 0x34cdb2a1u) {
        swap = true;
        magic = __builtin_bswap32(magic);
    }
    pf->swap = swap;
    uint16_t major, minor;
    memcpy(&major, h + 4, 2);
    memcpy(&minor, h + 6, 2);
    if (swap) {
        major = __builtin_bswap16(major);
        minor = __builtin_bswap16(minor);
    }
    if (!(magic == 0xa1b2c3d4u || magic == 0xa1b23c4du || magic == 0xa1b2cd34u) ||
        !((major == 2 && minor <= 4) || (major == 543 && minor == 0)))
        return false;          /* libpcap says what is wrong */
    pf->nsec = magic == 0xa1b23c4du;
    pf->rec_hdr = magic == 0xa1b2cd34u ? PCAP_REC_HDR_KUZNETSOV : PCAP_REC_HDR;
    pf->lengths = major == 543 || (major == 2 && minor < 3) ? LEN_SWAPPED
                  : major == 2 && minor == 3               ? LEN_MAYBE_SWAPPED
                                                           : LEN_NOT_SWAPPED;
    int lt = (int)(mm32(pf, h + 20) & 0x03ffffffu);
    pf->linktype = dlt_to_linktype(lt);
    pf->max_snap = max_snaplen(lt);
    pf->snapshot = mm32(pf, h + 16);
    if (pf->snapshot == 0 || pf->snapshot > pf->max_snap)
        pf->snapshot = pf->max_snap;    /* pcap_adjust_snapshot */
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    pf->fp = fp;
    pf->fd = fd;
    pf->buf_off = PCAP_FILE_HDR;
    pf->size_at_open = (uint64_t)sb.st_size;
    return true;
}

/* A file that ends before the size it had when opened was cut while it was read (tcpdump -C/-W
 * rotation), one that ends after it grew: what was there has been read; say so.  0 when the
 * file ends where it did when opened. */
static int end_of_file(struct pcapfile *pf, uint64_t num, const char *name, size_t left,
                       struct tn_err *err)
{
    uint64_t end = pf->buf_off + pf->len;
    if (pf->ioerr)
        return tn_err_set(err, TN_EIO, "%s: read error in packet %llu: %s", name,
                          (unsigned long long)num, strerror(errno));
    if (end < pf->size_at_open)
        return tn_err_set(err, TN_ETRUNC, "%s: the file shrank from %llu to %llu bytes while it "
                          "was read; %llu packets were read%s", name,
                          (unsigned long long)pf->size_at_open, (unsigned long long)end,
                          (unsigned long long)pf->frames,
                          left ? " (the last record is cut)" : "");
    if (end > pf->size_at_open)
        return tn_err_set(err, TN_ETRUNC, "%s: the file grew from %llu to %llu bytes while it "
                          "was read; %llu packets were read, up to its end then%s", name,
                          (unsigned long long)pf->size_at_open, (unsigned long long)end,
                          (unsigned long long)pf->frames,
                          left ? " (the last record is cut)" : "");
    return 0;
}

/* A record header that makes no sense: in the first record the file is not what its magic
 * says (a format error); later the frames before it stand and the file is treated as cut there
 * (a warning), as libpcap's errors are (map_pcap_error). */
static int bad_record(bool after_first, uint64_t num, const char *name, const char *why,
                      struct tn_err *err)
{
    if (after_first)
        return tn_err_set(err, TN_ETRUNC, "%s: packet %llu: bad record header (%s); the rest of "
                          "the file is skipped, as if cut there", name, (unsigned long long)num, why);
    return tn_err_set(err, TN_EFORMAT, "%s: packet %llu: bad record header (%s)", name,
                      (unsigned long long)num, why);
}

static int own_next(struct pcapfile *pf, struct tn_frame *f, uint64_t num, const char *name,
                    struct tn_err *err)
{
    size_t got;
    const uint8_t *h = take(pf, pf->rec_hdr, &got);
    if (got == 0)
        return end_of_file(pf, num, name, 0, err);
    if (got < pf->rec_hdr) {
        int r = end_of_file(pf, num, name, got, err);
        if (r)
            return r;
        return tn_err_set(err, TN_ETRUNC,
                          "%s: truncated in packet %llu (record header cut: %zu of %u bytes)",
                          name, (unsigned long long)num, got, pf->rec_hdr);
    }
    uint32_t sec = mm32(pf, h), frac = mm32(pf, h + 4);
    uint32_t caplen = mm32(pf, h + 8), len = mm32(pf, h + 12);
    if (pf->lengths == LEN_SWAPPED || (pf->lengths == LEN_MAYBE_SWAPPED && caplen > len)) {
        uint32_t t = caplen;
        caplen = len;
        len = t;
    }
    char why[128] = "";
    if (caplen > pf->max_snap)
        snprintf(why, sizeof why, "captured length %u, bigger than the maximum of %u", caplen,
                 pf->max_snap);
    if (why[0])
        return bad_record(pf->frames > 0, num, name, why, err);
    const uint8_t *data = take(pf, caplen, &got);
    if (got < caplen) {
        int r = end_of_file(pf, num, name, got, err);
        if (r)
            return r;
        return tn_err_set(err, TN_ETRUNC,
                          "%s: truncated in packet %llu (record header says %u bytes, %zu left)",
                          name, (unsigned long long)num, caplen, got);
    }
    f->ts.sec = (int64_t)sec;   /* unsigned, as libpcap 1.10 reads it (2038 and later) */
    /* a fraction not below one second is no time stamp, but the lengths are sound: the packet
     * is read, its fraction marked out of range (>= 10^9 ns) for capture.c to hold and tell */
    f->ts.nsec = pf->nsec ? frac : frac >= 1000000u ? 1000000000u : frac * 1000u;
    f->data = data;
    f->caplen = caplen > pf->snapshot ? pf->snapshot : caplen;   /* libpcap drops the excess */
    f->wirelen = len;
    f->linktype = pf->linktype;
    pf->frames++;
    return 1;
}

static int pcapfile_open(void **st, const struct tn_capture_input *in, struct tn_err *err)
{
    char ebuf[PCAP_ERRBUF_SIZE] = "";
    *st = NULL;
    if (!in->compressed) {
        struct pcapfile *pf = tn_xcalloc(1, sizeof *pf);
        if (pcapfile_own(pf, in->fp)) {
            *st = pf;
            return 0;
        }
        free(pf);
    }
    /* pcap_fopen_offline takes the FILE* on success only. */
    pcap_t *p = pcap_fopen_offline_with_tstamp_precision(in->fp, PCAP_TSTAMP_PRECISION_NANO, ebuf);
    if (!p) {
        fclose(in->fp);
        return tn_err_set(err, TN_EFORMAT, "%s: not a readable pcap file (libpcap: %s)", in->name,
                          ebuf);
    }
    struct pcapfile *pf = tn_xcalloc(1, sizeof *pf);
    pf->p = p;
    pf->linktype = dlt_to_linktype(pcap_datalink(p));
    pf->compressed = in->compressed;
    *st = pf;
    return 0;
}

/* libpcap's savefile messages (sf-pcap.c, 1.10):
 *   "truncated dump file; tried to read %u captured bytes, only got %zu"
 *   "truncated dump file; tried to read %zu header bytes, only got %zu"
 *   "invalid packet capture length %u, bigger than snaplen of %d" (and "... maximum of %u") */
static int map_pcap_error(const char *msg, bool compressed, uint64_t num, const char *name,
                          struct tn_err *err)
{
    /* A read error from the decompressing stream: libwandio met the end of the compressed
     * data, or damage, in the middle of a block. */
    if (compressed && strncmp(msg, "error reading dump file", 23) == 0)
        return tn_err_set(err, TN_ETRUNC, "%s: truncated in packet %llu (the compressed data "
                          "ends early or is damaged)", name, (unsigned long long)num);
    unsigned want;
    size_t got;
    if (sscanf(msg, "truncated dump file; tried to read %u captured bytes, only got %zu", &want,
               &got) == 2)
        return tn_err_set(err, TN_ETRUNC,
                          "%s: truncated in packet %llu (record header says %u bytes, %zu left)",
                          name, (unsigned long long)num, want, got);
    if (sscanf(msg, "truncated dump file; tried to read %u header bytes, only got %zu", &want,
               &got) == 2)
        return tn_err_set(err, TN_ETRUNC,
                          "%s: truncated in packet %llu (record header cut: %zu of %u bytes)",
                          name, (unsigned long long)num, got, want);
    if (strstr(msg, "truncated"))
        return tn_err_set(err, TN_ETRUNC, "%s: truncated in packet %llu (libpcap: %s)", name,
                          (unsigned long long)num, msg);
    /* A record header that makes no sense ("invalid packet capture length ...").  In the first
     * record it says the file is not what its magic claims: a format error.  Later, the frames
     * before it are good and stay: the file is treated as cut there (a warning, exit 0). */
    if (num > 1)
        return tn_err_set(err, TN_ETRUNC, "%s: packet %llu: bad record header (libpcap: %s); "
                          "the rest of the file is skipped, as if cut there", name,
                          (unsigned long long)num, msg);
    return tn_err_set(err, TN_EFORMAT, "%s: packet %llu: bad record header (libpcap: %s)", name,
                      (unsigned long long)num, msg);
}

static int pcapfile_next(void *st, struct tn_frame *f, uint64_t num, const char *name,
                     struct tn_err *err)
{
    struct pcapfile *pf = st;
    if (!pf->p)
        return own_next(pf, f, num, name, err);
    struct pcap_pkthdr *h;
    const u_char *data;
    int r = pcap_next_ex(pf->p, &h, &data);
    if (r == 1) {
        f->ts.sec = (int64_t)h->ts.tv_sec;
        /* nanoseconds: opened with NANO precision, so a microsecond fraction >= 10^6 shows as
         * >= 10^9; marked out of range as above (a cast would wrap it) */
        f->ts.nsec = (uint64_t)h->ts.tv_usec >= 1000000000u ? 1000000000u : (uint32_t)h->ts.tv_usec;
        f->data = data;
        f->caplen = h->caplen;
        f->wirelen = h->len;
        f->linktype = pf->linktype;
        return 1;
    }
    if (r == PCAP_ERROR_BREAK)   /* end of file */
        return 0;
    return map_pcap_error(pcap_geterr(pf->p), pf->compressed, num, name, err);
}

static void pcapfile_close(void *st)
{
    struct pcapfile *pf = st;
    if (!pf)
        return;
    if (pf->p) {
        pcap_close(pf->p);
    } else {
        fclose(pf->fp);
        free(pf->buf);
    }
    free(pf);
}

static int pcapfile_linktype(void *st)
{
    return ((struct pcapfile *)st)->linktype;
}

const struct tn_capture_ops tn_capture_pcap_ops = {
    .name = "pcap",
    .probe = pcapfile_probe,
    .open = pcapfile_open,
    .next = pcapfile_next,
    .close = pcapfile_close,
    .linktype = pcapfile_linktype,
};

/* ---- live ---- */

struct live {
    pcap_t *p;
    int linktype;
    int snaplen;
    volatile sig_atomic_t stop;
    char iface[64];
};

int tn_capture_live_snaplen(void *st)
{
    return ((struct live *)st)->snaplen;
}

static int live_fail(pcap_t *p, int code, struct tn_err *err, const char *iface,
                     const char *what, const char *detail)
{
    tn_err_set(err, code, "%s: %s: %s", iface, what, detail);
    pcap_close(p);
    return -code;
}

/* pcap_activate: <0 error, >0 warning.  PCAP_ERROR/PCAP_WARNING come with a pcap_geterr text;
 * the others are told by pcap_statustostr alone, with the text as detail when there is one. */
static void activate_msg(pcap_t *p, int rc, char *buf, size_t size)
{
    const char *detail = pcap_geterr(p);
    if (detail && *detail)
        snprintf(buf, size, "%s (%s)", pcap_statustostr(rc), detail);
    else
        snprintf(buf, size, "%s", pcap_statustostr(rc));
}

int tn_capture_live_open(void **st, const struct tn_live_opts *o, struct tn_err *warn,
                         struct tn_err *err)
{
    char ebuf[PCAP_ERRBUF_SIZE] = "";
    char msg[PCAP_ERRBUF_SIZE + 128];
    *st = NULL;
    if (!o || !o->iface || !*o->iface)
        return tn_err_set(err, TN_EUSAGE, "live capture: no interface given");
    pcap_t *p = pcap_create(o->iface, ebuf);
    if (!p)
        return tn_err_set(err, TN_EIO, "%s: pcap_create: %s", o->iface, ebuf);
    int snaplen = o->snaplen > 0 ? o->snaplen : 256;
    pcap_set_snaplen(p, snaplen);
    pcap_set_promisc(p, o->promisc ? 1 : 0);
    pcap_set_immediate_mode(p, o->immediate ? 1 : 0);
    pcap_set_timeout(p, 100);   /* ms: tn_capture_next polls its break flag this often */
    if (o->buffer_kib > 0)
        pcap_set_buffer_size(p, o->buffer_kib * 1024);
    /* Nanosecond stamps where the platform has them; micro otherwise (still exact, scaled). */
    (void)pcap_set_tstamp_precision(p, PCAP_TSTAMP_PRECISION_NANO);
    int rc = pcap_activate(p);
    if (rc < 0) {
        activate_msg(p, rc, msg, sizeof msg);
        return live_fail(p, TN_EIO, err, o->iface, "cannot start capture", msg);
    }
    /* rc > 0 is a warning.  libpcap 1.10.3 on Linux also leaves one in the error buffer with
     * rc 0 (seen for promiscuous mode on "any": "Promiscuous mode not supported on the "any"
     * device", which its pcap-linux.c flags as PCAP_WARNING_PROMISC_NOTSUP); pcap_create starts
     * the buffer empty, so any text there is meant for the user. */
    char warning[sizeof msg] = "";
    if (rc > 0)
        activate_msg(p, rc, warning, sizeof warning);
    else if (pcap_geterr(p)[0])
        snprintf(warning, sizeof warning, "%s", pcap_geterr(p));
    if (o->linktype && pcap_set_datalink(p, o->linktype == TN_LINK_LINUX_SLL2 ? DLT_LINUX_SLL2 : o->linktype) < 0)
        return live_fail(p, TN_EIO, err, o->iface, "cannot select the link type", pcap_geterr(p));
    if (o->filter && *o->filter) {
        struct bpf_program prog;
        if (pcap_compile(p, &prog, o->filter, 1, PCAP_NETMASK_UNKNOWN) < 0)
            return live_fail(p, TN_EUSAGE, err, o->iface, "bad filter", pcap_geterr(p));
        int sr = pcap_setfilter(p, &prog);
        pcap_freecode(&prog);
        if (sr < 0)
            return live_fail(p, TN_EIO, err, o->iface, "cannot set filter", pcap_geterr(p));
    }
    struct live *lv = tn_xcalloc(1, sizeof *lv);
    lv->p = p;
    lv->linktype = dlt_to_linktype(pcap_datalink(p));
    lv->snaplen = pcap_snapshot(p);
    snprintf(lv->iface, sizeof lv->iface, "%s", o->iface);
    *st = lv;
    if (warning[0])
        tn_err_set(warn, TN_EOK, "%s: warning: %s", o->iface, warning);
    return 0;
}

static int live_next(void *st, struct tn_frame *f, uint64_t num, const char *name,
                     struct tn_err *err)
{
    struct live *lv = st;
    for (;;) {
        if (lv->stop)
            return 0;
        struct pcap_pkthdr *h;
        const u_char *data;
        int r = pcap_next_ex(lv->p, &h, &data);
        if (r == 1) {
            f->ts.sec = (int64_t)h->ts.tv_sec;
            f->ts.nsec = pcap_get_tstamp_precision(lv->p) == PCAP_TSTAMP_PRECISION_NANO
                             ? (uint32_t)h->ts.tv_usec
                             : (uint32_t)h->ts.tv_usec * 1000u;
            f->data = data;
            f->caplen = h->caplen;
            f->wirelen = h->len;
            f->linktype = lv->linktype;
            return 1;
        }
        if (r == 0)          /* the 100 ms timeout: look at the break flag again */
            continue;
        if (r == PCAP_ERROR_BREAK)
            return 0;
        return tn_err_set(err, TN_EIO, "%s: capture failed after %llu packets: %s; the capture "
                          "ends here", name, (unsigned long long)(num - 1), pcap_geterr(lv->p));
    }
}

/* Signal-safe: a flag store and pcap_breakloop (itself a flag store, plus a wakeup write). */
void tn_capture_live_break(void *st)
{
    struct live *lv = st;
    lv->stop = 1;
    pcap_breakloop(lv->p);
}

void tn_capture_live_stats(void *st, struct tn_capture_stats *s)
{
    struct live *lv = st;
    struct pcap_stat ps;
    if (pcap_stats(lv->p, &ps) == 0) {
        s->kernel_recv = ps.ps_recv;
        s->kernel_drop = ps.ps_drop;
        s->if_drop = ps.ps_ifdrop;
    }
}

static void live_close(void *st)
{
    struct live *lv = st;
    if (!lv)
        return;
    pcap_close(lv->p);
    free(lv);
}

static int live_linktype(void *st)
{
    return ((struct live *)st)->linktype;
}

static int live_open_unused(void **st, const struct tn_capture_input *in, struct tn_err *err)
{
    (void)in;
    *st = NULL;
    return tn_err_set(err, TN_EUSAGE, "live capture is opened with tn_capture_open_live");
}

const struct tn_capture_ops tn_capture_live_ops = {
    .name = "live",
    .open = live_open_unused,
    .next = live_next,
    .close = live_close,
    .linktype = live_linktype,
};
