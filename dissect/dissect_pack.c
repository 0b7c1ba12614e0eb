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

/* 0 bytes for no address, 4 for IPv4 (the other 12 are zero), else all 16 */
static void put_addr(struct wr *w, const struct tn_addr *a)
{
    static const uint8_t zero[16];
    uint8_t n = 16;
    if (memcmp(a->a + 4, zero, 12) == 0)
        n = memcmp(a->a, zero, 4) == 0 ? 0 : 4;
    put8(w, a->family);
    put8(w, n);
    put(w, a->a, n);
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

static void get_addr(struct tn_unpack *r, struct tn_addr *a)
{
    a->family = tn_unpack_u8(r);
    uint8_t n = tn_unpack_u8(r);
    /* as put_addr writes them: IPv4 in 4 bytes, IPv6 in 16 (or 4 when the rest is zero) */
    bool fits = a->family == 6 || (a->family == 4 && n <= 4) || (a->family == 0 && n == 0);
    if ((n != 0 && n != 4 && n != 16) || !fits) {
        r->bad = true;
        return;
    }
    tn_unpack_get(r, a->a, n);
}

size_t tn_pkt_unpack(const uint8_t *in, size_t n, struct tn_pkt *p)
{
    struct tn_unpack r = {in, in + n, false};
    memset(p, 0, sizeof *p);
    uint8_t head[9];
    tn_unpack_get(&r, head, sizeof head);
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
    p->ts.sec = (int64_t)tn_unpack_u64(&r);
    p->ts.nsec = tn_unpack_u32(&r);
    p->num = tn_unpack_u64(&r);
    p->anoms.bits = tn_unpack_u64(&r);
    get_addr(&r, &p->src);
    get_addr(&r, &p->dst);
    p->ip_id = tn_unpack_u16(&r);
    p->ifindex = tn_unpack_u32(&r);
    p->sport = tn_unpack_u16(&r);
    p->dport = tn_unpack_u16(&r);
    p->payload_len = tn_unpack_u32(&r);
    p->payload_caplen = tn_unpack_u32(&r);
    p->wirelen = tn_unpack_u32(&r);
    p->caplen = tn_unpack_u32(&r);
    struct tn_tcp_opts *op = &p->tcp.opt;
    op->has_mss = fl & PF_MSS;
    op->has_ws = fl & PF_WS;
    op->sack_ok = fl & PF_SACK_OK;
    op->has_ts = fl & PF_TS;
    p->tcp.no_window = fl & PF_NO_WINDOW;
    p->tcp.no_options = fl & PF_NO_OPTIONS;
    p->dfcp.over_udp = fl & PF_OVER_UDP;
    if (p->kind == TN_PK_TCP) {
        p->tcp.seq = tn_unpack_u32(&r);
        p->tcp.ack = tn_unpack_u32(&r);
        p->tcp.flags = tn_unpack_u8(&r);
        p->tcp.win = tn_unpack_u16(&r);
        p->tcp.urp = tn_unpack_u16(&r);
        p->tcp.hdr_len = tn_unpack_u8(&r);
        op->mss = tn_unpack_u16(&r);
        op->ws = tn_unpack_u8(&r);
        op->nsack = tn_unpack_u8(&r);
        if (op->nsack > TN_MAX_SACK)
            return 0;
        for (unsigned i = 0; i < op->nsack; i++) {
            op->sack[i].left = tn_unpack_u32(&r);
            op->sack[i].right = tn_unpack_u32(&r);
        }
        if (op->has_ts) {
            op->ts_val = tn_unpack_u32(&r);
            op->ts_ecr = tn_unpack_u32(&r);
        }
    } else if (p->kind == TN_PK_DFCP) {
        struct tn_dfcp *d = &p->dfcp;
        d->version = tn_unpack_u8(&r);
        d->type = tn_unpack_u8(&r);
        d->flags = tn_unpack_u8(&r);
        d->n = tn_unpack_u16(&r);
        d->block = tn_unpack_u32(&r);
        d->sym_idx = tn_unpack_u16(&r);
        d->window = tn_unpack_u16(&r);
        d->k = tn_unpack_u32(&r);
        d->hdr_sport = tn_unpack_u16(&r);
        d->hdr_dport = tn_unpack_u16(&r);
        if (d->type > 15)   /* a 4-bit field (dfcp-wire-format.md); counted per type */
            return 0;
    }
    /* time stamps as the capture layer hands them out: in pcap's range (TN_TIME_SEC_MAX), so
     * that differences of times cannot overflow in the analysis */
    if (p->ts.sec < 0 || p->ts.sec > TN_TIME_SEC_MAX || p->ts.nsec >= 1000000000u)
        return 0;
    return r.bad ? 0 : (size_t)(r.p - in);
}
