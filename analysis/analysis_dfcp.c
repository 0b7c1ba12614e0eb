/* analysis_dfcp.c - per-direction DFCP counters (dfcp-wire-format.md "Exchange"). */
#include "analysis_int.h"
#include "seq.h"

void tn_dfcp_conn_pkt(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                      const struct tn_pkt *p)
{
    struct tn_conn *c = &cp->pub;
    struct tn_dir_stats *ds = &c->d[d];
    struct tn_dir_priv *dp = &cp->dp[d];
    const struct tn_dfcp *h = &p->dfcp;

    ds->dfcp_type_pkts[h->type & 0x0f]++;
    switch (h->type) {
    case TN_DFCP_T_SYN:
        ds->syn++;
        c->handshake_seen = true;
        break;
    case TN_DFCP_T_SYNACK:
        ds->syn++;
        c->synack_seen = true;
        break;
    case TN_DFCP_T_FIN:
        ds->fin++;
        break;
    case TN_DFCP_T_FINACK:
        ds->fin++;
        c->closed = true;
        break;
    case TN_DFCP_T_RST:
        ds->rst++;
        c->reset = true;
        break;
    case TN_DFCP_T_DATA:
        ds->data_pkts++;
        ds->data_bytes += p->payload_len;
        if (p->payload_len < ds->seg_min)
            ds->seg_min = p->payload_len;
        if (p->payload_len > ds->seg_max)
            ds->seg_max = p->payload_len;
        if (!dp->dfcp_block_set || tn_seq_gt(h->block, ds->dfcp_hi_block)) {
            ds->dfcp_blocks++;
            ds->dfcp_hi_block = h->block;
            dp->dfcp_block_set = true;
        }
        break;
    default:
        break;
    }
    if (h->type == TN_DFCP_T_SYN || h->type == TN_DFCP_T_SYNACK || h->type == TN_DFCP_T_DATA) {
        ds->dfcp_n = h->n;
        ds->dfcp_window = h->window;
        ds->dfcp_k = h->k;
        ds->dfcp_flags = h->flags;
    }
}

void tn_dfcp_conn_finish(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp)
{
    (void)ctx;
    (void)cp;
}
