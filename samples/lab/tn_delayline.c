/* tn_delayline.c - user-space delay line: a two-port L2 bridge that holds every frame
 * for a fixed one-way delay (per direction), like a Dummynet pipe without a rate limit.
 *
 * Reference: docs/lab.md "Delay line". The kernel of the lab has no netem, so the lab puts
 * this program in its own network namespace between two veth ends:
 *
 *     router --veth-- [ ifA  tn-delayline  ifB ] --veth-- receiver
 *
 * Each port is an AF_PACKET/SOCK_RAW socket bound to one interface (ETH_P_ALL, outgoing
 * frames ignored). A frame read on port A is stamped with its kernel receive time
 * (SO_TIMESTAMPNS, CLOCK_REALTIME, the same clock as the pcap timestamps), kept in a FIFO
 * and written to port B once realtime >= stamp + delay; B to A likewise. Because the delay
 * is constant per direction, a FIFO keeps the frames in deadline order, so order is kept.
 * Optional random loss (-l) and a bound on the frames held (-q) per direction.
 *
 * The interfaces must have TSO/GSO/GRO and TX checksum offload off (the lab does this),
 * otherwise frames would arrive with partial checksums or larger than the MTU.
 *
 * On SIGINT/SIGTERM it prints per direction: frames forwarded, dropped (queue full,
 * random loss, send error), and the lateness of the release (actual send time minus
 * deadline: mean and max, microseconds), so the delay actually added can be checked.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#ifndef PACKET_IGNORE_OUTGOING
#define PACKET_IGNORE_OUTGOING 23
#endif

#define TN_DL_FRAME_MAX 2048u

struct tn_dl_slot {
    int64_t deadline_ns;  /* CLOCK_REALTIME, ns */
    uint32_t len;
    uint8_t data[TN_DL_FRAME_MAX];
};

struct tn_dl_dir {
    const char *name;      /* "a2b" or "b2a" */
    int in_fd, out_fd;
    int64_t delay_ns;
    struct tn_dl_slot *q;  /* ring */
    uint32_t cap, head, count;
    uint64_t fwd, drop_full, drop_loss, drop_err, trunc;
    int64_t late_sum_ns, late_max_ns;
};

static volatile sig_atomic_t tn_dl_stop;

static void tn_dl_on_signal(int sig)
{
    (void)sig;
    tn_dl_stop = 1;
}

static int64_t tn_dl_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* xorshift64*: loss decisions need no cryptographic quality, only reproducibility. */
static uint64_t tn_dl_rng = 0x9e3779b97f4a7c15ULL;

static double tn_dl_uniform(void)
{
    tn_dl_rng ^= tn_dl_rng >> 12;
    tn_dl_rng ^= tn_dl_rng << 25;
    tn_dl_rng ^= tn_dl_rng >> 27;
    return (double)((tn_dl_rng * 0x2545F4914F6CDD1DULL) >> 11) / 9007199254740992.0;
}

static int tn_dl_open_port(const char *ifname)
{
    unsigned idx = if_nametoindex(ifname);
    if (idx == 0) {
        fprintf(stderr, "tn-delayline: no interface %s: %s\n", ifname, strerror(errno));
        return -1;
    }
    int fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK, htons(ETH_P_ALL));
    if (fd < 0) {
        fprintf(stderr, "tn-delayline: socket(AF_PACKET): %s\n", strerror(errno));
        return -1;
    }
    struct sockaddr_ll sll;
    memset(&sll, 0, sizeof sll);
    sll.sll_family = AF_PACKET;
    sll.sll_protocol = htons(ETH_P_ALL);
    sll.sll_ifindex = (int)idx;
    if (bind(fd, (struct sockaddr *)&sll, sizeof sll) < 0) {
        fprintf(stderr, "tn-delayline: bind %s: %s\n", ifname, strerror(errno));
        close(fd);
        return -1;
    }
    int one = 1;
    if (setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof one) < 0)
        fprintf(stderr, "tn-delayline: PACKET_IGNORE_OUTGOING: %s\n", strerror(errno));
    if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one) < 0)
        fprintf(stderr, "tn-delayline: SO_TIMESTAMPNS: %s\n", strerror(errno));
    int buf = 8 << 20;
    if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &buf, sizeof buf) < 0)
        (void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buf, sizeof buf);
    if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &buf, sizeof buf) < 0)
        (void)setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &buf, sizeof buf);
    return fd;
}

