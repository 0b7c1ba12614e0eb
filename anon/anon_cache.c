/* anon_cache.c - address -> anonymized address (and time stamp offset) in front of Crypto-PAn,
 * which costs 32 AES blocks per IPv4 and 128 per IPv6 address; and the packet record's
 * anonymization done with it. */
#include <stdlib.h>
#include <string.h>

#include "anon_int.h"

enum {
    CAP_START = 1024,
    CAP_MAX = 1 << 21,         /* 40-byte entries: 80 MiB, 1 M hosts before a refill */
};

void tn_anon_cache_init(struct tn_anon *a)
{
    a->cache.cap = CAP_START;
    a->cache.e = tn_xcalloc(a->cache.cap, sizeof *a->cache.e);
}

void tn_anon_cache_fini(struct tn_anon *a)
{
    if (a->cache.e)
        explicit_bzero(a->cache.e, a->cache.cap * sizeof *a->cache.e);
    free(a->cache.e);
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

static size_t hash(uint8_t family, const uint8_t *k)
{
    uint64_t hi = 0, lo = 0;
    memcpy(&hi, k, family == 4 ? 4 : 8);
    if (family == 6)
        memcpy(&lo, k + 8, 8);
    return (size_t)mix64(hi ^ mix64(lo ^ family));
}

static struct tn_anon_entry *slot(struct tn_anon_entry *t, size_t cap, uint8_t family, const uint8_t *k)
{
    size_t n = family == 4 ? 4 : 16;
    size_t i = hash(family, k) & (cap - 1);
    while (t[i].family && (t[i].family != family || memcmp(t[i].orig, k, n) != 0))
        i = (i + 1) & (cap - 1);
    return &t[i];
}

/* Room for one more entry: double below the limit, empty the table at it. */
static void room(struct tn_anon_cache *c)
{
    if (2 * (c->n + 1) <= c->cap)
        return;
    size_t cap = c->cap < CAP_MAX ? 2 * c->cap : c->cap;
    struct tn_anon_entry *t = tn_xcalloc(cap, sizeof *t);
    if (cap != c->cap)
        for (size_t i = 0; i < c->cap; i++)
            if (c->e[i].family)
                *slot(t, cap, c->e[i].family, c->e[i].orig) = c->e[i];
    c->n = cap != c->cap ? c->n : 0;
    free(c->e);
    c->e = t;
    c->cap = cap;
}

void tn_anon_addr(struct tn_anon *a, uint8_t family, uint8_t *addr, uint32_t *ts_off)
{
    if (ts_off)
        *ts_off = 0;
    if (family != 4 && family != 6)
        return;
    size_t n = family == 4 ? 4 : 16;
    struct tn_anon_cache *c = &a->cache;
    struct tn_anon_entry *e = slot(c->e, c->cap, family, addr);
    if (!e->family) {
        room(c);
        e = slot(c->e, c->cap, family, addr);
        memset(e, 0, sizeof *e);
        memcpy(e->orig, addr, n);
        if (family == 4) {
            uint32_t v = tn_anon_ip4(a, (uint32_t)addr[0] << 24 | (uint32_t)addr[1] << 16 |
                                            (uint32_t)addr[2] << 8 | addr[3]);
            e->anon[0] = (uint8_t)(v >> 24);
            e->anon[1] = (uint8_t)(v >> 16);
            e->anon[2] = (uint8_t)(v >> 8);
            e->anon[3] = (uint8_t)v;
        } else {
            tn_anon_ip6(a, addr, e->anon);
        }
        e->ts = tn_anon_ts_prf(a, family, e->anon);
        e->family = family;
        c->n++;
        c->misses++;
    }
    c->lookups++;
    memcpy(addr, e->anon, n);
    if (ts_off)
        *ts_off = e->ts;
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
