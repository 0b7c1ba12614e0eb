/* make_hostile.c - write a set of hostile trace files and what the program must do with each.
 *
 *   tn_make_hostile DIR
 *
 * Writes DIR/<name> for every case below and DIR/expect.tsv: name, exit status, a piece of the
 * message stderr must hold ("-" when the file is odd but valid and no message is due).  Each
 * expectation follows from the bytes written and the format's rules (pcap-savefile(5),
 * draft-ietf-opsawg-pcapng, Endace ERF EDM11-01, libpcap's MAXIMUM_SNAPLEN of 262144), not from
 * a run of the program.  Exit 2 is "input could not be read (in part)", 0 a report, with a
 * warning for a file cut at a corrupt record after good ones.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *expect;
static const char *dir;

struct buf {
    uint8_t b[1 << 16];
    size_t n;
    int be;   /* write numbers big-endian */
};

static void u8(struct buf *b, unsigned v) { b->b[b->n++] = (uint8_t)v; }

static void u16(struct buf *b, unsigned v)
{
    if (b->be) {
        u8(b, v >> 8);
        u8(b, v);
    } else {
        u8(b, v);
        u8(b, v >> 8);
    }
}

static void u32(struct buf *b, uint32_t v)
{
    if (b->be) {
        u16(b, v >> 16);
        u16(b, v & 0xffff);
    } else {
        u16(b, v & 0xffff);
        u16(b, v >> 16);
    }
}

static void zeros(struct buf *b, size_t n)
{
    memset(b->b + b->n, 0, n);
    b->n += n;
}

/* A 54-byte Ethernet/IPv4/TCP SYN 10.0.0.1:1000 -> 10.0.0.2:80 (no checksums: not checked). */
static void syn(struct buf *b)
{
    static const uint8_t f[54] = {
        0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 6, 0x08, 0x00,
        0x45, 0, 0, 40, 0, 1, 0, 0, 64, 6, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2,
        0x03, 0xe8, 0, 80, 0, 0, 0, 1, 0, 0, 0, 0, 0x50, 0x02, 0xff, 0xff, 0, 0, 0, 0};
    memcpy(b->b + b->n, f, sizeof f);
    b->n += sizeof f;
}

static void save(const struct buf *b, const char *name, const char *exitst, const char *msg)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "wb");
    if (!fp || fwrite(b->b, 1, b->n, fp) != b->n || fclose(fp) != 0) {
        perror(path);
        exit(1);
    }
    fprintf(expect, "%s\t%s\t%s\n", name, exitst, msg);
}

/* ---- pcap ---- */

static void pcap_hdr(struct buf *b, uint32_t magic, uint32_t snaplen)
{
    u32(b, magic);
    u16(b, 2);
    u16(b, 4);
    u32(b, 0);
    u32(b, 0);
    u32(b, snaplen);
    u32(b, 1);
}

static void pcap_rec(struct buf *b, uint32_t sec, uint32_t frac, uint32_t caplen, uint32_t len)
{
    u32(b, sec);
    u32(b, frac);
    u32(b, caplen);
    u32(b, len);
}

static void pcap_syn(struct buf *b, uint32_t sec, uint32_t frac)
{
    pcap_rec(b, sec, frac, 54, 54);
    syn(b);
}

