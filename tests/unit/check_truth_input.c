/* check_truth_input.c - --truth reads what users record and refuses what it cannot read:
 * the lab's tcp_probe.csv in any column order, a raw tracefs dump and an `ss -tin` polling log
 * made from the same records give the same grades; a file lacking a column, a tcp_probe line
 * lacking a field, an ss log without time stamps, a companion file with a wrong header and a
 * file that is no truth at all are refused with a message naming the file and the problem; the
 * companion files found (or not) are named, and a companion line short of a column is skipped.
 * Sample: reno-smallq (kernel records of its run). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pipeline_helper.h"

#define SAMPLE TN_SAMPLES_DIR "/reno-smallq"
#define TMP TN_BINARY_DIR "/truth-input-test"

static struct tn_analyzer *an;

static void setup(void)
{
    mkdir(TMP, 0755);
    an = tn_test_load(SAMPLE "/snd1_eth0.pcap", NULL);
    ck_assert_ptr_nonnull(an);
}

static void teardown(void)
{
    tn_analyzer_free(an);
}

/* The grade of the bulk flow's sender (port 40001, flows.csv) against the truth at path. */
static struct tn_accuracy grade(const char *path)
{
    struct tn_truth *t;
    struct tn_err err;
    ck_assert_msg(tn_truth_load(path, &t, &err) == 0, "%s", err.msg);
    struct tn_accuracy acc[8];
    size_t n = tn_truth_compare(t, an, acc, 8);
    tn_truth_free(t);
    for (size_t i = 0; i < n; i++)
        if (tn_analyzer_conn(an, acc[i].conn - 1)->a_port == 40001 && acc[i].dir == TN_A2B)
            return acc[i];
    ck_abort_msg("%s: the bulk flow is not graded", path);
    return acc[0];
}

static void refused(const char *path, const char *why)
{
    struct tn_truth *t;
    struct tn_err err;
    ck_assert_int_eq(tn_truth_load(path, &t, &err), -TN_EFORMAT);
    ck_assert_msg(strstr(err.msg, path) && strstr(err.msg, why), "%s: '%s' lacks '%s'", path, err.msg, why);
}

/* The sample's tcp_probe.csv, row by row: its header names, and each row's cells. */
struct rows {
    char head[16][32];
    int ncol;
    char (*cell)[16][32];
    size_t n;
};

static void read_rows(struct rows *r)
{
    FILE *fp = fopen(SAMPLE "/tcp_probe.csv", "r");
    ck_assert_ptr_nonnull(fp);
    char line[1024];
    memset(r, 0, sizeof *r);
    size_t cap = 0;
    for (bool first = true; fgets(line, sizeof line, fp); first = false) {
        line[strcspn(line, "\r\n")] = 0;
        char(*dst)[32];
        if (first) {
            dst = r->head;
        } else {
            if (r->n == cap)
                r->cell = realloc(r->cell, (cap = cap ? 2 * cap : 1024) * sizeof *r->cell);
            dst = r->cell[r->n++];
        }
        int k = 0;
        for (char *p = line, *c; k < 16; p = c + 1) {
            c = strchr(p, ',');
            snprintf(dst[k++], 32, "%.*s", c ? (int)(c - p) : (int)strlen(p), p);
            if (!c)
                break;
        }
        if (first)
            r->ncol = k;
    }
    fclose(fp);
}

static int col(const struct rows *r, const char *name)
{
    for (int k = 0; k < r->ncol; k++)
        if (strcmp(r->head[k], name) == 0)
            return k;
    ck_abort_msg("tcp_probe.csv has no %s", name);
    return -1;
}

