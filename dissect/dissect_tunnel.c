/* dissect_tunnel.c - UDP (RFC 768) and what rides in it here (DFCP, VXLAN, GTP-U), and GRE.
 * References: RFC 7348 (VXLAN), 3GPP TS 29.281 section 5 (GTP-U header), RFC 2784 + RFC 2890
 * (GRE with key and sequence number), draft-foschiano-erspan (ERSPAN types I-III).
 * The innermost packet is what gets reported; tn_pkt.tunnels says what it was found inside.
 */
#include "dissect_int.h"

#define UDP_HDR_LEN 8
#define VXLAN_HDR_LEN 8
#define GTPU_HDR_LEN 8
#define GTPU_OPT_LEN 4       /* sequence number, N-PDU number, next extension header type */
#define ERSPAN2_HDR_LEN 8
#define ERSPAN3_HDR_LEN 12
#define ERSPAN3_SUBHDR_LEN 8

enum {
    VXLAN_PORT = 4789,
    GTPU_PORT = 2152,
    GTPU_FLAG_PT = 0x10,
    GTPU_FLAG_E = 0x04,
    GTPU_FLAGS_OPT = 0x07,   /* E, S, PN: any of them adds the 4 optional bytes */
    GTPU_T_GPDU = 0xff,

    GRE_C = 0x8000,
    GRE_R = 0x4000,
    GRE_K = 0x2000,
    GRE_S = 0x1000,
    GRE_VER = 0x0007,
};

/*  0       1       2       3       4       5       6       7
 * +-------+-------+-------+-------+-------+-------+-------+-------+
 * |R|R|R|R|I|R|R|R|        Reserved       |     VNI (24 bits)     | Reserved
 * +-------+-------+-------+-------+-------+-------+-------+-------+
 * then an Ethernet frame. */
static void dis_vxlan(struct tn_dis *d, struct tn_cursor *c)
{
    if (!tn_dis_hdr(d, c, VXLAN_HDR_LEN, TN_ANOM_TUNNEL_TRUNCATED, TN_ANOM_TUNNEL_MALFORMED))
        return;
    tn_dis_lay(d, c, TN_LAY_HDR, VXLAN_HDR_LEN, VXLAN_HDR_LEN, TN_LAY_NONE);
    tn_cur_skip(c, VXLAN_HDR_LEN);
    if (tn_dis_tunnel(d, TN_TUN_VXLAN))
        tn_dis_ether(d, c);
}

/* GTP-U v1 (TS 29.281 5.1):
 * | ver(3) PT(1) *(1) E(1) S(1) PN(1) | message type | length (after the first 8 bytes) |
 * | TEID (32)                                                                            |
 * [ sequence (16) | N-PDU (8) | next extension type (8) ]   when any of E, S, PN
 * [ extension: length in 4-byte units (8) | content | next type (8) ] ...  while next != 0
 * G-PDUs (type 0xff) carry a user IP packet. */
static void dis_gtpu(struct tn_dis *d, struct tn_cursor *c)
{
    if (!tn_dis_hdr(d, c, GTPU_HDR_LEN, TN_ANOM_TUNNEL_TRUNCATED, TN_ANOM_TUNNEL_MALFORMED))
        return;
    size_t wire = tn_dis_wire_left(d, c) - GTPU_HDR_LEN;
    uint8_t flags = tn_cur_u8(c);
    uint8_t type = tn_cur_u8(c);
    size_t len = tn_cur_be16(c);
    tn_cur_skip(c, 4);  /* TEID */
    if (flags >> 5 != 1 || !(flags & GTPU_FLAG_PT))
        return;         /* GTP' or another protocol on the port: not ours */
    if (len > wire) {
        tn_dis_flag(d, TN_ANOM_TUNNEL_MALFORMED, TN_DIS_MALFORMED);
        return;
    }
    struct tn_cursor pl;
    tn_dis_push(d, c, len, &pl);
    if (flags & GTPU_FLAGS_OPT) {
        if (!tn_dis_hdr(d, &pl, GTPU_OPT_LEN, TN_ANOM_TUNNEL_TRUNCATED, TN_ANOM_TUNNEL_MALFORMED))
            return;
        tn_cur_skip(&pl, 3);
        uint8_t next = tn_cur_u8(&pl);
        if (!(flags & GTPU_FLAG_E))
            next = 0;   /* present but not to be interpreted (TS 29.281 5.1) */
        for (unsigned n = 0; next != 0; n++) {
            if (n >= TN_DIS_MAX_GTP_EXT) {
                tn_dis_flag(d, TN_ANOM_TUNNEL_MALFORMED, TN_DIS_MALFORMED);
                return;
            }
            if (!tn_dis_hdr(d, &pl, 1, TN_ANOM_TUNNEL_TRUNCATED, TN_ANOM_TUNNEL_MALFORMED))
                return;
            size_t elen = (size_t)tn_dis_peek8(&pl) * 4;
            if (elen == 0) {
                tn_dis_flag(d, TN_ANOM_TUNNEL_MALFORMED, TN_DIS_MALFORMED);
                return;
            }
            if (!tn_dis_hdr(d, &pl, elen, TN_ANOM_TUNNEL_TRUNCATED, TN_ANOM_TUNNEL_MALFORMED))
                return;
            tn_cur_skip(&pl, elen - 1);
            next = tn_cur_u8(&pl);
        }
    }
    if (type != GTPU_T_GPDU)
        return;         /* echo, error indication, end marker: no user packet */
    if (tn_dis_tunnel(d, TN_TUN_GTPU))
        tn_dis_ip_any(d, &pl, TN_ANOM_TUNNEL_TRUNCATED, false);
}

