/* views_queue2pt.c - router queue from two capture points: ingress and egress of one router.
 *
 * The same packet is recognized on both sides by the fields a router does not change: addresses,
 * ports, IP identification, TCP sequence and acknowledgment numbers, flags and payload length
 * (DFCP: type, block and symbol index).  TTL and the checksums change at every hop and are left
 * out.  A hash from those fields to the packet's first sighting holds only packets still inside
 * the router, so memory is bounded by the queue (and by expire_ns for packets never seen again).
 *
 * Matching is symmetric: a packet seen first at ingress and then at egress crossed the router
 * forwards (that is the queue measured); one seen first at egress crossed it backwards (the ACKs
 * of a data transfer) and is only counted.  Drops are located with the FIFO order of a flow's
 * packets in a queue (drop-tail, or one FIFO per flow class): when a forward packet leaves, any
 * packet of the same flow that entered before it and is still inside was dropped.  Packets still
 * inside when the input ends are reported as such, not as drops.
 *
 * Occupancy is exact for what the captures saw: every matched packet is +1 at its ingress time
 * and -1 at its egress time; the events are swept in time order at the end.
 *
 * Points on separate hosts: the apparent delays of both directions of a connection give the
 * clock offset (assuming equal smallest delays both ways, as NTP does) and the one-way delays;
 * a negative apparent one-way delay means the clocks clearly disagree.
 */
#include <stdlib.h>
#include <string.h>

#include "views.h"

struct q2key {
    struct tn_addr src, dst;
    uint16_t sport, dport;
    uint16_t ip_id;
    uint8_t kind, flags;
    uint32_t seq, ack;
    uint32_t len;
};

struct q2ent {
    struct q2key k;
    uint64_t h;
    int64_t t_ns;
    uint32_t bytes;
    uint32_t flow;             /* index into the flow table */
    bool egress;               /* side it was first seen on */
    struct q2ent *hnext;       /* hash chain */
    struct q2ent *fprev, *fnext;   /* the flow's pending list, arrival order */
    struct q2ent *gprev, *gnext;   /* all pending, arrival order (expiry) */
};

struct q2flow {
    struct tn_qflow pub;
    struct q2ent *head[2], *tail[2];   /* pending per side: [0] ingress-first, [1] egress-first */
    uint64_t fwd, rev;
    struct tn_stat m_ms;       /* apparent delay t(egress point) - t(ingress point), both orders */
};

struct q2ev {
    int64_t t_ns;
    int32_t dpkts;
    int64_t dbytes;
    uint32_t flow;
};

#define Q2_BUCKETS 65536

struct tn_q2 {
    struct tn_q2cfg cfg;
    struct q2ent *bucket[Q2_BUCKETS];
    struct q2ent *ghead, *gtail;
    struct q2flow *flows;
    size_t nflows, capflows;
    struct q2ev *ev;
    size_t nev, capev;
    struct tn_q2_result res;
    bool finished;
};

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ull;
    }
    return h;
}

static void make_key(const struct tn_pkt *p, struct q2key *k)
{
    memset(k, 0, sizeof *k);
    k->src = p->src;
    k->dst = p->dst;
    k->sport = p->sport;
    k->dport = p->dport;
    k->ip_id = p->ip_id;
    k->kind = (uint8_t)p->kind;
    k->len = p->payload_len;
    if (p->kind == TN_PK_TCP) {
        k->seq = p->tcp.seq;
        k->ack = p->tcp.ack;
        k->flags = p->tcp.flags;
    } else {
        k->seq = p->dfcp.block;
        k->ack = p->dfcp.sym_idx;
        k->flags = p->dfcp.type;
    }
}

struct tn_q2 *tn_q2_new(const struct tn_q2cfg *cfg)
{
    struct tn_q2 *q = tn_xcalloc(1, sizeof *q);
    if (cfg)
        q->cfg = *cfg;
    if (q->cfg.expire_ns <= 0)
        q->cfg.expire_ns = 10000000000;
    return q;
}

static uint32_t flow_of(struct tn_q2 *q, const struct q2key *k)
{
    for (size_t i = q->nflows; i-- > 0;) {   /* few flows: a linear scan, newest first */
        const struct tn_qflow *f = &q->flows[i].pub;
        if (f->sport == k->sport && f->dport == k->dport && f->proto == k->kind &&
            memcmp(&f->src, &k->src, sizeof f->src) == 0 && memcmp(&f->dst, &k->dst, sizeof f->dst) == 0)
            return (uint32_t)i;
    }
    tn_grow((void **)&q->flows, &q->capflows, q->nflows + 1, sizeof *q->flows);
    struct q2flow *f = &q->flows[q->nflows];
    memset(f, 0, sizeof *f);
    f->pub.src = k->src;
    f->pub.dst = k->dst;
    f->pub.sport = k->sport;
    f->pub.dport = k->dport;
    f->pub.proto = k->kind;
    return (uint32_t)q->nflows++;
}

