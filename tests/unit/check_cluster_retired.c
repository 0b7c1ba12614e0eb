/* check_cluster_retired.c - the connections a rank retires during an MPI run, as rank 0 takes
 * them (cluster_wire.c's tn_cluster_retired_adopt, docs/cluster.md), without MPI: a real
 * connection's brief and bytes are adopted, into the store or whole, and read back as they were;
 * a connection that came again is kept once, its last copy (tn_analyzer_keep_latest); and a
 * stream is refused whose bytes are cut (fuzz_retired found rank 0 then read a NULL connection
 * back from its store) or run on past the connection, whose bytes hold a value the analysis
 * never makes after the summary, or whose brief does not describe its connection. */
#include <check.h>
#include <stddef.h>
#include <string.h>

#include "analysis.h"
#include "analysis_int.h" /* struct tn_conn_priv: the state a retired connection's bytes hold */
#include "cluster_wire.h"
#include "mem_store.h"
#include "pipeline_helper.h"
#include "tcp_pkt_helper.h"

#define SAMPLE TN_SAMPLES_DIR "/cubic-loss1-owd10/snd1_eth0.pcap" /* CUBIC with losses: events */

static struct tn_analyzer *sample;

/* The sample's connection with events: finished, whole (its sender state released). */
static const struct tn_conn_priv *real_conn(void)
{
    struct tn_analysis_cfg cfg = {.record_events = true};
    sample = tn_test_load(SAMPLE, &cfg);
    ck_assert_ptr_nonnull(sample);
    for (size_t i = 0; i < tn_analyzer_conn_count(sample); i++)
        if (tn_analyzer_conn(sample, i)->nevents > 0)
            return (const struct tn_conn_priv *)tn_analyzer_conn(sample, i);
    ck_abort_msg("no connection with events in " SAMPLE);
    return NULL;
}

/* Its brief as tn_analyzer_retire_conn makes it. */
static struct tn_conn_brief brief_of(const struct tn_conn_priv *cp)
{
    struct tn_conn_brief b;
    tn_conn_brief_of(&cp->pub, &b);
    b.retired = true;
    return b;
}

/* cp's whole state after brief b, as on_retire streams them; `more` bytes added to its bytes
 * (a negative number cuts them). */
static void put(const struct tn_conn_priv *cp, const struct tn_conn_brief *b, int more,
                struct tn_packbuf *out)
{
    struct tn_packbuf bytes = {0};
    tn_conn_priv_pack(cp, &bytes);
    for (int i = 0; i < more; i++)
        tn_packbuf_put(&bytes, (uint8_t[1]){0}, 1);
    bytes.n -= more < 0 ? (size_t)-more : 0;
    tn_cluster_retired_pack(b, bytes.p, bytes.n, out);
    tn_packbuf_fini(&bytes);
}

/* Rank 0's analysis settings, with the store m or without one. */
static struct tn_analysis_cfg rank0_cfg(bool store, struct mem_store *m)
{
    if (!store)
        return (struct tn_analysis_cfg){.record_events = true};
    return (struct tn_analysis_cfg){
        .record_events = true, .spill_put = mem_put, .spill_get = mem_get, .spill_arg = m};
}

/* Rank 0 taking stream s, with a store or without: tn_cluster_retired_adopt's result. */
static int adopt(const struct tn_packbuf *s, bool store)
{
    struct mem_store m = {0};
    struct tn_analysis_cfg cfg = rank0_cfg(store, &m);
    struct tn_analyzer *an = tn_analyzer_new(&cfg);
    struct tn_cluster_taken taken = {0};
    int r = tn_cluster_retired_adopt(s->p, s->n, an, 1, 1, &taken);
    free(taken.idx);
    tn_analyzer_free(an);
    free(m.p);
    return r;
}

/* Rank 0 adopts the other rank's stream s, with a store (m) or without; returns its analyzer
 * and, in *ntaken, how many connections a later packet could name. */
static struct tn_analyzer *adopt_at_rank0(const struct tn_packbuf *s, bool store, struct mem_store *m, size_t *ntaken)
{
    struct tn_analysis_cfg cfg = rank0_cfg(store, m);
    struct tn_analyzer *an = tn_analyzer_new(&cfg);
    struct tn_cluster_taken taken = {0};
    ck_assert_int_eq(tn_cluster_retired_adopt(s->p, s->n, an, 1, 1, &taken), 0);
    *ntaken = taken.n;
    free(taken.idx);
    return an;
}

