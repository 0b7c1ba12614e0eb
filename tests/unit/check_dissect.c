/* check_dissect.c - the dissect layer on hand-built frames: every link type, tag and label stacks,
 * IPv4 options and fragments, IPv6 extension chains, tunnels, TCP options (table-driven), DFCP
 * native and over UDP, and a truncation sweep over every valid fixture (run it with CK_FORK=no
 * under ASan: each prefix is copied into an exact-size heap buffer, so any overread aborts).
 *
 * Checksums in the fixtures are 0: the dissector does not verify them (offload makes captured
 * checksums meaningless).  Expected values are decoded by hand from the bytes in the comments.
 */
#include <check.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dissect.h"
#include "corpus_helper.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define A(x) ((uint64_t)1 << TN_ANOM_##x)

/* ---------------------------------------------------------------- helpers */

static uint8_t *g_copy;  /* the exact-size copy the last dissection read; freed by the next */

static void copy_free(void)
{
    free(g_copy);
    g_copy = NULL;
}

/* Dissect the first caplen bytes of b (wire length wirelen) from an exact-size heap copy. */
static int dis_cw(const struct tn_dissect_cfg *cfg, int lt, const uint8_t *b, size_t caplen,
                  size_t wirelen, struct tn_pkt *p)
{
    struct tn_dissect_cfg def;
    tn_dissect_cfg_default(&def);
    copy_free();
    if (caplen > 0) {
        g_copy = malloc(caplen);
        ck_assert_ptr_nonnull(g_copy);
        memcpy(g_copy, b, caplen);
    }
    struct tn_time ts = {1700000000, 123456789};
    int st = tn_dissect(cfg ? cfg : &def, lt, g_copy, (uint32_t)caplen, (uint32_t)wirelen, ts, 42, p);
    ck_assert_int_eq(p->num, 42);
    ck_assert_int_eq(p->ts.sec, 1700000000);
    ck_assert_uint_eq(p->ts.nsec, 123456789);
    ck_assert_uint_eq(p->caplen, caplen);
    ck_assert_uint_eq(p->wirelen, wirelen);
    ck_assert_uint_lt(p->anoms.bits >> 1 >> (TN_ANOM_COUNT - 1), 1);  /* no bit past the list */
    return st;
}

static int dis(int lt, const uint8_t *b, size_t len, struct tn_pkt *p)
{
    return dis_cw(NULL, lt, b, len, len, p);
}

struct part {
    const uint8_t *b;
    size_t n;
};
#define P(a) {a, sizeof a}

/* Concatenate parts (ending with {NULL, 0}) into out; returns the length. */
static size_t cat(uint8_t *out, size_t cap, const struct part *parts)
{
    size_t n = 0;
    for (; parts->b; parts++) {
        ck_assert_uint_le(n + parts->n, cap);
        memcpy(out + n, parts->b, parts->n);
        n += parts->n;
    }
    return n;
}

static void teardown(void)
{
    copy_free();
}

static void assert_ip4(const struct tn_addr *a, uint8_t b0, uint8_t b1, uint8_t b2, uint8_t b3)
{
    ck_assert_uint_eq(a->family, 4);
    ck_assert_uint_eq(a->a[0], b0);
    ck_assert_uint_eq(a->a[1], b1);
    ck_assert_uint_eq(a->a[2], b2);
    ck_assert_uint_eq(a->a[3], b3);
}

static void assert_addr_str(const struct tn_addr *a, const char *want)
{
    char buf[48];
    ck_assert_str_eq(tn_addr_str(a, buf, sizeof buf), want);
}

/* ---------------------------------------------------------------- network-layer bodies */

/* IPv4 10.0.0.1 -> 10.0.0.2, IHL 5, TOS 0x02 (ECN ECT(0)), total 44, id 0x1234, DF, TTL 64,
 * proto 6; TCP 12345 -> 80, seq 0x01020304, ack 0, data offset 6 (24 bytes), SYN, window 65535,
 * urgent 0; option MSS 1460.  No payload. */
static const uint8_t ip4_syn[] = {
    0x45, 0x02, 0x00, 0x2c, 0x12, 0x34, 0x40, 0x00, 0x40, 0x06, 0x00, 0x00,
    0x0a, 0x00, 0x00, 0x01, 0x0a, 0x00, 0x00, 0x02,
    0x30, 0x39, 0x00, 0x50, 0x01, 0x02, 0x03, 0x04, 0x00, 0x00, 0x00, 0x00,
    0x60, 0x02, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00,
    0x02, 0x04, 0x05, 0xb4,
};
#define IP4_SYN_NEED 44

/* IPv4 10.0.0.2 -> 10.0.0.1, IHL 5, TOS 0, total 45, id 0x0001, no flags, TTL 63, proto 6;
 * TCP 80 -> 12345, seq 1000, ack 2000, offset 5, PSH|ACK, window 512, urgent 7; payload "hello". */
static const uint8_t ip4_data[] = {
    0x45, 0x00, 0x00, 0x2d, 0x00, 0x01, 0x00, 0x00, 0x3f, 0x06, 0x00, 0x00,
    0x0a, 0x00, 0x00, 0x02, 0x0a, 0x00, 0x00, 0x01,
    0x00, 0x50, 0x30, 0x39, 0x00, 0x00, 0x03, 0xe8, 0x00, 0x00, 0x07, 0xd0,
    0x50, 0x18, 0x02, 0x00, 0x00, 0x00, 0x00, 0x07,
    'h', 'e', 'l', 'l', 'o',
};
#define IP4_DATA_NEED 40

/* IPv6 2001:db8::1 -> 2001:db8::2, traffic class 0x01 (ECN ECT(1)), flow 0, payload length 23,
 * next header 6, hop limit 64; TCP 443 -> 50000, seq 7, ack 9, offset 5, ACK, window 100;
 * payload "abc". */
static const uint8_t ip6_data[] = {
    0x60, 0x10, 0x00, 0x00, 0x00, 0x17, 0x06, 0x40,
    0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01,
    0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02,
    0x01, 0xbb, 0xc3, 0x50, 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00, 0x09,
    0x50, 0x10, 0x00, 0x64, 0x00, 0x00, 0x00, 0x00,
    'a', 'b', 'c',
};
#define IP6_DATA_NEED 60

/* ---------------------------------------------------------------- link-layer headers */

/* Ethernet 66:77:88:99:aa:bb -> 00:11:22:33:44:55, type 0x0800 (IPv4) */
static const uint8_t eth_ip4[] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                                  0x88, 0x99, 0xaa, 0xbb, 0x08, 0x00};
/* same addresses, type 0x86dd (IPv6) */
static const uint8_t eth_ip6[] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                                  0x88, 0x99, 0xaa, 0xbb, 0x86, 0xdd};
/* Ethernet, 802.1Q tag (PCP 0, VID 100), type IPv4 */
static const uint8_t eth_vlan[] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
                                   0x99, 0xaa, 0xbb, 0x81, 0x00, 0x00, 0x64, 0x08, 0x00};
/* Ethernet, 802.1ad S-tag VID 10, 802.1Q C-tag VID 100, type IPv4 (QinQ) */
static const uint8_t eth_qinq[] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa,
                                   0xbb, 0x88, 0xa8, 0x00, 0x0a, 0x81, 0x00, 0x00, 0x64, 0x08, 0x00};
/* Ethernet, old QinQ tag 0x9100 VID 10, 802.1Q VID 20, type IPv6 */
static const uint8_t eth_9100[] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa,
                                   0xbb, 0x91, 0x00, 0x00, 0x0a, 0x81, 0x00, 0x00, 0x14, 0x86, 0xdd};
/* Ethernet type 0x8847 (MPLS unicast); label 16 TC 0 S 0 TTL 64; label 17 TC 0 S 1 TTL 64;
 * then IPv4 found by its first nibble */
static const uint8_t eth_mpls[] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa,
                                   0xbb, 0x88, 0x47, 0x00, 0x01, 0x00, 0x40, 0x00, 0x01, 0x11, 0x40};
/* Ethernet, 802.1Q VID 100, type 0x8848 (MPLS multicast); label 16 S 1 TTL 64; IPv6 by nibble */
static const uint8_t eth_vlan_mpls[] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa,
                                        0xbb, 0x81, 0x00, 0x00, 0x64, 0x88, 0x48, 0x00, 0x01, 0x01, 0x40};
/* Ethernet type 0x8864 (PPPoE session); ver/type 0x11, code 0, session 1, length 46 (PPP 2 + 44),
 * PPP protocol 0x0021 (IPv4) */
static const uint8_t eth_pppoe[] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa,
                                    0xbb, 0x88, 0x64, 0x11, 0x00, 0x00, 0x01, 0x00, 0x2e, 0x00, 0x21};
/* Ethernet type 0x8864 (PPPoE session); ver/type 0x11, code 0, session 1, length 45 (PPP 1 + 44),
 * PPP protocol 0x21 compressed to one byte (RFC 1661 protocol-field compression): IPv4 */
static const uint8_t eth_pppoe_pfc4[] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99,
                                         0xaa, 0xbb, 0x88, 0x64, 0x11, 0x00, 0x00, 0x01, 0x00, 0x2d,
                                         0x21};
/* the same with length 64 (PPP 1 + 63) and protocol 0x57 compressed: IPv6 */
static const uint8_t eth_pppoe_pfc6[] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99,
                                         0xaa, 0xbb, 0x88, 0x64, 0x11, 0x00, 0x00, 0x01, 0x00, 0x40,
                                         0x57};
/* 802.3 length 52 (8 + 44); LLC DSAP 0xaa SSAP 0xaa UI; SNAP OUI 00-00-00 type 0x0800 (RFC 1042) */
static const uint8_t eth_snap[] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa,
                                   0xbb, 0x00, 0x34, 0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00, 0x08, 0x00};
/* Linux cooked v1: packet type 0 (to us), ARPHRD_ETHER 1, address length 6,
 * address 00:11:22:33:44:55 + 2 pad, protocol 0x0800 at offset 14 */
static const uint8_t sll_ip4[] = {0x00, 0x00, 0x00, 0x01, 0x00, 0x06, 0x00, 0x11,
                                  0x22, 0x33, 0x44, 0x55, 0x00, 0x00, 0x08, 0x00};
/* Linux cooked v2: protocol 0x86dd at offset 0, reserved 0, ifindex 2, ARPHRD_ETHER, packet type
 * 0, address length 6, address 00:11:22:33:44:55 + 2 pad */
static const uint8_t sll2_ip6[] = {0x86, 0xdd, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01,
                                   0x00, 0x06, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x00, 0x00};
/* BSD null, AF_INET (2) written by a little-endian host */
static const uint8_t null_le_inet[] = {0x02, 0x00, 0x00, 0x00};
/* BSD null, AF_INET (2) written by a big-endian host */
static const uint8_t null_be_inet[] = {0x00, 0x00, 0x00, 0x02};
/* BSD null, AF_INET6 24 (NetBSD/OpenBSD), little-endian */
static const uint8_t null_le_inet6_24[] = {0x18, 0x00, 0x00, 0x00};
/* BSD null, AF_INET6 28 (FreeBSD), little-endian */
static const uint8_t null_le_inet6_28[] = {0x1c, 0x00, 0x00, 0x00};
/* BSD null, AF_INET6 30 (Darwin), big-endian */
static const uint8_t null_be_inet6_30[] = {0x00, 0x00, 0x00, 0x1e};
/* OpenBSD loop: AF in network order, AF_INET 2 */
static const uint8_t loop_inet[] = {0x00, 0x00, 0x00, 0x02};
/* OpenBSD loop: AF_INET6 24 */
static const uint8_t loop_inet6[] = {0x00, 0x00, 0x00, 0x18};
/* PPP with address 0xff, control 0x03, protocol 0x0021 (IPv4), RFC 1662 §3.1 */
static const uint8_t ppp_hdlc_ip4[] = {0xff, 0x03, 0x00, 0x21};
/* PPP with address/control and protocol field compression: protocol 0x57 (IPv6) in 1 byte */
static const uint8_t ppp_pfc_ip6[] = {0x57};
/* Cisco HDLC: address 0x0f (unicast), control 0, EtherType 0x0800 */
static const uint8_t chdlc_ip4[] = {0x0f, 0x00, 0x08, 0x00};
/* FDDI: frame control 0x50 (LLC), destination, source, then LLC/SNAP aa aa 03, OUI 0, 0x0800 */
static const uint8_t fddi_ip4[] = {0x50, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x00, 0x66, 0x77,
                                   0x88, 0x99, 0xaa, 0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00, 0x08, 0x00};
