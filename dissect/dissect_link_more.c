/* dissect_link_more.c - the less common link layers met on captures of routers and old
 * monitors: PPP (RFC 1661/1662), Cisco HDLC, FDDI with 802.2 LLC/SNAP, Linux NFLOG, and PPI,
 * whose header names the link type that follows.
 * References: tcpdump.org/linktypes.html (LINKTYPE_PPP 9, PPP_HDLC 50, C_HDLC 104, FDDI 10,
 * NFLOG 239 with its TLV layout, PPI 192 and the PPI header of the PPI specification 1.0,
 * IEEE802_11 105 and its RADIOTAP 127 wrapper, radiotap.org); IEEE 802.11-2020 §9.2.4 (MAC
 * header of data frames).
 */
#include "dissect_int.h"

enum {
    PPP_ADDR = 0xff,
    PPP_CTRL = 0x03,
    PPP_IP4 = 0x0021,
    PPP_IP6 = 0x0057,
    FDDI_HDR_LEN = 13,         /* frame control, destination, source */
    NFLOG_HDR_LEN = 4,         /* family, version, resource id */
    NFULA_PAYLOAD = 9,
    NF_AF_INET = 2,
    NF_AF_INET6 = 10,
    PPI_HDR_LEN = 8,           /* version, flags, length (LE), link type (LE) */
    WLAN_HDR_LEN = 24,         /* frame control, duration, 3 addresses, sequence control */
    WLAN_TYPE_DATA = 2,
    WLAN_TO_DS = 0x01,
    WLAN_FROM_DS = 0x02,
    WLAN_PROTECTED = 0x40,
    WLAN_ORDER = 0x80,
    RADIOTAP_HDR_LEN = 8,      /* version, pad, length (LE), present bitmap */
};

/*  An 802.11 data frame: its MAC header (a fourth address between access points, QoS control
 *  on QoS data, HT control when QoS frames set the order bit), then 802.2 LLC/SNAP.  Other
 *  frames, null data and encrypted payloads carry nothing we can read: kind OTHER. */
