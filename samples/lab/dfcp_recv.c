/* dfcp_recv.c - DFCP receiver for the lab: answers the handshake, collects the symbols of
 * each block, decides per block "decoded" or "failed", sends block ACKs (BACK), answers FIN;
 * logs every block.
 *
 * Reference: shared/dfcp-wire-format.md ("Exchange"), docs/lab.md ("DFCP endpoints").
 *
 * Decodability rule (the payload is not really fountain-coded, so the receiver applies the
 * rule an ideal Raptor decoder with overhead eps would meet):
 *
 *     needed = ceil( ceil(k / S) * (1 + eps) )
 *
 * with k the Block Source Length, S the symbol size (the DATA payload length) and eps the
 * decoding overhead (-e, default 0.05). With the defaults k = 32*1420, S = 1420, eps = 0.05:
 * needed = ceil(32 * 1.05) = 34 of n = 49 symbols. A block is
 *   - decoded as soon as `needed` distinct symbol indices have arrived (BACK sent at once);
 *   - failed (BACK with DECODE_FAILED) when, before that, its last symbol (index n-1) or a
 *     symbol of a later block arrives, or no DATA arrives for -F ms (default 200), or FIN.
 * The lab never reorders packets, so a later block's symbol means no more of this one.
 */
#include "dfcp_lab.h"

#include <arpa/inet.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define TN_DR_RING 1024u
#define TN_DR_NMAX 4096u

enum tn_dr_state { TN_DR_LISTEN, TN_DR_SYN_RECV, TN_DR_ESTABLISHED, TN_DR_LAST_ACK, TN_DR_CLOSED };
enum tn_dr_outcome { TN_DR_UNDECIDED, TN_DR_DECODED, TN_DR_FAILED };

static const char *const tn_dr_outcome_name[] = {
    [TN_DR_UNDECIDED] = "undecided", [TN_DR_DECODED] = "decoded", [TN_DR_FAILED] = "failed",
};

struct tn_dr_block {
    int valid;
    uint32_t block;
    uint32_t k;
    uint16_t n, sym, needed, received;
    uint8_t outcome, last;
    double first_rx, last_rx, back_tx;
    uint8_t seen[TN_DR_NMAX / 8];
};

struct tn_dr {
    int fd;
    unsigned port, window;
    double eps, fail_timeout, idle_timeout;
    const char *log_path;
    FILE *log;
    enum tn_dr_state state;
    struct sockaddr_in peer;
    uint16_t peer_port;
    uint8_t acking;
    uint16_t n;
    uint32_t k, init_block, base, fin_block;
    int have_base;
    struct tn_dr_block ring[TN_DR_RING];
    double last_data, last_any, synack_tx, finack_tx;
    int synack_retx, finack_retx;
    unsigned long long blocks, decoded, failed, symbols, late, bytes_decoded;
    double first_rx, last_rx;
};

static volatile sig_atomic_t tn_dr_stop;

static void tn_dr_on_signal(int sig)
{
    (void)sig;
    tn_dr_stop = 1;
}

static void tn_dr_send(struct tn_dr *r, uint8_t type, uint8_t flags, uint32_t block)
{
    uint8_t buf[TN_DFCP_HDR_LEN];
    struct tn_dfcp_hdr h = { .sport = (uint16_t)r->port, .dport = r->peer_port, .type = type,
                             .flags = flags, .n = r->n, .block = block,
                             .window = (uint16_t)r->window, .k = r->k };
    tn_dfcp_encode(buf, &h);
    (void)sendto(r->fd, buf, sizeof buf, 0, (struct sockaddr *)&r->peer, sizeof r->peer);
}

static void tn_dr_decide(struct tn_dr *r, struct tn_dr_block *b, uint8_t outcome)
{
    if (b->outcome != TN_DR_UNDECIDED)
        return;
    b->outcome = outcome;
    if (r->acking) {
        uint8_t fl = (uint8_t)(TN_DFCP_F_ACKING | (outcome == TN_DR_FAILED ? TN_DFCP_F_DECODE_FAILED : 0) |
                               (b->last ? TN_DFCP_F_LAST_BLOCK : 0));
        tn_dr_send(r, TN_DFCP_T_BACK, fl, b->block);
        b->back_tx = tn_dfcp_now();
    }
}

