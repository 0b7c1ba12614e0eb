/* render_plot.c - --plot DIR: every figure that applies, for every selected connection.
 *
 * Names are predictable so scripts and papers can refer to them:
 *   conn<N>-tsg-<dir>  conn<N>-cwnd-<dir>  conn<N>-rtt-<dir>  conn<N>-inflight-<dir>
 *   conn<N>-segsize-<dir>  conn<N>-tput  conn<N>-dfcp-blocks  throughput  fairness
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

struct writer {
    const char *dir;
    const struct tn_plot_opts *po;
    enum tn_img_fmt fmt;
    const char *ext;
    int status;                /* first error, kept in err */
    struct tn_err *err;
    unsigned written;
};

/* Write and free p (NULL: the figure does not apply). */
static void emit(struct writer *w, struct tn_plot *p, const char *stem)
{
    if (!p)
        return;
    char path[4096], tmp[4096];
    snprintf(path, sizeof path, "%s/%s.%s", w->dir, stem, w->ext);
    snprintf(tmp, sizeof tmp, "%s/.%s.%s.tmp", w->dir, stem, w->ext);
    struct tn_err e;
    int r = tn_plot_write_cairo(p, w->fmt, tmp, w->po->width, w->po->height, w->po->scale, NULL, &e);
    if (r == 0 && rename(tmp, path) != 0)
        r = tn_err_set(&e, TN_EIO, "%s: cannot rename from %s: %s", path, tmp, strerror(errno));
    if (r != 0) {
        remove(tmp);
        if (w->status == 0) {
            w->status = r;
            *w->err = e;
        }
    } else {
        w->written++;
    }
    tn_plot_free(p);
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

static void conn_figures(struct writer *w, const struct tn_conn *c, const struct tn_fig_cfg *fc)
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
        emit(w, tn_fig_dfcp(c, fc), stem);
        return;
    }
    for (int d = 0; d < 2; d++) {
        if (!tn_fig_dir_has_data(c, (enum tn_dir)d))
            continue;
        for (size_t k = 0; k < TN_ARRAY_LEN(per_dir); k++) {
            snprintf(stem, sizeof stem, "conn%u-%s-%s", c->idx, per_dir[k].name,
                     tn_fig_dir_name((enum tn_dir)d));
            emit(w, per_dir[k].build(c, (enum tn_dir)d, fc), stem);
        }
    }
    snprintf(stem, sizeof stem, "conn%u-tput", c->idx);
    emit(w, tn_fig_tput_conn(c, fc), stem);
}

int tn_plot_write_all(const char *dir, const struct tn_analyzer *a, const struct tn_view *v,
                      const struct tn_plot_opts *po, struct tn_err *err)
{
    struct tn_plot_opts o = *po;
    if (o.width <= 0)
        o.width = 640;
    if (o.height <= 0)
        o.height = 400;
    if (!(o.scale > 0))
        o.scale = 2;
    struct writer w = {.dir = dir, .po = &o, .err = err};
    if (parse_format(o.format, &w.fmt, &w.ext) != 0)
        return tn_err_set(err, TN_EUSAGE, "--plot-format %s: not one of png, svg, pdf", o.format);
    int r = tn_plot_mkdir(dir, err);
    if (r)
        return r;
    /* one decimation column per device pixel (vector formats: two per point) */
    double res = w.fmt == TN_IMG_PNG ? o.scale : 2;
    struct tn_fig_cfg fc = {
        .view = v,
        .ncols = (int)(o.width * res),
        .nrows = (int)(o.height * res),
        .truth_file = o.truth_file,
    };
    if (o.truth_file) {   /* an unreadable truth file is reported; the figures still come */
        FILE *fp = fopen(o.truth_file, "r");
        if (!fp) {
            w.status = tn_err_set(err, TN_EIO, "%s: cannot read ground truth: %s", o.truth_file,
                                  strerror(errno));
            fc.truth_file = NULL;
        } else {
            fclose(fp);
        }
    }

    size_t n = tn_analyzer_conn_count(a);
    const struct tn_conn **sel = tn_xcalloc(n ? n : 1, sizeof *sel);
    size_t nsel = 0;
    for (size_t i = 0; i < n; i++) {
        const struct tn_conn *c = tn_analyzer_conn(a, i);
        if (!tn_selected(v ? v->sel : NULL, c->idx))
            continue;
        conn_figures(&w, c, &fc);
        if (tn_fig_dir_has_data(c, TN_A2B) || tn_fig_dir_has_data(c, TN_B2A))
            sel[nsel++] = c;
    }
    if (nsel >= 1)
        emit(&w, tn_fig_tput_all(sel, nsel, false, &fc), "throughput");
    if (nsel >= 2)
        emit(&w, tn_fig_tput_all(sel, nsel, true, &fc), "fairness");
    free(sel);
    tn_plot_cairo_release();
    return w.status;
}
