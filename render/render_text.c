/* render_text.c - the text report: connection list, trace summary, long statistics. */
#include <inttypes.h>
#include <string.h>

#include "render.h"
#include "render_line.h"
#include "render_par.h"

bool tn_selected(const struct tn_selection *sel, unsigned idx)
{
    if (sel && sel->mask)
        return idx < sel->nmask && sel->mask[idx];
    if (!sel || sel->n == 0)
        return true;
    for (size_t i = 0; i < sel->n; i++)
        if (sel->idx[i] == idx)
            return true;
    return false;
}

int64_t tn_view_seq(const struct tn_view *v, const struct tn_conn *c, unsigned dir, uint64_t rel)
{
    if (!v || !v->absolute_seq || c->proto != TN_PK_TCP || dir > 1)
        return (int64_t)rel;   /* below the base where a capture began mid-flow: negative */
    return (uint32_t)(c->d[dir].isn + (uint32_t)rel);
}

int64_t tn_view_origin(const struct tn_view *v, const struct tn_conn *c)
{
    return v && !v->conn_time && v->t0_ns ? v->t0_ns : tn_time_ns(c->first);
}

static const char *proto_name(const struct tn_conn_brief *b)
{
    return b->proto == TN_PK_DFCP ? (b->dfcp_over_udp ? "dfcp/udp" : "dfcp") : "tcp";
}

/* Every connection is selected: no selection, or an empty one. */
static bool selects_all(const struct tn_selection *sel)
{
    return !sel || (!sel->mask && sel->n == 0);
}

struct list_job {
    const struct tn_analyzer *a;
    const struct tn_selection *sel;
};

/* The list's lines of connections [lo, hi). */
static void list_rows(FILE *out, void *state, size_t lo, size_t hi, const void *arg)
{
    (void)state;
    const struct list_job *j = arg;
    struct tn_conn_brief b;
    struct tn_line l;
    tn_line_begin(&l, out);
    for (size_t i = lo; i < hi; i++) {
        tn_analyzer_brief(j->a, i, &b);
        if (!tn_selected(j->sel, b.idx))
            continue;
        /* "%4u: %s - %s  %-8s %8" PRIu64 ">%8" PRIu64 "<  %s\n" without printf: a line per
         * connection, a million of them in a short-connection trace */
        char ea[96], eb[96], num[24];
        tn_fmt_u64(num, b.idx);
        tn_line_pad(&l, num, 4, 0);
        tn_line_mem(&l, ": ", 2);
        tn_line_str(&l, tn_endpoint_str(&b.a, b.a_port, ea, sizeof ea));
        tn_line_mem(&l, " - ", 3);
        tn_line_str(&l, tn_endpoint_str(&b.b, b.b_port, eb, sizeof eb));
        tn_line_mem(&l, "  ", 2);
        tn_line_pad(&l, proto_name(&b), 8, 1);
        tn_line_char(&l, ' ');
        tn_fmt_u64(num, b.pkts[TN_A2B]);
        tn_line_pad(&l, num, 8, 0);
        tn_line_char(&l, '>');
        tn_fmt_u64(num, b.pkts[TN_B2A]);
        tn_line_pad(&l, num, 8, 0);
        tn_line_mem(&l, "<  ", 3);
        tn_line_str(&l, tn_conn_state_name((enum tn_conn_state)b.state));
        tn_line_char(&l, '\n');
    }
    tn_line_end(&l);
}

/* A chunk of the list is about 160 KB. */
#define LIST_CHUNK 2048

/* From the briefs: connections retired before the end of the run are listed too. */
void tn_report_list(FILE *out, const struct tn_analyzer *a, const struct tn_selection *sel, unsigned threads)
{
    size_t n = tn_analyzer_conn_count(a), shown = n;
    struct tn_conn_brief b;
    if (!selects_all(sel)) {
        shown = 0;
        for (size_t i = 0; i < n; i++) {
            tn_analyzer_brief(a, i, &b);
            shown += tn_selected(sel, b.idx);
        }
    }
    if (shown == n)
        fprintf(out, "%zu connection%s:\n", n, n == 1 ? "" : "s");
    else
        fprintf(out, "%zu connection%s, %zu selected:\n", n, n == 1 ? "" : "s", shown);
    struct list_job j = {a, sel};
    if (threads > 1 && n > LIST_CHUNK)
        tn_par_render(out, &(struct tn_par_job){.n = n, .chunk = LIST_CHUNK, .render = list_rows, .arg = &j},
                      threads);
    else
        list_rows(out, NULL, 0, n, &j);
    /* the one rule of the multi-flow views (tn_signif), said where the connections are listed */
    struct tn_signif sig;
    tn_signif_init(&sig, a, NULL, 0, false);
    if (sig.kept == sig.total)
        return;
    fprintf(out, "  not significant (under 1%% of the largest connection's data bytes and within an initial\n"
                 "  window each way, e.g. control connections;\n"
                 "  left out of fairness, experiments and figure sets unless --all-connections):");
    for (size_t i = 0; i < n; i++) {
        tn_analyzer_brief(a, i, &b);
        if (b.data_bytes[TN_A2B] + b.data_bytes[TN_B2A] && !tn_signif_keep_brief(&sig, &b))
            fprintf(out, " %u", b.idx);
    }
    fputc('\n', out);
}

