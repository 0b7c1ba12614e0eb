/* analysis_pack.c - a finished connection as bytes and back, and an analyzer assembled from
 * such connections: how the shards of an MPI job bring their results to rank 0.
 *
 *   magic "TNC2", sizeof(struct tn_conn), sizeof(struct tn_event)     u32 each
 *   struct tn_conn (pointers meaningless), sparse (below)
 *   TCP inference results: present (u8; not for a lone SYN's shared zeros), 2 x struct
 *   tn_tcp_infer, sparse
 *   events: n (u64), n x struct tn_event
 *   series: present (u8); then per direction and kind n (u64), n x struct tn_point
 *   packet records: n (u64), n x struct tn_pktrec
 *   DFCP blocks: n (u64), each struct tn_dfcp_block, has bitmap (u8), (n + 7) / 8 bytes
 *   DFCP results: present (u8), struct tn_dfcp_infer; DFCP state: present (u8), struct
 *   tn_dfcp_priv (what tn_conn_live_get reads)
 *
 * The sender state of a finished TCP connection is gone (tn_infer_release), so there is
 * nothing more to carry for it.
 *
 * Sparse: a struct as its 8-byte words, a bitmap of those that are not zero (bit i of byte
 * i / 8) followed by those words, then the bytes after the last whole word.  Most of a short
 * connection's summary and inference results are zeros: 3.3 KB become about a third. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_int.h"

#define PACK_MAGIC 0x32434e54u   /* "TNC2" */
/* words of the largest struct packed sparse (2 x struct tn_tcp_infer: 230) at most */
#define SPARSE_MAX_WORDS 512

static void put_u8(struct tn_packbuf *b, uint8_t v) { tn_packbuf_put(b, &v, 1); }
static void put_u32(struct tn_packbuf *b, uint32_t v) { tn_packbuf_put(b, &v, 4); }
static void put_u64(struct tn_packbuf *b, uint64_t v) { tn_packbuf_put(b, &v, 8); }

/* n elements of elsz bytes, after their count */
static void put_array(struct tn_packbuf *b, const void *v, size_t n, size_t elsz)
{
    put_u64(b, n);
    tn_packbuf_put(b, v, n * elsz);
}

/* Bit j: word j of the 8 at p is not zero. */
static unsigned nonzero8(const uint8_t *p)
{
    unsigned m = 0;
    for (unsigned j = 0; j < 8; j++) {
        uint64_t x;
        memcpy(&x, p + 8 * j, 8);
        m |= (unsigned)(x != 0) << j;
    }
    return m;
}

/* (written in place at the end of b, room made for every word; the bytes are the same as the
 * format above) */
static void put_sparse(struct tn_packbuf *b, const void *v, size_t n)
{
    const uint8_t *p = v;
    size_t words = n / 8, mapn = (words + 7) / 8, full = words / 8;
    TN_BUG_ON(words > SPARSE_MAX_WORDS);
    tn_grow((void **)&b->p, &b->cap, b->n + mapn + 8 * words + n % 8, 1);
    uint8_t *map = b->p + b->n, *out = map + mapn;
    for (size_t i = 0; i < full; i++, p += 64) {
        unsigned m = nonzero8(p);
        map[i] = (uint8_t)m;
        for (; m; m &= m - 1) {
            memcpy(out, p + 8 * (unsigned)__builtin_ctz(m), 8);
            out += 8;
        }
    }
    if (words % 8) {
        unsigned m = 0;
        for (unsigned j = 0; j < words % 8; j++) {
            uint64_t x;
            memcpy(&x, p + 8 * j, 8);
            if (x) {
                m |= 1u << j;
                memcpy(out, &x, 8);
                out += 8;
            }
        }
        map[full] = (uint8_t)m;
        p += 8 * (words % 8);
    }
    memcpy(out, p, n % 8);
    b->n = (size_t)(out + n % 8 - b->p);
}

