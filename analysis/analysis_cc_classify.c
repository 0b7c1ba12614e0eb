/* analysis_cc_classify.c - which congestion-control flavour the sender runs, from the replays
 * of every flavour (analysis_tcp_cwnd.c) against what the flow showed:
 *  - the window fit: median |replayed window - flight| / flight over the ACKs outside episodes;
 *  - the decrease at each fast recovery (flight after / before) against the replay's own
 *    (Reno 0.5, CUBIC 0.7, BIC 0.8, Scalable 0.875, HighSpeed 0.5 down to 0.56 at 118
 *    segments, H-TCP minRTT/maxRTT, Illinois 0.5-0.875, Westwood BWE x RTTmin, BBR none);
 *  - ProbeRTT dips (BBR only drains to 4 segments for 200 ms outside a loss or an idle period).
 * The score is the fit error plus the decrease error; the lowest wins among the flavours whose
 * replay was checked against ground truth (tn_cc_ops.checked); the others are scored and shown.  Flavours whose replays
 * are identical on the flow (e.g. Hybla at RTTs up to 25 ms is Reno by definition) are one
 * hypothesis, named by the first in flavours.def.  The best must beat the next distinct one
 * either on the window (a paired sign test over the same ACKs, two-sided 5%) or on the
 * decrease by at least one segment of the median flight (the window is seen in whole
 * segments); otherwise it is a tie: unknown.  Too little evidence is unknown too. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "analysis_int.h"
#include "cc/cc.h"

#define MIN_FIT TN_CC_MIN_FIT
#define SAME 1e-9                  /* replays this close are the same replay */
#define DIP_PENALTY 0.25           /* per ProbeRTT dip a flavour without ProbeRTT cannot explain */

struct cand {
    double score, fit, dec;
    bool scored, candidate;    /* candidate: the flavour's replay was checked against truth */
};

