/* check_dissect_tcp.c - the TCP header and its options (table-driven: every known kind at its
 * exact length, bad lengths, duplicates) on hand-built frames; the truncation sweep and the
 * mutations over these frames.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "dissect_test.h"

/* ---------------------------------------------------------------- TCP */

/* IPv4 10.0.0.1 -> 10.0.0.2, total set by the builder (20 + TCP header), TTL 64, proto 6;
 * TCP 1000 -> 2000, seq 0x11111111, ack 0x22222222, offset set by the builder, SYN|ACK,
 * window 8192.  tcp_with_opts() appends the options, padded with EOL to a multiple of 4. */
static const uint8_t ip4_tcp_base[] = {
    0x45, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x40, 0x06, 0x00, 0x00,
    0x0a, 0x00, 0x00, 0x01, 0x0a, 0x00, 0x00, 0x02,
    0x03, 0xe8, 0x07, 0xd0, 0x11, 0x11, 0x11, 0x11, 0x22, 0x22, 0x22, 0x22,
    0x00, 0x12, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00,
};

static size_t tcp_with_opts(uint8_t *buf, const uint8_t *opts, size_t olen)
{
    size_t padded = (olen + 3) & ~(size_t)3;
    ck_assert_uint_le(padded, 40);
    memcpy(buf, ip4_tcp_base, sizeof ip4_tcp_base);
    memset(buf + 40, 0, padded);
    if (olen)
        memcpy(buf + 40, opts, olen);
    buf[3] = (uint8_t)(40 + padded);
    buf[32] = (uint8_t)(((20 + padded) / 4) << 4);
    return 40 + padded;
}

#define NONE 0

