/* dissect_layout.c - headers that carry addresses but no TCP or DFCP packet, walked only when a
 * layout is wanted (an anonymized export): ARP (RFC 826), ICMP errors and the datagram they
 * quote (RFC 792, RFC 1812 section 4.3.2.3), ICMPv6 errors (RFC 4443 section 3) and neighbour
 * discovery (RFC 4861 section 4).  They leave the packet record alone (kind OTHER).
 */
#include "dissect_int.h"

#define ARP_FIXED_LEN 8          /* hardware type, protocol type, hln, pln, operation */
#define ICMP_HDR_LEN 8           /* type, code, checksum, 4 bytes that depend on the type */
#define QUOTE_L4_LEN 8           /* what every ICMP error quotes of the transport (RFC 792) */

enum {
    ICMP4_UNREACH = 3,
    ICMP4_SOURCEQUENCH = 4,
    ICMP4_REDIRECT = 5,
    ICMP4_TIMXCEED = 11,
    ICMP4_PARAMPROB = 12,
    ICMP6_UNREACH = 1,
    ICMP6_TOOBIG = 2,
    ICMP6_TIMXCEED = 3,
    ICMP6_PARAMPROB = 4,
    ND_NEIGHBOR_SOLICIT = 135,
    ND_NEIGHBOR_ADVERT = 136,
    ND_REDIRECT = 137,
    ND_OPT_SOURCE_LINKADDR = 1,
    ND_OPT_TARGET_LINKADDR = 2,
    TCP_CSUM_OFF = 16,
    UDP_CSUM_OFF = 6,
};

void tn_dis_arp(struct tn_dis *d, struct tn_cursor *c)
{
    if (!d->lay || tn_cur_left(c) < ARP_FIXED_LEN)
        return;
    struct tn_cursor h = *c;
    tn_cur_skip(&h, 4);
    size_t hln = tn_cur_u8(&h), pln = tn_cur_u8(&h);
    size_t len = ARP_FIXED_LEN + 2 * (hln + pln);
    if (tn_cur_left(c) < len)
        return;   /* cut: the layout ends before it, so it is not written */
    tn_dis_lay(d, c, TN_LAY_ARP, len, len, TN_LAY_NONE);
    tn_dis_lay_payload(d);   /* only Ethernet padding follows */
}

/* The IP header an ICMP error quotes, and the first 8 bytes of its transport: addresses to map
 * and the transport checksum (over the original addresses) to zero.  A quote is a header: the
 * layout ends after those 8 bytes, the rest of the quoted datagram is payload. */
static void quote(struct tn_dis *d, struct tn_cursor *c)
{
    struct tn_layout *l = d->lay;
    if (tn_cur_left(c) < 1)
        return;
    unsigned ver = tn_dis_peek8(c) >> 4;
    size_t ihl;
    uint8_t proto;
    struct tn_cursor h = *c;
    if (ver == 4) {
        ihl = (size_t)(tn_dis_peek8(c) & 0x0f) * 4;
        if (ihl < 20 || tn_cur_left(c) < ihl)
            return;
        tn_cur_skip(&h, 9);
        proto = tn_cur_u8(&h);
    } else if (ver == 6) {
        ihl = 40;
        if (tn_cur_left(c) < ihl)
            return;
        tn_cur_skip(&h, 6);
        proto = tn_cur_u8(&h);   /* the upper layer only without extension headers */
    } else {
        return;
    }
    uint8_t ip = tn_dis_lay(d, c, ver == 4 ? TN_LAY_IP4 : TN_LAY_IP6, ihl, ihl, TN_LAY_NONE);
    if (ip == TN_LAY_NONE)
        return;
    l->it[ip].quoted = true;
    struct tn_cursor t = *c;
    tn_cur_skip(&t, ihl);
    size_t left = tn_cur_left(&t);
    size_t csum = proto == TN_IPP_TCP ? TCP_CSUM_OFF : proto == TN_IPP_UDP ? UDP_CSUM_OFF : 0;
    if (csum && left >= csum + 2) {
        struct tn_cursor at = t;
        tn_cur_skip(&at, csum);
        uint8_t k = tn_dis_lay(d, &at, TN_LAY_CSUM0, 2, 2, TN_LAY_NONE);
        if (k != TN_LAY_NONE)
            l->it[k].quoted = true;
    }
    tn_dis_lay(d, &t, TN_LAY_HDR, left < QUOTE_L4_LEN ? left : QUOTE_L4_LEN, QUOTE_L4_LEN,
               TN_LAY_NONE);
}

