/* check_flowid.c - flow identity across traces (--flow rules, the default CLIENT>SERVER:PORT key)
 * and the significance rule, on hand-made connections.  Expected values are worked out by hand. */
#include <check.h>
#include <string.h>

#include "analysis.h"
#include "views.h"
#include "tcp_pkt_helper.h"

static const int64_t T0 = 1000000000000;

/* A packet of the helper's client 10.0.0.1 / server 10.0.0.2, with other ports. */
static struct tn_pkt pk(bool from_client, uint16_t cport, uint16_t sport, uint8_t flags, uint32_t len, int64_t t)
{
    struct tn_pkt p = tn_test_tcp(from_client, 1, 1, flags, 1000, len, t, 1);
    p.sport = from_client ? cport : sport;
    p.dport = from_client ? sport : cport;
    return p;
}

static struct tn_analyzer *two_conns(void)
{
    struct tn_analysis_cfg cfg = {0};
    struct tn_analyzer *an = tn_analyzer_new(&cfg);
    /* conn 1: seen from its first data packet, sent by the server 10.0.0.2:5201 (no handshake) */
    struct tn_pkt p = pk(false, 51000, 5201, TN_TCP_ACK | TN_TCP_PSH, 20000, T0);
    tn_analyzer_add(an, &p, TN_DIS_OK, "t");
    /* conn 2: a SYN from the client 10.0.0.1:40000 to port 80, and 37 bytes */
    p = pk(true, 40000, 80, TN_TCP_SYN, 0, T0 + 1000);
    tn_analyzer_add(an, &p, TN_DIS_OK, "t");
    p = pk(true, 40000, 80, TN_TCP_ACK | TN_TCP_PSH, 37, T0 + 2000);
    tn_analyzer_add(an, &p, TN_DIS_OK, "t");
    tn_analyzer_finish(an);
    return an;
}

START_TEST(test_default_key)
{
    struct tn_analyzer *an = two_conns();
    char k[64];
    /* side a of conn 1 is the server (it sent the first packet), but 5201 < 51000: the server */
    ck_assert(!tn_conn_client_is_a(tn_analyzer_conn(an, 0)));
    tn_flow_key(tn_analyzer_conn(an, 0), NULL, 0, k, sizeof k);
    ck_assert_str_eq(k, "10.0.0.1>10.0.0.2:5201");
    ck_assert(tn_conn_client_is_a(tn_analyzer_conn(an, 1)));   /* the SYN sender */
    tn_flow_key(tn_analyzer_conn(an, 1), NULL, 0, k, sizeof k);
    ck_assert_str_eq(k, "10.0.0.1>10.0.0.2:80");
    tn_analyzer_free(an);
}
END_TEST

START_TEST(test_rules)
{
    struct tn_analyzer *an = two_conns();
    const struct tn_conn *c1 = tn_analyzer_conn(an, 0), *c2 = tn_analyzer_conn(an, 1);
    struct tn_flow_rule r[3];
    struct tn_err err;
    ck_assert_int_eq(tn_flow_rule_parse("iperf=server=10.0.0.2:5201,proto=tcp", &r[0], &err), 0);
    ck_assert_int_eq(tn_flow_rule_parse("web=port=80", &r[1], &err), 0);
    ck_assert_int_eq(tn_flow_rule_parse("cl=client=10.0.0.1:40000,host=10.0.0.2", &r[2], &err), 0);
    ck_assert(tn_flow_rule_match(&r[0], c1) && !tn_flow_rule_match(&r[0], c2));
    ck_assert(!tn_flow_rule_match(&r[1], c1) && tn_flow_rule_match(&r[1], c2));
    ck_assert(!tn_flow_rule_match(&r[2], c1) && tn_flow_rule_match(&r[2], c2));   /* c1's client port is 51000 */
    char k[64];
    tn_flow_key(c2, r, 3, k, sizeof k);
    ck_assert_str_eq(k, "web");   /* the first rule that matches */
    tn_flow_key(c1, r + 1, 2, k, sizeof k);
    ck_assert_str_eq(k, "10.0.0.1>10.0.0.2:5201");   /* no rule matches: the default key */

    ck_assert_int_eq(tn_flow_rule_parse("v6=client=[2001:db8::1]:40000,server=2001:db8::2", &r[0], &err), 0);
    ck_assert_uint_eq(r[0].client.addr.family, 6);
    ck_assert_uint_eq(r[0].client.port, 40000);
    ck_assert_uint_eq(r[0].server.addr.family, 6);
    ck_assert_int_eq(tn_flow_rule_parse("nospec", &r[0], &err), -TN_EUSAGE);
    ck_assert_int_eq(tn_flow_rule_parse("x=port=0", &r[0], &err), -TN_EUSAGE);
    ck_assert_int_eq(tn_flow_rule_parse("x=client=10.0.0.300", &r[0], &err), -TN_EUSAGE);
    ck_assert_int_eq(tn_flow_rule_parse("x=proto=udp", &r[0], &err), -TN_EUSAGE);
    ck_assert_int_eq(tn_flow_rule_parse("x=client=10.0.0.1,colour=blue", &r[0], &err), -TN_EUSAGE);
    ck_assert(strstr(err.msg, "colour=blue") != NULL);
    /* a SPEC that does not start with a term is a filter for the caller to compile; without its
     * matcher the rule names nothing */
    ck_assert_int_eq(tn_flow_rule_parse("x=colour=blue", &r[0], &err), 0);
    ck_assert_str_eq(r[0].filter, "colour=blue");
    ck_assert_int_eq(tn_flow_rule_parse("t=tcp port 5201", &r[1], &err), 0);
    ck_assert_str_eq(r[1].filter, "tcp port 5201");
    ck_assert(!tn_flow_rule_match(&r[1], tn_analyzer_conn(an, 0)));
    tn_analyzer_free(an);
}
END_TEST

