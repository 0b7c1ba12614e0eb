/* render_plot_xplot.c - the xplot backend: a struct tn_plot as xplot.org reads it, the format
 * tcptrace -G wrote (tcptrace plotter.c).
 *
 *   timeval double            x and y coordinate types
 *   title\n<text>             xlabel\n<text>      ylabel\n<text>
 *   <colour>                  white green red blue yellow purple orange magenta pink
 *   line x1 y1 x2 y2          dline x1 y1 x2 y2 (dotted)
 *   dot|plus|box|diamond|x|uarrow|darrow x y
 *   atext x y\n<text>         a label above the point
 *   go                        end of the plot
 *
 * Times are absolute (sec.usec), as tcptrace wrote them, so two files of one trace line up.
 * There are no fills in xplot: a shaded episode becomes its two edges and a label.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "plot.h"

static const char *xcolor(enum tn_color c)
{
    switch (c) {
    case TN_C_BLACK: return "white";      /* xplot's foreground */
    case TN_C_ORANGE: return "yellow";    /* tcptrace drew the window line yellow */
    case TN_C_SKY: return "magenta";
    case TN_C_GREEN: return "green";
    case TN_C_YELLOW: return "orange";
    case TN_C_BLUE: return "blue";
    case TN_C_VERMILLION: return "red";
    case TN_C_PURPLE: return "purple";
    default: return "pink";
    }
}

static const char *xmark(enum tn_mark m)
{
    switch (m) {
    case TN_MK_DIAMOND: return "diamond";
    case TN_MK_BOX: return "box";
    case TN_MK_X: return "x";
    case TN_MK_PLUS: return "plus";
    case TN_MK_UTRI: return "uarrow";
    case TN_MK_DTRI: return "darrow";
    default: return "dot";
    }
}

/* x: absolute time as sec.usec */
static void px(FILE *out, const struct tn_plot *p, double x)
{
    int64_t us = (int64_t)llround((double)p->x0_ns / 1e3 + x * 1e6);
    int64_t s = us / 1000000, u = us % 1000000;
    if (u < 0) {
        u += 1000000;
        s--;
    }
    fprintf(out, "%" PRId64 ".%06" PRId64, s, u);
}

static void py(FILE *out, double y)
{
    if (y == floor(y) && fabs(y) < 1e15)
        fprintf(out, "%.0f", y);
    else
        fprintf(out, "%.6f", y);
}

static void pxy(FILE *out, const struct tn_plot *p, double x, double y)
{
    px(out, p, x);
    fputc(' ', out);
    py(out, y);
}

/* One line of text: xplot reads to the end of the line; the arrow glyphs become ASCII. */
static void text_line(FILE *out, const char *s)
{
    for (; *s; s++) {
        if ((unsigned char)s[0] == 0xe2 && (unsigned char)s[1] == 0x86 &&
            ((unsigned char)s[2] == 0x92 || (unsigned char)s[2] == 0x94)) {
            fputs((unsigned char)s[2] == 0x92 ? "->" : "<->", out);
            s += 2;
        } else if (*s == '\n' || *s == '\r') {
            fputc(' ', out);
        } else {
            fputc(*s, out);
        }
    }
    fputc('\n', out);
}

static void axis_label(FILE *out, const char *what, const struct tn_plot_axis *ax)
{
    static const char *const units[] = {
        [TN_U_NONE] = "", [TN_U_TIME_S] = "", [TN_U_BYTES] = " (bytes)", [TN_U_BPS] = " (bit/s)",
        [TN_U_MS] = " (ms)",
    };
    fprintf(out, "%s\n", what);
    char buf[160];
    snprintf(buf, sizeof buf, "%s%s", ax->label, units[ax->unit]);
    text_line(out, buf);
}

static void series(FILE *out, const struct tn_plot *p, const struct tn_plot_series *s)
{
    const struct tn_plot_axis *ax = s->right ? &p->y2 : &p->y;
    /* a right-axis series is mapped onto the left axis range: xplot has one y axis */
    double k = s->right ? (p->y.max - p->y.min) / (ax->max - ax->min) : 1;
    double o = s->right ? p->y.min - ax->min * k : 0;
    fprintf(out, "%s\n", xcolor(s->color));
    for (size_t i = 0; i < s->n; i++) {
        const struct tn_pp *q = &s->pts[i];
        switch (s->draw) {
        case TN_D_LINE:
            if (i == 0 || isnan(q->y) || isnan(s->pts[i - 1].y))   /* first point, pen up */
                break;
            fputs(s->dashed ? "dline " : "line ", out);
            pxy(out, p, s->pts[i - 1].x, s->pts[i - 1].y * k + o);
            fputc(' ', out);
            pxy(out, p, q->x, q->y * k + o);
            fputc('\n', out);
            break;
        case TN_D_TICKS:
            fputs("line ", out);
            pxy(out, p, q->x, q->y * k + o);
            fputc(' ', out);
            pxy(out, p, q->x, q->y2 * k + o);
            fputc('\n', out);
            break;
        case TN_D_POINTS:
            fprintf(out, "%s ", xmark(s->mark));
            pxy(out, p, q->x, q->y * k + o);
            fputc('\n', out);
            break;
        case TN_D_SPANS:
            for (int e = 0; e < 2; e++) {
                double x = e ? q->x2 : q->x;
                fputs("dline ", out);
                pxy(out, p, x, p->y.min);
                fputc(' ', out);
                pxy(out, p, x, p->y.max);
                fputc('\n', out);
            }
            fputs("atext ", out);
            pxy(out, p, q->x, p->y.max);
            fputc('\n', out);
            text_line(out, s->label[0] ? s->label : "episode");
            break;
        }
    }
}

void tn_plot_write_xplot(const struct tn_plot *p, FILE *out)
{
    fputs("timeval double\n", out);
    fputs("title\n", out);
    char title[600];
    snprintf(title, sizeof title, "%s%s%s", p->title, p->subtitle[0] ? ": " : "", p->subtitle);
    text_line(out, title);
    axis_label(out, "xlabel", &p->x);
    axis_label(out, "ylabel", &p->y);
    for (size_t i = 0; i < p->ns; i++)
        if (p->s[i].draw == TN_D_SPANS)
            series(out, p, &p->s[i]);
    for (size_t i = 0; i < p->ns; i++)
        if (p->s[i].draw != TN_D_SPANS)
            series(out, p, &p->s[i]);
    fputs("go\n", out);
}
