/* check_endpoints.c - endpoints print as people and tools write them (RFC 5952 §6): IPv6 in
 * brackets before the port, in the connection list, the long report and the timeline. */
#include <arpa/inet.h>
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "tcp_pkt_helper.h"
#include "tui_int.h"

static struct tn_pkt v6(struct tn_pkt p)
{
    p.ipver = 6;
    p.src.family = p.dst.family = 6;
    bool from_client = p.sport == 40000;
    inet_pton(AF_INET6, from_client ? "fd00:1:1::1" : "fd00:9:1::2", p.src.a);
    inet_pton(AF_INET6, from_client ? "fd00:9:1::2" : "fd00:1:1::1", p.dst.a);
    return p;
}

START_TEST(test_ipv6_bracketed)
{
    struct tn_analysis_cfg cfg = {.record_events = true, .interval_ns = 100000000};
    struct tn_analyzer *an = tn_analyzer_new(&cfg);
    int64_t t = 1700000000000000000;
    struct tn_pkt p[] = {
        v6(tn_test_tcp(true, 1000, 0, TN_TCP_SYN, 65535, 0, t, 1)),
        v6(tn_test_tcp(false, 5000, 1001, TN_TCP_SYN | TN_TCP_ACK, 65535, 0, t + 10000000, 2)),
        v6(tn_test_tcp(true, 1001, 5001, TN_TCP_ACK, 65535, 0, t + 10100000, 3)),
        v6(tn_test_tcp(true, 1001, 5001, TN_TCP_ACK | TN_TCP_PSH, 65535, 100, t + 10200000, 4)),
        v6(tn_test_tcp(false, 5001, 1101, TN_TCP_ACK, 65535, 0, t + 20200000, 5)),
    };
    for (size_t i = 0; i < TN_ARRAY_LEN(p); i++)
        tn_analyzer_add(an, &p[i], 0, "v6.pcap");
    tn_analyzer_finish(an);
    char *out = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&out, &len);
    tn_report_list(fp, an, NULL, 1);
    tn_report_long(fp, an, NULL, NULL);
    struct tn_view v = {0};
    tn_report_timeline(fp, an, &v);
    fclose(fp);
    ck_assert_msg(strstr(out, "[fd00:1:1::1]:40000 - [fd00:9:1::2]:80"), "list: %s", out);
    ck_assert_msg(strstr(out, "host a:        [fd00:1:1::1]:40000\n"), "long: %s", out);
    ck_assert_msg(strstr(out, "host b:        [fd00:9:1::2]:80\n"), "long: %s", out);
    ck_assert_msg(strstr(out, "Timeline of connection 1 ([fd00:1:1::1]:40000 - [fd00:9:1::2]:80)"),
                  "timeline: %s", out);
    ck_assert_ptr_null(strstr(out, "fd00:1:1::1:40000"));   /* never the ambiguous form */
    free(out);
    char buf[80];
    struct tn_addr a4 = {4, {192, 0, 2, 7}};
    ck_assert_str_eq(tn_endpoint_str(&a4, 443, buf, sizeof buf), "192.0.2.7:443");
    tn_analyzer_free(an);
}
END_TEST

/* The dashboard's table at 80 columns has 21 for "a > b" (view_table.c: 80 - 59 fixed): both
 * ports stay whole and IPv6 addresses keep their brackets, losing their first digits; when that
 * would make two hosts read the same (10.1.1.2 and 10.9.1.2 both "~1.2"), a's port goes instead. */
START_TEST(test_dashboard_endpoints_80_columns)
{
    static const struct { const char *a, *b, *want; } cases[] = {
        {"[fd00:1:1::1]:39600", "[fd00:9:1::2]:5201", "[~1]:39600>[~2]:5201"},
        {"[::1]:55717", "[::1]:8000", "[~1]:55717>[::1]:8000"},
        {"10.1.1.2:40001", "10.9.1.2:5201", "10.1.1.2>~9.1.2:5201"},
        {"10.0.0.1:40001", "10.0.0.2:5201", "~0.1:40001>~0.2:5201"},
        {"10.0.0.1:80", "10.0.0.2:443", "10.0.0.1:80 > 10.0.0.2:443"},
    };
    for (size_t i = 0; i < TN_ARRAY_LEN(cases); i++) {
        char out[160];
        int w = i == 4 ? 30 : 21;
        tn_fmt_endpoints(out, sizeof out, cases[i].a, cases[i].b, w);
        ck_assert_str_eq(out, cases[i].want);
        ck_assert_int_le((int)strlen(out), w);
    }
}
END_TEST

Suite *tn_endpoints_suite(void)
{
    Suite *s = suite_create("endpoints");
    TCase *tc = tcase_create("endpoints");
    tcase_add_test(tc, test_ipv6_bracketed);
    tcase_add_test(tc, test_dashboard_endpoints_80_columns);
    suite_add_tcase(s, tc);
    return s;
}
