/* outputs.c - the outputs of a run as one table.  Each row says when the options want it, what
 * of the analysis it reads, and writes it; rows run in table order (the order of the report on
 * standard output).  A new output is a new row. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outputs.h"
#include "pipeline.h"

/* What a row reads of the finished analysis.  Rank 0 of an MPI job may hold only the briefs of
 * the other ranks' connections (tn_outputs_briefs_only): reading one whole there is a bug. */
enum tn_out_reads {
    TN_READS_BRIEFS,  /* the connections' briefs: endpoints, counts, times */
    TN_READS_CONNS,   /* whole connections (read back from the store) */
    TN_READS_RESULTS, /* only the multi-flow results, computed before the rows (preps[]) */
};

struct tn_output {
    const char *name;
    enum tn_out_reads reads;
    /* the options ask for it: all that tn_outputs_briefs_only can know before the run */
    bool (*asked)(const struct tn_options *o);
    /* NULL, or what it needs of the run besides (the truth read, results to show) */
    bool (*ready)(const struct tn_out_ctx *x);
    /* 0, or <0 with err filled (a file that could not be written) */
    int (*write)(const struct tn_out_ctx *x, struct tn_err *err);
};

/* ---- report sections on standard output ---- */

/* --json - owns standard output: the text reports are left out */
static bool text(const struct tn_options *o)
{
    return !(o->senders_json && strcmp(o->senders_json, "-") == 0);
}

static bool asked_list(const struct tn_options *o)
{
    return text(o) && !o->quiet;
}
static bool asked_long(const struct tn_options *o)
{
    return text(o) && o->long_report;
}
static bool asked_timeline(const struct tn_options *o)
{
    return text(o) && o->timeline;
}
static bool asked_summary(const struct tn_options *o)
{
    return text(o);
}
static bool asked_json(const struct tn_options *o)
{
    return o->senders_json != NULL;
}
static bool asked_csv(const struct tn_options *o)
{
    return o->csv_dir != NULL;
}
static bool asked_plot(const struct tn_options *o)
{
    return o->plot_dir != NULL;
}
static bool asked_xplot(const struct tn_options *o)
{
    return o->xplot_dir != NULL;
}
static bool asked_truth(const struct tn_options *o)
{
    return o->truth_file != NULL;
}
static bool truth_read(const struct tn_out_ctx *x)
{
    return x->truth != NULL;
}

/* the inputs whose multi-flow results the report shows: the views' options, two capture
 * points (their router queue), an ns-2 trace (its link queues) */
static bool asked_multi_text(const struct tn_options *o)
{
    return o->fairness || o->parallel_window_ns || o->queue_estimate || o->ningress ||
           o->ingress_if || o->ns2_file;
}

static bool multi_text_ready(const struct tn_out_ctx *x)
{
    const struct tn_multi *m = &x->multi.m;
    return x->o->fairness || m->npar || x->o->queue_estimate || m->q2 || m->linkq;
}

static int write_list(const struct tn_out_ctx *x, struct tn_err *err)
{
    (void)err;
    tn_report_list(stdout, x->an, x->view.sel, tn_pipeline_workers(x->o));
    return 0;
}

static int write_long(const struct tn_out_ctx *x, struct tn_err *err)
{
    (void)err;
    /* rendered on as many threads as analysed it (-j) */
    tn_report_long(stdout, x->an, x->view.sel,
                   &(struct tn_long_opts){x->o->rtt_stats, x->o->owin_stats, tn_pipeline_workers(x->o)});
    return 0;
}

static int write_timeline(const struct tn_out_ctx *x, struct tn_err *err)
{
    (void)err;
    tn_report_timeline(stdout, x->an, &x->view);
    return 0;
}

static int write_summary(const struct tn_out_ctx *x, struct tn_err *err)
{
    (void)err;
    tn_report_summary(stdout, x->an);
    return 0;
}

/* ---- files ---- */

/* Every CSV file with rows per connection, in one pass (render_csvset.c); the multi-flow rows
 * of series.csv come after the connections'. */
static int write_csv_files(const struct tn_out_ctx *x, struct tn_err *err)
{
    struct tn_err errs[TN_CSV_NFILES];
    size_t n = tn_csv_write_all(x->o->csv_dir, x->an, &x->view, &x->multi.m, errs);
    if (n == 0)
        return 0;
    for (size_t i = 0; i + 1 < n; i++)
        tn_cli_warn(errs[i].msg);
    *err = errs[n - 1];   /* the last for the table's loop to warn about */
    return -TN_EIO;
}

