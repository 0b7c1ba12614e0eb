/* dfcp_send.c - DFCP sender for the lab: handshake, blocks of n symbols at full (or capped)
 * rate within a window of unacknowledged blocks, block ACKs, FIN teardown; logs every block.
 *
 * Reference: shared/dfcp-wire-format.md ("Exchange"), docs/lab.md ("DFCP endpoints").
 * Carried over UDP to port 9253. The payload is filler, not fountain-coded (ENCODED flag
 * clear); the receiver applies the decodability rule documented in dfcp_recv.c.
 */
#include "dfcp_lab.h"

#include <arpa/inet.h>
#include <getopt.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum tn_ds_outcome { TN_DS_PENDING, TN_DS_DECODED, TN_DS_FAILED, TN_DS_UNACKED, TN_DS_NOACK };

static const char *const tn_ds_outcome_name[] = {
    [TN_DS_PENDING] = "pending", [TN_DS_DECODED] = "decoded", [TN_DS_FAILED] = "failed",
    [TN_DS_UNACKED] = "unacked", [TN_DS_NOACK] = "noack",
};

struct tn_ds_block {
    uint32_t block;
    uint16_t sent;
    uint8_t last;
    uint8_t outcome;
    double first_tx, last_tx, back_rx; /* CLOCK_REALTIME seconds; back_rx < 0: none */
    double deadline;                   /* CLOCK_MONOTONIC: give up waiting for the BACK */
};

struct tn_ds_opts {
    const char *host, *log_path;
    unsigned port, lport, n, sym, window, back_timeout_ms;
    uint32_t k, init_block;
    int acking;
    double duration, rate_bps;
    unsigned long long amount;
};

struct tn_ds {
    struct tn_ds_opts o;
    int fd;
    uint16_t sport;
    struct tn_ds_block *blk;
    size_t nblk, cap;
    size_t oldest; /* first block index that may still be pending */
    unsigned outstanding;
    unsigned long long symbols_sent, send_errors, backs;
    int got_finack, got_fin_ack, reset;
};

static volatile sig_atomic_t tn_ds_stop;

static void tn_ds_on_signal(int sig)
{
    (void)sig;
    tn_ds_stop = 1;
}

static int tn_ds_send_ctl(struct tn_ds *s, uint8_t type, uint8_t flags, uint32_t block)
{
    uint8_t buf[TN_DFCP_HDR_LEN];
    struct tn_dfcp_hdr h = { .sport = s->sport, .dport = (uint16_t)s->o.port, .type = type,
                             .flags = flags, .n = (uint16_t)s->o.n, .block = block,
                             .window = (uint16_t)s->o.window, .k = s->o.k };
    tn_dfcp_encode(buf, &h);
    return send(s->fd, buf, sizeof buf, 0) < 0 ? -1 : 0;
}

static struct tn_ds_block *tn_ds_find(struct tn_ds *s, uint32_t block)
{
    uint32_t off = block - s->o.init_block;
    return off < s->nblk ? &s->blk[off] : NULL;
}

static void tn_ds_resolve(struct tn_ds *s, struct tn_ds_block *b, uint8_t outcome, double t)
{
    if (b->outcome != TN_DS_PENDING)
        return;
    b->outcome = outcome;
    b->back_rx = t;
    if (s->outstanding > 0)
        s->outstanding--;
}

/* Handle every datagram waiting on the socket. */
static void tn_ds_drain(struct tn_ds *s)
{
    uint8_t buf[2048];
    for (;;) {
        double t;
        ssize_t len = tn_dfcp_recv(s->fd, buf, sizeof buf, NULL, NULL, &t);
        if (len < 0)
            return;
        struct tn_dfcp_hdr h;
        if (tn_dfcp_decode(buf, (size_t)len, &h) < 0)
            continue;
        switch (h.type) {
        case TN_DFCP_T_BACK: {
            struct tn_ds_block *b = tn_ds_find(s, h.block);
            s->backs++;
            if (b)
                tn_ds_resolve(s, b,
                              (h.flags & TN_DFCP_F_DECODE_FAILED) ? TN_DS_FAILED : TN_DS_DECODED,
                              t);
            break;
        }
        case TN_DFCP_T_SYNACK: /* our ACK was lost: repeat it */
            tn_ds_send_ctl(s, TN_DFCP_T_ACK, 0, s->o.init_block);
            break;
        case TN_DFCP_T_ACK:
            s->got_fin_ack = 1;
            break;
        case TN_DFCP_T_FINACK:
            s->got_fin_ack = 1;
            s->got_finack = 1;
            tn_ds_send_ctl(s, TN_DFCP_T_ACK, 0, h.block);
            break;
        case TN_DFCP_T_RST:
            s->reset = 1;
            break;
        default:
            break;
        }
    }
}