static void dis_wlan(struct tn_dis *d, struct tn_cursor *c)
{
    if (!tn_dis_hdr(d, c, WLAN_HDR_LEN, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
        return;
    uint16_t fc = tn_cur_le16(c);
    unsigned type = (fc >> 2) & 3, subtype = (fc >> 4) & 0xf, flags = fc >> 8;
    if (type != WLAN_TYPE_DATA || (subtype & 0x4) || (flags & WLAN_PROTECTED))
        return;
    bool qos = subtype & 0x8;
    size_t more = ((flags & WLAN_TO_DS) && (flags & WLAN_FROM_DS) ? 6 : 0) + (qos ? 2 : 0) +
                  (qos && (flags & WLAN_ORDER) ? 4 : 0);
    tn_cur_skip(c, WLAN_HDR_LEN - 2);
    if (!tn_dis_hdr(d, c, more, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
        return;
    tn_cur_skip(c, more);
    tn_dis_ethertype(d, c, 0, true);
}

/*  Radiotap: version 0, padding, the header's length (little-endian); its fields are skipped. */
static void dis_radiotap(struct tn_dis *d, struct tn_cursor *c)
{
    if (!tn_dis_hdr(d, c, RADIOTAP_HDR_LEN, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
        return;
    tn_cur_skip(c, 2);
    uint16_t len = tn_cur_le16(c);
    if (len < 4) {
        tn_dis_flag(d, TN_ANOM_LINK_TRUNCATED, TN_DIS_MALFORMED);
        return;
    }
    if (!tn_dis_hdr(d, c, (size_t)len - 4, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
        return;
    tn_cur_skip(c, (size_t)len - 4);
    dis_wlan(d, c);
}

/*  PPP in HDLC-like framing (RFC 1662 §3.1): address 0xff and control 0x03, which LINKTYPE_PPP
 *  may leave out (address/control field compression), then the protocol in 2 bytes or, with
 *  protocol field compression (RFC 1661 §6.5), 1 byte with its low bit set. */
static void dis_ppp(struct tn_dis *d, struct tn_cursor *c)
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
    if (proto == PPP_IP4)
        tn_dis_ip(d, c, 4);
    else if (proto == PPP_IP6)
        tn_dis_ip(d, c, 6);
}

/*  Linux NFLOG: a 4-byte header, then TLVs of length (host order, little-endian on the
 *  machines that write them, including the 4-byte TLV header) and type, each padded to 4
 *  bytes; type 9 holds the packet from its IP header on. */
static void dis_nflog(struct tn_dis *d, struct tn_cursor *c)
{
    if (!tn_dis_hdr(d, c, NFLOG_HDR_LEN, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
        return;
    uint8_t family = tn_cur_u8(c);
    tn_cur_skip(c, 3);
    for (unsigned n = 0; n < 64; n++) {
        if (!tn_dis_hdr(d, c, 4, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
            return;
        uint16_t len = tn_cur_le16(c), type = tn_cur_le16(c) & 0x7fff;
        if (len < 4) {
            tn_dis_flag(d, TN_ANOM_LINK_TRUNCATED, TN_DIS_MALFORMED);
            return;
        }
        size_t body = (size_t)len - 4;
        if (type == NFULA_PAYLOAD) {
            struct tn_cursor pl;
            tn_dis_push(d, c, body, &pl);
            if (family == NF_AF_INET)
                tn_dis_ip(d, &pl, 4);
            else if (family == NF_AF_INET6)
                tn_dis_ip(d, &pl, 6);
            return;
        }
        size_t padded = (body + 3) & ~(size_t)3;
        if (!tn_dis_hdr(d, c, padded, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
            return;
        tn_cur_skip(c, padded);
    }
}

/*  PPI: version 0, flags, header length and the link type of what follows (both
 *  little-endian); the header's own fields (802.11 radio data and the like) are skipped. */
static void dis_ppi(struct tn_dis *d, struct tn_cursor *c)
{
    if (!tn_dis_hdr(d, c, PPI_HDR_LEN, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
        return;
    tn_cur_skip(c, 2);
    uint16_t len = tn_cur_le16(c);
    uint32_t inner = tn_cur_le32(c);
    if (len < PPI_HDR_LEN) {
        tn_dis_flag(d, TN_ANOM_LINK_TRUNCATED, TN_DIS_MALFORMED);
        return;
    }
    if (!tn_dis_hdr(d, c, (size_t)len - PPI_HDR_LEN, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
        return;
    tn_cur_skip(c, (size_t)len - PPI_HDR_LEN);
    /* one level only: a PPI inside PPI is not a thing */
    if (inner == TN_LINK_PPI || inner > 0xffff || !tn_dissect_link_supported((int)inner)) {
        tn_dis_flag(d, TN_ANOM_LINK_UNKNOWN, TN_DIS_OK);
        return;
    }
    tn_dis_link(d, c, (int)inner);
}

void tn_dis_link_more(struct tn_dis *d, struct tn_cursor *c, int linktype)
{
    switch (linktype) {
    case TN_LINK_PPP:
    case TN_LINK_PPP_HDLC:
        dis_ppp(d, c);
        break;
    case TN_LINK_C_HDLC:   /* address, control, then an EtherType */
        if (tn_dis_hdr(d, c, 4, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED)) {
            tn_cur_skip(c, 2);
            tn_dis_ethertype(d, c, tn_cur_be16(c), false);
        }
        break;
    case TN_LINK_FDDI:     /* 802.2 LLC/SNAP follows the MAC header, as after an 802.3 length */
        if (tn_dis_hdr(d, c, FDDI_HDR_LEN, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED)) {
            tn_cur_skip(c, FDDI_HDR_LEN);
            tn_dis_ethertype(d, c, 0, true);
        }
        break;
    case TN_LINK_NFLOG:
        dis_nflog(d, c);
        break;
    case TN_LINK_PPI:
        dis_ppi(d, c);
        break;
    case TN_LINK_IEEE802_11:
        dis_wlan(d, c);
        break;
    case TN_LINK_RADIOTAP:
        dis_radiotap(d, c);
        break;
    default:
        break;
    }
}
