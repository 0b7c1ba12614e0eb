/* plot.h - private to render: the device-independent plot model, its figure builders and backends.
 *
 * A figure is built once as a struct tn_plot (title, axes with units, series of lines, points,
 * vertical ticks and shaded spans, each with a colour and a legend entry: tcptrace's xplot
 * vocabulary plus axes) and then serialized by a backend: cairo (PNG/SVG/PDF) or xplot.
 *
 * Figures scale with their size, not with the packet count: the builder fixes the axis ranges
 * first, then every point goes through a per-pixel-column decimator (min/max envelope for lines
 * and ticks, one point per cell for scatter data); event markers are kept one by one.
 */
#ifndef TN_PLOT_H
#define TN_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "render.h"

/* What the numbers on an axis are; the backend picks the display prefix (ms/s, kB/MB, Mbit/s). */
enum tn_unit {
    TN_U_NONE = 0,   /* plain numbers */
    TN_U_TIME_S,     /* seconds (shown as s or ms) */
    TN_U_BYTES,      /* bytes (B, kB, MB, GB: SI prefixes) */
    TN_U_BPS,        /* bit/s (kbit/s, Mbit/s, Gbit/s) */
    TN_U_MS,         /* milliseconds */
};

/* The Okabe-Ito colour-blind-safe palette, plus grey.  Vermillion is reserved for
 * retransmissions in every figure (tests look for it). */
enum tn_color {
    TN_C_BLACK = 0,
    TN_C_ORANGE,
    TN_C_SKY,
    TN_C_GREEN,      /* bluish green */
    TN_C_YELLOW,
    TN_C_BLUE,
    TN_C_VERMILLION,
    TN_C_PURPLE,     /* reddish purple */
    TN_C_GREY,
    TN_C_COUNT
};

/* 0xRRGGBB of each palette entry. */
uint32_t tn_plot_rgb(enum tn_color c);

enum tn_draw {
    TN_D_LINE,       /* polyline through the points in order */
    TN_D_POINTS,     /* a marker at each point */
    TN_D_TICKS,      /* vertical segment from (x, y) to (x, y2) */
    TN_D_SPANS,      /* shaded band from x to x2, full height */
};

enum tn_mark {
    TN_MK_DOT = 0,
    TN_MK_CIRCLE,
    TN_MK_DIAMOND,
    TN_MK_BOX,
    TN_MK_X,
    TN_MK_PLUS,
    TN_MK_UTRI,
    TN_MK_DTRI,
};

struct tn_pp {
    double x, y, x2, y2;   /* x2: spans; y2: ticks */
};

/* Per-column envelope of a line or tick series being decimated. */
struct tn_decim {
    long col;              /* current column, -1 before the first point */
    size_t n;              /* points seen in this column */
    struct tn_pp first, lo, hi, last;
    size_t ilo, ihi;       /* order of lo and hi within the column */
};

struct tn_plot_series {
    char label[64];        /* legend entry; "" = none */
    enum tn_draw draw;
    enum tn_color color;
    enum tn_mark mark;
    double width;          /* line width or marker size, points */
    double alpha;          /* 1 = opaque; spans use less */
    bool dashed;
    int dash;              /* dash pattern when dashed: 0 long, 1 short, 2 dash-dot, 3 dotted */
    bool right;            /* drawn against the right y axis */
    bool keep_all;         /* event markers: never decimated */
    struct tn_pp *pts;
    size_t n, cap;
    struct tn_decim dc;
    uint8_t *cells;        /* POINTS: occupied (column, row) cells */
};

struct tn_plot_axis {
    char label[96];        /* without the unit: the backend appends "(ms)", "(MB)" ... */
    enum tn_unit unit;
    double min, max;
};

/* Where the legend goes (--legend). */
enum tn_legend_pos { TN_LEG_BELOW = 0, TN_LEG_RIGHT, TN_LEG_INSIDE, TN_LEG_OFF };

struct tn_plot {
    char title[160];
    char subtitle[320];
    char note[160];        /* shown in the plot area, e.g. "no RTT samples" */
    struct tn_plot_axis x, y, y2;
    bool has_y2;
    int64_t x0_ns;         /* absolute time of x = 0 (xplot writes absolute timevals) */
    int ncols, nrows;      /* decimation grid; 0 = keep every point */
    enum tn_legend_pos legend;
    struct tn_plot_series *s;
    size_t ns, cap;
};

