/* tui.c - the dashboard's main loop: snapshots at a fixed period, one screen of one view plus a
 * title bar, a status line of capture statistics and a key bar; global keys, the filter editor,
 * sorting and the figure export. */
#include <curses.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "safeout.h"
#include "tui_int.h"

struct tn_tui {
    struct tn_tui_cfg cfg;
    pthread_mutex_t *lock;
    struct tn_tui_feed *feed;
    const struct tn_analyzer *an;
    struct tn_tui_shared_log shared;   /* written by the capture thread under the lock */
    struct tn_tui_snap snap;
    uint64_t frames;                   /* screens drawn */
};

static int64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

struct tn_tui *tn_tui_new(const struct tn_tui_cfg *cfg, pthread_mutex_t *lock, struct tn_tui_feed *feed,
                          struct tn_err *err)
{
    (void)err;
    struct tn_tui *t = tn_xcalloc(1, sizeof *t);
    t->cfg = *cfg;
    if (t->cfg.refresh_ms <= 0)
        t->cfg.refresh_ms = 200;
    if (!t->cfg.export_dir)
        t->cfg.export_dir = "tcptrace-ng-export";
    t->lock = lock;
    t->feed = feed;
    tn_snap_init(&t->snap);
    return t;
}

void tn_tui_free(struct tn_tui *t)
{
    if (!t)
        return;
    tn_snap_fini(&t->snap);
    tn_hist_free_all(&t->shared);
    free(t);
}

void tn_tui_on_event(void *arg, const struct tn_conn *c, const struct tn_event *e)
{
    struct tn_tui *t = arg;
    if (e->kind < TN_EV_COUNT)
        t->shared.kind[e->kind]++;
    if (e->kind >= TN_EV_COUNT || !tn_ev_interesting((enum tn_event_kind)e->kind))
        return;
    struct tn_tui_ev *v = &t->shared.log.v[t->shared.log.total++ % TN_TUI_EVLOG];
    v->t_ns = e->t_ns;
    v->idx = c->idx;
    v->kind = e->kind;
    v->dir = e->dir;
    memcpy(v->detail, e->detail, sizeof v->detail);
    v->detail[sizeof v->detail - 1] = 0;
}

static void draw_all(struct tn_ui *ui);

void tn_tui_sample(void *arg, const struct tn_analyzer *an, int64_t t_ns)
{
    struct tn_tui *t = arg;
    tn_hist_sample(&t->shared, an, t_ns);
}

/* ---- helpers for the views ---- */

const char *tn_sort_name(enum tn_sort s)
{
    static const char *const names[TN_SORT_COUNT] = {"#", "now", "goodput", "packets", "RTT",
                                                     "rexmits", "last active"};
    return s < TN_SORT_COUNT ? names[s] : "?";
}

static double sort_key(const struct tn_tui_row *r, enum tn_sort s)
{
    switch (s) {
    case TN_SORT_IDX: return (double)r->idx;
    case TN_SORT_TPUT: return r->tput_now;
    case TN_SORT_GOODPUT: return r->goodput;
    case TN_SORT_PKTS: return (double)(r->pkts[0] + r->pkts[1]);
    case TN_SORT_RTT: return r->rtt_avg;
    case TN_SORT_REXMIT: return (double)(r->rexmit_pkts[0] + r->rexmit_pkts[1]);
    case TN_SORT_LAST: return (double)r->last_ns;
    case TN_SORT_COUNT: break;
    }
    return 0;
}

/* qsort_r comparator; ctx is the struct tn_ui whose sort and reverse apply. */
static int cmp_rows(const void *x, const void *y, void *ctx)
{
    const struct tn_ui *ui = ctx;
    const struct tn_tui_row *a = *(const struct tn_tui_row *const *)x, *b = *(const struct tn_tui_row *const *)y;
    double ka = sort_key(a, ui->sort), kb = sort_key(b, ui->sort);
    /* numbers ascending, measurements (rates, counts) largest first */
    int r = ka < kb ? -1 : ka > kb;
    if (ui->sort != TN_SORT_IDX)
        r = -r;
    if (ui->reverse)
        r = -r;
    return r ? r : (a->idx < b->idx ? -1 : 1);
}

static bool matches(const struct tn_tui_row *r, const char *f)
{
    if (!*f)
        return true;
    char line[256], num[16];
    snprintf(num, sizeof num, "#%u", r->idx);
    snprintf(line, sizeof line, "%s %s %s %s %s", num, tn_tui_proto(r), r->a, r->b,
             tn_conn_state_name((enum tn_conn_state)r->state));
    if (strcmp(f, num) == 0)
        return true;
    return strcasestr(line, f) != NULL;
}