void tn_dis_udp(struct tn_dis *d, struct tn_cursor *c)
{
    struct tn_pkt *p = d->p;
    if (!tn_dis_hdr(d, c, UDP_HDR_LEN, TN_ANOM_UDP_TRUNCATED, TN_ANOM_UDP_LEN))
        return;
    size_t wire = tn_dis_wire_left(d, c);
    struct tn_cursor hdr = *c;
    uint16_t sport = tn_cur_be16(c);
    uint16_t dport = tn_cur_be16(c);
    size_t len = tn_cur_be16(c);
    tn_cur_skip(c, 2);  /* checksum */
    p->sport = sport;
    p->dport = dport;
    if (len == 0) {
        len = wire;     /* IPv6 jumbogram (RFC 2675 section 4): use the IP length */
    } else if (len < UDP_HDR_LEN || len > wire) {
        tn_dis_flag(d, TN_ANOM_UDP_LEN, TN_DIS_MALFORMED);
        return;
    }
    d->lay_l4 = tn_dis_lay(d, &hdr, TN_LAY_UDP, UDP_HDR_LEN, len, d->lay_ip);
    struct tn_cursor pl;
    tn_dis_push(d, c, len - UDP_HDR_LEN, &pl);
    if (sport == d->cfg->dfcp_udp_port || dport == d->cfg->dfcp_udp_port)
        tn_dis_dfcp(d, &pl, true);
    else if (dport == VXLAN_PORT)
        dis_vxlan(d, &pl);
    else if (dport == GTPU_PORT)
        dis_gtpu(d, &pl);
    else
        tn_dis_lay_payload(d);
}

/* ERSPAN inside GRE.  Type I has no header (and GRE without S); type II an 8-byte header; type
 * III a 12-byte header plus an 8-byte platform subheader when its O bit is set. */
static void dis_erspan(struct tn_dis *d, struct tn_cursor *c, uint16_t proto, bool gre_seq)
{
    if (proto == TN_ETH_ERSPAN_2 && gre_seq) {
        if (!tn_dis_hdr(d, c, ERSPAN2_HDR_LEN, TN_ANOM_TUNNEL_TRUNCATED, TN_ANOM_TUNNEL_MALFORMED))
            return;
        tn_cur_skip(c, ERSPAN2_HDR_LEN);
    } else if (proto == TN_ETH_ERSPAN_3) {
        if (!tn_dis_hdr(d, c, ERSPAN3_HDR_LEN, TN_ANOM_TUNNEL_TRUNCATED, TN_ANOM_TUNNEL_MALFORMED))
            return;
        tn_cur_skip(c, ERSPAN3_HDR_LEN - 1);
        if (tn_cur_u8(c) & 0x01) {
            if (!tn_dis_hdr(d, c, ERSPAN3_SUBHDR_LEN, TN_ANOM_TUNNEL_TRUNCATED,
                            TN_ANOM_TUNNEL_MALFORMED))
                return;
            tn_cur_skip(c, ERSPAN3_SUBHDR_LEN);
        }
    }
    d->p->tunnels |= TN_TUN_ERSPAN;
    tn_dis_ether(d, c);
}

/* GRE (RFC 2784, RFC 2890):
 * |C|R|K|S|s|Recur|  Flags  | Ver |        Protocol Type          |
 * [ checksum | reserved1 ]  [ key ]  [ sequence number ]   when C, K, S
 * The protocol type is an EtherType. */
void tn_dis_gre(struct tn_dis *d, struct tn_cursor *c)
{
    if (!tn_dis_hdr(d, c, 4, TN_ANOM_TUNNEL_TRUNCATED, TN_ANOM_TUNNEL_MALFORMED))
        return;
    uint16_t fv = tn_cur_be16(c);
    uint16_t proto = tn_cur_be16(c);
    if ((fv & GRE_VER) != 0 || (fv & GRE_R)) {
        /* Version 1 is PPTP's enhanced GRE; R is RFC 1701 source routing (deprecated). */
        tn_dis_flag(d, TN_ANOM_GRE_VERSION, TN_DIS_OK);
        return;
    }
    size_t opt = 4 * ((size_t)!!(fv & GRE_C) + !!(fv & GRE_K) + !!(fv & GRE_S));
    if (!tn_dis_hdr(d, c, opt, TN_ANOM_TUNNEL_TRUNCATED, TN_ANOM_TUNNEL_MALFORMED))
        return;
    /* The optional checksum covers the tunnelled packet, which the rewriter changes: zeroed. */
    if (fv & GRE_C)
        tn_dis_lay(d, c, TN_LAY_CSUM0, 2, 2, TN_LAY_NONE);
    else
        tn_dis_lay(d, c, TN_LAY_HDR, opt, opt, TN_LAY_NONE);
    tn_cur_skip(c, opt);
    if (!tn_dis_tunnel(d, TN_TUN_GRE))
        return;
    if (proto == TN_ETH_TEB)
        tn_dis_ether(d, c);
    else if (proto == TN_ETH_ERSPAN_2 || proto == TN_ETH_ERSPAN_3)
        dis_erspan(d, c, proto, (fv & GRE_S) != 0);
    else
        tn_dis_ethertype(d, c, proto, false);
}
