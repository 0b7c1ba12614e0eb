/* analysis_int.h - private state of the analysis layer, shared by its files only. */
#ifndef TN_ANALYSIS_INT_H
#define TN_ANALYSIS_INT_H

#include "analysis.h"

/* Gaps in a direction's sequence space below the highest byte seen: data not (yet) seen here.
 * A segment that falls inside a gap is out-of-order; one that overlaps seen data is a
 * retransmission.  Bounded: when full, the lowest gap is forgotten. */
#define TN_MAX_GAPS 32

struct tn_gap {
    int64_t lo, hi;            /* [lo, hi) relative sequence numbers */
};

struct tn_dir_priv {
    struct tn_gap gaps[TN_MAX_GAPS];
    unsigned ngaps;
    bool dfcp_block_set;
};

struct tn_conn_priv {
    struct tn_conn pub;        /* first member: a tn_conn * is a tn_conn_priv * */
    struct tn_dir_priv dp[2];
    uint64_t hash;
};

/* Flow table: 5-tuple -> connection (both directions map to one). */
struct tn_flowkey {
    uint8_t proto;             /* TN_PK_TCP / TN_PK_DFCP */
    uint8_t family;
    uint16_t port_lo, port_hi;
    uint8_t addr_lo[16], addr_hi[16];
};

struct tn_flowtab;

struct tn_flowtab *tn_flowtab_new(void);
void tn_flowtab_free(struct tn_flowtab *t);
/* Key a packet; *swapped tells whether (src,sport) was the higher endpoint. */
void tn_flowkey_make(const struct tn_pkt *p, struct tn_flowkey *k, uint64_t *hash);
/* Index (0-based) of the connection for the key, or -1. */
long tn_flowtab_lookup(const struct tn_flowtab *t, const struct tn_flowkey *k, uint64_t hash);
/* Point the key at connection idx (replacing an older connection on port reuse). */
void tn_flowtab_set(struct tn_flowtab *t, const struct tn_flowkey *k, uint64_t hash, long idx);

/* Per-protocol packet handlers: p belongs to c, in direction d. */
void tn_tcp_conn_pkt(struct tn_conn_priv *c, enum tn_dir d, const struct tn_pkt *p);
void tn_dfcp_conn_pkt(struct tn_conn_priv *c, enum tn_dir d, const struct tn_pkt *p);
/* Does this packet start a new connection on a key whose connection c has ended? */
bool tn_tcp_conn_is_reuse(const struct tn_conn_priv *c, enum tn_dir d, const struct tn_pkt *p);

#endif