static void tn_ds_wait(struct tn_ds *s, double seconds)
{
    if (seconds < 0)
        seconds = 0;
    struct timespec to = { .tv_sec = (time_t)seconds,
                           .tv_nsec = (long)((seconds - floor(seconds)) * 1e9) };
    struct pollfd p = { .fd = s->fd, .events = POLLIN };
    if (ppoll(&p, 1, &to, NULL) > 0)
        tn_ds_drain(s);
}

/* SYN -> SYNACK -> ACK, SYN retransmitted at most TN_DFCP_MAX_RETX times. */
static int tn_ds_handshake(struct tn_ds *s)
{
    uint8_t buf[2048];
    uint8_t flags = s->o.acking ? TN_DFCP_F_ACKING : 0;
    for (int attempt = 0; attempt <= TN_DFCP_MAX_RETX && !tn_ds_stop; attempt++) {
        if (tn_ds_send_ctl(s, TN_DFCP_T_SYN, flags, s->o.init_block) < 0)
            perror("dfcp-send: send SYN");
        double until = tn_dfcp_mono() + TN_DFCP_RETX_MS / 1000.0;
        while (tn_dfcp_mono() < until) {
            struct pollfd p = { .fd = s->fd, .events = POLLIN };
            int ms = (int)((until - tn_dfcp_mono()) * 1000.0) + 1;
            if (poll(&p, 1, ms) <= 0)
                continue;
            double t;
            ssize_t len = tn_dfcp_recv(s->fd, buf, sizeof buf, NULL, NULL, &t);
            struct tn_dfcp_hdr h;
            if (len < 0 || tn_dfcp_decode(buf, (size_t)len, &h) < 0)
                continue;
            if (h.type == TN_DFCP_T_SYNACK) {
                fprintf(stderr, "dfcp-send: SYNACK after %d retransmission(s), peer window %u\n",
                        attempt, h.window);
                tn_ds_send_ctl(s, TN_DFCP_T_ACK, flags, s->o.init_block);
                return 0;
            }
            if (h.type == TN_DFCP_T_RST)
                return -1;
        }
    }
    fprintf(stderr, "dfcp-send: no SYNACK after %d retransmissions, giving up\n",
            TN_DFCP_MAX_RETX);
    return -1;
}

static struct tn_ds_block *tn_ds_new_block(struct tn_ds *s)
{
    if (s->nblk == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 1024;
        struct tn_ds_block *nb = realloc(s->blk, cap * sizeof *nb);
        if (!nb)
            return NULL;
        s->blk = nb;
        s->cap = cap;
    }
    struct tn_ds_block *b = &s->blk[s->nblk];
    memset(b, 0, sizeof *b);
    b->block = s->o.init_block + (uint32_t)s->nblk;
    b->back_rx = -1;
    s->nblk++;
    return b;
}

/* Expire blocks whose BACK did not come in time; returns the earliest pending deadline. */
static double tn_ds_expire(struct tn_ds *s, double now)
{
    double next = -1;
    while (s->oldest < s->nblk && s->blk[s->oldest].outcome != TN_DS_PENDING)
        s->oldest++;
    for (size_t i = s->oldest; i < s->nblk; i++) {
        struct tn_ds_block *b = &s->blk[i];
        if (b->outcome != TN_DS_PENDING || b->deadline <= 0)
            continue;
        if (b->deadline <= now)
            tn_ds_resolve(s, b, TN_DS_UNACKED, -1);
        else if (next < 0 || b->deadline < next)
            next = b->deadline;
    }
    return next;
}

