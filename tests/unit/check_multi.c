/* check_multi.c - multi-flow views on hand-built inputs: Jain's index, fairness by connection /
 * host pair / protocol with its windowed series, the two-point queue matcher, ns-2 link queues.
 * Every expected value is worked out by hand in the comment next to it. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis.h"
#include "views.h"
#include "ns2.h"

#define EPS 1e-9

START_TEST(test_jain_values)
{
    double eq[] = {5, 5, 5, 5};
    ck_assert_double_eq_tol(tn_jain_index(eq, 4), 1.0, EPS);
    double one[] = {7, 0, 0, 0};   /* one flow takes all: 1/n */
    ck_assert_double_eq_tol(tn_jain_index(one, 4), 0.25, EPS);
    double x[] = {1, 2, 3};        /* 6^2 / (3 * 14) = 36/42 */
    ck_assert_double_eq_tol(tn_jain_index(x, 3), 36.0 / 42.0, EPS);
    double two[] = {10, 30};       /* 40^2 / (2 * 1000) = 0.8 */
    ck_assert_double_eq_tol(tn_jain_index(two, 2), 0.8, EPS);
    ck_assert_double_eq_tol(tn_jain_index(NULL, 0), 1.0, EPS);
    double zero[] = {0, 0};
    ck_assert_double_eq_tol(tn_jain_index(zero, 2), 1.0, EPS);
}
END_TEST

/* ---- synthetic flows ---- */

static struct tn_pkt mk(uint8_t src, uint8_t dst, uint16_t sport, uint16_t dport, uint32_t seq, uint32_t len,
                        int64_t t_ns)
{
    struct tn_pkt p;
    memset(&p, 0, sizeof p);
    p.kind = TN_PK_TCP;
    p.ipver = 4;
    p.src.family = p.dst.family = 4;
    uint8_t a[4] = {10, 0, 0, src}, b[4] = {10, 0, 0, dst};
    memcpy(p.src.a, a, 4);
    memcpy(p.dst.a, b, 4);
    p.sport = sport;
    p.dport = dport;
    p.tcp.seq = seq;
    p.tcp.ack = 1;
    p.tcp.flags = TN_TCP_ACK | (len ? TN_TCP_PSH : 0);
    p.tcp.win = 1000;
    p.payload_len = p.payload_caplen = len;
    p.wirelen = p.caplen = 54 + len;
    p.ttl = 64;
    p.ts.sec = t_ns / 1000000000;
    p.ts.nsec = (uint32_t)(t_ns % 1000000000);
    return p;
}

static const int64_t T0 = 1000000000000;   /* t = 1000 s */

/* n packets of 1000 bytes from 10.0.0.src:sport to 10.0.0.dst:80, evenly from t0 to t0 + 1 s
 * (packet k at k/(n-1) s).  Sent in time order with the others by the caller. */
static void flow_pkt(struct tn_analyzer *an, uint8_t src, uint8_t dst, uint16_t sport, int n, int k)
{
    int64_t t = T0 + (int64_t)k * 1000000000 / (n - 1);
    struct tn_pkt p = mk(src, dst, sport, 80, 1 + (uint32_t)k * 1000, 1000, t);
    p.num = (uint64_t)k + 1;
    tn_analyzer_add(an, &p, TN_DIS_OK, "test");
}

/* Flow A: 10 packets (10 kB) over 1 s; flow B: 30 packets (30 kB) over 1 s. */
static struct tn_analyzer *two_flows(uint8_t b_src)
{
    struct tn_analysis_cfg cfg = {.record_packets = true};
    struct tn_analyzer *an = tn_analyzer_new(&cfg);
    /* A's packets at k/9 s, B's at k/29 s: feed in time order */
    int ka = 0, kb = 0;
    while (ka < 10 || kb < 30) {
        int64_t ta = ka < 10 ? (int64_t)ka * 1000000000 / 9 : INT64_MAX;
        int64_t tb = kb < 30 ? (int64_t)kb * 1000000000 / 29 : INT64_MAX;
        if (ta <= tb)
            flow_pkt(an, 1, 2, 40001, 10, ka++);
        else
            flow_pkt(an, b_src, 2, 40002, 30, kb++);
    }
    tn_analyzer_finish(an);
    return an;
}

