/* cluster_env.c - was this process started by an MPI launcher?  Each launcher puts the job's
 * size in the environment of its processes: Open MPI's mpirun OMPI_COMM_WORLD_SIZE, MPICH's
 * Hydra and Slurm's srun --mpi=pmi2 PMI_SIZE, PMIx launchers (srun --mpi=pmix, prrte)
 * PMIX_RANK.  A plain run has none of them and never starts MPI. */
#include <stdlib.h>

#include "cluster.h"

static const char *const size_vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"};

int tn_cluster_env_size(void)
{
    for (size_t i = 0; i < sizeof size_vars / sizeof size_vars[0]; i++) {
        const char *v = getenv(size_vars[i]);
        if (v && atoi(v) > 0)
            return atoi(v);
    }
    return 0;
}

bool tn_cluster_launched(void)
{
    return tn_cluster_env_size() > 0 || getenv("PMIX_RANK") != NULL;
}