static int tn_ds_transfer(struct tn_ds *s)
{
    const struct tn_ds_opts *o = &s->o;
    size_t plen = TN_DFCP_HDR_LEN + o->sym;
    uint8_t *pkt = calloc(1, plen);
    if (!pkt)
        return -1;
    for (size_t i = TN_DFCP_HDR_LEN; i < plen; i++)
        pkt[i] = (uint8_t)(i * 7u); /* filler; the content is not used */
    /* Rate cap counts whole Ethernet frames: payload + DFCP 20 + UDP 8 + IPv4 20 + Eth 14. */
    double gap = o->rate_bps > 0 ? (double)(o->sym + 62u) * 8.0 / o->rate_bps : 0.0;
    unsigned long long nblocks_amount = o->amount ? (o->amount + o->k - 1) / o->k : 0;
    double t0 = tn_dfcp_mono(), t_end = t0 + o->duration, t_next = t0;
    struct tn_ds_block *cur = NULL;
    unsigned sym = 0;
    int done = 0;

    while (!tn_ds_stop && !s->reset && (!done || (o->acking && s->outstanding > 0))) {
        double now = tn_dfcp_mono();
        double next_deadline = o->acking ? tn_ds_expire(s, now) : -1;
        int can_send = !done && (cur || !o->acking || s->outstanding < o->window);
        if (can_send && now >= t_next) {
            if (!cur) {
                cur = tn_ds_new_block(s);
                if (!cur)
                    break;
                cur->last = nblocks_amount ? s->nblk >= nblocks_amount
                                           : now + (double)o->n * gap >= t_end;
                cur->outcome = o->acking ? TN_DS_PENDING : TN_DS_NOACK;
                if (o->acking)
                    s->outstanding++;
                sym = 0;
            }
            struct tn_dfcp_hdr h = {
                .sport = s->sport, .dport = (uint16_t)o->port, .type = TN_DFCP_T_DATA,
                .flags = (uint8_t)((o->acking ? TN_DFCP_F_ACKING : 0) |
                                   (cur->last ? TN_DFCP_F_LAST_BLOCK : 0)),
                .n = (uint16_t)o->n, .block = cur->block, .sym_idx = (uint16_t)sym,
                .window = (uint16_t)o->window, .k = o->k };
            tn_dfcp_encode(pkt, &h);
            double t = tn_dfcp_now(); /* before send(): closest to the capture timestamp */
            if (send(s->fd, pkt, plen, 0) < 0) {
                if (errno == EAGAIN || errno == ENOBUFS) {
                    struct pollfd p = { .fd = s->fd, .events = POLLOUT };
                    (void)poll(&p, 1, 5);
                    continue; /* retry the same symbol */
                }
                s->send_errors++; /* e.g. ECONNREFUSED from an ICMP: the symbol is lost */
            }
            if (sym == 0)
                cur->first_tx = t;
            cur->last_tx = t;
            cur->sent++;
            s->symbols_sent++;
            if (gap > 0) {
                t_next += gap;
                if (t_next < now - 0.002) /* after a wait, allow at most 2 ms of catch-up */
                    t_next = now - 0.002;
            }
            if (++sym == o->n) {
                cur->deadline = tn_dfcp_mono() + o->back_timeout_ms / 1000.0;
                done = cur->last;
                cur = NULL;
            }
            tn_ds_drain(s);
            continue;
        }
        double wait = 0.1;
        if (can_send)
            wait = t_next - now;
        else if (next_deadline > 0 && next_deadline - now < wait)
            wait = next_deadline - now;
        tn_ds_wait(s, wait);
    }
    free(pkt);
    return 0;
}

