/* analysis_int.h - private state of the analysis layer, shared by its files only. */
#ifndef TN_ANALYSIS_INT_H
#define TN_ANALYSIS_INT_H

#include <string.h>

#include "analysis.h"
#include "analysis_ranges.h"
#include "analysis_tcp_episode.h"
#include "analysis_tcp_replay.h"
#include "analysis_tcp_rtt.h"
#include "analysis_tcp_sack.h"
#include "analysis_tcp_slowstart.h"

/* Milliseconds from earlier to later (nanosecond times). */
static inline double tn_ms_between(int64_t later, int64_t earlier)
{
    return (double)(later - earlier) / 1e6;
}

/* How a data segment relates to what was seen before (analysis_tcp.c decides). */
enum tn_seg_class {
    TN_SEG_NEW,                /* above everything seen */
    TN_SEG_FILL,               /* inside a gap never seen: reordering or loss upstream */
    TN_SEG_REXMIT,             /* overlaps data already seen here */
    TN_SEG_PROBE,              /* a byte sent again into a zero window: a window probe */
};

struct tn_seginfo {
    int64_t start, end;
    enum tn_seg_class cls;
    struct tn_gap gap;         /* FILL: the gap it fell into (as it was) */
    bool made_gap;             /* NEW: it left a gap below it */
    bool tail;                 /* FILL: a lost tail's retransmission, known from the IP IDs */
    uint8_t cause;             /* set by the inference: 0, or 1 + enum tn_event_kind (rexmit_*) */
};

/* What the counters (analysis_tcp.c) saw of one TCP packet, handed to the inference. */
struct tn_tcp_seen {
    int64_t t_ns;              /* the packet's time, tn_time_ns(p->ts), computed once */
    bool data;                 /* it carries data: si says how it relates to the data before */
    struct tn_seginfo si;
    bool fin_resent;           /* a FIN sent again at fin_rel (and not counted with its data) */
    int64_t fin_rel;
    bool ack;                  /* the ACK flag: ack_rel is its place in the peer's sequence */
    int64_t ack_rel;
    bool has_win;              /* a window was advertised: win, scaled */
    uint32_t win;
};

/* The receiver's quick-ACK run in progress (analysis_ackpolicy.c). */
struct tn_quickack {
    unsigned run;
    struct tn_time first_ts;
    uint64_t first_num;
    int64_t last_ns, seq;
};

/* Sender-side state of one direction for the inference (the direction's data, the other
 * direction's ACKs): one part per concern, each in its file. */
struct tn_sender {
    struct tn_rtt rtt;         /* round-trip times (analysis_tcp_rtt.c) */
    struct tn_scoreboard sb;   /* cumulative ACK, SACKs, dupacks, pipe (analysis_tcp_sack.c) */
    struct tn_episodes ep;     /* retransmission causes, episodes (analysis_tcp_episode.c) */
    struct tn_replay rp;       /* ACKs handed to the window models (analysis_tcp_replay.c) */
    struct tn_ss_end ss;       /* the end of slow start (analysis_tcp_slowstart.c) */
    struct tn_quickack qa;     /* the receiver's quick ACKs (analysis_ackpolicy.c) */
    struct tn_cc_model *models;/* cwnd models (analysis_tcp_cwnd.c) */
    uint32_t mss;              /* the receiver's MSS (1448 when not seen) */
    int64_t first_send_ns;     /* first and last data segment sent */
    int64_t last_send_ns;
    int64_t last_ack_ns;       /* last ACK from the receiver */
    uint64_t last_activity_pkt;/* the packet of the later of the two (an idle period's start) */
    int64_t last_progress_ns;  /* last ACK that advanced una */
    int64_t ack_hi;            /* the highest cumulative ACK seen, also one below the first
                                * data seen (a capture begun mid-flow) */
    bool ack_hi_set;
    int64_t first_una;         /* the left edge the first data seen set */
    bool zero_window;          /* receiver advertised zero */
    uint32_t rwnd;             /* last window advertised to this sender (scaled) */
    bool rwnd_seen;
    bool rwnd_scale_unknown;   /* the SYNs were not seen: the window's scale is unknown */
    bool rwnd_scaled;          /* ... and more was in flight than the window unscaled allows */
    int64_t last_interval_end; /* throughput/goodput series */
    uint64_t interval_bytes, interval_good;
};

