/* multi.c - composition of the multi-flow views (issue 7): two capture points merged by time,
 * ns-2 traces, experiments over labelled traces, and the fairness / parallel-transfer / queue
 * estimate outputs of an ordinary run. */
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "dissect.h"
#include "multi.h"
#include "ns2.h"
#include "pipeline.h"
#include "render.h"

/* Results that live from the computation to the last output. */
struct mstate {
    struct tn_fairness fair;
    bool have_fair;
    struct tn_parallel *par;
    size_t npar;
    struct tn_q1_result q1;
    bool have_q1;
    unsigned *sel;
    size_t nsel;
    struct tn_selection selection;
    struct tn_view view;
    struct tn_multi m;
};

bool tn_cli_multi_input(const struct tn_options *o)
{
    return o->ningress > 0 || o->ingress_if || o->ns2_file || o->nexps > 0;
}

void tn_cli_multi_analysis_cfg(const struct tn_options *o, struct tn_analysis_cfg *acfg)
{
    bool files = o->csv_dir || o->plot_dir;
    if (o->fairness || o->parallel_window_ns || files)
        acfg->record_packets = true;   /* per-window bytes of each flow (merged records keep
                                        * their byte sums, so figures' caps are fine) */
    if (o->queue_estimate || o->ningress || o->ingress_if)
        acfg->record_series = true;    /* RTT samples and goodput */
}

/* --connection picks: numbers, or endpoints "A:P-B:P" in either order. */
static void resolve(const struct tn_options *o, const struct tn_analyzer *an, struct mstate *s)
{
    if (o->npicks == 0)
        return;
    s->sel = tn_pipeline_resolve_picks(o, an, &s->nsel);
    s->selection = (struct tn_selection){s->sel, s->nsel};
    s->view.sel = &s->selection;
}

static size_t data_conns(const struct tn_analyzer *an)
{
    size_t n = 0;
    for (size_t i = 0; i < tn_analyzer_conn_count(an); i++) {
        const struct tn_conn *c = tn_analyzer_conn(an, i);
        n += c->d[TN_A2B].data_bytes + c->d[TN_B2A].data_bytes > 0;
    }
    return n;
}

static void fair_cfg(const struct tn_options *o, const struct mstate *s, struct tn_fair_cfg *fc)
{
    memset(fc, 0, sizeof *fc);
    fc->by = (enum tn_fair_by)o->fair_by;
    fc->window_ns = o->fair_window_ns ? o->fair_window_ns : o->interval_ns;
    fc->sel = s ? s->sel : NULL;
    fc->nsel = s ? s->nsel : 0;
    fc->min_share = fc->by == TN_FAIR_CONN ? 0.01 : 0;
}

static void compute(const struct tn_options *o, const struct tn_analyzer *an, struct mstate *s)
{
    const struct tn_trace_stats *st = tn_analyzer_stats(an);
    int64_t t0 = st->have_time ? st->first.sec * 1000000000 + st->first.nsec : 0;
    s->view.from_ns = o->from_ns ? t0 + o->from_ns : 0;
    s->view.to_ns = o->to_ns ? t0 + o->to_ns : 0;
    resolve(o, an, s);
    bool files = o->csv_dir || o->plot_dir;
    if (o->fairness || (files && data_conns(an) >= 2)) {
        struct tn_fair_cfg fc;
        fair_cfg(o, s, &fc);
        tn_fairness_compute(an, &fc, &s->fair);
        s->have_fair = true;
        s->m.fair = &s->fair;
    }
    if (o->parallel_window_ns) {
        s->npar = tn_parallel_find(an, o->parallel_window_ns, o->fair_window_ns ? o->fair_window_ns : o->interval_ns,
                                   &s->par);
        s->m.par = s->par;
        s->m.npar = s->npar;
    }
    if (o->queue_estimate || o->ningress || o->ingress_if) {
        tn_q1_estimate(an, &s->q1);
        s->have_q1 = true;
        s->m.q1 = &s->q1;
    }
}

static void fini(struct mstate *s)
{
    if (s->have_fair)
        tn_fairness_fini(&s->fair);
    tn_parallel_free(s->par, s->npar);
    if (s->have_q1)
        tn_q1_fini(&s->q1);
    free(s->sel);
}

