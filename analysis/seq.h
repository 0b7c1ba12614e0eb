/* seq.h - wrap-safe comparison of 32-bit sequence and block numbers (RFC 1982 serial arithmetic). */
#ifndef TN_SEQ_H
#define TN_SEQ_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis.h"

static inline bool tn_seq_lt(uint32_t a, uint32_t b) { return (int32_t)(a - b) < 0; }
static inline bool tn_seq_leq(uint32_t a, uint32_t b) { return (int32_t)(a - b) <= 0; }
static inline bool tn_seq_gt(uint32_t a, uint32_t b) { return (int32_t)(a - b) > 0; }
static inline bool tn_seq_geq(uint32_t a, uint32_t b) { return (int32_t)(a - b) >= 0; }

/* Unwrap a 32-bit sequence number to 64 bits near a reference already unwrapped. */
static inline uint64_t tn_seq_unwrap(uint64_t ref, uint32_t seq)
{
    int32_t d = (int32_t)(seq - (uint32_t)ref);
    return (uint64_t)((int64_t)ref + d);
}

/* Relative, 64-bit unwrapped position of seq in a direction whose highest end is hi_rel (inline
 * here, not in analysis_tcp.c, so that the counters and the inference both use it without
 * calling each other). */
static inline int64_t tn_rel_seq(const struct tn_dir_stats *ds, uint32_t seq)
{
    uint32_t ref = ds->isn + (uint32_t)ds->hi_rel;
    return ds->hi_rel + (int32_t)(seq - ref);
}

#endif
