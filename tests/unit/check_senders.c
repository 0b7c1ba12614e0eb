/* check_senders.c - senders.csv (and the tables behind every other CSV file):
 *   - the columns are the ones docs/csv-contract.md lists, in its order (more may follow);
 *   - on every capture in samples/, each sender row holds the values the long report (-l -r -W)
 *     prints for that direction, read back from the report's text;
 *   - at the lab's sender captures, the bulk flow's rexmit_pkts equals the kernel's count of
 *     retransmitted segments (flows.csv "retransmits", from tcp_retransmit_skb).
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline_helper.h"
#include "render.h"
#include "render_cols.h"

/* The backticked column list of "## NAME — ..." in csv-contract.md, comma-separated, into out. */
static int contract_columns(const char *section, char names[][48], int max)
{
    FILE *fp = fopen(TN_SOURCE_DIR "/docs/csv-contract.md", "r");
    ck_assert_ptr_nonnull(fp);
    char line[1024], list[8192] = "";
    bool in = false, open = false;
    while (fgets(line, sizeof line, fp)) {
        if (strncmp(line, "## ", 3) == 0 || strncmp(line, "### ", 4) == 0) {
            const char *t = line + strspn(line, "#") + 1;
            in = strncmp(t, section, strlen(section)) == 0 && t[strlen(section)] == ' ';
            continue;
        }
        if (!in)
            continue;
        char *p = line;
        if (!open && line[0] == '`') {
            open = true;
            p++;
        } else if (!open) {
            continue;
        }
        char *end = strchr(p, '`');
        if (end)
            *end = 0;
        strncat(list, p, sizeof list - strlen(list) - 1);
        if (end)
            break;
    }
    fclose(fp);
    int n = 0;
    for (char *tok = strtok(list, ", \n"); tok && n < max; tok = strtok(NULL, ", \n"))
        snprintf(names[n++], 48, "%s", tok);
    return n;
}

/* The table's columns from index first on are the contract section's list. */
static int check_table_from(const char *section, const struct tn_col *cols, size_t ncols, int first)
{
    char names[128][48];
    int n = contract_columns(section, names, 128);
    ck_assert_msg(n >= 5, "%s: no column list found in csv-contract.md", section);
    ck_assert_uint_ge(ncols, (size_t)(first + n));
    for (int i = 0; i < n; i++)
        ck_assert_msg(strcmp(cols[first + i].name, names[i]) == 0, "%s column %d: table '%s', contract '%s'",
                      section, first + i + 1, cols[first + i].name, names[i]);
    return n;
}

static void check_table(const char *section, const struct tn_col *cols, size_t ncols)
{
    check_table_from(section, cols, ncols, 0);
    for (size_t i = 0; i < ncols; i++)
        for (size_t k = i + 1; k < ncols; k++)
            ck_assert_msg(strcmp(cols[i].name, cols[k].name), "%s: column %s twice", section, cols[i].name);
}

START_TEST(test_columns_are_the_contracts)
{
    check_table("senders.csv", tn_sender_cols, tn_sender_ncols);
    int n = check_table_from("senders.csv", tn_sender_cols, tn_sender_ncols, 0);
    int more = check_table_from("Further senders.csv", tn_sender_cols, tn_sender_ncols, n);
    ck_assert_uint_eq(tn_sender_ncols, (size_t)(n + more));   /* every column is documented */
    check_table("connections.csv", tn_conn_cols, tn_conn_ncols);
    check_table("events.csv", tn_event_cols, tn_event_ncols);
    check_table("series.csv", tn_series_cols, tn_series_ncols);
    ck_assert_uint_eq(tn_series_ncols, 5);
    check_table("packets.csv", tn_packet_cols, tn_packet_ncols);
    ck_assert_uint_eq(tn_packet_ncols, 13);
    check_table("dfcp_blocks.csv", tn_block_cols, tn_block_ncols);
    ck_assert_uint_eq(tn_block_ncols, 8);
    /* experiment.csv: the contract's list, then "Additions to experiment.csv": flow at the end */
    check_table("experiment.csv", tn_exp_cols, tn_exp_ncols);
    ck_assert_uint_eq(tn_exp_ncols, 14);
    ck_assert_str_eq(tn_exp_cols[13].name, "flow");
}
END_TEST

