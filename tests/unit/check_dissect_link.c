/* check_dissect_link.c - the link layers on hand-built frames: every row of the link table,
 * Ethernet tag and label stacks, PPPoE lengths (with corpus packets), LLC/SNAP, Linux cooked,
 * null/loop, PPP and HDLC, FDDI, NFLOG, PPI, 802.11 and radiotap; the truncation sweep and the
 * mutations over these frames.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_helper.h"
#include "dissect_test.h"

/* ---------------------------------------------------------------- link-layer headers */

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
/* NFLOG: header (AF_INET, version 0, resource 0), then the payload TLV: length 49 = 4 + the 45
 * bytes of ip4_data, type 9 (both little-endian) */
static const uint8_t nflog_ip4[] = {0x02, 0x00, 0x00, 0x00, 0x31, 0x00, 0x09, 0x00};
/* ARCNET (Linux), from tcpdump-tests/arcnet-rfc1201-arp-icmp-http.pcap packet 1: source 0xbe,
 * destination 0x50, offset 0xa8e7, protocol 212 (IP, RFC 1201), split flag 0, sequence 0x0166 */
static const uint8_t arcnet_1201_ip4[] = {0xbe, 0x50, 0xa8, 0xe7, 0xd4, 0x00, 0x01, 0x66};
/* from arcnet-rfc1051-arp-icmp-http.pcap: source 0x50, destination 0xbe, offset 0x0608, protocol
 * 240 (IP, RFC 1051: no split flag or sequence) */
static const uint8_t arcnet_1051_ip4[] = {0x50, 0xbe, 0x06, 0x08, 0xf0};
/* source 1, destination 2, offset 0, protocol 196 (IPv6, RFC 2497), split flag 0, sequence 1 */
static const uint8_t arcnet_ip6[] = {0x01, 0x02, 0x00, 0x00, 0xc4, 0x00, 0x00, 0x01};
static const uint8_t no_hdr[1];

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
    {"nflog ipv4", TN_LINK_NFLOG, nflog_ip4, sizeof nflog_ip4, B_DATA4, 0, 0},
    {"arcnet rfc 1201", TN_LINK_ARCNET_LINUX, arcnet_1201_ip4, sizeof arcnet_1201_ip4, B_SYN4, 0, 0},
    {"arcnet rfc 1051", TN_LINK_ARCNET_LINUX, arcnet_1051_ip4, sizeof arcnet_1051_ip4, B_DATA4, 0, 0},
    {"arcnet ipv6", TN_LINK_ARCNET_LINUX, arcnet_ip6, sizeof arcnet_ip6, B_DATA6, 0, 0},
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

struct pppoe_count {
    const struct pppoe_file *pf;
    long pk_a, bytes_a, pk_b, bytes_b, other;
};

static void count_pppoe(const struct tn_pkt *p, void *ctx)
{
    struct pppoe_count *n = ctx;
    if (p->kind == TN_PK_TCP && p->sport == n->pf->port_a) {
        n->pk_a++;
        n->bytes_a += p->payload_len;
    } else if (p->kind == TN_PK_TCP && p->sport == n->pf->port_b) {
        n->pk_b++;
        n->bytes_b += p->payload_len;
    } else {
        n->other++;
    }
}

START_TEST(test_pppoe_corpus)
{
    const struct pppoe_file *pf = &pppoe_files[_i];
    struct pppoe_count n = {.pf = pf};
    dissect_corpus_file(pf->file, count_pppoe, &n);
    ck_assert_msg(n.other == 0, "%s: %ld packets not TCP of the connection", pf->file, n.other);
    ck_assert_int_eq(n.pk_a, pf->pk_a);
    ck_assert_int_eq(n.bytes_a, pf->bytes_a);
    ck_assert_int_eq(n.pk_b, pf->pk_b);
    ck_assert_int_eq(n.bytes_b, pf->bytes_b);
}
END_TEST

/* Every row of the dissector's link table (tcpdump's printers[]): link_cases must hold a frame
 * of that link type, which dissects to the TCP segment inside; the same frame cut in the middle
 * of its IP header is TRUNCATED with an anomaly counted, and the rows are unique. */
