/* render_long_int.h - private: parts of the long report (-l) kept in their own files. */
#ifndef TN_RENDER_LONG_INT_H
#define TN_RENDER_LONG_INT_H

#include <stdint.h>
#include <stdio.h>

#include "analysis.h"
#include "render_line.h"

/* One row of the two-column table (render_long.c): label, the a->b value, the b->a value. */
void tn_long_row_s(FILE *out, const char *label, const char *a, const char *b);
void tn_long_row_u(FILE *out, const char *label, uint64_t a, uint64_t b);

/* The inference part of a TCP connection's report (render_infer.c), onto l. */
void tn_report_tcp_inference_line(struct tn_line *l, const struct tn_conn *c);

/* The DFCP rows of one connection (render_long_dfcp.c): per-direction counters side by side,
 * then the connection's DFCP inference (life, blocks, window, rates, limiter). */
void tn_long_dfcp_rows(FILE *out, const struct tn_conn *c);

#endif
