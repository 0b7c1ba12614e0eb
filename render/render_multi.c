/* render_multi.c - text report of the multi-flow views: fairness, parallel transfers, router
 * queues (two capture points, single-point estimate, ns-2 links) and the experiment table. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render.h"

static const char *rate_str(double bps, char *buf, size_t len)
{
    if (bps >= 1e9)
        snprintf(buf, len, "%.3f Gbit/s", bps / 1e9);
    else if (bps >= 1e6)
        snprintf(buf, len, "%.3f Mbit/s", bps / 1e6);
    else
        snprintf(buf, len, "%.1f kbit/s", bps / 1e3);
    return buf;
}

static void series_stats(const struct tn_series *s, double *mn, double *avg, double *mx)
{
    *mn = *avg = *mx = 0;
    for (size_t i = 0; i < s->n; i++) {
        double v = s->pts[i].v;
        if (i == 0 || v < *mn)
            *mn = v;
        if (i == 0 || v > *mx)
            *mx = v;
        *avg += v;
    }
    if (s->n)
        *avg /= (double)s->n;
}

static void report_fairness(FILE *out, const struct tn_fairness *f)
{
    char r[32];
    fprintf(out, "\nFairness (by %s, %zu flows)\n", tn_fair_by_name(f->by), f->nflows);
    if (f->nflows == 0) {
        fprintf(out, "  no flow carried data\n");
        return;
    }
    fprintf(out, "  %-40s %5s %14s %16s %7s\n", "flow", "conns", "data bytes", "throughput", "share");
    for (size_t k = 0; k < f->nflows; k++) {
        const struct tn_fair_flow *fl = &f->flows[k];
        fprintf(out, "  %-40s %5zu %14" PRIu64 " %16s %6.2f%%\n", fl->name, fl->nconns, fl->bytes,
                rate_str(fl->throughput_bps, r, sizeof r), fl->share * 100);
    }
    fprintf(out, "  Jain's fairness index: %.4f", f->jain);
    if (f->max_min > 0)
        fprintf(out, "   max/min throughput: %.3f", f->max_min);
    else if (f->nflows > 1)
        fprintf(out, "   max/min throughput: (a flow got nothing)");
    fputc('\n', out);
    if (f->nflows == 2 && f->ratio > 0)
        fprintf(out, "  throughput ratio %s / %s: %.4f\n", f->flows[0].name, f->flows[1].name, f->ratio);
    if (f->jain_series.n) {
        double mn, avg, mx;
        series_stats(&f->jain_series, &mn, &avg, &mx);
        fprintf(out, "  Jain's index per %.0f ms window (flows active in it): min %.4f, mean %.4f, max %.4f "
                     "over %zu windows\n",
                (double)f->window_ns / 1e6, mn, avg, mx, f->jain_series.n);
    }
    if (f->nexcluded) {
        fprintf(out, "  left out (under 1%% of the largest flow's bytes and within an initial window, e.g. control"
                     " connections):");
        for (size_t i = 0; i < f->nexcluded; i++)
            fprintf(out, " conn %u", f->excluded[i]);
        fputc('\n', out);
    }
}

static void report_parallel(FILE *out, const struct tn_parallel *p, size_t n)
{
    char r[32];
    fprintf(out, "\nParallel transfers (connections of one host pair started together): %zu\n", n);
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "  %s: %zu subflows, %" PRIu64 " data bytes, aggregate %s\n", p[i].name, p[i].n,
                p[i].bytes, rate_str(p[i].throughput_bps, r, sizeof r));
        for (size_t s = 0; s < p[i].n; s++)
            fprintf(out, "    conn %u: %.2f%% of the bytes\n", p[i].conns[s], p[i].share[s] * 100);
    }
}

static void report_q2(FILE *out, const struct tn_q2_result *q)
{
    char a[64], b[64];
    fprintf(out, "\nRouter queue (two capture points: packets matched ingress -> egress)\n");
    fprintf(out, "  matched %" PRIu64 ", dropped at the router %" PRIu64 ", still inside at the end %" PRIu64
                 ", crossing the other way %" PRIu64 ", seen on one side only %" PRIu64 "\n",
            q->matched, q->drops, q->unmatched_end, q->reverse_matched, q->ambiguous);
    if (q->sojourn_ms.n)
        fprintf(out, "  sojourn: min %.3f ms, avg %.3f ms, max %.3f ms\n", q->sojourn_ms.min,
                tn_stat_avg(&q->sojourn_ms), q->sojourn_ms.max);
    fprintf(out, "  queue length: avg %.2f packets (time-weighted), max %" PRIu32 " packets\n", q->queue_pkts_avg,
            q->queue_pkts_max);
    if (q->clock_known) {
        fprintf(out, "  clocks: egress point %+.3f ms against the ingress point (from conn %u, equal smallest "
                     "delays both ways assumed); one-way delay min %.3f ms ingress -> egress, %.3f ms back\n",
                q->clock_offset_ms, q->clock_conn, q->owd_min_ms[0], q->owd_min_ms[1]);
        if (q->clock_unsync)
            fprintf(out, "  WARNING: the two capture clocks are not synchronised: packets appear to arrive %.3f ms "
                         "before they left; sojourn times and queue lengths above are shifted by the offset\n",
                    -q->clock_worst_ms);
    }
    fprintf(out, "  %-46s %5s %8s %8s %6s %11s %11s\n", "flow (src -> dst)", "conn", "in", "out", "drops",
            "sojourn avg", "sojourn max");
    for (size_t i = 0; i < q->nflows; i++) {
        const struct tn_qflow *f = &q->flows[i];
        char name[128], conn[16] = "-";
        snprintf(name, sizeof name, "%s -> %s", tn_endpoint_str(&f->src, f->sport, a, sizeof a),
                 tn_endpoint_str(&f->dst, f->dport, b, sizeof b));
        if (f->conn)
            snprintf(conn, sizeof conn, "%u", f->conn);
        fprintf(out, "  %-46s %5s %8" PRIu64 " %8" PRIu64 " %6" PRIu64 " %8.3f ms %8.3f ms\n", name, conn,
                f->pkts_in, f->pkts_out, f->drops, tn_stat_avg(&f->sojourn_ms), f->sojourn_ms.max);
    }
}

static void report_q1(FILE *out, const struct tn_q1_result *q, const struct tn_q2_result *truth)
{
    char r[32];
    fprintf(out, "\nQueue estimate from this capture point (one point)\n");
    fprintf(out, "  assumptions: one shared FIFO bottleneck; the smallest RTT sample saw an empty queue\n"
                 "  (queueing delay = RTT - min RTT); the queue drains at the bottleneck rate, taken from the\n"
                 "  ACK clock (90th percentile of the summed acknowledged rate per interval); occupancy =\n"
                 "  delay * rate in packets of the largest segment; placed half a min RTT before the ACK.\n");
    fprintf(out, "  bottleneck rate estimate: %s, segment %.0f bytes\n", rate_str(q->rate_bps, r, sizeof r),
            q->seg_size);
    for (size_t i = 0; i < q->n; i++) {
        const struct tn_q1 *f = &q->flows[i];
        double mn, avg, mx;
        series_stats(&f->delay_ms, &mn, &avg, &mx);
        fprintf(out, "  conn %u %s: min RTT %.3f ms, queueing delay avg %.3f ms, max %.3f ms (%zu samples)\n",
                f->conn, f->dir == TN_A2B ? "a2b" : "b2a", f->min_rtt_ms, avg, mx, f->delay_ms.n);
    }
    double mn, avg, mx;
    series_stats(&q->queue_pkts, &mn, &avg, &mx);
    fprintf(out, "  estimated queue: avg %.2f packets, max %.2f packets\n", avg, mx);
    if (truth && truth->queue_pkts.n) {
        size_t n;
        double mae = tn_series_mae(&q->queue_pkts, &truth->queue_pkts, &n);
        fprintf(out, "  error against the two-point queue: mean absolute error %.2f packets over %zu samples\n",
                mae, n);
    }
}

static void report_linkq(FILE *out, const struct tn_linkq *l)
{
    fprintf(out, "\nLink queues (ns-2 enqueue/dequeue/drop events: exact)\n");
    fprintf(out, "  %-10s %9s %9s %7s %9s %9s %12s\n", "link", "enqueued", "dequeued", "drops", "max pkts",
            "avg pkts", "max bytes");
    for (size_t i = 0; i < tn_linkq_count(l); i++) {
        const struct tn_linkq_link *k = tn_linkq_link(l, i);
        double span = (double)(k->last_ns - k->first_ns) / 1e9;
        char name[32];
        snprintf(name, sizeof name, "%d->%d", k->from, k->to);
        fprintf(out, "  %-10s %9" PRIu64 " %9" PRIu64 " %7" PRIu64 " %9" PRIu32 " %9.3f %12" PRIu64 "\n", name,
                k->enq, k->deq, k->drops, k->max_pkts, span > 0 ? k->pkts_area / span : 0, k->max_bytes);
        for (size_t f = 0; f < k->nfid; f++)
            if (k->flow_drops[f])
                fprintf(out, "    flow id %zu: %" PRIu64 " drops\n", f, k->flow_drops[f]);
    }
}

void tn_report_multi(FILE *out, const struct tn_analyzer *a, const struct tn_multi *m)
{
    (void)a;
    if (m->fair)
        report_fairness(out, m->fair);
    if (m->par && m->npar)
        report_parallel(out, m->par, m->npar);
    if (m->q2)
        report_q2(out, m->q2);
    if (m->q1 && m->q1->n)
        report_q1(out, m->q1, m->q2);
    if (m->linkq && tn_linkq_count(m->linkq))
        report_linkq(out, m->linkq);
}

void tn_report_experiment(FILE *out, const struct tn_experiment *e)
{
    char a[64], b[64], g[32], t[32];
    fprintf(out, "\nExperiment: %zu traces\n", e->ntraces);
    int lw = 16;   /* the label column fits the longest label */
    for (size_t i = 0; i < e->ntraces; i++)
        if (strlen(e->labels[i]) > (size_t)lw && strlen(e->labels[i]) < 200)
            lw = (int)strlen(e->labels[i]);
    fprintf(out, "  %-5s %-*s %4s %-5s %-44s %16s %16s %7s %9s %7s  %s\n", "trace", lw, "label", "conn", "proto",
            "endpoints", "goodput", "throughput", "rexmit", "rtt avg", "jain", "flow");
    for (size_t i = 0; i < e->nrows; i++) {
        const struct tn_exp_row *r = &e->rows[i];
        char ep[128], rtt[24];
        snprintf(ep, sizeof ep, "%s-%s", tn_endpoint_str(&r->a, r->a_port, a, sizeof a),
                 tn_endpoint_str(&r->b, r->b_port, b, sizeof b));
        if (r->rtt_ms_avg >= 0)
            snprintf(rtt, sizeof rtt, "%.3f ms", r->rtt_ms_avg);
        else
            snprintf(rtt, sizeof rtt, "-");
        fprintf(out, "  %-5u %-*s %4u %-5s %-44s %16s %16s %7" PRIu64 " %9s %7.4f  %s\n", r->trace, lw, r->label,
                r->conn, r->proto == TN_PK_DFCP ? "dfcp" : "tcp", ep, rate_str(r->goodput_bps, g, sizeof g),
                rate_str(r->throughput_bps, t, sizeof t), r->rexmit_pkts, rtt, r->jain, r->flow);
    }
    for (size_t i = 0; i < e->ntraces; i++)
        if (isnan(e->util[i]))
            fprintf(out, "  trace %zu %s: %s, Jain's index %.4f\n", i + 1, e->labels[i], e->files[i], e->jain[i]);
        else
            fprintf(out, "  trace %zu %s: %s, Jain's index %.4f, link utilisation %.4f\n", i + 1, e->labels[i],
                    e->files[i], e->jain[i], e->util[i]);
}
