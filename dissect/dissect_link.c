/* dissect_link.c - link layers: Ethernet (802.1Q/802.1ad tag stacks, MPLS, PPPoE, LLC/SNAP),
 * Linux cooked v1/v2, raw IP, BSD null/loop (the rarer ones in dissect_link_more.c); and the
 * tn_dissect entry point.
 * References: IEEE 802.3 / 802.1Q; RFC 3032 (MPLS label stack entry); RFC 2516 (PPPoE session
 * stage); tcpdump.org/linktypes.html for LINKTYPE_LINUX_SLL(2), NULL and LOOP.
 */
#include <string.h>

#include "dissect_int.h"

#define SLL_HDR_LEN 16    /* protocol at offset 14 */
#define SLL2_HDR_LEN 20   /* protocol at offset 0 */
#define ETH_HDR_LEN 14
#define PPPOE_HDR_LEN 6   /* ver/type, code, session id, length; then the PPP protocol */

enum {
    PPP_IPV4 = 0x0021,
    PPP_IPV6 = 0x0057,
    LLC_SNAP_SAP = 0xaa,
    LLC_UI = 0x03,
};

void tn_dissect_cfg_default(struct tn_dissect_cfg *cfg)
{
    cfg->dfcp_ipproto = TN_DFCP_DEFAULT_IPPROTO;
    cfg->dfcp_udp_port = TN_DFCP_DEFAULT_UDP_PORT;
}

bool tn_dissect_link_supported(int linktype)
{
    switch (linktype) {
    case TN_LINK_NULL:
    case TN_LINK_ETHERNET:
    case TN_LINK_RAW:
    case TN_LINK_RAW_12:
    case TN_LINK_RAW_14:
    case TN_LINK_LOOP:
    case TN_LINK_LINUX_SLL:
    case TN_LINK_IPV4:
    case TN_LINK_IPV6:
    case TN_LINK_LINUX_SLL2:
    case TN_LINK_PPP:
    case TN_LINK_PPP_HDLC:
    case TN_LINK_C_HDLC:
    case TN_LINK_FDDI:
    case TN_LINK_NFLOG:
    case TN_LINK_PPI:
    case TN_LINK_IEEE802_11:
    case TN_LINK_RADIOTAP:
        return true;
    default:
        return false;
    }
}

/* MPLS label stack (RFC 3032 section 2.1): 20-bit label, 3-bit TC, S (bottom of stack), TTL.
 * No protocol field follows: like every router, guess IPv4/IPv6 by the first nibble. */
static void dis_mpls(struct tn_dis *d, struct tn_cursor *c)
{
    for (unsigned n = 1;; n++) {
        if (n > TN_DIS_MAX_TAGS) {
            tn_dis_flag(d, TN_ANOM_VLAN_DEPTH, TN_DIS_OK);
            return;
        }
        if (!tn_dis_hdr(d, c, 4, TN_ANOM_MPLS_TRUNCATED, TN_ANOM_MPLS_TRUNCATED))
            return;
        uint32_t lse = tn_cur_be32(c);
        d->p->mpls_depth++;
        if (lse & 0x100)
            break;
    }
    tn_dis_ip_any(d, c, TN_ANOM_MPLS_TRUNCATED, false);
}

/* PPPoE session stage (RFC 2516 section 4):
 * | ver 1 | type 1 | code 0 (8) | session id (16) | length (16) | PPP protocol | payload ...
 * The length covers the PPP protocol field and the payload, and bounds them: Ethernet padding
 * after it is not part of the packet.  The PPP protocol field is 2 bytes, or 1 when the peers
 * negotiated protocol-field compression (RFC 1661 section 6.5): a protocol number's first byte is
 * even and its last byte odd, so an odd first byte is a compressed 1-byte field (0x21 IPv4,
 * 0x57 IPv6). */
