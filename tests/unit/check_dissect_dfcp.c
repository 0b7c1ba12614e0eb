/* check_dissect_dfcp.c - DFCP (dfcp-wire-format.md) native over IPv4 and IPv6 and over UDP:
 * fields, types, malformed headers, the configurable protocol number and port; the truncation
 * sweep and the mutations over these frames.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dissect_test.h"

/* ---------------------------------------------------------------- DFCP */

/* IPv4 10.1.0.1 -> 10.1.0.2, total 48 (20 + DFCP 20 + 8), TTL 64, proto 253 (DFCP native);
 * DFCP 5000 -> 9253, version 1, type DATA, flags ACKING|ENCODED, n 49, block 7, symbol 3,
 * window 100, k 65536; payload 8 bytes 0xd0..0xd7 (one short symbol). */
static const uint8_t dfcp4_data[] = {
    0x45, 0x00, 0x00, 0x30, 0x00, 0x00, 0x40, 0x00, 0x40, 0xfd, 0x00, 0x00,
    0x0a, 0x01, 0x00, 0x01, 0x0a, 0x01, 0x00, 0x02,
    0x13, 0x88, 0x24, 0x25, 0x10, 0x03, 0x00, 0x31, 0x00, 0x00, 0x00, 0x07,
    0x00, 0x03, 0x00, 0x64, 0x00, 0x01, 0x00, 0x00,
    0xd0, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7,
};
#define DFCP4_HDR_AT 20

/* IPv4 10.1.0.1 -> 10.1.0.2, total 56 (20 + UDP 8 + DFCP 20 + 8), proto 17;
 * UDP 50000 -> 9253, length 36, checksum 0; DFCP header and payload as in dfcp4_data
 * (its own ports 5000 -> 9253). */
static const uint8_t dfcp4_udp_data[] = {
    0x45, 0x00, 0x00, 0x38, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00,
    0x0a, 0x01, 0x00, 0x01, 0x0a, 0x01, 0x00, 0x02,
    0xc3, 0x50, 0x24, 0x25, 0x00, 0x24, 0x00, 0x00,
    0x13, 0x88, 0x24, 0x25, 0x10, 0x03, 0x00, 0x31, 0x00, 0x00, 0x00, 0x07,
    0x00, 0x03, 0x00, 0x64, 0x00, 0x01, 0x00, 0x00,
    0xd0, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7,
};
#define DFCP4_UDP_HDR_AT 28

/* IPv6 2001:db8::1 -> 2001:db8::2, payload 20, next header 253, hop limit 64;
 * DFCP 5000 -> 9253, version 1, BACK, flags ACKING|DECODE_FAILED|LAST_BLOCK (0x0d), n 49,
 * block 0xfffffffe, symbol 0, window 0, k 1420. */
static const uint8_t dfcp6_back[] = {
    0x60, 0x00, 0x00, 0x00, 0x00, 0x14, 0xfd, 0x40, IP6_ADDRS,
    0x13, 0x88, 0x24, 0x25, 0x14, 0x0d, 0x00, 0x31, 0xff, 0xff, 0xff, 0xfe,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x8c,
};

static void assert_dfcp_data_fields(const struct tn_pkt *p)
{
    ck_assert_uint_eq(p->dfcp.version, 1);
    ck_assert_uint_eq(p->dfcp.type, TN_DFCP_T_DATA);
    ck_assert_uint_eq(p->dfcp.flags, TN_DFCP_F_ACKING | TN_DFCP_F_ENCODED);
    ck_assert_uint_eq(p->dfcp.n, 49);
    ck_assert_uint_eq(p->dfcp.block, 7);
    ck_assert_uint_eq(p->dfcp.sym_idx, 3);
    ck_assert_uint_eq(p->dfcp.window, 100);
    ck_assert_uint_eq(p->dfcp.k, 65536);
    ck_assert_uint_eq(p->dfcp.hdr_sport, 5000);
    ck_assert_uint_eq(p->dfcp.hdr_dport, 9253);
    ck_assert_uint_eq(p->payload_len, 8);
    ck_assert_uint_eq(p->payload_caplen, 8);
    ck_assert_uint_eq(p->payload[0], 0xd0);
    ck_assert_uint_eq(p->payload[7], 0xd7);
}