START_TEST(test_fairness_two_flows)
{
    struct tn_analyzer *an = two_flows(3);
    struct tn_fair_cfg cfg = {.by = TN_FAIR_CONN, .window_ns = 500000000};
    struct tn_fairness f;
    ck_assert_uint_eq(tn_fairness_compute(an, &cfg, &f), 2);
    /* A: 10000 bytes * 8 / 1 s = 80 kbit/s; B: 240 kbit/s */
    ck_assert_double_eq_tol(f.flows[0].throughput_bps, 80000, 1e-6);
    ck_assert_double_eq_tol(f.flows[1].throughput_bps, 240000, 1e-6);
    ck_assert_double_eq_tol(f.flows[0].share, 0.25, EPS);
    ck_assert_double_eq_tol(f.flows[1].share, 0.75, EPS);
    /* (80 + 240)^2 / (2 (80^2 + 240^2)) = 102400 / 128000 */
    ck_assert_double_eq_tol(f.jain, 0.8, EPS);
    ck_assert_double_eq_tol(f.max_min, 3, EPS);
    ck_assert_double_eq_tol(f.ratio, 1.0 / 3, EPS);
    /* 500 ms windows from t0: [0, .5) A k=0..4 (5), B k=0..14 (15); [.5, 1) A 4, B 14;
     * [1, 1.5) A 1, B 1.  Jain: 400/500 = 0.8; 324/424; 1 */
    ck_assert_uint_eq(f.jain_series.n, 3);
    ck_assert_double_eq_tol(f.jain_series.pts[0].v, 0.8, EPS);
    ck_assert_double_eq_tol(f.jain_series.pts[1].v, 324.0 / 424.0, EPS);
    ck_assert_double_eq_tol(f.jain_series.pts[2].v, 1.0, EPS);
    ck_assert_int_eq(f.jain_series.pts[0].t_ns, T0 + 500000000);   /* the window's end */
    /* A's throughput in window 1: 4 * 1000 * 8 / 0.5 s */
    ck_assert_double_eq_tol(f.flow_tput[0].pts[1].v, 64000, 1e-6);
    tn_fairness_fini(&f);

    cfg.by = TN_FAIR_PROTO;   /* both TCP: one flow */
    ck_assert_uint_eq(tn_fairness_compute(an, &cfg, &f), 1);
    ck_assert_double_eq_tol(f.jain, 1.0, EPS);
    ck_assert_uint_eq(f.flows[0].nconns, 2);
    ck_assert_uint_eq(f.flows[0].bytes, 40000);
    tn_fairness_fini(&f);

    cfg.by = TN_FAIR_HOSTPAIR;   /* 10.0.0.1-10.0.0.2 and 10.0.0.3-10.0.0.2 */
    ck_assert_uint_eq(tn_fairness_compute(an, &cfg, &f), 2);
    ck_assert_str_eq(f.flows[0].name, "10.0.0.1-10.0.0.2");
    ck_assert_str_eq(f.flows[1].name, "10.0.0.2-10.0.0.3");
    ck_assert_double_eq_tol(f.jain, 0.8, EPS);
    tn_fairness_fini(&f);
    tn_analyzer_free(an);

    an = two_flows(1);   /* same host pair: one flow of two connections */
    ck_assert_uint_eq(tn_fairness_compute(an, &cfg, &f), 1);
    ck_assert_uint_eq(f.flows[0].nconns, 2);
    tn_fairness_fini(&f);
    tn_analyzer_free(an);
}
END_TEST

