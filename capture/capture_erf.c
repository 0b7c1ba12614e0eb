/* capture_erf.c - our own bounds-checked ERF record reader (plain or decompressed streams).
 *
 * libtrace 3.0.22 asserts (aborting even a release build) on a record whose rlen is shorter
 * than its own framing (a 17-byte "ETH" record: header plus 2-byte pad is 18), so ERF no longer
 * reaches it: every length here is checked against the record and the record against the file.
 * The frames given out are the ones libtrace gave (capture length min(rlen - framing, wlen),
 * wire length wlen, the ATM cell header dropped, records with the RX error flag skipped), so
 * results do not change (check_capture's ERF tests, from tshark).
 *
 * Reference: Endace "Extensible Record Format" (EDM11-01), 16-byte record header:
 *
 *     0       8      9       10      12      14      16
 *    +-------+------+-------+-------+-------+-------+
 *    |  ts   | type | flags | rlen  | lctr  | wlen  |   ts: little-endian 32.32 fixed point
 *    +-------+------+-------+-------+-------+-------+   rlen, lctr, wlen: big-endian
 *
 * type bit 7: 8-byte extension headers follow (each with bit 7 of its first byte set when
 * another follows).  Ethernet types carry a 2-byte offset/pad before the frame; ATM cells a
 * 4-byte cell header.  ERF wire length counts the Ethernet FCS.
 */
#include "capture_int.h"

#include <stdlib.h>
#include <string.h>

enum {
    ERF_HDR = 16,
    ERF_EXT_HDR = 8,
    ERF_ETH_PAD = 2,
    ATM_CELL_HDR = 4,
    ERF_TYPE_META = 27,
    ERF_TYPE_PAD = 48,
    ERF_FLAG_VLEN = 0x04,
    ERF_FLAG_RXERROR = 0x10,
    ERF_MAX_GAP_S = 86400,   /* probe: most seconds between two consecutive records */
};

/* ERF record types (EDM11-01 table 2) -> link layer.  pad: bytes between the header (and its
 * extension headers) and the frame, counted in neither length (Ethernet's offset/pad); skip:
 * bytes counted in both but not part of the link layer given out (the ATM cell header, dropped
 * as libtrace did so that LLC/SNAP remains).  Types not listed go on as
 * TN_CAPTURE_LINKTYPE_UNKNOWN, for the dissector to report. */
static const struct {
    unsigned type;
    int linktype;
    unsigned pad, skip;
} erf_types[] = {
    {1, TN_LINK_C_HDLC, 0, 0},                 /* HDLC_POS */
    {2, TN_LINK_ETHERNET, ERF_ETH_PAD, 0},     /* ETH */
    {3, TN_LINK_ATM_RFC1483, 0, ATM_CELL_HDR}, /* ATM */
    {10, TN_LINK_C_HDLC, 0, 0},                /* COLOR_HDLC_POS */
    {11, TN_LINK_ETHERNET, ERF_ETH_PAD, 0},    /* COLOR_ETH */
    {15, TN_LINK_C_HDLC, 0, 0},                /* DSM_COLOR_HDLC_POS */
    {16, TN_LINK_ETHERNET, ERF_ETH_PAD, 0},    /* DSM_COLOR_ETH */
    {19, TN_LINK_C_HDLC, 0, 0},                /* COLOR_HASH_POS */
    {20, TN_LINK_ETHERNET, ERF_ETH_PAD, 0},    /* COLOR_HASH_ETH */
    {22, TN_LINK_RAW, 0, 0},                   /* IPV4 */
    {23, TN_LINK_RAW, 0, 0},                   /* IPV6 */
};

struct erf {
    FILE *fp;
    bool compressed;
    uint8_t *rec;            /* the current record (at most 65535 bytes: rlen is 16 bits) */
    uint64_t frames;         /* records delivered */
    int erf_type;
};

/* One ERF record header that makes sense: a known type (1-27 as libtrace 3.0.22 knows them, or
 * 48 PAD), no reserved flag bits, rlen covering the header and, when the varying-length flag is
 * set, a multiple of 8 (such records are padded to 64 bits; fixed-size ATM cells are 68 bytes),
 * a wire length that accounts for rlen unless it is padding or metadata, a time stamp that is
 * not zero and whose seconds are a plausible date.  Returns rlen, or 0. */
