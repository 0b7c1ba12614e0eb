/* check_rewrite.c - the rewriter of anonymized exports on hand-made frames: an ICMP error and
 * the datagram it quotes, ARP, a TCP segment with time stamps inside VXLAN, IPv6 neighbour
 * discovery.  Checksums are verified the receiver's way (RFC 1071: the sum over the covered
 * bytes, checksum included, is all ones), not by computing them again. */
#include <check.h>
#include <string.h>

#include "dissect.h"

/* A visible mapping: every address byte inverted; the host's time stamp offset is 1000 times
 * the last byte of its mapped address. */
static void map(void *ctx, uint8_t family, uint8_t *addr, uint32_t *ts_off)
{
    (void)ctx;
    unsigned n = family == 4 ? 4 : 16;
    for (unsigned i = 0; i < n; i++)
        addr[i] = (uint8_t)~addr[i];
    *ts_off = 1000u * addr[n - 1];
}

struct buf {
    uint8_t b[512];
    size_t n;
};

static size_t put(struct buf *f, const void *p, size_t n)
{
    size_t at = f->n;
    memcpy(f->b + f->n, p, n);
    f->n += n;
    return at;
}

static void be16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static uint32_t sum(const uint8_t *p, size_t n, uint32_t s)
{
    for (size_t i = 0; i + 1 < n; i += 2)
        s += (uint32_t)p[i] << 8 | p[i + 1];
    if (n & 1)
        s += (uint32_t)p[n - 1] << 8;
    return s;
}

static uint16_t folded(uint32_t s)
{
    while (s >> 16)
        s = (s & 0xffff) + (s >> 16);
    return (uint16_t)s;
}

/* The checksum a sender would put there (for building the input frames). */
static void set_csum(uint8_t *field, const uint8_t *p, size_t n, uint32_t pseudo)
{
    be16(field, 0);
    be16(field, (uint16_t)~folded(sum(p, n, pseudo)));
}

static uint32_t pseudo4(const uint8_t *ip, unsigned proto, size_t len)
{
    return sum(ip + 12, 8, 0) + proto + (uint32_t)len;
}

static uint32_t pseudo6(const uint8_t *ip, unsigned proto, size_t len)
{
    return sum(ip + 8, 32, 0) + proto + (uint32_t)len;
}

static bool verifies(const uint8_t *p, size_t n, uint32_t pseudo)
{
    return folded(sum(p, n, pseudo)) == 0xffff;
}

static const uint8_t eth_ip4[14] = {2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2, 0x08, 0x00};

static size_t ip4(struct buf *f, unsigned proto, size_t payload, const uint8_t src[4], const uint8_t dst[4])
{
    uint8_t h[20] = {0x45, 0, 0, 0, 0, 7, 0, 0, 64, (uint8_t)proto};
    be16(h + 2, (unsigned)(20 + payload));
    memcpy(h + 12, src, 4);
    memcpy(h + 16, dst, 4);
    set_csum(h + 10, h, 20, 0);
    return put(f, h, 20);
}

static void rewrite(struct buf *f, bool keep, bool ts, struct tn_layout *lay, struct tn_pkt *pk,
                    uint32_t *caplen)
{
    struct tn_dissect_cfg cfg;
    tn_dissect_cfg_default(&cfg);
    tn_dissect_layout(&cfg, 1, f->b, (uint32_t)f->n, (uint32_t)f->n, (struct tn_time){0, 0}, 1, pk, lay);
    struct tn_rewrite_ops ops = {.addr = map, .keep_payload = keep, .rebase_ts = ts};
    *caplen = tn_rewrite(lay, f->b, (uint32_t)f->n, &ops);
}

static void assert_inverted(const uint8_t *got, const uint8_t *orig, size_t n)
{
    for (size_t i = 0; i < n; i++)
        ck_assert_uint_eq(got[i], (uint8_t)~orig[i]);
}

START_TEST(test_icmp_error_quote)
{
    static const uint8_t rtr[4] = {192, 0, 2, 1}, host[4] = {10, 0, 0, 1}, far[4] = {198, 51, 100, 7};
    struct buf f = {.n = 0};
    put(&f, eth_ip4, 14);
    size_t oip = ip4(&f, 1, 8 + 28, rtr, host);
    uint8_t icmp[8] = {3, 3};
    size_t oicmp = put(&f, icmp, 8);
    size_t qip = ip4(&f, 17, 8 + 12, host, far);   /* the quoted datagram had 12 bytes of data */
    uint8_t udp[8] = {0x13, 0x88, 0, 53, 0, 20, 0xab, 0xcd};
    size_t qudp = put(&f, udp, 8);
    set_csum(f.b + oicmp + 2, f.b + oicmp, f.n - oicmp, 0);

    struct tn_layout lay;
    struct tn_pkt pk;
    uint32_t cap;
    rewrite(&f, false, false, &lay, &pk, &cap);
    ck_assert_uint_eq(cap, f.n);                            /* all headers: nothing cut */
    for (int i = 0; i < 12; i++)
        ck_assert_uint_eq(f.b[i], 0);                       /* MACs */
    assert_inverted(f.b + oip + 12, rtr, 4);
    assert_inverted(f.b + oip + 16, host, 4);
    assert_inverted(f.b + qip + 12, host, 4);               /* the quote too */
    assert_inverted(f.b + qip + 16, far, 4);
    ck_assert_uint_eq(f.b[qudp + 6], 0);                    /* quoted UDP checksum zeroed */
    ck_assert_uint_eq(f.b[qudp + 7], 0);
    ck_assert(verifies(f.b + oip, 20, 0));
    ck_assert(verifies(f.b + qip, 20, 0));
    ck_assert(verifies(f.b + oicmp, f.n - oicmp, 0));
    ck_assert_uint_eq(f.b[qudp], 0x13);                     /* ports kept */
}
END_TEST

