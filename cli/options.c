/* options.c - command-line parsing (getopt_long) into struct tn_options. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dissect.h"
#include "options.h"
#include "render.h"

enum {
    OPT_CSV = 256,
    OPT_CONNECTION,
    OPT_FAIR_BY,
    OPT_FAIR_WINDOW,
    OPT_PARALLEL_WINDOW,
    OPT_QUEUE_ESTIMATE,
    OPT_INGRESS,
    OPT_EGRESS,
    OPT_INGRESS_IF,
    OPT_EGRESS_IF,
    OPT_NS2,
    OPT_EXPERIMENT,
    OPT_DFCP_PROTO,
    OPT_DFCP_PORT,
    OPT_IMMEDIATE,
    OPT_NO_IMMEDIATE,
    OPT_TIMELINE,
    OPT_FROM,
    OPT_TO,
    OPT_INTERVAL,
    OPT_PLOT,
    OPT_PLOT_FORMAT,
    OPT_PLOT_SIZE,
    OPT_PLOT_SCALE,
    OPT_XPLOT,
    OPT_XPLOT_FULL,
    OPT_TRUTH,
    OPT_TUI,
    OPT_REPLAY,
    OPT_IDLE_TIMEOUT,
    OPT_MAX_CONNS,
    OPT_FIG,                   /* issue 14's options: options_fig.c, by long name */
    OPT_ANONYMIZE,
    OPT_KEEP_PAYLOAD,
    OPT_ANONYMIZE_TS,
    OPT_JSON,
    OPT_REPORT,
};

static const struct option longopts[] = {
    {"interface", required_argument, NULL, 'i'},
    {"snaplen", required_argument, NULL, 's'},
    {"buffer-size", required_argument, NULL, 'B'},
    {"write", required_argument, NULL, 'w'},
    {"export", required_argument, NULL, 'w'},
    {"anonymize", required_argument, NULL, OPT_ANONYMIZE},
    {"keep-payload", no_argument, NULL, OPT_KEEP_PAYLOAD},
    {"anonymize-ts", no_argument, NULL, OPT_ANONYMIZE_TS},
    {"no-promiscuous-mode", no_argument, NULL, 'p'},
    {"immediate", no_argument, NULL, OPT_IMMEDIATE},
    {"no-immediate", no_argument, NULL, OPT_NO_IMMEDIATE},
    {"long", no_argument, NULL, 'l'},
    {"quiet", no_argument, NULL, 'q'},
    {"connection", required_argument, NULL, OPT_CONNECTION},
    {"csv", required_argument, NULL, OPT_CSV},
    {"fairness-by", required_argument, NULL, OPT_FAIR_BY},
    {"fairness-window", required_argument, NULL, OPT_FAIR_WINDOW},
    {"parallel-window", required_argument, NULL, OPT_PARALLEL_WINDOW},
    {"queue-estimate", no_argument, NULL, OPT_QUEUE_ESTIMATE},
    {"ingress", required_argument, NULL, OPT_INGRESS},
    {"egress", required_argument, NULL, OPT_EGRESS},
    {"ingress-if", required_argument, NULL, OPT_INGRESS_IF},
    {"egress-if", required_argument, NULL, OPT_EGRESS_IF},
    {"ns2", required_argument, NULL, OPT_NS2},
    {"experiment", required_argument, NULL, OPT_EXPERIMENT},
    {"timeline", no_argument, NULL, OPT_TIMELINE},
    {"absolute-seq", no_argument, NULL, 'A'},
    {"from", required_argument, NULL, OPT_FROM},
    {"to", required_argument, NULL, OPT_TO},
    {"interval", required_argument, NULL, OPT_INTERVAL},
    {"plot", required_argument, NULL, OPT_PLOT},
    {"plot-format", required_argument, NULL, OPT_PLOT_FORMAT},
    {"plot-size", required_argument, NULL, OPT_PLOT_SIZE},
    {"plot-scale", required_argument, NULL, OPT_PLOT_SCALE},
    {"xplot", required_argument, NULL, OPT_XPLOT},
    {"xplot-full", no_argument, NULL, OPT_XPLOT_FULL},
    {"truth", required_argument, NULL, OPT_TRUTH},
    {"dfcp-proto", required_argument, NULL, OPT_DFCP_PROTO},
    {"dfcp-port", required_argument, NULL, OPT_DFCP_PORT},
    {"tui", no_argument, NULL, OPT_TUI},
    {"replay", optional_argument, NULL, OPT_REPLAY},
    {"idle-timeout", required_argument, NULL, OPT_IDLE_TIMEOUT},
    {"max-connections", required_argument, NULL, OPT_MAX_CONNS},
    {"threads", required_argument, NULL, 'j'},
    {"flow", required_argument, NULL, OPT_FIG},
    {"all-connections", no_argument, NULL, OPT_FIG},
    {"window", required_argument, NULL, OPT_FIG},
    {"steady-state", no_argument, NULL, OPT_FIG},
    {"transfer-period", no_argument, NULL, OPT_FIG},
    {"no-title", no_argument, NULL, OPT_FIG},
    {"link-rate", required_argument, NULL, OPT_FIG},
    {"time-base", required_argument, NULL, OPT_FIG},
    {"legend", required_argument, NULL, OPT_FIG},
    {"legend-by", required_argument, NULL, OPT_FIG},
    {"user", required_argument, NULL, 'Z'},
    {"json", required_argument, NULL, OPT_JSON},
    {"report", required_argument, NULL, OPT_REPORT},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0},
};

