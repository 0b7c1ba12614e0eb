/* render_fig_dfcp.c - DFCP block timeline: block number against time, each DATA symbol a tick
 * at its block, BACKs marked (decoded or DECODE_FAILED), failed blocks highlighted
 * (dfcp-wire-format.md "Exchange").  Packet records of DFCP carry seq = block number,
 * ack = symbol index, flags = DFCP type. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "plot.h"

struct blk {
    uint32_t block;
    uint8_t outcome;
};

static int blk_cmp(const void *a, const void *b)
{
    uint32_t x = ((const struct blk *)a)->block, y = ((const struct blk *)b)->block;
    return x < y ? -1 : x > y;
}

static int outcome_of(const struct blk *v, size_t n, uint32_t block)
{
    struct blk key = {block, 0};
    const struct blk *f = bsearch(&key, v, n, sizeof *v, blk_cmp);
    return f ? f->outcome : -1;
}

static size_t series(struct tn_plot *p, enum tn_draw dr, enum tn_color col, const char *label,
                     enum tn_mark m, double width, bool keep_all)
{
    struct tn_plot_series *s = tn_plot_series_new(p, dr, col, label);
    s->mark = m;
    s->width = width;
    s->keep_all = keep_all;
    return tn_plot_series_index(p, s);
}

struct tn_plot *tn_fig_dfcp(const struct tn_conn *c, const struct tn_fig_cfg *fc)
{
    int64_t from, to;
    if (c->proto != TN_PK_DFCP || !tn_fig_window(c, fc->view, &from, &to))
        return NULL;
    struct blk *bv = tn_xcalloc(c->nblocks ? c->nblocks : 1, sizeof *bv);
    double lo = INFINITY, hi = -INFINITY;
    size_t nfail = 0, ndec = 0, nblk = 0;
    for (size_t i = 0; i < c->nblocks; i++) {
        const struct tn_dfcp_block *b = &c->blocks[i];
        bv[i] = (struct blk){b->block, b->outcome};
        bool counted = b->bflags & TN_DFCP_BF_COUNTED;   /* (--from/--to: as the summary) */
        nblk += counted;
        nfail += counted && b->outcome == TN_DFCP_FAILED;
        ndec += counted && b->outcome == TN_DFCP_DECODED;
        if (b->last_ns >= from && b->first_ns <= to) {
            lo = fmin(lo, b->block);
            hi = fmax(hi, b->block);
        }
    }
    qsort(bv, c->nblocks, sizeof *bv, blk_cmp);
    for (size_t i = 0; i < c->npkts; i++) {
        const struct tn_pktrec *k = &c->pkts[i];
        if (k->flags == TN_DFCP_T_DATA && k->t_ns >= from && k->t_ns <= to) {
            lo = fmin(lo, (double)k->seq);
            hi = fmax(hi, (double)k->seq);
        }
    }
    struct tn_plot *p = tn_fig_begin_at(fc, tn_fig_origin(c, fc), from, to);
    snprintf(p->title, sizeof p->title, "DFCP block timeline");
    char who[160];
    tn_fig_conn_label(c, -1, who, sizeof who);
    snprintf(p->subtitle, sizeof p->subtitle, "%s; %zu blocks: %zu decoded, %zu failed, %zu unacknowledged",
             who, nblk, ndec, nfail, nblk - ndec - nfail);
    snprintf(p->y.label, sizeof p->y.label, "block number");
    p->y.unit = TN_U_NONE;
    if (!isfinite(lo)) {
        lo = 0;
        hi = 1;
        snprintf(p->note, sizeof p->note, "no DFCP blocks recorded in the time window");
    }
    tn_plot_set_range(&p->y, lo - 0.6, hi + 0.6);

    size_t s_fail = series(p, TN_D_SPANS, TN_C_VERMILLION, "", TN_MK_DOT, 1, true);
    p->s[s_fail].alpha = 0.12;
    size_t s_sym = series(p, TN_D_TICKS, TN_C_BLUE, "symbol (DATA)", TN_MK_DOT, 1, false);
    size_t s_fsym = series(p, TN_D_TICKS, TN_C_VERMILLION, "symbol of a failed block", TN_MK_DOT, 1.2, false);
    size_t s_ok = series(p, TN_D_POINTS, TN_C_GREEN, "BACK: decoded", TN_MK_DIAMOND, 6, true);
    size_t s_bad = series(p, TN_D_POINTS, TN_C_VERMILLION, "BACK: decode failed", TN_MK_X, 7, true);
    size_t s_un = series(p, TN_D_POINTS, TN_C_GREY, "no BACK seen", TN_MK_CIRCLE, 6, true);
    for (size_t i = 0; i < c->npkts; i++) {
        const struct tn_pktrec *k = &c->pkts[i];
        if (k->flags != TN_DFCP_T_DATA || k->t_ns < from || k->t_ns > to)
            continue;
        double y = (double)k->seq;
        bool failed = outcome_of(bv, c->nblocks, (uint32_t)k->seq) == TN_DFCP_FAILED;
        tn_plot_tick(p, failed ? s_fsym : s_sym, tn_fig_x(p, k->t_ns), y - 0.35, y + 0.35);
    }
    for (size_t i = 0; i < c->nblocks; i++) {
        const struct tn_dfcp_block *b = &c->blocks[i];
        int64_t t = b->back_ns ? b->back_ns : b->last_ns;
        if (t < from || t > to)
            continue;
        size_t si = b->outcome == TN_DFCP_DECODED ? s_ok : b->outcome == TN_DFCP_FAILED ? s_bad : s_un;
        tn_plot_point(p, si, tn_fig_x(p, t), b->block);
        if (b->outcome == TN_DFCP_FAILED)   /* the failed block's lifetime, highlighted */
            tn_plot_span(p, s_fail, tn_fig_x(p, b->first_ns < from ? from : b->first_ns), tn_fig_x(p, t));
    }
    free(bv);
    tn_plot_finish(p);
    return p;
}
