/* check_render_plot.c - figures, xplot files and packets.csv: built from the samples and from
 * hand-made connections, read back (PNG through cairo, CSV through libcsv, xplot against its
 * grammar) and checked against facts that follow from the data. */
#include <cairo.h>
#include <check.h>
#include <csv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pipeline_helper.h"
#include "plot.h"
#include "render.h"
#include "tcp_pkt_helper.h"

static const struct tn_analysis_cfg rec_cfg = {
    .record_events = true, .record_series = true, .record_packets = true,
};

static char tmpdir[512];

static void mk_tmpdir(const char *what)
{
    snprintf(tmpdir, sizeof tmpdir, "%s/test-render-%s-%d", TN_BINARY_DIR, what, (int)getpid());
    mkdir(tmpdir, 0777);
}

static struct tn_analyzer *load_loopback(void)
{
    struct tn_analyzer *an = tn_test_load(TN_SAMPLES_DIR "/loopback-iperf3.pcap", &rec_cfg);
    ck_assert_ptr_nonnull(an);
    return an;
}

/* The connection carrying the most data (the iperf3 transfer), and its direction. */
static const struct tn_conn *bulk_conn(const struct tn_analyzer *an)
{
    const struct tn_conn *best = NULL;
    for (size_t i = 0; i < tn_analyzer_conn_count(an); i++) {
        const struct tn_conn *c = tn_analyzer_conn(an, i);
        if (!best || c->d[TN_A2B].data_bytes > best->d[TN_A2B].data_bytes)
            best = c;
    }
    return best;
}

static bool exists(const char *dir, const char *name)
{
    char p[1600];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return stat(p, &st) == 0 && st.st_size > 0;
}

/* ---- PNG pixels ---- */

struct img {
    cairo_surface_t *sf;
    unsigned char *data;
    int w, h, stride;
};

static void img_load(struct img *m, const char *path)
{
    m->sf = cairo_image_surface_create_from_png(path);
    ck_assert_msg(cairo_surface_status(m->sf) == CAIRO_STATUS_SUCCESS, "%s: not a PNG", path);
    m->data = cairo_image_surface_get_data(m->sf);
    m->w = cairo_image_surface_get_width(m->sf);
    m->h = cairo_image_surface_get_height(m->sf);
    m->stride = cairo_image_surface_get_stride(m->sf);
}

static uint32_t px(const struct img *m, int x, int y)
{
    uint32_t v;
    memcpy(&v, m->data + (size_t)y * (size_t)m->stride + (size_t)x * 4, 4);
    return v & 0xffffff;
}

static bool near(uint32_t a, uint32_t b, int tol)
{
    for (int s = 0; s < 24; s += 8) {
        int d = (int)(a >> s & 0xff) - (int)(b >> s & 0xff);
        if (d > tol || d < -tol)
            return false;
    }
    return true;
}

static long count_color(const struct img *m, const struct tn_plot_area *a, uint32_t rgb)
{
    long n = 0;
    for (int y = (int)a->y0 + 2; y < (int)a->y1 - 1; y++)
        for (int x = (int)a->x0 + 2; x < (int)a->x1 - 1; x++)
            n += near(px(m, x, y), rgb, 10);
    return n;
}

/* Pixels in the plot area that are neither white, the grid's grey nor a shading. */
static long count_ink(const struct img *m, const struct tn_plot_area *a)
{
    long n = 0;
    for (int y = (int)a->y0 + 2; y < (int)a->y1 - 1; y++)
        for (int x = (int)a->x0 + 2; x < (int)a->x1 - 1; x++) {
            uint32_t v = px(m, x, y);
            int r = v >> 16 & 0xff, g = v >> 8 & 0xff, b = v & 0xff;
            n += r + g + b < 3 * 190;   /* light backgrounds and shadings are brighter */
        }
    return n;
}

/* The ACK line never goes down: its topmost pixel per column never moves down as x grows. */
static void assert_ack_monotone(const struct img *m, const struct tn_plot_area *a)
{
    uint32_t green = tn_plot_rgb(TN_C_GREEN);
    int prev = -1, cols = 0;
    for (int x = (int)a->x0 + 2; x < (int)a->x1 - 1; x++) {
        int top = -1;
        for (int y = (int)a->y0 + 1; y < (int)a->y1 - 1 && top < 0; y++)
            if (near(px(m, x, y), green, 10))
                top = y;
        if (top < 0)
            continue;
        cols++;
        if (prev >= 0)
            ck_assert_msg(top <= prev + 1, "ACK line goes down at x=%d: row %d after %d", x, top, prev);
        prev = top;
    }
    ck_assert_msg(cols > 50, "ACK line found in only %d columns", cols);
}

static struct tn_plot_area render_png(const struct tn_plot *p, const char *name, struct img *m)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    struct tn_plot_area a;
    struct tn_err err;
    int r = tn_plot_write_cairo(p, TN_IMG_PNG, path, 640, 400, 2, &a, &err);
    ck_assert_msg(r == 0, "%s", err.msg);
    img_load(m, path);
    ck_assert_int_eq(m->w, 1280);
    ck_assert_int_eq(m->h, 800);
    return a;
}

static const struct tn_plot_series *find_series(const struct tn_plot *p, const char *label)
{
    for (size_t i = 0; i < p->ns; i++)
        if (strcmp(p->s[i].label, label) == 0)
            return &p->s[i];
    return NULL;
}

/* ---- hand-made TCP connection with a loss and a fast retransmit, through the analyzer ---- */

static uint64_t pktno;

static struct tn_pkt tcp(bool from_client, uint32_t seq, uint32_t ack, uint8_t flags, uint32_t len,
                         double t)
{
    int64_t t_ns = (1000 + (int64_t)t) * 1000000000 + (uint32_t)((t - floor(t)) * 1e9);
    struct tn_pkt p = tn_test_tcp(from_client, seq, ack, flags, 60000, len, t_ns, ++pktno);
    p.ip_id = (uint16_t)pktno;
    return p;
}

enum { S = TN_TCP_SYN, A = TN_TCP_ACK, F = TN_TCP_FIN, P = TN_TCP_PSH };

/* 40 segments of 1000 B, 10 ms apart, ACKed 20 ms later (the monitor is next to the sender);
 * segment 10 is lost after the monitor: dupacks follow and the sender resends it. */