static void pcaps(void)
{
    struct buf b = {0};
    /* snap length 0 in the header: libpcap takes the maximum (pcap_adjust_snapshot) */
    pcap_hdr(&b, 0xa1b2c3d4, 0);
    pcap_syn(&b, 1600000000, 0);
    save(&b, "pcap-snaplen-0.pcap", "0", "-");

    b = (struct buf){0};
    pcap_hdr(&b, 0xa1b2c3d4, 0x80000000u);   /* 2^31: over the maximum, taken as it */
    pcap_syn(&b, 1600000000, 0);
    save(&b, "pcap-snaplen-2e31.pcap", "0", "-");

    /* caplen 54 > snaplen 40: libpcap keeps 40 bytes; the TCP header is cut (an anomaly) */
    b = (struct buf){0};
    pcap_hdr(&b, 0xa1b2c3d4, 40);
    pcap_syn(&b, 1600000000, 0);
    save(&b, "pcap-caplen-over-snaplen.pcap", "0", "-");

    /* huge captured length in the first record: not a pcap after all */
    b = (struct buf){0};
    pcap_hdr(&b, 0xa1b2c3d4, 65535);
    pcap_rec(&b, 1600000000, 0, 0xffffff00u, 0xffffff00u);
    zeros(&b, 64);
    save(&b, "pcap-huge-caplen-first.pcap", "2",
         "packet 1: bad record header (captured length 4294967040, bigger than the maximum of 262144)");

    /* ... and after a good record: the file is cut there, with a warning */
    b = (struct buf){0};
    pcap_hdr(&b, 0xa1b2c3d4, 65535);
    pcap_syn(&b, 1600000000, 0);
    pcap_rec(&b, 1600000001, 0, 0x7fffffffu, 0x7fffffffu);
    zeros(&b, 64);
    save(&b, "pcap-huge-caplen-second.pcap", "0",
         "packet 2: bad record header (captured length 2147483647, bigger than the maximum of 262144)");

    /* a record that says more than the file holds */
    b = (struct buf){0};
    pcap_hdr(&b, 0xa1b2c3d4, 65535);
    pcap_syn(&b, 1600000000, 0);
    pcap_rec(&b, 1600000001, 0, 60000, 60000);
    zeros(&b, 100);
    save(&b, "pcap-record-past-eof.pcap", "0", "truncated in packet 2 (record header says 60000 bytes, 100 left)");

    /* time stamps backwards, at 0, at 2^32-1 s; wire length shorter than captured */
    b = (struct buf){0};
    pcap_hdr(&b, 0xa1b2c3d4, 65535);
    pcap_syn(&b, 1600000010, 0);
    pcap_syn(&b, 1600000000, 0);
    pcap_syn(&b, 0, 0);
    pcap_syn(&b, 0xffffffffu, 999999);
    pcap_rec(&b, 1600000020, 0, 54, 10);
    syn(&b);
    save(&b, "pcap-absurd-times.pcap", "0", "-");

    /* a microsecond fraction of 10^6 (a second): no time stamp, but sound lengths: read, held
     * and told (pcap-savefile(5): the fraction counts microseconds, or nanoseconds) */
    b = (struct buf){0};
    pcap_hdr(&b, 0xa1b2c3d4, 65535);
    pcap_syn(&b, 1600000000, 0);
    pcap_syn(&b, 1600000001, 1000000);
    save(&b, "pcap-usec-fraction.pcap", "0", "packet 2 has a time stamp fraction not below one second");

    /* a nanosecond file with a fraction of 10^9, and one of 2^32-1 */
    b = (struct buf){0};
    pcap_hdr(&b, 0xa1b23c4d, 65535);
    pcap_syn(&b, 1600000000, 1000000000u);
    pcap_syn(&b, 1600000001, 0xffffffffu);
    save(&b, "pcap-nsec-fraction.pcap", "0", "2 packets from packet 1 have time stamp fractions not below one second");

    /* byte order changes mid-file: the third record is big-endian; its caplen 54 read as
     * little-endian is 0x36000000 = 905969664 */
    b = (struct buf){0};
    pcap_hdr(&b, 0xa1b2c3d4, 65535);
    pcap_syn(&b, 1600000000, 0);
    pcap_syn(&b, 1600000001, 0);
    b.be = 1;
    pcap_syn(&b, 1600000002, 0);
    save(&b, "pcap-byte-order-change.pcap", "0",
         "packet 3: bad record header (captured length 905969664, bigger than the maximum of 262144)");

    /* ten thousand empty records (caplen 0) */
    b = (struct buf){0};
    pcap_hdr(&b, 0xa1b2c3d4, 65535);
    for (int i = 0; i < 3000; i++)
        pcap_rec(&b, 1600000000, 0, 0, 0);
    save(&b, "pcap-empty-records.pcap", "0", "-");

    /* a header and nothing else; a header cut short */
    b = (struct buf){0};
    pcap_hdr(&b, 0xa1b2c3d4, 65535);
    save(&b, "pcap-header-only.pcap", "0", "-");
    b.n = 10;
    save(&b, "pcap-header-cut.pcap", "2", "pcap");
}

/* ---- pcapng ---- */

static size_t block_start(struct buf *b, uint32_t type)
{
    size_t at = b->n;
    u32(b, type);
    u32(b, 0);   /* length, patched by block_end */
    return at;
}

