/* views_linkq.c - exact link queue occupancy from a simulator's queue events (ns-2 traces).
 *
 * ns-2's trace objects write '+' when a packet is handed to a link's queue, '-' when the queue
 * releases it to the link, and 'd' when the queue discards it (a drop-tail queue discards on
 * arrival, after its '+'; RED may discard a packet already counted).  So the queue holds
 * '+' minus '-' minus 'd' packets at any moment, exactly (ns-2 manual, "Trace and Monitoring
 * Support", trace format).  'r' (received at the far end of the link) does not change it.
 * Events with one time stamp happen at once: the occupancy (series, maximum, average) is the
 * queue after all of them, so a drop-tail queue's '+' of a packet it drops at once, or a '+'
 * and '-' of a packet sent at once onto an idle link, is not a moment with one packet more.
 */
#include <stdlib.h>
#include <string.h>

#include "views.h"

struct tn_linkq {
    struct tn_linkq_link *links;
    size_t n, cap;
};

struct tn_linkq *tn_linkq_new(void)
{
    return tn_xcalloc(1, sizeof(struct tn_linkq));
}

void tn_linkq_free(struct tn_linkq *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->n; i++) {
        free(l->links[i].queue_pkts.pts);
        free(l->links[i].queue_bytes.pts);
        free(l->links[i].flow_drops);
    }
    free(l->links);
    free(l);
}

static struct tn_linkq_link *find(struct tn_linkq *l, int from, int to)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->links[i].from == from && l->links[i].to == to)
            return &l->links[i];
    tn_grow((void **)&l->links, &l->cap, l->n + 1, sizeof *l->links);
    struct tn_linkq_link *k = &l->links[l->n++];
    memset(k, 0, sizeof *k);
    k->from = from;
    k->to = to;
    return k;
}

static void push(struct tn_series *s, int64_t t, double v)
{
    if (s->n && s->pts[s->n - 1].t_ns == t) {   /* same instant: the final value */
        s->pts[s->n - 1].v = v;
        return;
    }
    tn_grow((void **)&s->pts, &s->cap, s->n + 1, sizeof *s->pts);
    s->pts[s->n++] = (struct tn_point){t, v};
}

/* The queue as it stands after every event of an instant: events of one time stamp happen
 * together (an enqueue and the dequeue of the same packet at once is no waiting). */
static void settle(struct tn_linkq_link *k)
{
    if (k->pkts > k->max_pkts)
        k->max_pkts = k->pkts;
    if (k->bytes > k->max_bytes)
        k->max_bytes = k->bytes;
}

void tn_linkq_finish(struct tn_linkq *l)
{
    for (size_t i = 0; i < l->n; i++)
        settle(&l->links[i]);
}

void tn_linkq_event(struct tn_linkq *l, int ev, int64_t t_ns, int from, int to, uint32_t size, int fid,
                    long id)
{
    (void)id;
    if (ev != TN_LQ_ENQUE && ev != TN_LQ_DEQUE && ev != TN_LQ_DROP)
        return;
    struct tn_linkq_link *k = find(l, from, to);
    if (k->enq + k->deq + k->drops == 0)
        k->first_ns = k->last_ns = t_ns;
    if (t_ns > k->last_ns) {
        settle(k);   /* the previous instant is over */
        k->pkts_area += (double)k->pkts * (double)(t_ns - k->last_ns) / 1e9;
        k->last_ns = t_ns;
    }
    switch (ev) {
    case TN_LQ_ENQUE:
        k->enq++;
        k->pkts++;
        k->bytes += size;
        break;
    case TN_LQ_DEQUE:
    case TN_LQ_DROP:
        if (ev == TN_LQ_DEQUE) {
            k->deq++;
        } else {
            k->drops++;
            k->drop_bytes += size;
            if (fid >= 0 && fid < 1000000) {
                if ((size_t)fid >= k->nfid) {
                    size_t nn = (size_t)fid + 1;
                    k->flow_drops = tn_xrealloc(k->flow_drops, nn * sizeof *k->flow_drops);
                    memset(k->flow_drops + k->nfid, 0, (nn - k->nfid) * sizeof *k->flow_drops);
                    k->nfid = nn;
                }
                k->flow_drops[fid]++;
            }
        }
        /* a packet leaving a queue the trace never showed it enter (trace cut at the start) */
        if (k->pkts)
            k->pkts--;
        k->bytes = k->bytes >= size ? k->bytes - size : 0;
        break;
    }
    push(&k->queue_pkts, t_ns, k->pkts);
    push(&k->queue_bytes, t_ns, (double)k->bytes);
}

size_t tn_linkq_count(const struct tn_linkq *l)
{
    return l->n;
}

const struct tn_linkq_link *tn_linkq_link(const struct tn_linkq *l, size_t i)
{
    return i < l->n ? &l->links[i] : NULL;
}