void tn_ui_rebuild(struct tn_ui *ui)
{
    struct tn_tui_snap *s = ui->snap;
    tn_grow((void **)&ui->vis, &ui->capvis, s->nrows + 1, sizeof *ui->vis);
    ui->nvis = 0;
    const char *f = ui->editing ? ui->edit : ui->filter;
    for (size_t i = 0; i < s->nrows; i++)
        if (matches(s->rows[i], f))
            ui->vis[ui->nvis++] = s->rows[i];
    if (ui->sort != TN_SORT_IDX || ui->reverse)
        qsort_r(ui->vis, ui->nvis, sizeof *ui->vis, cmp_rows, ui);
    if (!tn_ui_selected(ui))
        ui->sel_idx = ui->nvis ? ui->vis[0]->idx : 0;
}

struct tn_tui_row *tn_ui_selected(struct tn_ui *ui)
{
    for (size_t i = 0; i < ui->nvis; i++)
        if (ui->vis[i]->idx == ui->sel_idx)
            return ui->vis[i];
    return NULL;
}

void tn_ui_message(struct tn_ui *ui, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ui->msg, sizeof ui->msg, fmt, ap);
    va_end(ap);
    ui->msg_until = mono_ns() + 3000000000LL;
}

int tn_ui_export(struct tn_ui *ui)
{
    struct tn_tui *t = ui->tui;
    struct tn_tui_row *r = tn_ui_selected(ui);
    if (!r) {
        tn_ui_message(ui, "export: no connection selected");
        return TN_UI_HANDLED | TN_UI_REDRAW;
    }
    if (!t->cfg.history) {
        tn_ui_message(ui, "export: no per-packet history kept; start with --plot DIR to record it");
        return TN_UI_HANDLED | TN_UI_REDRAW;
    }
    tn_ui_message(ui, "exporting the figures of #%u ...", r->idx);
    draw_all(ui);
    struct tn_selection sel = {.idx = &r->idx, .n = 1};
    struct tn_view v = {.sel = &sel};
    struct tn_err err = {0};
    /* The analyzer must not change while the figures read it: the capture thread waits for this
     * (the kernel buffers meanwhile).  Only on this explicit request. */
    pthread_mutex_lock(t->lock);
    int rc = tn_plot_write_all(t->cfg.export_dir, t->an, &v, &t->cfg.plot, &err);
    pthread_mutex_unlock(t->lock);
    if (rc < 0)
        tn_ui_message(ui, "export failed: %s", err.msg);
    else
        tn_ui_message(ui, "exported the figures of #%u into %s/", r->idx, t->cfg.export_dir);
    return TN_UI_HANDLED | TN_UI_REDRAW;
}

/* ---- frame ---- */

static void draw_title(struct tn_ui *ui, int cols)
{
    struct tn_tui *t = ui->tui;
    struct tn_tui_snap *s = ui->snap;
    char left[256], right[160], mode[200];
    const char *base = strrchr(t->cfg.source, '/');
    base = base && base[1] ? base + 1 : t->cfg.source;
    if (t->cfg.live)
        snprintf(mode, sizeof mode, "live %s", t->cfg.source);
    else if (t->cfg.replay_speed > 0)
        snprintf(mode, sizeof mode, "replay %s x%g", base, t->cfg.replay_speed);
    else
        snprintf(mode, sizeof mode, "replay %s (fast)", base);
    snprintf(left, sizeof left, " tcptrace-ng  %s", mode);
    double el = s->st.have_time ? (double)(s->now_ns - s->t0_ns) / 1e9 : 0;
    snprintf(right, sizeof right, "%s%s%s  t=%.1fs ", ui->paused ? "[PAUSED] " : "",
             s->feed.finished ? (t->cfg.live ? "[STOPPED] " : "[END OF TRACE] ") : "", ui->view->name, el);
    int attr = tn_crt_attr(TN_CR_TITLE);
    tn_draw_fill(0, 0, cols, attr);
    int rw = (int)strlen(right);
    tn_draw_text(0, 0, cols - rw - 1 > 0 ? cols - rw - 1 : cols, attr, left);
    if (cols - rw > 10)
        tn_draw_text(0, cols - rw, rw, attr, right);
}

