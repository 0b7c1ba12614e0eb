/* analysis_dfcp_blocks.c - DFCP blocks: symbols seen per block, BACK outcome and latency,
 * blocks in flight against the window, throughput/goodput/symbol-rate series and the
 * connection's summary (dfcp-wire-format.md "Exchange", "What an analyzer can infer").
 *
 * Blocks live in c->blocks, appended as they first appear (a symbol, or a BACK for a block
 * none of whose symbols passed here).  Blocks arrive mostly in order, so a block is found by
 * the direction's hint (the block of the last DATA) or by its distance in block numbers from
 * the hint; only when both miss is the array searched backwards, at most TN_DFCP_SCAN records.
 * tn_dfcp_blocks_finish sorts the records by direction and block number (serial order). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_int.h"
#include "seq.h"

const char *tn_dfcp_outcome_name(enum tn_dfcp_outcome o)
{
    switch (o) {
    case TN_DFCP_DECODED: return "decoded";
    case TN_DFCP_FAILED: return "failed";
    default: return "unacked";
    }
}

static enum tn_dir other(enum tn_dir d)
{
    return d == TN_A2B ? TN_B2A : TN_A2B;
}

static bool match(const struct tn_dfcp_block *b, enum tn_dir d, uint32_t blk)
{
    return b->dir == (uint8_t)d && b->block == blk;
}

/* Index of block blk of direction d, or -1. */
static long find_block(const struct tn_conn *c, const struct tn_dfcp_dir *dd, enum tn_dir d,
                       uint32_t blk)
{
    if (!dd->hi_set || tn_seq_gt(blk, dd->hi_block))
        return -1;                      /* beyond every record: new */
    if (dd->hint) {
        size_t h = dd->hint - 1;
        const struct tn_dfcp_block *b = &c->blocks[h];
        if (match(b, d, blk))
            return (long)h;
        /* dense numbering: block b->block - x sits x records before the hint */
        uint32_t dist = tn_seq_lt(blk, b->block) ? b->block - blk : blk - b->block;
        size_t cand = tn_seq_lt(blk, b->block) ? (dist <= h ? h - dist : SIZE_MAX)
                                                : h + dist;
        if (cand < c->nblocks && match(&c->blocks[cand], d, blk))
            return (long)cand;
    }
    size_t lim = c->nblocks > TN_DFCP_SCAN ? c->nblocks - TN_DFCP_SCAN : 0;
    for (size_t i = c->nblocks; i-- > lim;)
        if (match(&c->blocks[i], d, blk))
            return (long)i;
    return -1;
}

static size_t new_block(struct tn_conn *c, struct tn_dfcp_dir *dd, enum tn_dir d,
                        const struct tn_dfcp *h, bool with_bitmap)
{
    tn_grow((void **)&c->blocks, &c->cap_blocks, c->nblocks + 1, sizeof *c->blocks);
    struct tn_dfcp_block *b = &c->blocks[c->nblocks];
    memset(b, 0, sizeof *b);
    b->block = h->block;
    b->n = h->n;
    b->k = h->k;
    b->dir = (uint8_t)d;
    if (with_bitmap && h->n)
        b->seen = tn_xcalloc((size_t)(h->n + 7) / 8, 1);
    if (!dd->hi_set || tn_seq_gt(h->block, dd->hi_block)) {
        dd->hi_block = h->block;
        dd->hi_set = true;
    }
    return c->nblocks++;
}

/* ---- series ---- */

