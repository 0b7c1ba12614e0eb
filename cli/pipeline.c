/* pipeline.c - the one read loop (source -> analysis) of every run, and the analysis
 * configuration the options ask for. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pipeline.h"
#include "safeout.h"
#include "shards.h"

/* Records kept per TCP connection for figures before neighbours merge: 8 per pixel column of a
 * 16000-pixel-wide figure, 32 MiB per connection. */
#define TN_FIGURE_PACKETS (1u << 18)

void tn_pipeline_analysis_cfg(const struct tn_options *o, struct tn_analysis_cfg *acfg)
{
    bool files = o->csv_dir || o->plot_dir || o->xplot_dir || o->senders_json;
    *acfg = (struct tn_analysis_cfg){
        .record_events = files || o->timeline || o->truth_file,
        .record_series = files || o->truth_file,
        .record_packets = files,
        /* every packet only where one is written out: packets.csv, --xplot-full */
        .packet_cap = o->csv_dir || (o->xplot_dir && o->xplot_full) ? 0 : TN_FIGURE_PACKETS,
        .interval_ns = o->interval_ns,
        /* --from/--to: the counters count the window, the inference sees every packet */
        .window = {.on = o->from_ns || o->to_ns, .conn_base = o->time_base_conn,
                   .from_ns = o->from_ns, .to_ns = o->to_ns},
    };
    /* the multi-flow outputs: per-window bytes of each flow (merged records keep their byte
     * sums, so figures' caps are fine) and RTT samples and goodput for the queue estimate */
    if (o->fairness || o->parallel_window_ns || o->csv_dir || o->plot_dir)
        acfg->record_packets = true;
    if (o->queue_estimate || o->ningress || o->ingress_if)
        acfg->record_series = true;
    acfg->max_conns = tn_pipeline_max_conns(o);
}

unsigned tn_pipeline_workers(const struct tn_options *o)
{
    return o->tui ? 1 : tn_shards_default(o->threads);
}

/* The state of an open connection with data both ways: the core, two senders, their window
 * models and rings (measured on complete short connections, tests/bench/scale_bench.sh). */
#define CONN_STATE_BYTES 8192

size_t tn_pipeline_max_conns(const struct tn_options *o)
{
    if (o->tui)
        return 0;   /* the dashboard follows connections by their place in the table */
    if (o->max_conns >= 0)
        return (size_t)o->max_conns;
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || psize <= 0)
        return 0;
    return (size_t)pages / 2 * (size_t)psize / CONN_STATE_BYTES;   /* half the memory */
}

int64_t tn_pipeline_retire_ns(const struct tn_options *o, const struct tn_analysis_cfg *acfg)
{
    bool history = acfg->record_events || acfg->record_series || acfg->record_packets;
    if (!(o->iface || o->tui) || history || o->idle_timeout_s <= 0)
        return 0;
    return (int64_t)(o->idle_timeout_s * 1e9);
}

/* The signal handler's only way to reach the source: set before the loop, NULL after it. */
static struct tn_source *volatile signalled_source;
static volatile sig_atomic_t signals_seen, first_signal;

/* The first SIGINT/SIGTERM while reading stops the reading: the outputs are still written, and
 * the run ends with 128 + the signal's number.  A second one, or one when no reading is going on
 * (the outputs are being written), ends the run at once: every temporary output is removed
 * (safeout.h), so no partial file stands under a final name. */
static void on_signal(int sig)
{
    if (signals_seen++ == 0 && signalled_source) {
        first_signal = sig;
        tn_source_break(signalled_source);
        return;
    }
    tn_safeout_abort_all();
    _exit(128 + sig);
}

