/* check_pack.c - what the ranks of an MPI job send each other (docs/cluster.md), without MPI:
 * every packet of three samples read back from tn_pkt_pack's bytes equals the dissected one;
 * an analyzer adopting every connection of another through tn_conn_pack / tn_conn_unpack
 * writes byte-identical CSV files (TCP with losses, DFCP blocks, several connections); cut or
 * foreign bytes are refused, and so is a connection holding a value the analysis never makes
 * (fuzz_cluster found a TCP connection claiming to be DFCP read a NULL DFCP state in
 * senders.csv); a short connection packs to about a third of its structs. */
#include <check.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis.h"
#include "analysis_int.h"   /* struct tn_conn_priv: what tn_conn_pack reads after the summary */
#include "capture.h"
#include "dissect.h"
#include "pipeline_helper.h"
#include "render.h"

static const char *const samples[] = {
    TN_SAMPLES_DIR "/loopback-iperf3-parallel.pcap",
    TN_SAMPLES_DIR "/cubic-loss1-owd10/snd1_eth0.pcap",
    TN_SAMPLES_DIR "/dfcp-loss/snd1_eth0.pcap",
};
#define NSAMPLES (sizeof samples / sizeof samples[0])

/* The fields every kind has; TCP and DFCP packets are compared whole (both are zeroed before
 * they are filled, so padding compares equal too, but for the time stamp's). */
static void same_pkt(const struct tn_pkt *a, const struct tn_pkt *b, uint64_t num)
{
    ck_assert_msg(a->kind == b->kind && a->num == b->num && tn_time_cmp(a->ts, b->ts) == 0 &&
                      a->anoms.bits == b->anoms.bits && a->wirelen == b->wirelen && a->caplen == b->caplen &&
                      memcmp(&a->src, &b->src, sizeof a->src) == 0 && memcmp(&a->dst, &b->dst, sizeof a->dst) == 0,
                  "packet %llu differs after the round trip", (unsigned long long)num);
    if (a->kind == TN_PK_OTHER)
        return;
    struct tn_pkt x = *a;
    x.payload = NULL;
    /* from num on: the time stamp's padding is a copy of the caller's */
    size_t from = offsetof(struct tn_pkt, num);
    ck_assert_msg(memcmp((const char *)&x + from, (const char *)b + from, sizeof x - from) == 0,
                  "TCP/DFCP packet %llu differs after the round trip", (unsigned long long)num);
}

START_TEST(test_pkt_round_trip)
{
    struct tn_capture *cap;
    struct tn_err err;
    ck_assert_msg(tn_capture_open_file(&cap, samples[_i], &err) == 0, "%s", err.msg);
    struct tn_dissect_cfg dcfg;
    tn_dissect_cfg_default(&dcfg);
    struct tn_frame f;
    struct tn_pkt p, q;
    uint8_t buf[TN_PKT_PACK_MAX];
    unsigned long long n = 0, tcp = 0, bytes = 0;
    int r;
    while ((r = tn_capture_next(cap, &f, &err)) != 0) {
        if (r < 0)
            continue;
        tn_dissect(&dcfg, f.linktype, f.data, f.caplen, f.wirelen, f.ts, f.num, &p);
        size_t len = tn_pkt_pack(&p, buf);
        ck_assert_uint_le(len, TN_PKT_PACK_MAX);
        ck_assert_uint_eq(tn_pkt_unpack(buf, len, &q), len);
        same_pkt(&p, &q, f.num);
        /* every cut of the record is refused */
        for (size_t k = 0; k < len; k += 7)
            ck_assert_uint_eq(tn_pkt_unpack(buf, k, &q), 0);
        n++;
        tcp += p.kind != TN_PK_OTHER;
        bytes += len;
    }
    tn_capture_close(cap, &err);
    ck_assert_uint_gt(tcp, 100);
    /* the record is compact: an IPv4 TCP packet with time stamps needs about 100 bytes */
    ck_assert_uint_lt(bytes / n, 120);
}
END_TEST

