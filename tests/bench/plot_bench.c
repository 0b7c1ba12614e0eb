/* plot_bench.c - time and memory of a PNG time-sequence graph of one big connection.
 *
 *   plot_bench PACKETS OUT.png [WIDTH HEIGHT SCALE]
 *
 * Builds a synthetic connection in memory (half data segments of 1448 B, half ACKs, a
 * retransmission every 1000 segments, a SACK block on every 50th ACK) as the analysis would
 * record it, then builds the figure and renders it.  Prints one line of key=value pairs: the
 * memory of the packet records themselves, and the time and peak-RSS growth of the figure alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "plot.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long maxrss_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: plot_bench PACKETS OUT.png [WIDTH HEIGHT SCALE]\n");
        return 2;
    }
    size_t n = strtoull(argv[1], NULL, 10);
    int w = argc > 3 ? atoi(argv[3]) : 800, h = argc > 4 ? atoi(argv[4]) : 500;
    double scale = argc > 5 ? atof(argv[5]) : 2;
    long rss0 = maxrss_kib();

    static struct tn_conn c;
    c.idx = 1;
    c.proto = TN_PK_TCP;
    c.a.family = c.b.family = 4;
    c.a_port = 40000;
    c.b_port = 5201;
    static struct tn_series no_series[2][TN_SER_COUNT];
    c.series = no_series;
    static struct tn_tcp_infer no_inf[2];
    c.inf = no_inf;
    c.pkts = tn_xmalloc(n * sizeof *c.pkts);
    c.npkts = c.cap_pkts = n;
    int64_t t0 = 1700000000LL * 1000000000, dt = 1000;   /* 1 us apart: 1 Mpkt/s */
    uint64_t seq = 1;
    for (size_t i = 0; i < n; i++) {
        struct tn_pktrec *k = &c.pkts[i];
        *k = (struct tn_pktrec){.t_ns = t0 + (int64_t)i * dt, .num = i + 1, .flags = TN_TCP_ACK};
        if (i % 2 == 0) {
            k->dir = TN_A2B;
            k->len = 1448;
            bool rx = i % 2000 == 1000;
            k->seq = rx ? seq - 100 * 1448 : seq;
            k->rexmit = rx ? 1 + TN_EV_REXMIT_FAST : 0;
            if (!rx)
                seq += 1448;
        } else {
            k->dir = TN_B2A;
            k->ack = seq > 20 * 1448 ? seq - 20 * 1448 : 1;
            k->win = 3 << 20;
            if (i % 100 == 1) {
                k->nsack = 1;
                k->sack[0].left = k->ack + 1448;
                k->sack[0].right = k->ack + 4 * 1448;
            }
        }
    }
    c.d[TN_A2B].data_pkts = (n + 1) / 2;
    c.first.sec = t0 / 1000000000;
    c.last.sec = (t0 + (int64_t)n * dt) / 1000000000;
    c.last.nsec = (uint32_t)((t0 + (int64_t)n * dt) % 1000000000);
    long rss1 = maxrss_kib();

    double a = now();
    struct tn_fig_cfg fc = {.ncols = (int)(w * scale), .nrows = (int)(h * scale)};
    struct tn_plot *p = tn_fig_tsg(&c, TN_A2B, &fc);
    double b = now();
    struct tn_err err;
    int r = tn_plot_write_cairo(p, TN_IMG_PNG, argv[2], w, h, scale, NULL, &err);
    double e = now();
    long rss2 = maxrss_kib();
    if (r) {
        fprintf(stderr, "plot_bench: %s\n", err.msg);
        return 1;
    }
    printf("packets=%zu record_bytes=%zu records_mib=%.0f build_s=%.3f render_s=%.3f total_s=%.3f "
           "plot_points=%zu figure_rss_mib=%.1f base_rss_mib=%.1f\n",
           n, sizeof(struct tn_pktrec), (double)n * sizeof(struct tn_pktrec) / 1048576.0, b - a, e - b,
           e - a, tn_plot_npoints(p), (double)(rss2 - rss1) / 1024.0, (double)rss0 / 1024.0);
    tn_plot_free(p);
    free(c.pkts);
    return 0;
}
