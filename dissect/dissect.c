/* dissect.c - the entry point of the dissect layer: one frame -> one normalized packet record.
 * The link table (dissect_link.c) picks the first dissector; each layer hands what it carries to
 * the next through its own table (EtherTypes in dissect_link_ether.c, IP protocols in
 * dissect_ip.c).
 */
#include <string.h>

#include "dissect_int.h"

void tn_dissect_cfg_default(struct tn_dissect_cfg *cfg)
{
    cfg->dfcp_ipproto = TN_DFCP_DEFAULT_IPPROTO;
    cfg->dfcp_udp_port = TN_DFCP_DEFAULT_UDP_PORT;
}

int tn_dissect(const struct tn_dissect_cfg *cfg, int linktype, const uint8_t *data, uint32_t caplen,
               uint32_t wirelen, struct tn_time ts, uint64_t num, struct tn_pkt *out)
{
    return tn_dissect_layout(cfg, linktype, data, caplen, wirelen, ts, num, out, NULL);
}

int tn_dissect_layout(const struct tn_dissect_cfg *cfg, int linktype, const uint8_t *data,
                      uint32_t caplen, uint32_t wirelen, struct tn_time ts, uint64_t num,
                      struct tn_pkt *out, struct tn_layout *lay)
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
        .lay = lay,
        .lay_ip = TN_LAY_NONE,
        .lay_l4 = TN_LAY_NONE,
    };
    if (lay) {
        lay->n = 0;
        lay->full = false;
        lay->payload_ok = false;
        lay->hdr_end = 0;
    }
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
    bool known = tn_dis_link(&d, &c, linktype);
    TN_BUG_ON(!known);   /* tn_dissect_link_supported said it has a row */
    TN_BUG_ON(d.status < TN_DIS_OK || d.status > TN_DIS_MALFORMED);
    return d.status;
}