/* The CSV files of an analyzer, written into dir. */
static void write_csv(const char *dir, const struct tn_analyzer *an)
{
    const struct tn_trace_stats *st = tn_analyzer_stats(an);
    struct tn_view v = {.t0_ns = st->have_time ? tn_time_ns(st->first) : 0};
    struct tn_err errs[TN_CSV_NFILES];
    ck_assert_msg(tn_csv_write_all(dir, an, &v, NULL, errs) == 0, "%s", errs[0].msg);
}

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)len + 1);
    ck_assert_uint_eq(fread(b, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    *n = (size_t)len;
    return b;
}

static void same_file(const char *a_dir, const char *b_dir, const char *name)
{
    char pa[512], pb[512];
    snprintf(pa, sizeof pa, "%s/%s", a_dir, name);
    snprintf(pb, sizeof pb, "%s/%s", b_dir, name);
    size_t na, nb;
    char *a = slurp(pa, &na), *b = slurp(pb, &nb);
    ck_assert_msg(na == nb && memcmp(a, b, na) == 0, "%s differs after the connections' round trip", name);
    ck_assert_msg(na > 0, "%s is empty", name);
    free(a);
    free(b);
    unlink(pa);
    unlink(pb);
}

START_TEST(test_conn_round_trip)
{
    struct tn_analysis_cfg cfg = {.record_events = true, .record_series = true, .record_packets = true};
    struct tn_analyzer *an = tn_test_load(samples[_i], &cfg);
    ck_assert_ptr_nonnull(an);
    struct tn_packbuf b = {0};
    size_t n = tn_analyzer_conn_count(an);
    ck_assert_uint_gt(n, 0);
    for (size_t i = 0; i < n; i++)
        tn_conn_pack(tn_analyzer_conn(an, i), &b);
    struct tn_analyzer *copy = tn_analyzer_new(&cfg);
    size_t off = 0;
    for (size_t i = 0; i < n; i++) {
        size_t used = 0;
        struct tn_conn *c = tn_conn_unpack(b.p + off, b.n - off, &used);
        ck_assert_ptr_nonnull(c);
        /* a cut connection is refused, never half read */
        ck_assert_ptr_null(tn_conn_unpack(b.p + off, used / 2, &(size_t){0}));
        ck_assert_ptr_null(tn_conn_unpack(b.p + off, used - 1, &(size_t){0}));
        tn_analyzer_adopt(copy, c, c->idx);
        off += used;
    }
    ck_assert_uint_eq(off, b.n);
    tn_analyzer_set_stats(copy, tn_analyzer_stats(an));
    char da[] = "/tmp/check_pack_a.XXXXXX", db[] = "/tmp/check_pack_b.XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(da));
    ck_assert_ptr_nonnull(mkdtemp(db));
    write_csv(da, an);
    write_csv(db, copy);
    static const char *const files[] = {"connections.csv", "senders.csv", "events.csv", "series.csv",
                                        "packets.csv", "dfcp_blocks.csv"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        same_file(da, db, files[i]);
    rmdir(da);
    rmdir(db);
    /* bytes of another kind are no connection */
    uint8_t junk[64] = {0};
    ck_assert_ptr_null(tn_conn_unpack(junk, sizeof junk, &(size_t){0}));
    tn_packbuf_fini(&b);
    tn_analyzer_free(copy);
    tn_analyzer_free(an);
}
END_TEST

/* conn packed with one field changed: refused by tn_conn_unpack */
static void refused(const struct tn_conn *c, const char *what)
{
    struct tn_packbuf b = {0};
    tn_conn_pack(c, &b);
    size_t used = 0;
    struct tn_conn *got = tn_conn_unpack(b.p, b.n, &used);
    ck_assert_msg(got == NULL, "a connection with %s was taken", what);
    tn_packbuf_fini(&b);
}

START_TEST(test_conn_foreign_values_refused)
{
    struct tn_analysis_cfg cfg = {.record_events = true};
    struct tn_analyzer *an = tn_test_load(samples[1], &cfg);   /* CUBIC with losses: events */
    ck_assert_ptr_nonnull(an);
    const struct tn_conn *c = NULL;
    for (size_t i = 0; i < tn_analyzer_conn_count(an) && !c; i++)
        if (tn_analyzer_conn(an, i)->nevents > 0)
            c = tn_analyzer_conn(an, i);
    ck_assert_ptr_nonnull(c);
    ck_assert(!c->retired);   /* a whole connection, not a retired summary */
    /* as packed, it is taken */
    struct tn_packbuf b = {0};
    tn_conn_pack(c, &b);
    size_t used = 0;
    struct tn_conn *ok = tn_conn_unpack(b.p, b.n, &used);
    ck_assert_ptr_nonnull(ok);
    ck_assert_uint_eq(used, b.n);
    tn_conn_unpacked_free(ok);
    tn_packbuf_fini(&b);

    /* a copy of the whole connection (tn_conn_pack reads its DFCP state after the summary);
     * it shares c's arrays: packed, never freed */
    struct tn_conn_priv xp = *(const struct tn_conn_priv *)c;
    struct tn_conn *xc = &xp.pub;
    xc->proto = TN_PK_DFCP;
    refused(xc, "the kind DFCP and no DFCP state");
    xp = *(const struct tn_conn_priv *)c;
    xc->proto = (enum tn_pkt_kind)7;
    refused(xc, "an unknown kind");
    xp = *(const struct tn_conn_priv *)c;
    memset(&xc->closed, 2, 1);   /* a bool that holds 2 */
    refused(xc, "a bool holding 2");
    xp = *(const struct tn_conn_priv *)c;
    xc->vantage = (enum tn_vantage)9;
    refused(xc, "an unknown vantage point");
    xp = *(const struct tn_conn_priv *)c;
    xc->first.nsec = 1000000000u;
    refused(xc, "a time stamp fraction of a whole second");
    xp = *(const struct tn_conn_priv *)c;
    xc->d[1].last.sec = -5;
    refused(xc, "a time stamp before 1970");
    xp = *(const struct tn_conn_priv *)c;
    xc->d[0].owin_t_ns = INT64_C(-8928771893583128616);   /* fuzz_retired's */
    refused(xc, "an outstanding-window time before 1970");
    xp = *(const struct tn_conn_priv *)c;
    xc->d[0].hi_rel = INT64_MAX;
    refused(xc, "a relative sequence number no packets reach");
    xp = *(const struct tn_conn_priv *)c;
    struct tn_event ev = c->events[0];
    ev.kind = TN_EV_COUNT;
    xc->events = &ev;
    xc->nevents = 1;
    refused(xc, "an unknown event kind");
    ev = c->events[0];
    memset(ev.detail, 'x', sizeof ev.detail);
    refused(xc, "an event detail without its end");
    tn_analyzer_free(an);
}
END_TEST

/* Short connections' summaries and inference results are mostly zeros: packed sparse. */
START_TEST(test_conn_sparse)
{
    struct tn_analysis_cfg cfg = {0};
    struct tn_analyzer *an = tn_test_load(samples[0], &cfg);   /* iperf3's parallel connections */
    ck_assert_ptr_nonnull(an);
    struct tn_packbuf b = {0};
    size_t n = tn_analyzer_conn_count(an);
    for (size_t i = 0; i < n; i++)
        tn_conn_pack(tn_analyzer_conn(an, i), &b);
    size_t raw = n * (sizeof(struct tn_conn) + 2 * sizeof(struct tn_tcp_infer));
    ck_assert_msg(b.n * 2 < raw, "%zu connections packed into %zu bytes, their structs are %zu", n, b.n, raw);
    tn_packbuf_fini(&b);
    tn_analyzer_free(an);
}
END_TEST

Suite *tn_pack_suite(void)
{
    Suite *s = suite_create("pack");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_pkt_round_trip, 0, (int)NSAMPLES);
    tcase_add_loop_test(tc, test_conn_round_trip, 0, (int)NSAMPLES);
    tcase_add_test(tc, test_conn_foreign_values_refused);
    tcase_add_test(tc, test_conn_sparse);
    suite_add_tcase(s, tc);
    return s;
}