START_TEST(test_fairness_selection_and_mice)
{
    struct tn_analysis_cfg acfg = {.record_packets = true};
    struct tn_analyzer *an = tn_analyzer_new(&acfg);
    /* conn 1: a 37-byte control exchange; conns 2, 3: 20 and 10 kB over 1 s each */
    struct tn_pkt p = mk(1, 2, 40000, 80, 1, 37, T0);
    tn_analyzer_add(an, &p, TN_DIS_OK, "t");
    for (int k = 0; k < 20; k++) {
        p = mk(1, 2, 40001, 80, 1 + (uint32_t)k * 1000, 1000, T0 + (int64_t)k * 1000000000 / 19);
        tn_analyzer_add(an, &p, TN_DIS_OK, "t");
    }
    for (int k = 0; k < 10; k++) {
        p = mk(1, 2, 40002, 80, 1 + (uint32_t)k * 1000, 1000, T0 + 2000000000 + (int64_t)k * 1000000000 / 9);
        tn_analyzer_add(an, &p, TN_DIS_OK, "t");
    }
    tn_analyzer_finish(an);
    struct tn_fair_cfg cfg = {.by = TN_FAIR_CONN, .window_ns = 100000000};
    struct tn_fairness f;
    ck_assert_uint_eq(tn_fairness_compute(an, &cfg, &f), 2);   /* 37 < 1% of 20000: left out */
    ck_assert_uint_eq(f.nexcluded, 1);
    ck_assert_uint_eq(f.excluded[0], 1);
    /* 160 and 80 kbit/s: 240^2 / (2 (160^2 + 80^2)) = 57600 / 64000 = 0.9 */
    ck_assert_double_eq_tol(f.jain, 0.9, EPS);
    ck_assert_double_eq_tol(f.ratio, 2.0, EPS);
    /* the flows never overlap: no window has two active flows */
    ck_assert_uint_eq(f.jain_series.n, 0);
    tn_fairness_fini(&f);

    unsigned pick[] = {1, 3};   /* selection: the control connection and conn 3, all connections kept */
    cfg.sel = pick;
    cfg.nsel = 2;
    cfg.all_connections = true;
    ck_assert_uint_eq(tn_fairness_compute(an, &cfg, &f), 2);
    ck_assert_uint_eq(f.flows[0].conn, 1);
    ck_assert_uint_eq(f.flows[1].conn, 3);
    /* conn 1 lasted 0 s: throughput 0, so max/min is undefined (0) and Jain = 1/2 */
    ck_assert_double_eq_tol(f.jain, 0.5, EPS);
    ck_assert_double_eq_tol(f.max_min, 0, EPS);
    tn_fairness_fini(&f);
    tn_analyzer_free(an);
}
END_TEST

START_TEST(test_parallel_transfer)
{
    struct tn_analyzer *an = two_flows(1);   /* conns 1 and 2: 10.0.0.1 -> 10.0.0.2, both from t0 */
    struct tn_parallel *g;
    ck_assert_uint_eq(tn_parallel_find(an, 100000000, 500000000, &g), 1);
    ck_assert_uint_eq(g[0].n, 2);
    ck_assert_uint_eq(g[0].conns[0], 1);
    ck_assert_uint_eq(g[0].conns[1], 2);
    ck_assert_uint_eq(g[0].bytes, 40000);
    ck_assert_double_eq_tol(g[0].share[0], 0.25, EPS);
    ck_assert_double_eq_tol(g[0].share[1], 0.75, EPS);
    ck_assert_double_eq_tol(g[0].throughput_bps, 320000, 1e-6);   /* 40 kB over 1 s */
    /* first 500 ms: 5 + 15 packets = 20 kB -> 320 kbit/s; conn 1's share 5/20 */
    ck_assert_double_eq_tol(g[0].aggregate.pts[0].v, 320000, 1e-6);
    ck_assert_double_eq_tol(g[0].sub[0].pts[0].v, 0.25, EPS);
    tn_parallel_free(g, 1);
    tn_analyzer_free(an);

    an = two_flows(3);   /* different host pairs: no parallel transfer */
    ck_assert_uint_eq(tn_parallel_find(an, 100000000, 500000000, &g), 0);
    tn_parallel_free(g, 0);
    tn_analyzer_free(an);
}
END_TEST

/* ---- two capture points ---- */

static void q2(struct tn_q2 *q, struct tn_pkt p, int64_t t_ns, uint16_t ip_id, uint8_t ttl, bool egress)
{
    p.ts.sec = t_ns / 1000000000;
    p.ts.nsec = (uint32_t)(t_ns % 1000000000);
    p.ip_id = ip_id;
    p.ttl = ttl;
    tn_q2_add(q, &p, egress);
}

