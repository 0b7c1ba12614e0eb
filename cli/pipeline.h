/* pipeline.h - the one read loop (source -> analysis) of every run: the offline report, the
 * dashboard, two capture points, ns-2 traces and experiments.  Pacing (--replay), the lock of a
 * reader on another thread, idle retirement and stop requests live here once.  Private to cli/. */
#ifndef TN_PIPELINE_H
#define TN_PIPELINE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "analysis.h"
#include "options.h"
#include "source.h"

enum { TN_EXIT_OK = 0, TN_EXIT_USAGE = 1, TN_EXIT_INPUT = 2 };

/* A message for the user on stderr, after the program's name (cli/warn.c: every cli file may
 * call it without calling into the read loop). */
void tn_cli_warn(const char *msg);

/* The worse of two exit statuses. */
static inline int tn_exit_worst(int a, int b)
{
    return a > b ? a : b;
}

struct tn_pipeline {
    /* set by the caller */
    struct tn_source *src;
    struct tn_analyzer *an;
    /* Optional consumer of every item besides the analyzer (the two-point queue matcher, the
     * ns-2 link queues); called with the lock held.  Egress packets reach only this one: the
     * report's connections are the ingress point's. */
    void (*on_item)(void *arg, const struct tn_source_pkt *sp);
    void *item_arg;
    /* Optional, for a reader on another thread: the analyzer is only touched with lock held.
     * The loop takes it for a batch of packets (at most 256 or 10 ms) and never holds it
     * while waiting for input or sleeping. */
    pthread_mutex_t *lock;
    double replay_speed;       /* > 0: pace packets by their time stamps, speed x recorded */
    atomic_bool *stop;         /* set by another thread to end the loop (with tn_source_break) */
    /* Called with the lock held (when there is one): a warning for the user, and, at most every
     * 100 ms of wall time and at the end, a chance to publish capture statistics. */
    void (*on_warn)(void *arg, const char *msg);
    void (*on_tick)(void *arg, struct tn_source *src);
    /* Called with the lock held each time trace time passes a multiple of trace_tick_ns. */
    void (*on_trace_tick)(void *arg, int64_t t_ns);
    int64_t trace_tick_ns;
    void *arg;
    /* > 0: every second of trace time, connections idle this long keep only their summary
     * (tn_analyzer_retire_idle): long live runs stay bounded */
    int64_t retire_idle_ns;
    /* > 1: -j N, that many workers own the connections (shards.c) and are merged into an at
     * the end of the loop (their connections finished); not with a lock (the dashboard reads
     * the analyzer while it runs) */
    unsigned workers;
    /* results */
    uint64_t failed;           /* read errors: records the pipeline could not process */
    uint64_t dropped;          /* live -j N: packets the workers were too far behind to take */
};

/* Read every item of the source into the analyzer until the input ends or *stop.  Returns the
 * exit status the input deserves (TN_EXIT_OK or TN_EXIT_INPUT; 128 + the signal when a signal
 * stopped the reading of a trace, which is then said on stderr with the last packet read).
 * Does not call tn_analyzer_finish (with workers, their connections arrive finished). */
int tn_pipeline_run(struct tn_pipeline *p);

/* The first SIGINT or SIGTERM ends the read of src (tn_source_break) and every later read; a
 * second one, or one while src is NULL (no reading: outputs are being written), ends the
 * process at once with 128 + the signal, every temporary output removed (safeout.h). */
void tn_pipeline_signals(struct tn_source *src);

/* The analysis config the options ask for: history only where an output needs it. */
void tn_pipeline_analysis_cfg(const struct tn_options *o, struct tn_analysis_cfg *acfg);

/* -j/--threads: the workers a run gets (1 for the dashboard). */
unsigned tn_pipeline_workers(const struct tn_options *o);

/* --max-connections, or half the machine's memory at 8 KiB a connection; 0 (no limit) for the
 * dashboard. */
size_t tn_pipeline_max_conns(const struct tn_options *o);

/* The retirement timeout a run gets: live input (or the dashboard), --idle-timeout set, and
 * no output that needs the history of every connection (CSV, figures, xplot, truth). */
int64_t tn_pipeline_retire_ns(const struct tn_options *o, const struct tn_analysis_cfg *acfg);

#endif