static struct tn_analyzer *lossy_flow(void)
{
    struct tn_analyzer *an = tn_analyzer_new(&rec_cfg);
    const uint32_t ci = 1000, si = 5000, mss = 1000;
    pktno = 0;
    struct tn_pkt p = tcp(true, ci, 0, S, 0, 0);
    p.tcp.opt.has_mss = true;
    p.tcp.opt.mss = 1000;
    tn_analyzer_add(an, &p, TN_DIS_OK, "test");
    p = tcp(false, si, ci + 1, S | A, 0, 0.020);
    p.tcp.opt.has_mss = true;
    p.tcp.opt.mss = 1000;
    tn_analyzer_add(an, &p, TN_DIS_OK, "test");
    p = tcp(true, ci + 1, si + 1, A, 0, 0.040);
    tn_analyzer_add(an, &p, TN_DIS_OK, "test");
    uint32_t acked = ci + 1;
    double t = 0.05;
    for (int k = 0; k < 40; k++) {
        uint32_t seq = ci + 1 + (uint32_t)k * mss;
        p = tcp(true, seq, si + 1, A | P, mss, t);
        tn_analyzer_add(an, &p, TN_DIS_OK, "test");
        /* the ACK for segment k - 2 (20 ms later) */
        if (k >= 2) {
            int j = k - 2;
            if (j < 10 || acked > ci + 1 + 10 * mss)
                acked = ci + 1 + (uint32_t)(j + 1) * mss;
            /* j >= 10 before the resend: duplicate ACKs for the hole at segment 10 */
            p = tcp(false, si + 1, acked, A, 0, t + 0.001);
            tn_analyzer_add(an, &p, TN_DIS_OK, "test");
        }
        if (k == 14) {   /* after three dupacks: fast retransmit of segment 10 */
            p = tcp(true, ci + 1 + 10 * mss, si + 1, A, mss, t + 0.002);
            tn_analyzer_add(an, &p, TN_DIS_OK, "test");
        }
        if (k == 16)     /* the resend arrives: everything up to segment 14 is ACKed */
            acked = ci + 1 + 15 * mss;
        t += 0.01;
    }
    p = tcp(false, si + 1, ci + 1 + 40 * mss, A, 0, t + 0.02);
    tn_analyzer_add(an, &p, TN_DIS_OK, "test");
    tn_analyzer_finish(an);
    return an;
}

/* ---- figures from the loopback sample ---- */

START_TEST(test_plot_all_names)
{
    struct tn_analyzer *an = load_loopback();
    mk_tmpdir("all");
    struct tn_plot_opts po = {.format = "png", .width = 480, .height = 300, .scale = 1.5};
    struct tn_view v = {0};
    struct tn_err err;
    /* iperf3's control connection (conn 1, 37+ bytes of JSON against the 1 MB transfer) is under
     * 1% of the largest connection's bytes: no figures of it, and no fairness figure for the one
     * flow left; --all-connections draws it too */
    for (int all = 0; all < 2; all++) {
        po.all_connections = all;
        mk_tmpdir(all ? "allconn" : "all");
        ck_assert_int_eq(tn_plot_write_all(tmpdir, an, &v, &po, &err), 0);
        uint64_t maxb = 0;
        for (size_t i = 0; i < tn_analyzer_conn_count(an); i++) {
            const struct tn_conn *c = tn_analyzer_conn(an, i);
            uint64_t b = c->d[0].data_bytes + c->d[1].data_bytes;
            maxb = b > maxb ? b : maxb;
        }
        size_t drawn = 0;
        for (size_t i = 0; i < tn_analyzer_conn_count(an); i++) {
            const struct tn_conn *c = tn_analyzer_conn(an, i);
            bool small = (double)(c->d[0].data_bytes + c->d[1].data_bytes) < 0.01 * (double)maxb;
            bool want = all || !small;
            drawn += want;
            for (int d = 0; d < 2; d++) {
                static const char *const kinds[] = {"tsg", "cwnd", "rtt", "inflight", "segsize"};
                for (size_t k = 0; k < TN_ARRAY_LEN(kinds); k++) {
                    char name[128];
                    snprintf(name, sizeof name, "conn%u-%s-%s.png", c->idx, kinds[k], d ? "b2a" : "a2b");
                    /* direction figures exactly for the directions that carry data */
                    ck_assert_msg(exists(tmpdir, name) == (want && c->d[d].data_pkts > 0), "%s", name);
                }
            }
            char name[64];
            snprintf(name, sizeof name, "conn%u-tput.png", c->idx);
            ck_assert_msg(exists(tmpdir, name) == want, "%s", name);
        }
        ck_assert(exists(tmpdir, "throughput.png"));
        ck_assert_int_ge(tn_analyzer_conn_count(an), 2);
        ck_assert_uint_eq(drawn, all ? 2 : 1);
        ck_assert(exists(tmpdir, "fairness.png") == (all != 0));
    }
    po.all_connections = false;
    ck_assert(!exists(tmpdir, "conn1-dfcp-blocks.png"));   /* TCP only here */

    /* size follows the options: 480 x 300 points at 1.5 pixels per point */
    struct img m;
    char path[1024];
    snprintf(path, sizeof path, "%s/throughput.png", tmpdir);
    img_load(&m, path);
    ck_assert_int_eq(m.w, 720);
    ck_assert_int_eq(m.h, 450);
    cairo_surface_destroy(m.sf);

    /* a selection of one connection writes only its figures, and no fairness figure */
    mk_tmpdir("sel");
    unsigned pick = bulk_conn(an)->idx;
    struct tn_selection sel = {.idx = &pick, .n = 1};
    v.sel = &sel;
    ck_assert_int_eq(tn_plot_write_all(tmpdir, an, &v, &po, &err), 0);
    ck_assert(!exists(tmpdir, "fairness.png"));
    ck_assert(exists(tmpdir, "throughput.png"));
    snprintf(path, sizeof path, "conn%u-tsg-a2b.png", pick == 1 ? 2 : 1);
    ck_assert(!exists(tmpdir, path));

    /* an unknown format is an error naming it */
    po.format = "gif";
    ck_assert_int_lt(tn_plot_write_all(tmpdir, an, &v, &po, &err), 0);
    ck_assert(strstr(err.msg, "gif") != NULL);
    tn_analyzer_free(an);
}
END_TEST

