/* dissect_tcp.c - TCP header (RFC 9293 section 3.1) and options: MSS (RFC 9293 3.2), window
 * scale and timestamps (RFC 7323), SACK-permitted and SACK (RFC 2018).
 * Options are walked inside a sub-cursor of exactly hdr_len - 20 bytes, as Suricata and pping do:
 * every known kind must have its exact length, and a walk that would leave the option space
 * stops there.
 */
#include "dissect_int.h"

#define TCP_HDR_LEN 20

enum {
    TCPOPT_EOL = 0,
    TCPOPT_NOP = 1,
    TCPOPT_MSS = 2,
    TCPOPT_WS = 3,
    TCPOPT_SACK_PERM = 4,
    TCPOPT_SACK = 5,
    TCPOPT_TS = 8,

    TCPOLEN_MSS = 4,
    TCPOLEN_WS = 3,
    TCPOLEN_SACK_PERM = 2,
    TCPOLEN_TS = 10,
    TCPOLEN_SACK_BLOCK = 8,

    TCP_MAX_WSCALE = 14,  /* RFC 7323 section 2.3 */
};

/* Value of one known option whose length has been checked; dup reports a repeat. */
static void tcp_opt_value(struct tn_dis *d, struct tn_tcp_opts *o, uint8_t kind, uint8_t olen,
                          struct tn_cursor *v)
{
    switch (kind) {
    case TCPOPT_MSS:
        if (o->has_mss)
            goto dup;
        o->has_mss = true;
        o->mss = tn_cur_be16(v);
        return;
    case TCPOPT_WS:
        if (o->has_ws)
            goto dup;
        o->has_ws = true;
        o->ws = tn_cur_u8(v);
        if (o->ws > TCP_MAX_WSCALE)
            tn_dis_flag(d, TN_ANOM_TCP_WSCALE_BIG, TN_DIS_OK);
        return;
    case TCPOPT_SACK_PERM:
        if (o->sack_ok)
            goto dup;
        o->sack_ok = true;
        return;
    case TCPOPT_TS:
        if (o->has_ts)
            goto dup;
        o->has_ts = true;
        tn_dis_lay(d, v, TN_LAY_TCP_TS, 8, 8, d->lay_l4);
        o->ts_val = tn_cur_be32(v);
        o->ts_ecr = tn_cur_be32(v);
        return;
    case TCPOPT_SACK:
        if (o->nsack)
            goto dup;
        o->nsack = (uint8_t)((olen - 2) / TCPOLEN_SACK_BLOCK);
        for (unsigned i = 0; i < o->nsack; i++) {
            o->sack[i].left = tn_cur_be32(v);
            o->sack[i].right = tn_cur_be32(v);
        }
        return;
    default:
        return;
    }
dup:
    tn_dis_flag(d, TN_ANOM_TCP_OPT_DUP, TN_DIS_OK);  /* the first one is kept */
}

/* Exact length of each known kind (SACK: 1 to 4 blocks).  Unknown kinds: any length >= 2. */
static bool tcp_opt_len_ok(uint8_t kind, uint8_t olen)
{
    switch (kind) {
    case TCPOPT_MSS:
        return olen == TCPOLEN_MSS;
    case TCPOPT_WS:
        return olen == TCPOLEN_WS;
    case TCPOPT_SACK_PERM:
        return olen == TCPOLEN_SACK_PERM;
    case TCPOPT_TS:
        return olen == TCPOLEN_TS;
    case TCPOPT_SACK:
        return olen > 2 && (olen - 2) % TCPOLEN_SACK_BLOCK == 0 &&
               (olen - 2) / TCPOLEN_SACK_BLOCK <= TN_MAX_SACK;
    default:
        return true;
    }
}

/* whole: the option space is completely captured.  When it is not, running out of bytes is the
 * capture's doing (already reported as tcp.opt_truncated), not a bad length. */
