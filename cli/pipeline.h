/* pipeline.h - the read loop shared by the offline report and the dashboard, and the outputs
 * written at the end of a run.  Private to cli/. */
#ifndef TN_PIPELINE_H
#define TN_PIPELINE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "analysis.h"
#include "capture.h"
#include "dissect.h"
#include "options.h"

enum { TN_EXIT_OK = 0, TN_EXIT_USAGE = 1, TN_EXIT_INPUT = 2 };

void tn_cli_warn(const char *msg);

/* Names of the files frames came from, kept for the anomaly report after the capture closed. */
struct tn_source_names {
    char **v;
    size_t n, cap;
};

struct tn_pipeline {
    /* set by the caller */
    struct tn_capture *cap;
    const struct tn_dissect_cfg *dcfg;
    struct tn_analyzer *an;
    /* Optional, for a reader on another thread: the analyzer is only touched with lock held.
     * The loop takes it for a batch of packets (at most 256 or 10 ms) and never holds it
     * while waiting for input or sleeping. */
    pthread_mutex_t *lock;
    bool live;                 /* input may block: release the lock before every read */
    double replay_speed;       /* > 0: pace frames by their time stamps, speed x recorded */
    atomic_bool *stop;         /* set by another thread to end the loop (with tn_capture_break) */
    /* Called with the lock held (when there is one): a warning for the user, and, at most every
     * 100 ms of wall time and at the end, a chance to publish capture statistics. */
    void (*on_warn)(void *arg, const char *msg);
    void (*on_tick)(void *arg, struct tn_capture *cap);
    /* Called with the lock held each time trace time passes a multiple of trace_tick_ns. */
    void (*on_trace_tick)(void *arg, int64_t t_ns);
    int64_t trace_tick_ns;
    void *arg;
    /* > 0: every second of trace time, connections idle this long keep only their summary
     * (tn_analyzer_retire_idle): long live runs stay bounded */
    int64_t retire_idle_ns;
    /* results */
    uint64_t failed;           /* read errors: records the pipeline could not process */
    struct tn_source_names names;
};

/* Open the input of the options: a live interface (then drop privileges to -Z USER) or files.
 * Returns 0 or <0 with err filled; a -Z failure closes the capture and says why. */
int tn_pipeline_open_input(const struct tn_options *o, struct tn_capture **cap, struct tn_err *err);

/* Read every frame into the analyzer until the input ends or *stop.  Returns the exit status
 * the input deserves (TN_EXIT_OK or TN_EXIT_INPUT).  Does not call tn_analyzer_finish. */
int tn_pipeline_run(struct tn_pipeline *p);

void tn_pipeline_fini(struct tn_pipeline *p);

/* The analysis config the options ask for: history only where an output needs it. */
void tn_pipeline_analysis_cfg(const struct tn_options *o, struct tn_analysis_cfg *acfg);

/* The retirement timeout a run gets: live input (or the dashboard), --idle-timeout set, and
 * no output that needs the history of every connection (CSV, figures, xplot, truth). */
int64_t tn_pipeline_retire_ns(const struct tn_options *o, const struct tn_analysis_cfg *acfg);

/* The final report (list, -l, --timeline, summary) on stdout and every output file of the
 * options.  Returns the exit status. */
int tn_pipeline_write_outputs(const struct tn_options *o, const struct tn_analyzer *an);

/* The connection numbers the --connection picks name (NULL when there are none); caller frees. */
unsigned *tn_pipeline_resolve_picks(const struct tn_options *o, const struct tn_analyzer *an, size_t *n);

/* End of a run: the reports and files (unless nothing at all was read and an input failed),
 * the capture statistics, and the capture closed.  Returns the final exit status. */
int tn_pipeline_finish(const struct tn_options *o, struct tn_analyzer *an, struct tn_capture *cap,
                       int status);

/* "Capture: N packets received by filter, ..." for live captures. */
void tn_pipeline_report_capture_stats(struct tn_capture *cap);

#endif
