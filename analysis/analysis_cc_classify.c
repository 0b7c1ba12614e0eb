/* analysis_cc_classify.c - which congestion-control flavour the sender runs, from the replays
 * of every flavour (analysis_tcp_cwnd.c) against what the flow showed:
 *  - the decrease at each fast recovery: the window where the sender stopped slow-starting
 *    after it (its new ssthresh) over the window at the loss, against each flavour's own
 *    (Reno 0.5, CUBIC 0.7, BIC 0.8, Scalable 0.875, HighSpeed 0.5 down to 0.56 at 118
 *    segments, H-TCP minRTT/maxRTT, Illinois 0.5-0.875, Westwood BWE x RTTmin, BBR none);
 *  - the growth shape between losses: each flavour's open-loop copy against each window-clocked
 *    round's largest flight;
 *  - the flight at the end of each recovery: BBR restores its window, every loss-based flavour
 *    has cut it (the smallest cut is Scalable's and Illinois's 1/8);
 *  - ProbeRTT dips (BBR only drains to 4 segments for 200 ms outside a loss or an idle period).
 * The score is the growth error plus the decrease error; the lowest wins if it beats every
 * other distinct flavour, on growth or on decrease and significantly worse on neither;
 * flavours whose replays are identical on the flow are one hypothesis, named by the first in
 * flavours.def.  Otherwise the verdict is unknown and the evidence names the set.  Without a
 * loss the loss-based flavours are told apart by their growth alone, which must then beat
 * every rival significantly, and such a verdict stays below even odds. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "analysis_int.h"
#include "cc/cc.h"

#define MIN_FIT TN_CC_MIN_FIT
#define SAME 1e-9                  /* replays this close are the same replay */
#define DIP_PENALTY 0.25           /* per ProbeRTT dip a flavour without ProbeRTT cannot explain */
#define SIGN_Z 1.96                /* paired sign tests, two-sided 5% */
/* The decrease is measured to about a segment (a round's own growth and the flight's
 * resolution): two segments of the median flight apart is beyond that error. */
#define DEC_SEGMENTS 2.0
#define NO_CUT TN_CC_NO_CUT   /* no cut at a recovery (cc.h) */

struct cand {
    double score, fit, dec;
    bool scored, rival, candidate;   /* rival: not ruled out; candidate: may be named */
    bool as_reno;              /* Reno by its own definition on this flow: Reno stands for it */
};

/* Is the flavour Reno all through this flow, by its own definition (tn_cc_ops.reno_below,
 * reno_rtt_ms)?  Then no evidence can tell the two apart. */
static bool reno_here(const struct tn_cc_ops *ops, const struct tn_cc_obs *obs)
{
    if (!strcmp(ops->name, "reno"))
        return false;
    if (ops->reno_below > 0 && obs->flight_max > 0 && obs->flight_max <= ops->reno_below)
        return true;
    return ops->reno_rtt_ms > 0 && obs->min_srtt_ms > 0 && obs->min_srtt_ms < ops->reno_rtt_ms;
}

