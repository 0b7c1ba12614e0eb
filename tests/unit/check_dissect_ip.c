/* check_dissect_ip.c - IPv4 (options, lengths against the wire, fragments) and IPv6 (extension
 * chains, AH, jumbograms) on hand-built frames and corpus packets; the truncation sweep and the
 * mutations over these frames.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_helper.h"
#include "dissect_test.h"

/* IPv4 10.0.0.1 -> 10.0.0.2, IHL 7 (28 bytes), total 48, id 2, TTL 64, proto 6;
 * options: router alert (0x94, len 4, value 0), NOP, NOP, NOP, EOL;
 * TCP 12345 -> 80, seq 5, ack 6, offset 5, ACK, window 1. */
static const uint8_t ip4_opts[] = {
    0x47, 0x00, 0x00, 0x30, 0x00, 0x02, 0x00, 0x00, 0x40, 0x06, 0x00, 0x00,
    0x0a, 0x00, 0x00, 0x01, 0x0a, 0x00, 0x00, 0x02,
    0x94, 0x04, 0x00, 0x00, 0x01, 0x01, 0x01, 0x00,
    0x30, 0x39, 0x00, 0x50, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x06,
    0x50, 0x10, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
};

START_TEST(test_ip4_options)
{
    struct tn_pkt p;
    uint8_t buf[64];
    ck_assert_int_eq(dis(TN_LINK_RAW, ip4_opts, sizeof ip4_opts, &p), TN_DIS_OK);
    ck_assert_uint_eq(p.anoms.bits, 0);
    ck_assert_int_eq(p.kind, TN_PK_TCP);
    ck_assert_uint_eq(p.tcp.seq, 5);
    ck_assert_uint_eq(p.tcp.ack, 6);

    /* Bad option lengths: reported, but IHL still says where TCP starts. */
    static const struct {
        const char *what;
        uint8_t at, val;
    } bad[] = {
        {"router alert len 9 > 6 left", 21, 0x09},
        {"router alert len 1", 21, 0x01},
        {"router alert len 0", 21, 0x00},
        {"record route (7) in the last byte, no length", 27, 0x07},
    };
    for (size_t i = 0; i < N(bad); i++) {
        memcpy(buf, ip4_opts, sizeof ip4_opts);
        buf[bad[i].at] = bad[i].val;
        int st = dis(TN_LINK_RAW, buf, sizeof ip4_opts, &p);
        ck_assert_msg(st == TN_DIS_MALFORMED, "%s: status %d", bad[i].what, st);
        ck_assert_msg(p.anoms.bits == A(IP4_OPT_LEN), "%s", bad[i].what);
        ck_assert_msg(p.kind == TN_PK_TCP && p.tcp.seq == 5, "%s", bad[i].what);
    }

    /* options cut by the capture */
    ck_assert_int_eq(dis_cw(NULL, TN_LINK_RAW, ip4_opts, 24, sizeof ip4_opts, &p), TN_DIS_TRUNCATED);
    ck_assert_uint_eq(p.anoms.bits, A(IP4_TRUNCATED));
    ck_assert_int_eq(p.kind, TN_PK_OTHER);
}
END_TEST