struct tn_dir_priv {
    struct tn_rangeset gaps;   /* grown at the first gap: most directions never see one */
    bool fin_seen;
    int64_t fin_rel;           /* sequence number of the first FIN (relative) */
    int64_t fin_ns;            /* when the FIN was last sent, and how often it was sent again */
    uint16_t fin_resent;
    bool probe_pending;        /* a window-probe byte not yet sent for real */
    int64_t probe_rel;
    bool dfcp_block_set;
    struct tn_sender *snd;     /* allocated at the first use of the sender's state (TCP) */
    uint32_t snd_mss;          /* its segment size, fixed when the sender became known (0: not yet) */
    /* IPv4 identification as a packet counter (analysis_tcp.c: ipid_track) */
    uint16_t ipid_last;
    bool ipid_set;
    uint32_t ipid_pairs, ipid_ones;   /* consecutive packets seen, and those one ID apart */
    uint32_t ipid_unseen;      /* packets the sender sent between the last two seen (0: none or unknown) */
    int64_t last_pkt_ns, prev_pkt_ns;  /* the last two packets of this direction: time, TSval */
    uint32_t last_pkt_tsval, prev_pkt_tsval;
    bool last_pkt_has_ts, prev_pkt_has_ts;
    uint64_t sent_bytes;       /* data bytes of this direction, all of them (d[].data_bytes counts
                                * those within --from/--to) */
    uint64_t peer_bytes_at_data;   /* the peer's sent_bytes at our last data (cause to ACK since?) */
    uint32_t seg_max_all;      /* the largest data segment, within the window or not */
    /* a capture that did not see this sender's start: what the receiver held before it began
     * (the first ACK after data was seen: its cumulative ACK and SACK blocks' top) */
    int64_t held_at_start;
    bool held_at_start_set;
    bool window_cut;           /* a packet was outside --from/--to: unique bytes count from */
    int64_t window_hi;         /* the highest sequence sent before the window (or after it) */
};

/* DFCP bookkeeping of one connection (analysis_dfcp*.c).  Fixed size: no allocation besides
 * the block records themselves, which tn_conn_free_records frees. */
#define TN_DFCP_GAP_BINS 80    /* histogram of symbol gaps, 2 bins per octave of ns: 1 ns .. ~1100 s */
#define TN_DFCP_SCAN 4096      /* how far back a block is looked for when the hints miss */

struct tn_dfcp_dir {
    size_t hint;               /* index + 1 of the block the last DATA went to (0: none) */
    size_t oldest;             /* no block below this index is in flight */
    uint32_t hi_block;         /* highest block number with a record in this direction */
    bool hi_set;
    uint32_t inflight;         /* blocks with a symbol seen, no BACK (ACKING) */
    uint64_t data_pkts;        /* every DATA, within --from/--to or not */
    int64_t last_change_ns;    /* in-flight bookkeeping: time-weighted area and window-full time */
    double inflight_area;      /* blocks * ns */
    int64_t full_ns;
    int64_t iv_end;            /* throughput/goodput/symbol-rate interval */
    uint64_t iv_bytes, iv_good, iv_syms;
    /* what the summary counts: every DATA and BACK, or those within --from/--to (the window
     * puts it back after a packet outside, analysis_window.c) */
    struct tn_dfcp_tally {
        uint64_t data_pkts;
        int64_t first_data_ns, last_data_ns;
        double area_first, area_at_data;   /* inflight_area and full_ns at the first and */
        int64_t full_first, full_at_data;  /* the latest DATA counted */
        uint32_t gap_hist[TN_DFCP_GAP_BINS];
        uint64_t good_bytes;   /* source bytes of decoded blocks */
        double jump_gap_ns;    /* arrival gaps across skipped symbol indices, and the slots */
        uint64_t jump_slots;   /* they span (skipped + 1): do losses leave holes in time? */
    } n;
};

