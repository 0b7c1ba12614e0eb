/* experiment.h - --experiment: one analyzer per labelled trace, then the experiment table,
 * experiment.csv and its figures.  Private to cli/. */
#ifndef TN_CLI_EXPERIMENT_H
#define TN_CLI_EXPERIMENT_H

#include <stdio.h>

#include "options.h"

/* Returns the exit status. */
int tn_experiment_main(const struct tn_options *o);

#endif