START_TEST(test_retired_taken)
{
    const struct tn_conn_priv *cp = real_conn();
    const struct tn_conn *c = &cp->pub;
    struct tn_conn_brief b = brief_of(cp);
    struct tn_packbuf s = {0};
    put(cp, &b, 0, &s);
    for (int store = 0; store < 2; store++) {
        struct mem_store m = {0};
        size_t ntaken;
        struct tn_analyzer *an = adopt_at_rank0(&s, store, &m, &ntaken);
        ck_assert_uint_eq(ntaken, 1);
        ck_assert_uint_eq(tn_analyzer_conn_count(an), 1);
        /* with a store its brief only, the connection read back from the store */
        ck_assert_uint_eq(tn_analyzer_retired(an), (size_t)store);
        const struct tn_conn *got = tn_analyzer_conn(an, 0);
        ck_assert_uint_eq(got->ord, c->ord);
        ck_assert_uint_eq(got->d[0].pkts, c->d[0].pkts);
        ck_assert_uint_eq(got->d[1].data_bytes, c->d[1].data_bytes);
        ck_assert_uint_eq(got->nevents, c->nevents);
        ck_assert_int_eq(memcmp(got->events, c->events, c->nevents * sizeof *c->events), 0);
        tn_analyzer_free(an);
        free(m.p);
    }
    tn_packbuf_fini(&s);
    tn_analyzer_free(sample);
}
END_TEST

/* Retired twice, then sent whole at the end (a late packet brought it back each time): one
 * connection, the copy sent last. */
START_TEST(test_retired_came_again)
{
    const struct tn_conn_priv *cp = real_conn();
    struct tn_conn_brief b = brief_of(cp);
    struct tn_packbuf s = {0}, end = {0};
    put(cp, &b, 0, &s);
    put(cp, &b, 0, &s);
    tn_conn_pack(&cp->pub, &end);
    struct mem_store m = {0};
    struct tn_analysis_cfg cfg = {.spill_put = mem_put, .spill_get = mem_get, .spill_arg = &m};
    struct tn_analyzer *an = tn_analyzer_new(&cfg);
    struct tn_cluster_taken taken = {0};
    ck_assert_int_eq(tn_cluster_retired_adopt(s.p, s.n, an, 1, 1, &taken), 0);
    free(taken.idx);
    ck_assert_int_eq(tn_cluster_conns_unpack(end.p, end.n, an), 0);
    ck_assert_uint_eq(tn_analyzer_conn_count(an), 3);
    ck_assert_uint_eq(tn_analyzer_keep_latest(an), 2);
    ck_assert_uint_eq(tn_analyzer_conn_count(an), 1);
    ck_assert_uint_eq(tn_analyzer_retired(an), 0); /* the whole copy, not a brief */
    tn_analyzer_free(an);
    free(m.p);
    tn_packbuf_fini(&s);
    tn_packbuf_fini(&end);
    tn_analyzer_free(sample);
}
END_TEST

/* The stream of cp (changed, with `more` bytes) and brief b is refused, with a store and without. */
static void refused(const struct tn_conn_priv *cp, const struct tn_conn_brief *b, int more,
                    const char *what)
{
    struct tn_packbuf s = {0};
    put(cp, b, more, &s);
    ck_assert_msg(adopt(&s, true) < 0, "with a store, a retired connection with %s was taken",
                  what);
    ck_assert_msg(adopt(&s, false) < 0, "without a store, a retired connection with %s was taken",
                  what);
    tn_packbuf_fini(&s);
}

START_TEST(test_retired_foreign_refused)
{
    const struct tn_conn_priv *cp = real_conn();
    const struct tn_conn_brief b0 = brief_of(cp);
    struct tn_conn_brief b = b0;
    struct tn_packbuf s = {0};
    put(cp, &b, 0, &s);
    ck_assert_int_eq(adopt(&s, true), 0); /* as made, taken */
    tn_packbuf_fini(&s);
    refused(cp, &b, -1, "its bytes cut by one");
    refused(cp, &b, 1, "a byte after its bytes");
    /* the state after the summary (it shares cp's arrays: packed, never freed) */
    struct tn_conn_priv x = *cp;
    memset(&x.inferred, 2, 1); /* a bool that holds 2 */
    refused(&x, &b, 0, "a bool holding 2 after its summary");
    x = *cp;
    x.rst_dir = 5;
    refused(&x, &b, 0, "an RST direction of 5");
    x = *cp;
    x.dp[1].last_pkt_ns = -1;
    refused(&x, &b, 0, "a packet time before 1970 after its summary");
    /* briefs that do not describe their connection */
    b.pkts[0]++;
    refused(cp, &b, 0, "a brief counting another number of packets");
    b = b0;
    b.a_port ^= 1;
    refused(cp, &b, 0, "a brief naming another port");
    b = b0;
    b.ord++;
    refused(cp, &b, 0, "a brief with another first packet");
    b = b0;
    b.unfinished = true;
    refused(cp, &b, 0, "a brief marked unfinished");
    tn_analyzer_free(sample);
}
END_TEST

