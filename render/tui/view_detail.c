/* view_detail.c - one connection: its numbers both ways, the inference's live state, and four
 * terminal plots over the connection's life (sequence, cwnd and in-flight, RTT, throughput). */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "tui_int.h"

/* One direction's counters; gap is the space between fields (2, or 1 when the line is long). */
static void dir_line(char *buf, size_t len, const struct tn_tui_row *r, int d, int gap)
{
    char data[16], uniq[16];
    tn_fmt_bytes(data, sizeof data, (double)r->data_bytes[d]);
    tn_fmt_bytes(uniq, sizeof uniq, (double)r->unique_bytes[d]);
    snprintf(buf, len, " %s%*spkts %llu%*sdata %s%*sunique %s%*srexmt %llu%*sdupacks %llu%*szero-win %llu",
             d == 0 ? "a>b" : "b>a", gap, "", (unsigned long long)r->pkts[d], gap, "", data, gap, "", uniq, gap,
             "", (unsigned long long)r->rexmit_pkts[d], gap, "", (unsigned long long)r->dupacks[d], gap, "",
             (unsigned long long)r->zero_wnd[d]);
}

/* The history's last value of series k (< 0: none).  A finished connection has no live state
 * left (its sender was released), but its plots still end at what was last sampled. */
static double last_sampled(const struct tn_tui_hist *h, int k)
{
    for (unsigned i = h->n; i-- > 0;)
        if (h->v[k][i] >= 0)
            return h->v[k][i];
    return -1;
}

/* A live value, or else the last sampled one, flagged by *stale. */
static double now_or_last(double live, const struct tn_tui_hist *h, int k, bool *stale)
{
    if (live >= 0)
        return live;
    double v = last_sampled(h, k);
    if (v >= 0)
        *stale = true;
    return v;
}

/* Draws line, or the shorter form when line does not fit in cols. */
static void draw_fit(int y, int cols, const char *line, const char *shorter)
{
    tn_draw_text(y, 0, cols, A_NORMAL, (int)strlen(line) > cols && shorter ? shorter : line);
}

