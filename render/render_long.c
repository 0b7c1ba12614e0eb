/* render_long.c - the long per-connection report (-l): both directions side by side. */
#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include "render.h"
#include "render_line.h"
#include "render_long_int.h"

#define COLW 22

/* s in a field of width characters, as printf's "%-*s" (left) or "%*s" does: padded with
 * spaces, never cut. */
static char *field(char *p, const char *s, size_t len, size_t width, bool left)
{
    size_t pad = len < width ? width - len : 0;
    if (!left) {
        memset(p, ' ', pad);
        p += pad;
    }
    memcpy(p, s, len);
    p += len;
    if (left) {
        memset(p, ' ', pad);
        p += pad;
    }
    return p;
}

/* One row of the two-column table: the a->b value, then the b->a value; the line printf's
 * "     %-24s %*s    %-24s %*s\n" makes, put together by hand (a short-connection report is
 * millions of rows: the format string's parsing was most of its time). */
void tn_long_row_s(FILE *out, const char *label, const char *a, const char *b)
{
    size_t nl = strlen(label), na = strlen(a), nb = strlen(b);
    char line[512];
    if (2 * nl + na + nb + 2 * (24 + COLW) + 16 > sizeof line) {
        fprintf(out, "     %-24s %*s    %-24s %*s\n", label, COLW, a, label, COLW, b);
        return;
    }
    char *p = field(line, "", 0, 5, false);
    p = field(p, label, nl, 24, true);
    *p++ = ' ';
    p = field(p, a, na, COLW, false);
    p = field(p, "", 0, 4, false);
    p = field(p, label, nl, 24, true);
    *p++ = ' ';
    p = field(p, b, nb, COLW, false);
    *p++ = '\n';
    fwrite(line, 1, (size_t)(p - line), out);
}

void tn_long_row_u(FILE *out, const char *label, uint64_t a, uint64_t b)
{
    char x[TN_U64_LEN], y[TN_U64_LEN];
    tn_fmt_u64(x, a);
    tn_fmt_u64(y, b);
    tn_long_row_s(out, label, x, y);
}

/* "-" into buf, without snprintf (a report line per value; numbers: tn_fmt_u64) */
static const char *dash_into(char *buf)
{
    buf[0] = '-';
    buf[1] = '\0';
    return buf;
}

static const char *opt_str(char *buf, size_t len, bool seen, unsigned v)
{
    if (seen)
        tn_fmt_u64(buf, v);
    else
        dash_into(buf);
    return buf;
}

static const char *seg_str(char *buf, size_t len, const struct tn_dir_stats *s, int which)
{
    if (s->data_pkts == 0) {
        dash_into(buf);
        return buf;
    }
    if (which == 0)
        tn_fmt_u64(buf, s->seg_min);
    else if (which == 1)
        tn_fmt_u64(buf, s->seg_max);
    else
        tn_fmt_fixed(buf, len, (double)s->data_bytes / (double)s->data_pkts, 0);
    return buf;
}

static const char *win_str(char *buf, size_t len, const struct tn_dir_stats *s, int which)
{
    if (s->win_n == 0) {
        dash_into(buf);
        return buf;
    }
    if (which == 0)
        tn_fmt_u64(buf, s->win_min);
    else if (which == 1)
        tn_fmt_u64(buf, s->win_max);
    else
        tn_fmt_fixed(buf, len, s->win_sum / (double)s->win_n, 0);
    return buf;
}

/* v with the given decimals, or "-" when there is none. */
static const char *val_str(char *buf, size_t len, int decimals, bool have, double v)
{
    if (have)
        tn_fmt_fixed(buf, len, v, decimals);
    else
        dash_into(buf);
    return buf;
}

static const char *time_str(char *buf, size_t len, const struct tn_dir_stats *s, bool last)
{
    if (s->pkts == 0)
        dash_into(buf);
    else
        tn_fmt_fixed(buf, len, tn_time_to_double(last ? s->last : s->first), 6);
    return buf;
}

