/* tui_int.h - private to render/tui: the dashboard's snapshot model, the terminal module (crt.c)
 * and the views.  Model code (tui_model.c) includes no curses header; views and crt do. */
#ifndef TN_TUI_INT_H
#define TN_TUI_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tui.h"

/* ---- snapshot model (tui_model.c) ---- */

/* Per-connection history for the detail plots, sampled by the capture thread every
 * TN_TUI_TICK_NS of trace time (so a trace replayed at full speed still gets its curves): at most
 * TN_TUI_HIST samples over the whole life of the connection.  When full, every other sample is
 * dropped and the sampling stride doubles, so memory stays fixed while the plot spans the
 * connection.  The dashboard copies the selected connection's history only. */
#define TN_TUI_HIST 240
#define TN_TUI_TICK_NS TN_TUI_SAMPLE_NS

enum tn_tui_hk { TN_H_SEQ, TN_H_CWND, TN_H_INFLIGHT, TN_H_RTT, TN_H_COUNT };

struct tn_tui_hist {
    unsigned idx;              /* connection */
    unsigned n, stride, skip;
    int64_t t[TN_TUI_HIST];
    double bytes[TN_TUI_HIST];         /* data bytes sent so far (for the throughput plot) */
    float v[TN_H_COUNT][TN_TUI_HIST];  /* < 0: no value at that time */
};

/* Rate over a sliding window of recent snapshots (trace time). */
#define TN_TUI_RATE_N 8

struct tn_tui_row {
    unsigned idx;
    uint8_t proto;             /* TN_PK_TCP / TN_PK_DFCP */
    bool over_udp;
    char a[64], b[64];         /* "10.0.0.1:5201", "[2001:db8::1]:80" */
    uint8_t state;             /* enum tn_conn_state */
    uint8_t main;              /* the direction that carries the most data */
    uint64_t pkts[2], data_bytes[2], unique_bytes[2], rexmit_pkts[2], dupacks[2], zero_wnd[2];
    uint64_t anomalies;
    int64_t first_ns, last_ns;
    double tput_now;           /* bit/s of data (retransmissions included) in the main direction */
    double goodput;            /* unique bytes / duration, bit/s: the report's throughput */
    double fair_bps;           /* data bytes both ways / lifetime: the fairness section's basis */
    bool significant;          /* counts in fairness (tn_signif's rule over the rows) */
    double rtt_avg, rtt_min, rtt_max;   /* ms, data->ACK samples; avg < 0: none */
    uint64_t rtt_n;
    struct tn_conn_live live;  /* main direction */
    double hs_rtt_ms;
    uint64_t rexmit_cause[4];  /* fast, rto, spurious, other */
    uint64_t ep_recovery, ep_rto, ep_zero, ep_idle;
    double max_inflight;
    /* DFCP */
    uint64_t dfcp_blocks, dfcp_decoded, dfcp_failed;
    uint32_t dfcp_window;
    bool seen;                 /* present in the latest snapshot */
    int64_t rate_t[TN_TUI_RATE_N];
    uint64_t rate_b[TN_TUI_RATE_N];
    unsigned rate_n;
};

struct tn_tui_ev {
    int64_t t_ns;
    unsigned idx;
    uint8_t kind, dir;
    char detail[86];
};

#define TN_TUI_EVLOG 1024

struct tn_tui_evlog {
    struct tn_tui_ev v[TN_TUI_EVLOG];
    uint64_t total;            /* events ever logged; v[(total - 1) % N] is the newest */
};

struct tn_tui_retired {
    uint64_t conns, pkts, bytes;
};

/* The model the views draw from: copied out of the analyzer under the lock. */
struct tn_tui_snap {
    struct tn_tui_row **rows;  /* active connections, in connection order */
    size_t nrows, cap;
    int32_t *slot;             /* per analyzer connection: row index, -1 retired, -2 unseen */
    size_t nslot, capslot;
    size_t scan_from;          /* connections below this are all retired */
    struct tn_tui_retired retired;
    struct tn_trace_stats st;  /* copy, with anomaly counts */
    struct tn_tui_feed feed;
    int64_t now_ns;            /* trace time of the snapshot */
    int64_t t0_ns;             /* first packet of the trace */
    uint64_t frames_seen;      /* live clock: frames at the last change, and when (wall) */
    int64_t wall_at_frames;
    uint64_t ev_kind[TN_EV_COUNT];   /* events seen, by kind */
    struct tn_tui_evlog log;   /* the UI's copy */
    double jain;               /* over active significant flows; < 0 when fewer than 1 */
    unsigned jain_n;
    unsigned insignificant;    /* connections with data left out of fairness (control connections) */
    bool all_connections;      /* --all-connections: every connection with data counts */
    struct tn_tui_hist sel_hist;       /* copy of the selected connection's history */
    float sel_tput[TN_TUI_HIST];       /* its throughput between samples, bit/s */
};

/* The capture side's state (written by tn_tui_on_event and tn_tui_sample under the lock). */
struct tn_tui_shared_log {
    struct tn_tui_evlog log;
    uint64_t kind[TN_EV_COUNT];
    struct tn_tui_hist **hist;         /* per analyzer connection; NULL once retired */
    size_t nhist, caphist;
    struct tn_tui_hist **act;          /* the histories being sampled */
    size_t nact, capact;
};

