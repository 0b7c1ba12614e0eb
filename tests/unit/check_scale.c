/* check_scale.c - the connection table at scale (issue 12): the symmetric flow hash, many
 * connections interleaved, the inference of a connection closed both ways finished and freed
 * once it is quiet (its counters going on), a bounded table under a SYN flood, and offline
 * retirement: closed connections kept as a brief in memory, their state in a store, with the
 * same results. */
#include <check.h>
#include <malloc.h>
#ifdef __SANITIZE_ADDRESS__
size_t __sanitizer_get_current_allocated_bytes(void);   /* libasan's (sanitizer/allocator_interface.h) */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis.h"
#include "mem_store.h"
#include "render.h"
#include "shards.h"
#include "tcp_pkt_helper.h"

enum { S = TN_TCP_SYN, A = TN_TCP_ACK, F = TN_TCP_FIN, P = TN_TCP_PSH };

static const int64_t T0 = 1700000000LL * 1000000000LL;

/* Connection i: the helper's client address with host part and port from i. */
static struct tn_pkt pkt_of(uint32_t i, bool from_client, uint32_t seq, uint32_t ack, uint8_t flags,
                            uint32_t len, int64_t t_ns)
{
    struct tn_pkt p = tn_test_tcp(from_client, seq, ack, flags, 65535, len, t_ns, 1);
    struct tn_addr *client = from_client ? &p.src : &p.dst;
    client->a[1] = (uint8_t)(i >> 16);
    client->a[2] = (uint8_t)(i >> 8);
    client->a[3] = (uint8_t)i;
    if (from_client)
        p.sport = (uint16_t)(10000 + i % 50000);
    else
        p.dport = (uint16_t)(10000 + i % 50000);
    return p;
}

START_TEST(test_flow_hash_symmetric)
{
    struct tn_pkt a = pkt_of(7, true, 1, 0, S, 0, T0), b = pkt_of(7, false, 1, 2, S | A, 0, T0);
    ck_assert_uint_eq(tn_flow_hash(&a), tn_flow_hash(&b));
    struct tn_pkt c = pkt_of(8, true, 1, 0, S, 0, T0);
    ck_assert_uint_ne(tn_flow_hash(&a), tn_flow_hash(&c));
}
END_TEST

/* 100000 handshakes, all SYNs first, then all SYN-ACKs in reverse order: every answer finds its
 * connection through the table (which grew from 1024 slots), none is made twice. */
START_TEST(test_many_connections)
{
    enum { N = 100000 };
    struct tn_analyzer *an = tn_analyzer_new(NULL);
    int64_t t = T0;
    for (uint32_t i = 0; i < N; i++) {
        struct tn_pkt p = pkt_of(i, true, 1000, 0, S, 0, t += 1000);
        tn_analyzer_add(an, &p, TN_DIS_OK, "test");
    }
    for (uint32_t i = N; i-- > 0;) {
        struct tn_pkt p = pkt_of(i, false, 5000, 1001, S | A, 0, t += 1000);
        tn_analyzer_add(an, &p, TN_DIS_OK, "test");
    }
    tn_analyzer_finish(an);
    ck_assert_uint_eq(tn_analyzer_conn_count(an), N);
    for (size_t k = 0; k < N; k += 9973) {
        const struct tn_conn *c = tn_analyzer_conn(an, k);
        ck_assert_uint_eq(c->d[TN_A2B].pkts, 1);
        ck_assert_uint_eq(c->d[TN_B2A].pkts, 1);
        ck_assert_uint_eq(c->a.a[3], (uint8_t)k);
    }
    tn_analyzer_free(an);
}
END_TEST

/* One complete short connection: handshake, 100 bytes each way, FIN both ways, last ACK. */
static int64_t short_conn(struct tn_analyzer *an, uint32_t i, int64_t t)
{
    struct tn_pkt v[] = {
        pkt_of(i, true, 100, 0, S, 0, t),
        pkt_of(i, false, 500, 101, S | A, 0, t + 1000000),
        pkt_of(i, true, 101, 501, A, 0, t + 2000000),
        pkt_of(i, true, 101, 501, P | A, 100, t + 3000000),
        pkt_of(i, false, 501, 201, P | A, 100, t + 4000000),
        pkt_of(i, true, 201, 601, F | A, 0, t + 5000000),
        pkt_of(i, false, 601, 202, F | A, 0, t + 6000000),
        pkt_of(i, true, 202, 602, A, 0, t + 7000000),
    };
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
        tn_analyzer_add(an, &v[k], TN_DIS_OK, "test");
    return t + 7000000;
}

START_TEST(test_closed_connection_finished_when_quiet)
{
    struct tn_analyzer *an = tn_analyzer_new(NULL);
    int64_t t = short_conn(an, 1, T0);
    const struct tn_conn *c = tn_analyzer_conn(an, 0);
    struct tn_conn_live live;
    tn_conn_live_get(c, TN_A2B, &live);
    ck_assert(live.srtt_ms > 0);   /* 100 bytes acked after 1 ms: the sender's state is there */
    /* 100 ms later, another connection: still within the quiet time */
    struct tn_pkt o = pkt_of(2, true, 1, 0, S, 0, t + 100000000);
    tn_analyzer_add(an, &o, TN_DIS_OK, "test");
    tn_conn_live_get(c, TN_A2B, &live);
    ck_assert(live.srtt_ms > 0);
    /* 300 ms after its last packet: finished, its inference state freed, the results kept */
    o = pkt_of(2, true, 1, 0, S, 0, t + 300000000);
    tn_analyzer_add(an, &o, TN_DIS_OK, "test");
    tn_conn_live_get(c, TN_A2B, &live);
    ck_assert(live.srtt_ms < 0);
    /* the same results as a run that finishes it at the end of input */
    struct tn_analyzer *ref = tn_analyzer_new(NULL);
    short_conn(ref, 1, T0);
    tn_analyzer_finish(ref);
    const struct tn_conn *rc = tn_analyzer_conn(ref, 0);
    ck_assert_uint_ge(rc->inf[TN_A2B].rtt_ms.n, 1);
    ck_assert(memcmp(rc->inf, c->inf, 2 * sizeof *c->inf) == 0);
    tn_analyzer_free(ref);
    /* the server's FIN resent 1 s later (its last ACK lost after the monitor): the same
     * connection counts it, as a timeout retransmission */
    struct tn_pkt fin = pkt_of(1, false, 601, 202, F | A, 0, t + 1000000000);
    tn_analyzer_add(an, &fin, TN_DIS_OK, "test");
    tn_analyzer_finish(an);
    ck_assert_uint_eq(tn_analyzer_conn_count(an), 2);
    ck_assert_uint_eq(c->d[TN_B2A].pkts, 4);
    ck_assert_uint_eq(c->d[TN_B2A].fin, 2);
    ck_assert_uint_eq(c->d[TN_B2A].rexmit_pkts, 1);
    ck_assert_uint_eq(c->inf[TN_B2A].rexmit[TN_EV_REXMIT_RTO - TN_EV_REXMIT_FAST], 1);
    tn_analyzer_free(an);
}
END_TEST