/* PPI version 0, flags 0, length 8 (LE), link type 1 (LE), then an Ethernet header (IPv4) */
static const uint8_t ppi_eth_ip4[] = {0x00, 0x00, 0x08, 0x00, 0x01, 0x00, 0x00, 0x00,
                                      0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x00, 0x66, 0x77,
                                      0x88, 0x99, 0xaa, 0x08, 0x00};
/* 802.11 data frame: frame control 0x08 0x02 (type data, subtype 0, from DS), duration,
 * 3 addresses, sequence control; then LLC/SNAP aa aa 03 000000 0800 */
static const uint8_t wlan_ip4[] = {0x08, 0x02, 0x00, 0x00, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
                                   13, 14, 15, 16, 17, 18, 0x00, 0x00,
                                   0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00, 0x08, 0x00};
/* 802.11 QoS data (0x88), to and from DS (0x03): a fourth address and QoS control; LLC/SNAP 86dd */
static const uint8_t wlan_qos_wds_ip6[] = {0x88, 0x03, 0x00, 0x00, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
                                           11, 12, 13, 14, 15, 16, 17, 18, 0x00, 0x00,
                                           21, 22, 23, 24, 25, 26, 0x00, 0x00,
                                           0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00, 0x86, 0xdd};
/* radiotap version 0, length 8 (LE), no fields present; then the 802.11 data frame above */
static const uint8_t radiotap_wlan_ip4[] = {0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00,
                                            0x08, 0x02, 0x00, 0x00, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
                                            11, 12, 13, 14, 15, 16, 17, 18, 0x00, 0x00,
                                            0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00, 0x08, 0x00};
static const uint8_t no_hdr[1];

enum body { B_SYN4, B_DATA4, B_DATA6 };

static const struct link_case {
    const char *what;
    int linktype;
    const uint8_t *hdr;
    size_t hlen;
    enum body body;
    uint8_t vlan, mpls;
} link_cases[] = {
    {"ethernet ipv4", TN_LINK_ETHERNET, eth_ip4, sizeof eth_ip4, B_SYN4, 0, 0},
    {"ethernet ipv6", TN_LINK_ETHERNET, eth_ip6, sizeof eth_ip6, B_DATA6, 0, 0},
    {"802.1q", TN_LINK_ETHERNET, eth_vlan, sizeof eth_vlan, B_DATA4, 1, 0},
    {"qinq 88a8+8100", TN_LINK_ETHERNET, eth_qinq, sizeof eth_qinq, B_SYN4, 2, 0},
    {"qinq 9100+8100 ipv6", TN_LINK_ETHERNET, eth_9100, sizeof eth_9100, B_DATA6, 2, 0},
    {"mpls 2 labels", TN_LINK_ETHERNET, eth_mpls, sizeof eth_mpls, B_SYN4, 0, 2},
    {"vlan + mpls ipv6", TN_LINK_ETHERNET, eth_vlan_mpls, sizeof eth_vlan_mpls, B_DATA6, 1, 1},
    {"pppoe", TN_LINK_ETHERNET, eth_pppoe, sizeof eth_pppoe, B_SYN4, 0, 0},
    {"pppoe pfc ipv4", TN_LINK_ETHERNET, eth_pppoe_pfc4, sizeof eth_pppoe_pfc4, B_SYN4, 0, 0},
    {"pppoe pfc ipv6", TN_LINK_ETHERNET, eth_pppoe_pfc6, sizeof eth_pppoe_pfc6, B_DATA6, 0, 0},
    {"llc/snap", TN_LINK_ETHERNET, eth_snap, sizeof eth_snap, B_SYN4, 0, 0},
    {"linux sll", TN_LINK_LINUX_SLL, sll_ip4, sizeof sll_ip4, B_DATA4, 0, 0},
    {"linux sll2", TN_LINK_LINUX_SLL2, sll2_ip6, sizeof sll2_ip6, B_DATA6, 0, 0},
    {"null le inet", TN_LINK_NULL, null_le_inet, sizeof null_le_inet, B_SYN4, 0, 0},
    {"null be inet", TN_LINK_NULL, null_be_inet, sizeof null_be_inet, B_DATA4, 0, 0},
    {"null inet6 24", TN_LINK_NULL, null_le_inet6_24, sizeof null_le_inet6_24, B_DATA6, 0, 0},
    {"null inet6 28", TN_LINK_NULL, null_le_inet6_28, sizeof null_le_inet6_28, B_DATA6, 0, 0},
    {"null inet6 30 be", TN_LINK_NULL, null_be_inet6_30, sizeof null_be_inet6_30, B_DATA6, 0, 0},
    {"loop inet", TN_LINK_LOOP, loop_inet, sizeof loop_inet, B_SYN4, 0, 0},
    {"loop inet6", TN_LINK_LOOP, loop_inet6, sizeof loop_inet6, B_DATA6, 0, 0},
    {"raw 101 v4", TN_LINK_RAW, no_hdr, 0, B_SYN4, 0, 0},
    {"raw 101 v6", TN_LINK_RAW, no_hdr, 0, B_DATA6, 0, 0},
    {"raw 12", TN_LINK_RAW_12, no_hdr, 0, B_DATA4, 0, 0},
    {"raw 14", TN_LINK_RAW_14, no_hdr, 0, B_DATA6, 0, 0},
    {"ipv4 228", TN_LINK_IPV4, no_hdr, 0, B_SYN4, 0, 0},
    {"ipv6 229", TN_LINK_IPV6, no_hdr, 0, B_DATA6, 0, 0},
    {"ppp hdlc ipv4", TN_LINK_PPP, ppp_hdlc_ip4, sizeof ppp_hdlc_ip4, B_SYN4, 0, 0},
    {"ppp pfc ipv6", TN_LINK_PPP, ppp_pfc_ip6, sizeof ppp_pfc_ip6, B_DATA6, 0, 0},
    {"ppp 50 ipv4", TN_LINK_PPP_HDLC, ppp_hdlc_ip4, sizeof ppp_hdlc_ip4, B_DATA4, 0, 0},
    {"cisco hdlc", TN_LINK_C_HDLC, chdlc_ip4, sizeof chdlc_ip4, B_SYN4, 0, 0},
    {"fddi llc/snap", TN_LINK_FDDI, fddi_ip4, sizeof fddi_ip4, B_DATA4, 0, 0},
    {"ppi ethernet", TN_LINK_PPI, ppi_eth_ip4, sizeof ppi_eth_ip4, B_SYN4, 0, 0},
    {"802.11 data", TN_LINK_IEEE802_11, wlan_ip4, sizeof wlan_ip4, B_DATA4, 0, 0},
    {"802.11 qos wds", TN_LINK_IEEE802_11, wlan_qos_wds_ip6, sizeof wlan_qos_wds_ip6, B_DATA6, 0, 0},
    {"radiotap 802.11", TN_LINK_RADIOTAP, radiotap_wlan_ip4, sizeof radiotap_wlan_ip4, B_SYN4, 0, 0},
};

static const struct body_info {
    const uint8_t *b;
    size_t n, need;
    unsigned ipver;
    uint16_t sport, dport;
    uint32_t seq;
    uint32_t payload_len;
} bodies[] = {
    [B_SYN4] = {ip4_syn, sizeof ip4_syn, IP4_SYN_NEED, 4, 12345, 80, 0x01020304, 0},
    [B_DATA4] = {ip4_data, sizeof ip4_data, IP4_DATA_NEED, 4, 80, 12345, 1000, 5},
    [B_DATA6] = {ip6_data, sizeof ip6_data, IP6_DATA_NEED, 6, 443, 50000, 7, 3},
};

static size_t link_frame(const struct link_case *lc, uint8_t *buf, size_t cap)
{
    const struct body_info *bi = &bodies[lc->body];
    struct part parts[] = {{lc->hdr, lc->hlen}, {bi->b, bi->n}, {NULL, 0}};
    return cat(buf, cap, parts);
}

START_TEST(test_link_types)
{
    const struct link_case *lc = &link_cases[_i];
    const struct body_info *bi = &bodies[lc->body];
    uint8_t buf[256];
    size_t n = link_frame(lc, buf, sizeof buf);
    struct tn_pkt p;
    int st = dis(lc->linktype, buf, n, &p);
    ck_assert_msg(st == TN_DIS_OK, "%s: status %d", lc->what, st);
    ck_assert_msg(p.anoms.bits == 0, "%s: anomalies %#llx", lc->what,
                  (unsigned long long)p.anoms.bits);
    ck_assert_msg(p.kind == TN_PK_TCP, "%s: kind %d", lc->what, p.kind);
    ck_assert_uint_eq(p.ipver, bi->ipver);
    ck_assert_uint_eq(p.ipproto, 6);
    ck_assert_uint_eq(p.sport, bi->sport);
    ck_assert_uint_eq(p.dport, bi->dport);
    ck_assert_uint_eq(p.tcp.seq, bi->seq);
    ck_assert_uint_eq(p.payload_len, bi->payload_len);
    ck_assert_uint_eq(p.payload_caplen, bi->payload_len);
    ck_assert_msg(p.vlan_depth == lc->vlan, "%s: vlan %u", lc->what, p.vlan_depth);
    ck_assert_msg(p.mpls_depth == lc->mpls, "%s: mpls %u", lc->what, p.mpls_depth);
    ck_assert_uint_eq(p.tunnels, 0);
    ck_assert(!p.fragment);
}
END_TEST

START_TEST(test_link_fields_ip4)
{
    /* Fields of the IPv4 data packet decoded by hand. */
    struct tn_pkt p;
    ck_assert_int_eq(dis(TN_LINK_RAW, ip4_data, sizeof ip4_data, &p), TN_DIS_OK);
    assert_ip4(&p.src, 10, 0, 0, 2);
    assert_ip4(&p.dst, 10, 0, 0, 1);
    assert_addr_str(&p.src, "10.0.0.2");
    ck_assert_uint_eq(p.ttl, 63);
    ck_assert_uint_eq(p.ip_id, 1);
    ck_assert_uint_eq(p.ecn, 0);
    ck_assert_uint_eq(p.tcp.ack, 2000);
    ck_assert_uint_eq(p.tcp.flags, TN_TCP_PSH | TN_TCP_ACK);
    ck_assert_uint_eq(p.tcp.win, 512);
    ck_assert_uint_eq(p.tcp.urp, 7);
    ck_assert_uint_eq(p.tcp.hdr_len, 20);
    ck_assert_mem_eq(p.payload, "hello", 5);

    ck_assert_int_eq(dis(TN_LINK_RAW, ip4_syn, sizeof ip4_syn, &p), TN_DIS_OK);
    ck_assert_uint_eq(p.ecn, 2);
    ck_assert_uint_eq(p.ip_id, 0x1234);
    ck_assert_uint_eq(p.tcp.hdr_len, 24);
    ck_assert(p.tcp.opt.has_mss);
    ck_assert_uint_eq(p.tcp.opt.mss, 1460);
    ck_assert_uint_eq(p.payload_len, 0);
}
END_TEST

START_TEST(test_link_fields_ip6)
{
    struct tn_pkt p;
    ck_assert_int_eq(dis(TN_LINK_IPV6, ip6_data, sizeof ip6_data, &p), TN_DIS_OK);
    ck_assert_uint_eq(p.src.family, 6);
    assert_addr_str(&p.src, "2001:db8::1");
    assert_addr_str(&p.dst, "2001:db8::2");
    ck_assert_uint_eq(p.ttl, 64);
    ck_assert_uint_eq(p.ecn, 1);
    ck_assert_uint_eq(p.ip_id, 0);
    ck_assert_uint_eq(p.tcp.ack, 9);
    ck_assert_uint_eq(p.tcp.flags, TN_TCP_ACK);
    ck_assert_uint_eq(p.tcp.win, 100);
    ck_assert_mem_eq(p.payload, "abc", 3);
}
END_TEST

/* Ethernet type 0x0806 (ARP); request, hardware 1, protocol 0x0800, 6/4, opcode 1, sender
 * 66:77:88:99:aa:bb 10.0.0.1, target 0 10.0.0.2 */
static const uint8_t eth_arp[] = {
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0x08, 0x06,
    0x00, 0x01, 0x08, 0x00, 0x06, 0x04, 0x00, 0x01, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb,
    0x0a, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0x0a, 0x00, 0x00, 0x02,
};
/* 802.3 length 38, LLC DSAP 0x42 SSAP 0x42 UI (spanning tree), then 8 bytes of BPDU */
static const uint8_t eth_stp[] = {
    0x01, 0x80, 0xc2, 0x00, 0x00, 0x00, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0x00, 0x26,
    0x42, 0x42, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x00, 0x00,
};