/* Close every interval that ends at or before t (throughput, goodput, symbol rate). */
static void interval_flush(struct tn_analyzer_ctx *ctx, struct tn_conn *c, enum tn_dir d,
                           struct tn_dfcp_dir *dd, int64_t t)
{
    int64_t iv = ctx->cfg->interval_ns;
    if (!dd->iv_end)
        dd->iv_end = (t / iv + 1) * iv;
    while (t >= dd->iv_end) {
        double secs = (double)iv / 1e9;
        tn_rec_series(ctx, c, d, TN_SER_THROUGHPUT, dd->iv_end, (double)dd->iv_bytes * 8 / secs);
        tn_rec_series(ctx, c, d, TN_SER_GOODPUT, dd->iv_end, (double)dd->iv_good * 8 / secs);
        tn_rec_series(ctx, c, d, TN_SER_DFCP_SYMBOL_RATE, dd->iv_end, (double)dd->iv_syms / secs);
        dd->iv_bytes = dd->iv_good = dd->iv_syms = 0;
        dd->iv_end += iv;
        if (t - dd->iv_end > 2 * iv)   /* a long silence: one zero where traffic resumes */
            dd->iv_end = t / iv * iv;
    }
}

/* Account the time since the last in-flight change.  The window bounds the sender while it
 * has data to send, so the summary uses the totals as of the latest DATA (area_at_data). */
static void inflight_account(struct tn_dfcp_dir *dd, uint16_t window, int64_t t)
{
    if (t <= dd->last_change_ns)
        return;
    int64_t dt = t - dd->last_change_ns;
    dd->inflight_area += (double)dd->inflight * (double)dt;
    if (window && dd->inflight >= window)
        dd->full_ns += dt;
    dd->last_change_ns = t;
}

static void inflight_set(struct tn_analyzer_ctx *ctx, struct tn_conn *c, enum tn_dir d,
                         struct tn_dfcp_dir *dd, uint32_t v, int64_t t)
{
    inflight_account(dd, c->dfcp->window, t);
    dd->inflight = v;
    if (v > c->dfcp->inflight_max)
        c->dfcp->inflight_max = v;
    tn_rec_series(ctx, c, d, TN_SER_DFCP_BLOCKS_INFLIGHT, t, v);
}

/* ---- DATA ---- */

static void gap_add(struct tn_dfcp_tally *n, int64_t gap)
{
    if (gap <= 0)
        gap = 1;
    int bin = (int)floor(2.0 * log2((double)gap));
    if (bin >= TN_DFCP_GAP_BINS)
        bin = TN_DFCP_GAP_BINS - 1;
    n->gap_hist[bin]++;
}

/* A block a counted packet (symbol or BACK) belongs to: the summary counts it. */
static void block_counted(const struct tn_analyzer_ctx *ctx, struct tn_dfcp_block *b)
{
    if (!ctx->outside)
        b->bflags |= TN_DFCP_BF_COUNTED;
}

/* Block idx is over at the capture point (a later block started): report the symbols that
 * never passed here, i.e. were lost before the monitor; without ACKING no BACK will come. */
static void block_ended(struct tn_analyzer_ctx *ctx, struct tn_conn *c, size_t idx,
                        const struct tn_pkt *p)
{
    struct tn_dfcp_block *b = &c->blocks[idx];
    if (b->bflags & (TN_DFCP_BF_ENDED | TN_DFCP_BF_NO_DATA))
        return;
    b->bflags |= TN_DFCP_BF_ENDED;
    enum tn_dir d = (enum tn_dir)b->dir;
    unsigned miss = tn_dfcp_block_missing(b);
    if (miss) {
        char list[48] = "";
        size_t len = 0;
        for (unsigned i = 0; i < b->n && len + 7 < sizeof list; i++)
            if (!tn_dfcp_block_has(b, i))
                len += (size_t)snprintf(list + len, sizeof list - len, "%s%u", len ? "," : "", i);
        tn_rec_event(ctx, c, d, TN_EV_LOSS_UPSTREAM, p, b->block, miss,
                     "block %u: %u of %u symbols missing here (idx %s%s)", b->block, miss, b->n,
                     list, len + 7 >= sizeof list ? ",..." : "");
    }
    if (!(b->bflags & TN_DFCP_BF_ACKING) && !b->backs)
        tn_rec_event(ctx, c, d, TN_EV_DFCP_BLOCK_UNACKED, p, b->block, b->bytes,
                     "acking off: no BACK expected; %u/%u symbols seen", b->symbols_seen, b->n);
}