START_TEST(test_ip4_lengths)
{
    struct tn_pkt p;
    uint8_t buf[64];
    static const struct {
        const char *what;
        uint8_t at, val;
        int status;
        uint64_t anoms;
        enum tn_pkt_kind kind;
    } cases[] = {
        {"IHL 4", 0, 0x44, TN_DIS_MALFORMED, A(IP4_HDR_LEN), TN_PK_OTHER},
        {"total 16 < IHL", 3, 0x10, TN_DIS_MALFORMED, A(IP4_TOTAL_LEN), TN_PK_OTHER},
        {"total 0x2e > 45 on the wire", 3, 0x2e, TN_DIS_TRUNCATED, A(IP4_LEN_GT_WIRE), TN_PK_TCP},
        {"total 0 (TSO)", 3, 0x00, TN_DIS_OK, A(IP4_TSO_LEN0), TN_PK_TCP},
        {"total 30: TCP header past the IP payload", 3, 0x1e, TN_DIS_MALFORMED, A(TCP_HDR_GT_IP),
         TN_PK_OTHER},
        {"total 40: trailing byte ignored", 3, 0x28, TN_DIS_OK, 0, TN_PK_TCP},
    };
    for (size_t i = 0; i < N(cases); i++) {
        memcpy(buf, ip4_data, sizeof ip4_data);
        buf[cases[i].at] = cases[i].val;
        int st = dis(TN_LINK_RAW, buf, sizeof ip4_data, &p);
        ck_assert_msg(st == cases[i].status, "%s: status %d", cases[i].what, st);
        ck_assert_msg(p.anoms.bits == cases[i].anoms, "%s: anoms %#llx", cases[i].what,
                      (unsigned long long)p.anoms.bits);
        ck_assert_msg(p.kind == cases[i].kind, "%s: kind %d", cases[i].what, p.kind);
    }
    /* TSO: the payload length comes from the frame */
    memcpy(buf, ip4_data, sizeof ip4_data);
    buf[3] = 0;
    dis(TN_LINK_RAW, buf, sizeof ip4_data, &p);
    ck_assert_uint_eq(p.payload_len, 5);

    /* Header-only capture (snap length 40): normal, not an anomaly. */
    ck_assert_int_eq(dis_cw(NULL, TN_LINK_RAW, ip4_data, 40, sizeof ip4_data, &p), TN_DIS_OK);
    ck_assert_uint_eq(p.anoms.bits, 0);
    ck_assert_uint_eq(p.payload_len, 5);
    ck_assert_uint_eq(p.payload_caplen, 0);
    /* ... and 42: two payload bytes captured */
    ck_assert_int_eq(dis_cw(NULL, TN_LINK_RAW, ip4_data, 42, sizeof ip4_data, &p), TN_DIS_OK);
    ck_assert_uint_eq(p.payload_caplen, 2);
    ck_assert_mem_eq(p.payload, "he", 2);
}
END_TEST

/* IP length > the frame's wire length (offload captures, damaged lengths): the anomaly stays,
 * the packet stays TCP, payload_len comes from the IP header and payload_caplen is what the frame
 * holds; status TRUNCATED (the capture did not keep what the header claims). */

/* tcptrace-input/long_rtt.dmp packet 4, first 66 of its 120 bytes (the other 54 are zeros):
 *   tshark -r long_rtt.dmp -c 4 -x ; tshark ... -T fields -e frame.len -e ip.len -e tcp.seq_raw
 *   -> 120 1500 1744182475.  Ethernet 00:00:00:00:00:00 both ways, type IPv4; IPv4 IHL 5,
 * total 0x05dc = 1500, id 0xa270, TTL 64, proto 6, 132.235.67.20 -> 132.235.67.34; TCP 4701 ->
 * 9080, seq 0x67f61ccb = 1744182475, ack 0xa31ee2ae, offset 8 (32 bytes), ACK, window 0x1724;
 * options NOP NOP TS 0x001aacbb 0x001d7fd1.  Payload on the wire by IP: 1500 - 20 - 32 = 1448
 * (the next segment from 4701, packet 7, has seq 1744183923 = +1448); captured 120 - 66 = 54.
 * (tshark's tcp.len says 54: it bounds the IP payload by the frame; tcptrace takes ip_len.) */
static const uint8_t long_rtt_4[] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x08, 0x00,
    0x45, 0x00, 0x05, 0xdc, 0xa2, 0x70, 0x00, 0x00, 0x40, 0x06, 0x42, 0x9f,
    0x84, 0xeb, 0x43, 0x14, 0x84, 0xeb, 0x43, 0x22,
    0x12, 0x5d, 0x23, 0x78, 0x67, 0xf6, 0x1c, 0xcb, 0xa3, 0x1e, 0xe2, 0xae,
    0x80, 0x10, 0x17, 0x24, 0x5c, 0xbc, 0x00, 0x00,
    0x01, 0x01, 0x08, 0x0a, 0x00, 0x1a, 0xac, 0xbb, 0x00, 0x1d, 0x7f, 0xd1,
};

