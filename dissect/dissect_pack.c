/* dissect_pack.c - a packet record as bytes and back: the compact record an MPI rank sends to
 * the rank that owns the packet's connection (docs/cluster.md "What travels").
 *
 *   kind flags ipver ipproto ttl ecn tunnels vlan mpls        9 x u8
 *   sec (i64) nsec (u32) num (u64) anomaly bits (u64)
 *   src: family, n, n address bytes; dst: the same            n = 0, 4 or 16
 *   ip_id (u16) ifindex (u32) sport dport (u16)
 *   payload_len payload_caplen wirelen caplen (u32)
 *   TCP:  seq ack (u32) flags (u8) win urp (u16) hdr_len (u8) mss (u16) ws nsack (u8)
 *         nsack x (left, right) (u32), TSval TSecr (u32) when the option is there
 *   DFCP: version type flags (u8) n (u16) block (u32) sym_idx window (u16) k (u32)
 *         hdr_sport hdr_dport (u16)
 *
 * flags: fragment, has_mss, has_ws, sack_ok, has_ts, no_window, no_options, over_udp. */
#include <string.h>

#include "dissect.h"

enum {
    PF_FRAGMENT = 0x01,
    PF_MSS = 0x02,
    PF_WS = 0x04,
    PF_SACK_OK = 0x08,
    PF_TS = 0x10,
    PF_NO_WINDOW = 0x20,
    PF_NO_OPTIONS = 0x40,
    PF_OVER_UDP = 0x80,
};

struct wr {
    uint8_t *p;
};

static void put(struct wr *w, const void *v, size_t n)
{
    memcpy(w->p, v, n);
    w->p += n;
}

static void put8(struct wr *w, uint8_t v) { put(w, &v, 1); }
static void put16(struct wr *w, uint16_t v) { put(w, &v, 2); }
static void put32(struct wr *w, uint32_t v) { put(w, &v, 4); }
static void put64(struct wr *w, uint64_t v) { put(w, &v, 8); }

/* 0 bytes for no address, 4 for IPv4 (the other 12 are zero), else all 16.  All 16 are copied
 * whatever n is (the record's room counts 16 for each address): one fixed-size copy, the
 * bytes past n written over by what follows. */
static void put_addr(struct wr *w, const struct tn_addr *a)
{
    uint32_t x[4];
    memcpy(x, a->a, 16);
    uint8_t n = (x[1] | x[2] | x[3]) ? 16 : x[0] ? 4 : 0;
    w->p[0] = a->family;
    w->p[1] = n;
    memcpy(w->p + 2, a->a, 16);
    w->p += 2 + n;
}

size_t tn_pkt_pack(const struct tn_pkt *p, uint8_t *out)
{
    struct wr w = {out};
    const struct tn_tcp_opts *op = &p->tcp.opt;
    uint8_t fl = (uint8_t)((p->fragment ? PF_FRAGMENT : 0) | (op->has_mss ? PF_MSS : 0) |
                           (op->has_ws ? PF_WS : 0) | (op->sack_ok ? PF_SACK_OK : 0) |
                           (op->has_ts ? PF_TS : 0) | (p->tcp.no_window ? PF_NO_WINDOW : 0) |
                           (p->tcp.no_options ? PF_NO_OPTIONS : 0) | (p->dfcp.over_udp ? PF_OVER_UDP : 0));
    uint8_t head[9] = {(uint8_t)p->kind, fl, p->ipver, p->ipproto, p->ttl, p->ecn, p->tunnels,
                       p->vlan_depth, p->mpls_depth};
    put(&w, head, sizeof head);
    put64(&w, (uint64_t)p->ts.sec);
    put32(&w, p->ts.nsec);
    put64(&w, p->num);
    put64(&w, p->anoms.bits);
    put_addr(&w, &p->src);
    put_addr(&w, &p->dst);
    put16(&w, p->ip_id);
    put32(&w, p->ifindex);
    put16(&w, p->sport);
    put16(&w, p->dport);
    put32(&w, p->payload_len);
    put32(&w, p->payload_caplen);
    put32(&w, p->wirelen);
    put32(&w, p->caplen);
    if (p->kind == TN_PK_TCP) {
        put32(&w, p->tcp.seq);
        put32(&w, p->tcp.ack);
        put8(&w, p->tcp.flags);
        put16(&w, p->tcp.win);
        put16(&w, p->tcp.urp);
        put8(&w, p->tcp.hdr_len);
        put16(&w, op->mss);
        put8(&w, op->ws);
        uint8_t ns = op->nsack <= TN_MAX_SACK ? op->nsack : TN_MAX_SACK;
        put8(&w, ns);
        for (unsigned i = 0; i < ns; i++) {
            put32(&w, op->sack[i].left);
            put32(&w, op->sack[i].right);
        }
        if (op->has_ts) {
            put32(&w, op->ts_val);
            put32(&w, op->ts_ecr);
        }
    } else if (p->kind == TN_PK_DFCP) {
        const struct tn_dfcp *d = &p->dfcp;
        uint8_t dh[3] = {d->version, d->type, d->flags};
        put(&w, dh, sizeof dh);
        put16(&w, d->n);
        put32(&w, d->block);
        put16(&w, d->sym_idx);
        put16(&w, d->window);
        put32(&w, d->k);
        put16(&w, d->hdr_sport);
        put16(&w, d->hdr_dport);
    }
    return (size_t)(w.p - out);
}