void tn_options_usage(FILE *out)
{
    fputs("usage: tcptrace-ng [options] FILE...          analyze trace files ('-' = pcap on stdin)\n"
          "       tcptrace-ng [options] -i IFACE [FILTER]  analyze live traffic until Ctrl-C\n"
          "       tcptrace-ng --tui [options] -i IFACE [FILTER] | --replay[=SPEED] FILE...\n"
          "                                                live dashboard (q or Ctrl-C: report)\n"
          "\n"
          "input:\n"
          "  -i, --interface IFACE     capture live on IFACE (libpcap); FILTER is a BPF expression\n"
          "  -s, --snaplen N           live snap length in bytes (default 256)\n"
          "  -B, --buffer-size KIB     kernel capture buffer in KiB (default: libpcap's)\n"
          "      --immediate           deliver live packets at once (default)\n"
          "      --no-immediate        let the kernel batch live packets\n"
          "  -p, --no-promiscuous-mode do not put the interface into promiscuous mode\n"
          "  -w, --write, --export FILE  also save the packets read into a pcap FILE\n"
          "      --dfcp-proto N        IP protocol number of native DFCP (default 253)\n"
          "      --dfcp-port N         UDP port of encapsulated DFCP (default 9253)\n"
          "output:\n"
          "  -l, --long                long per-connection statistics\n"
          "  -q, --quiet               no connection list (summary and files only)\n"
          "      --connection N|A:P-B:P  select connections (repeatable; default all)\n"
          "      --csv DIR             write the CSV files of the CSV contract into DIR\n"
          "      --json FILE           JSON Lines of connections, senders and events ('-' = stdout)\n"
          "      --report FILE         the text report (list, -l, --timeline, summary) into FILE,\n"
          "                            not standard output (under mpirun: rank 0 writes it)\n"
          "      --timeline            per-connection timeline of events and episodes\n"
          "  -A, --absolute-seq        TCP sequence numbers as on the wire (default: from the ISN)\n"
          "      --from SEC, --to SEC  time window, seconds from the first packet\n"
          "      --time-base trace|conn  time 0 of figures and the timeline: the trace's first\n"
          "                            packet (default) or each connection's\n"
          "      --interval MS         throughput/goodput interval (default 100 ms)\n"
          "      --truth FILE          kernel ground truth (tcp_probe or lab CSV): accuracy report\n"
          "multi-flow views:\n"
          "      --fairness-by conn|hostpair|proto  Jain's index, shares and ratios of these flows\n"
          "      --fairness-window MS  window of the Jain's index series (default: --interval)\n"
          "      --parallel-window MS  connections of one host pair started within MS: one transfer\n"
          "      --queue-estimate      router queue estimated from this capture point (RTT - min RTT)\n"
          "      --ingress FILE --egress FILE  captures before and after a router (repeatable,\n"
          "                            merged by time): per-packet sojourn, queue length, drops\n"
          "      --ingress-if IFACE --egress-if IFACE  the same live, on two interfaces of this\n"
          "                            host (a router): until Ctrl-C; FILTER words as with -i\n"
          "      --ns2 FILE            read an ns-2 ASCII trace: flows and exact link queues\n"
          "      --experiment LABEL=FILE  one labelled trace of an experiment (repeat per trace;\n"
          "                            split at the last '='): experiment table, CSV and figures;\n"
          "                            FILE may be F1,F2,... (captures of one run, merged by time);\n"
          "                            a label given again is another run of that parameter point\n"
          "      --flow NAME=SPEC      name the connections matching SPEC in every trace; SPEC is\n"
          "                            client=ADDR[:PORT],server=ADDR[:PORT],host=ADDR,port=N,\n"
          "                            proto=tcp|dfcp (all must hold), or a BPF filter ('tcp port\n"
          "                            5201 and host 10.0.0.1'); default CLIENT>SERVER:PORT\n"
          "      --all-connections     keep connections under 1% of the largest one's bytes and within\n"
          "                            an initial window (control connections) in multi-flow views\n"
          "                            and figure sets\n"
          "      --window FROM:TO      experiment rates averaged over FROM..TO s of each trace\n"
          "      --steady-state        ... from each sender's end of slow start to its last data\n"
          "      --transfer-period     ... over each sender's first to last data packet\n"
          "      --link-rate RATE      bottleneck rate (bit/s, k/M/G suffix): experiment-utilisation\n"
          "anonymization:\n"
          "      --anonymize KEYFILE   Crypto-PAn prefix-preserving addresses everywhere (32-byte\n"
          "                            key file: AES key, pad); -w/--export then writes\n"
          "                            anonymized headers, zeroed MACs, no payload\n"
          "      --keep-payload        with --anonymize: exported packets keep their payload\n"
          "      --anonymize-ts        with --anonymize: TCP time stamps rebased per host\n"
          "figures and exports:\n"
          "      --plot DIR            write every figure that applies into DIR\n"
          "      --plot-format F       png (default), svg or pdf\n"
          "      --plot-size WxH[U][@DPI]  figure size, U = pt (default), in, cm, mm; DPI sets\n"
          "                            the PNG resolution (e.g. 3.5x2.5in@300; default 800x500)\n"
          "      --plot-scale S        PNG pixels per point (default 2)\n"
          "      --no-title            figures without title and subtitle\n"
          "      --legend below|right|inside|off  legend placement (default below)\n"
          "      --legend-by label|proto|host  multi-flow legends name flows by --flow label\n"
          "                            (default), protocol and flavour, or host:port\n"
          "      --xplot DIR           xplot files (.xpl) as tcptrace -G wrote them\n"
          "      --xplot-full          every packet in xplot files (default: decimated per pixel)\n"
          "live dashboard:\n"
          "      --tui                 ncurses dashboard: connections, detail plots, fairness,\n"
          "                            events; the final report is printed when it ends\n"
          "      --replay[=SPEED]      pace trace files at SPEED x their recorded speed\n"
          "                            (no value or 0: as fast as possible)\n"
          "      --idle-timeout SEC    dashboard: connections idle SEC seconds leave the table\n"
          "                            for its retired summary (default 120; 0 = never)\n"
          "      --max-connections N   connections analysed at once; beyond, the half-open and\n"
          "                            longest idle are evicted (default: from the memory; 0 = no limit)\n"
          "  -j, --threads N           analysis threads, each owning the connections that hash to\n"
          "                            it; outputs equal one thread's (default: every CPU)\n"
          "  -Z, --user USER           drop root privileges to USER after opening the interface\n"
          "tcptrace's options (same meaning):\n"
          "  -n                        accepted: names are never resolved\n"
          "  -r                        long report with its RTT section (implies -l)\n"
          "  -W                        long report with the outstanding-window rows (implies -l)\n"
          "  -b                        brief output: the connection list (undoes an earlier -l)\n"
          "  -o N[-M][,N[-M]...]       only these connections (as --connection N)\n"
          "  -G                        all xplot graphs (into --xplot DIR, default .)\n"
          "  -S, -T, -R, -N            xplot time-sequence, throughput, RTT, outstanding-data graph\n"
          "  -t                        tick off the packets read on standard error\n"
          "  FILE... FILTER            words after the files that are not files: a BPF filter\n"
          "  -h, --help                this help\n"
          "  -V, --version             version\n"
          "\n"
          "exit status: 0 trace read (malformed packets are counted, not fatal), 1 bad usage,\n"
          "2 an input could not be opened or is not a trace\n",
          out);
}

