/* analysis_tcp_rtt.h - a sender's round-trip times (analysis_tcp_rtt.c): data -> ACK samples
 * under Karn's rule (RFC 6298 §3), TSval/TSecr echoes (RFC 7323 §4), the RFC 6298 estimator and
 * the monitor <-> endpoint halves of the round trip. */
#ifndef TN_ANALYSIS_TCP_RTT_H
#define TN_ANALYSIS_TCP_RTT_H

#include "analysis.h"

struct tn_conn_priv;

/* Segments sent and not yet acknowledged, for data->ACK RTT samples (Karn's rule). */
#define TN_SEG_RING_MAX 65536     /* segments timed at once; beyond, the oldest is forgotten */

struct tn_seg {
    int64_t start;
    int64_t end;               /* relative sequence just past the segment */
    int64_t t_ns;              /* when it was (last) sent */
    bool rexmit;               /* sent more than once: no RTT sample from it */
    bool sacked;               /* a SACK block covered it (timed once: tn_rtt_sacked) */
    uint16_t resent;           /* times sent again (tcptrace's "max # retrans") */
    int64_t last_tx_ns;        /* its latest transmission (t_ns until resent) */
    float echo_ms;             /* monitor -> sender -> monitor before it left (its TSecr's ACK
                                * to it), -1: none */
};

/* TSval values sent, for TSval/TSecr echo RTT samples. */
#define TN_TS_RING 256

struct tn_tsent {
    uint32_t val;
    int64_t t_ns;
};

#define TN_HALF_RECENT 8
#define TN_EDGES 64            /* ACK window edges kept for the echoes of connections without
                                * timestamps (tn_rtt_edge_ack) */

/* An ACK's window edge (its cumulative ACK plus the window it advertised) and when the monitor
 * saw it. */
struct tn_edge {
    int64_t t_ns, edge;
};

struct tn_rtt {
    struct tn_seg *segs;       /* ring, grown on demand (memory follows the window) */
    unsigned seg_head, seg_n, seg_cap;
    struct tn_tsent *ts;       /* ring, grown on demand up to TN_TS_RING */
    unsigned ts_head, ts_n, ts_cap;
    double srtt_ms, rttvar_ms; /* RFC 6298 estimator over the samples */
    bool init;
    double min_ms;             /* least sample, -1 before the first */
    double half_ms, half_min_ms;   /* monitor <-> this endpoint round trip, from TS echoes */
    bool half_init;
    double half_recent[TN_HALF_RECENT]; /* the last echo samples, to see a queue behind */
    unsigned half_n;
    double half_low;           /* their least */
    double min_ack_ms;         /* smallest data -> ACK time seen (monitor <-> receiver), -1: none */
    double seg_echo_ms;        /* the echo time of the segment being read (tn_rtt_ts), -1: none */
    struct tn_edge *edges;     /* ring, grown on demand up to TN_EDGES (no timestamps) */
    unsigned edge_head, edge_n, edge_cap;
};

/* What an advancing ACK covered among the timed segments (tn_rtt_acked). */
struct tn_ack_cover {
    unsigned segs;             /* timed segments it covered */
    int64_t last_ns;           /* when the last of them passed the monitor */
    double echo_ms;            /* that one's echo time (tn_seg.echo_ms), -1: none */
    bool in_order;             /* each sent once and seen, none SACKed before: not ambiguous */
};

void tn_rtt_init(struct tn_rtt *r);
void tn_rtt_free(struct tn_rtt *r);
/* Retransmission timeout the sender would use (RFC 6298 §2, Linux's floor). */
double tn_rtt_rto_ms(const struct tn_rtt *r);
/* A new segment [start, end) sent at t: timed. */
void tn_rtt_sent(struct tn_rtt *r, int64_t start, int64_t end, int64_t t);
/* [start, end) sent again at t: no sample from it; tcptrace -r's retransmission times in inf. */
void tn_rtt_resent(struct tn_rtt *r, int64_t start, int64_t end, int64_t t, struct tn_tcp_infer *inf);
/* An ACK advancing from `from` to `ack` at t: the data -> ACK time in ms, or -1 (none, or
 * ambiguous; sacked_between: data in between was SACKed before); the timed segment's length in
 * *len, what it covered in *cv. */
/* A SACK block [lo, hi): marks the timed segments inside it SACKed and returns when the latest
 * sent of those it newly covers was sent, not counting retransmitted ones, or -1 (Linux
 * tcp_sacktag_one's last_sackt: the ACK's RTT sample for the congestion control, ca_rtt_us,
 * when no segment was cumulatively acknowledged). */
int64_t tn_rtt_sacked(struct tn_rtt *r, int64_t lo, int64_t hi);
double tn_rtt_acked(struct tn_rtt *r, int64_t from, int64_t ack, int64_t t, bool sacked_between,
                    int64_t *len, struct tn_ack_cover *cv);
/* A round-trip sample into the estimator. */
void tn_rtt_sample(struct tn_rtt *r, double ms);
/* Round trip between the monitor and the sender of direction d (0 next to it). */
double tn_rtt_sender_half_ms(const struct tn_conn_priv *cp, enum tn_dir d);
bool tn_rtt_sender_half_known(const struct tn_conn_priv *cp, enum tn_dir d);
/* A packet of direction d with timestamps, at t (sender d's state allocated); after_idle: new
 * data sent with nothing in flight, whose echo is no path sample. */
void tn_rtt_ts(struct tn_conn_priv *cp, enum tn_dir d, const struct tn_pkt *p, int64_t t, bool after_idle);
/* Without timestamps: an ACK of sender d's data at t opened its window to edge (relative
 * sequence); sender d's new data ending at end passed the monitor at t. */
void tn_rtt_edge_ack(struct tn_rtt *r, int64_t t, int64_t edge);
void tn_rtt_edge_send(struct tn_rtt *r, int64_t end, int64_t t, uint32_t mss);

#endif
