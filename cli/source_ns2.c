/* source_ns2.c - an ns-2 ASCII trace as a source: every line is an item (the link queues need
 * them all), with a packet where the line is one at its capture point. */
#include <stdio.h>
#include <stdlib.h>

#include "source.h"

/* Bad lines reported one by one; the rest are counted in the summary at the end. */
enum { NS2_WARN_LINES = 5 };

struct ns2_source {
    struct tn_source base;
    struct tn_ns2 *r;
    const char *path;
    struct tn_ns2_event ev;
    bool ended;                /* the summary of bad lines was handed out */
};

static int ns2_next(struct tn_source *src, struct tn_source_pkt *out, struct tn_err *err)
{
    struct ns2_source *ns = (struct ns2_source *)src;
    for (;;) {
        if (ns->ended)
            return 0;
        int rc = tn_ns2_next(ns->r, &ns->ev, &out->pkt, &out->has_pkt, err);
        if (rc > 0) {
            if (out->has_pkt)
                tn_boundary_record(src->bnd, &out->pkt);
            out->status = TN_DIS_OK;
            out->egress = false;
            out->origin = ns->path;
            out->ns2 = &ns->ev;
            return 1;
        }
        if (rc < 0) {
            if (tn_ns2_bad_lines(ns->r) <= NS2_WARN_LINES)
                return -TN_ETRUNC;   /* a warning: the run goes on */
            continue;
        }
        ns->ended = true;
        uint64_t bad = tn_ns2_bad_lines(ns->r), lines = tn_ns2_lines(ns->r);
        if (!bad)
            return 0;
        /* a file of nothing but bad lines is not an ns-2 trace: the exit status says so */
        return tn_err_set(err, bad == lines ? TN_EFORMAT : TN_ETRUNC,
                          "%s: %llu of %llu lines are not ns-2 trace lines (skipped)", ns->path,
                          (unsigned long long)bad, (unsigned long long)lines);
    }
}

static int ns2_close(struct tn_source *src, struct tn_err *err)
{
    (void)err;
    struct ns2_source *ns = (struct ns2_source *)src;
    tn_ns2_close(ns->r);
    free(ns);
    return 0;
}

static const struct tn_source_ops ns2_ops = {
    .name = "ns-2",
    .next = ns2_next,
    .close = ns2_close,
};

int tn_source_open_ns2(struct tn_source **out, const char *path, struct tn_err *err)
{
    struct tn_ns2 *r;
    int rc = tn_ns2_open(&r, path, err);
    if (rc < 0)
        return rc;
    struct ns2_source *ns = tn_xcalloc(1, sizeof *ns);
    ns->base.ops = &ns2_ops;
    ns->r = r;
    ns->path = path;
    *out = &ns->base;
    return 0;
}