static void draw_status(struct tn_ui *ui, int y, int cols)
{
    struct tn_tui_snap *s = ui->snap;
    char line[320];
    uint64_t kdrop = s->feed.kernel_drop + s->feed.if_drop;
    int n = snprintf(line, sizeof line,
                     " pkts %llu  drops: kernel %llu analyzer %llu  anomalies %llu  conns %zu active",
                     (unsigned long long)s->st.frames, (unsigned long long)kdrop,
                     (unsigned long long)(kdrop + s->feed.failed), (unsigned long long)s->st.anom_pkts,
                     s->nrows);
    if (s->retired.conns && n > 0 && (size_t)n < sizeof line)
        n += snprintf(line + n, sizeof line - (size_t)n, ", %llu retired",
                      (unsigned long long)s->retired.conns);
    if (s->feed.nwarnings && n > 0 && (size_t)n < sizeof line)
        snprintf(line + n, sizeof line - (size_t)n, "  warnings %u", s->feed.nwarnings);
    tn_draw_text(y, 0, cols, tn_crt_attr(TN_CR_STATUS), line);
}

static void draw_keys(struct tn_ui *ui, int y, int cols)
{
    if (ui->editing) {
        char line[128];
        snprintf(line, sizeof line, " filter: %s_   (Enter apply, Esc cancel)", ui->edit);
        tn_draw_text(y, 0, cols, tn_crt_attr(TN_CR_KEYTEXT), line);
        return;
    }
    if (ui->msg[0] && mono_ns() < ui->msg_until) {
        tn_draw_text(y, 0, cols, tn_crt_attr(TN_CR_WARN), ui->msg);
        return;
    }
    /* "Key Text" pairs, htop style: keys bold, their meaning in the bar colour */
    const char *k = ui->view->keys;
    move(y, 0);
    int x = 0;
    while (*k && x < cols) {
        const char *sp = strchr(k, ' ');
        const char *end = strstr(k, "  ");
        if (!sp)
            break;
        if (!end)
            end = k + strlen(k);
        int kl = (int)(sp - k), tl = (int)(end - sp - 1);
        attrset(tn_crt_attr(TN_CR_KEY));
        mvaddnstr(y, x, k, kl < cols - x ? kl : cols - x);
        x += kl;
        attrset(tn_crt_attr(TN_CR_KEYTEXT));
        if (x < cols) {
            mvaddnstr(y, x, sp, tl + 1 < cols - x ? tl + 1 : cols - x);
            x += tl + 1;
        }
        if (x < cols) {
            attrset(A_NORMAL);
            mvaddch(y, x++, ' ');
        }
        k = *end ? end + 2 : end;
    }
    attrset(A_NORMAL);
    if (x < cols)
        mvhline(y, x, ' ', cols - x);
}

static void draw_all(struct tn_ui *ui)
{
    int rows = LINES, cols = COLS;
    erase();
    if (rows < 8 || cols < 40) {
        mvaddstr(0, 0, "terminal too small");
        refresh();
        return;
    }
    draw_title(ui, cols);
    ui->view->draw(ui, 1, rows - 3, cols);
    draw_status(ui, rows - 2, cols);
    draw_keys(ui, rows - 1, cols);
    refresh();
    ui->tui->frames++;
}

static void take_snapshot(struct tn_ui *ui)
{
    struct tn_tui *t = ui->tui;
    int64_t w = mono_ns();
    pthread_mutex_lock(t->lock);
    t->snap.all_connections = t->cfg.plot.all_connections;
    tn_snap_take(&t->snap, t->an, t->feed, &t->shared, t->cfg.idle_timeout_s, t->cfg.live, w, ui->sel_idx);
    pthread_mutex_unlock(t->lock);
    tn_ui_rebuild(ui);
}

static int edit_key(struct tn_ui *ui, int ch)
{
    size_t n = strlen(ui->edit);
    if (ch == 27) {
        ui->editing = false;
    } else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
        snprintf(ui->filter, sizeof ui->filter, "%s", ui->edit);
        ui->editing = false;
        ui->top = 0;
    } else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
        if (n)
            ui->edit[n - 1] = 0;
    } else if (ch >= 32 && ch < 127 && n + 1 < sizeof ui->edit) {
        ui->edit[n] = (char)ch;
        ui->edit[n + 1] = 0;
    }
    tn_ui_rebuild(ui);
    return TN_UI_HANDLED | TN_UI_REDRAW;
}

static void go(struct tn_ui *ui, const struct tn_view_class *v)
{
    if (ui->view != v) {
        ui->prev_view = ui->view;
        ui->view = v;
    }
}