/* ---- a rank keeps no copy of what it sent (cfg.on_away) ---- */

/* 10.0.0.1:40000 -> 10.0.0.2:80 (sport moved by `other`), packet `num` of file 0 at ms. */
static struct tn_pkt pkt(bool client, uint32_t seq, uint32_t ack, uint8_t flags, uint32_t len, int ms, int other,
                         uint64_t num)
{
    struct tn_pkt p = tn_test_tcp(client, seq, ack, flags, 65535, len, 1700000000000000000LL + ms * 1000000LL, num);
    if (client)
        p.sport = (uint16_t)(p.sport + other);
    else
        p.dport = (uint16_t)(p.dport + other);
    return p;
}

/* A connection that closes, another one's SYN 300 ms later (the first one's 200 ms of quiet are
 * over: it retires), a late ACK of the first one, then its port reused. */
static size_t away_trace(struct tn_pkt *v)
{
    size_t n = 0;
    enum { S = TN_TCP_SYN, A = TN_TCP_ACK, F = TN_TCP_FIN, P = TN_TCP_PSH };
    v[n] = pkt(true, 1000, 0, S, 0, 0, 0, n + 1), n++;
    v[n] = pkt(false, 5000, 1001, S | A, 0, 1, 0, n + 1), n++;
    v[n] = pkt(true, 1001, 5001, A, 0, 2, 0, n + 1), n++;
    v[n] = pkt(true, 1001, 5001, A | P, 100, 3, 0, n + 1), n++;
    v[n] = pkt(false, 5001, 1101, A, 0, 4, 0, n + 1), n++;
    v[n] = pkt(true, 1101, 5001, F | A, 0, 5, 0, n + 1), n++;
    v[n] = pkt(false, 5001, 1102, F | A, 0, 6, 0, n + 1), n++;
    v[n] = pkt(true, 1102, 5002, A, 0, 7, 0, n + 1), n++;
    v[n] = pkt(true, 7000, 0, S, 0, 300, 1, n + 1), n++;       /* another connection */
    v[n] = pkt(true, 1102, 5002, A, 0, 1000, 0, n + 1), n++;   /* late */
    v[n] = pkt(true, 9000, 0, S, 0, 2000, 0, n + 1), n++;      /* the port reused */
    v[n] = pkt(false, 3000, 9001, S | A, 0, 2001, 0, n + 1), n++;
    return n;
}

struct away_rank {
    struct tn_packbuf stream;   /* what goes to rank 0 */
    unsigned retired, late;
};

static uint64_t away_retire(void *arg, const struct tn_conn_brief *b, const void *bytes, size_t n)
{
    struct away_rank *r = arg;
    tn_cluster_retired_pack(b, bytes, n, &r->stream);
    return r->retired++;
}

static void away_pkt(void *arg, uint64_t id, const struct tn_pkt *p, struct tn_pkt_place place)
{
    struct away_rank *r = arg;
    ck_assert_uint_eq(id, 0); /* the one connection retired */
    tn_cluster_away_pack(id, p, place, &r->stream);
    r->late++;
}

/* A rank other than 0 writes nothing to its own store for the connection it finished and sent to
 * rank 0, and gives rank 0 its later packets; rank 0 (with a store, or without: adopted whole)
 * analyses them there, and the connections are what one analyzer makes of the whole trace. */