START_TEST(test_dfcp_data)
{
    struct tn_pkt p;
    ck_assert_int_eq(dis(TN_LINK_RAW, dfcp4_data, sizeof dfcp4_data, &p), TN_DIS_OK);
    ck_assert_uint_eq(p.anoms.bits, 0);
    ck_assert_int_eq(p.kind, TN_PK_DFCP);
    ck_assert_uint_eq(p.ipproto, 253);
    ck_assert(!p.dfcp.over_udp);
    ck_assert_uint_eq(p.sport, 5000);
    ck_assert_uint_eq(p.dport, 9253);
    assert_dfcp_data_fields(&p);

    ck_assert_int_eq(dis(TN_LINK_RAW, dfcp4_udp_data, sizeof dfcp4_udp_data, &p), TN_DIS_OK);
    ck_assert_uint_eq(p.anoms.bits, 0);
    ck_assert_int_eq(p.kind, TN_PK_DFCP);
    ck_assert_uint_eq(p.ipproto, 17);
    ck_assert(p.dfcp.over_udp);
    ck_assert_uint_eq(p.sport, 50000);  /* the UDP ports */
    ck_assert_uint_eq(p.dport, 9253);
    assert_dfcp_data_fields(&p);

    ck_assert_int_eq(dis(TN_LINK_IPV6, dfcp6_back, sizeof dfcp6_back, &p), TN_DIS_OK);
    ck_assert_uint_eq(p.anoms.bits, 0);
    ck_assert_int_eq(p.kind, TN_PK_DFCP);
    ck_assert_uint_eq(p.dfcp.type, TN_DFCP_T_BACK);
    ck_assert_uint_eq(p.dfcp.flags, 0x0d);
    ck_assert_uint_eq(p.dfcp.block, 0xfffffffeu);
    ck_assert_uint_eq(p.dfcp.k, 1420);
    ck_assert_uint_eq(p.payload_len, 0);
}
END_TEST

/* Every type 0-15, native (_i even) and over UDP (_i odd).  Control types are sent without
 * payload (IP/UDP lengths shortened); DATA and reserved types keep the 8 bytes. */
START_TEST(test_dfcp_types)
{
    unsigned type = (unsigned)_i / 2;
    bool udp = _i % 2;
    const uint8_t *fix = udp ? dfcp4_udp_data : dfcp4_data;
    size_t n = udp ? sizeof dfcp4_udp_data : sizeof dfcp4_data;
    size_t at = udp ? DFCP4_UDP_HDR_AT : DFCP4_HDR_AT;
    uint8_t buf[64];
    memcpy(buf, fix, n);
    buf[at + 4] = (uint8_t)(0x10 | type);
    bool control = type >= 1 && type <= 7;
    if (control) {
        n -= 8;
        buf[3] = (uint8_t)n;
        if (udp)
            buf[25] = (uint8_t)(n - 20);
        buf[at + 12] = buf[at + 13] = 0;  /* symbol index 0 */
    }
    struct tn_pkt p;
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, n, &p), TN_DIS_OK);
    ck_assert_int_eq(p.kind, TN_PK_DFCP);
    ck_assert_uint_eq(p.dfcp.type, type);
    ck_assert(p.dfcp.over_udp == udp);
    ck_assert_uint_eq(p.anoms.bits, type >= 8 ? A(DFCP_TYPE_RESERVED) : 0);
    ck_assert_uint_eq(p.payload_len, control ? 0 : 8);
    static const char *const names[] = {"DATA", "SYN", "SYNACK", "ACK", "BACK", "FIN", "FINACK",
                                        "RST"};
    char nb[16], want[16];
    if (type < 8)
        snprintf(want, sizeof want, "%s", names[type]);
    else
        snprintf(want, sizeof want, "unknown-%u", type);
    ck_assert_str_eq(tn_dfcp_type_name(type, nb), want);
}
END_TEST