/* ---- sender rows against the long report's text ---- */

static const struct tn_col *col(const char *name)
{
    for (size_t i = 0; i < tn_sender_ncols; i++)
        if (strcmp(tn_sender_cols[i].name, name) == 0)
            return &tn_sender_cols[i];
    ck_abort_msg("no column %s", name);
    return NULL;
}

/* The cell as the long report prints it: integers as such, reals with the report's decimals,
 * "-" when empty. */
static void cell_text(const struct tn_sender_row *row, const char *name, int decimals, char *buf, size_t len)
{
    const struct tn_col *k = col(name);
    struct tn_cell c = {0};
    k->get(row, &c);
    if (!c.have)
        snprintf(buf, len, "-");
    else if (k->type == TN_COL_UINT)
        snprintf(buf, len, "%llu", (unsigned long long)c.u);
    else if (k->type == TN_COL_REAL)
        snprintf(buf, len, "%.*f", decimals, c.r);
    else
        snprintf(buf, len, "%s", c.s);
}

/* The value of the two-column row LABEL of the report for direction d. */
static bool report_value(const char *report, const char *label, unsigned d, char *buf, size_t len)
{
    char want[64];
    snprintf(want, sizeof want, "     %s ", label);
    const char *p = strstr(report, want);
    if (!p)
        return false;
    const char *eol = strchr(p, '\n');
    char line[256];
    snprintf(line, sizeof line, "%.*s", (int)(eol - p), p);
    char *after = line + strlen(want);           /* a->b value, then the label again, then b->a */
    char *second = strstr(after, label);
    ck_assert_ptr_nonnull(second);
    if (d == 0) {
        *second = 0;
        sscanf(after, "%63s", buf);
    } else {
        sscanf(second + strlen(label), "%63s", buf);
    }
    (void)len;
    return true;
}

/* senders.csv column, long-report label, the decimals the report prints */
static const struct pair {
    const char *col, *label;
    int decimals;
} pairs[] = {
    {"data_pkts", "data pkts:", 0},           {"data_bytes", "data bytes:", 0},
    {"unique_bytes", "unique bytes:", 0},     {"rexmt_data_pkts", "rexmt data pkts:", 0},
    {"rexmit_bytes", "rexmt data bytes:", 0}, {"ooo_pkts", "outoforder pkts:", 0},
    {"throughput_bps", "throughput (bit/s):", 0}, {"goodput_bps", "goodput (bit/s):", 0},
    {"pkts", "total packets:", 0},            {"wire_bytes", "wire bytes:", 0},
    {"seg_min", "min segm size:", 0},         {"seg_max", "max segm size:", 0},
    {"seg_avg", "avg segm size:", 0},         {"win_probes", "zero win probes:", 0},
    {"syn_pkts", "SYN pkts:", 0},             {"fin_pkts", "FIN pkts:", 0},
    {"rst_pkts", "RST pkts:", 0},             {"mss", "req MSS:", 0},
    {"window_scale", "window scale:", 0},     {"super_segs", "super-segments (>MSS):", 0},
    {"trunc_pkts", "snaplen-cut data pkts:", 0}, {"trunc_bytes", "truncated data bytes:", 0},
    {"pushed_pkts", "pushed data pkts:", 0},  {"urg_pkts", "urgent data pkts:", 0},
    {"urg_bytes", "urgent data bytes:", 0},   {"init_win_bytes", "initial window bytes:", 0},
    {"init_win_pkts", "initial window pkts:", 0}, {"idle_max_ms", "idletime max (ms):", 3},
    {"owin_max", "max owin:", 0},             {"owin_min_nonzero", "min non-zero owin:", 0},
    {"owin_avg", "avg owin:", 0},             {"owin_wavg", "wavg owin:", 0},
    {"rtt_samples", "RTT samples:", 0},       {"rtt_min_ms", "RTT min (ms):", 3},
    {"rtt_max_ms", "RTT max (ms):", 3},       {"rtt_avg_ms", "RTT avg (ms):", 3},
    {"rtt_stdev_ms", "RTT stdev (ms):", 3},   {"rtt_3whs_ms", "RTT from 3WHS (ms):", 3},
    {"rtt_full_samples", "RTT full_sz smpls:", 0}, {"rtt_full_min_ms", "RTT full_sz min (ms):", 3},
    {"rtt_full_avg_ms", "RTT full_sz avg (ms):", 3}, {"rtt_full_max_ms", "RTT full_sz max (ms):", 3},
    {"retr_time_min_ms", "min retr time (ms):", 3}, {"retr_time_max_ms", "max retr time (ms):", 3},
    {"retr_time_avg_ms", "avg retr time (ms):", 3}, {"retr_time_stdev_ms", "sdv retr time (ms):", 3},
    {"max_retrans", "max # retrans:", 0},
};

