/* fuzz_retired_seeds.c - seeds for fuzz_retired from real traces.  Each FILE is analysed as a
 * rank other than 0 analyses the connections it owns: with a store, and cfg.on_retire writing
 * each connection that retires (closed both ways and quiet, or a lone SYN) as
 * tn_cluster_retired_pack streams it to rank 0, and cfg.on_away writing each later packet of one
 * it kept no copy of (tn_cluster_away_pack).  Then two late packets, as a late FIN would be: a
 * copy of the trace's last TCP/DFCP packet 1 s after the trace, which moves the clock past the
 * quiet time of every closed connection (they retire), and 1 s later a copy of the last packet of
 * one that retired: one that finished goes to rank 0 in the stream, to be analysed there; a lone
 * SYN comes back whole from the store and to rank 0 again at the end, and rank 0 keeps that copy
 * (tn_analyzer_keep_latest).  A seed: the command line byte (cycling through
 * fuzz_retired's), the stream's length (u16), the stream, and the connections not retired
 * (tn_conn_pack's, as a rank sends them at the end); under 60000 bytes.  A trace in which nothing
 * retires gives no seed.
 *
 *   fuzz_retired_seeds OUTDIR FILE... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "cluster_wire.h"
#include "mem_store.h"

#define SEED_MAX 60000   /* bytes of a seed at most (run.sh: -max_len=65536) */
#define STREAM_MAX 40000 /* of which the retired stream */
#define MAX_PKTS 200000  /* packets of a trace read at most */
#define MAX_FLOWS 512    /* flows whose last packet is kept */
#define NCMDS 4          /* fuzz_retired's command lines */

/* The store (mem_store.h) and what on_retire sent rank 0. */
struct retired_out {
    struct mem_store store;
    struct tn_packbuf stream;
    size_t sent, skipped;
};

static uint64_t on_retire(void *arg, const struct tn_conn_brief *b, const void *bytes, size_t n)
{
    struct retired_out *m = arg;
    if (m->stream.n + 1 + sizeof *b + 4 + n > STREAM_MAX)
        return UINT64_MAX - m->skipped++;   /* not sent: rank 0 would refuse its later packets */
    tn_cluster_retired_pack(b, bytes, n, &m->stream);
    return m->sent++;
}

static void on_away(void *arg, uint64_t id, const struct tn_pkt *p, struct tn_pkt_place place)
{
    struct retired_out *m = arg;
    if (id >= m->sent || m->stream.n + 9 + TN_CLUSTER_WREC_MAX > STREAM_MAX)
        return;
    tn_cluster_away_pack(id, p, place, &m->stream);
}

/* The last packet of each flow (by tn_flow_hash), for the late ones. */
struct flow_last {
    uint64_t hash;
    struct tn_pkt p;
};

static bool same_addr(const struct tn_addr *x, const struct tn_addr *y)
{
    return x->family == y->family && memcmp(x->a, y->a, x->family == 4 ? 4 : 16) == 0;
}

/* Is p a packet of the connection brief b describes? */
static bool pkt_of(const struct tn_pkt *p, const struct tn_conn_brief *b)
{
    if ((unsigned)p->kind != b->proto)
        return false;
    return (same_addr(&p->src, &b->a) && same_addr(&p->dst, &b->b) && p->sport == b->a_port &&
            p->dport == b->b_port) ||
           (same_addr(&p->src, &b->b) && same_addr(&p->dst, &b->a) && p->sport == b->b_port &&
            p->dport == b->a_port);
}

static const char *const source = "seed.pcap";

/* p again, `after` seconds after the trace's last time stamp, as packet num. */
static void late(struct tn_analyzer *an, struct tn_pkt p, struct tn_time last, int64_t after,
                 uint64_t num)
{
    p.ts.sec = last.sec + after;
    p.ts.nsec = last.nsec;
    p.num = num;
    tn_analyzer_add(an, &p, TN_DIS_OK, source);
}