static const struct opt_case {
    const char *what;
    uint8_t opts[40];
    size_t olen;
    int status;
    uint64_t anoms;
    struct tn_tcp_opts want;
} opt_cases[] = {
    /* valid */
    {"MSS 1460", {2, 4, 0x05, 0xb4}, 4, TN_DIS_OK, NONE, {.has_mss = true, .mss = 1460}},
    {"NOP, WS 7", {1, 3, 3, 7}, 4, TN_DIS_OK, NONE, {.has_ws = true, .ws = 7}},
    {"WS 14 (the maximum)", {3, 3, 14}, 3, TN_DIS_OK, NONE, {.has_ws = true, .ws = 14}},
    {"SACK-permitted", {4, 2}, 2, TN_DIS_OK, NONE, {.sack_ok = true}},
    {"NOP NOP TS val 1 ecr 2", {1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 2}, 12, TN_DIS_OK, NONE,
     {.has_ts = true, .ts_val = 1, .ts_ecr = 2}},
    {"SACK 1 block 100-200", {1, 1, 5, 10, 0, 0, 0, 100, 0, 0, 0, 200}, 12, TN_DIS_OK, NONE,
     {.nsack = 1, .sack = {{100, 200}}}},
    {"SACK 4 blocks",
     {5, 34, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, 5, 0, 0, 0, 6,
      0, 0, 0, 7, 0, 0, 0, 8},
     34, TN_DIS_OK, NONE, {.nsack = 4, .sack = {{1, 2}, {3, 4}, {5, 6}, {7, 8}}}},
    {"SYN set: MSS, SACK-perm, TS, NOP, WS",
     {2, 4, 0x05, 0xb4, 4, 2, 8, 10, 0, 0, 0, 100, 0, 0, 0, 0, 1, 3, 3, 7}, 20, TN_DIS_OK, NONE,
     {.has_mss = true, .mss = 1460, .sack_ok = true, .has_ts = true, .ts_val = 100, .has_ws = true,
      .ws = 7}},
    {"unknown kind 30 (MPTCP) len 4 skipped, then MSS", {30, 4, 0, 0, 2, 4, 0x02, 0x18}, 8,
     TN_DIS_OK, NONE, {.has_mss = true, .mss = 536}},
    {"EOL ends the list (junk after it ignored)", {0, 0xff, 0xff, 0xff}, 4, TN_DIS_OK, NONE, {0}},
    /* content anomalies: still OK */
    {"WS 15", {1, 3, 3, 15}, 4, TN_DIS_OK, A(TCP_WSCALE_BIG), {.has_ws = true, .ws = 15}},
    {"MSS twice: first kept", {2, 4, 0x05, 0xb4, 2, 4, 0x02, 0x18}, 8, TN_DIS_OK, A(TCP_OPT_DUP),
     {.has_mss = true, .mss = 1460}},
    {"TS twice", {8, 10, 0, 0, 0, 1, 0, 0, 0, 2, 8, 10, 0, 0, 0, 3, 0, 0, 0, 4}, 20, TN_DIS_OK,
     A(TCP_OPT_DUP), {.has_ts = true, .ts_val = 1, .ts_ecr = 2}},
    /* bad lengths */
    {"MSS len 3", {2, 3, 5, 1}, 4, TN_DIS_MALFORMED, A(TCP_OPT_LEN_BAD), {0}},
    {"WS len 4", {3, 4, 7, 0}, 4, TN_DIS_MALFORMED, A(TCP_OPT_LEN_BAD), {0}},
    {"SACK-perm len 3, then MSS", {4, 3, 0, 2, 4, 0x05, 0xb4}, 7, TN_DIS_MALFORMED,
     A(TCP_OPT_LEN_BAD), {.has_mss = true, .mss = 1460}},
    {"TS len 8", {8, 8, 0, 0, 0, 1, 0, 0}, 8, TN_DIS_MALFORMED, A(TCP_OPT_LEN_BAD), {0}},
    {"SACK len 9", {5, 9, 0, 0, 0, 1, 0, 0, 0}, 9, TN_DIS_MALFORMED, A(TCP_OPT_LEN_BAD), {0}},
    {"SACK len 2 (no block)", {5, 2}, 2, TN_DIS_MALFORMED, A(TCP_OPT_LEN_BAD), {0}},
    {"len 0", {2, 0, 5, 0xb4}, 4, TN_DIS_MALFORMED, A(TCP_OPT_LEN_ZERO), {0}},
    {"len 1 after a good MSS", {2, 4, 5, 0xb4, 8, 1}, 6, TN_DIS_MALFORMED, A(TCP_OPT_LEN_ZERO),
     {.has_mss = true, .mss = 1460}},
    {"TS runs past the header", {2, 4, 5, 0xb4, 8, 10, 0, 0}, 8, TN_DIS_MALFORMED,
     A(TCP_OPT_LEN_OVER), {.has_mss = true, .mss = 1460}},
    {"SACK len 42 > 40", {5, 42}, 40, TN_DIS_MALFORMED, A(TCP_OPT_LEN_OVER), {0}},
    {"kind in the last byte, no length", {1, 1, 1, 2}, 4, TN_DIS_MALFORMED, A(TCP_OPT_LEN_OVER),
     {0}},
};

