/* cluster.h - one run spread over the ranks of an MPI job (docs/cluster.md): the same binary
 * runs alone or as `mpirun -np N tcptrace-ng [options] FILES...`.  The input files are divided
 * among the ranks by size in their order; each rank reads and dissects its part and sends every
 * TCP/DFCP packet's record to the rank owning its connection (tn_flow_hash, as the threads),
 * in rounds of trace time, so that each owner analyses its connections' packets in the order
 * one process reads them; rank 0 assembles the finished connections and writes the outputs of
 * one process.  Part of the composition root (cli/). */
#ifndef TN_CLUSTER_H
#define TN_CLUSTER_H

#include <stdbool.h>
#include <stdio.h>

#include "options.h"

/* Started by an MPI launcher (mpirun, mpiexec, srun): its environment says so. */
bool tn_cluster_launched(void);

/* The size of the job the launcher's environment announces, 0 when it names none. */
int tn_cluster_env_size(void);

/* The run of the options on the ranks of the job: trace files divided among the ranks, the
 * traces of an experiment one per rank.  First o->files are put in the time order one process
 * reads them in, found by rank 0 alone (the other ranks open only their own files).  What is
 * not divided (live capture, the dashboard, ns-2 traces, two capture points, -w) is run by
 * rank 0 alone through alone(o).  Returns the exit status, the same on every rank. */
int tn_cluster_main(struct tn_options *o, int (*alone)(const struct tn_options *o));

/* Contiguous runs of the files for the ranks, balanced by size and in the order given: file i
 * goes to the rank in whose share of the total bytes its middle falls.  first[r], count[r]
 * (nranks each) get rank r's run. */
void tn_cluster_partition(const unsigned long long *sizes, int nfiles, int nranks, int *first, int *count);

#endif
