/* render_csv_senders.c - senders.csv of csv-contract.md: one row per connection direction that
 * sent data, with every figure of the long report (-l -r -W) and of the inference, so that no
 * result is only in text.  The contract's columns come first, in its order; the long report's
 * other figures follow (the contract lets columns be added at the end).  One table below gives
 * the header, the CSV rows and the JSON records (render_cols.h). */
#include <string.h>

#include "render_cols.h"

/* What every value expression may use: the connection c, the data direction d, its counters s,
 * the receiver's counters rs, the sender's inference f, and tcp. */
#define ROW                                                                               \
    const struct tn_sender_row *r_ = row;                                                 \
    const struct tn_conn *c = r_->c;                                                      \
    enum tn_dir d = (enum tn_dir)r_->d;                                                   \
    const struct tn_dir_stats *s = &c->d[d], *rs = &c->d[!d];                             \
    const struct tn_tcp_infer *f = &c->inf[d];                                            \
    const struct tn_dfcp_infer *df = &c->dfcp;                                            \
    bool tcp = c->proto == TN_PK_TCP;                                                     \
    bool dfcp_data = !tcp && df->data_seen && df->data_dir == d;                          \
    (void)s, (void)rs, (void)f, (void)df, (void)tcp, (void)dfcp_data

static double duration_s(const struct tn_conn *c)
{
    return tn_time_diff(c->last, c->first);
}

/* near_sender / near_receiver / middle / unknown, from the handshake's timing */
static const char *vantage(const struct tn_conn *c, enum tn_dir d)
{
    switch (c->vantage) {
    case TN_VP_NEAR_A: return d == TN_A2B ? "near_sender" : "near_receiver";
    case TN_VP_NEAR_B: return d == TN_B2A ? "near_sender" : "near_receiver";
    case TN_VP_MIDDLE: return "middle";
    default: return "unknown";
    }
}

static double srtt_ms(const struct tn_conn *c, enum tn_dir d)
{
    struct tn_conn_live l;
    tn_conn_live_get(c, d, &l);
    return l.srtt_ms;
}

#define STAT_MIN(st) ((st).min)
#define STAT_AVG(st) tn_stat_avg(&(st))
#define STAT_MAX(st) ((st).max)

