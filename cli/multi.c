/* multi.c - the multi-flow results of a run (issue 7): fairness, parallel transfers and the
 * single-point queue estimate, computed from the finished analysis. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "multi.h"

static size_t data_conns(const struct tn_analyzer *an)
{
    size_t n = 0;
    for (size_t i = 0; i < tn_analyzer_conn_count(an); i++) {   /* briefs: nothing read back */
        struct tn_conn_brief b;
        tn_analyzer_brief(an, i, &b);
        n += b.data_bytes[TN_A2B] + b.data_bytes[TN_B2A] > 0;
    }
    return n;
}

void tn_multi_fair_cfg(const struct tn_options *o, const unsigned *sel, size_t nsel, struct tn_fair_cfg *fc)
{
    memset(fc, 0, sizeof *fc);
    fc->by = (enum tn_fair_by)o->fair_by;
    fc->window_ns = o->fair_window_ns ? o->fair_window_ns : o->interval_ns;
    fc->sel = sel;
    fc->nsel = nsel;
    fc->all_connections = o->all_connections;
}

/* fairness is computed for the files too, where two connections carry data */
static bool files(const struct tn_options *o)
{
    return o->csv_dir || o->plot_dir;
}
static bool asked_q1(const struct tn_options *o)
{
    return o->queue_estimate || o->ningress || o->ingress_if;
}

bool tn_multi_asked(const struct tn_options *o)
{
    return o->fairness || files(o) || o->parallel_window_ns || asked_q1(o);
}

void tn_multi_compute(const struct tn_options *o, const struct tn_analyzer *an, const unsigned *sel, size_t nsel,
                      struct tn_multi_results *r)
{
    r->m.an = an;
    if (o->fairness || (files(o) && data_conns(an) >= 2)) {
        struct tn_fair_cfg fc;
        tn_multi_fair_cfg(o, sel, nsel, &fc);
        tn_fairness_compute(an, &fc, &r->fair);
        r->have_fair = true;
        r->m.fair = &r->fair;
    }
    if (o->parallel_window_ns) {
        r->npar = tn_parallel_find(an, o->parallel_window_ns, o->fair_window_ns ? o->fair_window_ns : o->interval_ns,
                                   &r->par);
        r->m.par = r->par;
        r->m.npar = r->npar;
    }
    if (asked_q1(o)) {
        tn_q1_estimate(an, &r->q1);
        r->have_q1 = true;
        r->m.q1 = &r->q1;
    }
}

void tn_multi_fini(struct tn_multi_results *r)
{
    if (r->have_fair)
        tn_fairness_fini(&r->fair);
    tn_parallel_free(r->par, r->npar);
    if (r->have_q1)
        tn_q1_fini(&r->q1);
    *r = (struct tn_multi_results){0};
}