/* The reader of a record: one bounds check for each run of fields of known size (have), then
 * copies without one (rank 1 of an MPI job unpacks every packet it owns). */
static bool have(struct tn_unpack *r, size_t n)
{
    if (r->bad || (size_t)(r->end - r->p) < n)
        r->bad = true;
    return !r->bad;
}

static uint8_t g8(struct tn_unpack *r) { return *r->p++; }
static uint16_t g16(struct tn_unpack *r) { uint16_t v; memcpy(&v, r->p, 2); r->p += 2; return v; }
static uint32_t g32(struct tn_unpack *r) { uint32_t v; memcpy(&v, r->p, 4); r->p += 4; return v; }
static uint64_t g64(struct tn_unpack *r) { uint64_t v; memcpy(&v, r->p, 8); r->p += 8; return v; }

static void get_addr(struct tn_unpack *r, struct tn_addr *a)
{
    if (!have(r, 2))
        return;
    a->family = g8(r);
    uint8_t n = g8(r);
    /* as put_addr writes them: IPv4 in 4 bytes, IPv6 in 16 (or 4 when the rest is zero) */
    bool fits = a->family == 6 || (a->family == 4 && n <= 4) || (a->family == 0 && n == 0);
    if ((n != 0 && n != 4 && n != 16) || !fits || !have(r, n)) {
        r->bad = true;
        return;
    }
    memcpy(a->a, r->p, n);
    r->p += n;
}

/* bytes after the two addresses: ip_id .. caplen, then the TCP fields up to nsack or DFCP's */
#define MID_LEN 26
#define TCP_LEN 18
#define DFCP_LEN 21

size_t tn_pkt_unpack(const uint8_t *in, size_t n, struct tn_pkt *p)
{
    struct tn_unpack r = {in, in + n, false};
    memset(p, 0, sizeof *p);
    if (!have(&r, 9 + 8 + 4 + 8 + 8))
        return 0;
    const uint8_t *head = r.p;
    r.p += 9;
    if (head[0] > TN_PK_DFCP)
        return 0;
    p->kind = (enum tn_pkt_kind)head[0];
    uint8_t fl = head[1];
    p->ipver = head[2];
    p->ipproto = head[3];
    p->ttl = head[4];
    p->ecn = head[5];
    p->tunnels = head[6];
    p->vlan_depth = head[7];
    p->mpls_depth = head[8];
    p->fragment = fl & PF_FRAGMENT;
    p->ts.sec = (int64_t)g64(&r);
    p->ts.nsec = g32(&r);
    p->num = g64(&r);
    p->anoms.bits = g64(&r);
    get_addr(&r, &p->src);
    get_addr(&r, &p->dst);
    size_t rest = MID_LEN + (p->kind == TN_PK_TCP ? TCP_LEN : p->kind == TN_PK_DFCP ? DFCP_LEN : 0);
    if (!have(&r, rest))
        return 0;
    p->ip_id = g16(&r);
    p->ifindex = g32(&r);
    p->sport = g16(&r);
    p->dport = g16(&r);
    p->payload_len = g32(&r);
    p->payload_caplen = g32(&r);
    p->wirelen = g32(&r);
    p->caplen = g32(&r);
    struct tn_tcp_opts *op = &p->tcp.opt;
    op->has_mss = fl & PF_MSS;
    op->has_ws = fl & PF_WS;
    op->sack_ok = fl & PF_SACK_OK;
    op->has_ts = fl & PF_TS;
    p->tcp.no_window = fl & PF_NO_WINDOW;
    p->tcp.no_options = fl & PF_NO_OPTIONS;
    p->dfcp.over_udp = fl & PF_OVER_UDP;
    if (p->kind == TN_PK_TCP) {
        p->tcp.seq = g32(&r);
        p->tcp.ack = g32(&r);
        p->tcp.flags = g8(&r);
        p->tcp.win = g16(&r);
        p->tcp.urp = g16(&r);
        p->tcp.hdr_len = g8(&r);
        op->mss = g16(&r);
        op->ws = g8(&r);
        op->nsack = g8(&r);
        if (op->nsack > TN_MAX_SACK || !have(&r, 8 * (size_t)op->nsack + (op->has_ts ? 8 : 0)))
            return 0;
        for (unsigned i = 0; i < op->nsack; i++) {
            op->sack[i].left = g32(&r);
            op->sack[i].right = g32(&r);
        }
        if (op->has_ts) {
            op->ts_val = g32(&r);
            op->ts_ecr = g32(&r);
        }
    } else if (p->kind == TN_PK_DFCP) {
        struct tn_dfcp *d = &p->dfcp;
        d->version = g8(&r);
        d->type = g8(&r);
        d->flags = g8(&r);
        d->n = g16(&r);
        d->block = g32(&r);
        d->sym_idx = g16(&r);
        d->window = g16(&r);
        d->k = g32(&r);
        d->hdr_sport = g16(&r);
        d->hdr_dport = g16(&r);
        if (d->type > 15)   /* a 4-bit field (dfcp-wire-format.md); counted per type */
            return 0;
    }
    /* time stamps as the capture layer hands them out: in pcap's range (TN_TIME_SEC_MAX), so
     * that differences of times cannot overflow in the analysis */
    if (p->ts.sec < 0 || p->ts.sec > TN_TIME_SEC_MAX || p->ts.nsec >= 1000000000u)
        return 0;
    return r.bad ? 0 : (size_t)(r.p - in);
}
