/* dissect_rewrite.c - rewrite a copy of a frame from its layout: addresses through a mapping,
 * link-layer addresses zeroed, payload cut, TCP time stamps rebased, checksums made consistent.
 * Checksums: RFC 1071 one's complement sums; IPv4 header (RFC 791), TCP (RFC 9293 3.1) and UDP
 * (RFC 768) over the IPv4 or IPv6 pseudo-header (RFC 8200 section 8.1), ICMP (RFC 792) over
 * the message, ICMPv6 (RFC 4443 2.3) over the IPv6 pseudo-header.  A checksum is recomputed
 * when every byte it covers is still in the frame, and zeroed otherwise: left as it was, it
 * would be a function of the original addresses and of the payload cut away.
 */
#include <string.h>

#include "dissect_int.h"

enum {
    IP4_SRC = 12,
    IP4_CSUM = 10,
    IP6_SRC = 8,
    TCP_FLAGS = 13,
    TCP_CSUM = 16,
    UDP_CSUM = 6,
    ICMP_CSUM = 2,
    ARP_PTYPE_IP4 = 0x0800,
};

static uint64_t sum16(uint64_t s, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i + 1 < n; i += 2)
        s += (uint64_t)p[i] << 8 | p[i + 1];
    if (n & 1)
        s += (uint64_t)p[n - 1] << 8;
    return s;
}

static uint16_t fold(uint64_t s)
{
    while (s >> 16)
        s = (s & 0xffff) + (s >> 16);
    return (uint16_t)~s;
}

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, (uint16_t)(v >> 16));
    put16(p + 2, (uint16_t)v);
}

/* The pseudo-header sum of a transport segment of len bytes inside IP item ip. */
static uint64_t pseudo(const uint8_t *buf, const struct tn_lay_item *ip, uint8_t proto, uint32_t len)
{
    uint64_t s = 0;
    if (ip->kind == TN_LAY_IP4)
        s = sum16(s, buf + ip->off + IP4_SRC, 8);
    else
        s = sum16(s, buf + ip->off + IP6_SRC, 32);
    return s + proto + (len >> 16) + (len & 0xffff);
}

/* The checksum of transport item t, or 0 when the frame no longer holds all it covers. */
static void transport_csum(uint8_t *buf, uint32_t cap, const struct tn_layout *lay,
                           const struct tn_lay_item *t)
{
    size_t at = t->kind == TN_LAY_TCP ? TCP_CSUM : t->kind == TN_LAY_UDP ? UDP_CSUM : ICMP_CSUM;
    if (t->off + at + 2 > cap)
        return;
    uint8_t *field = buf + t->off + at;
    put16(field, 0);
    if ((uint64_t)t->off + t->wire > cap)
        return;
    uint64_t s = sum16(0, buf + t->off, t->wire);
    if (t->kind != TN_LAY_ICMP4) {
        if (t->up == TN_LAY_NONE)
            return;
        uint8_t proto = t->kind == TN_LAY_TCP ? TN_IPP_TCP : t->kind == TN_LAY_UDP ? TN_IPP_UDP
                                                                                    : TN_IPP_ICMP6;
        s += pseudo(buf, &lay->it[t->up], proto, t->wire);
    }
    uint16_t c = fold(s);
    if (c == 0 && t->kind == TN_LAY_UDP)
        c = 0xffff;   /* RFC 768: a computed zero is sent as all ones */
    put16(field, c);
}

static void ip4_csum(uint8_t *buf, uint32_t cap, const struct tn_lay_item *ip)
{
    if (ip->off + ip->len > cap)
        return;
    put16(buf + ip->off + IP4_CSUM, 0);
    put16(buf + ip->off + IP4_CSUM, fold(sum16(0, buf + ip->off, ip->len)));
}

static void blank(uint8_t *buf, uint32_t cap, uint32_t off, uint32_t len)
{
    if (off < cap)
        memset(buf + off, 0, len < cap - off ? len : cap - off);
}