/* Write the block's row and free its slot; an undecided block fails first. */
static void tn_dr_retire(struct tn_dr *r, uint32_t block)
{
    struct tn_dr_block *b = &r->ring[block % TN_DR_RING];
    if (!b->valid || b->block != block) {
        /* no symbol of this block ever arrived: it cannot be decoded */
        struct tn_dr_block empty;
        memset(&empty, 0, sizeof empty);
        empty.block = block;
        empty.k = r->k;
        empty.n = r->n;
        empty.sym = TN_DFCP_SYM_DEFAULT;
        empty.needed = 0;
        empty.first_rx = empty.last_rx = -1;
        empty.back_tx = -1;
        b = &empty;
        tn_dr_decide(r, b, TN_DR_FAILED);
        fprintf(r->log, "%u,%u,%u,,,,,0,%s,", b->block, b->k, b->n, tn_dr_outcome_name[b->outcome]);
        if (b->back_tx > 0)
            fprintf(r->log, "%.6f", b->back_tx);
        fprintf(r->log, "\n");
        r->blocks++;
        r->failed++;
        return;
    }
    tn_dr_decide(r, b, TN_DR_FAILED);
    fprintf(r->log, "%u,%u,%u,%u,%u,%.6f,%.6f,%u,%s,", b->block, b->k, b->n, b->sym, b->needed,
            b->first_rx, b->last_rx, b->received, tn_dr_outcome_name[b->outcome]);
    if (b->back_tx > 0)
        fprintf(r->log, "%.6f", b->back_tx);
    fprintf(r->log, "\n");
    r->blocks++;
    if (b->outcome == TN_DR_DECODED) {
        r->decoded++;
        r->bytes_decoded += b->k;
    } else {
        r->failed++;
    }
    b->valid = 0;
}

static void tn_dr_data(struct tn_dr *r, const struct tn_dfcp_hdr *h, size_t payload, double t)
{
    if (!r->have_base) {
        r->base = r->init_block;
        r->have_base = 1;
    }
    if (tn_dfcp_blk_lt(h->block, r->base)) {
        r->late++; /* a symbol of a block already retired */
        return;
    }
    /* A symbol of block b means the blocks before b are over (no reordering in the lab). */
    while (r->base != h->block) {
        tn_dr_retire(r, r->base);
        r->base++;
    }
    struct tn_dr_block *b = &r->ring[h->block % TN_DR_RING];
    if (!b->valid) {
        memset(b, 0, sizeof *b);
        b->valid = 1;
        b->block = h->block;
        b->k = h->k;
        b->n = h->n;
        b->sym = (uint16_t)payload;
        double src = payload ? ceil((double)h->k / (double)payload) : 0;
        b->needed = (uint16_t)ceil(src * (1.0 + r->eps) - 1e-9);
        b->first_rx = t;
        b->back_tx = -1;
    }
    if (h->sym_idx < TN_DR_NMAX && !(b->seen[h->sym_idx / 8] & (1u << (h->sym_idx % 8)))) {
        b->seen[h->sym_idx / 8] |= (uint8_t)(1u << (h->sym_idx % 8));
        b->received++;
    }
    b->last_rx = t;
    if (h->flags & TN_DFCP_F_LAST_BLOCK)
        b->last = 1;
    r->symbols++;
    if (r->first_rx <= 0)
        r->first_rx = t;
    r->last_rx = t;
    if (b->outcome == TN_DR_UNDECIDED && b->received >= b->needed)
        tn_dr_decide(r, b, TN_DR_DECODED);
    else if (b->outcome == TN_DR_UNDECIDED && h->sym_idx + 1u >= h->n)
        tn_dr_decide(r, b, TN_DR_FAILED);
}