/* The median of the values >= 0 (-1 marks a slot without one). */
static double obs_median(const double *vals, unsigned nvals)
{
    double v[TN_BETA_MAX];
    unsigned n = 0;
    for (unsigned i = 0; i < nvals && n < TN_BETA_MAX; i++)
        if (vals[i] >= 0)
            v[n++] = vals[i];
    for (unsigned i = 1; i < n; i++)   /* insertion sort: at most TN_BETA_MAX values */
        for (unsigned j = i; j > 0 && v[j] < v[j - 1]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return n ? v[n / 2] : -1;
}

static unsigned obs_count(const double *vals, unsigned nvals)
{
    unsigned n = 0;
    for (unsigned i = 0; i < nvals; i++)
        n += vals[i] >= 0;
    return n;
}

static double sign_z(double wins, double losses)
{
    return wins + losses > 0 ? (wins - losses) / sqrt(wins + losses) : 0;
}

/* Growth: is a's open-loop window closer to the round's flight than b's on more rounds?
 * Two flavours that grow by the same function (Westwood+ grows as Reno: tcp_westwood.c's
 * cong_avoid is tcp_reno_cong_avoid, in Linux 6.x as in ns-2's 2.6.22 copy) are not told
 * apart by it: their copies differ only where each began, at its own decrease, which the
 * decrease test judges. */
static double growth_z(const struct tn_cc_fit *a, const struct tn_cc_fit *b)
{
    if (a->nerr != b->nerr || !a->nerr || a->ops->cong_avoid == b->ops->cong_avoid)
        return 0;
    double wins = 0, losses = 0;
    for (unsigned i = 0; i < a->nerr; i++) {
        wins += a->err[i] < b->err[i] - SAME;
        losses += a->err[i] > b->err[i] + SAME;
    }
    return sign_z(wins, losses);
}

/* How far a decrease seen is from the flavour's own (or from its other version's). */
static double dec_err(const struct tn_cc_fit *f, double seen, double own)
{
    double e = fabs(seen - own);
    return f->ops->beta_alt > 0 ? tn_fmin(e, fabs(seen - f->ops->beta_alt)) : e;
}

/* Decrease: is a's own decrease closer to the one seen than b's at more recoveries (a
 * difference within one segment of that recovery's window is a tie)? */
static double decrease_z(const struct tn_cc_fit *a, const struct tn_cc_fit *b, const struct tn_cc_obs *obs)
{
    double wins = 0, losses = 0;
    for (unsigned i = 0; i < obs->nknees; i++) {
        double k = obs->knees[i];
        if (k < 0 || i >= a->nslots || i >= b->nslots || a->betas[i] < 0 || b->betas[i] < 0)
            continue;
        double res = 1 / obs->knee_win[i];
        double ea = dec_err(a, k, a->betas[i]), eb = dec_err(b, k, b->betas[i]);
        wins += ea < eb - res;
        losses += ea > eb + res;
    }
    return sign_z(wins, losses);
}

/* Vegas's rule against a loss-based flavour's, on the rounds after one that held more than
 * Vegas's beta in the queue (tn_cc_obs.queue_falls/rises): Vegas takes a segment off the
 * window after such a round (tcp_vegas.c), a loss-based flavour never lowers it without a loss
 * (RFC 5681 §3.1).  Signed for a: + where the rounds side with a, 0 where the pair is not a
 * delay-based and a loss-based flavour. */
static bool is_kind(const struct tn_cc_fit *f, const char *kind)
{
    return !strcmp(f->ops->kind, kind);
}

static double queue_z(const struct tn_cc_obs *obs)
{
    return sign_z(obs->queue_falls, obs->queue_rises);
}

/* A flavour that lowers its window without a loss by at most fall_max segments a round (Vegas:
 * one) against the falls seen: those beyond that step by more than the flight's resolution
 * (DEC_SEGMENTS) against those within it (sign test), where at least one went beyond; 0 for a
 * flavour without such a bound. */
static double falls_beyond(const struct tn_cc_fit *f, const struct tn_cc_obs *obs, double *beyond, double *within)
{
    *beyond = *within = 0;
    if (f->ops->fall_max <= 0 || !obs->fall_sizes)
        return 0;
    for (unsigned k = 1; k < TN_CC_FALL_SIZES; k++)
        *(k > f->ops->fall_max + DEC_SEGMENTS ? beyond : within) += obs->fall_sizes[k];
    return *beyond > 0 ? sign_z(*beyond, *within) : 0;
}

/* The window's moves without a loss, signed for a: after a queue the window of a delay-based
 * flavour and BBR's fall where a loss-based flavour's never does (queue_z: BBR's ProbeBW 3/4
 * round and Drain lower it, tcp_bbr.c), and falls larger than Vegas's step are BBR's, not
 * Vegas's (BBR's 3/4 round takes a quarter of a BDP off at once). */
static double delay_z(const struct tn_cc_fit *a, const struct tn_cc_fit *b, const struct tn_cc_obs *obs)
{
    bool a_falls = is_kind(a, "delay-based") || is_kind(a, "model-based");
    bool b_falls = is_kind(b, "delay-based") || is_kind(b, "model-based");
    double beyond, within;
    if (a_falls && is_kind(b, "loss-based"))
        return queue_z(obs);
    if (is_kind(a, "loss-based") && b_falls)
        return -queue_z(obs);
    if (is_kind(a, "model-based") && is_kind(b, "delay-based"))
        return tn_fmax(0, falls_beyond(b, obs, &beyond, &within));
    if (is_kind(a, "delay-based") && is_kind(b, "model-based"))
        return -tn_fmax(0, falls_beyond(a, obs, &beyond, &within));
    return 0;
}

/* Identical on the flow: the same error at every fitted round and the same decreases (a
 * median alone can coincide: ns-2's BIC and CUBIC v2.1 at 50 Mbit/s x 80 ms had equal medians
 * with 37 of 133 rounds apart). */
static bool same_replay(const struct tn_cc_fit *a, const struct tn_cc_fit *b)
{
    if (a->nerr != b->nerr || a->nbeta_pred != b->nbeta_pred || fabs(a->beta_pred - b->beta_pred) >= SAME)
        return false;
    for (unsigned i = 0; i < a->nerr; i++)
        if (fabs(a->err[i] - b->err[i]) >= SAME)
            return false;
    return fabs(a->err_med - b->err_med) < SAME;
}

static size_t add(char *buf, size_t len, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Appends one clause; a clause that does not fit is left out whole, with the text ended by
 * " ..." and nothing added after it, so that the evidence never stops mid-sentence. */
#define EV_MORE " ..."

static size_t add(char *buf, size_t len, size_t at, const char *fmt, ...)
{
    if (at >= len)   /* full: a clause was left out */
        return at;
    size_t room = len - at - (sizeof EV_MORE - 1);   /* len > sizeof EV_MORE: the buffer's size */
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf + at, room, fmt, ap);
    va_end(ap);
    if (k >= 0 && (size_t)k < room)
        return at + (size_t)k;
    memcpy(buf + at, EV_MORE, sizeof EV_MORE);
    return len;
}

/* Does flavour a beat b?  By the decrease when their decreases differ beyond what the
 * recoveries seen can resolve (thr: DEC_SEGMENTS of the window at one recovery, falling as
 * 1/sqrt(n) with n of them, as a mean's error does, to one DEC_SEGMENTS), unless the
 * recoveries one by one say otherwise (sign test) or the growth is significantly against;
 * else by the growth (sign test). */
enum win { LOSES, BY_GROWTH, BY_DECREASE, BY_DELAY };

static enum win decrease_or_growth(double zg, double zd, double ddiff, double thr, double sd, double *strength);

static enum win beats(const struct tn_cc_fit *fits, const struct cand *c, int a, int b, const struct tn_cc_obs *obs,
                      double thr, double *zg_out, double *zd_out, double *strength)
{
    double zg = growth_z(&fits[a], &fits[b]);
    double zd = decrease_z(&fits[a], &fits[b], obs);
    double ddiff = c[b].dec - c[a].dec;
    *zg_out = zg;
    *zd_out = zd;
    /* how far beyond the threshold the deciding evidence is: 1/2 at it, towards 1 beyond; a
     * verdict that rests on the growth fit alone is held below even odds (x 1/2): the
     * open-loop copies are models, and their versions differ (ns-2 2.35 runs Linux 2.6.2x's
     * modules), where the decrease is the protocol's own number */
    double sd = tn_fmax(ddiff > 0 ? ddiff / (ddiff + thr) : 0, zd > 0 ? zd / (zd + SIGN_Z) : 0);
    double zq = delay_z(&fits[a], &fits[b], obs);
    *strength = 0;
    if (zd <= -SIGN_Z || ddiff <= -thr || zq <= -SIGN_Z)
        return LOSES;
    /* the window moved by a's rule against b's on significantly more rounds: the flavours'
     * own rules, as the decrease is, beyond the growth fit's models */
    double sq = zq >= SIGN_Z ? zq / (zq + SIGN_Z) : 0;
    enum win w = decrease_or_growth(zg, zd, ddiff, thr, sd, strength);
    if (sq > 0 && (w == LOSES || sq > *strength)) {
        *strength = sq;
        return BY_DELAY;
    }
    return w;
}

/* The decrease and the growth (beats) */
static enum win decrease_or_growth(double zg, double zd, double ddiff, double thr, double sd, double *strength)
{
    *strength = sd;
    /* closer on the decrease, and the growth not significantly against; four times as close
     * outweighs the growth fit (a model's open loop) */
    if ((ddiff >= thr || zd >= SIGN_Z) && (zg > -SIGN_Z || ddiff >= 4 * thr))
        return BY_DECREASE;
    /* closer on the growth, significantly, and the decrease not against: within half the
     * resolution, or within the resolution where the sign test over the losses does not hold it
     * against (H-TCP against BIC on ns-2's two flows at 20 Mbit/s x 40 ms: 9 losses, their
     * decreases off by 0.02 and 0.00, decrease z 0.4, growth z 11.3: a tie before) */
    *strength = zg > 0 ? zg / (zg + SIGN_Z) / 2 : 0;
    bool decrease_not_against = ddiff > -thr / 2 || (ddiff > -thr && zd > -SIGN_Z);
    return zg >= SIGN_Z && decrease_not_against ? BY_GROWTH : LOSES;
}

void tn_cc_classify(const struct tn_cc_fit *fits, unsigned n, const struct tn_cc_obs *obs,
                    struct tn_tcp_infer *inf)
{
    struct cand c[TN_CC_COUNT];
    double beta_obs = obs_median(obs->knees, obs->nknees);
    unsigned nknees = obs_count(obs->knees, obs->nknees);
    double beta_end = obs_median(obs->betas, obs->nbetas);
    /* ... of the recoveries whose loss did not end a slow start: after one that did, BBR's
     * flight is Drain's (Startup's queue emptied down to one BDP once the bandwidth stopped
     * growing, tcp_bbr.c bbr_check_drain), no cut it made (BBR at 50 Mbit/s x 80 ms, its two
     * recoveries in Startup: "flight after recovery 0.48 x before", named vegas at 0.52) */
    double open_betas[TN_BETA_MAX] = {0};
    unsigned nopen = 0;
    for (unsigned i = 0; i < obs->nbetas && nopen < TN_BETA_MAX; i++)
        if (!obs->betas_ss || !obs->betas_ss[i])
            open_betas[nopen++] = obs->betas[i];
    double beta_open = obs_median(open_betas, nopen);
    /* no cut at the recoveries: not a loss-based sender */
    bool no_cut = obs->nbetas >= 2 && beta_end >= NO_CUT;
    double flight_med0 = 0;
    for (unsigned i = 0; i < n; i++)
        flight_med0 = tn_fmax(flight_med0, fits[i].flight_med);
    /* ... and where the sender slowed down after a recovery, the knee shows no cut either (an
     * application that paused after it leaves the flight after the recovery high) */
    if (no_cut && beta_obs >= 0 && beta_obs < 7.0 / 8 - (flight_med0 > 1 ? DEC_SEGMENTS / flight_med0 : 1))
        no_cut = false;
    /* the window fell without a loss after a queue above Vegas's beta on significantly more
     * rounds than it rose: BBR lowers it so too (ProbeBW's 0.75 pacing gain after its 1.25
     * round, Drain: tcp_bbr.c), so it is a rival, unless a recovery cut the flight (BBR
     * restores its window when one ends: bbr_set_cwnd_to_recover_or_restore) */
    bool bbr_falls = queue_z(obs) >= SIGN_Z && !(beta_open >= 0 && beta_open < NO_CUT);
    /* the flight after the recoveries within its resolution (DEC_SEGMENTS of the median
     * flight) of the line between BBR's no cut and the least loss-based one (7/8), and the
     * recoveries one by one not significantly on one side of it (sign test): without ProbeRTT
     * dips that question, which the verdict rests on, is not answered (BBR at 1% random loss
     * reads 0.93-0.94 at its router and receiver, Scalable's 7/8 and Illinois's 0.875 read so
     * with a round's growth) */
    double res_cut = flight_med0 > 1 ? DEC_SEGMENTS / flight_med0 : 1;
    double above = 0, below = 0;
    for (unsigned i = 0; i < obs->nbetas; i++) {
        above += obs->betas[i] >= NO_CUT;
        below += obs->betas[i] >= 0 && obs->betas[i] < NO_CUT;
    }
    bool cut_unsure = obs->nbetas >= 2 && fabs(beta_end - NO_CUT) < res_cut && fabs(sign_z(above, below)) < SIGN_Z &&
                      !obs->probe_rtt_dips;
    double worst_dec = 0;
    inf->flavor = TN_CC_UNKNOWN;
    inf->flavor_confidence = 0;
    inf->beta_n = obs->nbetas;
    inf->beta = beta_end;
    for (unsigned i = 0; i < n; i++)
        if (beta_obs >= 0 && fits[i].nbeta_pred)
            worst_dec = tn_fmax(worst_dec, dec_err(&fits[i], beta_obs, fits[i].beta_pred));
    unsigned scored = 0;
    double flight_med = 0;
    for (unsigned i = 0; i < n; i++) {
        const struct tn_cc_fit *f = &fits[i];
        struct cand *k = &c[i];
        bool fit_ok = f->nerr >= MIN_FIT;
        bool model_based = f->ops->cong_control != NULL;
        k->fit = fit_ok ? f->err_med : 0;
        k->dec = beta_obs < 0 ? 0 : f->nbeta_pred ? dec_err(f, beta_obs, f->beta_pred) : worst_dec;
        k->scored = fit_ok || beta_obs >= 0;
        /* ruled out: a window kept at every loss rules out the flavours that cut it, and BBR
         * needs that, its ProbeRTT dips, its falls after a queue, or no recovery at all (then
         * nothing seen is against it: a loss-free BBR flow in a parking lot was named vegas at
         * 0.42, BBR's copy closest on 205 rounds).  Every rival may be named: without a decrease seen
         * only by its growth, significantly closer than every other rival's on the paired
         * rounds (beats: BY_GROWTH, confidence below 1/2); flavours that grow alike (Reno and
         * Westwood+, several below their low windows) then tie, and the verdict is unknown.
         * Not BBR where the sender runs Linux 2.6.22's modules (ns-2.35's Agent/TCP/Linux: a
         * trace without options): BBR came with Linux 4.9 */
        bool bbr_open = no_cut || obs->probe_rtt_dips > 0 || bbr_falls || !obs->nbetas;
        k->rival = k->scored && (model_based ? !obs->linux_2_6_22 && bbr_open : !no_cut);
        k->candidate = k->rival;
        k->as_reno = reno_here(f->ops, obs);
        if (k->as_reno)   /* one hypothesis with Reno, which is scored and named for both */
            k->candidate = false;
        /* replays identical on the flow are one hypothesis, named by the first of them in
         * flavours.def: a later one is not named on its own (its per-round errors may differ
         * by rounding where the first one's verdict was a tie) */
        for (unsigned j = 0; j < i && k->candidate; j++)
            if (c[j].rival && fits[j].nerr && same_replay(&fits[j], f))
                k->candidate = false;
        if (obs->probe_rtt_dips && !model_based)
            k->dec += tn_fmin(1, DIP_PENALTY * obs->probe_rtt_dips);
        k->score = k->fit + k->dec;
        inf->cc_score[i + 1] = k->scored ? k->score : -1;
        if (k->scored) {
            scored++;
            flight_med = tn_fmax(flight_med, f->flight_med);
        }
    }
    char *ev = inf->cc_evidence;
    size_t len = sizeof inf->cc_evidence, at = 0;
    ev[0] = 0;
    if (!scored) {
        if (obs->nbetas)   /* losses, but none whose decrease a knee showed */
            snprintf(ev, len, "too little evidence: fewer than %d window-clocked round trips and no decrease measured at a "
                              "loss (flight after recovery %.2f x before, %u recover%s)",
                     MIN_FIT, beta_end, obs->nbetas, obs->nbetas == 1 ? "y" : "ies");
        else
            snprintf(ev, len, "too little evidence: fewer than %d window-clocked round trips and no loss", MIN_FIT);
        return;
    }
    double res = flight_med > 1 ? DEC_SEGMENTS / flight_med : 1;
    if (beta_obs >= 0)
        at = add(ev, len, at, "decrease %.2f (ssthresh seen / window before, %u loss%s)", beta_obs, nknees,
                 nknees > 1 ? "es, median" : "");
    if (beta_end >= 0)
        at = add(ev, len, at, "%sflight after recovery %.2f x before", at ? "; " : "", beta_end);
    at = add(ev, len, at, "%sscores (growth + decrease): ", at ? "; " : "");
    bool used[TN_CC_COUNT] = {false};
    for (int shown = 0; shown < 3; shown++) {   /* the three best, in order */
        int k = -1;
        for (unsigned i = 0; i < n; i++)
            if (c[i].scored && !used[i] && (k < 0 || c[i].score < c[k].score))
                k = (int)i;
        if (k < 0)
            break;
        used[k] = true;
        at = add(ev, len, at, "%s%s %.2f", shown ? ", " : "", fits[k].ops->name, c[k].score);
    }
    if (obs->probe_rtt_dips)
        at = add(ev, len, at, "; %u ProbeRTT dips (4 segments, 200 ms)", obs->probe_rtt_dips);
    if (obs->min_rtt_ms > 0)
        at = add(ev, len, at, "; RTT min %.1f ms", obs->min_rtt_ms);
    if (obs->queue_falls + obs->queue_rises)
        at = add(ev, len, at, "; after a queue above 4 segments the window fell %u, rose %u times", obs->queue_falls,
                 obs->queue_rises);
    for (unsigned i = 0; i < n; i++) {   /* the falls beyond a bounded step (Vegas's), where they tell */
        double beyond, within;
        if (falls_beyond(&fits[i], obs, &beyond, &within) >= SIGN_Z)
            at = add(ev, len, at, ", %.0f of those falls by more than %.0f segments (%s lowers %.0f a round)", beyond,
                     fits[i].ops->fall_max + DEC_SEGMENTS, fits[i].ops->name, fits[i].ops->fall_max);
    }
    if (no_cut)
        at = add(ev, len, at, "; no cut at losses: not loss-based");
    /* the verdict beats every other distinct candidate (the lowest score first) */
    /* the decrease resolves DEC_SEGMENTS of the median window at the losses */
    double wmed = obs_median(obs->knee_win, obs->nknees);
    double thr = nknees && wmed > 1 ? DEC_SEGMENTS / wmed * tn_fmax(1, 2 / sqrt((double)nknees)) : res;
    if (cut_unsure) {
        add(ev, len, at, "; the flight after recovery within %.3f of %.4f, between no cut (BBR) and the least cut "
                         "(7/8), above it after %.0f recoveries, below after %.0f: not told apart",
            res_cut, NO_CUT, above, below);
        return;
    }
    int order[TN_CC_COUNT], nc = 0;
    for (unsigned i = 0; i < n; i++)
        if (c[i].candidate)
            order[nc++] = (int)i;
    if (!nc) {
        add(ev, len, at, "; no flavour modelled explains it");
        return;
    }
    for (int i = 1; i < nc; i++)   /* by score */
        for (int j = i; j > 0 && c[order[j]].score < c[order[j - 1]].score; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    int best = -1, rival = -1, lost_to = -1;
    double conf = 1, rz_g = 0, rz_d = 0, lz_g = 0, lz_d = 0;
    for (int oi = 0; oi < nc && best < 0; oi++) {   /* the one that beats all, by score */
        int cand = order[oi];
        int weakest = -1, beaten_by = -1;
        double wconf = 1, wg = 0, wd = 0, bg = 0, bd = 0;
        for (int other = 0; other < (int)n; other++) {
            if (other == cand || !c[other].rival || c[other].as_reno || same_replay(&fits[other], &fits[cand]))
                continue;
            double zg, zd, strength;
            if (beats(fits, c, cand, other, obs, thr, &zg, &zd, &strength) == LOSES) {
                beaten_by = other;
                bg = zg;
                bd = zd;
                break;
            }
            if (weakest < 0 || strength < wconf) {
                wconf = strength;
                weakest = other;
                wg = zg;
                wd = zd;
            }
        }
        if (beaten_by < 0) {
            best = cand;
            rival = weakest;
            conf = weakest < 0 ? 1 : wconf;
            rz_g = wg;
            rz_d = wd;
        } else if (oi == 0) {
            lost_to = beaten_by;
            lz_g = bg;
            lz_d = bd;
        }
    }
    if (best < 0) {
        double lz_q = delay_z(&fits[order[0]], &fits[lost_to], obs);
        char qz[32] = "";
        if (lz_q != 0)
            snprintf(qz, sizeof qz, ", window-fall rule z %.1f", lz_q);
        add(ev, len, at, "; tie: %s or %s (growth z %.1f, decrease z %.1f%s, off %.2f vs %.2f)", fits[order[0]].ops->name,
            fits[lost_to].ops->name, lz_g, lz_d, qz, c[order[0]].dec, c[lost_to].dec);
        return;
    }
    bool first_same = true;
    unsigned same_other = 0;   /* of those, flavours that are not Reno by their definition here */
    for (unsigned i = 0; i < n; i++)
        if ((int)i != best && c[i].scored && same_replay(&fits[i], &fits[best])) {
            at = add(ev, len, at, "%s%s", first_same ? "; same as " : ", ", fits[i].ops->name);
            first_same = false;
            same_other += !c[i].as_reno;
        }
    if (rival >= 0) {
        at = add(ev, len, at, "; vs %s: growth z %.1f, decrease z %.1f, off %.2f vs %.2f",
                 fits[rival].ops->name, rz_g, rz_d, c[best].dec, c[rival].dec);
        double rz_q = delay_z(&fits[best], &fits[rival], obs);
        if (rz_q != 0)
            at = add(ev, len, at, ", window-fall rule z %.1f", rz_q);
    }
    /* Reno, or a flavour that is Reno on this flow by its own definition (HighSpeed below its
     * Low_Window, RFC 3649 §5; Hybla below its reference RTT, tcp_hybla.c rho): the behaviour
     * is Reno's whichever of them the sender runs, and Reno is named for all of them, with
     * the confidence shared among them alike (a sender running one of the others is no more
     * likely than Reno: 1 / (1 + k) of it) */
    unsigned alike = 0;
    if (!strcmp(fits[best].ops->name, "reno"))
        for (unsigned i = 0; i < n; i++)
            if (c[i].scored && c[i].as_reno) {
                at = add(ev, len, at, "%s%s (%s)", alike ? ", " : "; reno, or ", fits[i].ops->name, fits[i].ops->reno_why);
                alike++;
            }
    if (alike && same_other) {   /* and flavours whose replays are Reno's here: a tie */
        add(ev, len, at, ": not told apart on this flow (largest flight %.0f segments, least smoothed RTT %.1f ms)",
            obs->flight_max, obs->min_srtt_ms);
        return;
    }
    if (alike)
        at = add(ev, len, at, ": not told apart on this flow (largest flight %.0f segments, least smoothed RTT %.1f ms), "
                              "Reno's behaviour in each",
                 obs->flight_max, obs->min_srtt_ms);
    inf->flavor = (enum tn_cc_flavor)(best + 1);
    /* the weakest of its wins, and more losses and more window-clocked rounds more weight:
     * n / (n + 1) of the evidence units */
    double units = nknees + (no_cut ? obs->nbetas : 0) + (double)fits[best].nerr / MIN_FIT;
    inf->flavor_confidence = tn_fmax(conf, 0) * units / (units + 1) / (1 + alike);
    add(ev, len, at, "; %s %s", fits[best].ops->name, fits[best].ops->signature);
}