/* The receiver's counters, printed in its own column of the report. */
static const struct pair peer_pairs[] = {
    {"dupacks", "dup acks:", 0},
    {"triple_dupacks", "triple dupacks:", 0},
    {"sack_pkts_received", "sack pkts sent:", 0},
    {"zero_wnd_received", "zero win adv:", 0},
    {"pure_acks_received", "pure acks:", 0},
    {"rwnd_min", "min win adv:", 0},
    {"rwnd_max", "max win adv:", 0},
    {"rwnd_avg", "avg win adv:", 0},
};

/* The inference block of the sender: "retransmissions: fast F, timeout T, other O; spurious S",
 * "congestion control: NAME (EVIDENCE)", "episodes: fast recovery R, timeout T, ...". */
static void check_inference(const char *report, const struct tn_sender_row *row, const char *what)
{
    char head[32], v[4][200];
    snprintf(head, sizeof head, "     %s sender:\n", row->d == 0 ? "a->b" : "b->a");
    const char *b = strstr(report, head);
    ck_assert_msg(b != NULL, "%s: no sender block", what);
    unsigned long long fa, ti, ot, sp, rec, rto;
    const char *p = strstr(b, "retransmissions:");
    ck_assert(p && sscanf(p, "retransmissions: fast %llu, timeout %llu, other %llu; spurious %llu",
                          &fa, &ti, &ot, &sp) == 4);
    cell_text(row, "rexmit_fast", 0, v[0], 200);
    cell_text(row, "rexmit_rto", 0, v[1], 200);
    cell_text(row, "rexmit_other", 0, v[2], 200);
    cell_text(row, "rexmit_spurious", 0, v[3], 200);
    ck_assert_msg(strtoull(v[0], 0, 10) == fa && strtoull(v[1], 0, 10) == ti &&
                  strtoull(v[2], 0, 10) == ot && strtoull(v[3], 0, 10) == sp, "%s: causes", what);
    cell_text(row, "rexmit_pkts", 0, v[0], 200);   /* the inferred count: the sum of its causes */
    ck_assert_msg(strtoull(v[0], 0, 10) == fa + ti + ot, "%s: rexmit_pkts %s, causes %llu", what, v[0],
                  fa + ti + ot);
    p = strstr(b, "episodes:");
    ck_assert(p && sscanf(p, "episodes: fast recovery %llu, timeout %llu", &rec, &rto) == 2);
    cell_text(row, "recovery_episodes", 0, v[0], 200);
    cell_text(row, "rto_episodes", 0, v[1], 200);
    ck_assert_msg(strtoull(v[0], 0, 10) == rec && strtoull(v[1], 0, 10) == rto, "%s: episodes", what);
    p = strstr(b, "congestion control:");
    ck_assert(p != NULL);
    char name[32], conf[32], evidence[600], want[700];
    cell_text(row, "cc", 0, name, sizeof name);
    cell_text(row, "cc_confidence", 2, conf, sizeof conf);
    if (strcmp(name, "unknown") == 0)
        snprintf(want, sizeof want, "%-22s unknown\n", "congestion control:");
    else
        snprintf(want, sizeof want, "%-22s %s (confidence %s)\n", "congestion control:", name, conf);
    ck_assert_msg(strncmp(p, want, strlen(want)) == 0, "%s: report '%.80s', csv '%s'", what, p, want);
    cell_text(row, "cc_evidence", 0, evidence, sizeof evidence);
    if (strcmp(evidence, "-") != 0) {
        snprintf(want, sizeof want, "%-22s %s\n", "evidence:", evidence);
        const char *q = strstr(b, "evidence:");
        ck_assert_msg(q && strncmp(q, want, strlen(want)) == 0, "%s: report '%.80s', csv '%s'", what,
                      q ? q : "(none)", want);
    }
}

