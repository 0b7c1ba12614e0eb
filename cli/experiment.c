/* experiment.c - --experiment LABEL=FILE ...: each trace read by the one read loop into an
 * analyzer of its own, summarised into the experiment table, then freed. */
#include <stdio.h>

#include "experiment.h"
#include "multi.h"
#include "pipeline.h"
#include "render.h"

static int read_trace(const struct tn_options *o, const char *path, struct tn_analyzer *an)
{
    struct tn_source *src;
    struct tn_err err;
    if (tn_source_open_path(&src, path, o, &err) < 0) {
        tn_cli_warn(err.msg);
        return TN_EXIT_INPUT;
    }
    struct tn_pipeline pl = {.src = src, .an = an};
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

int tn_experiment_main(const struct tn_options *o)
{
    struct tn_experiment e = {0};
    int status = TN_EXIT_OK;
    for (int i = 0; i < o->nexps; i++) {
        struct tn_analysis_cfg acfg = {.interval_ns = o->interval_ns};
        struct tn_analyzer *an = tn_analyzer_new(&acfg);
        status = tn_exit_worst(status, read_trace(o, o->exps[i].file, an));
        struct tn_fair_cfg fc;
        tn_multi_fair_cfg(o, NULL, 0, &fc);
        tn_experiment_add(&e, o->exps[i].label, o->exps[i].file, an, &fc);
        tn_analyzer_free(an);
    }
    tn_report_experiment(stdout, &e);
    struct tn_err err;
    if (o->csv_dir)
        status = tn_exit_worst(status, check(tn_csv_write_experiment(o->csv_dir, &e, &err), &err));
    if (o->plot_dir) {
        struct tn_multi m = {.exp = &e};
        struct tn_plot_opts po = {
            .format = o->plot_format,
            .width = o->plot_width,
            .height = o->plot_height,
            .scale = o->plot_scale,
        };
        status = tn_exit_worst(status, check(tn_plot_write_multi(o->plot_dir, &m, &po, &err), &err));
    }
    tn_experiment_fini(&e);
    return status;
}