START_TEST(test_tsg_loopback_pixels)
{
    struct tn_analyzer *an = load_loopback();
    mk_tmpdir("tsg");
    const struct tn_conn *c = bulk_conn(an);
    ck_assert_uint_gt(c->d[TN_A2B].data_pkts, 100);
    ck_assert_uint_eq(c->d[TN_A2B].rexmit_pkts, 0);   /* a clean loopback transfer */
    struct tn_view v = {0};
    struct tn_fig_cfg fc = {.view = &v, .ncols = 1280, .nrows = 800};
    struct tn_plot *p = tn_fig_tsg(c, TN_A2B, &fc);
    ck_assert_ptr_nonnull(p);
    struct img m;
    struct tn_plot_area a = render_png(p, "tsg.png", &m);
    ck_assert_int_gt(count_ink(&m, &a), 2000);   /* the plot area is not blank */
    ck_assert_int_gt(count_color(&m, &a, tn_plot_rgb(TN_C_BLUE)), 50);   /* data segments */
    ck_assert_int_eq(count_color(&m, &a, tn_plot_rgb(TN_C_VERMILLION)), 0);
    assert_ack_monotone(&m, &a);
    cairo_surface_destroy(m.sf);
    tn_plot_free(p);

    /* no data the other way: no figure */
    ck_assert_ptr_null(tn_fig_tsg(c, TN_B2A, &fc));
    tn_analyzer_free(an);
}
END_TEST

START_TEST(test_tsg_rexmit_pixels)
{
    struct tn_analyzer *an = lossy_flow();
    mk_tmpdir("rexmit");
    ck_assert_uint_eq(tn_analyzer_conn_count(an), 1);
    const struct tn_conn *c = tn_analyzer_conn(an, 0);
    ck_assert_uint_eq(c->d[TN_A2B].rexmit_pkts, 1);
    struct tn_view v = {0};
    struct tn_fig_cfg fc = {.view = &v, .ncols = 1280, .nrows = 800};
    struct tn_plot *p = tn_fig_tsg(c, TN_A2B, &fc);
    ck_assert_ptr_nonnull(p);
    const struct tn_plot_series *rx = find_series(p, "retransmission");
    ck_assert_ptr_nonnull(rx);
    ck_assert_uint_eq(rx->n, 1);
    ck_assert_double_eq(rx->pts[0].y, 10000 + 1);   /* relative: segment 10 starts at 10001 */
    ck_assert_double_eq(rx->pts[0].y2, 11000 + 1);
    const struct tn_plot_series *dup = find_series(p, "duplicate ACK");
    ck_assert_ptr_nonnull(dup);
    ck_assert_uint_ge(dup->n, 3);
    for (size_t i = 0; i < dup->n; i++)   /* every dupack repeats the hole's start */
        ck_assert_double_eq(dup->pts[i].y, 10001);
    struct img m;
    struct tn_plot_area a = render_png(p, "tsg-rexmit.png", &m);
    ck_assert_int_gt(count_color(&m, &a, tn_plot_rgb(TN_C_VERMILLION)), 10);
    assert_ack_monotone(&m, &a);
    cairo_surface_destroy(m.sf);
    tn_plot_free(p);

    /* the segment-size figure marks the retransmission too */
    p = tn_fig_segsize(c, TN_A2B, &fc);
    ck_assert_uint_eq(find_series(p, "retransmission")->n, 1);
    tn_plot_free(p);
    tn_analyzer_free(an);
}
END_TEST

/* Every figure kind renders to PNG, SVG and PDF; SVG is well-formed XML. */
START_TEST(test_formats)
{
    struct tn_analyzer *an = load_loopback();
    static const char *const fmts[] = {"png", "svg", "pdf"};
    static const char *const magic[] = {"\x89PNG", "<?xml", "%PDF"};
    for (int f = 0; f < 3; f++) {
        mk_tmpdir(fmts[f]);
        struct tn_plot_opts po = {.format = fmts[f], .width = 400, .height = 260, .scale = 1};
        struct tn_view v = {0};
        struct tn_err err;
        ck_assert_int_eq(tn_plot_write_all(tmpdir, an, &v, &po, &err), 0);
        char name[64], path[1024];
        snprintf(name, sizeof name, "conn%u-tsg-a2b.%s", bulk_conn(an)->idx, fmts[f]);
        ck_assert_msg(exists(tmpdir, name), "%s", name);
        snprintf(path, sizeof path, "%s/%s", tmpdir, name);
        FILE *fp = fopen(path, "rb");
        char head[8] = {0};
        ck_assert_uint_gt(fread(head, 1, sizeof head - 1, fp), 3);
        fclose(fp);
        ck_assert_msg(strncmp(head, magic[f], strlen(magic[f])) == 0, "%s: wrong header", name);
        if (f == 1) {
            char cmd[1200];
            snprintf(cmd, sizeof cmd, "command -v xmllint >/dev/null || exit 0; xmllint --noout %s/*.svg",
                     tmpdir);
            ck_assert_msg(system(cmd) == 0, "SVG files are not well-formed XML");
        }
    }
    tn_analyzer_free(an);
}
END_TEST

/* Axis ranges no tick step can divide: fuzz_cluster's sequence axis two units in the last place
 * wide at 1.8e19 (flat once divided into TB: UBSan aborted on the tick label's decimals, and a
 * tick step below the values' resolution never advances), subnormal ends, ends a double cannot
 * subtract.  Each gets an axis a tick step divides, and the figure is drawn. */
START_TEST(test_unresolvable_ranges)
{
    const double seq = 1.8446744072577286e+19;
    static const double sub = 4.9406564584124654e-324;
    const double ends[][2] = {
        {seq, nextafter(nextafter(seq, INFINITY), INFINITY)},
        {0, sub},
        {-sub, sub},
        {-1.7e308, 1.7e308},
        {1e15, 1e15 + 0.125},
        {42, 42},
    };
    mk_tmpdir("ranges");
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
        struct tn_plot *p = tn_plot_new(0, 0);
        tn_plot_set_range(&p->x, 0, 10);
        tn_plot_set_range(&p->y, ends[i][0], ends[i][1]);
        p->y.unit = TN_U_BYTES;
        double w = p->y.max - p->y.min;
        ck_assert_msg(isfinite(w) && w > fmax(fabs(p->y.min), fabs(p->y.max)) * 1e-12,
                      "range %zu: [%g, %g]", i, p->y.min, p->y.max);
        ck_assert(p->y.min <= fmax(ends[i][0], -8.9e307) && p->y.max >= fmin(ends[i][1], 8.9e307));
        size_t si = tn_plot_series_index(p, tn_plot_series_new(p, TN_D_LINE, TN_C_BLUE, "data"));
        tn_plot_point(p, si, 1, ends[i][0]);
        tn_plot_point(p, si, 9, ends[i][1]);
        tn_plot_finish(p);
        char path[1024];
        snprintf(path, sizeof path, "%s/range%zu.svg", tmpdir, i);
        struct tn_err err;
        ck_assert_int_eq(tn_plot_write_cairo(p, TN_IMG_SVG, path, 400, 260, 1, NULL, &err), 0);
        tn_plot_free(p);
    }
}
END_TEST