/* Write the CSV with its columns in reverse order, leaving out column skip (or none: -1). */
static void write_reordered(const struct rows *r, const char *path, int skip)
{
    FILE *fp = fopen(path, "w");
    ck_assert_ptr_nonnull(fp);
    for (size_t i = 0; i <= r->n; i++) {
        const char(*cells)[32] = i == 0 ? r->head : r->cell[i - 1];
        const char *sep = "";
        for (int k = r->ncol - 1; k >= 0; k--) {
            if (k == skip)
                continue;
            fprintf(fp, "%s%s", sep, cells[k]);
            sep = ",";
        }
        fputc('\n', fp);
    }
    ck_assert_int_eq(fclose(fp), 0);
}

START_TEST(test_csv_any_column_order)
{
    struct rows r;
    read_rows(&r);
    write_reordered(&r, TMP "/tcp_probe.csv", -1);
    struct tn_accuracy a = grade(SAMPLE "/tcp_probe.csv"), b = grade(TMP "/tcp_probe.csv");
    ck_assert_uint_gt(a.probes, 1000);
    ck_assert_uint_eq(a.probes, b.probes);
    ck_assert_uint_eq(a.cwnd_n, b.cwnd_n);
    ck_assert_double_eq(a.cwnd_err_med, b.cwnd_err_med);
    ck_assert_double_eq(a.rtt_err_med, b.rtt_err_med);
    /* a column missing: refused before anything is graded */
    write_reordered(&r, TMP "/no-srtt.csv", col(&r, "srtt_us"));
    refused(TMP "/no-srtt.csv", "no column srtt_us");
    free(r.cell);
}
END_TEST

/* The same records as tracefs prints the tcp:tcp_probe event (include/trace/events/tcp.h:
 * "family=%s src=%pISpc dest=%pISpc mark=%#x data_len=%d snd_nxt=%#x snd_una=%#x snd_cwnd=%u
 * ssthresh=%u snd_wnd=%u srtt=%u rcv_wnd=%u sock_cookie=%llx"), and an ss -tin polling log. */
static void write_derived(const struct rows *r, const char *trace, const char *ss, bool drop_srtt)
{
    FILE *ft = fopen(trace, "w"), *fs = fopen(ss, "w");
    ck_assert(ft && fs);
    fputs("# tracer: nop\n#\n", ft);
    int t = col(r, "time_s"), sa = col(r, "saddr"), sp = col(r, "sport"), da = col(r, "daddr"),
        dp = col(r, "dport"), nxt = col(r, "snd_nxt"), una = col(r, "snd_una"), cw = col(r, "snd_cwnd"),
        th = col(r, "ssthresh"), sr = col(r, "srtt_us");
    for (size_t i = 0; i < r->n; i++) {
        const char(*c)[32] = r->cell[i];
        unsigned long n = strtoul(c[nxt], NULL, 10), u = strtoul(c[una], NULL, 10);
        fprintf(ft, "          iperf3-4242    [001] ..s1. %s: tcp_probe: family=AF_INET src=%s:%s "
                "dest=%s:%s mark=0x0 data_len=0 snd_nxt=%#lx snd_una=%#lx snd_cwnd=%s ssthresh=%s "
                "snd_wnd=65160%s%s rcv_wnd=64512 sock_cookie=2a\n", c[t], c[sa], c[sp], c[da], c[dp], n, u,
                c[cw], c[th], drop_srtt ? "" : " srtt=", drop_srtt ? "" : c[sr]);
        uint32_t flight = (uint32_t)(n - u);
        fprintf(fs, "%s\nState Recv-Q Send-Q Local Address:Port Peer Address:Port Process\n"
                "ESTAB 0 0 %s:%s %s:%s\n\t reno wscale:10,10 rto:220 rtt:%.3f/0.5 mss:1448 cwnd:%s "
                "ssthresh:%s unacked:%u\n", c[t], c[sa], c[sp], c[da], c[dp], strtod(c[sr], NULL) / 1000,
                c[cw], c[th], (flight + 1447) / 1448);
    }
    ck_assert_int_eq(fclose(ft), 0);
    ck_assert_int_eq(fclose(fs), 0);
}

