/* anon_cache.c - address -> anonymized address (and time stamp offset) in front of Crypto-PAn,
 * which costs 32 AES blocks per IPv4 and 128 per IPv6 address; and the packet record's
 * anonymization done with it. */
#include <stdlib.h>
#include <string.h>

#include "anon_int.h"

enum {
    CAP_START = 1024,
    CAP4_MAX = 1 << 22,        /* 16-byte entries: 64 MiB, 2 M hosts before a refill */
    CAP6_MAX = 1 << 20,        /* 40-byte entries: 40 MiB, 512 k hosts */
};

void tn_anon_cache_init(struct tn_anon *a)
{
    struct tn_anon_cache *c = &a->cache;
    c->cap4 = c->cap6 = CAP_START;
    c->e4 = tn_xcalloc(c->cap4, sizeof *c->e4);
    c->e6 = tn_xcalloc(c->cap6, sizeof *c->e6);
}

void tn_anon_cache_fini(struct tn_anon *a)
{
    struct tn_anon_cache *c = &a->cache;
    if (c->e4)
        explicit_bzero(c->e4, c->cap4 * sizeof *c->e4);
    if (c->e6)
        explicit_bzero(c->e6, c->cap6 * sizeof *c->e6);
    free(c->e4);
    free(c->e6);
}

static uint64_t mix64(uint64_t x)
{
    /* splitmix64's finalizer: every input bit moves every output bit */
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static uint64_t hash6(const uint8_t *k)
{
    uint64_t hi, lo;
    memcpy(&hi, k, 8);
    memcpy(&lo, k + 8, 8);
    return mix64(hi ^ mix64(lo));
}

static struct tn_anon_e4 *slot4(struct tn_anon_e4 *t, size_t cap, uint32_t k)
{
    size_t i = (size_t)mix64(k) & (cap - 1);
    while (t[i].used && t[i].orig != k)
        i = (i + 1) & (cap - 1);
    return &t[i];
}

static struct tn_anon_e6 *slot6(struct tn_anon_e6 *t, size_t cap, const uint8_t *k)
{
    size_t i = (size_t)hash6(k) & (cap - 1);
    while (t[i].used && memcmp(t[i].orig, k, 16) != 0)
        i = (i + 1) & (cap - 1);
    return &t[i];
}

/* Room for one more entry: double below the limit, empty the table at it. */
static void room4(struct tn_anon_cache *c)
{
    if (2 * (c->n4 + 1) <= c->cap4)
        return;
    size_t cap = c->cap4 < CAP4_MAX ? 2 * c->cap4 : c->cap4;
    struct tn_anon_e4 *t = tn_xcalloc(cap, sizeof *t);
    if (cap != c->cap4)
        for (size_t i = 0; i < c->cap4; i++)
            if (c->e4[i].used)
                *slot4(t, cap, c->e4[i].orig) = c->e4[i];
    c->n4 = cap != c->cap4 ? c->n4 : 0;
    free(c->e4);
    c->e4 = t;
    c->cap4 = cap;
}

static void room6(struct tn_anon_cache *c)
{
    if (2 * (c->n6 + 1) <= c->cap6)
        return;
    size_t cap = c->cap6 < CAP6_MAX ? 2 * c->cap6 : c->cap6;
    struct tn_anon_e6 *t = tn_xcalloc(cap, sizeof *t);
    if (cap != c->cap6)
        for (size_t i = 0; i < c->cap6; i++)
            if (c->e6[i].used)
                *slot6(t, cap, c->e6[i].orig) = c->e6[i];
    c->n6 = cap != c->cap6 ? c->n6 : 0;
    free(c->e6);
    c->e6 = t;
    c->cap6 = cap;
}

static void addr4(struct tn_anon *a, uint8_t *addr, uint32_t *ts_off)
{
    struct tn_anon_cache *c = &a->cache;
    uint32_t k = (uint32_t)addr[0] << 24 | (uint32_t)addr[1] << 16 | (uint32_t)addr[2] << 8 | addr[3];
    struct tn_anon_e4 *e = slot4(c->e4, c->cap4, k);
    if (!e->used) {
        room4(c);
        e = slot4(c->e4, c->cap4, k);
        uint32_t v = tn_anon_ip4(a, k);
        uint8_t out[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
        *e = (struct tn_anon_e4){.orig = k, .anon = v, .ts = tn_anon_ts_prf(a, 4, out), .used = 1};
        c->n4++;
        c->misses++;
    }
    c->lookups++;
    addr[0] = (uint8_t)(e->anon >> 24);
    addr[1] = (uint8_t)(e->anon >> 16);
    addr[2] = (uint8_t)(e->anon >> 8);
    addr[3] = (uint8_t)e->anon;
    if (ts_off)
        *ts_off = e->ts;
}

static void addr6(struct tn_anon *a, uint8_t *addr, uint32_t *ts_off)
{
    struct tn_anon_cache *c = &a->cache;
    struct tn_anon_e6 *e = slot6(c->e6, c->cap6, addr);
    if (!e->used) {
        room6(c);
        e = slot6(c->e6, c->cap6, addr);
        memcpy(e->orig, addr, 16);
        tn_anon_ip6(a, addr, e->anon);
        e->ts = tn_anon_ts_prf(a, 6, e->anon);
        e->used = 1;
        c->n6++;
        c->misses++;
    }
    c->lookups++;
    memcpy(addr, e->anon, 16);
    if (ts_off)
        *ts_off = e->ts;
}

void tn_anon_addr(struct tn_anon *a, uint8_t family, uint8_t *addr, uint32_t *ts_off)
{
    if (ts_off)
        *ts_off = 0;
    if (family == 4)
        addr4(a, addr, ts_off);
    else if (family == 6)
        addr6(a, addr, ts_off);
}

void tn_anon_pkt(struct tn_anon *a, struct tn_pkt *p, bool rebase_ts)
{
    uint32_t ts_src, ts_dst;
    tn_anon_addr(a, p->src.family, p->src.a, &ts_src);
    tn_anon_addr(a, p->dst.family, p->dst.a, &ts_dst);
    if (!rebase_ts || p->kind != TN_PK_TCP || !p->tcp.opt.has_ts)
        return;
    p->tcp.opt.ts_val += ts_src;   /* mod 2^32, as time stamps are compared (RFC 7323 5.2) */
    if (p->tcp.flags & TN_TCP_ACK)
        p->tcp.opt.ts_ecr += ts_dst;
}

void tn_anon_stats(const struct tn_anon *a, uint64_t *lookups, uint64_t *misses)
{
    *lookups = a->cache.lookups;
    *misses = a->cache.misses;
}
