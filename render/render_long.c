/* render_long.c - the long per-connection report (-l): both directions side by side. */
#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include "render.h"
#include "render_line.h"
#include "render_long_int.h"
#include "render_par.h"

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

/* The row printf's "     %-24s %*s    %-24s %*s\n" makes, with fields wider than that. */
static void wide_row(struct tn_line *l, const char *label, size_t nl, const char *a, size_t na, const char *b,
                     size_t nb)
{
    char line[512];
    if (2 * nl + na + nb + 2 * (24 + COLW) + 16 > sizeof line) {
        tn_line_end(l);
        fprintf(l->out, "     %-24s %*s    %-24s %*s\n", label, COLW, a, label, COLW, b);
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
    tn_line_mem(l, line, (size_t)(p - line));
}

/* Where a row's fields end: "     " label(24) " " a(COLW) "    " label(24) " " b(COLW) "\n". */
enum { A_END = 5 + 24 + 1 + COLW, B_LABEL = A_END + 4, ROW_LEN = B_LABEL + 24 + 1 + COLW + 1 };

/* A row of fields that fit: spaces, then the labels and the right-aligned values put in place
 * (a short-connection report is millions of rows: no printf, no copy through a line buffer). */
static inline char *row_blank(struct tn_line *l, const char *label, size_t nl)
{
    char *p = tn_line_room(l, ROW_LEN);
    memset(p, ' ', ROW_LEN - 1);
    p[ROW_LEN - 1] = '\n';
    memcpy(p + 5, label, nl);
    memcpy(p + B_LABEL, label, nl);
    return p;
}

static inline void row_s(struct tn_line *l, const char *label, const char *a, const char *b)
{
    size_t nl = strlen(label), na = strlen(a), nb = strlen(b);
    if (nl > 24 || na > COLW || nb > COLW) {
        wide_row(l, label, nl, a, na, b, nb);
        return;
    }
    char *p = row_blank(l, label, nl);
    memcpy(p + A_END - na, a, na);
    memcpy(p + ROW_LEN - 1 - nb, b, nb);
}

static inline void row_u(struct tn_line *l, const char *label, uint64_t a, uint64_t b)
{
    size_t nl = strlen(label);
    if (nl > 24) {
        char x[TN_U64_LEN], y[TN_U64_LEN];
        wide_row(l, label, nl, x, tn_fmt_u64(x, a), y, tn_fmt_u64(y, b));
        return;
    }
    char *p = row_blank(l, label, nl);   /* 20 digits at most: always fit COLW */
    tn_u64_back(p + A_END, a);
    tn_u64_back(p + ROW_LEN - 1, b);
}

void tn_long_row_s(FILE *out, const char *label, const char *a, const char *b)
{
    struct tn_line l;
    tn_line_begin(&l, out);
    row_s(&l, label, a, b);
    tn_line_end(&l);
}

void tn_long_row_u(FILE *out, const char *label, uint64_t a, uint64_t b)
{
    struct tn_line l;
    tn_line_begin(&l, out);
    row_u(&l, label, a, b);
    tn_line_end(&l);
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

static void common_rows(struct tn_line *out, const struct tn_conn *c)
{
    const struct tn_dir_stats *x = &c->d[TN_A2B], *y = &c->d[TN_B2A];
    char p[3][32], q[3][32];
    row_u(out, "total packets:", x->pkts, y->pkts);
    row_u(out, "wire bytes:", x->wire_bytes, y->wire_bytes);
    row_u(out, "data pkts:", x->data_pkts, y->data_pkts);
    row_u(out, "data bytes:", x->data_bytes, y->data_bytes);
    for (int i = 0; i < 3; i++) {
        static const char *const lbl[3] = {"min segm size:", "max segm size:", "avg segm size:"};
        row_s(out, lbl[i], seg_str(p[i], sizeof p[i], x, i), seg_str(q[i], sizeof q[i], y, i));
    }
    row_s(out, "first packet:", time_str(p[0], sizeof p[0], x, false), time_str(q[0], sizeof q[0], y, false));
    row_s(out, "last packet:", time_str(p[1], sizeof p[1], x, true), time_str(q[1], sizeof q[1], y, true));
}

static void tcp_rows(struct tn_line *out, const struct tn_conn *c)
{
    const struct tn_dir_stats *x = &c->d[TN_A2B], *y = &c->d[TN_B2A];
    char p[3][32], q[3][32];
    row_u(out, "pure acks:", x->pure_acks, y->pure_acks);
    row_u(out, "unique bytes:", x->unique_bytes, y->unique_bytes);
    row_u(out, "rexmt data pkts:", x->rexmit_pkts, y->rexmit_pkts);
    row_u(out, "rexmt data bytes:", x->rexmit_bytes, y->rexmit_bytes);
    row_u(out, "outoforder pkts:", x->ooo_pkts, y->ooo_pkts);
    row_u(out, "zero win probes:", x->win_probes, y->win_probes);
    row_u(out, "dup acks:", x->dupacks, y->dupacks);
    if (x->win_n || y->win_n)
        row_u(out, "zero win adv:", x->zero_wnd, y->zero_wnd);
    else   /* no window in the trace (ns-2) */
        row_s(out, "zero win adv:", "-", "-");
    row_u(out, "SYN pkts:", x->syn, y->syn);
    row_u(out, "FIN pkts:", x->fin, y->fin);
    row_u(out, "RST pkts:", x->rst, y->rst);
    row_s(out, "req MSS:", opt_str(p[0], 32, x->mss_seen, x->mss), opt_str(q[0], 32, y->mss_seen, y->mss));
    row_s(out, "window scale:", opt_str(p[1], 32, x->ws_seen, x->ws), opt_str(q[1], 32, y->ws_seen, y->ws));
    /* options of the SYN: a trace without options (ns-2) or a capture that did not see the SYN
     * says nothing about them: "-", not "N" */
    row_s(out, "SACK permitted:", x->opts_unknown || !x->syn_seen ? "-" : x->sack_ok ? "Y" : "N",
                  y->opts_unknown || !y->syn_seen ? "-" : y->sack_ok ? "Y" : "N");
    row_s(out, "timestamps:", x->opts_unknown || !x->syn_seen ? "-" : x->ts_seen ? "Y" : "N",
                  y->opts_unknown || !y->syn_seen ? "-" : y->ts_seen ? "Y" : "N");
    for (int i = 0; i < 3; i++) {
        static const char *const lbl[3] = {"min win adv:", "max win adv:", "avg win adv:"};
        row_s(out, lbl[i], win_str(p[i], sizeof p[i], x, i), win_str(q[i], sizeof q[i], y, i));
    }
    row_u(out, "super-segments (>MSS):", x->super_segs, y->super_segs);
    row_u(out, "snaplen-cut data pkts:", x->trunc_pkts, y->trunc_pkts);
    /* throughput: every payload byte (retransmissions too); goodput: the sequence space covered,
     * both over the connection's duration (experiment.csv and senders.csv use the same) */
    double dur = tn_time_diff(c->span_last, c->span_first);
    tn_fmt_fixed(p[0], 32, dur > 0 ? (double)x->data_bytes * 8 / dur : 0, 0);
    tn_fmt_fixed(q[0], 32, dur > 0 ? (double)y->data_bytes * 8 / dur : 0, 0);
    row_s(out, "throughput (bit/s):", p[0], q[0]);
    tn_fmt_fixed(p[0], 32, tn_dir_throughput_bps(c, TN_A2B), 0);
    tn_fmt_fixed(q[0], 32, tn_dir_throughput_bps(c, TN_B2A), 0);
    row_s(out, "goodput (bit/s):", p[0], q[0]);
    /* the rest of tcptrace's -l figures */
    row_u(out, "sack pkts sent:", x->sack_pkts, y->sack_pkts);
    row_u(out, "pushed data pkts:", x->pushed_pkts, y->pushed_pkts);
    row_u(out, "urgent data pkts:", x->urg_pkts, y->urg_pkts);
    row_u(out, "urgent data bytes:", x->urg_bytes, y->urg_bytes);
    row_u(out, "truncated data bytes:", x->trunc_bytes, y->trunc_bytes);
    row_u(out, "triple dupacks:", x->triple_dupacks, y->triple_dupacks);
    row_u(out, "initial window bytes:", x->init_win_bytes, y->init_win_bytes);
    row_u(out, "initial window pkts:", x->init_win_pkts, y->init_win_pkts);
    row_s(out, "idletime max (ms):", val_str(p[1], 32, 3, x->pkts > 1, (double)x->idle_max_ns / 1e6),
                  val_str(q[1], 32, 3, y->pkts > 1, (double)y->idle_max_ns / 1e6));
}

/* tcptrace -W: outstanding data at each data segment, and its time-weighted average. */
static void owin_rows(struct tn_line *out, const struct tn_conn *c)
{
    const struct tn_dir_stats *x = &c->d[TN_A2B], *y = &c->d[TN_B2A];
    char p[32], q[32];
    row_s(out, "max owin:", val_str(p, 32, 0, x->owin_n, x->owin_max), val_str(q, 32, 0, y->owin_n, y->owin_max));
    row_s(out, "min non-zero owin:", val_str(p, 32, 0, x->owin_n, x->owin_min_nz),
                  val_str(q, 32, 0, y->owin_n, y->owin_min_nz));
    row_s(out, "avg owin:", val_str(p, 32, 0, x->owin_n, x->owin_n ? x->owin_sum / (double)x->owin_n : 0),
                  val_str(q, 32, 0, y->owin_n, y->owin_n ? y->owin_sum / (double)y->owin_n : 0));
    row_s(out, "wavg owin:", val_str(p, 32, 0, x->owin_n, tn_dir_owin_wavg(x)),
                  val_str(q, 32, 0, y->owin_n, tn_dir_owin_wavg(y)));
}

/* tcptrace -r: the RTT samples of each sender (data -> ACK, Karn's rule), from the handshake,
 * and of full-sized segments only. */
static void rtt_rows(struct tn_line *out, const struct tn_conn *c)
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
        row_u(out, sets[i].n, a->n, b->n);
        row_s(out, sets[i].min, val_str(p, 32, 3, a->n, a->min), val_str(q, 32, 3, b->n, b->min));
        row_s(out, sets[i].max, val_str(p, 32, 3, a->n, a->max), val_str(q, 32, 3, b->n, b->max));
        row_s(out, sets[i].avg, val_str(p, 32, 3, a->n, tn_stat_avg(a)), val_str(q, 32, 3, b->n, tn_stat_avg(b)));
        row_s(out, sets[i].sdv, val_str(p, 32, 3, a->n, tn_stat_stdev(a)),
                      val_str(q, 32, 3, b->n, tn_stat_stdev(b)));
        if (i == 2)
            row_u(out, "max # retrans:", x->max_retrans, y->max_retrans);
        if (i == 0)   /* the a->b sender's handshake RTT: its SYN to b's SYN-ACK (monitor<->b) */
            row_s(out, "RTT from 3WHS (ms):", val_str(p, 32, 3, c->hs_rtt_ms >= 0, c->hs_half_ms[TN_B2A]),
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
    common_rows(&l, c);
    if (c->proto == TN_PK_DFCP) {
        tn_line_end(&l);   /* the DFCP rows print to out themselves */
        dfcp_rows(out, c);
        return;
    }
    tcp_rows(&l, c);
    if (lo && lo->owin)
        owin_rows(&l, c);
    if (lo && lo->rtt)
        rtt_rows(&l, c);
    tn_report_tcp_inference_line(&l, c);
    tn_line_end(&l);
}

struct long_job {
    const struct tn_analyzer *a;
    const struct tn_selection *sel;
    const struct tn_long_opts *lo;
};

static void *long_state_new(const void *arg)
{
    return tn_reader_new(((const struct long_job *)arg)->a);
}

static void long_state_free(void *state)
{
    tn_reader_free(state);
}

/* Connections [lo, hi), read through this thread's reading slot. */
static void long_chunk(FILE *f, void *state, size_t lo, size_t hi, const void *arg)
{
    const struct long_job *j = arg;
    for (size_t i = lo; i < hi; i++) {
        const struct tn_conn *c = tn_reader_conn(state, i);
        if (tn_selected(j->sel, c->idx))
            one_conn(f, c, j->lo);
    }
}

/* A chunk is about 0.8 MB of short connections' reports: few hand-overs, little waiting. */
#define LONG_CHUNK 128

void tn_report_long(FILE *out, const struct tn_analyzer *a, const struct tn_selection *sel,
                    const struct tn_long_opts *lo)
{
    size_t n = tn_analyzer_conn_count(a);
    if (lo && lo->threads > 1 && n > LONG_CHUNK) {
        struct long_job j = {a, sel, lo};
        tn_par_render(out, &(struct tn_par_job){.n = n, .chunk = LONG_CHUNK, .state_new = long_state_new,
                                                .state_free = long_state_free, .render = long_chunk, .arg = &j},
                      lo->threads);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        const struct tn_conn *c = tn_analyzer_conn(a, i);
        if (tn_selected(sel, c->idx))
            one_conn(out, c, lo);
    }
}
