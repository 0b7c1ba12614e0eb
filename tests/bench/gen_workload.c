/* gen_workload.c - synthetic traces for the scale benchmarks (issue 12), as classic pcap
 * (Ethernet, IPv4, TCP without options, snap length 96: payload bytes past the snap length
 * are counted on the wire, not stored).
 *
 *   gen_workload short N OUT     N complete short connections: SYN, SYN-ACK, ACK, a data
 *                                segment each way (100 and 200 bytes), the ACK of the second,
 *                                FIN both ways and the last ACK: 9 packets each.  Connection i
 *                                starts at i x 10 us and its packets are 5 ms apart, so about
 *                                4000 connections are open at any time.
 *   gen_workload syn N OUT       N lone SYNs from distinct sources to one server (a flood),
 *                                1 us apart.
 *   gen_workload bulk P OUT      8 bulk flows, P packets in all: handshake, 1448-byte segments
 *                                round-robin over the flows with an ACK every 2 segments, FIN
 *                                both ways.
 *
 * Build: cc -O2 -o gen_workload gen_workload.c */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SNAP = 96, ETH = 14, IP = 20, TCPH = 20 };
enum { F_FIN = 0x01, F_SYN = 0x02, F_RST = 0x04, F_PSH = 0x08, F_ACK = 0x10 };

static FILE *out;

static void put32(uint8_t *b, uint32_t v) { b[0] = v >> 24; b[1] = v >> 16; b[2] = v >> 8; b[3] = v; }
static void put16(uint8_t *b, uint16_t v) { b[0] = v >> 8; b[1] = v; }

static void le32(uint8_t *b, uint32_t v) { b[0] = v; b[1] = v >> 8; b[2] = v >> 16; b[3] = v >> 24; }

static void file_header(void)
{
    uint8_t h[24] = {0};
    le32(h, 0xa1b2c3d4);
    h[4] = 2; h[6] = 4;                  /* version 2.4 */
    le32(h + 16, SNAP);
    le32(h + 20, 1);                     /* LINKTYPE_ETHERNET */
    fwrite(h, 1, sizeof h, out);
}

struct ep {
    uint32_t ip;
    uint16_t port;
};

/* One TCP packet from s to d at t_ns with len payload bytes. */
static void packet(uint64_t t_ns, struct ep s, struct ep d, uint32_t seq, uint32_t ack, uint8_t flags,
                   uint32_t len)
{
    uint8_t b[16 + SNAP];
    memset(b, 0, sizeof b);
    uint32_t wire = ETH + IP + TCPH + len, cap = wire < SNAP ? wire : SNAP;
    le32(b, (uint32_t)(t_ns / 1000000000));
    le32(b + 4, (uint32_t)(t_ns % 1000000000 / 1000));
    le32(b + 8, cap);
    le32(b + 12, wire);
    uint8_t *e = b + 16, *ip = e + ETH, *tcp = ip + IP;
    e[5] = 1; e[11] = 2;                 /* MACs 00..01 / 00..02 */
    put16(e + 12, 0x0800);
    ip[0] = 0x45;
    put16(ip + 2, (uint16_t)(IP + TCPH + len));
    ip[6] = 0x40;                        /* DF */
    ip[8] = 64;
    ip[9] = 6;
    put32(ip + 12, s.ip);
    put32(ip + 16, d.ip);
    uint32_t sum = 0;
    for (int i = 0; i < IP; i += 2)
        sum += (uint32_t)(ip[i] << 8 | ip[i + 1]);
    while (sum >> 16)
        sum = (sum & 0xffff) + (sum >> 16);
    put16(ip + 10, (uint16_t)~sum);
    put16(tcp, s.port);
    put16(tcp + 2, d.port);
    put32(tcp + 4, seq);
    put32(tcp + 8, flags & F_ACK ? ack : 0);
    tcp[12] = 5 << 4;
    tcp[13] = flags;
    put16(tcp + 14, 65535);
    fwrite(b, 1, 16 + cap, out);
}

static struct ep client(uint64_t i)
{
    /* 10.0.0.0/8 hosts, 50000 ports each: every connection its own 4-tuple */
    return (struct ep){0x0a000000u + 1 + (uint32_t)(i / 50000), (uint16_t)(10000 + i % 50000)};
}

static const struct ep server = {0xc0a80001u, 80};   /* 192.168.0.1:80 */