START_TEST(test_link_other)
{
    struct tn_pkt p;
    uint8_t buf[256];

    /* unsupported link type (147, user 0) */
    ck_assert_int_eq(dis(147, ip4_syn, sizeof ip4_syn, &p), TN_DIS_OK);
    ck_assert_int_eq(p.kind, TN_PK_OTHER);
    ck_assert_uint_eq(p.anoms.bits, A(LINK_UNKNOWN));
    ck_assert(!tn_dissect_link_supported(147));
    ck_assert(tn_dissect_link_supported(TN_LINK_LINUX_SLL2));

    /* NFLOG: header (AF_INET, version 0, resource 0), a packet-header TLV (length 8, type 1,
     * LE), then the payload TLV (type 9) holding the IPv4 SYN, padded to 4 bytes */
    {
        uint8_t nf[128] = {0x02, 0x00, 0x00, 0x00, 0x08, 0x00, 0x01, 0x00, 0x08, 0x00, 0x00, 0x00};
        size_t n = 12;
        nf[n++] = (uint8_t)(4 + sizeof ip4_syn);
        nf[n++] = 0;
        nf[n++] = 0x09;
        nf[n++] = 0x00;
        memcpy(nf + n, ip4_syn, sizeof ip4_syn);
        n += sizeof ip4_syn;
        ck_assert_int_eq(dis(TN_LINK_NFLOG, nf, n, &p), TN_DIS_OK);
        ck_assert_int_eq(p.kind, TN_PK_TCP);
        ck_assert_uint_eq(p.ipver, 4);
        ck_assert_uint_eq(p.anoms.bits, 0);
        /* cut by the snap length inside a TLV header: truncated (the wire had it all) */
        ck_assert_int_eq(dis_cw(NULL, TN_LINK_NFLOG, nf, 14, (uint32_t)n, &p), TN_DIS_TRUNCATED);
    }
    /* PPI around a link type we do not read (802.11 with FCS is read; 147 is a user type) */
    {
        static const uint8_t ppi_user[] = {0x00, 0x00, 0x08, 0x00, 0x93, 0x00, 0x00, 0x00, 0x45};
        ck_assert_int_eq(dis(TN_LINK_PPI, ppi_user, sizeof ppi_user, &p), TN_DIS_OK);
        ck_assert_int_eq(p.kind, TN_PK_OTHER);
        ck_assert_uint_eq(p.anoms.bits, A(LINK_UNKNOWN));
    }

    /* Linux cooked v2 names the interface (ifindex 2 in the fixture's bytes 4-7): what the live
     * two-point capture on "any" sorts packets by; other link types leave it 0 */
    size_t n2 = cat(buf, sizeof buf, (const struct part[]){P(sll2_ip6), P(ip6_data), {NULL, 0}});
    ck_assert_int_eq(dis(TN_LINK_LINUX_SLL2, buf, n2, &p), TN_DIS_OK);
    ck_assert_int_eq(p.kind, TN_PK_TCP);
    ck_assert_uint_eq(p.ifindex, 2);
    ck_assert_int_eq(dis(TN_LINK_RAW, ip6_data, sizeof ip6_data, &p), TN_DIS_OK);
    ck_assert_uint_eq(p.ifindex, 0);

    /* ARP and 802.3/LLC spanning tree: not ours, no anomaly */
    ck_assert_int_eq(dis(TN_LINK_ETHERNET, eth_arp, sizeof eth_arp, &p), TN_DIS_OK);
    ck_assert_int_eq(p.kind, TN_PK_OTHER);
    ck_assert_uint_eq(p.anoms.bits, 0);
    ck_assert_int_eq(dis(TN_LINK_ETHERNET, eth_stp, sizeof eth_stp, &p), TN_DIS_OK);
    ck_assert_int_eq(p.kind, TN_PK_OTHER);
    ck_assert_uint_eq(p.anoms.bits, 0);

    /* empty frame */
    ck_assert_int_eq(dis(TN_LINK_ETHERNET, eth_arp, 0, &p), TN_DIS_TRUNCATED);
    ck_assert_uint_eq(p.anoms.bits, A(FRAME_EMPTY));

    /* Ethernet cut inside its header */
    ck_assert_int_eq(dis_cw(NULL, TN_LINK_ETHERNET, eth_arp, 13, sizeof eth_arp, &p),
                     TN_DIS_TRUNCATED);
    ck_assert_uint_eq(p.anoms.bits, A(LINK_TRUNCATED));

    /* a capture header with wire length < captured length: the captured bytes are trusted */
    ck_assert_int_eq(dis_cw(NULL, TN_LINK_RAW, ip4_syn, sizeof ip4_syn, 10, &p), TN_DIS_OK);
    ck_assert_int_eq(p.kind, TN_PK_TCP);
    ck_assert_uint_eq(p.wirelen, 10);

    /* BSD null with AF 7 (not IP): other, no anomaly */
    static const uint8_t null_af7[] = {0x07, 0x00, 0x00, 0x00};
    struct part pn[] = {P(null_af7), P(ip4_syn), {NULL, 0}};
    size_t n = cat(buf, sizeof buf, pn);
    ck_assert_int_eq(dis(TN_LINK_NULL, buf, n, &p), TN_DIS_OK);
    ck_assert_int_eq(p.kind, TN_PK_OTHER);
    ck_assert_uint_eq(p.anoms.bits, 0);

    /* LOOP is network order only: AF_INET written little-endian is not AF_INET */
    ck_assert_int_eq(dis(TN_LINK_LOOP, buf, n, &p), TN_DIS_OK);
    struct part pl[] = {P(null_le_inet), P(ip4_syn), {NULL, 0}};
    n = cat(buf, sizeof buf, pl);
    ck_assert_int_eq(dis(TN_LINK_LOOP, buf, n, &p), TN_DIS_OK);
    ck_assert_int_eq(p.kind, TN_PK_OTHER);
}
END_TEST

START_TEST(test_ip_version_mismatch)
{
    struct tn_pkt p;
    uint8_t buf[256];

    /* raw: first nibble 5 */
    memcpy(buf, ip4_syn, sizeof ip4_syn);
    buf[0] = 0x55;
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, sizeof ip4_syn, &p), TN_DIS_MALFORMED);
    ck_assert_uint_eq(p.anoms.bits, A(IP_VERSION));
    ck_assert_int_eq(p.kind, TN_PK_OTHER);

    /* Ethernet says IPv4, the header is IPv6 */
    struct part pe[] = {P(eth_ip4), P(ip6_data), {NULL, 0}};
    size_t n = cat(buf, sizeof buf, pe);
    ck_assert_int_eq(dis(TN_LINK_ETHERNET, buf, n, &p), TN_DIS_MALFORMED);
    ck_assert_uint_eq(p.anoms.bits, A(IP_VERSION));

    /* LINKTYPE_IPV6 carrying IPv4 */
    ck_assert_int_eq(dis(TN_LINK_IPV6, ip4_data, sizeof ip4_data, &p), TN_DIS_MALFORMED);
    ck_assert_uint_eq(p.anoms.bits, A(IP_VERSION));
}
END_TEST

/* n 802.1Q tags (VID 1 each) in an Ethernet frame carrying ip4_syn. */
static size_t vlan_stack(uint8_t *buf, unsigned n)
{
    static const uint8_t tag[] = {0x81, 0x00, 0x00, 0x01};
    memcpy(buf, eth_ip4, 12);
    size_t off = 12;
    for (unsigned i = 0; i < n; i++, off += 4)
        memcpy(buf + off, tag, 4);
    buf[off++] = 0x08;
    buf[off++] = 0x00;
    memcpy(buf + off, ip4_syn, sizeof ip4_syn);
    return off + sizeof ip4_syn;
}

START_TEST(test_vlan_depth)
{
    uint8_t buf[256];
    struct tn_pkt p;
    size_t n = vlan_stack(buf, 8);
    ck_assert_int_eq(dis(TN_LINK_ETHERNET, buf, n, &p), TN_DIS_OK);
    ck_assert_int_eq(p.kind, TN_PK_TCP);
    ck_assert_uint_eq(p.vlan_depth, 8);
    n = vlan_stack(buf, 9);
    ck_assert_int_eq(dis(TN_LINK_ETHERNET, buf, n, &p), TN_DIS_OK);
    ck_assert_int_eq(p.kind, TN_PK_OTHER);
    ck_assert_uint_eq(p.anoms.bits, A(VLAN_DEPTH));
}
END_TEST

START_TEST(test_mpls_truncated)
{
    uint8_t buf[256];
    struct tn_pkt p;
    struct part pm[] = {P(eth_mpls), P(ip4_syn), {NULL, 0}};
    size_t n = cat(buf, sizeof buf, pm);
    /* cut inside the second label */
    ck_assert_int_eq(dis_cw(NULL, TN_LINK_ETHERNET, buf, 20, n, &p), TN_DIS_TRUNCATED);
    ck_assert_uint_eq(p.anoms.bits, A(MPLS_TRUNCATED));
    /* cut right after the bottom label: the network header's version is unknown */
    ck_assert_int_eq(dis_cw(NULL, TN_LINK_ETHERNET, buf, 22, n, &p), TN_DIS_TRUNCATED);
    ck_assert_uint_eq(p.anoms.bits, A(MPLS_TRUNCATED));
    ck_assert_uint_eq(p.mpls_depth, 2);
}
END_TEST

START_TEST(test_ethernet_padding)
{
    /* Ethernet + ip4_data with total length patched to 40: the 5 payload bytes become trailing
     * padding (frame 59 bytes) and must not count as payload. */
    uint8_t buf[256];
    struct tn_pkt p;
    struct part pp[] = {P(eth_ip4), P(ip4_data), {NULL, 0}};
    size_t n = cat(buf, sizeof buf, pp);
    buf[14 + 3] = 0x28;
    ck_assert_int_eq(dis(TN_LINK_ETHERNET, buf, n, &p), TN_DIS_OK);
    ck_assert_int_eq(p.kind, TN_PK_TCP);
    ck_assert_uint_eq(p.payload_len, 0);
    ck_assert_uint_eq(p.payload_caplen, 0);
}
END_TEST

/* ---------------------------------------------------------------- IPv4 */

/* ---------------------------------------------------------------- PPPoE lengths */

/* suricata-verify/bug-4810/pppoe-session-http.pcap packet 1 (81 bytes; tshark -r F -c 1 -x):
 * Ethernet 00:0c:29:20:8e:a1 -> 00:0c:29:39:f3:c3 type 0x8864; PPPoE 0x11, code 0, session
 * 0x002d, length 0x3d = 61 = 1 + 60; PPP protocol 0x21 in one byte (compressed); IPv4 total 60,
 * 10.100.0.0 -> 142.250.179.131, proto 6; TCP 57013 -> 80, seq 0xd4bd7654 = 3569186388, offset
 * 10 (40 bytes), SYN, window 65228; MSS 1452, SACK-perm, TS, NOP, WS 7.  tshark: 1 conversation,
 * 30 packets, all TCP (-q -z conv,tcp). */
static const uint8_t pppoe_http_1[] = {
    0x00, 0x0c, 0x29, 0x39, 0xf3, 0xc3, 0x00, 0x0c, 0x29, 0x20, 0x8e, 0xa1, 0x88, 0x64, 0x11, 0x00,
    0x00, 0x2d, 0x00, 0x3d, 0x21, 0x45, 0x00, 0x00, 0x3c, 0x00, 0x00, 0x40, 0x00, 0x40, 0x06, 0xed,
    0xda, 0x0a, 0x64, 0x00, 0x00, 0x8e, 0xfa, 0xb3, 0x83, 0xde, 0xb5, 0x00, 0x50, 0xd4, 0xbd, 0x76,
    0x54, 0x00, 0x00, 0x00, 0x00, 0xa0, 0x02, 0xfe, 0xcc, 0x74, 0x2f, 0x00, 0x00, 0x02, 0x04, 0x05,
    0xac, 0x01, 0x03, 0x03, 0x07, 0x04, 0x02, 0x08, 0x0a, 0xcb, 0xae, 0x92, 0x63, 0x00, 0x00, 0x00,
    0x00,
};