static void arp(uint8_t *buf, uint32_t cap, const struct tn_lay_item *it, const struct tn_rewrite_ops *ops)
{
    uint8_t *p = buf + it->off;   /* all it->len bytes are captured (dissect_layout.c) */
    uint16_t ptype = (uint16_t)(p[2] << 8 | p[3]);
    uint32_t hln = p[4], pln = p[5];
    uint8_t *spa = p + 8 + hln, *tpa = p + 8 + 2 * hln + pln;
    blank(buf, cap, it->off + 8, hln);
    blank(buf, cap, it->off + 8 + hln + pln, hln);
    uint32_t ts;
    if (ptype == ARP_PTYPE_IP4 && pln == 4) {
        ops->addr(ops->ctx, 4, spa, &ts);
        ops->addr(ops->ctx, 4, tpa, &ts);
    } else {   /* a protocol we cannot map: its addresses are not written */
        memset(spa, 0, pln);
        memset(tpa, 0, pln);
    }
}

/* TSval of the source's clock, TSecr (valid with ACK only) of the destination's. */
static void rebase_ts(uint8_t *buf, uint32_t cap, const struct tn_layout *lay,
                      const struct tn_lay_item *it, const uint32_t *ts_src, const uint32_t *ts_dst)
{
    if (it->up == TN_LAY_NONE || it->off + 8 > cap)
        return;
    const struct tn_lay_item *tcp = &lay->it[it->up];
    if (tcp->up == TN_LAY_NONE)
        return;
    uint8_t *p = buf + it->off;
    put32(p, get32(p) + ts_src[tcp->up]);
    if (buf[tcp->off + TCP_FLAGS] & TN_TCP_ACK)
        put32(p + 4, get32(p + 4) + ts_dst[tcp->up]);
}

uint32_t tn_rewrite(const struct tn_layout *lay, uint8_t *buf, uint32_t caplen,
                    const struct tn_rewrite_ops *ops)
{
    if (lay->full)
        return 0;
    uint32_t ts_src[TN_LAY_MAX] = {0}, ts_dst[TN_LAY_MAX] = {0};
    for (unsigned i = 0; i < lay->n; i++) {
        const struct tn_lay_item *it = &lay->it[i];
        uint8_t *p = buf + it->off;
        switch (it->kind) {
        case TN_LAY_LINKADDR:
            blank(buf, caplen, it->off, it->len);
            break;
        case TN_LAY_IP4:
            ops->addr(ops->ctx, 4, p + IP4_SRC, &ts_src[i]);
            ops->addr(ops->ctx, 4, p + IP4_SRC + 4, &ts_dst[i]);
            break;
        case TN_LAY_IP6:
            ops->addr(ops->ctx, 6, p + IP6_SRC, &ts_src[i]);
            ops->addr(ops->ctx, 6, p + IP6_SRC + 16, &ts_dst[i]);
            break;
        case TN_LAY_ADDR4:
        case TN_LAY_ADDR6: {
            uint32_t ts;
            ops->addr(ops->ctx, it->kind == TN_LAY_ADDR4 ? 4 : 6, p, &ts);
            break;
        }
        case TN_LAY_ARP:
            arp(buf, caplen, it, ops);
            break;
        case TN_LAY_TCP_TS:
            if (ops->rebase_ts)
                rebase_ts(buf, caplen, lay, it, ts_src, ts_dst);
            break;
        case TN_LAY_CSUM0:
            blank(buf, caplen, it->off, 2);
            break;
        default:
            break;
        }
    }
    uint32_t cap = caplen;
    if (!(ops->keep_payload && lay->payload_ok) && lay->hdr_end < cap)
        cap = lay->hdr_end;
    /* innermost first: an outer checksum covers the inner headers */
    for (unsigned i = lay->n; i-- > 0;) {
        const struct tn_lay_item *it = &lay->it[i];
        if (it->kind == TN_LAY_IP4)
            ip4_csum(buf, cap, it);
        else if (!it->quoted && (it->kind == TN_LAY_TCP || it->kind == TN_LAY_UDP ||
                                 it->kind == TN_LAY_ICMP4 || it->kind == TN_LAY_ICMP6))
            transport_csum(buf, cap, lay, it);
    }
    return cap;
}