static void draw(struct tn_ui *ui, int y0, int rows, int cols)
{
    struct tn_tui_row *r = tn_ui_selected(ui);
    if (!r) {
        tn_draw_text(y0 + 1, 2, cols - 2, tn_crt_attr(TN_CR_DIM),
                     "no connection selected: pick one in the table (1) and press Enter");
        return;
    }
    const struct tn_tui_hist *h = &ui->snap->sel_hist;
    static const struct tn_tui_hist none;
    if (h->idx != r->idx)
        h = &none;   /* the next snapshot brings it */
    bool stale = false;   /* a value shown is the last sampled, not the live one */
    char line[400], shorter[400], a[24], b[24], c[24], d[24], e[24];
    snprintf(line, sizeof line, " #%u %s  %s > %s  %s  (%s sends the data)", r->idx, tn_tui_proto(r), r->a, r->b,
             tn_conn_state_name((enum tn_conn_state)r->state), r->main == 0 ? "a" : "b");
    tn_draw_text(y0, 0, cols, tn_crt_attr(TN_CR_HEADER), line);
    for (int dir = 0; dir < 2; dir++) {
        dir_line(line, sizeof line, r, dir, 2);
        dir_line(shorter, sizeof shorter, r, dir, 1);
        draw_fit(y0 + 1 + dir, cols, line, shorter);
    }
    tn_fmt_si(a, sizeof a, r->tput_now, "b/s");
    tn_fmt_si(b, sizeof b, r->goodput, "b/s");
    tn_fmt_ms(c, sizeof c, now_or_last(r->live.srtt_ms, h, TN_H_RTT, &stale));
    tn_fmt_ms(d, sizeof d, r->rtt_avg);
    tn_fmt_ms(e, sizeof e, r->rtt_n ? r->rtt_min : -1);
    snprintf(line, sizeof line, " now %s  goodput %s  srtt %s  RTT avg %s min %s (%llu samples)", a, b, c, d, e,
             (unsigned long long)r->rtt_n);
    snprintf(shorter, sizeof shorter, " now %s  goodput %s  srtt %s  RTT avg %s min %s n %llu", a, b, c, d, e,
             (unsigned long long)r->rtt_n);
    draw_fit(y0 + 3, cols, line, shorter);
    if (r->proto == TN_PK_DFCP) {
        snprintf(line, sizeof line,
                 " blocks %llu  in flight %u (max %.0f, window %u)  decoded %llu  failed %llu  episode %s",
                 (unsigned long long)r->dfcp_blocks, r->live.dfcp_inflight, r->max_inflight, r->dfcp_window,
                 (unsigned long long)r->dfcp_decoded, (unsigned long long)r->dfcp_failed,
                 tn_tui_episode(r, ui->snap->now_ns));
    } else {
        tn_fmt_bytes(a, sizeof a, now_or_last(r->live.cwnd_bytes, h, TN_H_CWND, &stale));
        tn_fmt_bytes(b, sizeof b, now_or_last(r->live.inflight_bytes, h, TN_H_INFLIGHT, &stale));
        tn_fmt_bytes(c, sizeof c, r->max_inflight);
        tn_fmt_bytes(d, sizeof d, r->live.rwnd ? (double)r->live.rwnd : -1);
        if (stale) {   /* nothing is live any more: say the numbers are the last ones seen */
            snprintf(line, sizeof line, " cwnd %s  in flight %s (max %s)  rwnd %s  (last sampled, ended)", a, b,
                     c, d);
            snprintf(shorter, sizeof shorter, " cwnd %s  flight %s (max %s)  rwnd %s  (last sampled)", a, b, c, d);
        } else {
            snprintf(line, sizeof line, " cwnd %s  in flight %s (max %s)  rwnd %s  episode now: %s", a, b, c, d,
                     tn_tui_episode(r, ui->snap->now_ns));
            snprintf(shorter, sizeof shorter, " cwnd %s  flight %s (max %s)  rwnd %s  now: %s", a, b, c, d,
                     tn_tui_episode(r, ui->snap->now_ns));
        }
        draw_fit(y0 + 4, cols, line, shorter);
        snprintf(line, sizeof line,
                 " rexmt fast %llu rto %llu spurious %llu other %llu | episodes: recovery %llu rto %llu "
                 "zero-win %llu idle %llu",
                 (unsigned long long)r->rexmit_cause[0], (unsigned long long)r->rexmit_cause[1],
                 (unsigned long long)r->rexmit_cause[2], (unsigned long long)r->rexmit_cause[3],
                 (unsigned long long)r->ep_recovery, (unsigned long long)r->ep_rto,
                 (unsigned long long)r->ep_zero, (unsigned long long)r->ep_idle);
        snprintf(shorter, sizeof shorter, " rexmt fast %llu rto %llu spur %llu other %llu | recov %llu rto %llu "
                 "zwin %llu idle %llu",
                 (unsigned long long)r->rexmit_cause[0], (unsigned long long)r->rexmit_cause[1],
                 (unsigned long long)r->rexmit_cause[2], (unsigned long long)r->rexmit_cause[3],
                 (unsigned long long)r->ep_recovery, (unsigned long long)r->ep_rto,
                 (unsigned long long)r->ep_zero, (unsigned long long)r->ep_idle);
        draw_fit(y0 + 5, cols, line, shorter);
        line[0] = 0;
    }
    if (line[0])
        tn_draw_text(y0 + 4, 0, cols, A_NORMAL, line);

    /* four plots in a 2x2 grid below */
    int py = y0 + 6, ph = rows - 6;
    if (ph < 8)
        return;
    int p1 = tn_crt_attr(TN_CR_PLOT1), p2 = tn_crt_attr(TN_CR_PLOT2);
    bool dfcp = r->proto == TN_PK_DFCP;
    struct tn_plot_line seq = {h->t, h->v[TN_H_SEQ], h->n, p1, ""};
    struct tn_plot_line win[2] = {{h->t, h->v[TN_H_CWND], h->n, p1, "cwnd"},
                                  {h->t, h->v[TN_H_INFLIGHT], h->n, p2, "flight"}};
    struct tn_plot_line rtt = {h->t, h->v[TN_H_RTT], h->n, p1, "srtt"};
    struct tn_plot_line tput = {h->t, ui->snap->sel_tput, h->n, p2, ""};
    int top = ph / 2, bot = ph - top, left = cols / 2, right = cols - left - 1;
    tn_draw_plot(py, 0, top, left, dfcp ? "Blocks" : "Sequence", dfcp ? "" : "B", &seq, 1, ui->snap->t0_ns);
    if (dfcp)
        tn_draw_plot(py, left + 1, top, right, "Blocks in flight", "", &win[1], 1, ui->snap->t0_ns);
    else
        tn_draw_plot(py, left + 1, top, right, "Window", "B", win, 2, ui->snap->t0_ns);
    tn_draw_plot(py + top, 0, bot, left, "RTT", "ms", &rtt, 1, ui->snap->t0_ns);
    tn_draw_plot(py + top, left + 1, bot, right, "Throughput b/s", "b/s", &tput, 1, ui->snap->t0_ns);
}

static int on_key(struct tn_ui *ui, int ch)
{
    size_t sel = 0;
    for (size_t i = 0; i < ui->nvis; i++)
        if (ui->vis[i]->idx == ui->sel_idx)
            sel = i;
    switch (ch) {
    case KEY_UP: case 'k': case KEY_LEFT:
        if (sel > 0)
            ui->sel_idx = ui->vis[sel - 1]->idx;
        return TN_UI_HANDLED | TN_UI_REDRAW;
    case KEY_DOWN: case 'j': case KEY_RIGHT:
        if (sel + 1 < ui->nvis)
            ui->sel_idx = ui->vis[sel + 1]->idx;
        return TN_UI_HANDLED | TN_UI_REDRAW;
    case '\n': case '\r': case KEY_ENTER:
        ui->view = &tn_view_table;
        return TN_UI_HANDLED | TN_UI_REDRAW;
    default:
        return 0;
    }
}

const struct tn_view_class tn_view_detail = {
    .name = "Detail",
    .keys = "Up/Dn Prev/next  Enter Table  Tab Views  e Export PNG  p Pause  h Help  q Quit",
    .draw = draw,
    .on_key = on_key,
};