static void unlink_ent(struct tn_q2 *q, struct q2ent *e)
{
    struct q2ent **pp = &q->bucket[e->h % Q2_BUCKETS];
    while (*pp != e)
        pp = &(*pp)->hnext;
    *pp = e->hnext;
    struct q2flow *f = &q->flows[e->flow];
    int s = e->egress;
    if (e->fprev)
        e->fprev->fnext = e->fnext;
    else
        f->head[s] = e->fnext;
    if (e->fnext)
        e->fnext->fprev = e->fprev;
    else
        f->tail[s] = e->fprev;
    if (e->gprev)
        e->gprev->gnext = e->gnext;
    else
        q->ghead = e->gnext;
    if (e->gnext)
        e->gnext->gprev = e->gprev;
    else
        q->gtail = e->gprev;
}

/* A packet that entered and will never leave: a drop when it went forwards. */
static void drop(struct tn_q2 *q, struct q2ent *e)
{
    struct q2flow *f = &q->flows[e->flow];
    if (!e->egress) {
        f->pub.drops++;
        f->pub.drop_bytes += e->bytes;
    }
    unlink_ent(q, e);
    free(e);
}

static void expire(struct tn_q2 *q, int64_t now)
{
    while (q->ghead && now - q->ghead->t_ns > q->cfg.expire_ns)
        drop(q, q->ghead);
}

static void push_ev(struct tn_q2 *q, int64_t t, int32_t dp, int64_t db, uint32_t flow)
{
    tn_grow((void **)&q->ev, &q->capev, q->nev + 1, sizeof *q->ev);
    q->ev[q->nev++] = (struct q2ev){t, dp, db, flow};
}

static void matched(struct tn_q2 *q, struct q2ent *e, int64_t t_out, uint32_t bytes_out)
{
    struct q2flow *f = &q->flows[e->flow];
    tn_stat_add(&f->m_ms, (double)(e->egress ? e->t_ns - t_out : t_out - e->t_ns) / 1e6);
    /* FIFO: what entered this flow's queue before e and is still inside was dropped */
    while (f->head[e->egress] != e)
        drop(q, f->head[e->egress]);
    if (!e->egress) {
        f->fwd++;
        f->pub.pkts_out++;
        f->pub.bytes_out += bytes_out;
        double ms = (double)(t_out - e->t_ns) / 1e6;
        tn_stat_add(&f->pub.sojourn_ms, ms);
        tn_grow((void **)&f->pub.sojourn.pts, &f->pub.sojourn.cap, f->pub.sojourn.n + 1,
                sizeof *f->pub.sojourn.pts);
        f->pub.sojourn.pts[f->pub.sojourn.n++] = (struct tn_point){t_out, ms};
        push_ev(q, e->t_ns, 1, e->bytes, e->flow);
        push_ev(q, t_out, -1, -(int64_t)e->bytes, e->flow);
    } else {
        f->rev++;
    }
    unlink_ent(q, e);
    free(e);
}

void tn_q2_add(struct tn_q2 *q, const struct tn_pkt *p, bool egress)
{
    if (p->kind != TN_PK_TCP && p->kind != TN_PK_DFCP)
        return;
    int64_t t = tn_time_ns(p->ts);
    expire(q, t);
    struct q2key k;
    make_key(p, &k);
    uint64_t h = fnv(1469598103934665603ull, &k, sizeof k);
    for (struct q2ent *e = q->bucket[h % Q2_BUCKETS]; e; e = e->hnext) {
        if (e->h == h && e->egress != egress && memcmp(&e->k, &k, sizeof k) == 0) {
            matched(q, e, t, p->wirelen);
            return;
        }
    }
    struct q2ent *e = tn_xcalloc(1, sizeof *e);
    e->k = k;
    e->h = h;
    e->t_ns = t;
    e->bytes = p->wirelen;
    e->egress = egress;
    e->flow = flow_of(q, &k);
    struct q2flow *f = &q->flows[e->flow];
    if (!egress) {
        f->pub.pkts_in++;
        f->pub.bytes_in += p->wirelen;
    }
    e->hnext = q->bucket[h % Q2_BUCKETS];
    q->bucket[h % Q2_BUCKETS] = e;
    int s = egress;
    e->fprev = f->tail[s];
    if (f->tail[s])
        f->tail[s]->fnext = e;
    else
        f->head[s] = e;
    f->tail[s] = e;
    e->gprev = q->gtail;
    if (q->gtail)
        q->gtail->gnext = e;
    else
        q->ghead = e;
    q->gtail = e;
}

