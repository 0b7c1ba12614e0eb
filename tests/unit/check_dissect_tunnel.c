/* check_dissect_tunnel.c - UDP and the tunnels (GRE with its options, transparent Ethernet
 * bridging and ERSPAN, VXLAN, GTP-U, IP in IP, 6in4) on hand-built frames; the truncation sweep
 * and the mutations over these frames.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "dissect_test.h"

/* ---------------------------------------------------------------- tunnels */

/* IPv4 192.168.0.1 -> 192.168.0.2, total 76 (20 + GRE 12 + 44), DF, TTL 64, proto 47 */
static const uint8_t o4_gre76[] = {0x45, 0x00, 0x00, 0x4c, 0x00, 0x00, 0x40, 0x00, 0x40, 0x2f,
                                   0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0x02};
/* GRE: K and S set (0x3000), version 0, protocol 0x0800; key 42; sequence 1 */
static const uint8_t gre_ks_ip4[] = {0x30, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x2a,
                                     0x00, 0x00, 0x00, 0x01};
/* IPv4 as above, total 91 (20 + GRE 8 + 63), proto 47 */
static const uint8_t o4_gre91[] = {0x45, 0x00, 0x00, 0x5b, 0x00, 0x00, 0x40, 0x00, 0x40, 0x2f,
                                   0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0x02};
/* GRE: C set (0x8000), protocol 0x86dd; checksum 0, reserved 0 */
static const uint8_t gre_c_ip6[] = {0x80, 0x00, 0x86, 0xdd, 0x00, 0x00, 0x00, 0x00};
/* IPv4 as above, total 82 (20 + GRE 4 + Ethernet 14 + 44), proto 47 */
static const uint8_t o4_gre82[] = {0x45, 0x00, 0x00, 0x52, 0x00, 0x00, 0x40, 0x00, 0x40, 0x2f,
                                   0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0x02};
/* GRE: no flags, protocol 0x6558 (transparent Ethernet bridging) */
static const uint8_t gre_teb[] = {0x00, 0x00, 0x65, 0x58};
/* IPv4 as above, total 94 (20 + GRE 8 + ERSPAN 8 + Ethernet 14 + 44), proto 47 */
static const uint8_t o4_gre94[] = {0x45, 0x00, 0x00, 0x5e, 0x00, 0x00, 0x40, 0x00, 0x40, 0x2f,
                                   0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0x02};
/* GRE: S set (0x1000), protocol 0x88be (ERSPAN); sequence 5;
 * ERSPAN II: version 1, VLAN 100, COS 0, En 0, T 0, session 1, reserved, index 0 */
static const uint8_t gre_erspan2[] = {0x10, 0x00, 0x88, 0xbe, 0x00, 0x00, 0x00, 0x05,
                                      0x10, 0x64, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00};
/* IPv4 as above, total 32 (20 + GRE 12), proto 47; GRE version 1 (PPTP): K|S, proto 0x880b,
 * payload length 0, call id 1, sequence 1 */
static const uint8_t ip4_gre_v1[] = {0x45, 0x00, 0x00, 0x20, 0x00, 0x00, 0x40, 0x00, 0x40, 0x2f,
                                     0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0x02,
                                     0x30, 0x01, 0x88, 0x0b, 0x00, 0x00, 0x00, 0x01,
                                     0x00, 0x00, 0x00, 0x01};
/* IPv4 172.16.0.1 -> 172.16.0.2, total 94 (20 + UDP 8 + VXLAN 8 + Ethernet 14 + 44), proto 17;
 * UDP 49152 -> 4789, length 74, checksum 0; VXLAN flags I (0x08), VNI 100 */
static const uint8_t o4_vxlan[] = {0x45, 0x00, 0x00, 0x5e, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
                                   0x00, 0x00, 0xac, 0x10, 0x00, 0x01, 0xac, 0x10, 0x00, 0x02,
                                   0xc0, 0x00, 0x12, 0xb5, 0x00, 0x4a, 0x00, 0x00,
                                   0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x64, 0x00};
/* IPv4 172.16.0.1 -> 172.16.0.2, total 88 (20 + UDP 8 + GTP 8 + 4 + 4 + 44), proto 17;
 * UDP 2152 -> 2152, length 68; GTP-U flags 0x34 (version 1, PT, E), type 0xff (G-PDU),
 * length 52, TEID 1; sequence 0, N-PDU 0, next extension 0x85 (PDU session container);
 * extension: length 1 (4 bytes), content 0x00 0x09 (QFI 9), next 0 */
static const uint8_t o4_gtpu[] = {0x45, 0x00, 0x00, 0x58, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
                                  0x00, 0x00, 0xac, 0x10, 0x00, 0x01, 0xac, 0x10, 0x00, 0x02,
                                  0x08, 0x68, 0x08, 0x68, 0x00, 0x44, 0x00, 0x00,
                                  0x34, 0xff, 0x00, 0x34, 0x00, 0x00, 0x00, 0x01,
                                  0x00, 0x00, 0x00, 0x85, 0x01, 0x00, 0x09, 0x00};
