/* mem_store.h - the store of retired connections in memory, for the unit tests and the fuzz
 * seeds: what cli/retire.c keeps in temporary files, behind tn_analysis_cfg's spill_put and
 * spill_get.  puts and gets count the connections written and read back. */
#ifndef TN_MEM_STORE_H
#define TN_MEM_STORE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

struct mem_store {
    uint8_t *p;
    size_t n, cap;
    unsigned puts;
    _Atomic unsigned gets;     /* outputs may read on several threads */
};

static inline bool mem_put(void *arg, unsigned part, const void *bytes, size_t n, struct tn_out_ref *ref)
{
    struct mem_store *m = arg;
    tn_grow((void **)&m->p, &m->cap, m->n + n, 1);
    memcpy(m->p + m->n, bytes, n);
    *ref = (struct tn_out_ref){.at = m->n, .len = (uint32_t)n, .part = part};
    m->n += n;
    m->puts++;
    return true;
}

/* A reference beyond what was written is the analysis's bug: abort, the test fails. */
static inline void mem_get(void *arg, const struct tn_out_ref *ref, void *bytes)
{
    struct mem_store *m = arg;
    if (ref->at > m->n || ref->len > m->n - ref->at) {
        fprintf(stderr, "mem_get: %u bytes at %llu, beyond the store's %zu\n", (unsigned)ref->len,
                (unsigned long long)ref->at, m->n);
        abort();
    }
    memcpy(bytes, m->p + ref->at, ref->len);
    m->gets++;
}

#endif
