/* dissect_int.h - private state and helpers shared by the files of dissect/.
 *
 * Two limits bound every header read (style.md section 5):
 *  - the capture: a cursor's end (one past the last captured byte of the current PDU);
 *  - the wire: wire_end, the offset one past the last byte the enclosing lengths (frame wire
 *    length, IP total/payload length, UDP length, GTP length) say the current PDU has.
 * A header that fits the wire but not the capture is TRUNCATED; one that does not even fit the
 * wire is MALFORMED.  An IP length beyond the frame's wire length is believed (offload captures:
 * the rest counts as not captured), one beyond an enclosing header's length is not (the
 * enclosing length wins; the difference is padding).  Only the wire limit is used for consistency checks, so a snap length never
 * turns into a "malformed" verdict.
 */
#ifndef TN_DISSECT_INT_H
#define TN_DISSECT_INT_H

#include "cursor.h"
#include "dissect.h"

#define TN_DIS_MAX_TUNNELS 4   /* nested tunnels followed; the next one is tunnel.depth */
#define TN_DIS_MAX_TAGS 8      /* VLAN tags (and, separately, MPLS labels) per link header */
#define TN_DIS_MAX_IP6_EXT 16  /* IPv6 extension headers walked */
#define TN_DIS_MAX_GTP_EXT 16  /* GTP-U extension headers walked */

/* EtherTypes and IP protocol numbers used by more than one file. */
enum {
    TN_ETH_IPV4 = 0x0800,
    TN_ETH_IPV6 = 0x86dd,
    TN_ETH_ARP = 0x0806,
    TN_ETH_RARP = 0x8035,
    TN_ETH_VLAN = 0x8100,
    TN_ETH_QINQ = 0x88a8,
    TN_ETH_QINQ_OLD = 0x9100,
    TN_ETH_MPLS_UC = 0x8847,
    TN_ETH_MPLS_MC = 0x8848,
    TN_ETH_PPPOE_SESS = 0x8864,
    TN_ETH_TEB = 0x6558,        /* transparent Ethernet bridging (GRE) */
    TN_ETH_ERSPAN_2 = 0x88be,   /* ERSPAN type I/II (GRE protocol type) */
    TN_ETH_ERSPAN_3 = 0x22eb,
    TN_ETH_MAX_LEN = 1500,      /* type field <= this is an 802.3 length */
};

enum {
    TN_IPP_ICMP = 1,
    TN_IPP_IPV4 = 4,
    TN_IPP_TCP = 6,
    TN_IPP_UDP = 17,
    TN_IPP_IPV6 = 41,
    TN_IPP_GRE = 47,
    TN_IPP_ICMP6 = 58,
};

/* One dissection in progress.  Lives on tn_dissect's stack. */
struct tn_dis {
    const struct tn_dissect_cfg *cfg;
    struct tn_pkt *p;
    const uint8_t *base;   /* first byte of the frame */
    size_t wire_end;       /* offset one past the current PDU's last byte on the wire */
    bool wire_from_hdr;    /* wire_end comes from an enclosing header's length (PPPoE, IP, UDP,
                            * GTP-U), not from the frame's wire length */
    int status;            /* worst enum tn_dis_status so far */
    unsigned tunnels;      /* tunnels entered */
    struct tn_layout *lay; /* NULL unless tn_dissect_layout was asked for the headers */
    uint8_t lay_ip;        /* the layout's item of the innermost IP header so far */
    uint8_t lay_l4;        /* and of the innermost transport header */
};

/* Record a header of len captured bytes at c's position in the layout (when one is wanted).
 * Returns its index, TN_LAY_NONE when not recorded.  A header is never payload: every record
 * clears payload_ok until the innermost protocol says what follows it is data. */
static inline uint8_t tn_dis_lay(struct tn_dis *d, const struct tn_cursor *c, enum tn_lay_kind kind,
                                 size_t len, size_t wire, uint8_t up)
{
    struct tn_layout *l = d->lay;
    if (!l)
        return TN_LAY_NONE;
    if (l->n >= TN_LAY_MAX) {
        l->full = true;
        return TN_LAY_NONE;
    }
    uint32_t off = (uint32_t)(c->pos - d->base);
    l->it[l->n] = (struct tn_lay_item){.kind = (uint8_t)kind, .up = up, .off = off,
                                       .len = (uint32_t)len, .wire = (uint32_t)wire};
    if (off + len > l->hdr_end)
        l->hdr_end = (uint32_t)(off + len);
    l->payload_ok = false;
    return (uint8_t)l->n++;
}

/* What follows the innermost header recorded is data (TCP, DFCP, UDP, ICMP echo ...). */
static inline void tn_dis_lay_payload(struct tn_dis *d)
{
    if (d->lay)
        d->lay->payload_ok = true;
}

/* Record an anomaly and raise the status to at least st. */
static inline void tn_dis_flag(struct tn_dis *d, enum tn_anom_kind k, int st)
{
    TN_BUG_ON((unsigned)k >= TN_ANOM_COUNT);
    tn_anom(&d->p->anoms, k);
    if (st > d->status)
        d->status = st;
}

/* Wire bytes of the current PDU from c's position on. */
static inline size_t tn_dis_wire_left(const struct tn_dis *d, const struct tn_cursor *c)
{
    size_t off = (size_t)(c->pos - d->base);
    return d->wire_end > off ? d->wire_end - off : 0;
}

/* A header of n bytes starts at c: true when all n are captured.  Otherwise flags mal
 * (MALFORMED) when the PDU is shorter than n even on the wire, else trunc (TRUNCATED). */
