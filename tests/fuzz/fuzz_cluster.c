/* fuzz_cluster.c - libFuzzer target: the bytes the ranks of an MPI job send each other
 * (cluster/cluster_wire.h, docs/cluster.md), decoded as rank 0 and the owners decode them, then
 * the outputs of one process written from what was decoded.
 *
 * Byte 0 picks what the rest is (byte 0 % 4) and the outputs (byte 0 / 4 % 3):
 *   0  a round's packet records for one owner (tn_cluster_rec_unpack, 4 files): analysed as the
 *      owner does (tn_analyzer_add_flow at the record's place), finished, the connections and
 *      trace totals sent to rank 0 (packed, decoded again: the decoders must take every byte
 *      their encoders write) and merged there;
 *   1  a rank's results: bytes 1-2 (little-endian) the length of its trace-totals message
 *      (tn_cluster_stats_merge), then its connection messages (tn_cluster_conns_unpack);
 *   2  an experiment trace's results (tn_cluster_trace_unpack), into the experiment table;
 *   3  the egress point's stream from rank 1 (tn_cluster_egress_unpack over 4 egress files),
 *      taken by rank 0's two-point run (tn_source_twopoint_feed) whose ingress file holds no
 *      packet: the router queue, its CSV files and report from the egress packets.
 * Outputs: -l and --timeline with every CSV file; JSON Lines, fairness and parallel transfers;
 * SVG figures.  They go into a scratch directory removed afterwards.
 * tests/fuzz/run.sh seeds it with records and results packed from the samples
 * (fuzz_cluster_seeds.c).  The connections ranks retire during the run and stream to rank 0
 * are fuzz_retired.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster_wire.h"
#include "experiment.h"
#include "fuzz_cluster_args.h"
#include "fuzz_util.h"
#include "options.h"
#include "outputs.h"
#include "pipeline.h"
#include "run.h"
#include "source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the options of one process; "@D": the scratch directory (fuzz_cluster_args.h) */
static const char *const cmds[][16] = {
    {"-l", "--timeline", "--csv", "@D/csv", "@D/a.pcap", "@D/b.pcap", "@D/c.pcap", "@D/d.pcap"},
    {"-q", "--json", "@D/o.jsonl", "--fairness-by", "hostpair", "--parallel-window", "50", "--csv", "@D/csv",
     "@D/a.pcap", "@D/b.pcap", "@D/c.pcap", "@D/d.pcap"},
    {"-q", "--plot", "@D/plot", "--plot-format", "svg", "--plot-size", "200x150", "--plot-scale", "0.25",
     "@D/a.pcap", "@D/b.pcap", "@D/c.pcap", "@D/d.pcap"},
};
#define NFILES TN_FUZZ_NFILES

static int parse(struct tn_options *o, struct tn_fuzz_args *a, int cmd, const char *dir, int mode)
{
    bool experiment = mode == 2, two = mode == 3;
    a->n = 0;
    if (two) {   /* the files are the egress point's; the ingress one, i.pcap, holds no packet */
        static const char *const words[] = {"--ingress", "@D/i.pcap", "--egress", "@D/a.pcap", "--egress",
                                            "@D/b.pcap", "--egress", "@D/c.pcap", "--egress", "@D/d.pcap"};
        for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
            tn_fuzz_args_add(a, dir, words[i]);
    }
    if (experiment) {
        char spec[4200];
        snprintf(spec, sizeof spec, "x=%s/a.pcap", dir);
        tn_fuzz_args_add(a, dir, "--experiment");
        tn_fuzz_args_add(a, dir, spec);
    }
    for (int i = 0; cmds[cmd][i]; i++)
        if (!((experiment || two) && strstr(cmds[cmd][i], ".pcap")))
            tn_fuzz_args_add(a, dir, cmds[cmd][i]);
    return tn_fuzz_args_parse(o, a, dir);
}

/* The records live in this function's frame only, as in the owner's loop (analyse_from).  They
 * count in the trace totals here too (a reader's job in the cluster), so that the totals'
 * message carries anomalies with their files. */
__attribute__((noinline)) static void feed(const struct tn_options *o, struct tn_analyzer *an, const uint8_t *in,
                                           size_t n)
{
    size_t off = 0;
    while (off < n) {
        struct tn_cluster_rec r;
        size_t used = tn_cluster_rec_unpack(in + off, n - off, NFILES, &r);
        if (!used)
            return;   /* the job would end here */
        (void)tn_analyzer_count(an, &r.pkt, 0, o->files[r.file]);
        struct tn_pkt_place place = {.ord = (uint64_t)r.file << 40 | (r.pkt.num & (((uint64_t)1 << 40) - 1)),
                                     .clock_ns = r.clock_ns};
        tn_analyzer_add_flow(an, &r.pkt, place);
        off += used;
    }
}