/* A flood of 10000 lone SYNs into a table of 1000, after one established connection: the SYNs
 * are evicted (an eighth of the table at a time), the established connection stays, numbers
 * keep first-packet order. */
START_TEST(test_eviction_half_open_first)
{
    struct tn_analysis_cfg cfg = {.max_conns = 1000};
    struct tn_analyzer *an = tn_analyzer_new(&cfg);
    int64_t t = short_conn(an, 0, T0);
    for (uint32_t i = 1; i <= 10000; i++) {
        struct tn_pkt p = pkt_of(i, true, 1000, 0, S, 0, t += 1000);
        tn_analyzer_add(an, &p, TN_DIS_OK, "test");
    }
    tn_analyzer_finish(an);
    size_t n = tn_analyzer_conn_count(an);
    ck_assert_uint_le(n, 1000);
    ck_assert_uint_eq(tn_analyzer_stats(an)->evicted, 10001 - n);
    const struct tn_conn *c = tn_analyzer_conn_by_number(an, 1);
    ck_assert_ptr_nonnull(c);
    ck_assert(c->closed);
    ck_assert_ptr_null(tn_analyzer_conn_by_number(an, 2));   /* the oldest SYN went first */
    const struct tn_conn *last = tn_analyzer_conn(an, n - 1);
    ck_assert_uint_eq(last->idx, 10001);
    ck_assert_ptr_eq(tn_analyzer_conn_by_number(an, 10001), last);
    /* the table still finds the connections it kept: a SYN-ACK to the last SYN joins it */
    struct tn_pkt sa = pkt_of(10000, false, 5000, 1001, S | A, 0, t += 1000);
    tn_analyzer_add(an, &sa, TN_DIS_OK, "test");
    ck_assert_uint_eq(last->d[TN_B2A].pkts, 1);
    ck_assert_uint_eq(tn_analyzer_conn_count(an), n);
    tn_analyzer_free(an);
}
END_TEST

/* The packets of complete short connection i from t (handshake, 100 bytes each way, FINs). */
static size_t short_conn_pkts(struct tn_pkt *v, uint32_t i, int64_t t)
{
    const struct tn_pkt c[] = {
        pkt_of(i, true, 100, 0, S, 0, t),
        pkt_of(i, false, 500, 101, S | A, 0, t + 1000000),
        pkt_of(i, true, 101, 501, A, 0, t + 2000000),
        pkt_of(i, true, 101, 501, P | A, 100, t + 3000000),
        pkt_of(i, false, 501, 201, P | A, 100, t + 4000000),
        pkt_of(i, true, 201, 601, F | A, 0, t + 5000000),
        pkt_of(i, false, 601, 202, F | A, 0, t + 6000000),
        pkt_of(i, true, 202, 602, A, 0, t + 7000000),
    };
    memcpy(v, c, sizeof c);
    return sizeof c / sizeof c[0];
}

static int cmp_pkt_time(const void *x, const void *y)
{
    const struct tn_pkt *a = x, *b = y;
    int c = tn_time_cmp(a->ts, b->ts);
    return c ? c : (a->num > b->num) - (a->num < b->num);
}

/* b is connection a, found by another analyzer: the same number, place, counters, inference. */
static void same_conn_results(const struct tn_conn *a, const struct tn_conn *b)
{
    ck_assert_uint_eq(b->idx, a->idx);
    ck_assert_uint_eq(b->ord, a->ord);
    ck_assert(memcmp(&a->a, &b->a, sizeof a->a) == 0 && a->a_port == b->a_port && a->b_port == b->b_port);
    ck_assert(memcmp(a->d, b->d, sizeof a->d) == 0);
    ck_assert(memcmp(a->inf, b->inf, 2 * sizeof *a->inf) == 0);
    ck_assert_int_eq(tn_conn_state(a), tn_conn_state(b));
}

/* NC overlapping short connections, 1.5 ms apart, in time order and numbered; returns the
 * packets written to v (8 per connection). */
static size_t overlapping_conns(struct tn_pkt *v, uint32_t nc)
{
    size_t n = 0;
    for (uint32_t i = 0; i < nc; i++)
        n += short_conn_pkts(v + n, i, T0 + (int64_t)i * 1500000);
    for (size_t k = 0; k < n; k++)
        v[k].num = k + 1;   /* the generation order breaks ties of time */
    qsort(v, n, sizeof *v, cmp_pkt_time);
    return n;
}

/* -j N's promise at the analysis layer: 600 overlapping short connections read by one analyzer,
 * and by three shards (each packet counted once, handed to the shard of its hash) merged after,
 * give the same connections, numbers and results.  With it, connection 0's FIN resent 1 s after
 * it closed, when only a connection of another shard moved the trace clock past its 200 ms
 * quiet time: one analyzer had finished it then, its shard finishes it from the clock of the
 * packet's place; both count a timeout retransmission. */
START_TEST(test_shards_merge_like_one)
{
    enum { NC = 600, NSH = 3 };
    struct tn_pkt *v = tn_xcalloc(8 * NC + 3, sizeof *v);
    size_t n = overlapping_conns(v, NC);
    int64_t end = T0 + (int64_t)NC * 1500000 + 7000000;
    /* a connection that hashes to another shard than connection 0 moves the clock on */
    struct tn_pkt c0 = pkt_of(0, true, 1, 0, S, 0, T0);
    uint32_t other = NC;
    struct tn_pkt o = pkt_of(other, true, 1, 0, S, 0, end + 300000000);
    while (tn_shard_of(tn_flow_hash(&o), NSH) == tn_shard_of(tn_flow_hash(&c0), NSH))
        o = pkt_of(++other, true, 1, 0, S, 0, end + 300000000);
    v[n++] = o;
    v[n++] = pkt_of(0, false, 601, 202, F | A, 0, end + 1000000000);
    for (size_t k = 0; k < n; k++)
        v[k].num = k + 1;

    struct tn_analyzer *one = tn_analyzer_new(NULL), *all = tn_analyzer_new(NULL), *sh[NSH];
    for (int s = 0; s < NSH; s++)
        sh[s] = tn_analyzer_new(NULL);
    for (size_t k = 0; k < n; k++) {
        tn_analyzer_add(one, &v[k], TN_DIS_OK, "test");
        struct tn_pkt_place place = tn_analyzer_count(all, &v[k], TN_DIS_OK, "test");
        tn_analyzer_add_flow(sh[tn_shard_of(tn_flow_hash(&v[k]), NSH)], &v[k], place);
    }
    tn_analyzer_finish(one);
    for (int s = 0; s < NSH; s++) {
        tn_analyzer_finish(sh[s]);
        ck_assert_uint_gt(tn_analyzer_conn_count(sh[s]), NC / NSH / 2);   /* a real split */
    }
    tn_analyzer_merge(all, sh, NSH);
    ck_assert_uint_eq(tn_analyzer_conn_count(all), NC + 1);
    ck_assert_uint_eq(tn_analyzer_conn_count(one), NC + 1);
    ck_assert_uint_eq(tn_analyzer_stats(all)->frames, n);
    for (size_t k = 0; k <= NC; k++) {
        const struct tn_conn *a = tn_analyzer_conn(one, k);
        ck_assert_uint_eq(a->idx, k + 1);
        same_conn_results(a, tn_analyzer_conn(all, k));
    }
    /* the resent FIN: a timeout retransmission of the finished connection, in both */
    const struct tn_conn *m0 = tn_analyzer_conn_by_number(all, 1);
    ck_assert_uint_eq(m0->d[TN_B2A].fin, 2);
    ck_assert_uint_eq(m0->inf[TN_B2A].rexmit[TN_EV_REXMIT_RTO - TN_EV_REXMIT_FAST], 1);
    for (int s = 0; s < NSH; s++)
        tn_analyzer_free(sh[s]);
    tn_analyzer_free(one);
    tn_analyzer_free(all);
    free(v);
}
END_TEST

