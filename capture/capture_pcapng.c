/* capture_pcapng.c - our own pcapng block reader (all pcapng files, compressed or not).
 *
 * Reference: draft-ietf-opsawg-pcapng (PCAP Now Generic), sections 4 (block structure), 4.1 SHB,
 * 4.2 IDB (if_tsresol, if_tsoffset), 4.3 EPB, 4.4 SPB, Appendix A OPB (obsolete Packet Block).
 * libpcap refuses files whose interfaces have different link types ("an interface has a type 0
 * different from the type of the first interface"); such files are common (Wireshark captures
 * on "any" plus loopback), so every pcapng goes through this reader and each frame carries its
 * own interface's link type.
 *
 *     0                   1                   2                   3
 *     0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *    +---------------------------------------------------------------+
 *  0 |                          Block Type                           |
 *    +---------------------------------------------------------------+
 *  4 |                      Block Total Length                       |
 *    +---------------------------------------------------------------+
 *  8 /                          Block Body                           /
 *    +---------------------------------------------------------------+
 *    |                      Block Total Length                       |
 *    +---------------------------------------------------------------+
 *
 * The stream is read in large chunks (1 MiB, more for a larger block) into one buffer, and each
 * block is handed out as a pointer into it: no read call and no copy per block, and no
 * allocation per packet.  A packet's data stays valid until the next call, which is when the
 * buffer may move what is left of it to the front and refill.
 */
#include "capture_int.h"

#include <stdlib.h>
#include <string.h>

enum {
    BT_SHB = 0x0A0D0D0A,
    BT_IDB = 0x00000001,
    BT_OPB = 0x00000002,   /* obsolete Packet Block */
    BT_SPB = 0x00000003,
    BT_EPB = 0x00000006,
    BOM = 0x1A2B3C4D,
    OPT_ENDOFOPT = 0,
    OPT_IF_TSRESOL = 9,
    OPT_IF_TSOFFSET = 14,
    MAX_BLOCK = 64u << 20,   /* larger is garbage, not a packet we could use */
    CHUNK = 1u << 20,        /* bytes read from the stream at a time */
};

struct iface {
    int linktype;
    uint32_t snaplen;
    bool res_binary;         /* if_tsresol bit 7: 2^-exp, else 10^-exp */
    unsigned res_exp;
    int64_t tsoffset;        /* seconds added to every time stamp */
};

struct pcapng {
    FILE *fp;
    bool compressed;         /* fp decompresses: a read error means damaged or cut short */
    bool swap;               /* section byte order differs from the host's */
    bool seen_shb;
    struct iface *ifs;
    size_t nifs, cap_ifs;
    uint8_t *buf;            /* chunk buffer: bytes [pos, len) are read but not used yet */
    size_t bufcap, pos, len;
    bool eof, ioerr;         /* the stream ended / failed (after the bytes in buf) */
    struct tn_time last_ts;  /* SPBs have no time stamp: they get the previous frame's */
    uint64_t offset;         /* of the next block */
    uint64_t block_off;      /* of the current block, for messages */
    uint64_t frames;         /* packets delivered from this file */
};

/* A block whose lengths make no sense.  Before the first packet the file is not a readable
 * pcapng (-TN_EFORMAT); after it, the packets so far are good and stay, and the file is treated
 * as cut at that block (-TN_ETRUNC: a warning, the trace was read).  */
static int corrupt_code(const struct pcapng *ng)
{
    return ng->frames ? TN_ETRUNC : TN_EFORMAT;
}

#define SKIP_REST "; the rest of the file is skipped, as if cut there"


static bool pcapng_probe(const uint8_t *m, size_t len, const char *path)
{
    (void)path;
    return len >= 4 && m[0] == 0x0a && m[1] == 0x0d && m[2] == 0x0d && m[3] == 0x0a;
}

static uint16_t rd16(const struct pcapng *ng, const uint8_t *p)
{
    uint16_t v;
    memcpy(&v, p, 2);
    return ng->swap ? __builtin_bswap16(v) : v;
}

static uint32_t rd32(const struct pcapng *ng, const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return ng->swap ? __builtin_bswap32(v) : v;
}

