/* check_paper_fig.c - figures at a paper's column width: the axes' box measured in the PNG (read
 * back through cairo) takes at least half the canvas at 252 x 180 pt (2 pixels per point) and at
 * 3.5 x 2.5 in with 300 pixels per inch; the legend placements and the multi-flow styles. */
#include <cairo.h>
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pipeline_helper.h"
#include "plot.h"
#include "render.h"
#include "render_fig_multi.h"

static const struct tn_analysis_cfg rec_cfg = {
    .record_events = true, .record_series = true, .record_packets = true,
};

static char dir[512];

/* The axes' frame: the longest runs of dark pixels, a row's (top and bottom edges) and a
 * column's (left and right edges).  Data lines are never this long and straight. */
struct box {
    int x0, y0, x1, y1, w, h;
};

static bool dark(const unsigned char *d, int stride, int x, int y)
{
    uint32_t v;
    memcpy(&v, d + (size_t)y * (size_t)stride + (size_t)x * 4, 4);
    return (v >> 16 & 0xff) < 150 && (v >> 8 & 0xff) < 150 && (v & 0xff) < 150;
}

static int run(const unsigned char *d, int stride, int n, int fixed, bool row)
{
    int best = 0, cur = 0;
    for (int i = 0; i < n; i++) {
        bool k = row ? dark(d, stride, i, fixed) : dark(d, stride, fixed, i);
        cur = k ? cur + 1 : 0;
        best = cur > best ? cur : best;
    }
    return best;
}

static struct box frame_of(const char *path)
{
    cairo_surface_t *sf = cairo_image_surface_create_from_png(path);
    ck_assert_msg(cairo_surface_status(sf) == CAIRO_STATUS_SUCCESS, "%s: not a PNG", path);
    const unsigned char *d = cairo_image_surface_get_data(sf);
    struct box b = {.w = cairo_image_surface_get_width(sf), .h = cairo_image_surface_get_height(sf)};
    int stride = cairo_image_surface_get_stride(sf), top = 0;
    b.y0 = b.y1 = b.x0 = b.x1 = -1;
    for (int y = 0; y < b.h; y++)
        top = run(d, stride, b.w, y, true) > top ? run(d, stride, b.w, y, true) : top;
    for (int y = 0; y < b.h; y++)   /* rows within 10% of the longest: the two edges */
        if (run(d, stride, b.w, y, true) >= top * 0.9) {
            if (b.y0 < 0)
                b.y0 = y;
            b.y1 = y;
        }
    top = 0;
    for (int x = 0; x < b.w; x++)
        top = run(d, stride, b.h, x, false) > top ? run(d, stride, b.h, x, false) : top;
    for (int x = 0; x < b.w; x++)
        if (run(d, stride, b.h, x, false) >= top * 0.9) {
            if (b.x0 < 0)
                b.x0 = x;
            b.x1 = x;
        }
    cairo_surface_destroy(sf);
    return b;
}

static double share_of(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct box b = frame_of(path);
    double share = (double)(b.x1 - b.x0) * (b.y1 - b.y0) / ((double)b.w * b.h);
    fprintf(stderr, "paper_fig: %s %dx%d px: axes (%d,%d)-(%d,%d), %.0f%% of the canvas\n", path, b.w, b.h, b.x0,
            b.y0, b.x1, b.y1, share * 100);
    return share;
}

static void write_set(const struct tn_analyzer *an, const char *what, double scale, int legend)
{
    snprintf(dir, sizeof dir, "%s/test-paper-%s-%d", TN_BINARY_DIR, what, (int)getpid());
    mkdir(dir, 0777);
    struct tn_plot_opts po = {.format = "png", .width = 252, .height = 180, .scale = scale, .legend = legend};
    struct tn_view v = {0};
    struct tn_err err;
    ck_assert_int_eq(tn_plot_write_all(dir, an, &v, &po, &err), 0);
}

