/* tui_model.c - the dashboard's snapshot of the analysis model: per-connection summaries, idle
 * retirement, bounded plot histories, the event log copy and Jain's fairness index.
 * No curses here (htop's rule: model files do not draw). */
#include <stdlib.h>
#include <string.h>

#include "tui_int.h"

static int64_t ns_of(struct tn_time t)
{
    return t.sec * 1000000000 + (int64_t)t.nsec;
}

void tn_snap_init(struct tn_tui_snap *s)
{
    memset(s, 0, sizeof *s);
    s->jain = -1;
}

static void free_row(struct tn_tui_row *r)
{
    free(r);
}

void tn_snap_fini(struct tn_tui_snap *s)
{
    for (size_t i = 0; i < s->nrows; i++)
        free_row(s->rows[i]);
    free(s->rows);
    free(s->slot);
    memset(s, 0, sizeof *s);
}

bool tn_ev_interesting(enum tn_event_kind k)
{
    switch (k) {
    case TN_EV_DUPACK:
    case TN_EV_OOO:
    case TN_EV_DUP_DELIVERY:
    case TN_EV_DFCP_BLOCK_ACKED:
        return false;   /* counted, but too many to list */
    default:
        return true;
    }
}

const char *tn_tui_proto(const struct tn_tui_row *r)
{
    return r->proto == TN_PK_DFCP ? (r->over_udp ? "dfcpu" : "dfcp") : "tcp";
}

const char *tn_tui_episode(const struct tn_tui_row *r, int64_t now_ns)
{
    switch (r->live.episode) {
    case TN_LIVE_EP_RECOVERY: return "recovery";
    case TN_LIVE_EP_RTO: return "timeout";
    case TN_LIVE_EP_ZERO_WINDOW: return "zero-win";
    case TN_LIVE_EP_NONE: break;
    }
    if (r->state == TN_ST_COMPLETE || r->state == TN_ST_RESET)
        return "-";
    if (now_ns - r->last_ns > 1000000000)
        return "idle";
    return "-";
}


static struct tn_tui_row *new_row(const struct tn_conn *c)
{
    struct tn_tui_row *r = tn_xcalloc(1, sizeof *r);
    r->idx = c->idx;
    r->proto = (uint8_t)c->proto;
    r->over_udp = c->dfcp_over_udp;
    tn_endpoint_str(&c->a, c->a_port, r->a, sizeof r->a);
    tn_endpoint_str(&c->b, c->b_port, r->b, sizeof r->b);
    return r;
}

/* Data rate over the recent snapshots: the oldest sample at most 2 s of trace time back. */
static void update_rate(struct tn_tui_row *r, int64_t now, uint64_t bytes)
{
    if (r->rate_n && r->rate_t[(r->rate_n - 1) % TN_TUI_RATE_N] >= now)
        return;   /* trace time stood still: keep the rate */
    r->rate_t[r->rate_n % TN_TUI_RATE_N] = now;
    r->rate_b[r->rate_n % TN_TUI_RATE_N] = bytes;
    r->rate_n++;
    unsigned have = r->rate_n < TN_TUI_RATE_N ? r->rate_n : TN_TUI_RATE_N;
    unsigned newest = (r->rate_n - 1) % TN_TUI_RATE_N;
    /* the oldest sample at most 2 s back; in a fast replay snapshots lie further apart in trace
     * time, then the previous snapshot */
    r->tput_now = 0;
    for (unsigned k = have; k-- > 1;) {
        unsigned i = (r->rate_n - 1 - k) % TN_TUI_RATE_N;
        int64_t dt = now - r->rate_t[i];
        if (dt <= 0 || (dt > 2000000000 && k > 1))
            continue;
        r->tput_now = (double)(r->rate_b[newest] - r->rate_b[i]) * 8e9 / (double)dt;
        break;
    }
    if (now - r->last_ns > 1000000000)
        r->tput_now = 0;
}