/* zeek-traces/pppoe-over-qinq.pcap packet 19 (76 bytes; tshark -r F -Y frame.number==19 -x):
 * Ethernet, 802.1Q VID 3704, 802.1Q VID 2474, type 0x8864; PPPoE 0x11, session 0x0f07, length
 * 0x2a = 42 = 2 + 40; PPP 0x0021; IPv4 total 0x2e = 46 (6 more than PPPoE carries), 2.2.2.2 ->
 * 1.1.1.1; TCP 443 -> 20394, seq 0xfc90b007 = 4237340679, offset 5, ACK; then 6 zero bytes.
 * tshark: "IPv4 total length exceeds packet length (40 bytes)", tcp.len 0; packet 20 carries
 * the same seq with 51 bytes, so the 6 bytes were padding. */
static const uint8_t pppoe_qinq_19[] = {
    0xbc, 0xd1, 0x77, 0x17, 0x75, 0x0d, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x81, 0x00, 0x0e, 0x78,
    0x81, 0x00, 0x09, 0xaa, 0x88, 0x64, 0x11, 0x00, 0x0f, 0x07, 0x00, 0x2a, 0x00, 0x21, 0x45, 0x00,
    0x00, 0x2e, 0x1c, 0x46, 0x40, 0x00, 0xef, 0x06, 0x69, 0x7e, 0x02, 0x02, 0x02, 0x02, 0x01, 0x01,
    0x01, 0x01, 0x01, 0xbb, 0x4f, 0xaa, 0xfc, 0x90, 0xb0, 0x07, 0xd7, 0xa8, 0x44, 0x99, 0x50, 0x10,
    0x08, 0x62, 0x87, 0x27, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

static const struct pppoe_case {
    const char *what;
    const uint8_t *b;
    size_t n;
    int len_at;            /* offset of the PPPoE length to patch (-1: none) */
    uint16_t len;
    int status;
    uint64_t anoms;
    enum tn_pkt_kind kind;
    uint16_t sport;
    uint32_t seq, payload_len, payload_caplen;
} pppoe_cases[] = {
    {"bug-4810 packet 1: 1-byte PPP protocol", pppoe_http_1, sizeof pppoe_http_1, -1, 0, TN_DIS_OK,
     0, TN_PK_TCP, 57013, 3569186388u, 0, 0},
    {"qinq packet 19: IP length past PPPoE's", pppoe_qinq_19, sizeof pppoe_qinq_19, -1, 0,
     TN_DIS_MALFORMED, A(IP4_LEN_GT_WIRE), TN_PK_TCP, 443, 4237340679u, 0, 0},
    /* packet 19 with PPPoE length 48 = 2 + 46: now IP fits and the 6 bytes are data */
    {"qinq packet 19, PPPoE length 48", pppoe_qinq_19, sizeof pppoe_qinq_19, 26, 48, TN_DIS_OK, 0,
     TN_PK_TCP, 443, 4237340679u, 6, 6},
    /* PPPoE length 49 > the 48 bytes left in the frame: reported, the frame bounds it */
    {"PPPoE length past the frame", pppoe_qinq_19, sizeof pppoe_qinq_19, 26, 49, TN_DIS_MALFORMED,
     A(PPPOE_LEN), TN_PK_TCP, 443, 4237340679u, 6, 6},
    /* PPPoE length 1 < the 2-byte protocol field */
    {"PPPoE length 1", pppoe_qinq_19, sizeof pppoe_qinq_19, 26, 1, TN_DIS_MALFORMED, A(PPPOE_LEN),
     TN_PK_OTHER, 0, 0, 0, 0},
    /* PPPoE length 0 with a compressed protocol field */
    {"PPPoE length 0, 1-byte protocol", pppoe_http_1, sizeof pppoe_http_1, 18, 0, TN_DIS_MALFORMED,
     A(PPPOE_LEN), TN_PK_OTHER, 0, 0, 0, 0},
};

START_TEST(test_pppoe_lengths)
{
    const struct pppoe_case *pc = &pppoe_cases[_i];
    uint8_t buf[128];
    struct tn_pkt p;
    ck_assert_uint_le(pc->n, sizeof buf);
    memcpy(buf, pc->b, pc->n);
    if (pc->len_at >= 0) {
        buf[pc->len_at] = (uint8_t)(pc->len >> 8);
        buf[pc->len_at + 1] = (uint8_t)pc->len;
    }
    int st = dis(TN_LINK_ETHERNET, buf, pc->n, &p);
    ck_assert_msg(st == pc->status, "%s: status %d", pc->what, st);
    ck_assert_msg(p.anoms.bits == pc->anoms, "%s: anoms %#llx", pc->what,
                  (unsigned long long)p.anoms.bits);
    ck_assert_msg(p.kind == pc->kind, "%s: kind %d", pc->what, p.kind);
    if (pc->kind != TN_PK_TCP)
        return;
    ck_assert_msg(p.sport == pc->sport, "%s: sport %u", pc->what, p.sport);
    ck_assert_msg(p.tcp.seq == pc->seq, "%s: seq %u", pc->what, p.tcp.seq);
    ck_assert_msg(p.payload_len == pc->payload_len, "%s: payload_len %u", pc->what,
                  p.payload_len);
    ck_assert_msg(p.payload_caplen == pc->payload_caplen, "%s: payload_caplen %u", pc->what,
                  p.payload_caplen);
}
END_TEST

/* Whole files: tshark -r F -T fields -e tcp.srcport -e tcp.len | awk '{n[$1]++; s[$1] += $2}'
 *   pppoe-session-http.pcap: 57013 16 packets 77 bytes, 80 14 packets 15431 bytes
 *   pppoe-over-qinq.pcap:    20394 44 packets 23415 bytes, 443 42 packets 11105 bytes */
static const struct pppoe_file {
    const char *file;
    uint16_t port_a, port_b;
    long pk_a, bytes_a, pk_b, bytes_b;
} pppoe_files[] = {
    {"suricata-verify/bug-4810/pppoe-session-http.pcap", 57013, 80, 16, 77, 14, 15431},
    {"zeek-traces/pppoe-over-qinq.pcap", 20394, 443, 44, 23415, 42, 11105},
};

START_TEST(test_pppoe_corpus)
{
    const struct pppoe_file *pf = &pppoe_files[_i];
    char path[1024], ebuf[PCAP_ERRBUF_SIZE];
    snprintf(path, sizeof path, "%s", tn_test_corpus_path(pf->file));
    pcap_t *pc = pcap_open_offline(path, ebuf);
    ck_assert_msg(pc != NULL, "%s: %s", path, ebuf);
    struct tn_dissect_cfg cfg;
    tn_dissect_cfg_default(&cfg);
    struct pcap_pkthdr *h;
    const u_char *data;
    long pk_a = 0, bytes_a = 0, pk_b = 0, bytes_b = 0, other = 0;
    uint64_t num = 0;
    struct tn_pkt p;
    while (pcap_next_ex(pc, &h, &data) == 1) {
        struct tn_time ts = {h->ts.tv_sec, (uint32_t)h->ts.tv_usec * 1000u};
        tn_dissect(&cfg, pcap_datalink(pc), data, h->caplen, h->len, ts, ++num, &p);
        if (p.kind == TN_PK_TCP && p.sport == pf->port_a) {
            pk_a++;
            bytes_a += p.payload_len;
        } else if (p.kind == TN_PK_TCP && p.sport == pf->port_b) {
            pk_b++;
            bytes_b += p.payload_len;
        } else {
            other++;
        }
    }
    pcap_close(pc);
    ck_assert_msg(other == 0, "%s: %ld packets not TCP of the connection", pf->file, other);
    ck_assert_int_eq(pk_a, pf->pk_a);
    ck_assert_int_eq(bytes_a, pf->bytes_a);
    ck_assert_int_eq(pk_b, pf->pk_b);
    ck_assert_int_eq(bytes_b, pf->bytes_b);
}
END_TEST

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

START_TEST(test_corpus_len_gt_wire)
{
    const struct corpus_tcp *ct = &corpus_tcp[_i];
    char path[1024], ebuf[PCAP_ERRBUF_SIZE];
    snprintf(path, sizeof path, "%s", tn_test_corpus_path(ct->file));
    pcap_t *pc = pcap_open_offline(path, ebuf);
    ck_assert_msg(pc != NULL, "%s: %s", path, ebuf);
    struct tn_dissect_cfg cfg;
    tn_dissect_cfg_default(&cfg);
    struct pcap_pkthdr *h;
    const u_char *data;
    long frames = 0, tcp = 0, fin = 0;
    struct tn_pkt p;
    while (pcap_next_ex(pc, &h, &data) == 1) {
        struct tn_time ts = {h->ts.tv_sec, (uint32_t)h->ts.tv_usec * 1000u};
        tn_dissect(&cfg, pcap_datalink(pc), data, h->caplen, h->len, ts, (uint64_t)++frames, &p);
        if (p.kind == TN_PK_TCP) {
            tcp++;
            fin += (p.tcp.flags & TN_TCP_FIN) != 0;
        }
    }
    pcap_close(pc);
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

#define IP6_ADDRS                                                                          \
    0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x20, 0x01, 0x0d, 0xb8, \
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02

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

/* ---------------------------------------------------------------- tunnels */

/* IPv4 192.168.0.1 -> 192.168.0.2, total 76 (20 + GRE 12 + 44), DF, TTL 64, proto 47 */
static const uint8_t o4_gre76[] = {0x45, 0x00, 0x00, 0x4c, 0x00, 0x00, 0x40, 0x00, 0x40, 0x2f,
                                   0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0x02};
/* GRE: K and S set (0x3000), version 0, protocol 0x0800; key 42; sequence 1 */
static const uint8_t gre_ks_ip4[] = {0x30, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x2a,
                                     0x00, 0x00, 0x00, 0x01};
/* IPv4 as above, total 91 (20 + GRE 8 + 63), proto 47 */
static const uint8_t o4_gre91[] = {0x45, 0x00, 0x00, 0x5b, 0x00, 0x00, 0x40, 0x00, 0x40, 0x2f,
                                   0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0x02};
/* GRE: C set (0x8000), protocol 0x86dd; checksum 0, reserved 0 */
static const uint8_t gre_c_ip6[] = {0x80, 0x00, 0x86, 0xdd, 0x00, 0x00, 0x00, 0x00};
/* IPv4 as above, total 82 (20 + GRE 4 + Ethernet 14 + 44), proto 47 */
static const uint8_t o4_gre82[] = {0x45, 0x00, 0x00, 0x52, 0x00, 0x00, 0x40, 0x00, 0x40, 0x2f,
                                   0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0x02};
/* GRE: no flags, protocol 0x6558 (transparent Ethernet bridging) */
static const uint8_t gre_teb[] = {0x00, 0x00, 0x65, 0x58};
/* IPv4 as above, total 94 (20 + GRE 8 + ERSPAN 8 + Ethernet 14 + 44), proto 47 */
static const uint8_t o4_gre94[] = {0x45, 0x00, 0x00, 0x5e, 0x00, 0x00, 0x40, 0x00, 0x40, 0x2f,
                                   0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0x02};
/* GRE: S set (0x1000), protocol 0x88be (ERSPAN); sequence 5;
 * ERSPAN II: version 1, VLAN 100, COS 0, En 0, T 0, session 1, reserved, index 0 */
static const uint8_t gre_erspan2[] = {0x10, 0x00, 0x88, 0xbe, 0x00, 0x00, 0x00, 0x05,
                                      0x10, 0x64, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00};
/* IPv4 as above, total 32 (20 + GRE 12), proto 47; GRE version 1 (PPTP): K|S, proto 0x880b,
 * payload length 0, call id 1, sequence 1 */
static const uint8_t ip4_gre_v1[] = {0x45, 0x00, 0x00, 0x20, 0x00, 0x00, 0x40, 0x00, 0x40, 0x2f,
                                     0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0x02,
                                     0x30, 0x01, 0x88, 0x0b, 0x00, 0x00, 0x00, 0x01,
                                     0x00, 0x00, 0x00, 0x01};
/* IPv4 172.16.0.1 -> 172.16.0.2, total 94 (20 + UDP 8 + VXLAN 8 + Ethernet 14 + 44), proto 17;
 * UDP 49152 -> 4789, length 74, checksum 0; VXLAN flags I (0x08), VNI 100 */
static const uint8_t o4_vxlan[] = {0x45, 0x00, 0x00, 0x5e, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
                                   0x00, 0x00, 0xac, 0x10, 0x00, 0x01, 0xac, 0x10, 0x00, 0x02,
                                   0xc0, 0x00, 0x12, 0xb5, 0x00, 0x4a, 0x00, 0x00,
                                   0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x64, 0x00};
/* IPv4 172.16.0.1 -> 172.16.0.2, total 88 (20 + UDP 8 + GTP 8 + 4 + 4 + 44), proto 17;
 * UDP 2152 -> 2152, length 68; GTP-U flags 0x34 (version 1, PT, E), type 0xff (G-PDU),
 * length 52, TEID 1; sequence 0, N-PDU 0, next extension 0x85 (PDU session container);
 * extension: length 1 (4 bytes), content 0x00 0x09 (QFI 9), next 0 */
static const uint8_t o4_gtpu[] = {0x45, 0x00, 0x00, 0x58, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
                                  0x00, 0x00, 0xac, 0x10, 0x00, 0x01, 0xac, 0x10, 0x00, 0x02,
                                  0x08, 0x68, 0x08, 0x68, 0x00, 0x44, 0x00, 0x00,
                                  0x34, 0xff, 0x00, 0x34, 0x00, 0x00, 0x00, 0x01,
                                  0x00, 0x00, 0x00, 0x85, 0x01, 0x00, 0x09, 0x00};
/* IPv4 172.16.0.1 -> 172.16.0.2, total 64 (20 + 44), proto 4 (IP in IP) */
static const uint8_t o4_ipip[] = {0x45, 0x00, 0x00, 0x40, 0x00, 0x00, 0x40, 0x00, 0x40, 0x04,
                                  0x00, 0x00, 0xac, 0x10, 0x00, 0x01, 0xac, 0x10, 0x00, 0x02};
/* IPv4 172.16.0.1 -> 172.16.0.2, total 83 (20 + 63), proto 41 (IPv6 in IPv4) */
static const uint8_t o4_6in4[] = {0x45, 0x00, 0x00, 0x53, 0x00, 0x00, 0x40, 0x00, 0x40, 0x29,
                                  0x00, 0x00, 0xac, 0x10, 0x00, 0x01, 0xac, 0x10, 0x00, 0x02};

static const struct tun_case {
    const char *what;
    int linktype;
    struct part parts[6];
    size_t need;             /* bytes up to the end of the last header (by hand) */
    uint8_t tunnels;
    enum body body;
} tun_cases[] = {
    {"gre K S ipv4", TN_LINK_RAW, {P(o4_gre76), P(gre_ks_ip4), P(ip4_syn)}, 76, TN_TUN_GRE, B_SYN4},
    {"gre C ipv6", TN_LINK_RAW, {P(o4_gre91), P(gre_c_ip6), P(ip6_data)}, 88, TN_TUN_GRE, B_DATA6},
    {"gre teb", TN_LINK_RAW, {P(o4_gre82), P(gre_teb), P(eth_ip4), P(ip4_syn)}, 82, TN_TUN_GRE,
     B_SYN4},
    {"gre erspan2", TN_LINK_RAW, {P(o4_gre94), P(gre_erspan2), P(eth_ip4), P(ip4_syn)}, 94,
     TN_TUN_GRE | TN_TUN_ERSPAN, B_SYN4},
    {"vxlan", TN_LINK_ETHERNET, {P(eth_ip4), P(o4_vxlan), P(eth_ip4), P(ip4_syn)}, 14 + 94,
     TN_TUN_VXLAN, B_SYN4},
    {"gtp-u", TN_LINK_RAW, {P(o4_gtpu), P(ip4_syn)}, 88, TN_TUN_GTPU, B_SYN4},
    {"ipip", TN_LINK_RAW, {P(o4_ipip), P(ip4_syn)}, 64, TN_TUN_IPIP, B_SYN4},
    {"6in4", TN_LINK_RAW, {P(o4_6in4), P(ip6_data)}, 80, TN_TUN_IPIP, B_DATA6},
};

START_TEST(test_tunnels)
{
    const struct tun_case *tc = &tun_cases[_i];
    const struct body_info *bi = &bodies[tc->body];
    uint8_t buf[256];
    struct tn_pkt p;
    size_t n = cat(buf, sizeof buf, tc->parts);
    int st = dis(tc->linktype, buf, n, &p);
    ck_assert_msg(st == TN_DIS_OK, "%s: status %d", tc->what, st);
    ck_assert_msg(p.anoms.bits == 0, "%s: anoms %#llx", tc->what, (unsigned long long)p.anoms.bits);
    ck_assert_msg(p.kind == TN_PK_TCP, "%s: kind %d", tc->what, p.kind);
    ck_assert_uint_eq(p.tunnels, tc->tunnels);
    /* the inner packet is reported */
    ck_assert_uint_eq(p.ipver, bi->ipver);
    ck_assert_uint_eq(p.sport, bi->sport);
    ck_assert_uint_eq(p.tcp.seq, bi->seq);
    ck_assert_uint_eq(p.payload_len, bi->payload_len);
    if (bi->ipver == 4)
        assert_ip4(&p.src, 10, 0, 0, 1);
}
END_TEST

START_TEST(test_tunnel_other)
{
    uint8_t buf[256];
    struct tn_pkt p;

    /* GRE version 1: not followed */
    ck_assert_int_eq(dis(TN_LINK_RAW, ip4_gre_v1, sizeof ip4_gre_v1, &p), TN_DIS_OK);
    ck_assert_uint_eq(p.anoms.bits, A(GRE_VERSION));
    ck_assert_int_eq(p.kind, TN_PK_OTHER);

    /* GTP-U echo request (type 1): no user packet, no tunnel */
    struct part pg[] = {P(o4_gtpu), P(ip4_syn), {NULL, 0}};
    size_t n = cat(buf, sizeof buf, pg);
    buf[29] = 0x01;
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, n, &p), TN_DIS_OK);
    ck_assert_uint_eq(p.anoms.bits, 0);
    ck_assert_int_eq(p.kind, TN_PK_OTHER);
    ck_assert_uint_eq(p.tunnels, 0);
    ck_assert_uint_eq(p.sport, 2152);

    /* GTP-U extension length 0 */
    n = cat(buf, sizeof buf, pg);
    buf[40] = 0;
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, n, &p), TN_DIS_MALFORMED);
    ck_assert_uint_eq(p.anoms.bits, A(TUNNEL_MALFORMED));

    /* GTP-U length 0x80 past the UDP payload */
    n = cat(buf, sizeof buf, pg);
    buf[31] = 0x80;
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, n, &p), TN_DIS_MALFORMED);
    ck_assert_uint_eq(p.anoms.bits, A(TUNNEL_MALFORMED));

    /* capture cut in the GTP-U extension header */
    n = cat(buf, sizeof buf, pg);
    ck_assert_int_eq(dis_cw(NULL, TN_LINK_RAW, buf, 41, n, &p), TN_DIS_TRUNCATED);
    ck_assert_uint_eq(p.anoms.bits, A(TUNNEL_TRUNCATED));

    /* UDP length 7 */
    n = cat(buf, sizeof buf, pg);
    buf[25] = 7;
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, n, &p), TN_DIS_MALFORMED);
    ck_assert_uint_eq(p.anoms.bits, A(UDP_LEN));

    /* UDP header cut */
    ck_assert_int_eq(dis_cw(NULL, TN_LINK_RAW, o4_gtpu, 24, 88, &p), TN_DIS_TRUNCATED);
    ck_assert_uint_eq(p.anoms.bits, A(UDP_TRUNCATED));
}
END_TEST

