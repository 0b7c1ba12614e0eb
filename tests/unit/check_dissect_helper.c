/* check_dissect_helper.c - the helpers of dissect_test.h: dissection from exact-size copies, the
 * truncation sweep and the mutations every dissect test file runs over its frames.
 * (Named check_* so the tests' source glob picks it up; it holds no suite.) */
#include <pcap/pcap.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_helper.h"
#include "dissect_test.h"

uint8_t *g_copy;

static void copy_free(void)
{
    free(g_copy);
    g_copy = NULL;
}

int dis_cw(const struct tn_dissect_cfg *cfg, int lt, const uint8_t *b, size_t caplen, size_t wirelen,
           struct tn_pkt *p)
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

int dis(int lt, const uint8_t *b, size_t len, struct tn_pkt *p)
{
    return dis_cw(NULL, lt, b, len, len, p);
}

size_t cat(uint8_t *out, size_t cap, const struct part *parts)
{
    size_t n = 0;
    for (; parts->b; parts++) {
        ck_assert_uint_le(n + parts->n, cap);
        memcpy(out + n, parts->b, parts->n);
        n += parts->n;
    }
    return n;
}

void dissect_teardown(void)
{
    copy_free();
}

void assert_ip4(const struct tn_addr *a, uint8_t b0, uint8_t b1, uint8_t b2, uint8_t b3)
{
    ck_assert_uint_eq(a->family, 4);
    ck_assert_uint_eq(a->a[0], b0);
    ck_assert_uint_eq(a->a[1], b1);
    ck_assert_uint_eq(a->a[2], b2);
    ck_assert_uint_eq(a->a[3], b3);
}

void assert_addr_str(const struct tn_addr *a, const char *want)
{
    char buf[48];
    ck_assert_str_eq(tn_addr_str(a, buf, sizeof buf), want);
}


TCase *dissect_tcase(Suite *s, const char *name)
{
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, NULL, dissect_teardown);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return tc;
}

void sweep_one(const char *what, int lt, const uint8_t *frame, size_t len, size_t need)
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

static uint32_t xorshift32(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

void sweep_case(const struct frame_case *fc)
{
    sweep_one(fc->what, fc->linktype, fc->b, fc->n, fc->need);
}

size_t frame_case_copy(const struct frame_case *fc, uint8_t *buf, size_t cap, int *lt)
{
    ck_assert_uint_le(fc->n, cap);
    memcpy(buf, fc->b, fc->n);
    *lt = fc->linktype;
    return fc->n;
}

size_t frame_cases_build(const void *cases, size_t i, uint8_t *buf, size_t cap, int *lt)
{
    return frame_case_copy(&((const struct frame_case *)cases)[i], buf, cap, lt);
}

void mutate_frames(frame_builder *build, const void *ctx, size_t n, uint32_t seed)
{
    uint8_t buf[256];
    struct tn_pkt p;
    for (int round = 0; round < 3000; round++) {
        int lt;
        size_t len = build(ctx, xorshift32(&seed) % n, buf, sizeof buf, &lt);
        unsigned flips = 1 + xorshift32(&seed) % 4;
        for (unsigned f = 0; f < flips; f++)
            buf[xorshift32(&seed) % len] = (uint8_t)xorshift32(&seed);
        size_t cap = xorshift32(&seed) % 4 == 0 ? xorshift32(&seed) % (len + 1) : len;
        size_t wire = xorshift32(&seed) % 8 == 0 ? xorshift32(&seed) % (len + 1) : len;
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

long dissect_corpus_file(const char *rel, void (*visit)(const struct tn_pkt *p, void *ctx),
                         void *ctx)
{
    char ebuf[PCAP_ERRBUF_SIZE];
    const char *path = tn_test_corpus_path(rel);
    pcap_t *pc = pcap_open_offline(path, ebuf);
    ck_assert_msg(pc != NULL, "%s: %s", path, ebuf);
    struct tn_dissect_cfg cfg;
    tn_dissect_cfg_default(&cfg);
    struct pcap_pkthdr *h;
    const u_char *data;
    long frames = 0;
    struct tn_pkt p;
    while (pcap_next_ex(pc, &h, &data) == 1) {
        struct tn_time ts = {h->ts.tv_sec, (uint32_t)h->ts.tv_usec * 1000u};
        tn_dissect(&cfg, pcap_datalink(pc), data, h->caplen, h->len, ts, (uint64_t)++frames, &p);
        visit(&p, ctx);
    }
    pcap_close(pc);
    return frames;
}
