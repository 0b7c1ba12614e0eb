/* view_help.c - every key of the dashboard, and what the columns mean. */
#include <curses.h>

#include "tui_int.h"

static const char *const help[] = {   /* fits 80 columns */
    "Views    1 connections  2 detail  3 fairness  4 events; Tab/Shift-Tab cycle",
    "Select   Up/Down (j/k), PgUp/PgDn, Home/End; Enter opens the detail view",
    "Sort     s next column (#, now, goodput, packets, RTT, rexmt, last); r reverse",
    "Filter   / then text: #N, protocol, address:port or state; Esc clears it",
    "Pause    p or Space freezes the screen; the analysis goes on meanwhile",
    "Export   e: the selected connection's figures (PNG) into ./tcptrace-ng-export/",
    "Events   Up/Down scroll, End newest, c only the selected connection",
    "Back     Esc or Backspace returns to the connection table",
    "Quit     q or F10 (or Ctrl-C): final report printed, output files completed",
    "",
    "now      data rate of the sending direction over the last ~2 s of the trace",
    "goodpt   unique bytes / duration in bit/s (the report's throughput)",
    "RTT      average of the data->ACK samples (Karn's rule)",
    "cwnd     estimated congestion window in bytes; DFCP: blocks in flight",
    "rexmt    retransmitted data packets, both directions",
    "episode  recovery, timeout, zero-win (receiver window) or idle (> 1 s quiet)",
    "drops    kernel: by kernel or interface; analyzer: those + unreadable records",
    "retired  connections idle longer than --idle-timeout, summed in one row",
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
