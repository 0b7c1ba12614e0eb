/* analysis_flowtab.c - open-addressing hash table from 5-tuple to connection index. */
#include <stdlib.h>
#include <string.h>

#include "analysis_int.h"

struct tn_flowtab_slot {
    struct tn_flowkey key;
    uint64_t hash;
    long idx;                  /* -1 = empty */
};

struct tn_flowtab {
    struct tn_flowtab_slot *slots;
    size_t cap, used;          /* cap is a power of two */
};

static void alloc_slots(struct tn_flowtab *t, size_t cap)
{
    t->slots = tn_xmalloc(cap * sizeof *t->slots);
    for (size_t i = 0; i < cap; i++)
        t->slots[i].idx = -1;
    t->cap = cap;
    t->used = 0;
}

struct tn_flowtab *tn_flowtab_new(void)
{
    struct tn_flowtab *t = tn_xcalloc(1, sizeof *t);
    alloc_slots(t, 1024);
    return t;
}

void tn_flowtab_free(struct tn_flowtab *t)
{
    if (!t)
        return;
    free(t->slots);
    free(t);
}

static inline uint64_t load64(const uint8_t *b)
{
    uint64_t v;
    memcpy(&v, b, 8);
    return v;
}

/* splitmix64 finalizer: every input bit reaches every output bit */
static inline uint64_t mix64(uint64_t h)
{
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebull;
    h ^= h >> 31;
    return h;
}

void tn_flowkey_make(const struct tn_pkt *p, struct tn_flowkey *k, uint64_t *hash)
{
    int c = memcmp(p->src.a, p->dst.a, 16);
    bool src_low = c < 0 || (c == 0 && p->sport <= p->dport);
    const struct tn_addr *lo = src_low ? &p->src : &p->dst, *hi = src_low ? &p->dst : &p->src;
    k->proto = (uint8_t)p->kind;
    k->family = p->src.family;
    memcpy(k->addr_lo, lo->a, 16);
    memcpy(k->addr_hi, hi->a, 16);
    k->port_lo = src_low ? p->sport : p->dport;
    k->port_hi = src_low ? p->dport : p->sport;
    uint64_t h = (uint64_t)k->port_lo << 48 | (uint64_t)k->port_hi << 32 | (uint64_t)k->proto << 8 | k->family;
    h = mix64(h ^ load64(k->addr_lo)) ^ load64(k->addr_hi);
    if (k->family == 6)
        h = mix64(h ^ load64(k->addr_lo + 8)) ^ load64(k->addr_hi + 8);
    *hash = mix64(h);
}

static bool key_eq(const struct tn_flowkey *a, const struct tn_flowkey *b)
{
    return a->proto == b->proto && a->family == b->family && a->port_lo == b->port_lo &&
           a->port_hi == b->port_hi && memcmp(a->addr_lo, b->addr_lo, 16) == 0 &&
           memcmp(a->addr_hi, b->addr_hi, 16) == 0;
}

long tn_flowtab_lookup(const struct tn_flowtab *t, const struct tn_flowkey *k, uint64_t hash)
{
    size_t mask = t->cap - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        const struct tn_flowtab_slot *s = &t->slots[i];
        if (s->idx < 0)
            return -1;
        if (s->hash == hash && key_eq(&s->key, k))
            return s->idx;
    }
}

static void rehash(struct tn_flowtab *t)
{
    struct tn_flowtab_slot *old = t->slots;
    size_t ocap = t->cap;
    alloc_slots(t, ocap * 2);
    for (size_t i = 0; i < ocap; i++)
        if (old[i].idx >= 0)
            tn_flowtab_set(t, &old[i].key, old[i].hash, old[i].idx);
    free(old);
}

void tn_flowtab_set(struct tn_flowtab *t, const struct tn_flowkey *k, uint64_t hash, long idx)
{
    if ((t->used + 1) * 2 > t->cap)
        rehash(t);
    size_t mask = t->cap - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        struct tn_flowtab_slot *s = &t->slots[i];
        if (s->idx < 0) {
            s->key = *k;
            s->hash = hash;
            s->idx = idx;
            t->used++;
            return;
        }
        if (s->hash == hash && key_eq(&s->key, k)) {
            s->idx = idx;
            return;
        }
    }
}
