/* views.h - the multi-flow views: what is computed across connections after the per-connection
 * analysis (tn_analyzer_finish) has run: which connections are significant, flow identity across
 * traces, fairness, parallel transfers, router queues from one and two capture points, ns-2 link
 * queues, experiment tables.  The views layer sits on top of analysis and uses only its public
 * interface (analysis.h); render and cli use it.  Each result owns its memory; free it with its
 * _fini or _free. */
#ifndef TN_VIEWS_H
#define TN_VIEWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis.h"
/* Significant connections (views_signif.c): one rule for every multi-flow view.  A
 * connection with data counts when it carried at least TN_SIGNIF_SHARE of the largest
 * considered connection's bytes (control connections do not), or more than an initial window
 * (RFC 6928) in one direction; all = --all-connections. */
#define TN_SIGNIF_SHARE 0.01
struct tn_signif {
    uint64_t max_bytes;        /* data bytes of the largest considered connection */
    bool all;
    size_t total, kept;        /* considered connections with data; of them significant */
};
void tn_signif_init(struct tn_signif *s, const struct tn_analyzer *a, const unsigned *sel, size_t nsel,
                    bool all);
bool tn_signif_keep(const struct tn_signif *s, const struct tn_conn *c);
bool tn_signif_keep_brief(const struct tn_signif *s, const struct tn_conn_brief *b);

/* Flow identity across traces (views_flowid.c): --flow NAME=SPEC rules, else the key
 * "CLIENT>SERVER:PORT" (no ephemeral port). */
struct tn_flow_ep {
    bool set;
    struct tn_addr addr;
    uint16_t port;             /* 0 = any */
};
struct tn_flow_rule {
    char name[48];
    struct tn_flow_ep client, server, host;
    uint16_t port;             /* either side's port; 0 = any */
    bool proto_set;
    enum tn_pkt_kind proto;
    /* SPEC a filter expression (BPF) instead of terms: views cannot run it, the caller compiles
     * the text and sets match (NULL: the rule matches nothing) */
    char filter[256];
    bool (*match)(void *arg, const struct tn_conn *c);
    void *match_arg;
};
int tn_flow_rule_parse(const char *arg, struct tn_flow_rule *r, struct tn_err *err);
bool tn_flow_rule_match(const struct tn_flow_rule *r, const struct tn_conn *c);
/* Is side a the client (SYN sender; without a handshake, the side with the higher port)? */
bool tn_conn_client_is_a(const struct tn_conn *c);
/* The first matching rule's name, else the default key. */
void tn_flow_key(const struct tn_conn *c, const struct tn_flow_rule *rules, size_t nrules, char *buf, size_t len);

/* Jain's fairness index (sum x)^2 / (n * sum x^2) of n values: 1 when all equal, 1/n when one
 * value takes everything.  1 when n == 0 or all values are 0. */
double tn_jain_index(const double *x, size_t n);

enum tn_fair_by { TN_FAIR_CONN = 0, TN_FAIR_HOSTPAIR, TN_FAIR_PROTO };
const char *tn_fair_by_name(enum tn_fair_by b);          /* "conn", "hostpair", "proto" */

struct tn_fair_cfg {
    enum tn_fair_by by;
    int64_t window_ns;         /* Jain series window; 0 = the analysis interval */
    const unsigned *sel;       /* connection numbers to consider (NULL/0: all) */
    size_t nsel;
    bool all_connections;      /* keep connections that are not significant (tn_signif) */
};

/* One competing flow: a connection, a host pair or a protocol. */
struct tn_fair_flow {
    char name[128];            /* "conn 3", "10.0.0.1-10.0.0.2", "tcp" */
    unsigned conn;             /* by conn: the connection number; else 0 */
    size_t nconns;             /* connections in the flow */
    uint64_t bytes;            /* data bytes (payload, retransmissions included), both directions */
    int64_t first_ns, last_ns; /* first and last packet of its connections */
    double throughput_bps;     /* bytes * 8 over [first_ns, last_ns] */
    double share;              /* of the flows' summed throughput */
};

struct tn_fairness {
    enum tn_fair_by by;
    struct tn_fair_flow *flows;
    size_t nflows;
    unsigned *excluded;        /* connections left out as not significant (tn_signif) */
    size_t nexcluded;
    double jain;               /* over the flows' throughputs */
    double max_min;            /* largest / smallest throughput; 0 when the smallest is 0 */
    double ratio;              /* two flows: first / second throughput; else 0 */
    int64_t window_ns;
    struct tn_series jain_series;   /* one point per window (time = the window's end) of the flows
                                       active in it; needs packet records */
    struct tn_series *flow_tput;    /* [nflows]: throughput per window, bit/s */
};

/* Compute over the analyzer's connections (packet records give the series; without them only
 * the whole-trace numbers).  Returns the number of flows. */
size_t tn_fairness_compute(const struct tn_analyzer *a, const struct tn_fair_cfg *cfg,
                           struct tn_fairness *out);
void tn_fairness_fini(struct tn_fairness *f);

