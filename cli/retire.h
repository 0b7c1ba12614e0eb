/* retire.h - offline retirement (analysis cfg.spill_put): which runs retire the connections that
 * closed, and the store their bytes go to, one temporary file per analysis thread.  Private to
 * cli/. */
#ifndef TN_CLI_RETIRE_H
#define TN_CLI_RETIRE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#include "analysis.h"
#include "options.h"

struct tn_spill_part {
    FILE *f;
    char *fbuf;                /* f's buffer (setvbuf takes no size without one) */
    uint64_t at;               /* bytes written: where the next connection starts */
    atomic_bool dirty;         /* written since the last flush */
    bool failed;               /* a write failed: take no more (connections stay in memory) */
    /* live: the briefs written out of memory (analysis cfg.brief_put), one after the other */
    FILE *briefs;
    char *briefs_buf;
    uint64_t nbriefs;
    bool briefs_failed;        /* a write failed: take no more (briefs stay in memory) */
};

struct tn_retire {
    struct tn_spill_part *parts;   /* one per analysis thread; NULL: no retirement */
    unsigned nparts;
    pthread_mutex_t flush_mu;      /* outputs read back on several threads (tn_reader_new) */
};

/* Set the store in cfg when the run reads files or captures on one interface without the
 * dashboard, and its outputs read connections one at a time (retire.c); workers is the number
 * of analyzers.  A store that cannot be made is warned about
 * and the run keeps its connections in memory. */
void tn_retire_setup(struct tn_retire *rt, const struct tn_options *o, struct tn_analysis_cfg *cfg,
                     unsigned workers);
void tn_retire_fini(struct tn_retire *rt);

#endif