START_TEST(test_column_width_area)
{
    /* the dumbbell's two senders (two CUBIC flows): throughput and fairness figures */
    struct tn_analyzer *an = tn_test_load(TN_SAMPLES_DIR "/dumbbell-cubic-rtt/snd1_eth0.pcap", &rec_cfg);
    ck_assert_ptr_nonnull(an);
    static const struct {
        const char *what;
        double scale;      /* pixels per point: 2, and 300 dpi / 72 */
    } sizes[] = {{"252pt", 2}, {"3.5in300", 300.0 / 72}};
    for (size_t i = 0; i < 2; i++) {
        write_set(an, sizes[i].what, sizes[i].scale, TN_LEG_BELOW);
        ck_assert_double_ge(share_of("conn2-tput.png"), 0.5);
        ck_assert_double_ge(share_of("conn2-cwnd-a2b.png"), 0.5);
        ck_assert_double_ge(share_of("throughput.png"), 0.5);
    }
    /* 3.5 x 2.5 in at 300 dpi is 1050 x 750 pixels */
    char path[1024];
    snprintf(path, sizeof path, "%s/throughput.png", dir);
    struct box b = frame_of(path);
    ck_assert_int_eq(b.w, 1050);
    ck_assert_int_eq(b.h, 750);
    /* many legend entries (the time-sequence graph's nine): inside the axes the box grows */
    write_set(an, "inside", 2, TN_LEG_INSIDE);
    ck_assert_double_ge(share_of("conn2-tsg-a2b.png"), 0.5);
    write_set(an, "off", 2, TN_LEG_OFF);
    ck_assert_double_ge(share_of("conn2-tsg-a2b.png"), 0.55);
    tn_analyzer_free(an);
}
END_TEST

START_TEST(test_flow_styles)
{
    /* no yellow (invisible as a line on white), no vermillion (retransmissions); the first
     * seven flows differ in colour and in dash or marker, so grey-scale print tells them apart */
    for (size_t k = 0; k < 7; k++) {
        struct tn_fig_style a = tn_fig_style(k);
        ck_assert(a.color != TN_C_YELLOW && a.color != TN_C_VERMILLION);
        for (size_t j = 0; j < k; j++) {
            struct tn_fig_style b = tn_fig_style(j);
            ck_assert(a.color != b.color);
            ck_assert(a.dashed != b.dashed || a.dash != b.dash || a.mark != b.mark);
        }
    }
}
END_TEST

/* The kernel's tcp_retransmit_skb events of the sender with source port sport (err 0). */
static unsigned kernel_rexmits(const char *csv, unsigned sport)
{
    FILE *f = fopen(csv, "r");
    ck_assert_ptr_nonnull(f);
    char line[512];
    unsigned n = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned sp = 0;
        int err = -1;
        if (sscanf(line, "%*[^,],%*[^,],%*[^,],%u,%*[^,],%*[^,],%*[^,],%d", &sp, &err) == 2 && sp == sport && err == 0)
            n++;
    }
    fclose(f);
    return n;
}

START_TEST(test_rexmit_time_counts)
{
    /* the numbers behind rexmit-time: each sender's last value is the kernel's count (the
     * dumbbell's flows 1 and 2 at their senders: client ports 40001 and 40002) */
    static const struct {
        const char *pcap;
        unsigned sport;
    } flows[] = {{"snd1_eth0.pcap", 40001}, {"snd2_eth0.pcap", 40002}};
    for (size_t i = 0; i < 2; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/dumbbell-cubic-rtt/%s", TN_SAMPLES_DIR, flows[i].pcap);
        struct tn_analyzer *an = tn_test_load(path, &rec_cfg);
        ck_assert_ptr_nonnull(an);
        const struct tn_conn *cs[8];
        size_t n = 0;
        for (size_t k = 0; k < tn_analyzer_conn_count(an) && n < 8; k++)
            if (tn_analyzer_conn(an, k)->a_port == flows[i].sport)
                cs[n++] = tn_analyzer_conn(an, k);
        ck_assert_uint_eq(n, 1);
        struct tn_fig_cfg fc = {0};
        struct tn_plot *p = tn_fig_rexmit_time(cs, n, &fc);
        ck_assert_ptr_nonnull(p);
        ck_assert_uint_ge(p->ns, 1);
        const struct tn_plot_series *s = &p->s[0];
        snprintf(path, sizeof path, "%s/dumbbell-cubic-rtt/tcp_retransmit.csv", TN_SAMPLES_DIR);
        unsigned want = kernel_rexmits(path, flows[i].sport);
        ck_assert_uint_gt(want, 0);
        ck_assert_double_eq_tol(s->pts[s->n - 1].y, want, 1e-9);
        tn_plot_free(p);
        tn_analyzer_free(an);
    }
}
END_TEST