START_TEST(test_tcp_options)
{
    const struct opt_case *oc = &opt_cases[_i];
    uint8_t buf[128];
    struct tn_pkt p;
    size_t n = tcp_with_opts(buf, oc->opts, oc->olen);
    int st = dis(TN_LINK_RAW, buf, n, &p);
    ck_assert_msg(st == oc->status, "%s: status %d", oc->what, st);
    ck_assert_msg(p.anoms.bits == oc->anoms, "%s: anoms %#llx", oc->what,
                  (unsigned long long)p.anoms.bits);
    ck_assert_msg(p.kind == TN_PK_TCP, "%s: kind", oc->what);
    ck_assert_uint_eq(p.tcp.seq, 0x11111111);
    ck_assert_uint_eq(p.tcp.ack, 0x22222222);
    ck_assert_uint_eq(p.tcp.hdr_len, n - 20);
    const struct tn_tcp_opts *g = &p.tcp.opt, *w = &oc->want;
    ck_assert_msg(g->has_mss == w->has_mss && g->mss == w->mss, "%s: mss %d %u", oc->what,
                  g->has_mss, g->mss);
    ck_assert_msg(g->has_ws == w->has_ws && g->ws == w->ws, "%s: ws", oc->what);
    ck_assert_msg(g->sack_ok == w->sack_ok, "%s: sack_ok", oc->what);
    ck_assert_msg(g->has_ts == w->has_ts && g->ts_val == w->ts_val && g->ts_ecr == w->ts_ecr,
                  "%s: ts", oc->what);
    ck_assert_msg(g->nsack == w->nsack, "%s: nsack %u", oc->what, g->nsack);
    for (unsigned i = 0; i < w->nsack; i++) {
        ck_assert_uint_eq(g->sack[i].left, w->sack[i].left);
        ck_assert_uint_eq(g->sack[i].right, w->sack[i].right);
    }
}
END_TEST

/* IPv4 10.0.0.1 -> 10.0.0.2, total 80, TTL 64, proto 6; TCP 1000 -> 2000, seq 0x11111111,
 * ack 0x22222222, offset 15 (60 bytes), SYN|ACK, window 8192; 40 bytes of options: MSS 1460,
 * SACK-permitted,
 * TS val 100 ecr 0, NOP, WS 7, NOP, NOP, SACK 2 blocks (10-20, 30-40). */
static const uint8_t ip4_tcp_allopts[] = {
    0x45, 0x00, 0x00, 0x50, 0x00, 0x00, 0x40, 0x00, 0x40, 0x06, 0x00, 0x00,
    0x0a, 0x00, 0x00, 0x01, 0x0a, 0x00, 0x00, 0x02,
    0x03, 0xe8, 0x07, 0xd0, 0x11, 0x11, 0x11, 0x11, 0x22, 0x22, 0x22, 0x22,
    0xf0, 0x12, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x02, 0x04, 0x05, 0xb4, 0x04, 0x02, 0x08, 0x0a, 0x00, 0x00, 0x00, 0x64, 0x00, 0x00, 0x00, 0x00,
    0x01, 0x03, 0x03, 0x07, 0x01, 0x01, 0x05, 0x12, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x00, 0x14,
    0x00, 0x00, 0x00, 0x1e, 0x00, 0x00, 0x00, 0x28,
};

