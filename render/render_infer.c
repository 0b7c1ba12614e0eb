/* render_infer.c - the inference part of the long report (-l) for a TCP connection: vantage
 * point, RTT, retransmissions by cause, episodes, congestion-control flavor, rate limiter.
 * Lines are put together by render_line.h: a report of a million short connections has tens of
 * millions of them. */
#include "render.h"
#include "render_line.h"
#include "render_long_int.h"

/* "       %-22s ": the start of every line of a sender's block */
static inline void label(struct tn_line *l, const char *lbl)
{
    tn_line_mem(l, "       ", 7);
    tn_line_pad(l, lbl, 22, 1);
    tn_line_char(l, ' ');
}

/* a line of counts: each name (with its separator) then its value */
static void counts_line(struct tn_line *l, const char *lbl, const char *const names[], const uint64_t vals[], int n)
{
    label(l, lbl);
    for (int i = 0; i < n; i++) {
        tn_line_str(l, names[i]);
        tn_line_u64(l, vals[i]);
    }
    tn_line_char(l, '\n');
}

static void stat_line(struct tn_line *l, const char *lbl, const struct tn_stat *s)
{
    label(l, lbl);
    if (!s->n) {
        tn_line_mem(l, "-\n", 2);
        return;
    }
    tn_line_fixed(l, s->min, 3);
    tn_line_mem(l, " / ", 3);
    tn_line_fixed(l, tn_stat_avg(s), 3);
    tn_line_mem(l, " / ", 3);
    tn_line_fixed(l, s->max, 3);
    tn_line_str(l, " ms (stdev ");
    tn_line_fixed(l, tn_stat_stdev(s), 3);
    tn_line_mem(l, ", ", 2);
    tn_line_u64(l, s->n);
    tn_line_str(l, " samples)\n");
}

/* The receiver's ACK policy for this data: segments per ACK (anywhere), the delayed-ACK timer
 * and quick-ACK phases (next to the receiver only). */
static void ackpolicy_lines(struct tn_line *l, const struct tn_ackpolicy *a)
{
    if (!a->acks)
        return;
    label(l, "receiver ACKs:");
    tn_line_fixed(l, tn_ackpol_ratio(a), 2);
    tn_line_str(l, " data segments per ACK (ACKs of 1/2/3/4/5+: ");
    for (int i = 0; i < 5; i++) {
        if (i)
            tn_line_char(l, '/');
        tn_line_u64(l, a->per_ack[i]);
    }
    tn_line_mem(l, ", ", 2);
    tn_line_u64(l, a->acks);
    tn_line_str(l, " in-order ACKs)\n");
    label(l, "delayed-ACK timer:");
    if (!a->delays_known) {
        tn_line_str(l, "not seen here (the monitor is not next to the receiver)\n");
        return;
    }
    if (a->delayed) {
        tn_line_u64(l, a->delayed);
        tn_line_str(l, " ACKs sent by it, ");
        tn_line_fixed(l, a->delack_min_ms, 1);
        tn_line_char(l, '-');
        tn_line_fixed(l, a->delack_max_ms, 1);
        tn_line_str(l, " ms after their segment\n");
    } else {
        tn_line_str(l, "none fired\n");
    }
    label(l, "quick-ACK:");
    tn_line_u64(l, a->quick_phases);
    tn_line_str(l, " phases, ");
    tn_line_u64(l, a->quick_acks);
    tn_line_str(l, " ACKs of one segment each at once\n");
}

