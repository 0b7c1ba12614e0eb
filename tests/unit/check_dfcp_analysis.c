/* check_dfcp_analysis.c - DFCP analysis (issue 5) on hand-built packet sequences: handshake
 * with retries, blocks with missing symbols, DECODE_FAILED, acking off, block-number wrap,
 * FIN exchange, tolerance of garbage, the window, the series and dfcp_blocks.csv.
 *
 * Every expected number below is worked out by hand from the sequence fed (times in ms from
 * the base 1000 s; see each test's comment). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>

#include "analysis.h"
#include "pipeline_helper.h"
#include "render.h"

static struct tn_analyzer *an;
static uint64_t pktno;

/* Sequence parameters, changed by tests before feeding. */
static uint16_t P_N, P_WIN;
static uint32_t P_K;
static uint8_t P_FLAGS;

static void setup(void)
{
    struct tn_analysis_cfg cfg = {.record_events = true, .record_series = true,
                                  .record_packets = true, .interval_ns = 0};
    an = tn_analyzer_new(&cfg);
    pktno = 0;
    P_N = 4;
    P_WIN = 100;
    P_K = 3000;
    P_FLAGS = TN_DFCP_F_ACKING;
}

static void teardown(void)
{
    tn_analyzer_free(an);
}

#define BASE_NS INT64_C(1000000000000)   /* 1000 s */

/* Sender 10.0.0.1:5000 -> receiver 10.0.0.2:9253 over UDP, at t_ms after the base. */
static struct tn_pkt dp(bool from_sender, uint8_t type, uint32_t block, uint16_t idx,
                        uint32_t len, double t_ms)
{
    struct tn_pkt p;
    memset(&p, 0, sizeof p);
    p.kind = TN_PK_DFCP;
    p.ipver = 4;
    p.src.family = p.dst.family = 4;
    uint8_t s[4] = {10, 0, 0, 1}, r[4] = {10, 0, 0, 2};
    memcpy(p.src.a, from_sender ? s : r, 4);
    memcpy(p.dst.a, from_sender ? r : s, 4);
    p.sport = from_sender ? 5000 : 9253;
    p.dport = from_sender ? 9253 : 5000;
    p.dfcp.version = 1;
    p.dfcp.type = type;
    p.dfcp.flags = P_FLAGS;
    p.dfcp.n = P_N;
    p.dfcp.block = block;
    p.dfcp.sym_idx = idx;
    p.dfcp.window = P_WIN;
    p.dfcp.k = P_K;
    p.dfcp.over_udp = true;
    p.payload_len = p.payload_caplen = len;
    p.wirelen = p.caplen = 62 + len;
    int64_t t = BASE_NS + (int64_t)llround(t_ms * 1e6);
    p.ts.sec = t / 1000000000;
    p.ts.nsec = (uint32_t)(t % 1000000000);
    p.num = ++pktno;
    return p;
}

static void feed(struct tn_pkt p)
{
    tn_analyzer_add(an, &p, TN_DIS_OK, "test");
}

static const struct tn_conn *finish(void)
{
    tn_analyzer_finish(an);
    ck_assert_uint_eq(tn_analyzer_conn_count(an), 1);
    return tn_analyzer_conn(an, 0);
}

static size_t count_events(const struct tn_conn *c, enum tn_event_kind k)
{
    size_t n = 0;
    for (size_t i = 0; i < c->nevents; i++)
        n += c->events[i].kind == k;
    return n;
}

static const struct tn_event *event_of(const struct tn_conn *c, enum tn_event_kind k, uint64_t seq)
{
    for (size_t i = 0; i < c->nevents; i++)
        if (c->events[i].kind == k && c->events[i].seq == seq)
            return &c->events[i];
    return NULL;
}

static const struct tn_dfcp_block *block_of(const struct tn_conn *c, uint32_t blk)
{
    for (size_t i = 0; i < c->nblocks; i++)
        if (c->blocks[i].block == blk)
            return &c->blocks[i];
    return NULL;
}

/* All n symbols of block blk from the sender, 1 ms apart from t_ms. */
static double send_block(uint32_t blk, double t_ms, uint32_t len)
{
    for (uint16_t i = 0; i < P_N; i++)
        feed(dp(true, TN_DFCP_T_DATA, blk, i, len, t_ms + i));
    return t_ms + P_N;
}

/* SYN at 0, 500 and 1000 ms (two retries), SYNACK at 1010 ms, ACK at 1010.5 ms: a capture
 * next to the sender.  monitor<->b = 1010 - 1000 = 10 ms (from the latest SYN), monitor<->a =
 * 0.5 ms, rtt 10.5 ms; 0.5 <= 10% of 10.5, so near a. */
