/* tui_main.c - composition of the --tui mode: a capture thread runs the shared read loop
 * (pipeline.c) into the analyzer under a mutex; this thread runs the dashboard, which copies
 * snapshots under the same mutex.  q or Ctrl-C stops both; then the final report is printed
 * and every output file (-w, --csv, --plot, --xplot) is completed, as in the offline mode. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "multi.h"
#include "pipeline.h"
#include "render.h"
#include "tui.h"
#include "tui_main.h"

static volatile sig_atomic_t stop_ui;
static struct tn_capture *volatile running_capture;

static void on_signal(int sig)
{
    (void)sig;
    stop_ui = 1;
    if (running_capture)
        tn_capture_break(running_capture);
}

struct capture_thread {
    struct tn_pipeline pl;
    pthread_mutex_t lock;
    struct tn_tui_feed feed;
    atomic_bool stop;
    struct tn_tui *tui;
    int status;
    bool finished;
};

static void feed_warn(void *arg, const char *msg)
{
    struct capture_thread *ct = arg;
    ct->feed.nwarnings++;
    snprintf(ct->feed.warning, sizeof ct->feed.warning, "%s", msg);
}

static void feed_tick(void *arg, struct tn_capture *cap)
{
    struct capture_thread *ct = arg;
    struct tn_capture_stats cs;
    tn_capture_get_stats(cap, &cs);
    ct->feed.kernel_recv = cs.kernel_recv;
    ct->feed.kernel_drop = cs.kernel_drop;
    ct->feed.if_drop = cs.if_drop;
    ct->feed.failed = ct->pl.failed;
}

static void feed_trace_tick(void *arg, int64_t t_ns)
{
    struct capture_thread *ct = arg;
    tn_tui_sample(ct->tui, ct->pl.an, t_ns);
}

static void *capture_main(void *arg)
{
    struct capture_thread *ct = arg;
    ct->status = tn_pipeline_run(&ct->pl);
    /* End of input (not a stop request): finish now, so the dashboard shows the final numbers,
     * the same the report will print. */
    if (!atomic_load(&ct->stop)) {
        pthread_mutex_lock(&ct->lock);
        tn_analyzer_finish(ct->pl.an);
        const struct tn_trace_stats *st = tn_analyzer_stats(ct->pl.an);
        if (st->have_time)   /* the last point of every plot */
            tn_tui_sample(ct->tui, ct->pl.an, st->last.sec * 1000000000 + st->last.nsec);
        ct->finished = true;
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
    if (tn_cli_multi_input(o)) {
        tn_cli_warn("--tui reads one trace or interface: not with --ingress/--egress, --ns2 or --experiment");
        return TN_EXIT_USAGE;
    }
    struct tn_capture *cap = NULL;
    int r = tn_pipeline_open_input(o, &cap, &err);
    if (r < 0) {
        tn_cli_warn(err.msg);
        return r == -TN_EUSAGE ? TN_EXIT_USAGE : TN_EXIT_INPUT;
    }
    int status = TN_EXIT_OK;
    if (o->write_file && tn_capture_dump_open(cap, o->write_file, &err) < 0) {
        tn_cli_warn(err.msg);
        status = TN_EXIT_INPUT;
    }

    struct capture_thread *ct = tn_xcalloc(1, sizeof *ct);
    pthread_mutex_init(&ct->lock, NULL);
    atomic_init(&ct->stop, false);
    ct->feed.live = o->iface != NULL;

    struct tn_tui_cfg tcfg = {
        .source = o->iface ? o->iface : o->files[0],
        .live = o->iface != NULL,
        .replay_speed = o->replay_speed,
        .idle_timeout_s = o->idle_timeout_s,
        .export_dir = "tcptrace-ng-export",
        .plot = {.format = "png", .width = o->plot_width, .height = o->plot_height, .scale = o->plot_scale},
        .refresh_ms = 200,
        .stats_file = getenv("TCPTRACE_NG_TUI_STATS"),
    };
    struct tn_analysis_cfg acfg;
    tn_pipeline_analysis_cfg(o, &acfg);
    tn_cli_multi_analysis_cfg(o, &acfg);
    tcfg.history = acfg.record_packets;
    struct tn_tui *tui = tn_tui_new(&tcfg, &ct->lock, &ct->feed, &err);
    ct->tui = tui;
    acfg.on_event = tn_tui_on_event;
    acfg.on_event_arg = tui;

    struct tn_dissect_cfg dcfg;
    tn_dissect_cfg_default(&dcfg);
    dcfg.dfcp_ipproto = o->dfcp_ipproto;
    dcfg.dfcp_udp_port = o->dfcp_udp_port;
    struct tn_analyzer *an = tn_analyzer_new(&acfg);
    ct->pl = (struct tn_pipeline){
        .cap = cap,
        .dcfg = &dcfg,
        .an = an,
        .lock = &ct->lock,
        .live = o->iface != NULL,
        .replay_speed = o->replay_speed,
        .stop = &ct->stop,
        .on_warn = feed_warn,
        .on_tick = feed_tick,
        .on_trace_tick = feed_trace_tick,
        .trace_tick_ns = TN_TUI_SAMPLE_NS,
        .arg = ct,
        .retire_idle_ns = tn_pipeline_retire_ns(o, &acfg),
    };

    running_capture = cap;
    install_signals();
    pthread_t th;
    if (start_thread(&th, ct) != 0) {
        tn_cli_warn("cannot start the capture thread");
        running_capture = NULL;
        tn_capture_close(cap, NULL);
        tn_analyzer_free(an);
        tn_tui_free(tui);
        free(ct);
        return TN_EXIT_INPUT;
    }
    int ur = tn_tui_run(tui, an, &stop_ui, &err);

    /* Stop the capture thread (a no-op when the input already ended) and wait for it. */
    atomic_store(&ct->stop, true);
    tn_capture_break(cap);
    pthread_join(th, NULL);
    running_capture = NULL;
    if (ur < 0) {
        tn_cli_warn(err.msg);
        status = TN_EXIT_USAGE;
    }
    if (ct->status > status)
        status = ct->status;
    if (!ct->finished)
        tn_analyzer_finish(an);
    if (ct->feed.nwarnings)   /* they were shown on the screen; the terminal keeps the last one */
        fprintf(stderr, "tcptrace-ng: %u warning%s while reading; the last: %s\n", ct->feed.nwarnings,
                ct->feed.nwarnings == 1 ? "" : "s", ct->feed.warning);

    status = tn_pipeline_finish(o, an, cap, status);
    tn_analyzer_free(an);
    tn_tui_free(tui);
    tn_pipeline_fini(&ct->pl);
    pthread_mutex_destroy(&ct->lock);
    free(ct);
    return status;
}
