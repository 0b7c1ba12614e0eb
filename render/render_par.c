/* render_par.c - a report of many items rendered on several threads and written in order:
 * each thread renders chunks of consecutive items into memory, and a chunk goes out once the
 * one before it has, so the output is what one thread rendering the items in order writes. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "render_par.h"

/* A thread's chunk: a growable buffer behind a FILE, so the renderers write to it as to out. */
struct membuf {
    char *p;
    size_t n, cap;
};

static ssize_t membuf_write(void *cookie, const char *s, size_t len)
{
    struct membuf *m = cookie;
    if (m->n + len > m->cap) {
        size_t cap = m->cap ? m->cap : 1 << 16;
        while (cap < m->n + len)
            cap *= 2;
        m->p = tn_xrealloc(m->p, cap);
        m->cap = cap;
    }
    memcpy(m->p + m->n, s, len);
    m->n += len;
    return (ssize_t)len;
}

struct par {
    const struct tn_par_job *job;
    FILE *out;
    atomic_size_t next;        /* the next chunk to render */
    pthread_mutex_t mu;
    pthread_cond_t turn_cv;
    size_t turn;               /* the chunk whose turn it is to be written */
};

/* A rendered chunk to out: straight to its file once out's buffer is empty (a report is hundreds
 * of MB: no copy into that buffer); through stdio where out has no file, or on an error, which
 * stdio then keeps on out as for a report written by one thread. */
static void put_chunk(FILE *out, const char *p, size_t n)
{
    int fd = fileno(out);
    if (fd < 0 || fflush(out) != 0) {
        fwrite(p, 1, n, out);
        return;
    }
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            fwrite(p, 1, n, out);
            return;
        }
        p += w;
        n -= (size_t)w;
    }
}

/* Render chunks until none is left, each written to out in its turn. */
static void *par_thread(void *arg)
{
    struct par *pp = arg;
    const struct tn_par_job *job = pp->job;
    struct membuf m = {0};
    /* unbuffered: each fwrite of a renderer goes straight into m, copied once */
    FILE *f = fopencookie(&m, "w", (cookie_io_functions_t){.write = membuf_write});
    if (!f)
        tn_fatal("cannot open a memory stream for a report");
    setvbuf(f, NULL, _IONBF, 0);
    void *st = job->state_new ? job->state_new(job->arg) : NULL;
    for (;;) {
        size_t k = atomic_fetch_add(&pp->next, 1);
        size_t lo = k * job->chunk;
        if (lo >= job->n)
            break;
        size_t hi = lo + job->chunk < job->n ? lo + job->chunk : job->n;
        m.n = 0;
        job->render(f, st, lo, hi, job->arg);
        fflush(f);
        pthread_mutex_lock(&pp->mu);
        while (pp->turn != k)
            pthread_cond_wait(&pp->turn_cv, &pp->mu);
        pthread_mutex_unlock(&pp->mu);
        put_chunk(pp->out, m.p, m.n);
        pthread_mutex_lock(&pp->mu);
        pp->turn++;
        pthread_cond_broadcast(&pp->turn_cv);
        pthread_mutex_unlock(&pp->mu);
    }
    if (job->state_free)
        job->state_free(st);
    fclose(f);
    free(m.p);
    return NULL;
}

void tn_par_render(FILE *out, const struct tn_par_job *job, unsigned threads)
{
    struct par pp = {.job = job, .out = out};
    atomic_init(&pp.next, 0);
    pthread_mutex_init(&pp.mu, NULL);
    pthread_cond_init(&pp.turn_cv, NULL);
    pthread_t *th = tn_xcalloc(threads, sizeof *th);
    unsigned started = 0;
    /* the caller's thread is one of them; one that cannot start leaves its chunks to the rest */
    while (started + 1 < threads && pthread_create(&th[started], NULL, par_thread, &pp) == 0)
        started++;
    par_thread(&pp);
    for (unsigned i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    free(th);
    pthread_cond_destroy(&pp.turn_cv);
    pthread_mutex_destroy(&pp.mu);
}
