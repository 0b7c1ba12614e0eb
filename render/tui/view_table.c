/* view_table.c - the connection table: one row per active connection, sortable and filterable,
 * with a summary row for connections retired after the idle timeout. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "tui_int.h"

static const char *state_short(uint8_t st, bool wide)
{
    if (wide)
        return tn_conn_state_name((enum tn_conn_state)st);
    switch (st) {
    case TN_ST_COMPLETE: return "done";
    case TN_ST_RESET: return "rst";
    case TN_ST_OPEN: return "open";
    default: return "part";
    }
}

static void cwnd_cell(char *buf, size_t len, const struct tn_tui_row *r)
{
    if (r->proto == TN_PK_DFCP)
        snprintf(buf, len, "%ublk", r->live.dfcp_inflight);
    else
        tn_fmt_si(buf, len, r->live.cwnd_bytes, "");
}

static int fixed_width(bool wide)
{
    /* # proto state [pkts pkts] now goodput rtt cwnd rexmt episode, one space each */
    return 4 + 1 + 5 + 1 + (wide ? 8 : 4) + 1 + (wide ? 20 : 0) + 4 * (6 + 1) + 5 + 1 + 8 + 1;
}

static void format_row(char *line, size_t len, const struct tn_tui_row *r, int ew, bool wide,
                       int64_t now)
{
    char ep[160], now_s[16], gp[16], rtt[16], cw[16], pk[24];
    tn_fmt_endpoints(ep, sizeof ep, r->a, r->b, ew);
    tn_fmt_si(now_s, sizeof now_s, r->tput_now, "");
    tn_fmt_si(gp, sizeof gp, r->goodput, "");
    tn_fmt_ms(rtt, sizeof rtt, r->rtt_avg);
    cwnd_cell(cw, sizeof cw, r);
    pk[0] = 0;
    if (wide)
        snprintf(pk, sizeof pk, "%9llu %9llu ", (unsigned long long)r->pkts[0],
                 (unsigned long long)r->pkts[1]);
    /* ep may hold a multi-byte ellipsis: pad by columns, not bytes */
    int epcols = 0;
    for (const char *p = ep; *p; p++)
        epcols += ((unsigned char)*p & 0xC0) != 0x80;
    int pad = ew - epcols > 0 ? ew - epcols : 0;
    snprintf(line, len, "%4u %-5s %s%*s %-*s %s%6s %6s %6s %6s %5llu %-8s", r->idx, tn_tui_proto(r), ep,
             pad, "", wide ? 8 : 4, state_short(r->state, wide), pk, now_s, gp, rtt, cw,
             (unsigned long long)(r->rexmit_pkts[0] + r->rexmit_pkts[1]), tn_tui_episode(r, now));
}

static void draw(struct tn_ui *ui, int y0, int rows, int cols)
{
    struct tn_tui_snap *s = ui->snap;
    bool wide = cols >= 130;
    int ew = cols - fixed_width(wide);
    if (ew < 12)
        ew = 12;
    char info[200];
    snprintf(info, sizeof info, " %zu of %zu connections  sort: %s%s%s%s", ui->nvis, s->nrows,
             tn_sort_name(ui->sort), ui->reverse ? " (reversed)" : "", ui->filter[0] ? "  filter: " : "",
             ui->filter);
    tn_draw_text(y0, 0, cols, A_BOLD, info);
    char head[400], pk[24] = "";
    if (wide)
        snprintf(pk, sizeof pk, "%9s %9s ", "pkts a>b", "pkts b>a");
    snprintf(head, sizeof head, "%4s %-5s %-*s %-*s %s%6s %6s %6s %6s %5s %-8s", "#", "proto", ew,
             "endpoints a > b", wide ? 8 : 4, wide ? "state" : "st", pk, "now", "goodpt", "RTT",
             "cwnd", "rexmt", "episode");
    tn_draw_text(y0 + 1, 0, cols, tn_crt_attr(TN_CR_HEADER), head);
    int body = rows - 2 - (s->retired.conns ? 1 : 0);
    if (body < 1)
        return;
    size_t sel = 0;
    for (size_t i = 0; i < ui->nvis; i++)
        if (ui->vis[i]->idx == ui->sel_idx)
            sel = i;
    if (sel < ui->top)
        ui->top = sel;
    if (sel >= ui->top + (size_t)body)
        ui->top = sel - (size_t)body + 1;
    if (ui->top + (size_t)body > ui->nvis)
        ui->top = ui->nvis > (size_t)body ? ui->nvis - (size_t)body : 0;
    char line[512];
    for (int k = 0; k < body && ui->top + (size_t)k < ui->nvis; k++) {
        const struct tn_tui_row *r = ui->vis[ui->top + (size_t)k];
        format_row(line, sizeof line, r, ew, wide, s->now_ns);
        bool is_sel = r->idx == ui->sel_idx;
        int attr = is_sel ? tn_crt_attr(TN_CR_SELECTED) : (int)A_NORMAL;
        if (!is_sel && r->live.episode != TN_LIVE_EP_NONE)
            attr = tn_crt_attr(TN_CR_WARN);
        tn_draw_text(y0 + 2 + k, 0, cols, attr, line);
    }
    if (ui->nvis == 0)
        tn_draw_text(y0 + 3, 2, cols - 2, tn_crt_attr(TN_CR_DIM),
                     ui->filter[0] ? "no connection matches the filter (Esc clears it)"
                                   : "no connection yet: waiting for TCP or DFCP packets");
    if (s->retired.conns) {
        char bytes[16];
        tn_fmt_bytes(bytes, sizeof bytes, (double)s->retired.bytes);
        snprintf(line, sizeof line, " retired after %.0f s idle: %llu connections, %llu packets, %s of data",
                 ui->idle_timeout_s, (unsigned long long)s->retired.conns,
                 (unsigned long long)s->retired.pkts, bytes);
        tn_draw_text(y0 + rows - 1, 0, cols, tn_crt_attr(TN_CR_DIM), line);
    }
}

static int on_key(struct tn_ui *ui, int ch)
{
    size_t sel = 0;
    for (size_t i = 0; i < ui->nvis; i++)
        if (ui->vis[i]->idx == ui->sel_idx)
            sel = i;
    size_t page = LINES > 8 ? (size_t)LINES - 6 : 1;
    switch (ch) {
    case KEY_UP: case 'k': sel = sel ? sel - 1 : 0; break;
    case KEY_DOWN: case 'j': sel++; break;
    case KEY_PPAGE: sel = sel > page ? sel - page : 0; break;
    case KEY_NPAGE: sel += page; break;
    case KEY_HOME: case 'g': sel = 0; break;
    case KEY_END: case 'G': sel = ui->nvis ? ui->nvis - 1 : 0; break;
    case '\n': case '\r': case KEY_ENTER:
        if (tn_ui_selected(ui)) {
            ui->prev_view = ui->view;
            ui->view = &tn_view_detail;
        }
        return TN_UI_HANDLED | TN_UI_REDRAW;
    default:
        return 0;
    }
    if (ui->nvis) {
        if (sel >= ui->nvis)
            sel = ui->nvis - 1;
        ui->sel_idx = ui->vis[sel]->idx;
    }
    return TN_UI_HANDLED | TN_UI_REDRAW;
}

const struct tn_view_class tn_view_table = {
    .name = "Connections",
    .keys = "Enter Detail  Tab Views  s Sort  / Filter  p Pause  e Export  h Help  q Quit",
    .draw = draw,
    .on_key = on_key,
};