/* The x where a CDF drawn as steps of 1/n first reaches q (the nearest rank, ceil(q n)). */
static double cdf_quantile(const struct tn_plot_series *s, double q)
{
    for (size_t i = 1; i < s->n; i += 2)
        if (s->pts[i].y >= q - 1e-12)
            return s->pts[i].x;
    return NAN;
}

START_TEST(test_rtt_distribution_numbers)
{
    /* The numbers behind rtt-cdf and rtt-hist for the gallery's dumbbell (data connections of
     * client ports 40001 and 40002 at their senders), against tshark's tcp.analysis.ack_rtt with
     * Karn's rule applied (the ACKs that newly acknowledge retransmitted bytes left out), as
     * tests/e2e/multi_rtt_dist.sh computes them (its tshark_rtt): 1857 and 391 samples, median
     * 56.982 and 134.166 ms, p90 (nearest rank) 67.181 and 146.530 ms.  Ours add the monitor ->
     * sender half, a mean of TSval echo times at the sender's own interface whose largest is
     * M = 2.895 and 7.089 ms there, so each figure quantile lies in [tshark's, tshark's + M]. */
    static const struct {
        const char *pcap;
        unsigned sport;
        size_t n;
        double median, p90, m;
    } flows[] = {{"snd1_eth0.pcap", 40001, 1857, 56.982, 67.181, 2.895},
                 {"snd2_eth0.pcap", 40002, 391, 134.166, 146.530, 7.089}};
    struct tn_analyzer *an[2];
    const struct tn_conn *cs[2];
    for (size_t i = 0; i < 2; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/dumbbell-cubic-rtt/%s", TN_SAMPLES_DIR, flows[i].pcap);
        an[i] = tn_test_load(path, &rec_cfg);
        ck_assert_ptr_nonnull(an[i]);
        cs[i] = NULL;
        for (size_t k = 0; k < tn_analyzer_conn_count(an[i]); k++)
            if (tn_analyzer_conn(an[i], k)->a_port == flows[i].sport)
                cs[i] = tn_analyzer_conn(an[i], k);
        ck_assert_ptr_nonnull(cs[i]);
    }
    struct tn_fig_cfg fc = {0};   /* no decimation: every step is a point */
    struct tn_plot *p = tn_fig_rtt_cdf(cs, 2, &fc);
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq(p->ns, 2);
    ck_assert_ptr_nonnull(strstr(p->subtitle, "(2248 in all)"));
    for (size_t i = 0; i < 2; i++) {
        const struct tn_plot_series *s = &p->s[i];
        ck_assert_uint_eq(s->n, 2 * flows[i].n);   /* a step of two points per sample */
        ck_assert_double_eq_tol(s->pts[s->n - 1].y, 1.0, 1e-12);
        double med = cdf_quantile(s, 0.5), p90 = cdf_quantile(s, 0.9);
        ck_assert_msg(med >= flows[i].median - 0.001 && med <= flows[i].median + flows[i].m,
                      "flow %zu: median %.3f ms, tshark %.3f", i + 1, med, flows[i].median);
        ck_assert_msg(p90 >= flows[i].p90 - 0.001 && p90 <= flows[i].p90 + flows[i].m,
                      "flow %zu: p90 %.3f ms, tshark %.3f", i + 1, p90, flows[i].p90);
    }
    tn_plot_free(p);
    /* the histogram: each flow's shares add up to 1; the bin width is Freedman-Diaconis's over
     * all 2248 samples, 2 IQR n^(-1/3): 2.130 ms from tshark's quartiles (53.282, 67.236 ms, the
     * figure's index rule), each quartile of ours up to M = 7.089 ms above, so within
     * 2 * 7.089 / 2248^(1/3) = 1.08 ms */
    p = tn_fig_rtt_hist(cs, 2, &fc);
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq(p->ns, 2);
    for (size_t i = 0; i < 2; i++) {
        const struct tn_plot_series *s = &p->s[i];
        double sum = 0;
        for (size_t k = 1; k + 2 < s->n; k += 2)   /* (edge, previous), (edge, this bin)... */
            sum += s->pts[k].y;
        ck_assert_double_eq_tol(sum, 1.0, 1e-9);
    }
    double w = 0;
    ck_assert_int_eq(sscanf(strstr(p->subtitle, "per ") + 4, "%lf", &w), 1);
    ck_assert_msg(fabs(w - 2.130) <= 1.08, "bin width %.3g ms, tshark's 2.130", w);
    tn_plot_free(p);
    for (size_t i = 0; i < 2; i++)
        tn_analyzer_free(an[i]);
}
END_TEST