START_TEST(test_q2_match_drops)
{
    struct tn_q2 *q = tn_q2_new(NULL);
    const int64_t ms = 1000000;
    /* data 10.0.0.1:40001 -> 10.0.0.2:80, ids 1..6 entering at 0,1,2,3,4,5 ms (TTL 64); ids 1,2,4,5
     * leave at 10,11,13,14 ms with TTL 63.  id 3 is dropped (id 4 of the same flow left after it
     * entered), id 6 is still inside when the captures end. */
    struct tn_pkt d[6];
    for (int i = 0; i < 6; i++)
        d[i] = mk(1, 2, 40001, 80, 1 + (uint32_t)i * 1000, 1000, 0);
    /* an ACK crossing the other way: egress point at 2.5 ms, ingress point at 2.6 ms */
    struct tn_pkt ack = mk(2, 1, 80, 40001, 1, 0, 0);
    for (int i = 0; i < 6; i++) {
        q2(q, d[i], T0 + i * ms, (uint16_t)(i + 1), 64, false);
        if (i == 2) {
            q2(q, ack, T0 + 2 * ms + ms / 2, 77, 64, true);
            q2(q, ack, T0 + 2 * ms + 6 * ms / 10, 77, 63, false);
        }
    }
    int out[] = {0, 1, 3, 4};
    int64_t tout[] = {10, 11, 13, 14};
    for (int i = 0; i < 4; i++)
        q2(q, d[out[i]], T0 + tout[i] * ms, (uint16_t)(out[i] + 1), 63, true);
    tn_q2_finish(q, NULL);
    const struct tn_q2_result *r = tn_q2_result(q);
    ck_assert_uint_eq(r->matched, 4);
    ck_assert_uint_eq(r->drops, 1);
    ck_assert_uint_eq(r->unmatched_end, 1);
    ck_assert_uint_eq(r->reverse_matched, 1);
    ck_assert_uint_eq(r->nflows, 1);
    ck_assert_uint_eq(r->flows[0].drops, 1);
    ck_assert_uint_eq(r->flows[0].drop_bytes, 1054);
    /* every sojourn is 10 ms */
    ck_assert_double_eq_tol(r->sojourn_ms.min, 10, 1e-9);
    ck_assert_double_eq_tol(r->sojourn_ms.max, 10, 1e-9);
    /* queue: 1@0 2@1 3@3 4@4 3@10 2@11 1@13 0@14 (ms) */
    static const double want[] = {1, 2, 3, 4, 3, 2, 1, 0};
    static const int64_t when[] = {0, 1, 3, 4, 10, 11, 13, 14};
    ck_assert_uint_eq(r->queue_pkts.n, 8);
    for (int i = 0; i < 8; i++) {
        ck_assert_int_eq(r->queue_pkts.pts[i].t_ns, T0 + when[i] * ms);
        ck_assert_double_eq_tol(r->queue_pkts.pts[i].v, want[i], 1e-12);
    }
    ck_assert_uint_eq(r->queue_pkts_max, 4);
    /* time-weighted: (1*1 + 2*2 + 3*1 + 4*6 + 3*1 + 2*2 + 1*1) / 14 ms = 40/14 */
    ck_assert_double_eq_tol(r->queue_pkts_avg, 40.0 / 14.0, 1e-9);
    ck_assert_double_eq_tol(r->queue_bytes.pts[3].v, 4 * 1054, 1e-12);
    /* clocks: data apparent delays 10 ms (min), the ACK -0.1 ms: offset (10 - 0.1) / 2 = 4.95 ms,
     * one-way minimum 5.05 ms both ways; no negative delay, so no warning */
    ck_assert(r->clock_known);
    ck_assert_double_eq_tol(r->clock_offset_ms, 4.95, 1e-9);
    ck_assert_double_eq_tol(r->owd_min_ms[0], 5.05, 1e-9);
    ck_assert_double_eq_tol(r->owd_min_ms[1], 5.05, 1e-9);
    ck_assert(!r->clock_unsync);
    tn_q2_free(q);
}
END_TEST

START_TEST(test_q2_expiry)
{
    struct tn_q2cfg cfg = {.expire_ns = 1000000000};
    struct tn_q2 *q = tn_q2_new(&cfg);
    struct tn_pkt a = mk(1, 2, 40001, 80, 1, 100, 0), b = mk(1, 2, 40001, 80, 101, 100, 0);
    q2(q, a, T0, 1, 64, false);                    /* never leaves */
    q2(q, b, T0 + 2000000000, 2, 64, false);       /* 2 s later: a expired as a drop */
    q2(q, b, T0 + 2001000000, 2, 63, true);
    tn_q2_finish(q, NULL);
    const struct tn_q2_result *r = tn_q2_result(q);
    ck_assert_uint_eq(r->drops, 1);
    ck_assert_uint_eq(r->matched, 1);
    ck_assert_uint_eq(r->unmatched_end, 0);
    tn_q2_free(q);
}
END_TEST

