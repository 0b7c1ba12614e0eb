/* analysis_truth_int.h - private to analysis_truth*.c: the kernel's records as loaded. */
#ifndef TN_ANALYSIS_TRUTH_INT_H
#define TN_ANALYSIS_TRUTH_INT_H

#include <stddef.h>
#include <stdint.h>

/* One flow end as the kernel names it: "10.1.1.2:40001" (IPv6 without brackets). */
struct truth_key {
    char src[64], dst[64];
};

struct truth_probe {
    struct truth_key k;
    int64_t t_ns;
    double cwnd, ssthresh, srtt_ms;
    int64_t inflight;          /* snd_nxt - snd_una, bytes */
};

struct truth_state {
    struct truth_key k;
    int64_t t_ns;
    int state;                 /* 0 Open 1 Disorder 2 CWR 3 Recovery 4 Loss */
};

struct truth_rexmit {
    struct truth_key k;
    int64_t t_ns;
};

struct tn_truth {
    struct truth_probe *probes;
    size_t nprobes, cap_probes;
    struct truth_state *states;
    size_t nstates, cap_states;
    struct truth_rexmit *rexmits;
    size_t nrexmits, cap_rexmits;
    char sources[1024];        /* what was read, for the report (tn_truth_sources) */
    bool have_states, have_rexmits;
};

/* The records of one kernel flow key (src, dst), as indices in file order. */
struct truth_flow {
    struct truth_key k;
    size_t *probes, nprobes, cap_probes;
    size_t *states, nstates, cap_states;
    size_t *rexmits, nrexmits, cap_rexmits;
};

/* Lookups by flow and time for grading (analysis_truth_index.c), so that each record is
 * matched without scanning every other: grading a large truth file was quadratic. */
struct truth_index {
    struct truth_flow *flows;
    size_t nflows, cap_flows;
    size_t *slots, nslots;     /* open-addressing hash of the keys: flow index + 1, 0 empty */
    size_t *probe_flow;        /* flow of each probe */
    int64_t *probe_tmax, *state_tmax;  /* running maximum of the times in file order */
};

void truth_index_build(const struct tn_truth *t, struct truth_index *ix);
void truth_index_free(struct truth_index *ix);

/* The flow whose key is (src, dst), or -1 when the truth has no record of it. */
long truth_index_flow(const struct truth_index *ix, const char *src, const char *dst);

/* How many records come before the first one later than at (the records a scan in file order
 * that stops at the first later one sees): tmax is probe_tmax or state_tmax, n its length. */
size_t truth_index_before(const int64_t *tmax, size_t n, int64_t at);

/* The last of the n ascending record indices in list below end, or -1. */
long truth_index_last_below(const size_t *list, size_t n, size_t end);

#endif
