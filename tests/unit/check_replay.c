/* check_replay.c - the window replay away from the sender (analysis_tcp_replay.c and the
 * idle check of analysis_tcp_episode.c): when the sender processed an ACK the monitor saw, and
 * when it sent with nothing in flight.  Hand-built packets at a monitor next to the receiver. */
#include <check.h>
#include <math.h>

#include "analysis.h"
#include "analysis_int.h"
#include "cc/cc.h"
#include "tcp_pkt_helper.h"

static struct tn_analyzer *an;
static uint64_t pktno;

static void setup(void)
{
    struct tn_analysis_cfg cfg = {.record_events = true, .record_series = true};
    an = tn_analyzer_new(&cfg);
    pktno = 0;
}

static void teardown(void)
{
    tn_analyzer_free(an);
}

enum { S = TN_TCP_SYN, A = TN_TCP_ACK };

/* Client 10.0.0.1:40000 sends to server 10.0.0.2:80; t in ms from 1000 s; tsval 0: no
 * timestamps. */
static void feed(bool from_client, double t_ms, uint32_t seq, uint32_t ack, uint8_t flags, uint32_t len,
                 uint32_t tsval, uint32_t tsecr)
{
    int64_t ns = 1000000000000LL + (int64_t)(t_ms * 1e6);
    struct tn_pkt p = tn_test_tcp(from_client, seq, ack, flags, 65535, len, ns, ++pktno);
    if (tsval) {
        p.tcp.opt.has_ts = true;
        p.tcp.opt.ts_val = tsval;
        p.tcp.opt.ts_ecr = tsecr;
    }
    if (flags & S) {
        p.tcp.opt.has_mss = true;
        p.tcp.opt.mss = 1000;
    }
    tn_analyzer_add(an, &p, TN_DIS_OK, "test");
}

/* As feed, with SACK permitted on a SYN or one SACK block [left, right) on an ACK. */
static void feed_sack(bool from_client, double t_ms, uint32_t seq, uint32_t ack, uint8_t flags, uint32_t len,
                      uint32_t tsval, uint32_t tsecr, uint32_t left, uint32_t right)
{
    int64_t ns = 1000000000000LL + (int64_t)(t_ms * 1e6);
    struct tn_pkt p = tn_test_tcp(from_client, seq, ack, flags, 65535, len, ns, ++pktno);
    p.tcp.opt.has_ts = true;
    p.tcp.opt.ts_val = tsval;
    p.tcp.opt.ts_ecr = tsecr;
    if (flags & S) {
        p.tcp.opt.has_mss = true;
        p.tcp.opt.mss = 1000;
        p.tcp.opt.sack_ok = true;
    }
    if (right > left) {
        p.tcp.opt.nsack = 1;
        p.tcp.opt.sack[0] = (struct tn_sack_block){left, right};
    }
    tn_analyzer_add(an, &p, TN_DIS_OK, "test");
}

static double ms_of(int64_t ns)
{
    return (double)(ns - 1000000000000LL) / 1e6;
}

/* Handshake next to the server (the receiver): SYN-ACK 0.1 ms after the SYN, the client's ACK
 * 20 ms after it (the monitor <-> client round trip). */
static void handshake_near_server(bool ts)
{
    feed(true, 0, 100, 0, S, 0, ts ? 1 : 0, 0);
    feed(false, 0.1, 900, 101, S | A, 0, ts ? 1000 : 0, ts ? 1 : 0);
    feed(true, 20.1, 101, 901, A, 0, ts ? 21 : 0, ts ? 1000 : 0);
}

/* The handshake next to the server (echo 20 ms), a segment, its ACK at 30.5 ms, and two
 * segments echoing it 20 ms later. */
static void echo_20_ms_then_two_segments(void)
{
    handshake_near_server(true);
    feed(true, 30, 101, 901, A, 1000, 30, 1000);
    feed(false, 30.5, 901, 1101, A, 0, 2000, 30);
    feed(true, 50.5, 1101, 901, A, 1000, 50, 2000);
    feed(true, 50.5, 2101, 901, A, 1000, 50, 2000);
}

