/* source_files.c - several trace files as one trace, in time order, as mergecap merges them:
 * the files ordered by their first packet's time (tn_capture_time_order), each opened when its
 * first packet is due and read while the merge needs it, the next packet always the earliest of
 * the open files' heads (ties: the file whose first packet came first, then the one given
 * first).  A file's own packets keep their order.  Files in sequence (rotated captures, editcap
 * pieces) are read one after the other, overlapping ones (capture points of one run) merged; at
 * most the overlapping files are open at once.  Frames are dissected, and exported with -w, as
 * they are handed out. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "source.h"

struct input {
    char *path;                /* owned (the caller's names may go) */
    int64_t first_ns;          /* its first frame's time: it is opened when the merge gets there */
    struct tn_capture *cap;    /* open until its end */
    struct tn_frame f;         /* its next frame, when have */
    bool have, need;
    char *origin;              /* its name as the capture gives it ("(stdin)" for -): owned, as
                                * the analyzer keeps it for its anomaly report */
};

struct files_source {
    struct tn_source base;
    struct input *in;          /* by first time */
    int n;
    int opened;                /* inputs [0, opened) were opened, or tried */
    int *live, nlive;          /* the open ones, by index (a file's turn: its place in time) */
    const char *filter;        /* tcpdump -r FILE FILTER: set on each file */
    struct tn_capture_stats done;   /* of the files read to their end */
    struct tn_err *pending;    /* files that could not be opened at tn_source_open: told first */
    int npending;
    volatile sig_atomic_t stop;
};

static void close_input(struct files_source *fs, struct input *in)
{
    struct tn_capture_stats st;
    tn_capture_get_stats(in->cap, &st);
    fs->done.frames += st.frames;
    fs->done.filtered += st.filtered;
    tn_capture_close(in->cap, NULL);
    in->cap = NULL;
    in->have = in->need = false;
    int k = 0;
    for (int i = 0; i < fs->nlive; i++)
        if (&fs->in[fs->live[i]] != in)
            fs->live[k++] = fs->live[i];
    fs->nlive = k;
}

/* Open the next file in time order: 0, or <0 with err (a file that cannot be read, or a filter
 * that is none). */
static int open_next(struct files_source *fs, struct tn_err *err)
{
    struct input *in = &fs->in[fs->opened++];
    int r = tn_capture_open_file(&in->cap, in->path, err);
    if (r < 0) {
        in->cap = NULL;
        return r;
    }
    if (fs->filter && (r = tn_capture_set_filter(in->cap, fs->filter, err)) < 0) {
        tn_capture_close(in->cap, NULL);
        in->cap = NULL;
        return r;
    }
    in->need = true;
    fs->live[fs->nlive++] = fs->opened - 1;
    return 0;
}

static int files_next(struct tn_source *s, struct tn_source_pkt *out, struct tn_err *err)
{
    struct files_source *fs = (struct files_source *)s;
    if (fs->npending) {
        *err = fs->pending[--fs->npending];
        return -err->code;
    }
    for (;;) {
        if (fs->stop)
            return 0;
        int best = -1;
        for (int k = 0; k < fs->nlive; k++) {
            struct input *in = &fs->in[fs->live[k]];
            if (in->need) {
                int r = tn_capture_next(in->cap, &in->f, err);
                if (r < 0)
                    return r;   /* told by the caller; need stays: the next call reads on */
                in->need = false;
                in->have = r == 1;
                if (!in->have) {
                    close_input(fs, in);
                    k--;
                    continue;
                }
            }
            if (best < 0 || tn_time_cmp(in->f.ts, fs->in[best].f.ts) < 0)
                best = fs->live[k];
        }
        /* the next file opens when its first packet is due: before a head of the same time, so
         * that the tie goes to the file that came first */
        if (fs->opened < fs->n &&
            (best < 0 || fs->in[fs->opened].first_ns <= tn_time_ns(fs->in[best].f.ts))) {
            int r = open_next(fs, err);
            if (r < 0)
                return r;
            continue;
        }
        if (best < 0)
            return 0;
        struct input *in = &fs->in[best];
        if (!in->origin)
            in->origin = tn_xstrdup(in->f.source);
        out->status = tn_boundary_frame(s->bnd, &in->f, &out->pkt);
        out->has_pkt = true;
        out->egress = false;
        out->origin = in->origin;
        out->ns2 = NULL;
        in->need = true;
        return 1;
    }
}

