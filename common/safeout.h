/* safeout.h - one output file written safely; every writer (CSV, figures, xplot, -w) uses it.
 *
 * The file is written under a temporary name made by mkstemp in the target's own directory
 * (O_CREAT|O_EXCL: a name planted there, symlink or not, is never opened, followed or reused),
 * through a stream that keeps the errno of the first failed write.  Commit flushes, fsyncs,
 * closes and renames it over the final name, and any failure on the way (a full disk, an I/O
 * error) is an error naming the file and the reason, with the temporary removed: a partial
 * file never stands under the final name.
 */
#ifndef TN_SAFEOUT_H
#define TN_SAFEOUT_H

#include <stdbool.h>
#include <stdio.h>

#include "common.h"

struct tn_safeout {
    FILE *fp;                  /* write here; NULL after commit/abort (or when handed on) */
    int fd;
    bool active;               /* between a successful open and commit/abort */
    int err;                   /* errno of the first failed write, 0 if none */
    char path[4096];           /* final name */
    char tmp[4096];            /* temporary name, same directory */
};

/* Create the temporary for path.  0, or -TN_EIO with err naming path and the reason.  The
 * struct must stay where it is until commit or abort (the stream refers to it). */
int tn_safeout_open(struct tn_safeout *o, const char *path, struct tn_err *err);

/* Flush, fsync, close and rename over the final name.  0, or -TN_EIO with err filled and the
 * temporary removed.  Also right after o->fp was closed by someone else (pcap_dump_close):
 * set o->fp = NULL first; the descriptor is still this module's. */
int tn_safeout_commit(struct tn_safeout *o, struct tn_err *err);

/* Give up: close and remove the temporary.  Safe on a struct already committed or aborted. */
void tn_safeout_abort(struct tn_safeout *o);

/* Give every output open now to uid:gid (-Z: the files opened before the privileges are
 * dropped belong to the user the run becomes).  0, or -1 with errno. */
int tn_safeout_chown_all(unsigned uid, unsigned gid);

/* Remove every temporary still open.  Async-signal-safe (unlink only): for a second signal,
 * which ends the run at once. */
void tn_safeout_abort_all(void);

#endif
