/* view_events.c - the event log: retransmissions by cause, recovery and timeout episodes, zero
 * windows, DFCP blocks that failed to decode, with their trace time; newest at the bottom. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "tui_int.h"

static bool shown(const struct tn_ui *ui, const struct tn_tui_ev *e)
{
    return !ui->ev_sel_only || e->idx == ui->sel_idx;
}

static void draw(struct tn_ui *ui, int y0, int rows, int cols)
{
    struct tn_tui_snap *s = ui->snap;
    const struct tn_tui_evlog *log = &s->log;
    char line[400];
    snprintf(line, sizeof line,
             " rexmt fast %llu rto %llu  recoveries %llu  timeouts %llu  zero-win %llu  "
             "DFCP failed %llu  dupacks %llu",
             (unsigned long long)s->ev_kind[TN_EV_REXMIT_FAST], (unsigned long long)s->ev_kind[TN_EV_REXMIT_RTO],
             (unsigned long long)s->ev_kind[TN_EV_RECOVERY_START], (unsigned long long)s->ev_kind[TN_EV_RTO_START],
             (unsigned long long)s->ev_kind[TN_EV_ZERO_WINDOW],
             (unsigned long long)s->ev_kind[TN_EV_DFCP_BLOCK_FAILED], (unsigned long long)s->ev_kind[TN_EV_DUPACK]);
    tn_draw_text(y0, 0, cols, A_BOLD, line);
    char sel[48] = "";
    if (ui->ev_sel_only)
        snprintf(sel, sizeof sel, " (connection #%u only)", ui->sel_idx);
    snprintf(line, sizeof line, "%10s %5s %-3s %-17s %s%s", "time s", "#", "dir", "event", "detail", sel);
    tn_draw_text(y0 + 1, 0, cols, tn_crt_attr(TN_CR_HEADER), line);
    int body = rows - 2;
    uint64_t have = log->total < TN_TUI_EVLOG ? log->total : TN_TUI_EVLOG;
    /* collect the indices of the shown events, newest last */
    uint64_t first = log->total - have;
    size_t nshown = 0;
    for (uint64_t i = first; i < log->total; i++)
        nshown += shown(ui, &log->v[i % TN_TUI_EVLOG]);
    if (ui->ev_scroll > nshown)
        ui->ev_scroll = nshown;
    size_t skip_end = ui->ev_scroll;   /* newest events hidden below the window */
    size_t last = nshown - skip_end;   /* shown events [start, last) */
    size_t start = last > (size_t)body ? last - (size_t)body : 0;
    size_t k = 0;
    int y = y0 + 2;
    for (uint64_t i = first; i < log->total && y < y0 + 2 + body; i++) {
        const struct tn_tui_ev *e = &log->v[i % TN_TUI_EVLOG];
        if (!shown(ui, e))
            continue;
        if (k++ < start)
            continue;
        if (k > last)
            break;
        snprintf(line, sizeof line, "%10.6f %5u %-3s %-17s %s", (double)(e->t_ns - s->t0_ns) / 1e9, e->idx,
                 e->dir == 0 ? "a>b" : "b>a", tn_event_kind_name((enum tn_event_kind)e->kind), e->detail);
        bool bad = e->kind == TN_EV_RTO_START || e->kind == TN_EV_REXMIT_RTO || e->kind == TN_EV_DFCP_BLOCK_FAILED ||
                   e->kind == TN_EV_ZERO_WINDOW;
        tn_draw_text(y++, 0, cols, bad ? tn_crt_attr(TN_CR_WARN) : (int)A_NORMAL, line);
    }
    if (nshown == 0)
        tn_draw_text(y0 + 3, 2, cols - 2, tn_crt_attr(TN_CR_DIM),
                     "no events yet (retransmissions, recoveries, timeouts, zero windows, DFCP failures)");
}

static int on_key(struct tn_ui *ui, int ch)
{
    size_t page = LINES > 8 ? (size_t)LINES - 6 : 1;
    switch (ch) {
    case KEY_UP: case 'k': ui->ev_scroll++; break;
    case KEY_DOWN: case 'j': ui->ev_scroll = ui->ev_scroll ? ui->ev_scroll - 1 : 0; break;
    case KEY_PPAGE: ui->ev_scroll += page; break;
    case KEY_NPAGE: ui->ev_scroll = ui->ev_scroll > page ? ui->ev_scroll - page : 0; break;
    case KEY_END: case 'G': ui->ev_scroll = 0; break;
    case 'c': ui->ev_sel_only = !ui->ev_sel_only; ui->ev_scroll = 0; break;
    default: return 0;
    }
    return TN_UI_HANDLED | TN_UI_REDRAW;
}

const struct tn_view_class tn_view_events = {
    .name = "Events",
    .keys = "Up/Dn Scroll  End Newest  c This-conn  Tab Views  p Pause  h Help  q Quit",
    .draw = draw,
    .on_key = on_key,
};
