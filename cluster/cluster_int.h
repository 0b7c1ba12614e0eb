/* cluster_int.h - what the MPI files of cluster/ share: cluster_comm.c's waits, status and end of
 * the job; cluster_twopoint.c's run, started by cluster_mpi.c. */
#ifndef TN_CLUSTER_INT_H
#define TN_CLUSTER_INT_H

#include <mpi.h>
#include <stdbool.h>

#include "options.h"

/* Wait for a request without spinning (a blocking MPI call polls a core away from the ranks
 * still working on the machine); st may be MPI_STATUS_IGNORE. */
void tn_cluster_wait(MPI_Request *rq, MPI_Status *st);

/* Rank 0's exit status to every rank, waited for gently. */
int tn_cluster_share_status(int status);

/* Put files[0..n) in the time order one process reads them in (tn_capture_time_order, as the
 * files source orders them): rank 0 reads each file's first time stamp and broadcasts the
 * order, so that the other ranks open only the files they read.  The same files on every rank. */
void tn_cluster_share_order(const char **files, int n, int rank);

/* Tell "rank R: msg" and end every rank of the job with exit status 2 (never a hang: the others
 * may be waiting for this one). */
__attribute__((noreturn)) void tn_cluster_abort(int rank, const char *msg);

/* Two capture points over files (--ingress/--egress) with a rank per point: rank 1 reads the
 * egress files and sends their packets to rank 0, which reads the ingress files and runs the
 * whole analysis as one process through alone(o) (cluster_twopoint.c).  Returns the exit
 * status, the same on every rank. */
bool tn_cluster_two_points(const struct tn_options *o, int size);
int tn_cluster_run_two_points(const struct tn_options *o, int rank, int (*alone)(const struct tn_options *o));

#endif