struct tn_dfcp_priv {
    struct tn_dfcp_dir dir[2];
    bool fin_seen[2], finack_seen[2];
    bool synack_pending;       /* a SYNACK seen, its ACK not yet */
    int64_t synack_ns;
};

struct tn_conn_priv {
    struct tn_conn pub;        /* first member: a tn_conn * is a tn_conn_priv * */
    struct tn_dir_priv dp[2];
    int64_t hs_syn_ns, hs_synack_ns;   /* latest SYN (a->b) and SYN-ACK (b->a) seen */
    bool syn_rto_open[2];              /* a handshake timeout episode of that side is open */
    uint32_t rst_ack;                  /* the last RST with ACK: what it answered */
    int8_t rst_dir;                    /* its direction, -1 when none */
    struct tn_dfcp_priv *dfcp;         /* DFCP connections only (NULL for TCP) */
    uint64_t pkts_seen;                /* packets of the connection, within --from/--to or not */
    bool inferred;                     /* TCP inference finished (closed both ways, or end of
                                        * input) and its state freed */
    bool close_queued;                 /* in the analyzer's queue of closed connections */
};

/* A slot of the analyzer's connection list holds a struct tn_conn_priv, a live run's retired
 * bare struct tn_conn (pub.retired), or, once retired offline, a pointer to its brief with the
 * low bit set (briefs are 8-byte aligned).  Only these three helpers know the encoding. */
static inline bool tn_slot_is_brief(const struct tn_conn_priv *slot)
{
    return ((uintptr_t)slot & 1u) != 0;
}

static inline struct tn_conn_brief *tn_slot_brief(const struct tn_conn_priv *slot)
{
    return (struct tn_conn_brief *)((uintptr_t)slot - 1u);
}

static inline struct tn_conn_priv *tn_brief_slot(struct tn_conn_brief *b)
{
    return (struct tn_conn_priv *)((uintptr_t)b + 1u);
}

/* Briefs are allocated in slabs (no allocation per retired connection). */
struct tn_brief_slab {
    struct tn_brief_slab *next;
    size_t n;
    struct tn_conn_brief v[1024];
};

/* memcmp(x, y, len) == 0 for address bytes, len 4 or 16, inline: memcmp was a call per packet */
static inline bool tn_addr_bytes_eq(const uint8_t *x, const uint8_t *y, size_t len)
{
    if (len == 4) {
        uint32_t u, v;
        memcpy(&u, x, 4);
        memcpy(&v, y, 4);
        return u == v;
    }
    uint64_t u[2], v[2];
    memcpy(u, x, 16);
    memcpy(v, y, 16);
    return u[0] == v[0] && u[1] == v[1];
}

/* Is p a packet between a:a_port and b:b_port of kind proto, either way? */
static inline bool tn_flow_is(const struct tn_pkt *p, unsigned proto, const struct tn_addr *a, uint16_t a_port,
                              const struct tn_addr *b, uint16_t b_port)
{
    if (proto != (unsigned)p->kind || p->src.family != a->family || p->dst.family != b->family)
        return false;
    size_t len = a->family == 4 ? 4 : 16;
    if (p->sport == a_port && p->dport == b_port && tn_addr_bytes_eq(p->src.a, a->a, len) &&
        tn_addr_bytes_eq(p->dst.a, b->a, len))
        return true;
    return p->sport == b_port && p->dport == a_port && tn_addr_bytes_eq(p->src.a, b->a, len) &&
           tn_addr_bytes_eq(p->dst.a, a->a, len);
}