static void block_end(struct buf *b, size_t at)
{
    while (b->n % 4)
        u8(b, 0);
    uint32_t total = (uint32_t)(b->n - at + 4);
    struct buf t = {.be = b->be};
    u32(&t, total);
    memcpy(b->b + at + 4, t.b, 4);
    u32(b, total);
}

static void shb(struct buf *b)
{
    size_t at = block_start(b, 0x0A0D0D0A);
    u32(b, 0x1A2B3C4D);
    u16(b, 1);
    u16(b, 0);
    u32(b, 0xffffffffu);
    u32(b, 0xffffffffu);
    block_end(b, at);
}

/* IDB, optionally with if_tsresol (res >= 0) and if_tsoffset (have_off) */
static void idb(struct buf *b, uint32_t snaplen, int res, int have_off, int64_t off)
{
    size_t at = block_start(b, 1);
    u16(b, 1);
    u16(b, 0);
    u32(b, snaplen);
    if (res >= 0) {
        u16(b, 9);
        u16(b, 1);
        u8(b, (unsigned)res);
        zeros(b, 3);
    }
    if (have_off) {
        u16(b, 14);
        u16(b, 8);
        uint64_t v = (uint64_t)off;
        u32(b, b->be ? (uint32_t)(v >> 32) : (uint32_t)v);
        u32(b, b->be ? (uint32_t)v : (uint32_t)(v >> 32));
    }
    if (res >= 0 || have_off) {
        u16(b, 0);
        u16(b, 0);
    }
    block_end(b, at);
}

static void epb(struct buf *b, uint32_t ifid, uint32_t hi, uint32_t lo, uint32_t caplen)
{
    size_t at = block_start(b, 6);
    u32(b, ifid);
    u32(b, hi);
    u32(b, lo);
    u32(b, caplen);
    u32(b, 54);
    syn(b);
    block_end(b, at);
}

static void pcapngs(void)
{
    struct buf b = {0};
    shb(&b);
    idb(&b, 65535, -1, 0, 0);
    epb(&b, 0, 0, 1000, 54);
    epb(&b, 5, 0, 2000, 54);   /* interface 5 was never described */
    save(&b, "pcapng-undefined-interface.pcapng", "2", "packet 2: interface 5 was never described (1 interfaces)");

    b = (struct buf){0};
    shb(&b);
    epb(&b, 0, 0, 1000, 54);   /* a packet before any interface */
    save(&b, "pcapng-no-interface.pcapng", "2", "packet 1: interface 0 was never described (0 interfaces)");

    /* a huge block length after a good packet */
    b = (struct buf){0};
    shb(&b);
    idb(&b, 65535, -1, 0, 0);
    epb(&b, 0, 0, 1000, 54);
    u32(&b, 6);
    u32(&b, 0xfffffff0u);
    zeros(&b, 40);
    save(&b, "pcapng-huge-block.pcapng", "0", "packet 2: block at byte");

    /* a block length under the minimum of 12 */
    b = (struct buf){0};
    shb(&b);
    idb(&b, 65535, -1, 0, 0);
    epb(&b, 0, 0, 1000, 54);
    u32(&b, 6);
    u32(&b, 8);
    zeros(&b, 8);
    save(&b, "pcapng-block-too-short.pcapng", "0", "bad length 8");

    /* captured length larger than the block */
    b = (struct buf){0};
    shb(&b);
    idb(&b, 65535, -1, 0, 0);
    epb(&b, 0, 0, 1000, 54);
    epb(&b, 0, 0, 2000, 5000);
    save(&b, "pcapng-caplen-over-block.pcapng", "0", "packet 2: captured length 5000 is larger than its block");

    /* snap length 0 in the IDB (no limit, per the draft) and captured length over a snap
     * length of 40: read as they are */
    b = (struct buf){0};
    shb(&b);
    idb(&b, 0, -1, 0, 0);
    idb(&b, 40, -1, 0, 0);
    epb(&b, 0, 0, 1000, 54);
    epb(&b, 1, 0, 2000, 54);
    save(&b, "pcapng-snaplen-0-and-over.pcapng", "0", "-");

    /* resolution 10^0 with a 2^64-1 time stamp, an offset near INT64_MAX, one near INT64_MIN:
     * all three times lie outside pcap's 0 .. 2^32-1 s, held to it and told once */
    b = (struct buf){0};
    shb(&b);
    idb(&b, 65535, 0, 1, INT64_MAX - 5);
    idb(&b, 65535, 0x80 | 63, 1, INT64_MIN + 5);
    epb(&b, 0, 0xffffffffu, 0xffffffffu, 54);
    epb(&b, 1, 0, 0, 54);
    epb(&b, 0, 0x7fffffffu, 0xfffffffeu, 54);
    save(&b, "pcapng-absurd-times.pcapng", "0",
         "3 packets from packet 1 have time stamps outside 1970-2106 (pcap's range), held to it");

    /* if_tsresol 10^-20: no such resolution fits 64 bits */
    b = (struct buf){0};
    shb(&b);
    idb(&b, 65535, 20, 0, 0);
    epb(&b, 0, 0, 1000, 54);
    save(&b, "pcapng-tsresol-1e-20.pcapng", "2", "impossible time stamp resolution (if_tsresol 10^-20)");

    /* byte order changes mid-file: a second, big-endian section (legal), then a little-endian
     * packet block inside it (its length read big-endian is absurd) */
    b = (struct buf){0};
    shb(&b);
    idb(&b, 65535, -1, 0, 0);
    epb(&b, 0, 0, 1000, 54);
    b.be = 1;
    shb(&b);
    idb(&b, 65535, -1, 0, 0);
    epb(&b, 0, 0, 2000, 54);
    b.be = 0;
    epb(&b, 0, 0, 3000, 54);
    save(&b, "pcapng-byte-order-change.pcapng", "0", "packet 3: block at byte");

    /* options that run past their block */
    b = (struct buf){0};
    shb(&b);
    size_t at = block_start(&b, 1);
    u16(&b, 1);
    u16(&b, 0);
    u32(&b, 65535);
    u16(&b, 9);
    u16(&b, 0xfff0);   /* option length past the block */
    u32(&b, 0);
    block_end(&b, at);
    epb(&b, 0, 0, 1000, 54);
    save(&b, "pcapng-option-past-block.pcapng", "0|2", "-");
}