/* Points far beyond their axis (fuzz_retired: an RTT sample of -5e43 from another rank's bytes
 * on an RTT axis from 0; UBSan aborted converting its decimation cell to long) go to the edge
 * cells: a points series keeps one point per cell. */
START_TEST(test_points_beyond_axis)
{
    struct tn_plot *p = tn_plot_new(100, 50);
    tn_plot_set_range(&p->x, 0, 10);
    tn_plot_set_range(&p->y, 0, 100);
    size_t si = tn_plot_series_index(p, tn_plot_series_new(p, TN_D_POINTS, TN_C_BLUE, "RTT sample"));
    tn_plot_point(p, si, 5, -5.27838e+43);   /* the bottom cell of column 50 */
    tn_plot_point(p, si, 5, -1);             /* the same cell: dropped */
    tn_plot_point(p, si, 5, 1e300);          /* the top cell */
    tn_plot_point(p, si, -1e300, 50);        /* the first column */
    tn_plot_point(p, si, 1e300, 50);         /* the last column */
    tn_plot_finish(p);
    ck_assert_uint_eq(p->s[si].n, 4);
    ck_assert_double_eq(p->s[si].pts[0].y, -5.27838e+43);
    ck_assert_double_eq(p->s[si].pts[1].y, 1e300);
    tn_plot_free(p);
}
END_TEST

/* ---- packets.csv round trip through libcsv ---- */

struct rows {
    char ***cell;              /* rows of 13 cells */
    size_t n, cap;
    size_t field;
    char *cur[13];
    int bad;
};

static void on_field(void *s, size_t len, void *data)
{
    struct rows *r = data;
    if (r->field < 13) {
        r->cur[r->field] = tn_xcalloc(len + 1, 1);
        memcpy(r->cur[r->field], s, len);
    } else {
        r->bad++;
    }
    r->field++;
}

static void on_row(int c, void *data)
{
    (void)c;
    struct rows *r = data;
    if (r->field != 13)
        r->bad++;
    tn_grow((void **)&r->cell, &r->cap, r->n + 1, sizeof *r->cell);
    r->cell[r->n] = tn_xcalloc(13, sizeof(char *));
    memcpy(r->cell[r->n++], r->cur, sizeof r->cur);
    memset(r->cur, 0, sizeof r->cur);
    r->field = 0;
}

static void rows_free(struct rows *r)
{
    for (size_t i = 0; i < r->n; i++) {
        for (int k = 0; k < 13; k++)
            free(r->cell[i][k]);
        free(r->cell[i]);
    }
    free(r->cell);
}

static void parse_csv(const char *path, struct rows *r)
{
    FILE *fp = fopen(path, "rb");
    ck_assert_ptr_nonnull(fp);
    struct csv_parser cp;
    ck_assert_int_eq(csv_init(&cp, CSV_STRICT | CSV_STRICT_FINI), 0);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, fp)) > 0)
        ck_assert_uint_eq(csv_parse(&cp, buf, n, on_field, on_row, r), n);
    ck_assert_int_eq(csv_fini(&cp, on_field, on_row, r), 0);
    csv_free(&cp);
    fclose(fp);
}

static void check_flags(const char *s, uint8_t f)
{
    static const struct { char c; uint8_t bit; } map[] = {
        {'S', TN_TCP_SYN}, {'F', TN_TCP_FIN}, {'R', TN_TCP_RST}, {'P', TN_TCP_PSH},
        {'U', TN_TCP_URG}, {'E', TN_TCP_ECE}, {'C', TN_TCP_CWR}, {'A', TN_TCP_ACK},
    };
    for (size_t i = 0; i < 8; i++)
        ck_assert_msg((strchr(s, map[i].c) != NULL) == ((f & map[i].bit) != 0), "flags %s vs 0x%02x", s, f);
    ck_assert_uint_eq(strlen(s), (size_t)__builtin_popcount(f));
}

static void check_row(char **cell, const struct tn_conn *c, const struct tn_pktrec *k)
{
    ck_assert_uint_eq(strtoul(cell[0], NULL, 10), c->idx);
    char *dot;
    long long sec = strtoll(cell[1], &dot, 10);
    ck_assert(*dot == '.' && strlen(dot + 1) == 9);
    ck_assert_int_eq(sec * 1000000000LL + strtoll(dot + 1, NULL, 10), k->t_ns);
    ck_assert_str_eq(cell[2], k->dir == TN_A2B ? "a2b" : "b2a");
    ck_assert_uint_eq(strtoull(cell[3], NULL, 10), k->seq);
    ck_assert_uint_eq(strtoull(cell[4], NULL, 10), k->ack);
    ck_assert_uint_eq(strtoul(cell[5], NULL, 10), k->len);
    check_flags(cell[6], k->flags);
    ck_assert_uint_eq(strtoul(cell[7], NULL, 10), k->win);
    /* sack: left-right;left-right */
    const char *s = cell[8];
    for (unsigned i = 0; i < k->nsack; i++) {
        char *e;
        ck_assert_uint_eq(strtoull(s, &e, 10), k->sack[i].left);
        ck_assert(*e == '-');
        ck_assert_uint_eq(strtoull(e + 1, &e, 10), k->sack[i].right);
        ck_assert(*e == (i + 1 < k->nsack ? ';' : '\0'));
        s = e + 1;
    }
    if (k->nsack == 0)
        ck_assert_str_eq(cell[8], "");
    if (k->has_ts) {
        ck_assert_uint_eq(strtoul(cell[9], NULL, 10), k->ts_val);
        ck_assert_uint_eq(strtoul(cell[10], NULL, 10), k->ts_ecr);
    } else {
        ck_assert_str_eq(cell[9], "");
        ck_assert_str_eq(cell[10], "");
    }
    ck_assert_uint_eq(strtoul(cell[11], NULL, 10), k->ip_id);
    ck_assert_str_eq(cell[12], k->rexmit ? "1" : "0");
}

