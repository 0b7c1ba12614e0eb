/* ns2_reader.c - ns-2 ASCII trace lines -> struct tn_pkt and link queue events (see ns2.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ns2.h"

#define NS2_HDR 40             /* ns-2 TCP agents count 40 header bytes in every packet size */

struct ns2_flow {
    int sn, sp, dn, dp;        /* data source and destination node.port */
    uint32_t seg;              /* largest 'tcp' size less NS2_HDR */
};

struct tn_ns2 {
    FILE *fp;
    char *path;
    uint64_t line, bad;
    struct ns2_flow *flows;
    size_t nflows, cap;
    size_t *slots, nslots;     /* open-addressing hash of the flows: index + 1, 0 empty */
};

/* "12.345678" -> ns without floating-point rounding. */
static int parse_time(const char *s, int64_t *ns)
{
    char *end;
    errno = 0;
    long long sec = strtoll(s, &end, 10);
    if (end == s && *s != '.')
        return -1;
    if (errno || sec < 0 || sec > 4000000000LL)
        return -1;
    int64_t frac = 0, mul = 100000000;
    if (*end == '.') {
        for (end++; *end >= '0' && *end <= '9'; end++) {
            frac += (*end - '0') * mul;
            mul /= 10;
        }
    }
    if (*end == 'e' || *end == 'E') {   /* rare: exponent notation */
        double v = strtod(s, &end);
        if (*end || !(v >= 0 && v <= 4e9))   /* the range of the plain form, NaN refused */
            return -1;
        *ns = (int64_t)(v * 1e9 + 0.5);
        return 0;
    }
    if (*end)
        return -1;
    *ns = (int64_t)sec * 1000000000 + frac;
    return 0;
}

static int parse_addr(const char *s, int *node, int *port)
{
    char extra;
    if (sscanf(s, "%d.%d%c", node, port, &extra) == 2 && *node >= 0 && *port >= 0)
        return 0;
    if (sscanf(s, "%d%c", node, &extra) == 1 && *node >= 0) {   /* node only */
        *port = 0;
        return 0;
    }
    return -1;
}

/* Parse one line into ev; -1 when it is not an ns-2 trace line. */
static int parse_line(char *buf, struct tn_ns2_event *ev)
{
    char f[12][48];
    char extra[2];
    int n = sscanf(buf, "%47s %47s %47s %47s %47s %47s %47s %47s %47s %47s %47s %47s %1s", f[0], f[1],
                   f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10], f[11], extra);
    if (n != 12 || f[0][1] != 0 || !strchr("+-rd", f[0][0]))
        return -1;
    memset(ev, 0, sizeof *ev);
    ev->ev = f[0][0];
    char *end;
    if (parse_time(f[1], &ev->t_ns))
        return -1;
    ev->from = (int)strtol(f[2], &end, 10);
    if (*end || ev->from < 0)
        return -1;
    ev->to = (int)strtol(f[3], &end, 10);
    if (*end || ev->to < 0)
        return -1;
    if (strlen(f[4]) >= sizeof ev->type)
        return -1;
    memcpy(ev->type, f[4], strlen(f[4]) + 1);
    long sz = strtol(f[5], &end, 10);
    if (*end || sz < 0 || sz > 1 << 24)
        return -1;
    ev->size = (uint32_t)sz;
    ev->fid = (int)strtol(f[7], &end, 10);
    if (*end)
        return -1;
    if (parse_addr(f[8], &ev->src_node, &ev->src_port) || parse_addr(f[9], &ev->dst_node, &ev->dst_port))
        return -1;
    ev->seq = strtol(f[10], &end, 10);
    /* TCP agents number packets from 0 (-1 for agents without one); the byte sequence number
     * is made from it modulo 2^32, so a larger one is not a trace line */
    if (*end || ev->seq < -1 || ev->seq > (long)UINT32_MAX)
        return -1;
    ev->id = strtol(f[11], &end, 10);
    if (*end)
        return -1;
    return 0;
}

