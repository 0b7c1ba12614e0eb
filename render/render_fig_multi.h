/* render_fig_multi.h - private to render: the multi-flow figure builders (issue 7). */
#ifndef TN_RENDER_FIG_MULTI_H
#define TN_RENDER_FIG_MULTI_H

#include "plot.h"

/* Colour of the i-th flow in the multi-flow figures. */
enum tn_color tn_figm_color(size_t i);

/* Each returns NULL when there is nothing to draw; the caller frees the plot. */
struct tn_plot *tn_fig_queue(const struct tn_q2_result *q2, const struct tn_q1_result *q1, const struct tn_fig_cfg *fc);
struct tn_plot *tn_fig_sojourn(const struct tn_q2_result *q2, const struct tn_fig_cfg *fc);
struct tn_plot *tn_fig_linkq(const struct tn_linkq_link *k, const struct tn_fig_cfg *fc);
struct tn_plot *tn_fig_jain(const struct tn_fairness *f, const struct tn_fig_cfg *fc);
struct tn_plot *tn_fig_parallel(const struct tn_parallel *g, const struct tn_fig_cfg *fc);
/* Goodput of each flow against the traces' labelled parameter ("rtt=10ms" -> 10). */
struct tn_plot *tn_fig_exp_goodput(const struct tn_experiment *e, const struct tn_fig_cfg *fc);
/* Throughput ratio of the first to the second flow, for traces with two flows. */
struct tn_plot *tn_fig_exp_ratio(const struct tn_experiment *e, const struct tn_fig_cfg *fc);
/* The number in a label "name=12.5unit", or NAN. */
double tn_fig_label_value(const char *label);

#endif