void tn_conn_pack(const struct tn_conn *c, struct tn_packbuf *b)
{
    put_u32(b, PACK_MAGIC);
    put_u32(b, (uint32_t)sizeof *c);
    put_u32(b, (uint32_t)sizeof(struct tn_event));
    put_sparse(b, c, sizeof *c);
    bool inf = c->inf != tn_no_inf;   /* a lone SYN's are the shared zeros */
    put_u8(b, inf);
    if (inf)
        put_sparse(b, c->inf, 2 * sizeof *c->inf);
    put_array(b, c->events, c->nevents, sizeof *c->events);
    bool series = c->series != tn_no_series;
    put_u8(b, series);
    for (int d = 0; series && d < 2; d++)
        for (int k = 0; k < TN_SER_COUNT; k++)
            put_array(b, c->series[d][k].pts, c->series[d][k].n, sizeof(struct tn_point));
    put_array(b, c->pkts, c->npkts, sizeof *c->pkts);
    put_u64(b, c->nblocks);
    for (size_t i = 0; i < c->nblocks; i++) {
        const struct tn_dfcp_block *bl = &c->blocks[i];
        tn_packbuf_put(b, bl, sizeof *bl);
        put_u8(b, bl->seen != NULL);
        if (bl->seen)
            tn_packbuf_put(b, bl->seen, ((size_t)bl->n + 7) / 8);
    }
    bool dfcp = c->dfcp != &tn_no_dfcp;
    put_u8(b, dfcp);
    if (dfcp)
        tn_packbuf_put(b, c->dfcp, sizeof *c->dfcp);
    const struct tn_dfcp_priv *dp = c->retired ? NULL : ((const struct tn_conn_priv *)c)->dfcp;
    put_u8(b, dp != NULL);
    if (dp)
        tn_packbuf_put(b, dp, sizeof *dp);
}

/* (one bounds check for all the words the bitmap names, the zeros in one memset and 8-byte
 * copies the compiler inlines: rank 0 reads every connection of the other ranks so; the words
 * are counted only when fewer bytes are left than a struct of no zero word takes) */
static void get_sparse(struct tn_unpack *r, void *v, size_t n)
{
    uint8_t *p = v;
    size_t words = n / 8, mapn = (words + 7) / 8;
    uint8_t map[SPARSE_MAX_WORDS / 8];
    memset(p, 0, n);
    tn_unpack_get(r, map, mapn);
    if (words % 8)   /* bits past the last word name nothing */
        map[mapn - 1] &= (uint8_t)((1u << (words % 8)) - 1);
    if (r->bad)
        return;
    if ((size_t)(r->end - r->p) < 8 * words + n % 8) {
        size_t k = 0;
        for (size_t i = 0; i < mapn; i += 8) {
            uint64_t m = 0;   /* (no popcnt instruction in the baseline x86-64: a SWAR count) */
            for (size_t j = 0; j < 8 && i + j < mapn; j++)
                m |= (uint64_t)map[i + j] << (8 * j);
            m -= (m >> 1) & 0x5555555555555555ULL;
            m = (m & 0x3333333333333333ULL) + ((m >> 2) & 0x3333333333333333ULL);
            m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
            k += (size_t)((m * 0x0101010101010101ULL) >> 56);
        }
        if ((size_t)(r->end - r->p) < 8 * k + n % 8) {
            r->bad = true;
            return;
        }
    }
    const uint8_t *in = r->p;
    for (size_t i = 0; i < mapn; i += 8) {
        uint64_t m = 0;   /* 64 words' bits at a time */
        for (size_t j = 0; j < 8 && i + j < mapn; j++)
            m |= (uint64_t)map[i + j] << (8 * j);
        for (; m; m &= m - 1) {
            memcpy(p + 8 * (8 * i + (size_t)__builtin_ctzll(m)), in, 8);
            in += 8;
        }
    }
    memcpy(p + 8 * words, in, n % 8);
    r->p = in + n % 8;
}

/* Where tn_conn_priv_unpack_in puts what it unpacks (NULL: malloc): one analyzer's reading
 * slot per thread at a time. */
static _Thread_local struct tn_arena *unpack_arena;

static void *unpack_alloc(size_t n, bool zero)
{
    if (unpack_arena)
        return tn_arena_alloc(unpack_arena, n ? n : 1, zero);
    return zero ? tn_xcalloc(1, n ? n : 1) : tn_xmalloc(n);
}