static int parse_seconds(const char *s, int64_t *ns)
{
    char *end;
    double v = strtod(s, &end);
    if (!*s || *end || !(v >= 0 && v <= 1e9))   /* written so that NaN fails too */
        return -1;
    *ns = (int64_t)(v * 1e9 + 0.5);
    return 0;
}

static int parse_uint(const char *s, unsigned long max, unsigned long *v)
{
    char *end;
    if (!*s)
        return -1;
    unsigned long x = strtoul(s, &end, 10);
    if (*end || x > max || s[0] == '-')
        return -1;
    *v = x;
    return 0;
}

static int add_pick(struct tn_options *o, const char *arg, struct tn_err *err)
{
    struct tn_conn_pick pk = {0, NULL};
    unsigned long v;
    if (parse_uint(arg, UINT_MAX, &v) == 0) {
        if (v == 0)
            return tn_err_set(err, TN_EUSAGE, "--connection: numbers start at 1");
        pk.idx = (unsigned)v;
    } else if (strchr(arg, '-') && strchr(arg, ':')) {
        pk.spec = tn_xstrdup(arg);
    } else {
        return tn_err_set(err, TN_EUSAGE, "--connection: '%s' is neither a number nor A:P-B:P", arg);
    }
    tn_grow((void **)&o->picks, &o->cap_picks, (size_t)o->npicks + 1, sizeof *o->picks);
    o->picks[o->npicks++] = pk;
    return 0;
}