void tn_dfcp_data(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                  const struct tn_pkt *p)
{
    struct tn_conn *c = &cp->pub;
    struct tn_dfcp_dir *dd = &cp->dfcp->dir[d];
    const struct tn_dfcp *h = &p->dfcp;
    int64_t t = tn_time_ns(p->ts);

    if (!dd->data_pkts)
        dd->last_change_ns = t;
    dd->data_pkts++;
    if (!c->dfcp->data_seen || dd->data_pkts > cp->dfcp->dir[c->dfcp->data_dir].data_pkts) {
        c->dfcp->data_seen = true;
        c->dfcp->data_dir = (uint8_t)d;
    }
    if (d == c->dfcp->data_dir) {
        c->dfcp->acking = h->flags & TN_DFCP_F_ACKING;
        c->dfcp->encoded = h->flags & TN_DFCP_F_ENCODED;
        c->dfcp->n = h->n;
        c->dfcp->window = h->window;
        c->dfcp->k = h->k;
        if (p->payload_len > c->dfcp->symbol_size)
            c->dfcp->symbol_size = p->payload_len;
    }
    inflight_account(dd, c->dfcp->window, t);
    struct tn_dfcp_tally *n = &dd->n;
    if (!n->data_pkts) {
        n->first_data_ns = t;
        n->area_first = dd->inflight_area;
        n->full_first = dd->full_ns;
    }
    n->data_pkts++;
    n->last_data_ns = t;
    n->area_at_data = dd->inflight_area;
    n->full_at_data = dd->full_ns;
    interval_flush(ctx, c, d, dd, t);
    dd->iv_bytes += p->payload_len;
    dd->iv_syms++;

    long found = find_block(c, dd, d, h->block);
    size_t idx;
    if (found < 0) {
        if (dd->hint)
            block_ended(ctx, c, dd->hint - 1, p);
        idx = new_block(c, dd, d, h, true);
        c->blocks[idx].first_ns = t;
        c->blocks[idx].first_pkt = p->num;
        if (h->flags & TN_DFCP_F_ACKING) {
            c->blocks[idx].bflags |= TN_DFCP_BF_ACKING | TN_DFCP_BF_INFLIGHT;
            inflight_set(ctx, c, d, dd, dd->inflight + 1, t);
        }
    } else {
        idx = (size_t)found;
        struct tn_dfcp_block *b = &c->blocks[idx];
        if (b->bflags & TN_DFCP_BF_NO_DATA) {   /* a symbol after its BACK-only record */
            b->bflags &= (uint8_t)~TN_DFCP_BF_NO_DATA;
            b->first_ns = t;
            b->first_pkt = p->num;
        } else if (b->last_ns) {
            if (h->sym_idx > b->max_idx + 1u && h->sym_idx < b->n && b->symbols_seen) {
                n->jump_gap_ns += (double)(t - b->last_ns);
                n->jump_slots += (uint64_t)(h->sym_idx - b->max_idx);
            } else {
                gap_add(n, t - b->last_ns);
            }
        }
    }
    struct tn_dfcp_block *b = &c->blocks[idx];
    block_counted(ctx, b);
    if (!b->seen && b->n) {
        b->seen = tn_xcalloc((size_t)(b->n + 7) / 8, 1);
    }
    if (h->sym_idx < b->n && b->seen) {
        uint8_t bit = (uint8_t)(1u << (h->sym_idx % 8));
        if (b->seen[h->sym_idx / 8] & bit) {
            b->dup_symbols++;
        } else {
            b->seen[h->sym_idx / 8] |= bit;
            b->symbols_seen++;
        }
        if (h->sym_idx > b->max_idx)
            b->max_idx = h->sym_idx;
    } else {
        c->dfcp->bad_symidx++;
    }
    b->bytes += p->payload_len;
    b->last_ns = t;
    if (p->payload_len > b->symbol_size)
        b->symbol_size = (uint16_t)(p->payload_len > UINT16_MAX ? UINT16_MAX : p->payload_len);
    if (h->flags & TN_DFCP_F_LAST_BLOCK)
        b->bflags |= TN_DFCP_BF_LAST;
    dd->hint = idx + 1;
}

