/* analysis_tcp_replay.h - handing a sender's ACKs to its window models once the sender has
 * reacted to them (analysis_tcp_replay.c), with the flight each released, the rate limiters,
 * and the multiplicative decrease of each fast recovery. */
#ifndef TN_ANALYSIS_TCP_REPLAY_H
#define TN_ANALYSIS_TCP_REPLAY_H

#include "analysis.h"

struct tn_analyzer_ctx;
struct tn_conn_priv;

enum tn_episode { TN_EP_NONE = 0, TN_EP_RECOVERY, TN_EP_RTO };

/* An ACK waiting until the sender has had time to react to it. */
struct tn_pending_ack {
    int64_t t_ns;              /* when the monitor saw it */
    int64_t acked, sacked;     /* newly acknowledged / SACKed bytes */
    double rtt_ms;             /* RTT sample it gave, or < 0 */
    int64_t una;               /* cumulative ACK */
    int64_t delivered;         /* una plus the bytes SACKed above it: each byte counted once */
    int64_t adj;               /* pipe = snd_nxt - una - adj (SACKed, lost, dupacked, resent) */
    int64_t adj_recovering;    /* the same with the holes below the highest SACK lost (RFC
                                * 6675), as the sender counts once in recovery */
    bool in_episode, episode_ended;
    uint8_t ends;              /* the episode this ACK ended, for the window models: 0 none,
                                * TN_EP_RECOVERY or TN_EP_RTO (told when the sender processes it) */
    bool has_ts;               /* it carried a timestamp: tsval */
    bool tick_first;           /* the first ACK seen with that tsval */
    uint32_t tsval;
};

#define TN_PENDING_MAX 65536
#define TN_RESENT_KEPT 65536   /* retransmissions kept for the pipes of the ACKs before them, at
                                * most (a recovery of a window of holes resends them all within
                                * a round trip: 436 on their way at once on cubic-bdp-owd40) */

/* A retransmission seen at the monitor, with the echo of the ACK the sender had last processed
 * when it sent it. */
struct tn_resent_seen {
    int64_t t_ns, bytes;
    uint32_t ecr;
};
#define TN_BETA_MAX 64

/* ACKs travel on from the monitor to the sender: each is handed to the window models once the
 * sender's reaction to it can have reached the monitor (its monitor time plus the monitor <->
 * sender round trip); until then the sender knew the older ACKs only. */
struct tn_replay {
    struct tn_pending_ack *pend;   /* ring, grown on demand */
    unsigned pend_head, pend_n, pend_cap;
    int64_t k_una, k_adj;      /* scoreboard of the last ACK the sender has processed */
    bool k_set;
    int64_t flight_max;        /* highest pipe in the current reaction window */
    int64_t sent_flight_max;   /* highest pipe right after a new segment in it (0: none) */
    int64_t resent;            /* bytes retransmitted in it */
    int64_t sent;              /* bytes sent in it, new and again */
    uint8_t ends_pending;      /* the episode the ACK being read ended (tn_pending_ack.ends) */
    double beta_before;        /* flight when the current fast recovery began (segments) */
    bool beta_pending;         /* waiting for the first flight after that recovery */
    int64_t beta_after_ns;     /* ... released by an ACK seen at or after this time */
    double *betas;             /* [TN_BETA_MAX] flight after / flight before, per fast
                                * recovery; allocated at the first */
    bool *betas_ss;            /* [TN_BETA_MAX] that recovery's loss ended a slow start */
    unsigned nbetas;
    bool beta_ss;              /* the current fast recovery's loss ended a slow start */
    int64_t limiter_ns[TN_LIM_COUNT];        /* time spent under each rate limiter */
    int64_t prev_ack_ns;
    uint32_t ecr;              /* the latest TSecr of the sender's data: the TSval of the last
                                * ACK it had processed (TS.Recent, RFC 7323 §4.3) */
    bool ecr_set;
    struct tn_resent_seen *rs;   /* ring, grown on demand */
    unsigned rs_head, rs_n, rs_cap;
    uint32_t push_tsval;       /* TSval of the latest ACK pushed */
    bool push_ts_set;
};

void tn_replay_free(struct tn_replay *r);
/* The pipe as the sender sees it below hi: the scoreboard of the last ACK it has processed. */
int64_t tn_replay_known_pipe(const struct tn_replay *r, int64_t hi);
/* Sender sd sent len bytes at the monitor: its flight now is flight (new: new data; resent:
 * bytes of a retransmission, or of a hole filled at a monitor after the loss, 0 otherwise). */
/* The pipe after a send at t reaching hi, against the last ACK the sender had processed when
 * it sent (seen at the monitor a reaction time before t), resolved to the models or not. */
int64_t tn_replay_send_pipe(const struct tn_conn_priv *cp, enum tn_dir sd, int64_t hi, int64_t t);
/* Sender sd's data segment p arrived: its TSecr names the ACKs the sender had processed. */
void tn_replay_echo(struct tn_replay *r, const struct tn_pkt *p);
void tn_replay_sent(struct tn_replay *r, int64_t flight, bool new_data, int64_t len, int64_t resent);
/* Bytes resent at t in a segment whose TSecr was ecr (timestamps on). */
void tn_replay_resent_seen(struct tn_replay *r, int64_t t, uint32_t ecr, int64_t bytes);
/* An ACK of sender sd's data; takes pa->ends from ends_pending. */
void tn_replay_push(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir sd,
                    struct tn_pending_ack *pa);
/* Round trip from the monitor to sender sd and back, in ns: how long after an ACK passes the
 * monitor the data it releases passes it (0 next to the sender). */
int64_t tn_replay_reaction_ns(const struct tn_conn_priv *cp, enum tn_dir sd);
/* Resolve every ACK whose reaction window has begun to close by time t (INT64_MAX: all). */
void tn_replay_advance(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir sd, int64_t t);
/* Resolve every ACK the sender had processed when its data seen at t left it, the last one
 * too: a send with nothing in flight followed them all. */
void tn_replay_processed(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir sd, int64_t t);
/* An episode of kind ep ended at t, seen at the monitor: the models end it when the sender
 * processes the ACK that ended it; a fast recovery from a flight of beta_before segments of
 * 8 or more has its decrease measured. */
void tn_replay_episode_ended(struct tn_replay *r, enum tn_episode ep, int64_t t);
/* A new episode begins at t with flight (bytes): the end of the last one reaches the models
 * first; a fast recovery's flight before is kept for its decrease. */
void tn_replay_episode_begins(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                              enum tn_episode ep, double flight_segs, int64_t t);
/* The rate limiters' shares into inf. */
void tn_replay_limiters(const struct tn_replay *r, struct tn_tcp_infer *inf);

#endif
