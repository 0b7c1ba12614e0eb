/* outputs.h - the outputs of a run as one table: the report sections on standard output and
 * every file the options ask for, each row a {name, reads, asked, ready, write}.  Private to cli/. */
#ifndef TN_CLI_OUTPUTS_H
#define TN_CLI_OUTPUTS_H

#include "analysis.h"
#include "multi.h"
#include "options.h"
#include "render.h"

/* What the rows read: the finished analysis, the selection and time window of the options, and
 * the multi-flow results. */
struct tn_out_ctx {
    const struct tn_options *o;
    const struct tn_analyzer *an;
    struct tn_view view;
    struct tn_selection sel;
    unsigned *picked;          /* the --connection picks as numbers (NULL: none) */
    size_t npicked;
    struct tn_multi_results multi;
    struct tn_truth *truth;    /* --truth, read once for the accuracy report and the cwnd figures */
};

/* Every wanted row in table order.  q2 and linkq (NULL when the input has none) are the
 * two-point and ns-2 results.  A row that fails is reported, the others are still written.
 * Returns the exit status. */
int tn_outputs_write(const struct tn_options *o, const struct tn_analyzer *an, const struct tn_q2_result *q2,
                     const struct tn_linkq *linkq);

/* Do the outputs o asks for read only the connections' briefs (the connection list and the
 * trace summary: -q, or no option that writes more)?  Computed from the outputs table's `reads`
 * column and what is read before the rows (picks, the --from/--to selection, the multi-flow
 * results).  Then the ranks of an MPI job send rank 0 only the briefs (cluster_mpi.c). */
bool tn_outputs_briefs_only(const struct tn_options *o);

/* The connection numbers the --connection picks name (NULL when there are none); caller frees. */
unsigned *tn_outputs_resolve_picks(const struct tn_options *o, const struct tn_analyzer *an, size_t *n);

#endif
