/* cc.h - the congestion-control flavours the window replay runs side by side, each shaped like
 * Linux's struct tcp_congestion_ops (include/net/tcp.h): one file per flavour (cc_<name>.c)
 * and one line in flavours.def.  A flavour sees a struct tn_cc_sock, the few tcp_sock fields a
 * Linux module reads and writes, counted in segments like Linux's snd_cwnd; its own state lives
 * in priv, priv_size bytes (Linux's inet_csk_ca, ICSK_CA_PRIV_SIZE), allocated by the driver. */
#ifndef TN_CC_H
#define TN_CC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common.h"   /* tn_fmax, tn_fmin */

struct tn_tcp_infer;

#define TN_CC_IW 10.0          /* initial window, segments (RFC 6928, Linux TCP_INIT_CWND) */

/* Linux enum tcp_ca_state (the ones a passive replay tells apart) */
enum tn_ca_state { TN_CA_OPEN = 0, TN_CA_CWR, TN_CA_RECOVERY, TN_CA_LOSS };

/* Linux enum tcp_ca_event */
enum tn_ca_event {
    TN_CA_EVENT_TX_START,      /* first transmission when nothing was in flight */
    TN_CA_EVENT_CWND_RESTART,  /* congestion window restart after idle (RFC 2861 / 7661) */
    TN_CA_EVENT_COMPLETE_CWR,  /* the window reduction of a recovery or CWR finished */
    TN_CA_EVENT_LOSS,          /* retransmission timeout: entering Loss */
};

struct tn_cc_sock {
    /* tcp_sock: the window (segments), slow-start threshold, additive-increase counter */
    double cwnd, ssthresh, cwnd_cnt;
    enum tn_ca_state state;
    double prior_cwnd;         /* the window when the last reduction began */
    /* what the driver tells about the ACK being processed, the same for every flavour: copied
     * as one block, now_ns to round_start (TN_CC_ACK_BLOCK) */
    int64_t now_ns;
    int64_t ack_seen_ns;       /* when the monitor saw the ACK: its spacing is the sender's
                                * (now_ns adds the reaction estimate, which moves with the
                                * queue on the data's way) */
    double rtt_ms;             /* this ACK's RTT sample, < 0 when none (Karn) */
    double min_rtt_ms;         /* least RTT sample so far (< 0: none) */
    double srtt_ms;            /* smoothed RTT (RFC 6298 gains), < 0: none */
    double acked;              /* segments newly delivered by this ACK (cumulative + SACKed) */
    double delivered;          /* segments delivered since the start (Linux tp->delivered) */
    double flight;             /* segments in flight after this ACK and what the sender sent in
                                * answer to it (Linux packets_in_flight once it has sent) */
    double flight_max;         /* the most in flight since the previous ACK */
    double losses;             /* segments the sender retransmitted in answer to this ACK: those
                                * it marked lost on it (Linux rs->losses), as far as it sent */
    double rate;               /* delivery rate over about the last RTT, segments per ms: the
                                * segments delivered since the ACK one srtt before, timed as
                                * the monitor saw the ACKs (Linux
                                * tcp_rate.c's rate sample, computed by the core for every ACK) */
    int64_t snd_nxt, una;      /* bytes, relative */
    bool app_limited;          /* the flight stayed well below the window: application-limited */
    bool linux_2_6_22;         /* the sender runs Linux 2.6.22's modules: a trace without TCP
                                * options is ns-2's, whose Agent/TCP/Linux (ns-2.35) carries
                                * them (tcp/linux/src: "Modified Linux module source code from
                                * linux-2.6.22.6"); a flavour that changed since follows that
                                * version there */
    unsigned round;            /* round trips so far: a round ends when una passes the snd_nxt
                                * of its start (Linux hystart / bbr round counting) */
    int64_t round_start_ns;    /* when the current round began */
    bool round_start;          /* this ACK began a round */
    bool cwnd_limited;         /* Linux tcp_is_cwnd_limited (RFC 7661) */
    int64_t idle_ns;           /* TN_CA_EVENT_TX_START / CWND_RESTART: how long it was idle */
    double rto_ms;             /* the sender's retransmission timeout estimate */
    double mss;                /* bytes per segment */
    /* what a flavour reports beside the window */
    double pacing_bps;         /* pacing rate in bit/s (0: not paced) */
    bool ss_exit_now;          /* the flavour left slow start without a loss on this ACK */
    char ss_exit_why[80];
    void *priv;                /* the flavour's state, tn_cc_ops.priv_size bytes, zeroed at start */
};

