/* render_accuracy.c - the accuracy report of --truth: how far the inference is from what the
 * kernel recorded. */
#include <inttypes.h>

#include "render.h"

static void pct(FILE *out, const char *label, double med, double p90, size_t n)
{
    if (med < 0)
        fprintf(out, "    %-34s -\n", label);
    else
        fprintf(out, "    %-34s median %5.1f%%  p90 %5.1f%%  (%zu ACKs)\n", label, 100 * med, 100 * p90, n);
}

static void ratio(FILE *out, const char *label, uint64_t matched, uint64_t ours, uint64_t truth)
{
    fprintf(out, "    %-34s kernel %" PRIu64 ", ours %" PRIu64 ", matched %" PRIu64, label, truth, ours, matched);
    if (ours)
        fprintf(out, "; precision %.2f", (double)matched / (double)ours);
    if (truth)
        fprintf(out, ", recall %.2f", (double)matched / (double)truth);
    fputc('\n', out);
}

void tn_report_accuracy(FILE *out, const struct tn_accuracy *r, size_t n)
{
    fprintf(out, "\nAccuracy against kernel ground truth:\n");
    if (!n)
        fprintf(out, "  no connection of this trace matches the truth file's flows\n");
    static const char *const cause[4] = {"fast", "timeout", "other", "unmatched"};
    for (size_t i = 0; i < n; i++) {
        const struct tn_accuracy *a = &r[i];
        fprintf(out, "  connection %u %s sender: %" PRIu64 " tcp_probe records, %" PRIu64 " cwnd-limited\n",
                a->conn, a->dir == TN_A2B ? "a->b" : "b->a", a->probes, a->limited);
        pct(out, "cwnd estimate error (all):", a->cwnd_err_med, a->cwnd_err_p90, a->cwnd_n);
        pct(out, "cwnd estimate error (Open):", a->cwnd_err_open_med, a->cwnd_err_open_p90, a->cwnd_open_n);
        pct(out, "smoothed RTT error vs srtt:", a->rtt_err_med, a->rtt_err_p90, a->rtt_n);
        ratio(out, "fast recovery episodes:", a->matched_episodes[0], a->our_episodes[0], a->truth_episodes[0]);
        ratio(out, "timeout (Loss) episodes:", a->matched_episodes[1], a->our_episodes[1], a->truth_episodes[1]);
        fprintf(out, "    %-34s kernel %" PRIu64 ", ours %" PRIu64 "\n", "retransmissions:", a->truth_rexmits,
                a->our_rexmits);
        fprintf(out, "    cause confusion (rows kernel, columns ours):   fast timeout  other unmatched\n");
        for (int tc = 0; tc < 3; tc++)
            fprintf(out, "      %-42s %5" PRIu64 " %7" PRIu64 " %6" PRIu64 " %9" PRIu64 "\n", cause[tc],
                    a->confusion[tc][0], a->confusion[tc][1], a->confusion[tc][2], a->confusion[tc][3]);
    }
}
