/* main.c - the composition root: options -> source -> dissect -> analysis -> outputs.
 * A run (run.c) reads its source through the one read loop (pipeline.c) and writes the outputs
 * table (outputs.c); experiments (experiment.c) and the dashboard (tui_main.c) have their own. */
#include <stdio.h>
#include <unistd.h>

#include "cluster.h"
#include "experiment.h"
#include "options.h"
#include "pipeline.h"
#include "preflight.h"
#include "report_file.h"
#include "run.h"
#include "tui_main.h"

/* tcptrace -t: tick off the packets read, on stderr, once per second of trace time. */
static void tick_progress(void *arg, int64_t t_ns)
{
    (void)t_ns;
    fprintf(stderr, "\rpackets read: %llu", (unsigned long long)tn_analyzer_stats(arg)->frames);
}

/* Reading files, the reports go out in blocks of 1 MiB rather than stdio's 4 KB: the long
 * report of 50,000 short connections is 124 MB, 30,000 write calls at 4 KB (a third of the
 * system time).  Not on a terminal, nor live, where a report line is due when it happens. */
static void buffer_reports(const struct tn_options *o)
{
    static char buf[1 << 20];
    if (!o->iface && !o->ingress_if && !o->egress_if && !isatty(STDOUT_FILENO))
        setvbuf(stdout, buf, _IOFBF, sizeof buf);
}

static int run_alone(const struct tn_options *o)
{
    if (o->tui)
        return tn_tui_main(o);
    buffer_reports(o);
    if (o->nexps > 0)
        return tn_experiment_main(o);
    struct tn_run r;
    int st = tn_run_open(&r, o);
    if (st != 0)
        return st;
    tn_run_start(&r);
    if (o->progress) {
        r.pl.on_trace_tick = tick_progress;
        r.pl.trace_tick_ns = 1000000000;
        r.pl.arg = r.an;
    }
    tn_run_read(&r);
    if (o->progress)
        fprintf(stderr, "\rpackets read: %llu\n", (unsigned long long)tn_analyzer_stats(r.an)->frames);
    return tn_run_end(&r);
}

/* Under mpirun (or srun) the ranks of the job share the run (cluster/): they divide the files in
 * the time order one process reads them in, which rank 0 finds for all of them. */
static int run_main(struct tn_options *o)
{
    if (!tn_cluster_launched()) {
        int st = tn_report_file_open(o->report_path);
        return st ? st : tn_report_file_close(run_alone(o));
    }
    return tn_cluster_main(o, run_alone);
}

int main(int argc, char **argv)
{
    struct tn_options o;
    struct tn_err err;
    int r = tn_options_parse(&o, argc, argv, &err);
    if (r != 0) {
        if (r < 0)
            tn_cli_warn(err.msg);
        tn_options_fini(&o);
        return r > 0 ? TN_EXIT_OK : TN_EXIT_USAGE;
    }
    int st = tn_cli_preflight(&o);   /* outputs and inputs of the options, before any work */
    if (st == 0)
        st = run_main(&o);
    tn_options_fini(&o);
    return st;
}