/* Retirement changes where a closed connection lies, not what it is: the 600 connections of
 * the merge test through one analyzer without a store, one with a store and three shards with
 * a store give the same numbers, counters and inference; most of them were retired (all but
 * those within 200 ms of the end); connection 0's FIN resent 1 s after it closed brings it back
 * from the store and is counted as a timeout retransmission, as without a store.  The list's
 * briefs equal those made from the whole connections. */
START_TEST(test_retired_same_as_kept)
{
    enum { NC = 600, NSH = 3 };
    struct tn_pkt *v = tn_xcalloc(8 * NC + 2, sizeof *v);
    size_t n = overlapping_conns(v, NC);
    int64_t end = T0 + (int64_t)NC * 1500000 + 7000000;
    v[n++] = pkt_of(0, false, 601, 202, F | A, 0, end + 1000000000);
    for (size_t k = 0; k < n; k++)
        v[k].num = k + 1;

    struct mem_store m1 = {0}, m3 = {0};
    struct tn_analysis_cfg c1 = {.spill_put = mem_put, .spill_get = mem_get, .spill_arg = &m1};
    struct tn_analysis_cfg c3 = {.spill_put = mem_put, .spill_get = mem_get, .spill_arg = &m3};
    struct tn_analyzer *kept = tn_analyzer_new(NULL), *one = tn_analyzer_new(&c1), *all = tn_analyzer_new(&c3);
    struct tn_analyzer *sh[NSH];
    for (unsigned s = 0; s < NSH; s++) {
        c3.shard = s;
        sh[s] = tn_analyzer_new(&c3);
    }
    for (size_t k = 0; k < n; k++) {
        tn_analyzer_add(kept, &v[k], TN_DIS_OK, "test");
        tn_analyzer_add(one, &v[k], TN_DIS_OK, "test");
        struct tn_pkt_place place = tn_analyzer_count(all, &v[k], TN_DIS_OK, "test");
        tn_analyzer_add_flow(sh[tn_shard_of(tn_flow_hash(&v[k]), NSH)], &v[k], place);
    }
    tn_analyzer_finish(kept);
    tn_analyzer_finish(one);
    size_t retired = 0;
    for (unsigned s = 0; s < NSH; s++) {
        tn_analyzer_finish(sh[s]);
        retired += tn_analyzer_retired(sh[s]);
    }
    tn_analyzer_merge(all, sh, NSH);
    /* 1.5 ms apart, 7 ms long: all but the last 134 were quiet 200 ms before the last SYN-less
     * packet; connection 0 came back for its late FIN */
    ck_assert_uint_eq(tn_analyzer_retired(kept), 0);
    ck_assert_uint_ge(tn_analyzer_retired(one), NC - 140);
    ck_assert_uint_eq(tn_analyzer_retired(all), retired);
    ck_assert_uint_ge(retired, NC - 140);
    ck_assert_uint_eq(m1.puts, tn_analyzer_retired(one) + 1);   /* + connection 0, revived */
    ck_assert_uint_eq(tn_analyzer_conn_count(one), NC);
    ck_assert_uint_eq(tn_analyzer_conn_count(all), NC);
    for (size_t k = 0; k < NC; k++) {
        const struct tn_conn *a = tn_analyzer_conn(kept, k);
        ck_assert_uint_eq(a->idx, k + 1);
        struct tn_conn_brief ba, bb;
        tn_conn_brief_of(a, &ba);
        tn_analyzer_brief(one, k, &bb);
        ck_assert(memcmp(&ba.a, &bb.a, sizeof ba.a) == 0 && ba.pkts[0] == bb.pkts[0] && ba.pkts[1] == bb.pkts[1]);
        ck_assert_uint_eq(ba.state, bb.state);
        ck_assert_uint_eq(ba.data_bytes[TN_B2A], bb.data_bytes[TN_B2A]);
        same_conn_results(a, tn_analyzer_conn(one, k));
        same_conn_results(a, tn_analyzer_conn(all, k));
    }
    ck_assert_uint_ge(m1.gets, NC - 140);   /* the loop above read them back */
    const struct tn_conn *c0 = tn_analyzer_conn_by_number(one, 1);
    ck_assert_uint_eq(c0->d[TN_B2A].fin, 2);
    ck_assert_uint_eq(c0->d[TN_B2A].pkts, 4);
    ck_assert_uint_eq(c0->inf[TN_B2A].rexmit[TN_EV_REXMIT_RTO - TN_EV_REXMIT_FAST], 1);
    for (unsigned s = 0; s < NSH; s++)
        tn_analyzer_free(sh[s]);
    tn_analyzer_free(kept);
    tn_analyzer_free(one);
    tn_analyzer_free(all);
    free(m1.p);
    free(m3.p);
    free(v);
}
END_TEST

/* -j 2 on 8 bulk flows whose flow hashes all fall on one worker by tn_shard_of (the old
 * choice, hash modulo workers), handed on by a reader of files and by a capture (live): each
 * flow's bucket goes at its first packet to the worker handed the fewest packets, so each
 * worker gets 4 flows, and the merge gives the 8 with every packet. */