START_TEST(test_syn_retries_and_parameters)
{
    P_N = 49;
    P_K = 32 * 1420;
    feed(dp(true, TN_DFCP_T_SYN, 7, 0, 0, 0));
    feed(dp(true, TN_DFCP_T_SYN, 7, 0, 0, 500));
    feed(dp(true, TN_DFCP_T_SYN, 7, 0, 0, 1000));
    P_WIN = 64;                                     /* the receiver's window */
    feed(dp(false, TN_DFCP_T_SYNACK, 7, 0, 0, 1010));
    feed(dp(true, TN_DFCP_T_ACK, 7, 0, 0, 1010.5));
    const struct tn_conn *c = finish();
    const struct tn_dfcp_infer *f = c->dfcp;
    ck_assert(c->handshake_seen);
    ck_assert_int_eq(tn_conn_state(c), TN_ST_OPEN);
    ck_assert_uint_eq(f->syn_retries, 2);
    ck_assert_uint_eq(f->synack_retries, 0);
    ck_assert_uint_eq(f->syn_n, 49);
    ck_assert_uint_eq(f->syn_k, 45440);
    ck_assert_uint_eq(f->syn_window, 100);
    ck_assert_uint_eq(f->synack_window, 64);
    ck_assert_uint_eq(f->syn_flags, TN_DFCP_F_ACKING);
    ck_assert_uint_eq(f->init_block, 7);
    ck_assert_double_eq_tol(c->hs_rtt_ms, 10.5, 1e-6);
    ck_assert_double_eq_tol(c->hs_half_ms[TN_B2A], 10.0, 1e-6);
    ck_assert_double_eq_tol(c->hs_half_ms[TN_A2B], 0.5, 1e-6);
    ck_assert_int_eq(c->vantage, TN_VP_NEAR_A);
    ck_assert_uint_eq(f->states, (1u << TN_DFCP_S_SYN_SENT) | (1u << TN_DFCP_S_SYN_RECV) |
                                     (1u << TN_DFCP_S_ESTABLISHED));
    ck_assert_int_eq(f->syn_ns, BASE_NS);
    ck_assert_int_eq(f->established_ns, BASE_NS + 1010500000);
    ck_assert_uint_eq(f->blocks, 0);
}
END_TEST

/* The same handshake under --from 0.4 s (from the first packet, the SYN at 0): the SYNs at 500
 * and 1000 ms lie in the window and are the second and third SYN, so both are retries; --to
 * 0.7 s keeps the one at 500 ms; --from 0.75 s the one at 1000 ms.  A window that ends before the
 * second SYN holds none.  The handshake's parameters are the whole connection's. */
START_TEST(test_syn_retries_in_window)
{
    static const struct {
        int64_t from_ms, to_ms;
        unsigned retries;
    } w[] = {{400, 0, 2}, {400, 700, 1}, {750, 0, 1}, {0, 300, 0}, {0, 0, 2}};
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
        tn_analyzer_free(an);
        struct tn_analysis_cfg cfg = {.record_events = true,
                                      .window = {.on = true, .from_ns = w[i].from_ms * 1000000,
                                                 .to_ns = w[i].to_ms * 1000000}};
        an = tn_analyzer_new(&cfg);
        P_N = 49;
        feed(dp(true, TN_DFCP_T_SYN, 7, 0, 0, 0));
        feed(dp(true, TN_DFCP_T_SYN, 7, 0, 0, 500));
        feed(dp(true, TN_DFCP_T_SYN, 7, 0, 0, 1000));
        feed(dp(false, TN_DFCP_T_SYNACK, 7, 0, 0, 1010));
        feed(dp(true, TN_DFCP_T_ACK, 7, 0, 0, 1010.5));
        tn_analyzer_finish(an);
        ck_assert_uint_eq(tn_analyzer_conn_count(an), 1);
        const struct tn_conn *c = tn_analyzer_conn(an, 0);
        ck_assert_msg(c->dfcp->syn_retries == w[i].retries, "window %lld..%lld ms: %u SYN retries, want %u",
                      (long long)w[i].from_ms, (long long)w[i].to_ms, c->dfcp->syn_retries, w[i].retries);
        ck_assert_uint_eq(c->dfcp->syn_n, 49);
        ck_assert_int_eq(c->dfcp->syn_ns, BASE_NS);
    }
}
END_TEST

/* SYNACK retried because the first ACK was lost before the monitor: the second SYNACK and the
 * one ACK; no DATA.  SYNACK without an ACK then DATA: established at the first DATA. */
START_TEST(test_synack_retry_and_data_establishes)
{
    feed(dp(true, TN_DFCP_T_SYN, 0, 0, 0, 0));
    feed(dp(false, TN_DFCP_T_SYNACK, 0, 0, 0, 20));
    feed(dp(false, TN_DFCP_T_SYNACK, 0, 0, 0, 520));
    feed(dp(true, TN_DFCP_T_DATA, 0, 0, 1000, 530));
    const struct tn_conn *c = finish();
    ck_assert_uint_eq(c->dfcp->synack_retries, 1);
    ck_assert_int_eq(c->dfcp->established_ns, BASE_NS + 530000000);
    ck_assert(c->hs_rtt_ms < 0);                   /* no handshake ACK seen */
}
END_TEST

/* n = 4, k = 3000, symbols of 1000 bytes.  Block 0: idx 0-3 at 0-3 ms; block 1: idx 0, 2, 3 at
 * 4, 5, 6 ms (idx 1 lost before the monitor); BACK 0 at 10 ms, BACK 1 at 12 ms, both decoded.
 * Expected: block 1 has 3 of 4 symbols; one loss_upstream event for block 1 shown by ... the
 * end of input (no later block), len 1, "idx 1"; loss 1/8; BACK latency first->BACK 10 and
 * 12 - 4 = 8 ms, last->BACK 10 - 3 = 7 and 12 - 6 = 6 ms. */