START_TEST(test_tcp_header)
{
    struct tn_pkt p;
    uint8_t buf[128];

    ck_assert_int_eq(dis(TN_LINK_RAW, ip4_tcp_allopts, sizeof ip4_tcp_allopts, &p), TN_DIS_OK);
    ck_assert_uint_eq(p.anoms.bits, 0);
    ck_assert_uint_eq(p.tcp.hdr_len, 60);
    ck_assert_uint_eq(p.tcp.flags, TN_TCP_SYN | TN_TCP_ACK);
    ck_assert_uint_eq(p.tcp.opt.nsack, 2);
    ck_assert_uint_eq(p.tcp.opt.sack[1].left, 30);
    ck_assert_uint_eq(p.tcp.opt.sack[1].right, 40);
    ck_assert_uint_eq(p.tcp.opt.ws, 7);
    ck_assert_uint_eq(p.tcp.opt.ts_val, 100);

    /* options cut by the snap length: fixed header usable, options partial */
    ck_assert_int_eq(dis_cw(NULL, TN_LINK_RAW, ip4_tcp_allopts, 50, sizeof ip4_tcp_allopts, &p),
                     TN_DIS_TRUNCATED);
    ck_assert_uint_eq(p.anoms.bits, A(TCP_OPT_TRUNCATED));
    ck_assert_int_eq(p.kind, TN_PK_TCP);
    ck_assert_uint_eq(p.tcp.seq, 0x11111111);
    ck_assert_uint_eq(p.tcp.win, 8192);
    ck_assert(p.tcp.opt.has_mss && p.tcp.opt.sack_ok && !p.tcp.opt.has_ts);
    ck_assert_uint_eq(p.payload_len, 0);
    ck_assert_uint_eq(p.payload_caplen, 0);

    /* fixed header cut: unusable */
    ck_assert_int_eq(dis_cw(NULL, TN_LINK_RAW, ip4_tcp_allopts, 39, sizeof ip4_tcp_allopts, &p),
                     TN_DIS_TRUNCATED);
    ck_assert_uint_eq(p.anoms.bits, A(TCP_TRUNCATED));
    ck_assert_int_eq(p.kind, TN_PK_OTHER);

    /* data offset 4 */
    size_t n = tcp_with_opts(buf, NULL, 0);
    buf[32] = 0x40;
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, n, &p), TN_DIS_MALFORMED);
    ck_assert_uint_eq(p.anoms.bits, A(TCP_HDR_SHORT));
    ck_assert_int_eq(p.kind, TN_PK_OTHER);

    /* data offset 15 (60 bytes) in a 20-byte IP payload */
    buf[32] = 0xf0;
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, n, &p), TN_DIS_MALFORMED);
    ck_assert_uint_eq(p.anoms.bits, A(TCP_HDR_GT_IP));
    ck_assert_int_eq(p.kind, TN_PK_OTHER);

    /* SYN+FIN, SYN+RST: reported, still TCP */
    static const uint8_t bad_flags[] = {TN_TCP_SYN | TN_TCP_FIN, TN_TCP_SYN | TN_TCP_RST,
                                        TN_TCP_SYN | TN_TCP_FIN | TN_TCP_ACK};
    for (size_t i = 0; i < N(bad_flags); i++) {
        n = tcp_with_opts(buf, NULL, 0);
        buf[33] = bad_flags[i];
        ck_assert_int_eq(dis(TN_LINK_RAW, buf, n, &p), TN_DIS_OK);
        ck_assert_uint_eq(p.anoms.bits, A(TCP_FLAGS_BAD));
        ck_assert_int_eq(p.kind, TN_PK_TCP);
        ck_assert_uint_eq(p.tcp.flags, bad_flags[i]);
    }
    /* FIN+ACK, RST: fine */
    n = tcp_with_opts(buf, NULL, 0);
    buf[33] = TN_TCP_FIN | TN_TCP_ACK | TN_TCP_ECE | TN_TCP_CWR;
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, n, &p), TN_DIS_OK);
    ck_assert_uint_eq(p.anoms.bits, 0);

    /* destination port 0 */
    n = tcp_with_opts(buf, NULL, 0);
    buf[22] = buf[23] = 0;
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, n, &p), TN_DIS_OK);
    ck_assert_uint_eq(p.anoms.bits, A(TCP_PORT_ZERO));
}
END_TEST

/* ---------------------------------------------------------------- truncation sweep */

static const struct frame_case sweep_tcp[] = {
    {"tcp all options", TN_LINK_RAW, ip4_tcp_allopts, sizeof ip4_tcp_allopts, 80},
};

START_TEST(test_sweep_tcp)
{
    sweep_case(&sweep_tcp[_i]);
}
END_TEST

START_TEST(test_tcp_mutations)
{
    mutate_frames(frame_cases_build, sweep_tcp, N(sweep_tcp), MUTATION_SEED ^ (uint32_t)_i);
}
END_TEST

Suite *tn_dissect_tcp_suite(void)
{
    Suite *s = suite_create("dissect_tcp");
    TCase *tc = dissect_tcase(s, "tcp");
    tcase_add_loop_test(tc, test_tcp_options, 0, (int)N(opt_cases));
    tcase_add_test(tc, test_tcp_header);
    tc = dissect_tcase(s, "sweep");
    tcase_add_loop_test(tc, test_sweep_tcp, 0, (int)N(sweep_tcp));
    tcase_add_loop_test(tc, test_tcp_mutations, 0, 4);
    return s;
}
