/* render_infer.c - the inference part of the long report (-l) for a TCP connection: vantage
 * point, RTT, retransmissions by cause, episodes, congestion-control flavor, rate limiter. */
#include <inttypes.h>

#include "render.h"

static void stat_line(FILE *out, const char *label, const struct tn_stat *s)
{
    if (!s->n) {
        fprintf(out, "       %-22s -\n", label);
        return;
    }
    char x[4][TN_FIXED_LEN];   /* the numbers without printf's conversion: a line per sender */
    fprintf(out, "       %-22s %s / %s / %s ms (stdev %s, %" PRIu64 " samples)\n", label, tn_fixed(x[0], s->min, 3),
            tn_fixed(x[1], tn_stat_avg(s), 3), tn_fixed(x[2], s->max, 3), tn_fixed(x[3], tn_stat_stdev(s), 3), s->n);
}

/* The receiver's ACK policy for this data: segments per ACK (anywhere), the delayed-ACK timer
 * and quick-ACK phases (next to the receiver only). */
static void ackpolicy_lines(FILE *out, const struct tn_ackpolicy *a)
{
    if (!a->acks)
        return;
    char x[TN_FIXED_LEN];
    fprintf(out, "       %-22s %s data segments per ACK (ACKs of 1/2/3/4/5+: %" PRIu64 "/%" PRIu64
                 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64 ", %" PRIu64 " in-order ACKs)\n",
            "receiver ACKs:", tn_fixed(x, tn_ackpol_ratio(a), 2), a->per_ack[0], a->per_ack[1], a->per_ack[2],
            a->per_ack[3], a->per_ack[4], a->acks);
    if (!a->delays_known) {
        fprintf(out, "       %-22s not seen here (the monitor is not next to the receiver)\n",
                "delayed-ACK timer:");
        return;
    }
    if (a->delayed)
        fprintf(out, "       %-22s %" PRIu64 " ACKs sent by it, %.1f-%.1f ms after their segment\n",
                "delayed-ACK timer:", a->delayed, a->delack_min_ms, a->delack_max_ms);
    else
        fprintf(out, "       %-22s none fired\n", "delayed-ACK timer:");
    fprintf(out, "       %-22s %" PRIu64 " phases, %" PRIu64 " ACKs of one segment each at once\n",
            "quick-ACK:", a->quick_phases, a->quick_acks);
}

static void sender_block(FILE *out, const struct tn_conn *c, enum tn_dir d)
{
    const struct tn_tcp_infer *f = &c->inf[d];
    fprintf(out, "     %s sender:\n", d == TN_A2B ? "a->b" : "b->a");
    stat_line(out, "RTT min/avg/max:", &f->rtt_ms);
    stat_line(out, "RTT (timestamps):", &f->rtt_ts_ms);
    fprintf(out, "       %-22s fast %" PRIu64 ", timeout %" PRIu64 ", other %" PRIu64
                 "; spurious %" PRIu64 "\n",
            "retransmissions:", f->rexmit[0], f->rexmit[1], f->rexmit[3], f->rexmit[2]);
    fprintf(out, "       %-22s %" PRIu64 "\n", "lost before monitor:", f->loss_upstream);
    if (f->capture_gaps)
        fprintf(out, "       %-22s %" PRIu64 " hole%s, %" PRIu64 " B not captured (ACKed, or next to the "
                     "sender): counts are lower bounds\n",
                "capture gaps:", f->capture_gaps, f->capture_gaps == 1 ? "" : "s", f->capture_gap_bytes);
    fprintf(out, "       %-22s fast recovery %" PRIu64 ", timeout %" PRIu64 ", zero window %" PRIu64
                 ", idle %" PRIu64 "\n",
            "episodes:", f->episodes_recovery, f->episodes_rto, f->episodes_zero_window,
            f->episodes_idle);
    if (f->slowstart_ended)
        fprintf(out, "       %-22s %.3f s after the first packet\n", "slow start ended:",
                (double)(f->slowstart_end_ns - tn_time_ns(c->first)) / 1e9);
    char x[TN_FIXED_LEN];
    fprintf(out, "       %-22s %s B\n", "max bytes in flight:", tn_fixed(x, f->max_inflight, 0));
    if (f->flavor != TN_CC_UNKNOWN)
        fprintf(out, "       %-22s %s (confidence %s)\n", "congestion control:", tn_cc_flavor_name(f->flavor),
                tn_fixed(x, f->flavor_confidence, 2));
    else
        fprintf(out, "       %-22s unknown\n", "congestion control:");
    if (f->cc_evidence[0])
        fprintf(out, "       %-22s %s\n", "evidence:", f->cc_evidence);
    if (f->pacing_bps > 0)
        fprintf(out, "       %-22s pacing %.3f Mbit/s, bandwidth %.3f Mbit/s, min RTT %.1f ms, inflight cap %.0f B\n",
                "model:", f->pacing_bps / 1e6, f->model_bw_bps / 1e6, f->model_min_rtt_ms, f->inflight_cap_bytes);
    ackpolicy_lines(out, &f->ackpol);
    if (f->limiter != TN_LIM_UNKNOWN) {
        fprintf(out, "       %-22s %s (", "rate limited by:", tn_limiter_name(f->limiter));
        const char *sep = "";
        for (int l = 1; l < TN_LIM_COUNT; l++) {
            if (f->limiter_share[l] <= 0)
                continue;
            fprintf(out, "%s%s %s%%", sep, tn_limiter_name((enum tn_limiter)l), tn_fixed(x, 100 * f->limiter_share[l], 0));
            sep = ", ";
        }
        fprintf(out, ")\n");
    }
}

void tn_report_tcp_inference(FILE *out, const struct tn_conn *c)
{
    fprintf(out, "   inference:\n");
    fprintf(out, "     vantage point:         %s", tn_vantage_name(c->vantage));
    char x[3][TN_FIXED_LEN];
    if (c->hs_rtt_ms >= 0)
        fprintf(out, " (handshake rtt %s ms: monitor<->a %s ms, monitor<->b %s ms)", tn_fixed(x[0], c->hs_rtt_ms, 3),
                tn_fixed(x[1], c->hs_half_ms[TN_A2B], 3), tn_fixed(x[2], c->hs_half_ms[TN_B2A], 3));
    else
        fprintf(out, " (handshake not seen)");
    fputc('\n', out);
    for (int d = 0; d < 2; d++) {
        const struct tn_tcp_infer *f = &c->inf[d];
        if (c->d[d].data_pkts || f->rexmit[0] + f->rexmit[1] + f->rexmit[3])   /* SYN/FIN resent */
            sender_block(out, c, (enum tn_dir)d);
    }
}
