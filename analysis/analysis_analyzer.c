/* analysis_analyzer.c - the analyzer: trace totals, connection table, dispatch per protocol. */
#include <stdlib.h>
#include <string.h>

#include "analysis_int.h"


/* A connection closed both ways keeps its inference this long after its last packet, for what
 * follows without a timer (the peer's RST, duplicate ACKs, reordered segments); a segment resent
 * later needs the retransmission timer, which Linux never runs shorter (TCP_RTO_MIN, HZ/5). */
#define CLOSE_QUIET_NS 200000000

struct tn_analyzer *tn_analyzer_new(const struct tn_analysis_cfg *cfg)
{
    struct tn_analyzer *a = tn_xcalloc(1, sizeof *a);
    if (cfg)
        a->cfg = *cfg;
    if (a->cfg.interval_ns <= 0)
        a->cfg.interval_ns = 100000000;
    a->ctx.cfg = &a->cfg;
    a->reading.a = a;
    a->flows = tn_flowtab_new();
    a->last_idx = -1;
    return a;
}

const struct tn_analysis_cfg *tn_analyzer_cfg(const struct tn_analyzer *a)
{
    return &a->cfg;
}

void tn_analyzer_free(struct tn_analyzer *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < a->nconns; i++) {
        if (tn_slot_is_brief(a->conns[i]))   /* in a slab */
            continue;
        if (!a->conns[i]->pub.retired) {   /* a retired one is a bare struct tn_conn */
            tn_conn_priv_destroy(a->conns[i]);
            continue;
        }
        if (a->conns[i]->pub.dfcp != &tn_no_dfcp)
            free(a->conns[i]->pub.dfcp);
        tn_conn_free_inf(&a->conns[i]->pub);
        free(a->conns[i]);
    }
    free(a->conns);
    free(a->active);
    free(a->closed.v);
    free(a->half_open.v);
    free(a->linger[0].v);
    free(a->linger[1].v);
    tn_brief_slabs_free(a->slabs);
    tn_reader_fini(&a->reading);
    tn_packbuf_fini(&a->spill);
    free(a->wsave);
    tn_flowtab_free(a->flows);
    free(a);
}

struct tn_pkt_place tn_analyzer_count(struct tn_analyzer *a, const struct tn_pkt *p, int status,
                                      const char *source)
{
    struct tn_trace_stats *st = &a->st;
    struct tn_pkt_place place = {++st->frames, st->have_time ? tn_time_ns(st->last) : INT64_MIN, 0};
    if (!st->have_time || tn_time_cmp(p->ts, st->first) < 0)
        st->first = p->ts;
    if (a->cfg.window.on)   /* (the window's base; not needed otherwise) */
        place.first_ns = tn_time_ns(st->first);
    if (!st->have_time || tn_time_cmp(p->ts, st->last) > 0)
        st->last = p->ts;
    st->have_time = true;
    switch (p->kind) {
    case TN_PK_TCP: st->tcp++; break;
    case TN_PK_DFCP: st->dfcp++; break;
    default: st->other++; break;
    }
    if (p->ipver == 4)
        st->ip4++;
    else if (p->ipver == 6)
        st->ip6++;
    if (p->fragment)
        st->fragments++;
    if (p->tunnels)
        st->tunneled++;
    if (status == TN_DIS_TRUNCATED)
        st->truncated++;
    else if (status == TN_DIS_MALFORMED)
        st->malformed++;
    if (!p->anoms.bits)
        return place;
    st->anom_pkts++;
    for (int k = 0; k < TN_ANOM_COUNT; k++) {
        if (!tn_anom_has(&p->anoms, (enum tn_anom_kind)k))
            continue;
        if (st->anom_count[k]++ == 0) {
            st->anom_first[k] = p->num;
            st->anom_first_file[k] = source;
        }
    }
    return place;
}

static void push(struct tn_idxq *q, size_t k)
{
    if (q->head > 0 && q->head == q->n)
        q->head = q->n = 0;
    tn_grow((void **)&q->v, &q->cap, q->n + 1, sizeof *q->v);
    q->v[q->n++] = k;
}