START_TEST(test_retired_away)
{
    struct tn_pkt v[16];
    size_t n = away_trace(v);
    /* one analyzer, with a store */
    struct mem_store m1 = {0};
    struct tn_analysis_cfg one_cfg = {.spill_put = mem_put, .spill_get = mem_get, .spill_arg = &m1};
    struct tn_analyzer *one = tn_analyzer_new(&one_cfg);
    for (size_t i = 0; i < n; i++)
        tn_analyzer_add(one, &v[i], 0, "t.pcap");
    tn_analyzer_finish(one);
    ck_assert_uint_eq(tn_analyzer_conn_count(one), 3);
    ck_assert_uint_ge(m1.puts, 1); /* it did retire the first one to its store */
    /* the rank: its store gets nothing */
    struct away_rank r = {0};
    struct mem_store mr = {0};
    struct tn_analysis_cfg rank_cfg = {.spill_put = mem_put, .spill_get = mem_get, .spill_arg = &mr,
                                       .on_retire = away_retire, .on_away = away_pkt, .on_retire_arg = &r};
    struct tn_analyzer *rank = tn_analyzer_new(&rank_cfg);
    for (size_t i = 0; i < n; i++)
        tn_analyzer_add(rank, &v[i], 0, "t.pcap");
    ck_assert_uint_eq(r.retired, 1);
    ck_assert_uint_eq(mr.puts, 0);
    ck_assert_uint_eq(r.late, 3);
    tn_analyzer_finish(rank);
    ck_assert_uint_eq(tn_analyzer_retired(rank), 1);
    for (int store = 0; store < 2; store++) {
        struct mem_store m0 = {0};
        struct tn_analysis_cfg cfg = rank0_cfg(store, &m0);
        cfg.record_events = false;
        struct tn_analyzer *r0 = tn_analyzer_new(&cfg);
        struct tn_cluster_taken taken = {0};
        ck_assert_int_eq(tn_cluster_retired_adopt(r.stream.p, r.stream.n, r0, 1, 1, &taken), 0);
        tn_analyzer_finish(r0);
        /* the first connection with its late packet, and the one on the reused port */
        ck_assert_uint_eq(tn_analyzer_conn_count(r0), 2);
        for (size_t i = 0; i < 2; i++) {
            const struct tn_conn *want = tn_analyzer_conn(one, i == 0 ? 0 : 2);
            struct tn_dir_stats d0 = want->d[0], d1 = want->d[1];
            uint64_t ord = want->ord;
            const struct tn_conn *got = tn_analyzer_conn(r0, i);
            ck_assert_uint_eq(got->ord, ord);
            ck_assert_int_eq(memcmp(&got->d[0], &d0, sizeof d0), 0);
            ck_assert_int_eq(memcmp(&got->d[1], &d1, sizeof d1), 0);
        }
        /* a packet of other endpoints than its connection's, or naming no connection, is refused */
        struct tn_packbuf bad = {0};
        tn_cluster_away_pack(0, &v[8], (struct tn_pkt_place){.ord = 9}, &bad);
        ck_assert_int_lt(tn_cluster_retired_adopt(bad.p, bad.n, r0, 1, 1, &taken), 0);
        bad.n = 0;
        tn_cluster_away_pack(1, &v[8], (struct tn_pkt_place){.ord = 9}, &bad);
        ck_assert_int_lt(tn_cluster_retired_adopt(bad.p, bad.n, r0, 1, 1, &taken), 0);
        tn_packbuf_fini(&bad);
        free(taken.idx);
        tn_analyzer_free(r0);
        free(m0.p);
    }
    tn_packbuf_fini(&r.stream);
    tn_analyzer_free(rank);
    tn_analyzer_free(one);
    free(mr.p);
    free(m1.p);
}
END_TEST

/* For outputs that read only briefs a rank sends a connection's brief alone: rank 0 takes it,
 * with a store or without, as that brief; a brief that does not read as one is refused. */
START_TEST(test_retired_brief_alone)
{
    const struct tn_conn_priv *cp = real_conn();
    struct tn_conn_brief b;
    tn_conn_brief_of(&cp->pub, &b); /* open at the end: not marked retired */
    struct tn_packbuf s = {0};
    tn_cluster_brief_pack(&b, &s);
    ck_assert_uint_eq(s.n, 1 + sizeof b);
    for (int store = 0; store < 2; store++) {
        struct mem_store m = {0};
        size_t ntaken;
        struct tn_analyzer *an = adopt_at_rank0(&s, store, &m, &ntaken);
        ck_assert_uint_eq(ntaken, 0); /* no later packet can name it */
        ck_assert_uint_eq(tn_analyzer_conn_count(an), 1);
        ck_assert_uint_eq(tn_analyzer_retired(an), 1);
        struct tn_conn_brief got;
        tn_analyzer_brief(an, 0, &got);
        ck_assert_uint_eq(got.ord, b.ord);
        ck_assert_uint_eq(got.pkts[1], b.pkts[1]);
        ck_assert_uint_eq(got.data_bytes[0], b.data_bytes[0]);
        ck_assert_uint_eq(m.puts, 0);
        tn_analyzer_free(an);
        free(m.p);
    }
    /* cut, or a brief marked unfinished */
    s.n--;
    ck_assert_int_lt(adopt(&s, true), 0);
    s.n++;
    s.p[1 + offsetof(struct tn_conn_brief, unfinished)] = 1;
    ck_assert_int_lt(adopt(&s, false), 0);
    tn_packbuf_fini(&s);
    tn_analyzer_free(sample);
}
END_TEST

Suite *tn_cluster_retired_suite(void)
{
    Suite *s = suite_create("cluster_retired");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_retired_taken);
    tcase_add_test(tc, test_retired_came_again);
    tcase_add_test(tc, test_retired_foreign_refused);
    tcase_add_test(tc, test_retired_away);
    tcase_add_test(tc, test_retired_brief_alone);
    suite_add_tcase(s, tc);
    return s;
}