/* tn_flow_hash of the packets between a:a_port and b:b_port of kind proto. */
uint64_t tn_flow_hash_between(unsigned proto, const struct tn_addr *a, uint16_t a_port, const struct tn_addr *b,
                              uint16_t b_port);

/* Flow table: 5-tuple -> connection index (both directions map to one).  Slots hold the hash
 * and the index; match() tells whether connection idx has the packet's endpoints. */
typedef bool (*tn_flow_match)(const void *arg, long idx);

struct tn_flowtab;

struct tn_flowtab *tn_flowtab_new(void);
void tn_flowtab_free(struct tn_flowtab *t);
size_t tn_flowtab_bytes(const struct tn_flowtab *t);
/* Index (0-based) of the connection matching, or -1. */
long tn_flowtab_lookup(const struct tn_flowtab *t, uint64_t hash, tn_flow_match match, const void *arg);
/* Point the matching entry at idx (port reuse: a newer connection), or add one. */
void tn_flowtab_set(struct tn_flowtab *t, uint64_t hash, long idx, tn_flow_match match, const void *arg);

/* What every handler may read: the configuration. */
struct tn_analyzer_ctx {
    const struct tn_analysis_cfg *cfg;
    const struct tn_pkt *pkt;  /* the packet being analyzed (for events found on its way);
                                * NULL outside tn_analyzer_add (finish, retirement) */
    bool outside;              /* it lies outside --from/--to: what it counts is taken back */
};

/* A queue of connection indexes, oldest first (analysis_analyzer.c). */
struct tn_idxq {
    size_t *v;
    size_t head, n, cap;
};

/* A retired connection waiting for its brief to leave memory (analysis_linger.c). */
struct tn_linger {
    size_t k;                          /* its slot */
    const struct tn_conn_brief *b;     /* its brief then: a slot holding another is stale */
    int64_t due_ns;                    /* trace time after which no packet of it is expected */
};

/* Those of one timeout, in retirement order, so in due order; [head, head + ndue) are due. */
struct tn_lingerq {
    struct tn_linger *v;
    size_t head, n, cap, ndue;
};

/* A reading slot (analysis_retire.c): a retired connection read back for an output, and the
 * bytes it was read from.  The analyzer has one; tn_reader_new makes more, one per thread. */
struct tn_reader {
    const struct tn_analyzer *a;
    struct tn_conn_priv *cp;      /* the connection read, NULL: none */
    size_t k;                     /* its index */
    struct tn_arena mem;          /* where cp lies when in_arena (not malloc) */
    bool in_arena;
    struct tn_packbuf buf;        /* its bytes, as read from the store */
};

/* The analyzer (analysis_analyzer.c; its table is kept bounded by analysis_evict.c). */
struct tn_analyzer {
    struct tn_analysis_cfg cfg;
    struct tn_analyzer_ctx ctx;
    struct tn_flowtab *flows;
    struct tn_conn_priv **conns;
    size_t nconns, cap;
    unsigned numbered;            /* connections numbered so far (evicted ones included) */
    struct tn_trace_stats st;
    long last_idx;                /* the previous packet's connection, -1: none */
    size_t *active;               /* indexes of the connections not retired */
    size_t nactive, cap_active;
    struct tn_idxq closed;        /* TCP connections closed both ways, in closing order: their
                                   * inference ends once they are quiet */
    struct tn_idxq half_open;     /* connections of one SYN, in the order of their SYN */
    size_t nstale;                /* entries of active that are briefs now (dropped lazily) */
    size_t nretired;              /* connections retired to their brief */
    struct tn_brief_slab *slabs;  /* the briefs, newest slab first */
    struct tn_conn_brief *free_briefs; /* briefs written out, for tn_brief_new (linked through
                                        * their first bytes) */
    struct tn_lingerq linger[2];  /* retired ones whose briefs leave memory when due: [1] after
                                   * TIME-WAIT (closed), [0] after the idle timeout */
    size_t briefs_written;        /* briefs written out, not read back yet */
    struct tn_reader reading;     /* the outputs' one reading slot (tn_analyzer_conn) */
    struct tn_packbuf spill;      /* bytes of the connection being retired or revived */
    struct tn_window_save *wsave; /* --from/--to: the counts before a packet outside the window */
    int64_t idle_sweep_ns;        /* trace time of the last sweep for idle connections */
    size_t idle_sweep_pkts;       /* packets since it */
};

