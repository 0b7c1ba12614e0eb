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

/* Per-direction counters: the direction's sender is the source of its packets. */
struct tn_dir_stats {
    uint64_t pkts;
    uint64_t wire_bytes;       /* frame bytes on the wire (what tshark's conversations count) */
    uint64_t data_pkts;        /* packets carrying payload (TCP) / DATA packets (DFCP) */
    uint64_t data_bytes;       /* payload bytes on the wire, retransmissions included */
    uint64_t unique_bytes;     /* sequence space covered by data: highest end minus lowest start */
    uint64_t pure_acks;        /* ACK set, no data, no SYN/FIN/RST */
    uint64_t rexmit_pkts;      /* data below the highest sequence already seen */
    uint64_t rexmit_bytes;
    uint64_t ooo_pkts;         /* data arriving above a hole that later fills (not a rexmit) */
    uint64_t dupacks;
    uint64_t zero_wnd;         /* zero-window advertisements */
    uint64_t syn, fin, rst;
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

    /* DFCP */
    uint64_t dfcp_type_pkts[16];
    uint64_t dfcp_blocks;      /* distinct blocks with DATA seen */
    bool dfcp_block_set;
    uint32_t dfcp_hi_block;
    uint16_t dfcp_n, dfcp_window;
    uint32_t dfcp_k;
    uint8_t dfcp_flags;
};

struct tn_conn {
    unsigned idx;              /* 1-based, in order of first packet */
    enum tn_pkt_kind proto;    /* TN_PK_TCP or TN_PK_DFCP */
    struct tn_addr a, b;       /* a = sender of the first packet seen (the SYN sender if seen) */
    uint16_t a_port, b_port;
    struct tn_time first, last;
    struct tn_dir_stats d[2];
    uint64_t anomalies;        /* malformed/truncated packets of this connection */
    bool handshake_seen;       /* SYN seen (TCP) / DFCP SYN seen */
    bool synack_seen;
    bool reset;
    bool closed;               /* FIN both ways (TCP) / FIN + FINACK (DFCP) */
    bool dfcp_over_udp;
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
};

struct tn_analysis_cfg {
    int reserved;              /* nothing yet: later issues add inference options */
};

struct tn_analyzer;

struct tn_analyzer *tn_analyzer_new(const struct tn_analysis_cfg *cfg);
void tn_analyzer_free(struct tn_analyzer *a);

/* Account one dissected packet.  status is tn_dissect's return value; source names the file
 * (kept as a borrowed pointer for anomaly reports: it must outlive the analyzer). */
void tn_analyzer_add(struct tn_analyzer *a, const struct tn_pkt *p, int status, const char *source);

/* Call once at the end of input, before reading results. */
void tn_analyzer_finish(struct tn_analyzer *a);

size_t tn_analyzer_conn_count(const struct tn_analyzer *a);
const struct tn_conn *tn_analyzer_conn(const struct tn_analyzer *a, size_t i); /* i 0-based */
const struct tn_trace_stats *tn_analyzer_stats(const struct tn_analyzer *a);

enum tn_conn_state tn_conn_state(const struct tn_conn *c);

/* Throughput of a direction in bit/s over the connection's duration (0 when < 1 packet). */
double tn_dir_throughput_bps(const struct tn_conn *c, enum tn_dir d);

#endif
