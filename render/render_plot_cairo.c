/* render_plot_cairo.c - the cairo backend: a struct tn_plot as PNG, SVG or PDF.
 *
 * Layout, top to bottom: title, subtitle, plot area (grid, data clipped to it, frame), x tick
 * labels and axis label, then the legend in rows below everything, so it never hides data.
 * Sizes are in points; a PNG has scale pixels per point.  Axis numbers are shown in the unit
 * prefix that suits the range (ms or s, kB or MB, Mbit/s ...) and the prefix goes in the label.
 */
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plot.h"
#include "safeout.h"

/* Sizes at the reference canvas of 640 x 400 points; every one is scaled with the canvas (see
 * sizes()), so a column-wide figure keeps its proportions instead of losing its plot area. */
#define REF_W 640.0
#define REF_H 400.0
#define FONT_TITLE (13 * L->f)
#define FONT_SUB (9 * L->f)
#define FONT_LABEL (10 * L->f)
#define FONT_TICK (9 * L->f)
#define FONT_LEGEND (9 * L->f)
#define PAD (8.0 * L->f)
#define TICK_LEN (4.0 * L->f)
#define SWATCH (18.0 * L->f)

static const char font_family[] = "DejaVu Sans";

struct axis_fmt {
    double factor;           /* display value = value / factor */
    char label[128];         /* "time (s)" */
    double step, first;      /* tick step and first tick, display units */
    int decimals;
};

struct layout {
    double f;                    /* size factor of fonts and margins */
    double w, h;
    double px0, py0, px1, py1;   /* plot area */
    struct axis_fmt fx, fy, fy2;
    double legend_x, legend_y;   /* top left of the legend */
    double legend_w;             /* width it may use (below) or uses (right, inside) */
    int legend_rows;
    double y2_label_x;
    bool sub;                    /* the subtitle fits the width (else it is left out, not clipped) */
};

static void set_rgb(cairo_t *cr, enum tn_color c, double alpha)
{
    uint32_t v = tn_plot_rgb(c);
    cairo_set_source_rgba(cr, (v >> 16 & 0xff) / 255.0, (v >> 8 & 0xff) / 255.0, (v & 0xff) / 255.0,
                          alpha);
}