/* Retirement (analysis_retire.c). */
/* Connection k, closed and its inference finished (or holding no sender state): with a store
 * (cfg.spill_put), to the store; only its brief stays, which is returned (NULL: kept). */
struct tn_conn_brief *tn_analyzer_retire_conn(struct tn_analyzer *a, size_t k);
/* With cfg.idle_retire_ns: retire the connections without sender state that are quiet at now
 * (trace clock); the brief of each is marked unfinished. */
void tn_analyzer_retire_quiet(struct tn_analyzer *a, int64_t now);
/* At the end: finish every connection retired unfinished, where it lies (its bytes and brief
 * replaced by the finished ones). */
void tn_analyzer_finish_retired(struct tn_analyzer *a);
/* A late packet of retired connection k: it comes back whole into its slot. */
void tn_analyzer_revive(struct tn_analyzer *a, size_t k);
/* Retired connection k, read back into reading slot r. */
const struct tn_conn *tn_reader_read_retired(struct tn_reader *r, size_t k);
/* A reading slot's memory given back (the slot itself is the caller's). */
void tn_reader_fini(struct tn_reader *r);
/* A brief from the analyzer's slabs (analysis_brief.c). */
struct tn_conn_brief *tn_brief_new(struct tn_analyzer *a);
/* Drop the briefs from the active list (the others keep their order). */
void tn_analyzer_compact_active(struct tn_analyzer *a);
void tn_brief_slabs_free(struct tn_brief_slab *s);
/* The ord and number of what slot holds. */
uint64_t tn_slot_ord(const struct tn_conn_priv *slot);
unsigned *tn_slot_idx(struct tn_conn_priv *slot);
/* A connection's whole state as bytes and back (analysis_pack.c), for the store. */
void tn_conn_priv_pack(const struct tn_conn_priv *cp, struct tn_packbuf *b);
struct tn_conn_priv *tn_conn_priv_unpack(const uint8_t *in, size_t n);
/* The same, everything of it in arena (nothing of it may be freed or grown: for reading). */
struct tn_conn_priv *tn_conn_priv_unpack_in(const uint8_t *in, size_t n, struct tn_arena *arena);

/* A live capture's flat memory (analysis_linger.c). */
/* Retired connection k (brief b, last packet at last_ns) waits for its brief to leave memory. */
void tn_linger_push(struct tn_analyzer *a, size_t k, const struct tn_conn_brief *b, int64_t last_ns);
/* At trace time now: write out the briefs due, once they are half the list (amortised). */
void tn_linger_sweep(struct tn_analyzer *a, int64_t now);
/* At the end: the briefs written out back into their places in the list. */
void tn_linger_read_back(struct tn_analyzer *a);
/* A brief written out: tn_brief_new gives its memory again. */
void tn_brief_release(struct tn_analyzer *a, struct tn_conn_brief *b);
/* The slots set to NULL leave the list: indexes move, and the flow table, the active list and
 * the queues follow them (analysis_evict.c); a->last_idx is reset. */
void tn_analyzer_close_holes(struct tn_analyzer *a);
/* conns rearranged, moved[k] the new index of old slot k (-1: gone): the flow table (with
 * the retired ones when table_briefs), the active list and the queues follow. */
void tn_analyzer_renumber(struct tn_analyzer *a, const long *moved, bool table_briefs);

/* The table holds cfg.max_conns connections with analysis state: evict some (analysis_evict.c).
 * Indexes into conns change; a->last_idx is reset. */
void tn_analyzer_evict(struct tn_analyzer *a);
/* Free everything of connection cp (state, records, results), or its analysis state only (not
 * its summary, not its records). */