/* The connections whose figures a capture that missed packets touched (holes the receiver
 * acknowledged without the data passing here): their counts are lower bounds, and a hole there
 * is no retransmission. */
static void capture_gap_line(FILE *out, const struct tn_analyzer *a)
{
    size_t n = tn_analyzer_conn_count(a), touched = 0;
    uint64_t holes = 0;
    struct tn_conn_brief b;
    for (size_t i = 0; i < n; i++) {
        tn_analyzer_brief(a, i, &b);
        if (!b.capture_gaps)
            continue;
        if (!touched++)
            fprintf(out, "  capture gaps:  connection");
        if (touched <= 20)
            fprintf(out, "%s %u", touched > 1 ? "," : "", b.idx);
        holes += b.capture_gaps;
    }
    if (touched)
        fprintf(out, "%s (%zu connection%s, %" PRIu64 " hole%s the capture missed: their figures are lower bounds)\n",
                touched > 20 ? " ..." : "", touched, touched == 1 ? "" : "s", holes, holes == 1 ? "" : "s");
}

/* --from/--to: what the connections counted within the window (their packets are the trace's TCP
 * and DFCP packets; the others belong to no connection and stay in the totals above).  Summed
 * from the connections, so every way of running (threads, MPI ranks, retirement) gives the same. */
static void window_lines(FILE *out, const struct tn_analyzer *a)
{
    const struct tn_count_window *w = &tn_analyzer_cfg(a)->window;
    if (!w->on)
        return;
    uint64_t pkts[2] = {0, 0}, anomalies = 0;
    size_t conns = 0;
    struct tn_time first = {0, 0}, last = {0, 0};
    for (size_t i = 0; i < tn_analyzer_conn_count(a); i++) {
        const struct tn_conn *c = tn_analyzer_conn(a, i);
        if (!c->counted)
            continue;
        pkts[c->proto == TN_PK_DFCP] += c->d[0].pkts + c->d[1].pkts;
        anomalies += c->anomalies;
        if (!conns++ || tn_time_cmp(c->span_first, first) < 0)
            first = c->span_first;
        if (conns == 1 || tn_time_cmp(c->span_last, last) > 0)
            last = c->span_last;
    }
    fprintf(out, "  within --from %g", (double)w->from_ns / 1e9);
    if (w->to_ns)
        fprintf(out, " --to %g", (double)w->to_ns / 1e9);
    fprintf(out, " s (from %s first packet):\n", w->conn_base ? "each connection's" : "the trace's");
    fprintf(out, "    connections:  %zu\n", conns);
    fprintf(out, "    TCP:          %" PRIu64 "\n", pkts[0]);
    fprintf(out, "    DFCP:         %" PRIu64 "\n", pkts[1]);
    if (conns) {
        fprintf(out, "    first packet: %.6f\n", tn_time_to_double(first));
        fprintf(out, "    last packet:  %.6f\n", tn_time_to_double(last));
    }
    fprintf(out, "    anomalies:    %" PRIu64 " packet%s\n", anomalies, anomalies == 1 ? "" : "s");
}

void tn_report_summary(FILE *out, const struct tn_analyzer *a)
{
    const struct tn_trace_stats *st = tn_analyzer_stats(a);
    fprintf(out, "\nTrace summary:\n");
    fprintf(out, "  packets read:  %" PRIu64 "\n", st->frames);
    fprintf(out, "  TCP:           %" PRIu64 "\n", st->tcp);
    fprintf(out, "  DFCP:          %" PRIu64 "\n", st->dfcp);
    fprintf(out, "  other:         %" PRIu64 "\n", st->other);
    if (st->fragments)
        fprintf(out, "  IP fragments:  %" PRIu64 "\n", st->fragments);
    if (st->tunneled)
        fprintf(out, "  in tunnels:    %" PRIu64 "\n", st->tunneled);
    if (st->have_time) {
        fprintf(out, "  first packet:  %.6f\n", tn_time_to_double(st->first));
        fprintf(out, "  last packet:   %.6f\n", tn_time_to_double(st->last));
    }
    capture_gap_line(out, a);
    fprintf(out, "  anomalies:     %" PRIu64 " packet%s (%" PRIu64 " truncated, %" PRIu64 " malformed)\n",
            st->anom_pkts, st->anom_pkts == 1 ? "" : "s", st->truncated, st->malformed);
    for (int k = 0; k < TN_ANOM_COUNT; k++) {
        if (!st->anom_count[k])
            continue;
        fprintf(out, "    %-22s %8" PRIu64 "  first in %s packet %" PRIu64 ": %s\n",
                tn_anom_name((enum tn_anom_kind)k), st->anom_count[k],
                st->anom_first_file[k] ? st->anom_first_file[k] : "?", st->anom_first[k],
                tn_anom_text((enum tn_anom_kind)k));
    }
    window_lines(out, a);
}
