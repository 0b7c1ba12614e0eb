/* fuzz_cluster_seeds.c - seeds for fuzz_cluster from real traces: for each FILE, the packet
 * records of its first packets (mode 0), the results a rank would send for them (mode 1: trace
 * totals, connections), an experiment trace's results (mode 2) and the egress point's stream
 * (mode 3: its packets and a read problem), each under 64 KiB, the outputs cycling through
 * fuzz_cluster's command lines.
 *
 *   fuzz_cluster_seeds OUTDIR FILE... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "cluster_wire.h"

#define SEED_PKTS 80         /* packets of each trace: small inputs run faster */
#define SEED_MAX 60000       /* bytes of a seed at most (run.sh: -max_len=65536) */

/* fuzz_cluster's four file names; the packets of trace i come from file i % 4 */
static const char *const files[] = {"a.pcap", "b.pcap", "c.pcap", "d.pcap"};

static int write_seed(const char *dir, const char *name, int i, uint8_t head, const struct tn_packbuf *b)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/seed-%s-%d", dir, name, i);
    FILE *f = fopen(path, "wb");
    if (!f || fputc(head, f) == EOF || fwrite(b->p, 1, b->n, f) != b->n || fclose(f) != 0) {
        perror(path);
        return -1;
    }
    return 0;
}

/* Connections of an, packed after what b holds, while the seed stays under SEED_MAX. */
static uint64_t pack_conns(const struct tn_analyzer *an, struct tn_packbuf *b)
{
    uint64_t k = 0;
    for (size_t c = 0; c < tn_analyzer_conn_count(an); c++) {
        size_t before = b->n;
        tn_conn_pack(tn_analyzer_conn(an, c), b);
        if (b->n > SEED_MAX) {
            b->n = before;
            break;
        }
        k++;
    }
    return k;
}

static int seeds_of(const char *dir, const char *path, int i)
{
    struct tn_capture *cap;
    struct tn_err err;
    if (tn_capture_open_file(&cap, path, &err) < 0) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    struct tn_dissect_cfg dcfg;
    tn_dissect_cfg_default(&dcfg);
    struct tn_analysis_cfg acfg = {.record_events = true, .record_series = true, .record_packets = true};
    struct tn_analyzer *an = tn_analyzer_new(&acfg);
    struct tn_packbuf recs = {0}, egress = {0};
    uint32_t file = (uint32_t)(i % 4);
    int64_t clock = INT64_MIN;
    struct tn_frame f;
    int r, n = 0;
    while (n < SEED_PKTS && (r = tn_capture_next(cap, &f, &err)) != 0) {
        if (r < 0)
            continue;
        struct tn_pkt p;
        int st = tn_dissect(&dcfg, f.linktype, f.data, f.caplen, f.wirelen, f.ts, f.num, &p);
        tn_analyzer_add(an, &p, st, files[file]);
        if (p.kind == TN_PK_TCP || p.kind == TN_PK_DFCP) {
            uint8_t rec[TN_CLUSTER_REC_MAX];
            size_t len = tn_cluster_rec_pack(file, clock, &p, rec);
            if (recs.n + len < SEED_MAX)
                tn_packbuf_put(&recs, rec, len);
        }
        if (egress.n < SEED_MAX - TN_CLUSTER_EGRESS_MAX)
            tn_cluster_egress_pkt_pack(st, file, &p, &egress);
        int64_t t = tn_time_ns(p.ts);
        clock = t > clock ? t : clock;
        n++;
    }
    tn_capture_close(cap, NULL);
    tn_analyzer_finish(an);
    uint8_t cmd = (uint8_t)(4 * (i % 3));
    int bad = write_seed(dir, "records", i, (uint8_t)(0 + cmd), &recs);
    struct tn_err cut;
    tn_err_set(&cut, TN_ETRUNC, "%s: truncated in packet %d (a seed's problem)", files[file], n + 1);
    tn_cluster_egress_problem_pack(-TN_ETRUNC, &cut, &egress);
    bad |= write_seed(dir, "egress", i, (uint8_t)(3 + cmd), &egress);

    /* mode 1: the totals' length, the totals, the connections */
    struct tn_packbuf b = {0};
    tn_packbuf_put(&b, (uint8_t[2]){0, 0}, 2);
    tn_cluster_stats_pack(tn_analyzer_stats(an), 0, files, 4, &b);
    size_t len = b.n - 2;
    b.p[0] = (uint8_t)len;
    b.p[1] = (uint8_t)(len >> 8);
    pack_conns(an, &b);
    bad |= write_seed(dir, "results", i, (uint8_t)(1 + cmd), &b);

    /* mode 2: tn_cluster_trace_pack's layout, with as many connections as fit */
    b.n = 0;
    int32_t st32 = 0;
    tn_packbuf_put(&b, &st32, sizeof st32);
    struct tn_trace_stats st = *tn_analyzer_stats(an);
    for (int k = 0; k < TN_ANOM_COUNT; k++)
        st.anom_first_file[k] = NULL;
    tn_packbuf_put(&b, &st, sizeof st);
    size_t at = b.n;
    uint64_t k = 0;
    tn_packbuf_put(&b, &k, sizeof k);
    k = pack_conns(an, &b);
    memcpy(b.p + at, &k, sizeof k);
    bad |= write_seed(dir, "trace", i, (uint8_t)(2 + cmd), &b);

    tn_packbuf_fini(&b);
    tn_packbuf_fini(&recs);
    tn_packbuf_fini(&egress);
    tn_analyzer_free(an);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: fuzz_cluster_seeds OUTDIR FILE...\n");
        return 1;
    }
    int bad = 0;
    for (int i = 2; i < argc; i++)
        bad |= seeds_of(argv[1], argv[i], i - 2) != 0;
    return bad;
}