/* Parallel transfers (views_parallel.c): connections between the same host pair, same
 * protocol and server port, started within window_ns of the group's first one. */
struct tn_parallel {
    unsigned *conns;           /* connection numbers of the subflows */
    size_t n;
    char name[128];            /* "10.0.0.1-10.0.0.2:5201" */
    int64_t first_ns, last_ns;
    uint64_t bytes;
    double throughput_bps;     /* aggregate: bytes * 8 over [first_ns, last_ns] */
    double *share;             /* [n]: each subflow's share of the bytes */
    struct tn_series aggregate;/* aggregate throughput per window (bit/s) */
    struct tn_series *sub;     /* [n] subflow share per window (0..1) */
};

/* Groups with at least two subflows; returns how many (*out allocated, free with
 * tn_parallel_free). */
size_t tn_parallel_find(const struct tn_analyzer *a, int64_t start_window_ns, int64_t series_window_ns,
                        struct tn_parallel **out);
void tn_parallel_free(struct tn_parallel *p, size_t n);

/* A flow at a router or link: the direction src->dst of a 5-tuple (or an ns-2 flow). */
struct tn_qflow {
    struct tn_addr src, dst;
    uint16_t sport, dport;
    uint8_t proto;             /* enum tn_pkt_kind */
    unsigned conn;             /* connection number in the analyzer (0: not found) */
    int dir;                   /* enum tn_dir within that connection */
    uint64_t pkts_in, pkts_out, bytes_in, bytes_out;
    uint64_t drops, drop_bytes;/* seen before the router, never after */
    uint64_t unmatched_end;    /* seen before, still inside at the end of the capture */
    struct tn_stat sojourn_ms;
    struct tn_series queue_pkts, queue_bytes, sojourn;   /* this flow's packets in the queue */
};

/* Two capture points around a router (views_queue2pt.c).  Feed packets from both points in
 * time order; packets are matched on invariant fields (addresses, ports, IP id, TCP seq/ack,
 * payload length, flags; not TTL or checksums).  A packet matched from ingress to egress was
 * queued; one seen at ingress whose flow later had a newer packet leave (FIFO per flow), or that
 * waited longer than expire_ns, was dropped at the router.  Packets crossing the other way
 * (egress point first) are matched too and counted apart. */
struct tn_q2cfg {
    int64_t expire_ns;         /* default 10 s */
};

struct tn_q2;
struct tn_q2 *tn_q2_new(const struct tn_q2cfg *cfg);
void tn_q2_free(struct tn_q2 *q);
void tn_q2_add(struct tn_q2 *q, const struct tn_pkt *p, bool egress);
/* End of input; conn/dir of each flow are looked up in a (may be NULL). */
void tn_q2_finish(struct tn_q2 *q, const struct tn_analyzer *a);

struct tn_q2_result {
    struct tn_qflow *flows;    /* forward flows (ingress -> egress) */
    size_t nflows;
    uint64_t matched, drops, reverse_matched, unmatched_end, ambiguous;
    struct tn_stat sojourn_ms;
    struct tn_series queue_pkts, queue_bytes;   /* the whole queue, one point per change */
    double queue_pkts_avg;     /* time-weighted over the matched period */
    uint32_t queue_pkts_max;
    /* Clocks (two points on separate hosts): from the two directions of the connection with the
     * most matches, apparent delays m = t(egress point) - t(ingress point) are >= 0 one way and
     * <= 0 the other when the clocks agree.  With equal smallest delays both ways the egress
     * clock is ahead by offset = (min m one way + max m other way) / 2. */
    bool clock_known;
    unsigned clock_conn;       /* its connection (0: not in the analyzer) */
    double clock_offset_ms;    /* egress point's clock minus the ingress point's */
    double owd_min_ms[2];      /* smallest one-way delay, offset removed: [0] ingress -> egress,
                                  [1] egress -> ingress */
    bool clock_unsync;         /* a packet appeared to arrive before it left: clocks differ */
    double clock_worst_ms;     /* the most negative apparent one-way delay */
};
const struct tn_q2_result *tn_q2_result(const struct tn_q2 *q);

/* Single capture point (views_queue1pt.c).  Assumptions, stated in the reports: one shared
 * FIFO bottleneck; a sender's smallest RTT sample is its propagation delay with an empty queue,
 * so queueing delay = RTT sample - minimum RTT; the queue drains at the bottleneck rate, estimated
 * from the ACK clock as the 90th percentile of the acknowledged rate per interval (the goodput
 * series, summed over the flows); occupancy = delay * rate. */
struct tn_q1 {
    unsigned conn;
    int dir;
    double min_rtt_ms;
    double rate_bps;           /* this flow's ACK-clock rate */
    double seg_size;           /* bytes per packet (the sender's largest segment) */
    struct tn_series delay_ms; /* per RTT sample */
};

struct tn_q1_result {
    struct tn_q1 *flows;
    size_t n;
    double rate_bps;           /* bottleneck rate: p90 of the summed acknowledged rate */
    double seg_size;           /* the largest sender segment */
    struct tn_series queue_pkts;    /* whole queue, one point per RTT sample of any flow */
    struct tn_series queue_bytes;
};