static uint64_t rd64(const struct pcapng *ng, const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return ng->swap ? __builtin_bswap64(v) : v;
}

/* The next n bytes of the stream as a pointer into the chunk buffer, valid until the next call;
 * *got < n only at the end of the stream (or on a read error: ng->ioerr). */
static const uint8_t *take(struct pcapng *ng, size_t n, size_t *got)
{
    if (ng->len - ng->pos < n && !ng->eof) {
        size_t have = ng->len - ng->pos;
        if (ng->pos && have)
            memmove(ng->buf, ng->buf + ng->pos, have);
        ng->pos = 0;
        ng->len = have;
        size_t want = n > CHUNK ? n : CHUNK;
        tn_grow((void **)&ng->buf, &ng->bufcap, want, 1);
        while (ng->len < n) {
            size_t r = fread_unlocked(ng->buf + ng->len, 1, ng->bufcap - ng->len, ng->fp);
            ng->len += r;
            if (r == 0) {
                ng->eof = true;
                ng->ioerr = ferror(ng->fp) != 0;
                break;
            }
        }
    }
    size_t have = ng->len - ng->pos;
    *got = have < n ? have : n;
    const uint8_t *p = ng->buf + ng->pos;
    ng->pos += *got;
    return p;
}

static int pcapng_open(void **st, const struct tn_capture_input *in, struct tn_err *err)
{
    (void)err;
    struct pcapng *ng = tn_xcalloc(1, sizeof *ng);
    ng->fp = in->fp;
    ng->compressed = in->compressed;
    *st = ng;
    return 0;
}

static void pcapng_close(void *st)
{
    struct pcapng *ng = st;
    if (!ng)
        return;
    if (ng->fp)
        fclose(ng->fp);
    free(ng->ifs);
    free(ng->buf);
    free(ng);
}

/* Section Header Block: sets the byte order of everything up to the next SHB, and forgets the
 * previous section's interfaces.  body = block minus the 8-byte type/length head. */
static int read_shb(struct pcapng *ng, const uint8_t head[8], const char *name, uint64_t num,
                    struct tn_err *err)
{
    size_t got;
    const uint8_t *bom = take(ng, 4, &got);
    if (got != 4)
        return tn_err_set(err, ng->seen_shb ? TN_ETRUNC : TN_EFORMAT,
                          "%s: truncated in section header before packet %llu", name,
                          (unsigned long long)num);
    uint32_t b;
    memcpy(&b, bom, 4);
    if (b == BOM)
        ng->swap = false;
    else if (b == __builtin_bswap32(BOM))
        ng->swap = true;
    else
        return tn_err_set(err, TN_EFORMAT, "%s: pcapng section header at byte %llu has a bad "
                          "byte-order magic", name, (unsigned long long)ng->block_off);
    uint32_t len = rd32(ng, head + 4);
    if (len < 28 || len % 4 || len > MAX_BLOCK)
        return tn_err_set(err, TN_EFORMAT, "%s: pcapng section header at byte %llu has a bad "
                          "length %u", name, (unsigned long long)ng->block_off, len);
    size_t rest = len - 12;
    const uint8_t *body = take(ng, rest, &got);
    if (got != rest)
        return tn_err_set(err, TN_ETRUNC, "%s: truncated in section header before packet %llu "
                          "(block header says %u bytes, %zu left)", name,
                          (unsigned long long)num, len, got + 12);
    uint16_t major = rd16(ng, body), minor = rd16(ng, body + 2);
    if (major != 1)
        return tn_err_set(err, TN_EFORMAT, "%s: pcapng version %u.%u is not supported (only 1.x)",
                          name, major, minor);
    ng->seen_shb = true;
    ng->nifs = 0;
    return 0;
}

