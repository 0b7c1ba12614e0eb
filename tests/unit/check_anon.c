/* check_anon.c - Crypto-PAn against the reference implementation's published vectors, prefix
 * preservation on generated address sets, the cache, the key file checks and the time stamp
 * rebasing of packet records. */
#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "anon.h"

/* The reference implementation's key (Crypto-PAn 1.0 distribution, sample.cpp) and pairs from
 * its sample_trace_raw.dat / sample_trace_sanitized.dat: public test data of the paper's code,
 * the same as ../shared/cryptopan-vectors.tsv, kept here so a bare clone checks them too. */
static const uint8_t ref_key[32] = {21,  34,  23,  141, 51,  164, 207, 128, 19,  10, 91,
                                    22,  73,  144, 125, 16,  216, 152, 143, 131, 121, 121,
                                    101, 39,  98,  87,  76,  45,  42,  132, 34,  2};
static const char *const ref_pairs[][2] = {
    {"128.11.68.132", "135.242.180.132"}, {"156.29.3.236", "147.225.12.42"},
    {"192.41.57.43", "252.222.221.184"},  {"198.51.77.238", "249.18.186.254"},
    {"204.29.20.4", "243.33.20.123"},     {"207.135.65.238", "241.202.129.222"},
    {"208.234.120.210", "227.154.67.17"}, {"209.68.60.238", "226.184.220.233"},
    {"212.206.130.201", "228.69.242.193"}, {"216.32.132.250", "235.192.139.38"},
    {"24.7.198.88", "100.10.6.25"},       {"63.97.7.140", "95.97.9.123"},
};

static uint32_t ip4(const char *s)
{
    struct in_addr a;
    ck_assert_int_eq(inet_pton(AF_INET, s, &a), 1);
    return ntohl(a.s_addr);
}

static void check_pair4(struct tn_anon *a, const char *in, const char *want)
{
    uint32_t got = tn_anon_ip4(a, ip4(in));
    char buf[INET_ADDRSTRLEN];
    struct in_addr o = {htonl(got)};
    inet_ntop(AF_INET, &o, buf, sizeof buf);
    ck_assert_msg(strcmp(buf, want) == 0, "%s -> %s, reference says %s", in, buf, want);
    /* the cached path gives the same */
    uint8_t b[4] = {(uint8_t)(ip4(in) >> 24), (uint8_t)(ip4(in) >> 16), (uint8_t)(ip4(in) >> 8),
                    (uint8_t)ip4(in)};
    tn_anon_addr(a, 4, b, NULL);
    ck_assert_uint_eq((uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3], got);
}

START_TEST(test_reference_vectors)
{
    struct tn_anon *a = tn_anon_new(ref_key);
    for (size_t i = 0; i < sizeof ref_pairs / sizeof ref_pairs[0]; i++)
        check_pair4(a, ref_pairs[i][0], ref_pairs[i][1]);
    tn_anon_free(a);
}
END_TEST

/* ../shared/cryptopan-vectors.tsv: "# key<TAB>k0,k1,...,k31" and "original<TAB>anonymized". */
START_TEST(test_shared_vectors)
{
    FILE *f = fopen(TN_SOURCE_DIR "/../shared/cryptopan-vectors.tsv", "r");
    if (!f) {
        fprintf(stderr, "test_shared_vectors: skipped (no ../shared/cryptopan-vectors.tsv)\n");
        return;
    }
    char line[512];
    uint8_t key[32];
    int nkey = 0, npairs = 0;
    struct tn_anon *a = NULL;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "# key\t", 6) == 0) {
            char *p = line + 6;
            for (nkey = 0; nkey < 32 && *p; nkey++) {
                key[nkey] = (uint8_t)strtoul(p, &p, 10);
                if (*p == ',')
                    p++;
            }
            continue;
        }
        char in[64], out[64];
        if (line[0] == '#' || sscanf(line, "%63s %63s", in, out) != 2 || strcmp(in, "original") == 0)
            continue;
        ck_assert_int_eq(nkey, 32);
        if (!a)
            a = tn_anon_new(key);
        check_pair4(a, in, out);
        npairs++;
    }
    fclose(f);
    ck_assert_int_gt(npairs, 0);
    tn_anon_free(a);
}
END_TEST

