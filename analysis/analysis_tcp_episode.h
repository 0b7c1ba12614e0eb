/* analysis_tcp_episode.h - a sender's retransmissions, their causes, and the episodes they
 * open: fast recovery, timeout recovery, idle periods (analysis_tcp_episode.c). */
#ifndef TN_ANALYSIS_TCP_EPISODE_H
#define TN_ANALYSIS_TCP_EPISODE_H

#include "analysis.h"
#include "analysis_tcp_replay.h"

struct tn_analyzer_ctx;
struct tn_conn_priv;
struct tn_seginfo;

struct tn_episodes {
    enum tn_episode now;       /* the episode under way */
    int64_t recovery_point;    /* highest sequence sent when the episode began */
    int64_t start_ns;
    uint32_t start_tsval;      /* the TSval of the retransmission that began it (start_has_ts) */
    bool start_has_ts;
    uint32_t tails_left;       /* segments the IDs said went unseen before it, not yet seen resent */
    int64_t last_rexmit_end;   /* the latest retransmission, for ACK-timing spurious checks */
    int64_t last_rexmit_ns;
    int64_t prev_rexmit_ns;    /* the retransmission before the latest (0: none) */
    int64_t last_head_rexmit_ns;   /* retransmission of the segment at snd_una (rearms the RTO) */
    int64_t last_head_rexmit_start;
    int64_t tlp_end;           /* snd_nxt when a probe was retransmitted, awaiting an ACK beyond (0: none) */
    bool tlp_dsack;            /* a D-SACK said the probe was not needed */
    unsigned tx_starts;        /* sends with nothing in flight (CA_EVENT_TX_START told) */
};

/* The packet crossed no router on its way to the monitor (its TTL is an initial one). */
bool tn_ep_ttl_unrouted(const struct tn_pkt *p);

/* End sender d's episode at t; pd is the direction of the packet p that ends it. */
/* Linux tcp_fastretrans_alert: the ACK that ends a recovery moves the state to Open, and
 * tcp_time_to_recover then finds segments still marked lost (lost_out: sent during the
 * recovery and resent there, not yet acknowledged), so the sender enters Recovery again on the
 * same ACK, with a second reduction (tcp_enter_recovery -> ssthresh of the window the first
 * left). */
void tn_ep_recovery_again(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                          const struct tn_pkt *p, int64_t t);
void tn_ep_end(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d, enum tn_dir pd,
               const struct tn_pkt *p, int64_t t, const char *why);
/* Segment si of sender d was sent again at t: its cause (si->cause), and the episode it opens. */
void tn_ep_rexmit(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                  const struct tn_pkt *p, int64_t t, struct tn_seginfo *si, const char *prefix);
/* Segment si filled a gap at t: reordering, a loss before the monitor, or a capture miss. */
void tn_ep_fill(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                const struct tn_pkt *p, int64_t t, struct tn_seginfo *si);
/* New data of sender d at t, starting at relative sequence start: after an idle period? */
/* Was a segment of sender d starting at start, seen at t, sent with nothing in flight at the
 * sender (Linux tcp_event_data_sent's tcp_packets_in_flight == 0), as far as the monitor can
 * tell: all before it acknowledged, that ACK a reaction time before it? */
bool tn_ep_sent_idle(const struct tn_conn_priv *cp, enum tn_dir d, int64_t t, int64_t start);
void tn_ep_idle_check(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                      const struct tn_pkt *p, int64_t t, int64_t start);

#endif