static void balance_flows(bool live)
{
    enum { NF = 8, PKTS = 200 };
    uint32_t flow[NF];
    unsigned nf = 0;
    for (uint32_t i = 0; nf < NF; i++) {
        struct tn_pkt p = pkt_of(i, true, 1, 0, S, 0, T0);
        if (tn_shard_of(tn_flow_hash(&p), 2) == 0)
            flow[nf++] = i;
    }
    struct tn_analysis_cfg cfg = {0};
    struct tn_shards *sh = tn_shards_new(2, &cfg, live);
    ck_assert_ptr_nonnull(sh);
    struct tn_analyzer *an = tn_analyzer_new(NULL);
    int64_t t = T0;
    for (unsigned f = 0; f < NF; f++) {   /* the handshakes, one flow after the other */
        struct tn_pkt v[] = {pkt_of(flow[f], true, 100, 0, S, 0, t += 1000),
                             pkt_of(flow[f], false, 500, 101, S | A, 0, t += 1000),
                             pkt_of(flow[f], true, 101, 501, A, 0, t += 1000)};
        for (unsigned k = 0; k < 3; k++)
            tn_shards_pkt(sh, &v[k], tn_analyzer_count(an, &v[k], TN_DIS_OK, "test"));
    }
    for (uint32_t k = 0; k < PKTS; k++)   /* then data of all of them, interleaved */
        for (unsigned f = 0; f < NF; f++) {
            struct tn_pkt p = pkt_of(flow[f], true, 101 + k * 1000, 501, A, 1000, t += 1000);
            tn_shards_pkt(sh, &p, tn_analyzer_count(an, &p, TN_DIS_OK, "test"));
        }
    ck_assert_uint_eq(tn_shards_handed(sh, 0), NF / 2 * (3 + PKTS));
    ck_assert_uint_eq(tn_shards_handed(sh, 1), NF / 2 * (3 + PKTS));
    ck_assert_uint_eq(tn_shards_end(sh, an), 0);
    ck_assert_uint_eq(tn_analyzer_conn_count(an), NF);
    for (size_t k = 0; k < NF; k++)
        ck_assert_uint_eq(tn_analyzer_conn(an, k)->d[TN_A2B].pkts, 2 + PKTS);
    tn_analyzer_free(an);
}

START_TEST(test_shards_balance_flows)
{
    balance_flows(false);
    balance_flows(true);
}
END_TEST

/* The long report (-l) or the connection list of an (all connections: sel NULL) rendered on
 * `threads` threads. */
static char *report(const struct tn_analyzer *an, const struct tn_selection *sel, unsigned threads, bool lng,
                    size_t *len)
{
    char *text = NULL;
    FILE *fp = open_memstream(&text, len);
    if (lng)
        tn_report_long(fp, an, sel, &(struct tn_long_opts){true, true, threads});
    else
        tn_report_list(fp, an, sel, threads);
    fclose(fp);
    return text;
}

static char *long_report(const struct tn_analyzer *an, const struct tn_selection *sel, unsigned threads,
                         size_t *len)
{
    return report(an, sel, threads, true, len);
}

/* -l on several threads (issue 12): the 600 short connections of the merge test, retired to a
 * store by three shards and merged, read back by each thread through its own reading slot and
 * rendered in chunks, give the report one thread writes, byte for byte, and the one of an
 * analyzer that kept every connection in memory; also for a selection of every seventh. */
START_TEST(test_long_report_threads)
{
    enum { NC = 600, NSH = 3 };
    struct tn_pkt *v = tn_xcalloc(8 * NC, sizeof *v);
    size_t n = overlapping_conns(v, NC);
    struct mem_store m = {0};
    struct tn_analysis_cfg cfg = {.spill_put = mem_put, .spill_get = mem_get, .spill_arg = &m};
    struct tn_analyzer *kept = tn_analyzer_new(NULL), *all = tn_analyzer_new(&cfg), *sh[NSH];
    for (unsigned s = 0; s < NSH; s++) {
        cfg.shard = s;
        sh[s] = tn_analyzer_new(&cfg);
    }
    for (size_t k = 0; k < n; k++) {
        tn_analyzer_add(kept, &v[k], TN_DIS_OK, "test");
        struct tn_pkt_place place = tn_analyzer_count(all, &v[k], TN_DIS_OK, "test");
        tn_analyzer_add_flow(sh[tn_shard_of(tn_flow_hash(&v[k]), NSH)], &v[k], place);
    }
    tn_analyzer_finish(kept);
    for (unsigned s = 0; s < NSH; s++)
        tn_analyzer_finish(sh[s]);
    tn_analyzer_merge(all, sh, NSH);
    ck_assert_uint_ge(tn_analyzer_retired(all), NC - 140);

    size_t n1, n2, n3, nk;
    char *r1 = long_report(all, NULL, 1, &n1), *r2 = long_report(all, NULL, 2, &n2);
    char *r3 = long_report(all, NULL, 3, &n3), *rk = long_report(kept, NULL, 1, &nk);
    ck_assert_uint_gt(n1, NC * 1000);   /* every connection's report, ~4 KB each */
    ck_assert(n2 == n1 && memcmp(r1, r2, n1) == 0);
    ck_assert(n3 == n1 && memcmp(r1, r3, n1) == 0);
    ck_assert(nk == n1 && memcmp(r1, rk, n1) == 0);
    unsigned idx[NC / 7 + 1], ni = 0;
    for (unsigned i = 1; i <= NC; i += 7)
        idx[ni++] = i;
    struct tn_selection sel = {.idx = idx, .n = ni};
    free(r1);
    free(r3);
    r1 = long_report(all, &sel, 1, &n1);
    r3 = long_report(all, &sel, 3, &n3);
    ck_assert_uint_lt(n1, nk / 5);
    ck_assert(n3 == n1 && memcmp(r1, r3, n1) == 0);
    free(r1);
    free(r2);
    free(r3);
    free(rk);
    for (unsigned s = 0; s < NSH; s++)
        tn_analyzer_free(sh[s]);
    tn_analyzer_free(kept);
    tn_analyzer_free(all);
    free(m.p);
    free(v);
}
END_TEST

/* The connection list on several threads (in chunks of 2,048 lines) is one thread's, byte for
 * byte: 5,000 short connections, all of them and a selection. */
START_TEST(test_list_threads)
{
    enum { NC = 5000 };
    struct tn_pkt *v = tn_xcalloc(8 * NC, sizeof *v);
    size_t n = overlapping_conns(v, NC);
    struct tn_analyzer *an = tn_analyzer_new(NULL);
    for (size_t k = 0; k < n; k++)
        tn_analyzer_add(an, &v[k], TN_DIS_OK, "test");
    tn_analyzer_finish(an);
    size_t n1, n3;
    char *r1 = report(an, NULL, 1, false, &n1), *r3 = report(an, NULL, 3, false, &n3);
    ck_assert_uint_gt(n1, NC * 60);
    ck_assert(n3 == n1 && memcmp(r1, r3, n1) == 0);
    free(r1);
    free(r3);
    unsigned idx[] = {1, 2047, 2048, 2049, 4097, 5000};
    struct tn_selection sel = {.idx = idx, .n = sizeof idx / sizeof idx[0]};
    r1 = report(an, &sel, 1, false, &n1);
    r3 = report(an, &sel, 3, false, &n3);
    ck_assert(strstr(r1, "5000 connections, 6 selected:\n") == r1);
    ck_assert(n3 == n1 && memcmp(r1, r3, n1) == 0);
    free(r1);
    free(r3);
    tn_analyzer_free(an);
    free(v);
}
END_TEST