/* yacryptopan's published example (README: key "32-char-str-for-AES-key-and-pad."): an IPv4
 * pair, and its 128-round IPv6 construction, which is ours. */
START_TEST(test_yacryptopan_vectors)
{
    struct tn_anon *a = tn_anon_new((const uint8_t *)"32-char-str-for-AES-key-and-pad.");
    check_pair4(a, "192.0.2.1", "192.0.125.244");
    uint8_t in[16], out[16], want[16];
    ck_assert_int_eq(inet_pton(AF_INET6, "2001:db8::1", in), 1);
    ck_assert_int_eq(inet_pton(AF_INET6, "27fe:8bc7:fee:1e:1e1f:f0fe:f0e1:83fd", want), 1);
    tn_anon_ip6(a, in, out);
    ck_assert_mem_eq(out, want, 16);
    tn_anon_addr(a, 6, in, NULL);
    ck_assert_mem_eq(in, want, 16);
    tn_anon_free(a);
}
END_TEST

static unsigned common_prefix(const uint8_t *x, const uint8_t *y, unsigned nbits)
{
    for (unsigned i = 0; i < nbits; i++) {
        unsigned bx = x[i / 8] >> (7 - i % 8) & 1, by = y[i / 8] >> (7 - i % 8) & 1;
        if (bx != by)
            return i;
    }
    return nbits;
}

/* Two addresses sharing exactly k leading bits share exactly k after anonymization, for every
 * k, on random addresses (a fixed-seed generator: the same set every run). */
static void prefix_preservation(uint8_t family)
{
    unsigned nbytes = family == 4 ? 4 : 16, nbits = nbytes * 8;
    uint8_t key[32];
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 32; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        key[i] = (uint8_t)(s >> 56);
    }
    struct tn_anon *a = tn_anon_new(key);
    for (unsigned k = 0; k <= nbits; k++) {
        for (int rep = 0; rep < 8; rep++) {
            uint8_t x[16], y[16];
            for (unsigned i = 0; i < nbytes; i++) {
                s = s * 6364136223846793005ull + 1442695040888963407ull;
                x[i] = (uint8_t)(s >> 56);
                s = s * 6364136223846793005ull + 1442695040888963407ull;
                y[i] = (uint8_t)(s >> 56);
            }
            /* y: x's first k bits, then bit k flipped (when k < nbits), then random */
            for (unsigned i = 0; i < nbits; i++) {
                uint8_t m = (uint8_t)(0x80u >> (i % 8));
                if (i < k)
                    y[i / 8] = (uint8_t)((y[i / 8] & ~m) | (x[i / 8] & m));
                else if (i == k)
                    y[i / 8] = (uint8_t)((y[i / 8] & ~m) | (~x[i / 8] & m));
            }
            ck_assert_uint_eq(common_prefix(x, y, nbits), k);
            uint8_t ax[16], ay[16];
            memcpy(ax, x, nbytes);
            memcpy(ay, y, nbytes);
            tn_anon_addr(a, family, ax, NULL);
            tn_anon_addr(a, family, ay, NULL);
            ck_assert_msg(common_prefix(ax, ay, nbits) == k, "IPv%u: prefix %u became %u", family, k,
                          common_prefix(ax, ay, nbits));
            if (k < nbits)   /* different addresses stay different, and are changed */
                ck_assert(memcmp(ax, ay, nbytes) != 0);
        }
    }
    tn_anon_free(a);
}

START_TEST(test_prefix_preservation_v4)
{
    prefix_preservation(4);
}
END_TEST

START_TEST(test_prefix_preservation_v6)
{
    prefix_preservation(6);
}
END_TEST

