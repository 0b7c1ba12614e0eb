/* views_signif.c - which connections count in the multi-flow views.
 *
 * One rule everywhere (fairness, experiments, parallel transfers, the figure sets, the dashboard):
 * a connection is significant when it carried at least TN_SIGNIF_SHARE of the bytes of the
 * largest connection considered.  Measurement tools open a control connection beside each
 * transfer (iperf3's carries a few hundred bytes of JSON parameters and results, iperf_api.c
 * send_parameters/exchange_results), which is no competitor of the transfer; 1% keeps any
 * transfer that ran a hundredth of the largest one's volume.  A connection that sent more than an
 * initial window in one direction is significant whatever its share: it had to wait for ACKs, so
 * congestion control governed it and it competed (a starved flow beside a large one is exactly
 * what a fairness view must show).  --all-connections keeps them all.
 */
#include "views.h"

static uint64_t bytes_of(const struct tn_conn_brief *b)
{
    return b->data_bytes[TN_A2B] + b->data_bytes[TN_B2A];
}

static bool picked(const unsigned *sel, size_t nsel, unsigned idx)
{
    if (!sel || nsel == 0)
        return true;
    for (size_t i = 0; i < nsel; i++)
        if (sel[i] == idx)
            return true;
    return false;
}

/* from the briefs: connections retired before the end of the run count too */
void tn_signif_init(struct tn_signif *s, const struct tn_analyzer *a, const unsigned *sel, size_t nsel, bool all)
{
    s->all = all;
    s->max_bytes = 0;
    s->total = s->kept = 0;
    struct tn_conn_brief b;
    for (size_t i = 0; i < tn_analyzer_conn_count(a); i++) {
        tn_analyzer_brief(a, i, &b);
        if (picked(sel, nsel, b.idx) && bytes_of(&b) > s->max_bytes)
            s->max_bytes = bytes_of(&b);
    }
    for (size_t i = 0; i < tn_analyzer_conn_count(a); i++) {
        tn_analyzer_brief(a, i, &b);
        if (!picked(sel, nsel, b.idx) || bytes_of(&b) == 0)
            continue;
        s->total++;
        s->kept += tn_signif_keep_brief(s, &b);
    }
}

/* RFC 6928 §2: IW = min(10*SMSS, max(2*SMSS, 14600)) bytes.  SMSS is at most the smaller MSS the
 * two ends announced; RFC 879's 536 when neither was seen. */
static uint64_t initial_window(const struct tn_conn_brief *b)
{
    uint64_t mss = 0;
    for (unsigned d = 0; d < 2; d++)
        if (b->mss[d] && (!mss || b->mss[d] < mss))
            mss = b->mss[d];
    if (!mss)
        mss = 536;
    uint64_t lo = 2 * mss > 14600 ? 2 * mss : 14600;
    return 10 * mss < lo ? 10 * mss : lo;
}

static bool beyond_initial_window(const struct tn_conn_brief *b)
{
    uint64_t iw = initial_window(b);
    return b->data_bytes[TN_A2B] > iw || b->data_bytes[TN_B2A] > iw;
}

bool tn_signif_keep_brief(const struct tn_signif *s, const struct tn_conn_brief *b)
{
    uint64_t n = bytes_of(b);
    if (n == 0)
        return false;
    return s->all || (double)n >= TN_SIGNIF_SHARE * (double)s->max_bytes || beyond_initial_window(b);
}

bool tn_signif_keep(const struct tn_signif *s, const struct tn_conn *c)
{
    struct tn_conn_brief b;
    tn_conn_brief_of(c, &b);
    return tn_signif_keep_brief(s, &b);
}