static int write_json(const struct tn_out_ctx *x, struct tn_err *err)
{
    return tn_json_write(x->o->senders_json, x->an, &x->view, err);
}

static struct tn_plot_opts plot_opts(const struct tn_options *o, const struct tn_truth *truth)
{
    struct tn_plot_opts po;
    tn_options_plot_opts(o, &po);
    po.truth = truth;
    return po;
}

static int write_plots(const struct tn_out_ctx *x, struct tn_err *err)
{
    struct tn_plot_opts po = plot_opts(x->o, x->truth);
    return tn_plot_write_all(x->o->plot_dir, x->an, &x->view, &po, err);
}

static int write_xplots(const struct tn_out_ctx *x, struct tn_err *err)
{
    return tn_xplot_write(x->o->xplot_dir, x->an, &x->view, x->o->xplot_full, x->o->xplot_kinds, err);
}

static int write_truth(const struct tn_out_ctx *x, struct tn_err *err)
{
    (void)err;
    const struct tn_truth *truth = x->truth;
    printf("\nGround truth read: %s\n", tn_truth_sources(truth));
    size_t max = 2 * tn_analyzer_conn_count(x->an) + 1;
    struct tn_accuracy *acc = tn_xcalloc(max, sizeof *acc);
    size_t n = tn_truth_compare(truth, x->an, acc, max);
    tn_report_accuracy(stdout, acc, n);
    free(acc);
    return 0;
}

/* ---- multi-flow: fairness, parallel transfers, router queues (multi.c computes them) ---- */

static int write_multi_text(const struct tn_out_ctx *x, struct tn_err *err)
{
    (void)err;
    tn_report_multi(stdout, x->an, &x->multi.m);
    return 0;
}

static int write_multi_plots(const struct tn_out_ctx *x, struct tn_err *err)
{
    struct tn_plot_opts po = plot_opts(x->o, NULL);
    po.t0_ns = x->o->time_base_conn ? 0 : x->view.t0_ns;
    return tn_plot_write_multi(x->o->plot_dir, &x->multi.m, &po, err);
}

static const struct tn_output outputs[] = {
    {"connection list", TN_READS_BRIEFS, asked_list, NULL, write_list},
    {"long report", TN_READS_CONNS, asked_long, NULL, write_long},
    {"timeline", TN_READS_CONNS, asked_timeline, NULL, write_timeline},
    {"summary", TN_READS_BRIEFS, asked_summary, NULL, write_summary},
    {"CSV files", TN_READS_CONNS, asked_csv, NULL, write_csv_files},  /* render_csvset.c */
    {"JSON Lines", TN_READS_CONNS, asked_json, NULL, write_json},     /* render_json.c */
    {"figures", TN_READS_CONNS, asked_plot, NULL, write_plots},       /* render_plot*.c */
    {"xplot files", TN_READS_CONNS, asked_xplot, NULL, write_xplots}, /* render_xplot.c */
    {"accuracy against the truth", TN_READS_CONNS, asked_truth, truth_read, write_truth},
    {"multi-flow report", TN_READS_RESULTS, asked_multi_text, multi_text_ready, write_multi_text},
    /* (the Jain and parallel-transfer figures name their connections) */
    {"multi-flow figures", TN_READS_CONNS, asked_plot, NULL, write_multi_plots},
};

static bool wanted(const struct tn_output *row, const struct tn_out_ctx *x)
{
    return row->asked(x->o) && (!row->ready || row->ready(x));
}

/* What tn_outputs_write reads whole connections for before the rows: the --connection picks
 * (an endpoint pick is matched against every connection), the connections with packets in the
 * --from/--to window (each one's counted flag) and the multi-flow results (tn_multi_compute). */
static bool asked_picks(const struct tn_options *o)
{
    return o->npicks > 0;
}
static bool asked_window(const struct tn_options *o)
{
    return o->from_ns || o->to_ns;
}

static bool (*const preps[])(const struct tn_options *o) = {asked_picks, asked_window,
                                                            tn_multi_asked};