/* The monitor <-> sender round trip from timestamps (RFC 7323 §4: the sender echoes the ACK's
 * TSval in its next segment) holds only where the sender sent that segment when the ACK came:
 * data sent with nothing in flight went out when the application wrote.  The handshake's echo
 * is 20 ms; the client's segment at 230 ms echoes the ACK of everything seen at 30.5 ms (a
 * 199.5 ms "sample": the pause), so the estimate stays 20 ms (it would be 20 x 7/8 + the clip
 * max(2 x 20, 4 x 20) + 1 = 81 over 8 = 27.6 ms with it). */
START_TEST(test_echo_after_idle_is_no_path_sample)
{
    handshake_near_server(true);
    feed(true, 30, 101, 901, A, 1000, 30, 1000);
    feed(false, 30.5, 901, 1101, A, 0, 2000, 30);
    feed(true, 230, 1101, 901, A, 1000, 230, 2000);
    const struct tn_conn_priv *cp = (const struct tn_conn_priv *)tn_analyzer_conn(an, 0);
    ck_assert_int_eq(cp->pub.vantage, TN_VP_NEAR_B);
    ck_assert_double_eq_tol(tn_rtt_sender_half_ms(cp, TN_A2B), 20.0, 1e-6);
}
END_TEST

/* A send's flight is measured against the ACK its TSecr echoes (TS.Recent, RFC 7323 §4.3: the
 * last ACK the sender processed), not against the ACK seen a smoothed echo time before it: a
 * queue that grows within a round delays the data an ACK releases beyond that time.  Echo 20 ms
 * (handshake); ACKs of 1101 (TSval 1030) at 30.5 ms and of 2101 (TSval 1031) at 30.7 ms; the
 * client's segments 2101-3101 and 3101-4101 arrive at 60.6 and 60.65 ms echoing 1030: the sender
 * had processed the ACK of 1101 only, so their flights are 3101 - 1101 = 2000 and 4101 - 1101 =
 * 3000 bytes.  (By the time alone both ACKs were seen more than the 20-21 ms echo before: 1000
 * and 2000.) */
START_TEST(test_send_flight_against_the_echoed_ack)
{
    handshake_near_server(true);
    feed(true, 30, 101, 901, A, 1000, 30, 1000);
    feed(true, 30.2, 1101, 901, A, 1000, 30, 1000);
    feed(false, 30.5, 901, 1101, A, 0, 1030, 30);
    feed(false, 30.7, 901, 2101, A, 0, 1031, 30);
    feed(true, 60.6, 2101, 901, A, 1000, 60, 1030);
    feed(true, 60.65, 3101, 901, A, 1000, 60, 1030);
    const struct tn_conn *c = tn_analyzer_conn(an, 0);
    ck_assert_int_eq(c->vantage, TN_VP_NEAR_B);
    ck_assert_double_eq_tol(c->inf[TN_A2B].max_inflight, 3000, 1e-9);
    /* the next segment echoes the ACK of 2101: 5101 - 2101 */
    feed(true, 60.9, 4101, 901, A, 1000, 61, 1031);
    const struct tn_conn_priv *cp = (const struct tn_conn_priv *)c;
    ck_assert_int_eq(tn_replay_send_pipe(cp, TN_A2B, c->d[TN_A2B].hi_rel, 1000000000000LL + 60900000), 3000);
}
END_TEST

/* In a recovery the sender's pipe (Linux tcp_packets_in_flight, PRR's window: packets out less
 * SACKed and lost, plus retransmissions on their way) as the models get it next to the
 * receiver.  Segment 1101-2101 is lost before the monitor; three duplicate ACKs (TSval 1031-1033)
 * SACK what follows; limited transmits 5101-6101 and 6101-7101 echo the first two, and their
 * duplicate ACKs (1053, 1054) pass the monitor before the fast retransmission, which echoes
 * the third (the ACK the recovery began on).  When the sender processed those ACKs the hole was
 * lost (RFC 6675: SACKed above) and the retransmission on its way (sent before them): 6 segments
 * out, 3 SACKed, 1 lost = 2000 bytes at 1033; 6 - 4 - 1 + 1 = 2000 at 1053; 6 - 5 - 1 + 1 = 1000
 * at 1054.  (With the hole in flight until the monitor saw the recovery: 3000 at 1033; without
 * the retransmission on its way: 1000 at 1053.) */
