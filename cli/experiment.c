/* experiment.c - --experiment LABEL=FILE ...: each trace read by the one read loop into an
 * analyzer of its own, summarised into the experiment table, then freed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment.h"
#include "multi.h"
#include "pipeline.h"
#include "render.h"

/* A trace's source: one file, or F1,F2,... (the capture points of one run, read as one trace). */
static int open_trace(struct tn_source **src, const char *spec, const struct tn_options *o, struct tn_err *err)
{
    if (!strchr(spec, ','))
        return tn_source_open_path(src, spec, o, err);
    char *list = tn_xstrdup(spec), *save = NULL;
    const char **paths = NULL;
    int n = 0, r;
    for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        paths = tn_xrealloc(paths, (size_t)(n + 1) * sizeof *paths);
        paths[n++] = t;
    }
    r = tn_source_open_files(src, paths, n, o, err);
    free(paths);
    free(list);   /* the capture keeps its own copies of the names */
    return r;
}

static int read_trace(const struct tn_options *o, const char *path, struct tn_analyzer *an)
{
    struct tn_source *src;
    struct tn_err err;
    if (open_trace(&src, path, o, &err) < 0) {
        tn_cli_warn(err.msg);
        return TN_EXIT_INPUT;
    }
    struct tn_pipeline pl = {.src = src, .an = an, .workers = tn_pipeline_workers(o)};
    tn_pipeline_signals(src);
    int status = tn_pipeline_run(&pl);
    tn_pipeline_signals(NULL);
    tn_analyzer_finish(an);
    if (tn_source_close(src, &err) < 0) {
        tn_cli_warn(err.msg);
        status = TN_EXIT_INPUT;
    }
    return status;
}

static int check(int r, const struct tn_err *err)
{
    if (r >= 0)
        return TN_EXIT_OK;
    tn_cli_warn(err->msg);
    return TN_EXIT_INPUT;
}

void tn_experiment_analysis_cfg(const struct tn_options *o, struct tn_analysis_cfg *acfg)
{
    /* a window other than the lifetime counts bytes from the packet records */
    *acfg = (struct tn_analysis_cfg){.interval_ns = o->interval_ns, .record_packets = o->exp_window != TN_EXPW_LIFE};
}

struct tn_analyzer *tn_experiment_read(const struct tn_options *o, int i, int *status)
{
    struct tn_analysis_cfg acfg;
    tn_experiment_analysis_cfg(o, &acfg);
    struct tn_analyzer *an = tn_analyzer_new(&acfg);
    *status = read_trace(o, o->exps[i].file, an);
    return an;
}

struct here {
    const struct tn_options *o;
};

static struct tn_analyzer *read_here(void *arg, int i, int *status)
{
    return tn_experiment_read(((struct here *)arg)->o, i, status);
}

int tn_experiment_main(const struct tn_options *o)
{
    struct here h = {o};
    return tn_experiment_run(o, read_here, &h);
}

int tn_experiment_run(const struct tn_options *o, struct tn_analyzer *(*get)(void *arg, int i, int *status),
                      void *arg)
{
    struct tn_experiment e = {0};
    int status = TN_EXIT_OK;
    for (int i = 0; i < o->nexps; i++) {
        int st;
        struct tn_analyzer *an = get(arg, i, &st);
        status = tn_exit_worst(status, st);
        struct tn_fair_cfg fc;
        tn_multi_fair_cfg(o, NULL, 0, &fc);
        struct tn_exp_cfg ec = {
            .fair = &fc,
            .rules = o->flow_rules,
            .nrules = (size_t)o->nflow_rules,
            .window = (enum tn_exp_window)o->exp_window,
            .from_ns = o->win_from_ns,
            .to_ns = o->win_to_ns,
            .link_rate_bps = o->link_rate_bps,
        };
        tn_experiment_add(&e, o->exps[i].label, o->exps[i].file, an, &ec);
        tn_analyzer_free(an);
    }
    tn_report_experiment(stdout, &e);
    struct tn_err err;
    if (o->csv_dir)
        status = tn_exit_worst(status, check(tn_csv_write_experiment(o->csv_dir, &e, &err), &err));
    if (o->plot_dir) {
        struct tn_multi m = {.exp = &e};
        struct tn_plot_opts po;
        tn_options_plot_opts(o, &po);
        status = tn_exit_worst(status, check(tn_plot_write_multi(o->plot_dir, &m, &po, &err), &err));
    }
    tn_experiment_fini(&e);
    return status;
}
