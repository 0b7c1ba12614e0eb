/* render_timeline.c - the per-connection story (--timeline): one line per event or episode
 * boundary, with the time from the trace's first packet (--time-base conn: the connection's) and
 * the evidence. */
#include <inttypes.h>

#include "render.h"

static const char *dir_arrow(unsigned d)
{
    return d == TN_A2B ? "a->b" : "b->a";
}

void tn_report_timeline(FILE *out, const struct tn_analyzer *a, const struct tn_view *v)
{
    for (size_t i = 0; i < tn_analyzer_conn_count(a); i++) {
        const struct tn_conn *c = tn_analyzer_conn(a, i);
        if (!tn_selected(v->sel, c->idx))
            continue;
        char ab[80], bb[80];
        int64_t t0 = tn_view_origin(v, c);   /* one time base with the figures and --from/--to */
        fprintf(out, "\nTimeline of connection %u (%s - %s), vantage point: %s\n", c->idx,
                tn_endpoint_str(&c->a, c->a_port, ab, sizeof ab), tn_endpoint_str(&c->b, c->b_port, bb, sizeof bb),
                tn_vantage_name(c->vantage));
        if (c->hs_rtt_ms >= 0)
            fprintf(out, "  %10.3f ms  handshake: rtt %.3f ms (monitor<->a %.3f ms, monitor<->b %.3f ms)\n",
                    (double)(tn_time_ns(c->first) - t0) / 1e6, c->hs_rtt_ms, c->hs_half_ms[TN_A2B],
                    c->hs_half_ms[TN_B2A]);
        size_t shown = 0;
        for (size_t k = 0; k < c->nevents; k++) {
            const struct tn_event *e = &c->events[k];
            if (!tn_view_time(v, c, e->t_ns))
                continue;
            /* a run of duplicate ACKs for the same sequence is one line */
            size_t run = k;
            while (e->kind == TN_EV_DUPACK && run + 1 < c->nevents &&
                   c->events[run + 1].kind == TN_EV_DUPACK && c->events[run + 1].seq == e->seq &&
                   c->events[run + 1].dir == e->dir && tn_view_time(v, c, c->events[run + 1].t_ns))
                run++;
            if (run > k) {
                const struct tn_event *last = &c->events[run];
                fprintf(out, "  %10.3f ms  %-4s %-18s seq %-10" PRId64 " %zu dupacks until %.3f ms (%s .. %s)\n",
                        (double)(e->t_ns - t0) / 1e6, dir_arrow(e->dir), "dupack",
                        tn_view_seq(v, c, tn_event_seq_dir(e), e->seq), run - k + 1,
                        (double)(last->t_ns - t0) / 1e6, e->detail, last->detail);
                k = run;
                shown++;
                continue;
            }
            fprintf(out, "  %10.3f ms  %-4s %-18s seq %-10" PRId64 " len %-6u pkt %-8" PRIu64 " %s\n",
                    (double)(e->t_ns - t0) / 1e6, dir_arrow(e->dir),
                    tn_event_kind_name((enum tn_event_kind)e->kind),
                    tn_view_seq(v, c, tn_event_seq_dir(e), e->seq), e->len, e->pkt, e->detail);
            shown++;
        }
        if (!shown)
            fprintf(out, "  (no events)\n");
    }
}