static void tn_dr_packet(struct tn_dr *r, const uint8_t *buf, size_t len,
                         const struct sockaddr_in *from, double t)
{
    struct tn_dfcp_hdr h;
    if (tn_dfcp_decode(buf, len, &h) < 0)
        return;
    r->last_any = tn_dfcp_mono();
    switch (h.type) {
    case TN_DFCP_T_SYN:
        if (r->state == TN_DR_LISTEN || r->state == TN_DR_SYN_RECV) {
            if (h.n < 1 || h.n > TN_DR_NMAX) {
                r->peer = *from;
                r->peer_port = h.sport;
                tn_dr_send(r, TN_DFCP_T_RST, 0, h.block);
                fprintf(stderr, "dfcp-recv: n=%u not supported, RST\n", h.n);
                return;
            }
            r->peer = *from;
            r->peer_port = h.sport;
            r->acking = h.flags & TN_DFCP_F_ACKING;
            r->n = h.n;
            r->k = h.k;
            r->init_block = h.block;
            r->state = TN_DR_SYN_RECV;
            tn_dr_send(r, TN_DFCP_T_SYNACK, h.flags & TN_DFCP_F_ACKING, h.block);
            r->synack_tx = tn_dfcp_mono();
            fprintf(stderr, "dfcp-recv: SYN from %s:%u n=%u k=%u window=%u acking=%u\n",
                    inet_ntoa(from->sin_addr), h.sport, h.n, h.k, h.window, r->acking);
        }
        break;
    case TN_DFCP_T_ACK:
        if (r->state == TN_DR_SYN_RECV)
            r->state = TN_DR_ESTABLISHED;
        else if (r->state == TN_DR_LAST_ACK)
            r->state = TN_DR_CLOSED;
        break;
    case TN_DFCP_T_DATA:
        if (r->state == TN_DR_SYN_RECV)
            r->state = TN_DR_ESTABLISHED; /* the handshake ACK was lost */
        if (r->state == TN_DR_ESTABLISHED) {
            r->last_data = tn_dfcp_mono();
            tn_dr_data(r, &h, len - TN_DFCP_HDR_LEN, t);
        }
        break;
    case TN_DFCP_T_FIN:
        if (r->state == TN_DR_ESTABLISHED || r->state == TN_DR_SYN_RECV) {
            if (r->have_base) {
                while (tn_dfcp_blk_lt(r->base, h.block)) { /* every block up to the FIN */
                    tn_dr_retire(r, r->base);
                    r->base++;
                }
            }
            r->fin_block = h.block;
            r->state = TN_DR_LAST_ACK;
            r->finack_retx = 0;
        }
        if (r->state == TN_DR_LAST_ACK) {
            tn_dr_send(r, TN_DFCP_T_ACK, 0, h.block);
            tn_dr_send(r, TN_DFCP_T_FINACK, 0, h.block);
            r->finack_tx = tn_dfcp_mono();
        }
        break;
    default:
        break;
    }
}

static void tn_dr_timers(struct tn_dr *r)
{
    double now = tn_dfcp_mono();
    if (r->state == TN_DR_SYN_RECV && now - r->synack_tx > TN_DFCP_RETX_MS / 1000.0) {
        if (r->synack_retx++ >= TN_DFCP_MAX_RETX) {
            fprintf(stderr, "dfcp-recv: no ACK for SYNACK, back to LISTEN\n");
            r->state = TN_DR_LISTEN;
            r->synack_retx = 0;
        } else {
            tn_dr_send(r, TN_DFCP_T_SYNACK, r->acking, r->init_block);
            r->synack_tx = now;
        }
    }
    if (r->state == TN_DR_LAST_ACK && now - r->finack_tx > TN_DFCP_RETX_MS / 1000.0) {
        if (r->finack_retx++ >= TN_DFCP_MAX_RETX) {
            r->state = TN_DR_CLOSED;
        } else {
            tn_dr_send(r, TN_DFCP_T_FINACK, 0, r->fin_block);
            r->finack_tx = now;
        }
    }
    if (r->state == TN_DR_ESTABLISHED && r->have_base && now - r->last_data > r->fail_timeout) {
        struct tn_dr_block *b = &r->ring[r->base % TN_DR_RING];
        if (b->valid && b->block == r->base && b->outcome == TN_DR_UNDECIDED)
            tn_dr_decide(r, b, TN_DR_FAILED);
    }
}

static void tn_dr_usage(void)
{
    fprintf(stderr,
            "usage: dfcp-recv [options]   (serves one DFCP connection, then exits)\n"
            "  -p PORT     UDP port to listen on (default 9253)\n"
            "  -w BLOCKS   receiver window advertised (default 100)\n"
            "  -e EPS      decoding overhead eps of the rule (default 0.05)\n"
            "  -F MS       fail an incomplete block after MS without DATA (default 200)\n"
            "  -x SECONDS  exit if nothing arrives for that long (default 30)\n"
            "  -l FILE     per-block log, CSV (default dfcp_recv_blocks.csv)\n");
}