static void add_row(struct tn_experiment *e, unsigned trace, const char *flow, double bps)
{
    tn_grow((void **)&e->rows, &e->cap, e->nrows + 1, sizeof *e->rows);
    struct tn_exp_row *r = &e->rows[e->nrows++];
    memset(r, 0, sizeof *r);
    r->trace = trace;
    r->label = e->labels[trace - 1];
    snprintf(r->flow, sizeof r->flow, "%s", flow);
    r->goodput_bps = r->throughput_bps = bps;
    r->rtt_ms_avg = -1;
}

static const struct tn_plot_series *series(const struct tn_plot *p, const char *label, enum tn_draw draw, size_t nth)
{
    for (size_t i = 0; i < p->ns; i++)   /* a flow's line carries its label; its marks follow */
        if (!strcmp(p->s[i].label, label))
            for (size_t k = i; k < p->ns; k++)
                if (p->s[k].draw == draw && nth-- == 0)
                    return &p->s[k];
    return NULL;
}

START_TEST(test_experiment_runs)
{
    /* two runs at owd=5ms (flows listed in different orders), one at owd=25ms without flow B:
     * a point is the runs' mean, its bar spans their smallest to largest value, flows are
     * matched by name */
    struct tn_experiment e = {0};
    static const char *const labels[] = {"owd=5ms", "owd=5ms", "owd=25ms"};
    e.ntraces = 3;
    e.labels = tn_xcalloc(3, sizeof *e.labels);
    e.files = tn_xcalloc(3, sizeof *e.files);
    e.jain = tn_xcalloc(3, sizeof *e.jain);
    for (size_t t = 0; t < 3; t++) {
        e.labels[t] = tn_xstrdup(labels[t]);
        e.files[t] = tn_xstrdup("x.pcap");
    }
    add_row(&e, 1, "A", 8e6);
    add_row(&e, 1, "B", 2e6);
    add_row(&e, 2, "B", 3e6);
    add_row(&e, 2, "A", 10e6);
    add_row(&e, 3, "A", 6e6);
    struct tn_fig_cfg fc = {0};
    const char *stem;
    struct tn_plot *p = tn_fig_exp(&e, 0, &stem, &fc);
    ck_assert_str_eq(stem, "experiment-goodput");
    ck_assert_str_eq(p->x.label, "owd (ms)");
    const struct tn_plot_series *a = series(p, "A", TN_D_LINE, 0), *b = series(p, "B", TN_D_LINE, 0);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ck_assert_uint_eq(a->n, 2);
    ck_assert_double_eq_tol(a->pts[0].x, 5, 1e-12);
    ck_assert_double_eq_tol(a->pts[0].y, 9e6, 1e-3);   /* (8 + 10) / 2 */
    ck_assert_double_eq_tol(a->pts[1].x, 25, 1e-12);
    ck_assert_double_eq_tol(a->pts[1].y, 6e6, 1e-3);
    const struct tn_plot_series *bar = series(p, "A", TN_D_TICKS, 0);
    ck_assert_uint_eq(bar->n, 1);   /* one run at 25 ms: no bar */
    ck_assert_double_eq_tol(bar->pts[0].y, 8e6, 1e-3);
    ck_assert_double_eq_tol(bar->pts[0].y2, 10e6, 1e-3);
    ck_assert_uint_eq(b->n, 1);
    ck_assert_double_eq_tol(b->pts[0].y, 2.5e6, 1e-3);
    tn_plot_free(p);
    /* the ratio of the first flow to the second: runs 4 and 10/3, mean 11/3; none at 25 ms */
    p = tn_fig_exp(&e, tn_fig_exp_count() - 1, &stem, &fc);
    ck_assert_str_eq(stem, "experiment-ratio");
    const struct tn_plot_series *r = series(p, "A / B", TN_D_LINE, 0);
    ck_assert_ptr_nonnull(r);
    ck_assert_uint_eq(r->n, 1);
    ck_assert_double_eq_tol(r->pts[0].y, 11.0 / 3, 1e-9);
    tn_plot_free(p);
    tn_experiment_fini(&e);
}
END_TEST

