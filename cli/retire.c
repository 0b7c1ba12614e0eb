/* retire.c - the store of retirement (issue 12): a connection that closed both ways and
 * whose inference finished leaves memory for an unlinked temporary file in $TMPDIR (or /tmp),
 * its brief staying in memory; it is read back when a late packet of it comes and when an
 * output reads it.  One file per analysis thread: a thread writes only its own.
 *
 * An output reads a retired connection into the analyzer's one reading slot, so it must read
 * the connections one at a time.  The text reports, the timeline, every CSV file (fairness
 * included), JSON and xplot do; the figures (a figure of all flows), parallel transfers, the
 * queue views of one or two points and of ns-2 links, and the truth's grading hold several at
 * once: a run that asks for one of them keeps its connections in memory to the end, as the
 * dashboard does (its views keep connections by their place in the table, and its thread reads
 * them while the reader adds to them).
 *
 * A live capture on one interface retires as a run over files does: on a mirror port the
 * finished connections would otherwise stay in memory until the connection limit evicted them
 * from the report.  Nothing here depends on the input being a file: the reader has no lock
 * (only the dashboard's has one), each analysis thread writes and reads back only its own part,
 * the outputs read the store after the read loop has ended and the workers are joined (the
 * first SIGINT only ends the loop; a second one ends the process, and the unlinked files with
 * it), and the connection limit counts only the connections that hold state, so a retired one
 * is never evicted.  A live capture's briefs leave memory too, to a second file per thread, once
 * no late packet of their connection is expected (analysis_linger.c): a day on a mirror port
 * holds the last minutes' connections, not the day's.  Two live capture points stay in memory,
 * as two files do: their queue view (views_queue2pt.c) looks through every connection for each
 * flow it matched, which with a store would read every retired connection back from the file
 * once per flow. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "retire.h"
#include "pipeline.h"

static bool spill_put(void *arg, unsigned shard, const void *bytes, size_t n, struct tn_out_ref *ref)
{
    struct tn_retire *rt = arg;
    TN_BUG_ON(shard >= rt->nparts);
    struct tn_spill_part *sp = &rt->parts[shard];
    if (sp->failed || n > UINT32_MAX)
        return false;
    if (fwrite(bytes, 1, n, sp->f) != n) {
        sp->failed = true;   /* disk full: what is written stays readable, the rest stays in memory */
        clearerr(sp->f);
        return false;
    }
    *ref = (struct tn_out_ref){.at = sp->at, .len = (uint32_t)n, .part = shard};
    sp->at += n;
    atomic_store(&sp->dirty, true);
    return true;
}

/* What was written can be read back unless the disk fails under it: then the run cannot give
 * its outputs, and says so. */