static int ev_cmp(const void *x, const void *y)
{
    const struct q2ev *a = x, *b = y;
    if (a->t_ns != b->t_ns)
        return a->t_ns < b->t_ns ? -1 : 1;
    return a->dpkts < b->dpkts ? -1 : a->dpkts > b->dpkts;   /* departures first */
}

static void push(struct tn_series *s, int64_t t, double v)
{
    if (s->n && s->pts[s->n - 1].t_ns == t) {   /* same instant: keep the final value */
        s->pts[s->n - 1].v = v;
        return;
    }
    tn_grow((void **)&s->pts, &s->cap, s->n + 1, sizeof *s->pts);
    s->pts[s->n++] = (struct tn_point){t, v};
}

/* Sweep the arrival/departure events: whole-queue and per-flow occupancy. */
static void sweep(struct tn_q2 *q, const uint32_t *fwd_index)
{
    struct tn_q2_result *r = &q->res;
    if (q->nev)   /* no packet matched: no events, and qsort must not see NULL */
        qsort(q->ev, q->nev, sizeof *q->ev, ev_cmp);
    int64_t pk = 0, by = 0, prev_t = 0;
    double area = 0;
    int64_t *fpk = tn_xcalloc(q->nflows + 1, sizeof *fpk);
    int64_t *fby = tn_xcalloc(q->nflows + 1, sizeof *fby);
    for (size_t i = 0; i < q->nev; i++) {
        const struct q2ev *e = &q->ev[i];
        if (i)
            area += (double)pk * (double)(e->t_ns - prev_t);
        prev_t = e->t_ns;
        pk += e->dpkts;
        by += e->dbytes;
        if ((uint64_t)pk > r->queue_pkts_max)
            r->queue_pkts_max = (uint32_t)pk;
        push(&r->queue_pkts, e->t_ns, (double)pk);
        push(&r->queue_bytes, e->t_ns, (double)by);
        uint32_t fi = fwd_index[e->flow];
        fpk[e->flow] += e->dpkts;
        fby[e->flow] += e->dbytes;
        push(&r->flows[fi].queue_pkts, e->t_ns, (double)fpk[e->flow]);
        push(&r->flows[fi].queue_bytes, e->t_ns, (double)fby[e->flow]);
    }
    if (q->nev > 1 && prev_t > q->ev[0].t_ns)
        r->queue_pkts_avg = area / (double)(prev_t - q->ev[0].t_ns);
    free(fpk);
    free(fby);
}

static bool reverse_of(const struct tn_qflow *x, const struct tn_qflow *y)
{
    return x->proto == y->proto && x->sport == y->dport && x->dport == y->sport &&
           memcmp(&x->src, &y->dst, sizeof x->src) == 0 && memcmp(&x->dst, &y->src, sizeof x->dst) == 0;
}

/* Clock offset from the two directions of the busiest connection (see analysis.h). */
static void clocks(struct tn_q2 *q, const struct tn_analyzer *a)
{
    struct tn_q2_result *r = &q->res;
    uint64_t best = 0;
    for (size_t i = 0; i < q->nflows; i++) {
        const struct q2flow *x = &q->flows[i];
        for (size_t j = i + 1; j < q->nflows && x->m_ms.n; j++) {
            const struct q2flow *y = &q->flows[j];
            if (!y->m_ms.n || !reverse_of(&x->pub, &y->pub) || x->m_ms.n + y->m_ms.n <= best)
                continue;
            /* the direction that goes ingress -> egress has the larger apparent delays */
            const struct tn_stat *f = &x->m_ms, *b = &y->m_ms;
            if (!(f->min > b->max)) {
                f = &y->m_ms;
                b = &x->m_ms;
            }
            if (!(f->min > b->max))
                continue;   /* overlapping: the two directions cannot be told apart */
            best = x->m_ms.n + y->m_ms.n;
            r->clock_known = true;
            r->clock_offset_ms = (f->min + b->max) / 2;
            r->owd_min_ms[0] = f->min - r->clock_offset_ms;
            r->owd_min_ms[1] = r->clock_offset_ms - b->max;
            r->clock_unsync = f->min < 0 || b->max > 0;
            r->clock_worst_ms = f->min < 0 ? f->min : b->max > 0 ? -b->max : 0;
            r->clock_conn = 0;
            for (size_t c = 0; a && c < tn_analyzer_conn_count(a); c++) {
                const struct tn_conn *cn = tn_analyzer_conn(a, c);
                bool ab = cn->a_port == x->pub.sport && cn->b_port == x->pub.dport &&
                          memcmp(&cn->a, &x->pub.src, sizeof cn->a) == 0;
                bool ba = cn->b_port == x->pub.sport && cn->a_port == x->pub.dport &&
                          memcmp(&cn->b, &x->pub.src, sizeof cn->b) == 0;
                if (cn->proto == (enum tn_pkt_kind)x->pub.proto && (ab || ba))
                    r->clock_conn = cn->idx;
            }
        }
    }
}