/* Interface Description Block: link type, snap length, options. */
static int read_idb(struct pcapng *ng, const uint8_t *body, uint32_t blen, const char *name,
                    struct tn_err *err)
{
    if (blen < 8)
        return tn_err_set(err, TN_EFORMAT, "%s: interface description block at byte %llu is too "
                          "short", name, (unsigned long long)ng->block_off);
    tn_grow((void **)&ng->ifs, &ng->cap_ifs, ng->nifs + 1, sizeof *ng->ifs);
    struct iface *ifc = &ng->ifs[ng->nifs++];
    *ifc = (struct iface){.linktype = rd16(ng, body), .snaplen = rd32(ng, body + 4),
                          .res_exp = 6};
    /* Options: code(2) length(2) value padded to 32 bits; a bad one ends the list. */
    const uint8_t *o = body + 8, *end = body + blen;
    while (end - o >= 4) {
        uint16_t code = rd16(ng, o), olen = rd16(ng, o + 2);
        o += 4;
        if (code == OPT_ENDOFOPT || olen > end - o)
            break;
        if (code == OPT_IF_TSRESOL && olen >= 1) {
            ifc->res_binary = (o[0] & 0x80) != 0;
            ifc->res_exp = o[0] & 0x7f;
        } else if (code == OPT_IF_TSOFFSET && olen >= 8) {
            ifc->tsoffset = (int64_t)rd64(ng, o);
        }
        o += (olen + 3u) & ~3u;
    }
    if ((!ifc->res_binary && ifc->res_exp > 19) || (ifc->res_binary && ifc->res_exp > 63))
        return tn_err_set(err, TN_EFORMAT, "%s: interface %zu has an impossible time stamp "
                          "resolution (if_tsresol %s%u)", name, ng->nifs - 1,
                          ifc->res_binary ? "2^-" : "10^-", ifc->res_exp);
    return 0;
}

static const struct iface *get_iface(struct pcapng *ng, uint32_t id, uint64_t num,
                                     const char *name, struct tn_err *err)
{
    if (id < ng->nifs)
        return &ng->ifs[id];
    tn_err_set(err, TN_EFORMAT, "%s: packet %llu: interface %u was never described (%zu "
               "interfaces)", name, (unsigned long long)num, id, ng->nifs);
    return NULL;
}

static struct tn_time iface_ts(const struct iface *ifc, uint32_t hi, uint32_t lo)
{
    struct tn_time t = tn_capture_ts_scaled((uint64_t)hi << 32 | lo, ifc->res_binary,
                                            ifc->res_exp);
    /* both may be anything a file says: saturate (capture.c clamps to 0..TN_TIME_SEC_MAX) */
    if (__builtin_add_overflow(t.sec, ifc->tsoffset, &t.sec))
        t.sec = ifc->tsoffset < 0 ? INT64_MIN : INT64_MAX;
    return t;
}

/* EPB, OPB or SPB at b (body of blen bytes) -> f.  Returns 1, or <0. */
static int packet_block(struct pcapng *ng, const uint8_t *b, uint32_t type, uint32_t blen,
                        struct tn_frame *f, uint64_t num, const char *name, struct tn_err *err)
{
    const struct iface *ifc;
    size_t hdr;
    uint32_t caplen, wirelen;
    if (type == BT_SPB) {
        hdr = 4;
        if (blen < hdr)
            goto short_block;
        if (!(ifc = get_iface(ng, 0, num, name, err)))
            return -TN_EFORMAT;
        wirelen = rd32(ng, b);
        /* SPB: captured length = min(original length, snaplen, what the block holds) */
        caplen = wirelen;
        if (ifc->snaplen && caplen > ifc->snaplen)
            caplen = ifc->snaplen;
        if (caplen > blen - hdr)
            caplen = blen - (uint32_t)hdr;
        f->ts = ng->last_ts;
    } else {
        hdr = 20;
        if (blen < hdr)
            goto short_block;
        uint32_t id = type == BT_EPB ? rd32(ng, b) : rd16(ng, b);
        if (!(ifc = get_iface(ng, id, num, name, err)))
            return -TN_EFORMAT;
        f->ts = iface_ts(ifc, rd32(ng, b + 4), rd32(ng, b + 8));
        caplen = rd32(ng, b + 12);
        wirelen = rd32(ng, b + 16);
        if (caplen > blen - hdr)
            return tn_err_set(err, corrupt_code(ng), "%s: packet %llu: captured length %u is "
                              "larger than its block (%zu bytes of data)%s", name,
                              (unsigned long long)num, caplen, blen - hdr,
                              ng->frames ? SKIP_REST : "");
    }
    f->data = b + hdr;
    f->caplen = caplen;
    f->wirelen = wirelen;
    f->linktype = ifc->linktype;
    ng->last_ts = f->ts;
    ng->frames++;
    return 1;

short_block:
    return tn_err_set(err, TN_EFORMAT, "%s: packet %llu: packet block at byte %llu is too short "
                      "(%u bytes)", name, (unsigned long long)num,
                      (unsigned long long)ng->block_off, blen + 12);
}