/* Model (render_plot_model.c). */
struct tn_plot *tn_plot_new(int ncols, int nrows);
void tn_plot_free(struct tn_plot *p);
/* Fix an axis range before adding points (decimation needs it); min == max is widened. */
void tn_plot_set_range(struct tn_plot_axis *ax, double min, double max);
/* A new series; the pointer is valid until the next tn_plot_series_new on the same plot. */
struct tn_plot_series *tn_plot_series_new(struct tn_plot *p, enum tn_draw draw, enum tn_color color,
                                          const char *label);
size_t tn_plot_series_index(const struct tn_plot *p, const struct tn_plot_series *s);
void tn_plot_point(struct tn_plot *p, size_t si, double x, double y);
void tn_plot_tick(struct tn_plot *p, size_t si, double x, double y, double y2);
void tn_plot_span(struct tn_plot *p, size_t si, double x, double x2);
/* Lift the pen: the line's next point starts a new piece (stored as a NaN point). */
void tn_plot_break(struct tn_plot *p, size_t si);
/* Flush the decimators; call once before a backend reads the plot. */
void tn_plot_finish(struct tn_plot *p);
/* Total points of every series (tests, benchmark). */
size_t tn_plot_npoints(const struct tn_plot *p);

/* Backends. */
enum tn_img_fmt { TN_IMG_PNG, TN_IMG_SVG, TN_IMG_PDF };

/* Plot area of a rendered figure, in device pixels (PNG) or points (SVG/PDF). */
struct tn_plot_area {
    double x0, y0, x1, y1;
};

/* Write p to fp (name for messages).  width x height points, PNG scale pixels per point.
 * area, when not NULL, receives the plot area.  Returns 0 or -TN_EIO with err filled. */
int tn_plot_write_cairo_fp(const struct tn_plot *p, enum tn_img_fmt fmt, FILE *fp, const char *name,
                           int width, int height, double scale, struct tn_plot_area *area,
                           struct tn_err *err);
/* The same into the file path, written safely (safeout.h). */
int tn_plot_write_cairo(const struct tn_plot *p, enum tn_img_fmt fmt, const char *path, int width,
                        int height, double scale, struct tn_plot_area *area, struct tn_err *err);
/* Release cairo's font caches once no figure is being drawn (leak checkers see no leak). */
void tn_plot_cairo_release(void);
/* xplot text (xplot.org's format, as tcptrace -G wrote it). */
void tn_plot_write_xplot(const struct tn_plot *p, FILE *out);

/* Create dir if needed (render_plot.c). */
int tn_plot_mkdir(const char *dir, struct tn_err *err);

/* Figure builders (render_fig_*.c).  Each returns NULL when the figure does not apply (no data
 * in that direction, not TCP, nothing in the time window); the caller frees the plot. */
struct tn_fig_cfg {
    const struct tn_view *view;
    int ncols, nrows;          /* decimation grid, 0 = none */
    const struct tn_truth *truth;   /* kernel ground truth for the cwnd figures, or NULL */
    int legend_by;             /* enum tn_legend_by: how multi-flow legends name a flow */
    const struct tn_flow_rule *rules;   /* --flow names */
    size_t nrules;
    int64_t t0_ns;             /* time 0 of the multi-flow figures (the trace's first packet; 0: their first sample) */
};

/* One figure writer for every figure set (render_plot.c): format, size, temporary name and
 * rename, the first error kept, --no-title and --legend applied to each figure. */
struct tn_fig_writer {
    const char *dir;
    struct tn_plot_opts po;    /* defaults filled in */
    enum tn_img_fmt fmt;
    const char *ext;
    struct tn_fig_cfg fc;      /* decimation grid of the size */
    int status;                /* first error, kept in *err */
    struct tn_err *err;
    unsigned written;
};
int tn_fig_writer_open(struct tn_fig_writer *w, const char *dir, const struct tn_plot_opts *po, struct tn_err *err);
/* Write and free p (NULL: the figure does not apply) as dir/stem.ext. */
void tn_fig_writer_emit(struct tn_fig_writer *w, struct tn_plot *p, const char *stem);
/* Release cairo's caches; returns the first error (0 when every figure was written). */
int tn_fig_writer_close(struct tn_fig_writer *w);

/* The look of the k-th flow in multi-flow figures: the Okabe-Ito colours that read as lines on
 * white (no yellow) with a dash pattern and a marker each, so lines differ in grey-scale print. */
struct tn_fig_style {
    enum tn_color color;
    bool dashed;
    int dash;
    enum tn_mark mark;
};
struct tn_fig_style tn_fig_style(size_t k);
/* A flow's legend entry: its --flow label / key, its protocol (and flavour), or host:port. */
void tn_fig_flow_label(const struct tn_fig_cfg *fc, const struct tn_exp_row *r, char *buf, size_t size);
/* The same for a connection (fairness, throughput and parallel figures). */
void tn_fig_conn_flow_label(const struct tn_fig_cfg *fc, const struct tn_conn *c, char *buf, size_t size);

