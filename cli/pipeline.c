/* pipeline.c - the read loop (capture -> dissect -> analysis) shared by the offline report and
 * the dashboard, privilege dropping after a live open, and the outputs written at the end. */
#include <errno.h>
#include <stdint.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "multi.h"
#include "pipeline.h"
#include "render.h"

void tn_cli_warn(const char *msg)
{
    fprintf(stderr, "tcptrace-ng: %s\n", msg);
}

static const char *intern_source(struct tn_source_names *s, const char *name)
{
    if (!name)
        return "?";
    if (s->n && strcmp(s->v[s->n - 1], name) == 0)
        return s->v[s->n - 1];
    tn_grow((void **)&s->v, &s->cap, s->n + 1, sizeof *s->v);
    s->v[s->n] = tn_xstrdup(name);
    return s->v[s->n++];
}

void tn_pipeline_fini(struct tn_pipeline *p)
{
    for (size_t i = 0; i < p->names.n; i++)
        free(p->names.v[i]);
    free(p->names.v);
    p->names = (struct tn_source_names){0};
}

/* setgid/initgroups/setuid to USER, as tcpdump -Z does after opening the interface. */
static int drop_privileges(const char *user, struct tn_err *err)
{
    errno = 0;
    struct passwd *pw = getpwnam(user);
    if (!pw)
        return tn_err_set(err, TN_EUSAGE, "-Z: no user '%s'%s%s", user, errno ? ": " : "",
                          errno ? strerror(errno) : "");
    if (initgroups(pw->pw_name, pw->pw_gid) < 0 || setgid(pw->pw_gid) < 0 || setuid(pw->pw_uid) < 0)
        return tn_err_set(err, TN_EIO, "-Z: cannot become user '%s': %s", user, strerror(errno));
    if (pw->pw_uid != 0 && setuid(0) == 0)   /* paranoia: the drop must not be undoable */
        return tn_err_set(err, TN_EIO, "-Z: still able to regain root after becoming '%s'", user);
    return 0;
}

int tn_pipeline_open_input(const struct tn_options *o, struct tn_capture **cap, struct tn_err *err)
{
    int r;
    if (o->iface) {
        struct tn_live_opts lo = {
            .iface = o->iface,
            .filter = o->filter,
            .snaplen = o->snaplen ? o->snaplen : 256,
            .immediate = o->immediate,
            .buffer_kib = o->buffer_kib,
            .promisc = o->promisc,
        };
        r = tn_capture_open_live(cap, &lo, err);
    } else {
        r = tn_capture_open_files(cap, o->files, o->nfiles, err);
    }
    if (r < 0 || !o->user)
        return r;
    struct tn_err derr;
    r = drop_privileges(o->user, &derr);
    if (r < 0) {
        tn_capture_close(*cap, NULL);
        *cap = NULL;
        *err = derr;
    }
    return r;
}

/* Records kept per TCP connection for figures before neighbours merge: 8 per pixel column of a
 * 16000-pixel-wide figure, 32 MiB per connection. */
#define TN_FIGURE_PACKETS (1u << 18)

void tn_pipeline_analysis_cfg(const struct tn_options *o, struct tn_analysis_cfg *acfg)
{
    bool files = o->csv_dir || o->plot_dir || o->xplot_dir;
    *acfg = (struct tn_analysis_cfg){
        .record_events = files || o->timeline || o->truth_file,
        .record_series = files || o->truth_file,
        .record_packets = files,
        /* every packet only where one is written out: packets.csv, --xplot-full */
        .packet_cap = o->csv_dir || (o->xplot_dir && o->xplot_full) ? 0 : TN_FIGURE_PACKETS,
        .interval_ns = o->interval_ns,
    };
}

static int64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

enum { BATCH_PKTS = 256, BATCH_NS = 10000000, TICK_NS = 100000000, SLEEP_SLICE_NS = 50000000 };

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
    return p->stop && atomic_load(p->stop);
}

