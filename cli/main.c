/* main.c - the composition root: options -> capture -> dissect -> analysis -> render. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "capture.h"
#include "dissect.h"
#include "options.h"
#include "render.h"

enum { EXIT_OK = 0, EXIT_USAGE = 1, EXIT_INPUT = 2 };

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

static void warn(const char *msg)
{
    fprintf(stderr, "tcptrace-ng: %s\n", msg);
}

/* Names of the files frames came from, kept for the anomaly report after the capture closed. */
struct source_names {
    char **v;
    size_t n, cap;
};

static const char *intern_source(struct source_names *s, const char *name)
{
    if (!name)
        return "?";
    if (s->n && strcmp(s->v[s->n - 1], name) == 0)
        return s->v[s->n - 1];
    tn_grow((void **)&s->v, &s->cap, s->n + 1, sizeof *s->v);
    s->v[s->n] = tn_xstrdup(name);
    return s->v[s->n++];
}

static void free_sources(struct source_names *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i]);
    free(s->v);
}

static int open_input(const struct tn_options *o, struct tn_capture **cap, struct tn_err *err)
{
    if (o->iface) {
        struct tn_live_opts lo = {
            .iface = o->iface,
            .filter = o->filter,
            .snaplen = o->snaplen ? o->snaplen : 256,
            .immediate = o->immediate,
            .buffer_kib = o->buffer_kib,
            .promisc = o->promisc,
        };
        return tn_capture_open_live(cap, &lo, err);
    }
    return tn_capture_open_files(cap, o->files, o->nfiles, err);
}

/* Read every frame into the analyzer.  Returns the exit status the input deserves. */
static int run_loop(struct tn_capture *cap, const struct tn_dissect_cfg *dcfg, struct tn_analyzer *an,
                    struct source_names *names)
{
    int status = EXIT_OK;
    struct tn_frame f;
    struct tn_pkt p;
    struct tn_err err;
    const char *last_src = NULL, *src_name = "?";
    for (;;) {
        int r = tn_capture_next(cap, &f, &err);
        if (r == 0)
            break;
        if (r < 0) {
            warn(err.msg);
            if (r != -TN_ETRUNC)
                status = EXIT_INPUT;
            continue;
        }
        if (f.source != last_src) {
            last_src = f.source;
            src_name = intern_source(names, f.source);
        }
        int st = tn_dissect(dcfg, f.linktype, f.data, f.caplen, f.wirelen, f.ts, f.num, &p);
        tn_analyzer_add(an, &p, st, src_name);
    }
    return status;
}

static void report_capture_stats(struct tn_capture *cap)
{
    struct tn_capture_stats cs;
    tn_capture_get_stats(cap, &cs);
    if (cs.live)
        fprintf(stdout,
                "\nCapture: %llu packets received by filter, %llu dropped by kernel, "
                "%llu dropped by interface\n",
                (unsigned long long)cs.kernel_recv, (unsigned long long)cs.kernel_drop,
                (unsigned long long)cs.if_drop);
}

/* Turn --connection picks into connection numbers; endpoint specs match either direction. */
static unsigned *resolve_picks(const struct tn_options *o, const struct tn_analyzer *an, size_t *n)
{
    *n = 0;
    if (o->npicks == 0)
        return NULL;
    size_t nconn = tn_analyzer_conn_count(an);
    unsigned *v = tn_xcalloc((size_t)o->npicks + nconn, sizeof *v);
    for (int i = 0; i < o->npicks; i++) {
        if (o->picks[i].idx) {
            v[(*n)++] = o->picks[i].idx;
            continue;
        }
        for (size_t k = 0; k < nconn; k++) {
            const struct tn_conn *c = tn_analyzer_conn(an, k);
            char a[64], b[64], s1[160], s2[160];
            tn_addr_str(&c->a, a, sizeof a);
            tn_addr_str(&c->b, b, sizeof b);
            snprintf(s1, sizeof s1, "%s:%u-%s:%u", a, c->a_port, b, c->b_port);
            snprintf(s2, sizeof s2, "%s:%u-%s:%u", b, c->b_port, a, c->a_port);
            if (strcmp(o->picks[i].spec, s1) == 0 || strcmp(o->picks[i].spec, s2) == 0)
                v[(*n)++] = c->idx;
        }
    }
    return v;
}

/* Each file output: its error is reported, the others are still written. */
static int check(int r, const struct tn_err *err)
{
    if (r >= 0)
        return EXIT_OK;
    warn(err->msg);
    return EXIT_INPUT;
}

