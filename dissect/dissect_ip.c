/* dissect_ip.c - IPv4 (RFC 791) and IPv6 (RFC 8200) with extension headers, and the dispatch to
 * the transport.  Fragments are flagged (tn_pkt.fragment), not reassembled: only a first
 * fragment (offset 0) has its transport header dissected.
 */
#include <string.h>

#include "dissect_int.h"

#define IP4_HDR_LEN 20
#define IP6_HDR_LEN 40

enum {
    IP4_OPT_EOL = 0,
    IP4_OPT_NOP = 1,
    IP4_MF = 0x2000,
    IP4_OFFSET = 0x1fff,

    IP6_HOPOPTS = 0,
    IP6_ROUTING = 43,
    IP6_FRAGMENT = 44,
    IP6_AH = 51,
    IP6_NONXT = 59,
    IP6_DSTOPTS = 60,
    IP6_MOBILITY = 135,
    IP6_FRAG_OFFSET = 0xfff8,
};

/* RFC 791 options: EOL ends, NOP is one byte, others are type, length (>= 2, covering type and
 * length), value.  A bad length is reported and ends the walk; the datagram is still usable
 * because IHL, not the options, says where the payload starts. */
static void ip4_opts(struct tn_dis *d, struct tn_cursor *o)
{
    while (tn_cur_left(o) > 0) {
        uint8_t type = tn_cur_u8(o);
        if (type == IP4_OPT_EOL)
            return;
        if (type == IP4_OPT_NOP)
            continue;
        uint8_t len = tn_cur_u8(o);  /* 0 when missing: caught below */
        if (len < 2 || (size_t)len - 2 > tn_cur_left(o)) {
            tn_dis_flag(d, TN_ANOM_IP4_OPT_LEN, TN_DIS_MALFORMED);
            return;
        }
        tn_cur_skip(o, (size_t)len - 2);
    }
}

/* The IP length says more than the wire limit.  Against the frame's wire length the header is
 * believed: the capture did not keep all of the datagram (offload captures hand over 1500-byte
 * lengths in short frames; some tools write a cut frame's captured length as its wire length) or
 * the length is damaged, and tshark's TCP analysis and tcptrace both take the IP length; the
 * missing bytes count as not captured (TRUNCATED), like a snap length.  Against an enclosing
 * header's length (PPPoE, outer IP, UDP, GTP-U) the enclosing length wins, as in tshark: the
 * packet contradicts itself (MALFORMED) and the bytes past it are padding.  Returns true when
 * the length must be cut to the wire limit. */
static bool ip_len_beyond(struct tn_dis *d, enum tn_anom_kind k)
{
    tn_dis_flag(d, k, d->wire_from_hdr ? TN_DIS_MALFORMED : TN_DIS_TRUNCATED);
    return d->wire_from_hdr;
}

