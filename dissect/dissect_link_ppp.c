/* dissect_link_ppp.c - PPP and HDLC framings: PPP (LINKTYPE_PPP 9, PPP_HDLC 50), PPPoE's session
 * stage (an EtherType) and Cisco HDLC (LINKTYPE_C_HDLC 104).
 * References: RFC 1661 (PPP; section 6.5 protocol-field compression), RFC 1662 section 3.1 (HDLC-like
 * framing), RFC 2516 section 4 (PPPoE session stage), tcpdump.org/linktypes.html (C_HDLC: address,
 * control, then an EtherType).
 */
#include "dissect_int.h"

#define PPPOE_HDR_LEN 6    /* ver/type, code, session id, length; then the PPP protocol */
#define CHDLC_HDR_LEN 4    /* address, control, protocol (an EtherType) */

enum {
    PPP_ADDR = 0xff,
    PPP_IPV4 = 0x0021,
    PPP_IPV6 = 0x0057,
    PPPOE_VER_TYPE = 0x11, /* version 1, type 1 */
};

/* What a PPP protocol number carries; others (LCP, IPCP, ...) are kind OTHER. */
static void ppp_proto(struct tn_dis *d, struct tn_cursor *c, uint16_t proto)
{
    if (proto == PPP_IPV4)
        tn_dis_ip(d, c, 4);
    else if (proto == PPP_IPV6)
        tn_dis_ip(d, c, 6);
}

/* PPP in HDLC-like framing (RFC 1662 section 3.1): address 0xff and control 0x03, which
 * LINKTYPE_PPP may leave out (address/control field compression), then the protocol in 2 bytes
 * or, with protocol field compression (RFC 1661 section 6.5), 1 byte with its low bit set. */
void tn_dis_ppp(struct tn_dis *d, struct tn_cursor *c)
{
    if (!tn_dis_hdr(d, c, 1, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
        return;
    if (tn_dis_peek8(c) == PPP_ADDR) {
        if (!tn_dis_hdr(d, c, 3, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
            return;
        tn_cur_skip(c, 2);
    }
    uint16_t proto;
    if (tn_dis_peek8(c) & 1) {
        proto = tn_cur_u8(c);
    } else {
        if (!tn_dis_hdr(d, c, 2, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
            return;
        proto = tn_cur_be16(c);
    }
    ppp_proto(d, c, proto);
}

/* PPPoE session stage (RFC 2516 section 4):
 * | ver 1 | type 1 | code 0 (8) | session id (16) | length (16) | PPP protocol | payload ...
 * The length covers the PPP protocol field and the payload, and bounds them: Ethernet padding
 * after it is not part of the packet.  The PPP protocol field is 2 bytes, or 1 when the peers
 * negotiated protocol-field compression (RFC 1661 section 6.5): a protocol number's first byte is
 * even and its last byte odd, so an odd first byte is a compressed 1-byte field (0x21 IPv4,
 * 0x57 IPv6). */
void tn_dis_pppoe(struct tn_dis *d, struct tn_cursor *c)
{
    /* the header and the first byte of the protocol field */
    if (!tn_dis_hdr(d, c, PPPOE_HDR_LEN + 1, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
        return;
    uint8_t vt = tn_cur_u8(c);
    tn_cur_skip(c, 3);  /* code, session id */
    size_t len = tn_cur_be16(c);
    if (vt != PPPOE_VER_TYPE)
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
    ppp_proto(d, &pl, proto);
}

/* Cisco HDLC: address, control, then an EtherType. */
void tn_dis_chdlc(struct tn_dis *d, struct tn_cursor *c)
{
    if (!tn_dis_hdr(d, c, CHDLC_HDR_LEN, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
        return;
    tn_cur_skip(c, 2);
    tn_dis_ethertype(d, c, tn_cur_be16(c), false);
}