static unsigned erf_rec_ok(const uint8_t *h, uint64_t *ts)
{
    *ts = 0;
    for (int i = 7; i >= 0; i--)
        *ts = *ts << 8 | h[i];
    uint32_t sec = (uint32_t)(*ts >> 32);
    unsigned type = h[8] & 0x7f;
    unsigned flags = h[9];
    unsigned rlen = (unsigned)h[10] << 8 | h[11];
    unsigned wlen = (unsigned)h[14] << 8 | h[15];
    bool pad = type == ERF_TYPE_PAD, meta = type == ERF_TYPE_META;
    if (!((type >= 1 && type <= 27) || pad) || (flags & 0xc0) || rlen < ERF_HDR)
        return 0;
    if ((flags & ERF_FLAG_VLEN) && rlen % 8)
        return 0;
    /* what a record holds past its header: at most the frame plus padding to 64 bits, a few
     * bytes of per-type header and some extension headers; generous, random rlens still fail */
    if (!pad && !meta && (wlen == 0 || rlen > ERF_HDR + wlen + 64))
        return 0;
    if (*ts == 0 || sec < 315532800u /* 1980 */ || sec > 4102444800u /* 2100 */)
        return 0;
    return rlen;
}

/* ERF has no magic number: a ".erf" name (before any compression suffix), or leading bytes that
 * are a chain of sensible record headers (erf_rec_ok) with non-decreasing time stamps no more
 * than a day apart: at least two, or one that spans the whole file when the file is shorter
 * than the probe.  One header's worth of checks lets about 3% of random files through; a chain
 * does not (check_capture's random-file test). */
bool tn_capture_erf_probe(const uint8_t *m, size_t len, const char *path)
{
    static const char *const exts[] = {".erf", ".erf.gz", ".erf.bz2", ".erf.xz", ".erf.lzo",
                                       ".erf.zst"};
    size_t pl = path ? strlen(path) : 0;
    for (size_t i = 0; i < TN_ARRAY_LEN(exts); i++) {
        size_t el = strlen(exts[i]);
        if (pl > el && strcmp(path + pl - el, exts[i]) == 0)
            return true;
    }
    size_t off = 0;
    unsigned n = 0;
    uint64_t prev = 0;
    while (len - off >= ERF_HDR) {
        uint64_t ts;
        unsigned rlen = erf_rec_ok(m + off, &ts);
        /* non-decreasing, and the next record within a day (random seconds almost never are) */
        if (rlen == 0 || ts < prev || (n > 0 && (ts >> 32) - (prev >> 32) > ERF_MAX_GAP_S))
            return false;
        prev = ts;
        n++;
        off += rlen;
        if (off >= len)
            break;
    }
    if (n >= 2)
        return true;
    return n == 1 && len < TN_PROBE_LEN && off == len;   /* the whole (one-record) file */
}

static int erf_open(void **st, const struct tn_capture_input *in, struct tn_err *err)
{
    (void)err;
    struct erf *e = tn_xcalloc(1, sizeof *e);
    e->fp = in->fp;
    e->compressed = in->compressed;
    e->rec = tn_xmalloc(UINT16_MAX + 1);
    e->erf_type = -1;
    *st = e;
    return 0;
}

struct tn_time tn_capture_erf_ts(uint64_t ts)
{
    struct tn_time t = {.sec = (int64_t)(ts >> 32)};
    uint64_t ns = ((ts & 0xffffffffu) * 1000000000u + 0x80000000u) >> 32;
    if (ns >= 1000000000u) {
        t.sec++;
        ns -= 1000000000u;
    }
    t.nsec = (uint32_t)ns;
    return t;
}

#define SKIP_REST "; the rest of the file is skipped, as if cut there"

/* A record header that makes no sense (what says why): in the first record the file is not ERF
 * (format error); later the frames before it stand and the file is treated as cut there (as
 * for pcap). */
static int bad_record(const struct erf *e, uint64_t num, const char *name, const char *what,
                      struct tn_err *err)
{
    if (e->frames)
        return tn_err_set(err, TN_ETRUNC, "%s: packet %llu: bad ERF record header (%s)" SKIP_REST,
                          name, (unsigned long long)num, what);
    return tn_err_set(err, TN_EFORMAT, "%s: packet %llu: bad ERF record header (%s)", name,
                      (unsigned long long)num, what);
}