static int check(int r, const struct tn_err *err)
{
    if (r >= 0)
        return TN_EXIT_OK;
    tn_cli_warn(err->msg);
    return TN_EXIT_INPUT;
}

/* Text section, series.csv rows, figures. */
static int outputs(const struct tn_options *o, const struct tn_analyzer *an, struct mstate *s)
{
    bool text = o->fairness || s->npar || o->queue_estimate || s->m.q2 || s->m.linkq;
    if (text)
        tn_report_multi(stdout, an, &s->m);
    int status = TN_EXIT_OK, r;
    struct tn_err err;
    if (o->csv_dir) {
        r = check(tn_csv_append_multi_series(o->csv_dir, &s->m, &s->view, &err), &err);
        status = r > status ? r : status;
    }
    if (o->plot_dir) {
        struct tn_plot_opts po = {
            .format = o->plot_format,
            .width = o->plot_width,
            .height = o->plot_height,
            .scale = o->plot_scale,
        };
        r = check(tn_plot_write_multi(o->plot_dir, &s->m, &po, &err), &err);
        status = r > status ? r : status;
    }
    return status;
}

int tn_cli_multi_outputs(const struct tn_options *o, const struct tn_analyzer *an)
{
    struct mstate s = {0};
    compute(o, an, &s);
    int status = outputs(o, an, &s);
    fini(&s);
    return status;
}

/* ---- two capture points: every file of both sides merged by time stamp ---- */

struct source {
    struct tn_capture *cap;
    const char *path;
    bool egress, have;
    struct tn_pkt p;
    int st;
};

static void advance(struct source *src, const struct tn_dissect_cfg *dcfg, int *status)
{
    struct tn_frame f;
    struct tn_err err;
    for (;;) {
        int r = tn_capture_next(src->cap, &f, &err);
        if (r > 0) {
            src->st = tn_dissect(dcfg, f.linktype, f.data, f.caplen, f.wirelen, f.ts, f.num, &src->p);
            src->have = true;
            return;
        }
        if (r < 0) {
            tn_cli_warn(err.msg);
            if (r != -TN_ETRUNC)
                *status = TN_EXIT_INPUT;
            continue;   /* the reader moves on (or ends with 0) */
        }
        src->have = false;
        return;
    }
}

static int run_twopoint(const struct tn_options *o, const struct tn_dissect_cfg *dcfg, struct tn_analyzer *an,
                        struct tn_q2 *q2)
{
    int n = o->ningress + o->negress, status = TN_EXIT_OK;
    struct source *src = tn_xcalloc((size_t)n, sizeof *src);
    for (int i = 0; i < n; i++) {
        struct tn_err err;
        src[i].egress = i >= o->ningress;
        src[i].path = src[i].egress ? o->egress[i - o->ningress] : o->ingress[i];
        if (tn_capture_open_file(&src[i].cap, src[i].path, &err) < 0) {
            tn_cli_warn(err.msg);
            status = TN_EXIT_INPUT;
            continue;
        }
        advance(&src[i], dcfg, &status);
    }
    for (;;) {
        int best = -1;
        for (int i = 0; i < n; i++)
            if (src[i].have && (best < 0 || tn_time_cmp(src[i].p.ts, src[best].p.ts) < 0))
                best = i;
        if (best < 0)
            break;
        struct source *s = &src[best];
        if (!s->egress)   /* the report's connections are the ingress point's */
            tn_analyzer_add(an, &s->p, s->st, s->path);
        tn_q2_add(q2, &s->p, s->egress);
        advance(s, dcfg, &status);
    }
    for (int i = 0; i < n; i++)
        tn_capture_close(src[i].cap, NULL);
    free(src);
    return status;
}

/* ---- two capture points live: one capture on "any", each packet's interface from its Linux
 * cooked v2 header, so both points share one clock and one order ---- */

static struct tn_capture *volatile live_capture;

static void on_live_signal(int sig)
{
    (void)sig;
    if (live_capture)
        tn_capture_break(live_capture);
}

