/* tui.h - the live dashboard (ncurses): connection table, connection detail with terminal plots,
 * fairness, event log, help.  Public interface of render/tui, used by cli/tui_main.c.
 *
 * Threads: the dashboard runs on the calling thread and draws only from its own snapshot of the
 * model.  A few times per second it takes the caller's lock, copies the small per-connection
 * summaries it shows (and samples them into bounded per-connection histories for the plots),
 * and gives the lock back before drawing.  Whoever feeds the analyzer (the capture thread)
 * holds the same lock while it touches the analyzer or the feed below.
 */
#ifndef TN_TUI_H
#define TN_TUI_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "analysis.h"
#include "common.h"
#include "render.h"

/* What the capture side tells the dashboard; written and read with the lock held. */
struct tn_tui_feed {
    bool live;
    uint64_t kernel_recv, kernel_drop, if_drop;   /* live capture statistics */
    uint64_t failed;           /* records the pipeline could not process (read errors) */
    bool finished;             /* end of input: tn_analyzer_finish was called */
    unsigned nwarnings;
    char warning[256];         /* the latest warning */
};

struct tn_tui_cfg {
    const char *source;        /* interface or first file, for the title */
    bool live;
    double replay_speed;       /* 0 = as fast as possible */
    double idle_timeout_s;     /* connections idle longer leave the table; 0 = never */
    const char *export_dir;    /* 'e' writes the selected connection's figures here */
    struct tn_plot_opts plot;  /* figure options for the export */
    bool history;              /* the analyzer records packets and series: export is possible */
    int refresh_ms;            /* snapshot and redraw period (default 200) */
    const char *stats_file;    /* optional: "frames seconds peak_rss_kib" written at the end */
};

struct tn_tui;

/* cfg's strings are borrowed and must outlive the dashboard.  lock guards the analyzer and
 * feed.  Returns NULL with err filled when the terminal is not usable. */
struct tn_tui *tn_tui_new(const struct tn_tui_cfg *cfg, pthread_mutex_t *lock, struct tn_tui_feed *feed,
                          struct tn_err *err);

/* The analysis event hook (struct tn_analysis_cfg.on_event, arg = the tn_tui): keeps the latest
 * events in a fixed-size log.  Called on the capture thread with the lock held. */
void tn_tui_on_event(void *tui, const struct tn_conn *c, const struct tn_event *e);

/* Every TN_TUI_SAMPLE_NS of trace time (capture thread, lock held): sample each active
 * connection for the detail plots.  t_ns is the trace time (ns since the epoch). */
#define TN_TUI_SAMPLE_NS 50000000
void tn_tui_sample(void *tui, const struct tn_analyzer *an, int64_t t_ns);

/* Run the dashboard until the user quits (q, F10) or *stop becomes non-zero (a signal handler
 * sets it).  Owns the terminal meanwhile and restores it before returning, also on fatal
 * signals.  Returns 0, or -TN_EIO with err filled when the terminal could not be set up. */
int tn_tui_run(struct tn_tui *t, const struct tn_analyzer *an, volatile sig_atomic_t *stop,
               struct tn_err *err);

void tn_tui_free(struct tn_tui *t);

#endif