/* tcptrace -oN[-M], repeatable; a comma-separated list of numbers and ranges here too. */
static int add_pick_list(struct tn_options *o, const char *arg, struct tn_err *err)
{
    const char *p = arg;
    for (;;) {
        char *end;
        unsigned long lo = strtoul(p, &end, 10), hi = lo;
        if (end == p || lo == 0 || lo > UINT_MAX)
            return tn_err_set(err, TN_EUSAGE, "-o: '%s' is not N, N-M or a list of them (from 1)", arg);
        if (*end == '-') {
            const char *q = end + 1;
            hi = strtoul(q, &end, 10);
            if (end == q || hi < lo || hi > UINT_MAX || hi - lo > 1000000)
                return tn_err_set(err, TN_EUSAGE, "-o: '%s': bad range", arg);
        }
        /* a bound on the whole selection, so that a command line cannot ask for gigabytes */
        if ((unsigned long)o->npicks + (hi - lo + 1) > 1000000)
            return tn_err_set(err, TN_EUSAGE, "-o: '%s': more than 1000000 connections picked", arg);
        for (unsigned long v = lo; v <= hi; v++) {
            tn_grow((void **)&o->picks, &o->cap_picks, (size_t)o->npicks + 1, sizeof *o->picks);
            o->picks[o->npicks++] = (struct tn_conn_pick){(unsigned)v, NULL};
        }
        if (*end == 0)
            return 0;
        if (*end != ',')
            return tn_err_set(err, TN_EUSAGE, "-o: '%s' is not N, N-M or a list of them (from 1)", arg);
        p = end + 1;
    }
}