/* Sleep until the frame's turn at the replay speed; false when asked to stop meanwhile. */
static bool pace(struct tn_pipeline *p, struct held *h, struct tn_time ts, int64_t *t0, int64_t *w0)
{
    int64_t t = ts.sec * 1000000000 + ts.nsec;
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

int tn_pipeline_run(struct tn_pipeline *p)
{
    int status = TN_EXIT_OK;
    struct tn_frame f;
    struct tn_pkt pk;
    struct tn_err err;
    const char *last_src = NULL, *src_name = "?";
    struct held h = {.lock = p->lock};
    int64_t t0 = 0, w0 = 0, last_tick = 0, next_trace_tick = INT64_MIN, last_retire = 0;
    while (!stopping(p)) {
        if (p->live)
            give(&h);
        int r = tn_capture_next(p->cap, &f, &err);
        if (r == 0)
            break;
        if (r < 0) {
            p->failed++;
            warn_locked(p, &h, err.msg);
            if (r != -TN_ETRUNC)
                status = TN_EXIT_INPUT;
            continue;
        }
        if (f.source != last_src) {
            last_src = f.source;
            src_name = intern_source(&p->names, f.source);
        }
        int st = tn_dissect(p->dcfg, f.linktype, f.data, f.caplen, f.wirelen, f.ts, f.num, &pk);
        if (p->replay_speed > 0 && !pace(p, &h, f.ts, &t0, &w0))
            break;
        take(&h);
        tn_analyzer_add(p->an, &pk, st, src_name);
        if (p->retire_idle_ns > 0) {
            int64_t t = tn_time_ns(f.ts);
            if (t - last_retire >= 1000000000) {
                tn_analyzer_retire_idle(p->an, t, p->retire_idle_ns);
                last_retire = t;
            }
        }
        if (p->on_trace_tick) {
            int64_t t = f.ts.sec * 1000000000 + f.ts.nsec;
            if (t >= next_trace_tick) {
                p->on_trace_tick(p->arg, t);
                next_trace_tick = (t / p->trace_tick_ns + 1) * p->trace_tick_ns;
            }
        }
        if (!h.lock)
            continue;
        if (++h.n >= BATCH_PKTS || mono_ns() - h.since >= BATCH_NS) {
            int64_t now = mono_ns();
            if (p->on_tick && now - last_tick >= TICK_NS) {
                p->on_tick(p->arg, p->cap);
                last_tick = now;
            }
            give(&h);
        }
    }
    if (p->on_tick) {
        take(&h);
        p->on_tick(p->arg, p->cap);
    }
    give(&h);
    return status;
}

int64_t tn_pipeline_retire_ns(const struct tn_options *o, const struct tn_analysis_cfg *acfg)
{
    bool history = acfg->record_events || acfg->record_series || acfg->record_packets;
    if (!(o->iface || o->tui) || history || o->idle_timeout_s <= 0)
        return 0;
    return (int64_t)(o->idle_timeout_s * 1e9);
}

void tn_pipeline_report_capture_stats(struct tn_capture *cap)
{
    struct tn_capture_stats cs;
    tn_capture_get_stats(cap, &cs);
    if (cs.live)
        fprintf(stdout,
                "\nCapture: %llu packets received by filter, %llu dropped by kernel, "
                "%llu dropped by interface\n",
                (unsigned long long)cs.kernel_recv, (unsigned long long)cs.kernel_drop,
                (unsigned long long)cs.if_drop);
}

/* Turn --connection picks into connection numbers; endpoint specs match either direction. */
unsigned *tn_pipeline_resolve_picks(const struct tn_options *o, const struct tn_analyzer *an, size_t *n)
{
    *n = 0;
    if (o->npicks == 0)
        return NULL;
    size_t nconn = tn_analyzer_conn_count(an);
    unsigned *v = tn_xcalloc((size_t)o->npicks + nconn, sizeof *v);
    for (int i = 0; i < o->npicks; i++) {
        if (o->picks[i].idx) {
            v[(*n)++] = o->picks[i].idx;
            continue;
        }
        for (size_t k = 0; k < nconn; k++) {
            const struct tn_conn *c = tn_analyzer_conn(an, k);
            char a[64], b[64], s1[160], s2[160];
            tn_addr_str(&c->a, a, sizeof a);
            tn_addr_str(&c->b, b, sizeof b);
            snprintf(s1, sizeof s1, "%s:%u-%s:%u", a, c->a_port, b, c->b_port);
            snprintf(s2, sizeof s2, "%s:%u-%s:%u", b, c->b_port, a, c->a_port);
            if (strcmp(o->picks[i].spec, s1) == 0 || strcmp(o->picks[i].spec, s2) == 0)
                v[(*n)++] = c->idx;
        }
    }
    return v;
}

/* Each file output: its error is reported, the others are still written. */
static int check(int r, const struct tn_err *err)
{
    if (r >= 0)
        return TN_EXIT_OK;
    tn_cli_warn(err->msg);
    return TN_EXIT_INPUT;
}

static int write_files(const struct tn_options *o, const struct tn_analyzer *an, const struct tn_view *v)
{
    struct tn_err err;
    int status = TN_EXIT_OK, r;
    if (o->csv_dir) {
        r = check(tn_csv_write_connections(o->csv_dir, an, v->sel, &err), &err);
        status = r > status ? r : status;
        r = check(tn_csv_write_events(o->csv_dir, an, v, &err), &err);
        status = r > status ? r : status;
        r = check(tn_csv_write_series(o->csv_dir, an, v, &err), &err);
        status = r > status ? r : status;
        /* packets.csv and dfcp_blocks.csv: render_csv_packets.c, render_csv_dfcp.c */
        r = check(tn_csv_write_packets(o->csv_dir, an, v, &err), &err);
        status = r > status ? r : status;
        r = check(tn_csv_write_dfcp_blocks(o->csv_dir, an, v, &err), &err); status = r > status ? r : status;
    }
    /* figures (--plot) and xplot files (--xplot): render_plot*.c, render_xplot.c */
    if (o->plot_dir) {
        struct tn_plot_opts po = {
            .format = o->plot_format,
            .width = o->plot_width,
            .height = o->plot_height,
            .scale = o->plot_scale,
            .truth_file = o->truth_file,
        };
        r = check(tn_plot_write_all(o->plot_dir, an, v, &po, &err), &err);
        status = r > status ? r : status;
    }
    if (o->xplot_dir) {
        r = check(tn_xplot_write_all(o->xplot_dir, an, v, o->xplot_full, &err), &err);
        status = r > status ? r : status;
    }
    return status;
}

static int report_truth(const char *path, const struct tn_analyzer *an)
{
    struct tn_truth *truth;
    struct tn_err err;
    if (tn_truth_load(path, &truth, &err) < 0) {
        tn_cli_warn(err.msg);
        return TN_EXIT_INPUT;
    }
    size_t max = 2 * tn_analyzer_conn_count(an) + 1;
    struct tn_accuracy *acc = tn_xcalloc(max, sizeof *acc);
    size_t n = tn_truth_compare(truth, an, acc, max);
    tn_report_accuracy(stdout, acc, n);
    free(acc);
    tn_truth_free(truth);
    return TN_EXIT_OK;
}

int tn_pipeline_write_outputs(const struct tn_options *o, const struct tn_analyzer *an)
{
    size_t nsel;
    unsigned *picked = tn_pipeline_resolve_picks(o, an, &nsel);
    struct tn_selection sel = {picked, nsel};
    const struct tn_trace_stats *st = tn_analyzer_stats(an);
    int64_t t0 = st->have_time ? st->first.sec * 1000000000 + st->first.nsec : 0;
    struct tn_view view = {
        .sel = o->npicks ? &sel : NULL,
        .from_ns = o->from_ns ? t0 + o->from_ns : 0,
        .to_ns = o->to_ns ? t0 + o->to_ns : 0,
        .absolute_seq = o->absolute_seq,
    };
    if (o->npicks && nsel == 0)
        tn_cli_warn("--connection: no connection matches the selection");
    if (!o->quiet)
        tn_report_list(stdout, an, view.sel);
    if (o->long_report)
        tn_report_long(stdout, an, view.sel);
    if (o->timeline)
        tn_report_timeline(stdout, an, &view);
    tn_report_summary(stdout, an);
    int status = write_files(o, an, &view);
    if (o->truth_file)
        status = report_truth(o->truth_file, an) > status ? TN_EXIT_INPUT : status;
    free(picked);
    return status;
}

int tn_pipeline_finish(const struct tn_options *o, struct tn_analyzer *an, struct tn_capture *cap, int status)
{
    struct tn_err err;
    bool nothing_read = tn_analyzer_stats(an)->frames == 0 && status == TN_EXIT_INPUT;
    if (!nothing_read) {   /* an unreadable input alone gets its error, not an empty report */
        int wr = tn_pipeline_write_outputs(o, an);
        int mr = tn_cli_multi_outputs(o, an);   /* fairness, parallel, queue estimate */
        wr = mr > wr ? mr : wr;
        if (wr > status)
            status = wr;
    }
    tn_pipeline_report_capture_stats(cap);
    if (tn_capture_close(cap, &err) < 0) {
        tn_cli_warn(err.msg);
        status = TN_EXIT_INPUT;
    }
    return status;
}
