/* analysis_ranges.c - a sorted set of disjoint sequence ranges: the holes a direction shows at
 * the monitor and the SACK scoreboard.  A window of 50 Mbit/s x 80 ms holds 350 segments and a
 * loss burst can open one hole per segment, so the set grows on demand (binary search, no
 * fixed count); TN_RANGES_MAX bounds memory, and beyond it the lowest range is forgotten. */
#include <stdlib.h>
#include <string.h>

#include "analysis_int.h"

/* Index of the first range whose hi is above x (ranges are disjoint and sorted, so their his
 * increase too). */
static unsigned first_above(const struct tn_rangeset *rs, int64_t x)
{
    unsigned lo = 0, hi = rs->n;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (rs->v[mid].hi <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void insert_at(struct tn_rangeset *rs, unsigned i, struct tn_gap g)
{
    if (rs->n == TN_RANGES_MAX) {   /* full: forget the lowest */
        if (i == 0)
            return;
        memmove(&rs->v[0], &rs->v[1], (rs->n - 1) * sizeof rs->v[0]);
        rs->n--;
        i--;
    }
    if (rs->n == rs->cap) {
        unsigned ncap = rs->cap ? rs->cap * 2 : 8;
        if (ncap > TN_RANGES_MAX)
            ncap = TN_RANGES_MAX;
        rs->v = tn_xrealloc(rs->v, (size_t)ncap * sizeof rs->v[0]);
        rs->cap = ncap;
    }
    memmove(&rs->v[i + 1], &rs->v[i], (rs->n - i) * sizeof rs->v[0]);
    rs->v[i] = g;
    rs->n++;
}

static void remove_span(struct tn_rangeset *rs, unsigned i, unsigned k)
{
    memmove(&rs->v[i], &rs->v[i + k], (rs->n - i - k) * sizeof rs->v[0]);
    rs->n -= k;
}

const struct tn_gap *tn_ranges_holding(const struct tn_rangeset *rs, int64_t lo, int64_t hi)
{
    unsigned i = first_above(rs, lo);
    if (i < rs->n && rs->v[i].lo <= lo && hi <= rs->v[i].hi)
        return &rs->v[i];
    return NULL;
}

void tn_ranges_put(struct tn_rangeset *rs, struct tn_gap g)
{
    unsigned i = first_above(rs, g.lo);
    insert_at(rs, i, g);
}

void tn_ranges_cut(struct tn_rangeset *rs, int64_t lo, int64_t hi)
{
    unsigned i = first_above(rs, lo);
    while (i < rs->n && rs->v[i].lo < hi) {
        struct tn_gap g = rs->v[i];
        bool keep_left = g.lo < lo, keep_right = hi < g.hi;
        if (keep_left && keep_right) {
            rs->v[i].hi = lo;
            g.lo = hi;
            insert_at(rs, i + 1, g);
            return;
        }
        if (keep_left) {
            rs->v[i].hi = lo;
            i++;
        } else if (keep_right) {
            rs->v[i].lo = hi;
            return;
        } else {
            remove_span(rs, i, 1);
        }
    }
}

int64_t tn_ranges_merge(struct tn_rangeset *rs, int64_t lo, int64_t hi)
{
    if (hi <= lo)
        return 0;
    /* ranges that touch or overlap [lo, hi) join it */
    unsigned i = first_above(rs, lo - 1);
    unsigned j = i;
    int64_t covered = 0, nlo = lo, nhi = hi;
    while (j < rs->n && rs->v[j].lo <= hi) {
        int64_t a = rs->v[j].lo > lo ? rs->v[j].lo : lo, b = rs->v[j].hi < hi ? rs->v[j].hi : hi;
        if (b > a)
            covered += b - a;
        if (rs->v[j].lo < nlo)
            nlo = rs->v[j].lo;
        if (rs->v[j].hi > nhi)
            nhi = rs->v[j].hi;
        j++;
    }
    struct tn_gap g = {.lo = nlo, .hi = nhi};
    if (j > i) {
        g = rs->v[i];
        g.lo = nlo;
        g.hi = nhi;
        remove_span(rs, i, j - i);
    }
    insert_at(rs, i, g);
    return (hi - lo) - covered;
}

unsigned tn_ranges_prune_below(struct tn_rangeset *rs, int64_t x, int64_t *bytes)
{
    unsigned k = first_above(rs, x);
    if (bytes) {
        *bytes = 0;
        for (unsigned i = 0; i < k; i++)
            *bytes += rs->v[i].hi - rs->v[i].lo;
    }
    if (k)
        remove_span(rs, 0, k);
    return k;
}

int64_t tn_ranges_bytes_above(const struct tn_rangeset *rs, int64_t x)
{
    int64_t n = 0;
    for (unsigned i = first_above(rs, x); i < rs->n; i++)
        n += rs->v[i].hi - (rs->v[i].lo > x ? rs->v[i].lo : x);
    return n;
}

int64_t tn_ranges_highest(const struct tn_rangeset *rs)
{
    return rs->n ? rs->v[rs->n - 1].hi : 0;
}

void tn_ranges_free(struct tn_rangeset *rs)
{
    free(rs->v);
    *rs = (struct tn_rangeset){0};
}