void tn_conn_priv_destroy(struct tn_conn_priv *cp);
void tn_conn_free_state(struct tn_conn_priv *cp);
/* The DFCP results of a TCP connection: none (read-only, shared). */
extern const struct tn_dfcp_infer tn_no_dfcp;
/* The inference results of a connection that has seen one SYN only (read-only, shared: a write
 * through it faults, it never passes unnoticed). */
extern const struct tn_tcp_infer tn_no_inf[2];
void tn_conn_free_inf(struct tn_conn *c);
/* A connection tn_conn_unpack read holds only values the analysis makes (analysis_pack_check.c). */
bool tn_conn_unpacked_ok(const struct tn_conn_priv *cp);
/* And the rest of a retired connection's state (tn_conn_priv_unpack's) too. */
bool tn_conn_priv_tail_ok(const struct tn_conn_priv *cp);

/* Per-protocol packet handlers: p belongs to c, in direction d. */
/* tcptrace's long-report counters of one packet (analysis_tcp_counts.c); after the others. */
void tn_tcp_counts_pkt(struct tn_conn_priv *cp, enum tn_dir d, const struct tn_pkt *p, int64_t t,
                       bool rexmit);
void tn_tcp_conn_pkt(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *c, enum tn_dir d,
                     const struct tn_pkt *p);
void tn_dfcp_conn_pkt(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *c, enum tn_dir d,
                      const struct tn_pkt *p);
/* End of input: close open episodes, finish models and summaries. */
void tn_tcp_conn_finish(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *c);
void tn_dfcp_conn_finish(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *c);
void tn_tcp_conn_free(struct tn_conn_priv *c);
/* Both FINs sent and acknowledged (RFC 9293 §3.6): the senders have nothing left to send. */
bool tn_tcp_conn_closed(const struct tn_conn_priv *cp);
/* Free the inference state of the senders (after tn_infer_finish). */
void tn_infer_release(struct tn_conn_priv *cp);
/* DFCP blocks (analysis_dfcp_blocks.c), called by analysis_dfcp.c. */
void tn_dfcp_data(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                  const struct tn_pkt *p);
void tn_dfcp_back(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                  const struct tn_pkt *p);
void tn_dfcp_blocks_finish(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp);

/* Inference (analysis_tcp_infer.c), called once per packet by analysis_tcp.c after the
 * counters (pk->si.cause is set for a retransmission). */
void tn_infer_pkt(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                  const struct tn_pkt *p, struct tn_tcp_seen *pk);
void tn_infer_finish(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp);
/* the receiver's ACK policy (analysis_ackpolicy.c), fed by the ACKs that advance */
void tn_ackpol_ack(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir sd,
                   const struct tn_pkt *p, int64_t t, int64_t acked, const struct tn_ack_cover *cv);
void tn_ackpol_finish(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir sd);

/* Congestion-window models replayed per sender (analysis_tcp_cwnd.c): every flavour of
 * analysis/cc/flavours.def side by side; the classifier (analysis_cc_classify.c) names the one
 * that explains the observed flight sizes and decreases, or unknown. */
