/* render_long_int.h - private: parts of the long report (-l) kept in their own files. */
#ifndef TN_RENDER_LONG_INT_H
#define TN_RENDER_LONG_INT_H

#include <stdio.h>

#include "analysis.h"

/* The DFCP rows of one connection (render_long_dfcp.c): per-direction counters side by side,
 * then the connection's DFCP inference (life, blocks, window, rates, limiter). */
void tn_long_dfcp_rows(FILE *out, const struct tn_conn *c);

#endif