static const struct len_case {
    const char *what;
    int linktype;
    const uint8_t *b;
    size_t n;              /* bytes of b used; the frame is n + zeros bytes */
    size_t zeros;          /* zero bytes appended (payload the fixture does not spell out) */
    size_t ip_len_at;      /* offset of the IP length field to patch, or 0 */
    uint16_t ip_len;
    int status;
    uint64_t anoms;
    enum tn_pkt_kind kind;
    uint32_t payload_len, payload_caplen;
} len_cases[] = {
    {"long_rtt.dmp packet 4", TN_LINK_ETHERNET, long_rtt_4, sizeof long_rtt_4, 54, 0, 0,
     TN_DIS_TRUNCATED, A(IP4_LEN_GT_WIRE), TN_PK_TCP, 1448, 54},
    /* ip4_data (45 bytes, 5 payload) with total 46: one payload byte more than the frame */
    {"ipv4 total 46 in 45", TN_LINK_RAW, ip4_data, sizeof ip4_data, 0, 2, 46,
     TN_DIS_TRUNCATED, A(IP4_LEN_GT_WIRE), TN_PK_TCP, 6, 5},
    /* ip4_data with total 1500: 1500 - 20 - 20 = 1460 on the wire, 5 captured */
    {"ipv4 total 1500 in 45", TN_LINK_RAW, ip4_data, sizeof ip4_data, 0, 2, 1500,
     TN_DIS_TRUNCATED, A(IP4_LEN_GT_WIRE), TN_PK_TCP, 1460, 5},
    /* ip4_data cut after 30 bytes (wire 30 too), total 1500: the TCP header is not all there */
    {"ipv4 total 1500, TCP header cut", TN_LINK_RAW, ip4_data, 30, 0, 2, 1500,
     TN_DIS_TRUNCATED, A(IP4_LEN_GT_WIRE) | A(TCP_TRUNCATED), TN_PK_OTHER, 0, 0},
    /* ip6_data (63 bytes, payload length 23 = 20 TCP + 3) with payload length 24 */
    {"ipv6 payload 24 in 23", TN_LINK_IPV6, ip6_data, sizeof ip6_data, 0, 4, 24,
     TN_DIS_TRUNCATED, A(IP6_LEN_GT_WIRE), TN_PK_TCP, 4, 3},
    /* ... and 1440: 1420 on the wire */
    {"ipv6 payload 1440 in 23", TN_LINK_IPV6, ip6_data, sizeof ip6_data, 0, 4, 1440,
     TN_DIS_TRUNCATED, A(IP6_LEN_GT_WIRE), TN_PK_TCP, 1420, 3},
};

START_TEST(test_ip_len_gt_wire)
{
    const struct len_case *lc = &len_cases[_i];
    uint8_t buf[256];
    struct tn_pkt p;
    size_t n = lc->n + lc->zeros;
    ck_assert_uint_le(n, sizeof buf);
    memset(buf, 0, sizeof buf);
    memcpy(buf, lc->b, lc->n);
    if (lc->ip_len_at) {
        buf[lc->ip_len_at] = (uint8_t)(lc->ip_len >> 8);
        buf[lc->ip_len_at + 1] = (uint8_t)lc->ip_len;
    }
    int st = dis(lc->linktype, buf, n, &p);
    ck_assert_msg(st == lc->status, "%s: status %d", lc->what, st);
    ck_assert_msg(p.anoms.bits == lc->anoms, "%s: anoms %#llx", lc->what,
                  (unsigned long long)p.anoms.bits);
    ck_assert_msg(p.kind == lc->kind, "%s: kind %d", lc->what, p.kind);
    if (lc->kind != TN_PK_TCP)
        return;
    ck_assert_msg(p.payload_len == lc->payload_len, "%s: payload_len %u", lc->what,
                  p.payload_len);
    ck_assert_msg(p.payload_caplen == lc->payload_caplen, "%s: payload_caplen %u", lc->what,
                  p.payload_caplen);
    ck_assert_ptr_eq(p.payload + p.payload_caplen, g_copy + n);  /* ends at the frame's end */
}
END_TEST