static void keep_compact(struct tn_idxq *q)
{
    if (q->head > 4096 && q->head * 2 > q->n) {
        memmove(q->v, q->v + q->head, (q->n - q->head) * sizeof *q->v);
        q->n -= q->head;
        q->head = 0;
    }
}

/* Side a is the sender of the first packet, except that a SYN-ACK's receiver is the SYN sender. */
static struct tn_conn_priv *new_conn(struct tn_analyzer *a, const struct tn_pkt *p, uint64_t ord)
{
    if (a->cfg.max_conns && a->nactive - a->nstale >= a->cfg.max_conns)
        tn_analyzer_evict(a);
    struct tn_conn_priv *cp = tn_xcalloc(1, sizeof *cp);
    struct tn_conn *c = &cp->pub;
    bool first_is_synack = p->kind == TN_PK_TCP &&
                           (p->tcp.flags & (TN_TCP_SYN | TN_TCP_ACK)) == (TN_TCP_SYN | TN_TCP_ACK);
    bool dfcp_synack = p->kind == TN_PK_DFCP && p->dfcp.type == TN_DFCP_T_SYNACK;
    bool swap = first_is_synack || dfcp_synack;
    c->proto = p->kind;
    c->ord = ord;
    c->a = swap ? p->dst : p->src;
    c->b = swap ? p->src : p->dst;
    c->a_port = swap ? p->dport : p->sport;
    c->b_port = swap ? p->sport : p->dport;
    c->first = p->ts;
    c->last = p->ts;
    c->dfcp_over_udp = p->kind == TN_PK_DFCP && p->dfcp.over_udp;
    c->series = tn_no_series;
    c->hs_rtt_ms = -1;
    c->hs_half_ms[0] = c->hs_half_ms[1] = -1;
    for (int d = 0; d < 2; d++) {
        c->d[d].seg_min = UINT32_MAX;
        c->d[d].win_min = UINT32_MAX;
    }
    cp->rst_dir = -1;
    c->dfcp = (struct tn_dfcp_infer *)&tn_no_dfcp;
    /* a pure SYN as the first packet writes no result: a flood's SYNs share the zeros.  A SYN
     * that carries data (TCP Fast Open, RFC 7413; or crafted, as tcpdump's bgp-ub.pcap) has a
     * sender whose results are written at the end: it gets its own. */
    bool pure_syn = p->kind == TN_PK_TCP &&
                    (p->tcp.flags & (TN_TCP_SYN | TN_TCP_ACK | TN_TCP_FIN | TN_TCP_RST)) == TN_TCP_SYN &&
                    p->payload_len == 0;
    c->inf = pure_syn ? (struct tn_tcp_infer *)tn_no_inf : tn_xcalloc(2, sizeof *c->inf);
    if (p->kind == TN_PK_DFCP) {
        cp->dfcp = tn_xcalloc(1, sizeof *cp->dfcp);
        c->dfcp = tn_xcalloc(1, sizeof *c->dfcp);
    }
    tn_grow((void **)&a->conns, &a->cap, a->nconns + 1, sizeof *a->conns);
    a->conns[a->nconns++] = cp;
    if (a->nconns > a->st.listed_peak)
        a->st.listed_peak = a->nconns;
    tn_grow((void **)&a->active, &a->cap_active, a->nactive + 1, sizeof *a->active);
    a->active[a->nactive++] = a->nconns - 1;
    c->idx = ++a->numbered;
    if (pure_syn && a->cfg.spill_put)
        push(&a->half_open, a->nconns - 1);
    return cp;
}

/* Is p a packet of connection c, either way? */
static bool same_conn(const struct tn_conn *c, const struct tn_pkt *p)
{
    return tn_flow_is(p, c->proto, &c->a, c->a_port, &c->b, c->b_port);
}

/* The flow table's question: is connection idx the packet's (either way)? */
struct flow_probe {
    const struct tn_analyzer *a;
    const struct tn_pkt *p;
};

static bool flow_match(const void *arg, long idx)
{
    const struct flow_probe *fp = arg;
    const struct tn_conn_priv *slot = fp->a->conns[idx];
    if (tn_slot_is_brief(slot)) {
        const struct tn_conn_brief *b = tn_slot_brief(slot);
        return tn_flow_is(fp->p, b->proto, &b->a, b->a_port, &b->b, b->b_port);
    }
    return same_conn(&slot->pub, fp->p);
}