void tn_dis_ip4(struct tn_dis *d, struct tn_cursor *c)
{
    struct tn_pkt *p = d->p;
    if (!tn_dis_hdr(d, c, IP4_HDR_LEN, TN_ANOM_IP4_TRUNCATED, TN_ANOM_IP4_TRUNCATED))
        return;
    size_t wire = tn_dis_wire_left(d, c);
    /* the fixed header is there (tn_dis_hdr): read at offsets, the cursor moved once */
    const uint8_t *h = c->pos;
    uint8_t vhl = h[0];
    if (vhl >> 4 != 4) {
        c->pos = h + 1;
        tn_dis_flag(d, TN_ANOM_IP_VERSION, TN_DIS_MALFORMED);
        return;
    }
    c->pos = h + IP4_HDR_LEN;
    size_t ihl = (size_t)(vhl & 0x0f) * 4;
    uint8_t tos = h[1];
    size_t total = (size_t)h[2] << 8 | h[3];
    uint16_t id = (uint16_t)(h[4] << 8 | h[5]);
    uint16_t frag = (uint16_t)(h[6] << 8 | h[7]);
    uint8_t ttl = h[8];
    uint8_t proto = h[9];
    /* h[10..11], the checksum: not verified (offload makes it meaningless in captures) */
    p->ipver = 4;
    p->src.family = p->dst.family = 4;
    memset(p->src.a, 0, sizeof p->src.a);
    memset(p->dst.a, 0, sizeof p->dst.a);
    memcpy(p->src.a, h + 12, 4);
    memcpy(p->dst.a, h + 16, 4);
    p->ecn = tos & 0x03;
    p->ip_id = id;
    p->ttl = ttl;
    p->ipproto = proto;

    if (ihl < IP4_HDR_LEN) {
        tn_dis_flag(d, TN_ANOM_IP4_HDR_LEN, TN_DIS_MALFORMED);
        return;
    }
    if (total == 0) {
        /* Captured on the sender with segmentation offload: the NIC fills the length in later. */
        tn_dis_flag(d, TN_ANOM_IP4_TSO_LEN0, TN_DIS_OK);
        total = wire;
    }
    if (total < ihl) {
        tn_dis_flag(d, TN_ANOM_IP4_TOTAL_LEN, TN_DIS_MALFORMED);
        return;
    }
    if (total > wire && ip_len_beyond(d, TN_ANOM_IP4_LEN_GT_WIRE))
        total = wire;
    struct tn_cursor opts, hdr = {.pos = c->pos - IP4_HDR_LEN};
    if (!tn_cur_sub(c, ihl - IP4_HDR_LEN, &opts)) {
        tn_dis_flag(d, TN_ANOM_IP4_TRUNCATED, TN_DIS_TRUNCATED);
        return;
    }
    ip4_opts(d, &opts);
    d->lay_ip = tn_dis_lay(d, &hdr, TN_LAY_IP4, ihl, total, TN_LAY_NONE);

    p->fragment = (frag & (IP4_MF | IP4_OFFSET)) != 0;
    struct tn_cursor pl;
    tn_dis_push(d, c, total - ihl, &pl);  /* also strips Ethernet padding */
    if (frag & IP4_OFFSET)
        return;
    tn_dis_transport(d, &pl, proto);
}

/* Walk the extension header chain (RFC 8200 section 4) in the payload cursor pl; returns true
 * with *nh = the upper-layer protocol when the transport should be dissected. */
static bool ip6_ext_chain(struct tn_dis *d, struct tn_cursor *pl, uint8_t *nh)
{
    for (unsigned n = 0;; n++) {
        size_t len;
        switch (*nh) {
        case IP6_HOPOPTS:
        case IP6_ROUTING:
        case IP6_DSTOPTS:
        case IP6_MOBILITY:
        case IP6_AH:
        case IP6_FRAGMENT:
            break;
        case IP6_NONXT:
            return false;
        default:
            return true;
        }
        if (n >= TN_DIS_MAX_IP6_EXT) {
            tn_dis_flag(d, TN_ANOM_IP6_EXT_DEPTH, TN_DIS_OK);
            return false;
        }
        if (!tn_dis_hdr(d, pl, 2, TN_ANOM_IP6_EXT_TRUNCATED, TN_ANOM_IP6_EXT_LEN))
            return false;
        struct tn_cursor h = *pl;
        uint8_t next = tn_cur_u8(&h);
        uint8_t hlen = tn_cur_u8(&h);
        if (*nh == IP6_FRAGMENT)
            len = 8;
        else if (*nh == IP6_AH)
            len = ((size_t)hlen + 2) * 4;  /* RFC 4302: 4-octet units, minus 2 */
        else
            len = ((size_t)hlen + 1) * 8;  /* 8-octet units, not counting the first 8 */
        if (!tn_dis_hdr(d, pl, len, TN_ANOM_IP6_EXT_TRUNCATED, TN_ANOM_IP6_EXT_LEN))
            return false;
        tn_dis_lay(d, pl, TN_LAY_HDR, len, len, TN_LAY_NONE);
        if (*nh == IP6_FRAGMENT) {
            tn_cur_skip(pl, 2);
            uint16_t offlg = tn_cur_be16(pl);
            tn_cur_skip(pl, 4);  /* identification */
            d->p->fragment = true;
            *nh = next;
            d->p->ipproto = next;
            if (offlg & IP6_FRAG_OFFSET)
                return false;    /* not the first fragment */
            continue;
        }
        tn_cur_skip(pl, len);
        *nh = next;
        d->p->ipproto = next;
    }
}