/* ---- BACK ---- */

/* BACKs come in block order (the receiver decides blocks in order), so a BACK for blk means
 * the receiver is done with every earlier block: those still counted in flight lost their
 * BACK before the monitor and leave the count (they stay "unacked"). */
static uint32_t retire_before(struct tn_conn *c, struct tn_dfcp_dir *dd, enum tn_dir dd_dir,
                              uint32_t blk)
{
    uint32_t gone = 0;
    for (size_t i = dd->oldest; i < c->nblocks; i++) {
        struct tn_dfcp_block *b = &c->blocks[i];
        if (b->dir != (uint8_t)dd_dir || (b->bflags & TN_DFCP_BF_NO_DATA))
            continue;
        if (!tn_seq_lt(b->block, blk))
            break;
        if (b->bflags & TN_DFCP_BF_INFLIGHT) {
            b->bflags &= (uint8_t)~TN_DFCP_BF_INFLIGHT;
            gone++;
        }
    }
    while (dd->oldest < c->nblocks && !((c->blocks[dd->oldest].bflags & TN_DFCP_BF_INFLIGHT) &&
                                        c->blocks[dd->oldest].dir == (uint8_t)dd_dir))
        dd->oldest++;
    return gone;
}

void tn_dfcp_back(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                  const struct tn_pkt *p)
{
    struct tn_conn *c = &cp->pub;
    enum tn_dir dd_dir = other(d);                 /* the data's direction */
    struct tn_dfcp_dir *dd = &cp->dfcp->dir[dd_dir];
    const struct tn_dfcp *h = &p->dfcp;
    int64_t t = tn_time_ns(p->ts);

    long found = find_block(c, dd, dd_dir, h->block);
    size_t idx;
    if (found < 0) {
        idx = new_block(c, dd, dd_dir, h, false);
        c->blocks[idx].bflags |= TN_DFCP_BF_NO_DATA;
    } else {
        idx = (size_t)found;
    }
    struct tn_dfcp_block *b = &c->blocks[idx];
    block_counted(ctx, b);
    if (b->backs++)
        return;                                    /* a duplicate: the first one decided */
    bool failed = h->flags & TN_DFCP_F_DECODE_FAILED;
    b->back_ns = t;
    b->back_pkt = p->num;
    b->outcome = failed ? TN_DFCP_FAILED : TN_DFCP_DECODED;
    b->symbols_at_back = b->symbols_seen;
    b->last_at_back_ns = b->last_ns;
    if (h->flags & TN_DFCP_F_LAST_BLOCK)
        b->bflags |= TN_DFCP_BF_LAST;
    if (!b->k)
        b->k = h->k;

    char lat[40] = "no symbol seen here";
    if (!(b->bflags & TN_DFCP_BF_NO_DATA)) {
        double first_ms = (double)(t - b->first_ns) / 1e6;
        double last_ms = (double)(t - b->last_ns) / 1e6;
        tn_stat_add(&c->dfcp->back_first_ms, first_ms);
        tn_stat_add(&c->dfcp->back_last_ms, last_ms);
        tn_rec_series(ctx, c, dd_dir, TN_SER_DFCP_BACK_LATENCY, t, first_ms);
        snprintf(lat, sizeof lat, "%.3f/%.3f ms after first/last sym", first_ms, last_ms);
    }
    if (failed)
        tn_rec_event(ctx, c, d, TN_EV_DFCP_BLOCK_FAILED, p, b->block, b->bytes,
                     "DECODE_FAILED; %u/%u syms seen here; %s", b->symbols_seen, b->n, lat);
    else
        tn_rec_event(ctx, c, d, TN_EV_DFCP_BLOCK_ACKED, p, b->block, b->bytes,
                     "decoded; %u/%u syms seen here; %s", b->symbols_seen, b->n, lat);

    interval_flush(ctx, c, dd_dir, dd, t);
    if (!failed) {
        dd->iv_good += b->k;
        dd->n.good_bytes += b->k;
    }
    uint32_t gone = 0;
    if (b->bflags & TN_DFCP_BF_INFLIGHT) {
        b->bflags &= (uint8_t)~TN_DFCP_BF_INFLIGHT;
        gone++;
    }
    gone += retire_before(c, dd, dd_dir, b->block);
    if (gone)
        inflight_set(ctx, c, dd_dir, dd, dd->inflight - gone, t);
}