START_TEST(test_significance)
{
    struct tn_analyzer *an = two_conns();
    struct tn_signif s;
    /* 37 bytes < 1% of 20000 (200): conn 2 is not significant */
    tn_signif_init(&s, an, NULL, 0, false);
    ck_assert_uint_eq(s.max_bytes, 20000);
    ck_assert_uint_eq(s.total, 2);
    ck_assert_uint_eq(s.kept, 1);
    ck_assert(tn_signif_keep(&s, tn_analyzer_conn(an, 0)));
    ck_assert(!tn_signif_keep(&s, tn_analyzer_conn(an, 1)));
    tn_signif_init(&s, an, NULL, 0, true);   /* --all-connections */
    ck_assert(tn_signif_keep(&s, tn_analyzer_conn(an, 1)));
    unsigned only2[] = {2};   /* alone, conn 2 is the largest of the selection */
    tn_signif_init(&s, an, only2, 1, false);
    ck_assert(tn_signif_keep(&s, tn_analyzer_conn(an, 1)));
    tn_analyzer_free(an);
}
END_TEST

/* A starved competitor: 6000 bytes beside 700,000 is under 1% (7000) but more than an initial
 * window (no MSS option: SMSS 536, RFC 6928 IW = min(5360, max(1072, 14600)) = 5360), so it
 * counts; a 37-byte control connection does not. */
START_TEST(test_significance_starved)
{
    struct tn_analysis_cfg cfg = {0};
    struct tn_analyzer *an = tn_analyzer_new(&cfg);
    int64_t t = T0;
    for (uint32_t i = 0; i < 700; i++) {   /* conn 1: 700 x 1000 bytes from the client */
        struct tn_pkt p = tn_test_tcp(true, 1 + i * 1000, 1, TN_TCP_ACK, 1000, 1000, t += 1000, i + 1);
        p.sport = 50000;
        p.dport = 5201;
        tn_analyzer_add(an, &p, TN_DIS_OK, "t");
    }
    for (uint32_t i = 0; i < 6; i++) {     /* conn 2: 6 x 1000 bytes */
        struct tn_pkt p = tn_test_tcp(true, 1 + i * 1000, 1, TN_TCP_ACK, 1000, 1000, t += 1000, 800 + i);
        p.sport = 50001;
        p.dport = 5201;
        tn_analyzer_add(an, &p, TN_DIS_OK, "t");
    }
    struct tn_pkt p = tn_test_tcp(true, 1, 1, TN_TCP_ACK | TN_TCP_PSH, 1000, 37, t += 1000, 900);
    p.sport = 50002;                       /* conn 3: 37 bytes */
    p.dport = 5201;
    tn_analyzer_add(an, &p, TN_DIS_OK, "t");
    tn_analyzer_finish(an);
    ck_assert_uint_eq(tn_analyzer_conn_count(an), 3);
    struct tn_signif s;
    tn_signif_init(&s, an, NULL, 0, false);
    ck_assert_uint_eq(s.max_bytes, 700000);
    ck_assert_uint_eq(s.total, 3);
    ck_assert_uint_eq(s.kept, 2);
    ck_assert(tn_signif_keep(&s, tn_analyzer_conn(an, 1)));
    ck_assert(!tn_signif_keep(&s, tn_analyzer_conn(an, 2)));
    tn_analyzer_free(an);
}
END_TEST

Suite *tn_flowid_suite(void)
{
    Suite *s = suite_create("flowid");
    TCase *tc = tcase_create("flowid");
    tcase_add_test(tc, test_default_key);
    tcase_add_test(tc, test_rules);
    tcase_add_test(tc, test_significance);
    tcase_add_test(tc, test_significance_starved);
    suite_add_tcase(s, tc);
    return s;
}