static void dis_pppoe(struct tn_dis *d, struct tn_cursor *c)
{
    /* the header and the first byte of the protocol field */
    if (!tn_dis_hdr(d, c, PPPOE_HDR_LEN + 1, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
        return;
    uint8_t vt = tn_cur_u8(c);
    tn_cur_skip(c, 3);  /* code, session id */
    size_t len = tn_cur_be16(c);
    if (vt != 0x11)
        return;
    uint8_t first = tn_dis_peek8(c);
    size_t plen = first & 1 ? 1 : 2;
    if (plen == 2 && !tn_dis_hdr(d, c, 2, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
        return;
    if (len < plen) {
        tn_dis_flag(d, TN_ANOM_PPPOE_LEN, TN_DIS_MALFORMED);
        return;
    }
    struct tn_cursor pl;
    if (len > tn_dis_wire_left(d, c)) {
        /* Past the frame: reported, and the frame bounds the packet instead. */
        tn_dis_flag(d, TN_ANOM_PPPOE_LEN, TN_DIS_MALFORMED);
        pl = *c;
    } else {
        tn_dis_push(d, c, len, &pl);
    }
    uint16_t proto = plen == 1 ? tn_cur_u8(&pl) : tn_cur_be16(&pl);
    if (proto == PPP_IPV4)
        tn_dis_ip(d, &pl, 4);
    else if (proto == PPP_IPV6)
        tn_dis_ip(d, &pl, 6);
}

/* 802.2 LLC after an 802.3 length field; only SNAP with OUI 0 (RFC 1042) carries an EtherType.
 * Returns true and sets *type when it does. */
static bool dis_llc_snap(struct tn_dis *d, struct tn_cursor *c, uint16_t *type)
{
    if (!tn_dis_hdr(d, c, 3, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
        return false;
    uint8_t dsap = tn_cur_u8(c), ssap = tn_cur_u8(c), ctl = tn_cur_u8(c);
    if (dsap != LLC_SNAP_SAP || ssap != LLC_SNAP_SAP || ctl != LLC_UI)
        return false;  /* STP, NetBIOS, ...: not ours */
    if (!tn_dis_hdr(d, c, 5, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
        return false;
    uint8_t oui[3];
    tn_cur_bytes(c, oui, sizeof oui);
    *type = tn_cur_be16(c);
    return oui[0] == 0 && oui[1] == 0 && oui[2] == 0;
}

/* Follow an EtherType through VLAN tags to the network layer.  llc_ok: a value <= 1500 is an
 * 802.3 length followed by LLC (true on Ethernet; Linux cooked uses small values otherwise). */
void tn_dis_ethertype(struct tn_dis *d, struct tn_cursor *c, uint16_t type, bool llc_ok)
{
    for (unsigned tags = 0;;) {
        switch (type) {
        case TN_ETH_IPV4:
            tn_dis_ip(d, c, 4);
            return;
        case TN_ETH_IPV6:
            tn_dis_ip(d, c, 6);
            return;
        case TN_ETH_VLAN:
        case TN_ETH_QINQ:
        case TN_ETH_QINQ_OLD:
            if (++tags > TN_DIS_MAX_TAGS) {
                tn_dis_flag(d, TN_ANOM_VLAN_DEPTH, TN_DIS_OK);
                return;
            }
            if (!tn_dis_hdr(d, c, 4, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
                return;
            tn_cur_skip(c, 2);  /* PCP, DEI, VLAN id */
            type = tn_cur_be16(c);
            d->p->vlan_depth++;
            continue;
        case TN_ETH_MPLS_UC:
        case TN_ETH_MPLS_MC:
            dis_mpls(d, c);
            return;
        case TN_ETH_PPPOE_SESS:
            dis_pppoe(d, c);
            return;
        default:
            if (type <= TN_ETH_MAX_LEN && llc_ok && dis_llc_snap(d, c, &type)) {
                llc_ok = false;
                continue;
            }
            return;  /* ARP, LLDP, 802.3 LLC, ...: kind OTHER, no anomaly */
        }
    }
}

void tn_dis_ether(struct tn_dis *d, struct tn_cursor *c)
{
    if (!tn_dis_hdr(d, c, ETH_HDR_LEN, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
        return;
    tn_cur_skip(c, 12);  /* destination, source */
    tn_dis_ethertype(d, c, tn_cur_be16(c), true);
}

/* BSD AF_ values found in DLT_NULL/DLT_LOOP headers of the various systems. */
static unsigned af_to_ipver(uint32_t af)
{
    switch (af) {
    case 2:   /* AF_INET everywhere */
        return 4;
    case 24:  /* AF_INET6: NetBSD, OpenBSD, BSD/OS */
    case 28:  /* FreeBSD, DragonFly */
    case 30:  /* Darwin */
        return 6;
    default:
        return 0;
    }
}

/* DLT_NULL: the AF is in the capturing host's byte order, which the file does not say: accept
 * whichever reading is a known family.  DLT_LOOP: network order. */
static void dis_null(struct tn_dis *d, struct tn_cursor *c, bool loop)
{
    if (!tn_dis_hdr(d, c, 4, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
        return;
    struct tn_cursor le = *c;
    uint32_t af_le = tn_cur_le32(&le);
    uint32_t af_be = tn_cur_be32(c);
    unsigned ver = af_to_ipver(af_be);
    if (!loop && ver == 0)
        ver = af_to_ipver(af_le);
    if (ver)
        tn_dis_ip(d, c, ver);
}

/* The link layer named by linktype (already known to be supported), then what it carries. */
void tn_dis_link(struct tn_dis *d, struct tn_cursor *c, int linktype)
{
    switch (linktype) {
    case TN_LINK_ETHERNET:
        tn_dis_ether(d, c);
        break;
    case TN_LINK_LINUX_SLL:
        if (tn_dis_hdr(d, c, SLL_HDR_LEN, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED)) {
            tn_cur_skip(c, 14);  /* packet type, ARPHRD, address length, address */
            tn_dis_ethertype(d, c, tn_cur_be16(c), false);
        }
        break;
    case TN_LINK_LINUX_SLL2:
        if (tn_dis_hdr(d, c, SLL2_HDR_LEN, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED)) {
            uint16_t proto = tn_cur_be16(c);
            tn_cur_skip(c, 2);   /* reserved */
            d->p->ifindex = tn_cur_be32(c);
            tn_cur_skip(c, 12);  /* ARPHRD, packet type, address length, address */
            tn_dis_ethertype(d, c, proto, false);
        }
        break;
    case TN_LINK_IPV4:
        tn_dis_ip(d, c, 4);
        break;
    case TN_LINK_IPV6:
        tn_dis_ip(d, c, 6);
        break;
    case TN_LINK_NULL:
    case TN_LINK_LOOP:
        dis_null(d, c, linktype == TN_LINK_LOOP);
        break;
    case TN_LINK_PPP:
    case TN_LINK_PPP_HDLC:
    case TN_LINK_C_HDLC:
    case TN_LINK_FDDI:
    case TN_LINK_NFLOG:
    case TN_LINK_PPI:
    case TN_LINK_IEEE802_11:
    case TN_LINK_RADIOTAP:
        tn_dis_link_more(d, c, linktype);
        break;
    default: /* TN_LINK_RAW, TN_LINK_RAW_12, TN_LINK_RAW_14 */
        tn_dis_ip_any(d, c, TN_ANOM_FRAME_EMPTY, true);
        break;
    }
}

int tn_dissect(const struct tn_dissect_cfg *cfg, int linktype, const uint8_t *data, uint32_t caplen,
               uint32_t wirelen, struct tn_time ts, uint64_t num, struct tn_pkt *out)
{
    memset(out, 0, sizeof *out);
    out->ts = ts;
    out->num = num;
    out->caplen = caplen;
    out->wirelen = wirelen;

    /* A wire length below the captured length is a broken capture header: trust the bytes. */
    struct tn_dis d = {
        .cfg = cfg,
        .p = out,
        .base = data,
        .wire_end = wirelen > caplen ? wirelen : caplen,
        .status = TN_DIS_OK,
    };
    if (!tn_dissect_link_supported(linktype)) {
        tn_dis_flag(&d, TN_ANOM_LINK_UNKNOWN, TN_DIS_OK);
        return d.status;
    }
    if (caplen == 0 || !data) {
        tn_dis_flag(&d, TN_ANOM_FRAME_EMPTY, TN_DIS_TRUNCATED);
        return d.status;
    }

    struct tn_cursor c;
    tn_cur_init(&c, data, caplen);
    tn_dis_link(&d, &c, linktype);
    return d.status;
}
