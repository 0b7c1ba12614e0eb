/* render_fig_cwnd.c - congestion window: bytes in flight, the cwnd and ssthresh estimates, and
 * an optional kernel ground truth (the lab's tcp_probe.csv, docs/lab.md) for comparison.
 *
 * The ground truth counts snd_cwnd and ssthresh in segments; they are converted to bytes with
 * the connection's effective MSS (tn_fig_mss).  Rows are matched to the sender by port: sport is
 * the sender's port and, when the file has it, dport the receiver's.
 */
#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

/* ---- ground truth (libcsv) ---- */

enum { T_TIME, T_SPORT, T_DPORT, T_CWND, T_SSTHRESH, T_NCOL };

struct truth {
    uint16_t sport, dport;
    int col[T_NCOL];           /* column of each field, -1 when absent */
    size_t field, row;
    double v[T_NCOL];
    bool have[T_NCOL];
    struct tn_point *cwnd, *ssth;   /* t_ns, segments */
    size_t ncwnd, capcwnd, nssth, capssth;
};

static void truth_field(void *s, size_t len, void *data)
{
    struct truth *t = data;
    char buf[64];
    size_t n = len < sizeof buf - 1 ? len : sizeof buf - 1;
    memcpy(buf, s, n);
    buf[n] = 0;
    static const char *const names[T_NCOL] = {"time_s", "sport", "dport", "snd_cwnd", "ssthresh"};
    for (int k = 0; k < T_NCOL; k++) {
        if (t->row == 0 && strcmp(buf, names[k]) == 0)
            t->col[k] = (int)t->field;
        if (t->row > 0 && t->col[k] == (int)t->field && n > 0) {
            char *end;
            t->v[k] = strtod(buf, &end);
            t->have[k] = end != buf;
        }
    }
    t->field++;
}

static void truth_row(int c, void *data)
{
    (void)c;
    struct truth *t = data;
    bool ok = t->row > 0 && t->have[T_TIME] && t->have[T_SPORT] && (uint16_t)t->v[T_SPORT] == t->sport &&
              (!t->have[T_DPORT] || (uint16_t)t->v[T_DPORT] == t->dport);
    int64_t ns = (int64_t)llround(t->v[T_TIME] * 1e9);
    if (ok && t->have[T_CWND]) {
        tn_grow((void **)&t->cwnd, &t->capcwnd, t->ncwnd + 1, sizeof *t->cwnd);
        t->cwnd[t->ncwnd++] = (struct tn_point){ns, t->v[T_CWND]};
    }
    /* the kernel's "infinite" initial ssthresh (0x7fffffff) is no threshold at all */
    if (ok && t->have[T_SSTHRESH] && t->v[T_SSTHRESH] < 1e9) {
        tn_grow((void **)&t->ssth, &t->capssth, t->nssth + 1, sizeof *t->ssth);
        t->ssth[t->nssth++] = (struct tn_point){ns, t->v[T_SSTHRESH]};
    }
    t->row++;
    t->field = 0;
    memset(t->have, 0, sizeof t->have);
}

/* Read the rows of one sender; false when the file cannot be read or lacks the columns. */
static bool truth_read(const char *path, struct truth *t)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return false;
    struct csv_parser cp;
    if (csv_init(&cp, CSV_APPEND_NULL) != 0) {
        fclose(fp);
        return false;
    }
    for (int k = 0; k < T_NCOL; k++)
        t->col[k] = -1;
    char buf[65536];
    size_t n;
    bool ok = true;
    while ((n = fread(buf, 1, sizeof buf, fp)) > 0)
        if (csv_parse(&cp, buf, n, truth_field, truth_row, t) != n) {
            ok = false;
            break;
        }
    csv_fini(&cp, truth_field, truth_row, t);
    csv_free(&cp);
    fclose(fp);
    return ok && t->col[T_TIME] >= 0 && t->col[T_SPORT] >= 0 && t->col[T_CWND] >= 0;
}

/* ---- the figure ---- */

static size_t line(struct tn_plot *p, enum tn_color col, const char *label, double width, bool dashed)
{
    struct tn_plot_series *s = tn_plot_series_new(p, TN_D_LINE, col, label);
    s->width = width;
    s->dashed = dashed;
    return tn_plot_series_index(p, s);
}

static void add_series(struct tn_plot *p, size_t si, const struct tn_series *s, int64_t from, int64_t to,
                       double cap, bool step)
{
    double prev = NAN;
    for (size_t i = 0; i < s->n; i++) {
        const struct tn_point *q = &s->pts[i];
        if (q->t_ns < from || q->t_ns > to || q->v > cap)
            continue;
        double x = tn_fig_x(p, q->t_ns);
        if (step && isfinite(prev))
            tn_plot_point(p, si, x, prev);
        tn_plot_point(p, si, x, q->v);
        prev = q->v;
    }
}