START_TEST(test_block_with_missing_symbols)
{
    send_block(0, 0, 1000);
    feed(dp(true, TN_DFCP_T_DATA, 1, 0, 1000, 4));
    feed(dp(true, TN_DFCP_T_DATA, 1, 2, 1000, 5));
    feed(dp(true, TN_DFCP_T_DATA, 1, 3, 1000, 6));
    feed(dp(false, TN_DFCP_T_BACK, 0, 0, 0, 10));
    feed(dp(false, TN_DFCP_T_BACK, 1, 0, 0, 12));
    const struct tn_conn *c = finish();
    const struct tn_dfcp_infer *f = c->dfcp;
    ck_assert_uint_eq(c->nblocks, 2);
    const struct tn_dfcp_block *b1 = block_of(c, 1);
    ck_assert_ptr_nonnull(b1);
    ck_assert_uint_eq(b1->symbols_seen, 3);
    ck_assert_uint_eq(tn_dfcp_block_missing(b1), 1);
    ck_assert(!tn_dfcp_block_has(b1, 1));
    ck_assert(tn_dfcp_block_has(b1, 2));
    ck_assert_int_eq(b1->first_ns, BASE_NS + 4000000);
    ck_assert_int_eq(b1->last_ns, BASE_NS + 6000000);
    ck_assert_int_eq(b1->back_ns, BASE_NS + 12000000);
    ck_assert_uint_eq(b1->outcome, TN_DFCP_DECODED);
    ck_assert_uint_eq(f->decoded, 2);
    ck_assert_uint_eq(f->blocks_short, 1);
    ck_assert_double_eq_tol(f->symbol_loss_seen, 1.0 / 8, 1e-9);
    ck_assert_uint_eq(count_events(c, TN_EV_LOSS_UPSTREAM), 1);
    const struct tn_event *e = event_of(c, TN_EV_LOSS_UPSTREAM, 1);
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_eq(e->len, 1);
    ck_assert_ptr_nonnull(strstr(e->detail, "idx 1)"));
    ck_assert_uint_eq(count_events(c, TN_EV_DFCP_BLOCK_ACKED), 2);
    e = event_of(c, TN_EV_DFCP_BLOCK_ACKED, 1);
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_eq(e->dir, TN_B2A);
    ck_assert_int_eq(e->t_ns, BASE_NS + 12000000);
    ck_assert_uint_eq(f->back_first_ms.n, 2);
    ck_assert_double_eq_tol(f->back_first_ms.min, 8.0, 1e-6);
    ck_assert_double_eq_tol(f->back_first_ms.max, 10.0, 1e-6);
    ck_assert_double_eq_tol(tn_stat_avg(&f->back_last_ms), 6.5, 1e-6);
    /* the events come out in time order: the loss event (6 ms) before the BACKs */
    for (size_t i = 1; i < c->nevents; i++)
        ck_assert_int_le(c->events[i - 1].t_ns, c->events[i].t_ns);
}
END_TEST

/* Block 0: 2 of 4 symbols (idx 0, 1), then a BACK with DECODE_FAILED and a duplicate BACK
 * without it (the first decides); block 1: all 4 symbols, DECODE_FAILED too (lost after the
 * monitor); block 2 decoded.  Data period 0 .. 13 ms: throughput 10 x 1000 B, goodput block 2's
 * k = 3000 B.  2 of 12 symbols missing here: loss, hence "bottleneck". */
START_TEST(test_decode_failed)
{
    feed(dp(true, TN_DFCP_T_DATA, 0, 0, 1000, 0));
    feed(dp(true, TN_DFCP_T_DATA, 0, 1, 1000, 1));
    send_block(1, 6, 1000);                        /* 6..9 ms */
    P_FLAGS = TN_DFCP_F_ACKING | TN_DFCP_F_DECODE_FAILED;
    feed(dp(false, TN_DFCP_T_BACK, 0, 0, 0, 9.5));
    P_FLAGS = TN_DFCP_F_ACKING;
    feed(dp(false, TN_DFCP_T_BACK, 0, 0, 0, 9.6));
    P_FLAGS = TN_DFCP_F_ACKING | TN_DFCP_F_DECODE_FAILED;
    feed(dp(false, TN_DFCP_T_BACK, 1, 0, 0, 9.8));
    P_FLAGS = TN_DFCP_F_ACKING;
    send_block(2, 10, 1000);                       /* 10..13 ms */
    feed(dp(false, TN_DFCP_T_BACK, 2, 0, 0, 20));
    const struct tn_conn *c = finish();
    const struct tn_dfcp_infer *f = c->dfcp;
    ck_assert_uint_eq(block_of(c, 0)->outcome, TN_DFCP_FAILED);
    ck_assert_uint_eq(block_of(c, 0)->backs, 2);
    ck_assert_uint_eq(block_of(c, 0)->symbols_seen, 2);
    ck_assert_uint_eq(block_of(c, 1)->outcome, TN_DFCP_FAILED);
    ck_assert_uint_eq(block_of(c, 2)->outcome, TN_DFCP_DECODED);
    ck_assert_uint_eq(f->failed, 2);
    ck_assert_uint_eq(f->decoded, 1);
    ck_assert_uint_eq(f->unacked, 0);
    ck_assert_uint_eq(f->failed_complete, 1);
    ck_assert_uint_eq(count_events(c, TN_EV_DFCP_BLOCK_FAILED), 2);
    ck_assert_ptr_nonnull(strstr(event_of(c, TN_EV_DFCP_BLOCK_FAILED, 0)->detail, "DECODE_FAILED; 2/4"));
    ck_assert_uint_eq(event_of(c, TN_EV_LOSS_UPSTREAM, 0)->len, 2);
    ck_assert_double_eq_tol(f->goodput_bps, 3000 * 8 / 0.013, 1e-3);
    ck_assert_double_eq_tol(f->throughput_bps, 10 * 1000 * 8 / 0.013, 1e-3);
    ck_assert_double_eq_tol(f->symbol_loss_seen, 2.0 / 12, 1e-9);
    ck_assert_int_eq(f->limiter, TN_LIM_BOTTLENECK);
}
END_TEST

