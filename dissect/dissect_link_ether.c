/* dissect_link_ether.c - IEEE 802 LANs: Ethernet and FDDI, the EtherType table (802.1Q/802.1ad
 * tag stacks, MPLS, PPPoE, IPv4, IPv6) and 802.2 LLC/SNAP.
 * References: IEEE 802.3 / 802.1Q; RFC 1042 (SNAP with OUI 0 carries an EtherType); RFC 3032
 * (MPLS label stack entry); tcpdump.org/linktypes.html (LINKTYPE_FDDI: frame control,
 * destination, source, then 802.2 LLC).
 */
#include "dissect_int.h"

#define ETH_HDR_LEN 14
#define FDDI_HDR_LEN 13    /* frame control, destination, source */
#define VLAN_TAG_LEN 4     /* PCP, DEI, VLAN id, then the next EtherType */
#define MPLS_LSE_LEN 4

enum {
    LLC_SNAP_SAP = 0xaa,
    LLC_UI = 0x03,
    MPLS_BOS = 0x100,      /* S bit of a label stack entry: bottom of stack */
};

/* MPLS label stack (RFC 3032 section 2.1): 20-bit label, 3-bit TC, S (bottom of stack), TTL.
 * No protocol field follows: like every router, guess IPv4/IPv6 by the first nibble. */
static void dis_mpls(struct tn_dis *d, struct tn_cursor *c)
{
    for (unsigned n = 1;; n++) {
        if (n > TN_DIS_MAX_TAGS) {
            tn_dis_flag(d, TN_ANOM_VLAN_DEPTH, TN_DIS_OK);
            return;
        }
        if (!tn_dis_hdr(d, c, MPLS_LSE_LEN, TN_ANOM_MPLS_TRUNCATED, TN_ANOM_MPLS_TRUNCATED))
            return;
        uint32_t lse = tn_cur_be32(c);
        d->p->mpls_depth++;
        if (lse & MPLS_BOS)
            break;
    }
    tn_dis_ip_any(d, c, TN_ANOM_MPLS_TRUNCATED, false);
}

/* The EtherType table.  A row without a dissector is a VLAN tag: the next EtherType follows it,
 * and tn_dis_ethertype walks the stack up to TN_DIS_MAX_TAGS deep. */
static const struct ethertype {
    uint16_t type;
    tn_dis_fn *dissect;    /* NULL: an 802.1Q/802.1ad tag */
} ethertypes[] = {
    {TN_ETH_IPV4, tn_dis_ip4},
    {TN_ETH_IPV6, tn_dis_ip6},
    {TN_ETH_VLAN, NULL},          /* 802.1Q */
    {TN_ETH_QINQ, NULL},          /* 802.1ad */
    {TN_ETH_QINQ_OLD, NULL},      /* Q-in-Q before 802.1ad */
    {TN_ETH_MPLS_UC, dis_mpls},
    {TN_ETH_MPLS_MC, dis_mpls},
    {TN_ETH_PPPOE_SESS, tn_dis_pppoe},
    {TN_ETH_ARP, tn_dis_arp},           /* kind OTHER: only a layout wants it */
    {TN_ETH_RARP, tn_dis_arp},
};

static const struct ethertype *ethertype_lookup(uint16_t type)
{
    for (size_t i = 0; i < TN_ARRAY_LEN(ethertypes); i++)
        if (ethertypes[i].type == type)
            return &ethertypes[i];
    return NULL;
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

void tn_dis_ethertype(struct tn_dis *d, struct tn_cursor *c, uint16_t type, bool llc_ok)
{
    for (unsigned tags = 0;;) {
        const struct ethertype *et = ethertype_lookup(type);
        if (et && et->dissect) {
            et->dissect(d, c);
            return;
        }
        if (et) {          /* a VLAN tag */
            if (++tags > TN_DIS_MAX_TAGS) {
                tn_dis_flag(d, TN_ANOM_VLAN_DEPTH, TN_DIS_OK);
                return;
            }
            if (!tn_dis_hdr(d, c, VLAN_TAG_LEN, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
                return;
            tn_cur_skip(c, 2);  /* PCP, DEI, VLAN id */
            type = tn_cur_be16(c);
            d->p->vlan_depth++;
            continue;
        }
        if (type <= TN_ETH_MAX_LEN && llc_ok && dis_llc_snap(d, c, &type)) {
            llc_ok = false;
            continue;
        }
        return;  /* ARP, LLDP, 802.3 LLC, ...: kind OTHER, no anomaly */
    }
}

void tn_dis_ether(struct tn_dis *d, struct tn_cursor *c)
{
    if (!tn_dis_hdr(d, c, ETH_HDR_LEN, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
        return;
    tn_dis_lay(d, c, TN_LAY_LINKADDR, 12, 12, TN_LAY_NONE);
    tn_cur_skip(c, 12);  /* destination, source */
    tn_dis_ethertype(d, c, tn_cur_be16(c), true);
}

/* FDDI: 802.2 LLC/SNAP follows the MAC header, as after an 802.3 length. */
void tn_dis_fddi(struct tn_dis *d, struct tn_cursor *c)
{
    if (!tn_dis_hdr(d, c, FDDI_HDR_LEN, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
        return;
    tn_cur_skip(c, 1);   /* frame control */
    tn_dis_lay(d, c, TN_LAY_LINKADDR, 12, 12, TN_LAY_NONE);
    tn_cur_skip(c, FDDI_HDR_LEN - 1);
    tn_dis_ethertype(d, c, 0, true);
}
