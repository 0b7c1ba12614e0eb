/* analysis_tcp_slowstart.c - where a sender's slow start ended: at its first window reduction
 * (a loss, RFC 5681 §3.1), or earlier where the flavour named left it without a loss (HyStart,
 * a slow start that ended unseen, BBR's Startup), as that flavour's replay says. */
#include <stdio.h>

#include "analysis_int.h"

void tn_ss_init(struct tn_ss_end *e)
{
    e->hystart_event = -1;
}

/* Slow start is where a connection begins (RFC 5681 §3.1); a capture begun mid-flow (no SYN
 * seen) does not show that beginning, and its first cut may come long after the slow start
 * ended: none is reported there.  ns-2 traces carry no SYN but begin with the agent. */
static bool start_seen(const struct tn_conn *c, enum tn_dir d)
{
    return c->handshake_seen || c->d[d].opts_unknown;
}

/* The first such moment is kept in case a HyStart exit recorded earlier has to be taken back
 * (tn_ss_finish); the event is recorded once, with the data direction d. */
void tn_ss_window_cut(struct tn_analyzer_ctx *ctx, struct tn_conn *c, enum tn_dir d, struct tn_ss_end *e,
                      const struct tn_pkt *p, int64_t t, int64_t una, const char *why)
{
    if (!e->first_loss.t_ns) {
        e->first_loss = (struct tn_event){.t_ns = t, .pkt = p->num, .seq = (uint64_t)una,
                                          .kind = TN_EV_SLOWSTART_END, .dir = (uint8_t)d};
        snprintf(e->first_loss.detail, sizeof e->first_loss.detail, "%s", why);
    }
    struct tn_tcp_infer *inf = &c->inf[d];
    if (!inf->slowstart_ended && start_seen(c, d)) {
        inf->slowstart_ended = true;
        inf->slowstart_end_ns = t;
        tn_rec_event(ctx, c, d, TN_EV_SLOWSTART_END, p, (uint64_t)una, 0, "%s", e->first_loss.detail);
    }
}

void tn_ss_replay_exit(struct tn_analyzer_ctx *ctx, struct tn_conn *c, enum tn_dir d, struct tn_ss_end *e,
                       int64_t at, int64_t una, const char *why)
{
    struct tn_tcp_infer *inf = &c->inf[d];
    if (inf->slowstart_ended || !start_seen(c, d))
        return;
    /* kept only if the sender turns out to run a flavour that left there (tn_ss_finish) */
    inf->slowstart_ended = true;
    inf->slowstart_end_ns = at;
    e->early_exit = true;
    size_t before = c->nevents;
    if (ctx->pkt)   /* none at the end of the input: tn_ss_finish settles it */
        tn_rec_event(ctx, c, d, TN_EV_SLOWSTART_END, ctx->pkt, (uint64_t)una, 0, "%s", why);
    if (c->nevents > before) {
        c->events[before].t_ns = at;
        e->hystart_event = (long)before;
    }
}

/* Slow start ended without a loss in some flavour's replay: keep it only if the flavour named
 * is that one, else the first loss ends slow start, if any. */
void tn_ss_finish(struct tn_conn *c, enum tn_dir d, struct tn_ss_end *e, const struct tn_cc_model *m)
{
    if (e->hystart_event < 0 && !e->early_exit)
        return;
    struct tn_tcp_infer *inf = &c->inf[d];
    int64_t t, una;
    uint64_t pkt;
    const char *why;
    struct tn_event ev = e->first_loss;
    if (tn_cc_ss_exit_of(m, inf->flavor, &t, &pkt, &una, &why) &&
        (!e->first_loss.t_ns || t <= e->first_loss.t_ns)) {
        ev = (struct tn_event){.t_ns = t, .pkt = pkt, .seq = (uint64_t)una, .kind = TN_EV_SLOWSTART_END,
                               .dir = (uint8_t)d};
        snprintf(ev.detail, sizeof ev.detail, "%s", why);
    }
    inf->slowstart_ended = ev.t_ns != 0;
    inf->slowstart_end_ns = ev.t_ns;
    if (e->hystart_event >= 0) {
        c->events[e->hystart_event] = ev;
        if (!ev.t_ns)
            c->events[e->hystart_event].kind = TN_EV_COUNT;   /* dropped below */
    }
}