/* A failed block none of whose symbols passed here (the receiver fails it when a later block
 * starts): known from its BACK only, counted as failed. */
START_TEST(test_back_only_block)
{
    send_block(0, 0, 1000);
    feed(dp(false, TN_DFCP_T_BACK, 0, 0, 0, 4));
    send_block(2, 5, 1000);
    P_FLAGS = TN_DFCP_F_ACKING | TN_DFCP_F_DECODE_FAILED;
    feed(dp(false, TN_DFCP_T_BACK, 1, 0, 0, 5.5));
    P_FLAGS = TN_DFCP_F_ACKING;
    feed(dp(false, TN_DFCP_T_BACK, 2, 0, 0, 9));
    const struct tn_conn *c = finish();
    ck_assert_uint_eq(c->dfcp->blocks, 3);
    ck_assert_uint_eq(c->dfcp->failed, 1);
    ck_assert_uint_eq(c->dfcp->decoded, 2);
    ck_assert_uint_eq(c->dfcp->blocks_no_data, 1);
    /* sorted by block number after finish */
    ck_assert_uint_eq(c->blocks[0].block, 0);
    ck_assert_uint_eq(c->blocks[1].block, 1);
    ck_assert_uint_eq(c->blocks[1].symbols_seen, 0);
    ck_assert_uint_eq(c->blocks[2].block, 2);
}
END_TEST

/* ACKING off: 3 blocks, no BACK ever: 3 unacked, none failed, no in-flight series, goodput 0. */
START_TEST(test_acking_off)
{
    P_FLAGS = 0;
    feed(dp(true, TN_DFCP_T_SYN, 0, 0, 0, 0));
    feed(dp(false, TN_DFCP_T_SYNACK, 0, 0, 0, 1));
    feed(dp(true, TN_DFCP_T_ACK, 0, 0, 0, 2));
    double t = 3;
    for (uint32_t b = 0; b < 3; b++)
        t = send_block(b, t, 1000);
    const struct tn_conn *c = finish();
    const struct tn_dfcp_infer *f = c->dfcp;
    ck_assert(!f->acking);
    ck_assert_uint_eq(f->blocks, 3);
    ck_assert_uint_eq(f->unacked, 3);
    ck_assert_uint_eq(f->failed, 0);
    ck_assert_uint_eq(f->decoded, 0);
    ck_assert_uint_eq(count_events(c, TN_EV_DFCP_BLOCK_UNACKED), 3);
    ck_assert_uint_eq(count_events(c, TN_EV_DFCP_BLOCK_FAILED), 0);
    ck_assert_uint_eq(c->series[TN_A2B][TN_SER_DFCP_BLOCKS_INFLIGHT].n, 0);
    ck_assert_double_eq(f->goodput_bps, 0);
    ck_assert_uint_eq(f->symbols_seen, 12);
    ck_assert_double_eq(f->symbol_loss_seen, 0);
}
END_TEST

/* Block numbers wrap: blocks 2^32-2, 2^32-1, 0, 1 (SYN's initial block 2^32-2).  The BACK of
 * 2^32-1 is lost before the monitor: the BACK of block 0 takes both out of flight. */