/* depth nested IP-in-IP headers around ip4_syn; the outermost has total 20 * depth + 44. */
static size_t ipip_nest(uint8_t *buf, unsigned depth)
{
    size_t off = 0;
    for (unsigned i = 0; i < depth; i++, off += 20) {
        memcpy(buf + off, o4_ipip, 20);
        buf[off + 3] = (uint8_t)(20 * (depth - i) + 44);
    }
    memcpy(buf + off, ip4_syn, sizeof ip4_syn);
    return off + sizeof ip4_syn;
}

START_TEST(test_tunnel_depth)
{
    uint8_t buf[256];
    struct tn_pkt p;
    size_t n = ipip_nest(buf, 4);
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, n, &p), TN_DIS_OK);
    ck_assert_int_eq(p.kind, TN_PK_TCP);
    ck_assert_uint_eq(p.tunnels, TN_TUN_IPIP);
    ck_assert_uint_eq(p.anoms.bits, 0);
    n = ipip_nest(buf, 5);
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, n, &p), TN_DIS_OK);
    ck_assert_int_eq(p.kind, TN_PK_OTHER);
    ck_assert_uint_eq(p.anoms.bits, A(TUNNEL_DEPTH));
}
END_TEST

/* ---------------------------------------------------------------- TCP */

/* IPv4 10.0.0.1 -> 10.0.0.2, total set by the builder (20 + TCP header), TTL 64, proto 6;
 * TCP 1000 -> 2000, seq 0x11111111, ack 0x22222222, offset set by the builder, SYN|ACK,
 * window 8192.  tcp_with_opts() appends the options, padded with EOL to a multiple of 4. */
static const uint8_t ip4_tcp_base[] = {
    0x45, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x40, 0x06, 0x00, 0x00,
    0x0a, 0x00, 0x00, 0x01, 0x0a, 0x00, 0x00, 0x02,
    0x03, 0xe8, 0x07, 0xd0, 0x11, 0x11, 0x11, 0x11, 0x22, 0x22, 0x22, 0x22,
    0x00, 0x12, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00,
};

static size_t tcp_with_opts(uint8_t *buf, const uint8_t *opts, size_t olen)
{
    size_t padded = (olen + 3) & ~(size_t)3;
    ck_assert_uint_le(padded, 40);
    memcpy(buf, ip4_tcp_base, sizeof ip4_tcp_base);
    memset(buf + 40, 0, padded);
    if (olen)
        memcpy(buf + 40, opts, olen);
    buf[3] = (uint8_t)(40 + padded);
    buf[32] = (uint8_t)(((20 + padded) / 4) << 4);
    return 40 + padded;
}

#define NONE 0

static const struct opt_case {
    const char *what;
    uint8_t opts[40];
    size_t olen;
    int status;
    uint64_t anoms;
    struct tn_tcp_opts want;
} opt_cases[] = {
    /* valid */
    {"MSS 1460", {2, 4, 0x05, 0xb4}, 4, TN_DIS_OK, NONE, {.has_mss = true, .mss = 1460}},
    {"NOP, WS 7", {1, 3, 3, 7}, 4, TN_DIS_OK, NONE, {.has_ws = true, .ws = 7}},
    {"WS 14 (the maximum)", {3, 3, 14}, 3, TN_DIS_OK, NONE, {.has_ws = true, .ws = 14}},
    {"SACK-permitted", {4, 2}, 2, TN_DIS_OK, NONE, {.sack_ok = true}},
    {"NOP NOP TS val 1 ecr 2", {1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 2}, 12, TN_DIS_OK, NONE,
     {.has_ts = true, .ts_val = 1, .ts_ecr = 2}},
    {"SACK 1 block 100-200", {1, 1, 5, 10, 0, 0, 0, 100, 0, 0, 0, 200}, 12, TN_DIS_OK, NONE,
     {.nsack = 1, .sack = {{100, 200}}}},
    {"SACK 4 blocks",
     {5, 34, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, 5, 0, 0, 0, 6,
      0, 0, 0, 7, 0, 0, 0, 8},
     34, TN_DIS_OK, NONE, {.nsack = 4, .sack = {{1, 2}, {3, 4}, {5, 6}, {7, 8}}}},
    {"SYN set: MSS, SACK-perm, TS, NOP, WS",
     {2, 4, 0x05, 0xb4, 4, 2, 8, 10, 0, 0, 0, 100, 0, 0, 0, 0, 1, 3, 3, 7}, 20, TN_DIS_OK, NONE,
     {.has_mss = true, .mss = 1460, .sack_ok = true, .has_ts = true, .ts_val = 100, .has_ws = true,
      .ws = 7}},
    {"unknown kind 30 (MPTCP) len 4 skipped, then MSS", {30, 4, 0, 0, 2, 4, 0x02, 0x18}, 8,
     TN_DIS_OK, NONE, {.has_mss = true, .mss = 536}},
    {"EOL ends the list (junk after it ignored)", {0, 0xff, 0xff, 0xff}, 4, TN_DIS_OK, NONE, {0}},
    /* content anomalies: still OK */
    {"WS 15", {1, 3, 3, 15}, 4, TN_DIS_OK, A(TCP_WSCALE_BIG), {.has_ws = true, .ws = 15}},
    {"MSS twice: first kept", {2, 4, 0x05, 0xb4, 2, 4, 0x02, 0x18}, 8, TN_DIS_OK, A(TCP_OPT_DUP),
     {.has_mss = true, .mss = 1460}},
    {"TS twice", {8, 10, 0, 0, 0, 1, 0, 0, 0, 2, 8, 10, 0, 0, 0, 3, 0, 0, 0, 4}, 20, TN_DIS_OK,
     A(TCP_OPT_DUP), {.has_ts = true, .ts_val = 1, .ts_ecr = 2}},
    /* bad lengths */
    {"MSS len 3", {2, 3, 5, 1}, 4, TN_DIS_MALFORMED, A(TCP_OPT_LEN_BAD), {0}},
    {"WS len 4", {3, 4, 7, 0}, 4, TN_DIS_MALFORMED, A(TCP_OPT_LEN_BAD), {0}},
    {"SACK-perm len 3, then MSS", {4, 3, 0, 2, 4, 0x05, 0xb4}, 7, TN_DIS_MALFORMED,
     A(TCP_OPT_LEN_BAD), {.has_mss = true, .mss = 1460}},
    {"TS len 8", {8, 8, 0, 0, 0, 1, 0, 0}, 8, TN_DIS_MALFORMED, A(TCP_OPT_LEN_BAD), {0}},
    {"SACK len 9", {5, 9, 0, 0, 0, 1, 0, 0, 0}, 9, TN_DIS_MALFORMED, A(TCP_OPT_LEN_BAD), {0}},
    {"SACK len 2 (no block)", {5, 2}, 2, TN_DIS_MALFORMED, A(TCP_OPT_LEN_BAD), {0}},
    {"len 0", {2, 0, 5, 0xb4}, 4, TN_DIS_MALFORMED, A(TCP_OPT_LEN_ZERO), {0}},
    {"len 1 after a good MSS", {2, 4, 5, 0xb4, 8, 1}, 6, TN_DIS_MALFORMED, A(TCP_OPT_LEN_ZERO),
     {.has_mss = true, .mss = 1460}},
    {"TS runs past the header", {2, 4, 5, 0xb4, 8, 10, 0, 0}, 8, TN_DIS_MALFORMED,
     A(TCP_OPT_LEN_OVER), {.has_mss = true, .mss = 1460}},
    {"SACK len 42 > 40", {5, 42}, 40, TN_DIS_MALFORMED, A(TCP_OPT_LEN_OVER), {0}},
    {"kind in the last byte, no length", {1, 1, 1, 2}, 4, TN_DIS_MALFORMED, A(TCP_OPT_LEN_OVER),
     {0}},
};