static bool is_input_file(const char *w)
{
    return strcmp(w, "-") == 0 || access(w, F_OK) == 0;
}

/* tcpdump -r's habit: the words after the trace files, when none of them is a file, are a BPF
 * filter ("tcptrace-ng dump.pcap tcp port 5201").  The first word is always a file. */
static int filter_start(char **w, int n)
{
    int first = n;
    for (int i = 1; i < n && first == n; i++)
        if (!is_input_file(w[i]))
            first = i;
    for (int i = first; i < n; i++)
        if (is_input_file(w[i]))
            return n;   /* a file after it: all are files, and the missing one is reported */
    return first;
}

static char *join_words(char **w, int n)
{
    size_t len = 1;
    for (int i = 0; i < n; i++)
        len += strlen(w[i]) + 1;
    char *s = tn_xmalloc(len);
    s[0] = 0;
    for (int i = 0; i < n; i++) {
        if (i)
            strcat(s, " ");
        strcat(s, w[i]);
    }
    return s;
}

/* Options of the multi-flow views (issue 7). */
static int parse_multi(struct tn_options *o, int c, const char *arg, struct tn_err *err)
{
    unsigned long v;
    switch (c) {
    case OPT_FAIR_BY:
        if (strcmp(arg, "conn") == 0)
            o->fair_by = 0;
        else if (strcmp(arg, "hostpair") == 0)
            o->fair_by = 1;
        else if (strcmp(arg, "proto") == 0)
            o->fair_by = 2;
        else
            return tn_err_set(err, TN_EUSAGE, "--fairness-by: '%s' is not conn, hostpair or proto", arg);
        o->fairness = true;
        return 0;
    case OPT_FAIR_WINDOW:
        if (parse_uint(arg, 3600000, &v) || v == 0)
            return tn_err_set(err, TN_EUSAGE, "--fairness-window: '%s' is not a number of milliseconds", arg);
        o->fair_window_ns = (int64_t)v * 1000000;
        o->fairness = true;
        return 0;
    case OPT_PARALLEL_WINDOW:
        if (parse_uint(arg, 3600000, &v) || v == 0)
            return tn_err_set(err, TN_EUSAGE, "--parallel-window: '%s' is not a number of milliseconds", arg);
        o->parallel_window_ns = (int64_t)v * 1000000;
        return 0;
    case OPT_QUEUE_ESTIMATE: o->queue_estimate = true; return 0;
    case OPT_INGRESS:
        o->ingress = tn_xrealloc(o->ingress, (size_t)(o->ningress + 1) * sizeof *o->ingress);
        o->ingress[o->ningress++] = arg;
        return 0;
    case OPT_EGRESS:
        o->egress = tn_xrealloc(o->egress, (size_t)(o->negress + 1) * sizeof *o->egress);
        o->egress[o->negress++] = arg;
        return 0;
    case OPT_INGRESS_IF: o->ingress_if = arg; return 0;
    case OPT_EGRESS_IF: o->egress_if = arg; return 0;
    case OPT_NS2: o->ns2_file = arg; return 0;
    default: {   /* OPT_EXPERIMENT: LABEL=FILE, split at the last '=' (labels may hold one) */
        const char *eq = strrchr(arg, '=');
        if (!eq || eq == arg || !eq[1])
            return tn_err_set(err, TN_EUSAGE, "--experiment: '%s' is not LABEL=FILE", arg);
        o->exps = tn_xrealloc(o->exps, (size_t)(o->nexps + 1) * sizeof *o->exps);
        char *label = tn_xmalloc((size_t)(eq - arg) + 1);
        memcpy(label, arg, (size_t)(eq - arg));
        label[eq - arg] = 0;
        o->exps[o->nexps++] = (struct tn_exp_spec){label, eq + 1};
        return 0;
    }
    }
}

/* The multi-flow inputs replace FILE... and -i; 0 when there are none, 1 when they are the
 * input, or -TN_EUSAGE. */