void tn_q2_finish(struct tn_q2 *q, const struct tn_analyzer *a)
{
    if (q->finished)
        return;
    q->finished = true;
    struct tn_q2_result *r = &q->res;
    /* what is still inside: forward packets behind a later departure of their flow were
     * dropped (FIFO); the rest is in flight at the end of the capture */
    while (q->ghead) {
        struct q2ent *e = q->ghead;
        struct q2flow *f = &q->flows[e->flow];
        if (!e->egress)
            f->pub.unmatched_end++;
        unlink_ent(q, e);
        free(e);
    }
    /* forward flows: more packets crossed ingress -> egress than the other way */
    uint32_t *fwd_index = tn_xcalloc(q->nflows + 1, sizeof *fwd_index);
    size_t nf = 0;
    for (size_t i = 0; i < q->nflows; i++)
        if (q->flows[i].fwd > 0 || (q->flows[i].rev == 0 && q->flows[i].pub.drops > 0))
            nf++;
    r->flows = tn_xcalloc(nf + 1, sizeof *r->flows);
    size_t k = 0;
    for (size_t i = 0; i < q->nflows; i++) {
        struct q2flow *f = &q->flows[i];
        r->reverse_matched += f->rev;
        if (!(f->fwd > 0 || (f->rev == 0 && f->pub.drops > 0))) {
            if (f->rev == 0)
                r->ambiguous += f->pub.pkts_in;   /* seen on one side only */
            fwd_index[i] = (uint32_t)nf;         /* events never refer to these */
            continue;
        }
        fwd_index[i] = (uint32_t)k;
        struct tn_qflow *o = &r->flows[k++];
        *o = f->pub;
        memset(&f->pub.sojourn, 0, sizeof f->pub.sojourn);
        o->conn = 0;
        o->dir = 0;
        r->matched += f->fwd;
        r->drops += o->drops;
        r->unmatched_end += o->unmatched_end;
        if (o->sojourn_ms.n) {
            /* merge the flow's sojourn statistics into the whole */
            struct tn_stat *s = &r->sojourn_ms;
            if (s->n == 0 || o->sojourn_ms.min < s->min)
                s->min = o->sojourn_ms.min;
            if (s->n == 0 || o->sojourn_ms.max > s->max)
                s->max = o->sojourn_ms.max;
            s->n += o->sojourn_ms.n;
            s->sum += o->sojourn_ms.sum;
            s->sumsq += o->sojourn_ms.sumsq;
        }
        if (a) {
            for (size_t c = 0; c < tn_analyzer_conn_count(a); c++) {
                const struct tn_conn *cn = tn_analyzer_conn(a, c);
                if (cn->proto != (enum tn_pkt_kind)o->proto)
                    continue;
                bool ab = cn->a_port == o->sport && cn->b_port == o->dport &&
                          memcmp(&cn->a, &o->src, sizeof o->src) == 0 && memcmp(&cn->b, &o->dst, sizeof o->dst) == 0;
                bool ba = cn->b_port == o->sport && cn->a_port == o->dport &&
                          memcmp(&cn->b, &o->src, sizeof o->src) == 0 && memcmp(&cn->a, &o->dst, sizeof o->dst) == 0;
                if (ab || ba) {
                    o->conn = cn->idx;   /* the latest connection on these ports */
                    o->dir = ab ? TN_A2B : TN_B2A;
                }
            }
        }
    }
    r->nflows = k;
    clocks(q, a);
    sweep(q, fwd_index);
    free(fwd_index);
    free(q->ev);
    q->ev = NULL;
    q->nev = q->capev = 0;
}

const struct tn_q2_result *tn_q2_result(const struct tn_q2 *q)
{
    return &q->res;
}

void tn_q2_free(struct tn_q2 *q)
{
    if (!q)
        return;
    while (q->ghead) {
        struct q2ent *e = q->ghead;
        unlink_ent(q, e);
        free(e);
    }
    for (size_t i = 0; i < q->nflows; i++)
        free(q->flows[i].pub.sojourn.pts);
    for (size_t i = 0; i < q->res.nflows; i++) {
        free(q->res.flows[i].queue_pkts.pts);
        free(q->res.flows[i].queue_bytes.pts);
        free(q->res.flows[i].sojourn.pts);
    }
    free(q->res.flows);
    free(q->res.queue_pkts.pts);
    free(q->res.queue_bytes.pts);
    free(q->flows);
    free(q->ev);
    free(q);
}