static void common_rows(FILE *out, const struct tn_conn *c)
{
    const struct tn_dir_stats *x = &c->d[TN_A2B], *y = &c->d[TN_B2A];
    char p[3][32], q[3][32];
    tn_long_row_u(out, "total packets:", x->pkts, y->pkts);
    tn_long_row_u(out, "wire bytes:", x->wire_bytes, y->wire_bytes);
    tn_long_row_u(out, "data pkts:", x->data_pkts, y->data_pkts);
    tn_long_row_u(out, "data bytes:", x->data_bytes, y->data_bytes);
    for (int i = 0; i < 3; i++) {
        static const char *const lbl[3] = {"min segm size:", "max segm size:", "avg segm size:"};
        tn_long_row_s(out, lbl[i], seg_str(p[i], sizeof p[i], x, i), seg_str(q[i], sizeof q[i], y, i));
    }
    tn_long_row_s(out, "first packet:", time_str(p[0], sizeof p[0], x, false), time_str(q[0], sizeof q[0], y, false));
    tn_long_row_s(out, "last packet:", time_str(p[1], sizeof p[1], x, true), time_str(q[1], sizeof q[1], y, true));
}

static void tcp_rows(FILE *out, const struct tn_conn *c)
{
    const struct tn_dir_stats *x = &c->d[TN_A2B], *y = &c->d[TN_B2A];
    char p[3][32], q[3][32];
    tn_long_row_u(out, "pure acks:", x->pure_acks, y->pure_acks);
    tn_long_row_u(out, "unique bytes:", x->unique_bytes, y->unique_bytes);
    tn_long_row_u(out, "rexmt data pkts:", x->rexmit_pkts, y->rexmit_pkts);
    tn_long_row_u(out, "rexmt data bytes:", x->rexmit_bytes, y->rexmit_bytes);
    tn_long_row_u(out, "outoforder pkts:", x->ooo_pkts, y->ooo_pkts);
    tn_long_row_u(out, "zero win probes:", x->win_probes, y->win_probes);
    tn_long_row_u(out, "dup acks:", x->dupacks, y->dupacks);
    if (x->win_n || y->win_n)
        tn_long_row_u(out, "zero win adv:", x->zero_wnd, y->zero_wnd);
    else   /* no window in the trace (ns-2) */
        tn_long_row_s(out, "zero win adv:", "-", "-");
    tn_long_row_u(out, "SYN pkts:", x->syn, y->syn);
    tn_long_row_u(out, "FIN pkts:", x->fin, y->fin);
    tn_long_row_u(out, "RST pkts:", x->rst, y->rst);
    tn_long_row_s(out, "req MSS:", opt_str(p[0], 32, x->mss_seen, x->mss), opt_str(q[0], 32, y->mss_seen, y->mss));
    tn_long_row_s(out, "window scale:", opt_str(p[1], 32, x->ws_seen, x->ws), opt_str(q[1], 32, y->ws_seen, y->ws));
    /* a trace without options (ns-2) says nothing about them: "-", not "N" */
    tn_long_row_s(out, "SACK permitted:", x->opts_unknown ? "-" : x->sack_ok ? "Y" : "N",
                  y->opts_unknown ? "-" : y->sack_ok ? "Y" : "N");
    tn_long_row_s(out, "timestamps:", x->opts_unknown ? "-" : x->ts_seen ? "Y" : "N",
                  y->opts_unknown ? "-" : y->ts_seen ? "Y" : "N");
    for (int i = 0; i < 3; i++) {
        static const char *const lbl[3] = {"min win adv:", "max win adv:", "avg win adv:"};
        tn_long_row_s(out, lbl[i], win_str(p[i], sizeof p[i], x, i), win_str(q[i], sizeof q[i], y, i));
    }
    tn_long_row_u(out, "super-segments (>MSS):", x->super_segs, y->super_segs);
    tn_long_row_u(out, "snaplen-cut data pkts:", x->trunc_pkts, y->trunc_pkts);
    /* throughput: every payload byte (retransmissions too); goodput: the sequence space covered,
     * both over the connection's duration (experiment.csv and senders.csv use the same) */
    double dur = tn_time_diff(c->span_last, c->span_first);
    tn_fmt_fixed(p[0], 32, dur > 0 ? (double)x->data_bytes * 8 / dur : 0, 0);
    tn_fmt_fixed(q[0], 32, dur > 0 ? (double)y->data_bytes * 8 / dur : 0, 0);
    tn_long_row_s(out, "throughput (bit/s):", p[0], q[0]);
    tn_fmt_fixed(p[0], 32, tn_dir_throughput_bps(c, TN_A2B), 0);
    tn_fmt_fixed(q[0], 32, tn_dir_throughput_bps(c, TN_B2A), 0);
    tn_long_row_s(out, "goodput (bit/s):", p[0], q[0]);
    /* the rest of tcptrace's -l figures */
    tn_long_row_u(out, "sack pkts sent:", x->sack_pkts, y->sack_pkts);
    tn_long_row_u(out, "pushed data pkts:", x->pushed_pkts, y->pushed_pkts);
    tn_long_row_u(out, "urgent data pkts:", x->urg_pkts, y->urg_pkts);
    tn_long_row_u(out, "urgent data bytes:", x->urg_bytes, y->urg_bytes);
    tn_long_row_u(out, "truncated data bytes:", x->trunc_bytes, y->trunc_bytes);
    tn_long_row_u(out, "triple dupacks:", x->triple_dupacks, y->triple_dupacks);
    tn_long_row_u(out, "initial window bytes:", x->init_win_bytes, y->init_win_bytes);
    tn_long_row_u(out, "initial window pkts:", x->init_win_pkts, y->init_win_pkts);
    tn_long_row_s(out, "idletime max (ms):", val_str(p[1], 32, 3, x->pkts > 1, (double)x->idle_max_ns / 1e6),
                  val_str(q[1], 32, 3, y->pkts > 1, (double)y->idle_max_ns / 1e6));
}