static int check_multi_input(const struct tn_options *o, int nargs, struct tn_err *err)
{
    if ((o->ningress == 0) != (o->negress == 0))
        return tn_err_set(err, TN_EUSAGE, "--ingress and --egress go together");
    if ((o->ingress_if == NULL) != (o->egress_if == NULL))
        return tn_err_set(err, TN_EUSAGE, "--ingress-if and --egress-if go together");
    if (o->ingress_if && o->ningress)
        return tn_err_set(err, TN_EUSAGE, "two capture points come from files or from interfaces, not both");
    if (o->ingress_if && !strcmp(o->ingress_if, o->egress_if))
        return tn_err_set(err, TN_EUSAGE, "--ingress-if and --egress-if name the same interface");
    int kinds = (o->ningress > 0 || o->ingress_if) + (o->ns2_file != NULL) + (o->nexps > 0);
    if (kinds == 0)
        return 0;
    if (kinds > 1)
        return tn_err_set(err, TN_EUSAGE, "use one of --ingress/--egress, --ns2 and --experiment");
    if (o->iface || nargs > 0)
        return tn_err_set(err, TN_EUSAGE, "--ingress/--egress, --ns2 and --experiment take no other input");
    return 1;
}

static int parse_one(struct tn_options *o, int c, const char *arg, struct tn_err *err)
{
    unsigned long v;
    switch (c) {
    case 'i': o->iface = arg; return 0;
    case 's':
        if (parse_uint(arg, 262144, &v) || v < 64)
            return tn_err_set(err, TN_EUSAGE, "--snaplen: '%s' is not a number from 64 to 262144", arg);
        o->snaplen = (int)v;
        return 0;
    case 'B':
        if (parse_uint(arg, 4194304, &v) || v == 0)
            return tn_err_set(err, TN_EUSAGE, "--buffer-size: '%s' is not a size in KiB", arg);
        o->buffer_kib = (int)v;
        return 0;
    case 'w': o->write_file = arg; return 0;
    case 'p': o->promisc = false; return 0;
    case OPT_IMMEDIATE: o->immediate = true; return 0;
    case OPT_NO_IMMEDIATE: o->immediate = false; return 0;
    case 'l': o->long_report = true; return 0;
    case 'n': return 0;   /* tcptrace -n: names are never resolved here */
    case 'r': o->rtt_stats = o->long_report = true; return 0;
    case 'W': o->owin_stats = o->long_report = true; return 0;
    case 'b': o->long_report = o->rtt_stats = o->owin_stats = false; return 0;
    case 't': o->progress = true; return 0;
    case 'o': return add_pick_list(o, arg, err);
    case OPT_JSON: o->senders_json = arg; return 0;
    case OPT_REPORT: o->report_path = arg; return 0;
    case 'G': o->xplot_kinds = ~0u; return 0;
    case 'S': o->xplot_kinds |= 1u << TN_XPL_TSG; return 0;
    case 'T': o->xplot_kinds |= 1u << TN_XPL_TPUT; return 0;
    case 'R': o->xplot_kinds |= 1u << TN_XPL_RTT; return 0;
    case 'N': o->xplot_kinds |= 1u << TN_XPL_OWIN; return 0;
    case 'q': o->quiet = true; return 0;
    case OPT_CONNECTION: return add_pick(o, arg, err);
    case OPT_CSV: o->csv_dir = arg; return 0;
    case OPT_FAIR_BY:
    case OPT_FAIR_WINDOW:
    case OPT_PARALLEL_WINDOW:
    case OPT_QUEUE_ESTIMATE:
    case OPT_INGRESS:
    case OPT_EGRESS:
    case OPT_INGRESS_IF:
    case OPT_EGRESS_IF:
    case OPT_NS2:
    case OPT_EXPERIMENT:
        return parse_multi(o, c, arg, err);
    case OPT_TIMELINE: o->timeline = true; return 0;
    case 'A': o->absolute_seq = true; return 0;
    case OPT_FROM:
        if (parse_seconds(arg, &o->from_ns))
            return tn_err_set(err, TN_EUSAGE, "--from: '%s' is not a number of seconds", arg);
        return 0;
    case OPT_TO:
        if (parse_seconds(arg, &o->to_ns) || o->to_ns == 0)
            return tn_err_set(err, TN_EUSAGE, "--to: '%s' is not a positive number of seconds", arg);
        return 0;
    case OPT_INTERVAL:
        if (parse_uint(arg, 3600000, &v) || v == 0)
            return tn_err_set(err, TN_EUSAGE, "--interval: '%s' is not a number of milliseconds", arg);
        o->interval_ns = (int64_t)v * 1000000;
        return 0;
    case OPT_PLOT: o->plot_dir = arg; return 0;
    case OPT_PLOT_FORMAT:
        if (strcmp(arg, "png") && strcmp(arg, "svg") && strcmp(arg, "pdf"))
            return tn_err_set(err, TN_EUSAGE, "--plot-format: '%s' is not png, svg or pdf", arg);
        o->plot_format = arg;
        return 0;
    case OPT_PLOT_SIZE: return tn_options_plot_size(o, arg, err);
    case OPT_PLOT_SCALE: {
        char *end;
        double sc = strtod(arg, &end);
        if (*end || !(sc >= 0.25 && sc <= 10))   /* NaN fails too */
            return tn_err_set(err, TN_EUSAGE, "--plot-scale: '%s' is not a number from 0.25 to 10", arg);
        o->plot_scale = sc;
        return 0;
    }
    case OPT_XPLOT: o->xplot_dir = arg; return 0;
    case OPT_XPLOT_FULL: o->xplot_full = true; return 0;
    case OPT_TRUTH: o->truth_file = arg; return 0;
    case OPT_TUI: o->tui = true; return 0;
    case OPT_ANONYMIZE: o->anon_key = arg; return 0;
    case OPT_KEEP_PAYLOAD: o->keep_payload = true; return 0;
    case OPT_ANONYMIZE_TS: o->anon_ts = true; return 0;
    case OPT_REPLAY: {
        char *end;
        double sp = arg ? strtod(arg, &end) : 0;
        if (arg && (!*arg || *end || !(sp >= 0 && sp <= 1e6)))
            return tn_err_set(err, TN_EUSAGE, "--replay: '%s' is not a speed factor (e.g. 1, 0.5, 10)", arg);
        o->replay = true;
        o->replay_speed = sp;
        return 0;
    }
    case OPT_IDLE_TIMEOUT: {
        int64_t ns;
        if (parse_seconds(arg, &ns))
            return tn_err_set(err, TN_EUSAGE, "--idle-timeout: '%s' is not a number of seconds", arg);
        o->idle_timeout_s = (double)ns / 1e9;
        return 0;
    }
    case OPT_MAX_CONNS: {
        char *end;
        errno = 0;
        long n = strtol(arg, &end, 10);
        if (*end || end == arg || n < 0 || errno)
            return tn_err_set(err, TN_EUSAGE, "--max-connections: '%s' is not a number of connections", arg);
        o->max_conns = n;
        return 0;
    }
    case 'j':
        if (parse_uint(arg, 1024, &v) || v == 0)
            return tn_err_set(err, TN_EUSAGE, "-j/--threads: '%s' is not a number of threads 1-1024", arg);
        o->threads = (long)v;
        return 0;
    case 'Z':
        if (!*arg)
            return tn_err_set(err, TN_EUSAGE, "-Z: empty user name");
        o->user = arg;
        return 0;
    case OPT_DFCP_PROTO:
        if (parse_uint(arg, 255, &v))
            return tn_err_set(err, TN_EUSAGE, "--dfcp-proto: '%s' is not a protocol number 0-255", arg);
        o->dfcp_ipproto = (uint8_t)v;
        return 0;
    case OPT_DFCP_PORT:
        if (parse_uint(arg, 65535, &v) || v == 0)
            return tn_err_set(err, TN_EUSAGE, "--dfcp-port: '%s' is not a port 1-65535", arg);
        o->dfcp_udp_port = (uint16_t)v;
        return 0;
    default:
        return tn_err_set(err, TN_EUSAGE, "unknown option (try --help)");
    }
}