START_TEST(test_link_table)
{
    const struct tn_link_info *li = tn_dissect_link_info((size_t)_i);
    ck_assert_ptr_nonnull(li);
    ck_assert_ptr_nonnull(li->name);
    ck_assert_uint_gt(strlen(li->name), 2);
    ck_assert(tn_dissect_link_supported(li->linktype));
    for (size_t j = 0; j < (size_t)_i; j++)
        ck_assert_int_ne(tn_dissect_link_info(j)->linktype, li->linktype);
    const struct link_case *lc = NULL;
    for (size_t k = 0; k < N(link_cases) && !lc; k++)
        if (link_cases[k].linktype == li->linktype)
            lc = &link_cases[k];
    ck_assert_msg(lc, "link type %d (%s) has a row in the link table but no frame in link_cases",
                  li->linktype, li->name);
    uint8_t buf[256];
    size_t n = link_frame(lc, buf, sizeof buf);
    struct tn_pkt p;
    ck_assert_msg(dis(li->linktype, buf, n, &p) == TN_DIS_OK, "%s", li->name);
    ck_assert_msg(p.kind == TN_PK_TCP && p.anoms.bits == 0, "%s: kind %d anoms %#llx", li->name,
                  p.kind, (unsigned long long)p.anoms.bits);
    size_t cut = lc->hlen + 10;
    int st = dis_cw(NULL, li->linktype, buf, cut, n, &p);
    ck_assert_msg(st == TN_DIS_TRUNCATED, "%s cut at %zu: status %d", li->name, cut, st);
    ck_assert_msg(p.anoms.bits != 0, "%s cut at %zu: no anomaly", li->name, cut);
    ck_assert_int_eq(p.kind, TN_PK_OTHER);
    ck_assert_ptr_null(tn_dissect_link_info(tn_dissect_link_count()));
}
END_TEST

/* ---------------------------------------------------------------- truncation sweep */

static const struct frame_case sweep_link[] = {
    {"arp", TN_LINK_ETHERNET, eth_arp, sizeof eth_arp, 14},
    {"802.3 stp", TN_LINK_ETHERNET, eth_stp, sizeof eth_stp, 17},
};

START_TEST(test_sweep_links)
{
    const struct link_case *lc = &link_cases[_i];
    uint8_t buf[256];
    size_t n = link_frame(lc, buf, sizeof buf);
    sweep_one(lc->what, lc->linktype, buf, n, lc->hlen + bodies[lc->body].need);
}
END_TEST

START_TEST(test_sweep_link_other)
{
    sweep_case(&sweep_link[_i]);
}
END_TEST

/* Frame i of link_cases, then of sweep_link. */
static size_t link_build(const void *ctx, size_t i, uint8_t *buf, size_t cap, int *lt)
{
    (void)ctx;
    if (i >= N(link_cases))
        return frame_case_copy(&sweep_link[i - N(link_cases)], buf, cap, lt);
    *lt = link_cases[i].linktype;
    return link_frame(&link_cases[i], buf, cap);
}

START_TEST(test_link_mutations)
{
    mutate_frames(link_build, NULL, N(link_cases) + N(sweep_link), MUTATION_SEED ^ (uint32_t)_i);
}
END_TEST

Suite *tn_dissect_link_suite(void)
{
    Suite *s = suite_create("dissect_link");
    TCase *tc = dissect_tcase(s, "link");
    tcase_add_loop_test(tc, test_link_table, 0, (int)tn_dissect_link_count());
    tcase_add_loop_test(tc, test_link_types, 0, (int)N(link_cases));
    tcase_add_test(tc, test_link_fields_ip4);
    tcase_add_test(tc, test_link_fields_ip6);
    tcase_add_test(tc, test_link_other);
    tcase_add_test(tc, test_ip_version_mismatch);
    tcase_add_test(tc, test_vlan_depth);
    tcase_add_test(tc, test_mpls_truncated);
    tcase_add_test(tc, test_ethernet_padding);
    tcase_add_loop_test(tc, test_pppoe_lengths, 0, (int)N(pppoe_cases));
    tc = dissect_tcase(s, "sweep");
    tcase_add_loop_test(tc, test_sweep_links, 0, (int)N(link_cases));
    tcase_add_loop_test(tc, test_sweep_link_other, 0, (int)N(sweep_link));
    tcase_add_loop_test(tc, test_link_mutations, 0, 4);
    tc = tn_test_corpus_tcase(s, "dissect-corpus");   /* whole third-party files */
    if (tc) {
        tcase_add_checked_fixture(tc, NULL, dissect_teardown);
        tcase_set_timeout(tc, 60);
        tcase_add_loop_test(tc, test_pppoe_corpus, 0, (int)N(pppoe_files));
    }
    return s;
}