START_TEST(test_tracefs_and_ss)
{
    struct rows r;
    read_rows(&r);
    write_derived(&r, TMP "/trace.txt", TMP "/ss.log", false);
    struct tn_accuracy a = grade(SAMPLE "/tcp_probe.csv"), t = grade(TMP "/trace.txt"),
                       s = grade(TMP "/ss.log");
    ck_assert_uint_eq(t.probes, a.probes);
    ck_assert_uint_eq(t.cwnd_n, a.cwnd_n);
    ck_assert_double_eq(t.cwnd_err_med, a.cwnd_err_med);
    ck_assert_double_eq(t.rtt_err_med, a.rtt_err_med);
    ck_assert_uint_eq(s.probes, a.probes);
    ck_assert_double_eq_tol(s.rtt_err_med, a.rtt_err_med, 1e-6);   /* srtt at 1 us either way */
    /* ss counts bytes in flight in whole segments ("unacked:"), so an ACK near the window-limited
     * test's edge may change sides; the cwnd error over the same ACKs stays put */
    ck_assert_double_eq_tol(s.cwnd_err_med, a.cwnd_err_med, 0.01);
    write_derived(&r, TMP "/trace-nosrtt.txt", TMP "/ss2.log", true);
    refused(TMP "/trace-nosrtt.txt", "without srtt=");
    free(r.cell);
}
END_TEST

static void write_text(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    ck_assert_ptr_nonnull(fp);
    fputs(text, fp);
    ck_assert_int_eq(fclose(fp), 0);
}

START_TEST(test_refused_and_companions)
{
    refused("/etc/passwd", "not kernel ground truth");
    write_text(TMP "/nostamp.log", "State Recv-Q Send-Q Local Address:Port Peer Address:Port Process\n"
               "ESTAB 0 0 10.1.1.2:40001 10.9.1.2:5201\n\t cubic rtt:20.1/0.5 mss:1448 cwnd:10\n");
    refused(TMP "/nostamp.log", "time stamp");
    /* companions: named when found, said when absent, refused when their header is wrong */
    mkdir(TMP "/alone", 0755);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cp '%s/tcp_probe.csv' '%s/alone/'", SAMPLE, TMP);
    ck_assert_int_eq(system(cmd), 0);
    remove(TMP "/alone/tcp_cong_state.csv");
    struct tn_truth *t;
    struct tn_err err;
    ck_assert_msg(tn_truth_load(TMP "/alone/tcp_probe.csv", &t, &err) == 0, "%s", err.msg);
    ck_assert_str_eq(tn_truth_sources(t), "tcp_probe.csv (tcp_probe CSV): 1286 records; no "
                     "tcp_cong_state.csv beside it; no tcp_retransmit.csv beside it");
    tn_truth_free(t);
    /* a companion in another column order: a line that ends before a column the header has is
     * skipped, whichever column it is (daddr stands last here; the fuzzer found the reader
     * checking the line's length against dport's column only) */
    write_text(TMP "/alone/tcp_retransmit.csv", "time_s,saddr,sport,dport,daddr\n"
               "1.0,10.1.1.2,40001,5201,10.9.1.2\n1.1,10.1.1.2,40001,5201\n");
    ck_assert_msg(tn_truth_load(TMP "/alone/tcp_probe.csv", &t, &err) == 0, "%s", err.msg);
    ck_assert_str_eq(tn_truth_sources(t), "tcp_probe.csv (tcp_probe CSV): 1286 records; no "
                     "tcp_cong_state.csv beside it; tcp_retransmit.csv: 1 records");
    tn_truth_free(t);
    remove(TMP "/alone/tcp_retransmit.csv");
    ck_assert(tn_truth_load(SAMPLE "/tcp_probe.csv", &t, &err) == 0);
    /* wc -l of the sample's files, less their header rows */
    ck_assert_str_eq(tn_truth_sources(t), "tcp_probe.csv (tcp_probe CSV): 1286 records; "
                     "tcp_cong_state.csv: 49 records; tcp_retransmit.csv: 21 records");
    tn_truth_free(t);
    write_text(TMP "/alone/tcp_cong_state.csv", "when,who,what\n1,2,3\n");
    ck_assert_int_eq(tn_truth_load(TMP "/alone/tcp_probe.csv", &t, &err), -TN_EFORMAT);
    ck_assert_str_eq(err.msg, TMP "/alone/tcp_cong_state.csv: not a tcp_cong_state CSV: no column "
                     "time_s, saddr, sport, daddr, dport, cong_state (header: 'when,who,what')");
}
END_TEST

