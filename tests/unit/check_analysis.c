/* check_analysis.c - connection table and per-direction counters on hand-built packet sequences. */
#include <check.h>
#include <string.h>

#include "analysis.h"
#include "tcp_pkt_helper.h"

static struct tn_analyzer *an;
static uint64_t pktno;
static double now;

static void setup(void)
{
    an = tn_analyzer_new(NULL);
    pktno = 0;
    now = 1000.0;
}

static void teardown(void)
{
    tn_analyzer_free(an);
}

/* Client 10.0.0.1:40000, server 10.0.0.2:80 (IPv4). */
static struct tn_pkt tcp(bool from_client, uint32_t seq, uint32_t ack, uint8_t flags, uint16_t win,
                         uint32_t len)
{
    now += 0.001;
    int64_t sec = (int64_t)now;
    int64_t t_ns = sec * 1000000000 + (uint32_t)((now - (double)sec) * 1e9);
    return tn_test_tcp(from_client, seq, ack, flags, win, len, t_ns, ++pktno);
}

static void feed(struct tn_pkt p)
{
    tn_analyzer_add(an, &p, TN_DIS_OK, "test");
}

enum { S = TN_TCP_SYN, A = TN_TCP_ACK, F = TN_TCP_FIN, R = TN_TCP_RST, P = TN_TCP_PSH };

/* SYN with MSS 1460, WS 7, SACK-permitted; SYN-ACK with MSS 1400, WS 2. */
static void handshake(uint32_t cisn, uint32_t sisn)
{
    struct tn_pkt syn = tcp(true, cisn, 0, S, 64240, 0);
    syn.tcp.opt.has_mss = true;
    syn.tcp.opt.mss = 1460;
    syn.tcp.opt.has_ws = true;
    syn.tcp.opt.ws = 7;
    syn.tcp.opt.sack_ok = true;
    feed(syn);
    struct tn_pkt sa = tcp(false, sisn, cisn + 1, S | A, 65160, 0);
    sa.tcp.opt.has_mss = true;
    sa.tcp.opt.mss = 1400;
    sa.tcp.opt.has_ws = true;
    sa.tcp.opt.ws = 2;
    feed(sa);
    feed(tcp(true, cisn + 1, sisn + 1, A, 502, 0));
}

START_TEST(test_complete_connection)
{
    handshake(1000, 5000);
    feed(tcp(true, 1001, 5001, P | A, 502, 100));
    feed(tcp(false, 5001, 1101, A, 1000, 0));
    feed(tcp(true, 1101, 5001, F | A, 502, 0));
    feed(tcp(false, 5001, 1102, F | A, 1000, 0));
    feed(tcp(true, 1102, 5002, A, 502, 0));
    ck_assert_uint_eq(tn_analyzer_conn_count(an), 1);
    const struct tn_conn *c = tn_analyzer_conn(an, 0);
    ck_assert_int_eq(tn_conn_state(c), TN_ST_COMPLETE);
    ck_assert_uint_eq(c->a_port, 40000);
    ck_assert_uint_eq(c->d[TN_A2B].pkts, 5);
    ck_assert_uint_eq(c->d[TN_B2A].pkts, 3);
    ck_assert_uint_eq(c->d[TN_A2B].data_pkts, 1);
    ck_assert_uint_eq(c->d[TN_A2B].data_bytes, 100);
    ck_assert_uint_eq(c->d[TN_A2B].unique_bytes, 100);
    ck_assert_uint_eq(c->d[TN_A2B].pure_acks, 2);   /* the handshake's ACK and the last ACK */
    ck_assert_uint_eq(c->d[TN_B2A].pure_acks, 1);
    ck_assert_uint_eq(c->d[TN_A2B].mss, 1460);
    ck_assert_uint_eq(c->d[TN_B2A].mss, 1400);
    /* windows after the SYN are scaled by the sender's own shift: 502 << 7 = 64256,
     * 1000 << 2 = 4000; the SYN's own window (64240, 65160) is never scaled */
    ck_assert_uint_eq(c->d[TN_A2B].win_min, 64240);
    ck_assert_uint_eq(c->d[TN_A2B].win_max, 64256);
    ck_assert_uint_eq(c->d[TN_B2A].win_max, 65160);
    ck_assert_uint_eq(c->d[TN_B2A].win_min, 4000);
}
END_TEST

