/* main.c - the composition root: options -> capture -> dissect -> analysis -> render.
 * The read loop and the final outputs live in pipeline.c; the dashboard in tui_main.c. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "capture.h"
#include "dissect.h"
#include "multi.h"
#include "options.h"
#include "pipeline.h"
#include "render.h"
#include "tui_main.h"

/* The signal handler's only way to reach the capture: set once before the loop. */
static struct tn_capture *volatile running_capture;

static void on_signal(int sig)
{
    (void)sig;
    if (running_capture)
        tn_capture_break(running_capture);
}

static void install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
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
    if (o.tui) {
        int st = tn_tui_main(&o);
        tn_options_fini(&o);
        return st;
    }

    if (tn_cli_multi_input(&o)) {   /* two capture points, ns-2, experiment: cli/multi.c */
        int st = tn_cli_multi_main(&o);
        tn_options_fini(&o);
        return st;
    }

    struct tn_capture *cap = NULL;
    if ((r = tn_pipeline_open_input(&o, &cap, &err)) < 0) {
        tn_cli_warn(err.msg);
        tn_options_fini(&o);
        return r == -TN_EUSAGE ? TN_EXIT_USAGE : TN_EXIT_INPUT;
    }
    int status = TN_EXIT_OK;
    if (o.write_file && tn_capture_dump_open(cap, o.write_file, &err) < 0) {
        tn_cli_warn(err.msg);
        status = TN_EXIT_INPUT;
    }

    struct tn_dissect_cfg dcfg;
    tn_dissect_cfg_default(&dcfg);
    dcfg.dfcp_ipproto = o.dfcp_ipproto;
    dcfg.dfcp_udp_port = o.dfcp_udp_port;
    struct tn_analysis_cfg acfg;
    tn_pipeline_analysis_cfg(&o, &acfg);
    tn_cli_multi_analysis_cfg(&o, &acfg);
    struct tn_analyzer *an = tn_analyzer_new(&acfg);
    struct tn_pipeline pl = {
        .cap = cap,
        .dcfg = &dcfg,
        .an = an,
        .replay_speed = o.replay_speed,
        .retire_idle_ns = tn_pipeline_retire_ns(&o, &acfg),
    };

    running_capture = cap;
    install_signals();
    int lr = tn_pipeline_run(&pl);
    if (lr > status)
        status = lr;
    running_capture = NULL;
    tn_analyzer_finish(an);

    if (status == TN_EXIT_INPUT)
        tn_cli_multi_hint(&o);   /* an ns-2 trace given as FILE: say --ns2 */
    status = tn_pipeline_finish(&o, an, cap, status);
    tn_analyzer_free(an);
    tn_pipeline_fini(&pl);
    tn_options_fini(&o);
    return status;
}