START_TEST(test_tcp_options)
{
    const struct opt_case *oc = &opt_cases[_i];
    uint8_t buf[128];
    struct tn_pkt p;
    size_t n = tcp_with_opts(buf, oc->opts, oc->olen);
    int st = dis(TN_LINK_RAW, buf, n, &p);
    ck_assert_msg(st == oc->status, "%s: status %d", oc->what, st);
    ck_assert_msg(p.anoms.bits == oc->anoms, "%s: anoms %#llx", oc->what,
                  (unsigned long long)p.anoms.bits);
    ck_assert_msg(p.kind == TN_PK_TCP, "%s: kind", oc->what);
    ck_assert_uint_eq(p.tcp.seq, 0x11111111);
    ck_assert_uint_eq(p.tcp.ack, 0x22222222);
    ck_assert_uint_eq(p.tcp.hdr_len, n - 20);
    const struct tn_tcp_opts *g = &p.tcp.opt, *w = &oc->want;
    ck_assert_msg(g->has_mss == w->has_mss && g->mss == w->mss, "%s: mss %d %u", oc->what,
                  g->has_mss, g->mss);
    ck_assert_msg(g->has_ws == w->has_ws && g->ws == w->ws, "%s: ws", oc->what);
    ck_assert_msg(g->sack_ok == w->sack_ok, "%s: sack_ok", oc->what);
    ck_assert_msg(g->has_ts == w->has_ts && g->ts_val == w->ts_val && g->ts_ecr == w->ts_ecr,
                  "%s: ts", oc->what);
    ck_assert_msg(g->nsack == w->nsack, "%s: nsack %u", oc->what, g->nsack);
    for (unsigned i = 0; i < w->nsack; i++) {
        ck_assert_uint_eq(g->sack[i].left, w->sack[i].left);
        ck_assert_uint_eq(g->sack[i].right, w->sack[i].right);
    }
}
END_TEST

/* IPv4 10.0.0.1 -> 10.0.0.2, total 80, TTL 64, proto 6; TCP 1000 -> 2000, seq 0x11111111,
 * ack 0x22222222, offset 15 (60 bytes), SYN|ACK, window 8192; 40 bytes of options: MSS 1460,
 * SACK-permitted,
 * TS val 100 ecr 0, NOP, WS 7, NOP, NOP, SACK 2 blocks (10-20, 30-40). */
static const uint8_t ip4_tcp_allopts[] = {
    0x45, 0x00, 0x00, 0x50, 0x00, 0x00, 0x40, 0x00, 0x40, 0x06, 0x00, 0x00,
    0x0a, 0x00, 0x00, 0x01, 0x0a, 0x00, 0x00, 0x02,
    0x03, 0xe8, 0x07, 0xd0, 0x11, 0x11, 0x11, 0x11, 0x22, 0x22, 0x22, 0x22,
    0xf0, 0x12, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x02, 0x04, 0x05, 0xb4, 0x04, 0x02, 0x08, 0x0a, 0x00, 0x00, 0x00, 0x64, 0x00, 0x00, 0x00, 0x00,
    0x01, 0x03, 0x03, 0x07, 0x01, 0x01, 0x05, 0x12, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x00, 0x14,
    0x00, 0x00, 0x00, 0x1e, 0x00, 0x00, 0x00, 0x28,
};

START_TEST(test_tcp_header)
{
    struct tn_pkt p;
    uint8_t buf[128];

    ck_assert_int_eq(dis(TN_LINK_RAW, ip4_tcp_allopts, sizeof ip4_tcp_allopts, &p), TN_DIS_OK);
    ck_assert_uint_eq(p.anoms.bits, 0);
    ck_assert_uint_eq(p.tcp.hdr_len, 60);
    ck_assert_uint_eq(p.tcp.flags, TN_TCP_SYN | TN_TCP_ACK);
    ck_assert_uint_eq(p.tcp.opt.nsack, 2);
    ck_assert_uint_eq(p.tcp.opt.sack[1].left, 30);
    ck_assert_uint_eq(p.tcp.opt.sack[1].right, 40);
    ck_assert_uint_eq(p.tcp.opt.ws, 7);
    ck_assert_uint_eq(p.tcp.opt.ts_val, 100);

    /* options cut by the snap length: fixed header usable, options partial */
    ck_assert_int_eq(dis_cw(NULL, TN_LINK_RAW, ip4_tcp_allopts, 50, sizeof ip4_tcp_allopts, &p),
                     TN_DIS_TRUNCATED);
    ck_assert_uint_eq(p.anoms.bits, A(TCP_OPT_TRUNCATED));
    ck_assert_int_eq(p.kind, TN_PK_TCP);
    ck_assert_uint_eq(p.tcp.seq, 0x11111111);
    ck_assert_uint_eq(p.tcp.win, 8192);
    ck_assert(p.tcp.opt.has_mss && p.tcp.opt.sack_ok && !p.tcp.opt.has_ts);
    ck_assert_uint_eq(p.payload_len, 0);
    ck_assert_uint_eq(p.payload_caplen, 0);

    /* fixed header cut: unusable */
    ck_assert_int_eq(dis_cw(NULL, TN_LINK_RAW, ip4_tcp_allopts, 39, sizeof ip4_tcp_allopts, &p),
                     TN_DIS_TRUNCATED);
    ck_assert_uint_eq(p.anoms.bits, A(TCP_TRUNCATED));
    ck_assert_int_eq(p.kind, TN_PK_OTHER);

    /* data offset 4 */
    size_t n = tcp_with_opts(buf, NULL, 0);
    buf[32] = 0x40;
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, n, &p), TN_DIS_MALFORMED);
    ck_assert_uint_eq(p.anoms.bits, A(TCP_HDR_SHORT));
    ck_assert_int_eq(p.kind, TN_PK_OTHER);

    /* data offset 15 (60 bytes) in a 20-byte IP payload */
    buf[32] = 0xf0;
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, n, &p), TN_DIS_MALFORMED);
    ck_assert_uint_eq(p.anoms.bits, A(TCP_HDR_GT_IP));
    ck_assert_int_eq(p.kind, TN_PK_OTHER);

    /* SYN+FIN, SYN+RST: reported, still TCP */
    static const uint8_t bad_flags[] = {TN_TCP_SYN | TN_TCP_FIN, TN_TCP_SYN | TN_TCP_RST,
                                        TN_TCP_SYN | TN_TCP_FIN | TN_TCP_ACK};
    for (size_t i = 0; i < N(bad_flags); i++) {
        n = tcp_with_opts(buf, NULL, 0);
        buf[33] = bad_flags[i];
        ck_assert_int_eq(dis(TN_LINK_RAW, buf, n, &p), TN_DIS_OK);
        ck_assert_uint_eq(p.anoms.bits, A(TCP_FLAGS_BAD));
        ck_assert_int_eq(p.kind, TN_PK_TCP);
        ck_assert_uint_eq(p.tcp.flags, bad_flags[i]);
    }
    /* FIN+ACK, RST: fine */
    n = tcp_with_opts(buf, NULL, 0);
    buf[33] = TN_TCP_FIN | TN_TCP_ACK | TN_TCP_ECE | TN_TCP_CWR;
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, n, &p), TN_DIS_OK);
    ck_assert_uint_eq(p.anoms.bits, 0);

    /* destination port 0 */
    n = tcp_with_opts(buf, NULL, 0);
    buf[22] = buf[23] = 0;
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, n, &p), TN_DIS_OK);
    ck_assert_uint_eq(p.anoms.bits, A(TCP_PORT_ZERO));
}
END_TEST

/* ---------------------------------------------------------------- DFCP */

/* IPv4 10.1.0.1 -> 10.1.0.2, total 48 (20 + DFCP 20 + 8), TTL 64, proto 253 (DFCP native);
 * DFCP 5000 -> 9253, version 1, type DATA, flags ACKING|ENCODED, n 49, block 7, symbol 3,
 * window 100, k 65536; payload 8 bytes 0xd0..0xd7 (one short symbol). */
static const uint8_t dfcp4_data[] = {
    0x45, 0x00, 0x00, 0x30, 0x00, 0x00, 0x40, 0x00, 0x40, 0xfd, 0x00, 0x00,
    0x0a, 0x01, 0x00, 0x01, 0x0a, 0x01, 0x00, 0x02,
    0x13, 0x88, 0x24, 0x25, 0x10, 0x03, 0x00, 0x31, 0x00, 0x00, 0x00, 0x07,
    0x00, 0x03, 0x00, 0x64, 0x00, 0x01, 0x00, 0x00,
    0xd0, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7,
};
#define DFCP4_HDR_AT 20

/* IPv4 10.1.0.1 -> 10.1.0.2, total 56 (20 + UDP 8 + DFCP 20 + 8), proto 17;
 * UDP 50000 -> 9253, length 36, checksum 0; DFCP header and payload as in dfcp4_data
 * (its own ports 5000 -> 9253). */
static const uint8_t dfcp4_udp_data[] = {
    0x45, 0x00, 0x00, 0x38, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00,
    0x0a, 0x01, 0x00, 0x01, 0x0a, 0x01, 0x00, 0x02,
    0xc3, 0x50, 0x24, 0x25, 0x00, 0x24, 0x00, 0x00,
    0x13, 0x88, 0x24, 0x25, 0x10, 0x03, 0x00, 0x31, 0x00, 0x00, 0x00, 0x07,
    0x00, 0x03, 0x00, 0x64, 0x00, 0x01, 0x00, 0x00,
    0xd0, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7,
};
#define DFCP4_UDP_HDR_AT 28

/* IPv6 2001:db8::1 -> 2001:db8::2, payload 20, next header 253, hop limit 64;
 * DFCP 5000 -> 9253, version 1, BACK, flags ACKING|DECODE_FAILED|LAST_BLOCK (0x0d), n 49,
 * block 0xfffffffe, symbol 0, window 0, k 1420. */
static const uint8_t dfcp6_back[] = {
    0x60, 0x00, 0x00, 0x00, 0x00, 0x14, 0xfd, 0x40, IP6_ADDRS,
    0x13, 0x88, 0x24, 0x25, 0x14, 0x0d, 0x00, 0x31, 0xff, 0xff, 0xff, 0xfe,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x8c,
};