/* FIN -> ACK, FINACK -> ACK; FIN retransmitted at most TN_DFCP_MAX_RETX times. */
static void tn_ds_teardown(struct tn_ds *s)
{
    uint32_t fin_block = s->o.init_block + (uint32_t)s->nblk;
    s->got_fin_ack = 0;
    for (int attempt = 0; attempt <= TN_DFCP_MAX_RETX && !s->got_fin_ack; attempt++) {
        tn_ds_send_ctl(s, TN_DFCP_T_FIN, 0, fin_block);
        double until = tn_dfcp_mono() + TN_DFCP_RETX_MS / 1000.0;
        while (!s->got_fin_ack && tn_dfcp_mono() < until)
            tn_ds_wait(s, until - tn_dfcp_mono());
    }
    /* FIN_WAIT2: wait for the FINACK (the receiver retransmits it), then TIME_WAIT. */
    double until = tn_dfcp_mono() + (TN_DFCP_MAX_RETX + 1) * TN_DFCP_RETX_MS / 1000.0;
    while (!s->got_finack && tn_dfcp_mono() < until)
        tn_ds_wait(s, until - tn_dfcp_mono());
    until = tn_dfcp_mono() + 2.0 * TN_DFCP_RETX_MS / 1000.0;
    while (tn_dfcp_mono() < until) /* TIME_WAIT: re-ACK a repeated FINACK */
        tn_ds_wait(s, until - tn_dfcp_mono());
    if (!s->got_finack)
        fprintf(stderr, "dfcp-send: no FINACK from the receiver\n");
}

static void tn_ds_write_log(const struct tn_ds *s)
{
    FILE *f = fopen(s->o.log_path, "w");
    if (!f) {
        perror(s->o.log_path);
        return;
    }
    fprintf(f, "block,k,n,symbols_sent,first_tx_s,last_tx_s,back_rx_s,outcome,last\n");
    for (size_t i = 0; i < s->nblk; i++) {
        const struct tn_ds_block *b = &s->blk[i];
        fprintf(f, "%u,%u,%u,%u,%.6f,%.6f,", b->block, s->o.k, s->o.n, b->sent, b->first_tx,
                b->last_tx);
        if (b->back_rx > 0)
            fprintf(f, "%.6f", b->back_rx);
        fprintf(f, ",%s,%u\n", tn_ds_outcome_name[b->outcome], b->last);
    }
    fclose(f);
}

static void tn_ds_summary(const struct tn_ds *s)
{
    unsigned long long cnt[TN_DS_NOACK + 1] = { 0 };
    double t_first = s->nblk ? s->blk[0].first_tx : 0, t_last = 0;
    for (size_t i = 0; i < s->nblk; i++) {
        cnt[s->blk[i].outcome]++;
        if (s->blk[i].last_tx > t_last)
            t_last = s->blk[i].last_tx;
        if (s->blk[i].back_rx > t_last)
            t_last = s->blk[i].back_rx;
    }
    double dur = t_last - t_first;
    printf("role=sender\nsport=%u\nblocks=%zu\nsymbols_sent=%llu\nsymbol_size=%u\nn=%u\nk=%u\n"
           "window=%u\nacking=%d\nrate_cap_bps=%.0f\nsend_errors=%llu\nbacks=%llu\n"
           "decoded=%llu\nfailed=%llu\nunacked=%llu\nfirst_tx_s=%.6f\nend_s=%.6f\n"
           "goodput_bps=%.0f\nthroughput_bps=%.0f\n",
           s->sport, s->nblk, s->symbols_sent, s->o.sym, s->o.n, s->o.k, s->o.window,
           s->o.acking, s->o.rate_bps, s->send_errors, s->backs, cnt[TN_DS_DECODED],
           cnt[TN_DS_FAILED], cnt[TN_DS_UNACKED], t_first, t_last,
           dur > 0 ? (double)cnt[TN_DS_DECODED] * s->o.k * 8.0 / dur : 0.0,
           dur > 0 ? (double)s->symbols_sent * s->o.sym * 8.0 / dur : 0.0);
}

static void tn_ds_usage(void)
{
    fprintf(stderr,
            "usage: dfcp-send -c HOST [options]\n"
            "  -c HOST     receiver IPv4 address\n"
            "  -p PORT     receiver UDP port (default 9253)\n"
            "  -P PORT     local UDP port (default: any)\n"
            "  -n N        symbols per block, the redundancy (default 49)\n"
            "  -s BYTES    symbol size, DATA payload (default 1420)\n"
            "  -k BYTES    block source length k (default 32 * symbol size)\n"
            "  -w BLOCKS   window of unacknowledged blocks (default 100)\n"
            "  -N          acking off: never wait for block ACKs\n"
            "  -t SECONDS  duration (default 3)\n"
            "  -b BYTES    amount of source data instead of a duration (whole blocks)\n"
            "  -r BPS      rate cap in bit/s of Ethernet frames (default 0: full rate)\n"
            "  -T MS       give up on a block's BACK after MS (default 1000)\n"
            "  -i BLOCK    initial block number (default 0)\n"
            "  -l FILE     per-block log, CSV (default dfcp_send_blocks.csv)\n");
}