static void csv_roundtrip(struct tn_analyzer *an, const char *what)
{
    mk_tmpdir(what);
    struct tn_view v = {0};
    struct tn_err err;
    ck_assert_int_eq(tn_csv_write_file(tmpdir, "packets.csv", an, &v, &err), 0);
    char path[1024];
    snprintf(path, sizeof path, "%s/packets.csv", tmpdir);
    struct rows r = {0};
    parse_csv(path, &r);
    ck_assert_int_eq(r.bad, 0);
    size_t total = 0;
    for (size_t i = 0; i < tn_analyzer_conn_count(an); i++)
        total += tn_analyzer_conn(an, i)->npkts;
    ck_assert_uint_gt(total, 0);
    ck_assert_uint_eq(r.n, total + 1);   /* header + one row per packet record */
    static const char *const hdr[] = {"conn", "time_s", "dir", "seq", "ack", "len", "flags",
                                      "win", "sack", "ts_val", "ts_ecr", "ip_id", "rexmit"};
    for (int k = 0; k < 13; k++)
        ck_assert_str_eq(r.cell[0][k], hdr[k]);
    size_t row = 1;
    for (size_t i = 0; i < tn_analyzer_conn_count(an); i++) {
        const struct tn_conn *c = tn_analyzer_conn(an, i);
        for (size_t k = 0; k < c->npkts; k++)
            check_row(r.cell[row++], c, &c->pkts[k]);
    }
    rows_free(&r);
}

START_TEST(test_packets_csv)
{
    struct tn_analyzer *an = load_loopback();
    csv_roundtrip(an, "csv");
    /* every packet of the trace that is TCP has its row */
    size_t total = 0;
    for (size_t i = 0; i < tn_analyzer_conn_count(an); i++)
        total += tn_analyzer_conn(an, i)->npkts;
    ck_assert_uint_eq(total, tn_analyzer_stats(an)->tcp);
    tn_analyzer_free(an);
    an = lossy_flow();
    csv_roundtrip(an, "csv-loss");
    tn_analyzer_free(an);
}
END_TEST

/* ---- xplot grammar ---- */

static bool is_timeval(const char *s)
{
    const char *d = strchr(s, '.');
    if (!d || d == s || strlen(d + 1) != 6)
        return false;
    for (const char *p = s; *p; p++)
        if (p != d && (*p < '0' || *p > '9'))
            return false;
    return true;
}

static bool is_double(const char *s)
{
    char *e;
    if (!*s)
        return false;
    double v = strtod(s, &e);
    return *e == 0 && isfinite(v);
}

/* Check one file; returns the number of drawing commands, fails the test on a bad line. */
static size_t xpl_check(const char *path)
{
    FILE *fp = fopen(path, "r");
    ck_assert_ptr_nonnull(fp);
    char line[1024];
    size_t lineno = 0, cmds = 0;
    bool go = false, text_next = false;
    ck_assert(fgets(line, sizeof line, fp) != NULL);
    ck_assert_str_eq(line, "timeval double\n");
    lineno++;
    static const char *const colors[] = {"white", "green", "red", "blue", "yellow", "purple",
                                         "orange", "magenta", "pink"};
    static const char *const pt[] = {"dot", "plus", "box", "diamond", "x", "uarrow", "darrow",
                                     "larrow", "rarrow", "utick", "dtick", "ltick", "rtick",
                                     "htick", "vtick", "invisible"};
    while (fgets(line, sizeof line, fp)) {
        lineno++;
        ck_assert_msg(strchr(line, '\n') != NULL, "%s:%zu: line too long", path, lineno);
        ck_assert_msg(!go, "%s:%zu: text after go", path, lineno);
        if (text_next) {
            text_next = false;
            continue;
        }
        line[strcspn(line, "\n")] = 0;
        char *tok[8];
        int nt = 0;
        for (char *s = strtok(line, " "); s && nt < 8; s = strtok(NULL, " "))
            tok[nt++] = s;
        ck_assert_msg(nt > 0, "%s:%zu: empty line", path, lineno);
        int need = -1;
        bool text = false;
        if (!strcmp(tok[0], "title") || !strcmp(tok[0], "xlabel") || !strcmp(tok[0], "ylabel")) {
            need = 0;
            text = true;
        } else if (!strcmp(tok[0], "go")) {
            need = 0;
            go = true;
        } else if (!strcmp(tok[0], "line") || !strcmp(tok[0], "dline")) {
            need = 4;
        } else if (!strcmp(tok[0], "atext") || !strcmp(tok[0], "btext") || !strcmp(tok[0], "ltext") ||
                   !strcmp(tok[0], "rtext") || !strcmp(tok[0], "ctext")) {
            need = 2;
            text = true;
        } else {
            for (size_t i = 0; i < TN_ARRAY_LEN(colors); i++)
                if (!strcmp(tok[0], colors[i]))
                    need = 0;
            for (size_t i = 0; i < TN_ARRAY_LEN(pt); i++)
                if (!strcmp(tok[0], pt[i]))
                    need = 2;
        }
        ck_assert_msg(need >= 0, "%s:%zu: unknown command '%s'", path, lineno, tok[0]);
        ck_assert_msg(nt == need + 1, "%s:%zu: %s takes %d coordinates, has %d", path, lineno, tok[0],
                      need, nt - 1);
        for (int i = 1; i < nt; i++)   /* x is a timeval, y a double, alternating */
            ck_assert_msg(i % 2 ? is_timeval(tok[i]) : is_double(tok[i]), "%s:%zu: bad coordinate '%s'",
                          path, lineno, tok[i]);
        cmds += need > 0;
        text_next = text;
    }
    fclose(fp);
    ck_assert_msg(go, "%s: no final go", path);
    return cmds;
}