static enum tn_dir dir_of(const struct tn_conn *c, const struct tn_pkt *p)
{
    bool is_a = p->sport == c->a_port && tn_addr_bytes_eq(p->src.a, c->a.a, 16);
    return is_a ? TN_A2B : TN_B2A;
}

static void finish_conn(struct tn_analyzer *a, struct tn_conn_priv *cp)
{
    if (cp->pub.proto == TN_PK_TCP)
        tn_tcp_conn_finish(&a->ctx, cp);
    else
        tn_dfcp_conn_finish(&a->ctx, cp);
}

/* Does slot k still hold a connection with its state? */
static bool whole(const struct tn_analyzer *a, size_t k)
{
    return !tn_slot_is_brief(a->conns[k]) && !a->conns[k]->pub.retired;
}

/* Queue a connection that just closed both ways; finish the inference of those quiet since.
 * now is the trace clock (never earlier than the place's clock): a queued connection that
 * missed the sweep (one in front of it was not quiet yet) is finished at its next packet by
 * quiet_finish, so what a connection becomes does not depend on the others (shards). */
static void closed_conns(struct tn_analyzer *a, struct tn_conn_priv *cp, size_t idx, int64_t now)
{
    if (cp->pub.proto == TN_PK_TCP && !cp->close_queued && !cp->inferred && tn_tcp_conn_closed(cp)) {
        cp->close_queued = true;
        push(&a->closed, idx);
    }
    struct tn_idxq *q = &a->closed;
    for (; q->head < q->n; q->head++) {
        size_t k = q->v[q->head];
        if (!whole(a, k))
            continue;
        struct tn_conn_priv *c = a->conns[k];
        if (!c->inferred) {
            if (now - tn_time_ns(c->pub.last) < CLOSE_QUIET_NS)
                break;
            tn_tcp_conn_finish(&a->ctx, c);
        }
        tn_analyzer_retire_conn(a, k);   /* with a store: its brief only from now on */
    }
    keep_compact(q);
}

/* With a store, a connection that is one SYN and nothing else leaves memory once the trace
 * clock passed its SYN by this much.  Any delay gives the same outputs (it comes back whole
 * with its next packet, and for the outputs); this one keeps in memory the SYNs a LAN answers
 * (the handshakes of the lab captures take 0.1-1 ms) and lets a flood's go after 10 ms of
 * trace time: a SYN-ACK later than that costs one read of its 1.7 KB. */
#define HALF_OPEN_QUIET_NS 10000000

static void half_open_conns(struct tn_analyzer *a, int64_t now)
{
    if (!a->cfg.spill_put)
        return;
    struct tn_idxq *q = &a->half_open;
    for (; q->head < q->n; q->head++) {
        size_t k = q->v[q->head];
        const struct tn_conn_priv *c = a->conns[k];
        /* gone, or got its second packet; or its SYN's time stamp started its sender's state
         * (the echo RTT), which the store does not keep: it stays */
        if (!whole(a, k) || c->pub.inf != tn_no_inf || c->dp[0].snd || c->dp[1].snd)
            continue;
        if (now - tn_time_ns(c->pub.last) < HALF_OPEN_QUIET_NS)
            break;
        tn_analyzer_retire_conn(a, k);
    }
    keep_compact(q);
}

/* With cfg.idle_retire_ns, the connections that hold no sender state and had no packet for that
 * long (DFCP ones: 200 ms after their close, as a TCP one) go to the store whole; any delay gives
 * the same outputs (a later packet brings one back whole), this one keeps in memory what may
 * still get a packet.  A TCP connection with sender state (rings, scoreboard, window models)
 * stays: the store does not keep that state.  Lone SYNs are half_open_conns', closed TCP
 * connections closed_conns'. */
