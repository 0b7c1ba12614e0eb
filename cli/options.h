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
    const char *write_file;

    /* dissection */
    uint8_t dfcp_ipproto;
    uint16_t dfcp_udp_port;

    /* output */
    bool long_report;
    bool quiet;                /* no connection list */
    const char *csv_dir;
    struct tn_conn_pick *picks;
    int npicks;
};

/* Parse argv.  Returns 0, 1 when the program should exit successfully (--help, --version),
 * or -TN_EUSAGE with err filled. */
int tn_options_parse(struct tn_options *o, int argc, char **argv, struct tn_err *err);
void tn_options_fini(struct tn_options *o);
void tn_options_usage(FILE *out);

#endif