START_TEST(test_arp)
{
    struct buf f = {.n = 0};
    uint8_t eth[14] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0, 0, 2, 0x08, 0x06};
    put(&f, eth, 14);
    uint8_t arp[28] = {0, 1, 8, 0, 6, 4, 0, 1, 2, 0, 0, 0, 0, 2, 10, 0, 0, 1,
                       0, 0, 0, 0, 0, 0, 10, 0, 0, 2};
    size_t a = put(&f, arp, 28);
    uint8_t pad[18] = {0xee};
    put(&f, pad, sizeof pad);
    struct tn_layout lay;
    struct tn_pkt pk;
    uint32_t cap;
    rewrite(&f, false, false, &lay, &pk, &cap);
    ck_assert_uint_eq(cap, 14 + 28);                        /* padding cut */
    for (int i = 0; i < 12; i++)
        ck_assert_uint_eq(f.b[i], 0);
    for (int i = 0; i < 6; i++)
        ck_assert_uint_eq(f.b[a + 8 + i], 0);               /* sender hardware address */
    assert_inverted(f.b + a + 14, (const uint8_t[]){10, 0, 0, 1}, 4);
    assert_inverted(f.b + a + 24, (const uint8_t[]){10, 0, 0, 2}, 4);
    ck_assert_uint_eq(f.b[a + 7], 1);                       /* operation kept */
}
END_TEST

/* A TCP segment with time stamps and 10 bytes of data inside VXLAN. */
static void vxlan_frame(struct buf *f, size_t *oip, size_t *oudp, size_t *ieth, size_t *iip, size_t *tcp)
{
    static const uint8_t vtep1[4] = {172, 16, 0, 1}, vtep2[4] = {172, 16, 0, 2};
    static const uint8_t a[4] = {10, 1, 1, 2}, b[4] = {10, 9, 1, 3};
    size_t inner = 14 + 20 + 32 + 10;
    f->n = 0;
    put(f, eth_ip4, 14);
    *oip = ip4(f, 17, 8 + 8 + inner, vtep1, vtep2);
    uint8_t udp[8] = {0xc0, 0x00, 0x12, 0xb5};   /* to 4789 */
    be16(udp + 4, (unsigned)(8 + 8 + inner));
    *oudp = put(f, udp, 8);
    uint8_t vx[8] = {0x08, 0, 0, 0, 0, 0, 1, 0};
    put(f, vx, 8);
    *ieth = put(f, eth_ip4, 14);
    *iip = ip4(f, 6, 32 + 10, a, b);
    uint8_t t[32] = {0x9c, 0x40, 0x14, 0x51, 0, 0, 0, 1, 0, 0, 0, 1, 0x80, 0x10, 0x01, 0x00};
    uint8_t opt[12] = {1, 1, 8, 10, 0, 0, 0x30, 0x39, 0, 0, 0x01, 0xc8};   /* TSval 12345, TSecr 456 */
    memcpy(t + 20, opt, 12);
    *tcp = put(f, t, 32);
    uint8_t data[10] = "0123456789";
    put(f, data, 10);
    set_csum(f->b + *tcp + 16, f->b + *tcp, 42, pseudo4(f->b + *iip, 6, 42));
    set_csum(f->b + *oudp + 6, f->b + *oudp, f->n - *oudp, pseudo4(f->b + *oip, 17, f->n - *oudp));
}

