/* dissect_test.h - what the dissect test files share: the dissection helpers (check_dissect_helper.c)
 * and the frames more than one layer's tests are built from.
 *
 * Checksums in the fixtures are 0: the dissector does not verify them (offload makes captured
 * checksums meaningless).  Expected values are decoded by hand from the bytes in the comments.
 * Every file runs its frames through the truncation sweep and the mutations below; run them with
 * CK_FORK=no under ASan: each prefix is copied into an exact-size heap buffer, so any overread
 * aborts.
 */
#ifndef TN_TEST_DISSECT_TEST_H
#define TN_TEST_DISSECT_TEST_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "dissect.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define A(x) ((uint64_t)1 << TN_ANOM_##x)

/* The exact-size copy the last dissection read (freed by the next one and by the teardown). */
extern uint8_t *g_copy;

/* Dissect the first caplen bytes of b (wire length wirelen) from an exact-size heap copy, and
 * check what every record must carry (number, time stamp, lengths, no anomaly bit past the
 * list).  cfg NULL: the defaults. */
int dis_cw(const struct tn_dissect_cfg *cfg, int lt, const uint8_t *b, size_t caplen,
           size_t wirelen, struct tn_pkt *p);
/* dis_cw with the defaults and the whole frame captured. */
int dis(int lt, const uint8_t *b, size_t len, struct tn_pkt *p);

struct part {
    const uint8_t *b;
    size_t n;
};
#define P(a) {a, sizeof a}

/* Concatenate parts (ending with {NULL, 0}) into out; returns the length. */
size_t cat(uint8_t *out, size_t cap, const struct part *parts);

void assert_ip4(const struct tn_addr *a, uint8_t b0, uint8_t b1, uint8_t b2, uint8_t b3);
void assert_addr_str(const struct tn_addr *a, const char *want);

/* Frees g_copy: the checked teardown of every dissect test case. */
void dissect_teardown(void);

/* A test case of suite s with the teardown that frees g_copy and a 60 s timeout. */
TCase *dissect_tcase(Suite *s, const char *name);

/* A valid frame, for the truncation sweep and the mutations. */
struct frame_case {
    const char *what;
    int linktype;
    const uint8_t *b;
    size_t n, need;    /* need: bytes up to the end of the last header, counted by hand */
};

/* Dissect every prefix 0..len-1 of a valid frame (wire length len) from an exact-size copy.
 * Below need the answer must be TRUNCATED with an anomaly; from need on only payload is missing,
 * so it must be OK and agree with the full frame. */
void sweep_one(const char *what, int lt, const uint8_t *frame, size_t len, size_t need);

/* sweep_one over a frame_case. */
void sweep_case(const struct frame_case *fc);

/* Builds frame i of a test file's cases (ctx) into buf (cap bytes); returns its length, *lt its
 * link type. */
typedef size_t frame_builder(const void *ctx, size_t i, uint8_t *buf, size_t cap, int *lt);

/* Copies fc's frame into buf (a frame_builder for a plain table: frame_cases_build). */
size_t frame_case_copy(const struct frame_case *fc, uint8_t *buf, size_t cap, int *lt);
size_t frame_cases_build(const void *cases, size_t i, uint8_t *buf, size_t cap, int *lt);

/* 3000 deterministic mutations (xorshift32 from seed) of frames picked from build(ctx, 0..n-1):
 * whatever the bytes, the status is one of the three, a non-OK status names an anomaly, and a
 * usable record's payload lies inside the captured bytes.  Under ASan this is a small in-tree
 * fuzz run. */
#define MUTATION_SEED 0x9e3779b9u
void mutate_frames(frame_builder *build, const void *ctx, size_t n, uint32_t seed);

/* Dissect every frame of the corpus file rel with libpcap's reader (frames numbered from 1) and
 * hand each record to visit; returns the number of frames. */
long dissect_corpus_file(const char *rel, void (*visit)(const struct tn_pkt *p, void *ctx),
                         void *ctx);

/* ---------------------------------------------------------------- network-layer bodies
 * (static in a header: each test file gets its own copy, and gcc does not warn about the ones a
 * file does not use) */

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


enum body { B_SYN4, B_DATA4, B_DATA6 };

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

/* ---------------------------------------------------------------- shared link and IPv6 parts */

/* Ethernet 66:77:88:99:aa:bb -> 00:11:22:33:44:55, type 0x0800 (IPv4) */
static const uint8_t eth_ip4[] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                                  0x88, 0x99, 0xaa, 0xbb, 0x08, 0x00};

/* IPv6 addresses 2001:db8::1 -> 2001:db8::2 */
#define IP6_ADDRS                                                                          \
    0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x20, 0x01, 0x0d, 0xb8, \
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02

#endif