static int run_twopoint_live(const struct tn_options *o, const struct tn_dissect_cfg *dcfg,
                             struct tn_analyzer *an, struct tn_q2 *q2)
{
    unsigned in_idx = if_nametoindex(o->ingress_if), out_idx = if_nametoindex(o->egress_if);
    char msg[512];
    if (!in_idx || !out_idx) {
        snprintf(msg, sizeof msg, "%s: no such interface", !in_idx ? o->ingress_if : o->egress_if);
        tn_cli_warn(msg);
        return TN_EXIT_INPUT;
    }
    struct tn_live_opts lo = {
        .iface = "any",
        .filter = o->filter,
        .snaplen = o->snaplen ? o->snaplen : 256,
        .immediate = o->immediate,
        .buffer_kib = o->buffer_kib,
        .promisc = false,   /* "any" cannot be promiscuous; a router sees its own traffic */
        .linktype = TN_LINK_LINUX_SLL2,
    };
    struct tn_capture *cap;
    struct tn_err err = {0};
    if (tn_capture_open_live(&cap, &lo, &err) < 0) {
        tn_cli_warn(err.msg);
        return TN_EXIT_INPUT;
    }
    int status = TN_EXIT_OK;
    if (o->write_file && tn_capture_dump_open(cap, o->write_file, &err) < 0) {
        tn_cli_warn(err.msg);
        status = TN_EXIT_INPUT;
    }
    live_capture = cap;
    struct sigaction sa = {.sa_handler = on_live_signal};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    struct tn_frame f;
    struct tn_pkt p;
    int r;
    while ((r = tn_capture_next(cap, &f, &err)) != 0) {
        if (r < 0) {
            tn_cli_warn(err.msg);
            continue;
        }
        int st = tn_dissect(dcfg, f.linktype, f.data, f.caplen, f.wirelen, f.ts, f.num, &p);
        if (p.ifindex != in_idx && p.ifindex != out_idx)
            continue;   /* another interface of this host */
        bool egress = p.ifindex == out_idx;
        if (!egress)   /* the report's connections are the ingress point's */
            tn_analyzer_add(an, &p, st, o->ingress_if);
        tn_q2_add(q2, &p, egress);
    }
    live_capture = NULL;
    tn_pipeline_report_capture_stats(cap);
    if (tn_capture_close(cap, &err) < 0) {
        tn_cli_warn(err.msg);
        status = TN_EXIT_INPUT;
    }
    return status;
}

/* ---- ns-2 ---- */

static int run_ns2(const char *path, struct tn_analyzer *an, struct tn_linkq *lq)
{
    struct tn_ns2 *r;
    struct tn_err err;
    if (tn_ns2_open(&r, path, &err) < 0) {
        tn_cli_warn(err.msg);
        return TN_EXIT_INPUT;
    }
    struct tn_ns2_event ev;
    struct tn_pkt p;
    bool has;
    int rc;
    while ((rc = tn_ns2_next(r, &ev, &p, &has, &err)) != 0) {
        if (rc < 0) {
            if (tn_ns2_bad_lines(r) <= 5)
                tn_cli_warn(err.msg);
            continue;
        }
        if (lq)
            tn_linkq_event(lq, ev.ev, ev.t_ns, ev.from, ev.to, ev.size, ev.fid, ev.id);
        if (has)
            tn_analyzer_add(an, &p, TN_DIS_OK, path);
    }
    if (lq)
        tn_linkq_finish(lq);
    int status = TN_EXIT_OK;
    if (tn_ns2_bad_lines(r)) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s: %llu of %llu lines are not ns-2 trace lines (skipped)", path,
                 (unsigned long long)tn_ns2_bad_lines(r), (unsigned long long)tn_ns2_lines(r));
        tn_cli_warn(msg);
        if (tn_ns2_bad_lines(r) == tn_ns2_lines(r))
            status = TN_EXIT_INPUT;
    }
    tn_ns2_close(r);
    return status;
}

/* ---- experiments ---- */

