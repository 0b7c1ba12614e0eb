/* options.c - command-line parsing (getopt_long) into struct tn_options. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dissect.h"
#include "options.h"

enum {
    OPT_CSV = 256,
    OPT_CONNECTION,
    OPT_DFCP_PROTO,
    OPT_DFCP_PORT,
    OPT_IMMEDIATE,
    OPT_NO_IMMEDIATE,
};

static const struct option longopts[] = {
    {"interface", required_argument, NULL, 'i'},
    {"snaplen", required_argument, NULL, 's'},
    {"buffer-size", required_argument, NULL, 'B'},
    {"write", required_argument, NULL, 'w'},
    {"no-promiscuous-mode", no_argument, NULL, 'p'},
    {"immediate", no_argument, NULL, OPT_IMMEDIATE},
    {"no-immediate", no_argument, NULL, OPT_NO_IMMEDIATE},
    {"long", no_argument, NULL, 'l'},
    {"quiet", no_argument, NULL, 'q'},
    {"connection", required_argument, NULL, OPT_CONNECTION},
    {"csv", required_argument, NULL, OPT_CSV},
    {"dfcp-proto", required_argument, NULL, OPT_DFCP_PROTO},
    {"dfcp-port", required_argument, NULL, OPT_DFCP_PORT},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0},
};

void tn_options_usage(FILE *out)
{
    fputs("usage: tcptrace-ng [options] FILE...          analyze trace files ('-' = pcap on stdin)\n"
          "       tcptrace-ng [options] -i IFACE [FILTER]  analyze live traffic until Ctrl-C\n"
          "\n"
          "input:\n"
          "  -i, --interface IFACE     capture live on IFACE (libpcap); FILTER is a BPF expression\n"
          "  -s, --snaplen N           live snap length in bytes (default 256)\n"
          "  -B, --buffer-size KIB     kernel capture buffer in KiB (default: libpcap's)\n"
          "      --immediate           deliver live packets at once (default)\n"
          "      --no-immediate        let the kernel batch live packets\n"
          "  -p, --no-promiscuous-mode do not put the interface into promiscuous mode\n"
          "  -w, --write FILE          also save the packets read into a pcap FILE\n"
          "      --dfcp-proto N        IP protocol number of native DFCP (default 253)\n"
          "      --dfcp-port N         UDP port of encapsulated DFCP (default 9253)\n"
          "output:\n"
          "  -l, --long                long per-connection statistics\n"
          "  -q, --quiet               no connection list (summary and files only)\n"
          "      --connection N|A:P-B:P  select connections (repeatable; default all)\n"
          "      --csv DIR             write connections.csv (csv-contract) into DIR\n"
          "  -h, --help                this help\n"
          "  -V, --version             version\n"
          "\n"
          "exit status: 0 trace read (malformed packets are counted, not fatal), 1 bad usage,\n"
          "2 an input could not be opened or is not a trace\n",
          out);
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
    o->picks = tn_xrealloc(o->picks, (size_t)(o->npicks + 1) * sizeof *o->picks);
    o->picks[o->npicks++] = pk;
    return 0;
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
    case 'q': o->quiet = true; return 0;
    case OPT_CONNECTION: return add_pick(o, arg, err);
    case OPT_CSV: o->csv_dir = arg; return 0;
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
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "+i:s:B:w:plqhV", longopts, NULL)) != -1) {
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
    if (o->iface) {
        if (optind < argc)
            o->filter = join_words(argv + optind, argc - optind);
    } else {
        o->files = (const char **)(argv + optind);
        o->nfiles = argc - optind;
        if (o->nfiles == 0)
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
}
