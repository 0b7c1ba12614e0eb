/* dissect_link.c - the link table: one row per LINKTYPE_ the dissector reads (tcpdump's
 * printers[]), and the small link headers that need no file of their own: Linux cooked v1/v2,
 * raw IP, BSD null/loop.  The others are leaves in dissect_link_<name>.c.
 * References: tcpdump.org/linktypes.html for every LINKTYPE_ below and the LINUX_SLL(2), NULL
 * and LOOP headers.
 */
#include "dissect_int.h"

#define SLL_HDR_LEN 16    /* protocol at offset 14 */
#define SLL2_HDR_LEN 20   /* protocol at offset 0 */
#define NULL_HDR_LEN 4    /* the address family */

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
static void dis_af(struct tn_dis *d, struct tn_cursor *c, bool loop)
{
    if (!tn_dis_hdr(d, c, NULL_HDR_LEN, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
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

static void dis_null(struct tn_dis *d, struct tn_cursor *c)
{
    dis_af(d, c, false);
}

static void dis_loop(struct tn_dis *d, struct tn_cursor *c)
{
    dis_af(d, c, true);
}

static void dis_sll(struct tn_dis *d, struct tn_cursor *c)
{
    if (!tn_dis_hdr(d, c, SLL_HDR_LEN, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
        return;
    tn_cur_skip(c, 6);   /* packet type, ARPHRD, address length */
    tn_dis_lay(d, c, TN_LAY_LINKADDR, 8, 8, TN_LAY_NONE);
    tn_cur_skip(c, 8);   /* address */
    tn_dis_ethertype(d, c, tn_cur_be16(c), false);
}

static void dis_sll2(struct tn_dis *d, struct tn_cursor *c)
{
    if (!tn_dis_hdr(d, c, SLL2_HDR_LEN, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
        return;
    uint16_t proto = tn_cur_be16(c);
    tn_cur_skip(c, 2);   /* reserved */
    d->p->ifindex = tn_cur_be32(c);
    tn_cur_skip(c, 4);   /* ARPHRD, packet type, address length */
    tn_dis_lay(d, c, TN_LAY_LINKADDR, 8, 8, TN_LAY_NONE);
    tn_cur_skip(c, 8);   /* address */
    tn_dis_ethertype(d, c, proto, false);
}

/* Raw IP: no link header; the version nibble says IPv4 or IPv6. */
static void dis_raw(struct tn_dis *d, struct tn_cursor *c)
{
    tn_dis_ip_any(d, c, TN_ANOM_FRAME_EMPTY, true);
}

/* The link table, keyed by LINKTYPE_ (linktype.h); names as in linktypes.html.  Ethernet comes
 * first because almost every trace is Ethernet and the lookup is a scan. */
static const struct link_type {
    struct tn_link_info info;
    tn_dis_fn *dissect;
} link_types[] = {
    {{TN_LINK_ETHERNET, "ETHERNET"}, tn_dis_ether},
    {{TN_LINK_LINUX_SLL, "LINUX_SLL"}, dis_sll},
    {{TN_LINK_LINUX_SLL2, "LINUX_SLL2"}, dis_sll2},
    {{TN_LINK_RAW, "RAW"}, dis_raw},
    {{TN_LINK_RAW_12, "RAW (DLT_RAW 12)"}, dis_raw},
    {{TN_LINK_RAW_14, "RAW (DLT_RAW 14)"}, dis_raw},
    {{TN_LINK_IPV4, "IPV4"}, tn_dis_ip4},
    {{TN_LINK_IPV6, "IPV6"}, tn_dis_ip6},
    {{TN_LINK_NULL, "NULL"}, dis_null},
    {{TN_LINK_LOOP, "LOOP"}, dis_loop},
    {{TN_LINK_PPP, "PPP"}, tn_dis_ppp},
    {{TN_LINK_PPP_HDLC, "PPP_HDLC"}, tn_dis_ppp},
    {{TN_LINK_C_HDLC, "C_HDLC"}, tn_dis_chdlc},
    {{TN_LINK_FDDI, "FDDI"}, tn_dis_fddi},
    {{TN_LINK_NFLOG, "NFLOG"}, tn_dis_nflog},
    {{TN_LINK_PPI, "PPI"}, tn_dis_ppi},
    {{TN_LINK_IEEE802_11, "IEEE802_11"}, tn_dis_wlan},
    {{TN_LINK_RADIOTAP, "IEEE802_11_RADIOTAP"}, tn_dis_radiotap},
    {{TN_LINK_ARCNET_LINUX, "ARCNET_LINUX"}, tn_dis_arcnet},
};

static const struct link_type *link_lookup(int linktype)
{
    for (size_t i = 0; i < TN_ARRAY_LEN(link_types); i++)
        if (link_types[i].info.linktype == linktype)
            return &link_types[i];
    return NULL;
}

const struct tn_link_info *tn_dissect_link_info(size_t i)
{
    return i < TN_ARRAY_LEN(link_types) ? &link_types[i].info : NULL;
}

size_t tn_dissect_link_count(void)
{
    return TN_ARRAY_LEN(link_types);
}

bool tn_dissect_link_supported(int linktype)
{
    return link_lookup(linktype) != NULL;
}

bool tn_dis_link(struct tn_dis *d, struct tn_cursor *c, int linktype)
{
    const struct link_type *lt = link_lookup(linktype);
    if (!lt)
        return false;
    lt->dissect(d, c);
    return true;
}