START_TEST(test_recovery_pipe_counts_lost_holes_and_resent_on_their_way)
{
    feed_sack(true, 0, 100, 0, S, 0, 1, 0, 0, 0);
    feed_sack(false, 0.1, 900, 101, S | A, 0, 1000, 1, 0, 0);
    feed_sack(true, 20.1, 101, 901, A, 0, 21, 1000, 0, 0);
    feed_sack(true, 30.0, 101, 901, A, 1000, 30, 1000, 0, 0);
    feed_sack(false, 30.05, 901, 1101, A, 0, 1030, 30, 0, 0);
    feed_sack(true, 30.2, 2101, 901, A, 1000, 30, 1000, 0, 0);
    feed_sack(false, 30.25, 901, 1101, A, 0, 1031, 30, 2101, 3101);
    feed_sack(true, 30.3, 3101, 901, A, 1000, 30, 1000, 0, 0);
    feed_sack(false, 30.35, 901, 1101, A, 0, 1032, 30, 2101, 4101);
    feed_sack(true, 30.4, 4101, 901, A, 1000, 30, 1000, 0, 0);
    feed_sack(false, 30.45, 901, 1101, A, 0, 1033, 30, 2101, 5101);
    feed_sack(true, 50.3, 5101, 901, A, 1000, 50, 1031, 0, 0);
    feed_sack(false, 50.35, 901, 1101, A, 0, 1053, 50, 2101, 6101);
    feed_sack(true, 50.4, 6101, 901, A, 1000, 50, 1032, 0, 0);
    feed_sack(false, 50.45, 901, 1101, A, 0, 1054, 50, 2101, 7101);
    feed_sack(true, 50.5, 1101, 901, A, 1000, 50, 1033, 0, 0);
    tn_analyzer_finish(an);
    const struct tn_conn *c = tn_analyzer_conn(an, 0);
    ck_assert_int_eq(c->vantage, TN_VP_NEAR_B);
    const struct tn_series *fl = &c->series[TN_A2B][TN_SER_INFLIGHT];
    ck_assert_uint_ge(fl->n, 3);
    ck_assert_double_eq_tol(fl->pts[fl->n - 3].v, 2000, 1e-9);
    ck_assert_double_eq_tol(fl->pts[fl->n - 2].v, 2000, 1e-9);
    ck_assert_double_eq_tol(fl->pts[fl->n - 1].v, 1000, 1e-9);
}
END_TEST

/* Without timestamps the monitor <-> sender round trip comes from the window edges where the
 * receiver's window holds the sender: the ACK of 1101 at 30.5 ms opens the window to 3101 (2000
 * bytes); the segment 2101-3101 fills it, so it left when the sender had that ACK: 80.5 - 30.5 =
 * 50 ms (a queue on the data's way; the handshake's was 20).  1101-2101 ends a whole segment
 * below the edge: no sample from it. */
START_TEST(test_window_edge_echo_without_timestamps)
{
    handshake_near_server(false);
    feed(true, 30, 101, 901, A, 1000, 0, 0);
    int64_t ns = 1000000000000LL + 30500000;
    struct tn_pkt p = tn_test_tcp(false, 901, 1101, A, 2000, 0, ns, ++pktno);
    tn_analyzer_add(an, &p, TN_DIS_OK, "test");
    feed(true, 80.4, 1101, 901, A, 1000, 0, 0);
    const struct tn_conn_priv *cp = (const struct tn_conn_priv *)tn_analyzer_conn(an, 0);
    ck_assert_double_eq_tol(tn_rtt_sender_half_ms(cp, TN_A2B), 20.0, 1e-3);
    feed(true, 80.5, 2101, 901, A, 1000, 0, 0);
    ck_assert_int_eq(cp->pub.vantage, TN_VP_NEAR_B);
    ck_assert_double_eq_tol(tn_rtt_sender_half_ms(cp, TN_A2B), 50.0, 1e-6);
}
END_TEST

/* A data -> ACK RTT sample away from the sender adds the acknowledged segment's own echo (the
 * time from the ACK its TSecr names to it), not the smoothed one: the segment 3101-4101, the
 * first to echo the ACK seen at 51 ms (of 2101, 2101-3101 still out), passed at 111 ms (60 ms: a
 * queue on the data's way), the ACK of both at 111.5 ms: 0.5 + 60 = 60.5 ms (with the smoothed
 * echo, 20 x 7/8 + 60 / 8 = 25 ms: 25.5). */
