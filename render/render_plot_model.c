/* render_plot_model.c - the plot model: series storage and per-pixel-column decimation.
 *
 * Decimation keeps a figure's cost proportional to its size: a line keeps, per column, its first,
 * lowest, highest and last point in the order they came (the min/max envelope, so spikes and
 * steps survive); a tick series keeps one tick per column spanning every tick of that column;
 * scatter points keep one point per (column, row) cell; event markers (keep_all) are all kept.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

uint32_t tn_plot_rgb(enum tn_color c)
{
    static const uint32_t rgb[TN_C_COUNT] = {
        [TN_C_BLACK] = 0x000000,  [TN_C_ORANGE] = 0xE69F00,     [TN_C_SKY] = 0x56B4E9,
        [TN_C_GREEN] = 0x009E73,  [TN_C_YELLOW] = 0xF0E442,     [TN_C_BLUE] = 0x0072B2,
        [TN_C_VERMILLION] = 0xD55E00, [TN_C_PURPLE] = 0xCC79A7, [TN_C_GREY] = 0x999999,
    };
    return (unsigned)c < TN_C_COUNT ? rgb[c] : 0;
}

struct tn_plot *tn_plot_new(int ncols, int nrows)
{
    struct tn_plot *p = tn_xcalloc(1, sizeof *p);
    p->ncols = ncols > 0 ? ncols : 0;
    p->nrows = nrows > 0 ? nrows : 0;
    return p;
}

void tn_plot_free(struct tn_plot *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->ns; i++) {
        free(p->s[i].pts);
        free(p->s[i].cells);
    }
    free(p->s);
    free(p);
}

void tn_plot_set_range(struct tn_plot_axis *ax, double min, double max)
{
    if (!isfinite(min) || !isfinite(max)) {
        min = 0;
        max = 1;
    }
    if (max < min) {
        double t = min;
        min = max;
        max = t;
    }
    /* ends whose difference a double cannot hold would make the tick step infinite */
    min = fmax(min, -DBL_MAX / 2);
    max = fmin(max, DBL_MAX / 2);
    /* A flat series still gets an axis around its value; so does one narrower than 1024 units
     * in the last place of its values (fuzz_cluster: a sequence axis 2 ulps wide at 1.8e19),
     * which the axis's unit division can make flat and whose tick steps would not advance a
     * double: at most a few hundred ticks, each still many ulps apart. */
    double mag = fmax(fabs(min), fabs(max));
    if (max - min <= mag * DBL_EPSILON * 1024 || mag < DBL_MIN) {
        double pad = fabs(min) >= DBL_MIN ? fabs(min) * 0.1 : 1;
        min = min >= 0 && min - pad < 0 ? 0 : min - pad;
        max += pad;
    }
    ax->min = min;
    ax->max = max;
}

struct tn_plot_series *tn_plot_series_new(struct tn_plot *p, enum tn_draw draw, enum tn_color color,
                                          const char *label)
{
    tn_grow((void **)&p->s, &p->cap, p->ns + 1, sizeof *p->s);
    struct tn_plot_series *s = &p->s[p->ns++];
    memset(s, 0, sizeof *s);
    s->draw = draw;
    s->color = color;
    s->width = draw == TN_D_POINTS ? 3 : 1;
    s->alpha = 1;
    s->dc.col = -1;
    if (label)
        snprintf(s->label, sizeof s->label, "%s", label);
    return s;
}

size_t tn_plot_series_index(const struct tn_plot *p, const struct tn_plot_series *s)
{
    return (size_t)(s - p->s);
}

static void push(struct tn_plot_series *s, struct tn_pp pt)
{
    if (s->n == s->cap)
        tn_grow((void **)&s->pts, &s->cap, s->n + 1, sizeof *s->pts);
    s->pts[s->n++] = pt;
}

/* The cell of the fraction f of an axis cut into n cells.  A point beyond the axis goes to the
 * edge cell, decided before the conversion to long, which a far one overflows (fuzz_retired: an
 * RTT sample of -5e43 from another rank's bytes on an RTT axis from 0). */
static long cell_of(double f, int n)
{
    if (!(f > 0))
        return 0;
    if (f >= 1)
        return n - 1;
    long c = (long)floor(f * n);
    return c >= n ? n - 1 : c;
}

static long column(const struct tn_plot *p, double x)
{
    return cell_of((x - p->x.min) / (p->x.max - p->x.min), p->ncols);
}