static int write_files(const struct tn_options *o, const struct tn_analyzer *an, const struct tn_view *v)
{
    struct tn_err err;
    int status = EXIT_OK, r;
    if (o->csv_dir) {
        r = check(tn_csv_write_connections(o->csv_dir, an, v->sel, &err), &err);
        status = r > status ? r : status;
        r = check(tn_csv_write_events(o->csv_dir, an, v, &err), &err);
        status = r > status ? r : status;
        r = check(tn_csv_write_series(o->csv_dir, an, v, &err), &err);
        status = r > status ? r : status;
        /* packets.csv and dfcp_blocks.csv: render_csv_packets.c, render_csv_dfcp.c */
        r = check(tn_csv_write_packets(o->csv_dir, an, v, &err), &err);
        status = r > status ? r : status;
        r = check(tn_csv_write_dfcp_blocks(o->csv_dir, an, v, &err), &err); status = r > status ? r : status;
    }
    /* figures (--plot) and xplot files (--xplot): render_plot*.c, render_xplot.c */
    if (o->plot_dir) {
        struct tn_plot_opts po = {
            .format = o->plot_format,
            .width = o->plot_width,
            .height = o->plot_height,
            .scale = o->plot_scale,
            .truth_file = o->truth_file,
        };
        r = check(tn_plot_write_all(o->plot_dir, an, v, &po, &err), &err);
        status = r > status ? r : status;
    }
    if (o->xplot_dir) {
        r = check(tn_xplot_write_all(o->xplot_dir, an, v, o->xplot_full, &err), &err);
        status = r > status ? r : status;
    }
    return status;
}

static int report_truth(const char *path, const struct tn_analyzer *an)
{
    struct tn_truth *truth;
    struct tn_err err;
    if (tn_truth_load(path, &truth, &err) < 0) {
        warn(err.msg);
        return EXIT_INPUT;
    }
    size_t max = 2 * tn_analyzer_conn_count(an) + 1;
    struct tn_accuracy *acc = tn_xcalloc(max, sizeof *acc);
    size_t n = tn_truth_compare(truth, an, acc, max);
    tn_report_accuracy(stdout, acc, n);
    free(acc);
    tn_truth_free(truth);
    return EXIT_OK;
}

static int write_outputs(const struct tn_options *o, const struct tn_analyzer *an)
{
    size_t nsel;
    unsigned *picked = resolve_picks(o, an, &nsel);
    struct tn_selection sel = {picked, nsel};
    const struct tn_trace_stats *st = tn_analyzer_stats(an);
    int64_t t0 = st->have_time ? st->first.sec * 1000000000 + st->first.nsec : 0;
    struct tn_view view = {
        .sel = o->npicks ? &sel : NULL,
        .from_ns = o->from_ns ? t0 + o->from_ns : 0,
        .to_ns = o->to_ns ? t0 + o->to_ns : 0,
    };
    if (o->npicks && nsel == 0)
        warn("--connection: no connection matches the selection");
    if (!o->quiet)
        tn_report_list(stdout, an, view.sel);
    if (o->long_report)
        tn_report_long(stdout, an, view.sel);
    if (o->timeline)
        tn_report_timeline(stdout, an, &view);
    tn_report_summary(stdout, an);
    int status = write_files(o, an, &view);
    if (o->truth_file)
        status = report_truth(o->truth_file, an) > status ? EXIT_INPUT : status;
    free(picked);
    return status;
}

int main(int argc, char **argv)
{
    struct tn_options o;
    struct tn_err err;
    int r = tn_options_parse(&o, argc, argv, &err);
    if (r != 0) {
        if (r < 0)
            warn(err.msg);
        tn_options_fini(&o);
        return r > 0 ? EXIT_OK : EXIT_USAGE;
    }

    struct tn_capture *cap = NULL;
    if (open_input(&o, &cap, &err) < 0) {
        warn(err.msg);
        tn_options_fini(&o);
        return EXIT_INPUT;
    }
    int status = EXIT_OK;
    if (o.write_file && tn_capture_dump_open(cap, o.write_file, &err) < 0) {
        warn(err.msg);
        status = EXIT_INPUT;
    }

    struct tn_dissect_cfg dcfg;
    tn_dissect_cfg_default(&dcfg);
    dcfg.dfcp_ipproto = o.dfcp_ipproto;
    dcfg.dfcp_udp_port = o.dfcp_udp_port;
    bool files = o.csv_dir || o.plot_dir || o.xplot_dir;
    struct tn_analysis_cfg acfg = {
        .record_events = files || o.timeline || o.truth_file,
        .record_series = files || o.truth_file,
        .record_packets = files,
        .interval_ns = o.interval_ns,
    };
    struct tn_analyzer *an = tn_analyzer_new(&acfg);
    struct source_names names = {0};

    running_capture = cap;
    install_signals();
    int lr = run_loop(cap, &dcfg, an, &names);
    if (lr > status)
        status = lr;
    running_capture = NULL;
    tn_analyzer_finish(an);

    bool nothing_read = tn_analyzer_stats(an)->frames == 0 && status == EXIT_INPUT;
    if (!nothing_read) {   /* an unreadable input alone gets its error, not an empty report */
        int wr = write_outputs(&o, an);
        if (wr > status)
            status = wr;
    }
    report_capture_stats(cap);
    if (tn_capture_close(cap, &err) < 0) {
        warn(err.msg);
        status = EXIT_INPUT;
    }
    tn_analyzer_free(an);
    free_sources(&names);
    tn_options_fini(&o);
    return status;
}