/* Copy the sample's file name into dir with, after each record, one of another flow (source
 * 10.7.7.7) 50 s earlier: the records of each flow are graded alone, and an earlier record
 * does not end a scan of the file in time order, so the grades stay the same. */
static void interleave(const char *name, const char *dir)
{
    char in[1024], out[1024], line[1024];
    snprintf(in, sizeof in, "%s/%s", SAMPLE, name);
    snprintf(out, sizeof out, "%s/%s", dir, name);
    FILE *fi = fopen(in, "r"), *fo = fopen(out, "w");
    ck_assert(fi && fo);
    for (bool first = true; fgets(line, sizeof line, fi); first = false) {
        fputs(line, fo);
        char *c1 = strchr(line, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
        char *c3 = c2 ? strchr(c2 + 1, ',') : NULL;
        if (first || !c3)
            continue;
        double t = strtod(line, NULL) - 50.0;
        fprintf(fo, "%.6f,%.*s,10.7.7.7%s", t, (int)(c2 - c1 - 1), c1 + 1, c3);
    }
    fclose(fi);
    ck_assert_int_eq(fclose(fo), 0);
}

START_TEST(test_other_flows_interleaved)
{
    const char *dir = TMP "/interleaved";
    mkdir(dir, 0755);
    interleave("tcp_probe.csv", dir);
    interleave("tcp_cong_state.csv", dir);
    interleave("tcp_retransmit.csv", dir);
    struct tn_accuracy a = grade(SAMPLE "/tcp_probe.csv"), b = grade(TMP "/interleaved/tcp_probe.csv");
    ck_assert_uint_gt(a.probes, 1000);
    ck_assert_uint_gt(a.truth_episodes[0], 0);
    ck_assert_uint_gt(a.truth_rexmits, 0);
    ck_assert_uint_eq(a.probes, b.probes);
    ck_assert_uint_eq(a.limited, b.limited);
    ck_assert_uint_eq(a.cwnd_n, b.cwnd_n);
    ck_assert_uint_eq(a.cwnd_open_n, b.cwnd_open_n);
    ck_assert_double_eq(a.cwnd_err_med, b.cwnd_err_med);
    ck_assert_double_eq(a.cwnd_err_p90, b.cwnd_err_p90);
    ck_assert_double_eq(a.cwnd_err_open_med, b.cwnd_err_open_med);
    ck_assert_double_eq(a.rtt_err_med, b.rtt_err_med);
    for (int k = 0; k < 2; k++) {
        ck_assert_uint_eq(a.truth_episodes[k], b.truth_episodes[k]);
        ck_assert_uint_eq(a.matched_episodes[k], b.matched_episodes[k]);
    }
    ck_assert_uint_eq(a.truth_rexmits, b.truth_rexmits);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            ck_assert_uint_eq(a.confusion[i][j], b.confusion[i][j]);
}
END_TEST

Suite *tn_truth_input_suite(void)
{
    Suite *s = suite_create("truth_input");
    TCase *tc = tcase_create("truth_input");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_csv_any_column_order);
    tcase_add_test(tc, test_tracefs_and_ss);
    tcase_add_test(tc, test_refused_and_companions);
    tcase_add_test(tc, test_other_flows_interleaved);
    suite_add_tcase(s, tc);
    return s;
}