static int short_read(const struct erf *e, size_t want, size_t got, uint64_t num,
                      const char *name, struct tn_err *err)
{
    if (ferror(e->fp) && !e->compressed)
        return tn_err_set(err, TN_EIO, "%s: read error in packet %llu", name,
                          (unsigned long long)num);
    return tn_err_set(err, TN_ETRUNC, "%s: truncated in packet %llu (ERF record of %zu bytes, "
                      "%zu left%s)", name, (unsigned long long)num, want, got,
                      ferror(e->fp) ? "; the compressed data ends early or is damaged" : "");
}

static int erf_next(void *st, struct tn_frame *f, uint64_t num, const char *name,
                    struct tn_err *err)
{
    struct erf *e = st;
    for (;;) {
        uint8_t *r = e->rec;
        size_t got = fread(r, 1, ERF_HDR, e->fp);
        if (got == 0 && !ferror(e->fp))
            return 0;
        if (got < ERF_HDR)
            return short_read(e, ERF_HDR, got, num, name, err);
        unsigned rlen = (unsigned)r[10] << 8 | r[11];
        char why[96];
        if (rlen < ERF_HDR) {
            snprintf(why, sizeof why, "record length %u, shorter than the header", rlen);
            return bad_record(e, num, name, why, err);
        }
        got = fread(r + ERF_HDR, 1, rlen - ERF_HDR, e->fp);
        if (got < rlen - ERF_HDR)
            return short_read(e, rlen, ERF_HDR + got, num, name, err);
        unsigned type = r[8] & 0x7f, flags = r[9];
        unsigned wlen = (unsigned)r[14] << 8 | r[15];
        /* extension headers, each within the record */
        unsigned framing = ERF_HDR;
        bool more = r[8] & 0x80;
        while (more) {
            if (framing + ERF_EXT_HDR > rlen) {
                snprintf(why, sizeof why, "extension headers go past the record length %u", rlen);
                return bad_record(e, num, name, why, err);
            }
            more = r[framing] & 0x80;
            framing += ERF_EXT_HDR;
        }
        if (type == ERF_TYPE_PAD || type == ERF_TYPE_META || (flags & ERF_FLAG_RXERROR))
            continue;   /* not a frame (libtrace gives no payload for an RX error either) */
        int linktype = TN_CAPTURE_LINKTYPE_UNKNOWN;
        unsigned pad = 0, cell = 0;
        for (size_t i = 0; i < TN_ARRAY_LEN(erf_types); i++)
            if (erf_types[i].type == type) {
                linktype = erf_types[i].linktype;
                pad = erf_types[i].pad;
                cell = erf_types[i].skip;
            }
        if (framing + pad > rlen) {
            snprintf(why, sizeof why, "record length %u, shorter than its %u bytes of framing",
                     rlen, framing + pad);
            return bad_record(e, num, name, why, err);
        }
        framing += pad;
        unsigned caplen = rlen - framing;
        if (caplen > wlen)
            caplen = wlen;
        unsigned skip = caplen < cell ? caplen : cell;
        e->erf_type = (int)type;
        uint64_t ts = 0;
        for (int i = 7; i >= 0; i--)
            ts = ts << 8 | r[i];
        f->ts = tn_capture_erf_ts(ts);
        f->data = r + framing + skip;
        f->caplen = caplen - skip;
        f->wirelen = wlen > skip ? wlen - skip : 0;
        f->linktype = linktype;
        e->frames++;
        return 1;
    }
}

static void erf_close(void *st)
{
    struct erf *e = st;
    if (!e)
        return;
    if (e->fp)
        fclose(e->fp);
    free(e->rec);
    free(e);
}

static int erf_erf_type(void *st)
{
    return ((struct erf *)st)->erf_type;
}

const struct tn_capture_ops tn_capture_erf_ops = {
    .name = "erf",
    .probe = tn_capture_erf_probe,
    .open = erf_open,
    .next = erf_next,
    .close = erf_close,
    .erf_type = erf_erf_type,
};