int main(int argc, char **argv)
{
    struct tn_ds s;
    memset(&s, 0, sizeof s);
    struct tn_ds_opts *o = &s.o;
    *o = (struct tn_ds_opts){ .port = TN_DFCP_PORT, .n = TN_DFCP_N_DEFAULT,
                              .sym = TN_DFCP_SYM_DEFAULT, .window = TN_DFCP_WIN_DEFAULT,
                              .back_timeout_ms = 1000, .acking = 1, .duration = 3,
                              .log_path = "dfcp_send_blocks.csv" };
    int opt;
    while ((opt = getopt(argc, argv, "c:p:P:n:s:k:w:Nt:b:r:T:i:l:h")) != -1) {
        switch (opt) {
        case 'c': o->host = optarg; break;
        case 'p': o->port = (unsigned)strtoul(optarg, NULL, 10); break;
        case 'P': o->lport = (unsigned)strtoul(optarg, NULL, 10); break;
        case 'n': o->n = (unsigned)strtoul(optarg, NULL, 10); break;
        case 's': o->sym = (unsigned)strtoul(optarg, NULL, 10); break;
        case 'k': o->k = (uint32_t)strtoul(optarg, NULL, 10); break;
        case 'w': o->window = (unsigned)strtoul(optarg, NULL, 10); break;
        case 'N': o->acking = 0; break;
        case 't': o->duration = strtod(optarg, NULL); break;
        case 'b': o->amount = strtoull(optarg, NULL, 10); break;
        case 'r': o->rate_bps = strtod(optarg, NULL); break;
        case 'T': o->back_timeout_ms = (unsigned)strtoul(optarg, NULL, 10); break;
        case 'i': o->init_block = (uint32_t)strtoul(optarg, NULL, 10); break;
        case 'l': o->log_path = optarg; break;
        default: tn_ds_usage(); return 2;
        }
    }
    if (!o->k)
        o->k = 32u * o->sym;
    if (!o->host || o->n < 1 || o->n > 4096 || o->sym < 1 || o->sym > 1472 - TN_DFCP_HDR_LEN ||
        o->window < 1 || o->window > 65535 || o->port < 1 || o->port > 65535) {
        tn_ds_usage();
        return 2;
    }
    s.fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
    if (s.fd < 0) {
        perror("dfcp-send: socket");
        return 1;
    }
    int one = 1;
    setsockopt(s.fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
    struct sockaddr_in la = { .sin_family = AF_INET, .sin_port = htons((uint16_t)o->lport) };
    struct sockaddr_in ra = { .sin_family = AF_INET, .sin_port = htons((uint16_t)o->port) };
    if (inet_pton(AF_INET, o->host, &ra.sin_addr) != 1) {
        fprintf(stderr, "dfcp-send: bad address %s\n", o->host);
        return 2;
    }
    socklen_t sl = sizeof la;
    if (bind(s.fd, (struct sockaddr *)&la, sizeof la) < 0 ||
        connect(s.fd, (struct sockaddr *)&ra, sizeof ra) < 0 ||
        getsockname(s.fd, (struct sockaddr *)&la, &sl) < 0) {
        perror("dfcp-send: bind/connect");
        return 1;
    }
    s.sport = ntohs(la.sin_port);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = tn_ds_on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    if (tn_ds_handshake(&s) < 0)
        return 1;
    tn_ds_transfer(&s);
    if (!s.reset)
        tn_ds_teardown(&s);
    for (size_t i = 0; i < s.nblk; i++) /* anything still pending at the end */
        if (s.blk[i].outcome == TN_DS_PENDING)
            s.blk[i].outcome = TN_DS_UNACKED;
    tn_ds_write_log(&s);
    tn_ds_summary(&s);
    free(s.blk);
    close(s.fd);
    return s.reset ? 1 : 0;
}
