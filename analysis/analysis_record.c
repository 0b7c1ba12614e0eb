/* analysis_record.c - the recorded model: events, series, packet records, names and statistics. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_int.h"

const char *tn_event_kind_name(enum tn_event_kind k)
{
    static const char *const names[] = {
#define X(e, s) s,
        TN_EVENT_KINDS(X)
#undef X
    };
    return (unsigned)k < TN_EV_COUNT ? names[k] : "?";
}

unsigned tn_event_seq_dir(const struct tn_event *e)
{
    switch (e->kind) {
    case TN_EV_DUPACK:
    case TN_EV_RECOVERY_END:
    case TN_EV_RTO_END:
    case TN_EV_DUP_DELIVERY:
    case TN_EV_ZERO_WINDOW:
    case TN_EV_WINDOW_OPEN:
        return !e->dir;
    case TN_EV_REXMIT_SPURIOUS:   /* D-SACK and ACK-timing verdicts come with the ACK */
        return !e->dir;
    default:
        return e->dir;
    }
}

const char *tn_series_kind_name(enum tn_series_kind k)
{
    static const char *const names[] = {
#define X(e, s) s,
        TN_SERIES_KINDS(X)
#undef X
#define TN_CC_FLAVOUR(ID, id, desc) "cwnd_" #id "_bytes",
#include "cc/flavours.def"
#undef TN_CC_FLAVOUR
    };
    return (unsigned)k < TN_SER_COUNT ? names[k] : "?";
}

const char *tn_vantage_name(enum tn_vantage v)
{
    switch (v) {
    case TN_VP_NEAR_A: return "near a";
    case TN_VP_NEAR_B: return "near b";
    case TN_VP_MIDDLE: return "middle";
    default: return "unknown";
    }
}

static const char *const cc_names[TN_CC_COUNT] = {
    "unknown",
#define TN_CC_FLAVOUR(ID, id, desc) #id,
#include "cc/flavours.def"
#undef TN_CC_FLAVOUR
};

const char *tn_cc_flavor_name(enum tn_cc_flavor f)
{
    return (unsigned)f < TN_CC_COUNT ? cc_names[f] : "unknown";
}

enum tn_cc_flavor tn_cc_flavor_of(const char *name)
{
    for (int f = 1; f < TN_CC_COUNT; f++)
        if (strcmp(cc_names[f], name) == 0)
            return (enum tn_cc_flavor)f;
    return TN_CC_UNKNOWN;
}

const char *tn_limiter_name(enum tn_limiter l)
{
    switch (l) {
    case TN_LIM_CWND: return "congestion window";
    case TN_LIM_RWND: return "receiver window";
    case TN_LIM_APP: return "application";
    case TN_LIM_BOTTLENECK: return "bottleneck link";
    default: return "unknown";
    }
}

void tn_stat_add(struct tn_stat *s, double v)
{
    if (s->n == 0 || v < s->min)
        s->min = v;
    if (s->n == 0 || v > s->max)
        s->max = v;
    s->n++;
    s->sum += v;
    s->sumsq += v * v;
}

double tn_stat_avg(const struct tn_stat *s)
{
    return s->n ? s->sum / (double)s->n : 0;
}

double tn_stat_stdev(const struct tn_stat *s)
{
    if (s->n < 2)
        return 0;
    double m = tn_stat_avg(s);
    double var = (s->sumsq - (double)s->n * m * m) / (double)(s->n - 1);
    return var > 0 ? sqrt(var) : 0;
}

struct tn_series tn_no_series[2][TN_SER_COUNT];

struct tn_series *tn_conn_series(struct tn_conn *c, enum tn_dir d, enum tn_series_kind k)
{
    if (c->series == tn_no_series)
        c->series = tn_xcalloc(2, sizeof *c->series);
    return &c->series[d][k];
}

void tn_rec_series(struct tn_analyzer_ctx *ctx, struct tn_conn *c, enum tn_dir d,
                   enum tn_series_kind k, int64_t t_ns, double v)
{
    if (!ctx->cfg->record_series)
        return;
    struct tn_series *s = tn_conn_series(c, d, k);
    tn_grow((void **)&s->pts, &s->cap, s->n + 1, sizeof *s->pts);
    s->pts[s->n++] = (struct tn_point){t_ns, v};
}

void tn_rec_event(struct tn_analyzer_ctx *ctx, struct tn_conn *c, enum tn_dir d,
                  enum tn_event_kind k, const struct tn_pkt *p, uint64_t seq, uint32_t len,
                  const char *fmt, ...)
{
    if (!ctx->cfg->record_events && !ctx->cfg->on_event)
        return;
    struct tn_event tmp, *e = &tmp;
    if (ctx->cfg->record_events) {
        tn_grow((void **)&c->events, &c->cap_events, c->nevents + 1, sizeof *c->events);
        e = &c->events[c->nevents++];
    }
    e->t_ns = tn_time_ns(p->ts);
    e->pkt = p->num;
    e->seq = seq;
    e->len = len;
    e->kind = (uint8_t)k;
    e->dir = (uint8_t)d;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->detail, sizeof e->detail, fmt, ap);
    va_end(ap);
    if (ctx->cfg->on_event)
        ctx->cfg->on_event(ctx->cfg->on_event_arg, c, e);
}