static int checked_rows;

static void check_capture(const char *path)
{
    struct tn_analysis_cfg cfg = {.record_events = true, .interval_ns = 100000000};
    struct tn_analyzer *an = tn_test_load(path, &cfg);
    ck_assert_msg(an != NULL, "%s", path);
    for (size_t i = 0; i < tn_analyzer_conn_count(an); i++) {
        const struct tn_conn *c = tn_analyzer_conn(an, i);
        unsigned idx = c->idx;
        struct tn_selection sel = {.idx = &idx, .n = 1};
        char *report = NULL;
        size_t len = 0;
        FILE *fp = open_memstream(&report, &len);
        tn_report_long(fp, an, &sel, &(struct tn_long_opts){true, true, 1});
        fclose(fp);
        for (unsigned d = 0; d < 2; d++) {
            if (!tn_sender_sent_data(c, d))
                continue;
            struct tn_sender_row row = {c, d};
            char what[600], got[200], want[200];
            snprintf(what, sizeof what, "%s conn %u %s", path, idx, d ? "b2a" : "a2b");
            for (size_t k = 0; k < TN_ARRAY_LEN(pairs) + TN_ARRAY_LEN(peer_pairs); k++) {
                bool peer = k >= TN_ARRAY_LEN(pairs);
                const struct pair *pr = peer ? &peer_pairs[k - TN_ARRAY_LEN(pairs)] : &pairs[k];
                if (!report_value(report, pr->label, peer ? !d : d, want, sizeof want))
                    continue;   /* a DFCP connection's report has no such row */
                cell_text(&row, pr->col, pr->decimals, got, sizeof got);
                if (strcmp(want, "Y") == 0 || strcmp(want, "N") == 0)
                    continue;
                if (c->proto != TN_PK_TCP && strcmp(got, "-") == 0)
                    continue;   /* "For DFCP rows the TCP-only columns are empty" */
                ck_assert_msg(strcmp(got, want) == 0, "%s: %s is %s, the report's '%s' %s", what,
                              pr->col, got, pr->label, want);
            }
            if (c->proto == TN_PK_TCP)
                check_inference(report, &row, what);
            checked_rows++;
        }
        free(report);
    }
    tn_analyzer_free(an);
}

START_TEST(test_senders_equal_long_report)
{
    checked_rows = 0;
    check_capture(TN_SAMPLES_DIR "/loopback-iperf3.pcap");
    DIR *dir = opendir(TN_SAMPLES_DIR);
    ck_assert_ptr_nonnull(dir);
    struct dirent *e;
    int files = 1;
    while ((e = readdir(dir))) {
        if (e->d_name[0] == '.')
            continue;
        static const char *const caps[] = {"snd1_eth0.pcap", "rcv1_eth0.pcap", "rtr_s1.pcap", "rtr_bn0.pcap"};
        for (size_t k = 0; k < TN_ARRAY_LEN(caps); k++) {
            char path[1024];
            snprintf(path, sizeof path, "%s/%s/%s", TN_SAMPLES_DIR, e->d_name, caps[k]);
            FILE *fp = fopen(path, "rb");
            if (!fp)
                continue;
            fclose(fp);
            check_capture(path);
            files++;
        }
    }
    closedir(dir);
    ck_assert_int_ge(files, 20);   /* 12 lab samples, a sender and a receiver capture each */
    ck_assert_int_ge(checked_rows, 2 * files);
}
END_TEST

/* The kernel's retransmissions of one source port: the tcp_retransmit_skb events of the lab's
 * tcp_retransmit.csv (flows.csv's "retransmits" is iperf3's tcpi_total_retrans, read when its
 * test ends: reno-nosack-owd30's last retransmission came after, 92 against 93 events). */
