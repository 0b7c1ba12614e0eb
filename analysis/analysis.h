/* analysis.h - public interface of the analysis layer: packets -> connections and statistics.
 *
 * Analysis never sees raw bytes.  It receives normalized packets (struct tn_pkt) and keeps one
 * connection per 5-tuple (both directions one connection).  Render reads the results through
 * the const accessors below; their lifetime is the analyzer's.
 */
#ifndef TN_ANALYSIS_H
#define TN_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common.h"
#include "dissect.h"

enum tn_dir { TN_A2B = 0, TN_B2A = 1 };

enum tn_conn_state {
    TN_ST_COMPLETE,   /* handshake seen and closed by FIN both ways */
    TN_ST_RESET,      /* a RST was seen */
    TN_ST_OPEN,       /* handshake seen, still open at the end of the trace */
    TN_ST_PARTIAL,    /* handshake not seen */
};

const char *tn_conn_state_name(enum tn_conn_state s);  /* "complete", "reset", "open", "partial" */

/* ---- the inference model: events, series, packet records (issue 4/5/6) ----
 * Times are nanoseconds since the Unix epoch, exactly as in the trace. */

/* Event kinds; names are the `kind` column of events.csv (csv-contract.md). */
#define TN_EVENT_KINDS(X)                         \
    X(REXMIT_FAST, "rexmit_fast")                 \
    X(REXMIT_RTO, "rexmit_rto")                   \
    X(REXMIT_SPURIOUS, "rexmit_spurious")         \
    X(REXMIT_OTHER, "rexmit_other")               \
    X(DUPACK, "dupack")                           \
    X(OOO, "ooo")                                 \
    X(LOSS_UPSTREAM, "loss_upstream")             \
    X(RECOVERY_START, "recovery_start")           \
    X(RECOVERY_END, "recovery_end")               \
    X(RTO_START, "rto_start")                     \
    X(RTO_END, "rto_end")                         \
    X(SLOWSTART_END, "slowstart_end")             \
    X(ZERO_WINDOW, "zero_window")                 \
    X(WINDOW_OPEN, "window_open")                 \
    X(IDLE_START, "idle_start")                   \
    X(IDLE_END, "idle_end")                       \
    X(DUP_DELIVERY, "dup_delivery")               \
    X(WINDOW_PROBE, "window_probe")               \
    X(DELAYED_ACK, "delayed_ack")                 \
    X(QUICKACK, "quickack")                       \
    X(CAPTURE_GAP, "capture_gap")                 \
    X(DFCP_BLOCK_ACKED, "dfcp_block_acked")       \
    X(DFCP_BLOCK_FAILED, "dfcp_block_failed")     \
    X(DFCP_BLOCK_UNACKED, "dfcp_block_unacked")

enum tn_event_kind {
#define X(e, s) TN_EV_##e,
    TN_EVENT_KINDS(X)
#undef X
    TN_EV_COUNT
};

const char *tn_event_kind_name(enum tn_event_kind k);

/* One event.  seq is relative to the direction's ISN and unwrapped (TCP) or the block number
 * (DFCP); detail is the rule that fired and its evidence, readable by a person. */
struct tn_event {
    int64_t t_ns;
    uint64_t pkt;              /* packet number (in its file) that shows the event */
    uint64_t seq;
    uint32_t len;
    uint8_t kind;              /* enum tn_event_kind */
    uint8_t dir;               /* enum tn_dir of the packet that shows it */
    char detail[86];
};

/* The direction whose sequence space an event's seq is in: the data sender's.  Events shown by
 * an ACK (dupack, recovery/timeout end, D-SACK verdicts) carry the ACK's direction in dir but a
 * sequence number of the other direction. */
unsigned tn_event_seq_dir(const struct tn_event *e);

/* Series kinds; names are the `series` column of series.csv. */
#define TN_SERIES_KINDS(X)                          \
    X(RTT_MS, "rtt_ms")                             \
    X(INFLIGHT, "inflight_bytes")                   \
    X(CWND_EST, "cwnd_est_bytes")                   \
    X(SSTHRESH_EST, "ssthresh_est_bytes")           \
    X(RWND, "rwnd_bytes")                           \
    X(THROUGHPUT, "throughput_bps")                 \
    X(GOODPUT, "goodput_bps")                       \
    X(QUEUE_PKTS, "queue_pkts")                     \
    X(QUEUE_BYTES, "queue_bytes")                   \
    X(SOJOURN_MS, "sojourn_ms")                     \
    X(DFCP_BLOCKS_INFLIGHT, "dfcp_blocks_inflight") \
    X(JAIN_INDEX, "jain_index")                     \
    X(DFCP_SYMBOL_RATE, "dfcp_symbols_pps")         \
    X(DFCP_BACK_LATENCY, "dfcp_back_latency_ms")

enum tn_series_kind {
#define X(e, s) TN_SER_##e,
    TN_SERIES_KINDS(X)
#undef X
/* each modelled congestion-control flavour's replayed window: cwnd_<name>_bytes */
#define TN_CC_FLAVOUR(ID, id, desc) TN_SER_CWND_##ID,
#include "cc/flavours.def"
#undef TN_CC_FLAVOUR
    TN_SER_COUNT
};

const char *tn_series_kind_name(enum tn_series_kind k);

struct tn_point {
    int64_t t_ns;
    double v;
};

struct tn_series {
    struct tn_point *pts;
    size_t n, cap;
};

/* One packet of a connection, as the renderers and packets.csv need it (kept only when the
 * analysis config asks for packet records). */