START_TEST(test_xplot)
{
    struct tn_analyzer *an = lossy_flow();
    mk_tmpdir("xpl");
    struct tn_view v = {0};
    struct tn_err err;
    ck_assert_int_eq(tn_xplot_write_all(tmpdir, an, &v, true, &err), 0);
    static const char *const kinds[] = {"tsg", "rtt", "tput", "owin"};
    for (size_t k = 0; k < 4; k++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/conn1-a2b_%s.xpl", tmpdir, kinds[k]);
        size_t n = xpl_check(path);
        ck_assert_msg(n > 0, "%s: nothing drawn", path);
        snprintf(path, sizeof path, "conn1-b2a_%s.xpl", kinds[k]);   /* b2a carries no data */
        ck_assert(!exists(tmpdir, path));
    }
    /* full: one tick per data segment in the tsg file (40 segments, 1 of them resent) */
    char path[1024];
    snprintf(path, sizeof path, "%s/conn1-a2b_tsg.xpl", tmpdir);
    FILE *fp = fopen(path, "r");
    char line[512];
    int red = 0, in_red = 0, blue_lines = 0, in_blue = 0;
    while (fgets(line, sizeof line, fp)) {
        if (!strcmp(line, "red\n") || !strcmp(line, "blue\n") || !strncmp(line, "white", 5) ||
            !strcmp(line, "green\n") || !strcmp(line, "yellow\n") || !strcmp(line, "purple\n") ||
            !strcmp(line, "orange\n") || !strcmp(line, "magenta\n")) {
            in_red = !strcmp(line, "red\n");
            in_blue = !strcmp(line, "blue\n");
        } else if (!strncmp(line, "line ", 5)) {
            red += in_red;
            blue_lines += in_blue;
        }
    }
    fclose(fp);
    ck_assert_int_eq(red, 1);
    ck_assert_int_eq(blue_lines, 40);
    tn_analyzer_free(an);

    /* the loopback sample: decimated files are valid too */
    an = load_loopback();
    mk_tmpdir("xpl-loop");
    ck_assert_int_eq(tn_xplot_write_all(tmpdir, an, &v, false, &err), 0);
    snprintf(path, sizeof path, "%s/conn%u-a2b_tsg.xpl", tmpdir, bulk_conn(an)->idx);
    ck_assert_uint_gt(xpl_check(path), 10);
    tn_analyzer_free(an);
}
END_TEST

/* ---- decimation, SRTT, Jain, ground truth, DFCP on hand-made connections ---- */

static struct tn_conn *synth_conn(enum tn_pkt_kind proto, size_t npkts, double secs)
{
    struct tn_conn *c = tn_xcalloc(1, sizeof *c);
    c->idx = 7;
    c->proto = proto;
    c->a.family = c->b.family = 4;
    c->a.a[0] = 10;
    c->b.a[0] = 10;
    c->b.a[3] = 2;
    c->a_port = 40000;
    c->b_port = 5201;
    c->first.sec = 2000;
    c->last.sec = 2000 + (int64_t)secs;
    c->last.nsec = (uint32_t)((secs - floor(secs)) * 1e9);
    c->pkts = tn_xcalloc(npkts ? npkts : 1, sizeof *c->pkts);
    c->npkts = c->cap_pkts = npkts;
    c->series = tn_xcalloc(2, sizeof *c->series);
    c->inf = tn_xcalloc(2, sizeof *c->inf);
    return c;
}

static void synth_free(struct tn_conn *c)
{
    free(c->pkts);
    for (int d = 0; d < 2; d++)
        for (int k = 0; k < TN_SER_COUNT; k++)
            free(c->series[d][k].pts);
    free(c->series);
    for (size_t i = 0; i < c->nblocks; i++)
        free(c->blocks[i].seen);
    free(c->blocks);
    free(c->inf);
    free(c);
}

static void series_add(struct tn_series *s, int64_t t, double v)
{
    tn_grow((void **)&s->pts, &s->cap, s->n + 1, sizeof *s->pts);
    s->pts[s->n++] = (struct tn_point){t, v};
}

START_TEST(test_decimation)
{
    /* 200,000 data segments, each ACKed: a figure keeps a bounded number of points */
    const size_t n = 200000;
    struct tn_conn *c = synth_conn(TN_PK_TCP, 2 * n, 10);
    int64_t t0 = 2000LL * 1000000000;
    for (size_t i = 0; i < n; i++) {
        struct tn_pktrec *d = &c->pkts[2 * i], *a = &c->pkts[2 * i + 1];
        d->t_ns = t0 + (int64_t)i * 50000;
        d->dir = TN_A2B;
        d->seq = 1 + i * 1000;
        d->len = 1000;
        d->flags = TN_TCP_ACK;
        d->rexmit = i % 10000 == 5000 ? 1 + TN_EV_REXMIT_FAST : 0;
        *a = (struct tn_pktrec){.t_ns = d->t_ns + 20000, .dir = TN_B2A, .ack = d->seq + 1000,
                                .win = 65535, .flags = TN_TCP_ACK};
    }
    c->d[TN_A2B].data_pkts = n;
    struct tn_fig_cfg fc = {.ncols = 800, .nrows = 500};
    struct tn_plot *p = tn_fig_tsg(c, TN_A2B, &fc);
    const struct tn_plot_series *data = find_series(p, "data segment");
    const struct tn_plot_series *ack = find_series(p, "cumulative ACK");
    ck_assert_uint_le(data->n, 800);
    ck_assert_uint_le(ack->n, 4 * 800 + 2);
    /* every event marker is kept: 20 retransmissions, 20 fast-retransmit markers */
    ck_assert_uint_eq(find_series(p, "fast retransmit")->n, 20);
    /* the envelope spans the whole sequence range */
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < data->n; i++) {
        lo = fmin(lo, data->pts[i].y);
        hi = fmax(hi, data->pts[i].y2);
    }
    ck_assert_double_eq(lo, 1);
    ck_assert_double_eq(hi, 1 + (double)n * 1000);
    ck_assert_uint_lt(tn_plot_npoints(p), 10000);
    tn_plot_free(p);
    /* without decimation every segment is there */
    fc.ncols = fc.nrows = 0;
    p = tn_fig_tsg(c, TN_A2B, &fc);
    ck_assert_uint_eq(find_series(p, "data segment")->n, n - 20);
    ck_assert_uint_eq(find_series(p, "retransmission")->n, 20);
    tn_plot_free(p);
    synth_free(c);
}
END_TEST

