/* fuzz_cluster_args.h - the command line of one process for the targets that decode what the
 * ranks of an MPI job send rank 0 (fuzz_cluster.c, fuzz_retired.c): words with "@D" for a
 * scratch directory, which holds the trace files the options name. */
#ifndef TN_FUZZ_CLUSTER_ARGS_H
#define TN_FUZZ_CLUSTER_ARGS_H

#include <stdio.h>

#include "options.h"

#define TN_FUZZ_NFILES 4 /* @D/a.pcap .. @D/d.pcap, empty */

/* The command line (argv, freed by tn_fuzz_args_free after the options). */
struct tn_fuzz_args {
    char *v[32];
    int n;
};

/* Append word, "@D" at its start replaced by dir. */
void tn_fuzz_args_add(struct tn_fuzz_args *a, const char *dir, const char *word);
void tn_fuzz_args_free(struct tn_fuzz_args *a);

/* Make the trace files in dir (a..d.pcap empty: words after them that are no files would be a
 * BPF filter; i.pcap a pcap header and no packet) and parse a's words, after the program's
 * name, into o.  tn_options_parse's return value. */
int tn_fuzz_args_parse(struct tn_options *o, struct tn_fuzz_args *a, const char *dir);

#endif
