/* check_cluster_retired.c - the connections a rank retires during an MPI run, as rank 0 takes
 * them (cluster_wire.c's tn_cluster_retired_adopt, docs/cluster.md), without MPI: a real
 * connection's brief and bytes are adopted, into the store or whole, and read back as they were;
 * a connection that came again is kept once, its last copy (tn_analyzer_keep_latest); and a
 * stream is refused whose bytes are cut (fuzz_retired found rank 0 then read a NULL connection
 * back from its store) or run on past the connection, whose bytes hold a value the analysis
 * never makes after the summary, or whose brief does not describe its connection. */
#include <check.h>
#include <string.h>

#include "analysis.h"
#include "analysis_int.h" /* struct tn_conn_priv: the state a retired connection's bytes hold */
#include "cluster_wire.h"
#include "mem_store.h"
#include "pipeline_helper.h"

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
    int r = tn_cluster_retired_adopt(s->p, s->n, an, 1);
    tn_analyzer_free(an);
    free(m.p);
    return r;
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
        struct tn_analysis_cfg cfg = rank0_cfg(store, &m);
        struct tn_analyzer *an = tn_analyzer_new(&cfg);
        ck_assert_int_eq(tn_cluster_retired_adopt(s.p, s.n, an, 1), 0);
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
    ck_assert_int_eq(tn_cluster_retired_adopt(s.p, s.n, an, 1), 0);
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

Suite *tn_cluster_retired_suite(void)
{
    Suite *s = suite_create("cluster_retired");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_retired_taken);
    tcase_add_test(tc, test_retired_came_again);
    tcase_add_test(tc, test_retired_foreign_refused);
    suite_add_tcase(s, tc);
    return s;
}