static void sender_block(struct tn_line *l, const struct tn_conn *c, enum tn_dir d)
{
    const struct tn_tcp_infer *f = &c->inf[d];
    tn_line_str(l, d == TN_A2B ? "     a->b sender:\n" : "     b->a sender:\n");
    stat_line(l, "RTT min/avg/max:", &f->rtt_ms);
    stat_line(l, "RTT (timestamps):", &f->rtt_ts_ms);
    static const char *const rexmit_names[] = {"fast ", ", timeout ", ", other ", "; spurious "};
    counts_line(l, "retransmissions:", rexmit_names,
                (const uint64_t[]){f->rexmit[0], f->rexmit[1], f->rexmit[3], f->rexmit[2]}, 4);
    label(l, "lost before monitor:");
    tn_line_u64(l, f->loss_upstream);
    tn_line_char(l, '\n');
    if (f->capture_gaps) {
        label(l, "capture gaps:");
        tn_line_u64(l, f->capture_gaps);
        tn_line_str(l, f->capture_gaps == 1 ? " hole, " : " holes, ");
        tn_line_u64(l, f->capture_gap_bytes);
        tn_line_str(l, " B not captured (ACKed, or next to the sender): counts are lower bounds\n");
    }
    static const char *const episode_names[] = {"fast recovery ", ", timeout ", ", zero window ", ", idle "};
    counts_line(l, "episodes:", episode_names,
                (const uint64_t[]){f->episodes_recovery, f->episodes_rto, f->episodes_zero_window, f->episodes_idle},
                4);
    if (f->slowstart_ended) {
        label(l, "slow start ended:");
        tn_line_fixed(l, (double)(f->slowstart_end_ns - tn_time_ns(c->first)) / 1e9, 3);
        tn_line_str(l, " s after the first packet\n");
    }
    label(l, "max bytes in flight:");
    tn_line_fixed(l, f->max_inflight, 0);
    tn_line_str(l, " B\n");
    label(l, "congestion control:");
    if (f->flavor != TN_CC_UNKNOWN) {
        tn_line_str(l, tn_cc_flavor_name(f->flavor));
        tn_line_str(l, " (confidence ");
        tn_line_fixed(l, f->flavor_confidence, 2);
        tn_line_str(l, ")\n");
    } else {
        tn_line_str(l, "unknown\n");
    }
    if (f->cc_evidence[0]) {
        label(l, "evidence:");
        tn_line_str(l, f->cc_evidence);
        tn_line_char(l, '\n');
    }
    if (f->pacing_bps > 0) {
        label(l, "model:");
        tn_line_str(l, "pacing ");
        tn_line_fixed(l, f->pacing_bps / 1e6, 3);
        tn_line_str(l, " Mbit/s, bandwidth ");
        tn_line_fixed(l, f->model_bw_bps / 1e6, 3);
        tn_line_str(l, " Mbit/s, min RTT ");
        tn_line_fixed(l, f->model_min_rtt_ms, 1);
        tn_line_str(l, " ms, inflight cap ");
        tn_line_fixed(l, f->inflight_cap_bytes, 0);
        tn_line_str(l, " B\n");
    }
    ackpolicy_lines(l, &f->ackpol);
    if (f->limiter != TN_LIM_UNKNOWN) {
        label(l, "rate limited by:");
        tn_line_str(l, tn_limiter_name(f->limiter));
        tn_line_mem(l, " (", 2);
        const char *sep = "";
        for (int k = 1; k < TN_LIM_COUNT; k++) {
            if (f->limiter_share[k] <= 0)
                continue;
            tn_line_str(l, sep);
            tn_line_str(l, tn_limiter_name((enum tn_limiter)k));
            tn_line_char(l, ' ');
            tn_line_fixed(l, 100 * f->limiter_share[k], 0);
            tn_line_char(l, '%');
            sep = ", ";
        }
        tn_line_mem(l, ")\n", 2);
    }
}

void tn_report_tcp_inference_line(struct tn_line *l, const struct tn_conn *c)
{
    tn_line_str(l, "   inference:\n     vantage point:         ");
    tn_line_str(l, tn_vantage_name(c->vantage));
    if (c->hs_rtt_ms >= 0) {
        tn_line_str(l, " (handshake rtt ");
        tn_line_fixed(l, c->hs_rtt_ms, 3);
        tn_line_str(l, " ms: monitor<->a ");
        tn_line_fixed(l, c->hs_half_ms[TN_A2B], 3);
        tn_line_str(l, " ms, monitor<->b ");
        tn_line_fixed(l, c->hs_half_ms[TN_B2A], 3);
        tn_line_str(l, " ms)");
    } else {
        tn_line_str(l, " (handshake not seen)");
    }
    tn_line_char(l, '\n');
    for (int d = 0; d < 2; d++) {
        const struct tn_tcp_infer *f = &c->inf[d];
        if (c->d[d].data_pkts || f->rexmit[0] + f->rexmit[1] + f->rexmit[3])   /* SYN/FIN resent */
            sender_block(l, c, (enum tn_dir)d);
    }
}