struct tn_pktrec {
    int64_t t_ns;
    uint64_t num;
    uint64_t seq, ack;         /* relative, unwrapped; DFCP: block number, symbol index */
    uint32_t len;              /* payload bytes (of all the packets a merged record stands for) */
    uint32_t span;             /* merged record: sequence bytes covered from seq (0: len) */
    uint32_t segs;             /* merged record: data segments it stands for (0: len > 0) */
    uint32_t win;              /* scaled advertised window */
    uint32_t ts_val, ts_ecr;
    uint16_t ip_id;
    uint8_t dir;
    uint8_t flags;             /* TCP flags; DFCP: type */
    uint8_t nsack;
    uint8_t rexmit;            /* 0, or 1 + enum tn_event_kind of the retransmission cause */
    bool has_ts;
    struct { uint64_t left, right; } sack[TN_MAX_SACK];   /* relative */
};

/* Where a record's data ends (merged records cover a range), and how many segments it is. */
/* A relative sequence number as a plotted value: below the base (a capture begun mid-flow
 * sees data below its first segment) it is negative. */
static inline double tn_seq_y(uint64_t rel)
{
    return (double)(int64_t)rel;
}

static inline uint64_t tn_pktrec_end(const struct tn_pktrec *r)
{
    return r->seq + (r->span ? r->span : r->len);
}

static inline uint32_t tn_pktrec_segs(const struct tn_pktrec *r)
{
    return r->segs ? r->segs : r->len > 0;
}

/* Per-direction counters: the direction's sender is the source of its packets. */
struct tn_dir_stats {
    uint64_t pkts;
    uint64_t wire_bytes;       /* frame bytes on the wire (what tshark's conversations count) */
    uint64_t data_pkts;        /* packets carrying payload (TCP) / DATA packets (DFCP) */
    uint64_t data_bytes;       /* payload bytes on the wire, retransmissions included */
    uint64_t unique_bytes;     /* sequence space covered by data: highest end minus lowest start */
    uint64_t pure_acks;        /* ACK set, no data, no SYN/FIN/RST */
    uint64_t rexmit_pkts;      /* data below the highest sequence already seen, and SYNs and
                                * FINs sent again (they occupy sequence space, as in tcptrace) */
    uint64_t win_probes;       /* bytes resent into a zero window (probes, not retransmissions) */
    uint64_t rexmit_bytes;
    uint64_t ooo_pkts;         /* data arriving above a hole that later fills (not a rexmit) */
    uint64_t dupacks;
    uint64_t zero_wnd;         /* zero-window advertisements */
    uint64_t syn, fin, rst;
    uint64_t syn_again;        /* SYNs after the direction's first one: its retries (TCP) */
    uint64_t super_segs;       /* segments larger than the MSS (TSO/GSO/GRO) */
    uint64_t trunc_pkts;       /* payload cut by the snap length */
    uint32_t seg_min, seg_max; /* data segment size */
    uint32_t win_min, win_max; /* advertised window, scaled */
    double win_sum;            /* for the average */
    uint64_t win_n;
    struct tn_time first, last;

    /* options seen in this direction's SYN */
    bool syn_seen;
    bool mss_seen, ws_seen, sack_ok, ts_seen;
    bool opts_unknown;         /* the trace carries no TCP options (ns-2): the four above are unknown */
    uint16_t mss;
    uint8_t ws;

    /* sequence tracking (TCP); "rel" numbers are unwrapped to 64 bits and relative to isn */
    bool isn_set;
    uint32_t isn;              /* initial sequence number (the SYN's, or first seq seen - 1) */
    int64_t lo_rel, hi_rel;    /* lowest data start / highest data end seen */
    bool data_seen;
    bool ack_set;
    uint32_t last_ack_raw;     /* last cumulative ACK this direction sent */
    uint16_t last_win_raw;
    uint32_t dup_run;          /* current run of duplicate ACKs */

    /* tcptrace's -l/-r/-W figures the inference does not need (analysis_tcp_counts.c) */
    uint64_t sack_pkts;        /* packets carrying SACK blocks */
    uint64_t pushed_pkts;      /* data packets with PSH */
    uint64_t urg_pkts;         /* data packets with URG */
    uint64_t urg_bytes;        /* their urgent data: the urgent pointer's bytes */
    uint64_t trunc_bytes;      /* payload bytes the snap length cut off */
    uint64_t triple_dupacks;   /* runs of duplicate ACKs that reached 3 (RFC 5681 §3.2; on_ack) */
    int64_t idle_max_ns;       /* longest time between two packets of this direction */
    int64_t idle_prev_ns;      /* (bookkeeping) time of its previous packet */
    uint64_t init_win_bytes;   /* data sent before the peer first acknowledged data */
    uint64_t init_win_pkts;
    bool init_win_done;        /* the peer's first ACK of data was seen */
    /* outstanding data (tcptrace's "owin"): highest byte sent minus the peer's cumulative ACK,
     * taken at each data segment; owin_area is its time integral, for the weighted average */
    uint64_t owin_n;
    double owin_max, owin_min_nz, owin_sum, owin_area, owin_cur;
    int64_t owin_t0_ns, owin_t_ns;

    /* DFCP */
    uint64_t dfcp_type_pkts[16];
    uint64_t dfcp_blocks;      /* distinct blocks with DATA seen */
    bool dfcp_block_set;
    uint32_t dfcp_hi_block;
    uint16_t dfcp_n, dfcp_window;
    uint32_t dfcp_k;
    uint8_t dfcp_flags;
};

/* Where the monitor sits, decided from the handshake timing (issue 4 "Vantage point"). */
enum tn_vantage {
    TN_VP_UNKNOWN = 0,
    TN_VP_NEAR_A,              /* next to side a: a's packets are seen as they leave a */
    TN_VP_NEAR_B,
    TN_VP_MIDDLE,
};

const char *tn_vantage_name(enum tn_vantage v);   /* "unknown", "near a", "near b", "middle" */

/* Summary statistics of a set of samples. */
struct tn_stat {
    uint64_t n;
    double min, max, sum, sumsq;
};

void tn_stat_add(struct tn_stat *s, double v);
double tn_stat_avg(const struct tn_stat *s);
double tn_stat_stdev(const struct tn_stat *s);