/* ---- end of input ---- */

/* Records of a direction in serial block order from its base block (ctx: uint32_t[2]);
 * a2b before b2a. */
static int cmp_block(const void *x, const void *y, void *ctx)
{
    const struct tn_dfcp_block *a = x, *b = y;
    const uint32_t *base = ctx;
    if (a->dir != b->dir)
        return a->dir < b->dir ? -1 : 1;
    int32_t oa = (int32_t)(a->block - base[a->dir & 1]);
    int32_t ob = (int32_t)(b->block - base[b->dir & 1]);
    return oa < ob ? -1 : oa > ob;
}

/* Stable merge sort of the events by time: the end-of-input events are appended last. */
static void sort_events(struct tn_conn *c)
{
    size_t n = c->nevents;
    if (n < 2)
        return;
    struct tn_event *tmp = tn_xmalloc(n * sizeof *tmp);
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = c->events[j].t_ns < c->events[i].t_ns ? c->events[j++] : c->events[i++];
            while (i < mid)
                tmp[k++] = c->events[i++];
            while (j < hi)
                tmp[k++] = c->events[j++];
        }
        memcpy(c->events, tmp, n * sizeof *tmp);
    }
    free(tmp);
}

static void pkt_at(struct tn_pkt *p, int64_t t_ns, uint64_t num)
{
    memset(p, 0, sizeof *p);
    p->ts.sec = t_ns / 1000000000;
    p->ts.nsec = (uint32_t)(t_ns % 1000000000);
    p->num = num;
}

/* Median of the gap histogram, in microseconds (geometric middle of the median bin). */
static double gap_median_us(const struct tn_dfcp_tally *n, double *p25, double *p75)
{
    uint64_t tot = 0, acc = 0;
    for (int i = 0; i < TN_DFCP_GAP_BINS; i++)
        tot += n->gap_hist[i];
    if (!tot)
        return 0;
    double q[3] = {0, 0, 0};
    const double want[3] = {0.25, 0.5, 0.75};
    int qi = 0;
    for (int i = 0; i < TN_DFCP_GAP_BINS && qi < 3; i++) {
        acc += n->gap_hist[i];
        while (qi < 3 && (double)acc >= want[qi] * (double)tot)
            q[qi++] = pow(2.0, ((double)i + 0.5) / 2.0) / 1e3;
    }
    *p25 = q[0];
    *p75 = q[2];
    return q[1];
}

/* What limited the rate (issue 5): the block window, the path (a bottleneck queue before or
 * after the monitor), or the sender's own pace.  Rules, first match wins:
 *  1. ACKING and window blocks in flight at least half the data time: the block window;
 *  2. symbols missing here (>= 1%) with no hole in time where they are missing: a queue that
 *     stayed busy dropped them, i.e. the sender outran a bottleneck before the monitor;
 *  3. blocks failed although every symbol passed here: lost after the monitor;
 *  4. not next to the receiver, and the BACK comes later after a block's last symbol than a
 *     round trip (1.25 x handshake rtt + 1 ms): the symbols queue after the monitor;
 *  5. regular symbol gaps (p75 <= 2 x p25): a paced, rate-capped sender;
 *  6. symbols missing here otherwise: bottleneck; else unknown. */
