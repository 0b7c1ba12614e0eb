/* multi.h - the multi-flow views of issue 7 in the composition root: two capture points,
 * ns-2 traces, experiments (each a run of its own) and the fairness / parallel-transfer /
 * queue-estimate outputs added to an ordinary run.  Private to cli/. */
#ifndef TN_CLI_MULTI_H
#define TN_CLI_MULTI_H

#include <stdbool.h>

#include "analysis.h"
#include "options.h"

/* Is the input two capture points, an ns-2 trace or an experiment (tn_cli_multi_main runs it)? */
bool tn_cli_multi_input(const struct tn_options *o);

/* Run such an input from reading to the last output file.  Returns the exit status. */
int tn_cli_multi_main(const struct tn_options *o);

/* What the multi-flow outputs need recorded (packet records for the windowed series, series for
 * the queue estimate), added to acfg. */
void tn_cli_multi_analysis_cfg(const struct tn_options *o, struct tn_analysis_cfg *acfg);

/* After the ordinary outputs of a run: fairness, parallel transfers and the queue estimate
 * (text when asked for; series.csv rows and figures with --csv / --plot).  Returns the exit
 * status of the files written. */
int tn_cli_multi_outputs(const struct tn_options *o, const struct tn_analyzer *an);

/* After an input failed to open: for every FILE that is an ns-2 trace, tell the user to read it
 * with --ns2 (plain FILE arguments are packet traces only). */
void tn_cli_multi_hint(const struct tn_options *o);

#endif