START_TEST(test_rtt_sample_adds_the_segments_own_echo)
{
    echo_20_ms_then_two_segments();
    feed(false, 51, 901, 2101, A, 0, 3000, 50);
    feed(true, 111, 3101, 901, A, 1000, 91, 3000);
    feed(false, 111.5, 901, 4101, A, 0, 4000, 91);
    const struct tn_conn *c = tn_analyzer_conn(an, 0);
    ck_assert_int_eq(c->vantage, TN_VP_NEAR_B);
    const struct tn_series *rt = &c->series[TN_A2B][TN_SER_RTT_MS];
    ck_assert_uint_ge(rt->n, 1);
    ck_assert_double_eq_tol(rt->pts[rt->n - 1].v, 60.5, 1e-6);
}
END_TEST

/* The sender processes an ACK one monitor -> sender trip after the monitor saw it, and that trip
 * is half the least echo time: a queue on the data's way (here 40 ms: echo 60 ms where the
 * path takes 20) delays the data an ACK releases, not the ACK.  The echo times are 20 ms
 * (handshake, and the ACK at 30.5 echoed at 50.5) and 60 ms (ACK at 51, echoed at 111); so
 * the last ACK, seen at 111.5 ms, reached the sender at 111.5 + 20 / 2 = 121.5 ms.  (Half the
 * smoothed echo time, 20 x 7/8 + 60 / 8 = 25 ms, would put it at 124.0 ms.) */
START_TEST(test_sender_processes_ack_half_the_least_echo_later)
{
    echo_20_ms_then_two_segments();
    feed(false, 51, 901, 3101, A, 0, 3000, 50);
    for (uint32_t i = 0; i < 4; i++)
        feed(true, 111, 3101 + 1000 * i, 901, A, 1000, 91, 3000);
    feed(false, 111.5, 901, 7101, A, 0, 4000, 91);
    tn_analyzer_finish(an);
    const struct tn_conn *c = tn_analyzer_conn(an, 0);
    ck_assert_int_eq(c->vantage, TN_VP_NEAR_B);
    const struct tn_series *fl = &c->series[TN_A2B][TN_SER_INFLIGHT];
    ck_assert_uint_ge(fl->n, 1);
    ck_assert_double_eq_tol(ms_of(fl->pts[fl->n - 1].t_ns), 121.5, 1e-3);
}
END_TEST

/* Linux tells the flavour it transmits again (CA_EVENT_TX_START, CUBIC's epoch shift) only when
 * it sends with nothing in flight (tcp_event_data_sent).  Next to the receiver an ACK of all
 * seen comes between almost every two segments, yet the segment 1.2 ms after the ACK at 30.5
 * was on its way before that ACK reached the sender (the round trip to it is 20 ms): not
 * idle.  The segment at 100 ms, 68 ms after the ACK of everything, was sent after it: one. */
START_TEST(test_tx_start_only_when_the_sender_had_nothing_in_flight)
{
    handshake_near_server(false);
    feed(true, 30, 101, 901, A, 1000, 0, 0);
    feed(false, 30.5, 901, 1101, A, 0, 0, 0);
    feed(true, 31.7, 1101, 901, A, 1000, 0, 0);
    feed(false, 32, 901, 2101, A, 0, 0, 0);
    feed(true, 100, 2101, 901, A, 1000, 0, 0);
    const struct tn_conn *c = tn_analyzer_conn(an, 0);   /* before finish frees the sender */
    ck_assert_int_eq(c->vantage, TN_VP_NEAR_B);
    const struct tn_conn_priv *cp = (const struct tn_conn_priv *)c;
    ck_assert_uint_eq(cp->dp[TN_A2B].snd->ep.tx_starts, 1);
}
END_TEST

/* A sender whose flight the receiver's window holds at 10 segments of 1000 bytes: the initial
 * window sent, then each of 15 ACKs delivers one segment and the sender sends one. */
