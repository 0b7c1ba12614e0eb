/* render.h - public interface of the render layer: analysis results -> text reports and CSV.
 * Render reads the analysis model through const accessors and never frees analysis objects. */
#ifndef TN_RENDER_H
#define TN_RENDER_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis.h"
#include "views.h"
#include "common.h"

/* Which connections to show: all when n == 0, else those whose idx is listed; with a mask, those
 * whose mask[idx] is set (--from/--to: the connections with packets in the window). */
struct tn_selection {
    const unsigned *idx;
    size_t n;
    const bool *mask;          /* [nmask], by connection number */
    size_t nmask;
};

bool tn_selected(const struct tn_selection *sel, unsigned idx);

/* What figures and exports cover: the selected connections within a time window. */
struct tn_view {
    const struct tn_selection *sel;
    int64_t from_ns, to_ns;    /* absolute, ns since the epoch; 0 = unbounded */
    bool absolute_seq;         /* TCP sequence numbers as on the wire, not relative to the ISN */
    int64_t t0_ns;             /* the trace's first packet: time 0 of figures and the timeline */
    bool conn_time;            /* --time-base conn: time 0 is each connection's first packet */
};

/* Time 0 for connection c: the trace's first packet, or c's with --time-base conn (or when the
 * trace start is unknown). */
int64_t tn_view_origin(const struct tn_view *v, const struct tn_conn *c);

/* A relative TCP sequence number of direction dir as the view wants it printed: unchanged, or
 * back on the wire (ISN + relative, modulo 2^32) with --absolute-seq. */
int64_t tn_view_seq(const struct tn_view *v, const struct tn_conn *c, unsigned dir, uint64_t rel);

/* How far connection c's window lies from the trace's: with --time-base conn, --from/--to count
 * from c's first packet (as the analysis counts them, struct tn_count_window), else 0. */
static inline int64_t tn_view_shift(const struct tn_view *v, const struct tn_conn *c)
{
    return v->conn_time && c && v->t0_ns ? tn_time_ns(c->first) - v->t0_ns : 0;
}

/* Is time t_ns of connection c within the window? */
static inline bool tn_view_time(const struct tn_view *v, const struct tn_conn *c, int64_t t_ns)
{
    int64_t s = tn_view_shift(v, c);
    return (!v->from_ns || t_ns >= v->from_ns + s) && (!v->to_ns || t_ns <= v->to_ns + s);
}

/* Figure options (render_plot*.c). */
enum tn_legend_by { TN_LEGBY_LABEL = 0, TN_LEGBY_PROTO, TN_LEGBY_HOST };

struct tn_plot_opts {
    const char *format;        /* "png", "svg", "pdf" */
    int width, height;         /* points */
    double scale;              /* PNG pixels per point */
    const struct tn_truth *truth;   /* optional kernel ground truth (tn_truth_load) for cwnd figures */
    bool no_title;             /* --no-title: no title and subtitle */
    int legend;                /* enum tn_legend_pos (plot.h): below, right, inside, off */
    int legend_by;             /* enum tn_legend_by */
    int64_t t0_ns;             /* the trace's first packet (time 0 of the multi-flow figures) */
    bool all_connections;      /* per-connection figures also of insignificant connections */
    const struct tn_flow_rule *rules;   /* --flow names for legends */
    size_t nrules;
};

/* Every figure that applies, for every selected connection, into dir with predictable names
 * (conn3-tsg-a2b.png, conn3-cwnd-a2b.png, fairness.png, ...).  Files are written to a temporary
 * name and renamed.  Returns 0 or -TN_EIO with err filled. */
int tn_plot_write_all(const char *dir, const struct tn_analyzer *a, const struct tn_view *v,
                      const struct tn_plot_opts *po, struct tn_err *err);

/* xplot files (.xpl) for the time-sequence, RTT, throughput and outstanding-data graphs. */
int tn_xplot_write_all(const char *dir, const struct tn_analyzer *a, const struct tn_view *v,
                       bool full, struct tn_err *err);

/* The xplot graphs one at a time (tcptrace -S, -R, -T, -N): tn_xplot_write with kinds a set of
 * bits 1 << enum tn_xplot_kind (0: all). */
