/* safeout.c - output files under a mkstemp name, checked at every step, renamed when complete
 * (see safeout.h).  Reference: mkstemp(3), fopencookie(3), fsync(2), rename(2). */
#include "safeout.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Temporaries open now, for tn_safeout_abort_all in a signal handler.  A handful are open at a
 * time (one per writer); one that finds no slot is simply not removed by a signal. */
#define LIVE_MAX 64
static struct tn_safeout *volatile live[LIVE_MAX];

static void live_add(struct tn_safeout *o)
{
    for (int i = 0; i < LIVE_MAX; i++)
        if (!live[i]) {
            live[i] = o;
            return;
        }
}

static void live_del(struct tn_safeout *o)
{
    for (int i = 0; i < LIVE_MAX; i++)
        if (live[i] == o)
            live[i] = NULL;
}

void tn_safeout_abort_all(void)
{
    for (int i = 0; i < LIVE_MAX; i++) {
        struct tn_safeout *o = live[i];
        if (o)
            unlink(o->tmp);
    }
}

int tn_safeout_chown_all(unsigned uid, unsigned gid)
{
    for (int i = 0; i < LIVE_MAX; i++) {
        struct tn_safeout *o = live[i];
        if (o && fchown(o->fd, (uid_t)uid, (gid_t)gid) != 0)
            return -1;
    }
    return 0;
}

/* The stream's write: all of it or -1, keeping the first errno (stdio's error flag does not
 * say why). */
static ssize_t cookie_write(void *c, const char *buf, size_t n)
{
    struct tn_safeout *o = c;
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(o->fd, buf + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (!o->err)
                o->err = w < 0 ? errno : EIO;
            return -1;
        }
        done += (size_t)w;
    }
    return (ssize_t)n;
}

/* fclose on the stream leaves the descriptor to commit (fsync, close) */
static int cookie_close(void *c)
{
    (void)c;
    return 0;
}

int tn_safeout_open(struct tn_safeout *o, const char *path, struct tn_err *err)
{
    memset(o, 0, sizeof *o);
    o->fd = -1;   /* not open until mkstemp succeeds */
    if (snprintf(o->path, sizeof o->path, "%s", path) >= (int)sizeof o->path)
        return tn_err_set(err, TN_EIO, "%s: name too long", path);
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    int dirlen = slash ? (int)(slash - path + 1) : 0;
    if (snprintf(o->tmp, sizeof o->tmp, "%.*s.%s.XXXXXX", dirlen, path, base) >=
        (int)sizeof o->tmp)
        return tn_err_set(err, TN_EIO, "%s: name too long", path);
    o->fd = mkstemp(o->tmp);
    if (o->fd < 0)
        return tn_err_set(err, TN_EIO, "%s: cannot create a file in its directory: %s", path,
                          strerror(errno));
    /* mkstemp makes 0600; an output gets what open(2) would give it under the umask */
    mode_t mask = umask(0);
    umask(mask);
    (void)fchmod(o->fd, 0666 & ~mask);
    cookie_io_functions_t fns = {.write = cookie_write, .close = cookie_close};
    o->fp = fopencookie(o, "w", fns);
    if (!o->fp) {
        int e = errno;
        close(o->fd);
        unlink(o->tmp);
        o->fd = -1;
        return tn_err_set(err, TN_EIO, "%s: %s", path, strerror(e));
    }
    setvbuf(o->fp, NULL, _IOFBF, 1u << 16);
    o->active = true;
    live_add(o);
    return 0;
}

int tn_safeout_commit(struct tn_safeout *o, struct tn_err *err)
{
    if (!o->active)
        return tn_err_set(err, TN_EIO, "%s: not open", o->path);
    if (o->fp) {
        if (fflush(o->fp) != 0 && !o->err)
            o->err = errno ? errno : EIO;
        if (ferror(o->fp) && !o->err)
            o->err = EIO;
        fclose(o->fp);
        o->fp = NULL;
    }
    const char *step = "cannot write";
    if (!o->err && fsync(o->fd) != 0) {
        o->err = errno;
        step = "cannot write (fsync)";
    }
    if (close(o->fd) != 0 && !o->err) {
        o->err = errno;
        step = "cannot write (close)";
    }
    o->fd = -1;
    o->active = false;
    if (!o->err && rename(o->tmp, o->path) != 0) {
        o->err = errno;
        step = "cannot rename the finished file into place";
    }
    if (o->err) {
        unlink(o->tmp);
        live_del(o);
        return tn_err_set(err, TN_EIO, "%s: %s: %s; the file was not written", o->path, step,
                          strerror(o->err));
    }
    live_del(o);
    return 0;
}

void tn_safeout_abort(struct tn_safeout *o)
{
    if (!o->active)
        return;
    o->active = false;
    if (o->fp)
        fclose(o->fp);
    o->fp = NULL;
    close(o->fd);
    o->fd = -1;
    unlink(o->tmp);
    live_del(o);
}