static struct tn_cc_model *rwnd_limited_slow_start(void)
{
    struct tn_cc_model *m = tn_cc_new(1000);
    struct tn_cc_ack a = {.t_ns = 1000000000, .snd_nxt = 10000, .rtt_ms = 100,
                          .flight_max = 10000, .sent_flight_max = 10000, .flight_now = 10000};
    tn_cc_on_ack(m, &a);
    for (int k = 1; k <= 15; k++) {
        a = (struct tn_cc_ack){.t_ns = 1100000000 + k * 10000000LL,
                               .acked = 1000,
                               .snd_nxt = 10000 + k * 1000,
                               .delivered = k * 1000,
                               .rtt_ms = 100,
                               .flight_max = 10000,
                               .sent_flight_max = 10000,
                               .flight_now = 10000,
                               .sent = 1000,
                               .rwnd_limited = true};
        tn_cc_on_ack(m, &a);
    }
    return m;
}

/* Linux grows the window in slow start while it is below twice the largest flight of the
 * window (tcp_is_cwnd_limited: snd_cwnd < 2 * max_packets_out), whatever held the flight:
 * 10 -> 20 on the first 10 ACKs (tcp_slow_start, one a segment), then no more.  The replay
 * grew nothing while the receiver's window bounded the flight: 10. */
START_TEST(test_slow_start_grows_while_the_receiver_window_holds_the_flight)
{
    struct tn_cc_model *m = rwnd_limited_slow_start();
    ck_assert_double_eq(tn_cc_cwnd_bytes(m) / 1000, 20);   /* Reno's and CUBIC's alike */
    tn_cc_free(m);
}
END_TEST

/* Then a loss: Reno's ssthresh 20 / 2 = 10, CUBIC's 20 x 717 / 1024 = 14.  Five duplicate ACKs
 * each SACK one segment; the fast retransmission went out before the first (prr_out 1) and
 * the receiver's window lets nothing else out.  The pipe (packets out 10, SACKed 3 + k, lost
 * 1, retransmitted 1) is 8 - k, below both ssthreshes, so Linux's tcp_cwnd_reduction sends
 * sndcnt = min(ssthresh - pipe, max(prr_delivered - prr_out, 1)) = max(k - 1, 1): the window
 * pipe + sndcnt is 8, then 7 on every ACK after, for both.  Without the credit of what was
 * delivered and not sent (one segment more than each ACK delivered) it was 5 at the fifth. */
START_TEST(test_prr_keeps_the_credit_of_what_was_not_sent)
{
    struct tn_cc_model *m = rwnd_limited_slow_start();
    tn_cc_on_loss(m, 1300000000, false, 10000);
    for (int k = 1; k <= 5; k++) {
        struct tn_cc_ack a = {.t_ns = 1300000000 + k * 1000000LL,
                              .sacked = 1000,
                              .snd_nxt = 25000,
                              .delivered = 15000 + k * 1000,
                              .rtt_ms = -1,
                              .flight_max = (9 - k) * 1000,
                              .flight_now = (8 - k) * 1000,
                              .resent = k == 1 ? 1000 : 0,
                              .sent = k == 1 ? 1000 : 0,
                              .in_episode = true,
                              .rwnd_limited = true};
        tn_cc_on_ack(m, &a);
        ck_assert_double_eq(tn_cc_cwnd_bytes(m) / 1000, (k == 1 ? 8 : 7));
    }
    tn_cc_free(m);
}
END_TEST

Suite *tn_replay_suite(void)
{
    Suite *s = suite_create("replay");
    TCase *tc = tcase_create("replay");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_sender_processes_ack_half_the_least_echo_later);
    tcase_add_test(tc, test_tx_start_only_when_the_sender_had_nothing_in_flight);
    tcase_add_test(tc, test_slow_start_grows_while_the_receiver_window_holds_the_flight);
    tcase_add_test(tc, test_prr_keeps_the_credit_of_what_was_not_sent);
    tcase_add_test(tc, test_echo_after_idle_is_no_path_sample);
    tcase_add_test(tc, test_send_flight_against_the_echoed_ack);
    tcase_add_test(tc, test_recovery_pipe_counts_lost_holes_and_resent_on_their_way);
    tcase_add_test(tc, test_window_edge_echo_without_timestamps);
    tcase_add_test(tc, test_rtt_sample_adds_the_segments_own_echo);
    suite_add_tcase(s, tc);
    return s;
}
