/* analysis_dfcp.c - DFCP connection life: per-direction counters, handshake (with retries),
 * parameters of the SYN/SYNACK, states reached, teardown and reset (dfcp-wire-format.md
 * "Exchange").  Blocks are followed in analysis_dfcp_blocks.c. */
#include "analysis_int.h"
#include "seq.h"

const char *tn_dfcp_state_name(enum tn_dfcp_state s)
{
    static const char *const names[TN_DFCP_S_COUNT] = {
        [TN_DFCP_S_SYN_SENT] = "SYN_SENT",       [TN_DFCP_S_SYN_RECV] = "SYN_RECV",
        [TN_DFCP_S_ESTABLISHED] = "ESTABLISHED", [TN_DFCP_S_FIN_WAIT1] = "FIN_WAIT1",
        [TN_DFCP_S_FIN_WAIT2] = "FIN_WAIT2",     [TN_DFCP_S_CLOSE_WAIT] = "CLOSE_WAIT",
        [TN_DFCP_S_LAST_ACK] = "LAST_ACK",       [TN_DFCP_S_TIME_WAIT] = "TIME_WAIT",
        [TN_DFCP_S_CLOSED] = "CLOSED",           [TN_DFCP_S_RESET] = "RESET",
    };
    return (unsigned)s < TN_DFCP_S_COUNT ? names[s] : "?";
}

static void reach(struct tn_dfcp_infer *inf, enum tn_dfcp_state s)
{
    inf->states |= 1u << s;
}

/* SYN -> SYNACK -> ACK as seen here, with the vantage rule of tn_conn_set_handshake: the SYNACK's
 * delay after the SYN is the round trip monitor<->b, the ACK's after the SYNACK monitor<->a. */
static void handshake_rtt(struct tn_conn_priv *cp, int64_t t)
{
    tn_conn_set_handshake(cp, t);
}

static void established(struct tn_conn_priv *cp, int64_t t)
{
    struct tn_dfcp_infer *inf = cp->pub.dfcp;
    if (inf->established_ns)
        return;
    inf->established_ns = t;
    reach(inf, TN_DFCP_S_ESTABLISHED);
}

static void on_syn(struct tn_conn_priv *cp, enum tn_dir d, const struct tn_dfcp *h, int64_t t)
{
    struct tn_conn *c = &cp->pub;
    struct tn_dfcp_infer *inf = c->dfcp;
    c->d[d].syn++;
    c->handshake_seen = true;
    if (inf->syn_seen)
        inf->syn_retries++;
    else
        inf->syn_ns = t;
    inf->syn_seen = true;
    inf->syn_flags = h->flags;
    inf->syn_n = h->n;
    inf->syn_window = h->window;
    inf->syn_k = h->k;
    inf->init_block = h->block;
    reach(inf, TN_DFCP_S_SYN_SENT);
    if (d == TN_A2B)
        cp->hs_syn_ns = t;     /* the latest SYN is the one a SYNACK answers */
}

static void on_synack(struct tn_conn_priv *cp, enum tn_dir d, const struct tn_dfcp *h, int64_t t)
{
    struct tn_conn *c = &cp->pub;
    struct tn_dfcp_infer *inf = c->dfcp;
    c->d[d].syn++;
    c->synack_seen = true;
    if (inf->synack_seen)
        inf->synack_retries++;
    inf->synack_seen = true;
    inf->synack_flags = h->flags;
    inf->synack_n = h->n;
    inf->synack_window = h->window;
    inf->synack_k = h->k;
    if (!inf->syn_seen)
        inf->init_block = h->block;
    reach(inf, TN_DFCP_S_SYN_RECV);
    cp->dfcp->synack_pending = true;
    if (d == TN_B2A)
        cp->hs_synack_ns = t;
}

/* An ACK answers the latest of: a FINACK (-> TIME_WAIT / CLOSED), a FIN (-> CLOSE_WAIT /
 * FIN_WAIT2) or a SYNACK (-> ESTABLISHED). */
