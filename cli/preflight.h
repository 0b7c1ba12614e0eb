/* preflight.h - checks of the options' files before any packet is read.  Private to cli/. */
#ifndef TN_PREFLIGHT_H
#define TN_PREFLIGHT_H

#include "options.h"

/* Output folders and files writable, --truth readable, --ns2 an ns-2 trace.  Returns 0, or the
 * exit status (TN_EXIT_INPUT) after one message per problem on stderr. */
int tn_cli_preflight(const struct tn_options *o);

#endif
