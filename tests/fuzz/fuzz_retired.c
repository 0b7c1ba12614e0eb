/* fuzz_retired.c - libFuzzer target: the connections the other ranks of an MPI job retire during
 * the run and stream to rank 0 (tn_cluster_retired_pack: a brief, a length, the bytes of the
 * connection's whole state; and tn_cluster_away_pack: a later packet of one its rank kept no copy
 * of, analysed on rank 0; docs/cluster.md), taken as rank 0 takes them (assemble and
 * adopt_retired in cluster_mpi.c): tn_cluster_retired_adopt puts each one's bytes in rank 0's
 * store and keeps its brief, tn_cluster_conns_unpack adopts the connections a rank sends at the
 * end, tn_analyzer_finish finishes what the later packets brought back, tn_analyzer_keep_latest
 * keeps the last copy of a connection that came again (a lone SYN retired, then brought back by
 * a late packet), rank 0's merge, then the outputs of one process, which
 * read each retired connection back from the store.
 *
 * Byte 0 picks the command line (byte 0 % 4): the first two run with a store (cli/retire.c), so
 * a retired connection stays a brief until an output reads its bytes back; the last two keep
 * every connection in memory (figures, parallel transfers), so each is adopted whole.  Bytes 1-2
 * (little-endian) are the length of the retired stream (modulo what follows), then the stream,
 * then the connections sent at the end (tn_conn_pack's).  Outputs go into a scratch directory
 * removed afterwards.  tests/fuzz/run.sh seeds it with streams made from the samples
 * (fuzz_retired_seeds.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster_wire.h"
#include "fuzz_cluster_args.h"
#include "fuzz_util.h"
#include "outputs.h"
#include "pipeline.h"
#include "retire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FILES "@D/a.pcap", "@D/b.pcap", "@D/c.pcap", "@D/d.pcap"
static const char *const cmds[][20] = {
    {"-l", "--timeline", "--csv", "@D/csv", FILES},
    {"-q", "--json", "@D/o.jsonl", "--fairness-by", "hostpair", "-A", "--xplot", "@D/xpl", "--csv",
     "@D/csv", FILES},
    {"-q", "--plot", "@D/plot", "--plot-format", "svg", "--plot-size", "200x150", "--plot-scale",
     "0.25", FILES},
    {"-l", "--parallel-window", "50", "--fairness-window", "100", "--csv", "@D/csv", FILES},
};
#define NCMDS (sizeof cmds / sizeof cmds[0])

/* The store's parts as on rank 0 with one analysis thread: its own connections' and the other
 * ranks' (cluster_mpi.c: remote_part). */
enum { OWN_PART, REMOTE_PART, PARTS };

/* Rank 0 at the end (assemble in cluster_mpi.c): what the other ranks retired, then what they
 * sent at the end, the last copy of each connection, merged with its own (none here). */
static void assemble_and_write(const struct tn_options *o, const struct tn_analysis_cfg *acfg,
                               const uint8_t *in, size_t n)
{
    struct tn_analyzer *remote = tn_analyzer_new(acfg);
    size_t len = ((size_t)in[0] | (size_t)in[1] << 8) % (n - 1);
    /* a malformed one would end the job; those taken before it are checked, and written */
    struct tn_cluster_taken taken = {0};
    if (tn_cluster_retired_adopt(in + 2, len, remote, REMOTE_PART, TN_FUZZ_NFILES, &taken) == 0)
        (void)tn_cluster_conns_unpack(in + 2 + len, n - 2 - len, remote);
    free(taken.idx);
    tn_analyzer_finish(remote);   /* what late packets brought back */
    size_t again = tn_analyzer_keep_latest(remote);
    /* (on stderr: seen with TN_FUZZ_VERBOSE=1, what an input reached) */
    fprintf(stderr, "fuzz_retired: %zu connections (%zu retired to the store), %zu came again\n",
            tn_analyzer_conn_count(remote), tn_analyzer_retired(remote), again);
    struct tn_analyzer *own = tn_analyzer_new(acfg);
    tn_analyzer_finish(own);
    struct tn_analyzer *a = tn_analyzer_new(acfg);
    tn_analyzer_merge(a, (struct tn_analyzer *[]){own, remote}, 2);
    struct tn_trace_stats st;
    memset(&st, 0, sizeof st);
    tn_analyzer_set_stats(a, &st);
    (void)tn_outputs_write(o, a, NULL, NULL);
    tn_analyzer_free(a);
    tn_analyzer_free(own);
    tn_analyzer_free(remote);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    size_t cmd = data[0] % NCMDS;
    char dir[4096];
    if (tn_fuzz_mkdtemp(dir) < 0)
        return 0;
    struct tn_fuzz_args args = {0};
    for (int i = 0; cmds[cmd][i]; i++)
        tn_fuzz_args_add(&args, dir, cmds[cmd][i]);
    struct tn_options o;
    if (tn_fuzz_args_parse(&o, &args, dir) != 0 || o.nfiles != TN_FUZZ_NFILES) {
        fprintf(stderr, "fuzz_retired: the command line %zu is refused\n", cmd);
        abort();
    }
    struct tn_fuzz_quiet q;
    tn_fuzz_quiet_begin(&q);
    struct tn_analysis_cfg acfg;
    tn_pipeline_analysis_cfg(&o, &acfg);
    struct tn_retire store;
    tn_retire_setup(&store, &o, &acfg, PARTS);
    assemble_and_write(&o, &acfg, data + 1, size - 1);
    tn_retire_fini(&store);
    tn_fuzz_quiet_end(&q);
    tn_options_fini(&o);
    tn_fuzz_args_free(&args);
    tn_fuzz_rmtree(dir);
    return 0;
}
