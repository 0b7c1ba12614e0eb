/* dissect_link_80211.c - wireless LAN captures: IEEE 802.11 (LINKTYPE_IEEE802_11 105), its
 * radiotap wrapper (LINKTYPE_IEEE802_11_RADIOTAP 127) and PPI (LINKTYPE_PPI 192), whose header
 * (802.11 radio data and the like) names the link type that follows.
 * References: IEEE 802.11-2020 section 9.2.4 (MAC header of data frames); radiotap.org (header);
 * the PPI specification 1.0 (header); tcpdump.org/linktypes.html.
 */
#include "dissect_int.h"

enum {
    PPI_HDR_LEN = 8,           /* version, flags, length (LE), link type (LE) */
    WLAN_HDR_LEN = 24,         /* frame control, duration, 3 addresses, sequence control */
    WLAN_ADDR4_LEN = 6,        /* the fourth address, between access points */
    WLAN_QOS_LEN = 2,
    WLAN_HT_LEN = 4,
    WLAN_TYPE_DATA = 2,
    WLAN_SUBTYPE_NODATA = 0x4, /* null data and QoS null: no frame body */
    WLAN_SUBTYPE_QOS = 0x8,
    WLAN_TO_DS = 0x01,
    WLAN_FROM_DS = 0x02,
    WLAN_PROTECTED = 0x40,
    WLAN_ORDER = 0x80,
    RADIOTAP_HDR_LEN = 8,      /* version, pad, length (LE), present bitmap */
};

/*  An 802.11 data frame: its MAC header (a fourth address between access points, QoS control
 *  on QoS data, HT control when QoS frames set the order bit), then 802.2 LLC/SNAP.  Other
 *  frames, null data and encrypted payloads carry nothing we can read: kind OTHER. */
void tn_dis_wlan(struct tn_dis *d, struct tn_cursor *c)
{
    if (!tn_dis_hdr(d, c, WLAN_HDR_LEN, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
        return;
    uint16_t fc = tn_cur_le16(c);
    unsigned type = (fc >> 2) & 3, subtype = (fc >> 4) & 0xf, flags = fc >> 8;
    if (type != WLAN_TYPE_DATA || (subtype & WLAN_SUBTYPE_NODATA) || (flags & WLAN_PROTECTED))
        return;
    bool qos = subtype & WLAN_SUBTYPE_QOS;
    bool wds = (flags & WLAN_TO_DS) && (flags & WLAN_FROM_DS);
    size_t more = 0;
    if (wds)
        more += WLAN_ADDR4_LEN;
    if (qos)
        more += WLAN_QOS_LEN;
    if (qos && (flags & WLAN_ORDER))
        more += WLAN_HT_LEN;
    tn_cur_skip(c, 2);   /* duration */
    tn_dis_lay(d, c, TN_LAY_LINKADDR, 18, 18, TN_LAY_NONE);   /* addresses 1-3 */
    tn_cur_skip(c, WLAN_HDR_LEN - 4);
    if (!tn_dis_hdr(d, c, more, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
        return;
    if (wds)
        tn_dis_lay(d, c, TN_LAY_LINKADDR, WLAN_ADDR4_LEN, WLAN_ADDR4_LEN, TN_LAY_NONE);
    tn_cur_skip(c, more);
    tn_dis_ethertype(d, c, 0, true);
}

/*  Radiotap: version 0, padding, the header's length (little-endian); its fields are skipped. */
void tn_dis_radiotap(struct tn_dis *d, struct tn_cursor *c)
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
    tn_dis_wlan(d, c);
}

/*  PPI: version 0, flags, header length and the link type of what follows (both
 *  little-endian); the header's own fields (802.11 radio data and the like) are skipped. */
void tn_dis_ppi(struct tn_dis *d, struct tn_cursor *c)
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
    if (inner == TN_LINK_PPI || inner > 0xffff || !tn_dis_link(d, c, (int)inner))
        tn_dis_flag(d, TN_ANOM_LINK_UNKNOWN, TN_DIS_OK);
}