void tn_analyzer_retire_quiet(struct tn_analyzer *a, int64_t now)
{
    tn_analyzer_compact_active(a);
    size_t n = 0, *quiet = tn_xmalloc((a->nactive + 1) * sizeof *quiet);
    for (size_t i = 0; i < a->nactive; i++) {
        size_t k = a->active[i];
        const struct tn_conn_priv *c = a->conns[k];
        if (!whole(a, k) || c->dp[0].snd || c->dp[1].snd || c->pub.inf == tn_no_inf || c->close_queued)
            continue;
        int64_t q = now - tn_time_ns(c->pub.last);
        if (q >= a->cfg.idle_retire_ns || (c->pub.proto == TN_PK_DFCP && c->pub.closed && q >= CLOSE_QUIET_NS))
            quiet[n++] = k;
    }
    /* (retiring compacts the active list: the sweep above is done first) */
    for (size_t i = 0; i < n; i++) {
        bool finished = a->conns[quiet[i]]->inferred;
        struct tn_conn_brief *b = tn_analyzer_retire_conn(a, quiet[i]);
        if (b)
            b->unfinished = !finished;
    }
    free(quiet);
}

/* A sweep reads the active list: at most one per as many packets (constant cost per packet),
 * and per CLOSE_QUIET_NS of trace time. */
static void idle_conns(struct tn_analyzer *a, int64_t now)
{
    if (a->cfg.idle_retire_ns <= 0 || !a->cfg.spill_put || a->cfg.on_retire)
        return;
    if (++a->idle_sweep_pkts < a->nactive || now - a->idle_sweep_ns < CLOSE_QUIET_NS)
        return;
    a->idle_sweep_pkts = 0;
    a->idle_sweep_ns = now;
    tn_analyzer_retire_quiet(a, now);
}

/* A closed connection whose packet comes after the trace clock passed its quiet time: what
 * the sweep of the single analyzer would have finished before this packet. */
static void quiet_finish(struct tn_analyzer *a, struct tn_conn_priv *cp, int64_t clock_ns)
{
    if (cp->close_queued && !cp->inferred && clock_ns != INT64_MIN &&
        clock_ns - tn_time_ns(cp->pub.last) >= CLOSE_QUIET_NS)
        tn_tcp_conn_finish(&a->ctx, cp);
}

void tn_analyzer_add(struct tn_analyzer *a, const struct tn_pkt *p, int status, const char *source)
{
    tn_analyzer_add_flow(a, p, tn_analyzer_count(a, p, status, source));
}

void tn_analyzer_add_flow(struct tn_analyzer *a, const struct tn_pkt *p, struct tn_pkt_place place)
{
    if (p->kind != TN_PK_TCP && p->kind != TN_PK_DFCP)
        return;

    /* most packets belong to the previous packet's connection: compare its endpoints first */
    long idx = a->last_idx;
    struct tn_conn_priv *cp = idx >= 0 ? a->conns[idx] : NULL;
    struct flow_probe fp = {a, p};
    if (!cp || cp->pub.retired || !same_conn(&cp->pub, p)) {
        uint64_t hash = tn_flow_hash(p);
        idx = tn_flowtab_lookup(a->flows, hash, flow_match, &fp);
        if (idx >= 0 && tn_slot_is_brief(a->conns[idx]) && !tn_slot_brief(a->conns[idx])->ended) {
            const struct tn_conn_brief *b = tn_slot_brief(a->conns[idx]);
            if (b->out.part == TN_OUT_AWAY) {
                a->cfg.on_away(a->cfg.on_retire_arg, b->out.at, p, place);   /* analysed where it went */
                return;
            }
            tn_analyzer_revive(a, (size_t)idx);   /* a late packet of a retired connection */
        }
        /* one retired idle (a summary, or a brief that ended) is followed by a new one */
        cp = idx >= 0 && whole(a, (size_t)idx) ? a->conns[idx] : NULL;
        if (cp && p->kind == TN_PK_TCP && tn_tcp_conn_is_reuse(cp, dir_of(&cp->pub, p), p))
            cp = NULL;
        if (!cp) {
            cp = new_conn(a, p, place.ord);
            idx = (long)a->nconns - 1;
            tn_flowtab_set(a->flows, hash, idx, flow_match, &fp);
        }
        a->last_idx = idx;
    } else if (p->kind == TN_PK_TCP && tn_tcp_conn_is_reuse(cp, dir_of(&cp->pub, p), p)) {
        cp = new_conn(a, p, place.ord);
        idx = (long)a->nconns - 1;
        tn_flowtab_set(a->flows, tn_flow_hash(p), idx, flow_match, &fp);
        a->last_idx = idx;
    }
    quiet_finish(a, cp, place.clock_ns);
    if (cp->pub.inf == tn_no_inf && cp->pkts_seen > 0)   /* its second packet */
        cp->pub.inf = tn_xcalloc(2, sizeof *cp->pub.inf);
    cp->pkts_seen++;

    struct tn_conn *c = &cp->pub;
    enum tn_dir d = dir_of(c, p);
    struct tn_dir_stats *ds = &c->d[d];
    int64_t t = tn_time_ns(p->ts);
    struct tn_window_save *saved = NULL;   /* --from/--to: the counts before a packet outside it */
    if (a->cfg.window.on && !tn_window_counts(&a->cfg.window, c, place.first_ns, t))
        saved = tn_window_save(&a->wsave, cp);
    if (ds->pkts == 0)
        ds->first = p->ts;
    ds->last = p->ts;
    ds->pkts++;
    ds->wire_bytes += p->wirelen;
    if (tn_time_cmp(p->ts, c->last) > 0)
        c->last = p->ts;
    if (!c->counted)
        c->span_first = c->span_last = p->ts;
    else if (tn_time_cmp(p->ts, c->span_last) > 0)
        c->span_last = p->ts;
    c->counted = true;
    if (p->anoms.bits)
        c->anomalies++;
    a->ctx.pkt = p;
    a->ctx.outside = saved != NULL;
    if (p->kind == TN_PK_TCP)
        tn_tcp_conn_pkt(&a->ctx, cp, d, p);
    else
        tn_dfcp_conn_pkt(&a->ctx, cp, d, p);
    if (saved)
        tn_window_restore(cp, saved);
    int64_t now = t > place.clock_ns ? t : place.clock_ns;
    closed_conns(a, cp, (size_t)idx, now);
    half_open_conns(a, now);
    idle_conns(a, now);
    tn_linger_sweep(a, now);
    a->ctx.pkt = NULL;   /* p is the caller's: it is gone when this returns */
}