/* Packet k (0..8) of short connection i. */
static void short_packet(uint64_t i, int k, uint64_t t)
{
    struct ep c = client(i);
    uint32_t ci = (uint32_t)(i * 7919u), si = (uint32_t)(i * 104729u);   /* ISNs */
    switch (k) {
    case 0: packet(t, c, server, ci, 0, F_SYN, 0); break;
    case 1: packet(t, server, c, si, ci + 1, F_SYN | F_ACK, 0); break;
    case 2: packet(t, c, server, ci + 1, si + 1, F_ACK, 0); break;
    case 3: packet(t, c, server, ci + 1, si + 1, F_PSH | F_ACK, 100); break;
    case 4: packet(t, server, c, si + 1, ci + 101, F_PSH | F_ACK, 200); break;
    case 5: packet(t, c, server, ci + 101, si + 201, F_ACK, 0); break;
    case 6: packet(t, c, server, ci + 101, si + 201, F_FIN | F_ACK, 0); break;
    case 7: packet(t, server, c, si + 201, ci + 102, F_FIN | F_ACK, 0); break;
    case 8: packet(t, c, server, ci + 102, si + 202, F_ACK, 0); break;
    }
}

enum { SHORT_STEP_NS = 10000, SHORT_GAP_STEPS = 500 };   /* 10 us; packets 5 ms apart */

static void gen_short(uint64_t n)
{
    const uint64_t t0 = 1700000000ull * 1000000000ull;
    /* step s holds packet k of connection s - k * GAP: time order without sorting */
    for (uint64_t s = 0; s < n + 8 * SHORT_GAP_STEPS; s++)
        for (int k = 8; k >= 0; k--) {
            uint64_t back = (uint64_t)k * SHORT_GAP_STEPS;
            if (s >= back && s - back < n)
                short_packet(s - back, k, t0 + s * SHORT_STEP_NS + (uint64_t)(8 - k) * 100);
        }
}

static void gen_syn(uint64_t n)
{
    const uint64_t t0 = 1700000000ull * 1000000000ull;
    for (uint64_t i = 0; i < n; i++) {
        struct ep c = {0x0b000000u + (uint32_t)i, (uint16_t)(1024 + i % 60000)};
        packet(t0 + i * 1000, c, server, (uint32_t)(i * 2654435761u), 0, F_SYN, 0);
    }
}

enum { FLOWS = 8, MSS = 1448 };

static void gen_bulk(uint64_t npkts)
{
    const uint64_t t0 = 1700000000ull * 1000000000ull;
    uint64_t t = t0;
    struct ep c[FLOWS];
    uint32_t cs[FLOWS], ss[FLOWS];
    for (int f = 0; f < FLOWS; f++) {
        c[f] = (struct ep){0x0a010000u + 2 + (uint32_t)f, (uint16_t)(40000 + f)};
        cs[f] = 1000u * (uint32_t)(f + 1);
        ss[f] = 5000000u * (uint32_t)(f + 1);
        packet(t += 1000, c[f], server, cs[f]++, 0, F_SYN, 0);
        packet(t += 1000, server, c[f], ss[f]++, cs[f], F_SYN | F_ACK, 0);
        packet(t += 1000, c[f], server, cs[f], ss[f], F_ACK, 0);
    }
    uint64_t left = npkts > FLOWS * 6 ? npkts - FLOWS * 6 : 0;
    for (uint64_t i = 0; left > 0; i++) {
        int f = (int)(i % FLOWS);
        packet(t += 1000, c[f], server, cs[f], ss[f], F_ACK, MSS);
        cs[f] += MSS;
        left--;
        if (left > 0 && (i / FLOWS) % 2 == 1) {   /* delayed ACK: every second segment */
            packet(t += 1000, server, c[f], ss[f], cs[f], F_ACK, 0);
            left--;
        }
    }
    for (int f = 0; f < FLOWS; f++) {
        packet(t += 1000, c[f], server, cs[f]++, ss[f], F_FIN | F_ACK, 0);
        packet(t += 1000, server, c[f], ss[f]++, cs[f], F_FIN | F_ACK, 0);
        packet(t += 1000, c[f], server, cs[f], ss[f], F_ACK, 0);
    }
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: gen_workload short|syn|bulk COUNT OUT.pcap\n");
        return 1;
    }
    uint64_t n = strtoull(argv[2], NULL, 10);
    out = fopen(argv[3], "wb");
    if (!out) {
        perror(argv[3]);
        return 1;
    }
    file_header();
    if (strcmp(argv[1], "short") == 0)
        gen_short(n);
    else if (strcmp(argv[1], "syn") == 0)
        gen_syn(n);
    else if (strcmp(argv[1], "bulk") == 0)
        gen_bulk(n);
    else {
        fprintf(stderr, "gen_workload: unknown workload %s\n", argv[1]);
        return 1;
    }
    if (fclose(out) != 0) {
        perror(argv[3]);
        return 1;
    }
    return 0;
}
