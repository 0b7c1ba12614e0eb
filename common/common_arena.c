/* common_arena.c - memory handed out in order and given back all at once: what a connection
 * read back for an output lives in (analysis_retire.c), so that reading a million of them one
 * after the other does not go through malloc and free for each of their arrays. */
#include <stdlib.h>
#include <string.h>

#include "common.h"

struct tn_arena_chunk {
    struct tn_arena_chunk *next;
    size_t used, cap;
    max_align_t data[];
};

void *tn_arena_alloc(struct tn_arena *a, size_t n, bool zero)
{
    size_t need = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    struct tn_arena_chunk *c = a->head;
    if (!c || c->cap - c->used < need) {
        size_t cap = a->want > need ? a->want : need;
        if (cap < 4096)
            cap = 4096;
        c = tn_xmalloc(sizeof *c + cap);
        c->next = a->head;
        c->used = 0;
        c->cap = cap;
        a->head = c;
    }
    void *p = (unsigned char *)c->data + c->used;
    c->used += need;
    a->total += need;
    if (zero)
        memset(p, 0, n);
    return p;
}

void tn_arena_reset(struct tn_arena *a)
{
    /* one chunk stays, as large as the most that was ever held at once */
    if (a->total > a->want)
        a->want = a->total;
    struct tn_arena_chunk *c = a->head;
    if (c && (c->next || c->cap < a->want)) {
        tn_arena_free(a);
        c = NULL;
    }
    if (c)
        c->used = 0;
    a->total = 0;
}

void tn_arena_free(struct tn_arena *a)
{
    size_t want = a->want;
    while (a->head) {
        struct tn_arena_chunk *next = a->head->next;
        free(a->head);
        a->head = next;
    }
    a->total = 0;
    a->want = want;
}
