/* analysis_ranges.h - a sorted set of disjoint sequence ranges (analysis_ranges.c): a direction's
 * gaps, a sender's SACK scoreboard. */
#ifndef TN_ANALYSIS_RANGES_H
#define TN_ANALYSIS_RANGES_H

#include <stdbool.h>
#include <stdint.h>

/* Gaps in a direction's sequence space below the highest byte seen: data not (yet) seen here.
 * A segment that falls inside a gap is out-of-order; one that overlaps seen data is a
 * retransmission. */
struct tn_gap {
    int64_t lo, hi;            /* [lo, hi) relative sequence numbers */
    int64_t t_ns;              /* when the segment above it showed the gap */
    uint32_t tsval;            /* that segment's TSval (when has_ts) */
    bool has_ts;
};

/* Grown on demand up to TN_RANGES_MAX (one hole per segment of a 90 MB window); beyond, the
 * lowest range is forgotten. */
#define TN_RANGES_MAX 65536

struct tn_rangeset {
    struct tn_gap *v;
    unsigned n, cap;
};

const struct tn_gap *tn_ranges_holding(const struct tn_rangeset *rs, int64_t lo, int64_t hi);
void tn_ranges_put(struct tn_rangeset *rs, struct tn_gap g);          /* g overlaps none */
void tn_ranges_cut(struct tn_rangeset *rs, int64_t lo, int64_t hi);   /* remove [lo, hi) */
int64_t tn_ranges_merge(struct tn_rangeset *rs, int64_t lo, int64_t hi);   /* bytes new */
/* drop the ranges below x; returns how many, their bytes in *bytes (may be NULL) */
unsigned tn_ranges_prune_below(struct tn_rangeset *rs, int64_t x, int64_t *bytes);
int64_t tn_ranges_bytes_above(const struct tn_rangeset *rs, int64_t x);
int64_t tn_ranges_highest(const struct tn_rangeset *rs);
void tn_ranges_free(struct tn_rangeset *rs);

#endif