/* IPv4 172.16.0.1 -> 172.16.0.2, total 64 (20 + 44), proto 4 (IP in IP) */
static const uint8_t o4_ipip[] = {0x45, 0x00, 0x00, 0x40, 0x00, 0x00, 0x40, 0x00, 0x40, 0x04,
                                  0x00, 0x00, 0xac, 0x10, 0x00, 0x01, 0xac, 0x10, 0x00, 0x02};
/* IPv4 172.16.0.1 -> 172.16.0.2, total 83 (20 + 63), proto 41 (IPv6 in IPv4) */
static const uint8_t o4_6in4[] = {0x45, 0x00, 0x00, 0x53, 0x00, 0x00, 0x40, 0x00, 0x40, 0x29,
                                  0x00, 0x00, 0xac, 0x10, 0x00, 0x01, 0xac, 0x10, 0x00, 0x02};

static const struct tun_case {
    const char *what;
    int linktype;
    struct part parts[6];
    size_t need;             /* bytes up to the end of the last header (by hand) */
    uint8_t tunnels;
    enum body body;
} tun_cases[] = {
    {"gre K S ipv4", TN_LINK_RAW, {P(o4_gre76), P(gre_ks_ip4), P(ip4_syn)}, 76, TN_TUN_GRE, B_SYN4},
    {"gre C ipv6", TN_LINK_RAW, {P(o4_gre91), P(gre_c_ip6), P(ip6_data)}, 88, TN_TUN_GRE, B_DATA6},
    {"gre teb", TN_LINK_RAW, {P(o4_gre82), P(gre_teb), P(eth_ip4), P(ip4_syn)}, 82, TN_TUN_GRE,
     B_SYN4},
    {"gre erspan2", TN_LINK_RAW, {P(o4_gre94), P(gre_erspan2), P(eth_ip4), P(ip4_syn)}, 94,
     TN_TUN_GRE | TN_TUN_ERSPAN, B_SYN4},
    {"vxlan", TN_LINK_ETHERNET, {P(eth_ip4), P(o4_vxlan), P(eth_ip4), P(ip4_syn)}, 14 + 94,
     TN_TUN_VXLAN, B_SYN4},
    {"gtp-u", TN_LINK_RAW, {P(o4_gtpu), P(ip4_syn)}, 88, TN_TUN_GTPU, B_SYN4},
    {"ipip", TN_LINK_RAW, {P(o4_ipip), P(ip4_syn)}, 64, TN_TUN_IPIP, B_SYN4},
    {"6in4", TN_LINK_RAW, {P(o4_6in4), P(ip6_data)}, 80, TN_TUN_IPIP, B_DATA6},
};

START_TEST(test_tunnels)
{
    const struct tun_case *tc = &tun_cases[_i];
    const struct body_info *bi = &bodies[tc->body];
    uint8_t buf[256];
    struct tn_pkt p;
    size_t n = cat(buf, sizeof buf, tc->parts);
    int st = dis(tc->linktype, buf, n, &p);
    ck_assert_msg(st == TN_DIS_OK, "%s: status %d", tc->what, st);
    ck_assert_msg(p.anoms.bits == 0, "%s: anoms %#llx", tc->what, (unsigned long long)p.anoms.bits);
    ck_assert_msg(p.kind == TN_PK_TCP, "%s: kind %d", tc->what, p.kind);
    ck_assert_uint_eq(p.tunnels, tc->tunnels);
    /* the inner packet is reported */
    ck_assert_uint_eq(p.ipver, bi->ipver);
    ck_assert_uint_eq(p.sport, bi->sport);
    ck_assert_uint_eq(p.tcp.seq, bi->seq);
    ck_assert_uint_eq(p.payload_len, bi->payload_len);
    if (bi->ipver == 4)
        assert_ip4(&p.src, 10, 0, 0, 1);
}
END_TEST

START_TEST(test_tunnel_other)
{
    uint8_t buf[256];
    struct tn_pkt p;

    /* GRE version 1: not followed */
    ck_assert_int_eq(dis(TN_LINK_RAW, ip4_gre_v1, sizeof ip4_gre_v1, &p), TN_DIS_OK);
    ck_assert_uint_eq(p.anoms.bits, A(GRE_VERSION));
    ck_assert_int_eq(p.kind, TN_PK_OTHER);

    /* GTP-U echo request (type 1): no user packet, no tunnel */
    struct part pg[] = {P(o4_gtpu), P(ip4_syn), {NULL, 0}};
    size_t n = cat(buf, sizeof buf, pg);
    buf[29] = 0x01;
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, n, &p), TN_DIS_OK);
    ck_assert_uint_eq(p.anoms.bits, 0);
    ck_assert_int_eq(p.kind, TN_PK_OTHER);
    ck_assert_uint_eq(p.tunnels, 0);
    ck_assert_uint_eq(p.sport, 2152);

    /* GTP-U extension length 0 */
    n = cat(buf, sizeof buf, pg);
    buf[40] = 0;
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, n, &p), TN_DIS_MALFORMED);
    ck_assert_uint_eq(p.anoms.bits, A(TUNNEL_MALFORMED));

    /* GTP-U length 0x80 past the UDP payload */
    n = cat(buf, sizeof buf, pg);
    buf[31] = 0x80;
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, n, &p), TN_DIS_MALFORMED);
    ck_assert_uint_eq(p.anoms.bits, A(TUNNEL_MALFORMED));

    /* capture cut in the GTP-U extension header */
    n = cat(buf, sizeof buf, pg);
    ck_assert_int_eq(dis_cw(NULL, TN_LINK_RAW, buf, 41, n, &p), TN_DIS_TRUNCATED);
    ck_assert_uint_eq(p.anoms.bits, A(TUNNEL_TRUNCATED));

    /* UDP length 7 */
    n = cat(buf, sizeof buf, pg);
    buf[25] = 7;
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, n, &p), TN_DIS_MALFORMED);
    ck_assert_uint_eq(p.anoms.bits, A(UDP_LEN));

    /* UDP header cut */
    ck_assert_int_eq(dis_cw(NULL, TN_LINK_RAW, o4_gtpu, 24, 88, &p), TN_DIS_TRUNCATED);
    ck_assert_uint_eq(p.anoms.bits, A(UDP_TRUNCATED));
}
END_TEST

