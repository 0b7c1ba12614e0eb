/* common.c - error buffer and checked allocation. */
#include "common.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void (*fatal_hook)(void);

int tn_err_set(struct tn_err *e, int code, const char *fmt, ...)
{
    if (e) {
        va_list ap;
        va_start(ap, fmt);
        e->code = code;
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
    }
    return -code;
}

void tn_set_fatal_hook(void (*hook)(void))
{
    fatal_hook = hook;
}

/* The one place outside cli/ that may write to stderr: we are about to abort. */
_Noreturn void tn_fatal(const char *what)
{
    if (fatal_hook)
        fatal_hook();
    fputs("tcptrace-ng: fatal: ", stderr);
    fputs(what, stderr);
    fputc('\n', stderr);
    abort();
}

_Noreturn void tn_bug(const char *cond, const char *file, int line)
{
    char what[256];
    snprintf(what, sizeof what, "bug: %s (%s:%d)", cond, file, line);
    tn_fatal(what);
}

void *tn_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        tn_fatal("out of memory");
    return p;
}

void *tn_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        tn_fatal("out of memory");
    return p;
}

void *tn_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        tn_fatal("out of memory");
    return q;
}

char *tn_xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = tn_xmalloc(n);
    memcpy(d, s, n);
    return d;
}

void tn_grow(void **arr, size_t *cap, size_t need, size_t elsz)
{
    if (need <= *cap)
        return;
    TN_BUG_ON(elsz == 0 || need > SIZE_MAX / 2 / elsz);  /* no array is half the address space */
    size_t ncap = *cap ? *cap : 16;
    while (ncap < need)
        ncap *= 2;
    *arr = tn_xrealloc(*arr, ncap * elsz);
    *cap = ncap;
}
