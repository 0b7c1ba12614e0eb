/* shards.c - -j N: one reader, N workers.  Packets travel in blocks (one lock per block, not
 * per packet) through a bounded queue per worker; each worker is the only owner of its
 * analyzer, finishes it at the end, and the reader merges them (tn_analyzer_merge). */
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "shards.h"

enum {
    BLOCK_ITEMS = 512,         /* packets per hand-over: fewer wake-ups than 256 (bulk8 -j 2) */
    WORKER_BLOCKS = 16,        /* blocks per worker: the reader's, the worker's, the queue */
    MAX_WORKERS = 1024,
    OWNER_BUCKETS = 1 << 12,   /* flow-hash buckets, each owned by one worker: 8 KB, which stays
                                * in the reader's cache (65,536 missed it: 37 ms on short50k) */
};

/* Live, a block not yet full goes out with the first packet read 10 ms after its first one:
 * on a quiet link packets reach their worker soon (the rest go out at the end of input). */
#define LIVE_FLUSH_NS 10000000

struct item {
    struct tn_pkt pkt;         /* payload pointer cleared: the analysis reads lengths only */
    struct tn_pkt_place place;
    int64_t retire_idle_ns;    /* > 0: not a packet but "retire idle at place.clock_ns" */
};

struct block {
    unsigned n;
    struct item it[BLOCK_ITEMS];
};

struct worker {
    struct tn_shards *s;
    pthread_t th;
    bool started;
    struct tn_analyzer *an;
    pthread_mutex_t mu;
    pthread_cond_t work, freed;
    struct block *queue[WORKER_BLOCKS];   /* full blocks, oldest at head */
    unsigned qhead, qn;
    struct block *free[WORKER_BLOCKS];
    unsigned nfree;
    bool done;                 /* no more blocks will come */
    struct block *cur;         /* the reader's block being filled (reader only) */
    int64_t cur_since;         /* wall time of its first item (live) */
    uint64_t dropped;          /* reader only */
    uint64_t handed;           /* packets handed to it (reader only) */
};

struct tn_shards {
    unsigned n;
    bool live;
    struct worker *w;
    uint16_t *owner;           /* [OWNER_BUCKETS]: worker + 1 of each bucket, 0: none yet */
};

static int64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void run_block(struct worker *w, const struct block *b)
{
    for (unsigned i = 0; i < b->n; i++) {
        const struct item *it = &b->it[i];
        if (it->retire_idle_ns > 0)
            tn_analyzer_retire_idle(w->an, it->place.clock_ns, it->retire_idle_ns);
        else
            tn_analyzer_add_flow(w->an, &it->pkt, it->place);
    }
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    for (;;) {
        pthread_mutex_lock(&w->mu);
        while (w->qn == 0 && !w->done)
            pthread_cond_wait(&w->work, &w->mu);
        if (w->qn == 0) {
            pthread_mutex_unlock(&w->mu);
            break;
        }
        struct block *b = w->queue[w->qhead];
        w->qhead = (w->qhead + 1) % WORKER_BLOCKS;
        w->qn--;
        pthread_mutex_unlock(&w->mu);
        run_block(w, b);
        pthread_mutex_lock(&w->mu);
        w->free[w->nfree++] = b;
        pthread_cond_signal(&w->freed);
        pthread_mutex_unlock(&w->mu);
    }
    tn_analyzer_finish(w->an);   /* the shards finish side by side */
    return NULL;
}

/* Hand the reader's block to its worker and take a free one.  Live (and not at the end): when
 * the worker is behind, the block's packets are dropped and counted instead of waiting; its
 * retirement items stay, so memory stays bounded. */
static void submit(struct tn_shards *s, struct worker *w, bool may_wait)
{
    struct block *b = w->cur;
    pthread_mutex_lock(&w->mu);
    if (w->nfree == 0 && s->live && !may_wait) {
        pthread_mutex_unlock(&w->mu);
        unsigned kept = 0;
        for (unsigned i = 0; i < b->n; i++) {
            if (b->it[i].retire_idle_ns > 0)
                b->it[kept++] = b->it[i];
            else
                w->dropped++;
        }
        b->n = kept;
        return;
    }
    while (w->nfree == 0)
        pthread_cond_wait(&w->freed, &w->mu);
    w->queue[(w->qhead + w->qn) % WORKER_BLOCKS] = b;
    w->qn++;
    w->cur = w->free[--w->nfree];
    pthread_cond_signal(&w->work);
    pthread_mutex_unlock(&w->mu);
    w->cur->n = 0;
}

static struct item *slot(struct tn_shards *s, struct worker *w)
{
    if (w->cur->n == BLOCK_ITEMS)
        submit(s, w, false);
    if (w->cur->n == BLOCK_ITEMS)   /* live, dropped but full of retirement items */
        submit(s, w, true);
    if (s->live && w->cur->n == 0)
        w->cur_since = mono_ns();
    return &w->cur->it[w->cur->n++];
}

/* The worker of a packet: its flow-hash bucket's, given at the bucket's first packet to the
 * worker handed the fewest packets so far.  A hash modulo the workers gives each a share of the
 * connections by chance (bulk8's 8 flows went 6 to one worker, 2 to the other); the first
 * packets come in trace order, so the choice is the same on every run. */
static struct worker *owner_of(struct tn_shards *s, uint64_t hash)
{
    uint16_t *o = &s->owner[(hash >> 32) & (OWNER_BUCKETS - 1)];
    if (!*o) {
        unsigned best = 0;
        for (unsigned i = 1; i < s->n; i++)
            if (s->w[i].handed < s->w[best].handed)
                best = i;
        *o = (uint16_t)(best + 1);
    }
    struct worker *w = &s->w[*o - 1];
    w->handed++;
    return w;
}