static void hist_add(struct tn_tui_hist *h, int64_t t, double bytes, const float v[TN_H_COUNT])
{
    if (h->n && h->t[h->n - 1] >= t)
        return;
    if (h->skip++ % h->stride)
        return;
    if (h->n == TN_TUI_HIST) {   /* halve the resolution: keep every other sample */
        for (unsigned i = 0; i < TN_TUI_HIST / 2; i++) {
            h->t[i] = h->t[2 * i];
            h->bytes[i] = h->bytes[2 * i];
            for (int k = 0; k < TN_H_COUNT; k++)
                h->v[k][i] = h->v[k][2 * i];
        }
        h->n = TN_TUI_HIST / 2;
        h->stride *= 2;
        h->skip = 1;
    }
    h->t[h->n] = t;
    h->bytes[h->n] = bytes;
    for (int k = 0; k < TN_H_COUNT; k++)
        h->v[k][h->n] = v[k];
    h->n++;
}

static void hist_sample_conn(struct tn_tui_hist *h, const struct tn_conn *c, int64_t t)
{
    enum tn_dir m = c->d[TN_B2A].data_bytes > c->d[TN_A2B].data_bytes ? TN_B2A : TN_A2B;
    struct tn_conn_live lv;
    tn_conn_live_get(c, m, &lv);
    float v[TN_H_COUNT];
    if (c->proto == TN_PK_DFCP) {
        v[TN_H_SEQ] = (float)c->d[m].dfcp_blocks;
        v[TN_H_CWND] = -1;
        v[TN_H_INFLIGHT] = (float)lv.dfcp_inflight;
    } else {
        v[TN_H_SEQ] = c->d[m].data_seen ? (float)c->d[m].hi_rel : 0;
        v[TN_H_CWND] = (float)lv.cwnd_bytes;
        v[TN_H_INFLIGHT] = (float)lv.inflight_bytes;
    }
    v[TN_H_RTT] = (float)lv.srtt_ms;
    hist_add(h, t, (double)c->d[m].data_bytes, v);
}

void tn_hist_sample(struct tn_tui_shared_log *sh, const struct tn_analyzer *an, int64_t t)
{
    size_t n = tn_analyzer_conn_count(an);
    for (size_t i = sh->nhist; i < n; i++) {   /* new connections get a history */
        tn_grow((void **)&sh->hist, &sh->caphist, i + 1, sizeof *sh->hist);
        struct tn_tui_hist *h = tn_xcalloc(1, sizeof *h);
        h->idx = (unsigned)i + 1;
        h->stride = 1;
        sh->hist[i] = h;
        tn_grow((void **)&sh->act, &sh->capact, sh->nact + 1, sizeof *sh->act);
        sh->act[sh->nact++] = h;
    }
    sh->nhist = n;
    for (size_t k = 0; k < sh->nact; k++) {
        const struct tn_conn *c = tn_analyzer_conn_by_number(an, sh->act[k]->idx);
        if (c && tn_time_cmp(c->first, (struct tn_time){t / 1000000000, (uint32_t)(t % 1000000000)}) <= 0)
            hist_sample_conn(sh->act[k], c, t);
    }
}

static void hist_retire(struct tn_tui_shared_log *sh, size_t i)
{
    if (i >= sh->nhist || !sh->hist[i])
        return;
    for (size_t k = 0; k < sh->nact; k++)
        if (sh->act[k] == sh->hist[i]) {
            sh->act[k] = sh->act[--sh->nact];
            break;
        }
    free(sh->hist[i]);
    sh->hist[i] = NULL;
}

void tn_hist_free_all(struct tn_tui_shared_log *sh)
{
    for (size_t i = 0; i < sh->nhist; i++)
        free(sh->hist[i]);
    free(sh->hist);
    free(sh->act);
    sh->hist = sh->act = NULL;
    sh->nhist = sh->nact = sh->caphist = sh->capact = 0;
}