struct tn_plot *tn_fig_tsg(const struct tn_conn *c, enum tn_dir d, const struct tn_fig_cfg *fc);
struct tn_plot *tn_fig_cwnd(const struct tn_conn *c, enum tn_dir d, const struct tn_fig_cfg *fc);
struct tn_plot *tn_fig_rtt(const struct tn_conn *c, enum tn_dir d, const struct tn_fig_cfg *fc);
struct tn_plot *tn_fig_inflight(const struct tn_conn *c, enum tn_dir d, const struct tn_fig_cfg *fc);
struct tn_plot *tn_fig_segsize(const struct tn_conn *c, enum tn_dir d, const struct tn_fig_cfg *fc);
/* Throughput and goodput of one connection (both directions that carry data). */
struct tn_plot *tn_fig_tput_conn(const struct tn_conn *c, const struct tn_fig_cfg *fc);
/* Throughput of one direction (xplot a2b_tput). */
struct tn_plot *tn_fig_tput_dir(const struct tn_conn *c, enum tn_dir d, const struct tn_fig_cfg *fc);
/* Throughput of every connection overlaid; fairness adds Jain's index on a second axis. */
struct tn_plot *tn_fig_tput_all(const struct tn_conn *const *cs, size_t n, bool fairness,
                                const struct tn_fig_cfg *fc);
struct tn_plot *tn_fig_dfcp(const struct tn_conn *c, const struct tn_fig_cfg *fc);
/* Several flows on one axis (render_fig_flows.c): cwnd estimates (two flows or more), RTT CDF and
 * histogram, retransmissions over time (cumulative). */
struct tn_plot *tn_fig_cwnd_all(const struct tn_conn *const *cs, size_t n, const struct tn_fig_cfg *fc);
struct tn_plot *tn_fig_rtt_cdf(const struct tn_conn *const *cs, size_t n, const struct tn_fig_cfg *fc);
struct tn_plot *tn_fig_rtt_hist(const struct tn_conn *const *cs, size_t n, const struct tn_fig_cfg *fc);
struct tn_plot *tn_fig_rexmit_time(const struct tn_conn *const *cs, size_t n, const struct tn_fig_cfg *fc);

/* Helpers shared by the builders (render_fig_common.c). */
const char *tn_fig_dir_name(enum tn_dir d);                    /* "a2b", "b2a" */
/* Does direction d carry data (TCP payload or DFCP DATA)? */
bool tn_fig_dir_has_data(const struct tn_conn *c, enum tn_dir d);
/* Time window of c clipped by the view: false when empty. */
bool tn_fig_window(const struct tn_conn *c, const struct tn_view *v, int64_t *from, int64_t *to);
/* "conn 3: 10.0.0.1:40000 → 10.0.0.2:5201" for direction d (or both ways when d < 0). */
void tn_fig_conn_label(const struct tn_conn *c, int d, char *buf, size_t size);
/* Start a plot with the time axis set to [from, to], x = 0 at from. */
struct tn_plot *tn_fig_begin(const struct tn_fig_cfg *fc, int64_t from, int64_t to);
/* The same with x = 0 at origin (tn_fig_origin: the trace's first packet, so every figure and
 * --from/--to share one time base), so a zoomed window keeps the times of the whole figures. */
struct tn_plot *tn_fig_begin_at(const struct tn_fig_cfg *fc, int64_t origin, int64_t from, int64_t to);
/* Time 0 of c's figures, ns: the trace's first packet (fc->view, else fc->t0_ns), or c's first
 * packet with --time-base conn. */
int64_t tn_fig_origin(const struct tn_conn *c, const struct tn_fig_cfg *fc);
double tn_fig_x(const struct tn_plot *p, int64_t t_ns);       /* seconds since x0 */
/* Largest value of a series within the window (0 when none). */
double tn_fig_series_max(const struct tn_series *s, int64_t from, int64_t to);
/* Jain's fairness index of n values (1 when n <= 1 or all zero). */
double tn_fig_jain_index(const double *x, size_t n);
/* Shaded spans for sender d's slow start, fast recovery and RTO recovery episodes, from the
 * events recovery_start/end, rto_start/end and slowstart_end, clipped to [from, to]. */
void tn_fig_episodes(struct tn_plot *p, const struct tn_conn *c, enum tn_dir d, int64_t from, int64_t to);
/* Effective MSS of sender d (the SYN's MSS less 12 with timestamps), else its largest segment. */
uint32_t tn_fig_mss(const struct tn_conn *c, enum tn_dir d);

#endif
