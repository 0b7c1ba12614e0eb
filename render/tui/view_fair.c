/* view_fair.c - fairness between the active flows: Jain's index (R. Jain, D. Chiu, W. Hawe,
 * DEC-TR-301, 1984: (sum x)^2 / (n sum x^2), 1 = equal shares, 1/n = one flow takes all) over
 * the current throughput of each flow's data direction (once the trace has ended, its data bytes
 * both ways over its lifetime: the fairness section's basis), and each flow's share as a bar.
 * Connections that are not significant (control connections, tn_signif) are left out. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "tui_int.h"

static double rate_of(const struct tn_ui *ui, const struct tn_tui_row *r)
{
    if (!r->significant)
        return 0;   /* a control connection is no competitor (tn_signif) */
    return ui->snap->feed.finished ? r->fair_bps : r->tput_now;
}

static void draw(struct tn_ui *ui, int y0, int rows, int cols)
{
    struct tn_tui_snap *s = ui->snap;
    char line[300];
    const char *basis = s->feed.finished ? "throughput over each connection's life" : "throughput now";
    if (s->jain < 0)
        snprintf(line, sizeof line, " Jain's fairness index: - (no flow is sending)   basis: %s", basis);
    else
        snprintf(line, sizeof line, " Jain's fairness index: %.3f over %u active flow%s   basis: %s", s->jain,
                 s->jain_n, s->jain_n == 1 ? "" : "s", basis);
    tn_draw_text(y0, 0, cols, A_BOLD, line);
    double total = 0;
    for (size_t i = 0; i < ui->nvis; i++)
        total += rate_of(ui, ui->vis[i]) > 0 ? rate_of(ui, ui->vis[i]) : 0;
    char tot[16];
    tn_fmt_si(tot, sizeof tot, total, "b/s");
    if (s->insignificant)
        snprintf(line, sizeof line, " total %s; %u connection%s under 1%% of the largest one's bytes left out", tot,
                 s->insignificant, s->insignificant == 1 ? "" : "s");
    else
        snprintf(line, sizeof line, " total %s; 1.000 = equal shares, 1/n = one flow takes everything", tot);
    tn_draw_text(y0 + 1, 0, cols, tn_crt_attr(TN_CR_DIM), line);
    int lab = cols >= 100 ? 44 : 30, num = 18, bw = cols - lab - num - 2;
    snprintf(line, sizeof line, "%-*s %-*s %*s", lab, "  #  flow (sender > receiver)", bw > 0 ? bw : 0,
             "share", num, "rate     share");
    tn_draw_text(y0 + 2, 0, cols, tn_crt_attr(TN_CR_HEADER), line);
    int y = y0 + 3, shown = 0;
    for (size_t i = 0; i < ui->nvis && y < y0 + rows; i++) {
        const struct tn_tui_row *r = ui->vis[i];
        double x = rate_of(ui, r);
        if (x <= 0)
            continue;
        char who[160], rate[16];
        const char *snd = r->main == 0 ? r->a : r->b, *rcv = r->main == 0 ? r->b : r->a;
        char ep[140];
        tn_fmt_endpoints(ep, sizeof ep, snd, rcv, lab - 6);
        snprintf(who, sizeof who, "%4u %s", r->idx, ep);
        bool sel = r->idx == ui->sel_idx;
        tn_draw_text(y, 0, lab, sel ? tn_crt_attr(TN_CR_SELECTED) : (int)A_NORMAL, who);
        double share = total > 0 ? x / total : 0;
        tn_draw_bar(y, lab, bw, share, tn_crt_attr(TN_CR_BAR));
        tn_fmt_si(rate, sizeof rate, x, "b/s");
        snprintf(line, sizeof line, " %10s %6.1f%%", rate, share * 100);
        tn_draw_text(y, lab + (bw > 0 ? bw : 0), num + 2, A_NORMAL, line);
        y++;
        shown++;
    }
    if (!shown)
        tn_draw_text(y0 + 4, 2, cols - 2, tn_crt_attr(TN_CR_DIM),
                     "no flow carries data right now (flows idle for over a second count as not sending)");
}

static int on_key(struct tn_ui *ui, int ch)
{
    return tn_view_table.on_key(ui, ch);   /* same selection keys; Enter opens the detail */
}

const struct tn_view_class tn_view_fair = {
    .name = "Fairness",
    .keys = "Up/Dn Select  Enter Detail  Tab Views  p Pause  h Help  q Quit",
    .draw = draw,
    .on_key = on_key,
};