START_TEST(test_block_number_wrap)
{
    P_WIN = 10;
    feed(dp(true, TN_DFCP_T_SYN, 0xFFFFFFFEu, 0, 0, 0));
    feed(dp(false, TN_DFCP_T_SYNACK, 0xFFFFFFFEu, 0, 0, 1));
    feed(dp(true, TN_DFCP_T_ACK, 0xFFFFFFFEu, 0, 0, 2));
    send_block(0xFFFFFFFEu, 10, 1000);             /* 10..13: in flight 1 */
    send_block(0xFFFFFFFFu, 14, 1000);             /* 14..17: 2 */
    send_block(0, 18, 1000);                       /* 18..21: 3 */
    feed(dp(false, TN_DFCP_T_BACK, 0xFFFFFFFEu, 0, 0, 22));   /* 2 */
    feed(dp(false, TN_DFCP_T_BACK, 0, 0, 0, 24));             /* 0 (2^32-1 retired) */
    send_block(1, 25, 1000);                       /* 25..28: 1 */
    feed(dp(false, TN_DFCP_T_BACK, 1, 0, 0, 30));             /* 0 */
    const struct tn_conn *c = finish();
    const struct tn_dfcp_infer *f = c->dfcp;
    ck_assert_uint_eq(c->nblocks, 4);
    ck_assert_uint_eq(c->blocks[0].block, 0xFFFFFFFEu);
    ck_assert_uint_eq(c->blocks[1].block, 0xFFFFFFFFu);
    ck_assert_uint_eq(c->blocks[2].block, 0);
    ck_assert_uint_eq(c->blocks[3].block, 1);
    ck_assert_uint_eq(c->blocks[1].outcome, TN_DFCP_UNACKED);
    ck_assert_uint_eq(f->decoded, 3);
    ck_assert_uint_eq(f->unacked, 1);
    ck_assert_uint_eq(f->inflight_max, 3);
    const struct tn_series *s = &c->series[TN_A2B][TN_SER_DFCP_BLOCKS_INFLIGHT];
    static const double want[] = {1, 2, 3, 2, 0, 1, 0};
    ck_assert_uint_eq(s->n, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < s->n; i++)
        ck_assert_double_eq(s->pts[i].v, want[i]);
    ck_assert_int_eq(s->pts[4].t_ns, BASE_NS + 24000000);
    ck_assert_uint_eq(count_events(c, TN_EV_DFCP_BLOCK_UNACKED), 1);
    ck_assert_ptr_nonnull(event_of(c, TN_EV_DFCP_BLOCK_UNACKED, 0xFFFFFFFFu));
}
END_TEST

/* Window 2, n 2, k 1800, 1000-byte symbols.  Block 0 at 0, 1 ms; block 1 at 2, 3 ms (window
 * full from 2 ms); BACK 0 at 10 ms; block 2 at 10.5, 11.5 ms (full again); BACK 1 at 20, BACK 2
 * at 21.  Data period 0 .. 11.5 ms.  In flight: 1 on [0,2), 2 on [2,10), 1 on [10,10.5),
 * 2 on [10.5,11.5]: average (2 + 16 + 0.5 + 2) / 11.5 = 20.5 / 11.5, full 9 / 11.5 of the
 * time: window-limited.  Throughput 6000 B, goodput 3 x 1800 B over 11.5 ms; redundancy
 * 2 x 1000 / 1800. */
START_TEST(test_window_limited)
{
    P_N = 2;
    P_WIN = 2;
    P_K = 1800;
    feed(dp(true, TN_DFCP_T_DATA, 0, 0, 1000, 0));
    feed(dp(true, TN_DFCP_T_DATA, 0, 1, 1000, 1));
    feed(dp(true, TN_DFCP_T_DATA, 1, 0, 1000, 2));
    feed(dp(true, TN_DFCP_T_DATA, 1, 1, 1000, 3));
    feed(dp(false, TN_DFCP_T_BACK, 0, 0, 0, 10));
    feed(dp(true, TN_DFCP_T_DATA, 2, 0, 1000, 10.5));
    feed(dp(true, TN_DFCP_T_DATA, 2, 1, 1000, 11.5));
    feed(dp(false, TN_DFCP_T_BACK, 1, 0, 0, 20));
    feed(dp(false, TN_DFCP_T_BACK, 2, 0, 0, 21));
    const struct tn_conn *c = finish();
    const struct tn_dfcp_infer *f = c->dfcp;
    ck_assert_uint_eq(f->inflight_max, 2);
    ck_assert_double_eq_tol(f->inflight_avg, 20.5 / 11.5, 1e-9);
    ck_assert_double_eq_tol(f->window_util, 20.5 / 11.5 / 2, 1e-9);
    ck_assert_double_eq_tol(f->window_full_share, 9 / 11.5, 1e-9);
    ck_assert_int_eq(f->limiter, TN_LIM_RWND);
    ck_assert_double_eq_tol(f->throughput_bps, 6000 * 8 / 0.0115, 1e-3);
    ck_assert_double_eq_tol(f->goodput_bps, 5400 * 8 / 0.0115, 1e-3);
    ck_assert_double_eq_tol(f->goodput_ratio, 0.9, 1e-9);
    ck_assert_double_eq_tol(f->redundancy, 2000.0 / 1800, 1e-9);
    ck_assert_uint_eq(f->symbol_size, 1000);
    /* 100 ms intervals: one interval (ending at 1000.1 s) holds every byte */
    const struct tn_series *tp = &c->series[TN_A2B][TN_SER_THROUGHPUT];
    const struct tn_series *gp = &c->series[TN_A2B][TN_SER_GOODPUT];
    ck_assert_uint_eq(tp->n, 1);
    ck_assert_int_eq(tp->pts[0].t_ns, BASE_NS + 100000000);
    ck_assert_double_eq_tol(tp->pts[0].v, 6000 * 8 / 0.1, 1e-6);
    ck_assert_double_eq_tol(gp->pts[0].v, 5400 * 8 / 0.1, 1e-6);
    ck_assert_double_eq_tol(c->series[TN_A2B][TN_SER_DFCP_SYMBOL_RATE].pts[0].v, 60, 1e-9);
    ck_assert_uint_eq(c->series[TN_A2B][TN_SER_DFCP_BACK_LATENCY].n, 3);
    ck_assert_double_eq_tol(c->series[TN_A2B][TN_SER_DFCP_BACK_LATENCY].pts[0].v, 10, 1e-6);
}
END_TEST