START_TEST(test_experiment_groups)
{
    /* "GROUP:PARAM=VALUE" labels: two flavours at two RTT ratios; each group is a line of the
     * ratio figure (first flow over second within the group) and of the utilisation figure, at
     * the points' values; per-flow lines are named "GROUP: flow" */
    struct tn_experiment e = {0};
    static const char *const labels[] = {"htcp:rtt_ratio=1", "htcp:rtt_ratio=2", "bic:rtt_ratio=1",
                                         "bic:rtt_ratio=2"};
    static const double bps[4][2] = {{5e6, 5e6}, {6e6, 2e6}, {4e6, 5e6}, {8e6, 1e6}};
    e.ntraces = 4;
    e.labels = tn_xcalloc(4, sizeof *e.labels);
    e.files = tn_xcalloc(4, sizeof *e.files);
    e.jain = tn_xcalloc(4, sizeof *e.jain);
    e.util = tn_xcalloc(4, sizeof *e.util);
    e.link_rate_bps = 10e6;
    for (size_t t = 0; t < 4; t++) {
        e.labels[t] = tn_xstrdup(labels[t]);
        e.files[t] = tn_xstrdup("x.tr");
        add_row(&e, (unsigned)t + 1, "A", bps[t][0]);
        add_row(&e, (unsigned)t + 1, "B", bps[t][1]);
        e.util[t] = (bps[t][0] + bps[t][1]) / 10e6;
    }
    struct tn_fig_cfg fc = {0};
    const char *stem;
    struct tn_plot *p = tn_fig_exp(&e, tn_fig_exp_count() - 1, &stem, &fc);
    ck_assert_str_eq(stem, "experiment-ratio");
    ck_assert_str_eq(p->x.label, "rtt_ratio");
    const struct tn_plot_series *h = series(p, "htcp", TN_D_LINE, 0), *b = series(p, "bic", TN_D_LINE, 0);
    ck_assert_ptr_nonnull(h);
    ck_assert_ptr_nonnull(b);
    ck_assert_uint_eq(h->n, 2);
    ck_assert_double_eq_tol(h->pts[0].x, 1, 1e-12);
    ck_assert_double_eq_tol(h->pts[0].y, 1.0, 1e-12);   /* 5 / 5 */
    ck_assert_double_eq_tol(h->pts[1].x, 2, 1e-12);
    ck_assert_double_eq_tol(h->pts[1].y, 3.0, 1e-12);   /* 6 / 2 */
    ck_assert_uint_eq(b->n, 2);
    ck_assert_double_eq_tol(b->pts[0].y, 0.8, 1e-12);   /* 4 / 5 */
    ck_assert_double_eq_tol(b->pts[1].y, 8.0, 1e-12);   /* 8 / 1 */
    tn_plot_free(p);
    p = tn_fig_exp(&e, tn_fig_exp_count() - 2, &stem, &fc);
    ck_assert_str_eq(stem, "experiment-utilisation");
    b = series(p, "bic", TN_D_LINE, 0);
    ck_assert_uint_eq(b->n, 2);
    ck_assert_double_eq_tol(b->pts[0].y, 0.9, 1e-12);
    ck_assert_double_eq_tol(b->pts[1].y, 0.9, 1e-12);
    tn_plot_free(p);
    p = tn_fig_exp(&e, 0, &stem, &fc);   /* goodput: four lines, a flow per group */
    ck_assert_ptr_nonnull(series(p, "htcp: A", TN_D_LINE, 0));
    const struct tn_plot_series *bb = series(p, "bic: B", TN_D_LINE, 0);
    ck_assert_ptr_nonnull(bb);
    ck_assert_uint_eq(bb->n, 2);
    ck_assert_double_eq_tol(bb->pts[1].y, 1e6, 1e-3);
    tn_plot_free(p);
    tn_experiment_fini(&e);
}
END_TEST

Suite *tn_paper_fig_suite(void)
{
    Suite *s = suite_create("paper_fig");
    TCase *tc = tcase_create("paper_fig");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_column_width_area);
    tcase_add_test(tc, test_flow_styles);
    tcase_add_test(tc, test_rexmit_time_counts);
    tcase_add_test(tc, test_rtt_distribution_numbers);
    tcase_add_test(tc, test_experiment_runs);
    tcase_add_test(tc, test_experiment_groups);
    suite_add_tcase(s, tc);
    return s;
}