/* The congestion-control flavours the replay models (analysis/cc/flavours.def), and unknown. */
enum tn_cc_flavor {
    TN_CC_UNKNOWN = 0,
#define TN_CC_FLAVOUR(ID, id, desc) TN_CC_##ID,
#include "cc/flavours.def"
#undef TN_CC_FLAVOUR
    TN_CC_COUNT
};
const char *tn_cc_flavor_name(enum tn_cc_flavor f);
/* The flavour of a name ("cubic"), TN_CC_UNKNOWN when none. */
enum tn_cc_flavor tn_cc_flavor_of(const char *name);

/* What limited a sender's rate (issue 4 "What limited the rate"). */
enum tn_limiter {
    TN_LIM_UNKNOWN = 0,
    TN_LIM_CWND,
    TN_LIM_RWND,
    TN_LIM_APP,
    TN_LIM_BOTTLENECK,
    TN_LIM_COUNT
};
const char *tn_limiter_name(enum tn_limiter l);

/* The ACK policy of the receiver of one direction's data (analysis_ackpolicy.c): how many data
 * segments each ACK covers, the delayed-ACK timer, quick-ACK phases.  Counted over ACKs that
 * advance in order (no hole filled, nothing resent, nothing SACKed before in the range). */
#define TN_ACKPOL_BINS 5           /* ACKs covering 1, 2, 3, 4, 5 or more segments */

struct tn_ackpolicy {
    uint64_t acks;                 /* in-order advancing ACKs */
    uint64_t segs;                 /* data segments they covered */
    uint64_t per_ack[TN_ACKPOL_BINS];
    bool delays_known;             /* monitor next to the receiver: the ACK delays are its own */
    uint64_t delayed;              /* ACKs the delayed-ACK timer sent (one segment, late) */
    double delack_min_ms, delack_max_ms;   /* their delay after the segment */
    uint64_t quick_phases, quick_acks;     /* runs of prompt one-segment ACKs, and their ACKs */
};

double tn_ackpol_ratio(const struct tn_ackpolicy *a);   /* segments per ACK, 0 if none */
double tn_ackpol_delack_ms(const struct tn_ackpolicy *a);   /* longest timer delay seen, < 0: none */

/* Inference results for the sender of one direction (TCP). */
struct tn_tcp_infer {
    struct tn_stat rtt_ms;             /* data->ACK samples (Karn's rule) */
    struct tn_stat rtt_ts_ms;          /* TSval/TSecr echo samples */
    struct tn_stat rtt_full_ms;        /* rtt_ms samples of full-sized segments (within 40 option
                                        * bytes of the MSS, RFC 9293 §3.1) */
    struct tn_stat retr_ms;            /* time from a segment's previous transmission to its
                                        * retransmission */
    unsigned max_retrans;              /* most retransmissions of one segment */
    uint64_t rexmit[4];                /* by cause: fast, rto, spurious, other */
    uint64_t loss_upstream;            /* holes seen here: lost before the monitor */
    uint64_t capture_gaps;             /* holes the capture missed: acknowledged by the receiver
                                        * though never seen here, or seen next to the sender */
    uint64_t capture_gap_bytes;
    uint64_t episodes_recovery, episodes_rto, episodes_zero_window, episodes_idle;
    bool slowstart_ended;
    int64_t slowstart_end_ns;
    enum tn_cc_flavor flavor;
    double flavor_confidence;          /* 0..1 */
    double cc_score[TN_CC_COUNT];           /* per flavour: fit error plus decrease error, lower
                                             * is better (< 0: not scored) */
    char cc_evidence[512];                  /* the classifier's evidence, in words */
    double pacing_bps;                      /* the chosen flavour's pacing rate at the end (bit/s, 0: not paced) */
    double model_bw_bps, model_min_rtt_ms;  /* a model-based flavour's bandwidth and min RTT */
    double inflight_cap_bytes;              /* its inflight cap (cwnd) at the end, bytes */
    double beta;                            /* median window after / before a fast recovery */
    unsigned beta_n;                        /* recoveries it was measured on */
    double limiter_share[TN_LIM_COUNT];     /* share of the data-sending time per limiter */
    enum tn_limiter limiter;                /* the dominant one */
    double max_inflight;                    /* bytes */
    double seg_size;                        /* bytes per segment the cwnd is counted in */
    struct tn_ackpolicy ackpol;             /* the receiver's ACK policy for this data */
};

/* Per-block DFCP record (issue 5). */
enum tn_dfcp_outcome { TN_DFCP_UNACKED = 0, TN_DFCP_DECODED, TN_DFCP_FAILED };

struct tn_dfcp_block {
    uint32_t block;
    uint16_t n;                /* symbols per block announced */
    uint16_t symbols_seen;     /* distinct symbol indices seen */
    uint32_t bytes;            /* DATA payload bytes seen */
    int64_t first_ns, last_ns, back_ns;   /* back_ns 0 when no BACK seen */
    uint8_t outcome;           /* enum tn_dfcp_outcome */
    uint8_t *seen;             /* bitmap of symbol indices seen, (n + 7) / 8 bytes; owned */
    /* issue 5 (analysis_dfcp_blocks.c) */
    uint8_t dir;               /* enum tn_dir of the DATA; its BACK travels the other way */
    uint8_t bflags;            /* TN_DFCP_BF_* */
    uint16_t max_idx;          /* highest symbol index seen */
    uint16_t dup_symbols;      /* symbols seen again with an index already seen */
    uint16_t symbols_at_back;  /* distinct symbols seen here when the (first) BACK passed */
    uint16_t backs;            /* BACKs seen for the block (more than 1: duplicates) */
    uint16_t symbol_size;      /* largest DATA payload of the block */
    uint32_t k;                /* block source length: bytes before coding (DATA or BACK header) */
    int64_t last_at_back_ns;   /* latest symbol seen before the BACK (0: none) */
    uint64_t first_pkt, back_pkt;   /* packet numbers of the first symbol and the BACK (0: none) */
};