bool tn_outputs_briefs_only(const struct tn_options *o)
{
    for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; i++)
        if (outputs[i].reads == TN_READS_CONNS && outputs[i].asked(o))
            return false;
    for (size_t i = 0; i < sizeof preps / sizeof preps[0]; i++)
        if (preps[i](o))
            return false;
    return true;
}

/* Turn --connection picks into connection numbers; endpoint specs match either direction. */
unsigned *tn_outputs_resolve_picks(const struct tn_options *o, const struct tn_analyzer *an, size_t *n)
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
            /* "A:P-B:P" either way round; IPv6 as "[A]:P" (as printed) or bare "A:P" */
            char a[80], b[80], s[4][200];
            tn_endpoint_str(&c->a, c->a_port, a, sizeof a);
            tn_endpoint_str(&c->b, c->b_port, b, sizeof b);
            snprintf(s[0], sizeof s[0], "%s-%s", a, b);
            snprintf(s[1], sizeof s[1], "%s-%s", b, a);
            tn_addr_str(&c->a, a, sizeof a);
            tn_addr_str(&c->b, b, sizeof b);
            snprintf(s[2], sizeof s[2], "%s:%u-%s:%u", a, c->a_port, b, c->b_port);
            snprintf(s[3], sizeof s[3], "%s:%u-%s:%u", b, c->b_port, a, c->a_port);
            bool match = false;
            for (int w = 0; w < 4; w++)
                match |= strcmp(o->picks[i].spec, s[w]) == 0;
            if (match)
                v[(*n)++] = c->idx;
        }
    }
    return v;
}

int tn_outputs_write(const struct tn_options *o, const struct tn_analyzer *an, const struct tn_q2_result *q2,
                     const struct tn_linkq *linkq)
{
    struct tn_out_ctx x = {.o = o, .an = an};
    x.picked = tn_outputs_resolve_picks(o, an, &x.npicked);
    x.sel = (struct tn_selection){.idx = x.picked, .n = x.npicked};
    const struct tn_trace_stats *st = tn_analyzer_stats(an);
    int64_t t0 = st->have_time ? tn_time_ns(st->first) : 0;
    x.view = (struct tn_view){
        .sel = o->npicks ? &x.sel : NULL,
        .from_ns = o->from_ns ? t0 + o->from_ns : 0,
        .to_ns = o->to_ns ? t0 + o->to_ns : 0,
        .absolute_seq = o->absolute_seq,
        .t0_ns = t0,
        .conn_time = o->time_base_conn,
    };
    if (o->npicks && x.npicked == 0)
        tn_cli_warn("--connection: no connection matches the selection");
    bool *counted = NULL;
    if (o->from_ns || o->to_ns) {   /* --from/--to: the connections with packets in the window */
        size_t n = tn_analyzer_conn_count(an), nmask = n + 1;   /* (one read of each connection) */
        counted = tn_xcalloc(nmask, sizeof *counted);
        for (size_t i = 0; i < n; i++) {
            const struct tn_conn *c = tn_analyzer_conn(an, i);
            if (c->idx >= nmask) {   /* numbers run past the count after evictions */
                counted = tn_xrealloc(counted, (size_t)c->idx * 2 * sizeof *counted);
                memset(counted + nmask, 0, ((size_t)c->idx * 2 - nmask) * sizeof *counted);
                nmask = (size_t)c->idx * 2;
            }
            counted[c->idx] = c->counted && tn_selected(x.view.sel, c->idx);
        }
        x.sel.mask = counted;
        x.sel.nmask = nmask;
        x.view.sel = &x.sel;
    }
    int status = TN_EXIT_OK;
    struct tn_err terr;
    if (o->truth_file && tn_truth_load(o->truth_file, &x.truth, &terr) < 0) {
        tn_cli_warn(terr.msg);   /* the other outputs still come, without the truth */
        status = TN_EXIT_INPUT;
    }
    tn_multi_compute(o, an, x.picked, x.npicked, &x.multi);
    x.multi.m.q2 = q2;
    x.multi.m.linkq = linkq;
    for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; i++) {
        struct tn_err err;
        if (!wanted(&outputs[i], &x) || outputs[i].write(&x, &err) >= 0)
            continue;
        tn_cli_warn(err.msg);
        status = TN_EXIT_INPUT;
    }
    tn_multi_fini(&x.multi);
    tn_truth_free(x.truth);
    free(x.picked);
    free(counted);
    return status;
}
