/* cluster_part.c - the files of a job divided among its ranks: contiguous runs (a rank's files
 * follow each other in time when the files do), balanced by bytes. */
#include "cluster.h"

void tn_cluster_partition(const unsigned long long *sizes, int nfiles, int nranks, int *first, int *count)
{
    unsigned long long total = 0;
    for (int i = 0; i < nfiles; i++)
        total += sizes[i];
    for (int r = 0; r < nranks; r++) {
        first[r] = 0;
        count[r] = 0;
    }
    unsigned long long before = 0;
    int prev = 0;
    for (int i = 0; i < nfiles; i++) {
        /* the rank whose share [r T/N, (r+1) T/N) holds the file's middle byte */
        long double mid = (long double)before + (long double)sizes[i] / 2;
        int r = total ? (int)(mid * nranks / (long double)total) : 0;
        if (r >= nranks)
            r = nranks - 1;
        if (r < prev)
            r = prev;   /* never back: runs stay contiguous */
        if (count[r] == 0)
            first[r] = i;
        count[r]++;
        prev = r;
        before += sizes[i];
    }
}