void tn_snap_init(struct tn_tui_snap *s);
void tn_snap_fini(struct tn_tui_snap *s);
/* Copy the model; the caller holds the lock.  wall_ns: monotonic time of the snapshot. */
void tn_snap_take(struct tn_tui_snap *s, const struct tn_analyzer *an, const struct tn_tui_feed *feed,
                  struct tn_tui_shared_log *log, double idle_timeout_s, bool live, int64_t wall_ns,
                  unsigned sel_idx);
/* Sample every active connection's history at trace time t (capture thread, lock held). */
void tn_hist_sample(struct tn_tui_shared_log *sh, const struct tn_analyzer *an, int64_t t);
void tn_hist_free_all(struct tn_tui_shared_log *sh);
bool tn_ev_interesting(enum tn_event_kind k);
const char *tn_tui_proto(const struct tn_tui_row *r);
const char *tn_tui_episode(const struct tn_tui_row *r, int64_t now_ns);

/* ---- formatting (tui_fmt.c) ---- */
void tn_fmt_si(char *buf, size_t len, double v, const char *unit);   /* 4.19M, 812k, "-" < 0 */
void tn_fmt_ms(char *buf, size_t len, double ms);                    /* 79us, 12.3ms, 1.20s */
void tn_fmt_bytes(char *buf, size_t len, double b);                  /* 97.0kB */

/* ---- terminal (crt.c): owns initscr/endwin, colours and restoration ---- */
enum tn_crt_color {
    TN_CR_DEFAULT = 0,
    TN_CR_TITLE,
    TN_CR_HEADER,
    TN_CR_SELECTED,
    TN_CR_STATUS,
    TN_CR_KEY,
    TN_CR_KEYTEXT,
    TN_CR_WARN,
    TN_CR_GOOD,
    TN_CR_DIM,
    TN_CR_PLOT1,
    TN_CR_PLOT2,
    TN_CR_BAR,
    TN_CR_COUNT
};

int tn_crt_init(struct tn_err *err);
void tn_crt_done(void);
int tn_crt_attr(enum tn_crt_color c);   /* curses attribute (colour pair or mono fallback) */
bool tn_crt_utf8(void);
bool tn_crt_colors(void);

/* ---- views ---- */
enum { TN_UI_HANDLED = 1, TN_UI_REDRAW = 2, TN_UI_QUIT = 4 };

enum tn_sort {
    TN_SORT_IDX, TN_SORT_TPUT, TN_SORT_GOODPUT, TN_SORT_PKTS, TN_SORT_RTT, TN_SORT_REXMIT,
    TN_SORT_LAST, TN_SORT_COUNT
};

/* UI state shared by the views. */
struct tn_ui {
    struct tn_tui *tui;
    struct tn_tui_snap *snap;
    const struct tn_view_class *view, *prev_view;
    unsigned sel_idx;          /* selected connection (analyzer idx), 0 = none */
    size_t top;                /* first visible row of the table */
    enum tn_sort sort;
    bool reverse;
    char filter[64];
    bool editing;              /* typing the filter */
    char edit[64];
    size_t ev_scroll;          /* event log: lines up from the newest */
    bool ev_sel_only;          /* event log: only the selected connection */
    bool paused;
    double idle_timeout_s;     /* from the config, for the retired row */
    char msg[160];             /* one-line message (export result, hints) */
    int64_t msg_until;
    /* visible, sorted, filtered rows (pointers into snap) */
    struct tn_tui_row **vis;
    size_t nvis, capvis;
};

struct tn_view_class {
    const char *name;
    const char *keys;          /* hint line */
    void (*draw)(struct tn_ui *ui, int y0, int rows, int cols);
    int (*on_key)(struct tn_ui *ui, int key);
};

extern const struct tn_view_class tn_view_table, tn_view_detail, tn_view_fair, tn_view_events,
    tn_view_help;

/* Helpers for views (tui.c). */
void tn_ui_rebuild(struct tn_ui *ui);            /* vis from snap: filter, sort */
struct tn_tui_row *tn_ui_selected(struct tn_ui *ui);
void tn_ui_message(struct tn_ui *ui, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int tn_ui_export(struct tn_ui *ui);
const char *tn_sort_name(enum tn_sort s);

/* Drawing helpers (tui_draw.c). */
void tn_draw_text(int y, int x, int w, int attr, const char *s);   /* clipped, padded to w */
void tn_draw_fill(int y, int x, int w, int attr);
/* "a > b" in at most w columns; addresses lose their start first (ports stay). */
void tn_fmt_endpoints(char *out, size_t len, const char *a, const char *b, int w);
/* A plot of up to two series into a box: title line, y labels, x axis (seconds of trace). */
struct tn_plot_line {
    const int64_t *t;
    const float *v;
    size_t n;
    int attr;
    const char *label;
};
void tn_draw_plot(int y, int x, int h, int w, const char *title, const char *unit,
                  const struct tn_plot_line *lines, int nlines, int64_t t0_ns);
/* A horizontal bar: frac of w cells, with eighths in UTF-8. */
void tn_draw_bar(int y, int x, int w, double frac, int attr);

#endif