bool tn_ns2_probe(const char *path)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return false;
    char buf[512];
    int good = 0, lines = 0;
    while (lines < 5 && fgets(buf, sizeof buf, fp)) {
        if (buf[strspn(buf, " \t\r\n")] == 0)
            continue;
        lines++;
        struct tn_ns2_event ev;
        if (parse_line(buf, &ev) == 0)
            good++;
        else
            break;
    }
    fclose(fp);
    return lines > 0 && good == lines;
}

static size_t flow_hash(int sn, int sp, int dn, int dp)
{
    uint64_t h = 14695981039346656037u;   /* FNV-1a over the four numbers */
    const int v[4] = {sn, sp, dn, dp};
    for (int i = 0; i < 4; i++)
        h = (h ^ (uint32_t)v[i]) * 1099511628211u;
    return (size_t)(h ^ h >> 29);
}

/* The slot of the flow, or the empty slot where it would go. */
static size_t *flow_slot(const struct tn_ns2 *r, int sn, int sp, int dn, int dp)
{
    size_t mask = r->nslots - 1;
    for (size_t i = flow_hash(sn, sp, dn, dp) & mask;; i = (i + 1) & mask) {
        size_t v = r->slots[i];
        if (!v)
            return &r->slots[i];
        const struct ns2_flow *f = &r->flows[v - 1];
        if (f->sn == sn && f->sp == sp && f->dn == dn && f->dp == dp)
            return &r->slots[i];
    }
}

/* A hash, not a scan: a trace of many flows made the reader quadratic (16,000 flows: 42 s). */
static struct ns2_flow *flow_find(struct tn_ns2 *r, int sn, int sp, int dn, int dp, bool add)
{
    if (!r->nslots) {
        if (!add)
            return NULL;
        r->nslots = 64;
        r->slots = tn_xcalloc(r->nslots, sizeof *r->slots);
    }
    size_t *s = flow_slot(r, sn, sp, dn, dp);
    if (*s)
        return &r->flows[*s - 1];
    if (!add)
        return NULL;
    if (2 * (r->nflows + 1) > r->nslots) {   /* kept at most half full */
        free(r->slots);
        r->nslots *= 2;
        r->slots = tn_xcalloc(r->nslots, sizeof *r->slots);
        for (size_t i = 0; i < r->nflows; i++) {
            const struct ns2_flow *f = &r->flows[i];
            *flow_slot(r, f->sn, f->sp, f->dn, f->dp) = i + 1;
        }
        s = flow_slot(r, sn, sp, dn, dp);
    }
    tn_grow((void **)&r->flows, &r->cap, r->nflows + 1, sizeof *r->flows);
    struct ns2_flow *f = &r->flows[r->nflows++];
    *f = (struct ns2_flow){sn, sp, dn, dp, 0};
    *s = r->nflows;
    return f;
}

int tn_ns2_open(struct tn_ns2 **out, const char *path, struct tn_err *err)
{
    *out = NULL;
    FILE *fp = fopen(path, "r");
    if (!fp)
        return tn_err_set(err, TN_EIO, "%s: cannot open: %s", path, strerror(errno));
    struct tn_ns2 *r = tn_xcalloc(1, sizeof *r);
    r->fp = fp;
    r->path = tn_xstrdup(path);
    /* first pass: each TCP flow's segment size */
    char buf[512];
    struct tn_ns2_event ev;
    while (fgets(buf, sizeof buf, fp)) {
        if (parse_line(buf, &ev) || strcmp(ev.type, "tcp") != 0)
            continue;
        struct ns2_flow *f = flow_find(r, ev.src_node, ev.src_port, ev.dst_node, ev.dst_port, true);
        if (ev.size > NS2_HDR && ev.size - NS2_HDR > f->seg)
            f->seg = ev.size - NS2_HDR;
    }
    rewind(fp);
    *out = r;
    return 0;
}

