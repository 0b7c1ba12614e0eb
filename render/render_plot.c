/* render_plot.c - --plot DIR: every figure that applies, for every selected connection.
 *
 * Names are predictable so scripts and papers can refer to them:
 *   conn<N>-tsg-<dir>  conn<N>-cwnd-<dir>  conn<N>-rtt-<dir>  conn<N>-inflight-<dir>
 *   conn<N>-segsize-<dir>  conn<N>-tput  conn<N>-dfcp-blocks  throughput  fairness
 *   cwnd-all  rtt-cdf  rtt-hist  rexmit-time (the significant flows on one axis)
 * with the extension of the format; direction figures only for directions that carry data.
 * Each file is written under a temporary name and renamed when complete; a failed figure is
 * reported and the others are still written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "plot.h"

int tn_plot_mkdir(const char *dir, struct tn_err *err)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return tn_err_set(err, TN_EIO, "%s: cannot create directory: %s", dir, strerror(errno));
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return tn_err_set(err, TN_EIO, "%s: not a directory", dir);
    return 0;
}

static int parse_format(const char *f, enum tn_img_fmt *fmt, const char **ext)
{
    if (!f || !*f || strcmp(f, "png") == 0) {
        *fmt = TN_IMG_PNG;
        *ext = "png";
    } else if (strcmp(f, "svg") == 0) {
        *fmt = TN_IMG_SVG;
        *ext = "svg";
    } else if (strcmp(f, "pdf") == 0) {
        *fmt = TN_IMG_PDF;
        *ext = "pdf";
    } else {
        return -1;
    }
    return 0;
}

int tn_fig_writer_open(struct tn_fig_writer *w, const char *dir, const struct tn_plot_opts *po, struct tn_err *err)
{
    memset(w, 0, sizeof *w);
    w->dir = dir;
    w->err = err;
    w->po = *po;
    if (w->po.width <= 0)
        w->po.width = 640;
    if (w->po.height <= 0)
        w->po.height = 400;
    if (!(w->po.scale > 0))
        w->po.scale = 2;
    if (parse_format(w->po.format, &w->fmt, &w->ext) != 0)
        return tn_err_set(err, TN_EUSAGE, "--plot-format %s: not one of png, svg, pdf", w->po.format);
    int r = tn_plot_mkdir(dir, err);
    if (r)
        return r;
    /* one decimation column per device pixel (vector formats: two per point) */
    double res = w->fmt == TN_IMG_PNG ? w->po.scale : 2;
    w->fc = (struct tn_fig_cfg){
        .ncols = (int)(w->po.width * res),
        .nrows = (int)(w->po.height * res),
        .truth = w->po.truth,
        .legend_by = w->po.legend_by,
        .rules = w->po.rules,
        .nrules = w->po.nrules,
        .t0_ns = w->po.t0_ns,
    };
    return 0;
}

void tn_fig_writer_emit(struct tn_fig_writer *w, struct tn_plot *p, const char *stem)
{
    if (!p)
        return;
    if (w->po.no_title)
        p->title[0] = p->subtitle[0] = 0;
    p->legend = (enum tn_legend_pos)w->po.legend;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.%s", w->dir, stem, w->ext);
    struct tn_err e;
    /* written under a temporary name and renamed when complete (safeout.h) */
    int r = tn_plot_write_cairo(p, w->fmt, path, w->po.width, w->po.height, w->po.scale, NULL, &e);
    if (r != 0) {
        if (w->status == 0) {
            w->status = r;
            *w->err = e;
        }
    } else {
        w->written++;
    }
    tn_plot_free(p);
}

int tn_fig_writer_close(struct tn_fig_writer *w)
{
    tn_plot_cairo_release();
    return w->status;
}

static void conn_figures(struct tn_fig_writer *w, const struct tn_conn *c, const struct tn_fig_cfg *fc)
{
    char stem[128];
    static const struct {
        const char *name;
        struct tn_plot *(*build)(const struct tn_conn *, enum tn_dir, const struct tn_fig_cfg *);
    } per_dir[] = {
        {"tsg", tn_fig_tsg},   {"cwnd", tn_fig_cwnd},       {"rtt", tn_fig_rtt},
        {"inflight", tn_fig_inflight}, {"segsize", tn_fig_segsize},
    };
    if (c->proto == TN_PK_DFCP) {
        snprintf(stem, sizeof stem, "conn%u-dfcp-blocks", c->idx);
        tn_fig_writer_emit(w, tn_fig_dfcp(c, fc), stem);
        return;
    }
    for (int d = 0; d < 2; d++) {
        if (!tn_fig_dir_has_data(c, (enum tn_dir)d))
            continue;
        for (size_t k = 0; k < TN_ARRAY_LEN(per_dir); k++) {
            snprintf(stem, sizeof stem, "conn%u-%s-%s", c->idx, per_dir[k].name,
                     tn_fig_dir_name((enum tn_dir)d));
            tn_fig_writer_emit(w, per_dir[k].build(c, (enum tn_dir)d, fc), stem);
        }
    }
    snprintf(stem, sizeof stem, "conn%u-tput", c->idx);
    tn_fig_writer_emit(w, tn_fig_tput_conn(c, fc), stem);
}

int tn_plot_write_all(const char *dir, const struct tn_analyzer *a, const struct tn_view *v,
                      const struct tn_plot_opts *po, struct tn_err *err)
{
    struct tn_fig_writer w;
    int r = tn_fig_writer_open(&w, dir, po, err);
    if (r)
        return r;
    struct tn_fig_cfg fc = w.fc;
    fc.view = v;

    /* connections picked by --connection are drawn whatever their size; otherwise the
     * insignificant ones (control connections, tn_signif) only with --all-connections */
    const struct tn_selection *sel = v ? v->sel : NULL;
    bool picked = sel && sel->n;
    struct tn_signif sig;
    tn_signif_init(&sig, a, picked ? sel->idx : NULL, picked ? sel->n : 0, po->all_connections || picked);
    size_t n = tn_analyzer_conn_count(a);
    const struct tn_conn **many = tn_xcalloc(n ? n : 1, sizeof *many);
    size_t nmany = 0;
    for (size_t i = 0; i < n; i++) {
        const struct tn_conn *c = tn_analyzer_conn(a, i);
        bool data = c->d[TN_A2B].data_bytes + c->d[TN_B2A].data_bytes > 0;
        if (!tn_selected(sel, c->idx) || (data && !tn_signif_keep(&sig, c)))
            continue;
        conn_figures(&w, c, &fc);
        if (tn_fig_dir_has_data(c, TN_A2B) || tn_fig_dir_has_data(c, TN_B2A))
            many[nmany++] = c;
    }
    if (nmany >= 1)
        tn_fig_writer_emit(&w, tn_fig_tput_all(many, nmany, false, &fc), "throughput");
    if (nmany >= 2)
        tn_fig_writer_emit(&w, tn_fig_tput_all(many, nmany, true, &fc), "fairness");
    static const struct {
        const char *stem;
        struct tn_plot *(*build)(const struct tn_conn *const *, size_t, const struct tn_fig_cfg *);
    } flows[] = {
        {"cwnd-all", tn_fig_cwnd_all},
        {"rtt-cdf", tn_fig_rtt_cdf},
        {"rtt-hist", tn_fig_rtt_hist},
        {"rexmit-time", tn_fig_rexmit_time},
    };
    for (size_t k = 0; nmany && k < TN_ARRAY_LEN(flows); k++)
        tn_fig_writer_emit(&w, flows[k].build(many, nmany, &fc), flows[k].stem);
    free(many);
    return tn_fig_writer_close(&w);
}