/* ---- ns-2 ---- */

/* Link 0->1: four enqueues at 0.1 s, the fourth dropped on arrival (drop-tail, '+' then 'd');
 * one dequeue at 0.1, 0.108, 0.116.  Occupancy after each instant: 2 from 0.1 to 0.108, 1 to
 * 0.116, then 0, so the maximum is 2.  Link 1->0 carries one ACK, sent at once (never waits). */
static const char ns2_trace[] =
    "+ 0.1 0 1 tcp 1040 ------- 1 0.0 1.0 0 0\n"
    "- 0.1 0 1 tcp 1040 ------- 1 0.0 1.0 0 0\n"
    "+ 0.1 0 1 tcp 1040 ------- 1 0.0 1.0 1 1\n"
    "+ 0.1 0 1 tcp 1040 ------- 1 0.0 1.0 2 2\n"
    "+ 0.1 0 1 tcp 1040 ------- 1 0.0 1.0 3 3\n"
    "d 0.1 0 1 tcp 1040 ------- 1 0.0 1.0 3 3\n"
    "r 0.108 0 1 tcp 1040 ------- 1 0.0 1.0 0 0\n"
    "- 0.108 0 1 tcp 1040 ------- 1 0.0 1.0 1 1\n"
    "+ 0.108 1 0 ack 40 ------- 1 1.0 0.0 0 4\n"
    "- 0.108 1 0 ack 40 ------- 1 1.0 0.0 0 4\n"
    "r 0.116 0 1 tcp 1040 ------- 1 0.0 1.0 1 1\n"
    "- 0.116 0 1 tcp 1040 ------- 1 0.0 1.0 2 2\n"
    "r 0.118 1 0 ack 40 ------- 1 1.0 0.0 0 4\n"
    "r 0.124 0 1 tcp 1040 ------- 1 0.0 1.0 2 2\n";

START_TEST(test_ns2_linkq_exact)
{
    char path[] = "/tmp/tn_ns2_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, ns2_trace, sizeof ns2_trace - 1), (ssize_t)(sizeof ns2_trace - 1));
    close(fd);
    ck_assert(tn_ns2_probe(path));

    struct tn_ns2 *r;
    struct tn_err err;
    ck_assert_int_eq(tn_ns2_open(&r, path, &err), 0);
    struct tn_analysis_cfg acfg = {0};
    struct tn_analyzer *an = tn_analyzer_new(&acfg);
    struct tn_linkq *lq = tn_linkq_new();
    struct tn_ns2_event ev;
    struct tn_pkt p;
    bool has;
    int rc, npkts = 0;
    uint32_t seqs[4] = {0}, acks[2] = {0};
    while ((rc = tn_ns2_next(r, &ev, &p, &has, &err)) != 0) {
        ck_assert_int_eq(rc, 1);
        tn_linkq_event(lq, ev.ev, ev.t_ns, ev.from, ev.to, ev.size, ev.fid, ev.id);
        if (has) {
            if (p.payload_len && npkts < 4)
                seqs[npkts] = p.tcp.seq;
            else if (!p.payload_len)
                acks[0] = p.tcp.ack;
            npkts++;
            tn_analyzer_add(an, &p, TN_DIS_OK, path);
        }
    }
    tn_linkq_finish(lq);
    tn_analyzer_finish(an);
    ck_assert_uint_eq(tn_ns2_lines(r), 14);
    ck_assert_uint_eq(tn_ns2_bad_lines(r), 0);
    tn_ns2_close(r);
    unlink(path);

    /* packets: data ids 0,1,2 leaving node 0 ('-' 0->1), the ACK arriving at node 0 */
    ck_assert_int_eq(npkts, 4);
    ck_assert_uint_eq(seqs[0], 1);      /* packet k starts at 1 + k * 1000 */
    ck_assert_uint_eq(seqs[1], 1001);
    ck_assert_uint_eq(seqs[2], 2001);
    ck_assert_uint_eq(acks[0], 1001);   /* ack of packet 0: 1 + 1 * 1000 */
    ck_assert_uint_eq(tn_analyzer_conn_count(an), 1);
    const struct tn_conn *c = tn_analyzer_conn(an, 0);
    ck_assert_uint_eq(c->d[TN_A2B].data_pkts, 3);
    ck_assert_uint_eq(c->d[TN_A2B].data_bytes, 3000);
    ck_assert_uint_eq(c->d[TN_B2A].pkts, 1);

    ck_assert_uint_eq(tn_linkq_count(lq), 2);
    const struct tn_linkq_link *k = tn_linkq_link(lq, 0);
    ck_assert_int_eq(k->from, 0);
    ck_assert_int_eq(k->to, 1);
    ck_assert_uint_eq(k->enq, 4);
    ck_assert_uint_eq(k->deq, 3);
    ck_assert_uint_eq(k->drops, 1);
    ck_assert_uint_eq(k->drop_bytes, 1040);
    ck_assert_uint_eq(k->max_pkts, 2);
    ck_assert_uint_eq(k->max_bytes, 2080);
    ck_assert_uint_eq(k->pkts, 0);
    ck_assert_uint_ge(k->nfid, 2);
    ck_assert_uint_eq(k->flow_drops[1], 1);
    /* one point per instant: 2 @ 0.1, 1 @ 0.108, 0 @ 0.116 */
    ck_assert_uint_eq(k->queue_pkts.n, 3);
    ck_assert_double_eq_tol(k->queue_pkts.pts[0].v, 2, 1e-12);
    ck_assert_double_eq_tol(k->queue_pkts.pts[1].v, 1, 1e-12);
    ck_assert_double_eq_tol(k->queue_pkts.pts[2].v, 0, 1e-12);
    ck_assert_int_eq(k->queue_pkts.pts[1].t_ns, 108000000);
    /* time-weighted: (2 * 8 ms + 1 * 8 ms) = 0.024 packet-seconds */
    ck_assert_double_eq_tol(k->pkts_area, 0.024, 1e-12);
    const struct tn_linkq_link *back = tn_linkq_link(lq, 1);
    ck_assert_uint_eq(back->max_pkts, 0);   /* enqueued and dequeued at the same instant */
    ck_assert_uint_eq(back->drops, 0);
    tn_linkq_free(lq);
    tn_analyzer_free(an);
}
END_TEST

