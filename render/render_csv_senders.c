/* render_csv_senders.c - senders.csv of csv-contract.md: one row per connection direction that
 * sent data, with every figure of the long report (-l -r -W) and of the inference, so that no
 * result is only in text.  The contract's columns come first, in its order; the long report's
 * other figures follow (the contract lets columns be added at the end).  One table below gives
 * the header, the CSV rows and the JSON records (render_cols.h). */
#include <string.h>

#include "render_cols.h"

/* What every value expression may use: the connection c, the data direction d, its counters s,
 * the receiver's counters rs, the sender's inference f, and tcp. */
static const struct tn_dfcp_infer no_dfcp;   /* a connection without DFCP state reads as empty */

/* the receiver's delayed-ACK timer as seen (analysis_ackpolicy.c); < 0 when none was seen */
#define DELACK_MS(f) tn_ackpol_delack_ms(&(f)->ackpol)

#define TN_ROW_sender                                                                               \
    const struct tn_sender_row *r_ = row;                                                 \
    const struct tn_conn *c = r_->c;                                                      \
    enum tn_dir d = (enum tn_dir)r_->d;                                                   \
    const struct tn_dir_stats *s = &c->d[d], *rs = &c->d[!d];                             \
    const struct tn_tcp_infer *f = &c->inf[d];                                            \
    const struct tn_dfcp_infer *df = c->dfcp ? c->dfcp : &no_dfcp;                        \
    bool tcp = c->proto == TN_PK_TCP;                                                     \
    bool dfcp_data = !tcp && df->data_seen && df->data_dir == d;                          \
    (void)s, (void)rs, (void)f, (void)df, (void)tcp, (void)dfcp_data

