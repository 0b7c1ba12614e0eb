/* render.h - public interface of the render layer: analysis results -> text reports and CSV.
 * Render reads the analysis model through const accessors and never frees analysis objects. */
#ifndef TN_RENDER_H
#define TN_RENDER_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis.h"
#include "common.h"

/* Which connections to show: all when n == 0, else those whose idx is listed. */
struct tn_selection {
    const unsigned *idx;
    size_t n;
};

bool tn_selected(const struct tn_selection *sel, unsigned idx);

/* Numbered connection list: index, endpoints, protocol, packets each way, state. */
void tn_report_list(FILE *out, const struct tn_analyzer *a, const struct tn_selection *sel);

/* Long per-connection statistics (-l), both directions side by side. */
void tn_report_long(FILE *out, const struct tn_analyzer *a, const struct tn_selection *sel);

/* Trace summary: packets read, TCP, DFCP, other, anomalies by kind with their first packet. */
void tn_report_summary(FILE *out, const struct tn_analyzer *a);

/* CSV files of csv-contract.md, each written as NAME.tmp in dir and renamed when complete.
 * dir is created if needed.  Return 0 or -TN_EIO with err naming the file. */
int tn_csv_write_connections(const char *dir, const struct tn_analyzer *a,
                             const struct tn_selection *sel, struct tn_err *err);

#endif