static void assert_dfcp_data_fields(const struct tn_pkt *p)
{
    ck_assert_uint_eq(p->dfcp.version, 1);
    ck_assert_uint_eq(p->dfcp.type, TN_DFCP_T_DATA);
    ck_assert_uint_eq(p->dfcp.flags, TN_DFCP_F_ACKING | TN_DFCP_F_ENCODED);
    ck_assert_uint_eq(p->dfcp.n, 49);
    ck_assert_uint_eq(p->dfcp.block, 7);
    ck_assert_uint_eq(p->dfcp.sym_idx, 3);
    ck_assert_uint_eq(p->dfcp.window, 100);
    ck_assert_uint_eq(p->dfcp.k, 65536);
    ck_assert_uint_eq(p->dfcp.hdr_sport, 5000);
    ck_assert_uint_eq(p->dfcp.hdr_dport, 9253);
    ck_assert_uint_eq(p->payload_len, 8);
    ck_assert_uint_eq(p->payload_caplen, 8);
    ck_assert_uint_eq(p->payload[0], 0xd0);
    ck_assert_uint_eq(p->payload[7], 0xd7);
}

START_TEST(test_dfcp_data)
{
    struct tn_pkt p;
    ck_assert_int_eq(dis(TN_LINK_RAW, dfcp4_data, sizeof dfcp4_data, &p), TN_DIS_OK);
    ck_assert_uint_eq(p.anoms.bits, 0);
    ck_assert_int_eq(p.kind, TN_PK_DFCP);
    ck_assert_uint_eq(p.ipproto, 253);
    ck_assert(!p.dfcp.over_udp);
    ck_assert_uint_eq(p.sport, 5000);
    ck_assert_uint_eq(p.dport, 9253);
    assert_dfcp_data_fields(&p);

    ck_assert_int_eq(dis(TN_LINK_RAW, dfcp4_udp_data, sizeof dfcp4_udp_data, &p), TN_DIS_OK);
    ck_assert_uint_eq(p.anoms.bits, 0);
    ck_assert_int_eq(p.kind, TN_PK_DFCP);
    ck_assert_uint_eq(p.ipproto, 17);
    ck_assert(p.dfcp.over_udp);
    ck_assert_uint_eq(p.sport, 50000);  /* the UDP ports */
    ck_assert_uint_eq(p.dport, 9253);
    assert_dfcp_data_fields(&p);

    ck_assert_int_eq(dis(TN_LINK_IPV6, dfcp6_back, sizeof dfcp6_back, &p), TN_DIS_OK);
    ck_assert_uint_eq(p.anoms.bits, 0);
    ck_assert_int_eq(p.kind, TN_PK_DFCP);
    ck_assert_uint_eq(p.dfcp.type, TN_DFCP_T_BACK);
    ck_assert_uint_eq(p.dfcp.flags, 0x0d);
    ck_assert_uint_eq(p.dfcp.block, 0xfffffffeu);
    ck_assert_uint_eq(p.dfcp.k, 1420);
    ck_assert_uint_eq(p.payload_len, 0);
}
END_TEST

/* Every type 0-15, native (_i even) and over UDP (_i odd).  Control types are sent without
 * payload (IP/UDP lengths shortened); DATA and reserved types keep the 8 bytes. */
START_TEST(test_dfcp_types)
{
    unsigned type = (unsigned)_i / 2;
    bool udp = _i % 2;
    const uint8_t *fix = udp ? dfcp4_udp_data : dfcp4_data;
    size_t n = udp ? sizeof dfcp4_udp_data : sizeof dfcp4_data;
    size_t at = udp ? DFCP4_UDP_HDR_AT : DFCP4_HDR_AT;
    uint8_t buf[64];
    memcpy(buf, fix, n);
    buf[at + 4] = (uint8_t)(0x10 | type);
    bool control = type >= 1 && type <= 7;
    if (control) {
        n -= 8;
        buf[3] = (uint8_t)n;
        if (udp)
            buf[25] = (uint8_t)(n - 20);
        buf[at + 12] = buf[at + 13] = 0;  /* symbol index 0 */
    }
    struct tn_pkt p;
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, n, &p), TN_DIS_OK);
    ck_assert_int_eq(p.kind, TN_PK_DFCP);
    ck_assert_uint_eq(p.dfcp.type, type);
    ck_assert(p.dfcp.over_udp == udp);
    ck_assert_uint_eq(p.anoms.bits, type >= 8 ? A(DFCP_TYPE_RESERVED) : 0);
    ck_assert_uint_eq(p.payload_len, control ? 0 : 8);
    static const char *const names[] = {"DATA", "SYN", "SYNACK", "ACK", "BACK", "FIN", "FINACK",
                                        "RST"};
    char nb[16], want[16];
    if (type < 8)
        snprintf(want, sizeof want, "%s", names[type]);
    else
        snprintf(want, sizeof want, "unknown-%u", type);
    ck_assert_str_eq(tn_dfcp_type_name(type, nb), want);
}
END_TEST

/* style.md section 7: patch one byte of the native DATA fixture. */
static const struct {
    const char *what;
    uint8_t patch_at, patch_val;
    uint64_t anoms;
} dfcp_bad[] = {
    {"reserved type 9", DFCP4_HDR_AT + 4, 0x19, A(DFCP_TYPE_RESERVED)},
    {"version 2", DFCP4_HDR_AT + 4, 0x20, A(DFCP_VERSION)},
    {"version 0", DFCP4_HDR_AT + 4, 0x00, A(DFCP_VERSION)},
    {"idx 0xff03 >= n", DFCP4_HDR_AT + 12, 0xff, A(DFCP_SYMIDX_RANGE)},
    {"idx 49 == n", DFCP4_HDR_AT + 13, 0x31, A(DFCP_SYMIDX_RANGE)},
    {"reserved flag 0x10", DFCP4_HDR_AT + 5, 0x13, A(DFCP_FLAGS_RESERVED)},
    {"reserved flag 0x80", DFCP4_HDR_AT + 5, 0x83, A(DFCP_FLAGS_RESERVED)},
    {"ACK with 8 bytes of payload", DFCP4_HDR_AT + 4, 0x13, A(DFCP_UNEXPECTED_PAYLOAD)},
    {"all known flags", DFCP4_HDR_AT + 5, 0x0f, 0},
    {"idx 48 = n - 1", DFCP4_HDR_AT + 13, 0x30, 0},
};

START_TEST(test_dfcp_malformed)
{
    uint8_t buf[64];
    struct tn_pkt p;
    memcpy(buf, dfcp4_data, sizeof dfcp4_data);
    buf[dfcp_bad[_i].patch_at] = dfcp_bad[_i].patch_val;
    int st = dis(TN_LINK_RAW, buf, sizeof dfcp4_data, &p);
    ck_assert_msg(st == TN_DIS_OK, "%s: status %d", dfcp_bad[_i].what, st);
    ck_assert_msg(p.kind == TN_PK_DFCP, "%s: kind", dfcp_bad[_i].what);
    ck_assert_msg(p.anoms.bits == dfcp_bad[_i].anoms, "%s: anoms %#llx", dfcp_bad[_i].what,
                  (unsigned long long)p.anoms.bits);
}
END_TEST

START_TEST(test_dfcp_short)
{
    uint8_t buf[64];
    struct tn_pkt p;
    /* header cut by the capture */
    ck_assert_int_eq(dis_cw(NULL, TN_LINK_RAW, dfcp4_data, 30, sizeof dfcp4_data, &p),
                     TN_DIS_TRUNCATED);
    ck_assert_uint_eq(p.anoms.bits, A(DFCP_TRUNCATED));
    ck_assert_int_eq(p.kind, TN_PK_OTHER);
    /* IP total 30: only 10 DFCP bytes on the wire */
    memcpy(buf, dfcp4_data, 30);
    buf[3] = 30;
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, 30, &p), TN_DIS_MALFORMED);
    ck_assert_uint_eq(p.anoms.bits, A(DFCP_HDR_GT_IP));
    /* header-only capture of a DATA packet: fine */
    ck_assert_int_eq(dis_cw(NULL, TN_LINK_RAW, dfcp4_data, 40, sizeof dfcp4_data, &p), TN_DIS_OK);
    ck_assert_uint_eq(p.anoms.bits, 0);
    ck_assert_uint_eq(p.payload_len, 8);
    ck_assert_uint_eq(p.payload_caplen, 0);
}
END_TEST

START_TEST(test_dfcp_cfg)
{
    uint8_t buf[64];
    struct tn_pkt p;
    struct tn_dissect_cfg cfg;
    tn_dissect_cfg_default(&cfg);
    ck_assert_uint_eq(cfg.dfcp_ipproto, 253);
    ck_assert_uint_eq(cfg.dfcp_udp_port, 9253);

    /* native on protocol 200: OTHER by default, DFCP when configured */
    memcpy(buf, dfcp4_data, sizeof dfcp4_data);
    buf[9] = 200;
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, sizeof dfcp4_data, &p), TN_DIS_OK);
    ck_assert_int_eq(p.kind, TN_PK_OTHER);
    ck_assert_uint_eq(p.ipproto, 200);
    cfg.dfcp_ipproto = 200;
    ck_assert_int_eq(dis_cw(&cfg, TN_LINK_RAW, buf, sizeof dfcp4_data, sizeof dfcp4_data, &p),
                     TN_DIS_OK);
    ck_assert_int_eq(p.kind, TN_PK_DFCP);
    assert_dfcp_data_fields(&p);
    /* ... and 253 is then no longer DFCP */
    ck_assert_int_eq(dis_cw(&cfg, TN_LINK_RAW, dfcp4_data, sizeof dfcp4_data, sizeof dfcp4_data,
                            &p), TN_DIS_OK);
    ck_assert_int_eq(p.kind, TN_PK_OTHER);

    /* UDP 50000 -> 7000: plain UDP by default, DFCP with port 7000 */
    tn_dissect_cfg_default(&cfg);
    memcpy(buf, dfcp4_udp_data, sizeof dfcp4_udp_data);
    buf[22] = 0x1b;
    buf[23] = 0x58;
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, sizeof dfcp4_udp_data, &p), TN_DIS_OK);
    ck_assert_int_eq(p.kind, TN_PK_OTHER);
    ck_assert_uint_eq(p.dport, 7000);
    cfg.dfcp_udp_port = 7000;
    ck_assert_int_eq(dis_cw(&cfg, TN_LINK_RAW, buf, sizeof dfcp4_udp_data, sizeof dfcp4_udp_data,
                            &p), TN_DIS_OK);
    ck_assert_int_eq(p.kind, TN_PK_DFCP);
    ck_assert_uint_eq(p.dport, 7000);
    ck_assert_uint_eq(p.dfcp.hdr_dport, 9253);  /* a mismatch is not an anomaly */
    ck_assert_uint_eq(p.anoms.bits, 0);

    /* the reverse direction: source port 9253 */
    memcpy(buf, dfcp4_udp_data, sizeof dfcp4_udp_data);
    buf[20] = 0x24;
    buf[21] = 0x25;
    buf[22] = 0xc3;
    buf[23] = 0x50;
    ck_assert_int_eq(dis(TN_LINK_RAW, buf, sizeof dfcp4_udp_data, &p), TN_DIS_OK);
    ck_assert_int_eq(p.kind, TN_PK_DFCP);
    ck_assert_uint_eq(p.sport, 9253);
    ck_assert_uint_eq(p.dport, 50000);
}
END_TEST

/* ---------------------------------------------------------------- name tables */

START_TEST(test_names)
{
    for (int k = 0; k < TN_ANOM_COUNT; k++) {
        const char *n = tn_anom_name((enum tn_anom_kind)k);
        ck_assert_ptr_nonnull(n);
        ck_assert_ptr_nonnull(strchr(n, '.'));
        ck_assert_uint_gt(strlen(tn_anom_text((enum tn_anom_kind)k)), 5);
        for (int j = 0; j < k; j++)
            ck_assert_str_ne(n, tn_anom_name((enum tn_anom_kind)j));
    }
    ck_assert_str_eq(tn_anom_name(TN_ANOM_TCP_OPT_LEN_ZERO), "tcp.opt_len0");
    ck_assert_str_eq(tn_anom_text(TN_ANOM_TCP_OPT_LEN_ZERO), "TCP option length 0 or 1");
    ck_assert_str_eq(tn_anom_name(TN_ANOM_COUNT), "unknown");
    char b[16];
    ck_assert_str_eq(tn_dfcp_type_name(4, b), "BACK");
    ck_assert_str_eq(tn_dfcp_type_name(15, b), "unknown-15");
    ck_assert_str_eq(tn_dfcp_type_name(255, b), "unknown-255");
    struct tn_addr none = {0};
    char ab[48];
    ck_assert_str_eq(tn_addr_str(&none, ab, sizeof ab), "-");
    struct tn_addr v6 = {.family = 6, .a = {0xfe, 0x80, [15] = 1}};
    ck_assert_str_eq(tn_addr_str(&v6, ab, sizeof ab), "fe80::1");
    struct tn_addr v4 = {.family = 4, .a = {255, 255, 255, 255}};
    ck_assert_str_eq(tn_addr_str(&v4, ab, sizeof ab), "255.255.255.255");
}
END_TEST