static inline bool tn_dis_hdr(struct tn_dis *d, const struct tn_cursor *c, size_t n,
                              enum tn_anom_kind trunc, enum tn_anom_kind mal)
{
    if (n > tn_dis_wire_left(d, c)) {
        tn_dis_flag(d, mal, TN_DIS_MALFORMED);
        return false;
    }
    if (n > tn_cur_left(c)) {
        tn_dis_flag(d, trunc, TN_DIS_TRUNCATED);
        return false;
    }
    return true;
}

/* The PDU at c is len bytes on the wire (len already checked against the wire): sub covers its
 * captured part, c moves past it, and the wire limit shrinks to it. */
static inline void tn_dis_push(struct tn_dis *d, struct tn_cursor *c, size_t len,
                               struct tn_cursor *sub)
{
    d->wire_end = (size_t)(c->pos - d->base) + len;
    d->wire_from_hdr = true;
    (void)tn_cur_sub(c, len, sub);  /* false = payload cut by the snap length: normal */
}

/* Peek the next byte without consuming it (caller has checked it is there). */
static inline uint8_t tn_dis_peek8(const struct tn_cursor *c)
{
    struct tn_cursor t = *c;
    return tn_cur_u8(&t);
}

/* Enter one more tunnel level; false (and tunnel.depth) past TN_DIS_MAX_TUNNELS.  Ports of the
 * outer transport are cleared so that an inner non-TCP packet does not show them. */
static inline bool tn_dis_tunnel(struct tn_dis *d, uint8_t bit)
{
    if (d->tunnels >= TN_DIS_MAX_TUNNELS) {
        tn_dis_flag(d, TN_ANOM_TUNNEL_DEPTH, TN_DIS_OK);
        return false;
    }
    d->tunnels++;
    d->p->tunnels |= bit;
    d->p->sport = 0;
    d->p->dport = 0;
    return true;
}

/* A dissector of one layer: reads its header at c and hands what it carries on. */
typedef void tn_dis_fn(struct tn_dis *d, struct tn_cursor *c);

/* dissect_link.c: the link table (one row per LINKTYPE_); the link layer named by linktype, then
 * what it carries (false when the table has no row for it). */
bool tn_dis_link(struct tn_dis *d, struct tn_cursor *c, int linktype);

/* Link-layer leaves, one file each (rows of the link table). */
tn_dis_fn tn_dis_ether;        /* dissect_link_ether.c: Ethernet */
tn_dis_fn tn_dis_fddi;         /* dissect_link_ether.c: FDDI with 802.2 LLC/SNAP */
tn_dis_fn tn_dis_ppp;          /* dissect_link_ppp.c: PPP, PPP in HDLC framing */
tn_dis_fn tn_dis_chdlc;        /* dissect_link_ppp.c: Cisco HDLC */
tn_dis_fn tn_dis_pppoe;        /* dissect_link_ppp.c: PPPoE session stage (an EtherType) */
tn_dis_fn tn_dis_nflog;        /* dissect_link_nflog.c */
tn_dis_fn tn_dis_wlan;         /* dissect_link_80211.c: 802.11 */
tn_dis_fn tn_dis_radiotap;     /* dissect_link_80211.c: radiotap, then 802.11 */
tn_dis_fn tn_dis_ppi;          /* dissect_link_80211.c: PPI, then the link type it names */
tn_dis_fn tn_dis_arcnet;       /* dissect_link_arcnet.c: ARCNET (Linux) */

/* dissect_link_ether.c: follow an EtherType (the EtherType table) through VLAN tags to the
 * network layer.  llc_ok: a value <= 1500 is an 802.3 length followed by LLC (true on Ethernet;
 * Linux cooked uses small values otherwise). */
void tn_dis_ethertype(struct tn_dis *d, struct tn_cursor *c, uint16_t type, bool llc_ok);

/* dissect_ip.c: ver 4 or 6 = what the enclosing header announced (mismatch: ip.version); ver 0 =
 * pick by the first nibble, anomaly kind trunc when even that byte is missing, and strict decides
 * whether a nibble other than 4/6 is ip.version (raw link) or just not IP (MPLS, GTP-U). */
void tn_dis_ip(struct tn_dis *d, struct tn_cursor *c, unsigned ver);
void tn_dis_ip_any(struct tn_dis *d, struct tn_cursor *c, enum tn_anom_kind trunc, bool strict);
tn_dis_fn tn_dis_ip4;          /* = tn_dis_ip(d, c, 4) */
tn_dis_fn tn_dis_ip6;          /* = tn_dis_ip(d, c, 6) */
/* The IP-protocol table (dissect_ip.c): the user's DFCP number first, then TCP, UDP, GRE, IP in
 * IP; anything else is kind OTHER. */
void tn_dis_transport(struct tn_dis *d, struct tn_cursor *c, uint8_t proto);

/* dissect_tunnel.c */
tn_dis_fn tn_dis_udp;
tn_dis_fn tn_dis_gre;

/* dissect_layout.c: headers only the layout needs (ARP, ICMP and what it quotes) */
tn_dis_fn tn_dis_arp;
tn_dis_fn tn_dis_icmp4;
tn_dis_fn tn_dis_icmp6;

/* dissect_tcp.c, dissect_dfcp.c */
tn_dis_fn tn_dis_tcp;
void tn_dis_dfcp(struct tn_dis *d, struct tn_cursor *c, bool over_udp);

#endif