static void take_whole(struct tn_analyzer *a, size_t k);

bool tn_analyzer_take_late(struct tn_analyzer *a, size_t k, const struct tn_pkt *p, struct tn_pkt_place place)
{
    if ((p->kind != TN_PK_TCP && p->kind != TN_PK_DFCP) || k >= a->nconns)
        return false;
    struct flow_probe fp = {a, p};
    uint64_t hash = tn_flow_hash(p);
    /* (no entry of p's endpoints: k was not taken before, the table keeps what it was given) */
    if (!flow_match(&fp, (long)k) || tn_flowtab_lookup(a->flows, hash, flow_match, &fp) >= 0)
        return false;
    tn_flowtab_set(a->flows, hash, (long)k, flow_match, &fp);
    if (!tn_slot_is_brief(a->conns[k]))
        take_whole(a, k);
    tn_analyzer_add_flow(a, p, place);   /* a brief comes back from the store here */
    return true;
}

/* Adopted whole (no room in the store), connection k gets packets again: open, as one brought
 * back from the store, for tn_analyzer_finish to finish. */
static void take_whole(struct tn_analyzer *a, size_t k)
{
    tn_analyzer_compact_active(a);
    tn_grow((void **)&a->active, &a->cap_active, a->nactive + 1, sizeof *a->active);
    size_t i = a->nactive++;
    while (i > 0 && a->active[i - 1] > k) {
        a->active[i] = a->active[i - 1];
        i--;
    }
    a->active[i] = k;
}

bool tn_analyzer_add_away(struct tn_analyzer *a, const struct tn_pkt *p, struct tn_pkt_place place)
{
    if (p->kind != TN_PK_TCP && p->kind != TN_PK_DFCP)
        return false;
    struct flow_probe fp = {a, p};
    if (tn_flowtab_lookup(a->flows, tn_flow_hash(p), flow_match, &fp) < 0)
        return false;
    tn_analyzer_add_flow(a, p, place);
    return true;
}

void tn_analyzer_finish(struct tn_analyzer *a)
{
    tn_linger_read_back(a);   /* first: those retired unfinished are finished below */
    tn_analyzer_finish_retired(a);
    tn_analyzer_compact_active(a);
    for (size_t i = 0; i < a->nactive; i++)
        finish_conn(a, a->conns[a->active[i]]);
}