enum tn_xplot_kind { TN_XPL_TSG, TN_XPL_RTT, TN_XPL_TPUT, TN_XPL_OWIN, TN_XPL_COUNT };
int tn_xplot_write(const char *dir, const struct tn_analyzer *a, const struct tn_view *v, bool full,
                   unsigned kinds, struct tn_err *err);

/* Per-connection event timeline (--timeline): one line per event with its evidence. */
void tn_report_timeline(FILE *out, const struct tn_analyzer *a, const struct tn_view *v);

/* Numbered connection list: index, endpoints, protocol, packets each way, state; threads > 1:
 * its lines rendered on that many threads, the same bytes. */
void tn_report_list(FILE *out, const struct tn_analyzer *a, const struct tn_selection *sel, unsigned threads);

/* Long per-connection statistics (-l), both directions side by side; lo (may be NULL) adds
 * tcptrace's RTT section (-r) and outstanding-window rows (-W). */
struct tn_long_opts {
    bool rtt;
    bool owin;
    unsigned threads;          /* > 1: the connections rendered on that many threads */
};
void tn_report_long(FILE *out, const struct tn_analyzer *a, const struct tn_selection *sel,
                    const struct tn_long_opts *lo);

/* --json: JSON Lines of the connections, senders and events the CSV files hold, one object per
 * line with a "type" member; path "-" is standard output (render_json.c). */
int tn_json_write(const char *path, const struct tn_analyzer *a, const struct tn_view *v,
                  struct tn_err *err);

/* The --truth accuracy report (render_accuracy.c). */
void tn_report_accuracy(FILE *out, const struct tn_accuracy *r, size_t n);

/* Trace summary: packets read, TCP, DFCP, other, anomalies by kind with their first packet. */
void tn_report_summary(FILE *out, const struct tn_analyzer *a);

/* The CSV files of csv-contract.md with rows per connection (connections, senders, events,
 * series with the multi-flow rows of m after the connections' (m may be NULL), packets,
 * dfcp_blocks), written in one pass over the connections: each is read once, a retired one
 * comes back from the store once.  Each file is written as NAME.tmp in dir (created if needed)
 * and renamed when complete.  Returns how many files failed, their reasons in errs. */
#define TN_CSV_NFILES 6
struct tn_multi;
size_t tn_csv_write_all(const char *dir, const struct tn_analyzer *a, const struct tn_view *v,
                        const struct tn_multi *m, struct tn_err errs[TN_CSV_NFILES]);
/* One of those files alone (name as above; v NULL: everything).  Return 0 or -TN_EIO with err
 * naming the file. */
int tn_csv_write_file(const char *dir, const char *name, const struct tn_analyzer *a, const struct tn_view *v,
                      struct tn_err *err);

/* ---- multi-flow views (issue 7): render_multi.c, render_csv_multi.c, render_fig_queue.c,
 * render_fig_experiment.c.  Every member may be NULL (or 0): what is absent is not shown. */
struct tn_multi {
    const struct tn_analyzer *an;          /* the connections the views refer to (may be NULL) */
    const struct tn_fairness *fair;
    const struct tn_parallel *par;
    size_t npar;
    const struct tn_q2_result *q2;         /* two capture points */
    const struct tn_q1_result *q1;         /* single-point estimate */
    const struct tn_linkq *linkq;          /* ns-2 link queues */
    const struct tn_experiment *exp;
};

/* Text: fairness, parallel transfers, router queue (two-point and single-point estimate with
 * its assumptions and its error against the two-point truth), ns-2 link queues. */
void tn_report_multi(FILE *out, const struct tn_analyzer *a, const struct tn_multi *m);
/* Text: the experiment table, one row per (trace, connection). */
void tn_report_experiment(FILE *out, const struct tn_experiment *e);
/* experiment.csv of csv-contract.md. */
int tn_csv_write_experiment(const char *dir, const struct tn_experiment *e, struct tn_err *err);
/* Figures: queue.png (two-point queue, single-point estimate), sojourn.png, linkq-F-T.png
 * (ns-2), jain.png, parallel-N.png, experiment-goodput.png, experiment-ratio.png. */
int tn_plot_write_multi(const char *dir, const struct tn_multi *m, const struct tn_plot_opts *po,
                        struct tn_err *err);

#endif
