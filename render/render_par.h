/* render_par.h - private to render/: a report of many items rendered on several threads and
 * written in order (render_par.c). */
#ifndef TN_RENDER_PAR_H
#define TN_RENDER_PAR_H

#include <stddef.h>
#include <stdio.h>

#include "common.h"

struct tn_par_job {
    size_t n;                  /* items 0 .. n-1 */
    size_t chunk;              /* consecutive items a thread renders at once */
    /* each thread's own state (NULL: none), made and freed on that thread */
    void *(*state_new)(const void *arg);
    void (*state_free)(void *state);
    /* items [lo, hi) onto f, as one thread renders them to out */
    void (*render)(FILE *f, void *state, size_t lo, size_t hi, const void *arg);
    const void *arg;
};

/* The job on `threads` threads, the caller's among them: out receives what render(out, state,
 * 0, n) writes, byte for byte. */
void tn_par_render(FILE *out, const struct tn_par_job *job, unsigned threads);

#endif