/* FIN (retried once) -> ACK + FINACK -> ACK: every teardown state, closed, complete. */
START_TEST(test_fin_exchange)
{
    feed(dp(true, TN_DFCP_T_SYN, 0, 0, 0, 0));
    feed(dp(false, TN_DFCP_T_SYNACK, 0, 0, 0, 1));
    feed(dp(true, TN_DFCP_T_ACK, 0, 0, 0, 2));
    send_block(0, 3, 1000);
    feed(dp(false, TN_DFCP_T_BACK, 0, 0, 0, 8));
    feed(dp(true, TN_DFCP_T_FIN, 1, 0, 0, 10));
    feed(dp(true, TN_DFCP_T_FIN, 1, 0, 0, 510));
    feed(dp(false, TN_DFCP_T_ACK, 1, 0, 0, 511));
    feed(dp(false, TN_DFCP_T_FINACK, 1, 0, 0, 511));
    feed(dp(true, TN_DFCP_T_ACK, 1, 0, 0, 512));
    const struct tn_conn *c = finish();
    const struct tn_dfcp_infer *f = c->dfcp;
    ck_assert(c->closed);
    ck_assert_int_eq(tn_conn_state(c), TN_ST_COMPLETE);
    ck_assert_uint_eq(f->fin_retries, 1);
    ck_assert_uint_eq(f->finack_retries, 0);
    for (int s = TN_DFCP_S_SYN_SENT; s <= TN_DFCP_S_CLOSED; s++)
        ck_assert_msg(f->states & (1u << s), "state %s not reached",
                      tn_dfcp_state_name((enum tn_dfcp_state)s));
    ck_assert(!(f->states & (1u << TN_DFCP_S_RESET)));
    ck_assert_int_eq(f->fin_ns, BASE_NS + 10000000);
    ck_assert_int_eq(f->closed_ns, BASE_NS + 512000000);
    ck_assert_uint_eq(f->decoded, 1);
    /* the FIN's block number is not a block */
    ck_assert_uint_eq(f->blocks, 1);
}
END_TEST

START_TEST(test_reset)
{
    feed(dp(true, TN_DFCP_T_SYN, 0, 0, 0, 0));
    feed(dp(false, TN_DFCP_T_RST, 0, 0, 0, 1));
    const struct tn_conn *c = finish();
    ck_assert_int_eq(tn_conn_state(c), TN_ST_RESET);
    ck_assert(c->dfcp->states & (1u << TN_DFCP_S_RESET));
    ck_assert_int_eq(c->dfcp->reset_ns, BASE_NS + 1000000);
}
END_TEST

/* Garbage after the header of a BACK (12 bytes), a reserved type 9, a version 2 DATA and a
 * DATA whose symbol index is past n: counted, never interpreted as blocks, no crash (ASan). */
START_TEST(test_garbage_after_header)
{
    send_block(0, 0, 1000);
    feed(dp(false, TN_DFCP_T_BACK, 0, 0, 12, 5));   /* payload on a control packet */
    struct tn_pkt p = dp(true, 9, 55, 0, 100, 6);
    feed(p);
    p = dp(true, TN_DFCP_T_DATA, 77, 0, 1000, 7);
    p.dfcp.version = 2;
    feed(p);
    feed(dp(true, TN_DFCP_T_DATA, 1, 60000, 1000, 8));   /* idx >= n = 4 */
    const struct tn_conn *c = finish();
    const struct tn_dfcp_infer *f = c->dfcp;
    ck_assert_uint_eq(f->ctl_payload_pkts, 1);
    ck_assert_uint_eq(f->unknown_pkts, 2);
    ck_assert_uint_eq(f->bad_symidx, 1);
    ck_assert_uint_eq(c->d[TN_A2B].dfcp_type_pkts[9], 1);
    ck_assert_uint_eq(f->decoded, 1);               /* the BACK still counts */
    ck_assert_ptr_null(block_of(c, 55));
    ck_assert_ptr_null(block_of(c, 77));
    ck_assert_uint_eq(block_of(c, 1)->symbols_seen, 0);
    ck_assert_uint_eq(f->blocks, 2);
}
END_TEST

/* Many blocks, every BACK 300 blocks behind the newest symbol: found by its distance from the
 * hint; counts and the in-flight maximum (blocks 0..300 sent before BACK 0) stay exact. */
START_TEST(test_many_blocks)
{
    P_N = 1;
    P_WIN = 1000;
    for (uint32_t b = 0; b < 5000; b++) {
        feed(dp(true, TN_DFCP_T_DATA, b, 0, 100, b));
        if (b >= 300)
            feed(dp(false, TN_DFCP_T_BACK, b - 300, 0, 0, b + 0.5));
    }
    const struct tn_conn *c = finish();
    ck_assert_uint_eq(c->dfcp->blocks, 5000);
    ck_assert_uint_eq(c->dfcp->decoded, 4700);
    ck_assert_uint_eq(c->dfcp->unacked, 300);
    ck_assert_uint_eq(c->dfcp->inflight_max, 301);
}
END_TEST

static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "r");
    ck_assert_ptr_nonnull(fp);
    static char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    buf[n] = 0;
    fclose(fp);
    return buf;
}