static uint32_t be32at(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

START_TEST(test_vxlan_tcp_ts)
{
    struct buf f;
    size_t oip, oudp, ieth, iip, tcp;
    vxlan_frame(&f, &oip, &oudp, &ieth, &iip, &tcp);
    struct tn_layout lay;
    struct tn_pkt pk;
    uint32_t cap;
    rewrite(&f, false, true, &lay, &pk, &cap);
    ck_assert_int_eq(pk.kind, TN_PK_TCP);
    ck_assert_uint_eq(cap, tcp + 32);                       /* cut after the inner TCP header */
    for (int i = 0; i < 12; i++) {
        ck_assert_uint_eq(f.b[i], 0);
        ck_assert_uint_eq(f.b[ieth + (size_t)i], 0);        /* the inner Ethernet's MACs too */
    }
    assert_inverted(f.b + oip + 12, (const uint8_t[]){172, 16, 0, 1}, 4);
    assert_inverted(f.b + iip + 12, (const uint8_t[]){10, 1, 1, 2}, 4);
    assert_inverted(f.b + iip + 16, (const uint8_t[]){10, 9, 1, 3}, 4);
    /* TSval + 1000 x last byte of the mapped source (~2 = 253), TSecr + that of the destination
     * (~3 = 252) */
    ck_assert_uint_eq(be32at(f.b + tcp + 24), 12345u + 1000u * 253);
    ck_assert_uint_eq(be32at(f.b + tcp + 28), 456u + 1000u * 252);
    ck_assert(verifies(f.b + oip, 20, 0));
    ck_assert(verifies(f.b + iip, 20, 0));
    ck_assert_uint_eq(be32at(f.b + tcp + 16) >> 16, 0);     /* cut segment: TCP checksum 0 */
    ck_assert_uint_eq(f.b[oudp + 6] << 8 | f.b[oudp + 7], 0);   /* and the outer UDP's */

    /* --keep-payload: everything stays, and both checksums verify over the new addresses */
    vxlan_frame(&f, &oip, &oudp, &ieth, &iip, &tcp);
    rewrite(&f, true, false, &lay, &pk, &cap);
    ck_assert_uint_eq(cap, f.n);
    ck_assert_mem_eq(f.b + tcp + 32, "0123456789", 10);
    ck_assert_uint_eq(be32at(f.b + tcp + 24), 12345u);      /* no rebase asked */
    ck_assert(verifies(f.b + tcp, 42, pseudo4(f.b + iip, 6, 42)));
    ck_assert(verifies(f.b + oudp, f.n - oudp, pseudo4(f.b + oip, 17, f.n - oudp)));
}
END_TEST

START_TEST(test_ipv6_neighbour_solicitation)
{
    struct buf f = {.n = 0};
    uint8_t eth[14] = {0x33, 0x33, 0xff, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x86, 0xdd};
    put(&f, eth, 14);
    uint8_t ip6[40] = {0x60, 0, 0, 0, 0, 32, 58, 255, 0xfe, 0x80};
    ip6[23] = 1;                                            /* fe80::1 */
    ip6[24] = 0xff;
    ip6[25] = 0x02;
    ip6[35] = 1;
    ip6[36] = 0xff;
    ip6[39] = 2;                                            /* ff02::1:ff00:2 */
    size_t ip = put(&f, ip6, 40);
    uint8_t ns[32] = {135, 0, 0, 0, 0, 0, 0, 0, 0xfe, 0x80};
    ns[23] = 2;                                             /* target fe80::2 */
    ns[24] = 1;                                             /* source link-layer address option */
    ns[25] = 1;
    memcpy(ns + 26, (const uint8_t[]){2, 0, 0, 0, 0, 1}, 6);
    size_t icmp = put(&f, ns, 32);
    set_csum(f.b + icmp + 2, f.b + icmp, 32, pseudo6(f.b + ip, 58, 32));
    uint8_t target[16];
    memcpy(target, f.b + icmp + 8, 16);

    struct tn_layout lay;
    struct tn_pkt pk;
    uint32_t cap;
    rewrite(&f, false, false, &lay, &pk, &cap);
    ck_assert_uint_eq(cap, f.n);
    assert_inverted(f.b + icmp + 8, target, 16);
    for (int i = 0; i < 6; i++)
        ck_assert_uint_eq(f.b[icmp + 26 + (size_t)i], 0);   /* the option's MAC */
    ck_assert_uint_eq(f.b[icmp + 24], 1);                   /* option type kept */
    ck_assert(verifies(f.b + icmp, 32, pseudo6(f.b + ip, 58, 32)));
}
END_TEST

/* A truncated inner header is cut even with --keep-payload: its bytes were not rewritten. */
START_TEST(test_truncated_inner_cut)
{
    struct buf f;
    size_t oip, oudp, ieth, iip, tcp;
    vxlan_frame(&f, &oip, &oudp, &ieth, &iip, &tcp);
    struct tn_dissect_cfg cfg;
    tn_dissect_cfg_default(&cfg);
    struct tn_layout lay;
    struct tn_pkt pk;
    uint32_t caplen = (uint32_t)(iip + 14);   /* the inner IPv4 header ends inside its addresses */
    tn_dissect_layout(&cfg, 1, f.b, caplen, (uint32_t)f.n, (struct tn_time){0, 0}, 1, &pk, &lay);
    struct tn_rewrite_ops ops = {.addr = map, .keep_payload = true};
    uint32_t cap = tn_rewrite(&lay, f.b, caplen, &ops);
    ck_assert_uint_le(cap, iip);
    ck_assert(!lay.payload_ok);
}
END_TEST

Suite *tn_rewrite_suite(void)
{
    Suite *s = suite_create("rewrite");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_icmp_error_quote);
    tcase_add_test(tc, test_arp);
    tcase_add_test(tc, test_vxlan_tcp_ts);
    tcase_add_test(tc, test_ipv6_neighbour_solicitation);
    tcase_add_test(tc, test_truncated_inner_cut);
    suite_add_tcase(s, tc);
    return s;
}