/* Over many hosts the cache (growing as it fills) answers what the cipher says. */
START_TEST(test_cache_many_hosts)
{
    struct tn_anon *a = tn_anon_new(ref_key);
    for (uint32_t i = 0; i < 300000; i++) {
        uint32_t v = i * 2654435761u;
        uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
        tn_anon_addr(a, 4, b, NULL);
        if (i % 9973 == 0)
            ck_assert_uint_eq((uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3],
                              tn_anon_ip4(a, v));
    }
    uint64_t lookups, misses;
    tn_anon_stats(a, &lookups, &misses);
    ck_assert_uint_eq(lookups, 300000);
    ck_assert_uint_eq(misses, 300000);
    uint8_t b[4] = {128, 11, 68, 132};
    tn_anon_addr(a, 4, b, NULL);
    tn_anon_addr(a, 4, (uint8_t[4]){128, 11, 68, 132}, NULL);
    tn_anon_stats(a, &lookups, &misses);
    ck_assert_uint_eq(misses, 300001);   /* the second lookup was a hit */
    tn_anon_free(a);
}
END_TEST

#define KEYDIR TN_BINARY_DIR "/anon-keys"

static const char *write_key(const char *name, const uint8_t *bytes, size_t n, mode_t mode)
{
    static char path[512];
    mkdir(KEYDIR, 0700);
    snprintf(path, sizeof path, "%s/%s", KEYDIR, name);
    unlink(path);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(bytes, 1, n, f), n);
    fclose(f);
    chmod(path, mode);
    return path;
}

/* The key's bytes never appear in a message: neither raw nor as decimal or hex text. */
static void no_key_in(const char *msg)
{
    ck_assert_ptr_null(memmem(msg, strlen(msg), ref_key, 4));
    ck_assert_ptr_null(strstr(msg, "21,34,23"));
    ck_assert_ptr_null(strstr(msg, "152217"));
    ck_assert_ptr_null(strstr(msg, "15 22 17"));
}

START_TEST(test_key_file)
{
    struct tn_anon *a;
    struct tn_err err;
    const char *p = write_key("good.key", ref_key, 32, 0600);
    ck_assert_int_eq(tn_anon_open(&a, p, &err), 0);
    ck_assert_str_eq(err.msg, "");
    ck_assert_uint_eq(tn_anon_ip4(a, ip4("128.11.68.132")), ip4("135.242.180.132"));
    tn_anon_free(a);

    p = write_key("shared.key", ref_key, 32, 0644);
    ck_assert_int_eq(tn_anon_open(&a, p, &err), 0);
    ck_assert_int_eq(err.code, 0);
    ck_assert_ptr_nonnull(strstr(err.msg, "readable by group and others (mode 0644)"));
    ck_assert_ptr_nonnull(strstr(err.msg, "shared.key"));
    no_key_in(err.msg);
    tn_anon_free(a);

    p = write_key("short.key", ref_key, 31, 0600);
    ck_assert_int_eq(tn_anon_open(&a, p, &err), -TN_EFORMAT);
    ck_assert_ptr_null(a);
    ck_assert_ptr_nonnull(strstr(err.msg, "short.key: the key file has 31 bytes"));
    no_key_in(err.msg);

    uint8_t longer[33];
    memcpy(longer, ref_key, 32);
    longer[32] = '\n';
    p = write_key("long.key", longer, 33, 0600);
    ck_assert_int_eq(tn_anon_open(&a, p, &err), -TN_EFORMAT);
    ck_assert_ptr_nonnull(strstr(err.msg, "has more than 32 bytes"));

    p = write_key("empty.key", ref_key, 0, 0600);
    ck_assert_int_eq(tn_anon_open(&a, p, &err), -TN_EFORMAT);
    ck_assert_ptr_nonnull(strstr(err.msg, "has 0 bytes"));

    ck_assert_int_eq(tn_anon_open(&a, KEYDIR "/missing.key", &err), -TN_EIO);
    ck_assert_ptr_nonnull(strstr(err.msg, "missing.key: No such file or directory"));
    ck_assert_int_eq(tn_anon_open(&a, KEYDIR, &err), -TN_EIO);
    ck_assert_ptr_nonnull(strstr(err.msg, "not a regular file"));
}
END_TEST

static struct tn_pkt tcp_pkt(const char *src, const char *dst, uint8_t flags, uint32_t tsval,
                             uint32_t tsecr)
{
    struct tn_pkt p;
    memset(&p, 0, sizeof p);
    p.kind = TN_PK_TCP;
    p.ipver = 4;
    p.src.family = p.dst.family = 4;
    inet_pton(AF_INET, src, p.src.a);
    inet_pton(AF_INET, dst, p.dst.a);
    p.tcp.flags = flags;
    p.tcp.opt.has_ts = true;
    p.tcp.opt.ts_val = tsval;
    p.tcp.opt.ts_ecr = tsecr;
    return p;
}