/* style.md section 7: patch one byte of the native DATA fixture. */
static const struct {
    const char *what;
    uint8_t patch_at, patch_val;
    uint64_t anoms;
} dfcp_bad[] = {
    {"reserved type 9", DFCP4_HDR_AT + 4, 0x19, A(DFCP_TYPE_RESERVED)},
    {"version 2", DFCP4_HDR_AT + 4, 0x20, A(DFCP_VERSION)},
    {"version 0", DFCP4_HDR_AT + 4, 0x00, A(DFCP_VERSION)},
    {"idx 0xff03 >= n", DFCP4_HDR_AT + 12, 0xff, A(DFCP_SYMIDX_RANGE)},
    {"idx 49 == n", DFCP4_HDR_AT + 13, 0x31, A(DFCP_SYMIDX_RANGE)},
    {"reserved flag 0x10", DFCP4_HDR_AT + 5, 0x13, A(DFCP_FLAGS_RESERVED)},
    {"reserved flag 0x80", DFCP4_HDR_AT + 5, 0x83, A(DFCP_FLAGS_RESERVED)},
    {"ACK with 8 bytes of payload", DFCP4_HDR_AT + 4, 0x13, A(DFCP_UNEXPECTED_PAYLOAD)},
    {"all known flags", DFCP4_HDR_AT + 5, 0x0f, 0},
    {"idx 48 = n - 1", DFCP4_HDR_AT + 13, 0x30, 0},
};

START_TEST(test_dfcp_malformed)
{
    uint8_t buf[64];
    struct tn_pkt p;
    memcpy(buf, dfcp4_data, sizeof dfcp4_data);
    buf[dfcp_bad[_i].patch_at] = dfcp_bad[_i].patch_val;
    int st = dis(TN_LINK_RAW, buf, sizeof dfcp4_data, &p);
    ck_assert_msg(st == TN_DIS_OK, "%s: status %d", dfcp_bad[_i].what, st);
    ck_assert_msg(p.kind == TN_PK_DFCP, "%s: kind", dfcp_bad[_i].what);
    ck_assert_msg(p.anoms.bits == dfcp_bad[_i].anoms, "%s: anoms %#llx", dfcp_bad[_i].what,
                  (unsigned long long)p.anoms.bits);
}
END_TEST

START_TEST(test_dfcp_short)
{
    uint8_t buf[64];
    struct tn_pkt p;
    /* header cut by the capture */
    ck_assert_int_eq(dis_cw(NULL, TN_LINK_RAW, dfcp4_data, 30, sizeof dfcp4_data, &p),
                     TN_DIS_TRUNCATED);
    ck_assert_uint_eq(p.anoms.bits, A(DFCP_TRUNCATED));
    ck_assert_int_eq(p.kind, TN_PK_OTHER);
    /* IP total 30: only 10 DFCP bytes on the wire */
    memcpy(buf, dfcp4_data, 30);
    buf[3] = 30;
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, 30, &p), TN_DIS_MALFORMED);
    ck_assert_uint_eq(p.anoms.bits, A(DFCP_HDR_GT_IP));
    /* header-only capture of a DATA packet: fine */
    ck_assert_int_eq(dis_cw(NULL, TN_LINK_RAW, dfcp4_data, 40, sizeof dfcp4_data, &p), TN_DIS_OK);
    ck_assert_uint_eq(p.anoms.bits, 0);
    ck_assert_uint_eq(p.payload_len, 8);
    ck_assert_uint_eq(p.payload_caplen, 0);
}
END_TEST