/* dfcp_blocks.csv: decoded, failed (BACK only) and unacked rows, times as in the packets. */
START_TEST(test_csv_blocks)
{
    send_block(5, 0, 1000);                         /* 0..3 ms */
    feed(dp(false, TN_DFCP_T_BACK, 5, 0, 0, 4));
    P_FLAGS = TN_DFCP_F_ACKING | TN_DFCP_F_DECODE_FAILED;
    feed(dp(false, TN_DFCP_T_BACK, 6, 0, 0, 4.5));
    P_FLAGS = TN_DFCP_F_ACKING;
    feed(dp(true, TN_DFCP_T_DATA, 7, 1, 1000, 5));
    finish();
    char dir[] = "/tmp/tn_dfcp_csv_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    struct tn_view v = {.sel = NULL};
    struct tn_err err;
    ck_assert_int_eq(tn_csv_write_file(dir, "dfcp_blocks.csv", an, &v, &err), 0);
    char path[256];
    snprintf(path, sizeof path, "%s/dfcp_blocks.csv", dir);
    ck_assert_str_eq(slurp(path),
                     "conn,block,symbols_seen,symbols_expected,first_s,last_s,back_s,outcome\r\n"
                     "1,5,4,4,1000.000000000,1000.003000000,1000.004000000,decoded\r\n"
                     "1,6,0,4,,,1000.004500000,failed\r\n"
                     "1,7,1,4,1000.005000000,1000.005000000,,unacked\r\n");
    unlink(path);
    rmdir(dir);
}
END_TEST


/* ---- lab samples (docs/lab.md): compare with the endpoints' own logs ----
 * For every samples/<dir>/flows.csv row with proto dfcp (flow N, ports sport -> dport):
 *  - receiver capture <dst_node>_eth0.pcap: each block of dfcp_recv_flowN.csv (the receiver's
 *    ground-truth log) has the same outcome here, the counts are equal, and the goodput is
 *    within 1% of the receiver's goodput_bps (dfcp_recv_flowN.txt);
 *  - sender capture <src_node>_eth0.pcap: every block has exactly n symbols, n being the
 *    configured value in dfcp_send_flowN.txt, and as many blocks, decoded and failed as the
 *    sender's log counted from the BACKs it received.
 * dfcp-fail (n = 36 of which 34 are needed, 5% loss) must contribute failed blocks. */
static uint64_t lab_failed_checked;
static bool kv_get(const char *path, const char *key, char *out, size_t len)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return false;
    char line[256];
    size_t kl = strlen(key);
    bool found = false;
    while (!found && fgets(line, sizeof line, fp)) {
        if (strncmp(line, key, kl) == 0 && line[kl] == '=') {
            snprintf(out, len, "%s", line + kl + 1);
            out[strcspn(out, "\r\n")] = 0;
            found = true;
        }
    }
    fclose(fp);
    return found;
}

static const struct tn_conn *dfcp_conn(const struct tn_analyzer *a, unsigned sport, unsigned dport)
{
    for (size_t i = 0; i < tn_analyzer_conn_count(a); i++) {
        const struct tn_conn *c = tn_analyzer_conn(a, i);
        if (c->proto == TN_PK_DFCP && c->a_port == sport && c->b_port == dport)
            return c;
    }
    return NULL;
}

static void check_receiver(const char *dir, int flow, const struct tn_conn *c)
{
    char path[2048], val[64];
    snprintf(path, sizeof path, "%s/dfcp_recv_flow%d.csv", dir, flow);
    FILE *fp = fopen(path, "r");
    ck_assert_msg(fp != NULL, "%s missing", path);
    char line[512];
    uint64_t n = 0, dec = 0, fail = 0;
    ck_assert_ptr_nonnull(fgets(line, sizeof line, fp));   /* header */
    while (fgets(line, sizeof line, fp)) {
        /* block,k,n,symbol_size,needed,first_rx_s,last_rx_s,symbols_received,outcome,back_tx_s */
        char *f[10] = {0};
        int nf = 0;
        for (char *q = line, *tok; nf < 10 && (tok = strsep(&q, ",")); )
            f[nf++] = tok;
        ck_assert_int_ge(nf, 9);
        uint32_t blk = (uint32_t)strtoul(f[0], NULL, 10);
        const struct tn_dfcp_block *b = block_of(c, blk);
        ck_assert_msg(b != NULL, "%s: block %u of the log not found", dir, blk);
        ck_assert_msg(strcmp(tn_dfcp_outcome_name((enum tn_dfcp_outcome)b->outcome), f[8]) == 0,
                      "%s: block %u: log %s, analysis %s", dir, blk, f[8],
                      tn_dfcp_outcome_name((enum tn_dfcp_outcome)b->outcome));
        ck_assert_msg(b->symbols_seen == strtoul(f[7], NULL, 10),
                      "%s: block %u: log %s symbols, capture %u", dir, blk, f[7], b->symbols_seen);
        n++;
        dec += strcmp(f[8], "decoded") == 0;
        fail += strcmp(f[8], "failed") == 0;
    }
    fclose(fp);
    ck_assert_uint_eq(c->dfcp->blocks, n);
    ck_assert_uint_eq(c->dfcp->decoded, dec);
    ck_assert_uint_eq(c->dfcp->failed, fail);
    ck_assert_uint_eq(c->dfcp->unacked, n - dec - fail);
    lab_failed_checked += fail;
    snprintf(path, sizeof path, "%s/dfcp_recv_flow%d.txt", dir, flow);
    ck_assert_msg(kv_get(path, "goodput_bps", val, sizeof val), "%s: no goodput_bps", path);
    double want = strtod(val, NULL);
    ck_assert_msg(fabs(c->dfcp->goodput_bps - want) <= 0.01 * want,
                  "%s: goodput %.0f, receiver %.0f", dir, c->dfcp->goodput_bps, want);
}

