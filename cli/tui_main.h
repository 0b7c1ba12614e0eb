/* tui_main.h - composition of the --tui mode (private to cli/). */
#ifndef TN_TUI_MAIN_H
#define TN_TUI_MAIN_H

#include "options.h"

/* Run the dashboard over the options' input, then print the final report and complete every
 * output file.  Returns the exit status. */
int tn_tui_main(const struct tn_options *o);

#endif