/* ---- ERF ---- */

static void erf_rec(struct buf *b, unsigned type, unsigned rlen, unsigned wlen, size_t body)
{
    static const uint8_t ts[8] = {0x00, 0x11, 0x53, 0x18, 0xa2, 0x58, 0x26, 0x3b};
    memcpy(b->b + b->n, ts, 8);
    b->n += 8;
    u8(b, type);
    u8(b, 0);
    u8(b, rlen >> 8);
    u8(b, rlen);
    u8(b, 0);
    u8(b, 0);
    u8(b, wlen >> 8);
    u8(b, wlen);
    zeros(b, body);
}

static void erfs(void)
{
    struct buf b = {0};
    erf_rec(&b, 2, 17, 0x8000, 1);
    save(&b, "erf-rlen-under-framing.erf", "2", "bad ERF record header (record length 17, shorter than its 18 bytes of framing)");

    b = (struct buf){0};
    erf_rec(&b, 2, 72, 58, 56);
    erf_rec(&b, 2, 8, 58, 0);
    save(&b, "erf-rlen-under-header.erf", "0", "packet 2: bad ERF record header (record length 8, shorter than the header)");

    b = (struct buf){0};
    erf_rec(&b, 2, 72, 58, 56);
    erf_rec(&b, 2, 65535, 58, 100);
    save(&b, "erf-huge-rlen.erf", "0", "truncated in packet 2 (ERF record of 65535 bytes, 116 left)");

    b = (struct buf){0};
    erf_rec(&b, 0x82, 24, 58, 0);
    memset(b.b + 16, 0x80, 8);
    b.n = 24;
    save(&b, "erf-extension-loop.erf", "2", "extension headers go past the record length 24");

    b = (struct buf){0};
    erf_rec(&b, 0x7f, 72, 58, 56);   /* a record type nobody defined */
    save(&b, "erf-unknown-type.erf", "0", "-");
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: tn_make_hostile DIR\n");
        return 1;
    }
    dir = argv[1];
    char path[4096];
    snprintf(path, sizeof path, "%s/expect.tsv", dir);
    expect = fopen(path, "w");
    if (!expect) {
        perror(path);
        return 1;
    }
    pcaps();
    pcapngs();
    erfs();
    return fclose(expect) == 0 ? 0 : 1;
}