/* ---------------------------------------------------------------- truncation sweep */

/* Dissect every prefix 0..len-1 of a valid frame (wire length len) from an exact-size copy.
 * Below need (the end of the last header, counted by hand) the answer must be TRUNCATED; from
 * need on only payload is missing, so it must be OK and agree with the full frame. */
static void sweep_one(const char *what, int lt, const uint8_t *frame, size_t len, size_t need)
{
    struct tn_pkt full, p;
    int st = dis(lt, frame, len, &full);
    ck_assert_msg(st == TN_DIS_OK, "%s: full frame status %d", what, st);
    ck_assert_msg(need <= len, "%s: need %zu > len %zu", what, need, len);
    for (size_t l = 0; l < len; l++) {
        st = dis_cw(NULL, lt, frame, l, len, &p);
        if (l < need) {
            ck_assert_msg(st == TN_DIS_TRUNCATED, "%s: prefix %zu: status %d (anoms %#llx)", what,
                          l, st, (unsigned long long)p.anoms.bits);
            ck_assert_msg(p.anoms.bits != 0, "%s: prefix %zu: truncated without anomaly", what, l);
            continue;
        }
        ck_assert_msg(st == TN_DIS_OK, "%s: prefix %zu (need %zu): status %d (anoms %#llx)", what,
                      l, need, st, (unsigned long long)p.anoms.bits);
        ck_assert_msg(p.kind == full.kind, "%s: prefix %zu: kind %d", what, l, p.kind);
        ck_assert_msg(p.anoms.bits == full.anoms.bits, "%s: prefix %zu: anoms", what, l);
        ck_assert_msg(p.sport == full.sport && p.dport == full.dport, "%s: prefix %zu: ports", what,
                      l);
        ck_assert_msg(memcmp(p.src.a, full.src.a, 16) == 0 && p.ipproto == full.ipproto,
                      "%s: prefix %zu: addresses", what, l);
        ck_assert_msg(p.tcp.seq == full.tcp.seq && p.tcp.ack == full.tcp.ack &&
                          p.tcp.flags == full.tcp.flags && p.tcp.opt.mss == full.tcp.opt.mss &&
                          p.tcp.opt.nsack == full.tcp.opt.nsack,
                      "%s: prefix %zu: tcp", what, l);
        ck_assert_msg(p.dfcp.type == full.dfcp.type && p.dfcp.block == full.dfcp.block &&
                          p.dfcp.k == full.dfcp.k,
                      "%s: prefix %zu: dfcp", what, l);
        ck_assert_msg(p.payload_len == full.payload_len, "%s: prefix %zu: payload_len", what, l);
        ck_assert_msg(p.payload_caplen <= full.payload_caplen, "%s: prefix %zu: caplen", what, l);
        ck_assert_msg(p.tunnels == full.tunnels && p.vlan_depth == full.vlan_depth &&
                          p.mpls_depth == full.mpls_depth,
                      "%s: prefix %zu: encapsulation", what, l);
    }
}

START_TEST(test_sweep_links)
{
    const struct link_case *lc = &link_cases[_i];
    uint8_t buf[256];
    size_t n = link_frame(lc, buf, sizeof buf);
    sweep_one(lc->what, lc->linktype, buf, n, lc->hlen + bodies[lc->body].need);
}
END_TEST

START_TEST(test_sweep_tunnels)
{
    const struct tun_case *tc = &tun_cases[_i];
    uint8_t buf[256];
    size_t n = cat(buf, sizeof buf, tc->parts);
    sweep_one(tc->what, tc->linktype, buf, n, tc->need);
}
END_TEST

/* IPv4 10.0.0.1 -> 10.0.0.2, total 32, proto 17; UDP 53 -> 53, length 12; 4 bytes of DNS */
static const uint8_t ip4_udp_dns[] = {
    0x45, 0x00, 0x00, 0x20, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00,
    0x0a, 0x00, 0x00, 0x01, 0x0a, 0x00, 0x00, 0x02,
    0x00, 0x35, 0x00, 0x35, 0x00, 0x0c, 0x00, 0x00, 0x12, 0x34, 0x01, 0x00,
};

static const struct {
    const char *what;
    int linktype;
    const uint8_t *b;
    size_t n, need;
} sweep_misc[] = {
    {"ipv4 options", TN_LINK_RAW, ip4_opts, sizeof ip4_opts, 48},
    {"tcp all options", TN_LINK_RAW, ip4_tcp_allopts, sizeof ip4_tcp_allopts, 80},
    {"ipv6 ext chain", TN_LINK_IPV6, ip6_ext, sizeof ip6_ext, 92},
    {"ipv6 ah", TN_LINK_IPV6, ip6_ah, sizeof ip6_ah, 84},
    {"ipv6 later fragment", TN_LINK_IPV6, ip6_frag_later, sizeof ip6_frag_later, 48},
    {"ipv6 jumbogram", TN_LINK_IPV6, ip6_jumbo, sizeof ip6_jumbo, 68},
    {"ipv6 no next header", TN_LINK_IPV6, ip6_nonext, sizeof ip6_nonext, 40},
    {"dfcp native ipv4", TN_LINK_RAW, dfcp4_data, sizeof dfcp4_data, 40},
    {"dfcp over udp", TN_LINK_RAW, dfcp4_udp_data, sizeof dfcp4_udp_data, 48},
    {"dfcp native ipv6", TN_LINK_IPV6, dfcp6_back, sizeof dfcp6_back, 60},
    {"udp dns", TN_LINK_RAW, ip4_udp_dns, sizeof ip4_udp_dns, 28},
    {"gre version 1", TN_LINK_RAW, ip4_gre_v1, sizeof ip4_gre_v1, 24},
    {"arp", TN_LINK_ETHERNET, eth_arp, sizeof eth_arp, 14},
    {"802.3 stp", TN_LINK_ETHERNET, eth_stp, sizeof eth_stp, 17},
};

START_TEST(test_sweep_misc)
{
    sweep_one(sweep_misc[_i].what, sweep_misc[_i].linktype, sweep_misc[_i].b, sweep_misc[_i].n,
              sweep_misc[_i].need);
}
END_TEST

/* Deterministic mutations of every sweep fixture (xorshift32, fixed seed): whatever the bytes,
 * the status is one of the three, a non-OK status names an anomaly, and a usable record's payload
 * lies inside the captured bytes.  Under ASan this is a small in-tree fuzz run. */
static uint32_t xorshift32(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

START_TEST(test_mutations)
{
    uint32_t seed = 0x9e3779b9u ^ (uint32_t)_i;
    uint8_t buf[256];
    struct tn_pkt p;
    for (int round = 0; round < 3000; round++) {
        const uint8_t *b;
        size_t n;
        int lt;
        unsigned pick = xorshift32(&seed) % (unsigned)(N(sweep_misc) + N(link_cases) + N(tun_cases));
        if (pick < N(sweep_misc)) {
            b = sweep_misc[pick].b;
            n = sweep_misc[pick].n;
            lt = sweep_misc[pick].linktype;
            memcpy(buf, b, n);
        } else if (pick < N(sweep_misc) + N(link_cases)) {
            const struct link_case *lc = &link_cases[pick - N(sweep_misc)];
            n = link_frame(lc, buf, sizeof buf);
            lt = lc->linktype;
        } else {
            const struct tun_case *tc = &tun_cases[pick - N(sweep_misc) - N(link_cases)];
            n = cat(buf, sizeof buf, tc->parts);
            lt = tc->linktype;
        }
        unsigned flips = 1 + xorshift32(&seed) % 4;
        for (unsigned f = 0; f < flips; f++)
            buf[xorshift32(&seed) % n] = (uint8_t)xorshift32(&seed);
        size_t cap = xorshift32(&seed) % 4 == 0 ? xorshift32(&seed) % (n + 1) : n;
        size_t wire = xorshift32(&seed) % 8 == 0 ? xorshift32(&seed) % (n + 1) : n;
        int st = dis_cw(NULL, lt, buf, cap, wire, &p);
        ck_assert_int_ge(st, TN_DIS_OK);
        ck_assert_int_le(st, TN_DIS_MALFORMED);
        if (st != TN_DIS_OK)
            ck_assert_uint_ne(p.anoms.bits, 0);
        if (p.kind != TN_PK_OTHER) {
            ck_assert(p.ipver == 4 || p.ipver == 6);
            ck_assert_ptr_nonnull(p.payload);
            ck_assert(p.payload >= g_copy && p.payload + p.payload_caplen <= g_copy + cap);
            ck_assert_uint_le(p.payload_caplen, p.payload_len);
        }
    }
}
END_TEST

/* ---------------------------------------------------------------- suites */

static TCase *tcase(Suite *s, const char *name)
{
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return tc;
}

Suite *tn_dissect_suite(void)
{
    Suite *s = suite_create("dissect");
    TCase *tc = tcase(s, "link");
    tcase_add_loop_test(tc, test_link_types, 0, (int)N(link_cases));
    tcase_add_test(tc, test_link_fields_ip4);
    tcase_add_test(tc, test_link_fields_ip6);
    tcase_add_test(tc, test_link_other);
    tcase_add_test(tc, test_ip_version_mismatch);
    tcase_add_test(tc, test_vlan_depth);
    tcase_add_test(tc, test_mpls_truncated);
    tcase_add_test(tc, test_ethernet_padding);
    tcase_add_loop_test(tc, test_pppoe_lengths, 0, (int)N(pppoe_cases));
    tcase_add_test(tc, test_names);
    tc = tcase(s, "ip");
    tcase_add_test(tc, test_ip4_options);
    tcase_add_test(tc, test_ip4_lengths);
    tcase_add_loop_test(tc, test_ip_len_gt_wire, 0, (int)N(len_cases));
    tcase_add_test(tc, test_ip4_fragments);
    tcase_add_test(tc, test_ip6_ext_chain);
    tcase_add_test(tc, test_ip6_ext_bad);
    tc = tcase(s, "tunnel");
    tcase_add_loop_test(tc, test_tunnels, 0, (int)N(tun_cases));
    tcase_add_test(tc, test_tunnel_other);
    tcase_add_test(tc, test_tunnel_depth);
    tc = tcase(s, "sweep");
    tcase_add_loop_test(tc, test_sweep_links, 0, (int)N(link_cases));
    tcase_add_loop_test(tc, test_sweep_tunnels, 0, (int)N(tun_cases));
    tcase_add_loop_test(tc, test_sweep_misc, 0, (int)N(sweep_misc));
    tcase_add_loop_test(tc, test_mutations, 0, 4);
    tc = tn_test_corpus_tcase(s, "dissect-corpus");   /* whole third-party files */
    if (tc) {
        tcase_add_checked_fixture(tc, NULL, teardown);
        tcase_set_timeout(tc, 60);
        tcase_add_loop_test(tc, test_pppoe_corpus, 0, (int)N(pppoe_files));
        tcase_add_loop_test(tc, test_corpus_len_gt_wire, 0, (int)N(corpus_tcp));
    }
    return s;
}

Suite *tn_dissect_tcp_suite(void)
{
    Suite *s = suite_create("dissect_tcp");
    TCase *tc = tcase(s, "tcp");
    tcase_add_loop_test(tc, test_tcp_options, 0, (int)N(opt_cases));
    tcase_add_test(tc, test_tcp_header);
    return s;
}

Suite *tn_dissect_dfcp_suite(void)
{
    Suite *s = suite_create("dissect_dfcp");
    TCase *tc = tcase(s, "dfcp");
    tcase_add_test(tc, test_dfcp_data);
    tcase_add_loop_test(tc, test_dfcp_types, 0, 32);
    tcase_add_loop_test(tc, test_dfcp_malformed, 0, (int)N(dfcp_bad));
    tcase_add_test(tc, test_dfcp_short);
    tcase_add_test(tc, test_dfcp_cfg);
    return s;
}
