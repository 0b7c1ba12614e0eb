/* cluster_none.c - this build has no MPI: a run started by mpirun with more than one process
 * would have every process write the same outputs, so it is refused with the remedy. */
#include <stdio.h>

#include "cluster.h"
#include "pipeline.h"
#include "report_file.h"

int tn_cluster_main(struct tn_options *o, int (*alone)(const struct tn_options *o))
{
    int n = tn_cluster_env_size();
    if (n <= 1) {
        int st = tn_report_file_open(o->report_path);
        return st ? st : tn_report_file_close(alone(o));
    }
    char msg[200];
    snprintf(msg, sizeof msg, "started as one of %d MPI processes, but this tcptrace-ng was built without "
             "MPI: install libopenmpi-dev (or MPICH) and rebuild, or run it alone", n);
    tn_cli_warn(msg);
    return TN_EXIT_USAGE;
}