static double obs_median(const struct tn_cc_obs *obs)
{
    double v[TN_BETA_MAX];
    unsigned n = obs->nbetas < TN_BETA_MAX ? obs->nbetas : TN_BETA_MAX;
    if (n)   /* betas is NULL until the first decrease (allocated at first use) */
        memcpy(v, obs->betas, n * sizeof *v);
    for (unsigned i = 1; i < n; i++)   /* insertion sort: at most TN_BETA_MAX values */
        for (unsigned j = i; j > 0 && v[j] < v[j - 1]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return n ? v[n / 2] : -1;
}

/* Paired sign test (two-sided 5%: |z| >= 1.96) over the rounds both fits share: is a's
 * open-loop window closer to the round's flight than b's on significantly more of them? */
#define SIGN_Z 1.96

static bool fits_better(const struct tn_cc_fit *a, const struct tn_cc_fit *b, unsigned rounds, double *z)
{
    *z = 0;
    if (a->nerr != b->nerr || !a->nerr)
        return a->err_med >= 0 && (b->err_med < 0 || a->err_med < b->err_med);
    double wins = 0, losses = 0;
    for (unsigned i = 0; i < a->nerr; i++) {
        wins += a->err[i] < b->err[i] - SAME;
        losses += a->err[i] > b->err[i] + SAME;
    }
    (void)rounds;
    if (wins + losses > 0)
        *z = (wins - losses) / sqrt(wins + losses);
    return *z >= SIGN_Z;
}

static bool same_replay(const struct tn_cc_fit *a, const struct tn_cc_fit *b)
{
    return a->nerr == b->nerr && fabs(a->err_med - b->err_med) < SAME && a->nbeta_pred == b->nbeta_pred &&
           fabs(a->beta_pred - b->beta_pred) < SAME;
}

static size_t add(char *buf, size_t len, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static size_t add(char *buf, size_t len, size_t at, const char *fmt, ...)
{
    if (at >= len)
        return at;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf + at, len - at, fmt, ap);
    va_end(ap);
    return k > 0 ? at + (size_t)k : at;
}

void tn_cc_classify(const struct tn_cc_fit *fits, unsigned n, const struct tn_cc_obs *obs,
                    struct tn_tcp_infer *inf)
{
    struct cand c[TN_CC_COUNT];
    double beta_obs = obs_median(obs);
    double worst_dec = 0;
    inf->flavor = TN_CC_UNKNOWN;
    inf->flavor_confidence = 0;
    inf->beta_n = obs->nbetas;
    inf->beta = beta_obs;
    for (unsigned i = 0; i < n; i++)
        if (beta_obs >= 0 && fits[i].nbeta_pred)
            worst_dec = fmax(worst_dec, fabs(beta_obs - fits[i].beta_pred));
    unsigned scored = 0;
    double flight_med = 0;
    for (unsigned i = 0; i < n; i++) {
        const struct tn_cc_fit *f = &fits[i];
        struct cand *k = &c[i];
        bool fit_ok = f->nerr >= MIN_FIT;
        k->fit = fit_ok ? f->err_med : 0;
        k->dec = beta_obs < 0 ? 0 : f->nbeta_pred ? fabs(beta_obs - f->beta_pred) : worst_dec;
        k->scored = fit_ok || beta_obs >= 0;
        k->candidate = k->scored && f->ops->checked;
        if (obs->probe_rtt_dips && !f->ops->cong_control)
            k->dec += fmin(1, DIP_PENALTY * obs->probe_rtt_dips);
        k->score = k->fit + k->dec;
        inf->cc_score[i + 1] = k->scored ? k->score : -1;
        if (k->scored) {
            scored++;
            flight_med = fmax(flight_med, f->flight_med);
        }
    }
    char *ev = inf->cc_evidence;
    size_t len = sizeof inf->cc_evidence, at = 0;
    ev[0] = 0;
    if (!scored) {
        snprintf(ev, len, "too little evidence: fewer than %d window-clocked round trips and no loss", MIN_FIT);
        return;
    }
    int best = -1;
    for (unsigned i = 0; i < n; i++)
        if (c[i].candidate && (best < 0 || c[i].score < c[best].score - SAME))
            best = (int)i;
    if (best < 0) {
        snprintf(ev, len, "too little evidence for the flavours checked against ground truth");
        return;
    }
    /* the best distinct alternative */
    int second = -1;
    for (unsigned i = 0; i < n; i++)
        if (c[i].candidate && (int)i != best && !same_replay(&fits[i], &fits[best]) &&
            (second < 0 || c[i].score < c[second].score))
            second = (int)i;
    double resolution = flight_med > 1 ? 1 / flight_med : 1;
    if (beta_obs >= 0)
        at = add(ev, len, at, "decrease %.2f x at a loss", beta_obs);
    if (beta_obs >= 0 && obs->nbetas > 1)
        at = add(ev, len, at, " (median of %u)", obs->nbetas);
    at = add(ev, len, at, "%sscore (growth + decrease, lower is better; *: not checked, not named): ",
             at ? "; " : "");
    /* the three best, in order */
    bool used[TN_CC_COUNT] = {false};
    for (int shown = 0; shown < 4; shown++) {
        int k = -1;
        for (unsigned i = 0; i < n; i++)
            if (c[i].scored && !used[i] && (k < 0 || c[i].score < c[k].score))
                k = (int)i;
        if (k < 0)
            break;
        used[k] = true;
        at = add(ev, len, at, "%s%s%s %.2f", shown ? ", " : "", fits[k].ops->name, fits[k].ops->checked ? "" : "*",
                 c[k].score);
    }
    if (obs->probe_rtt_dips)
        at = add(ev, len, at, "; %u ProbeRTT dips (4 segments, 200 ms)", obs->probe_rtt_dips);
    if (obs->min_rtt_ms > 0)
        at = add(ev, len, at, "; RTT min %.1f ms", obs->min_rtt_ms);
    if (obs->srtt_ms > 0 && obs->min_rtt_ms > 0)
        at = add(ev, len, at, ", smoothed %.1f ms", obs->srtt_ms);
    /* flavours that replay the same as the best: one hypothesis */
    bool first_same = true;
    for (unsigned i = 0; i < n; i++)
        if ((int)i != best && c[i].candidate && same_replay(&fits[i], &fits[best])) {
            at = add(ev, len, at, "%s%s", first_same ? "; same replay: " : ", ", fits[i].ops->name);
            first_same = false;
        }
    double z = 0;
    bool fit_wins = second >= 0 && fits_better(&fits[best], &fits[second], obs->rounds, &z);
    bool dec_wins = second >= 0 && c[second].dec - c[best].dec >= resolution;
    if (second >= 0)
        at = add(ev, len, at, "; against %s: growth closer in more rounds (sign test z %.1f), decrease off by %.2f vs %.2f",
                 fits[second].ops->name, z, c[best].dec, c[second].dec);
    if (second >= 0 && !fit_wins && !dec_wins) {
        at = add(ev, len, at, "; tie: %s and %s not told apart", fits[best].ops->name, fits[second].ops->name);
        return;
    }
    /* a flavour not yet checked that explains the flow better on both counts (growth and
     * decrease): naming a checked one would be a guess */
    int rival = -1;
    for (unsigned i = 0; i < n; i++)
        if (c[i].scored && !c[i].candidate && !same_replay(&fits[i], &fits[best]) &&
            (rival < 0 || c[i].score < c[rival].score))
            rival = (int)i;
    double zr = 0;
    if (rival >= 0 && c[rival].score < c[best].score && fits_better(&fits[rival], &fits[best], obs->rounds, &zr) &&
        c[best].dec - c[rival].dec >= resolution) {
        add(ev, len, at, "; %s* explains it better on growth and decrease", fits[rival].ops->name);
        return;
    }
    inf->flavor = (enum tn_cc_flavor)(best + 1);
    double conf = second < 0 ? 1 : c[second].score > 0 ? (c[second].score - c[best].score) / c[second].score : 0;
    /* and the margin over every flavour replayed, checked or not */
    if (rival >= 0)
        conf = fmin(conf, c[rival].score > c[best].score ? (c[rival].score - c[best].score) / c[rival].score : 0);
    /* more losses and more window-limited ACKs, more weight: n / (n + 1) of the evidence units */
    double units = obs->nbetas + (double)fits[best].nerr / MIN_FIT;   /* rounds in units of 8 */
    inf->flavor_confidence = conf * units / (units + 1);
    at = add(ev, len, at, "; %s %s", fits[best].ops->name, fits[best].ops->signature);
}
