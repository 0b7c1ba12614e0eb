/* tui_main.c - composition of the --tui mode: a capture thread runs the one read loop
 * (pipeline.c) of the run (run.c) into the analyzer under a mutex; this thread runs the dashboard, which copies
 * snapshots under the same mutex.  q or Ctrl-C stops both; then the final report is printed
 * and every output file (-w, --csv, --plot, --xplot) is completed, as in the offline mode. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pipeline.h"
#include "render.h"
#include "run.h"
#include "tui.h"
#include "tui_main.h"

static volatile sig_atomic_t stop_ui;
static struct tn_source *volatile running_source;

static void on_signal(int sig)
{
    (void)sig;
    stop_ui = 1;
    if (running_source)
        tn_source_break(running_source);
}

struct capture_thread {
    struct tn_run run;
    pthread_mutex_t lock;
    struct tn_tui_feed feed;
    atomic_bool stop;
    struct tn_tui *tui;
    int status;
};

static void feed_warn(void *arg, const char *msg)
{
    struct capture_thread *ct = arg;
    ct->feed.nwarnings++;
    snprintf(ct->feed.warning, sizeof ct->feed.warning, "%s", msg);
}

static void feed_tick(void *arg, struct tn_source *src)
{
    struct capture_thread *ct = arg;
    struct tn_capture_stats cs;
    tn_source_stats(src, &cs);
    ct->feed.kernel_recv = cs.kernel_recv;
    ct->feed.kernel_drop = cs.kernel_drop;
    ct->feed.if_drop = cs.if_drop;
    ct->feed.failed = ct->run.pl.failed;
}

static void feed_trace_tick(void *arg, int64_t t_ns)
{
    struct capture_thread *ct = arg;
    tn_tui_sample(ct->tui, ct->run.an, t_ns);
}

static void *capture_main(void *arg)
{
    struct capture_thread *ct = arg;
    ct->status = tn_pipeline_run(&ct->run.pl);
    /* End of input (not a stop request): finish now, so the dashboard shows the final numbers,
     * the same the report will print. */
    if (!atomic_load(&ct->stop)) {
        pthread_mutex_lock(&ct->lock);
        tn_run_finish_analysis(&ct->run);
        const struct tn_trace_stats *st = tn_analyzer_stats(ct->run.an);
        if (st->have_time)   /* the last point of every plot */
            tn_tui_sample(ct->tui, ct->run.an, tn_time_ns(st->last));
        ct->feed.finished = true;
        pthread_mutex_unlock(&ct->lock);
    }
    return NULL;
}

static void install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

/* The capture thread gets no asynchronous signals: they go to the dashboard's thread, whose
 * getch() wakes up and sees stop_ui. */
static int start_thread(pthread_t *th, struct capture_thread *ct)
{
    sigset_t all, old;
    sigemptyset(&all);
    sigaddset(&all, SIGINT);
    sigaddset(&all, SIGTERM);
    sigaddset(&all, SIGHUP);
    sigaddset(&all, SIGWINCH);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int r = pthread_create(th, NULL, capture_main, ct);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return r;
}

int tn_tui_main(const struct tn_options *o)
{
    struct tn_err err;
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        tn_cli_warn("--tui needs a terminal on standard input and output");
        return TN_EXIT_USAGE;
    }
    if (o->ningress > 0 || o->ingress_if || o->ns2_file || o->nexps > 0) {
        tn_cli_warn("--tui reads one trace or interface: not with --ingress/--egress, --ns2 or --experiment");
        return TN_EXIT_USAGE;
    }
    struct capture_thread *ct = tn_xcalloc(1, sizeof *ct);
    struct tn_run *run = &ct->run;
    int r = tn_run_open(run, o);
    if (r != 0) {
        free(ct);
        return r;
    }
    pthread_mutex_init(&ct->lock, NULL);
    atomic_init(&ct->stop, false);
    ct->feed.live = o->iface != NULL;

    struct tn_tui_cfg tcfg = {
        .source = o->iface ? o->iface : o->files[0],
        .live = o->iface != NULL,
        .replay_speed = o->replay_speed,
        .idle_timeout_s = o->idle_timeout_s,
        .export_dir = "tcptrace-ng-export",
        .plot = {.format = "png", .width = o->plot_width, .height = o->plot_height, .scale = o->plot_scale,
                 .all_connections = o->all_connections},
        .refresh_ms = 200,
        .stats_file = getenv("TCPTRACE_NG_TUI_STATS"),
    };
    tcfg.history = run->acfg.record_packets;
    struct tn_tui *tui = tn_tui_new(&tcfg, &ct->lock, &ct->feed, &err);
    ct->tui = tui;
    run->acfg.on_event = tn_tui_on_event;
    run->acfg.on_event_arg = tui;
    tn_run_start(run);
    run->pl.lock = &ct->lock;
    run->pl.stop = &ct->stop;
    run->pl.on_warn = feed_warn;
    run->pl.on_tick = feed_tick;
    run->pl.on_trace_tick = feed_trace_tick;
    run->pl.trace_tick_ns = TN_TUI_SAMPLE_NS;
    run->pl.arg = ct;

    running_source = run->src;
    install_signals();
    pthread_t th;
    if (start_thread(&th, ct) != 0) {
        tn_cli_warn("cannot start the capture thread");
        running_source = NULL;
        tn_run_discard(run);
        tn_tui_free(tui);
        pthread_mutex_destroy(&ct->lock);
        free(ct);
        return TN_EXIT_INPUT;
    }
    int ur = tn_tui_run(tui, run->an, &stop_ui, &err);

    /* Stop the capture thread (a no-op when the input already ended) and wait for it. */
    atomic_store(&ct->stop, true);
    tn_source_break(run->src);
    pthread_join(th, NULL);
    running_source = NULL;
    int status = run->status;
    if (ur < 0) {
        tn_cli_warn(err.msg);
        status = TN_EXIT_USAGE;
    }
    run->status = tn_exit_worst(status, ct->status);
    if (ct->feed.nwarnings)   /* they were shown on the screen; the terminal keeps the last one */
        fprintf(stderr, "tcptrace-ng: %u warning%s while reading; the last: %s\n", ct->feed.nwarnings,
                ct->feed.nwarnings == 1 ? "" : "s", ct->feed.warning);

    status = tn_run_end(run);
    tn_tui_free(tui);
    pthread_mutex_destroy(&ct->lock);
    free(ct);
    return status;
}