enum {
    TN_DFCP_BF_LAST = 0x01,     /* LAST_BLOCK flag seen on its DATA or BACK */
    TN_DFCP_BF_NO_DATA = 0x02,  /* known only from its BACK: no symbol passed here */
    TN_DFCP_BF_ACKING = 0x04,   /* its DATA carried ACKING: a BACK is expected */
    TN_DFCP_BF_INFLIGHT = 0x08, /* counted in flight (analysis bookkeeping) */
    TN_DFCP_BF_ENDED = 0x10,    /* a later block started: no more symbols expected here */
    TN_DFCP_BF_COUNTED = 0x20,  /* a symbol or BACK of it lies within --from/--to (every block
                                 * without a window): the summary and dfcp_blocks.csv count it */
};

/* Was symbol index idx of block b seen at the capture point? */
static inline bool tn_dfcp_block_has(const struct tn_dfcp_block *b, unsigned idx)
{
    return b->seen && idx < b->n && (b->seen[idx / 8] >> (idx % 8) & 1);
}

/* Symbol indices 0..n-1 not seen here: lost before the capture point. */
static inline unsigned tn_dfcp_block_missing(const struct tn_dfcp_block *b)
{
    return b->n > b->symbols_seen ? (unsigned)(b->n - b->symbols_seen) : 0;
}

const char *tn_dfcp_outcome_name(enum tn_dfcp_outcome o);   /* "decoded", "failed", "unacked" */

/* DFCP connection states (dfcp-wire-format.md "Exchange"), as bits 1 << state of
 * tn_dfcp_infer.states when either endpoint is seen to reach them. */
enum tn_dfcp_state {
    TN_DFCP_S_SYN_SENT = 0,
    TN_DFCP_S_SYN_RECV,
    TN_DFCP_S_ESTABLISHED,
    TN_DFCP_S_FIN_WAIT1,
    TN_DFCP_S_FIN_WAIT2,
    TN_DFCP_S_CLOSE_WAIT,
    TN_DFCP_S_LAST_ACK,
    TN_DFCP_S_TIME_WAIT,
    TN_DFCP_S_CLOSED,
    TN_DFCP_S_RESET,
    TN_DFCP_S_COUNT
};

const char *tn_dfcp_state_name(enum tn_dfcp_state s);   /* "SYN_SENT", ... */

/* Inference results of a DFCP connection (issue 5); filled by tn_analyzer_finish.  The data
 * direction is the one with more DATA packets; rates and block counts describe it. */
struct tn_dfcp_infer {
    /* parameters announced in the SYN (side a) and SYNACK (side b) */
    bool syn_seen, synack_seen;
    uint8_t syn_flags, synack_flags;
    uint16_t syn_n, synack_n;
    uint16_t syn_window, synack_window;
    uint32_t syn_k, synack_k;
    uint32_t init_block;       /* the SYN's (or SYNACK's) initial block number */

    /* connection life; times in ns since the epoch, 0 when not seen */
    uint32_t states;           /* bits 1 << enum tn_dfcp_state */
    uint32_t syn_retries, synack_retries, fin_retries, finack_retries;
    int64_t syn_ns, established_ns, fin_ns, closed_ns, reset_ns;
    uint64_t unknown_pkts;     /* version != 1 or reserved type: counted, not interpreted */
    uint64_t ctl_payload_pkts; /* control packets with bytes after the header */
    uint64_t bad_symidx;       /* DATA with symbol index >= symbols per block */

    /* data direction and its parameters (from its DATA) */
    bool data_seen;
    uint8_t data_dir;          /* enum tn_dir */
    bool acking, encoded;
    uint16_t n, window;
    uint32_t k, symbol_size;

    /* blocks */
    uint64_t blocks, decoded, failed, unacked;
    uint64_t blocks_no_data;   /* known from a BACK only (no symbol passed here) */
    uint64_t blocks_short;     /* blocks with symbols missing here */
    uint64_t failed_complete;  /* failed although all n symbols passed here: lost after the monitor */
    uint64_t symbols_seen, symbols_expected, symbols_dup;
    double symbol_loss_seen;   /* 1 - seen/expected over blocks with DATA: lost before the monitor */
    double redundancy;         /* n * symbol_size / k (1 = no redundancy) */
    struct tn_stat back_first_ms;   /* first symbol -> BACK */
    struct tn_stat back_last_ms;    /* latest symbol before the BACK -> BACK */

    /* window use (only with ACKING) */
    uint32_t inflight_max;     /* blocks */
    double inflight_avg;       /* time-weighted over the data period */
    double window_util;        /* inflight_avg / window */
    double window_full_share;  /* share of the data period with window blocks in flight */

    /* rates over the data period (first to last DATA) */
    double duration_s;
    double throughput_bps;     /* all DATA payload bytes */
    double goodput_bps;        /* source bytes (k) of blocks decoded; 0 without ACKING */
    double goodput_ratio;      /* goodput / throughput */
    double symbol_rate_pps;
    double gap_median_us;      /* median gap between consecutive symbols of a block */
    double loss_gap_ratio;     /* arrival gap across missing symbols / (slots x median gap):
                                  ~1 the loss left a hole in time (lossy link after a paced
                                  sender), well below 1 a busy queue dropped (bottleneck);
                                  < 0 when no symbol was missing inside a block */
    enum tn_limiter limiter;   /* RWND: block window; APP: rate-capped sender; BOTTLENECK */
    char limiter_why[96];
};