/* The same on whole corpus files: every packet tshark calls TCP is TCP here, and the FINs (which
 * the bad lengths hid in fast_reuse.dmp, so port reuse was missed) are all seen.
 *   tshark -r F -Y tcp | wc -l ; tshark -r F -Y 'tcp.flags.fin==1' | wc -l
 *   (fast_reuse.dmp: tshark -r F -q -z conv,tcp lists 18 conversations; tcptrace-ng 18) */
static const struct corpus_tcp {
    const char *file;
    long frames, tcp, fin;
} corpus_tcp[] = {
    {"tcptrace-input/long_rtt.dmp", 42, 42, 2},
    {"wireshark-samplecaptures/telnet-raw.pcap", 272, 272, 2},
    {"zeek-traces/tcp/reassembly.pcap", 117, 117, 6},
    {"tcptrace-input/tcpudp.dmp", 40, 20, 4},
    {"tcptrace-input/fast_reuse.dmp", 513, 513, 36},
};

struct tcp_fin_count {
    long tcp, fin;
};

static void count_tcp_fin(const struct tn_pkt *p, void *ctx)
{
    struct tcp_fin_count *n = ctx;
    if (p->kind == TN_PK_TCP) {
        n->tcp++;
        n->fin += (p->tcp.flags & TN_TCP_FIN) != 0;
    }
}

START_TEST(test_corpus_len_gt_wire)
{
    const struct corpus_tcp *ct = &corpus_tcp[_i];
    struct tcp_fin_count n = {0, 0};
    long frames = dissect_corpus_file(ct->file, count_tcp_fin, &n);
    long tcp = n.tcp, fin = n.fin;
    ck_assert_msg(frames == ct->frames, "%s: %ld frames", ct->file, frames);
    ck_assert_msg(tcp == ct->tcp, "%s: %ld TCP", ct->file, tcp);
    ck_assert_msg(fin == ct->fin, "%s: %ld FIN", ct->file, fin);
}
END_TEST

START_TEST(test_ip4_fragments)
{
    struct tn_pkt p;
    uint8_t buf[64];
    memcpy(buf, ip4_syn, sizeof ip4_syn);
    /* first fragment: MF set, offset 0 -> TCP still dissected */
    buf[6] = 0x20;
    buf[7] = 0x00;
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, sizeof ip4_syn, &p), TN_DIS_OK);
    ck_assert(p.fragment);
    ck_assert_int_eq(p.kind, TN_PK_TCP);
    ck_assert_uint_eq(p.tcp.seq, 0x01020304);
    ck_assert_uint_eq(p.anoms.bits, 0);
    /* later fragment: offset 185 (1480 bytes), MF clear -> counted, transport not dissected */
    buf[6] = 0x00;
    buf[7] = 0xb9;
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, sizeof ip4_syn, &p), TN_DIS_OK);
    ck_assert(p.fragment);
    ck_assert_int_eq(p.kind, TN_PK_OTHER);
    ck_assert_uint_eq(p.ipproto, 6);
    ck_assert_uint_eq(p.anoms.bits, 0);
    /* DF alone is not a fragment */
    ck_assert_int_eq(dis(TN_LINK_RAW, ip4_syn, sizeof ip4_syn, &p), TN_DIS_OK);
    ck_assert(!p.fragment);
}
END_TEST

