/* view_help.c - every key of the dashboard, and what the columns mean. */
#include <curses.h>

#include "tui_int.h"

static const char *const help[] = {
    "Views        1 connections   2 detail   3 fairness   4 events   Tab / Shift-Tab cycle",
    "Select       Up/Down (j/k), PgUp/PgDn, Home/End; Enter opens the detail view",
    "Sort         s next column (#, now, goodput, packets, RTT, rexmits, last active); r reverse",
    "Filter       / then text: matches #N, protocol, address:port, state; Esc clears",
    "Pause        p or Space freezes the screen; the analysis goes on meanwhile",
    "Export       e writes the selected connection's figures (PNG) into the export directory",
    "Events       Up/Down scroll, End newest, c only the selected connection",
    "Back         Esc or Backspace returns to the connection table",
    "Quit         q or F10 (or Ctrl-C): the final report is printed, output files completed",
    "",
    "Columns      now b/s: data rate of the sending direction over the last ~2 s of trace",
    "             goodput: unique bytes / duration (the report's throughput, bit/s)",
    "             RTT avg: data->ACK samples (Karn's rule); cwnd: estimated congestion window",
    "             (bytes) or, for DFCP, blocks in flight; rexmt: retransmitted data packets",
    "             episode: recovery, timeout, zero-win (receiver window), idle (> 1 s quiet)",
    "Status       drops: kernel = dropped by the kernel/interface; analyzer = those plus",
    "             records the pipeline could not read; anomalies: malformed/truncated packets",
    "Idle         connections quiet longer than --idle-timeout move to the retired summary",
};

static void draw(struct tn_ui *ui, int y0, int rows, int cols)
{
    (void)ui;
    tn_draw_text(y0, 0, cols, tn_crt_attr(TN_CR_HEADER), " Help: keys and columns (h or Esc to return)");
    for (int i = 0; i < (int)TN_ARRAY_LEN(help) && i + 2 < rows; i++)
        tn_draw_text(y0 + 2 + i, 1, cols - 1, A_NORMAL, help[i]);
}

static int on_key(struct tn_ui *ui, int ch)
{
    (void)ui;
    (void)ch;
    return 0;
}

const struct tn_view_class tn_view_help = {
    .name = "Help",
    .keys = "h Back  Esc Table  q Quit",
    .draw = draw,
    .on_key = on_key,
};