struct tn_conn {
    unsigned idx;              /* 1-based, in order of first packet */
    uint64_t ord;              /* place of its first packet in the trace (1-based): the key
                                * shards are merged by (tn_analyzer_merge) */
    enum tn_pkt_kind proto;    /* TN_PK_TCP or TN_PK_DFCP */
    struct tn_addr a, b;       /* a = sender of the first packet seen (the SYN sender if seen) */
    uint16_t a_port, b_port;
    struct tn_time first, last;
    /* the first and last packet counted: every packet, or those within --from/--to (struct
     * tn_count_window; the counters of d[] and inf[] count the same packets) */
    struct tn_time span_first, span_last;
    bool counted;              /* a packet was counted */
    struct tn_dir_stats d[2];
    uint64_t anomalies;        /* malformed/truncated packets of this connection */
    bool handshake_seen;       /* SYN seen (TCP) / DFCP SYN seen */
    bool synack_seen;
    bool reset;
    bool closed;               /* FIN both ways (TCP) / FIN + FINACK (DFCP) */
    bool dfcp_over_udp;
    bool retired;              /* idle past the retirement timeout: summary only (see
                                * tn_analyzer_retire_idle); a new packet starts a new connection */

    /* inference (TCP) */
    enum tn_vantage vantage;
    double hs_rtt_ms;          /* SYN -> SYN-ACK -> ACK as seen here; < 0 when not seen */
    double hs_half_ms[2];      /* [a side] monitor<->a and [b side] monitor<->b round trips */
    int64_t hs_ack_ns;         /* the handshake's ACK as seen here (0: not seen) */
    int64_t hs_syn_first_ns;   /* the first SYN a->b as seen here (0: not seen), within
                                * --from/--to or not: the handshake is the connection's */
    struct tn_tcp_infer *inf;  /* [2], per sending direction; a connection that has seen one
                                * SYN only shares a read-only pair of zeros (2 KB less for each
                                * SYN of a flood) until its second packet */

    /* recorded history (only when the analysis config asks for it) */
    struct tn_event *events;
    size_t nevents, cap_events;
    /* [dir][kind]; every connection's series read as empty until one is recorded (then the
     * 2 x TN_SER_COUNT array is allocated: connections without history carry one pointer) */
    struct tn_series (*series)[TN_SER_COUNT];
    struct tn_pktrec *pkts;
    size_t npkts, cap_pkts;
    size_t pkt_limit;          /* merge at this many records (packet_cap, doubled when merging
                                * frees too little) */
    struct tn_dfcp_block *blocks;   /* DFCP: by block number (serial order) after finish */
    size_t nblocks, cap_blocks;
    struct tn_dfcp_infer *dfcp;     /* DFCP inference (issue 5); TCP connections share an
                                     * empty read-only one */
};

/* Per-trace totals. */
struct tn_trace_stats {
    uint64_t frames;           /* frames read */
    uint64_t tcp, dfcp, other; /* by packet kind */
    uint64_t ip4, ip6, fragments, tunneled;
    uint64_t anom_pkts;        /* packets with at least one anomaly */
    uint64_t truncated, malformed;
    uint64_t anom_count[TN_ANOM_COUNT];
    uint64_t anom_first[TN_ANOM_COUNT];        /* packet number where first seen (0: never) */
    const char *anom_first_file[TN_ANOM_COUNT];/* file of that packet (borrowed from the caller) */
    struct tn_time first, last;
    bool have_time;
    uint64_t evicted;          /* connections dropped because the table was full (max_conns) */
    uint64_t briefs_out;       /* briefs of retired connections written out of memory
                                * (cfg.brief_put), read back at the end */
    uint64_t listed_peak;      /* the longest the connection list was before the end (summed
                                * over shards): what memory held per connection */
};

/* Where the bytes of a retired connection lie: the store's numbers (cli/retire.c: the spill
 * file of analysis thread `part`, offset and length). */
struct tn_out_ref {
    uint64_t at;
    uint32_t len;
    uint32_t part;
};
/* tn_out_ref.part of a connection retired to cfg.on_retire only (cfg.on_away). */
#define TN_OUT_AWAY UINT32_MAX

/* --from/--to: the packets a TCP connection's counters count (d[], inf[], span_*, anomalies),
 * [from_ns, to_ns] after the trace's first packet (tn_pkt_place.first_ns) or, with conn_base,
 * after the connection's own first packet; to_ns 0 = to the end.  The inference sees every
 * packet all the same (its state warms up before the window); only what it counts is gated. */
struct tn_count_window {
    bool on;
    bool conn_base;
    int64_t from_ns, to_ns;
};

/* A packet's place in the trace (shards, below). */
struct tn_pkt_place {
    uint64_t ord;              /* the packet's place in the trace, 1-based */
    int64_t clock_ns;          /* the latest time stamp before it (INT64_MIN at the first) */
    int64_t first_ns;          /* the earliest time stamp so far, its own included: the base of
                                * --from/--to (tn_count_window) */
};

struct tn_conn_brief;