/* The selected connection's history, with the throughput between consecutive samples. */
static void copy_sel_hist(struct tn_tui_snap *s, const struct tn_tui_shared_log *sh, unsigned idx)
{
    const struct tn_tui_hist *h = idx && idx <= sh->nhist ? sh->hist[idx - 1] : NULL;
    if (!h) {
        s->sel_hist.idx = 0;
        s->sel_hist.n = 0;
        return;
    }
    s->sel_hist = *h;
    for (unsigned i = 0; i < h->n; i++) {
        int64_t dt = i ? h->t[i] - h->t[i - 1] : 0;
        s->sel_tput[i] = dt > 0 ? (float)((h->bytes[i] - h->bytes[i - 1]) * 8e9 / (double)dt) : -1;
    }
}

static void update_row(struct tn_tui_row *r, const struct tn_conn *c, int64_t now)
{
    r->state = (uint8_t)tn_conn_state(c);
    for (int d = 0; d < 2; d++) {
        const struct tn_dir_stats *ds = &c->d[d];
        r->pkts[d] = ds->pkts;
        r->data_bytes[d] = ds->data_bytes;
        r->unique_bytes[d] = ds->unique_bytes;
        r->rexmit_pkts[d] = tn_dir_rexmits(c, (enum tn_dir)d);   /* the sender's, as inferred */
        r->dupacks[d] = ds->dupacks;
        r->zero_wnd[d] = ds->zero_wnd;
    }
    enum tn_dir m = c->d[TN_B2A].data_bytes > c->d[TN_A2B].data_bytes ? TN_B2A : TN_A2B;
    r->main = (uint8_t)m;
    r->anomalies = c->anomalies;
    r->first_ns = ns_of(c->first);
    r->last_ns = ns_of(c->last);
    r->goodput = tn_dir_throughput_bps(c, m);
    r->fair_bps = tn_conn_throughput_bps(c);
    const struct tn_tcp_infer *inf = &c->inf[m];
    r->rtt_n = inf->rtt_ms.n;
    r->rtt_avg = inf->rtt_ms.n ? tn_stat_avg(&inf->rtt_ms) : -1;
    r->rtt_min = inf->rtt_ms.min;
    r->rtt_max = inf->rtt_ms.max;
    r->hs_rtt_ms = c->hs_rtt_ms;
    memcpy(r->rexmit_cause, inf->rexmit, sizeof r->rexmit_cause);
    r->ep_recovery = inf->episodes_recovery;
    r->ep_rto = inf->episodes_rto;
    r->ep_zero = inf->episodes_zero_window;
    r->ep_idle = inf->episodes_idle;
    r->max_inflight = inf->max_inflight;
    tn_conn_live_get(c, m, &r->live);
    if (c->proto == TN_PK_DFCP) {
        r->dfcp_blocks = c->d[m].dfcp_blocks;
        r->dfcp_decoded = c->dfcp->decoded;
        r->dfcp_failed = c->dfcp->failed;
        r->dfcp_window = c->d[m].dfcp_window;
        r->max_inflight = c->dfcp->inflight_max;
    }
    update_rate(r, now, r->data_bytes[m]);
}

/* Copy the new entries of the capture side's event log. */
static void copy_events(struct tn_tui_snap *s, const struct tn_tui_shared_log *log)
{
    uint64_t from = s->log.total;
    if (log->log.total - from > TN_TUI_EVLOG)
        from = log->log.total - TN_TUI_EVLOG;
    for (uint64_t i = from; i < log->log.total; i++)
        s->log.v[i % TN_TUI_EVLOG] = log->log.v[i % TN_TUI_EVLOG];
    s->log.total = log->log.total;
    memcpy(s->ev_kind, log->kind, sizeof s->ev_kind);
}

/* Jain's index over the significant rows (the report's rule, tn_signif: at least
 * TN_SIGNIF_SHARE of the largest connection's data bytes), on the report's basis once the trace
 * has ended (data bytes both ways over the lifetime), on the current rate while it runs. */