static void font(cairo_t *cr, double size, bool bold)
{
    cairo_select_font_face(cr, font_family, CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
}

static double text_w(cairo_t *cr, const char *s)
{
    cairo_text_extents_t te;
    cairo_text_extents(cr, s, &te);
    return te.x_advance;
}

/* Draw s with its anchor at (x, y): ax 0 left, 0.5 centre, 1 right; ay 0 top, 0.5 middle,
 * 1 baseline-ish bottom.  Vertical placement uses the font's ascent so rows line up. */
static void text_at(cairo_t *cr, const char *s, double x, double y, double ax, double ay)
{
    cairo_font_extents_t fe;
    cairo_font_extents(cr, &fe);
    double w = text_w(cr, s);
    double hgt = fe.ascent * 0.8;   /* cap height is about 0.8 of the ascent */
    cairo_move_to(cr, x - ax * w, y + hgt - ay * hgt);
    cairo_show_text(cr, s);
}

/* Unit prefix and axis label for an axis range. */
static void axis_unit(const struct tn_plot_axis *ax, struct axis_fmt *f)
{
    double m = fmax(fabs(ax->min), fabs(ax->max));
    const char *u = "";
    f->factor = 1;
    switch (ax->unit) {
    case TN_U_TIME_S:
        if (ax->max - ax->min < 1.0) {
            f->factor = 1e-3;
            u = "ms";
        } else {
            u = "s";
        }
        break;
    case TN_U_MS:
        u = "ms";
        break;
    case TN_U_BYTES: {
        static const char *const pre[] = {"B", "kB", "MB", "GB", "TB"};
        int i = 0;
        while (m >= 1000 * f->factor && i < 4) {
            f->factor *= 1000;
            i++;
        }
        u = pre[i];
        break;
    }
    case TN_U_BPS: {
        static const char *const pre[] = {"bit/s", "kbit/s", "Mbit/s", "Gbit/s", "Tbit/s"};
        int i = 0;
        while (m >= 1000 * f->factor && i < 4) {
            f->factor *= 1000;
            i++;
        }
        u = pre[i];
        break;
    }
    default:
        break;
    }
    if (*u)
        snprintf(f->label, sizeof f->label, "%s (%s)", ax->label, u);
    else
        snprintf(f->label, sizeof f->label, "%s", ax->label);
}

/* 1-2-5 tick step giving about `target` ticks over the range. */
static void axis_ticks(const struct tn_plot_axis *ax, struct axis_fmt *f, double target)
{
    double lo = ax->min / f->factor, hi = ax->max / f->factor;
    double raw = (hi - lo) / (target < 2 ? 2 : target);
    double mag = pow(10, floor(log10(raw)));
    double r = raw / mag;
    f->step = (r < 1.5 ? 1 : r < 3 ? 2 : r < 7 ? 5 : 10) * mag;
    f->first = ceil(lo / f->step - 1e-9) * f->step;
    /* (tn_plot_set_range keeps the step positive and finite; the label's decimals are bounded
     * before the conversion to int in any case) */
    double decimals = f->step >= 1 ? 0 : ceil(-log10(f->step) - 1e-9);
    f->decimals = decimals <= 9 ? (int)decimals : 9;
}

static void tick_label(const struct axis_fmt *f, double v, char *buf, size_t size)
{
    if (fabs(v) < f->step * 1e-6)
        v = 0;
    snprintf(buf, size, "%.*f", f->decimals, v);
}

/* Widest tick label of an axis. */
static double ticks_width(cairo_t *cr, const struct tn_plot_axis *ax, const struct axis_fmt *f)
{
    double w = 0, hi = ax->max / f->factor;
    char buf[64];
    for (double v = f->first; v <= hi + f->step * 1e-6; v += f->step) {
        tick_label(f, v, buf, sizeof buf);
        w = fmax(w, text_w(cr, buf));
    }
    return w;
}

static bool in_legend(const struct tn_plot *p, size_t i)
{
    const struct tn_plot_series *s = &p->s[i];
    if (!s->label[0] || s->n == 0)
        return false;
    for (size_t k = 0; k < i; k++)   /* one entry per label */
        if (p->s[k].n && strcmp(p->s[k].label, s->label) == 0)
            return false;
    return true;
}

/* Legend rows needed for width w (or drawn at y when draw is set); one entry per row when
 * column is set (right, inside). */
static int legend(cairo_t *cr, const struct tn_plot *p, const struct layout *L, double x0, double w, double y,
                  bool column, bool draw);
/* Width of the widest legend entry. */
static double legend_entry_w(cairo_t *cr, const struct tn_plot *p, const struct layout *L);

/* Fonts and margins shrink with a canvas smaller than the reference (to 0.7 of it, where 9-point
 * text becomes 6.3 points, the smallest size journals accept in figures) and grow with one
 * more than 1.5 times larger (to twice), so the text keeps its share of the canvas. */
static double sizes(double w, double h)
{
    double r = fmin(w / REF_W, h / REF_H);
    if (r < 1)
        return fmax(r, 0.7);
    return r > 1.5 ? fmin(r / 1.5, 2) : 1;
}

static void layout(cairo_t *cr, const struct tn_plot *p, double w, double h, struct layout *L)
{
    L->f = sizes(w, h);
    L->w = w;
    L->h = h;
    axis_unit(&p->x, &L->fx);
    axis_unit(&p->y, &L->fy);
    if (p->has_y2)
        axis_unit(&p->y2, &L->fy2);

    double top = PAD;
    if (p->title[0])
        top += FONT_TITLE * 1.3;
    font(cr, FONT_SUB, false);
    /* a column-wide figure (under half the reference size) has a caption instead: no subtitle */
    L->sub = p->subtitle[0] && text_w(cr, p->subtitle) <= w - 2 * PAD && fmin(w / REF_W, h / REF_H) >= 0.5;
    if (L->sub)
        top += FONT_SUB * 1.35;
    top += PAD * 0.5;

    font(cr, FONT_LEGEND, false);
    bool below = p->legend == TN_LEG_BELOW, column = p->legend == TN_LEG_RIGHT || p->legend == TN_LEG_INSIDE;
    L->legend_rows = p->legend == TN_LEG_OFF ? 0 : legend(cr, p, L, PAD, w - 2 * PAD, 0, column, false);
    L->legend_w = column && L->legend_rows ? legend_entry_w(cr, p, L) : w - 2 * PAD;
    double legend_h = L->legend_rows * FONT_LEGEND * 1.4;
    double bottom = TICK_LEN + 3 * L->f + FONT_TICK * 1.2 + 4 * L->f + FONT_LABEL * 1.3 + PAD * 0.6 +
                    (below && L->legend_rows ? legend_h + 4 * L->f : 0);

    /* y tick spacing depends on the plot height, the left margin on the tick labels */
    double plot_h = h - top - bottom;
    axis_ticks(&p->y, &L->fy, plot_h / (45 * L->f));
    if (p->has_y2)
        axis_ticks(&p->y2, &L->fy2, plot_h / (45 * L->f));
    font(cr, FONT_TICK, false);
    double left = PAD + FONT_LABEL * 1.3 + 4 * L->f + ticks_width(cr, &p->y, &L->fy) + TICK_LEN + 3 * L->f;
    double right = p->has_y2 ? PAD + FONT_LABEL * 1.3 + 4 * L->f + ticks_width(cr, &p->y2, &L->fy2) + TICK_LEN +
                                   3 * L->f
                             : PAD + 14 * L->f;
    double beside = p->legend == TN_LEG_RIGHT && L->legend_rows ? L->legend_w + PAD : 0;
    right += beside;
    L->y2_label_x = w - PAD - beside;
    L->px0 = left;
    L->px1 = w - right;
    L->py0 = top;
    L->py1 = h - bottom;
    /* x ticks: about one per 70 points, fewer when the labels are wide */
    axis_ticks(&p->x, &L->fx, (L->px1 - L->px0) / (70 * L->f));
    double lw = ticks_width(cr, &p->x, &L->fx);
    if (lw + 12 * L->f > (L->px1 - L->px0) / ((p->x.max - p->x.min) / L->fx.factor / L->fx.step))
        axis_ticks(&p->x, &L->fx, (L->px1 - L->px0) / (lw + 24 * L->f));
    switch (p->legend) {
    case TN_LEG_RIGHT:
        L->legend_x = w - PAD - L->legend_w;
        L->legend_y = L->py0;
        break;
    case TN_LEG_INSIDE:   /* top right corner of the plot area */
        L->legend_x = L->px1 - L->legend_w - 4 * L->f;
        L->legend_y = L->py0 + 4 * L->f;
        break;
    default:
        L->legend_x = PAD;
        L->legend_y = L->py1 + TICK_LEN + 3 * L->f + FONT_TICK * 1.2 + 4 * L->f + FONT_LABEL * 1.3 + 4 * L->f;
        break;
    }
}

static double map_x(const struct tn_plot *p, const struct layout *L, double x)
{
    return L->px0 + (x - p->x.min) / (p->x.max - p->x.min) * (L->px1 - L->px0);
}

static double map_y(const struct tn_plot_axis *ax, const struct layout *L, double y)
{
    return L->py1 - (y - ax->min) / (ax->max - ax->min) * (L->py1 - L->py0);
}

static void marker(cairo_t *cr, enum tn_mark m, double x, double y, double size)
{
    double r = size / 2;
    switch (m) {
    case TN_MK_DOT:
        cairo_arc(cr, x, y, r, 0, 2 * M_PI);
        cairo_fill(cr);
        break;
    case TN_MK_CIRCLE:
        cairo_new_sub_path(cr);
        cairo_arc(cr, x, y, r, 0, 2 * M_PI);
        cairo_stroke(cr);
        break;
    case TN_MK_DIAMOND:
        cairo_move_to(cr, x, y - r * 1.2);
        cairo_line_to(cr, x + r, y);
        cairo_line_to(cr, x, y + r * 1.2);
        cairo_line_to(cr, x - r, y);
        cairo_close_path(cr);
        cairo_fill(cr);
        break;
    case TN_MK_BOX:
        cairo_rectangle(cr, x - r, y - r, 2 * r, 2 * r);
        cairo_stroke(cr);
        break;
    case TN_MK_X:
        cairo_move_to(cr, x - r, y - r);
        cairo_line_to(cr, x + r, y + r);
        cairo_move_to(cr, x - r, y + r);
        cairo_line_to(cr, x + r, y - r);
        cairo_stroke(cr);
        break;
    case TN_MK_PLUS:
        cairo_move_to(cr, x - r, y);
        cairo_line_to(cr, x + r, y);
        cairo_move_to(cr, x, y - r);
        cairo_line_to(cr, x, y + r);
        cairo_stroke(cr);
        break;
    case TN_MK_UTRI:
    case TN_MK_DTRI: {
        double s = m == TN_MK_UTRI ? -1 : 1;
        cairo_move_to(cr, x, y + s * r);
        cairo_line_to(cr, x + r, y - s * r);
        cairo_line_to(cr, x - r, y - s * r);
        cairo_close_path(cr);
        cairo_fill(cr);
        break;
    }
    }
}

/* Dash patterns (points): long, short, dash-dot, dotted; they tell lines apart in grey-scale print. */
static void dash(cairo_t *cr, bool on, int kind)
{
    static const double d[][4] = {{5, 3, 0, 0}, {2.5, 2, 0, 0}, {6, 2, 1.5, 2}, {1, 1.8, 0, 0}};
    static const int n[] = {2, 2, 4, 2};
    int k = kind >= 0 && kind < 4 ? kind : 0;
    cairo_set_dash(cr, d[k], on ? n[k] : 0, 0);
}

static void draw_series(cairo_t *cr, const struct tn_plot *p, const struct layout *L,
                        const struct tn_plot_series *s)
{
    const struct tn_plot_axis *ax = s->right ? &p->y2 : &p->y;
    set_rgb(cr, s->color, s->alpha);
    cairo_set_line_width(cr, s->width);
    dash(cr, s->dashed, s->dash);
    switch (s->draw) {
    case TN_D_SPANS:
        for (size_t i = 0; i < s->n; i++) {
            double a = map_x(p, L, s->pts[i].x), b = map_x(p, L, s->pts[i].x2);
            cairo_rectangle(cr, a, L->py0, fmax(b - a, 0.5), L->py1 - L->py0);
        }
        cairo_fill(cr);
        break;
    case TN_D_LINE:
        for (size_t i = 0; i < s->n; i++) {
            if (isnan(s->pts[i].y))   /* pen up */
                continue;
            double x = map_x(p, L, s->pts[i].x), y = map_y(ax, L, s->pts[i].y);
            if (i == 0 || isnan(s->pts[i - 1].y))
                cairo_move_to(cr, x, y);
            else
                cairo_line_to(cr, x, y);
        }
        if (s->n == 1) {   /* a single sample is still visible */
            double x = map_x(p, L, s->pts[0].x), y = map_y(ax, L, s->pts[0].y);
            cairo_line_to(cr, x + 0.5, y);
        }
        cairo_stroke(cr);
        break;
    case TN_D_TICKS:
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
        for (size_t i = 0; i < s->n; i++) {
            double x = map_x(p, L, s->pts[i].x);
            double y1 = map_y(ax, L, s->pts[i].y), y2 = map_y(ax, L, s->pts[i].y2);
            double min_len = s->width * 1.5;   /* tiny segments stay visible */
            if (y1 - y2 < min_len) {
                double m = (y1 + y2) / 2;
                y1 = m + min_len / 2;
                y2 = m - min_len / 2;
            }
            cairo_move_to(cr, x, y1);
            cairo_line_to(cr, x, y2);
        }
        cairo_stroke(cr);
        break;
    case TN_D_POINTS:
        cairo_set_line_width(cr, fmax(0.8, s->width / 4));
        for (size_t i = 0; i < s->n; i++)
            marker(cr, s->mark, map_x(p, L, s->pts[i].x), map_y(ax, L, s->pts[i].y), s->width);
        break;
    }
    dash(cr, false, 0);
}

/* The unlabelled marker series drawn with line series i (experiment figures), or NULL. */
static const struct tn_plot_series *markers_of(const struct tn_plot *p, size_t i)
{
    for (size_t k = i + 1; k < p->ns && !p->s[k].label[0]; k++)
        if (p->s[k].draw == TN_D_POINTS && p->s[k].color == p->s[i].color)
            return &p->s[k];
    return NULL;
}

static void swatch(cairo_t *cr, const struct tn_plot_series *s, const struct layout *L, double x, double y)
{
    set_rgb(cr, s->color, s->draw == TN_D_SPANS ? fmax(s->alpha, 0.35) : s->alpha);
    cairo_set_line_width(cr, s->draw == TN_D_LINE ? fmax(s->width, 1.2) : s->width);
    dash(cr, s->dashed, s->dash);
    switch (s->draw) {
    case TN_D_SPANS:
        cairo_rectangle(cr, x, y - 4.5 * L->f, SWATCH, 9 * L->f);
        cairo_fill(cr);
        break;
    case TN_D_LINE:
        cairo_move_to(cr, x, y);
        cairo_line_to(cr, x + SWATCH, y);
        cairo_stroke(cr);
        break;
    case TN_D_TICKS:
        cairo_set_line_width(cr, fmax(s->width, 1.2));
        cairo_move_to(cr, x + SWATCH / 2, y - 5 * L->f);
        cairo_line_to(cr, x + SWATCH / 2, y + 5 * L->f);
        cairo_stroke(cr);
        break;
    case TN_D_POINTS:
        cairo_set_line_width(cr, fmax(0.8, s->width / 4));
        marker(cr, s->mark, x + SWATCH / 2, y, fmax(s->width, 4));
        break;
    }
    dash(cr, false, 0);
}

static double legend_entry_w(cairo_t *cr, const struct tn_plot *p, const struct layout *L)
{
    double w = 0;
    for (size_t i = 0; i < p->ns; i++)
        if (in_legend(p, i))
            w = fmax(w, SWATCH + 4 * L->f + text_w(cr, p->s[i].label) + 4 * L->f);
    return w;
}

static int legend(cairo_t *cr, const struct tn_plot *p, const struct layout *L, double x0, double w, double y,
                  bool column, bool draw)
{
    int rows = 0;
    double x = x0, rowh = FONT_LEGEND * 1.4, gap = 14 * L->f;
    if (draw && column && p->legend == TN_LEG_INSIDE) {   /* a white box so the data does not show through */
        int n = legend(cr, p, L, x0, w, y, true, false);
        cairo_set_source_rgba(cr, 1, 1, 1, 0.88);
        cairo_rectangle(cr, x0 - 3 * L->f, y - 2 * L->f, w + 4 * L->f, n * rowh + 4 * L->f);
        cairo_fill_preserve(cr);
        cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
        cairo_set_line_width(cr, 0.5);
        cairo_stroke(cr);
    }
    for (size_t i = 0; i < p->ns; i++) {
        if (!in_legend(p, i))
            continue;
        double ew = SWATCH + 4 * L->f + text_w(cr, p->s[i].label) + gap;
        if (rows == 0 || column || (x + ew - gap > x0 + w && x > x0)) {
            rows++;
            x = x0;
        }
        if (draw) {
            double yy = y + (rows - 1) * rowh + rowh / 2;
            swatch(cr, &p->s[i], L, x, yy);
            const struct tn_plot_series *mk = p->s[i].draw == TN_D_LINE ? markers_of(p, i) : NULL;
            if (mk) {
                set_rgb(cr, mk->color, mk->alpha);
                cairo_set_line_width(cr, fmax(0.8, mk->width / 4));
                marker(cr, mk->mark, x + SWATCH / 2, yy, fmin(mk->width, 6 * L->f));
            }
            cairo_set_source_rgb(cr, 0, 0, 0);
            text_at(cr, p->s[i].label, x + SWATCH + 4 * L->f, yy, 0, 0.5);
        }
        x += ew;
    }
    return rows;
}

static void draw_axes(cairo_t *cr, const struct tn_plot *p, const struct layout *L)
{
    char buf[64];
    /* grid first, light, so data covers it */
    cairo_set_line_width(cr, 0.5);
    cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
    for (double v = L->fx.first; v <= p->x.max / L->fx.factor + L->fx.step * 1e-6; v += L->fx.step) {
        double x = map_x(p, L, v * L->fx.factor);
        cairo_move_to(cr, x, L->py0);
        cairo_line_to(cr, x, L->py1);
    }
    for (double v = L->fy.first; v <= p->y.max / L->fy.factor + L->fy.step * 1e-6; v += L->fy.step) {
        double y = map_y(&p->y, L, v * L->fy.factor);
        cairo_move_to(cr, L->px0, y);
        cairo_line_to(cr, L->px1, y);
    }
    cairo_stroke(cr);
    (void)buf;
}

static void draw_frame(cairo_t *cr, const struct tn_plot *p, const struct layout *L)
{
    char buf[64];
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 0.8);
    cairo_rectangle(cr, L->px0, L->py0, L->px1 - L->px0, L->py1 - L->py0);
    cairo_stroke(cr);

    font(cr, FONT_TICK, false);
    for (double v = L->fx.first; v <= p->x.max / L->fx.factor + L->fx.step * 1e-6; v += L->fx.step) {
        double x = map_x(p, L, v * L->fx.factor);
        cairo_move_to(cr, x, L->py1);
        cairo_line_to(cr, x, L->py1 + TICK_LEN);
        cairo_stroke(cr);
        tick_label(&L->fx, v, buf, sizeof buf);
        text_at(cr, buf, x, L->py1 + TICK_LEN + 3 * L->f, 0.5, 0);
    }
    for (double v = L->fy.first; v <= p->y.max / L->fy.factor + L->fy.step * 1e-6; v += L->fy.step) {
        double y = map_y(&p->y, L, v * L->fy.factor);
        cairo_move_to(cr, L->px0 - TICK_LEN, y);
        cairo_line_to(cr, L->px0, y);
        cairo_stroke(cr);
        tick_label(&L->fy, v, buf, sizeof buf);
        text_at(cr, buf, L->px0 - TICK_LEN - 3 * L->f, y, 1, 0.5);
    }
    if (p->has_y2) {
        for (double v = L->fy2.first; v <= p->y2.max / L->fy2.factor + L->fy2.step * 1e-6;
             v += L->fy2.step) {
            double y = map_y(&p->y2, L, v * L->fy2.factor);
            cairo_move_to(cr, L->px1, y);
            cairo_line_to(cr, L->px1 + TICK_LEN, y);
            cairo_stroke(cr);
            tick_label(&L->fy2, v, buf, sizeof buf);
            text_at(cr, buf, L->px1 + TICK_LEN + 3 * L->f, y, 0, 0.5);
        }
    }

    font(cr, FONT_LABEL, false);
    text_at(cr, L->fx.label, (L->px0 + L->px1) / 2, L->py1 + TICK_LEN + 3 * L->f + FONT_TICK * 1.2 + 4 * L->f, 0.5, 0);
    cairo_save(cr);
    cairo_translate(cr, PAD, (L->py0 + L->py1) / 2);
    cairo_rotate(cr, -M_PI / 2);
    text_at(cr, L->fy.label, 0, 0, 0.5, 0);
    cairo_restore(cr);
    if (p->has_y2) {
        cairo_save(cr);
        cairo_translate(cr, L->y2_label_x, (L->py0 + L->py1) / 2);
        cairo_rotate(cr, M_PI / 2);
        text_at(cr, L->fy2.label, 0, 0, 0.5, 0);
        cairo_restore(cr);
    }

    double y = PAD;
    if (p->title[0]) {
        font(cr, FONT_TITLE, true);
        text_at(cr, p->title, L->w / 2, y, 0.5, 0);
        y += FONT_TITLE * 1.3;
    }
    if (L->sub) {
        font(cr, FONT_SUB, false);
        cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
        text_at(cr, p->subtitle, L->w / 2, y, 0.5, 0);
    }
}