START_TEST(test_dfcp_cfg)
{
    uint8_t buf[64];
    struct tn_pkt p;
    struct tn_dissect_cfg cfg;
    tn_dissect_cfg_default(&cfg);
    ck_assert_uint_eq(cfg.dfcp_ipproto, 253);
    ck_assert_uint_eq(cfg.dfcp_udp_port, 9253);

    /* native on protocol 200: OTHER by default, DFCP when configured */
    memcpy(buf, dfcp4_data, sizeof dfcp4_data);
    buf[9] = 200;
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, sizeof dfcp4_data, &p), TN_DIS_OK);
    ck_assert_int_eq(p.kind, TN_PK_OTHER);
    ck_assert_uint_eq(p.ipproto, 200);
    cfg.dfcp_ipproto = 200;
    ck_assert_int_eq(dis_cw(&cfg, TN_LINK_RAW, buf, sizeof dfcp4_data, sizeof dfcp4_data, &p),
                     TN_DIS_OK);
    ck_assert_int_eq(p.kind, TN_PK_DFCP);
    assert_dfcp_data_fields(&p);
    /* ... and 253 is then no longer DFCP */
    ck_assert_int_eq(dis_cw(&cfg, TN_LINK_RAW, dfcp4_data, sizeof dfcp4_data, sizeof dfcp4_data,
                            &p), TN_DIS_OK);
    ck_assert_int_eq(p.kind, TN_PK_OTHER);

    /* UDP 50000 -> 7000: plain UDP by default, DFCP with port 7000 */
    tn_dissect_cfg_default(&cfg);
    memcpy(buf, dfcp4_udp_data, sizeof dfcp4_udp_data);
    buf[22] = 0x1b;
    buf[23] = 0x58;
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, sizeof dfcp4_udp_data, &p), TN_DIS_OK);
    ck_assert_int_eq(p.kind, TN_PK_OTHER);
    ck_assert_uint_eq(p.dport, 7000);
    cfg.dfcp_udp_port = 7000;
    ck_assert_int_eq(dis_cw(&cfg, TN_LINK_RAW, buf, sizeof dfcp4_udp_data, sizeof dfcp4_udp_data,
                            &p), TN_DIS_OK);
    ck_assert_int_eq(p.kind, TN_PK_DFCP);
    ck_assert_uint_eq(p.dport, 7000);
    ck_assert_uint_eq(p.dfcp.hdr_dport, 9253);  /* a mismatch is not an anomaly */
    ck_assert_uint_eq(p.anoms.bits, 0);

    /* the reverse direction: source port 9253 */
    memcpy(buf, dfcp4_udp_data, sizeof dfcp4_udp_data);
    buf[20] = 0x24;
    buf[21] = 0x25;
    buf[22] = 0xc3;
    buf[23] = 0x50;
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, sizeof dfcp4_udp_data, &p), TN_DIS_OK);
    ck_assert_int_eq(p.kind, TN_PK_DFCP);
    ck_assert_uint_eq(p.sport, 9253);
    ck_assert_uint_eq(p.dport, 50000);
}
END_TEST

/* ---------------------------------------------------------------- truncation sweep */

static const struct frame_case sweep_dfcp[] = {
    {"dfcp native ipv4", TN_LINK_RAW, dfcp4_data, sizeof dfcp4_data, 40},
    {"dfcp over udp", TN_LINK_RAW, dfcp4_udp_data, sizeof dfcp4_udp_data, 48},
    {"dfcp native ipv6", TN_LINK_IPV6, dfcp6_back, sizeof dfcp6_back, 60},
};

START_TEST(test_sweep_dfcp)
{
    sweep_case(&sweep_dfcp[_i]);
}
END_TEST

START_TEST(test_dfcp_mutations)
{
    mutate_frames(frame_cases_build, sweep_dfcp, N(sweep_dfcp), MUTATION_SEED ^ (uint32_t)_i);
}
END_TEST

Suite *tn_dissect_dfcp_suite(void)
{
    Suite *s = suite_create("dissect_dfcp");
    TCase *tc = dissect_tcase(s, "dfcp");
    tcase_add_test(tc, test_dfcp_data);
    tcase_add_loop_test(tc, test_dfcp_types, 0, 32);
    tcase_add_loop_test(tc, test_dfcp_malformed, 0, (int)N(dfcp_bad));
    tcase_add_test(tc, test_dfcp_short);
    tcase_add_test(tc, test_dfcp_cfg);
    tc = dissect_tcase(s, "sweep");
    tcase_add_loop_test(tc, test_sweep_dfcp, 0, (int)N(sweep_dfcp));
    tcase_add_loop_test(tc, test_dfcp_mutations, 0, 4);
    return s;
}