static void spill_get(void *arg, const struct tn_out_ref *ref, void *bytes)
{
    struct tn_retire *rt = arg;
    TN_BUG_ON(ref->part >= rt->nparts);
    struct tn_spill_part *sp = &rt->parts[ref->part];
    if (atomic_load(&sp->dirty)) {   /* once, after the writes: readers may be several threads */
        pthread_mutex_lock(&rt->flush_mu);
        bool failed = atomic_load(&sp->dirty) && fflush(sp->f) != 0;
        atomic_store(&sp->dirty, false);
        pthread_mutex_unlock(&rt->flush_mu);
        if (failed)
            goto fail;
    }
    size_t done = 0;
    while (done < ref->len) {
        ssize_t got = pread(fileno(sp->f), (char *)bytes + done, ref->len - done, (off_t)(ref->at + done));
        if (got < 0 && errno == EINTR)
            continue;   /* a signal (how a live run ends) on a file system that lets it cut in */
        if (got <= 0)
            goto fail;
        done += (size_t)got;
    }
    return;
fail:;
    char msg[300];
    snprintf(msg, sizeof msg, "cannot read back a retired connection from the temporary file in %s: %s",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", errno ? strerror(errno) : "file cut short");
    tn_cli_warn(msg);
    exit(TN_EXIT_INPUT);
}

/* The store's writes go out 64 KiB at a time (a connection is about 1 KB); a live run's store
 * shows bytes after a few dozen connections (e2e_live_retire looks for them while it runs). */
#define SPILL_BUF (1 << 16)

/* An unlinked temporary file tcptrace-ng-WHAT-XXXXXX (its name in /proc/PID/fd says what it is). */
static FILE *temp_file(const char *what, char **buf, struct tn_err *err)
{
    const char *dir = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/tcptrace-ng-%s-XXXXXX", dir && *dir ? dir : "/tmp", what);
    int fd = mkstemp(path);
    if (fd < 0) {
        tn_err_set(err, TN_EIO, "%s: cannot create a temporary file for retired connections: %s", path,
                   strerror(errno));
        return NULL;
    }
    unlink(path);   /* gone with the process, whatever happens to it */
    FILE *f = fdopen(fd, "w+");
    if (!f) {
        tn_err_set(err, TN_EIO, "%s: %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    *buf = tn_xmalloc(SPILL_BUF);
    setvbuf(f, *buf, _IOFBF, SPILL_BUF);
    return f;
}

/* A live capture's briefs out of memory (analysis_linger.c): appended to a second unlinked
 * file per analysis thread, and read back in the same order at the end. */
static bool brief_put(void *arg, unsigned shard, const struct tn_conn_brief *b)
{
    struct tn_retire *rt = arg;
    TN_BUG_ON(shard >= rt->nparts);
    struct tn_spill_part *sp = &rt->parts[shard];
    if (sp->briefs_failed)
        return false;
    if (fwrite(b, sizeof *b, 1, sp->briefs) != 1) {
        sp->briefs_failed = true;   /* disk full: the briefs from now on stay in memory */
        clearerr(sp->briefs);
        return false;
    }
    sp->nbriefs++;
    return true;
}

static _Noreturn void briefs_lost(void)
{
    char msg[300];
    snprintf(msg, sizeof msg, "cannot read back the briefs of retired connections from the temporary file in %s: %s",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", errno ? strerror(errno) : "file cut short");
    tn_cli_warn(msg);
    exit(TN_EXIT_INPUT);
}

/* Read in batches of this many briefs (one at a time would be a call per connection). */
#define BRIEFS_READ 4096

static void brief_each(void *arg, unsigned shard, void (*each)(void *ctx, const struct tn_conn_brief *b), void *ctx)
{
    struct tn_retire *rt = arg;
    TN_BUG_ON(shard >= rt->nparts);
    struct tn_spill_part *sp = &rt->parts[shard];
    errno = 0;
    if (fflush(sp->briefs) != 0)
        briefs_lost();
    struct tn_conn_brief *v = tn_xmalloc(BRIEFS_READ * sizeof *v);
    for (uint64_t done = 0; done < sp->nbriefs;) {
        size_t want = sp->nbriefs - done < BRIEFS_READ ? (size_t)(sp->nbriefs - done) : BRIEFS_READ;
        size_t bytes = want * sizeof *v, got = 0;
        while (got < bytes) {
            ssize_t r = pread(fileno(sp->briefs), (char *)v + got, bytes - got, (off_t)(done * sizeof *v + got));
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0)
                briefs_lost();
            got += (size_t)r;
        }
        for (size_t i = 0; i < want; i++)
            each(ctx, &v[i]);
        done += want;
    }
    free(v);
}

/* How long a closed connection's brief stays in memory after its last packet: 2*MSL of
 * TIME-WAIT (RFC 9293 3.3.2), as Linux holds it: TCP_TIMEWAIT_LEN, 60 s (include/net/tcp.h).
 * TCPTRACE_NG_TIME_WAIT_S changes it (the tests, which cannot wait a minute). */
#define TIME_WAIT_S 60.0

static int64_t time_wait_ns(void)
{
    const char *env = getenv("TCPTRACE_NG_TIME_WAIT_S");
    char *end;
    double s = env && *env ? strtod(env, &end) : TIME_WAIT_S;
    if (env && *env && (*end || !(s > 0 && s < 1e6)))
        s = TIME_WAIT_S;
    return (int64_t)(s * 1e9);
}

/* A live capture on one interface writes its briefs out of memory too (analysis_linger.c). */
static void setup_briefs(struct tn_retire *rt, struct tn_analysis_cfg *cfg)
{
    for (unsigned i = 0; i < rt->nparts; i++) {
        struct tn_err err;
        if ((rt->parts[i].briefs = temp_file("briefs", &rt->parts[i].briefs_buf, &err)))
            continue;
        tn_cli_warn(err.msg);
        tn_cli_warn("the briefs of connections that closed are kept in memory to the end of the run instead");
        return;
    }
    cfg->brief_put = brief_put;
    cfg->brief_each = brief_each;
    cfg->time_wait_ns = time_wait_ns();
}

void tn_retire_setup(struct tn_retire *rt, const struct tn_options *o, struct tn_analysis_cfg *cfg,
                     unsigned workers)
{
    *rt = (struct tn_retire){0};
    if (o->tui || o->plot_dir || o->parallel_window_ns || o->queue_estimate || o->ningress ||
        o->ingress_if || o->ns2_file || o->truth_file)
        return;
    rt->nparts = workers ? workers : 1;
    rt->parts = tn_xcalloc(rt->nparts, sizeof *rt->parts);
    pthread_mutex_init(&rt->flush_mu, NULL);
    for (unsigned i = 0; i < rt->nparts; i++) {
        struct tn_err err;
        if ((rt->parts[i].f = temp_file("retired", &rt->parts[i].fbuf, &err)))
            continue;
        tn_cli_warn(err.msg);
        tn_cli_warn("connections that closed are kept in memory to the end of the run instead");
        tn_retire_fini(rt);
        return;
    }
    cfg->spill_put = spill_put;
    cfg->spill_get = spill_get;
    cfg->spill_arg = rt;
    /* a connection without sender state (DFCP, or TCP without data) idle this long goes too:
     * --idle-timeout, as the dashboard's (the outputs do not depend on it) */
    cfg->idle_retire_ns = o->idle_timeout_s > 0 ? (int64_t)(o->idle_timeout_s * 1e9) : 0;
    if (o->iface)
        setup_briefs(rt, cfg);
}

void tn_retire_fini(struct tn_retire *rt)
{
    for (unsigned i = 0; i < rt->nparts; i++) {
        if (rt->parts[i].f)
            fclose(rt->parts[i].f);
        free(rt->parts[i].fbuf);
        if (rt->parts[i].briefs)
            fclose(rt->parts[i].briefs);
        free(rt->parts[i].briefs_buf);
    }
    if (rt->parts)
        pthread_mutex_destroy(&rt->flush_mu);
    free(rt->parts);
    *rt = (struct tn_retire){0};
}