static long row(const struct tn_plot *p, const struct tn_plot_series *s, double y)
{
    const struct tn_plot_axis *ax = s->right ? &p->y2 : &p->y;
    return cell_of((y - ax->min) / (ax->max - ax->min), p->nrows);
}

/* Emit the current column of a line (first, lo/hi in order, last) or tick series (envelope). */
static void flush(struct tn_plot_series *s)
{
    struct tn_decim *d = &s->dc;
    if (d->n == 0)
        return;
    if (s->draw == TN_D_TICKS) {
        push(s, (struct tn_pp){d->first.x, d->lo.y, 0, d->hi.y2});
    } else {
        size_t last = d->n - 1;
        push(s, d->first);
        size_t a = d->ilo < d->ihi ? d->ilo : d->ihi, b = d->ilo < d->ihi ? d->ihi : d->ilo;
        const struct tn_pp *pa = a == d->ilo ? &d->lo : &d->hi, *pb = a == d->ilo ? &d->hi : &d->lo;
        if (a != 0 && a != last)
            push(s, *pa);
        if (b != 0 && b != last && b != a)
            push(s, *pb);
        if (last)
            push(s, d->last);
    }
    d->n = 0;
}

static void decimate(struct tn_plot *p, struct tn_plot_series *s, struct tn_pp pt)
{
    long c = column(p, pt.x);
    struct tn_decim *d = &s->dc;
    if (c != d->col) {
        flush(s);
        d->col = c;
    }
    if (d->n == 0) {
        d->first = d->lo = d->hi = d->last = pt;
        d->ilo = d->ihi = 0;
    } else if (s->draw == TN_D_TICKS) {
        if (pt.y < d->lo.y)
            d->lo.y = pt.y;
        if (pt.y2 > d->hi.y2)
            d->hi.y2 = pt.y2;
    } else {
        if (pt.y < d->lo.y) {
            d->lo = pt;
            d->ilo = d->n;
        }
        if (pt.y > d->hi.y) {
            d->hi = pt;
            d->ihi = d->n;
        }
        d->last = pt;
    }
    d->n++;
}

static void add(struct tn_plot *p, size_t si, struct tn_pp pt)
{
    struct tn_plot_series *s = &p->s[si];
    if (!isfinite(pt.x) || !isfinite(pt.y))
        return;
    if (p->ncols == 0 || s->keep_all || s->draw == TN_D_SPANS) {
        push(s, pt);
        return;
    }
    if (s->draw == TN_D_POINTS) {
        if (p->nrows == 0) {
            push(s, pt);
            return;
        }
        if (!s->cells)
            s->cells = tn_xcalloc(((size_t)p->ncols * (size_t)p->nrows + 7) / 8, 1);
        size_t cell = (size_t)column(p, pt.x) * (size_t)p->nrows + (size_t)row(p, s, pt.y);
        if (s->cells[cell / 8] & (1u << (cell % 8)))
            return;
        s->cells[cell / 8] |= (uint8_t)(1u << (cell % 8));
        push(s, pt);
        return;
    }
    decimate(p, s, pt);
}

void tn_plot_point(struct tn_plot *p, size_t si, double x, double y)
{
    add(p, si, (struct tn_pp){x, y, 0, 0});
}

void tn_plot_tick(struct tn_plot *p, size_t si, double x, double y, double y2)
{
    if (y2 < y) {
        double t = y;
        y = y2;
        y2 = t;
    }
    add(p, si, (struct tn_pp){x, y, 0, y2});
}

void tn_plot_span(struct tn_plot *p, size_t si, double x, double x2)
{
    if (x2 < x)
        return;
    add(p, si, (struct tn_pp){x, 0, x2, 0});
}

void tn_plot_break(struct tn_plot *p, size_t si)
{
    struct tn_plot_series *s = &p->s[si];
    if (s->draw != TN_D_LINE)
        return;
    flush(s);
    s->dc.col = -1;
    if (s->n && !isnan(s->pts[s->n - 1].y))
        push(s, (struct tn_pp){NAN, NAN, 0, 0});
}

void tn_plot_finish(struct tn_plot *p)
{
    for (size_t i = 0; i < p->ns; i++) {
        flush(&p->s[i]);
        free(p->s[i].cells);
        p->s[i].cells = NULL;
    }
}

size_t tn_plot_npoints(const struct tn_plot *p)
{
    size_t n = 0;
    for (size_t i = 0; i < p->ns; i++)
        n += p->s[i].n;
    return n;
}