/* tcptrace -W: outstanding data at each data segment, and its time-weighted average. */
static void owin_rows(FILE *out, const struct tn_conn *c)
{
    const struct tn_dir_stats *x = &c->d[TN_A2B], *y = &c->d[TN_B2A];
    char p[32], q[32];
    tn_long_row_s(out, "max owin:", val_str(p, 32, 0, x->owin_n, x->owin_max), val_str(q, 32, 0, y->owin_n, y->owin_max));
    tn_long_row_s(out, "min non-zero owin:", val_str(p, 32, 0, x->owin_n, x->owin_min_nz),
                  val_str(q, 32, 0, y->owin_n, y->owin_min_nz));
    tn_long_row_s(out, "avg owin:", val_str(p, 32, 0, x->owin_n, x->owin_n ? x->owin_sum / (double)x->owin_n : 0),
                  val_str(q, 32, 0, y->owin_n, y->owin_n ? y->owin_sum / (double)y->owin_n : 0));
    tn_long_row_s(out, "wavg owin:", val_str(p, 32, 0, x->owin_n, tn_dir_owin_wavg(x)),
                  val_str(q, 32, 0, y->owin_n, tn_dir_owin_wavg(y)));
}

/* tcptrace -r: the RTT samples of each sender (data -> ACK, Karn's rule), from the handshake,
 * and of full-sized segments only. */