START_TEST(test_reset_and_partial)
{
    /* mid-stream pickup: no SYN seen, then a RST */
    feed(tcp(false, 7000, 300, A, 100, 50));
    feed(tcp(true, 300, 7050, A, 100, 0));
    ck_assert_int_eq(tn_conn_state(tn_analyzer_conn(an, 0)), TN_ST_PARTIAL);
    /* side a is the sender of the first packet seen */
    ck_assert_uint_eq(tn_analyzer_conn(an, 0)->a_port, 80);
    feed(tcp(true, 300, 7050, R, 0, 0));
    ck_assert_int_eq(tn_conn_state(tn_analyzer_conn(an, 0)), TN_ST_RESET);
    ck_assert_uint_eq(tn_analyzer_conn(an, 0)->d[TN_B2A].zero_wnd, 0);   /* RST window 0 is no ad */
}
END_TEST

START_TEST(test_synack_first_makes_syn_sender_a)
{
    feed(tcp(false, 5000, 1001, S | A, 1000, 0));
    feed(tcp(true, 1001, 5001, A, 1000, 0));
    const struct tn_conn *c = tn_analyzer_conn(an, 0);
    ck_assert_uint_eq(c->a_port, 40000);
    ck_assert_uint_eq(c->d[TN_A2B].pkts, 1);
    ck_assert_uint_eq(c->d[TN_B2A].pkts, 1);
    ck_assert_int_eq(tn_conn_state(c), TN_ST_PARTIAL);
}
END_TEST

/* Three segments, the second lost before the monitor and sent again later: the later copy fills
 * a gap never seen (out of order).  Then the third is sent again: a retransmission.  All of it
 * across the 2^32 wrap of the sequence space. */
START_TEST(test_rexmit_and_ooo_across_wrap)
{
    uint32_t isn = 0xFFFFFFFFu - 1500;
    handshake(isn, 77);
    uint32_t s1 = isn + 1, s2 = s1 + 1000, s3 = s2 + 1000;   /* s2 wraps past 0 */
    feed(tcp(true, s1, 78, A, 502, 1000));
    feed(tcp(true, s3, 78, A, 502, 1000));                   /* hole [s2, s3) */
    feed(tcp(false, 78, s2, A, 1000, 0));
    feed(tcp(false, 78, s2, A, 1000, 0));                    /* dup ack 1 */
    feed(tcp(false, 78, s2, A, 1000, 0));                    /* dup ack 2 */
    feed(tcp(true, s2, 78, A, 502, 1000));                   /* fills the hole: out of order */
    feed(tcp(true, s3, 78, A, 502, 1000));                   /* already seen: retransmission */
    feed(tcp(false, 78, s3 + 1000, A, 1000, 0));
    const struct tn_conn *c = tn_analyzer_conn(an, 0);
    ck_assert_uint_eq(c->d[TN_A2B].data_pkts, 4);
    ck_assert_uint_eq(c->d[TN_A2B].data_bytes, 4000);
    ck_assert_uint_eq(c->d[TN_A2B].unique_bytes, 3000);
    ck_assert_uint_eq(c->d[TN_A2B].ooo_pkts, 1);
    ck_assert_uint_eq(c->d[TN_A2B].rexmit_pkts, 1);
    ck_assert_uint_eq(c->d[TN_A2B].rexmit_bytes, 1000);
    ck_assert_uint_eq(c->d[TN_B2A].dupacks, 2);
}
END_TEST

START_TEST(test_gap_acked_then_resent_is_rexmit)
{
    handshake(100, 900);
    feed(tcp(true, 101, 901, A, 502, 500));
    feed(tcp(true, 1101, 901, A, 502, 500));      /* [601,1101) missed by the monitor */
    feed(tcp(false, 901, 1601, A, 1000, 0));      /* receiver got it all */
    feed(tcp(true, 601, 901, A, 502, 500));       /* a copy of acknowledged data */
    const struct tn_conn *c = tn_analyzer_conn(an, 0);
    ck_assert_uint_eq(c->d[TN_A2B].rexmit_pkts, 1);
    ck_assert_uint_eq(c->d[TN_A2B].ooo_pkts, 0);
}
END_TEST