/* A connection that failed to unpack: its memory back (the arena's goes with its reset). */
static void unpack_discard(struct tn_conn_priv *cp)
{
    if (!unpack_arena)
        tn_conn_priv_destroy(cp);
}

/* A counted array of elsz-byte elements, allocated (NULL when empty or cut). */
static void *get_array(struct tn_unpack *r, size_t *n, size_t elsz)
{
    uint64_t k = tn_unpack_u64(r);
    *n = 0;
    if (r->bad || k == 0)
        return NULL;
    if (k > (uint64_t)(r->end - r->p) / elsz) {
        r->bad = true;
        return NULL;
    }
    void *v = unpack_alloc((size_t)k * elsz, false);
    tn_unpack_get(r, v, (size_t)k * elsz);
    *n = (size_t)k;
    return v;
}

struct tn_conn *tn_conn_unpack(const uint8_t *in, size_t n, size_t *used)
{
    struct tn_unpack r = {in, in + n, false};
    if (tn_unpack_u32(&r) != PACK_MAGIC || tn_unpack_u32(&r) != sizeof(struct tn_conn) ||
        tn_unpack_u32(&r) != sizeof(struct tn_event))
        return NULL;
    struct tn_conn_priv *cp = unpack_alloc(sizeof *cp, true);
    struct tn_conn *c = &cp->pub;
    get_sparse(&r, c, sizeof *c);
    c->retired = false;
    c->inf = (struct tn_tcp_infer *)tn_no_inf;
    if (tn_unpack_u8(&r) && !r.bad) {
        c->inf = unpack_alloc(2 * sizeof *c->inf, false);
        get_sparse(&r, c->inf, 2 * sizeof *c->inf);
    }
    c->series = tn_no_series;
    c->dfcp = (struct tn_dfcp_infer *)&tn_no_dfcp;
    c->blocks = NULL;
    c->nblocks = c->cap_blocks = 0;
    c->pkts = NULL;
    c->npkts = c->cap_pkts = 0;
    c->events = get_array(&r, &c->nevents, sizeof *c->events);
    c->cap_events = c->nevents;
    if (tn_unpack_u8(&r) && !r.bad) {
        c->series = unpack_alloc(2 * sizeof *c->series, true);
        for (int d = 0; d < 2; d++)
            for (int k = 0; k < TN_SER_COUNT; k++) {
                struct tn_series *s = &c->series[d][k];
                s->pts = get_array(&r, &s->n, sizeof *s->pts);
                s->cap = s->n;
            }
    }
    c->pkts = get_array(&r, &c->npkts, sizeof *c->pkts);
    c->cap_pkts = c->npkts;
    uint64_t nb = tn_unpack_u64(&r);
    if (!r.bad && nb > (uint64_t)(r.end - r.p) / sizeof *c->blocks)
        r.bad = true;
    if (!r.bad && nb) {
        c->blocks = unpack_alloc((size_t)nb * sizeof *c->blocks, true);
        c->cap_blocks = (size_t)nb;
        for (size_t i = 0; i < nb && !r.bad; i++) {
            struct tn_dfcp_block *bl = &c->blocks[i];
            tn_unpack_get(&r, bl, sizeof *bl);
            bl->seen = NULL;
            c->nblocks = i + 1;
            if (tn_unpack_u8(&r)) {
                size_t len = ((size_t)bl->n + 7) / 8;
                bl->seen = unpack_alloc(len ? len : 1, true);
                tn_unpack_get(&r, bl->seen, len);
            }
        }
    }
    if (tn_unpack_u8(&r) && !r.bad) {
        c->dfcp = unpack_alloc(sizeof *c->dfcp, false);
        tn_unpack_get(&r, c->dfcp, sizeof *c->dfcp);
    }
    if (tn_unpack_u8(&r) && !r.bad) {
        cp->dfcp = unpack_alloc(sizeof *cp->dfcp, false);
        tn_unpack_get(&r, cp->dfcp, sizeof *cp->dfcp);
    }
    cp->rst_dir = -1;
    cp->inferred = true;       /* finished where it was analysed */
    if (r.bad || !tn_conn_unpacked_ok(cp)) {
        unpack_discard(cp);
        return NULL;
    }
    *used = (size_t)(r.p - in);
    return c;
}