static void add_points(struct tn_plot *p, size_t si, const struct tn_point *v, size_t n, double mul,
                       int64_t from, int64_t to, bool step)
{
    double prev = NAN;
    for (size_t i = 0; i < n; i++) {
        if (v[i].t_ns < from || v[i].t_ns > to)
            continue;
        double x = tn_fig_x(p, v[i].t_ns), y = v[i].v * mul;
        if (step && isfinite(prev))
            tn_plot_point(p, si, x, prev);
        tn_plot_point(p, si, x, y);
        prev = y;
    }
}

static double pts_max(const struct tn_point *v, size_t n, double mul, int64_t from, int64_t to)
{
    double m = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i].t_ns >= from && v[i].t_ns <= to)
            m = fmax(m, v[i].v * mul);
    return m;
}

struct tn_plot *tn_fig_cwnd(const struct tn_conn *c, enum tn_dir d, const struct tn_fig_cfg *fc)
{
    int64_t from, to;
    if (c->proto != TN_PK_TCP || !tn_fig_dir_has_data(c, d) || !tn_fig_window(c, fc->view, &from, &to))
        return NULL;
    const struct tn_series *infl = &c->series[d][TN_SER_INFLIGHT];
    const struct tn_series *cwnd = &c->series[d][TN_SER_CWND_EST];
    const struct tn_series *ssth = &c->series[d][TN_SER_SSTHRESH_EST];
    uint32_t mss = tn_fig_mss(c, d);

    struct truth t;
    memset(&t, 0, sizeof t);
    t.sport = d == TN_A2B ? c->a_port : c->b_port;
    t.dport = d == TN_A2B ? c->b_port : c->a_port;
    bool truth = fc->truth_file && truth_read(fc->truth_file, &t);

    struct tn_plot *p = tn_fig_begin_at(fc, tn_fig_origin(c, fc), from, to);
    snprintf(p->title, sizeof p->title, "Congestion window");
    char who[160];
    tn_fig_conn_label(c, d, who, sizeof who);
    const struct tn_tcp_infer *inf = &c->inf[d];
    snprintf(p->subtitle, sizeof p->subtitle, "%s; MSS %u B; model %s%s", who, mss,
             tn_cc_flavor_name(inf->flavor),
             fc->truth_file && !truth ? "; ground truth unreadable" :
             truth && t.ncwnd == 0 ? "; no ground-truth rows for this sender" : "");
    snprintf(p->y.label, sizeof p->y.label, "window");
    p->y.unit = TN_U_BYTES;

    double top = fmax(tn_fig_series_max(infl, from, to), tn_fig_series_max(cwnd, from, to));
    top = fmax(top, pts_max(t.cwnd, t.ncwnd, mss, from, to));
    /* ssthresh counts when it is in the picture, not when it is the huge initial value */
    double cap = top > 0 ? top * 2 : INFINITY;
    double sm = 0;
    for (size_t i = 0; i < ssth->n; i++)
        if (ssth->pts[i].v <= cap && ssth->pts[i].t_ns >= from && ssth->pts[i].t_ns <= to)
            sm = fmax(sm, ssth->pts[i].v);
    top = fmax(top, sm);
    tn_plot_set_range(&p->y, 0, top > 0 ? top * 1.05 : 1);
    if (infl->n == 0 && cwnd->n == 0)
        snprintf(p->note, sizeof p->note, "no window samples for this sender");

    tn_fig_episodes(p, c, d, from, to);
    size_t s_infl = line(p, TN_C_BLUE, "bytes in flight", 1, false);
    size_t s_cwnd = line(p, TN_C_GREEN, "cwnd estimate", 1.5, false);
    size_t s_ssth = line(p, TN_C_ORANGE, "ssthresh estimate", 1.5, true);
    add_series(p, s_infl, infl, from, to, INFINITY, true);   /* holds until the next ACK */
    add_series(p, s_cwnd, cwnd, from, to, INFINITY, true);
    add_series(p, s_ssth, ssth, from, to, cap, true);
    if (truth) {
        size_t s_tc = line(p, TN_C_BLACK, "kernel snd_cwnd", 1, true);
        size_t s_ts = line(p, TN_C_GREY, "kernel ssthresh", 1, true);
        add_points(p, s_tc, t.cwnd, t.ncwnd, mss, from, to, true);
        for (size_t i = 0; i < t.nssth; i++)
            if (t.ssth[i].v * mss > cap)
                t.ssth[i].t_ns = INT64_MIN;   /* out of the picture */
        add_points(p, s_ts, t.ssth, t.nssth, mss, from, to, true);
    }
    free(t.cwnd);
    free(t.ssth);
    tn_plot_finish(p);
    return p;
}