static void tcp_opts(struct tn_dis *d, struct tn_cursor *o, bool whole)
{
    struct tn_tcp_opts *opt = &d->p->tcp.opt;
    while (tn_cur_left(o) > 0) {
        uint8_t kind = tn_cur_u8(o);
        if (kind == TCPOPT_EOL)
            return;
        if (kind == TCPOPT_NOP)
            continue;
        if (tn_cur_left(o) == 0) {
            if (whole)
                tn_dis_flag(d, TN_ANOM_TCP_OPT_LEN_OVER, TN_DIS_MALFORMED);
            return;
        }
        uint8_t olen = tn_cur_u8(o);
        if (olen < 2) {
            tn_dis_flag(d, TN_ANOM_TCP_OPT_LEN_ZERO, TN_DIS_MALFORMED);
            return;
        }
        if ((size_t)olen - 2 > tn_cur_left(o)) {
            if (whole)
                tn_dis_flag(d, TN_ANOM_TCP_OPT_LEN_OVER, TN_DIS_MALFORMED);
            return;
        }
        struct tn_cursor v;
        (void)tn_cur_sub(o, (size_t)olen - 2, &v);
        if (!tcp_opt_len_ok(kind, olen))
            tn_dis_flag(d, TN_ANOM_TCP_OPT_LEN_BAD, TN_DIS_MALFORMED);
        else
            tcp_opt_value(d, opt, kind, olen, &v);
    }
}

void tn_dis_tcp(struct tn_dis *d, struct tn_cursor *c)
{
    struct tn_pkt *p = d->p;
    struct tn_tcp *t = &p->tcp;
    if (!tn_dis_hdr(d, c, TCP_HDR_LEN, TN_ANOM_TCP_TRUNCATED, TN_ANOM_TCP_HDR_GT_IP))
        return;
    size_t wire = tn_dis_wire_left(d, c);
    /* the fixed header is there (tn_dis_hdr): read at offsets, the cursor moved once */
    const uint8_t *h = c->pos;
    c->pos = h + TCP_HDR_LEN;
    p->sport = (uint16_t)(h[0] << 8 | h[1]);
    p->dport = (uint16_t)(h[2] << 8 | h[3]);
    t->seq = (uint32_t)h[4] << 24 | (uint32_t)h[5] << 16 | (uint32_t)h[6] << 8 | h[7];
    t->ack = (uint32_t)h[8] << 24 | (uint32_t)h[9] << 16 | (uint32_t)h[10] << 8 | h[11];
    uint8_t off = h[12];
    t->flags = h[13];
    t->win = (uint16_t)(h[14] << 8 | h[15]);
    /* h[16..17], the checksum */
    t->urp = (uint16_t)(h[18] << 8 | h[19]);
    size_t hlen = (size_t)(off >> 4) * 4;
    t->hdr_len = (uint8_t)hlen;
    if (hlen < TCP_HDR_LEN) {
        tn_dis_flag(d, TN_ANOM_TCP_HDR_SHORT, TN_DIS_MALFORMED);
        return;
    }
    if (hlen > wire) {
        tn_dis_flag(d, TN_ANOM_TCP_HDR_GT_IP, TN_DIS_MALFORMED);
        return;
    }
    p->kind = TN_PK_TCP;
    struct tn_cursor hdr = {.pos = c->pos - TCP_HDR_LEN};
    d->lay_l4 = tn_dis_lay(d, &hdr, TN_LAY_TCP, hlen, wire, d->lay_ip);
    if ((t->flags & TN_TCP_SYN) && (t->flags & (TN_TCP_FIN | TN_TCP_RST)))
        tn_dis_flag(d, TN_ANOM_TCP_FLAGS_BAD, TN_DIS_OK);
    if (p->sport == 0 || p->dport == 0)
        tn_dis_flag(d, TN_ANOM_TCP_PORT_ZERO, TN_DIS_OK);

    struct tn_cursor o;
    bool whole = tn_cur_sub(c, hlen - TCP_HDR_LEN, &o);
    if (!whole)
        tn_dis_flag(d, TN_ANOM_TCP_OPT_TRUNCATED, TN_DIS_TRUNCATED);
    tcp_opts(d, &o, whole);

    p->payload_len = (uint32_t)(wire - hlen);
    p->payload_caplen = (uint32_t)tn_cur_left(c);
    p->payload = c->pos;
    if (whole)
        tn_dis_lay_payload(d);
}
