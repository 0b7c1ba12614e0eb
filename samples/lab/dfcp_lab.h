/* dfcp_lab.h - DFCP v1 header encode/decode and small helpers shared by the lab's
 * dfcp-send and dfcp-recv.
 *
 * Reference: shared/dfcp-wire-format.md, "Header (20 bytes)" and "Exchange". All fields are
 * network byte order; carried over UDP (destination port 9253 by default).
 *
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-------------------------------+-------------------------------+
 * |          Source Port          |       Destination Port        |
 * +-------+-------+---------------+-------------------------------+
 * |  Ver  | Type  |     Flags     |       Symbols per Block       |
 * +-------+-------+---------------+-------------------------------+
 * |                         Block Number                          |
 * +-------------------------------+-------------------------------+
 * |         Symbol Index          |        Window (blocks)        |
 * +-------------------------------+-------------------------------+
 * |                     Block Source Length (bytes)               |
 * +---------------------------------------------------------------+
 */
#ifndef TN_DFCP_LAB_H
#define TN_DFCP_LAB_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>

#define TN_DFCP_HDR_LEN 20u
#define TN_DFCP_VERSION 1u
#define TN_DFCP_PORT 9253u
#define TN_DFCP_SYM_DEFAULT 1420u
#define TN_DFCP_N_DEFAULT 49u
#define TN_DFCP_WIN_DEFAULT 100u
#define TN_DFCP_MAX_RETX 5
#define TN_DFCP_RETX_MS 500

enum tn_dfcp_type {
    TN_DFCP_T_DATA = 0,
    TN_DFCP_T_SYN = 1,
    TN_DFCP_T_SYNACK = 2,
    TN_DFCP_T_ACK = 3,
    TN_DFCP_T_BACK = 4,
    TN_DFCP_T_FIN = 5,
    TN_DFCP_T_FINACK = 6,
    TN_DFCP_T_RST = 7,
};

#define TN_DFCP_F_ACKING 0x01u
#define TN_DFCP_F_ENCODED 0x02u
#define TN_DFCP_F_DECODE_FAILED 0x04u
#define TN_DFCP_F_LAST_BLOCK 0x08u

struct tn_dfcp_hdr {
    uint16_t sport, dport;
    uint8_t version, type, flags;
    uint16_t n;       /* symbols per block */
    uint32_t block;   /* block number */
    uint16_t sym_idx; /* symbol index (DATA) */
    uint16_t window;  /* blocks */
    uint32_t k;       /* block source length, bytes */
};

static inline void tn_dfcp_put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static inline void tn_dfcp_put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static inline uint16_t tn_dfcp_get16(const uint8_t *p)
{
    return (uint16_t)((unsigned)p[0] << 8 | p[1]);
}

static inline uint32_t tn_dfcp_get32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Write the 20-byte header at buf (which must hold TN_DFCP_HDR_LEN bytes). */
static inline void tn_dfcp_encode(uint8_t *buf, const struct tn_dfcp_hdr *h)
{
    tn_dfcp_put16(buf, h->sport);
    tn_dfcp_put16(buf + 2, h->dport);
    buf[4] = (uint8_t)((TN_DFCP_VERSION << 4) | (h->type & 0x0fu));
    buf[5] = h->flags;
    tn_dfcp_put16(buf + 6, h->n);
    tn_dfcp_put32(buf + 8, h->block);
    tn_dfcp_put16(buf + 12, h->sym_idx);
    tn_dfcp_put16(buf + 14, h->window);
    tn_dfcp_put32(buf + 16, h->k);
}

/* Parse a header; 0 on success, -1 if too short or not version 1. */
static inline int tn_dfcp_decode(const uint8_t *buf, size_t len, struct tn_dfcp_hdr *h)
{
    if (len < TN_DFCP_HDR_LEN)
        return -1;
    h->sport = tn_dfcp_get16(buf);
    h->dport = tn_dfcp_get16(buf + 2);
    h->version = (uint8_t)(buf[4] >> 4);
    h->type = (uint8_t)(buf[4] & 0x0fu);
    h->flags = buf[5];
    h->n = tn_dfcp_get16(buf + 6);
    h->block = tn_dfcp_get32(buf + 8);
    h->sym_idx = tn_dfcp_get16(buf + 12);
    h->window = tn_dfcp_get16(buf + 14);
    h->k = tn_dfcp_get32(buf + 16);
    return h->version == TN_DFCP_VERSION ? 0 : -1;
}

/* Wrap-safe block number comparison (serial-number arithmetic, as analysis/seq.h). */
static inline int tn_dfcp_blk_lt(uint32_t a, uint32_t b)
{
    return (int32_t)(a - b) < 0;
}

static inline double tn_dfcp_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline double tn_dfcp_mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* recvfrom() that also returns the kernel receive timestamp (CLOCK_REALTIME, the clock of
 * the pcap files) when SO_TIMESTAMPNS is enabled on fd; *t is "now" otherwise. */
static inline ssize_t tn_dfcp_recv(int fd, uint8_t *buf, size_t cap, struct sockaddr *from,
                                   socklen_t *fromlen, double *t)
{
    struct iovec iov = { .iov_base = buf, .iov_len = cap };
    union {
        char b[CMSG_SPACE(sizeof(struct timespec))];
        struct cmsghdr align;
    } ctl;
    struct msghdr mh;
    memset(&mh, 0, sizeof mh);
    mh.msg_name = from;
    mh.msg_namelen = fromlen ? *fromlen : 0;
    mh.msg_iov = &iov;
    mh.msg_iovlen = 1;
    mh.msg_control = ctl.b;
    mh.msg_controllen = sizeof ctl.b;
    ssize_t n = recvmsg(fd, &mh, MSG_DONTWAIT);
    if (n < 0)
        return n;
    if (fromlen)
        *fromlen = mh.msg_namelen;
    *t = -1;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_TIMESTAMPNS) {
            struct timespec ts;
            memcpy(&ts, CMSG_DATA(c), sizeof ts);
            *t = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
        }
    }
    if (*t < 0)
        *t = tn_dfcp_now();
    return n;
}

#endif