/* X(name, type, decimals, fill): fill sets the cell o from the record */
#define SENDER_COLUMNS(X)                                                                        \
    X(conn, UINT, 0, tn_cell_u(o, true, c->idx))                                                 \
    X(dir, TEXT, 0, tn_cell_s(o, true, d == TN_A2B ? "a2b" : "b2a"))                             \
    X(proto, TEXT, 0, tn_cell_s(o, true, tcp ? "tcp" : "dfcp"))                                  \
    X(src_addr, TEXT, 0, tn_cell_s(o, true, tn_addr_str(d == TN_A2B ? &c->a : &c->b, o->buf, sizeof o->buf))) \
    X(src_port, UINT, 0, tn_cell_u(o, true, d == TN_A2B ? c->a_port : c->b_port))                \
    X(dst_addr, TEXT, 0, tn_cell_s(o, true, tn_addr_str(d == TN_A2B ? &c->b : &c->a, o->buf, sizeof o->buf))) \
    X(dst_port, UINT, 0, tn_cell_u(o, true, d == TN_A2B ? c->b_port : c->a_port))                \
    X(vantage, TEXT, 0, tn_cell_s(o, true, tcp ? vantage(c, d) : "unknown"))                     \
    X(data_pkts, UINT, 0, tn_cell_u(o, true, s->data_pkts))                                      \
    X(data_bytes, UINT, 0, tn_cell_u(o, true, s->data_bytes))                                    \
    X(unique_bytes, UINT, 0, tn_cell_u(o, tcp, s->unique_bytes))                                 \
    X(rexmit_pkts, UINT, 0, tn_cell_u(o, tcp, s->rexmit_pkts))                                   \
    X(rexmit_bytes, UINT, 0, tn_cell_u(o, tcp, s->rexmit_bytes))                                 \
    X(rexmit_fast, UINT, 0, tn_cell_u(o, tcp, f->rexmit[0]))                                     \
    X(rexmit_rto, UINT, 0, tn_cell_u(o, tcp, f->rexmit[1]))                                      \
    X(rexmit_other, UINT, 0, tn_cell_u(o, tcp, f->rexmit[3]))                                    \
    X(rexmit_spurious, UINT, 0, tn_cell_u(o, tcp, f->rexmit[2]))                                 \
    X(lost_before_monitor, UINT, 0, tn_cell_u(o, tcp, f->loss_upstream))                         \
    X(ooo_pkts, UINT, 0, tn_cell_u(o, tcp, s->ooo_pkts))                                         \
    X(dupacks, UINT, 0, tn_cell_u(o, tcp, rs->dupacks))                                          \
    X(recovery_episodes, UINT, 0, tn_cell_u(o, tcp, f->episodes_recovery))                       \
    X(rto_episodes, UINT, 0, tn_cell_u(o, tcp, f->episodes_rto))                                 \
    X(slowstart_end_s, TIME, 0, tn_cell_t(o, tcp && f->slowstart_ended, f->slowstart_end_ns))    \
    X(rtt_min_ms, REAL, 3, tn_cell_r(o, tcp && f->rtt_ms.n, STAT_MIN(f->rtt_ms)))                \
    X(rtt_avg_ms, REAL, 3, tn_cell_r(o, tcp && f->rtt_ms.n, STAT_AVG(f->rtt_ms)))                \
    X(rtt_max_ms, REAL, 3, tn_cell_r(o, tcp && f->rtt_ms.n, STAT_MAX(f->rtt_ms)))                \
    X(srtt_ms, REAL, 3, tn_cell_r(o, tcp && srtt_ms(c, d) >= 0, srtt_ms(c, d)))                  \
    X(cc, TEXT, 0, tn_cell_s(o, tcp, tn_cc_flavor_name(f->flavor)))                              \
    X(cc_confidence, REAL, 2, tn_cell_r(o, tcp && f->flavor != TN_CC_UNKNOWN, f->flavor_confidence)) \
    X(cc_evidence, TEXT, 0, tn_cell_s(o, tcp && f->cc_evidence[0], f->cc_evidence))         \
    X(ack_ratio, REAL, 2, tn_cell_r(o, tcp && rs->pure_acks, (double)s->data_pkts / (double)rs->pure_acks)) \
    X(delack_timeout_ms, REAL, 3, tn_cell_r(o, false, 0))                                        \
    X(syn_retries, UINT, 0, tn_cell_u(o, tcp && s->syn, s->syn - 1))                             \
    X(setup_s, REAL, 6, tn_cell_r(o, tcp && c->handshake_seen && c->hs_ack_ns,                   \
                                  (double)(c->hs_ack_ns - tn_time_ns(c->d[TN_A2B].first)) / 1e9)) \
    X(throughput_bps, REAL, 0, tn_cell_r(o, duration_s(c) > 0, (double)s->data_bytes * 8 / duration_s(c))) \
    X(goodput_bps, REAL, 0, tn_cell_r(o, tcp || dfcp_data, tcp ? tn_dir_throughput_bps(c, d) : df->goodput_bps)) \
    X(limited_cwnd, REAL, 3, tn_cell_r(o, tcp && f->limiter, f->limiter_share[TN_LIM_CWND]))     \
    X(limited_rwnd, REAL, 3, tn_cell_r(o, tcp && f->limiter, f->limiter_share[TN_LIM_RWND]))     \
    X(limited_app, REAL, 3, tn_cell_r(o, tcp && f->limiter, f->limiter_share[TN_LIM_APP]))       \
    X(limited_link, REAL, 3, tn_cell_r(o, tcp && f->limiter, f->limiter_share[TN_LIM_BOTTLENECK])) \
    /* ---- the long report's other figures (added at the end, csv-contract.md) ---- */          \
    X(first_s, TIME, 0, tn_cell_t(o, true, tn_time_ns(s->first)))                                \
    X(last_s, TIME, 0, tn_cell_t(o, true, tn_time_ns(s->last)))                                  \
    X(pkts, UINT, 0, tn_cell_u(o, true, s->pkts))                                                \
    X(wire_bytes, UINT, 0, tn_cell_u(o, true, s->wire_bytes))                                    \
    X(seg_min, UINT, 0, tn_cell_u(o, true, s->seg_min))                                          \
    X(seg_max, UINT, 0, tn_cell_u(o, true, s->seg_max))                                          \
    X(seg_avg, REAL, 0, tn_cell_r(o, true, (double)s->data_bytes / (double)s->data_pkts))        \
    X(pure_acks_received, UINT, 0, tn_cell_u(o, tcp, rs->pure_acks))                             \
    X(mss, UINT, 0, tn_cell_u(o, tcp && s->mss_seen, s->mss))                                    \
    X(window_scale, UINT, 0, tn_cell_u(o, tcp && s->ws_seen, s->ws))                             \
    X(sack_permitted, UINT, 0, tn_cell_u(o, tcp, s->sack_ok))                                    \
    X(timestamps, UINT, 0, tn_cell_u(o, tcp, s->ts_seen))                                        \
    X(rwnd_min, UINT, 0, tn_cell_u(o, tcp && rs->win_n, rs->win_min))                            \
    X(rwnd_max, UINT, 0, tn_cell_u(o, tcp && rs->win_n, rs->win_max))                            \
    X(rwnd_avg, REAL, 0, tn_cell_r(o, tcp && rs->win_n, rs->win_sum / (double)rs->win_n))        \
    X(zero_wnd_received, UINT, 0, tn_cell_u(o, tcp, rs->zero_wnd))                               \
    X(win_probes, UINT, 0, tn_cell_u(o, tcp, s->win_probes))                                     \
    X(syn_pkts, UINT, 0, tn_cell_u(o, tcp, s->syn))                                              \
    X(fin_pkts, UINT, 0, tn_cell_u(o, tcp, s->fin))                                              \
    X(rst_pkts, UINT, 0, tn_cell_u(o, tcp, s->rst))                                              \
    X(super_segs, UINT, 0, tn_cell_u(o, tcp, s->super_segs))                                     \
    X(trunc_pkts, UINT, 0, tn_cell_u(o, tcp, s->trunc_pkts))                                     \
    X(trunc_bytes, UINT, 0, tn_cell_u(o, tcp, s->trunc_bytes))                                   \
    X(pushed_pkts, UINT, 0, tn_cell_u(o, tcp, s->pushed_pkts))                                   \
    X(urg_pkts, UINT, 0, tn_cell_u(o, tcp, s->urg_pkts))                                         \
    X(urg_bytes, UINT, 0, tn_cell_u(o, tcp, s->urg_bytes))                                       \
    X(sack_pkts_received, UINT, 0, tn_cell_u(o, tcp, rs->sack_pkts))                             \
    X(triple_dupacks, UINT, 0, tn_cell_u(o, tcp, rs->triple_dupacks))                            \
    X(init_win_bytes, UINT, 0, tn_cell_u(o, tcp, s->init_win_bytes))                             \
    X(init_win_pkts, UINT, 0, tn_cell_u(o, tcp, s->init_win_pkts))                               \
    X(idle_max_ms, REAL, 3, tn_cell_r(o, tcp && s->pkts > 1, (double)s->idle_max_ns / 1e6))             \
    X(owin_max, REAL, 0, tn_cell_r(o, tcp && s->owin_n, s->owin_max))                            \
    X(owin_min_nonzero, REAL, 0, tn_cell_r(o, tcp && s->owin_n, s->owin_min_nz))                 \
    X(owin_avg, REAL, 0, tn_cell_r(o, tcp && s->owin_n, s->owin_sum / (double)s->owin_n))        \
    X(owin_wavg, REAL, 0, tn_cell_r(o, tcp && s->owin_n, tn_dir_owin_wavg(s)))                   \
    X(rtt_samples, UINT, 0, tn_cell_u(o, tcp, f->rtt_ms.n))                                      \
    X(rtt_stdev_ms, REAL, 3, tn_cell_r(o, tcp && f->rtt_ms.n, tn_stat_stdev(&f->rtt_ms)))        \
    X(rtt_ts_samples, UINT, 0, tn_cell_u(o, tcp, f->rtt_ts_ms.n))                                \
    X(rtt_ts_min_ms, REAL, 3, tn_cell_r(o, tcp && f->rtt_ts_ms.n, STAT_MIN(f->rtt_ts_ms)))       \
    X(rtt_ts_avg_ms, REAL, 3, tn_cell_r(o, tcp && f->rtt_ts_ms.n, STAT_AVG(f->rtt_ts_ms)))       \
    X(rtt_ts_max_ms, REAL, 3, tn_cell_r(o, tcp && f->rtt_ts_ms.n, STAT_MAX(f->rtt_ts_ms)))       \
    X(rtt_full_samples, UINT, 0, tn_cell_u(o, tcp, f->rtt_full_ms.n))                            \
    X(rtt_full_min_ms, REAL, 3, tn_cell_r(o, tcp && f->rtt_full_ms.n, STAT_MIN(f->rtt_full_ms))) \
    X(rtt_full_avg_ms, REAL, 3, tn_cell_r(o, tcp && f->rtt_full_ms.n, STAT_AVG(f->rtt_full_ms))) \
    X(rtt_full_max_ms, REAL, 3, tn_cell_r(o, tcp && f->rtt_full_ms.n, STAT_MAX(f->rtt_full_ms))) \
    X(retr_time_min_ms, REAL, 3, tn_cell_r(o, tcp && f->retr_ms.n, STAT_MIN(f->retr_ms)))      \
    X(retr_time_avg_ms, REAL, 3, tn_cell_r(o, tcp && f->retr_ms.n, STAT_AVG(f->retr_ms)))      \
    X(retr_time_max_ms, REAL, 3, tn_cell_r(o, tcp && f->retr_ms.n, STAT_MAX(f->retr_ms)))      \
    X(retr_time_stdev_ms, REAL, 3, tn_cell_r(o, tcp && f->retr_ms.n, tn_stat_stdev(&f->retr_ms))) \
    X(max_retrans, UINT, 0, tn_cell_u(o, tcp, f->max_retrans))                                   \
    X(rtt_3whs_ms, REAL, 3, tn_cell_r(o, tcp && c->hs_rtt_ms >= 0, c->hs_half_ms[!d]))           \
    X(max_inflight_bytes, REAL, 0, tn_cell_r(o, tcp, f->max_inflight))                           \
    X(zero_window_episodes, UINT, 0, tn_cell_u(o, tcp, f->episodes_zero_window))                 \
    X(idle_episodes, UINT, 0, tn_cell_u(o, tcp, f->episodes_idle))                               \
    X(cc_beta, REAL, 2, tn_cell_r(o, tcp && f->beta_n, f->beta))                                 \
    X(cc_beta_n, UINT, 0, tn_cell_u(o, tcp, f->beta_n))                                          \
    X(limiter, TEXT, 0, tn_cell_s(o, tcp || dfcp_data, tcp ? tn_limiter_name(f->limiter) : tn_limiter_name(df->limiter))) \
    X(dfcp_blocks, UINT, 0, tn_cell_u(o, dfcp_data, df->blocks))                                 \
    X(dfcp_decoded, UINT, 0, tn_cell_u(o, dfcp_data, df->decoded))                               \
    X(dfcp_failed, UINT, 0, tn_cell_u(o, dfcp_data, df->failed))                                 \
    X(dfcp_unacked, UINT, 0, tn_cell_u(o, dfcp_data, df->unacked))                               \
    X(dfcp_symbols_seen, UINT, 0, tn_cell_u(o, dfcp_data, df->symbols_seen))                     \
    X(dfcp_symbols_expected, UINT, 0, tn_cell_u(o, dfcp_data, df->symbols_expected))             \
    X(dfcp_symbol_loss_seen, REAL, 4, tn_cell_r(o, dfcp_data, df->symbol_loss_seen))             \
    X(dfcp_redundancy, REAL, 3, tn_cell_r(o, dfcp_data, df->redundancy))                         \
    X(dfcp_back_latency_ms, REAL, 3, tn_cell_r(o, dfcp_data && df->back_first_ms.n, STAT_AVG(df->back_first_ms))) \
    X(dfcp_inflight_max, UINT, 0, tn_cell_u(o, dfcp_data && df->acking, df->inflight_max))       \
    X(dfcp_window_util, REAL, 3, tn_cell_r(o, dfcp_data && df->acking, df->window_util))

