/* render_xplot.c - --xplot DIR: xplot files as tcptrace -G wrote them, prefixed by the
 * connection number: conn3-a2b_tsg.xpl, conn3-a2b_rtt.xpl, conn3-a2b_tput.xpl,
 * conn3-a2b_owin.xpl, for each direction of a TCP connection that carries data.
 *
 * Unless full is set the files are decimated like the figures, on a grid finer than a screen
 * (xplot zooms): XPL_COLS columns by XPL_ROWS rows; --xplot-full keeps every packet.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "plot.h"
#include "safeout.h"

enum { XPL_COLS = 4096, XPL_ROWS = 2048 };

static int save(const char *dir, const char *name, struct tn_plot *p, struct tn_err *err)
{
    if (!p)
        return 0;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct tn_safeout o;
    int r = tn_safeout_open(&o, path, err);
    if (r == 0) {
        tn_plot_write_xplot(p, o.fp);
        r = tn_safeout_commit(&o, err);
    }
    tn_plot_free(p);
    return r;
}

int tn_xplot_write_all(const char *dir, const struct tn_analyzer *a, const struct tn_view *v,
                       bool full, struct tn_err *err)
{
    return tn_xplot_write(dir, a, v, full, 0, err);
}

int tn_xplot_write(const char *dir, const struct tn_analyzer *a, const struct tn_view *v, bool full,
                   unsigned kinds, struct tn_err *err)
{
    int r = tn_plot_mkdir(dir, err);
    if (r)
        return r;
    struct tn_fig_cfg fc = {
        .view = v,
        .ncols = full ? 0 : XPL_COLS,
        .nrows = full ? 0 : XPL_ROWS,
    };
    static const struct {
        const char *name;
        struct tn_plot *(*build)(const struct tn_conn *, enum tn_dir, const struct tn_fig_cfg *);
    } graphs[TN_XPL_COUNT] = {
        [TN_XPL_TSG] = {"tsg", tn_fig_tsg},
        [TN_XPL_RTT] = {"rtt", tn_fig_rtt},
        [TN_XPL_TPUT] = {"tput", tn_fig_tput_dir},
        [TN_XPL_OWIN] = {"owin", tn_fig_inflight},
    };
    int status = 0;
    struct tn_err e;
    for (size_t i = 0; i < tn_analyzer_conn_count(a); i++) {
        const struct tn_conn *c = tn_analyzer_conn(a, i);
        if (c->proto != TN_PK_TCP || !tn_selected(v ? v->sel : NULL, c->idx))
            continue;
        for (int d = 0; d < 2; d++) {
            if (!tn_fig_dir_has_data(c, (enum tn_dir)d))
                continue;
            for (size_t k = 0; k < TN_ARRAY_LEN(graphs); k++) {
                if (kinds && !(kinds & 1u << k))
                    continue;
                char name[128];
                snprintf(name, sizeof name, "conn%u-%s_%s.xpl", c->idx, tn_fig_dir_name((enum tn_dir)d),
                         graphs[k].name);
                r = save(dir, name, graphs[k].build(c, (enum tn_dir)d, &fc), &e);
                if (r && !status) {   /* keep the first error, write the rest */
                    status = r;
                    *err = e;
                }
            }
        }
    }
    return status;
}