/* ---------------------------------------------------------------- IPv6 */

/* IPv6 2001:db8::1 -> 2001:db8::2, payload 52, next header 0 (hop-by-hop), hop limit 64;
 * hop-by-hop: next 60, length 0 (8 bytes), PadN 4;
 * destination options: next 43, length 0, PadN 4;
 * routing: next 44, length 0, type 0, segments left 0, 4 reserved;
 * fragment: next 6, offset 0, M=1, id 0x12345678;
 * TCP 1234 -> 80, seq 1, ack 0, offset 5, SYN, window 1000. */
static const uint8_t ip6_ext[] = {
    0x60, 0x00, 0x00, 0x00, 0x00, 0x34, 0x00, 0x40, IP6_ADDRS,
    0x3c, 0x00, 0x01, 0x04, 0x00, 0x00, 0x00, 0x00,
    0x2b, 0x00, 0x01, 0x04, 0x00, 0x00, 0x00, 0x00,
    0x2c, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x06, 0x00, 0x00, 0x01, 0x12, 0x34, 0x56, 0x78,
    0x04, 0xd2, 0x00, 0x50, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
    0x50, 0x02, 0x03, 0xe8, 0x00, 0x00, 0x00, 0x00,
};

/* IPv6, payload 44, next header 51 (AH); AH: next 6, payload length 4 ((4+2)*4 = 24 bytes),
 * reserved, SPI 0x100, sequence 1, ICV 12 bytes of 0; TCP 1234 -> 80 as above. */
static const uint8_t ip6_ah[] = {
    0x60, 0x00, 0x00, 0x00, 0x00, 0x2c, 0x33, 0x40, IP6_ADDRS,
    0x06, 0x04, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x01,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0x04, 0xd2, 0x00, 0x50, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
    0x50, 0x02, 0x03, 0xe8, 0x00, 0x00, 0x00, 0x00,
};

/* IPv6, payload 28, next header 44; fragment: next 6, offset 100 (0x0320 = 100 << 3), M=0,
 * id 1; then 20 bytes of the middle of a TCP stream (not dissected). */
static const uint8_t ip6_frag_later[] = {
    0x60, 0x00, 0x00, 0x00, 0x00, 0x1c, 0x2c, 0x40, IP6_ADDRS,
    0x06, 0x00, 0x03, 0x20, 0x00, 0x00, 0x00, 0x01,
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
};

/* IPv6 jumbogram: payload length 0, next header 0; hop-by-hop: next 6, length 0, jumbo payload
 * option (0xc2, len 4, value 32); TCP 1234 -> 80 SYN as above; payload "wxyz". */
static const uint8_t ip6_jumbo[] = {
    0x60, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, IP6_ADDRS,
    0x06, 0x00, 0xc2, 0x04, 0x00, 0x00, 0x00, 0x20,
    0x04, 0xd2, 0x00, 0x50, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
    0x50, 0x02, 0x03, 0xe8, 0x00, 0x00, 0x00, 0x00,
    'w', 'x', 'y', 'z',
};

/* IPv6, payload 28, next header 59 (no next header); 28 bytes that are not to be read. */
static const uint8_t ip6_nonext[] = {
    0x60, 0x00, 0x00, 0x00, 0x00, 0x1c, 0x3b, 0x40, IP6_ADDRS,
    0x04, 0xd2, 0x00, 0x50, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
    0x50, 0x02, 0x03, 0xe8, 0x00, 0x00, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0, 0,
};