START_TEST(test_srtt)
{
    struct tn_conn *c = synth_conn(TN_PK_TCP, 0, 1);
    c->d[TN_A2B].data_pkts = 1;
    int64_t t0 = 2000LL * 1000000000;
    static const double r[] = {100, 200, 100, 50};
    for (int i = 0; i < 4; i++)
        series_add(&c->series[TN_A2B][TN_SER_RTT_MS], t0 + (i + 1) * 100000000LL, r[i]);
    struct tn_fig_cfg fc = {0};
    struct tn_plot *p = tn_fig_rtt(c, TN_A2B, &fc);
    const struct tn_plot_series *s = find_series(p, "smoothed RTT (RFC 6298)");
    ck_assert_uint_eq(s->n, 4);
    /* SRTT = R1, then SRTT + (R - SRTT) / 8 */
    ck_assert_double_eq_tol(s->pts[0].y, 100, 1e-9);
    ck_assert_double_eq_tol(s->pts[1].y, 112.5, 1e-9);
    ck_assert_double_eq_tol(s->pts[2].y, 110.9375, 1e-9);
    ck_assert_double_eq_tol(s->pts[3].y, 110.9375 + (50 - 110.9375) / 8, 1e-9);
    ck_assert_uint_eq(find_series(p, "RTT sample")->n, 4);
    tn_plot_free(p);
    synth_free(c);
}
END_TEST

/* A negative or non-finite RTT value (fuzz_retired: -1.2e43 from another rank's bytes; its
 * histogram bin overflowed size_t) is no sample for rtt-cdf and rtt-hist. */
START_TEST(test_rtt_dist_not_negative)
{
    struct tn_conn *c = synth_conn(TN_PK_TCP, 0, 1);
    c->d[TN_A2B].data_pkts = 1;
    c->d[TN_A2B].data_bytes = 1000;
    int64_t t0 = 2000LL * 1000000000;
    static const double r[] = {-1.18017e+43, 10, NAN, 20, 30};
    for (int i = 0; i < 5; i++)
        series_add(&c->series[TN_A2B][TN_SER_RTT_MS], t0 + (i + 1) * 100000000LL, r[i]);
    const struct tn_conn *cs[] = {c};
    struct tn_fig_cfg fc = {0};
    struct tn_plot *p = tn_fig_rtt_cdf(cs, 1, &fc);
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq(p->s[0].n, 2 * 3);   /* a step of two points per sample: 10, 20, 30 */
    ck_assert_double_eq(p->s[0].pts[0].x, 10);
    tn_plot_free(p);
    p = tn_fig_rtt_hist(cs, 1, &fc);
    ck_assert_ptr_nonnull(p);
    double first = NAN;   /* the first bin (13.9 ms wide, Freedman-Diaconis) holds 10 ms: 1 of 3 */
    for (size_t k = 0; k < p->s[0].n; k++)
        if (p->s[0].pts[k].x == 0 && k > 0) {
            first = p->s[0].pts[k].y;
            break;
        }
    ck_assert_double_eq_tol(first, 1.0 / 3, 1e-12);
    tn_plot_free(p);
    synth_free(c);
}
END_TEST

START_TEST(test_jain)
{
    ck_assert_double_eq_tol(tn_fig_jain_index((const double[]){5, 5}, 2), 1, 1e-12);
    ck_assert_double_eq_tol(tn_fig_jain_index((const double[]){1, 0}, 2), 0.5, 1e-12);
    ck_assert_double_eq_tol(tn_fig_jain_index((const double[]){3, 1}, 2), 16.0 / 20, 1e-12);
    ck_assert_double_eq_tol(tn_fig_jain_index((const double[]){1, 1, 1, 0}, 4), 0.75, 1e-12);

    /* two flows on the same interval grid: flow 2 joins at the third interval at half rate */
    struct tn_conn *a = synth_conn(TN_PK_TCP, 0, 1), *b = synth_conn(TN_PK_TCP, 0, 1);
    b->idx = 8;
    a->d[TN_A2B].data_pkts = b->d[TN_A2B].data_pkts = 1;
    a->d[TN_A2B].data_bytes = b->d[TN_A2B].data_bytes = 1;
    int64_t t0 = 2000LL * 1000000000, iv = 100000000;
    for (int i = 1; i <= 5; i++) {
        series_add(&a->series[TN_A2B][TN_SER_THROUGHPUT], t0 + i * iv, 2e6);
        if (i >= 3)
            series_add(&b->series[TN_A2B][TN_SER_THROUGHPUT], t0 + i * iv, 1e6);
    }
    const struct tn_conn *cs[] = {a, b};
    struct tn_fig_cfg fc = {0};
    struct tn_plot *p = tn_fig_tput_all(cs, 2, true, &fc);
    const struct tn_plot_series *j = find_series(p, "Jain's index");
    ck_assert(j->right);
    ck_assert_uint_eq(j->n, 10);   /* a step (start, end) per interval */
    for (size_t i = 0; i < j->n; i++)
        ck_assert_double_eq_tol(j->pts[i].y, i < 4 ? 1.0 : 0.9, 1e-12);
    tn_plot_free(p);
    ck_assert_ptr_null(tn_fig_tput_all(cs, 1, true, &fc));   /* fairness needs two flows */
    synth_free(a);
    synth_free(b);
}
END_TEST