/* Read every frame waiting on d->in_fd into the ring. */
static void tn_dl_ingest(struct tn_dl_dir *d, double loss)
{
    for (;;) {
        struct tn_dl_slot *s = &d->q[(d->head + d->count) % d->cap];
        uint8_t scratch[TN_DL_FRAME_MAX];
        int full = d->count == d->cap;
        struct iovec iov = { .iov_base = full ? scratch : s->data, .iov_len = TN_DL_FRAME_MAX };
        union {
            char buf[CMSG_SPACE(sizeof(struct timespec))];
            struct cmsghdr align;
        } ctl;
        struct msghdr mh;
        memset(&mh, 0, sizeof mh);
        mh.msg_iov = &iov;
        mh.msg_iovlen = 1;
        mh.msg_control = ctl.buf;
        mh.msg_controllen = sizeof ctl.buf;
        ssize_t n = recvmsg(d->in_fd, &mh, MSG_DONTWAIT | MSG_TRUNC);
        if (n < 0)
            return; /* EAGAIN or error: nothing more now */
        if ((size_t)n > TN_DL_FRAME_MAX) {
            d->trunc++;
            continue;
        }
        if (full) {
            d->drop_full++;
            continue;
        }
        if (loss > 0 && tn_dl_uniform() < loss) {
            d->drop_loss++;
            continue;
        }
        int64_t t = -1;
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
            if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_TIMESTAMPNS) {
                struct timespec ts;
                memcpy(&ts, CMSG_DATA(c), sizeof ts);
                t = (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
            }
        }
        if (t < 0)
            t = tn_dl_now_ns();
        s->deadline_ns = t + d->delay_ns;
        s->len = (uint32_t)n;
        d->count++;
    }
}

/* Send every frame whose deadline has passed; return ns until the next deadline or -1. */
static int64_t tn_dl_release(struct tn_dl_dir *d)
{
    while (d->count > 0) {
        struct tn_dl_slot *s = &d->q[d->head];
        int64_t now = tn_dl_now_ns();
        if (s->deadline_ns > now)
            return s->deadline_ns - now;
        if (send(d->out_fd, s->data, s->len, 0) < 0) {
            if (errno == EAGAIN || errno == ENOBUFS) {
                struct pollfd p = { .fd = d->out_fd, .events = POLLOUT };
                (void)poll(&p, 1, 1);
                if (send(d->out_fd, s->data, s->len, 0) < 0)
                    d->drop_err++;
                else
                    d->fwd++;
            } else {
                d->drop_err++;
            }
        } else {
            d->fwd++;
        }
        int64_t late = now - s->deadline_ns;
        d->late_sum_ns += late;
        if (late > d->late_max_ns)
            d->late_max_ns = late;
        d->head = (d->head + 1) % d->cap;
        d->count--;
    }
    return -1;
}

static void tn_dl_report(FILE *f, const struct tn_dl_dir *d)
{
    double mean_us = d->fwd ? (double)d->late_sum_ns / (double)d->fwd / 1000.0 : 0.0;
    fprintf(f,
            "dir=%s delay_us=%lld forwarded=%llu drop_queue_full=%llu drop_random=%llu "
            "drop_send_error=%llu oversize=%llu late_mean_us=%.1f late_max_us=%.1f\n",
            d->name, (long long)(d->delay_ns / 1000), (unsigned long long)d->fwd,
            (unsigned long long)d->drop_full, (unsigned long long)d->drop_loss,
            (unsigned long long)d->drop_err, (unsigned long long)d->trunc, mean_us,
            (double)d->late_max_ns / 1000.0);
}

static void tn_dl_usage(void)
{
    fprintf(stderr,
            "usage: tn-delayline -a IFACE -b IFACE -d DELAY_MS [-D DELAY_MS_B2A] [-l LOSS]\n"
            "                    [-q FRAMES] [-s SEED] [-o STATSFILE]\n"
            "  -d  one-way delay a->b in ms (fractions allowed); -D b->a (default: same)\n"
            "  -l  random loss probability applied a->b only (default 0)\n"
            "  -q  frames held per direction before tail drop (default 8192)\n"
            "  -o  write the statistics there at exit (default stderr)\n");
}