struct tn_cc_model *tn_cc_new(uint32_t mss);
void tn_cc_free(struct tn_cc_model *m);
/* The capture did not see the sender's start (no SYN): its window state is unknown. */
void tn_cc_start_unseen(struct tn_cc_model *m);
/* What one ACK tells the models (bytes unless named otherwise). */
struct tn_cc_ack {
    int64_t t_ns;              /* when the sender processed it */
    int64_t seen_ns;           /* when the monitor saw it (0: t_ns): away from the sender the
                                * two differ by the reaction estimate, which grows and shrinks
                                * with the queue on the data's way, while the ACKs' own way
                                * keeps their spacing */
    uint64_t pkt;              /* the packet being read when the sender has reacted (events) */
    int64_t acked;             /* newly cumulatively acknowledged */
    int64_t sacked;            /* newly SACKed */
    int64_t snd_nxt;           /* highest sequence sent (relative) */
    int64_t delivered;         /* bytes known delivered: cumulative ACK plus SACKed above it
                                * (Linux tp->delivered, each segment once) */
    double rtt_ms;             /* an RTT sample from this ACK, or < 0 */
    double flight_max;         /* highest pipe since the previous ACK */
    double sent_flight_max;    /* highest pipe right after a send since the previous ACK: a
                                * sender only sends while the pipe is below cwnd, so this is
                                * a lower bound of cwnd (0 when nothing was sent) */
    double flight_now;         /* pipe after this ACK */
    int64_t resent;            /* bytes the sender retransmitted in answer to it: what it
                                * marked lost on it (Linux rs->losses), as far as it could send */
    int64_t sent;              /* bytes it sent (new and again) since the ACK before: during a
                                * reduction Linux counts them in prr_out */
    bool legacy_recovery;      /* a trace without TCP options (ns-2's Linux 2.6.2x): recovery
                                * without PRR's credit (prr_ack) */
    bool in_episode;           /* fast recovery or timeout recovery under way (after this ACK) */
    bool episode_ended;        /* this ACK ended one: its flight belongs to the episode */
    bool rwnd_limited;         /* the receiver's window bounded the flight */
    bool app_limited;          /* the sender had nothing to send (Linux tcp_rate app_limited) */
    bool all_seen;             /* the cumulative ACK has passed the first data seen: every byte
                                * in flight was seen sent (a capture begun mid-flow) */
};

void tn_cc_on_ack(struct tn_cc_model *m, const struct tn_cc_ack *a);
/* The window in bytes the rate-limiter accounting compares with (the lesser of Reno's and
 * CUBIC's replays). */
double tn_cc_cwnd_bytes(const struct tn_cc_model *m);
void tn_cc_on_loss(struct tn_cc_model *m, int64_t t_ns, bool timeout, double flight);
/* The loss just told has no decrease of its own to measure: a recovery entered on the ACK that
 * ended another starts from the ssthresh that one left (RFC 6937: cwnd = ssthresh at its end),
 * a window the flight never showed, so the flight after it is no measure of this cut. */
void tn_cc_unmeasured_loss(struct tn_cc_model *m);
/* The loss just told ended a slow start (or came at the window of one that did, uncut): what
 * follows its recovery is no measure of a flavour's decrease (tn_cc_on_loss). */
bool tn_cc_loss_ended_slow_start(const struct tn_cc_model *m);
void tn_cc_on_recovery_end(struct tn_cc_model *m, int64_t t_ns, bool timeout);
/* The flight after a fast recovery over the flight when it began (the replay's betas). */
void tn_cc_on_cut(struct tn_cc_model *m, double beta);
/* A new segment with nothing in flight, idle_ms after the previous one was sent: restart the
 * window when idle_ms exceeds rto_ms (tcp_cwnd_restart), then CA_EVENT_TX_START. */
void tn_cc_on_idle(struct tn_cc_model *m, int64_t t_ns, double idle_ms, double rto_ms);
void tn_cc_on_syn_timeout(struct tn_cc_model *m);
/* The reason, once, when a flavour's replay first left slow start without a loss (HyStart,
 * a slow start that ended unseen, BBR leaving Startup) on the last ACK; else NULL. */
const char *tn_cc_hystart_exit(struct tn_cc_model *m);
/* Where flavour f's replay left slow start without a loss, if it did. */
bool tn_cc_ss_exit_of(const struct tn_cc_model *m, enum tn_cc_flavor f, int64_t *t_ns, uint64_t *pkt,
                      int64_t *una, const char **why);
void tn_cc_on_cwr(struct tn_cc_model *m);
/* Keep this ACK's estimates (every flavour) for the series. */
void tn_cc_record(struct tn_analyzer_ctx *ctx, struct tn_conn *c, enum tn_dir d,
                  struct tn_cc_model *m, int64_t t_ns);