void tn_conn_unpacked_free(struct tn_conn *c)
{
    if (c)
        tn_conn_priv_destroy((struct tn_conn_priv *)c);
}

void tn_analyzer_adopt(struct tn_analyzer *a, struct tn_conn *c, unsigned idx)
{
    TN_BUG_ON(idx && idx <= a->numbered);   /* numbers grow: tn_analyzer_conn_by_number */
    tn_grow((void **)&a->conns, &a->cap, a->nconns + 1, sizeof *a->conns);
    a->conns[a->nconns++] = (struct tn_conn_priv *)c;
    a->numbered = idx ? idx : a->numbered + 1;
    c->idx = a->numbered;
}

void tn_analyzer_set_stats(struct tn_analyzer *a, const struct tn_trace_stats *st)
{
    a->st = *st;
}

/* ---- a connection retired offline (analysis_retire.c): its whole state, to come back as it
 * was when a late packet of it arrives or an output reads it ----
 *   tn_conn_pack's bytes, then struct tn_conn_priv after pub (pointers meaningless), then the
 *   gaps of each direction: n (u64), n x struct tn_gap.  The sender state is gone (the
 *   inference finished before retirement). */

void tn_conn_priv_pack(const struct tn_conn_priv *cp, struct tn_packbuf *b)
{
    TN_BUG_ON(cp->dp[0].snd || cp->dp[1].snd);
    tn_conn_pack(&cp->pub, b);
    size_t tail = offsetof(struct tn_conn_priv, dp);
    tn_packbuf_put(b, (const uint8_t *)cp + tail, sizeof *cp - tail);
    for (int d = 0; d < 2; d++)
        put_array(b, cp->dp[d].gaps.v, cp->dp[d].gaps.n, sizeof *cp->dp[d].gaps.v);
}

/* (*used: the bytes it read) */
static struct tn_conn_priv *priv_unpack(const uint8_t *in, size_t n, size_t *used)
{
    struct tn_conn *c = tn_conn_unpack(in, n, used);
    if (!c)
        return NULL;
    struct tn_conn_priv *cp = (struct tn_conn_priv *)c;
    struct tn_dfcp_priv *dfcp = cp->dfcp;   /* tn_conn_unpack's copy */
    struct tn_unpack r = {in + *used, in + n, false};
    size_t tail = offsetof(struct tn_conn_priv, dp);
    tn_unpack_get(&r, (uint8_t *)cp + tail, sizeof *cp - tail);
    cp->dfcp = dfcp;
    for (int d = 0; d < 2; d++) {
        size_t k;
        cp->dp[d].snd = NULL;
        cp->dp[d].gaps.v = get_array(&r, &k, sizeof *cp->dp[d].gaps.v);
        cp->dp[d].gaps.n = cp->dp[d].gaps.cap = (unsigned)k;
    }
    if (r.bad || !tn_conn_priv_tail_ok(cp)) {
        unpack_discard(cp);
        return NULL;
    }
    *used = (size_t)(r.p - in);
    return cp;
}

struct tn_conn_priv *tn_conn_priv_unpack(const uint8_t *in, size_t n)
{
    size_t used;
    return priv_unpack(in, n, &used);
}

struct tn_conn *tn_conn_retired_unpack(const uint8_t *in, size_t n)
{
    size_t used;
    struct tn_conn_priv *cp = priv_unpack(in, n, &used);
    if (cp && used != n) { /* the store's reader takes all n bytes as this connection's */
        tn_conn_priv_destroy(cp);
        return NULL;
    }
    return cp ? &cp->pub : NULL;
}

const struct tn_conn *tn_conn_retired_unpack_in(const uint8_t *in, size_t n, struct tn_arena *arena)
{
    size_t used;
    unpack_arena = arena;
    struct tn_conn_priv *cp = priv_unpack(in, n, &used);
    unpack_arena = NULL;
    return cp && used == n ? &cp->pub : NULL;
}

struct tn_conn_priv *tn_conn_priv_unpack_in(const uint8_t *in, size_t n, struct tn_arena *arena)
{
    unpack_arena = arena;
    struct tn_conn_priv *cp = tn_conn_priv_unpack(in, n);
    unpack_arena = NULL;
    return cp;
}