int main(int argc, char **argv)
{
    const char *ifa = NULL, *ifb = NULL, *statsfile = NULL;
    double delay_ab = -1, delay_ba = -1, loss = 0;
    long cap = 8192;
    int opt;
    while ((opt = getopt(argc, argv, "a:b:d:D:l:q:s:o:h")) != -1) {
        switch (opt) {
        case 'a': ifa = optarg; break;
        case 'b': ifb = optarg; break;
        case 'd': delay_ab = strtod(optarg, NULL); break;
        case 'D': delay_ba = strtod(optarg, NULL); break;
        case 'l': loss = strtod(optarg, NULL); break;
        case 'q': cap = strtol(optarg, NULL, 10); break;
        case 's': tn_dl_rng = strtoull(optarg, NULL, 0) | 1u; break;
        case 'o': statsfile = optarg; break;
        default: tn_dl_usage(); return 2;
        }
    }
    if (!ifa || !ifb || delay_ab < 0 || cap < 1 || loss < 0 || loss > 1) {
        tn_dl_usage();
        return 2;
    }
    if (delay_ba < 0)
        delay_ba = delay_ab;

    struct tn_dl_dir dir[2];
    memset(dir, 0, sizeof dir);
    int fa = tn_dl_open_port(ifa), fb = tn_dl_open_port(ifb);
    if (fa < 0 || fb < 0)
        return 1;
    dir[0] = (struct tn_dl_dir){ .name = "a2b", .in_fd = fa, .out_fd = fb,
                                 .delay_ns = (int64_t)(delay_ab * 1e6), .cap = (uint32_t)cap };
    dir[1] = (struct tn_dl_dir){ .name = "b2a", .in_fd = fb, .out_fd = fa,
                                 .delay_ns = (int64_t)(delay_ba * 1e6), .cap = (uint32_t)cap };
    for (int i = 0; i < 2; i++) {
        dir[i].q = malloc(sizeof(struct tn_dl_slot) * (size_t)cap);
        if (!dir[i].q) {
            fprintf(stderr, "tn-delayline: out of memory\n");
            return 1;
        }
    }

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = tn_dl_on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    /* Release times matter more than anything else on a 2-core lab machine running four
     * tcpdumps: run SCHED_FIFO (no timer slack, preempts the captures) when allowed. */
    struct sched_param sp = { .sched_priority = 50 };
    if (sched_setscheduler(0, SCHED_FIFO, &sp) < 0)
        fprintf(stderr, "tn-delayline: SCHED_FIFO not available (%s), timing may jitter\n",
                strerror(errno));
    (void)mlockall(MCL_CURRENT | MCL_FUTURE);
    fprintf(stderr, "tn-delayline: %s <-> %s, delay a2b %.3f ms b2a %.3f ms, loss %.4f\n", ifa,
            ifb, delay_ab, delay_ba, loss);
    while (!tn_dl_stop) {
        int64_t w0 = tn_dl_release(&dir[0]);
        int64_t w1 = tn_dl_release(&dir[1]);
        int64_t wait = w0 < 0 ? w1 : (w1 < 0 ? w0 : (w0 < w1 ? w0 : w1));
        if (wait < 0)
            wait = 100000000; /* idle: wake up every 100 ms to check for signals */
        struct timespec to = { .tv_sec = wait / 1000000000LL, .tv_nsec = wait % 1000000000LL };
        struct pollfd p[2] = { { .fd = fa, .events = POLLIN }, { .fd = fb, .events = POLLIN } };
        int r = ppoll(p, 2, &to, NULL);
        if (r < 0 && errno != EINTR) {
            fprintf(stderr, "tn-delayline: ppoll: %s\n", strerror(errno));
            break;
        }
        if (r > 0) {
            if (p[0].revents & POLLIN)
                tn_dl_ingest(&dir[0], loss);
            if (p[1].revents & POLLIN)
                tn_dl_ingest(&dir[1], 0.0);
        }
    }
    FILE *out = statsfile ? fopen(statsfile, "w") : NULL;
    tn_dl_report(out ? out : stderr, &dir[0]);
    tn_dl_report(out ? out : stderr, &dir[1]);
    if (out)
        fclose(out);
    free(dir[0].q);
    free(dir[1].q);
    close(fa);
    close(fb);
    return 0;
}