#define X(name, type, prec, fill)                                  \
    static void get_##name(const void *row, struct tn_cell *o)    \
    {                                                              \
        ROW;                                                       \
        fill;                                                      \
    }
SENDER_COLUMNS(X)
#undef X

const struct tn_col tn_sender_cols[] = {
#define X(name, type, prec, fill) {#name, TN_COL_##type, prec, get_##name},
    SENDER_COLUMNS(X)
#undef X
};
const size_t tn_sender_ncols = TN_ARRAY_LEN(tn_sender_cols);

bool tn_sender_sent_data(const struct tn_conn *c, unsigned d)
{
    return c->d[d].data_pkts > 0;
}

int tn_csv_write_senders(const char *dir, const struct tn_analyzer *a, const struct tn_selection *sel,
                         struct tn_err *err)
{
    char header[4096];
    tn_cols_header(tn_sender_cols, tn_sender_ncols, header, sizeof header);
    struct tn_csvfile f;
    int r = tn_csvfile_open(&f, dir, "senders.csv", header, err);
    if (r)
        return r;
    for (size_t i = 0; i < tn_analyzer_conn_count(a); i++) {
        const struct tn_conn *c = tn_analyzer_conn(a, i);
        if (!tn_selected(sel, c->idx))
            continue;
        for (unsigned d = 0; d < 2; d++) {
            if (!tn_sender_sent_data(c, d))
                continue;
            struct tn_sender_row row = {c, d};
            tn_cols_csv_row(&f, tn_sender_cols, tn_sender_ncols, &row);
        }
    }
    return tn_csvfile_close(&f, err);
}