void tn_ns2_node_addr(int node, struct tn_addr *a)
{
    memset(a, 0, sizeof *a);
    a->family = 4;
    uint32_t v = 0x0a000000u + (uint32_t)node;
    a->a[0] = (uint8_t)(v >> 24);
    a->a[1] = (uint8_t)(v >> 16);
    a->a[2] = (uint8_t)(v >> 8);
    a->a[3] = (uint8_t)v;
}

/* Fill p for a TCP data packet or ACK at its capture point. */
static void make_pkt(const struct tn_ns2_event *ev, uint32_t seg, bool ack, struct tn_pkt *p)
{
    memset(p, 0, sizeof *p);
    p->ts.sec = ev->t_ns / 1000000000;
    p->ts.nsec = (uint32_t)(ev->t_ns % 1000000000);
    p->num = ev->line;
    p->kind = TN_PK_TCP;
    p->ipver = 4;
    tn_ns2_node_addr(ev->src_node, &p->src);
    tn_ns2_node_addr(ev->dst_node, &p->dst);
    p->ipproto = 6;
    p->ttl = 64;
    p->ip_id = (uint16_t)ev->id;
    p->sport = (uint16_t)ev->src_port;
    p->dport = (uint16_t)ev->dst_port;
    p->tcp.flags = TN_TCP_ACK;
    p->tcp.no_window = p->tcp.no_options = true;   /* an ns-2 trace line has neither */
    p->tcp.hdr_len = 20;
    uint32_t s = seg ? seg : 1;
    if (ack) {
        p->tcp.seq = 1;
        p->tcp.ack = (uint32_t)(1 + (uint64_t)(ev->seq + 1) * s);
    } else {
        p->tcp.seq = (uint32_t)(1 + (uint64_t)ev->seq * s);
        p->tcp.ack = 1;
        p->payload_len = ev->size > NS2_HDR ? ev->size - NS2_HDR : 0;
        if (p->payload_len)
            p->tcp.flags |= TN_TCP_PSH;
    }
    p->payload_caplen = 0;   /* a simulator has no bytes: like a header-only capture */
    p->wirelen = p->caplen = ev->size;
}

int tn_ns2_next(struct tn_ns2 *r, struct tn_ns2_event *ev, struct tn_pkt *p, bool *has_pkt,
                struct tn_err *err)
{
    char buf[512];
    *has_pkt = false;
    for (;;) {
        if (!fgets(buf, sizeof buf, r->fp))
            return 0;
        r->line++;
        if (buf[strspn(buf, " \t\r\n")] == 0)
            continue;
        if (parse_line(buf, ev)) {
            r->bad++;
            buf[strcspn(buf, "\r\n")] = 0;
            return tn_err_set(err, TN_EFORMAT, "%s: line %llu is not an ns-2 trace line: '%.60s'", r->path,
                              (unsigned long long)r->line, buf);
        }
        ev->line = r->line;
        break;
    }
    bool tcp = strcmp(ev->type, "tcp") == 0, ack = strcmp(ev->type, "ack") == 0;
    if (tcp && ev->ev == '-' && ev->from == ev->src_node) {
        const struct ns2_flow *f = flow_find(r, ev->src_node, ev->src_port, ev->dst_node, ev->dst_port, false);
        make_pkt(ev, f ? f->seg : 0, false, p);
        *has_pkt = true;
    } else if (ack && ev->ev == 'r' && ev->to == ev->dst_node) {
        const struct ns2_flow *f = flow_find(r, ev->dst_node, ev->dst_port, ev->src_node, ev->src_port, false);
        make_pkt(ev, f ? f->seg : 0, true, p);
        *has_pkt = true;
    }
    return 1;
}

uint64_t tn_ns2_lines(const struct tn_ns2 *r)
{
    return r->line;
}

uint64_t tn_ns2_bad_lines(const struct tn_ns2 *r)
{
    return r->bad;
}

void tn_ns2_close(struct tn_ns2 *r)
{
    if (!r)
        return;
    fclose(r->fp);
    free(r->path);
    free(r->flows);
    free(r->slots);
    free(r);
}