static void on_ack(struct tn_conn_priv *cp, enum tn_dir d, int64_t t)
{
    struct tn_dfcp_infer *inf = cp->pub.dfcp;
    struct tn_dfcp_priv *pv = cp->dfcp;
    enum tn_dir o = d == TN_A2B ? TN_B2A : TN_A2B;
    if (pv->finack_seen[o]) {
        reach(inf, TN_DFCP_S_TIME_WAIT);
        reach(inf, TN_DFCP_S_CLOSED);
        if (!inf->closed_ns)
            inf->closed_ns = t;
    } else if (pv->fin_seen[o]) {
        reach(inf, TN_DFCP_S_CLOSE_WAIT);
        reach(inf, TN_DFCP_S_FIN_WAIT2);
    } else if (pv->synack_pending) {
        pv->synack_pending = false;
        established(cp, t);
        if (d == TN_A2B)
            handshake_rtt(cp, t);
    }
}

void tn_dfcp_conn_pkt(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir d,
                      const struct tn_pkt *p)
{
    struct tn_conn *c = &cp->pub;
    struct tn_dir_stats *ds = &c->d[d];
    struct tn_dfcp_infer *inf = c->dfcp;
    struct tn_dfcp_priv *pv = cp->dfcp;
    const struct tn_dfcp *h = &p->dfcp;
    int64_t t = tn_time_ns(p->ts);

    ds->dfcp_type_pkts[h->type & 0x0f]++;
    /* packets.csv: seq = block number, ack = symbol index, flags = type */
    struct tn_pktrec *r = tn_rec_packet(ctx, c);
    if (r) {
        r->t_ns = t;
        r->num = p->num;
        r->seq = h->block;
        r->ack = h->sym_idx;
        r->len = p->payload_len;
        r->win = h->window;
        r->ip_id = p->ip_id;
        r->dir = (uint8_t)d;
        r->flags = h->type;
    }
    /* Tolerance: another version or a reserved type is counted and left alone, since its
     * fields may mean something else (the dissector reported the anomaly). */
    if (h->version != 1 || h->type > TN_DFCP_T_RST) {
        inf->unknown_pkts++;
        return;
    }
    if (h->type != TN_DFCP_T_DATA && p->payload_len)
        inf->ctl_payload_pkts++;   /* garbage after the header: counted, header still used */
    switch (h->type) {
    case TN_DFCP_T_SYN:
        on_syn(cp, d, h, t);
        break;
    case TN_DFCP_T_SYNACK:
        on_synack(cp, d, h, t);
        break;
    case TN_DFCP_T_ACK:
        on_ack(cp, d, t);
        break;
    case TN_DFCP_T_BACK:
        tn_dfcp_back(ctx, cp, d, p);
        break;
    case TN_DFCP_T_FIN:
        ds->fin++;
        if (pv->fin_seen[d])
            inf->fin_retries++;
        pv->fin_seen[d] = true;
        if (!inf->fin_ns)
            inf->fin_ns = t;
        reach(inf, TN_DFCP_S_FIN_WAIT1);
        break;
    case TN_DFCP_T_FINACK:
        ds->fin++;
        if (pv->finack_seen[d])
            inf->finack_retries++;
        pv->finack_seen[d] = true;
        c->closed = true;
        reach(inf, TN_DFCP_S_LAST_ACK);
        break;
    case TN_DFCP_T_RST:
        ds->rst++;
        c->reset = true;
        if (!inf->reset_ns)
            inf->reset_ns = t;
        reach(inf, TN_DFCP_S_RESET);
        break;
    case TN_DFCP_T_DATA:
        ds->data_pkts++;
        ds->data_bytes += p->payload_len;
        if (p->payload_len < ds->seg_min)
            ds->seg_min = p->payload_len;
        if (p->payload_len > ds->seg_max)
            ds->seg_max = p->payload_len;
        if (!cp->dp[d].dfcp_block_set || tn_seq_gt(h->block, ds->dfcp_hi_block)) {
            ds->dfcp_blocks++;
            ds->dfcp_hi_block = h->block;
            cp->dp[d].dfcp_block_set = true;
        }
        if (pv->synack_pending) {   /* the handshake's ACK was lost or not seen */
            pv->synack_pending = false;
            established(cp, t);
        }
        tn_dfcp_data(ctx, cp, d, p);
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
    tn_dfcp_blocks_finish(ctx, cp);
}
