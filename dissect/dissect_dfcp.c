/* dissect_dfcp.c - DFCP version 1 header (shared/dfcp-wire-format.md "Header"), native over IP
 * (protocol cfg->dfcp_ipproto) or in UDP (either port cfg->dfcp_udp_port, "Carriage").
 *
 * |    Source Port    | Destination Port  |
 * |Ver|Type|  Flags   | Symbols per Block |
 * |            Block Number               |
 * |   Symbol Index    |  Window (blocks)  |
 * |     Block Source Length (bytes)       |
 */
#include "dissect_int.h"

void tn_dis_dfcp(struct tn_dis *d, struct tn_cursor *c, bool over_udp)
{
    struct tn_pkt *p = d->p;
    struct tn_dfcp *h = &p->dfcp;
    if (!tn_dis_hdr(d, c, TN_DFCP_HDR_LEN, TN_ANOM_DFCP_TRUNCATED, TN_ANOM_DFCP_HDR_GT_IP))
        return;
    size_t wire = tn_dis_wire_left(d, c) - TN_DFCP_HDR_LEN;
    tn_dis_lay(d, c, TN_LAY_HDR, TN_DFCP_HDR_LEN, TN_DFCP_HDR_LEN, TN_LAY_NONE);
    h->hdr_sport = tn_cur_be16(c);
    h->hdr_dport = tn_cur_be16(c);
    uint8_t vt = tn_cur_u8(c);
    h->version = vt >> 4;
    h->type = vt & 0x0f;
    h->flags = tn_cur_u8(c);
    h->n = tn_cur_be16(c);
    h->block = tn_cur_be32(c);
    h->sym_idx = tn_cur_be16(c);
    h->window = tn_cur_be16(c);
    h->k = tn_cur_be32(c);
    h->over_udp = over_udp;
    p->kind = TN_PK_DFCP;
    if (!over_udp) {
        p->sport = h->hdr_sport;
        p->dport = h->hdr_dport;
    }

    if (h->version != 1)
        tn_dis_flag(d, TN_ANOM_DFCP_VERSION, TN_DIS_OK);
    if (h->type > TN_DFCP_T_RST)
        tn_dis_flag(d, TN_ANOM_DFCP_TYPE_RESERVED, TN_DIS_OK);
    if (h->flags & ~TN_DFCP_F_KNOWN)
        tn_dis_flag(d, TN_ANOM_DFCP_FLAGS_RESERVED, TN_DIS_OK);
    if (h->type == TN_DFCP_T_DATA && h->sym_idx >= h->n)
        tn_dis_flag(d, TN_ANOM_DFCP_SYMIDX_RANGE, TN_DIS_OK);
    /* On the wire, not in the capture: a snap length must not hide it.  Reserved types have no
     * known payload rule. */
    if (h->type != TN_DFCP_T_DATA && h->type <= TN_DFCP_T_RST && wire != 0)
        tn_dis_flag(d, TN_ANOM_DFCP_UNEXPECTED_PAYLOAD, TN_DIS_OK);

    p->payload_len = (uint32_t)wire;
    p->payload_caplen = (uint32_t)tn_cur_left(c);
    p->payload = c->pos;
    tn_dis_lay_payload(d);
}