/* depth nested IP-in-IP headers around ip4_syn; the outermost has total 20 * depth + 44. */
static size_t ipip_nest(uint8_t *buf, unsigned depth)
{
    size_t off = 0;
    for (unsigned i = 0; i < depth; i++, off += 20) {
        memcpy(buf + off, o4_ipip, 20);
        buf[off + 3] = (uint8_t)(20 * (depth - i) + 44);
    }
    memcpy(buf + off, ip4_syn, sizeof ip4_syn);
    return off + sizeof ip4_syn;
}

START_TEST(test_tunnel_depth)
{
    uint8_t buf[256];
    struct tn_pkt p;
    size_t n = ipip_nest(buf, 4);
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, n, &p), TN_DIS_OK);
    ck_assert_int_eq(p.kind, TN_PK_TCP);
    ck_assert_uint_eq(p.tunnels, TN_TUN_IPIP);
    ck_assert_uint_eq(p.anoms.bits, 0);
    n = ipip_nest(buf, 5);
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, n, &p), TN_DIS_OK);
    ck_assert_int_eq(p.kind, TN_PK_OTHER);
    ck_assert_uint_eq(p.anoms.bits, A(TUNNEL_DEPTH));
}
END_TEST

/* ---------------------------------------------------------------- truncation sweep */

START_TEST(test_sweep_tunnels)
{
    const struct tun_case *tc = &tun_cases[_i];
    uint8_t buf[256];
    size_t n = cat(buf, sizeof buf, tc->parts);
    sweep_one(tc->what, tc->linktype, buf, n, tc->need);
}
END_TEST

/* IPv4 10.0.0.1 -> 10.0.0.2, total 32, proto 17; UDP 53 -> 53, length 12; 4 bytes of DNS */
static const uint8_t ip4_udp_dns[] = {
    0x45, 0x00, 0x00, 0x20, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00,
    0x0a, 0x00, 0x00, 0x01, 0x0a, 0x00, 0x00, 0x02,
    0x00, 0x35, 0x00, 0x35, 0x00, 0x0c, 0x00, 0x00, 0x12, 0x34, 0x01, 0x00,
};

static const struct frame_case sweep_tunnel[] = {
    {"udp dns", TN_LINK_RAW, ip4_udp_dns, sizeof ip4_udp_dns, 28},
    {"gre version 1", TN_LINK_RAW, ip4_gre_v1, sizeof ip4_gre_v1, 24},
};

START_TEST(test_sweep_tunnel)
{
    sweep_case(&sweep_tunnel[_i]);
}
END_TEST

/* Frame i of tun_cases, then of sweep_tunnel. */
static size_t tunnel_build(const void *ctx, size_t i, uint8_t *buf, size_t cap, int *lt)
{
    (void)ctx;
    if (i >= N(tun_cases))
        return frame_case_copy(&sweep_tunnel[i - N(tun_cases)], buf, cap, lt);
    *lt = tun_cases[i].linktype;
    return cat(buf, cap, tun_cases[i].parts);
}

START_TEST(test_tunnel_mutations)
{
    mutate_frames(tunnel_build, NULL, N(tun_cases) + N(sweep_tunnel), MUTATION_SEED ^ (uint32_t)_i);
}
END_TEST

Suite *tn_dissect_tunnel_suite(void)
{
    Suite *s = suite_create("dissect_tunnel");
    TCase *tc = dissect_tcase(s, "tunnel");
    tcase_add_loop_test(tc, test_tunnels, 0, (int)N(tun_cases));
    tcase_add_test(tc, test_tunnel_other);
    tcase_add_test(tc, test_tunnel_depth);
    tc = dissect_tcase(s, "sweep");
    tcase_add_loop_test(tc, test_sweep_tunnels, 0, (int)N(tun_cases));
    tcase_add_loop_test(tc, test_sweep_tunnel, 0, (int)N(sweep_tunnel));
    tcase_add_loop_test(tc, test_tunnel_mutations, 0, 4);
    return s;
}