void tn_dis_ip6(struct tn_dis *d, struct tn_cursor *c)
{
    struct tn_pkt *p = d->p;
    if (!tn_dis_hdr(d, c, IP6_HDR_LEN, TN_ANOM_IP6_TRUNCATED, TN_ANOM_IP6_TRUNCATED))
        return;
    size_t wire = tn_dis_wire_left(d, c) - IP6_HDR_LEN;
    uint32_t vtf = tn_cur_be32(c);
    if (vtf >> 28 != 6) {
        tn_dis_flag(d, TN_ANOM_IP_VERSION, TN_DIS_MALFORMED);
        return;
    }
    size_t plen = tn_cur_be16(c);
    uint8_t nh = tn_cur_u8(c);
    p->ttl = tn_cur_u8(c);
    p->ipver = 6;
    p->src.family = p->dst.family = 6;
    tn_cur_bytes(c, p->src.a, 16);
    tn_cur_bytes(c, p->dst.a, 16);
    p->ecn = (uint8_t)((vtf >> 20) & 0x03);
    p->ip_id = 0;
    p->ipproto = nh;

    if (plen == 0 && nh == IP6_HOPOPTS) {
        /* Jumbogram (RFC 2675): the real length is in a hop-by-hop option; bound by the frame. */
        plen = wire;
    } else if (plen > wire && ip_len_beyond(d, TN_ANOM_IP6_LEN_GT_WIRE)) {
        plen = wire;
    }
    struct tn_cursor pl, hdr = {.pos = c->pos - IP6_HDR_LEN};
    d->lay_ip = tn_dis_lay(d, &hdr, TN_LAY_IP6, IP6_HDR_LEN, IP6_HDR_LEN + plen, TN_LAY_NONE);
    tn_dis_push(d, c, plen, &pl);
    if (ip6_ext_chain(d, &pl, &nh))
        tn_dis_transport(d, &pl, nh);
}

void tn_dis_ip(struct tn_dis *d, struct tn_cursor *c, unsigned ver)
{
    if (ver == 4)
        tn_dis_ip4(d, c);
    else
        tn_dis_ip6(d, c);
}

void tn_dis_ip_any(struct tn_dis *d, struct tn_cursor *c, enum tn_anom_kind trunc, bool strict)
{
    if (!tn_dis_hdr(d, c, 1, trunc, trunc))
        return;
    unsigned ver = tn_dis_peek8(c) >> 4;
    if (ver == 4 || ver == 6)
        tn_dis_ip(d, c, ver);
    else if (strict)
        tn_dis_flag(d, TN_ANOM_IP_VERSION, TN_DIS_MALFORMED);
}

/* IP in IP (RFC 2003) and IPv6 in IPv4 or IPv6 (RFC 4213, RFC 2473): one more tunnel level. */
static void dis_ipip4(struct tn_dis *d, struct tn_cursor *c)
{
    if (tn_dis_tunnel(d, TN_TUN_IPIP))
        tn_dis_ip4(d, c);
}

static void dis_ipip6(struct tn_dis *d, struct tn_cursor *c)
{
    if (tn_dis_tunnel(d, TN_TUN_IPIP))
        tn_dis_ip6(d, c);
}

/* The IP-protocol table; ESP, SCTP, ... have no row: kind OTHER (ICMP too, but its quoted
 * datagram has addresses an anonymized export rewrites). */
static const struct ipproto {
    uint8_t proto;
    tn_dis_fn *dissect;
} ipprotos[] = {
    {TN_IPP_TCP, tn_dis_tcp},
    {TN_IPP_UDP, tn_dis_udp},
    {TN_IPP_GRE, tn_dis_gre},
    {TN_IPP_IPV4, dis_ipip4},
    {TN_IPP_IPV6, dis_ipip6},
    {TN_IPP_ICMP, tn_dis_icmp4},
    {TN_IPP_ICMP6, tn_dis_icmp6},
};

void tn_dis_transport(struct tn_dis *d, struct tn_cursor *c, uint8_t proto)
{
    d->p->ipproto = proto;
    if (proto == d->cfg->dfcp_ipproto) {  /* checked first: the user's number wins */
        tn_dis_dfcp(d, c, false);
        return;
    }
    for (size_t i = 0; i < TN_ARRAY_LEN(ipprotos); i++) {
        if (ipprotos[i].proto == proto) {
            ipprotos[i].dissect(d, c);
            return;
        }
    }
}