/* Neighbour discovery: the target address (and a redirect's destination), then options whose
 * link-layer addresses are blanked. */
static void nd(struct tn_dis *d, struct tn_cursor *c, uint8_t type)
{
    unsigned naddr = type == ND_REDIRECT ? 2 : 1;
    for (unsigned i = 0; i < naddr; i++) {
        if (tn_cur_left(c) < 16)
            return;
        tn_dis_lay(d, c, TN_LAY_ADDR6, 16, 16, TN_LAY_NONE);
        tn_cur_skip(c, 16);
    }
    while (tn_cur_left(c) >= 2) {
        struct tn_cursor h = *c;
        uint8_t otype = tn_cur_u8(&h);
        size_t olen = (size_t)tn_cur_u8(&h) * 8;
        if (olen == 0 || olen > tn_cur_left(c))
            return;   /* RFC 4861 4.6: length 0 is invalid; the rest is cut */
        if (otype == ND_OPT_SOURCE_LINKADDR || otype == ND_OPT_TARGET_LINKADDR)
            tn_dis_lay(d, &h, TN_LAY_LINKADDR, olen - 2, olen - 2, TN_LAY_NONE);
        else
            tn_dis_lay(d, c, TN_LAY_HDR, olen, olen, TN_LAY_NONE);
        tn_cur_skip(c, olen);
    }
    tn_dis_lay_payload(d);
}

static void icmp(struct tn_dis *d, struct tn_cursor *c, uint8_t proto)
{
    if (!d->lay || tn_cur_left(c) < ICMP_HDR_LEN)
        return;
    bool v6 = proto == TN_IPP_ICMP6;
    size_t wire = tn_dis_wire_left(d, c);
    uint8_t type = tn_dis_peek8(c);
    uint8_t k = tn_dis_lay(d, c, v6 ? TN_LAY_ICMP6 : TN_LAY_ICMP4, ICMP_HDR_LEN, wire, d->lay_ip);
    if (k == TN_LAY_NONE)
        return;
    struct tn_cursor body = *c;
    tn_cur_skip(&body, ICMP_HDR_LEN);
    bool error = v6 ? type >= ICMP6_UNREACH && type <= ICMP6_PARAMPROB
                    : type == ICMP4_UNREACH || type == ICMP4_SOURCEQUENCH ||
                          type == ICMP4_REDIRECT || type == ICMP4_TIMXCEED || type == ICMP4_PARAMPROB;
    if (error) {
        if (!v6 && type == ICMP4_REDIRECT) {
            /* the gateway address is in the 4 bytes after the checksum (RFC 792) */
            struct tn_cursor gw = *c;
            tn_cur_skip(&gw, 4);
            tn_dis_lay(d, &gw, TN_LAY_ADDR4, 4, 4, TN_LAY_NONE);
        }
        quote(d, &body);
        return;
    }
    if (v6 && type >= ND_NEIGHBOR_SOLICIT && type <= ND_REDIRECT) {
        nd(d, &body, type);
        return;
    }
    tn_dis_lay_payload(d);   /* echo and the rest: what follows the header is data */
}

void tn_dis_icmp4(struct tn_dis *d, struct tn_cursor *c)
{
    icmp(d, c, TN_IPP_ICMP);
}

void tn_dis_icmp6(struct tn_dis *d, struct tn_cursor *c)
{
    icmp(d, c, TN_IPP_ICMP6);
}