struct tn_cc_ops {
    const char *name;          /* as in Linux's tcp_congestion_control sysctl */
    const char *kind;          /* "loss-based", "delay-based" or "model-based", for the evidence */
    size_t priv_size;          /* sizeof the flavour's state in tn_cc_sock.priv */
    void (*init)(struct tn_cc_sock *sk);
    /* the slow-start threshold after a loss (called once per reduction, before set_state) */
    double (*ssthresh)(struct tn_cc_sock *sk);
    /* growth on an ACK while the window limits the sender (tcp_cong_avoid) */
    void (*cong_avoid)(struct tn_cc_sock *sk, double acked);
    /* instead of ssthresh/cong_avoid/PRR: the flavour sets cwnd itself on every ACK (BBR) */
    void (*cong_control)(struct tn_cc_sock *sk);
    void (*set_state)(struct tn_cc_sock *sk, enum tn_ca_state st);
    double (*undo_cwnd)(struct tn_cc_sock *sk);
    void (*cwnd_event)(struct tn_cc_sock *sk, enum tn_ca_event ev);
    /* every ACK that delivers data, with its RTT sample (delay-based flavours, HyStart) */
    void (*pkts_acked)(struct tn_cc_sock *sk);
    /* the window (or inflight cap) the flavour would keep the flight at, for the fit: NULL
     * means cwnd, compared when cwnd limits the sender */
    double (*target_flight)(const struct tn_cc_sock *sk);
    /* the model's estimates (Linux get_info, tcp_bbr_info): bottleneck bandwidth, min RTT */
    void (*get_info)(const struct tn_cc_sock *sk, double *bw_bps, double *min_rtt_ms);
    /* the ground truth the replay was checked against, NULL when not yet: a checked flavour is
     * replayed from the start, and its window is the estimate of a flow the classifier could
     * not name (tn_cc_pick_estimate); the classifier names any flavour, and the named one's
     * window is the estimate */
    const char *checked;
    /* the decrease (window after / before a loss) of another published version of the
     * flavour, 0 when none: the classifier takes the closer of the two */
    double beta_alt;
    /* where the flavour is Reno by its own definition, so that a flow that stayed there
     * cannot tell it from Reno: windows up to reno_below segments (0: none), or a least RTT
     * below reno_rtt_ms (0: none); reno_why says so with the reference */
    double reno_below, reno_rtt_ms;
    const char *reno_why;
    /* the most the flavour lowers its window in one round without a loss, segments (0: no
     * such bound, or it never does): Vegas's one (tcp_vegas.c) */
    double fall_max;
    /* words for the evidence line: what the flavour does at a loss and between losses */
    const char *signature;
};

#define TN_CC_ACK_BLOCK \
    (offsetof(struct tn_cc_sock, round_start) + sizeof(bool) - offsetof(struct tn_cc_sock, now_ns))

#define TN_CC_PRIV(sk, type) ((type *)(sk)->priv)

/* Helpers every flavour shares, as in Linux net/ipv4/tcp_cong.c. */
double tn_cc_slow_start(struct tn_cc_sock *sk, double acked);   /* tcp_slow_start: returns the rest */
void tn_cc_cong_avoid_ai(struct tn_cc_sock *sk, double w, double acked);   /* tcp_cong_avoid_ai */
void tn_cc_reno_cong_avoid(struct tn_cc_sock *sk, double acked);
double tn_cc_reno_ssthresh(struct tn_cc_sock *sk);              /* max(cwnd >> 1, 2) */
double tn_cc_reno_undo_cwnd(struct tn_cc_sock *sk);             /* max(cwnd, prior_cwnd) */
/* tcp_in_slow_start; Linux 2.6.22's modules slow-started at the threshold too
 * ("if (tp->snd_cwnd <= tp->snd_ssthresh) tcp_slow_start(tp)"), so the ACK after a recovery
 * that set the window to ssthresh raises it by one. */