static int global_key(struct tn_ui *ui, int ch)
{
    static const struct tn_view_class *const order[] = {&tn_view_table, &tn_view_detail, &tn_view_fair,
                                                        &tn_view_events};
    switch (ch) {
    case 'q':
    case 'Q':
    case KEY_F(10):
        return TN_UI_QUIT;
    case 'h':
    case '?':
    case KEY_F(1):
        if (ui->view == &tn_view_help)
            ui->view = ui->prev_view ? ui->prev_view : &tn_view_table;
        else
            go(ui, &tn_view_help);
        return TN_UI_HANDLED | TN_UI_REDRAW;
    case '1': case '2': case '3': case '4':
        go(ui, order[ch - '1']);
        return TN_UI_HANDLED | TN_UI_REDRAW;
    case '\t':
    case KEY_BTAB: {
        size_t i = 0;
        while (i < TN_ARRAY_LEN(order) && order[i] != ui->view)
            i++;
        size_t n = TN_ARRAY_LEN(order);
        i = i >= n ? 0 : (ch == '\t' ? i + 1 : i + n - 1) % n;
        go(ui, order[i]);
        return TN_UI_HANDLED | TN_UI_REDRAW;
    }
    case 'p':
    case ' ':
        ui->paused = !ui->paused;
        tn_ui_message(ui, ui->paused ? "view paused: analysis goes on; p resumes" : "view resumed");
        return TN_UI_HANDLED | TN_UI_REDRAW;
    case 'e':
        return tn_ui_export(ui);
    case '/':
        ui->editing = true;
        snprintf(ui->edit, sizeof ui->edit, "%s", ui->filter);
        return TN_UI_HANDLED | TN_UI_REDRAW;
    case 's':
        ui->sort = (enum tn_sort)((ui->sort + 1) % TN_SORT_COUNT);
        tn_ui_rebuild(ui);   /* the table's info line names the sort */
        return TN_UI_HANDLED | TN_UI_REDRAW;
    case 'r':
        ui->reverse = !ui->reverse;
        tn_ui_rebuild(ui);
        return TN_UI_HANDLED | TN_UI_REDRAW;
    case 27:   /* Esc: back to the table; in the table, clear the filter */
    case KEY_BACKSPACE:
    case 127:
        if (ui->view != &tn_view_table) {
            go(ui, &tn_view_table);
        } else if (ui->filter[0]) {
            ui->filter[0] = 0;
            tn_ui_rebuild(ui);
        }
        return TN_UI_HANDLED | TN_UI_REDRAW;
    default:
        return 0;
    }
}

static void write_stats(const struct tn_tui *t, double secs)
{
    if (!t->cfg.stats_file)
        return;
    struct tn_safeout o;
    struct tn_err err;
    if (tn_safeout_open(&o, t->cfg.stats_file, &err) < 0) {
        fprintf(stderr, "tcptrace-ng: %s\n", err.msg);
        return;
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    fprintf(o.fp, "frames %llu\nseconds %.3f\nrefresh_per_s %.2f\npeak_rss_kib %ld\n",
            (unsigned long long)t->frames, secs, secs > 0 ? (double)t->frames / secs : 0, ru.ru_maxrss);
    if (tn_safeout_commit(&o, &err) < 0)
        fprintf(stderr, "tcptrace-ng: %s\n", err.msg);
}

int tn_tui_run(struct tn_tui *t, const struct tn_analyzer *an, volatile sig_atomic_t *stop,
               struct tn_err *err)
{
    t->an = an;
    int r = tn_crt_init(err);
    if (r < 0)
        return r;
    struct tn_ui ui = {.tui = t, .snap = &t->snap, .view = &tn_view_table,
                        .idle_timeout_s = t->cfg.idle_timeout_s};
    int64_t start = mono_ns(), period = (int64_t)t->cfg.refresh_ms * 1000000, next = 0;
    bool redraw = true;
    while (!*stop) {
        int64_t now = mono_ns();
        if (now >= next) {
            if (!ui.paused)
                take_snapshot(&ui);
            next = now + period;
            redraw = true;   /* also while paused: the clock, messages */
        }
        if (redraw) {
            draw_all(&ui);
            redraw = false;
        }
        int wait = (int)((next - mono_ns()) / 1000000);
        timeout(wait < 1 ? 1 : wait > 100 ? 100 : wait);
        int ch = getch();
        if (ch == ERR)
            continue;
        if (ch == KEY_RESIZE) {
            redraw = true;
            continue;
        }
        int res = ui.editing ? edit_key(&ui, ch) : global_key(&ui, ch);
        if (!(res & TN_UI_HANDLED) && !(res & TN_UI_QUIT))
            res = ui.view->on_key(&ui, ch);
        if (res & TN_UI_QUIT)
            break;
        if (res & TN_UI_REDRAW)
            redraw = true;
    }
    tn_crt_done();
    write_stats(t, (double)(mono_ns() - start) / 1e9);
    free(ui.vis);
    return 0;
}