static int seed_of(const char *dir, const char *path, int i)
{
    struct tn_capture *cap;
    struct tn_err err;
    if (tn_capture_open_file(&cap, path, &err) < 0) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    struct retired_out m = {0};
    /* every recording on for half the seeds (figures, packets.csv), none for the others */
    bool rec = i % 2 == 0;
    struct tn_analysis_cfg acfg = {.record_events = rec,
                                   .record_series = rec,
                                   .record_packets = rec,
                                   .packet_cap = 256,
                                   .spill_put = mem_put,
                                   .spill_get = mem_get,
                                   .spill_arg = &m.store,
                                   .on_retire = on_retire,
                                   .on_away = on_away,
                                   .on_retire_arg = &m};
    struct tn_analyzer *an = tn_analyzer_new(&acfg);
    struct tn_dissect_cfg dcfg;
    tn_dissect_cfg_default(&dcfg);
    struct flow_last *flows = calloc(MAX_FLOWS, sizeof *flows);
    size_t nflows = 0, last_flow = SIZE_MAX;
    struct tn_frame f;
    int r;
    uint64_t n = 0;
    while (n < MAX_PKTS && (r = tn_capture_next(cap, &f, &err)) != 0) {
        if (r < 0)
            continue;
        struct tn_pkt p;
        int st = tn_dissect(&dcfg, f.linktype, f.data, f.caplen, f.wirelen, f.ts, f.num, &p);
        tn_analyzer_add(an, &p, st, source);
        n = f.num;
        if (p.kind != TN_PK_TCP && p.kind != TN_PK_DFCP)
            continue;
        uint64_t h = tn_flow_hash(&p);
        size_t k = 0;
        while (k < nflows && flows[k].hash != h)
            k++;
        if (k == nflows && nflows < MAX_FLOWS)
            flows[nflows++].hash = h;
        if (k < nflows) {
            flows[k].p = p;
            last_flow = k;
        }
    }
    tn_capture_close(cap, NULL);
    struct tn_time end = tn_analyzer_stats(an)->last;
    if (last_flow != SIZE_MAX) {
        late(an, flows[last_flow].p, end, 1, ++n);
        struct tn_conn_brief b;
        bool back = false;
        for (size_t k = 0; k < tn_analyzer_conn_count(an) && !back; k++) {
            tn_analyzer_brief(an, k, &b);
            for (size_t j = 0; j < nflows && b.retired && !back; j++)
                if ((back = pkt_of(&flows[j].p, &b)))
                    late(an, flows[j].p, end, 2, ++n);
        }
    }
    tn_analyzer_finish(an);
    int bad = 0;
    if (m.sent) {
        struct tn_packbuf s = {0};
        uint8_t head[3] = {(uint8_t)(i % NCMDS), (uint8_t)m.stream.n, (uint8_t)(m.stream.n >> 8)};
        tn_packbuf_put(&s, head, sizeof head);
        tn_packbuf_put(&s, m.stream.p, m.stream.n);
        size_t at_end = 0;
        for (size_t k = 0; k < tn_analyzer_conn_count(an); k++) {
            struct tn_conn_brief b;
            tn_analyzer_brief(an, k, &b);
            if (b.retired)
                continue;
            size_t before = s.n;
            tn_conn_pack(tn_analyzer_conn(an, k), &s);
            if (s.n > SEED_MAX) {
                s.n = before;
                break;
            }
            at_end++;
        }
        char out[4096];
        snprintf(out, sizeof out, "%s/seed-retired-%d", dir, i);
        FILE *fp = fopen(out, "wb");
        if (!fp || fwrite(s.p, 1, s.n, fp) != s.n || fclose(fp) != 0) {
            perror(out);
            bad = -1;
        } else {
            printf("%s: %zu retired (%zu left out), %zu at the end, %zu bytes\n", out, m.sent,
                   m.skipped, at_end, s.n);
        }
        tn_packbuf_fini(&s);
    }
    tn_analyzer_free(an);
    free(flows);
    free(m.store.p);
    tn_packbuf_fini(&m.stream);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: fuzz_retired_seeds OUTDIR FILE...\n");
        return 1;
    }
    int bad = 0;
    for (int i = 2; i < argc; i++)
        bad |= seed_of(argv[1], argv[i], i - 2) != 0;
    return bad;
}
