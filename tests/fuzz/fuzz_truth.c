/* fuzz_truth.c - libFuzzer target: the input is a kernel truth file (the lab's tcp_probe.csv
 * when it starts with its header, else tracefs text or an ss -tin log), loaded and graded
 * against an analysis of one small hand-made connection so that the comparison runs too: a
 * bulk transfer between the ends the first probe names, from its time on, with a loss and its
 * fast retransmission, so that every grade (cwnd, RTT, episodes, retransmissions) is reached
 * whatever addresses and times the input has. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "analysis.h"
#include "analysis_truth_int.h"
#include "dissect.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* 10.0.0.1:1000 -> 10.0.0.2:80 SYN, when the first probe names no IPv4 ends */
static const uint8_t syn[40] = {0x45, 0, 0, 40, 0, 1, 0, 0, 64, 6, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2,
                                0x03, 0xe8, 0, 80, 0, 0, 0, 1, 0, 0, 0, 0, 0x50, 0x02, 0xff, 0xff,
                                0, 0, 0, 0};

struct end {
    uint8_t ip[4];
    uint16_t port;
};

static bool end_parse(const char *s, struct end *e)
{
    unsigned a, b, c, d, p;
    char extra;
    if (sscanf(s, "%u.%u.%u.%u:%u%c", &a, &b, &c, &d, &p, &extra) != 5 || a > 255 || b > 255 ||
        c > 255 || d > 255 || p > 65535)
        return false;
    *e = (struct end){{(uint8_t)a, (uint8_t)b, (uint8_t)c, (uint8_t)d}, (uint16_t)p};
    return true;
}

static void put16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, v >> 16);
    put16(p + 2, v);
}

/* One IPv4/TCP packet from s to d, headers only (its payload of len bytes not captured). */
static void send_pkt(struct tn_analyzer *an, const struct end *s, const struct end *d, uint32_t seq,
                     uint32_t ack, uint8_t flags, uint16_t len, int64_t t_ns, uint64_t num)
{
    uint8_t h[40] = {0x45, 0};
    put16(h + 2, 40u + len);
    h[8] = 64;
    h[9] = 6;
    memcpy(h + 12, s->ip, 4);
    memcpy(h + 16, d->ip, 4);
    put16(h + 20, s->port);
    put16(h + 22, d->port);
    put32(h + 24, seq);
    put32(h + 28, ack);
    h[32] = 0x50;
    h[33] = flags;
    put16(h + 34, 65535);
    struct tn_dissect_cfg cfg;
    tn_dissect_cfg_default(&cfg);
    struct tn_pkt p;
    struct tn_time ts = {t_ns / 1000000000, (uint32_t)(t_ns % 1000000000)};
    int st = tn_dissect(&cfg, TN_LINK_RAW, h, sizeof h, 40u + len, ts, num, &p);
    tn_analyzer_add(an, &p, st, "fuzz");
}

/* Handshake, 40 segments of 1000 bytes 1 ms apart each ACKed, segment 10 lost: three duplicate
 * ACKs, then its retransmission. */
static void bulk(struct tn_analyzer *an, const struct end *a, const struct end *b, int64_t t0)
{
    enum { SEG = 1000, NSEG = 40, LOST = 10 };
    const uint8_t A = 0x10, S = 0x02;
    uint64_t num = 0;
    int64_t t = t0 > 2000000 ? t0 - 2000000 : 0;
    send_pkt(an, a, b, 0, 0, S, 0, t, ++num);
    send_pkt(an, b, a, 0, 1, S | A, 0, t + 500000, ++num);
    send_pkt(an, a, b, 1, 1, A, 0, t + 1000000, ++num);
    uint32_t acked = 1;
    for (int i = 0; i < NSEG; i++) {
        t += 1000000;
        uint32_t seq = 1 + (uint32_t)i * SEG;
        if (i != LOST)
            send_pkt(an, a, b, seq, 1, A, SEG, t, ++num);
        if (i < LOST)
            acked = seq + SEG;
        send_pkt(an, b, a, 1, acked, A, 0, t + 400000, ++num);   /* duplicates after the loss */
        if (i == LOST + 3) {
            send_pkt(an, a, b, 1 + LOST * SEG, 1, A, SEG, t + 500000, ++num);
            acked = seq + SEG;
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char dir[4096], path[4200];
    if (tn_fuzz_mkdtemp(dir) < 0)
        return 0;
    /* The input holds up to three files, separated by lines "--": tcp_probe.csv (or tracefs
     * text or an ss log), then the tcp_cong_state.csv and tcp_retransmit.csv the loader reads
     * beside it (its header checks refuse one that is not what its name says). */
    static const char *const names[] = {"tcp_probe.csv", "tcp_cong_state.csv", "tcp_retransmit.csv"};
    static const char sep[] = "\n--\n";
    const uint8_t *part = data, *end = data + size;
    for (size_t i = 0; i < 3 && part <= end; i++) {
        const uint8_t *next = memmem(part, (size_t)(end - part), sep, sizeof sep - 1);
        size_t len = next ? (size_t)(next - part) + 1 : (size_t)(end - part);   /* keep the newline */
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        FILE *fp = fopen(path, "wb");
        if (fp) {
            fwrite(part, 1, len, fp);
            fclose(fp);
        }
        if (!next)
            break;
        part = next + sizeof sep - 1;
    }
    snprintf(path, sizeof path, "%s/tcp_probe.csv", dir);
    struct tn_truth *t;
    struct tn_err err;
    if (tn_truth_load(path, &t, &err) == 0) {
        struct tn_analysis_cfg acfg = {.record_events = true, .record_series = true};
        struct tn_analyzer *an = tn_analyzer_new(&acfg);
        struct end a, b;
        if (t->nprobes && end_parse(t->probes[0].k.src, &a) && end_parse(t->probes[0].k.dst, &b)) {
            bulk(an, &a, &b, t->probes[0].t_ns);
        } else {
            struct tn_dissect_cfg cfg;
            tn_dissect_cfg_default(&cfg);
            struct tn_pkt p;
            int st = tn_dissect(&cfg, TN_LINK_RAW, syn, sizeof syn, sizeof syn,
                                (struct tn_time){1796044084, 0}, 1, &p);
            tn_analyzer_add(an, &p, st, "fuzz");
        }
        tn_analyzer_finish(an);
        struct tn_accuracy acc[8];
        (void)tn_truth_compare(t, an, acc, 8);
        tn_analyzer_free(an);
        tn_truth_free(t);
    }
    tn_fuzz_rmtree(dir);
    return 0;
}
