/* run.h - one run of the analysis from the options: the source, the analyzer (and the
 * two-point and ns-2 consumers the input needs), the read loop, the outputs table.  Shared by
 * the offline report (main.c) and the dashboard (tui_main.c).  Private to cli/. */
#ifndef TN_CLI_RUN_H
#define TN_CLI_RUN_H

#include "analysis.h"
#include "options.h"
#include "pipeline.h"
#include "retire.h"
#include "source.h"

struct tn_run {
    const struct tn_options *o;
    struct tn_source *src;
    struct tn_analysis_cfg acfg;   /* may be adjusted between tn_run_open and tn_run_start */
    struct tn_analyzer *an;
    struct tn_q2 *q2;              /* two capture points: the queue between them */
    uint64_t q2_seen[2];           /* TCP/DFCP packets seen at the ingress [0] and egress [1] */
    struct tn_linkq *linkq;        /* ns-2: the link queues */
    struct tn_pipeline pl;         /* src, an and the consumers set by tn_run_start */
    struct tn_retire retire;       /* offline retirement: the store of closed connections */
    int status;
    bool finished;                 /* tn_analyzer_finish done */
};

/* Open the input (and -w).  Returns 0, or the exit status when nothing can be read (the
 * message was printed). */
int tn_run_open(struct tn_run *r, const struct tn_options *o);

/* The analyzer and the consumers, the loop's fields set; more may be set before the loop. */
void tn_run_start(struct tn_run *r);

/* Read it all (tn_pipeline_run), with SIGINT/SIGTERM ending the read. */
void tn_run_read(struct tn_run *r);

/* End of input: finish the analysis (once). */
void tn_run_finish_analysis(struct tn_run *r);

/* The outputs (unless nothing at all was read and an input failed), the capture statistics,
 * the source closed, everything freed.  Returns the final exit status. */
int tn_run_end(struct tn_run *r);

/* Close and free without any output (the run could not go on). */
void tn_run_discard(struct tn_run *r);

#endif
