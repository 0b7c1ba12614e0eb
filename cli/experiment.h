/* experiment.h - --experiment: one analyzer per labelled trace, then the experiment table,
 * experiment.csv and its figures.  Private to cli/. */
#ifndef TN_CLI_EXPERIMENT_H
#define TN_CLI_EXPERIMENT_H

#include <stdio.h>

#include "options.h"

struct tn_analyzer;
struct tn_analysis_cfg;

/* Returns the exit status. */
int tn_experiment_main(const struct tn_options *o);

/* The analysis config of an experiment's traces. */
void tn_experiment_analysis_cfg(const struct tn_options *o, struct tn_analysis_cfg *acfg);

/* Trace i of the experiment read into a new analyzer, finished; *status gets the exit status
 * its input deserves. */
struct tn_analyzer *tn_experiment_read(const struct tn_options *o, int i, int *status);

/* The experiment over the analyzers get(arg, i, &status) hands out in trace order (each freed
 * after its rows are taken), then its report, CSV and figures: tn_experiment_main with
 * tn_experiment_read, or the ranks of an MPI job (cluster/).  Returns the exit status. */
int tn_experiment_run(const struct tn_options *o, struct tn_analyzer *(*get)(void *arg, int i, int *status),
                      void *arg);

#endif
