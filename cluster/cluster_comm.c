/* cluster_comm.c - how the ranks of an MPI job wait for each other, share the order of the
 * files and the exit status, and end the job (cluster_int.h): what cluster_mpi.c and
 * cluster_twopoint.c both use. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capture.h"
#include "cluster_int.h"
#include "pipeline.h"

/* Wait for a collective without spinning: Open MPI and MPICH poll while a blocking collective
 * waits, which takes the core from a rank still reading or analysing on the same machine.
 * MPI_Test drives the progress; the sleep grows from 1 us to 1 ms. */
void tn_cluster_wait(MPI_Request *rq, MPI_Status *st)
{
    long ns = 1000;
    for (;;) {
        int done = 0;
        MPI_Test(rq, &done, st);
        if (done)
            return;
        struct timespec t = {0, ns};
        nanosleep(&t, NULL);
        if (ns < 1000000)
            ns *= 2;
    }
}

/* A rank with nothing to do waits here while rank 0 works alone.  Everything written is
 * flushed first: with a nonzero status the launcher ends the job when the first rank exits, and
 * rank 0's report must not be in its stdio buffer then (a two-point run with a bad egress file
 * lost the end of its report under ASan). */
int tn_cluster_share_status(int status)
{
    fflush(stdout);
    fflush(stderr);
    MPI_Request rq;
    MPI_Ibcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq);
    tn_cluster_wait(&rq, MPI_STATUS_IGNORE);
    return status;
}

void tn_cluster_share_order(const char **files, int n, int rank)
{
    if (n < 2)
        return;
    int *order = tn_xmalloc((size_t)n * sizeof *order);
    if (rank == 0)   /* opens every file for its first time stamp: once for the job */
        tn_capture_time_order(files, n, order, NULL);
    MPI_Request rq;
    MPI_Ibcast(order, n, MPI_INT, 0, MPI_COMM_WORLD, &rq);
    tn_cluster_wait(&rq, MPI_STATUS_IGNORE);
    const char **v = tn_xmalloc((size_t)n * sizeof *v);
    for (int i = 0; i < n; i++)
        v[i] = files[order[i]];
    memcpy(files, v, (size_t)n * sizeof *v);
    free(v);
    free(order);
}

void tn_cluster_abort(int rank, const char *msg)
{
    if (msg) {
        char line[1300];
        snprintf(line, sizeof line, "rank %d: %s; the job stops", rank, msg);
        tn_cli_warn(line);
    }
    fflush(stderr);
    /* MPI_Abort has the launcher end every process, and MPICH's Hydra may do so before it has
     * forwarded the message above (1 run in 30 lost it on a loaded machine): a moment first */
    nanosleep(&(struct timespec){0, 200000000}, NULL);
    MPI_Abort(MPI_COMM_WORLD, TN_EXIT_INPUT);
    abort();   /* MPI_Abort does not return */
}
