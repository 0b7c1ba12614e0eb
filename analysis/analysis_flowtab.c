/* analysis_flowtab.c - connection table: open addressing with linear probing, resized at half
 * load, from a symmetric hash of the 5-tuple to a connection index.  A slot is 16 bytes (hash and
 * index; the endpoints are the connection's own), so a probe reads one cache line and the cost
 * per packet stays flat as the table grows; no chains. */
#include <stdlib.h>
#include <string.h>

#include "analysis_int.h"

struct tn_flowtab_slot {
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

size_t tn_flowtab_bytes(const struct tn_flowtab *t)
{
    return t->cap * sizeof *t->slots;
}

static inline uint64_t load64(const uint8_t *b)
{
    uint64_t v;
    memcpy(&v, b, 8);
    return v;
}

/* 8 bytes as a big-endian number: comparing two is memcmp's order */
static inline uint64_t load_be64(const uint8_t *b)
{
    return (uint64_t)b[0] << 56 | (uint64_t)b[1] << 48 | (uint64_t)b[2] << 40 | (uint64_t)b[3] << 32 |
           (uint64_t)b[4] << 24 | (uint64_t)b[5] << 16 | (uint64_t)b[6] << 8 | b[7];   /* one bswap */
}

/* the sign of memcmp(x, y, 16), inline (memcmp was a call per packet) */
static inline int addr_cmp(const uint8_t *x, const uint8_t *y)
{
    uint64_t u = load_be64(x), v = load_be64(y);
    if (u == v) {
        u = load_be64(x + 8);
        v = load_be64(y + 8);
    }
    return (u > v) - (u < v);
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

uint64_t tn_flow_hash(const struct tn_pkt *p)
{
    /* the lower endpoint first: both directions give the same hash */
    int c = addr_cmp(p->src.a, p->dst.a);
    bool src_low = c < 0 || (c == 0 && p->sport <= p->dport);
    const struct tn_addr *lo = src_low ? &p->src : &p->dst, *hi = src_low ? &p->dst : &p->src;
    uint16_t port_lo = src_low ? p->sport : p->dport, port_hi = src_low ? p->dport : p->sport;
    uint64_t h = (uint64_t)port_lo << 48 | (uint64_t)port_hi << 32 | (uint64_t)p->kind << 8 | p->src.family;
    h = mix64(h ^ load64(lo->a)) ^ load64(hi->a);
    if (p->src.family == 6)
        h = mix64(h ^ load64(lo->a + 8)) ^ load64(hi->a + 8);
    return mix64(h);
}

long tn_flowtab_lookup(const struct tn_flowtab *t, uint64_t hash, tn_flow_match match, const void *arg)
{
    size_t mask = t->cap - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        const struct tn_flowtab_slot *s = &t->slots[i];
        if (s->idx < 0)
            return -1;
        if (s->hash == hash && match(arg, s->idx))
            return s->idx;
    }
}

static void insert(struct tn_flowtab *t, uint64_t hash, long idx)
{
    size_t mask = t->cap - 1;
    size_t i = hash & mask;
    while (t->slots[i].idx >= 0)
        i = (i + 1) & mask;
    t->slots[i] = (struct tn_flowtab_slot){hash, idx};
    t->used++;
}

static void rehash(struct tn_flowtab *t)
{
    struct tn_flowtab_slot *old = t->slots;
    size_t ocap = t->cap;
    alloc_slots(t, ocap * 2);
    for (size_t i = 0; i < ocap; i++)
        if (old[i].idx >= 0)
            insert(t, old[i].hash, old[i].idx);
    free(old);
}

void tn_flowtab_set(struct tn_flowtab *t, uint64_t hash, long idx, tn_flow_match match, const void *arg)
{
    size_t mask = t->cap - 1;
    for (size_t i = hash & mask; t->slots[i].idx >= 0; i = (i + 1) & mask) {
        struct tn_flowtab_slot *s = &t->slots[i];
        if (s->hash == hash && match(arg, s->idx)) {   /* port reuse: the newer connection */
            s->idx = idx;
            return;
        }
    }
    if ((t->used + 1) * 2 > t->cap)
        rehash(t);
    insert(t, hash, idx);
}

uint64_t tn_flow_hash_between(unsigned proto, const struct tn_addr *a, uint16_t a_port, const struct tn_addr *b,
                              uint16_t b_port)
{
    struct tn_pkt p;
    memset(&p, 0, sizeof p);
    p.kind = (enum tn_pkt_kind)proto;
    p.src = *a;
    p.dst = *b;
    p.sport = a_port;
    p.dport = b_port;
    return tn_flow_hash(&p);
}