void tn_pipeline_signals(struct tn_source *src)
{
    signalled_source = src;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

static int64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

enum { BATCH_PKTS = 256, BATCH_NS = 10000000, TICK_NS = 100000000, SLEEP_SLICE_NS = 50000000 };

/* Idle retirement is checked once a second of trace time. */
#define RETIRE_CHECK_NS 1000000000

/* Lock bookkeeping of the loop: taken lazily before the analyzer is touched, given back after a
 * batch and before anything that may wait. */
struct held {
    pthread_mutex_t *lock;
    bool on;
    int n;
    int64_t since;
};

static void take(struct held *h)
{
    if (!h->lock || h->on)
        return;
    pthread_mutex_lock(h->lock);
    h->on = true;
    h->n = 0;
    h->since = mono_ns();
}

static void give(struct held *h)
{
    if (h->lock && h->on) {
        pthread_mutex_unlock(h->lock);
        h->on = false;
    }
}

static bool stopping(const struct tn_pipeline *p)
{
    return (p->stop && atomic_load(p->stop)) || first_signal;
}

/* Sleep until the packet's turn at the replay speed; false when asked to stop meanwhile. */
static bool pace(struct tn_pipeline *p, struct held *h, struct tn_time ts, int64_t *t0, int64_t *w0)
{
    int64_t t = tn_time_ns(ts);
    if (!*w0) {
        *t0 = t;
        *w0 = mono_ns();
        return true;
    }
    int64_t due = *w0 + (int64_t)((double)(t - *t0) / p->replay_speed);
    for (;;) {
        int64_t now = mono_ns();
        if (due <= now)
            return true;
        if (stopping(p))
            return false;
        give(h);
        int64_t d = due - now < SLEEP_SLICE_NS ? due - now : SLEEP_SLICE_NS;
        struct timespec sl = {(time_t)(d / 1000000000), (long)(d % 1000000000)};
        nanosleep(&sl, NULL);
    }
}

static void warn_locked(struct tn_pipeline *p, struct held *h, const char *msg)
{
    if (!p->on_warn) {
        tn_cli_warn(msg);
        return;
    }
    take(h);
    p->on_warn(p->arg, msg);
}

/* The analysis of one item: in the analyzer, or counted there and handed to its worker. */
static void analyze(struct tn_pipeline *p, struct tn_shards *sh, const struct tn_source_pkt *sp)
{
    if (!sh) {
        tn_analyzer_add(p->an, &sp->pkt, sp->status, sp->origin);
        return;
    }
    struct tn_pkt_place place = tn_analyzer_count(p->an, &sp->pkt, sp->status, sp->origin);
    if (sp->pkt.kind == TN_PK_TCP || sp->pkt.kind == TN_PK_DFCP)
        tn_shards_pkt(sh, &sp->pkt, place);
}

static struct tn_shards *start_workers(struct tn_pipeline *p)
{
    if (p->workers < 2 || p->lock)
        return NULL;
    struct tn_shards *sh = tn_shards_new(p->workers, tn_analyzer_cfg(p->an), p->src->live);
    if (!sh)
        tn_cli_warn("cannot start the analysis threads: running on one (-j 1)");
    return sh;
}

int tn_pipeline_run(struct tn_pipeline *p)
{
    int status = TN_EXIT_OK;
    struct tn_shards *sh = start_workers(p);
    struct tn_source_pkt sp;
    struct tn_err err;
    struct held h = {.lock = p->lock};
    int64_t t0 = 0, w0 = 0, last_tick = 0, next_trace_tick = INT64_MIN, last_retire = 0;
    uint64_t last_num = 0;
    const char *last_origin = NULL;
    while (!stopping(p)) {
        if (p->src->live)
            give(&h);
        int r = tn_source_next(p->src, &sp, &err);
        if (r == 0)
            break;
        if (r < 0) {
            p->failed++;
            warn_locked(p, &h, err.msg);
            if (r != -TN_ETRUNC)
                status = TN_EXIT_INPUT;
            continue;
        }
        if (sp.has_pkt && p->replay_speed > 0 && !pace(p, &h, sp.pkt.ts, &t0, &w0))
            break;
        take(&h);
        if (sp.has_pkt && !sp.egress)
            analyze(p, sh, &sp);
        if (p->on_item)
            p->on_item(p->item_arg, &sp);
        if (!sp.has_pkt)
            continue;
        last_num = sp.pkt.num;
        last_origin = sp.origin;
        int64_t t = tn_time_ns(sp.pkt.ts);
        if (p->retire_idle_ns > 0 && t - last_retire >= RETIRE_CHECK_NS) {
            if (sh)
                tn_shards_retire(sh, t, p->retire_idle_ns);
            else
                tn_analyzer_retire_idle(p->an, t, p->retire_idle_ns);
            last_retire = t;
        }
        if (p->on_trace_tick && t >= next_trace_tick) {
            p->on_trace_tick(p->arg, t);
            next_trace_tick = (t / p->trace_tick_ns + 1) * p->trace_tick_ns;
        }
        if (!h.lock)
            continue;
        if (++h.n >= BATCH_PKTS || mono_ns() - h.since >= BATCH_NS) {
            int64_t now = mono_ns();
            if (p->on_tick && now - last_tick >= TICK_NS) {
                p->on_tick(p->arg, p->src);
                last_tick = now;
            }
            give(&h);
        }
    }
    if (p->on_tick) {
        take(&h);
        p->on_tick(p->arg, p->src);
    }
    give(&h);
    if (sh)
        p->dropped += tn_shards_end(sh, p->an);
    /* a live capture ends this way: its report is whole; a trace read part way is not */
    if (first_signal && !p->src->live) {
        char msg[4400];
        snprintf(msg, sizeof msg, "interrupted by %s: reading stopped after packet %llu of %s; the "
                 "report and the files cover the trace up to there only",
                 first_signal == SIGINT ? "SIGINT" : "SIGTERM", (unsigned long long)last_num,
                 last_origin ? last_origin : "the input");
        warn_locked(p, &h, msg);
        give(&h);
        status = tn_exit_worst(status, 128 + first_signal);
    }
    return status;
}