/* Needs the analyzer's series (RTT samples, goodput). */
void tn_q1_estimate(const struct tn_analyzer *a, struct tn_q1_result *out);
void tn_q1_fini(struct tn_q1_result *r);

/* Mean absolute error of est against truth, truth read as a step function (its value holds
 * until its next point) at every point of est inside truth's time range; *n gets the count. */
double tn_series_mae(const struct tn_series *est, const struct tn_series *truth, size_t *n);

/* ns-2 link queues (views_linkq.c): exact occupancy from enqueue (+), dequeue (-) and drop
 * (d) events of every link. */
enum tn_linkq_ev { TN_LQ_ENQUE = '+', TN_LQ_DEQUE = '-', TN_LQ_DROP = 'd', TN_LQ_RECV = 'r' };

struct tn_linkq_link {
    int from, to;              /* node numbers */
    uint64_t enq, deq, drops, drop_bytes;
    uint32_t max_pkts;
    uint64_t max_bytes;
    uint32_t pkts;             /* current */
    uint64_t bytes;
    struct tn_series queue_pkts, queue_bytes;   /* one point per change */
    double pkts_area;          /* time-weighted sum, pkts * s */
    int64_t last_ns, first_ns;
    uint64_t *flow_drops;      /* by ns-2 flow id (fid < nfid) */
    size_t nfid;
};

struct tn_linkq;
struct tn_linkq *tn_linkq_new(void);
void tn_linkq_free(struct tn_linkq *l);
/* One trace event (id: the packet's unique id).  The occupancy is the queue after all events
 * of one time stamp. */
void tn_linkq_event(struct tn_linkq *l, int ev, int64_t t_ns, int from, int to, uint32_t size, int fid,
                    long id);
/* End of the trace: settle the last instant's maximum.  Call before reading the links. */
void tn_linkq_finish(struct tn_linkq *l);
size_t tn_linkq_count(const struct tn_linkq *l);
const struct tn_linkq_link *tn_linkq_link(const struct tn_linkq *l, size_t i);

/* Experiment reports (views_experiment.c): several labelled traces, one row per connection. */
struct tn_exp_row {
    unsigned trace;            /* 1-based, in the order given */
    const char *label;         /* borrowed from the experiment */
    char flow[64];             /* identity across traces: --flow NAME or CLIENT>SERVER:PORT */
    char host[64];             /* CLIENT>SERVER:PORT, whatever the rules say */
    enum tn_cc_flavor cc;      /* the data sender's inferred flavour (TCP) */
    unsigned conn;
    enum tn_pkt_kind proto;
    struct tn_addr a, b;
    uint16_t a_port, b_port;
    double goodput_bps, throughput_bps;
    uint64_t rexmit_pkts;      /* both senders' retransmissions, as inferred (tn_dir_rexmits) */
    double rtt_ms_avg;         /* < 0: no sample */
    double jain;               /* the trace's index */
    double win_from_s, win_to_s;   /* the averaging interval, seconds from the trace's first packet */
};

struct tn_experiment {
    char **labels;
    char **files;
    size_t ntraces;
    struct tn_exp_row *rows;
    size_t nrows, cap;
    double *jain;              /* [ntraces] */
    double *util;              /* [ntraces] link utilisation (tn_exp_cfg.link_rate_bps), NAN without */
    double link_rate_bps;
};

/* Over which interval a row's goodput and throughput are averaged. */
enum tn_exp_window {
    TN_EXPW_LIFE = 0,          /* the connection's first to last packet */
    TN_EXPW_FIXED,             /* [from_ns, to_ns] from the trace's first packet */
    TN_EXPW_STEADY,            /* end of the sender's first slow start to its last data packet */
    TN_EXPW_DATA,              /* the sender's first to last data packet (the transfer period) */
};

struct tn_exp_cfg {
    const struct tn_fair_cfg *fair;   /* the trace's fairness index (and the significance rule) */
    const struct tn_flow_rule *rules; /* --flow rules */
    size_t nrules;
    enum tn_exp_window window;
    int64_t from_ns, to_ns;    /* TN_EXPW_FIXED; to_ns 0 = the end (needs packet records) */
    double link_rate_bps;      /* the bottleneck's rate: utilisation = the rows' goodput bytes over
                                  the trace's span (earliest row start to latest end) x rate */
};

/* Add the rows of one analyzed trace (significant connections carrying data). */
void tn_experiment_add(struct tn_experiment *e, const char *label, const char *file,
                       const struct tn_analyzer *a, const struct tn_exp_cfg *cfg);
void tn_experiment_fini(struct tn_experiment *e);
/* The per-connection values the experiment rows use (also the fairness section's). */
double tn_conn_throughput_bps(const struct tn_conn *c);   /* data bytes both ways / duration */
double tn_conn_goodput_bps(const struct tn_conn *c);      /* unique bytes (DFCP: decoded) */

#endif