static char *slurp_file(const char *dir, const char *name, size_t *n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = tn_xmalloc((size_t)len + 1);
    ck_assert_uint_eq(fread(b, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    unlink(path);
    *n = (size_t)len;
    return b;
}

/* The CSV files read each retired connection back once for all six files (they read it once
 * per file before), and their bytes are those of a run that kept every connection in memory:
 * the 600 connections of the merge test with events, series and packets recorded. */
START_TEST(test_csv_reads_retired_once)
{
    enum { NC = 600 };
    struct tn_pkt *v = tn_xcalloc(8 * NC, sizeof *v);
    size_t n = overlapping_conns(v, NC);
    for (size_t k = 0; k < n; k++)
        v[k].num = k + 1;
    struct mem_store m = {0};
    struct tn_analysis_cfg rec = {.record_events = true, .record_series = true, .record_packets = true};
    struct tn_analysis_cfg st = rec;
    st.spill_put = mem_put;
    st.spill_get = mem_get;
    st.spill_arg = &m;
    struct tn_analyzer *kept = tn_analyzer_new(&rec), *one = tn_analyzer_new(&st);
    for (size_t k = 0; k < n; k++) {
        tn_analyzer_add(kept, &v[k], TN_DIS_OK, "test");
        tn_analyzer_add(one, &v[k], TN_DIS_OK, "test");
    }
    tn_analyzer_finish(kept);
    tn_analyzer_finish(one);
    size_t retired = tn_analyzer_retired(one);
    ck_assert_uint_ge(retired, NC - 140);
    char dk[] = "/tmp/check_scale_kept.XXXXXX", ds[] = "/tmp/check_scale_store.XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dk));
    ck_assert_ptr_nonnull(mkdtemp(ds));
    struct tn_view all = {0};
    struct tn_err errs[TN_CSV_NFILES];
    ck_assert_uint_eq(tn_csv_write_all(dk, kept, &all, NULL, errs), 0);
    m.gets = 0;
    ck_assert_uint_eq(tn_csv_write_all(ds, one, &all, NULL, errs), 0);
    ck_assert_uint_eq(m.gets, retired);
    static const char *const files[] = {"connections.csv", "senders.csv", "events.csv", "series.csv",
                                        "packets.csv", "dfcp_blocks.csv"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        size_t na, nb;
        char *a = slurp_file(dk, files[i], &na), *b = slurp_file(ds, files[i], &nb);
        ck_assert_msg(na == nb && memcmp(a, b, na) == 0, "%s differs with a store", files[i]);
        if (strcmp(files[i], "packets.csv") == 0)   /* a row per packet: 8 per connection */
            ck_assert_uint_gt(na, (size_t)8 * NC * 20);
        free(a);
        free(b);
    }
    rmdir(dk);
    rmdir(ds);
    tn_analyzer_free(kept);
    tn_analyzer_free(one);
    free(m.p);
    free(v);
}
END_TEST

/* Heap bytes in use (mmapped blocks too) after N short connections 1 ms apart, less the store's. */
static size_t heap_in_use(void)
{
#ifdef __SANITIZE_ADDRESS__
    return __sanitizer_get_current_allocated_bytes();   /* ASan's allocator, not glibc's */
#else
    struct mallinfo2 mi = mallinfo2();
    return mi.uordblks + mi.hblkhd;
#endif
}

static size_t heap_per_conn(const struct tn_analysis_cfg *cfg, const struct mem_store *m, unsigned n)
{
    size_t before = heap_in_use();
    struct tn_analyzer *an = tn_analyzer_new(cfg);
    for (uint32_t i = 0; i < n; i++)
        short_conn(an, i, T0 + (int64_t)i * 1000000);
    size_t used = heap_in_use() - before - (m ? m->cap : 0);
    ck_assert_uint_eq(tn_analyzer_conn_count(an), n);
    tn_analyzer_free(an);
    return used / n;
}

/* What a retired connection costs: its brief (in slabs), its slot in the connection list and
 * its flow-table share (16-byte slots at most half full), at most 512 bytes (issue 12); measured
 * on the heap for 20000 closed connections, of which the 208 of the last 200 ms are still
 * whole, against over 3 KB each without a store. */
START_TEST(test_retired_bytes)
{
    ck_assert_uint_le(sizeof(struct tn_conn_brief), 128);
    ck_assert_uint_le(sizeof(struct tn_conn_brief) + sizeof(void *) + 2 * 16, 512);
    struct mem_store m = {0};
    struct tn_analysis_cfg cfg = {.spill_put = mem_put, .spill_get = mem_get, .spill_arg = &m};
    size_t with = heap_per_conn(&cfg, &m, 20000), without = heap_per_conn(NULL, NULL, 20000);
    free(m.p);
    ck_assert_uint_le(with, 512);
    ck_assert_uint_ge(without, 3000);
    ck_assert_uint_ge(m.puts, 20000 - 210);
}
END_TEST

/* A flood of 5000 lone SYNs 1 ms apart, then the SYN-ACK of the first: with a store all but the
 * SYNs of the last 10 ms leave memory (the first comes back for its SYN-ACK), each costing at
 * most 512 bytes on the heap; every connection reads back as without a store. */
START_TEST(test_half_open_retired)
{
    enum { N = 5000 };
    struct mem_store m = {0};
    struct tn_analysis_cfg cfg = {.spill_put = mem_put, .spill_get = mem_get, .spill_arg = &m};
    struct tn_pkt *v = tn_xcalloc(N + 1, sizeof *v);
    for (uint32_t i = 0; i < N; i++)
        v[i] = pkt_of(i, true, 1000, 0, S, 0, T0 + (int64_t)i * 1000000);
    v[N] = pkt_of(0, false, 5000, 1001, S | A, 0, T0 + (int64_t)N * 1000000);
    size_t before = heap_in_use();
    struct tn_analyzer *an = tn_analyzer_new(&cfg);
    for (size_t k = 0; k < N; k++)
        tn_analyzer_add(an, &v[k], TN_DIS_OK, "test");
    size_t per_syn = (heap_in_use() - before - m.cap) / N;
    tn_analyzer_add(an, &v[N], TN_DIS_OK, "test");
    ck_assert_uint_ge(tn_analyzer_retired(an), N - 12);
    ck_assert_uint_eq(m.gets, 1);   /* connection 1, back for its SYN-ACK */
    struct tn_analyzer *kept = tn_analyzer_new(NULL);
    for (size_t k = 0; k <= N; k++)
        tn_analyzer_add(kept, &v[k], TN_DIS_OK, "test");
    tn_analyzer_finish(an);
    tn_analyzer_finish(kept);
    ck_assert_uint_eq(tn_analyzer_conn_count(an), N);
    for (size_t k = 0; k < N; k++)
        same_conn_results(tn_analyzer_conn(kept, k), tn_analyzer_conn(an, k));
    ck_assert_uint_eq(tn_analyzer_conn(an, 0)->d[TN_B2A].pkts, 1);
    tn_analyzer_free(kept);
    tn_analyzer_free(an);
    free(m.p);
    free(v);
    ck_assert_uint_le(per_syn, 512);
}
END_TEST

/* DFCP connection i over UDP: 10.1.x.y:(5000 + i % 50000) -> 10.0.0.2:9253, at t_ns. */
static struct tn_pkt dfcp_of(uint32_t i, bool from_sender, uint8_t type, uint32_t block, uint16_t sym,
                             uint32_t len, int64_t t_ns)
{
    struct tn_pkt p;
    memset(&p, 0, sizeof p);
    p.kind = TN_PK_DFCP;
    p.ipver = 4;
    p.src.family = p.dst.family = 4;
    uint8_t snd[4] = {10, 1, (uint8_t)(i >> 8), (uint8_t)i}, rcv[4] = {10, 0, 0, 2};
    memcpy(p.src.a, from_sender ? snd : rcv, 4);
    memcpy(p.dst.a, from_sender ? rcv : snd, 4);
    uint16_t port = (uint16_t)(5000 + i % 50000);
    p.sport = from_sender ? port : 9253;
    p.dport = from_sender ? 9253 : port;
    p.dfcp.version = 1;
    p.dfcp.type = type;
    p.dfcp.flags = TN_DFCP_F_ACKING;
    p.dfcp.n = 4;
    p.dfcp.block = block;
    p.dfcp.sym_idx = sym;
    p.dfcp.window = 100;
    p.dfcp.k = 3000;
    p.dfcp.over_udp = true;
    p.payload_len = p.payload_caplen = len;
    p.wirelen = p.caplen = 62 + len;
    p.ts.sec = t_ns / 1000000000;
    p.ts.nsec = (uint32_t)(t_ns % 1000000000);
    return p;
}

/* Memory follows the open connections, DFCP ones too: 3000 connections 1 ms apart that never
 * close, DFCP ones a handshake and a block of 4 symbols (every 10th closed with FIN and FINACK
 * both ways), every 4th a TCP handshake and nothing more, with an idle time of 100 ms.  With a
 * store, the DFCP connections in memory never exceed those of the last 100 ms plus a sweep's
 * 200 ms (~300: 400 allowed), against all of them without; at the end all but those are
 * retired.  The TCP ones stay (their ACK started sender state, which the store does not keep).
 * DFCP connection 1's symbol 5 s later brings it back whole, and every connection reads back
 * as without a store (counters, TCP and DFCP inference, blocks, events, brief). */
START_TEST(test_idle_retired)
{
    enum { N = 3000, MAXV = 10 * N + 1 };
    struct tn_pkt *v = tn_xcalloc(MAXV, sizeof *v);
    size_t n = 0;
    for (uint32_t i = 0; i < N; i++) {
        int64_t t = T0 + (int64_t)i * 1000000;
        if (i % 4 == 0) {
            v[n++] = pkt_of(i, true, 100, 0, S, 0, t);
            v[n++] = pkt_of(i, false, 500, 101, S | A, 0, t + 300000);
            v[n++] = pkt_of(i, true, 101, 501, A, 0, t + 600000);
            continue;
        }
        v[n++] = dfcp_of(i, true, TN_DFCP_T_SYN, 0, 0, 0, t);
        v[n++] = dfcp_of(i, false, TN_DFCP_T_SYNACK, 0, 0, 0, t + 100000);
        for (uint16_t k = 0; k < 4; k++)
            v[n++] = dfcp_of(i, true, TN_DFCP_T_DATA, 0, k, 1000, t + 200000 + k * 100000);
        if (i % 10 == 1) {
            v[n++] = dfcp_of(i, true, TN_DFCP_T_FIN, 0, 0, 0, t + 700000);
            v[n++] = dfcp_of(i, false, TN_DFCP_T_FINACK, 0, 0, 0, t + 750000);
            v[n++] = dfcp_of(i, false, TN_DFCP_T_FIN, 0, 0, 0, t + 800000);
            v[n++] = dfcp_of(i, true, TN_DFCP_T_FINACK, 0, 0, 0, t + 850000);
        }
    }
    v[n++] = dfcp_of(1, true, TN_DFCP_T_DATA, 1, 0, 1000, T0 + (int64_t)N * 1000000 + 5000000000LL);
    for (size_t k = 0; k < n; k++)
        v[k].num = k + 1;
    qsort(v, n, sizeof *v, cmp_pkt_time);

    struct mem_store m = {0};
    struct tn_analysis_cfg rec = {.record_events = true};
    struct tn_analysis_cfg cfg = rec;
    cfg.spill_put = mem_put;
    cfg.spill_get = mem_get;
    cfg.spill_arg = &m;
    cfg.idle_retire_ns = 100000000;
    struct tn_analyzer *an = tn_analyzer_new(&cfg), *kept = tn_analyzer_new(&rec);
    size_t most_whole = 0, ntcp = N / 4, ndfcp = N - ntcp;
    for (size_t k = 0; k < n; k++) {
        tn_analyzer_add(an, &v[k], TN_DIS_OK, "test");
        tn_analyzer_add(kept, &v[k], TN_DIS_OK, "test");
        size_t whole = tn_analyzer_conn_count(an) - tn_analyzer_retired(an);
        if (whole > most_whole)
            most_whole = whole;
    }
    ck_assert_uint_eq(tn_analyzer_conn_count(an), N);
    ck_assert_uint_le(most_whole, ntcp + 400);
    ck_assert_uint_ge(tn_analyzer_retired(an), ndfcp - 400);
    ck_assert_uint_ge(m.gets, 1);   /* connection 2, back for its late symbol */
    ck_assert_uint_eq(tn_analyzer_retired(kept), 0);
    tn_analyzer_finish(an);
    tn_analyzer_finish(kept);
    for (size_t k = 0; k < N; k++) {
        const struct tn_conn *a = tn_analyzer_conn(kept, k);
        struct tn_conn_brief ba, bb;
        tn_conn_brief_of(a, &ba);
        tn_analyzer_brief(an, k, &bb);
        ck_assert(ba.state == bb.state && ba.pkts[0] == bb.pkts[0] && ba.pkts[1] == bb.pkts[1] &&
                  ba.capture_gaps == bb.capture_gaps && ba.data_bytes[0] == bb.data_bytes[0]);
        const struct tn_conn *b = tn_analyzer_conn(an, k);
        same_conn_results(a, b);
        ck_assert_uint_eq(a->proto, b->proto);
        ck_assert_uint_eq(a->nevents, b->nevents);
        for (size_t e = 0; e < a->nevents; e++) {
            const struct tn_event *x = &a->events[e], *y = &b->events[e];
            ck_assert(x->t_ns == y->t_ns && x->pkt == y->pkt && x->seq == y->seq && x->len == y->len &&
                      x->kind == y->kind && x->dir == y->dir && strcmp(x->detail, y->detail) == 0);
        }
        if (a->proto == TN_PK_DFCP) {
            ck_assert(memcmp(a->dfcp, b->dfcp, sizeof *a->dfcp) == 0);
            ck_assert_uint_eq(a->nblocks, b->nblocks);
            ck_assert_uint_eq(a->nblocks, k == 1 ? 2 : 1);
            ck_assert_int_eq(tn_conn_state(a), (k % 10 == 1) ? TN_ST_COMPLETE : TN_ST_OPEN);
        }
    }
    const struct tn_conn *c1 = tn_analyzer_conn_by_number(an, 2);
    ck_assert_uint_eq(c1->proto, TN_PK_DFCP);
    ck_assert_uint_eq(c1->d[TN_A2B].pkts, 8);   /* SYN, 4 symbols, FIN, FINACK, the late symbol */
    tn_analyzer_free(kept);
    tn_analyzer_free(an);
    free(m.p);
    free(v);
}
END_TEST

/* Live runs retire idle connections (tn_analyzer_retire_idle, --idle-timeout).  With a store, one
 * that carried data and never closed (its sender state held to the end otherwise) goes there
 * finished, leaving its brief, where without a store a 3 KB summary stays in memory: 400 such
 * connections 10 ms apart, swept every 100 ms of trace time at 50 ms idle.  At most those of the
 * last 150 ms stay whole; each reads back as the summary of the run without a store says
 * (counters, inference, state, brief); a later packet of connection 1's endpoints starts a new
 * connection in both runs (it does not bring connection 1 back), which keeps its packets. */
START_TEST(test_live_idle_retired_to_store)
{
    enum { N = 400 };
    const int64_t gap = 10000000, sweep = 100000000, idle = 50000000;
    struct mem_store m = {0};
    struct tn_analysis_cfg cfg = {.spill_put = mem_put, .spill_get = mem_get, .spill_arg = &m};
    struct tn_analyzer *st = tn_analyzer_new(&cfg), *sum = tn_analyzer_new(NULL);
    int64_t next_sweep = T0 + sweep;
    size_t most_whole = 0;
    for (uint32_t i = 0; i < N; i++) {
        int64_t t = T0 + (int64_t)i * gap;
        struct tn_pkt v[] = {
            pkt_of(i, true, 100, 0, S, 0, t),
            pkt_of(i, false, 500, 101, S | A, 0, t + 100000),
            pkt_of(i, true, 101, 501, A, 0, t + 200000),
            pkt_of(i, true, 101, 501, A | P, 100, t + 300000),
            pkt_of(i, false, 501, 201, A, 0, t + 400000),
        };
        for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) {
            tn_analyzer_add(st, &v[k], TN_DIS_OK, "test");
            tn_analyzer_add(sum, &v[k], TN_DIS_OK, "test");
        }
        if (t >= next_sweep) {
            ck_assert_uint_eq(tn_analyzer_retire_idle(st, t, idle),
                              tn_analyzer_retire_idle(sum, t, idle));
            next_sweep += sweep;
        }
        size_t whole = tn_analyzer_conn_count(st) - tn_analyzer_retired(st);
        most_whole = whole > most_whole ? whole : most_whole;
    }
    ck_assert_uint_le(most_whole, 16);
    ck_assert_uint_ge(tn_analyzer_retired(st), N - 16);
    ck_assert_uint_eq(m.puts, tn_analyzer_retired(st));
    ck_assert_uint_eq(tn_analyzer_retired(sum), 0);
    struct tn_pkt late = pkt_of(0, true, 201, 501, A | P, 50, T0 + (int64_t)N * gap + 1000000000);
    tn_analyzer_add(st, &late, TN_DIS_OK, "test");
    tn_analyzer_add(sum, &late, TN_DIS_OK, "test");
    ck_assert_uint_eq(m.gets, 0);   /* not brought back */
    tn_analyzer_finish(st);
    tn_analyzer_finish(sum);
    ck_assert_uint_eq(tn_analyzer_conn_count(st), N + 1);
    ck_assert_uint_eq(tn_analyzer_conn_count(sum), N + 1);
    for (size_t k = 0; k <= N; k++) {
        const struct tn_conn *a = tn_analyzer_conn(sum, k);
        struct tn_conn_brief ba, bb;
        tn_conn_brief_of(a, &ba);
        tn_analyzer_brief(st, k, &bb);
        ck_assert(ba.state == bb.state && ba.pkts[0] == bb.pkts[0] && ba.pkts[1] == bb.pkts[1] &&
                  ba.data_bytes[0] == bb.data_bytes[0] && ba.data_bytes[1] == bb.data_bytes[1]);
        ck_assert(a->retired == bb.retired);   /* a summary without the store, a brief with it */
        same_conn_results(a, tn_analyzer_conn(st, k));
    }
    ck_assert_uint_eq(tn_analyzer_conn(st, 0)->d[TN_A2B].pkts, 3);
    ck_assert_uint_eq(tn_analyzer_conn(st, N)->d[TN_A2B].pkts, 1);
    ck_assert_uint_eq(tn_analyzer_conn(st, N)->d[TN_A2B].data_bytes, 50);
    tn_analyzer_free(st);
    tn_analyzer_free(sum);
    free(m.p);
}
END_TEST

/* A live run's store with its briefs written out of memory (cfg.brief_put, as cli/retire.c's
 * second file): the connections' bytes in m (first: mem_put and mem_get take the pointer), the
 * briefs one after the other in v. */
struct flat_store {
    struct mem_store m;
    struct tn_conn_brief *v;
    size_t n, cap;
};

static bool briefs_put(void *arg, unsigned shard, const struct tn_conn_brief *b)
{
    (void)shard;
    struct flat_store *fs = arg;
    tn_grow((void **)&fs->v, &fs->cap, fs->n + 1, sizeof *fs->v);
    fs->v[fs->n++] = *b;
    return true;
}

static void briefs_each(void *arg, unsigned shard, void (*each)(void *ctx, const struct tn_conn_brief *b), void *ctx)
{
    (void)shard;
    struct flat_store *fs = arg;
    for (size_t i = 0; i < fs->n; i++)
        each(ctx, &fs->v[i]);
}

static struct tn_analysis_cfg flat_cfg(struct flat_store *fs, int64_t time_wait_ns, int64_t idle_ns)
{
    return (struct tn_analysis_cfg){.spill_put = mem_put, .spill_get = mem_get, .spill_arg = fs,
                                    .idle_retire_ns = idle_ns, .time_wait_ns = time_wait_ns,
                                    .brief_put = briefs_put, .brief_each = briefs_each};
}

/* A mirror port's memory stays flat (issue 12): 1500 units 10 ms apart of a complete short
 * connection and a lone SYN, with a TIME-WAIT of 1 s and an idle timeout of 2 s, leave at most
 * about 400 connections in the list at any time (the last 2 s of SYNs, the last 1 s of closed
 * ones, and a third more of due ones waiting to be written out together), where a run that keeps the
 * briefs lists all 3000; at the end the 3000 are read back into their places, and every
 * brief, number, counter and result is the one of the run that kept them. */
START_TEST(test_live_briefs_leave_memory)
{
    enum { N = 1500 };
    const int64_t gap = 10000000, time_wait = 1000000000, idle = 2000000000;
    struct flat_store fs = {0};
    struct mem_store km = {0};
    struct tn_analysis_cfg fcfg = flat_cfg(&fs, time_wait, idle);
    struct tn_analysis_cfg kcfg = {.spill_put = mem_put, .spill_get = mem_get, .spill_arg = &km, .idle_retire_ns = idle};
    struct tn_analyzer *flat = tn_analyzer_new(&fcfg), *kept = tn_analyzer_new(&kcfg);
    size_t most = 0;
    for (uint32_t i = 0; i < N; i++) {
        int64_t t = T0 + (int64_t)i * gap;
        struct tn_pkt v[9];
        size_t n = short_conn_pkts(v, 2 * i, t);
        v[n++] = pkt_of(2 * i + 1, true, 100, 0, S, 0, t + 8000000);
        for (size_t k = 0; k < n; k++) {
            tn_analyzer_add(flat, &v[k], TN_DIS_OK, "test");
            tn_analyzer_add(kept, &v[k], TN_DIS_OK, "test");
        }
        size_t listed = tn_analyzer_conn_count(flat);
        most = listed > most ? listed : most;
    }
    ck_assert_uint_eq(tn_analyzer_conn_count(kept), 2 * N);
    ck_assert_uint_le(most, 450);
    ck_assert_uint_ge(tn_analyzer_stats(flat)->listed_peak, most);
    ck_assert_uint_le(tn_analyzer_stats(flat)->listed_peak, 450);
    ck_assert_uint_ge(fs.n, 2 * N - 450);
    ck_assert_uint_eq(tn_analyzer_stats(flat)->briefs_out, fs.n);
    tn_analyzer_finish(flat);
    tn_analyzer_finish(kept);
    ck_assert_uint_eq(tn_analyzer_conn_count(flat), 2 * N);
    for (size_t k = 0; k < 2 * N; k++) {
        struct tn_conn_brief bf, bk;
        tn_analyzer_brief(flat, k, &bf);
        tn_analyzer_brief(kept, k, &bk);
        ck_assert_uint_eq(bf.idx, k + 1);
        ck_assert(memcmp(&bf, &bk, sizeof bf) == 0);   /* the same bytes in the same store places */
        same_conn_results(tn_analyzer_conn(kept, k), tn_analyzer_conn(flat, k));
    }
    tn_analyzer_free(flat);
    tn_analyzer_free(kept);
    free(fs.m.p);
    free(fs.v);
    free(km.p);
}
END_TEST

/* Within its TIME-WAIT a late packet of a closed connection still finds it (its resent FIN is
 * counted on it); after it, a packet of the same endpoints starts a new connection, as after
 * --idle-timeout. */
START_TEST(test_live_brief_gone_after_time_wait)
{
    const int64_t s = 1000000000;
    struct flat_store fs = {0};
    struct tn_analysis_cfg cfg = flat_cfg(&fs, s, 2 * s);
    struct tn_analyzer *an = tn_analyzer_new(&cfg);
    struct tn_pkt v[2 * 8 + 3];
    size_t n = short_conn_pkts(v, 0, T0);
    n += short_conn_pkts(v + n, 1, T0 + 10000000);
    v[n++] = pkt_of(0, false, 601, 202, F | A, 0, T0 + s / 2);   /* conn 0's FIN again */
    v[n++] = pkt_of(7, true, 100, 0, S, 0, T0 + 5 * s / 2);      /* moves the clock on */
    v[n++] = pkt_of(1, true, 202, 602, A, 0, T0 + 3 * s);        /* conn 1's, 3 s late */
    for (size_t k = 0; k < n; k++)
        tn_analyzer_add(an, &v[k], TN_DIS_OK, "test");
    ck_assert_uint_eq(fs.n, 2);
    ck_assert_uint_eq(tn_analyzer_conn_count(an), 2);   /* the SYN and conn 1's new one */
    tn_analyzer_finish(an);
    ck_assert_uint_eq(tn_analyzer_conn_count(an), 4);
    ck_assert_uint_eq(tn_analyzer_conn(an, 0)->d[TN_B2A].fin, 2);
    const struct tn_conn *c1 = tn_analyzer_conn(an, 1);
    ck_assert_uint_eq(c1->d[TN_A2B].pkts, 5);
    uint16_t c1_port = c1->a_port;   /* (the next read takes the reading slot c1 lies in) */
    const struct tn_conn *late = tn_analyzer_conn(an, 3);
    ck_assert_uint_eq(late->idx, 4);
    ck_assert_uint_eq(late->a_port, c1_port);
    ck_assert_uint_eq(late->d[TN_A2B].pkts + late->d[TN_B2A].pkts, 1);
    tn_analyzer_free(an);
    free(fs.m.p);
    free(fs.v);
}
END_TEST

/* A connection that is one SYN carrying 4708 bytes (tcpdump's bgp-ub.pcap; TCP Fast Open sends
 * data on SYNs too): its sender's results are written when it finishes, so it cannot share the
 * lone SYNs' read-only zeros (it crashed the program). */
START_TEST(test_syn_with_data_alone)
{
    struct tn_analysis_cfg cfg = {0};
    struct tn_analyzer *an = tn_analyzer_new(&cfg);
    struct tn_pkt p = pkt_of(1, true, 0, 0, S, 4708, T0);
    tn_analyzer_add(an, &p, TN_DIS_OK, "t");
    tn_analyzer_finish(an);
    ck_assert_uint_eq(tn_analyzer_conn_count(an), 1);
    const struct tn_conn *c = tn_analyzer_conn(an, 0);
    ck_assert_uint_eq(c->d[TN_A2B].data_bytes, 4708);
    ck_assert_int_eq(c->inf[TN_A2B].flavor, TN_CC_UNKNOWN);
    tn_analyzer_free(an);
}
END_TEST

Suite *tn_scale_suite(void)
{
    Suite *s = suite_create("scale");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_flow_hash_symmetric);
    tcase_add_test(tc, test_many_connections);
    tcase_add_test(tc, test_closed_connection_finished_when_quiet);
    tcase_add_test(tc, test_eviction_half_open_first);
    tcase_add_test(tc, test_shards_merge_like_one);
    tcase_add_test(tc, test_syn_with_data_alone);
    tcase_add_test(tc, test_retired_same_as_kept);
    tcase_add_test(tc, test_long_report_threads);
    tcase_add_test(tc, test_list_threads);
    tcase_add_test(tc, test_shards_balance_flows);
    tcase_add_test(tc, test_csv_reads_retired_once);
    tcase_add_test(tc, test_retired_bytes);
    tcase_add_test(tc, test_half_open_retired);
    tcase_add_test(tc, test_idle_retired);
    tcase_add_test(tc, test_live_idle_retired_to_store);
    tcase_add_test(tc, test_live_briefs_leave_memory);
    tcase_add_test(tc, test_live_brief_gone_after_time_wait);
    suite_add_tcase(s, tc);
    return s;
}
