/* analysis_tcp_sack.h - a sender's scoreboard (analysis_tcp_sack.c): the cumulative ACK, the
 * SACKed ranges above it (RFC 6675), duplicate ACKs, D-SACKs (RFC 2883) and the pipe. */
#ifndef TN_ANALYSIS_TCP_SACK_H
#define TN_ANALYSIS_TCP_SACK_H

#include "analysis.h"
#include "analysis_ranges.h"

struct tn_analyzer_ctx;
struct tn_conn_priv;

#define TN_REXMIT_RING 32

struct tn_scoreboard {
    struct tn_rangeset sacked; /* SACKed ranges above the cumulative ACK (RFC 6675 scoreboard) */
    int64_t una;               /* cumulative ACK received (relative) */
    bool una_set;
    bool sack;                 /* SACK negotiated: the scoreboard counts; else dupacks do */
    bool blocks_seen;          /* the receiver has sent SACK blocks (it may only where SACK was
                                * negotiated: RFC 2018 §3) */
    bool sack_unknown;         /* the trace carries no options (ns-2): whether the sender had
                                * SACK is unknown, and its blocks are not seen */
    uint32_t dupacks;          /* consecutive duplicate ACKs */
    int64_t asked_lo, asked_hi;/* data the receiver asked for again with dupacks (a hole) */
    double reno_sacked;        /* without SACK: segments known to have left (one per dupack) */
    int64_t reno_hi;           /* the highest data sent at the last duplicate ACK: all the
                                * receiver can have SACKed lies below it */
    struct tn_rangeset resent; /* retransmitted in this episode and neither cumulatively nor
                                * selectively acknowledged since: what the sender counts in
                                * flight again (Linux retrans_out, TCPCB_SACKED_RETRANS; RFC 6675
                                * §4's pipe adds it back) */
    struct tn_gap *rexmits;    /* [TN_REXMIT_RING] recent retransmitted ranges (D-SACK
                                * matching), allocated at the first retransmission */
    unsigned rexmit_next;
};

/* A D-SACK that showed a retransmission was not needed (RFC 2883 §4). */
struct tn_dsack {
    bool spurious;
    int64_t lo, hi;
};

void tn_sack_free(struct tn_scoreboard *b);
int64_t tn_sack_bytes_above(const struct tn_scoreboard *b, int64_t above);
/* Bytes in flight below hi as the sender sees them (RFC 6675 "pipe"). */
int64_t tn_sack_pipe(const struct tn_scoreboard *b, int64_t hi, uint32_t mss, bool recovering);
/* Was a range retransmitted at or after since_ns, above una, and neither cumulatively nor
 * selectively acknowledged since (one of the last TN_REXMIT_RING)?  The sender still has it
 * marked lost (Linux lost_out). */
bool tn_sack_resent_lost_above(const struct tn_scoreboard *b, int64_t una, int64_t since_ns);
/* Forget the retransmissions in flight (an episode begins or ends). */
void tn_sack_resent_clear(struct tn_scoreboard *b);
/* [lo, hi) was retransmitted at t (for D-SACK matching). */
void tn_sack_resent(struct tn_scoreboard *b, int64_t lo, int64_t hi, int64_t t);
/* The SACK blocks of an ACK of sender sd's data (cumulative ACK ack): the scoreboard takes them,
 * D-SACKs are told (events); returns the bytes newly SACKed, and in *sacked_sent_ns when the
 * latest segment sent once among those newly SACKed was sent (-1: none; tn_rtt_sacked). */
int64_t tn_sack_blocks(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir sd,
                       const struct tn_pkt *p, int64_t ack, struct tn_dsack *dsack, int64_t *sacked_sent_ns);

#endif