int tn_options_parse(struct tn_options *o, int argc, char **argv, struct tn_err *err)
{
    memset(o, 0, sizeof *o);
    o->immediate = true;
    o->promisc = true;
    o->dfcp_ipproto = TN_DFCP_DEFAULT_IPPROTO;
    o->dfcp_udp_port = TN_DFCP_DEFAULT_UDP_PORT;
    o->interval_ns = 100000000;
    o->plot_format = "png";
    o->plot_width = 800;
    o->plot_height = 500;
    o->plot_scale = 2;
    o->idle_timeout_s = 120;
    o->max_conns = -1;
    opterr = 0;
    /* 0, not 1: glibc then also forgets where it was inside a cluster of short options (a parse
     * that stopped at an error in "-abc" left a pointer into that argv; the next parse read it
     * after it was freed: fuzz_options, tests/fuzz/corpus/regress-options) */
    optind = 0;
    int c, li = -1;
    while ((c = getopt_long(argc, argv, "+i:s:B:w:Z:o:j:plqhVAnrWbtGSTRN", longopts, &li)) != -1) {
        if (c == OPT_FIG) {
            int r = tn_options_parse_fig(o, longopts[li].name, optarg, err);
            if (r)
                return r;
            continue;
        }
        if (c == 'h') {
            tn_options_usage(stdout);
            return 1;
        }
        if (c == 'V') {
            puts("tcptrace-ng " TN_VERSION);
            return 1;
        }
        if (c == '?' || c == ':')
            return tn_err_set(err, TN_EUSAGE, "bad option '%s' (try --help)", argv[optind - 1]);
        int r = parse_one(o, c, optarg, err);
        if (r)
            return r;
    }
    if ((o->iface || o->ingress_if) && o->replay)
        return tn_err_set(err, TN_EUSAGE, "--replay paces trace files; it does not apply to -i");
    if (o->xplot_kinds && !o->xplot_dir)
        o->xplot_dir = ".";   /* tcptrace writes its graphs into the current directory */
    if (o->to_ns && o->to_ns <= o->from_ns)
        return tn_err_set(err, TN_EUSAGE, "--to must be after --from");
    if ((o->keep_payload || o->anon_ts) && !o->anon_key)
        return tn_err_set(err, TN_EUSAGE, "%s changes what --anonymize writes: give --anonymize KEYFILE",
                          o->keep_payload ? "--keep-payload" : "--anonymize-ts");
    if (o->iface || o->ingress_if) {   /* live: the words left are a BPF filter */
        if (o->iface && o->ingress_if)
            return tn_err_set(err, TN_EUSAGE, "-i and --ingress-if/--egress-if are two different inputs");
        if (optind < argc)
            o->filter = join_words(argv + optind, argc - optind);
        if (o->ingress_if && check_multi_input(o, 0, err) < 0)
            return -TN_EUSAGE;
    } else {
        o->files = (const char **)(argv + optind);
        o->nfiles = filter_start(argv + optind, argc - optind);
        if (o->nfiles < argc - optind)
            o->filter = join_words(argv + optind + o->nfiles, argc - optind - o->nfiles);
        int mi = check_multi_input(o, o->nfiles, err);
        if (mi < 0)
            return mi;
        if (o->nfiles == 0 && mi == 0)
            return tn_err_set(err, TN_EUSAGE, "no input: give trace files or -i IFACE (try --help)");
    }
    return 0;
}

void tn_options_fini(struct tn_options *o)
{
    for (int i = 0; i < o->npicks; i++)
        free(o->picks[i].spec);
    free(o->picks);
    free(o->filter);
    for (int i = 0; i < o->nexps; i++)
        free(o->exps[i].label);
    free(o->exps);
    tn_options_flow_rules_free(o);
    free(o->ingress);
    free(o->egress);
}