static void jain(struct tn_tui_snap *s)
{
    double sum = 0, sq = 0;
    unsigned n = 0;
    bool end = s->feed.finished;
    uint64_t maxb = 0;
    for (size_t i = 0; i < s->nrows; i++) {
        uint64_t b = s->rows[i]->data_bytes[0] + s->rows[i]->data_bytes[1];
        maxb = b > maxb ? b : maxb;
    }
    s->insignificant = 0;
    for (size_t i = 0; i < s->nrows; i++) {
        struct tn_tui_row *r = s->rows[i];
        uint64_t b = r->data_bytes[0] + r->data_bytes[1];
        r->significant = b > 0 && (s->all_connections || (double)b >= TN_SIGNIF_SHARE * (double)maxb);
        s->insignificant += b > 0 && !r->significant;
    }
    for (size_t i = 0; i < s->nrows; i++) {
        double x = end ? s->rows[i]->fair_bps : s->rows[i]->tput_now;
        if (x <= 0 || !s->rows[i]->significant)
            continue;
        sum += x;
        sq += x * x;
        n++;
    }
    s->jain_n = n;
    s->jain = n && sq > 0 ? sum * sum / ((double)n * sq) : -1;
}

void tn_snap_take(struct tn_tui_snap *s, const struct tn_analyzer *an, const struct tn_tui_feed *feed,
                  struct tn_tui_shared_log *log, double idle_timeout_s, bool live, int64_t wall_ns,
                  unsigned sel_idx)
{
    s->st = *tn_analyzer_stats(an);
    s->feed = *feed;
    if (s->st.have_time) {
        s->t0_ns = ns_of(s->st.first);
        int64_t last = ns_of(s->st.last);
        /* Live: time goes on while nothing arrives, so rates decay and idle connections retire. */
        if (s->st.frames != s->frames_seen || s->wall_at_frames == 0) {
            s->frames_seen = s->st.frames;
            s->wall_at_frames = wall_ns;
        }
        s->now_ns = live && !feed->finished ? last + (wall_ns - s->wall_at_frames) : last;
    }
    size_t n = tn_analyzer_conn_count(an);
    if (n > s->nslot) {
        tn_grow((void **)&s->slot, &s->capslot, n, sizeof *s->slot);
        for (size_t i = s->nslot; i < n; i++)
            s->slot[i] = -2;
        s->nslot = n;
    }
    int64_t idle_ns = (int64_t)(idle_timeout_s * 1e9);
    bool removed = false;
    for (size_t i = s->scan_from; i < n; i++) {
        if (s->slot[i] == -1)
            continue;
        const struct tn_conn *c = tn_analyzer_conn(an, i);
        if (s->slot[i] == -2) {
            tn_grow((void **)&s->rows, &s->cap, s->nrows + 1, sizeof *s->rows);
            s->rows[s->nrows] = new_row(c);
            s->slot[i] = (int32_t)s->nrows++;
        }
        struct tn_tui_row *r = s->rows[s->slot[i]];
        update_row(r, c, s->now_ns);
        if (idle_ns > 0 && s->now_ns - r->last_ns > idle_ns) {
            s->retired.conns++;
            s->retired.pkts += r->pkts[0] + r->pkts[1];
            s->retired.bytes += r->data_bytes[0] + r->data_bytes[1];
            free_row(r);
            s->rows[s->slot[i]] = NULL;
            s->slot[i] = -1;
            hist_retire(log, i);
            removed = true;
        }
    }
    if (removed) {   /* compact, keeping connection order, and re-point the slots */
        size_t k = 0;
        for (size_t i = 0; i < s->nrows; i++)
            if (s->rows[i]) {
                s->rows[k] = s->rows[i];
                s->slot[s->rows[k]->idx - 1] = (int32_t)k;
                k++;
            }
        s->nrows = k;
    }
    while (s->scan_from < n && s->slot[s->scan_from] == -1)
        s->scan_from++;
    copy_events(s, log);
    copy_sel_hist(s, log, sel_idx);
    jain(s);
}
