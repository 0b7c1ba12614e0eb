/* soak_send.c - an endless stream of TCP connections onto an interface, for the live soak
 * (tests/bench/live_soak.sh): what a mirror port sees over a day, compressed into minutes.
 *
 *   soak_send IFACE PPS SECONDS
 *
 * Each unit is one complete short connection (SYN, SYN-ACK, ACK, 100 bytes each way, the ACK
 * of the second, FIN both ways, the last ACK: 9 frames, as gen_workload's "short") and one
 * lone SYN from another source that is never answered (a flood's half-open connection).  Every
 * unit has new client addresses, so the number of connections grows without end; frames go
 * out through an AF_PACKET socket at about PPS frames a second.  Prints the frames sent.
 *
 * Build: cc -O2 -o soak_send soak_send.c (root, or CAP_NET_RAW) */
#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { ETH = 14, IP = 20, TCPH = 20 };
enum { F_FIN = 0x01, F_SYN = 0x02, F_ACK = 0x10 };

static int sock;
static struct sockaddr_ll to;
static unsigned long long sent;

static void put32(uint8_t *b, uint32_t v) { b[0] = v >> 24; b[1] = v >> 16; b[2] = v >> 8; b[3] = v; }
static void put16(uint8_t *b, uint16_t v) { b[0] = v >> 8; b[1] = v; }

static uint16_t ip_sum(const uint8_t *h)
{
    uint32_t s = 0;
    for (int i = 0; i < IP; i += 2)
        s += (uint32_t)(h[i] << 8 | h[i + 1]);
    while (s >> 16)
        s = (s & 0xffff) + (s >> 16);
    return (uint16_t)~s;
}

static void frame(uint32_t sip, uint16_t sport, uint32_t dip, uint16_t dport, uint32_t seq, uint32_t ack,
                  uint8_t flags, uint32_t len)
{
    uint8_t b[ETH + IP + TCPH + 100];
    memset(b, 0, sizeof b);
    uint8_t *ip = b + ETH, *tcp = ip + IP;
    b[5] = 1; b[11] = 2;
    put16(b + 12, 0x0800);
    ip[0] = 0x45;
    put16(ip + 2, (uint16_t)(IP + TCPH + len));
    ip[8] = 64;
    ip[9] = 6;
    put32(ip + 12, sip);
    put32(ip + 16, dip);
    put16(ip + 10, ip_sum(ip));
    put16(tcp, sport);
    put16(tcp + 2, dport);
    put32(tcp + 4, seq);
    put32(tcp + 8, ack);
    tcp[12] = 5 << 4;
    tcp[13] = flags;
    put16(tcp + 14, 65535);
    size_t n = ETH + IP + TCPH + len;
    if (sendto(sock, b, n, 0, (struct sockaddr *)&to, sizeof to) == (ssize_t)n)
        sent++;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: soak_send IFACE PPS SECONDS\n");
        return 2;
    }
    double pps = atof(argv[2]), secs = atof(argv[3]);
    sock = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
    if (sock < 0) {
        perror("soak_send: socket");
        return 1;
    }
    to.sll_family = AF_PACKET;
    to.sll_ifindex = (int)if_nametoindex(argv[1]);
    to.sll_halen = 6;
    if (!to.sll_ifindex) {
        fprintf(stderr, "soak_send: no interface %s\n", argv[1]);
        return 1;
    }
    const uint32_t srv = 0x0ac80001;   /* 10.200.0.1:80 */
    double t0 = now();
    for (uint64_t i = 0;; i++) {
        /* client 10.x.y.z from the unit number: 2^24 addresses, then the port changes too */
        uint32_t cli = 0x0a000000 | (uint32_t)(i & 0xffffff), flood = 0x0b000000 | (uint32_t)(i & 0xffffff);
        uint16_t port = (uint16_t)(1024 + (i >> 24) % 60000);
        uint32_t c = (uint32_t)(i * 7919), s = (uint32_t)(i * 104729);
        frame(cli, port, srv, 80, c, 0, F_SYN, 0);
        frame(srv, 80, cli, port, s, c + 1, F_SYN | F_ACK, 0);
        frame(cli, port, srv, 80, c + 1, s + 1, F_ACK, 0);
        frame(cli, port, srv, 80, c + 1, s + 1, F_ACK, 100);
        frame(srv, 80, cli, port, s + 1, c + 101, F_ACK, 100);
        frame(cli, port, srv, 80, c + 101, s + 101, F_ACK, 0);
        frame(cli, port, srv, 80, c + 101, s + 101, F_FIN | F_ACK, 0);
        frame(srv, 80, cli, port, s + 101, c + 102, F_FIN | F_ACK, 0);
        frame(cli, port, srv, 80, c + 102, s + 102, F_ACK, 0);
        frame(flood, port, srv, 80, c, 0, F_SYN, 0);
        if (i % 64 == 63) {   /* pace: sleep until the frames sent are due */
            double due = t0 + (double)sent / pps, t = now();
            if (t - t0 >= secs)
                break;
            if (due > t)
                usleep((useconds_t)((due - t) * 1e6));
        }
    }
    printf("%llu\n", sent);
    return 0;
}