static void limiter(const struct tn_conn *c, struct tn_dfcp_infer *inf, double p25, double p75)
{
    double last_ms = tn_stat_avg(&inf->back_last_ms);
    bool lossy = inf->symbol_loss_seen >= 0.01;
    bool holes = inf->loss_gap_ratio >= 0.75;
    if (inf->acking && inf->window_full_share >= 0.5) {
        inf->limiter = TN_LIM_RWND;
        snprintf(inf->limiter_why, sizeof inf->limiter_why,
                 "%u-block window full %.0f%% of the data time", inf->window,
                 inf->window_full_share * 100);
    } else if (lossy && inf->loss_gap_ratio >= 0 && !holes) {
        inf->limiter = TN_LIM_BOTTLENECK;
        snprintf(inf->limiter_why, sizeof inf->limiter_why,
                 "%.1f%% symbols dropped before here by a busy queue (gap ratio %.2f)",
                 inf->symbol_loss_seen * 100, inf->loss_gap_ratio);
    } else if (inf->failed_complete > 0) {
        inf->limiter = TN_LIM_BOTTLENECK;
        snprintf(inf->limiter_why, sizeof inf->limiter_why,
                 "%" PRIu64 " failed blocks had every symbol here: lost after it",
                 inf->failed_complete);
    } else if (c->hs_rtt_ms > 0 && c->vantage != TN_VP_NEAR_B && inf->back_last_ms.n &&
               last_ms > 1.25 * c->hs_rtt_ms + 1) {
        inf->limiter = TN_LIM_BOTTLENECK;
        snprintf(inf->limiter_why, sizeof inf->limiter_why,
                 "BACK %.1f ms after a block's last symbol > rtt %.1f ms: queue after here",
                 last_ms, c->hs_rtt_ms);
    } else if (p25 > 0 && p75 <= 2 * p25) {
        inf->limiter = TN_LIM_APP;
        snprintf(inf->limiter_why, sizeof inf->limiter_why, "regular symbol gaps %.0f-%.0f us%s",
                 p25, p75, lossy ? "; losses leave time holes: lossy link" : ", no loss");
    } else if (lossy) {
        inf->limiter = TN_LIM_BOTTLENECK;
        snprintf(inf->limiter_why, sizeof inf->limiter_why, "%.1f%% symbols lost before here",
                 inf->symbol_loss_seen * 100);
    } else {
        inf->limiter = TN_LIM_UNKNOWN;
        snprintf(inf->limiter_why, sizeof inf->limiter_why, "no window, loss or pacing evidence");
    }
}

