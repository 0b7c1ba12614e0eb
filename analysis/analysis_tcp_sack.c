/* analysis_tcp_sack.c - a sender's scoreboard: SACKed ranges above the cumulative ACK and the
 * pipe (RFC 6675 §4), duplicate SACKs (RFC 2883). */
#include <stdlib.h>

#include "analysis_int.h"
#include "seq.h"

void tn_sack_free(struct tn_scoreboard *b)
{
    tn_ranges_free(&b->sacked);
    tn_ranges_free(&b->resent);
    free(b->rexmits);
}

int64_t tn_sack_bytes_above(const struct tn_scoreboard *b, int64_t above)
{
    return tn_ranges_bytes_above(&b->sacked, above);
}

/* Outstanding, minus SACKed, minus what the scoreboard says is lost (holes below the highest
 * SACK while recovering), plus retransmissions not yet acknowledged. */
int64_t tn_sack_pipe(const struct tn_scoreboard *b, int64_t hi, uint32_t mss, bool recovering)
{
    if (!b->una_set || hi <= b->una)
        return 0;
    int64_t out = hi - b->una;
    if (!b->sack) {
        /* Without SACK each duplicate ACK says one segment left the network (RFC 6582, Linux
         * tcp_add_reno_sack); the retransmitted head was marked lost, so the two cancel. */
        int64_t p = out - (int64_t)(b->reno_sacked * mss);
        return p < 0 ? 0 : p;
    }
    int64_t sacked = tn_sack_bytes_above(b, b->una);
    int64_t lost = 0;
    if (recovering && b->sacked.n) {
        int64_t top = tn_ranges_highest(&b->sacked);
        lost = (top - b->una) - (sacked - tn_sack_bytes_above(b, top));
        if (lost < 0)
            lost = 0;
    }
    int64_t p = out - sacked - lost + tn_ranges_bytes_above(&b->resent, b->una);
    return p < 0 ? 0 : p;
}

void tn_sack_resent(struct tn_scoreboard *b, int64_t lo, int64_t hi, int64_t t)
{
    if (!b->rexmits)
        b->rexmits = tn_xcalloc(TN_REXMIT_RING, sizeof *b->rexmits);
    b->rexmits[b->rexmit_next++ % TN_REXMIT_RING] = (struct tn_gap){.lo = lo, .hi = hi, .t_ns = t};
}

/* Was [lo, hi) (or part of it) retransmitted recently? */
static bool was_rexmitted(const struct tn_scoreboard *b, int64_t lo, int64_t hi)
{
    for (unsigned i = 0; b->rexmits && i < TN_REXMIT_RING; i++) {
        const struct tn_gap *g = &b->rexmits[i];
        if (g->hi > g->lo && g->lo < hi && lo < g->hi)
            return true;
    }
    return false;
}

static void dsack_check(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir sd,
                        const struct tn_pkt *p, int64_t ack, int64_t lo, int64_t hi, int64_t lo2,
                        int64_t hi2, bool second, struct tn_dsack *dsack)
{
    const struct tn_scoreboard *b = &cp->dp[sd].snd->sb;
    /* RFC 2883: the first block reports a duplicate when it lies below the packet's own
     * cumulative ACK or inside the second block */
    bool dup = hi <= ack || (second && lo >= lo2 && hi <= hi2);
    if (!dup)
        return;
    if (!was_rexmitted(b, lo, hi)) {   /* duplicated by the network, or resent unseen */
        tn_rec_event(ctx, &cp->pub, (enum tn_dir)!sd, TN_EV_DUP_DELIVERY, p, (uint64_t)lo, (uint32_t)(hi - lo),
                     "D-SACK %lld-%lld for data never seen resent: duplicated in the network",
                     (long long)lo, (long long)hi);
        return;
    }
    cp->pub.inf[sd].rexmit[TN_EV_REXMIT_SPURIOUS - TN_EV_REXMIT_FAST]++;
    *dsack = (struct tn_dsack){true, lo, hi};
    tn_rec_event(ctx, &cp->pub, (enum tn_dir)!sd, TN_EV_REXMIT_SPURIOUS, p, (uint64_t)lo,
                 (uint32_t)(hi - lo), "D-SACK %lld-%lld: the retransmission was not needed",
                 (long long)lo, (long long)hi);
}

int64_t tn_sack_blocks(struct tn_analyzer_ctx *ctx, struct tn_conn_priv *cp, enum tn_dir sd,
                       const struct tn_pkt *p, int64_t ack, struct tn_dsack *dsack, int64_t *sacked_sent_ns)
{
    struct tn_scoreboard *b = &cp->dp[sd].snd->sb;
    const struct tn_dir_stats *ss = &cp->pub.d[sd];
    const struct tn_tcp_opts *o = &p->tcp.opt;
    int64_t newly = 0;
    *dsack = (struct tn_dsack){0};
    *sacked_sent_ns = -1;
    for (unsigned i = 0; i < o->nsack; i++) {
        int64_t lo = tn_rel_seq(ss, o->sack[i].left), hi = tn_rel_seq(ss, o->sack[i].right);
        if (hi <= lo || hi - lo > (int64_t)1 << 30)
            continue;   /* nonsense block */
        if (i == 0) {
            int64_t lo2 = 0, hi2 = 0;
            if (o->nsack > 1) {
                lo2 = tn_rel_seq(ss, o->sack[1].left);
                hi2 = tn_rel_seq(ss, o->sack[1].right);
            }
            dsack_check(ctx, cp, sd, p, ack, lo, hi, lo2, hi2, o->nsack > 1, dsack);
        }
        if (hi > b->una) {
            newly += tn_ranges_merge(&b->sacked, lo > b->una ? lo : b->una, hi);
            tn_ranges_cut(&b->resent, lo, hi);   /* a SACKed copy left the network */
            int64_t sent = tn_rtt_sacked(&cp->dp[sd].snd->rtt, lo > b->una ? lo : b->una, hi);
            if (sent > *sacked_sent_ns)
                *sacked_sent_ns = sent;
        }
    }
    return newly;
}

bool tn_sack_resent_lost_above(const struct tn_scoreboard *b, int64_t una, int64_t since_ns)
{
    for (unsigned i = 0; b->rexmits && i < TN_REXMIT_RING; i++) {
        const struct tn_gap *g = &b->rexmits[i];
        if (g->hi > g->lo && g->t_ns >= since_ns && g->hi > una &&
            !tn_ranges_holding(&b->sacked, g->lo > una ? g->lo : una, g->hi))
            return true;
    }
    return false;
}

void tn_sack_resent_clear(struct tn_scoreboard *b)
{
    b->resent.n = 0;
}
