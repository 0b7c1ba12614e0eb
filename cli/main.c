/* main.c - the composition root: options -> source -> dissect -> analysis -> outputs.
 * A run (run.c) reads its source through the one read loop (pipeline.c) and writes the outputs
 * table (outputs.c); experiments (experiment.c) and the dashboard (tui_main.c) have their own. */
#include <stdio.h>

#include "experiment.h"
#include "options.h"
#include "pipeline.h"
#include "run.h"
#include "tui_main.h"

static int run_main(const struct tn_options *o)
{
    if (o->tui)
        return tn_tui_main(o);
    if (o->nexps > 0)
        return tn_experiment_main(o);
    struct tn_run r;
    int st = tn_run_open(&r, o);
    if (st != 0)
        return st;
    tn_run_start(&r);
    tn_run_read(&r);
    return tn_run_end(&r);
}

int main(int argc, char **argv)
{
    struct tn_options o;
    struct tn_err err;
    int r = tn_options_parse(&o, argc, argv, &err);
    if (r != 0) {
        if (r < 0)
            tn_cli_warn(err.msg);
        tn_options_fini(&o);
        return r > 0 ? TN_EXIT_OK : TN_EXIT_USAGE;
    }
    int st = run_main(&o);
    tn_options_fini(&o);
    return st;
}
