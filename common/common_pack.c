/* common_pack.c - bytes one process writes for another: a growing buffer, and a reader that
 * never reads past the end (a sticky flag, as the dissector's cursor). */
#include <stdlib.h>
#include <string.h>

#include "common.h"

void tn_packbuf_put(struct tn_packbuf *b, const void *v, size_t n)
{
    if (n == 0)
        return;
    tn_grow((void **)&b->p, &b->cap, b->n + n, 1);
    memcpy(b->p + b->n, v, n);
    b->n += n;
}

void tn_packbuf_fini(struct tn_packbuf *b)
{
    free(b->p);
    *b = (struct tn_packbuf){0};
}