int main(int argc, char **argv)
{
    static struct tn_dr r;
    r.port = TN_DFCP_PORT;
    r.window = TN_DFCP_WIN_DEFAULT;
    r.eps = 0.05;
    r.fail_timeout = 0.2;
    r.idle_timeout = 30;
    r.log_path = "dfcp_recv_blocks.csv";
    int opt;
    while ((opt = getopt(argc, argv, "p:w:e:F:x:l:h")) != -1) {
        switch (opt) {
        case 'p': r.port = (unsigned)strtoul(optarg, NULL, 10); break;
        case 'w': r.window = (unsigned)strtoul(optarg, NULL, 10); break;
        case 'e': r.eps = strtod(optarg, NULL); break;
        case 'F': r.fail_timeout = strtod(optarg, NULL) / 1000.0; break;
        case 'x': r.idle_timeout = strtod(optarg, NULL); break;
        case 'l': r.log_path = optarg; break;
        default: tn_dr_usage(); return 2;
        }
    }
    if (r.port < 1 || r.port > 65535 || r.eps < 0 || r.window < 1 || r.window > 65535) {
        tn_dr_usage();
        return 2;
    }
    r.log = fopen(r.log_path, "w");
    if (!r.log) {
        perror(r.log_path);
        return 1;
    }
    fprintf(r.log, "block,k,n,symbol_size,needed,first_rx_s,last_rx_s,symbols_received,outcome,"
                   "back_tx_s\n");
    r.fd = socket(AF_INET, SOCK_DGRAM, 0);
    int one = 1, buf = 8 << 20;
    setsockopt(r.fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
    if (setsockopt(r.fd, SOL_SOCKET, SO_RCVBUFFORCE, &buf, sizeof buf) < 0)
        setsockopt(r.fd, SOL_SOCKET, SO_RCVBUF, &buf, sizeof buf);
    struct sockaddr_in la = { .sin_family = AF_INET, .sin_port = htons((uint16_t)r.port) };
    if (bind(r.fd, (struct sockaddr *)&la, sizeof la) < 0) {
        perror("dfcp-recv: bind");
        return 1;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = tn_dr_on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    fprintf(stderr, "dfcp-recv: listening on UDP %u; rule: needed = ceil(ceil(k/S)*(1+%.3f))\n",
            r.port, r.eps);
    r.last_any = tn_dfcp_mono();
    uint8_t pkt[2048];
    while (!tn_dr_stop && r.state != TN_DR_CLOSED) {
        struct pollfd p = { .fd = r.fd, .events = POLLIN };
        if (poll(&p, 1, 20) > 0) {
            for (;;) {
                struct sockaddr_in from;
                socklen_t fl = sizeof from;
                double t;
                ssize_t n = tn_dfcp_recv(r.fd, pkt, sizeof pkt, (struct sockaddr *)&from, &fl, &t);
                if (n < 0)
                    break;
                tn_dr_packet(&r, pkt, (size_t)n, &from, t);
            }
        }
        tn_dr_timers(&r);
        if (tn_dfcp_mono() - r.last_any > r.idle_timeout) {
            fprintf(stderr, "dfcp-recv: idle for %.0f s, exiting\n", r.idle_timeout);
            break;
        }
    }
    if (r.have_base && r.state != TN_DR_CLOSED && r.state != TN_DR_LAST_ACK) {
        struct tn_dr_block *b = &r.ring[r.base % TN_DR_RING];
        if (b->valid)
            tn_dr_retire(&r, r.base);
    }
    fclose(r.log);
    double dur = r.last_rx - r.first_rx;
    printf("role=receiver\nrule=needed=ceil(ceil(k/S)*(1+eps))\neps=%.4f\nblocks=%llu\n"
           "decoded=%llu\nfailed=%llu\nsymbols_received=%llu\nlate_symbols=%llu\n"
           "first_rx_s=%.6f\nlast_rx_s=%.6f\ngoodput_bps=%.0f\n",
           r.eps, r.blocks, r.decoded, r.failed, r.symbols, r.late, r.first_rx, r.last_rx,
           dur > 0 ? (double)r.bytes_decoded * 8.0 / dur : 0.0);
    close(r.fd);
    return 0;
}
