/* run.c - one run from the options to the last output: source, analyzer, the consumers of
 * two-point and ns-2 inputs, the read loop, the outputs table. */
#include <stdio.h>
#include <stdlib.h>

#include "outputs.h"
#include "run.h"

int tn_run_open(struct tn_run *r, const struct tn_options *o)
{
    struct tn_err err;
    *r = (struct tn_run){.o = o};
    int rc = tn_source_open(&r->src, o, &err);
    if (rc < 0) {
        tn_cli_warn(err.msg);
        return rc == -TN_EUSAGE ? TN_EXIT_USAGE : TN_EXIT_INPUT;
    }
    if (o->write_file && tn_source_dump_open(r->src, o->write_file, &err) < 0) {
        tn_cli_warn(err.msg);
        r->status = TN_EXIT_INPUT;
    }
    tn_pipeline_analysis_cfg(o, &r->acfg);
    return 0;
}

static void consume(void *arg, const struct tn_source_pkt *sp)
{
    struct tn_run *r = arg;
    if (r->linkq && sp->ns2)
        tn_linkq_event(r->linkq, sp->ns2->ev, sp->ns2->t_ns, sp->ns2->from, sp->ns2->to, sp->ns2->size,
                       sp->ns2->fid, sp->ns2->id);
    if (r->q2 && sp->has_pkt)
        tn_q2_add(r->q2, &sp->pkt, sp->egress);
}

void tn_run_start(struct tn_run *r)
{
    const struct tn_options *o = r->o;
    r->an = tn_analyzer_new(&r->acfg);
    if (o->ns2_file)
        r->linkq = tn_linkq_new();
    if (o->ningress || o->ingress_if)
        r->q2 = tn_q2_new(NULL);
    r->pl = (struct tn_pipeline){
        .src = r->src,
        .an = r->an,
        .on_item = r->linkq || r->q2 ? consume : NULL,
        .item_arg = r,
        .replay_speed = o->replay_speed,
        .retire_idle_ns = tn_pipeline_retire_ns(o, &r->acfg),
    };
}

void tn_run_read(struct tn_run *r)
{
    tn_pipeline_signals(r->src);
    r->status = tn_exit_worst(r->status, tn_pipeline_run(&r->pl));
    tn_pipeline_signals(NULL);
}

void tn_run_finish_analysis(struct tn_run *r)
{
    if (r->finished)
        return;
    tn_analyzer_finish(r->an);
    if (r->linkq)
        tn_linkq_finish(r->linkq);
    if (r->q2)
        tn_q2_finish(r->q2, r->an);
    r->finished = true;
}

/* FILE arguments are packet traces only: for every one that is an ns-2 trace, say --ns2. */
static void ns2_hint(const struct tn_options *o)
{
    for (int i = 0; i < o->nfiles; i++) {
        if (!tn_ns2_probe(o->files[i]))
            continue;
        char msg[4200];
        snprintf(msg, sizeof msg, "%s is an ns-2 trace: read it with --ns2 %s", o->files[i], o->files[i]);
        tn_cli_warn(msg);
    }
}

int tn_run_end(struct tn_run *r)
{
    struct tn_err err;
    tn_run_finish_analysis(r);
    int status = r->status;
    if (status == TN_EXIT_INPUT)
        ns2_hint(r->o);
    uint64_t evicted = tn_analyzer_stats(r->an)->evicted;
    if (evicted) {
        char msg[160];
        snprintf(msg, sizeof msg, "connection table full: %llu evicted, oldest idle first (--max-connections %zu)",
                 (unsigned long long)evicted, r->acfg.max_conns);
        tn_cli_warn(msg);
    }
    /* an unreadable input alone gets its error, not an empty report */
    bool nothing_read = tn_analyzer_stats(r->an)->frames == 0 && status == TN_EXIT_INPUT;
    if (!nothing_read)
        status = tn_exit_worst(status, tn_outputs_write(r->o, r->an, r->q2 ? tn_q2_result(r->q2) : NULL, r->linkq));
    tn_source_report_stats(r->src, stdout);
    if (tn_source_close(r->src, &err) < 0) {
        tn_cli_warn(err.msg);
        status = TN_EXIT_INPUT;
    }
    r->src = NULL;
    tn_run_discard(r);
    return status;
}

void tn_run_discard(struct tn_run *r)
{
    tn_source_close(r->src, NULL);
    tn_q2_free(r->q2);
    tn_linkq_free(r->linkq);
    tn_analyzer_free(r->an);
    *r = (struct tn_run){0};
}
