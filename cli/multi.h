/* multi.h - the multi-flow results of a run (fairness, parallel transfers, the single-point
 * queue estimate) computed from the finished analysis for the outputs table.  Private to cli/. */
#ifndef TN_CLI_MULTI_H
#define TN_CLI_MULTI_H

#include <stdbool.h>

#include "analysis.h"
#include "options.h"
#include "render.h"

struct tn_multi_results {
    struct tn_fairness fair;
    bool have_fair;
    struct tn_parallel *par;
    size_t npar;
    struct tn_q1_result q1;
    bool have_q1;
    struct tn_multi m;         /* the views of the above the renderers take */
};

/* The fairness config of the options over the selected connections (sel NULL: all). */
void tn_multi_fair_cfg(const struct tn_options *o, const unsigned *sel, size_t nsel, struct tn_fair_cfg *fc);

/* Do the options ask for any of them?  They read whole connections (tn_outputs_briefs_only). */
bool tn_multi_asked(const struct tn_options *o);

/* What the options ask for (fairness also whenever files are written and two connections carry
 * data).  m.q2 and m.linkq are left to the caller. */
void tn_multi_compute(const struct tn_options *o, const struct tn_analyzer *an, const unsigned *sel, size_t nsel,
                      struct tn_multi_results *r);
void tn_multi_fini(struct tn_multi_results *r);

#endif