/* Mode 0: an owner's analysis, its results through the wire to rank 0. */
static struct tn_analyzer *owner(const struct tn_options *o, const struct tn_analysis_cfg *acfg,
                                 const uint8_t *in, size_t n, struct tn_trace_stats *st)
{
    struct tn_analyzer *an = tn_analyzer_new(acfg);
    feed(o, an, in, n);
    tn_analyzer_finish(an);
    struct tn_packbuf b = {0};
    tn_cluster_stats_pack(tn_analyzer_stats(an), 0, (const char *const *)o->files, o->nfiles, &b);
    if (tn_cluster_stats_merge(b.p, b.n, (const char *const *)o->files, o->nfiles, st) < 0)
        abort();   /* a decoder refusing what its encoder wrote */
    b.n = 0;
    for (size_t i = 0; i < tn_analyzer_conn_count(an); i++)
        tn_conn_pack(tn_analyzer_conn(an, i), &b);
    struct tn_analyzer *got = tn_analyzer_new(acfg);
    if (tn_cluster_conns_unpack(b.p, b.n, got) < 0 ||
        tn_analyzer_conn_count(got) != tn_analyzer_conn_count(an))
        abort();
    tn_packbuf_fini(&b);
    tn_analyzer_free(an);
    return got;
}

/* Mode 1: a rank's results as rank 0 receives them. */
static struct tn_analyzer *results(const struct tn_options *o, const struct tn_analysis_cfg *acfg,
                                   const uint8_t *in, size_t n, struct tn_trace_stats *st)
{
    if (n < 2)
        return NULL;
    size_t len = ((size_t)in[0] | (size_t)in[1] << 8) % (n - 1);
    if (tn_cluster_stats_merge(in + 2, len, (const char *const *)o->files, o->nfiles, st) < 0)
        memset(st, 0, sizeof *st);   /* the job would end; the connections are tried anyway */
    struct tn_analyzer *got = tn_analyzer_new(acfg);
    (void)tn_cluster_conns_unpack(in + 2 + len, n - 2 - len, got);
    return got;
}

/* Rank 0's merge (assemble in cluster_mpi.c) and the outputs of one process. */
static void merge_and_write(const struct tn_options *o, const struct tn_analysis_cfg *acfg,
                            struct tn_analyzer *remote, const struct tn_trace_stats *st)
{
    struct tn_analyzer *own = tn_analyzer_new(acfg);
    tn_analyzer_finish(own);
    struct tn_analyzer *a = tn_analyzer_new(acfg);
    tn_analyzer_merge(a, (struct tn_analyzer *[]){own, remote}, 2);
    tn_analyzer_set_stats(a, st);
    (void)tn_outputs_write(o, a, NULL, NULL);
    tn_analyzer_free(a);
    tn_analyzer_free(own);
    tn_analyzer_free(remote);
}

/* Mode 2: trace 0 of the experiment, as received from the rank that read it. */
struct trace_arg {
    const uint8_t *in;
    size_t n;
    const struct tn_options *o;
};

static struct tn_analyzer *trace_of(void *arg, int i, int *status)
{
    const struct trace_arg *t = arg;
    struct tn_analysis_cfg acfg;
    tn_experiment_analysis_cfg(t->o, &acfg);
    struct tn_analyzer *an = i == 0 ? tn_cluster_trace_unpack(t->in, t->n, &acfg, status) : NULL;
    if (!an) {   /* the job would end; the table gets an empty trace */
        an = tn_analyzer_new(&acfg);
        tn_analyzer_finish(an);
        *status = 0;
    }
    return an;
}

/* Mode 3: rank 1's egress items, as rank 0's feed hands them out (feed_next in
 * cluster_twopoint.c); a malformed one ends the stream, as it ends the job. */
struct egress_arg {
    const uint8_t *in;
    size_t n, off;
    const struct tn_options *o;
};

static int egress_next(void *arg, struct tn_source_pkt *out, struct tn_err *err)
{
    struct egress_arg *e = arg;
    return tn_cluster_egress_next(e->in, e->n, &e->off, e->o, out, err);
}

static void two_points(const struct tn_options *o, const uint8_t *in, size_t n)
{
    struct egress_arg e = {in, n, 0, o};
    struct tn_twopoint_feed feed = {egress_next, &e};
    tn_source_twopoint_feed(&feed);
    struct tn_run r;
    if (tn_run_open(&r, o) == 0) {
        tn_run_start(&r);
        tn_run_read(&r);
        (void)tn_run_end(&r);
    }
    tn_source_twopoint_feed(NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int mode = data[0] % 4, cmd = data[0] / 4 % 3;
    char dir[4096];
    if (tn_fuzz_mkdtemp(dir) < 0)
        return 0;
    struct tn_options o;
    struct tn_fuzz_args args;
    if (parse(&o, &args, cmd, dir, mode) != 0 || (mode < 2 && o.nfiles != NFILES) || (mode == 3 && o.negress != NFILES)) {
        fprintf(stderr, "fuzz_cluster: the command line %d is refused\n", cmd);
        abort();
    }
    struct tn_fuzz_quiet q;
    tn_fuzz_quiet_begin(&q);
    if (mode == 2) {
        struct trace_arg t = {data + 1, size - 1, &o};
        (void)tn_experiment_run(&o, trace_of, &t);
    } else if (mode == 3) {
        two_points(&o, data + 1, size - 1);
    } else {
        struct tn_analysis_cfg acfg;
        tn_pipeline_analysis_cfg(&o, &acfg);
        struct tn_trace_stats st;
        memset(&st, 0, sizeof st);
        struct tn_analyzer *got = mode == 0 ? owner(&o, &acfg, data + 1, size - 1, &st)
                                            : results(&o, &acfg, data + 1, size - 1, &st);
        if (got)
            merge_and_write(&o, &acfg, got, &st);
    }
    tn_fuzz_quiet_end(&q);
    tn_options_fini(&o);
    tn_fuzz_args_free(&args);
    tn_fuzz_rmtree(dir);
    return 0;
}
