/* capture_order.c - the order in which several trace files make one trace: by the time stamp of
 * each file's first frame (tn_capture_time_order), as mergecap orders them. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"

int64_t tn_capture_first_ns(const char *path)
{
    if (strcmp(path, "-") == 0)
        return INT64_MIN;   /* standard input cannot be read twice */
    struct tn_capture *c;
    struct tn_err err;
    if (tn_capture_open_file(&c, path, &err) < 0)
        return INT64_MIN;
    struct tn_frame f;
    int r = tn_capture_next(c, &f, &err);
    int64_t t = r == 1 ? tn_time_ns(f.ts) : INT64_MIN;
    tn_capture_close(c, NULL);
    return t;
}

struct keyed {
    int64_t t;
    int i;
};

static int cmp_keyed(const void *x, const void *y)
{
    const struct keyed *a = x, *b = y;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

void tn_capture_time_order(const char *const *paths, int n, int *order, int64_t *first_ns)
{
    if (n <= 0)
        return;
    struct keyed *k = tn_xmalloc((size_t)n * sizeof *k);
    int64_t before = INT64_MIN;   /* the time of the latest file before with one */
    for (int i = 0; i < n; i++) {
        bool in = strcmp(paths[i], "-") == 0;
        int64_t t = in ? INT64_MIN : tn_capture_first_ns(paths[i]);
        /* standard input goes first (whatever its times, it is open from the start); a file
         * without a time stays after the one given before it, where its problem is told */
        k[i] = (struct keyed){t == INT64_MIN && !in ? before : t, i};
        if (t != INT64_MIN)
            before = t;
    }
    qsort(k, (size_t)n, sizeof *k, cmp_keyed);
    for (int i = 0; i < n; i++) {
        order[i] = k[i].i;
        if (first_ns)
            first_ns[i] = k[i].t;
    }
    free(k);
}
