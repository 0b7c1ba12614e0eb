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

#endif