static void check_sender(const char *dir, int flow, const struct tn_conn *c)
{
    char path[2048], val[64];
    snprintf(path, sizeof path, "%s/dfcp_send_flow%d.txt", dir, flow);
    ck_assert_msg(kv_get(path, "n", val, sizeof val), "%s: no n", path);
    unsigned n = (unsigned)strtoul(val, NULL, 10);
    ck_assert_msg(kv_get(path, "blocks", val, sizeof val), "%s: no blocks", path);
    ck_assert_uint_eq(c->dfcp->blocks, strtoull(val, NULL, 10));
    ck_assert_uint_eq(c->dfcp->n, n);
    ck_assert_msg(kv_get(path, "decoded", val, sizeof val), "%s: no decoded", path);
    ck_assert_uint_eq(c->dfcp->decoded, strtoull(val, NULL, 10));
    ck_assert_msg(kv_get(path, "failed", val, sizeof val), "%s: no failed", path);
    ck_assert_uint_eq(c->dfcp->failed, strtoull(val, NULL, 10));
    for (size_t i = 0; i < c->nblocks; i++)
        ck_assert_msg(c->blocks[i].symbols_seen == n && c->blocks[i].n == n,
                      "%s: block %u: %u symbols of %u, configured %u", dir, c->blocks[i].block,
                      c->blocks[i].symbols_seen, c->blocks[i].n, n);
}

static int check_sample_dir(const char *dir)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/flows.csv", dir);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return 0;
    int checked = 0;
    char line[512];
    while (fgets(line, sizeof line, fp)) {
        /* flow,proto,cc,src_node,src_addr,sport,dst_node,dst_addr,dport,... */
        char *f[9] = {0};
        int nf = 0;
        for (char *q = line, *tok; nf < 9 && (tok = strsep(&q, ",")); )
            f[nf++] = tok;
        if (nf < 9 || strcmp(f[1], "dfcp") != 0)
            continue;
        int flow = atoi(f[0]);
        unsigned sport = (unsigned)atoi(f[5]), dport = (unsigned)atoi(f[8]);
        const char *node[2] = {f[6], f[3]};            /* receiver, sender */
        for (int side = 0; side < 2; side++) {
            char pcap[2048];
            snprintf(pcap, sizeof pcap, "%s/%s_eth0.pcap", dir, node[side]);
            if (access(pcap, R_OK) != 0)
                continue;
            struct tn_analyzer *a = tn_test_load(pcap, NULL);
            ck_assert_msg(a != NULL, "%s: cannot read", pcap);
            const struct tn_conn *c = dfcp_conn(a, sport, dport);
            ck_assert_msg(c != NULL, "%s: no DFCP connection %u -> %u", pcap, sport, dport);
            if (side == 0)
                check_receiver(dir, flow, c);
            else
                check_sender(dir, flow, c);
            tn_analyzer_free(a);
            checked++;
        }
    }
    fclose(fp);
    return checked;
}

START_TEST(test_lab_samples_vs_endpoint_logs)
{
    DIR *d = opendir(TN_SAMPLES_DIR);
    ck_assert_ptr_nonnull(d);
    int checked = 0;
    lab_failed_checked = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char dir[1024];
        snprintf(dir, sizeof dir, "%s/%s", TN_SAMPLES_DIR, e->d_name);
        checked += check_sample_dir(dir);
    }
    closedir(d);
    fprintf(stderr, "dfcp_analysis: %d DFCP lab captures checked against the endpoint logs\n",
            checked);
    /* dfcp-loss, dfcp-fail and dfcp-cubic-fair, each at the sender and the receiver */
    ck_assert_int_ge(checked, 6);
    ck_assert_uint_ge(lab_failed_checked, 1);
}
END_TEST

Suite *tn_dfcp_analysis_suite(void)
{
    Suite *s = suite_create("dfcp_analysis");
    TCase *tc = tcase_create("sequences");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_syn_retries_and_parameters);
    tcase_add_test(tc, test_syn_retries_in_window);
    tcase_add_test(tc, test_synack_retry_and_data_establishes);
    tcase_add_test(tc, test_block_with_missing_symbols);
    tcase_add_test(tc, test_decode_failed);
    tcase_add_test(tc, test_back_only_block);
    tcase_add_test(tc, test_acking_off);
    tcase_add_test(tc, test_block_number_wrap);
    tcase_add_test(tc, test_window_limited);
    tcase_add_test(tc, test_fin_exchange);
    tcase_add_test(tc, test_reset);
    tcase_add_test(tc, test_garbage_after_header);
    tcase_add_test(tc, test_many_blocks);
    tcase_add_test(tc, test_csv_blocks);
    suite_add_tcase(s, tc);
    TCase *lab = tcase_create("lab_samples");
    tcase_set_timeout(lab, 120);
    tcase_add_test(lab, test_lab_samples_vs_endpoint_logs);
    suite_add_tcase(s, lab);
    return s;
}