START_TEST(test_port_reuse_new_connection)
{
    handshake(1000, 5000);
    feed(tcp(true, 1001, 5001, F | A, 502, 0));
    feed(tcp(false, 5001, 1002, F | A, 1000, 0));
    feed(tcp(true, 1002, 5002, A, 502, 0));
    feed(tcp(true, 1000, 0, S, 64240, 0));        /* SYN retransmission? no: same ISN... */
    ck_assert_uint_eq(tn_analyzer_conn_count(an), 1);   /* same ISN: the old attempt */
    handshake(90000, 123);                        /* new ISN after close: port reuse */
    ck_assert_uint_eq(tn_analyzer_conn_count(an), 2);
    ck_assert_uint_eq(tn_analyzer_conn(an, 1)->idx, 2);
    ck_assert_uint_eq(tn_analyzer_conn(an, 1)->d[TN_A2B].pkts, 2);
    ck_assert_int_eq(tn_conn_state(tn_analyzer_conn(an, 1)), TN_ST_OPEN);
}
END_TEST

/* A SYN sent again after 1 s (the same ISN), then the handshake: one SYN retry a2b, none b2a.
 * Under a window from 0.5 s (the first packet is the SYN at 0) the retry lies in the window and
 * the first SYN does not: still one retry (not the window's SYNs less one); a window ending
 * before the retry holds none. */
START_TEST(test_syn_retries_in_window)
{
    static const struct {
        int64_t from_ms, to_ms;
        uint64_t syn, again;
    } w[] = {{0, 0, 2, 1}, {500, 0, 1, 1}, {0, 500, 1, 0}};
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
        tn_analyzer_free(an);
        struct tn_analysis_cfg cfg = {.window = {.on = true, .from_ns = w[i].from_ms * 1000000,
                                                 .to_ns = w[i].to_ms * 1000000}};
        an = tn_analyzer_new(&cfg);
        now = 1000.0 - 0.001;
        feed(tcp(true, 1000, 0, S, 64240, 0));
        now += 1.0;
        handshake(1000, 5000);
        feed(tcp(true, 1001, 5001, P | A, 502, 100));
        ck_assert_uint_eq(tn_analyzer_conn_count(an), 1);
        const struct tn_conn *c = tn_analyzer_conn(an, 0);
        ck_assert_uint_eq(c->d[TN_A2B].syn, w[i].syn);
        ck_assert_msg(c->d[TN_A2B].syn_again == w[i].again, "window %lld..%lld ms: %llu SYN retries, want %llu",
                      (long long)w[i].from_ms, (long long)w[i].to_ms,
                      (unsigned long long)c->d[TN_A2B].syn_again, (unsigned long long)w[i].again);
        ck_assert_uint_eq(c->d[TN_B2A].syn_again, 0);
        ck_assert(c->d[TN_A2B].syn_seen);
    }
}
END_TEST

/* wireshark-samplecaptures/packet_capture.pcap packets 1389-1390: the RST refusing a SYN is
 * captured before the SYN itself (ack = the SYN's seq + 1): one connection, not two. */
START_TEST(test_rst_before_the_syn_it_refuses)
{
    feed(tcp(false, 0, 2945162646u, R | A, 0, 0));
    feed(tcp(true, 2945162645u, 0, S, 64240, 0));
    ck_assert_uint_eq(tn_analyzer_conn_count(an), 1);
    feed(tcp(true, 77, 0, S, 64240, 0));            /* a new attempt with a new ISN: reuse */
    ck_assert_uint_eq(tn_analyzer_conn_count(an), 2);
}
END_TEST

/* With a cap on packet records (figures only), plain records merge into an envelope that keeps
 * every byte, every segment, the highest ACK, and every retransmission record as it was. */