static void summarize(struct tn_conn_priv *cp)
{
    struct tn_conn *c = &cp->pub;
    struct tn_dfcp_infer *inf = c->dfcp;
    enum tn_dir dd_dir = (enum tn_dir)inf->data_dir;
    const struct tn_dfcp_tally *n = &cp->dfcp->dir[dd_dir].n;
    for (size_t i = 0; i < c->nblocks; i++) {
        const struct tn_dfcp_block *b = &c->blocks[i];
        if (b->dir != (uint8_t)dd_dir || !(b->bflags & TN_DFCP_BF_COUNTED))
            continue;
        inf->blocks++;
        if (b->outcome == TN_DFCP_DECODED)
            inf->decoded++;
        else if (b->outcome == TN_DFCP_FAILED)
            inf->failed++;
        else
            inf->unacked++;
        if (b->bflags & TN_DFCP_BF_NO_DATA) {
            inf->blocks_no_data++;
            continue;
        }
        inf->symbols_seen += b->symbols_seen;
        inf->symbols_expected += b->n;
        inf->symbols_dup += b->dup_symbols;
        if (tn_dfcp_block_missing(b))
            inf->blocks_short++;
        if (b->outcome == TN_DFCP_FAILED && b->symbols_seen >= b->n)
            inf->failed_complete++;
    }
    if (inf->symbols_expected)
        inf->symbol_loss_seen =
            1.0 - (double)inf->symbols_seen / (double)inf->symbols_expected;
    if (inf->k)
        inf->redundancy = (double)inf->n * inf->symbol_size / inf->k;
    int64_t dur = n->last_data_ns - n->first_data_ns;
    inf->duration_s = (double)dur / 1e9;
    if (dur > 0) {
        inf->throughput_bps = (double)c->d[dd_dir].data_bytes * 8 / inf->duration_s;
        inf->goodput_bps = (double)n->good_bytes * 8 / inf->duration_s;
        inf->symbol_rate_pps = (double)n->data_pkts / inf->duration_s;
        if (inf->acking) {
            inf->inflight_avg = (n->area_at_data - n->area_first) / (double)dur;
            inf->window_full_share = (double)(n->full_at_data - n->full_first) / (double)dur;
            if (inf->window)
                inf->window_util = inf->inflight_avg / inf->window;
        }
    }
    if (inf->throughput_bps > 0)
        inf->goodput_ratio = inf->goodput_bps / inf->throughput_bps;
    double p25 = 0, p75 = 0;
    inf->gap_median_us = gap_median_us(n, &p25, &p75);
    inf->loss_gap_ratio = -1;
    if (n->jump_slots && inf->gap_median_us > 0)
        inf->loss_gap_ratio = n->jump_gap_ns / 1e3 / ((double)n->jump_slots * inf->gap_median_us);
    limiter(c, inf, p25, p75);
}

void tn_dfcp_blocks_finish(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp)
{
    struct tn_conn *c = &cp->pub;
    size_t nev = c->nevents;
    for (size_t i = 0; i < c->nblocks; i++) {
        struct tn_dfcp_block *b = &c->blocks[i];
        int64_t t = b->last_ns ? b->last_ns : b->back_ns;
        struct tn_pkt p;
        pkt_at(&p, t, b->first_pkt);
        if (!(b->bflags & TN_DFCP_BF_ENDED))
            block_ended(ctx, c, i, &p);
        if ((b->bflags & TN_DFCP_BF_ACKING) && !b->backs)
            tn_rec_event(ctx, c, (enum tn_dir)b->dir, TN_EV_DFCP_BLOCK_UNACKED, &p, b->block,
                         b->bytes, "no BACK seen by the end; %u/%u symbols seen here",
                         b->symbols_seen, b->n);
    }
    for (int d = 0; d < 2; d++) {
        struct tn_dfcp_dir *dd = &cp->dfcp->dir[d];
        if (dd->iv_end)
            interval_flush(ctx, c, (enum tn_dir)d, dd, dd->iv_end);   /* the last, partial one */
    }
    if (c->nevents > nev)
        sort_events(c);
    summarize(cp);
    /* sort the records by block number for the table, the CSV and the block figure */
    uint32_t base[2] = {0, 0};
    for (int d = 0; d < 2; d++)
        for (size_t i = 0; i < c->nblocks; i++)
            if (c->blocks[i].dir == d) {
                base[d] = c->blocks[i].block;   /* the first block to appear */
                break;
            }
    if (c->dfcp->syn_seen || c->dfcp->synack_seen)
        base[c->dfcp->data_dir] = c->dfcp->init_block;
    if (c->nblocks > 1)
        qsort_r(c->blocks, c->nblocks, sizeof *c->blocks, cmp_block, base);
    for (int d = 0; d < 2; d++)
        cp->dfcp->dir[d].hint = cp->dfcp->dir[d].oldest = 0;
}