static int read_error(const struct pcapng *ng, uint64_t num, const char *name,
                      struct tn_err *err)
{
    if (ng->compressed)
        return tn_err_set(err, TN_ETRUNC, "%s: truncated in packet %llu (the compressed data "
                          "ends early or is damaged)", name, (unsigned long long)num);
    return tn_err_set(err, TN_EIO, "%s: read error in packet %llu", name,
                      (unsigned long long)num);
}

static int pcapng_next(void *st, struct tn_frame *f, uint64_t num, const char *name,
                       struct tn_err *err)
{
    struct pcapng *ng = st;
    for (;;) {
        uint8_t head[8];
        ng->block_off = ng->offset;
        size_t got;
        const uint8_t *hp = take(ng, 8, &got);
        memcpy(head, hp, got);   /* the next take may move the buffer */
        if (got == 0 && !ng->ioerr)
            return 0;   /* clean end between blocks */
        if (got != 8) {
            if (ng->ioerr)
                return read_error(ng, num, name, err);
            return tn_err_set(err, TN_ETRUNC, "%s: truncated in packet %llu (block header cut: "
                              "%zu of 8 bytes)", name, (unsigned long long)num, got);
        }
        uint32_t type;
        memcpy(&type, head, 4);   /* the SHB type is a palindrome: byte order does not matter */
        if (type == BT_SHB) {
            int r = read_shb(ng, head, name, num, err);
            if (r < 0)
                return r;
            ng->offset += rd32(ng, head + 4);
            continue;
        }
        if (!ng->seen_shb)
            return tn_err_set(err, TN_EFORMAT, "%s: pcapng file does not start with a section "
                              "header", name);
        type = rd32(ng, head);
        uint32_t len = rd32(ng, head + 4);
        if (len < 12 || len % 4 || len > MAX_BLOCK)
            return tn_err_set(err, corrupt_code(ng), "%s: packet %llu: block at byte %llu has a "
                              "bad length %u%s", name, (unsigned long long)num,
                              (unsigned long long)ng->block_off, len,
                              ng->frames ? SKIP_REST : "");
        /* Read body and trailing length together. */
        size_t rest = len - 8;
        const uint8_t *body = take(ng, rest, &got);
        if (got != rest) {
            if (ng->ioerr)
                return read_error(ng, num, name, err);
            return tn_err_set(err, TN_ETRUNC, "%s: truncated in packet %llu (block header says "
                              "%u bytes, %zu left)", name, (unsigned long long)num, len, got + 8);
        }
        uint32_t blen = len - 12;   /* body without the head and the trailing length */
        if (rd32(ng, body + blen) != len)
            return tn_err_set(err, corrupt_code(ng), "%s: packet %llu: block at byte %llu: "
                              "trailing length %u differs from leading length %u%s", name,
                              (unsigned long long)num, (unsigned long long)ng->block_off,
                              rd32(ng, body + blen), len, ng->frames ? SKIP_REST : "");
        ng->offset += len;
        switch (type) {
        case BT_IDB: {
            int r = read_idb(ng, body, blen, name, err);
            if (r < 0)
                return r;
            break;
        }
        case BT_EPB:
        case BT_OPB:
        case BT_SPB:
            return packet_block(ng, body, type, blen, f, num, name, err);
        default:
            break;   /* NRB, ISB, DSB, custom and unknown blocks: skipped by length */
        }
    }
}

const struct tn_capture_ops tn_capture_pcapng_ops = {
    .name = "pcapng-own",
    .probe = pcapng_probe,
    .open = pcapng_open,
    .next = pcapng_next,
    .close = pcapng_close,
};