static int read_file(const char *path, const struct tn_dissect_cfg *dcfg, struct tn_analyzer *an)
{
    if (tn_ns2_probe(path))
        return run_ns2(path, an, NULL);
    struct tn_capture *cap;
    struct tn_err err;
    if (tn_capture_open_file(&cap, path, &err) < 0) {
        tn_cli_warn(err.msg);
        return TN_EXIT_INPUT;
    }
    struct source s = {.cap = cap, .path = path};
    int status = TN_EXIT_OK;
    for (advance(&s, dcfg, &status); s.have; advance(&s, dcfg, &status))
        tn_analyzer_add(an, &s.p, s.st, path);
    tn_capture_close(cap, NULL);
    return status;
}

static int run_experiment(const struct tn_options *o, const struct tn_dissect_cfg *dcfg)
{
    struct tn_experiment e = {0};
    int status = TN_EXIT_OK;
    for (int i = 0; i < o->nexps; i++) {
        struct tn_analysis_cfg acfg = {.interval_ns = o->interval_ns};
        struct tn_analyzer *an = tn_analyzer_new(&acfg);
        int r = read_file(o->exps[i].file, dcfg, an);
        status = r > status ? r : status;
        tn_analyzer_finish(an);
        struct tn_fair_cfg fc;
        fair_cfg(o, NULL, &fc);
        tn_experiment_add(&e, o->exps[i].label, o->exps[i].file, an, &fc);
        tn_analyzer_free(an);
    }
    tn_report_experiment(stdout, &e);
    struct tn_err err;
    if (o->csv_dir) {
        int r = check(tn_csv_write_experiment(o->csv_dir, &e, &err), &err);
        status = r > status ? r : status;
    }
    if (o->plot_dir) {
        struct tn_multi m = {.exp = &e};
        struct tn_plot_opts po = {
            .format = o->plot_format,
            .width = o->plot_width,
            .height = o->plot_height,
            .scale = o->plot_scale,
        };
        int r = check(tn_plot_write_multi(o->plot_dir, &m, &po, &err), &err);
        status = r > status ? r : status;
    }
    tn_experiment_fini(&e);
    return status;
}

int tn_cli_multi_main(const struct tn_options *o)
{
    struct tn_dissect_cfg dcfg;
    tn_dissect_cfg_default(&dcfg);
    dcfg.dfcp_ipproto = o->dfcp_ipproto;
    dcfg.dfcp_udp_port = o->dfcp_udp_port;
    if (o->nexps)
        return run_experiment(o, &dcfg);

    struct tn_analysis_cfg acfg;
    tn_pipeline_analysis_cfg(o, &acfg);
    tn_cli_multi_analysis_cfg(o, &acfg);
    struct tn_analyzer *an = tn_analyzer_new(&acfg);
    struct tn_q2 *q2 = NULL;
    struct tn_linkq *lq = NULL;
    int status;
    if (o->ns2_file) {
        lq = tn_linkq_new();
        status = run_ns2(o->ns2_file, an, lq);
    } else {
        q2 = tn_q2_new(NULL);
        status = o->ingress_if ? run_twopoint_live(o, &dcfg, an, q2) : run_twopoint(o, &dcfg, an, q2);
    }
    tn_analyzer_finish(an);
    if (q2)
        tn_q2_finish(q2, an);
    if (tn_analyzer_stats(an)->frames > 0 || status == TN_EXIT_OK) {
        int r = tn_pipeline_write_outputs(o, an);
        status = r > status ? r : status;
        struct mstate s = {0};
        s.m.q2 = q2 ? tn_q2_result(q2) : NULL;
        s.m.linkq = lq;
        compute(o, an, &s);
        r = outputs(o, an, &s);
        status = r > status ? r : status;
        fini(&s);
    }
    tn_q2_free(q2);
    tn_linkq_free(lq);
    tn_analyzer_free(an);
    return status;
}

void tn_cli_multi_hint(const struct tn_options *o)
{
    for (int i = 0; i < o->nfiles; i++) {
        if (!tn_ns2_probe(o->files[i]))
            continue;
        char msg[4200];
        snprintf(msg, sizeof msg, "%s is an ns-2 trace: read it with --ns2 %s", o->files[i], o->files[i]);
        tn_cli_warn(msg);
    }
}
