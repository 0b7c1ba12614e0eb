/* render_fig_multi.h - private to render: the multi-flow figure builders (issue 7). */
#ifndef TN_RENDER_FIG_MULTI_H
#define TN_RENDER_FIG_MULTI_H

#include "plot.h"

/* Each returns NULL when there is nothing to draw; the caller frees the plot. */
/* shade (may be NULL): the sender whose slow start and recovery episodes shade the queue */
struct tn_plot *tn_fig_queue(const struct tn_q2_result *q2, const struct tn_q1_result *q1, const struct tn_conn *shade,
                             const struct tn_fig_cfg *fc);
struct tn_plot *tn_fig_sojourn(const struct tn_q2_result *q2, const struct tn_fig_cfg *fc);
struct tn_plot *tn_fig_linkq(const struct tn_linkq_link *k, const struct tn_fig_cfg *fc);
/* an (may be NULL) names the flows by the legend rule of fc */
struct tn_plot *tn_fig_jain(const struct tn_fairness *f, const struct tn_analyzer *an, const struct tn_fig_cfg *fc);
struct tn_plot *tn_fig_parallel(const struct tn_parallel *g, const struct tn_analyzer *an, const struct tn_fig_cfg *fc);
/* The experiment figures, i < tn_fig_exp_count(): goodput, throughput, retransmissions and RTT of
 * each flow, Jain's index, the link utilisation (with a link rate) and the throughput ratio of the
 * first two flows (the last one), against the traces' labelled parameter ("rtt=10ms" -> 10);
 * *stem gets the file name. */
size_t tn_fig_exp_count(void);
struct tn_plot *tn_fig_exp(const struct tn_experiment *e, size_t i, const char **stem, const struct tn_fig_cfg *fc);
/* The number in a label "name=12.5unit", or NAN. */
double tn_fig_label_value(const char *label);

#endif