static void rtt_rows(FILE *out, const struct tn_conn *c)
{
    const struct tn_tcp_infer *x = &c->inf[TN_A2B], *y = &c->inf[TN_B2A];
    char p[32], q[32];
    static const struct {
        const char *n, *min, *max, *avg, *sdv;
        size_t off;
    } sets[] = {
        {"RTT samples:", "RTT min (ms):", "RTT max (ms):", "RTT avg (ms):", "RTT stdev (ms):",
         offsetof(struct tn_tcp_infer, rtt_ms)},
        {"RTT full_sz smpls:", "RTT full_sz min (ms):", "RTT full_sz max (ms):",
         "RTT full_sz avg (ms):", "RTT full_sz stdev (ms):", offsetof(struct tn_tcp_infer, rtt_full_ms)},
        {"retr time samples:", "min retr time (ms):", "max retr time (ms):", "avg retr time (ms):",
         "sdv retr time (ms):", offsetof(struct tn_tcp_infer, retr_ms)},
    };
    for (size_t i = 0; i < TN_ARRAY_LEN(sets); i++) {
        const struct tn_stat *a = (const void *)((const char *)x + sets[i].off);
        const struct tn_stat *b = (const void *)((const char *)y + sets[i].off);
        tn_long_row_u(out, sets[i].n, a->n, b->n);
        tn_long_row_s(out, sets[i].min, val_str(p, 32, 3, a->n, a->min), val_str(q, 32, 3, b->n, b->min));
        tn_long_row_s(out, sets[i].max, val_str(p, 32, 3, a->n, a->max), val_str(q, 32, 3, b->n, b->max));
        tn_long_row_s(out, sets[i].avg, val_str(p, 32, 3, a->n, tn_stat_avg(a)), val_str(q, 32, 3, b->n, tn_stat_avg(b)));
        tn_long_row_s(out, sets[i].sdv, val_str(p, 32, 3, a->n, tn_stat_stdev(a)),
                      val_str(q, 32, 3, b->n, tn_stat_stdev(b)));
        if (i == 2)
            tn_long_row_u(out, "max # retrans:", x->max_retrans, y->max_retrans);
        if (i == 0)   /* the a->b sender's handshake RTT: its SYN to b's SYN-ACK (monitor<->b) */
            tn_long_row_s(out, "RTT from 3WHS (ms):", val_str(p, 32, 3, c->hs_rtt_ms >= 0, c->hs_half_ms[TN_B2A]),
                          val_str(q, 32, 3, c->hs_rtt_ms >= 0, c->hs_half_ms[TN_A2B]));
    }
}

static void dfcp_rows(FILE *out, const struct tn_conn *c)
{
    tn_long_dfcp_rows(out, c);
}

static void one_conn(FILE *out, const struct tn_conn *c, const struct tn_long_opts *lo)
{
    char ab[80], bb[80];
    struct tn_line l;
    tn_line_begin(&l, out);
    tn_line_str(&l, c->proto == TN_PK_DFCP ? "================================\nDFCP connection "
                                           : "================================\nTCP connection ");
    tn_line_u64(&l, c->idx);
    tn_line_str(&l, ":\n\thost a:        ");
    tn_line_str(&l, tn_endpoint_str(&c->a, c->a_port, ab, sizeof ab));
    tn_line_str(&l, "\n\thost b:        ");
    tn_line_str(&l, tn_endpoint_str(&c->b, c->b_port, bb, sizeof bb));
    tn_line_str(&l, "\n\tstate:         ");
    tn_line_str(&l, tn_conn_state_name(tn_conn_state(c)));
    tn_line_str(&l, c->handshake_seen ? "\n\thandshake:     seen\n\tfirst packet:  "
                                      : "\n\thandshake:     not seen\n\tfirst packet:  ");
    tn_line_fixed(&l, tn_time_to_double(c->span_first), 6);
    tn_line_str(&l, "\n\tlast packet:   ");
    tn_line_fixed(&l, tn_time_to_double(c->span_last), 6);
    tn_line_str(&l, "\n\telapsed time:  ");
    tn_line_fixed(&l, tn_time_diff(c->span_last, c->span_first), 6);
    tn_line_str(&l, " s\n\ttotal packets: ");
    tn_line_u64(&l, c->d[0].pkts + c->d[1].pkts);
    tn_line_str(&l, "\n\tanomalies:     ");
    tn_line_u64(&l, c->anomalies);
    tn_line_str(&l, "\n   ");
    tn_line_pad(&l, "a->b:", 48, 1);
    tn_line_str(&l, " b->a:\n");
    tn_line_end(&l);
    common_rows(out, c);
    if (c->proto == TN_PK_DFCP) {
        dfcp_rows(out, c);
    } else {
        tcp_rows(out, c);
        if (lo && lo->owin)
            owin_rows(out, c);
        if (lo && lo->rtt)
            rtt_rows(out, c);
        tn_report_tcp_inference(out, c);
    }
}

void tn_report_long(FILE *out, const struct tn_analyzer *a, const struct tn_selection *sel,
                    const struct tn_long_opts *lo)
{
    size_t n = tn_analyzer_conn_count(a);
    for (size_t i = 0; i < n; i++) {
        const struct tn_conn *c = tn_analyzer_conn(a, i);
        if (tn_selected(sel, c->idx))
            one_conn(out, c, lo);
    }
}