struct tn_analysis_cfg {
    bool record_events;        /* keep the event list of each connection */
    bool record_series;        /* keep the time series */
    bool record_packets;       /* keep one tn_pktrec per packet (figures, packets.csv) */
    size_t packet_cap;         /* > 0: when a TCP connection holds this many records, merge
                                * neighbouring plain ones (figures only need an envelope; every
                                * retransmission, SACK and SYN/FIN/RST record is kept) */
    int64_t interval_ns;       /* throughput/goodput interval, default 100 ms */
    size_t max_conns;          /* > 0: connections with analysis state at most; beyond, the
                                * half-open and the longest idle are dropped (evicted) */
    /* Called for every event as it is found (whether or not record_events keeps it), on the
     * thread that calls tn_analyzer_add/finish; c and e are valid during the call only.  Live
     * displays use it to keep a bounded event log without recording every event. */
    void (*on_event)(void *arg, const struct tn_conn *c, const struct tn_event *e);
    void *on_event_arg;
    /* Offline retirement (analysis_retire.c): with a store, a TCP connection closed both ways
     * is retired once its inference has finished (quiet for 200 ms after): its whole state
     * goes to the store as bytes (spill_put; false: keep it in memory) and only its brief stays
     * in memory.  It comes back whole (spill_get, which must not fail) when a late packet of it
     * arrives, and one at a time when an output reads it (tn_analyzer_conn).  The outputs are
     * the same as without a store. */
    bool (*spill_put)(void *arg, unsigned shard, const void *bytes, size_t n, struct tn_out_ref *ref);
    void (*spill_get)(void *arg, const struct tn_out_ref *ref, void *bytes);
    void *spill_arg;
    /* Called after a connection retired (to the store, or with on_away to this call only), with
     * its brief (b->out: where in the store) and its bytes; on the thread that retired it.  The
     * ranks of an MPI job stream them to rank 0 as they retire (cluster_mpi.c).  Returns a
     * number for the connection, which on_away gives back. */
    uint64_t (*on_retire)(void *arg, const struct tn_conn_brief *b, const void *bytes, size_t n);
    void *on_retire_arg;
    /* With on_retire: a connection whose inference finished goes to on_retire only, not to the
     * store (its brief's out.part is TN_OUT_AWAY, out.at on_retire's number): another analyzer
     * keeps it (rank 0's), and a later packet of its endpoints is not analysed here but given
     * to on_away (arg on_retire_arg) with that number, for that analyzer (tn_analyzer_take_late,
     * then tn_analyzer_add_away), as is every packet of those endpoints after it.  A lone SYN
     * retired early still goes to the store. */
    void (*on_away)(void *arg, uint64_t id, const struct tn_pkt *p, struct tn_pkt_place place);
    /* > 0, with a store and no on_retire: a connection that holds no sender state (a DFCP one,
     * or a TCP one that never carried data) leaves memory for the store once it has had no
     * packet for this long, as one closed both ways does (DFCP: 200 ms after its close).  Its
     * state is all in the bytes, so it comes back whole with a later packet and the outputs do
     * not change; it is finished by tn_analyzer_finish, where it lies (analysis_retire.c). */
    int64_t idle_retire_ns;
    /* A live capture's flat memory (analysis_linger.c): with a store and brief_put, a retired
     * connection's brief and flow-table entry stay only while a late packet of it may come
     * (time_wait_ns after the last packet of one closed or reset, idle_retire_ns after that of
     * any other; one retired idle has had it already); then the brief is written out
     * (brief_put, arg spill_arg; false: it stays) and its slot leaves the list, and a later
     * packet of its endpoints starts a new connection.  tn_analyzer_finish reads them back
     * (brief_each: every brief shard put, in the order put) into their places in the list, so
     * the outputs are those of a run that kept them. */
    bool (*brief_put)(void *arg, unsigned shard, const struct tn_conn_brief *b);
    void (*brief_each)(void *arg, unsigned shard, void (*each)(void *ctx, const struct tn_conn_brief *b),
                       void *ctx);
    int64_t time_wait_ns;
    unsigned shard;            /* which shard (-j) this analyzer is, 0 .. n-1: for spill_put */
    struct tn_count_window window;
};

struct tn_analyzer;

struct tn_analyzer *tn_analyzer_new(const struct tn_analysis_cfg *cfg);
/* The configuration it runs with (defaults filled in). */
const struct tn_analysis_cfg *tn_analyzer_cfg(const struct tn_analyzer *a);
void tn_analyzer_free(struct tn_analyzer *a);

/* Account one dissected packet.  status is tn_dissect's return value; source names the file
 * (kept as a borrowed pointer for anomaly reports: it must outlive the analyzer). */
void tn_analyzer_add(struct tn_analyzer *a, const struct tn_pkt *p, int status, const char *source);

/* Long live runs: finish every connection whose last packet is more than idle_ns before now_ns
 * and keep only its summary (struct tn_conn, about 3 KB) — rings, models, events, series and
 * packet records are freed.  With a store (cfg.spill_put) the finished connection goes there
 * whole instead and only its brief stays (tn_conn_brief.ended), as an offline run's closed
 * connections do.  Either way a later packet of the same 5-tuple starts a new connection.
 * Returns how many were retired. */
size_t tn_analyzer_retire_idle(struct tn_analyzer *a, int64_t now_ns, int64_t idle_ns);

/* Call once at the end of input, before reading results. */
void tn_analyzer_finish(struct tn_analyzer *a);

/* ---- shards (-j N, analysis_shard.c; /work/wt/SHARDS.md) ----
 * A reader counts every packet into one analyzer (tn_analyzer_count) and hands each TCP/DFCP
 * packet, with its place in the trace, to the shard that owns its connection
 * (tn_shard_of(tn_flow_hash(p), n)), a plain analyzer fed by tn_analyzer_add_flow.  A
 * connection's analysis depends only on its own packets and the trace clock of their places, so
 * after tn_analyzer_finish on every shard, tn_analyzer_merge gives the connections -j 1 gives,
 * numbered alike.  tn_analyzer_add(a, p, s, src) is tn_analyzer_add_flow(a, p,
 * tn_analyzer_count(a, p, s, src)). */
/* (struct tn_pkt_place: above, before tn_analysis_cfg) */

/* The trace totals of one packet (frames, kinds, anomalies, first and last time); returns its
 * place.  source as for tn_analyzer_add. */
struct tn_pkt_place tn_analyzer_count(struct tn_analyzer *a, const struct tn_pkt *p, int status,
                                      const char *source);
/* The connection part of one packet (nothing for packets that are not TCP or DFCP). */
void tn_analyzer_add_flow(struct tn_analyzer *a, const struct tn_pkt *p, struct tn_pkt_place place);

/* Which of n shards owns the connection of a packet with this tn_flow_hash: the high 32 bits
 * (the flow table indexes by the low ones). */
static inline unsigned tn_shard_of(uint64_t hash, unsigned n)
{
    return n > 1 ? (unsigned)((hash >> 32) % n) : 0;
}

/* After tn_analyzer_finish on every shard: move all their connections into `into` (which
 * counted the trace and holds no connection of its own), in the order of their first packet,
 * numbered from 1; evictions are summed.  The shards are left empty, to be freed. */
void tn_analyzer_merge(struct tn_analyzer *into, struct tn_analyzer *const *shards, size_t n);