START_TEST(test_packet_records_merge_under_a_cap)
{
    struct tn_analysis_cfg cfg = {.record_packets = true, .packet_cap = 64};
    struct tn_analyzer *capped = tn_analyzer_new(&cfg);
    struct tn_analyzer *saved = an;
    an = capped;
    handshake(0, 0);
    for (uint32_t i = 0; i < 1000; i++) {
        feed(tcp(true, 1 + 1000 * i, 1, A, 502, 1000));
        if (i % 2)
            feed(tcp(false, 1, 1 + 1000 * (i + 1), A, 1000, 0));
        if (i == 500)
            feed(tcp(true, 1 + 1000 * 400, 1, A, 502, 1000));   /* a retransmission */
    }
    tn_analyzer_finish(an);
    const struct tn_conn *c = tn_analyzer_conn(an, 0);
    ck_assert_uint_le(c->npkts, 128);
    uint64_t bytes = 0, segs = 0, max_ack = 0, lo = UINT64_MAX, hi = 0;
    unsigned rexmits = 0;
    for (size_t i = 0; i < c->npkts; i++) {
        const struct tn_pktrec *r = &c->pkts[i];
        if (r->dir == TN_A2B && r->len) {
            bytes += r->len;
            segs += tn_pktrec_segs(r);
            rexmits += r->rexmit != 0;
            lo = r->seq < lo ? r->seq : lo;
            hi = tn_pktrec_end(r) > hi ? tn_pktrec_end(r) : hi;
            if (r->rexmit) {   /* kept as it was */
                ck_assert_uint_eq(r->seq, 1 + 1000 * 400);
                ck_assert_uint_eq(r->len, 1000);
            }
        }
        if (r->dir == TN_B2A && r->ack > max_ack)
            max_ack = r->ack;
    }
    ck_assert_uint_eq(bytes, 1001 * 1000);   /* 1000 segments and the retransmission */
    ck_assert_uint_eq(segs, 1001);
    ck_assert_uint_eq(rexmits, 1);
    ck_assert_uint_eq(lo, 1);
    ck_assert_uint_eq(hi, 1 + 1000 * 1000);
    ck_assert_uint_eq(max_ack, 1 + 1000 * 1000);
    tn_analyzer_free(capped);
    an = saved;
}
END_TEST

/* Long live runs: a connection idle past the timeout keeps only its summary; the next packet of
 * the same endpoints is a new connection; nothing leaks (ASan) and finish skips the summary. */
START_TEST(test_idle_connections_retire_to_a_summary)
{
    handshake(1000, 5000);
    feed(tcp(true, 1001, 5001, A, 502, 100));
    feed(tcp(false, 5001, 1101, A, 1000, 0));
    ck_assert_uint_eq(tn_analyzer_retire_idle(an, 1000 * 1000000000LL, 60 * 1000000000LL), 0);
    ck_assert_uint_eq(tn_analyzer_retire_idle(an, 2000 * 1000000000LL, 60 * 1000000000LL), 1);
    const struct tn_conn *c = tn_analyzer_conn(an, 0);
    ck_assert(c->retired);
    ck_assert_uint_eq(c->d[TN_A2B].pkts, 3);
    ck_assert_uint_eq(c->d[TN_A2B].data_bytes, 100);
    ck_assert_uint_eq(c->d[TN_B2A].pkts, 2);
    feed(tcp(true, 1101, 5001, A, 502, 50));   /* the same endpoints, later */
    ck_assert_uint_eq(tn_analyzer_conn_count(an), 2);
    ck_assert_uint_eq(tn_analyzer_conn(an, 1)->d[TN_A2B].pkts, 1);
    tn_analyzer_finish(an);
    ck_assert_uint_eq(tn_analyzer_conn(an, 0)->d[TN_A2B].pkts, 3);
}
END_TEST

START_TEST(test_zero_window_and_super_segment)
{
    handshake(1, 1);
    feed(tcp(true, 2, 2, A, 502, 4200));          /* 3 x 1400 (peer MSS): a GSO super-segment */
    feed(tcp(false, 2, 4202, A, 0, 0));
    feed(tcp(false, 2, 4202, A, 0, 0));
    const struct tn_conn *c = tn_analyzer_conn(an, 0);
    ck_assert_uint_eq(c->d[TN_A2B].super_segs, 1);
    ck_assert_uint_eq(c->d[TN_A2B].rexmit_pkts, 0);
    ck_assert_uint_eq(c->d[TN_B2A].zero_wnd, 2);
    ck_assert_uint_eq(c->d[TN_B2A].dupacks, 0);   /* nothing outstanding */
}
END_TEST

static struct tn_pkt dfcp(bool from_sender, uint8_t type, uint32_t block, uint16_t idx, uint32_t len)
{
    struct tn_pkt p = tcp(from_sender, 0, 0, 0, 0, len);
    p.kind = TN_PK_DFCP;
    p.sport = from_sender ? 5000 : 9253;
    p.dport = from_sender ? 9253 : 5000;
    p.dfcp.version = 1;
    p.dfcp.type = type;
    p.dfcp.n = 4;
    p.dfcp.block = block;
    p.dfcp.sym_idx = idx;
    p.dfcp.window = 100;
    p.dfcp.k = 4000;
    p.dfcp.flags = TN_DFCP_F_ACKING;
    return p;
}