static double duration_s(const struct tn_conn *c)
{
    return tn_time_diff(c->span_last, c->span_first);
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
#define SENDER_COLUMNS(X, P)                                                                        \
    X(P, conn, UINT, 0, tn_cell_u(o, true, c->idx))                                                 \
    X(P, dir, TEXT, 0, tn_cell_s(o, true, d == TN_A2B ? "a2b" : "b2a"))                             \
    X(P, proto, TEXT, 0, tn_cell_s(o, true, tcp ? "tcp" : "dfcp"))                                  \
    X(P, src_addr, TEXT, 0, tn_cell_s(o, true, tn_addr_str(d == TN_A2B ? &c->a : &c->b, o->buf, sizeof o->buf))) \
    X(P, src_port, UINT, 0, tn_cell_u(o, true, d == TN_A2B ? c->a_port : c->b_port))                \
    X(P, dst_addr, TEXT, 0, tn_cell_s(o, true, tn_addr_str(d == TN_A2B ? &c->b : &c->a, o->buf, sizeof o->buf))) \
    X(P, dst_port, UINT, 0, tn_cell_u(o, true, d == TN_A2B ? c->b_port : c->a_port))                \
    X(P, vantage, TEXT, 0, tn_cell_s(o, true, tcp ? vantage(c, d) : "unknown"))                     \
    X(P, data_pkts, UINT, 0, tn_cell_u(o, true, s->data_pkts))                                      \
    X(P, data_bytes, UINT, 0, tn_cell_u(o, true, s->data_bytes))                                    \
    X(P, unique_bytes, UINT, 0, tn_cell_u(o, tcp, s->unique_bytes))                                 \
    X(P, rexmit_pkts, UINT, 0, tn_cell_u(o, tcp, tn_dir_rexmits(c, d)))                                   \
    X(P, rexmit_bytes, UINT, 0, tn_cell_u(o, tcp, s->rexmit_bytes))                                 \
    X(P, rexmit_fast, UINT, 0, tn_cell_u(o, tcp, f->rexmit[0]))                                     \
    X(P, rexmit_rto, UINT, 0, tn_cell_u(o, tcp, f->rexmit[1]))                                      \
    X(P, rexmit_other, UINT, 0, tn_cell_u(o, tcp, f->rexmit[3]))                                    \
    X(P, rexmit_spurious, UINT, 0, tn_cell_u(o, tcp, f->rexmit[2]))                                 \
    X(P, lost_before_monitor, UINT, 0, tn_cell_u(o, tcp, f->loss_upstream))                         \
    X(P, ooo_pkts, UINT, 0, tn_cell_u(o, tcp, s->ooo_pkts))                                         \
    X(P, dupacks, UINT, 0, tn_cell_u(o, tcp, rs->dupacks))                                          \
    X(P, recovery_episodes, UINT, 0, tn_cell_u(o, tcp, f->episodes_recovery))                       \
    X(P, rto_episodes, UINT, 0, tn_cell_u(o, tcp, f->episodes_rto))                                 \
    X(P, slowstart_end_s, TIME, 0, tn_cell_t(o, tcp && f->slowstart_ended, f->slowstart_end_ns))    \
    X(P, rtt_min_ms, REAL, 3, tn_cell_r(o, tcp && f->rtt_ms.n, STAT_MIN(f->rtt_ms)))                \
    X(P, rtt_avg_ms, REAL, 3, tn_cell_r(o, tcp && f->rtt_ms.n, STAT_AVG(f->rtt_ms)))                \
    X(P, rtt_max_ms, REAL, 3, tn_cell_r(o, tcp && f->rtt_ms.n, STAT_MAX(f->rtt_ms)))                \
    X(P, srtt_ms, REAL, 3, tn_cell_r(o, tcp && srtt_ms(c, d) >= 0, srtt_ms(c, d)))                  \
    X(P, cc, TEXT, 0, tn_cell_s(o, tcp, tn_cc_flavor_name(f->flavor)))                              \
    X(P, cc_confidence, REAL, 2, tn_cell_r(o, tcp && f->flavor != TN_CC_UNKNOWN, f->flavor_confidence)) \
    X(P, cc_evidence, TEXT, 0, tn_cell_s(o, tcp && f->cc_evidence[0], f->cc_evidence))         \
    X(P, ack_ratio, REAL, 2, tn_cell_r(o, tcp && rs->pure_acks, (double)s->data_pkts / (double)rs->pure_acks)) \
    X(P, delack_timeout_ms, REAL, 3, tn_cell_r(o, tcp && DELACK_MS(f) >= 0, DELACK_MS(f)))          \
    X(P, syn_retries, UINT, 0, tn_cell_u(o, tcp && s->syn_seen, s->syn_again))                      \
    X(P, setup_s, REAL, 6, tn_cell_r(o, tcp && c->hs_syn_first_ns && c->hs_ack_ns,                \
                                  (double)(c->hs_ack_ns - c->hs_syn_first_ns) / 1e9))               \
    X(P, throughput_bps, REAL, 0, tn_cell_r(o, duration_s(c) > 0, (double)s->data_bytes * 8 / duration_s(c))) \
    X(P, goodput_bps, REAL, 0, tn_cell_r(o, tcp || dfcp_data, tcp ? tn_dir_throughput_bps(c, d) : df->goodput_bps)) \
    X(P, limited_cwnd, REAL, 3, tn_cell_r(o, tcp && f->limiter, f->limiter_share[TN_LIM_CWND]))     \
    X(P, limited_rwnd, REAL, 3, tn_cell_r(o, tcp && f->limiter, f->limiter_share[TN_LIM_RWND]))     \
    X(P, limited_app, REAL, 3, tn_cell_r(o, tcp && f->limiter, f->limiter_share[TN_LIM_APP]))       \
    X(P, limited_link, REAL, 3, tn_cell_r(o, tcp && f->limiter, f->limiter_share[TN_LIM_BOTTLENECK])) \
    /* ---- the long report's other figures (added at the end, csv-contract.md) ---- */          \
    X(P, first_s, TIME, 0, tn_cell_t(o, true, tn_time_ns(s->first)))                                \
    X(P, last_s, TIME, 0, tn_cell_t(o, true, tn_time_ns(s->last)))                                  \
    X(P, pkts, UINT, 0, tn_cell_u(o, true, s->pkts))                                                \
    X(P, wire_bytes, UINT, 0, tn_cell_u(o, true, s->wire_bytes))                                    \
    X(P, seg_min, UINT, 0, tn_cell_u(o, true, s->seg_min))                                          \
    X(P, seg_max, UINT, 0, tn_cell_u(o, true, s->seg_max))                                          \
    X(P, seg_avg, REAL, 0, tn_cell_r(o, true, (double)s->data_bytes / (double)s->data_pkts))        \
    X(P, pure_acks_received, UINT, 0, tn_cell_u(o, tcp, rs->pure_acks))                             \
    X(P, mss, UINT, 0, tn_cell_u(o, tcp && s->mss_seen, s->mss))                                    \
    X(P, window_scale, UINT, 0, tn_cell_u(o, tcp && s->ws_seen, s->ws))                             \
    X(P, sack_permitted, UINT, 0, tn_cell_u(o, tcp, s->sack_ok))                                    \
    X(P, timestamps, UINT, 0, tn_cell_u(o, tcp, s->ts_seen))                                        \
    X(P, rwnd_min, UINT, 0, tn_cell_u(o, tcp && rs->win_n, rs->win_min))                            \
    X(P, rwnd_max, UINT, 0, tn_cell_u(o, tcp && rs->win_n, rs->win_max))                            \
    X(P, rwnd_avg, REAL, 0, tn_cell_r(o, tcp && rs->win_n, rs->win_sum / (double)rs->win_n))        \
    X(P, zero_wnd_received, UINT, 0, tn_cell_u(o, tcp, rs->zero_wnd))                               \
    X(P, rexmt_data_pkts, UINT, 0, tn_cell_u(o, tcp, s->rexmit_pkts))                           \
    X(P, win_probes, UINT, 0, tn_cell_u(o, tcp, s->win_probes))                                     \
    X(P, syn_pkts, UINT, 0, tn_cell_u(o, tcp, s->syn))                                              \
    X(P, fin_pkts, UINT, 0, tn_cell_u(o, tcp, s->fin))                                              \
    X(P, rst_pkts, UINT, 0, tn_cell_u(o, tcp, s->rst))                                              \
    X(P, super_segs, UINT, 0, tn_cell_u(o, tcp, s->super_segs))                                     \
    X(P, trunc_pkts, UINT, 0, tn_cell_u(o, tcp, s->trunc_pkts))                                     \
    X(P, trunc_bytes, UINT, 0, tn_cell_u(o, tcp, s->trunc_bytes))                                   \
    X(P, pushed_pkts, UINT, 0, tn_cell_u(o, tcp, s->pushed_pkts))                                   \
    X(P, urg_pkts, UINT, 0, tn_cell_u(o, tcp, s->urg_pkts))                                         \
    X(P, urg_bytes, UINT, 0, tn_cell_u(o, tcp, s->urg_bytes))                                       \
    X(P, sack_pkts_received, UINT, 0, tn_cell_u(o, tcp, rs->sack_pkts))                             \
    X(P, triple_dupacks, UINT, 0, tn_cell_u(o, tcp, rs->triple_dupacks))                            \
    X(P, init_win_bytes, UINT, 0, tn_cell_u(o, tcp, s->init_win_bytes))                             \
    X(P, init_win_pkts, UINT, 0, tn_cell_u(o, tcp, s->init_win_pkts))                               \
    X(P, idle_max_ms, REAL, 3, tn_cell_r(o, tcp && s->pkts > 1, (double)s->idle_max_ns / 1e6))             \
    X(P, owin_max, REAL, 0, tn_cell_r(o, tcp && s->owin_n, s->owin_max))                            \
    X(P, owin_min_nonzero, REAL, 0, tn_cell_r(o, tcp && s->owin_n, s->owin_min_nz))                 \
    X(P, owin_avg, REAL, 0, tn_cell_r(o, tcp && s->owin_n, s->owin_sum / (double)s->owin_n))        \
    X(P, owin_wavg, REAL, 0, tn_cell_r(o, tcp && s->owin_n, tn_dir_owin_wavg(s)))                   \
    X(P, rtt_samples, UINT, 0, tn_cell_u(o, tcp, f->rtt_ms.n))                                      \
    X(P, rtt_stdev_ms, REAL, 3, tn_cell_r(o, tcp && f->rtt_ms.n, tn_stat_stdev(&f->rtt_ms)))        \
    X(P, rtt_ts_samples, UINT, 0, tn_cell_u(o, tcp, f->rtt_ts_ms.n))                                \
    X(P, rtt_ts_min_ms, REAL, 3, tn_cell_r(o, tcp && f->rtt_ts_ms.n, STAT_MIN(f->rtt_ts_ms)))       \
    X(P, rtt_ts_avg_ms, REAL, 3, tn_cell_r(o, tcp && f->rtt_ts_ms.n, STAT_AVG(f->rtt_ts_ms)))       \
    X(P, rtt_ts_max_ms, REAL, 3, tn_cell_r(o, tcp && f->rtt_ts_ms.n, STAT_MAX(f->rtt_ts_ms)))       \
    X(P, rtt_full_samples, UINT, 0, tn_cell_u(o, tcp, f->rtt_full_ms.n))                            \
    X(P, rtt_full_min_ms, REAL, 3, tn_cell_r(o, tcp && f->rtt_full_ms.n, STAT_MIN(f->rtt_full_ms))) \
    X(P, rtt_full_avg_ms, REAL, 3, tn_cell_r(o, tcp && f->rtt_full_ms.n, STAT_AVG(f->rtt_full_ms))) \
    X(P, rtt_full_max_ms, REAL, 3, tn_cell_r(o, tcp && f->rtt_full_ms.n, STAT_MAX(f->rtt_full_ms))) \
    X(P, retr_time_min_ms, REAL, 3, tn_cell_r(o, tcp && f->retr_ms.n, STAT_MIN(f->retr_ms)))      \
    X(P, retr_time_avg_ms, REAL, 3, tn_cell_r(o, tcp && f->retr_ms.n, STAT_AVG(f->retr_ms)))      \
    X(P, retr_time_max_ms, REAL, 3, tn_cell_r(o, tcp && f->retr_ms.n, STAT_MAX(f->retr_ms)))      \
    X(P, retr_time_stdev_ms, REAL, 3, tn_cell_r(o, tcp && f->retr_ms.n, tn_stat_stdev(&f->retr_ms))) \
    X(P, max_retrans, UINT, 0, tn_cell_u(o, tcp, f->max_retrans))                                   \
    X(P, rtt_3whs_ms, REAL, 3, tn_cell_r(o, tcp && c->hs_rtt_ms >= 0, c->hs_half_ms[!d]))           \
    X(P, max_inflight_bytes, REAL, 0, tn_cell_r(o, tcp, f->max_inflight))                           \
    X(P, zero_window_episodes, UINT, 0, tn_cell_u(o, tcp, f->episodes_zero_window))                 \
    X(P, idle_episodes, UINT, 0, tn_cell_u(o, tcp, f->episodes_idle))                               \
    X(P, cc_beta, REAL, 2, tn_cell_r(o, tcp && f->beta_n, f->beta))                                 \
    X(P, cc_beta_n, UINT, 0, tn_cell_u(o, tcp, f->beta_n))                                          \
    X(P, pacing_bps, REAL, 0, tn_cell_r(o, tcp && f->pacing_bps > 0, f->pacing_bps))            \
    X(P, model_bw_bps, REAL, 0, tn_cell_r(o, tcp && f->pacing_bps > 0, f->model_bw_bps))        \
    X(P, model_min_rtt_ms, REAL, 3, tn_cell_r(o, tcp && f->pacing_bps > 0, f->model_min_rtt_ms)) \
    X(P, inflight_cap_bytes, REAL, 0, tn_cell_r(o, tcp && f->pacing_bps > 0, f->inflight_cap_bytes)) \
    X(P, limiter, TEXT, 0, tn_cell_s(o, tcp || dfcp_data, tcp ? tn_limiter_name(f->limiter) : tn_limiter_name(df->limiter))) \
    X(P, dfcp_blocks, UINT, 0, tn_cell_u(o, dfcp_data, df->blocks))                                 \
    X(P, dfcp_decoded, UINT, 0, tn_cell_u(o, dfcp_data, df->decoded))                               \
    X(P, dfcp_failed, UINT, 0, tn_cell_u(o, dfcp_data, df->failed))                                 \
    X(P, dfcp_unacked, UINT, 0, tn_cell_u(o, dfcp_data, df->unacked))                               \
    X(P, dfcp_symbols_seen, UINT, 0, tn_cell_u(o, dfcp_data, df->symbols_seen))                     \
    X(P, dfcp_symbols_expected, UINT, 0, tn_cell_u(o, dfcp_data, df->symbols_expected))             \
    X(P, dfcp_symbol_loss_seen, REAL, 4, tn_cell_r(o, dfcp_data, df->symbol_loss_seen))             \
    X(P, dfcp_redundancy, REAL, 3, tn_cell_r(o, dfcp_data, df->redundancy))                         \
    X(P, dfcp_back_latency_ms, REAL, 3, tn_cell_r(o, dfcp_data && df->back_first_ms.n, STAT_AVG(df->back_first_ms))) \
    X(P, dfcp_inflight_max, UINT, 0, tn_cell_u(o, dfcp_data && df->acking, df->inflight_max))       \
    X(P, dfcp_window_util, REAL, 3, tn_cell_r(o, dfcp_data && df->acking, df->window_util))

SENDER_COLUMNS(TN_COL_GETTER, sender)

const struct tn_col tn_sender_cols[] = {SENDER_COLUMNS(TN_COL_ENTRY, sender)};
const size_t tn_sender_ncols = TN_ARRAY_LEN(tn_sender_cols);

bool tn_sender_sent_data(const struct tn_conn *c, unsigned d)
{
    return c->d[d].data_pkts > 0;
}

void tn_csv_sender_rows(struct tn_csvfile *f, const struct tn_conn *c, const struct tn_view *v)
{
    if (!tn_selected(v->sel, c->idx))
        return;
    for (unsigned d = 0; d < 2; d++) {
        if (!tn_sender_sent_data(c, d))
            continue;
        struct tn_sender_row row = {c, d};
        tn_cols_csv_row(f, tn_sender_cols, tn_sender_ncols, &row);
    }
}
