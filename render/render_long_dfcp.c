/* render_long_dfcp.c - the DFCP part of the long report (-l): type counters and announced
 * parameters per direction, then what analysis inferred about the connection (issue 5). */
#include <inttypes.h>
#include <string.h>

#include "render.h"
#include "render_long_int.h"


static const char *flag_str(char *buf, size_t len, unsigned fl)
{
    snprintf(buf, len, "%s%s", (fl & TN_DFCP_F_ACKING) ? "acking " : "",
             (fl & TN_DFCP_F_ENCODED) ? "encoded" : "");
    if (!buf[0])
        snprintf(buf, len, "-");
    return buf;
}

static void dir_rows(FILE *out, const struct tn_conn *c)
{
    const struct tn_dir_stats *x = &c->d[TN_A2B], *y = &c->d[TN_B2A];
    static const char *const tname[8] = {"DATA pkts:", "SYN pkts:",  "SYNACK pkts:", "ACK pkts:",
                                         "BACK pkts:", "FIN pkts:",  "FINACK pkts:", "RST pkts:"};
    for (int t = 0; t < 8; t++)
        tn_long_row_u(out, tname[t], x->dfcp_type_pkts[t], y->dfcp_type_pkts[t]);
    uint64_t unk_x = 0, unk_y = 0;
    for (int t = 8; t < 16; t++) {
        unk_x += x->dfcp_type_pkts[t];
        unk_y += y->dfcp_type_pkts[t];
    }
    tn_long_row_u(out, "unknown-type pkts:", unk_x, unk_y);
    tn_long_row_u(out, "blocks seen:", x->dfcp_blocks, y->dfcp_blocks);
    tn_long_row_u(out, "symbols per block:", x->dfcp_n, y->dfcp_n);
    tn_long_row_u(out, "window (blocks):", x->dfcp_window, y->dfcp_window);
    tn_long_row_u(out, "block source bytes:", x->dfcp_k, y->dfcp_k);
    char p[32], q[32];
    tn_long_row_s(out, "flags:", flag_str(p, sizeof p, x->dfcp_flags), flag_str(q, sizeof q, y->dfcp_flags));
}

static void ms_or_dash(char *buf, size_t len, int64_t t, int64_t t0)
{
    if (t && t0)
        snprintf(buf, len, "%.3f ms", (double)(t - t0) / 1e6);
    else
        snprintf(buf, len, "-");
}

static void life_rows(FILE *out, const struct tn_conn *c)
{
    const struct tn_dfcp_infer *f = c->dfcp;
    int64_t t0 = tn_time_ns(c->first);
    char a[32], b[32], st[160] = "";
    size_t len = 0;
    for (int s = 0; s < TN_DFCP_S_COUNT && len < sizeof st; s++)
        if (f->states & (1u << s))
            len += (size_t)snprintf(st + len, sizeof st - len, "%s%s", len ? " " : "",
                                    tn_dfcp_state_name((enum tn_dfcp_state)s));
    fprintf(out, "   DFCP connection:\n");
    fprintf(out, "\tstates reached:   %s\n", len ? st : "-");
    fprintf(out, "\tretries:          SYN %u, SYNACK %u, FIN %u, FINACK %u\n", f->syn_retries,
            f->synack_retries, f->fin_retries, f->finack_retries);
    if (f->syn_seen)
        fprintf(out, "\tSYN (a):          n %u, k %u, window %u, init block %u, flags %s\n",
                f->syn_n, f->syn_k, f->syn_window, f->init_block, flag_str(a, sizeof a, f->syn_flags));
    if (f->synack_seen)
        fprintf(out, "\tSYNACK (b):       n %u, k %u, window %u, flags %s\n", f->synack_n,
                f->synack_k, f->synack_window, flag_str(b, sizeof b, f->synack_flags));
    if (c->hs_rtt_ms >= 0)
        fprintf(out, "\thandshake rtt:    %.3f ms (monitor<->a %.3f, monitor<->b %.3f), vantage %s\n",
                c->hs_rtt_ms, c->hs_half_ms[TN_A2B], c->hs_half_ms[TN_B2A], tn_vantage_name(c->vantage));
    ms_or_dash(a, sizeof a, f->established_ns, t0);
    ms_or_dash(b, sizeof b, f->fin_ns, t0);
    fprintf(out, "\testablished at:   %s, FIN at %s", a, b);
    ms_or_dash(a, sizeof a, f->closed_ns, t0);
    ms_or_dash(b, sizeof b, f->reset_ns, t0);
    fprintf(out, ", closed at %s, RST at %s\n", a, b);
    if (f->unknown_pkts || f->ctl_payload_pkts || f->bad_symidx)
        fprintf(out, "\tnot interpreted:  %" PRIu64 " unknown version/type, %" PRIu64
                " control pkts with payload, %" PRIu64 " symbol index >= n\n",
                f->unknown_pkts, f->ctl_payload_pkts, f->bad_symidx);
}