START_TEST(test_truth_overlay)
{
    mk_tmpdir("truth");
    struct tn_conn *c = synth_conn(TN_PK_TCP, 0, 2);
    c->d[TN_A2B].data_pkts = 1;
    c->d[TN_A2B].mss_seen = c->d[TN_B2A].mss_seen = true;
    c->d[TN_A2B].mss = c->d[TN_B2A].mss = 1460;
    c->d[TN_A2B].ts_seen = c->d[TN_B2A].ts_seen = true;   /* effective MSS 1448 */
    int64_t t0 = 2000LL * 1000000000;
    series_add(&c->series[TN_A2B][TN_SER_CWND_EST], t0 + 100000000, 14480);
    char path[1024];
    snprintf(path, sizeof path, "%s/tcp_probe.csv", tmpdir);
    FILE *fp = fopen(path, "w");
    fputs("time_s,flow,saddr,sport,daddr,dport,data_len,snd_nxt,snd_una,snd_cwnd,ssthresh,snd_wnd,"
          "srtt_us,rcv_wnd\n", fp);
    fputs("2000.100000,1,10.0.0.0,40000,10.0.0.2,5201,1448,1,1,10,2147483647,65535,200,65535\n", fp);
    fputs("2000.200000,1,10.0.0.0,40000,10.0.0.2,5201,1448,1,1,20,2147483647,65535,200,65535\n", fp);
    fputs("2000.300000,2,10.0.0.0,40001,10.0.0.2,5201,1448,1,1,99,2147483647,65535,200,65535\n", fp);
    fputs("2000.400000,1,10.0.0.0,40000,10.0.0.2,5201,1448,1,1,12,12,65535,200,65535\n", fp);
    fclose(fp);
    struct tn_truth *truth;
    struct tn_err err;
    ck_assert_int_eq(tn_truth_load(path, &truth, &err), 0);
    struct tn_fig_cfg fc = {.truth = truth};
    struct tn_plot *p = tn_fig_cwnd(c, TN_A2B, &fc);
    const struct tn_plot_series *s = find_series(p, "kernel snd_cwnd");
    ck_assert_ptr_nonnull(s);
    /* steps: 10, (20, 20), (12, 12) segments of 1448 B; the other sender's row (port 40001) is not
     * used */
    ck_assert_uint_eq(s->n, 5);
    ck_assert_double_eq(s->pts[0].y, 10 * 1448);
    ck_assert_double_eq(s->pts[2].y, 20 * 1448);
    ck_assert_double_eq(s->pts[4].y, 12 * 1448);
    ck_assert_double_eq_tol(s->pts[4].x, 0.4, 1e-9);
    const struct tn_plot_series *ss = find_series(p, "kernel ssthresh");
    ck_assert_uint_eq(ss->n, 1);   /* the "infinite" 0x7fffffff is not drawn */
    ck_assert_double_eq(ss->pts[0].y, 12 * 1448);
    tn_plot_free(p);
    tn_truth_free(truth);
    synth_free(c);
}
END_TEST

START_TEST(test_dfcp_blocks)
{
    mk_tmpdir("dfcp");
    /* 6 blocks of 4 symbols, 50 ms apart; block 3 fails, block 5 is never acknowledged */
    struct tn_conn *c = synth_conn(TN_PK_DFCP, 24 + 5, 0.35);
    int64_t t0 = 2000LL * 1000000000, ms = 1000000;
    c->blocks = tn_xcalloc(6, sizeof *c->blocks);
    c->nblocks = c->cap_blocks = 6;
    for (uint32_t b = 0; b < 6; b++) {
        struct tn_dfcp_block *k = &c->blocks[b];
        k->block = b;
        k->n = 4;
        k->symbols_seen = 4;
        k->first_ns = t0 + b * 50 * ms;
        k->last_ns = k->first_ns + 30 * ms;
        k->outcome = b == 3 ? TN_DFCP_FAILED : b == 5 ? TN_DFCP_UNACKED : TN_DFCP_DECODED;
        k->back_ns = b == 5 ? 0 : k->last_ns + 10 * ms;
        for (uint32_t s = 0; s < 4; s++)
            c->pkts[b * 4 + s] = (struct tn_pktrec){.t_ns = k->first_ns + s * 10 * ms, .dir = TN_A2B,
                                                    .seq = b, .ack = s, .len = 1000,
                                                    .flags = TN_DFCP_T_DATA};
    }
    for (uint32_t b = 0; b < 5; b++)
        c->pkts[24 + b] = (struct tn_pktrec){.t_ns = c->blocks[b].back_ns, .dir = TN_B2A, .seq = b,
                                             .flags = TN_DFCP_T_BACK};
    c->d[TN_A2B].data_pkts = 24;
    struct tn_fig_cfg fc = {.ncols = 1280, .nrows = 800};
    struct tn_plot *p = tn_fig_dfcp(c, &fc);
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq(find_series(p, "BACK: decoded")->n, 4);
    ck_assert_uint_eq(find_series(p, "BACK: decode failed")->n, 1);
    ck_assert_double_eq(find_series(p, "BACK: decode failed")->pts[0].y, 3);
    ck_assert_uint_eq(find_series(p, "no BACK seen")->n, 1);
    ck_assert_uint_eq(find_series(p, "symbol (DATA)")->n, 20);
    ck_assert_uint_eq(find_series(p, "symbol of a failed block")->n, 4);
    struct img m;
    struct tn_plot_area a = render_png(p, "dfcp.png", &m);
    ck_assert_int_gt(count_color(&m, &a, tn_plot_rgb(TN_C_VERMILLION)), 10);
    ck_assert_int_gt(count_color(&m, &a, tn_plot_rgb(TN_C_BLUE)), 10);
    cairo_surface_destroy(m.sf);
    tn_plot_free(p);
    /* no TCP figures for DFCP, and the DFCP figure only for DFCP */
    ck_assert_ptr_null(tn_fig_tsg(c, TN_A2B, &fc));
    c->proto = TN_PK_TCP;
    ck_assert_ptr_null(tn_fig_dfcp(c, &fc));
    synth_free(c);
}
END_TEST

/* cairo and fontconfig keep font caches for the process: released after each test so the
 * leak checker sees only our own memory */
static void release_cairo(void)
{
    tn_plot_cairo_release();
}

Suite *tn_render_plot_suite(void)
{
    Suite *s = suite_create("render_plot");
    TCase *tc = tcase_create("figures");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, NULL, release_cairo);
    tcase_add_test(tc, test_plot_all_names);
    tcase_add_test(tc, test_tsg_loopback_pixels);
    tcase_add_test(tc, test_tsg_rexmit_pixels);
    tcase_add_test(tc, test_formats);
    tcase_add_test(tc, test_unresolvable_ranges);
    tcase_add_test(tc, test_points_beyond_axis);
    tcase_add_test(tc, test_decimation);
    tcase_add_test(tc, test_srtt);
    tcase_add_test(tc, test_jain);
    tcase_add_test(tc, test_rtt_dist_not_negative);
    tcase_add_test(tc, test_truth_overlay);
    tcase_add_test(tc, test_dfcp_blocks);
    suite_add_tcase(s, tc);
    TCase *ex = tcase_create("exports");
    tcase_set_timeout(ex, 120);
    tcase_add_checked_fixture(ex, NULL, release_cairo);
    tcase_add_test(ex, test_packets_csv);
    tcase_add_test(ex, test_xplot);
    suite_add_tcase(s, ex);
    return s;
}