static inline bool tn_cc_in_slow_start(const struct tn_cc_sock *sk)
{
    return sk->linux_2_6_22 ? sk->cwnd <= sk->ssthresh : sk->cwnd < sk->ssthresh;
}

/* Scalable's and Illinois's 7/8 is the smallest cut a loss-based flavour makes at a loss
 * (tcp_scalable.c TCP_SCALABLE_MD_SCALE, tcp_illinois.c BETA_MIN): a flight after a recovery
 * closer to the flight before than to 7/8 of it is no cut (BBR, Cardwell et al. 2016: packet
 * conservation for a round, then the window of its model). */
/* The confidence from which a verdict is one the tool stands by: issue 11 allows a wrong
 * flavour below it, never at or above (the classifier's confidences are calibrated to that line:
 * docs/inference.md "Which flavour"). */
#define TN_CC_SURE 0.5
#define TN_CC_NO_CUT ((1.0 + 7.0 / 8) / 2)

#define TN_CC_FALL_SIZES 16    /* fall sizes counted one by one (tn_cc_obs.fall_sizes) */
#define TN_CC_MIN_FIT 8        /* window-clocked rounds for a growth fit to count: one BBR gain
                                * cycle (tcp_bbr.c CYCLE_LEN), the fewest that show a shape */

/* What the replay of one flavour says about a flow, for the classifier (analysis_cc_classify.c). */
struct tn_cc_fit {
    const struct tn_cc_ops *ops;
    /* the growth shape: |open-loop window - largest flight| / largest flight at the end of
     * each window-clocked round, the open-loop copy running the flavour alone since the last
     * reduction; the same rounds for every flavour */
    double err_med;
    unsigned nerr;
    const double *err;         /* in round order, for paired comparisons */
    double flight_med;         /* median flight at the fitted ACKs, segments */
    double beta_pred;          /* median of its decreases (betas, those >= 0) */
    unsigned nbeta_pred;
    const double *betas;       /* its own decrease at each recovery slot (tn_cc_obs.knees), -1: none */
    unsigned nslots;
};

/* What the flow showed beside the replays. */
struct tn_cc_obs {
    const double *betas;       /* flight after / before each fast recovery, as observed */
    const bool *betas_ss;      /* per recovery: its loss ended a slow start (BBR's Startup) */
    unsigned nbetas;
    const double *knees;       /* ssthresh seen after each fast recovery / window at the loss,
                                * per slot (-1: not seen) */
    const double *knee_win;    /* per slot: that window, segments */
    unsigned nknees;
    unsigned rounds;           /* round trips seen */
    double min_rtt_ms, srtt_ms;
    double flight_max;         /* the largest flight outside episodes since the first one
                                * ended (0: none), segments */
    double min_srtt_ms;        /* the least smoothed RTT (RFC 6298 gains), < 0: none */
    unsigned probe_rtt_dips;   /* flight at most 4 segments for 200 ms, about every 10 s (BBR) */
    /* rounds after one that held more than Vegas's beta (4 segments) in the queue whose
     * window fell, and rose, without a loss between (analysis_tcp_cwnd.c queue_rule) */
    unsigned queue_falls, queue_rises;
    /* those falls by size: fall_sizes[k] of k segments, the last one of that many or more */
    const unsigned *fall_sizes;
    bool linux_2_6_22;         /* the sender runs Linux 2.6.22's modules (ns-2): no BBR there */
};

/* Choose the flavour (or unknown), its confidence and evidence in words; fills inf. */
void tn_cc_classify(const struct tn_cc_fit *fits, unsigned n, const struct tn_cc_obs *obs,
                    struct tn_tcp_infer *inf);

#define TN_CC_FLAVOUR(ID, id, desc) extern const struct tn_cc_ops tn_cc_##id##_ops;
#include "flavours.def"
#undef TN_CC_FLAVOUR

#endif
