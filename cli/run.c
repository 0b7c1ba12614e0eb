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
    /* every capture handle and the -w file are open: now -Z (for every kind of source) */
    if ((rc = tn_source_drop_privileges(o, &err)) < 0) {
        tn_cli_warn(err.msg);
        tn_source_close(r->src, NULL);
        r->src = NULL;
        return rc == -TN_EUSAGE ? TN_EXIT_USAGE : TN_EXIT_INPUT;
    }
    tn_pipeline_analysis_cfg(o, &r->acfg);
    tn_retire_setup(&r->retire, o, &r->acfg, tn_pipeline_workers(o));
    return 0;
}

static void consume(void *arg, const struct tn_source_pkt *sp)
{
    struct tn_run *r = arg;
    if (r->linkq && sp->ns2)
        tn_linkq_event(r->linkq, sp->ns2->ev, sp->ns2->t_ns, sp->ns2->from, sp->ns2->to, sp->ns2->size,
                       sp->ns2->fid, sp->ns2->id);
    if (r->q2 && sp->has_pkt) {
        tn_q2_add(r->q2, &sp->pkt, sp->egress);
        r->q2_seen[sp->egress] += sp->pkt.kind != TN_PK_OTHER;
    }
}

/* The two points share no packet at all although both saw some: they cannot be matched.
 * Anonymized with two different keys, every address differs between them (docs/anonymization.md). */
static void warn_unmatched(const struct tn_run *r)
{
    const struct tn_q2_result *q = tn_q2_result(r->q2);
    if (r->q2_seen[0] == 0 || r->q2_seen[1] == 0 || q->matched + q->reverse_matched > 0)
        return;
    char msg[400];
    snprintf(msg, sizeof msg, "the two capture points cannot be matched: none of the %llu ingress "
             "and %llu egress TCP/DFCP packets was seen at both (captures of other links or times, "
             "or anonymized with different keys?)", (unsigned long long)r->q2_seen[0],
             (unsigned long long)r->q2_seen[1]);
    tn_cli_warn(msg);
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
        .workers = tn_pipeline_workers(o),
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
    if (r->q2) {
        tn_q2_finish(r->q2, r->an);
        warn_unmatched(r);
    }
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

/* TCPTRACE_NG_RETIRE_STATS=FILE: what a live run held of the connections that ended
 * (tests/e2e/live_retire.sh reads it): the briefs written out of memory, and the longest the
 * connection list grew before the end.  A debugging aid: a file that cannot be written is
 * warned about, and the run goes on. */
static void write_retire_stats(const struct tn_trace_stats *st)
{
    const char *path = getenv("TCPTRACE_NG_RETIRE_STATS");
    if (!path || !*path)
        return;
    FILE *f = fopen(path, "w");
    bool ok = f && fprintf(f, "briefs_out %llu\nlisted_peak %llu\n", (unsigned long long)st->briefs_out,
                           (unsigned long long)st->listed_peak) > 0;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok) {
        char msg[4200];
        snprintf(msg, sizeof msg, "%s: cannot write the retirement counters", path);
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
    write_retire_stats(tn_analyzer_stats(r->an));
    uint64_t evicted = tn_analyzer_stats(r->an)->evicted;
    if (evicted) {
        char msg[160];
        snprintf(msg, sizeof msg, "connection table full: %llu evicted, oldest idle first (--max-connections %zu)",
                 (unsigned long long)evicted, r->acfg.max_conns);
        tn_cli_warn(msg);
    }
    if (r->pl.dropped) {
        char msg[160];
        snprintf(msg, sizeof msg, "%llu packets not analysed: the analysis threads fell behind the capture (-j)",
                 (unsigned long long)r->pl.dropped);
        tn_cli_warn(msg);
    }
    /* an unreadable input alone gets its error, not an empty report; a live capture that
     * failed (its interface went away) still reports what it saw, even nothing */
    bool nothing_read = tn_analyzer_stats(r->an)->frames == 0 && status == TN_EXIT_INPUT &&
                        !r->src->live;
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
    tn_retire_fini(&r->retire);
    *r = (struct tn_run){0};
}
