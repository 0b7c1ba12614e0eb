/* options.h - command line -> struct tn_options (no global flags). */
#ifndef TN_OPTIONS_H
#define TN_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "common.h"

/* A connection chosen on the command line: by number, or by endpoints "A:P-B:P" (any order). */
struct tn_conn_pick {
    unsigned idx;              /* 0 when picked by endpoints */
    char *spec;                /* the endpoints text, or NULL */
};

struct tn_options {
    /* input */
    const char **files;        /* borrowed from argv */
    int nfiles;
    const char *iface;         /* live capture when set */
    char *filter;              /* BPF expression (owned) */
    int snaplen;
    bool immediate;
    bool promisc;
    int buffer_kib;
    const char *write_file;    /* -w / --export: the packets read, as pcap */

    /* anonymization (anon/, cli/boundary.c) */
    const char *anon_key;      /* --anonymize KEYFILE: Crypto-PAn key file */
    bool keep_payload;         /* --keep-payload: exported frames keep their payload */
    bool anon_ts;              /* --anonymize-ts: TCP time stamps rebased per host */

    /* dissection */
    uint8_t dfcp_ipproto;
    uint16_t dfcp_udp_port;

    /* output */
    bool long_report;
    bool quiet;                /* no connection list */
    const char *csv_dir;
    bool timeline;             /* per-connection event timeline (text) */
    bool absolute_seq;         /* TCP sequence numbers as on the wire in timeline and CSV */
    struct tn_conn_pick *picks;
    int npicks;
    size_t cap_picks;          /* picks grow geometrically: -o 1-1000000 is a million of them */
    int64_t from_ns, to_ns;    /* time window, relative to the trace start; to_ns 0 = end */
    int64_t interval_ns;       /* throughput/goodput interval */

    /* figures and exports */
    const char *plot_dir;
    const char *plot_format;   /* "png", "svg", "pdf" */
    int plot_width, plot_height;
    double plot_scale;         /* device pixels per point for PNG (resolution) */
    const char *xplot_dir;
    bool xplot_full;           /* every packet, no per-pixel decimation */
    const char *truth_file;    /* kernel ground truth (tcp_probe text or lab CSV) */

    /* multi-flow views (issue 7; cli/multi.c) */
    bool fairness;             /* --fairness-by or --fairness-window given: text section */
    int fair_by;               /* enum tn_fair_by */
    int64_t fair_window_ns;    /* 0 = --interval */
    int64_t parallel_window_ns;/* 0 = no parallel-transfer detection */
    bool queue_estimate;       /* single-point queue estimate (always with two points) */
    const char **ingress, **egress;   /* two capture points (borrowed from argv) */
    int ningress, negress;
    const char *ingress_if, *egress_if;   /* the same, live on two interfaces of this host */
    const char *ns2_file;      /* ns-2 ASCII trace */
    struct tn_exp_spec {
        char *label;           /* owned */
        const char *file;      /* points into argv */
    } *exps;
    int nexps;

    /* paper figures and experiments (issue 14; cli/options_fig.c) */
    struct tn_flow_rule *flow_rules;   /* --flow NAME=SPEC (owned) */
    int nflow_rules;
    bool all_connections;      /* keep connections under 1% of the largest one's bytes */
    int exp_window;            /* enum tn_exp_window: the experiment rows' averaging interval */
    int64_t win_from_ns, win_to_ns;    /* --window FROM:TO, from each trace's first packet */
    bool time_base_conn;       /* --time-base conn: time 0 is each connection's first packet */
    double link_rate_bps;      /* --link-rate: the bottleneck's rate, for experiment-utilisation */
    bool plot_no_title;
    int plot_legend;           /* 0 below, 1 right, 2 inside, 3 off */
    int plot_legend_by;        /* 0 label, 1 proto, 2 host */

    /* tcptrace's habits (issue 16): -r, -W, -b, -t, -S/-T/-R/-N/-G */
    bool rtt_stats;            /* -r: RTT section of the long report */
    bool owin_stats;           /* -W: outstanding-window rows of the long report */
    bool progress;             /* -t: packet count on stderr as the trace is read */
    unsigned xplot_kinds;      /* bits 1 << enum tn_xplot_kind; 0 = all (with --xplot) */
    const char *senders_json;  /* --json FILE: JSON Lines of connections, senders, events */
    const char *report_path;   /* --report FILE: the text report there, not on standard output */

    /* live dashboard */
    bool tui;                  /* --tui: the ncurses dashboard instead of the text report */
    bool replay;               /* --replay given (with or without a speed) */
    double replay_speed;       /* --replay=SPEED: pace frames at SPEED x recorded; 0 = fast */
    const char *user;          /* -Z USER: drop root after opening the interface */
    double idle_timeout_s;     /* --idle-timeout: dashboard retires connections idle this long */
    long threads;              /* -j/--threads: analysis workers, 0 = every online CPU */
    long max_conns;            /* --max-connections: -1 = from the machine's memory, 0 = none */
};

/* Parse argv.  Returns 0, 1 when the program should exit successfully (--help, --version),
 * or -TN_EUSAGE with err filled. */
int tn_options_parse(struct tn_options *o, int argc, char **argv, struct tn_err *err);
void tn_options_fini(struct tn_options *o);
void tn_options_usage(FILE *out);
/* options_fig.c: one of the issue-14 options by its long name; --plot-size WxH[unit][@DPI]. */
int tn_options_parse_fig(struct tn_options *o, const char *name, const char *arg, struct tn_err *err);
int tn_options_plot_size(struct tn_options *o, const char *arg, struct tn_err *err);
/* The figure options of o (struct tn_plot_opts of render.h). */
struct tn_plot_opts;
void tn_options_plot_opts(const struct tn_options *o, struct tn_plot_opts *po);
/* Free the --flow rules and the BPF filters they hold (options_fig.c). */
void tn_options_flow_rules_free(struct tn_options *o);

#endif