static void block_rows(FILE *out, const struct tn_conn *c)
{
    const struct tn_dfcp_infer *f = c->dfcp;
    if (!f->data_seen && !f->blocks)
        return;
    fprintf(out, "\tdata direction:   %s, n %u, k %u, symbol %u bytes, window %u, %s%s\n",
            f->data_dir == TN_A2B ? "a->b" : "b->a", f->n, f->k, f->symbol_size, f->window,
            f->acking ? "acking" : "acking off", f->encoded ? ", encoded" : "");
    fprintf(out, "\tblocks:           %" PRIu64 " total, %" PRIu64 " decoded, %" PRIu64
            " failed, %" PRIu64 " unacked (%" PRIu64 " known only from a BACK)\n",
            f->blocks, f->decoded, f->failed, f->unacked, f->blocks_no_data);
    fprintf(out, "\tsymbols seen:     %" PRIu64 " of %" PRIu64 " (loss before here %.2f%%, %"
            PRIu64 " blocks short, %" PRIu64 " duplicates)\n", f->symbols_seen,
            f->symbols_expected, f->symbol_loss_seen * 100, f->blocks_short, f->symbols_dup);
    fprintf(out, "\tfailed, complete: %" PRIu64 " (every symbol passed here: lost after the monitor)\n",
            f->failed_complete);
    fprintf(out, "\tredundancy:       %.3f (n x symbol / k)\n", f->redundancy);
    if (f->back_first_ms.n)
        fprintf(out, "\tBACK latency:     first sym %.3f ms avg (%.3f-%.3f), last sym %.3f ms avg"
                " (%.3f-%.3f), %" PRIu64 " samples\n", tn_stat_avg(&f->back_first_ms),
                f->back_first_ms.min, f->back_first_ms.max, tn_stat_avg(&f->back_last_ms),
                f->back_last_ms.min, f->back_last_ms.max, f->back_first_ms.n);
    if (f->acking)
        fprintf(out, "\tblocks in flight: max %u, avg %.2f, window use %.1f%%, window full %.1f%%"
                " of the time\n", f->inflight_max, f->inflight_avg, f->window_util * 100,
                f->window_full_share * 100);
    fprintf(out, "\tdata period:      %.6f s, %.0f symbols/s, median symbol gap %.1f us\n",
            f->duration_s, f->symbol_rate_pps, f->gap_median_us);
    if (f->loss_gap_ratio >= 0)
        fprintf(out, "\tloss gap ratio:   %.2f (~1: losses leave holes in time; << 1: a busy queue"
                " dropped)\n", f->loss_gap_ratio);
    fprintf(out, "\tthroughput:       %.0f bit/s (all DATA bytes)\n", f->throughput_bps);
    if (f->acking)
        fprintf(out, "\tgoodput:          %.0f bit/s (decoded source bytes), %.3f of throughput\n",
                f->goodput_bps, f->goodput_ratio);
    else
        fprintf(out, "\tgoodput:          - (acking off: no BACK tells which blocks decoded)\n");
    static const char *const lim[TN_LIM_COUNT] = {
        [TN_LIM_UNKNOWN] = "unknown",    [TN_LIM_CWND] = "congestion window",
        [TN_LIM_RWND] = "block window", [TN_LIM_APP] = "rate-capped sender",
        [TN_LIM_BOTTLENECK] = "bottleneck",
    };
    fprintf(out, "\trate limited by:  %s (%s)\n",
            (unsigned)f->limiter < TN_LIM_COUNT ? lim[f->limiter] : "?", f->limiter_why);
}

void tn_long_dfcp_rows(FILE *out, const struct tn_conn *c)
{
    dir_rows(out, c);
    life_rows(out, c);
    block_rows(out, c);
}