START_TEST(test_ip6_ext_chain)
{
    struct tn_pkt p;
    ck_assert_int_eq(dis(TN_LINK_IPV6, ip6_ext, sizeof ip6_ext, &p), TN_DIS_OK);
    ck_assert_uint_eq(p.anoms.bits, 0);
    ck_assert_int_eq(p.kind, TN_PK_TCP);
    ck_assert(p.fragment);  /* first fragment, M=1 */
    ck_assert_uint_eq(p.ipproto, 6);
    ck_assert_uint_eq(p.sport, 1234);
    ck_assert_uint_eq(p.tcp.win, 1000);
    ck_assert_uint_eq(p.payload_len, 0);

    ck_assert_int_eq(dis(TN_LINK_IPV6, ip6_ah, sizeof ip6_ah, &p), TN_DIS_OK);
    ck_assert_uint_eq(p.anoms.bits, 0);
    ck_assert_int_eq(p.kind, TN_PK_TCP);
    ck_assert(!p.fragment);
    ck_assert_uint_eq(p.sport, 1234);

    ck_assert_int_eq(dis(TN_LINK_IPV6, ip6_frag_later, sizeof ip6_frag_later, &p), TN_DIS_OK);
    ck_assert_uint_eq(p.anoms.bits, 0);
    ck_assert_int_eq(p.kind, TN_PK_OTHER);
    ck_assert(p.fragment);
    ck_assert_uint_eq(p.ipproto, 6);

    ck_assert_int_eq(dis(TN_LINK_IPV6, ip6_jumbo, sizeof ip6_jumbo, &p), TN_DIS_OK);
    ck_assert_uint_eq(p.anoms.bits, 0);
    ck_assert_int_eq(p.kind, TN_PK_TCP);
    ck_assert_uint_eq(p.payload_len, 4);

    ck_assert_int_eq(dis(TN_LINK_IPV6, ip6_nonext, sizeof ip6_nonext, &p), TN_DIS_OK);
    ck_assert_uint_eq(p.anoms.bits, 0);
    ck_assert_int_eq(p.kind, TN_PK_OTHER);
    ck_assert_uint_eq(p.ipproto, 59);
}
END_TEST

START_TEST(test_ip6_ext_bad)
{
    struct tn_pkt p;
    uint8_t buf[512];

    /* capture ends inside the routing header (offset 56..63) */
    ck_assert_int_eq(dis_cw(NULL, TN_LINK_IPV6, ip6_ext, 60, sizeof ip6_ext, &p), TN_DIS_TRUNCATED);
    ck_assert_uint_eq(p.anoms.bits, A(IP6_EXT_TRUNCATED));
    ck_assert_int_eq(p.kind, TN_PK_OTHER);
    /* ... or after the first byte of the hop-by-hop header */
    ck_assert_int_eq(dis_cw(NULL, TN_LINK_IPV6, ip6_ext, 41, sizeof ip6_ext, &p), TN_DIS_TRUNCATED);
    ck_assert_uint_eq(p.anoms.bits, A(IP6_EXT_TRUNCATED));

    /* hop-by-hop length 10 (88 bytes) in a 52-byte payload */
    memcpy(buf, ip6_ext, sizeof ip6_ext);
    buf[41] = 10;
    ck_assert_int_eq(dis(TN_LINK_IPV6, buf, sizeof ip6_ext, &p), TN_DIS_MALFORMED);
    ck_assert_uint_eq(p.anoms.bits, A(IP6_EXT_LEN));

    /* payload length 0x80 > 52 bytes on the wire: believed, the rest counts as not captured
     * (128 - 8 hop-by-hop - 8 destination - 8 routing - 8 fragment - 20 TCP = 76 payload bytes,
     * none captured) */
    memcpy(buf, ip6_ext, sizeof ip6_ext);
    buf[5] = 0x80;
    ck_assert_int_eq(dis(TN_LINK_IPV6, buf, sizeof ip6_ext, &p), TN_DIS_TRUNCATED);
    ck_assert_uint_eq(p.anoms.bits, A(IP6_LEN_GT_WIRE));
    ck_assert_int_eq(p.kind, TN_PK_TCP);
    ck_assert_uint_eq(p.payload_len, 76);
    ck_assert_uint_eq(p.payload_caplen, 0);

    /* payload length 0 without hop-by-hop: not a jumbogram, TCP does not fit */
    memcpy(buf, ip6_data, sizeof ip6_data);
    buf[5] = 0;
    ck_assert_int_eq(dis(TN_LINK_IPV6, buf, sizeof ip6_data, &p), TN_DIS_MALFORMED);
    ck_assert_uint_eq(p.anoms.bits, A(TCP_HDR_GT_IP));

    /* 16 destination-options headers are walked, the 17th is one too many */
    for (unsigned n = 16; n <= 17; n++) {
        memcpy(buf, ip6_ext, 40);
        size_t off = 40;
        for (unsigned i = 0; i < n; i++, off += 8) {
            static const uint8_t dst[] = {0x3c, 0x00, 0x01, 0x04, 0x00, 0x00, 0x00, 0x00};
            memcpy(buf + off, dst, 8);
            if (i == n - 1)
                buf[off] = 6;
        }
        memcpy(buf + off, ip6_ext + 72, 20);  /* the TCP header */
        off += 20;
        buf[4] = (uint8_t)((off - 40) >> 8);
        buf[5] = (uint8_t)(off - 40);
        buf[6] = 60;
        int st = dis(TN_LINK_IPV6, buf, off, &p);
        ck_assert_int_eq(st, TN_DIS_OK);
        if (n == 16) {
            ck_assert_int_eq(p.kind, TN_PK_TCP);
            ck_assert_uint_eq(p.anoms.bits, 0);
        } else {
            ck_assert_int_eq(p.kind, TN_PK_OTHER);
            ck_assert_uint_eq(p.anoms.bits, A(IP6_EXT_DEPTH));
        }
    }
}
END_TEST

