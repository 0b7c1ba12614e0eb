/* analysis_window.c - --from/--to for the counters: a TCP or DFCP packet outside the window goes
 * through the counters and the inference like any other (their state must see every packet: sequence
 * space, gaps, the scoreboard, RTT estimator, window models), and then what it counted is taken
 * back.  The count fields are listed here, once; every other field of struct tn_dir_stats and
 * struct tn_tcp_infer is state or a conclusion of the inference (the flavour, where slow start
 * ended), which the whole connection decides. */
#include <string.h>

#include "analysis_int.h"

/* The fields of struct tn_dir_stats that count packets (none is read back as state: the
 * analysis keeps its own copy where it needs one, tn_dir_priv.sent_bytes and seg_max_all). */
#define DIR_COUNTS(X)                                                                              \
    X(pkts) X(wire_bytes) X(data_pkts) X(data_bytes) X(unique_bytes) X(pure_acks) X(rexmit_pkts)   \
    X(win_probes) X(rexmit_bytes) X(ooo_pkts) X(dupacks) X(zero_wnd) X(syn) X(fin) X(rst)          \
    X(super_segs) X(trunc_pkts) X(seg_min) X(seg_max) X(win_min) X(win_max) X(win_sum) X(win_n)    \
    X(first) X(last) X(sack_pkts) X(pushed_pkts) X(urg_pkts) X(urg_bytes) X(trunc_bytes)           \
    X(triple_dupacks) X(idle_max_ns) X(init_win_bytes) X(init_win_pkts) X(owin_n) X(owin_max)      \
    X(owin_min_nz) X(owin_sum) X(owin_area) X(owin_t0_ns) X(dfcp_type_pkts) X(dfcp_blocks)        \
    X(syn_again)

/* The counts of struct tn_tcp_infer. */
#define INF_COUNTS(X)                                                                              \
    X(rtt_ms) X(rtt_ts_ms) X(rtt_full_ms) X(retr_ms) X(max_retrans) X(rexmit) X(loss_upstream)     \
    X(capture_gaps) X(capture_gap_bytes) X(episodes_recovery) X(episodes_rto)                      \
    X(episodes_zero_window) X(episodes_idle) X(max_inflight) X(ackpol)

/* The counts of struct tn_dfcp_infer (the rest are the parameters, the handshake and the states
 * reached, which the whole connection decides, or the summary made at the end from the blocks
 * a counted packet touched, TN_DFCP_BF_COUNTED, and struct tn_dfcp_tally). */
#define DFCP_COUNTS(X)                                                                             \
    X(syn_retries) X(synack_retries) X(fin_retries) X(finack_retries) X(unknown_pkts)              \
    X(ctl_payload_pkts) X(bad_symidx) X(back_first_ms) X(back_last_ms) X(inflight_max)

bool tn_window_counts(const struct tn_count_window *w, const struct tn_conn *c, int64_t first_ns,
                      int64_t t)
{
    return tn_window_has(w, w->conn_base ? tn_time_ns(c->first) : first_ns, t);
}

struct tn_window_save *tn_window_save(struct tn_window_save **buf, const struct tn_conn_priv *cp)
{
    if (!*buf)
        *buf = tn_xmalloc(sizeof **buf);
    struct tn_window_save *s = *buf;
    const struct tn_conn *c = &cp->pub;
    memcpy(s->d, c->d, sizeof s->d);
    memcpy(s->inf, c->inf, sizeof s->inf);
    s->span_first = c->span_first;
    s->span_last = c->span_last;
    s->counted = c->counted;
    s->anomalies = c->anomalies;
    if (cp->dfcp) {
        s->dfcp = *c->dfcp;
        for (int d = 0; d < 2; d++)
            s->tally[d] = cp->dfcp->dir[d].n;
    }
    return s;
}

#define PUT_BACK(to, from, f) memcpy(&(to).f, &(from).f, sizeof (to).f);

void tn_window_restore(struct tn_conn_priv *cp, const struct tn_window_save *s)
{
    struct tn_conn *c = &cp->pub;
    for (int d = 0; d < 2; d++) {
#define DIR_FIELD(f) PUT_BACK(c->d[d], s->d[d], f)
        DIR_COUNTS(DIR_FIELD)
#undef DIR_FIELD
        /* data seen again in the window counts as unique only above what came before it */
        cp->dp[d].window_cut = true;
        cp->dp[d].window_hi = c->d[d].hi_rel;
        if (c->inf == tn_no_inf)   /* read-only zeros: nothing was counted there */
            continue;
#define INF_FIELD(f) PUT_BACK(c->inf[d], s->inf[d], f)
        INF_COUNTS(INF_FIELD)
#undef INF_FIELD
    }
    c->span_first = s->span_first;
    c->span_last = s->span_last;
    c->counted = s->counted;
    c->anomalies = s->anomalies;
    if (cp->dfcp) {
#define DFCP_FIELD(f) PUT_BACK(*c->dfcp, s->dfcp, f)
        DFCP_COUNTS(DFCP_FIELD)
#undef DFCP_FIELD
        for (int d = 0; d < 2; d++)
            cp->dfcp->dir[d].n = s->tally[d];
    }
}