/* Choose the flavour, fill inf, and move the chosen flavour's series into the connection. */
void tn_cc_finish(struct tn_analyzer_ctx *ctx, struct tn_conn *c, enum tn_dir d,
                  struct tn_cc_model *m, struct tn_tcp_infer *inf, double *betas, const bool *betas_ss,
                  unsigned nbetas);
/* the flavour whose replay is the window estimate, from the verdict and scores in inf: whether
 * a decrease was seen, and ProbeRTT dips */
enum tn_cc_flavor tn_cc_pick_estimate(const struct tn_tcp_infer *inf, bool decrease_seen, bool dips);

/* Make room in a ring buffer of *cap elements holding n from head: doubles it (from 4) and
 * lays the elements out from index 0.  Returns false when cap is already max. */
bool tn_ring_grow(void **buf, unsigned *cap, unsigned *head, unsigned n, size_t elsz, unsigned max);

/* The handshake's round trips and the vantage point they give (TCP and DFCP alike): the
 * SYN -> SYN-ACK time is the round trip monitor<->b, SYN-ACK -> ACK the round trip
 * monitor<->a; a side whose round trip is at most 10% of the sum is next to the monitor.
 * Needs hs_syn_ns and hs_synack_ns; returns false when nothing was (or could be) set. */
bool tn_conn_set_handshake(struct tn_conn_priv *cp, int64_t ack_ns);

/* --from/--to for the counters (analysis_window.c): a packet at t outside the window is counted
 * and then its counts are taken back (what tn_window_save kept). */
struct tn_window_save {
    struct tn_dir_stats d[2];
    struct tn_tcp_infer inf[2];
    struct tn_dfcp_infer dfcp;         /* DFCP connections */
    struct tn_dfcp_tally tally[2];
    struct tn_time span_first, span_last;
    bool counted;
    uint64_t anomalies;
};

/* Does time t lie within the window w that starts from base? */
static inline bool tn_window_has(const struct tn_count_window *w, int64_t base, int64_t t)
{
    return t >= base + w->from_ns && (!w->to_ns || t <= base + w->to_ns);
}

/* Does a packet of c at t lie within the window w (on)? */
bool tn_window_counts(const struct tn_count_window *w, const struct tn_conn *c, int64_t first_ns,
                      int64_t t);
/* Keep cp's counts in *buf (allocated at the first use, freed by the analyzer); returns it. */
struct tn_window_save *tn_window_save(struct tn_window_save **buf, const struct tn_conn_priv *cp);
void tn_window_restore(struct tn_conn_priv *cp, const struct tn_window_save *s);

/* Recording (analysis_record.c); each does nothing unless the config asks for it. */
void tn_rec_series(struct tn_analyzer_ctx *ctx, struct tn_conn *c, enum tn_dir d,
                   enum tn_series_kind k, int64_t t_ns, double v);
void tn_rec_event(struct tn_analyzer_ctx *ctx, struct tn_conn *c, enum tn_dir d,
                  enum tn_event_kind k, const struct tn_pkt *p, uint64_t seq, uint32_t len,
                  const char *fmt, ...) __attribute__((format(printf, 8, 9)));
struct tn_pktrec *tn_rec_packet(struct tn_analyzer_ctx *ctx, struct tn_conn *c);
/* The series of a connection with none recorded yet (read-only: shared by all of them). */
extern struct tn_series tn_no_series[2][TN_SER_COUNT];
/* Series k of direction d for writing (the connection's series allocated at the first). */
struct tn_series *tn_conn_series(struct tn_conn *c, enum tn_dir d, enum tn_series_kind k);
void tn_conn_free_records(struct tn_conn *c);
/* Does this packet start a new connection on a key whose connection c has ended? */
bool tn_tcp_conn_is_reuse(const struct tn_conn_priv *c, enum tn_dir d, const struct tn_pkt *p);

#endif