size_t tn_analyzer_conn_count(const struct tn_analyzer *a);
/* Connection i (0-based).  A retired one is brought back from the store into the analyzer's
 * one reading slot: the pointer is valid until the next call for another retired connection
 * (outputs read the connections one at a time). */
const struct tn_conn *tn_analyzer_conn(const struct tn_analyzer *a, size_t i);
/* A reading slot of its own, for outputs that read the connections on several threads at
 * once, each thread through its slot: tn_reader_conn(r, i) is tn_analyzer_conn(a, i), valid
 * until r's next call.  The analyzer is only read (its packets all analysed, nothing else
 * changing it meanwhile); cfg.spill_get is then called from those threads at once. */
struct tn_reader;
struct tn_reader *tn_reader_new(const struct tn_analyzer *a);
const struct tn_conn *tn_reader_conn(struct tn_reader *r, size_t i);
void tn_reader_free(struct tn_reader *r);
const struct tn_trace_stats *tn_analyzer_stats(const struct tn_analyzer *a);
/* The connection numbered idx (tn_conn.idx, 1-based), or NULL when it was evicted: numbers
 * keep their first-packet order, evictions leave gaps. */
const struct tn_conn *tn_analyzer_conn_by_number(const struct tn_analyzer *a, unsigned idx);

enum tn_conn_state tn_conn_state(const struct tn_conn *c);

/* What the outputs written at the end of a run read of every connection (the connection list,
 * the significance rule, the trace summary) without bringing back those retired offline
 * (cfg.spill_put), and all of them that stays in memory (check_scale pins its size). */
struct tn_conn_brief {
    uint64_t ord;              /* tn_conn.ord */
    uint64_t pkts[2], data_bytes[2];
    uint64_t capture_gaps;     /* inf[0] + inf[1] */
    struct tn_out_ref out;     /* where its bytes lie (retired only) */
    struct tn_addr a, b;
    uint16_t a_port, b_port;
    unsigned idx;
    uint16_t mss[2];           /* 0: not seen */
    uint8_t proto;             /* enum tn_pkt_kind */
    uint8_t state;             /* enum tn_conn_state */
    bool dfcp_over_udp;
    bool retired;              /* only the brief is in memory */
    bool unfinished;           /* retired idle, before its end: tn_analyzer_finish finishes it */
    bool ended;                /* finished by tn_analyzer_retire_idle: as a summary's, a later
                                * packet of its endpoints starts a new connection */
};

/* The brief of a connection with its state. */
void tn_conn_brief_of(const struct tn_conn *c, struct tn_conn_brief *b);
/* The brief of connection i (0-based), retired or not. */
void tn_analyzer_brief(const struct tn_analyzer *a, size_t i, struct tn_conn_brief *b);
/* Connections retired so far (their bytes in the store, their brief in memory). */
size_t tn_analyzer_retired(const struct tn_analyzer *a);

/* Symmetric hash of a packet's 5-tuple: both directions of a connection hash alike (the flow
 * table's, and the one that gives a connection its worker). */
uint64_t tn_flow_hash(const struct tn_pkt *p);

/* tcptrace's weighted average owin of a direction: outstanding bytes averaged over the time
 * from its first data segment to its last packet (0 without data). */
double tn_dir_owin_wavg(const struct tn_dir_stats *s);

/* Goodput of a direction in bit/s: the sequence space its data covered (unique bytes) over the
 * connection's duration (0 when < 1 packet). */
double tn_dir_throughput_bps(const struct tn_conn *c, enum tn_dir d);
/* What sender d retransmitted, as inferred at this vantage: fast + timeout + other (spurious is a
 * property of one of those, not another copy).  The one retransmission count of the experiment
 * table and figures and the dashboard; tn_dir_stats.rexmit_pkts is the raw overlap counter
 * (data below the highest sequence seen here, tcptrace's "rexmt data pkts"). */
uint64_t tn_dir_rexmits(const struct tn_conn *c, enum tn_dir d);

/* ---- live state of a sender (analysis_live.c), for dashboards ---- */
enum tn_live_episode {
    TN_LIVE_EP_NONE = 0,
    TN_LIVE_EP_RECOVERY,       /* fast recovery under way */
    TN_LIVE_EP_RTO,            /* timeout recovery under way */
    TN_LIVE_EP_ZERO_WINDOW,    /* the receiver advertises a zero window */
};

struct tn_conn_live {
    double srtt_ms;            /* RFC 6298 smoothed RTT; < 0 before the first sample */
    double cwnd_bytes;         /* congestion-window estimate now; < 0 when unknown */
    double inflight_bytes;     /* outstanding minus SACKed; < 0 for DFCP */
    uint32_t rwnd;             /* last window advertised to the sender (0: not seen) */
    uint32_t dfcp_inflight;    /* DFCP: blocks with symbols seen and no BACK */
    bool zero_window;
    enum tn_live_episode episode;
};

/* What the inference knows now about direction d's sender (TCP) or its blocks (DFCP).  Valid
 * before and after tn_analyzer_finish; copies, so out stays valid when the analyzer moves on. */
void tn_conn_live_get(const struct tn_conn *c, enum tn_dir d, struct tn_conn_live *out);

/* ---- grading against kernel ground truth (analysis_truth.c) ---- */
struct tn_truth;

/* Load the kernel's record of a run (analysis_truth_load.c): the lab's tcp_probe.csv (then
 * tcp_cong_state.csv and tcp_retransmit.csv beside it are read too), a raw tracefs text dump
 * of tcp:tcp_probe, or an `ss -tin` polling log with a time stamp line before each poll.  Each
 * file's header is checked and its columns found by name; what cannot be read is refused with
 * -TN_EFORMAT naming the file and the problem. */
int tn_truth_load(const char *path, struct tn_truth **out, struct tn_err *err);
/* What was read: "tcp_probe.csv (tcp_probe CSV): 2131 records; tcp_cong_state.csv: 40 records;
 * no tcp_retransmit.csv beside it". */
