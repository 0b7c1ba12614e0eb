/* source_twopoint.c - the files of two capture points as one source, merged by time stamp.
 * Packets carry egress = true when they were seen at the egress point.  (Two live points are
 * one capture on "any": source.c.)  Under MPI the egress files may be read by another rank: its
 * packets then come from a feed, as one more side (tn_source_twopoint_feed). */
#include <stdio.h>
#include <stdlib.h>

#include "source.h"

/* ---- files ---- */

struct side {
    struct tn_capture *cap;
    const struct tn_twopoint_feed *feed;   /* the egress packets another process read */
    const char *path;
    bool egress, have;
    bool opened;               /* open tried (a failure was reported once) */
    bool need;                 /* read the side's next packet before choosing */
    struct tn_pkt p;           /* the side's next packet (its payload points into the frame) */
    int st;
};

struct twopoint_source {
    struct tn_source base;
    struct side *sides;
    int n;
};

static const struct tn_twopoint_feed *egress_feed;

void tn_source_twopoint_feed(const struct tn_twopoint_feed *feed)
{
    egress_feed = feed;
}

/* The side's next packet into s->p: 1, 0 at its end, <0 with err. */
static int side_next(struct tn_source *src, struct side *s, struct tn_err *err)
{
    if (s->feed) {
        struct tn_source_pkt sp;
        int r = s->feed->next(s->feed->arg, &sp, err);
        if (r > 0) {
            s->p = sp.pkt;
            s->st = sp.status;
            s->path = sp.origin;
        }
        return r;
    }
    struct tn_frame f;
    int r = tn_capture_next(s->cap, &f, err);
    if (r > 0)
        s->st = tn_boundary_frame(src->bnd, &f, &s->p);
    return r;
}

static int twopoint_next(struct tn_source *src, struct tn_source_pkt *out, struct tn_err *err)
{
    struct twopoint_source *ts = (struct twopoint_source *)src;
    for (int i = 0; i < ts->n; i++) {
        struct side *s = &ts->sides[i];
        if (!s->opened) {
            s->opened = true;
            int r = tn_capture_open_file(&s->cap, s->path, err);
            if (r < 0)
                return r;
            s->need = true;
        }
        if (s->need) {   /* after a read problem need stays: the next call reads on */
            int r = side_next(src, s, err);
            if (r < 0)
                return r;
            s->need = false;
            s->have = r > 0;
        }
    }
    int best = -1;
    for (int i = 0; i < ts->n; i++)
        if (ts->sides[i].have && (best < 0 || tn_time_cmp(ts->sides[i].p.ts, ts->sides[best].p.ts) < 0))
            best = i;
    if (best < 0)
        return 0;
    struct side *s = &ts->sides[best];
    s->need = true;
    out->pkt = s->p;
    out->status = s->st;
    out->has_pkt = true;
    out->egress = s->egress;
    out->origin = s->path;
    out->ns2 = NULL;
    return 1;
}

static void twopoint_brk(struct tn_source *src)
{
    struct twopoint_source *ts = (struct twopoint_source *)src;
    for (int i = 0; i < ts->n; i++)
        if (ts->sides[i].cap)
            tn_capture_break(ts->sides[i].cap);
}

static int twopoint_close(struct tn_source *src, struct tn_err *err)
{
    (void)err;
    struct twopoint_source *ts = (struct twopoint_source *)src;
    for (int i = 0; i < ts->n; i++)
        tn_capture_close(ts->sides[i].cap, NULL);
    free(ts->sides);
    free(ts);
    return 0;
}

static const struct tn_source_ops twopoint_ops = {
    .name = "two-point",
    .next = twopoint_next,
    .brk = twopoint_brk,
    .close = twopoint_close,
};

int tn_source_open_twopoint(struct tn_source **out, const struct tn_options *o, struct tn_err *err)
{
    (void)err;
    struct twopoint_source *ts = tn_xcalloc(1, sizeof *ts);
    ts->base.ops = &twopoint_ops;
    /* with a feed, one side stands for every egress file: the feed merged them by time, ties
     * in their order, as the sides here do */
    ts->n = o->ningress + (egress_feed ? 1 : o->negress);
    ts->sides = tn_xcalloc((size_t)ts->n, sizeof *ts->sides);
    for (int i = 0; i < ts->n; i++) {
        struct side *s = &ts->sides[i];
        s->egress = i >= o->ningress;
        s->path = s->egress ? o->egress[i - o->ningress] : o->ingress[i];
        if (s->egress && egress_feed) {
            s->feed = egress_feed;
            s->opened = s->need = true;
        }
    }
    *out = &ts->base;
    return 0;
}
