/* analysis_tcp_slowstart.h - where a sender's slow start ended (analysis_tcp_slowstart.c): at
 * its first window reduction, or earlier where the flavour named left it without a loss
 * (HyStart, BBR's Startup). */
#ifndef TN_ANALYSIS_TCP_SLOWSTART_H
#define TN_ANALYSIS_TCP_SLOWSTART_H

#include "analysis.h"

struct tn_analyzer_ctx;
struct tn_cc_model;

struct tn_ss_end {
    struct tn_event first_loss;/* the slowstart_end a first loss would give (t_ns 0: none) */
    long hystart_event;        /* index of an early slowstart_end event (a flavour's replay left
                                * slow start without a loss), -1: none */
    bool early_exit;           /* such an exit was seen (events recorded or not) */
};

void tn_ss_init(struct tn_ss_end *e);
/* The window of sender d was cut at t (a loss, or a loss repaired by a probe; una: its
 * cumulative ACK): slow start is over. */
void tn_ss_window_cut(struct tn_analyzer_ctx *ctx, struct tn_conn *c, enum tn_dir d, struct tn_ss_end *e,
                      const struct tn_pkt *p, int64_t t, int64_t una, const char *why);
/* A flavour's replay left slow start without a loss at time at (why), the ACK of una. */
void tn_ss_replay_exit(struct tn_analyzer_ctx *ctx, struct tn_conn *c, enum tn_dir d, struct tn_ss_end *e,
                       int64_t at, int64_t una, const char *why);
/* After the flavour is named: keep the early exit only if that flavour left there. */
void tn_ss_finish(struct tn_conn *c, enum tn_dir d, struct tn_ss_end *e, const struct tn_cc_model *m);

#endif