static int kernel_rexmits(const char *dir, unsigned sport)
{
    char path[1024], line[512];
    snprintf(path, sizeof path, "%s/%s/tcp_retransmit.csv", TN_SAMPLES_DIR, dir);
    FILE *fp = fopen(path, "r");
    ck_assert_msg(fp != NULL, "%s: cannot open", path);
    int n = 0;
    while (fgets(line, sizeof line, fp)) {   /* time_s,flow,saddr,sport,... */
        char *f[8];
        int k = 0;
        for (char *t = strtok(line, ",\r\n"); t && k < 8; t = strtok(NULL, ",\r\n"))
            f[k++] = t;
        n += k > 3 && (unsigned)strtoul(f[3], NULL, 10) == sport;
    }
    fclose(fp);
    return n;
}

/* flows.csv of a lab sample: the flows sent from snd1, by source port, and the kernel's
 * retransmissions of each (kernel_rexmits). */
START_TEST(test_senders_rexmit_equal_kernel)
{
    DIR *dir = opendir(TN_SAMPLES_DIR);
    ck_assert_ptr_nonnull(dir);
    struct dirent *e;
    int flows = 0;
    while ((e = readdir(dir))) {
        char path[1024], cap[1024];
        snprintf(path, sizeof path, "%s/%s/flows.csv", TN_SAMPLES_DIR, e->d_name);
        snprintf(cap, sizeof cap, "%s/%s/snd1_eth0.pcap", TN_SAMPLES_DIR, e->d_name);
        FILE *fp = fopen(path, "r");
        if (!fp)
            continue;
        FILE *cf = fopen(cap, "rb");
        if (!cf) {
            fclose(fp);
            continue;
        }
        fclose(cf);
        struct tn_analyzer *an = tn_test_load(cap, NULL);
        char line[1024];
        int rexmit_col = -1;
        if (fgets(line, sizeof line, fp)) {   /* the header names the column */
            int k = 0;
            for (char *t = strtok(line, ",\r\n"); t; t = strtok(NULL, ",\r\n"), k++)
                if (strcmp(t, "retransmits") == 0)
                    rexmit_col = k;
        }
        ck_assert_int_ge(rexmit_col, 0);
        while (fgets(line, sizeof line, fp)) {
            char *f[32];
            int n = 0;
            for (char *t = strtok(line, ",\r\n"); t && n < 32; t = strtok(NULL, ",\r\n"))
                f[n++] = t;
            if (n <= rexmit_col || strcmp(f[1], "tcp") || strcmp(f[3], "snd1"))
                continue;
            unsigned sport = (unsigned)atoi(f[5]);
            bool found = false;
            for (size_t i = 0; i < tn_analyzer_conn_count(an); i++) {
                const struct tn_conn *c = tn_analyzer_conn(an, i);
                if (c->a_port != sport || !tn_sender_sent_data(c, TN_A2B))
                    continue;
                struct tn_sender_row row = {c, TN_A2B};
                char got[64], want[32];
                cell_text(&row, "rexmit_pkts", 0, got, sizeof got);
                snprintf(want, sizeof want, "%d", kernel_rexmits(e->d_name, sport));
                ck_assert_msg(strcmp(got, want) == 0, "%s flow %s: rexmit_pkts %s, kernel %s (iperf3 %s)",
                              e->d_name, f[0], got, want, f[rexmit_col]);
                found = true;
                flows++;
            }
            ck_assert_msg(found, "%s: no sender on port %u", e->d_name, sport);
        }
        fclose(fp);
        tn_analyzer_free(an);
    }
    closedir(dir);
    ck_assert_int_ge(flows, 8);
}
END_TEST

Suite *tn_senders_suite(void)
{
    Suite *s = suite_create("senders");
    TCase *tc = tcase_create("senders");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_columns_are_the_contracts);
    tcase_add_test(tc, test_senders_equal_long_report);
    tcase_add_test(tc, test_senders_rexmit_equal_kernel);
    suite_add_tcase(s, tc);
    return s;
}