START_TEST(test_ns2_probe_rejects)
{
    char path[] = "/tmp/tn_ns2_XXXXXX";
    int fd = mkstemp(path);
    static const char text[] = "# not a trace\nhello world\n";
    ck_assert_int_eq(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
    close(fd);
    ck_assert(!tn_ns2_probe(path));
    unlink(path);
    ck_assert(!tn_ns2_probe("/nonexistent/file.tr"));
}
END_TEST

START_TEST(test_series_mae)
{
    /* truth: 0 @ 0, 4 @ 10, 2 @ 20 (step); estimate: 1 @ 5 (truth 0), 3 @ 15 (truth 4),
     * 2 @ 20 (truth 2), 9 @ 30 (outside: ignored).  MAE = (1 + 1 + 0) / 3 */
    struct tn_point tp[] = {{0, 0}, {10, 4}, {20, 2}}, ep[] = {{5, 1}, {15, 3}, {20, 2}, {30, 9}};
    struct tn_series truth = {tp, 3, 3}, est = {ep, 4, 4};
    size_t n;
    ck_assert_double_eq_tol(tn_series_mae(&est, &truth, &n), 2.0 / 3, 1e-12);
    ck_assert_uint_eq(n, 3);
}
END_TEST

Suite *tn_multi_suite(void)
{
    Suite *s = suite_create("multi");
    TCase *tc = tcase_create("fairness");
    tcase_add_test(tc, test_jain_values);
    tcase_add_test(tc, test_fairness_two_flows);
    tcase_add_test(tc, test_fairness_selection_and_mice);
    tcase_add_test(tc, test_parallel_transfer);
    suite_add_tcase(s, tc);
    tc = tcase_create("queue");
    tcase_add_test(tc, test_q2_match_drops);
    tcase_add_test(tc, test_q2_expiry);
    tcase_add_test(tc, test_series_mae);
    suite_add_tcase(s, tc);
    tc = tcase_create("ns2");
    tcase_add_test(tc, test_ns2_linkq_exact);
    tcase_add_test(tc, test_ns2_probe_rejects);
    suite_add_tcase(s, tc);
    return s;
}