/* Connection k, finished, as a summary in memory: rings, models and records freed. */
static void summarize(struct tn_analyzer *a, size_t k)
{
    struct tn_conn_priv *cp = a->conns[k];
    tn_conn_free_state(cp);
    tn_conn_free_records(&cp->pub);
    struct tn_conn *summary = tn_xmalloc(sizeof *summary);
    *summary = cp->pub;
    summary->retired = true;
    summary->events = NULL;
    summary->nevents = summary->cap_events = 0;
    summary->pkts = NULL;
    summary->npkts = summary->cap_pkts = 0;
    summary->blocks = NULL;
    summary->nblocks = summary->cap_blocks = 0;
    free(cp);
    /* the priv part is gone: only code that checks pub.retired may see this pointer */
    a->conns[k] = (struct tn_conn_priv *)(void *)summary;
    if (a->last_idx == (long)k)
        a->last_idx = -1;
}

size_t tn_analyzer_retire_idle(struct tn_analyzer *a, int64_t now_ns, int64_t idle_ns)
{
    tn_analyzer_compact_active(a);
    size_t n = 0, *idle = tn_xmalloc((a->nactive + 1) * sizeof *idle);
    for (size_t i = 0; i < a->nactive; i++) {
        size_t k = a->active[i];
        if (now_ns - tn_time_ns(a->conns[k]->pub.last) > idle_ns)
            idle[n++] = k;
    }
    /* (retiring to the store compacts the active list: the sweep above is done first) */
    for (size_t i = 0; i < n; i++) {
        finish_conn(a, a->conns[idle[i]]);   /* its sender state is gone with the inference */
        struct tn_conn_brief *b = a->cfg.spill_put ? tn_analyzer_retire_conn(a, idle[i]) : NULL;
        if (b)
            b->ended = true;
        else
            summarize(a, idle[i]);   /* no store, or it is full */
    }
    free(idle);
    /* the active list holds whole connections only: the summaries and briefs leave it */
    size_t kept = 0;
    for (size_t i = 0; i < a->nactive; i++)
        if (whole(a, a->active[i]))
            a->active[kept++] = a->active[i];
    a->nactive = kept;
    a->nstale = 0;
    return n;
}

size_t tn_analyzer_conn_count(const struct tn_analyzer *a)
{
    return a->nconns;
}

const struct tn_conn *tn_analyzer_conn(const struct tn_analyzer *a, size_t i)
{
    if (i >= a->nconns)
        return NULL;
    if (tn_slot_is_brief(a->conns[i]))   /* the reading slot is a cache, not state */
        return tn_reader_read_retired((struct tn_reader *)&a->reading, i);
    return &a->conns[i]->pub;
}

const struct tn_conn *tn_analyzer_conn_by_number(const struct tn_analyzer *a, unsigned idx)
{
    if (idx >= 1 && idx <= a->nconns && *tn_slot_idx(a->conns[idx - 1]) == idx)
        return tn_analyzer_conn(a, idx - 1);   /* nothing evicted before it */
    size_t lo = 0, hi = a->nconns;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (*tn_slot_idx(a->conns[mid]) < idx)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < a->nconns && *tn_slot_idx(a->conns[lo]) == idx ? tn_analyzer_conn(a, lo) : NULL;
}

const struct tn_trace_stats *tn_analyzer_stats(const struct tn_analyzer *a)
{
    return &a->st;
}

uint64_t tn_dir_rexmits(const struct tn_conn *c, enum tn_dir d)
{
    const uint64_t *r = c->inf[d].rexmit;
    return r[TN_EV_REXMIT_FAST - TN_EV_REXMIT_FAST] + r[TN_EV_REXMIT_RTO - TN_EV_REXMIT_FAST] +
           r[TN_EV_REXMIT_OTHER - TN_EV_REXMIT_FAST];
}

double tn_dir_throughput_bps(const struct tn_conn *c, enum tn_dir d)
{
    double dur = tn_time_diff(c->span_last, c->span_first);
    if (dur <= 0)
        return 0;
    return (double)c->d[d].unique_bytes * 8.0 / dur;
}
