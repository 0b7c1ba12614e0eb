/* tn_taioffset.c - print CLOCK_TAI minus CLOCK_REALTIME in seconds (the kernel's TAI offset).
 *
 * Reference: docs/lab.md "Clock alignment". tracefs's "tai" trace_clock reads CLOCK_TAI,
 * pcap timestamps are CLOCK_REALTIME; the lab subtracts this offset (0 unless something set
 * it with adjtimex(ADJ_TAI), 37 s on hosts whose NTP daemon does) from trace times.
 * Prints the median of 101 back-to-back samples, rounded to the microsecond, and the spread.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int tn_tai_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    enum { N = 101 };
    double d[N];
    for (int i = 0; i < N; i++) {
        struct timespec r1, t, r2;
        clock_gettime(CLOCK_REALTIME, &r1);
        clock_gettime(CLOCK_TAI, &t);
        clock_gettime(CLOCK_REALTIME, &r2);
        double rm = ((double)r1.tv_sec + (double)r2.tv_sec) / 2.0 +
                    ((double)r1.tv_nsec + (double)r2.tv_nsec) / 2e9;
        d[i] = ((double)t.tv_sec + (double)t.tv_nsec * 1e-9) - rm;
    }
    qsort(d, N, sizeof d[0], tn_tai_cmp);
    printf("%.6f %.9f\n", d[N / 2], d[N - 1] - d[0]);
    return 0;
}
