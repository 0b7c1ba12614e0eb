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

static uint64_t bytes_of(const struct tn_conn *c)
{
    return c->d[TN_A2B].data_bytes + c->d[TN_B2A].data_bytes;
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

void tn_signif_init(struct tn_signif *s, const struct tn_analyzer *a, const unsigned *sel, size_t nsel, bool all)
{
    s->all = all;
    s->max_bytes = 0;
    s->total = s->kept = 0;
    for (size_t i = 0; i < tn_analyzer_conn_count(a); i++) {
        const struct tn_conn *c = tn_analyzer_conn(a, i);
        if (picked(sel, nsel, c->idx) && bytes_of(c) > s->max_bytes)
            s->max_bytes = bytes_of(c);
    }
    for (size_t i = 0; i < tn_analyzer_conn_count(a); i++) {
        const struct tn_conn *c = tn_analyzer_conn(a, i);
        if (!picked(sel, nsel, c->idx) || bytes_of(c) == 0)
            continue;
        s->total++;
        s->kept += tn_signif_keep(s, c);
    }
}

/* RFC 6928 §2: IW = min(10*SMSS, max(2*SMSS, 14600)) bytes.  SMSS is at most the smaller MSS the
 * two ends announced; RFC 879's 536 when neither was seen. */
static uint64_t initial_window(const struct tn_conn *c)
{
    uint64_t mss = 0;
    for (unsigned d = 0; d < 2; d++)
        if (c->d[d].mss_seen && c->d[d].mss && (!mss || c->d[d].mss < mss))
            mss = c->d[d].mss;
    if (!mss)
        mss = 536;
    uint64_t lo = 2 * mss > 14600 ? 2 * mss : 14600;
    return 10 * mss < lo ? 10 * mss : lo;
}

static bool beyond_initial_window(const struct tn_conn *c)
{
    uint64_t iw = initial_window(c);
    return c->d[TN_A2B].data_bytes > iw || c->d[TN_B2A].data_bytes > iw;
}

bool tn_signif_keep(const struct tn_signif *s, const struct tn_conn *c)
{
    uint64_t b = bytes_of(c);
    if (b == 0)
        return false;
    return s->all || (double)b >= TN_SIGNIF_SHARE * (double)s->max_bytes || beyond_initial_window(c);
}
