/* cluster_twopoint.c - two capture points over files with a rank per point (docs/cluster.md).
 *
 * One process merges the packets of both points by time stamp into one queue (views'
 * tn_q2), and analyses the ingress packets.  Here rank 1 reads and dissects the egress files
 * (merged by time, ties in file order, as the two-point source does) and streams what its source
 * gives, packets and read problems, to rank 0 in messages (cluster_wire.h's egress items); rank
 * 0 runs the run of one process, its two-point source taking the egress packets from that
 * stream (tn_source_twopoint_feed) where it would have read them: the same packets in the same
 * order, so the same outputs.  Two messages are in flight each way (one sent or received while
 * the next is filled or read).  Other ranks wait. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster_int.h"
#include "cluster_wire.h"
#include "pipeline.h"
#include "source.h"

/* Bytes of egress items in one message at most (MPI counts are int). */
#define TWOPT_MSG (4 << 20)
#define TAG_EGRESS 7

bool tn_cluster_two_points(const struct tn_options *o, int size)
{
    /* not with -w (one file of both points) or --anonymize (one address cache, and per-host
     * time stamp offsets, for both points): rank 0 reads both then */
    return size >= 2 && o->ningress > 0 && o->negress > 0 && !o->ingress_if && !o->tui && !o->write_file &&
           !o->anon_key;
}

/* ---- rank 1: the egress files ---- */

static int file_of(const struct tn_options *o, const char *origin)
{
    for (int i = 0; i < o->negress; i++)
        if (o->egress[i] == origin)
            return i;
    return -1;
}

struct sender {
    struct tn_packbuf buf[2];
    int cur;
    MPI_Request rq;
    bool busy;
};

/* The message being filled goes out; the one before it must have gone first. */
static void flush(struct sender *s)
{
    if (s->busy)
        tn_cluster_wait(&s->rq, MPI_STATUS_IGNORE);
    struct tn_packbuf *b = &s->buf[s->cur];
    MPI_Isend(b->p, (int)b->n, MPI_BYTE, 0, TAG_EGRESS, MPI_COMM_WORLD, &s->rq);
    s->busy = true;
    s->cur ^= 1;
    s->buf[s->cur].n = 0;
}

static void send_egress(const struct tn_options *o)
{
    struct tn_options sub = *o;   /* the egress files as the only point: merged as one process does */
    sub.ingress = o->egress;
    sub.ningress = o->negress;
    sub.negress = 0;
    struct sender s = {0};
    struct tn_source *src;
    struct tn_err err;
    int r = tn_source_open(&src, &sub, &err);
    if (r < 0) {
        tn_cluster_egress_problem_pack(r, &err, &s.buf[0]);
        src = NULL;
    }
    struct tn_source_pkt sp;
    unsigned long long pkts = 0, bytes = 0, msgs = 1;
    while (src && (r = tn_source_next(src, &sp, &err)) != 0) {
        struct tn_packbuf *b = &s.buf[s.cur];
        size_t before = b->n;
        if (r < 0)
            tn_cluster_egress_problem_pack(r, &err, b);
        else if (sp.has_pkt)
            tn_cluster_egress_pkt_pack(sp.status, (uint32_t)file_of(o, sp.origin), &sp.pkt, b);
        pkts += r > 0 && sp.has_pkt;
        bytes += b->n - before;
        if (b->n > TWOPT_MSG - TN_CLUSTER_EGRESS_MAX) {
            flush(&s);
            msgs++;
        }
    }
    if (s.buf[s.cur].n) {
        flush(&s);
        msgs++;
    }
    flush(&s);   /* an empty message: the end */
    tn_cluster_wait(&s.rq, MPI_STATUS_IGNORE);
    if (getenv("TN_CLUSTER_REPORT"))
        fprintf(stderr, "rank 1: the egress point's %d files, %llu packets sent to rank 0: %llu bytes (%.1f per "
                "packet) in %llu messages\n", o->negress, pkts, bytes, pkts ? (double)bytes / (double)pkts : 0.0, msgs);
    tn_source_close(src, NULL);
    tn_packbuf_fini(&s.buf[0]);
    tn_packbuf_fini(&s.buf[1]);
}

/* ---- rank 0: the egress packets from rank 1 ---- */

struct feed {
    const struct tn_options *o;
    uint8_t *buf[2];           /* buf[cur] is read; the other receives the next message */
    int cur;
    size_t n, off;
    MPI_Request rq;
    bool ended;
};

static void post(struct feed *f)
{
    MPI_Irecv(f->buf[f->cur ^ 1], TWOPT_MSG, MPI_BYTE, 1, TAG_EGRESS, MPI_COMM_WORLD, &f->rq);
}

static int feed_next(void *arg, struct tn_source_pkt *out, struct tn_err *err)
{
    struct feed *f = arg;
    while (f->off >= f->n) {
        if (f->ended)
            return 0;
        MPI_Status st;
        int count = 0;
        tn_cluster_wait(&f->rq, &st);
        MPI_Get_count(&st, MPI_BYTE, &count);
        f->cur ^= 1;
        f->n = (size_t)count;
        f->off = 0;
        if (count == 0)
            f->ended = true;
        else
            post(f);
    }
    int r = tn_cluster_egress_next(f->buf[f->cur], f->n, &f->off, f->o, out, err);
    if (r == 0)
        tn_cluster_abort(0, "an egress packet from rank 1 is cut or malformed");
    return r;
}

int tn_cluster_run_two_points(const struct tn_options *o, int rank, int (*alone)(const struct tn_options *o))
{
    int status = 0;
    if (rank == 1) {
        send_egress(o);
    } else if (rank == 0) {
        struct feed f = {.o = o, .buf = {tn_xmalloc(TWOPT_MSG), tn_xmalloc(TWOPT_MSG)}};
        post(&f);
        struct tn_twopoint_feed tf = {feed_next, &f};
        tn_source_twopoint_feed(&tf);
        status = alone(o);
        tn_source_twopoint_feed(NULL);
        /* a run that stopped early (a signal) leaves rank 1's last messages: take them */
        struct tn_source_pkt sp;
        struct tn_err err;
        while (feed_next(&f, &sp, &err) != 0)
            ;
        free(f.buf[0]);
        free(f.buf[1]);
    }
    return tn_cluster_share_status(status);
}