/* --anonymize-ts: each host's clock moves by its own offset, so a TSecr still equals the TSval
 * it echoes and differences on one clock are kept; a SYN's TSecr (not valid without ACK) stays. */
START_TEST(test_pkt_ts_rebase)
{
    struct tn_anon *a = tn_anon_new(ref_key);
    struct tn_pkt syn = tcp_pkt("10.0.0.1", "10.0.0.2", TN_TCP_SYN, 1000, 0);
    struct tn_pkt synack = tcp_pkt("10.0.0.2", "10.0.0.1", TN_TCP_SYN | TN_TCP_ACK, 777777, 1000);
    struct tn_pkt ack = tcp_pkt("10.0.0.1", "10.0.0.2", TN_TCP_ACK, 1010, 777777);
    struct tn_pkt late = tcp_pkt("10.0.0.1", "10.0.0.2", TN_TCP_ACK, 0xfffffff0u, 777777);
    tn_anon_pkt(a, &syn, true);
    tn_anon_pkt(a, &synack, true);
    tn_anon_pkt(a, &ack, true);
    tn_anon_pkt(a, &late, true);
    ck_assert_uint_eq(syn.tcp.opt.ts_ecr, 0);
    ck_assert_uint_eq(synack.tcp.opt.ts_ecr, syn.tcp.opt.ts_val);   /* echo still matches */
    ck_assert_uint_eq(ack.tcp.opt.ts_ecr, synack.tcp.opt.ts_val);
    ck_assert_uint_eq(ack.tcp.opt.ts_val - syn.tcp.opt.ts_val, 10);  /* one clock: same delta */
    ck_assert_uint_eq(late.tcp.opt.ts_val - syn.tcp.opt.ts_val, 0xfffffff0u - 1000);
    ck_assert_uint_ne(syn.tcp.opt.ts_val, 1000);                      /* moved */
    ck_assert_uint_ne(synack.tcp.opt.ts_val - syn.tcp.opt.ts_val, 777777 - 1000);   /* per host */
    char buf[64];
    ck_assert_str_eq(tn_addr_str(&syn.src, buf, sizeof buf), tn_addr_str(&ack.src, buf + 32, 32));
    ck_assert_str_ne(tn_addr_str(&syn.src, buf, sizeof buf), "10.0.0.1");

    /* without rebase_ts only the addresses change */
    struct tn_pkt plain = tcp_pkt("10.0.0.1", "10.0.0.2", TN_TCP_ACK, 1010, 777777);
    tn_anon_pkt(a, &plain, false);
    ck_assert_uint_eq(plain.tcp.opt.ts_val, 1010);
    ck_assert_uint_eq(plain.tcp.opt.ts_ecr, 777777);
    ck_assert_mem_eq(plain.src.a, ack.src.a, 4);

    /* another key: other offsets (a station must share the key to match TSvals) */
    uint8_t k2[32];
    memcpy(k2, ref_key, 32);
    k2[0] ^= 1;
    struct tn_anon *b = tn_anon_new(k2);
    struct tn_pkt syn2 = tcp_pkt("10.0.0.1", "10.0.0.2", TN_TCP_SYN, 1000, 0);
    tn_anon_pkt(b, &syn2, true);
    ck_assert_uint_ne(syn2.tcp.opt.ts_val, syn.tcp.opt.ts_val);
    tn_anon_free(b);
    tn_anon_free(a);
}
END_TEST

Suite *tn_anon_suite(void)
{
    Suite *s = suite_create("anon");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_reference_vectors);
    tcase_add_test(tc, test_shared_vectors);
    tcase_add_test(tc, test_yacryptopan_vectors);
    tcase_add_test(tc, test_prefix_preservation_v4);
    tcase_add_test(tc, test_prefix_preservation_v6);
    tcase_add_test(tc, test_cache_many_hosts);
    tcase_add_test(tc, test_key_file);
    tcase_add_test(tc, test_pkt_ts_rebase);
    suite_add_tcase(s, tc);
    return s;
}