/* A record that only adds to the envelope: TCP, no retransmission, no SACK, no SYN/FIN/RST. */
static bool plain(const struct tn_pktrec *r)
{
    return !r->rexmit && !r->nsack && !(r->flags & (TN_TCP_SYN | TN_TCP_FIN | TN_TCP_RST));
}

/* Fold r into w (w earlier, same direction): data range and bytes add up, the ACK line keeps
 * its highest point and the latest window. */
static void merge(struct tn_pktrec *w, const struct tn_pktrec *r)
{
    if (r->len) {
        if (w->len) {
            uint64_t lo = w->seq < r->seq ? w->seq : r->seq;
            uint64_t a = tn_pktrec_end(w), b = tn_pktrec_end(r), hi = a > b ? a : b;
            w->span = hi - lo > UINT32_MAX ? UINT32_MAX : (uint32_t)(hi - lo);
            w->seq = lo;
        } else {
            w->seq = r->seq;
            w->span = r->span;
        }
        w->segs = tn_pktrec_segs(w) + tn_pktrec_segs(r);
        w->len = w->len + r->len < w->len ? UINT32_MAX : w->len + r->len;
    }
    if ((r->flags & TN_TCP_ACK) && r->ack > w->ack)
        w->ack = r->ack;
    w->win = r->win;
    w->flags |= r->flags;
}

/* Halve the plain records: each is merged with the next plain one of its direction, never
 * across a kept record. */
static void compact(struct tn_conn *c)
{
    long pending[2] = {-1, -1};
    size_t out = 0;
    for (size_t i = 0; i < c->npkts; i++) {
        struct tn_pktrec r = c->pkts[i];
        unsigned d = r.dir & 1;
        if (plain(&r) && pending[d] >= 0) {
            merge(&c->pkts[pending[d]], &r);
            pending[d] = -1;
            continue;
        }
        c->pkts[out] = r;
        pending[d] = plain(&r) ? (long)out : -1;
        out++;
    }
    c->npkts = out;
}

struct tn_pktrec *tn_rec_packet(struct tn_analyzer_ctx *ctx, struct tn_conn *c)
{
    if (!ctx->cfg->record_packets)
        return NULL;
    size_t cap = ctx->cfg->packet_cap;
    if (cap && c->proto == TN_PK_TCP) {
        if (!c->pkt_limit)
            c->pkt_limit = cap;
        if (c->npkts >= c->pkt_limit) {
            compact(c);
            if (c->npkts > c->pkt_limit / 4 * 3)   /* mostly kept records: allow more */
                c->pkt_limit *= 2;
        }
    }
    tn_grow((void **)&c->pkts, &c->cap_pkts, c->npkts + 1, sizeof *c->pkts);
    struct tn_pktrec *r = &c->pkts[c->npkts++];
    memset(r, 0, sizeof *r);
    return r;
}

void tn_conn_free_records(struct tn_conn *c)
{
    free(c->events);
    free(c->pkts);
    if (c->series != tn_no_series) {
        for (int d = 0; d < 2; d++)
            for (int k = 0; k < TN_SER_COUNT; k++)
                free(c->series[d][k].pts);
        free(c->series);
        c->series = tn_no_series;
    }
    for (size_t i = 0; i < c->nblocks; i++)
        free(c->blocks[i].seen);
    free(c->blocks);
}

bool tn_ring_grow(void **buf, unsigned *cap, unsigned *head, unsigned n, size_t elsz, unsigned max)
{
    if (*cap >= max)
        return false;
    unsigned ncap = *cap ? *cap * 2 : 4;   /* a short connection holds a few */
    if (ncap > max)
        ncap = max;
    uint8_t *nb = tn_xmalloc((size_t)ncap * elsz);
    const uint8_t *ob = *buf;
    for (unsigned i = 0; i < n; i++)
        memcpy(nb + (size_t)i * elsz, ob + (size_t)((*head + i) % *cap) * elsz, elsz);
    free(*buf);
    *buf = nb;
    *cap = ncap;
    *head = 0;
    return true;
}

bool tn_conn_set_handshake(struct tn_conn_priv *cp, int64_t ack_ns)
{
    struct tn_conn *c = &cp->pub;
    if (c->hs_rtt_ms >= 0 || !cp->hs_syn_ns || !cp->hs_synack_ns)
        return false;
    double half_b = (double)(cp->hs_synack_ns - cp->hs_syn_ns) / 1e6;   /* monitor -> b -> monitor */
    double half_a = (double)(ack_ns - cp->hs_synack_ns) / 1e6;          /* monitor -> a -> monitor */
    if (half_a < 0 || half_b < 0)
        return false;
    c->hs_half_ms[TN_A2B] = half_a;
    c->hs_half_ms[TN_B2A] = half_b;
    c->hs_rtt_ms = half_a + half_b;
    c->hs_ack_ns = ack_ns;
    if (c->hs_rtt_ms < 0.1)
        c->vantage = TN_VP_UNKNOWN;          /* too short a path to tell the sides apart */
    else if (half_a <= 0.1 * c->hs_rtt_ms)
        c->vantage = TN_VP_NEAR_A;
    else if (half_b <= 0.1 * c->hs_rtt_ms)
        c->vantage = TN_VP_NEAR_B;
    else
        c->vantage = TN_VP_MIDDLE;
    return true;
}