START_TEST(test_dfcp_counters)
{
    feed(dfcp(true, TN_DFCP_T_SYN, 0xFFFFFFFFu, 0, 0));
    feed(dfcp(true, TN_DFCP_T_SYN, 0xFFFFFFFFu, 0, 0));     /* retry */
    feed(dfcp(false, TN_DFCP_T_SYNACK, 0xFFFFFFFFu, 0, 0));
    feed(dfcp(true, TN_DFCP_T_ACK, 0, 0, 0));
    for (uint32_t b = 0; b < 3; b++)                        /* blocks 2^32-1, 0, 1 */
        for (uint16_t i = 0; i < 4; i++)
            feed(dfcp(true, TN_DFCP_T_DATA, 0xFFFFFFFFu + b, i, 1420));
    feed(dfcp(false, TN_DFCP_T_BACK, 0xFFFFFFFFu, 0, 0));
    feed(dfcp(true, TN_DFCP_T_FIN, 0, 0, 0));
    feed(dfcp(false, TN_DFCP_T_FINACK, 0, 0, 0));
    ck_assert_uint_eq(tn_analyzer_conn_count(an), 1);
    const struct tn_conn *c = tn_analyzer_conn(an, 0);
    ck_assert_int_eq(c->proto, TN_PK_DFCP);
    ck_assert_uint_eq(c->a_port, 5000);
    ck_assert_uint_eq(c->d[TN_A2B].dfcp_type_pkts[TN_DFCP_T_SYN], 2);
    ck_assert_uint_eq(c->d[TN_A2B].dfcp_type_pkts[TN_DFCP_T_DATA], 12);
    ck_assert_uint_eq(c->d[TN_A2B].data_bytes, 12 * 1420);
    ck_assert_uint_eq(c->d[TN_A2B].dfcp_blocks, 3);
    ck_assert_uint_eq(c->d[TN_B2A].dfcp_type_pkts[TN_DFCP_T_BACK], 1);
    ck_assert_int_eq(tn_conn_state(c), TN_ST_COMPLETE);
}
END_TEST

START_TEST(test_trace_anomaly_first_packet)
{
    struct tn_pkt p = tcp(true, 1, 0, S, 100, 0);
    feed(p);
    p = tcp(true, 1, 0, S, 100, 0);
    tn_anom(&p.anoms, TN_ANOM_TCP_OPT_LEN_ZERO);
    tn_analyzer_add(an, &p, TN_DIS_MALFORMED, "x.pcap");
    p = tcp(true, 1, 0, S, 100, 0);
    tn_anom(&p.anoms, TN_ANOM_TCP_OPT_LEN_ZERO);
    tn_analyzer_add(an, &p, TN_DIS_MALFORMED, "y.pcap");
    const struct tn_trace_stats *st = tn_analyzer_stats(an);
    ck_assert_uint_eq(st->frames, 3);
    ck_assert_uint_eq(st->anom_pkts, 2);
    ck_assert_uint_eq(st->malformed, 2);
    ck_assert_uint_eq(st->anom_count[TN_ANOM_TCP_OPT_LEN_ZERO], 2);
    ck_assert_uint_eq(st->anom_first[TN_ANOM_TCP_OPT_LEN_ZERO], 2);
    ck_assert_str_eq(st->anom_first_file[TN_ANOM_TCP_OPT_LEN_ZERO], "x.pcap");
    ck_assert_uint_eq(tn_analyzer_conn(an, 0)->anomalies, 2);
}
END_TEST

Suite *tn_analysis_suite(void)
{
    Suite *s = suite_create("analysis");
    TCase *tc = tcase_create("conn");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_complete_connection);
    tcase_add_test(tc, test_reset_and_partial);
    tcase_add_test(tc, test_synack_first_makes_syn_sender_a);
    tcase_add_test(tc, test_rexmit_and_ooo_across_wrap);
    tcase_add_test(tc, test_gap_acked_then_resent_is_rexmit);
    tcase_add_test(tc, test_port_reuse_new_connection);
    tcase_add_test(tc, test_syn_retries_in_window);
    tcase_add_test(tc, test_zero_window_and_super_segment);
    tcase_add_test(tc, test_rst_before_the_syn_it_refuses);
    tcase_add_test(tc, test_packet_records_merge_under_a_cap);
    tcase_add_test(tc, test_idle_connections_retire_to_a_summary);
    tcase_add_test(tc, test_dfcp_counters);
    tcase_add_test(tc, test_trace_anomaly_first_packet);
    suite_add_tcase(s, tc);
    return s;
}