static void files_brk(struct tn_source *s)
{
    ((struct files_source *)s)->stop = 1;   /* (async-signal-safe: the next call ends) */
}

static void files_stats(struct tn_source *s, struct tn_capture_stats *st)
{
    struct files_source *fs = (struct files_source *)s;
    *st = fs->done;
    for (int k = 0; k < fs->nlive; k++) {
        struct tn_capture_stats x;
        tn_capture_get_stats(fs->in[fs->live[k]].cap, &x);
        st->frames += x.frames;
        st->filtered += x.filtered;
    }
}

static int files_dump_open(struct tn_source *s, const char *path, struct tn_err *err)
{
    struct files_source *fs = (struct files_source *)s;
    if (fs->nlive)   /* the first file's link type and snap length */
        return tn_boundary_export(s->bnd, path, fs->in[fs->live[0]].cap, err);
    return tn_err_set(err, TN_EIO, "-w: none of the input files could be opened");
}

static int files_close(struct tn_source *s, struct tn_err *err)
{
    (void)err;
    struct files_source *fs = (struct files_source *)s;
    for (int i = 0; i < fs->n; i++) {
        if (fs->in[i].cap)
            tn_capture_close(fs->in[i].cap, NULL);
        free(fs->in[i].path);
        free(fs->in[i].origin);
    }
    free(fs->in);
    free(fs->live);
    free(fs->pending);
    free(fs);
    return 0;
}

static const struct tn_source_ops files_ops = {
    .name = "files",
    .next = files_next,
    .brk = files_brk,
    .stats = files_stats,
    .dump_open = files_dump_open,
    .close = files_close,
};

int tn_source_open_merged(struct tn_source **out, const char *const *paths, int n, const char *filter,
                          struct tn_err *err)
{
    *out = NULL;
    if (n <= 0)
        return tn_err_set(err, TN_EUSAGE, "no input files");
    struct files_source *fs = tn_xcalloc(1, sizeof *fs);
    fs->base.ops = &files_ops;
    fs->n = n;
    fs->filter = filter;
    fs->in = tn_xcalloc((size_t)n, sizeof *fs->in);
    fs->live = tn_xcalloc((size_t)n, sizeof *fs->live);
    int *order = tn_xmalloc((size_t)n * sizeof *order);
    int64_t *first = tn_xmalloc((size_t)n * sizeof *first);
    tn_capture_time_order(paths, n, order, first);
    for (int i = 0; i < n; i++)
        fs->in[i] = (struct input){.path = tn_xstrdup(paths[order[i]]), .first_ns = first[i]};
    free(order);
    free(first);
    /* The first file that opens is opened now, so that its link type is known early (an export)
     * and the filter is checked before any frame; those that fail before it are told first. */
    fs->pending = tn_xcalloc((size_t)n, sizeof *fs->pending);
    struct tn_err e;
    while (fs->opened < n && open_next(fs, &e) < 0) {
        if (e.code == TN_EUSAGE) {   /* the filter: nothing is read */
            *err = e;
            files_close(&fs->base, NULL);
            return -TN_EUSAGE;
        }
        fs->pending[fs->npending++] = e;
    }
    for (int i = 0; i < fs->npending / 2; i++) {   /* told oldest first (taken from the end) */
        struct tn_err t = fs->pending[i];
        fs->pending[i] = fs->pending[fs->npending - 1 - i];
        fs->pending[fs->npending - 1 - i] = t;
    }
    *out = &fs->base;
    return 0;
}