void tn_shards_pkt(struct tn_shards *s, const struct tn_pkt *p, struct tn_pkt_place place)
{
    struct worker *w = owner_of(s, tn_flow_hash(p));
    struct item *it = slot(s, w);
    it->pkt = *p;
    it->pkt.payload = NULL;
    it->place = place;
    it->retire_idle_ns = 0;
    if (s->live && mono_ns() - w->cur_since >= LIVE_FLUSH_NS)
        submit(s, w, false);
}

uint64_t tn_shards_handed(const struct tn_shards *s, unsigned i)
{
    return i < s->n ? s->w[i].handed : 0;
}

void tn_shards_retire(struct tn_shards *s, int64_t now_ns, int64_t idle_ns)
{
    for (unsigned i = 0; i < s->n; i++) {
        struct item *it = slot(s, &s->w[i]);
        it->place = (struct tn_pkt_place){.ord = 0, .clock_ns = now_ns};
        it->retire_idle_ns = idle_ns;
    }
}

static void free_worker(struct worker *w)
{
    tn_analyzer_free(w->an);
    free(w->cur);
    for (unsigned i = 0; i < w->nfree; i++)
        free(w->free[i]);
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->work);
    pthread_cond_destroy(&w->freed);
}

/* Stop and join the started workers (their analyzers finished), free everything. */
static void stop_all(struct tn_shards *s)
{
    for (unsigned i = 0; i < s->n; i++) {
        struct worker *w = &s->w[i];
        if (!w->started)
            continue;
        pthread_mutex_lock(&w->mu);
        w->done = true;
        pthread_cond_signal(&w->work);
        pthread_mutex_unlock(&w->mu);
        pthread_join(w->th, NULL);
    }
    for (unsigned i = 0; i < s->n; i++)
        free_worker(&s->w[i]);
    free(s->w);
    free(s->owner);
    free(s);
}

/* A worker's malloc arena (glibc gives each thread its own, in heaps of 64 MiB) grows by the
 * pages one allocation needs, one mprotect each without a pad: 90,000 calls on 50k short
 * connections, each holding the address space's lock against the other threads' page faults
 * (-j 2 took 0.2 s more system time than -j 1).  With a pad of a whole heap each heap is opened
 * at once; its pages are not touched, so not resident, until used. */
#define ARENA_PAD (64 << 20)

struct tn_shards *tn_shards_new(unsigned n, const struct tn_analysis_cfg *cfg, bool live)
{
    mallopt(M_TOP_PAD, ARENA_PAD);
    struct tn_shards *s = tn_xcalloc(1, sizeof *s);
    s->n = n;
    s->live = live;
    s->w = tn_xcalloc(n, sizeof *s->w);
    s->owner = tn_xcalloc(OWNER_BUCKETS, sizeof *s->owner);
    struct tn_analysis_cfg wc = *cfg;
    if (wc.max_conns)   /* the limit is the run's: each worker holds its share */
        wc.max_conns = wc.max_conns / n ? wc.max_conns / n : 1;
    for (unsigned i = 0; i < n; i++) {
        struct worker *w = &s->w[i];
        w->s = s;
        wc.shard = i;   /* its own spool for what retires (cli/retire.c) */
        w->an = tn_analyzer_new(&wc);
        pthread_mutex_init(&w->mu, NULL);
        pthread_cond_init(&w->work, NULL);
        pthread_cond_init(&w->freed, NULL);
        for (unsigned b = 0; b < WORKER_BLOCKS - 1; b++)
            w->free[w->nfree++] = tn_xmalloc(sizeof(struct block));
        w->cur = tn_xmalloc(sizeof(struct block));
        w->cur->n = 0;
    }
    for (unsigned i = 0; i < n; i++) {
        if (pthread_create(&s->w[i].th, NULL, worker_main, &s->w[i]) != 0) {
            stop_all(s);
            return NULL;
        }
        s->w[i].started = true;
    }
    return s;
}

uint64_t tn_shards_end(struct tn_shards *s, struct tn_analyzer *an)
{
    uint64_t dropped = 0;
    for (unsigned i = 0; i < s->n; i++) {
        struct worker *w = &s->w[i];
        if (w->cur->n)
            submit(s, w, true);
        dropped += w->dropped;
    }
    /* every worker told first, then joined: they finish their analyzers side by side (joined
     * one by one as they were told, each began its finish only when the one before had ended) */
    for (unsigned i = 0; i < s->n; i++) {
        struct worker *w = &s->w[i];
        pthread_mutex_lock(&w->mu);
        w->done = true;
        pthread_cond_signal(&w->work);
        pthread_mutex_unlock(&w->mu);
    }
    for (unsigned i = 0; i < s->n; i++) {
        pthread_join(s->w[i].th, NULL);
        s->w[i].started = false;
    }
    struct tn_analyzer **v = tn_xmalloc(s->n * sizeof *v);
    for (unsigned i = 0; i < s->n; i++)
        v[i] = s->w[i].an;
    tn_analyzer_merge(an, v, s->n);
    free(v);
    stop_all(s);
    return dropped;
}

unsigned tn_shards_default(long asked)
{
    long n = asked > 0 ? asked : sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        n = 1;
    return n > MAX_WORKERS ? MAX_WORKERS : (unsigned)n;
}