static void draw(cairo_t *cr, const struct tn_plot *p, double w, double h, struct layout *L)
{
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    layout(cr, p, w, h, L);
    draw_axes(cr, p, L);

    cairo_save(cr);
    cairo_rectangle(cr, L->px0, L->py0, L->px1 - L->px0, L->py1 - L->py0);
    cairo_clip(cr);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    for (size_t i = 0; i < p->ns; i++)   /* spans under everything */
        if (p->s[i].draw == TN_D_SPANS)
            draw_series(cr, p, L, &p->s[i]);
    for (size_t i = 0; i < p->ns; i++)
        if (p->s[i].draw != TN_D_SPANS)
            draw_series(cr, p, L, &p->s[i]);
    cairo_restore(cr);

    if (p->note[0]) {
        font(cr, FONT_LABEL, false);
        cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
        text_at(cr, p->note, (L->px0 + L->px1) / 2, (L->py0 + L->py1) / 2, 0.5, 0.5);
    }
    draw_frame(cr, p, L);
    if (p->legend != TN_LEG_OFF) {
        font(cr, FONT_LEGEND, false);
        bool column = p->legend == TN_LEG_RIGHT || p->legend == TN_LEG_INSIDE;
        legend(cr, p, L, L->legend_x, L->legend_w, L->legend_y, column, true);
    }
}