/* ---------------------------------------------------------------- truncation sweep */

static const struct frame_case sweep_ip[] = {
    {"ipv4 options", TN_LINK_RAW, ip4_opts, sizeof ip4_opts, 48},
    {"ipv6 ext chain", TN_LINK_IPV6, ip6_ext, sizeof ip6_ext, 92},
    {"ipv6 ah", TN_LINK_IPV6, ip6_ah, sizeof ip6_ah, 84},
    {"ipv6 later fragment", TN_LINK_IPV6, ip6_frag_later, sizeof ip6_frag_later, 48},
    {"ipv6 jumbogram", TN_LINK_IPV6, ip6_jumbo, sizeof ip6_jumbo, 68},
    {"ipv6 no next header", TN_LINK_IPV6, ip6_nonext, sizeof ip6_nonext, 40},
};

START_TEST(test_sweep_ip)
{
    sweep_case(&sweep_ip[_i]);
}
END_TEST

START_TEST(test_ip_mutations)
{
    mutate_frames(frame_cases_build, sweep_ip, N(sweep_ip), MUTATION_SEED ^ (uint32_t)_i);
}
END_TEST

Suite *tn_dissect_ip_suite(void)
{
    Suite *s = suite_create("dissect_ip");
    TCase *tc = dissect_tcase(s, "ip");
    tcase_add_test(tc, test_ip4_options);
    tcase_add_test(tc, test_ip4_lengths);
    tcase_add_loop_test(tc, test_ip_len_gt_wire, 0, (int)N(len_cases));
    tcase_add_test(tc, test_ip4_fragments);
    tcase_add_test(tc, test_ip6_ext_chain);
    tcase_add_test(tc, test_ip6_ext_bad);
    tc = dissect_tcase(s, "sweep");
    tcase_add_loop_test(tc, test_sweep_ip, 0, (int)N(sweep_ip));
    tcase_add_loop_test(tc, test_ip_mutations, 0, 4);
    tc = tn_test_corpus_tcase(s, "dissect-corpus");   /* whole third-party files */
    if (tc) {
        tcase_add_checked_fixture(tc, NULL, dissect_teardown);
        tcase_set_timeout(tc, 60);
        tcase_add_loop_test(tc, test_corpus_len_gt_wire, 0, (int)N(corpus_tcp));
    }
    return s;
}