const char *tn_truth_sources(const struct tn_truth *t);
void tn_truth_free(struct tn_truth *t);

/* The kernel's congestion window and slow-start threshold (segments) of the sender of direction
 * d of c, in the file's order, while the capture saw the connection.  ssthresh points that are
 * no threshold (the kernel's "infinite" initial 0x7fffffff, or none reported) are left out.
 * Returns the number of cwnd points; *cwnd and *ssth are allocated (free both, even when 0). */
size_t tn_truth_window(const struct tn_truth *t, const struct tn_conn *c, int d, struct tn_point **cwnd,
                       struct tn_point **ssth, size_t *nssth);

/* Accuracy for one sender (connection, direction) that the truth covers. */
struct tn_accuracy {
    unsigned conn;
    int dir;
    uint64_t probes, limited;                 /* probes matched; of them cwnd-limited */
    size_t cwnd_n, cwnd_open_n, rtt_n;
    double cwnd_err_med, cwnd_err_p90;        /* |est - true| / true over cwnd-limited ACKs */
    double cwnd_err_open_med, cwnd_err_open_p90;   /* the same outside Recovery/Loss/CWR */
    double rtt_err_med, rtt_err_p90;          /* our smoothed RTT against the kernel's srtt */
    uint64_t truth_episodes[2], our_episodes[2], matched_episodes[2];   /* [0] recovery [1] timeout */
    uint64_t truth_rexmits, our_rexmits;
    uint64_t confusion[3][4];                 /* truth fast/rto/other x ours fast/rto/other/none */
};

/* Grade every covered sender; returns how many entries of out were filled (at most max). */
size_t tn_truth_compare(const struct tn_truth *t, const struct tn_analyzer *a, struct tn_accuracy *out,
                        size_t max);

/* ---- connections as bytes (analysis_pack.c): the ranks of an MPI job send their finished
 * connections to rank 0, which adopts them into one analyzer for the outputs (docs/cluster.md).
 * Raw structs in native byte order: the ranks of one job run the same binary. */
/* Append connection c of an analyzer, after tn_analyzer_finish: its summary, inference results,
 * events, series, packet records and DFCP blocks. */
void tn_conn_pack(const struct tn_conn *c, struct tn_packbuf *b);

/* Read one connection tn_conn_pack wrote at in (n bytes available); *used gets its length.
 * NULL when the bytes are cut or are no packed connection.  Free it with tn_conn_unpacked_free
 * unless an analyzer adopts it. */
struct tn_conn *tn_conn_unpack(const uint8_t *in, size_t n, size_t *used);
void tn_conn_unpacked_free(struct tn_conn *c);
/* The bytes of a connection another analyzer retired (what cfg.on_retire got: tn_conn_pack's and
 * the rest of its state), read as a store's reader reads them back (analysis_retire.c), every
 * byte: NULL when they do not read so or hold a value the analysis never makes.  Free it with
 * tn_conn_unpacked_free unless an analyzer adopts it. */
struct tn_conn *tn_conn_retired_unpack(const uint8_t *in, size_t n);
/* The same read, with the same checks, its memory all in arena (rank 0 checking another rank's
 * bytes before its store keeps them: no malloc and free for each array); not to be freed, grown
 * nor adopted. */
const struct tn_conn *tn_conn_retired_unpack_in(const uint8_t *in, size_t n, struct tn_arena *arena);

/* Analyzer a (made by tn_analyzer_new, fed no packets) takes c from tn_conn_unpack as its next
 * connection, numbered idx (above the numbers it has; 0: the next number); a owns it from now
 * on. */
void tn_analyzer_adopt(struct tn_analyzer *a, struct tn_conn *c, unsigned idx);

/* Analyzer a (fed no packets, with a store: cfg.spill_get) takes a connection retired in
 * another analyzer by its brief b, whose bytes (what on_retire got) lie in a's store at
 * b->out: as tn_analyzer_adopt, numbered next, read back from the store by the outputs
 * (analysis_adopt.c). */
void tn_analyzer_adopt_retired(struct tn_analyzer *a, const struct tn_conn_brief *b);

/* Analyzer a (fed no packets) takes a connection of another analyzer by its brief alone, for
 * outputs that read only briefs (tn_analyzer_brief): its bytes are nowhere here, and reading it
 * whole (tn_analyzer_conn) is a bug. */
void tn_analyzer_adopt_brief(struct tn_analyzer *a, const struct tn_conn_brief *b);

/* The first packet of its endpoints that the analyzer which retired connection k with
 * cfg.on_away (its brief's out.part was TN_OUT_AWAY) gave on_away, k adopted from it: p is
 * analysed as tn_analyzer_add_flow does, k brought back from the store (or, adopted whole,
 * analysed and finished as an open connection), and the later packets of those endpoints go to
 * tn_analyzer_add_away.  false, with nothing done, when p is not of k's endpoints or a already
 * has a connection of them. */
bool tn_analyzer_take_late(struct tn_analyzer *a, size_t k, const struct tn_pkt *p, struct tn_pkt_place place);
/* A later packet on_away gave, analysed as tn_analyzer_add_flow does, in the connection of its
 * endpoints that tn_analyzer_take_late named or one such packets started since; false, with
 * nothing done, when a has no connection of its endpoints. */
bool tn_analyzer_add_away(struct tn_analyzer *a, const struct tn_pkt *p, struct tn_pkt_place place);

/* Of the connections adopted with the same first packet (tn_conn.ord), only the last adopted
 * stays: a connection retired, then brought back by a late packet, comes again later.  Those
 * that stay are left in the order of their first packets (tn_analyzer_merge then merges without
 * sorting); numbers are left to tn_analyzer_merge.  Returns how many went. */
size_t tn_analyzer_keep_latest(struct tn_analyzer *a);

/* Replace a's trace totals (the shards' totals, merged by the caller). */
void tn_analyzer_set_stats(struct tn_analyzer *a, const struct tn_trace_stats *st);

#endif