static cairo_status_t to_file(void *closure, const unsigned char *data, unsigned int len)
{
    return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

int tn_plot_write_cairo_fp(const struct tn_plot *p, enum tn_img_fmt fmt, FILE *fp, const char *name,
                           int width, int height, double scale, struct tn_plot_area *area,
                           struct tn_err *err)
{
    if (width < 120 || height < 90)
        return tn_err_set(err, TN_EUSAGE, "%s: figure size %dx%d too small (at least 120x90 points)",
                          name, width, height);
    if (fmt != TN_IMG_PNG || !(scale > 0))
        scale = 1;
    cairo_surface_t *sf;
    switch (fmt) {
    case TN_IMG_SVG:
        sf = cairo_svg_surface_create_for_stream(to_file, fp, width, height);
        break;
    case TN_IMG_PDF:
        sf = cairo_pdf_surface_create_for_stream(to_file, fp, width, height);
        break;
    default:
        sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)lround(width * scale),
                                        (int)lround(height * scale));
        break;
    }
    cairo_t *cr = cairo_create(sf);
    cairo_scale(cr, scale, scale);
    struct layout L;
    draw(cr, p, width, height, &L);
    cairo_status_t st = cairo_status(cr);
    cairo_destroy(cr);
    if (st == CAIRO_STATUS_SUCCESS && fmt == TN_IMG_PNG)
        st = cairo_surface_write_to_png_stream(sf, to_file, fp);
    cairo_surface_finish(sf);
    if (st == CAIRO_STATUS_SUCCESS)
        st = cairo_surface_status(sf);
    cairo_surface_destroy(sf);
    if (st != CAIRO_STATUS_SUCCESS)
        return tn_err_set(err, TN_EIO, "%s: cannot write figure: %s", name, cairo_status_to_string(st));
    if (area)
        *area = (struct tn_plot_area){L.px0 * scale, L.py0 * scale, L.px1 * scale, L.py1 * scale};
    return 0;
}

int tn_plot_write_cairo(const struct tn_plot *p, enum tn_img_fmt fmt, const char *path, int width,
                        int height, double scale, struct tn_plot_area *area, struct tn_err *err)
{
    struct tn_safeout o;
    int r = tn_safeout_open(&o, path, err);
    if (r)
        return r;
    r = tn_plot_write_cairo_fp(p, fmt, o.fp, path, width, height, scale, area, err);
    if (r) {
        int e = o.err;   /* cairo says "error while writing"; the stream kept why */
        tn_safeout_abort(&o);
        if (e)
            r = tn_err_set(err, TN_EIO, "%s: cannot write: %s; the file was not written", path,
                           strerror(e));
        return r;
    }
    return tn_safeout_commit(&o, err);
}

void tn_plot_cairo_release(void)
{
    cairo_debug_reset_static_data();
    void (*fini)(void) = (void (*)(void))dlsym(RTLD_DEFAULT, "FcFini");
    if (fini)
        fini();
}
