/* cluster_mpi.c - one run over the ranks of an MPI job (docs/cluster.md).  Only the MPI
 * standard is used (MPI-3 collectives and point-to-point), so Open MPI and MPICH both do.
 *
 * Reading: rank r reads its run of the files (tn_cluster_partition) in order.  Rounds: every
 * rank tells the others (MPI_Allgather) whether it has finished and how many bytes of records
 * it holds; then the ranks read at most TN_CLUSTER_ROUND_RECORDS packets each, and
 * MPI_Alltoallv delivers each TCP/DFCP packet's record (tn_pkt_pack) to the rank owning its
 * connection, tn_flow_hash modulo the ranks.  One process reads the files one after the
 * other; an owner therefore analyses the records of rank s only once every rank before s has
 * finished, and those of one rank in the order that rank read them: every connection sees its
 * packets in the order (and, files being in time order, the time order) of one process, across
 * file boundaries.  Meanwhile the records of later ranks are held: the first unfinished rank
 * always reads, the others read ahead while no rank holds more than its share of the memory
 * (hold_limit), so the ranks read and dissect in parallel as far as memory allows and the
 * analysis never waits for more than the ranks before it.  Every packet counts in its reader's
 * trace totals (tn_analyzer_count); an owner analyses a record at its place in the trace of one
 * process (tn_pkt_place, /work/wt/SHARDS.md): the key (file, packet number) for the ordinal,
 * and for the clock the latest time stamp before it, of the ranks before its reader and of its
 * reader's own earlier packets.  Threads inside a rank (-j; by default the machine's cores over
 * its ranks) are issue 12's shards (cli/shards.c) under the owner.
 *
 * Merge: after the last round each owner finishes its analysis and sends its connections
 * (tn_conn_pack; each keeps its first packet's key in tn_conn.ord) and its trace totals to rank
 * 0, which merges them with its own (tn_analyzer_merge: in the order of the keys, numbered so,
 * as one process numbers connections by their first packet) and writes every output through
 * the outputs table (run.c).
 *
 * Experiments (--experiment): rank r reads traces r, r + N, ... and sends each trace's
 * connections to rank 0, which builds the experiment table in trace order (experiment.c). */
#include <limits.h>
#include <stdarg.h>
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cluster.h"
#include "cluster_int.h"
#include "cluster_wire.h"
#include "experiment.h"
#include "outputs.h"
#include "report_file.h"
#include "retire.h"
#include "run.h"
#include "shards.h"

/* Share of a node's memory the records held for later ranks may take, all ranks of the node
 * together (TN_CLUSTER_HOLD_MB sets one rank's share instead). */
#define TN_CLUSTER_HOLD_SHARE 4
/* Records one rank reads at most per round: the round's buffers stay near 10 MB a rank
 * (TN_CLUSTER_ROUND in the environment sets another number). */
#define TN_CLUSTER_ROUND_RECORDS 65536
/* The merge's messages: about this many bytes of connections each, sent in pieces of at most
 * TN_CLUSTER_CHUNK (MPI counts are int). */
#define TN_CLUSTER_RESULT_MSG (64 << 20)
#define TN_CLUSTER_CHUNK (1 << 30)

/* What each rank tells the others before a round: finished, bytes held for later, the latest
 * time stamp it read (INT64_MIN: none), bytes of connections retired since the last round that
 * it sends rank 0 now, the earliest time stamp it read (INT64_MAX: none). */
#define STATE 5

/* The key of a packet in the order one process reads them: file index, packet number. */
static uint64_t pkt_key(int file, uint64_t num)
{
    return tn_cluster_key((uint32_t)file, num);
}

struct job {
    const struct tn_options *o;
    int rank, size;
    int status;                    /* exit status of the reading */
    /* reading */
    struct tn_source *src;
    int file0, nmine;              /* this rank's run of o->files */
    int file;                      /* index in o->files of the file being read */
    const char *origin;            /* its name as the source gives it */
    uint64_t last_num;             /* packet number last read */
    bool have;                     /* pend holds the next packet */
    struct tn_source_pkt pend;
    struct tn_analyzer *totals;    /* trace totals of the packets read here (tn_analyzer_count) */
    /* the connections owned here: in an, or in the threads' shards (-j) merged into an */
    struct tn_analyzer *an;
    struct tn_shards *workers;
    /* exchange */
    struct tn_packbuf *out;        /* [size]: records for each rank this round */
    struct tn_packbuf *in;         /* [size]: records received from each rank, not analysed */
    size_t *in_off;                /* [size]: how far each is analysed */
    struct tn_packbuf sbuf, rbuf;  /* a round's records in one buffer each, for MPI_Alltoallv */
    size_t hold_limit;             /* bytes of records this rank may hold for later */
    int front;                     /* this round's first unfinished rank (analyse_ready) */
    int64_t before_front;          /* the latest time stamp read by the ranks before it */
    int64_t first_front;           /* and the earliest (INT64_MAX: none) */
    bool windowed;                 /* --from/--to: records carry their reader's earliest time
                                    * stamp so far (the window's base, tn_pkt_place.first_ns) */
    long round_records;            /* packets read per round at most */
    unsigned long long records, records_sent, bytes_sent, rounds;
    /* retirement (issue 12's store, cli/retire.c): a connection that closed and finished leaves
     * the analysis; on rank 0 for its store, on another rank for rank 0 only (its brief and
     * bytes, cfg.on_retire, with the next round; no copy here, cfg.on_away), and rank 0 adopts
     * it into `remote`, its bytes in rank 0's store (part remote_part): rank 0 merges as the run
     * goes, and each connection is written once.  A later packet of one a rank sent goes to
     * rank 0 in the same stream and is analysed there, in `remote` */
    struct tn_retire store;
    pthread_mutex_t rlock;         /* on_retire runs on the analysis threads (-j) */
    struct tn_packbuf rout;        /* retired since the last round, to rank 0 */
    struct tn_packbuf rsend, rrecv;   /* the round's part being sent / received */
    bool briefs_only;              /* the outputs read only briefs: the other ranks keep their
                                    * bytes and send rank 0 briefs (tn_outputs_briefs_only) */
    struct tn_analyzer *remote;    /* rank 0: the other ranks' connections */
    struct tn_cluster_taken *taken_of;   /* rank 0, [size]: where each rank's are in remote */
    unsigned remote_part;
    unsigned long long retired_sent, retired_bytes, away_sent;
    unsigned long long taken, taken_last;   /* connections sent so far, and in the last message */
};

__attribute__((format(printf, 2, 3))) static void warn_rank(const struct job *j, const char *fmt, ...)
{
    char msg[1200], line[1300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(line, sizeof line, "rank %d: %s", j->rank, msg);
    tn_cli_warn(line);
}

/* A failure no rank can go on without: tell it and end every rank of the job (never a hang:
 * the others may be waiting in a collective). */
__attribute__((noreturn)) static void abort_job(const struct job *j, const char *msg)
{
    if (j->origin)
        warn_rank(j, "%s; the job stops (the last packet this rank read: %s packet %llu)", msg,
                  j->o->files[j->file], (unsigned long long)j->last_num);
    else
        warn_rank(j, "%s; the job stops (this rank had read no packet yet)", msg);
    tn_cluster_abort(j->rank, NULL);
}

static void wait_gently(MPI_Request *rq)
{
    tn_cluster_wait(rq, MPI_STATUS_IGNORE);
}

/* ---- reading ---- */

static void open_files(struct job *j)
{
    const struct tn_options *o = j->o;
    unsigned long long *sizes = tn_xcalloc((size_t)o->nfiles, sizeof *sizes);
    for (int i = 0; i < o->nfiles; i++) {
        struct stat st;
        sizes[i] = stat(o->files[i], &st) == 0 ? (unsigned long long)st.st_size : 0;
    }
    int *first = tn_xcalloc((size_t)j->size, sizeof *first), *count = tn_xcalloc((size_t)j->size, sizeof *count);
    tn_cluster_partition(sizes, o->nfiles, j->size, first, count);
    j->file0 = first[j->rank];
    j->nmine = count[j->rank];
    j->file = j->file0;
    free(sizes);
    free(first);
    free(count);
    if (j->nmine == 0)
        return;
    struct tn_options sub = *o;   /* the same options over this rank's files */
    sub.files = o->files + j->file0;
    sub.nfiles = j->nmine;
    struct tn_err err;
    if (tn_source_open(&j->src, &sub, &err) < 0)
        abort_job(j, err.msg);
}

/* Which of this rank's files the packet came from: the source names it; the same name twice in
 * a row shows as packet numbers starting again. */
static void track_file(struct job *j, const struct tn_source_pkt *sp)
{
    bool again = sp->origin == j->origin && sp->pkt.num <= j->last_num;
    if (sp->origin != j->origin || again) {
        int f = j->origin ? j->file + 1 : j->file;
        while (f < j->file0 + j->nmine - 1 && strcmp(j->o->files[f], sp->origin) != 0)
            f++;
        j->file = f;
        j->origin = sp->origin;
    }
    j->last_num = sp->pkt.num;
}

/* The next packet into j->pend (j->have false at the end of this rank's files). */
static void read_next(struct job *j)
{
    j->have = false;
    if (!j->src)
        return;
    struct tn_err err;
    for (;;) {
        int r = tn_source_next(j->src, &j->pend, &err);
        if (r == 0)
            return;
        if (r == -TN_ETRUNC) {   /* a cut file: its packets so far count, as in one process */
            warn_rank(j, "%s", err.msg);
            continue;
        }
        if (r < 0)
            abort_job(j, err.msg);
        if (!j->pend.has_pkt || j->pend.egress)
            continue;
        track_file(j, &j->pend);
        j->have = true;
        return;
    }
}

/* The rank owning a connection of this tn_flow_hash: the hash mixed again (MurmurHash3's
 * 64-bit finalizer) before the modulo, so that neither the flow table's slots (the low bits)
 * nor the threads of a rank (the high bits, tn_shard_of) see only a fraction of their values. */
static int owner_of(uint64_t hash, int nranks)
{
    uint64_t k = hash;
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return (int)(k % (uint64_t)nranks);
}

/* One packet of a connection owned here, at its place in the trace of one process. */
static void analyse(struct job *j, const struct tn_pkt *p, uint64_t key, int64_t clock, int64_t first)
{
    struct tn_pkt_place place = {.ord = key, .clock_ns = clock, .first_ns = j->windowed ? first : 0};
    if (j->workers)
        tn_shards_pkt(j->workers, p, place);
    else
        tn_analyzer_add_flow(j->an, p, place);
}

/* Every packet counts in this rank's trace totals; a TCP/DFCP packet's record goes to the
 * owner of its connection, or, on the first unfinished rank, owned here, to the analysis. */
static void route(struct job *j, const struct tn_source_pkt *sp)
{
    const struct tn_pkt *p = &sp->pkt;
    struct tn_pkt_place place = tn_analyzer_count(j->totals, p, sp->status, j->o->files[j->file]);
    if (p->kind != TN_PK_TCP && p->kind != TN_PK_DFCP)
        return;
    int dest = owner_of(tn_flow_hash(p), j->size);
    j->records++;
    if (dest == j->rank && j->rank == j->front) {
        /* every rank before this one has finished and its records here are analysed: this
         * rank's own packets are next in the order of one process, with no record to make */
        analyse(j, p, pkt_key(j->file, p->num), place.clock_ns > j->before_front ? place.clock_ns : j->before_front,
                place.first_ns < j->first_front ? place.first_ns : j->first_front);
        return;
    }
    /* held here until its turn, in the order read (no exchange), or for the owner; packed in
     * place at the end of the buffer */
    struct tn_packbuf *q = dest == j->rank ? &j->in[dest] : &j->out[dest];
    tn_grow((void **)&q->p, &q->cap, q->n + TN_CLUSTER_WREC_MAX, 1);
    uint8_t *rec = q->p + q->n;
    size_t n = j->windowed ? tn_cluster_wrec_pack((uint32_t)j->file, place.clock_ns, place.first_ns, p, rec)
                           : tn_cluster_rec_pack((uint32_t)j->file, place.clock_ns, p, rec);
    q->n += n;
    if (dest == j->rank)
        return;
    j->records_sent++;
    j->bytes_sent += n;
}

/* ---- connections retired during the run ---- */

/* cfg.on_retire of a rank other than 0: the connection to rank 0 with the next round; its
 * number among those sent, as rank 0 counts them (tn_cluster_taken). */
static uint64_t on_retire(void *arg, const struct tn_conn_brief *b, const void *bytes, size_t n)
{
    struct job *j = arg;
    pthread_mutex_lock(&j->rlock);
    tn_cluster_retired_pack(b, bytes, n, &j->rout);
    uint64_t id = j->retired_sent++;
    pthread_mutex_unlock(&j->rlock);
    return id;
}

/* cfg.on_retire of a rank other than 0 whose bytes no output reads: the brief to rank 0, the
 * bytes in this rank's store (a late packet brings the connection back here, as in one process,
 * and it comes again: rank 0 keeps the last, tn_analyzer_keep_latest). */
static uint64_t on_retire_brief(void *arg, const struct tn_conn_brief *b, const void *bytes, size_t n)
{
    struct job *j = arg;
    (void)bytes;
    (void)n;
    pthread_mutex_lock(&j->rlock);
    tn_cluster_brief_pack(b, &j->rout);
    j->retired_sent++;
    pthread_mutex_unlock(&j->rlock);
    return 0;
}

/* cfg.on_away of a rank other than 0: a packet of a connection sent to rank 0, analysed there. */
static void on_away(void *arg, uint64_t id, const struct tn_pkt *p, struct tn_pkt_place place)
{
    struct job *j = arg;
    pthread_mutex_lock(&j->rlock);
    tn_cluster_away_pack(id, p, place, &j->rout);
    j->away_sent++;
    pthread_mutex_unlock(&j->rlock);
}

/* What was retired since the last round, moved to rsend; its bytes. */
static size_t retired_take(struct job *j)
{
    pthread_mutex_lock(&j->rlock);
    struct tn_packbuf t = j->rsend;
    j->rsend = j->rout;
    t.n = 0;
    j->rout = t;
    j->taken_last = j->retired_sent - j->taken;
    j->taken = j->retired_sent;
    pthread_mutex_unlock(&j->rlock);
    j->retired_bytes += j->rsend.n;
    return j->rsend.n;
}

static void adopt_retired(struct job *j, const struct tn_packbuf *b, int from)
{
    if (tn_cluster_retired_adopt(b->p, b->n, j->remote, j->remote_part, j->o->nfiles, &j->taken_of[from]) < 0) {
        char msg[120];
        snprintf(msg, sizeof msg, "a connection rank %d retired is cut or malformed", from);
        abort_job(j, msg);
    }
}

/* After the round's state: every rank other than 0 sends what it retired (state[.. + 3]
 * bytes), rank 0 adopts it, in rank order. */
static void retired_exchange(struct job *j, const long long *state)
{
    if (j->rank != 0) {
        for (size_t off = 0; off < j->rsend.n; off += TN_CLUSTER_CHUNK) {
            size_t k = j->rsend.n - off < TN_CLUSTER_CHUNK ? j->rsend.n - off : TN_CLUSTER_CHUNK;
            MPI_Request rq;
            MPI_Isend(j->rsend.p + off, (int)k, MPI_BYTE, 0, 3, MPI_COMM_WORLD, &rq);
            wait_gently(&rq);
        }
        j->rsend.n = 0;
        return;
    }
    for (int r = 1; r < j->size; r++) {
        if (state[STATE * r + 3] < 0) {
            char msg[120];
            snprintf(msg, sizeof msg, "rank %d announced a negative length of retired connections", r);
            abort_job(j, msg);
        }
        size_t len = (size_t)state[STATE * r + 3];
        if (!len)
            continue;
        tn_grow((void **)&j->rrecv.p, &j->rrecv.cap, len, 1);
        for (size_t off = 0; off < len; off += TN_CLUSTER_CHUNK) {
            size_t k = len - off < TN_CLUSTER_CHUNK ? len - off : TN_CLUSTER_CHUNK;
            MPI_Request rq;
            MPI_Irecv(j->rrecv.p + off, (int)k, MPI_BYTE, r, 3, MPI_COMM_WORLD, &rq);
            wait_gently(&rq);
        }
        j->rrecv.n = len;
        adopt_retired(j, &j->rrecv, r);
    }
}

/* ---- analysis of the records received ---- */

/* Rank s's records, in the order rank s read them.  The place of each in the trace of one
 * process: its key (file, packet number) orders like the ordinal, and the trace clock is the
 * latest time stamp before it: of every packet of the ranks before s (all read by now, their
 * latest is `before`) and of those rank s read before it (the record's); with --from/--to the
 * window's base is the earliest time stamp so far, its own included: of the ranks before s
 * (`first`) and of rank s's up to it (the record's). */
static void analyse_from(struct job *j, int s, int64_t before, int64_t first)
{
    struct tn_packbuf *q = &j->in[s];
    size_t off = j->in_off[s];
    while (off < q->n) {
        struct tn_cluster_rec r;
        size_t used = j->windowed ? tn_cluster_wrec_unpack(q->p + off, q->n - off, j->o->nfiles, &r)
                                  : tn_cluster_rec_unpack(q->p + off, q->n - off, j->o->nfiles, &r);
        if (!used) {
            char msg[120];
            snprintf(msg, sizeof msg, "a packet record from rank %d is cut or malformed", s);
            abort_job(j, msg);
        }
        analyse(j, &r.pkt, pkt_key((int)r.file, r.pkt.num), r.clock_ns > before ? r.clock_ns : before,
                r.first_ns < first ? r.first_ns : first);
        off += used;
    }
    q->n = 0;
    j->in_off[s] = 0;
}

/* Rank s's records are analysed once every rank before s has sent all it had (state: done,
 * held bytes, latest time stamp read of each rank).  Returns the bytes still held. */
static size_t analyse_ready(struct job *j, const long long *state)
{
    int s = 0;
    int64_t before = INT64_MIN, first = INT64_MAX;
    for (; s < j->size; s++) {
        analyse_from(j, s, before, first);
        if (!state[STATE * s])
            break;
        if (state[STATE * s + 2] > before)
            before = state[STATE * s + 2];
        if (state[STATE * s + 4] < first)
            first = state[STATE * s + 4];
    }
    j->front = s;
    j->before_front = before;
    j->first_front = first;
    size_t held = 0;
    for (s++; s < j->size; s++)
        held += j->in[s].n - j->in_off[s];
    return held;
}

/* The one rank whose count in c (n) is not zero; -1 when none or several. */
static int only_one(const int *c, int n)
{
    int one = -1;
    for (int r = 0; r < n; r++)
        if (c[r]) {
            if (one >= 0)
                return -1;
            one = r;
        }
    return one;
}

static void exchange(struct job *j)
{
    int n = j->size;
    int *sc = tn_xcalloc((size_t)n * 4, sizeof *sc), *sd = sc + n, *rc = sc + 2 * n, *rdsp = sc + 3 * n;
    size_t total = 0;
    for (int d = 0; d < n; d++) {
        if (j->out[d].n > INT_MAX || total > (size_t)INT_MAX - j->out[d].n)
            abort_job(j, "a round's records exceed 2 GiB");
        sc[d] = (int)j->out[d].n;
        sd[d] = (int)total;
        total += j->out[d].n;
    }
    /* records for one rank only (always so with two ranks) go from their own buffer; for
     * several, in one buffer kept from round to round: no fresh pages for every round */
    int to = only_one(sc, n);
    uint8_t *sbuf;
    if (to >= 0) {
        sbuf = j->out[to].p;
    } else {
        tn_grow((void **)&j->sbuf.p, &j->sbuf.cap, total ? total : 1, 1);
        sbuf = j->sbuf.p;
        for (int d = 0; d < n; d++)
            if (j->out[d].n)
                memcpy(sbuf + sd[d], j->out[d].p, j->out[d].n);
    }
    MPI_Request rq;
    MPI_Ialltoall(sc, 1, MPI_INT, rc, 1, MPI_INT, MPI_COMM_WORLD, &rq);
    wait_gently(&rq);
    size_t rtotal = 0;
    for (int s = 0; s < n; s++) {
        if (rtotal > (size_t)INT_MAX - (size_t)rc[s])
            abort_job(j, "a round's records exceed 2 GiB");
        rdsp[s] = (int)rtotal;
        rtotal += (size_t)rc[s];
    }
    /* records from one rank only land at the end of what is held of it, with no copy */
    int from = only_one(rc, n);
    uint8_t *rbuf;
    if (from >= 0) {
        struct tn_packbuf *q = &j->in[from];
        tn_grow((void **)&q->p, &q->cap, q->n + rtotal, 1);
        rbuf = q->p + q->n;
    } else {
        tn_grow((void **)&j->rbuf.p, &j->rbuf.cap, rtotal ? rtotal : 1, 1);
        rbuf = j->rbuf.p;
    }
    MPI_Ialltoallv(sbuf, sc, sd, MPI_BYTE, rbuf, rc, rdsp, MPI_BYTE, MPI_COMM_WORLD, &rq);
    wait_gently(&rq);
    for (int d = 0; d < n; d++)
        j->out[d].n = 0;
    if (from >= 0)
        j->in[from].n += rtotal;
    else
        for (int s = 0; s < n; s++)
            tn_packbuf_put(&j->in[s], rbuf + rdsp[s], (size_t)rc[s]);
    free(sc);
}

/* Rounds until every rank has read everything; all received records analysed in order. */
static void rounds(struct job *j)
{
    long long *state = tn_xcalloc((size_t)j->size * STATE, sizeof *state);
    size_t held = 0;
    read_next(j);
    for (;;) {
        const struct tn_trace_stats *st = tn_analyzer_stats(j->totals);
        long long mine[STATE] = {!j->have, (long long)held, st->have_time ? tn_time_ns(st->last) : INT64_MIN,
                                 j->rank ? (long long)retired_take(j) : 0,
                                 st->have_time ? tn_time_ns(st->first) : INT64_MAX};
        MPI_Request rq;
        MPI_Iallgather(mine, STATE, MPI_LONG_LONG, state, STATE, MPI_LONG_LONG, MPI_COMM_WORLD, &rq);
        wait_gently(&rq);
        retired_exchange(j, state);
        held = analyse_ready(j, state);
        int front = -1;
        bool room = true;
        for (int s = 0; s < j->size; s++) {
            if (!state[STATE * s] && front < 0)
                front = s;
            room &= (size_t)state[STATE * s + 1] < j->hold_limit;
        }
        if (front < 0)
            break;
        if (j->rank == front || room) {
            for (long k = 0; j->have && k < j->round_records; k++) {
                route(j, &j->pend);
                read_next(j);
            }
        }
        exchange(j);
        j->rounds++;
        held = 0;
        for (int s = front + 1; s < j->size; s++)
            held += j->in[s].n - j->in_off[s];
    }
    free(state);
}

/* The ranks on this rank's machine (MPI-3's shared-memory split). */
static int local_ranks(void)
{
    MPI_Comm node;
    int local = 1;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &local);
    MPI_Comm_free(&node);
    return local > 0 ? local : 1;
}

/* This rank's share of the memory for held records: a share of the node's memory divided by
 * the ranks on the node. */
static size_t hold_limit(int local)
{
    const char *mb = getenv("TN_CLUSTER_HOLD_MB");
    if (mb)
        return (size_t)strtoull(mb, NULL, 10) << 20;
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || psize <= 0)
        return (size_t)1 << 30;
    return (size_t)pages * (size_t)psize / TN_CLUSTER_HOLD_SHARE / (size_t)local;
}

/* ---- the merge on rank 0 ---- */

/* This rank's trace totals, with the evictions of its connection table. */
static void pack_stats(const struct job *j, struct tn_packbuf *b)
{
    tn_cluster_stats_pack(tn_analyzer_stats(j->totals), tn_analyzer_stats(j->an)->evicted,
                          (const char *const *)j->o->files, j->o->nfiles, b);
}

static void send_results(struct job *j, const struct tn_packbuf *b)
{
    (void)j;
    unsigned long long len = b->n;
    MPI_Request rq;
    MPI_Isend(&len, 1, MPI_UNSIGNED_LONG_LONG, 0, 1, MPI_COMM_WORLD, &rq);
    wait_gently(&rq);
    for (size_t off = 0; off < b->n; off += TN_CLUSTER_CHUNK) {
        size_t k = b->n - off < TN_CLUSTER_CHUNK ? b->n - off : TN_CLUSTER_CHUNK;
        MPI_Isend(b->p + off, (int)k, MPI_BYTE, 0, 2, MPI_COMM_WORLD, &rq);
        wait_gently(&rq);
    }
}

static void recv_results(int from, struct tn_packbuf *b)
{
    unsigned long long len;
    MPI_Request rq;
    MPI_Irecv(&len, 1, MPI_UNSIGNED_LONG_LONG, from, 1, MPI_COMM_WORLD, &rq);
    wait_gently(&rq);
    b->n = 0;
    tn_grow((void **)&b->p, &b->cap, (size_t)len, 1);
    for (size_t off = 0; off < len; off += TN_CLUSTER_CHUNK) {
        size_t k = len - off < TN_CLUSTER_CHUNK ? len - off : TN_CLUSTER_CHUNK;
        MPI_Irecv(b->p + off, (int)k, MPI_BYTE, from, 2, MPI_COMM_WORLD, &rq);
        wait_gently(&rq);
    }
    b->n = (size_t)len;
}

/* What rank 0 gathers: the merged totals and the other ranks' connections. */
struct merged {
    struct tn_trace_stats st;
    struct tn_analyzer *remote;
};

/* A rank's first message: its trace totals. */
static void unpack_stats(struct job *j, const struct tn_packbuf *b, int from, struct merged *m)
{
    if (tn_cluster_stats_merge(b->p, b->n, (const char *const *)j->o->files, j->o->nfiles, &m->st) < 0) {
        char msg[120];
        snprintf(msg, sizeof msg, "the trace totals of rank %d are cut or malformed", from);
        abort_job(j, msg);
    }
}

/* The next messages: connections (each knows its first packet's place, tn_conn.ord). */
static void unpack_conns(struct job *j, const struct tn_packbuf *b, int from, struct merged *m)
{
    if (tn_cluster_conns_unpack(b->p, b->n, m->remote) < 0) {
        char msg[120];
        snprintf(msg, sizeof msg, "a connection of rank %d's results is cut or malformed", from);
        abort_job(j, msg);
    }
}

/* A rank other than 0: its results to rank 0 in messages of about TN_CLUSTER_RESULT_MSG bytes:
 * the trace totals, what retired after the last round, the connections not retired (those that
 * retired went during the run), an empty message; its analysis is freed after. */
static void results_out(struct job *j)
{
    struct tn_packbuf b = {0};
    pack_stats(j, &b);
    send_results(j, &b);
    b.n = 0;
    size_t last = retired_take(j), n = tn_analyzer_conn_count(j->an), whole = 0;
    unsigned long long bytes = 0;
    if (j->briefs_only) {   /* the open ones' briefs, after what retired */
        for (size_t i = 0; i < n; i++) {
            struct tn_conn_brief br;
            tn_analyzer_brief(j->an, i, &br);
            if (!br.retired) {
                tn_cluster_brief_pack(&br, &j->rsend);
                whole++;
            }
        }
        bytes = j->rsend.n - last;
        n = 0;
    }
    send_results(j, &j->rsend);
    j->rsend.n = 0;
    for (size_t i = 0; i < n; i++) {
        struct tn_conn_brief br;
        tn_analyzer_brief(j->an, i, &br);
        if (!br.retired) {
            tn_conn_pack(tn_analyzer_conn(j->an, i), &b);
            whole++;
        }
        if (b.n >= TN_CLUSTER_RESULT_MSG || (i + 1 == n && b.n)) {
            send_results(j, &b);
            bytes += b.n;
            b.n = 0;
        }
    }
    if (getenv("TN_CLUSTER_REPORT"))
        fprintf(stderr, "rank %d: connections to rank 0%s: %llu retired during the run, %llu bytes (%.0f per "
                "connection; after the last round %llu, %zu bytes), %llu later packets of them, %zu at the end, "
                "%llu bytes (%.0f per connection)\n", j->rank, j->briefs_only ? " (their briefs alone)" : "",
                j->retired_sent, j->retired_bytes,
                j->retired_sent ? (double)j->retired_bytes / (double)j->retired_sent : 0.0, j->taken_last, last,
                j->away_sent, whole, bytes, whole ? (double)bytes / (double)whole : 0.0);
    send_results(j, &b);   /* the empty message: the end */
    tn_packbuf_fini(&b);
    tn_analyzer_free(j->an);
    j->an = NULL;
}

/* Rank 0: its own connections and every other rank's in one analyzer, in the order of their
 * first packets and numbered so (tn_analyzer_merge, as the threads' shards); of a connection
 * that came twice (retired, brought back by a late packet, then retired again or sent at the
 * end) the last. */
static struct tn_analyzer *assemble(struct job *j, const struct tn_analysis_cfg *acfg)
{
    struct merged m;
    memset(&m, 0, sizeof m);
    m.remote = j->remote;
    struct tn_packbuf b = {0};
    pack_stats(j, &b);
    unpack_stats(j, &b, 0, &m);
    for (int r = 1; r < j->size; r++) {
        recv_results(r, &b);
        unpack_stats(j, &b, r, &m);
        recv_results(r, &b);
        adopt_retired(j, &b, r);
        for (;;) {
            recv_results(r, &b);
            if (b.n == 0)
                break;
            unpack_conns(j, &b, r, &m);
        }
    }
    tn_packbuf_fini(&b);
    tn_analyzer_finish(m.remote);   /* what late packets brought back */
    size_t again = tn_analyzer_keep_latest(m.remote);
    if (getenv("TN_CLUSTER_REPORT"))
        fprintf(stderr, "rank 0: %zu connections of the other ranks (%zu retired during the run), %zu of them came "
                "again (the last kept)\n", tn_analyzer_conn_count(m.remote), tn_analyzer_retired(m.remote), again);
    struct tn_analyzer *a = tn_analyzer_new(acfg);
    tn_analyzer_merge(a, (struct tn_analyzer *[]){j->an, m.remote}, 2);
    tn_analyzer_set_stats(a, &m.st);
    tn_analyzer_free(m.remote);
    j->remote = NULL;
    tn_analyzer_free(j->an);
    j->an = NULL;
    return a;
}

/* ---- experiments: a rank per trace ---- */

static struct tn_analyzer *unpack_trace(struct job *j, const struct tn_packbuf *b, int from, int *status)
{
    struct tn_analysis_cfg acfg;
    tn_experiment_analysis_cfg(j->o, &acfg);
    struct tn_analyzer *an = tn_cluster_trace_unpack(b->p, b->n, &acfg, status);
    if (!an) {
        char msg[120];
        snprintf(msg, sizeof msg, "the results of a trace from rank %d are cut or malformed", from);
        abort_job(j, msg);
    }
    return an;
}

/* Rank 0's trace i: read here, or received from the rank that read it. */
static struct tn_analyzer *trace_of(void *arg, int i, int *status)
{
    struct job *j = arg;
    int from = i % j->size;
    if (from == 0)
        return tn_experiment_read(j->o, i, status);
    struct tn_packbuf b = {0};
    recv_results(from, &b);
    struct tn_analyzer *an = unpack_trace(j, &b, from, status);
    tn_packbuf_fini(&b);
    return an;
}

static int run_experiment(struct job *j)
{
    int status = 0;
    if (j->rank == 0) {
        status = tn_experiment_run(j->o, trace_of, j);
    } else {
        for (int i = j->rank; i < j->o->nexps; i += j->size) {
            int st;
            struct tn_analyzer *an = tn_experiment_read(j->o, i, &st);
            struct tn_packbuf b = {0};
            tn_cluster_trace_pack(st, an, &b);
            send_results(j, &b);
            tn_packbuf_fini(&b);
            tn_analyzer_free(an);
        }
    }
    return tn_cluster_share_status(status);
}

/* ---- the job ---- */

/* Inputs and outputs that one rank handles best alone. */
static bool divisible(const struct tn_options *o)
{
    return !(o->tui || o->iface || o->ns2_file || o->ningress || o->ingress_if || o->write_file || o->nfiles == 0);
}

/* CPU seconds this process has used (the phases of TN_CLUSTER_REPORT). */
static double cpu_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void job_report(const struct job *j, double rounds_cpu, double finish_cpu)
{
    if (!getenv("TN_CLUSTER_REPORT"))
        return;
    fprintf(stderr, "rank %d: files %d..%d, %llu packet records, %llu of them to other ranks: %llu bytes "
            "(%.1f per record), %llu rounds, %zu connections owned (%zu retired); CPU s: rounds %.2f, "
            "finish %.2f\n", j->rank, j->file0 + 1, j->file0 + j->nmine, j->records, j->records_sent, j->bytes_sent,
            j->records_sent ? (double)j->bytes_sent / (double)j->records_sent : 0.0, j->rounds,
            tn_analyzer_conn_count(j->an), tn_analyzer_retired(j->an), rounds_cpu, finish_cpu - rounds_cpu);
}

static int run_divided(struct job *j)
{
    const struct tn_options *o = j->o;
    struct tn_analysis_cfg acfg;
    tn_pipeline_analysis_cfg(o, &acfg);
    int local = local_ranks();
    /* the machine's cores and default connection limit are shared by its ranks */
    if (o->max_conns < 0)
        acfg.max_conns /= (size_t)local;
    unsigned threads = o->threads ? tn_shards_default(o->threads) : tn_shards_default(0) / (unsigned)local;
    if (threads == 0)
        threads = 1;
    /* the store: a part per analysis thread, on rank 0 one more for the other ranks' */
    j->remote_part = threads;
    tn_retire_setup(&j->store, o, &acfg, threads + (j->rank == 0));
    pthread_mutex_init(&j->rlock, NULL);
    if (acfg.spill_put && j->rank != 0) {
        j->briefs_only = tn_outputs_briefs_only(o);
        acfg.on_retire = j->briefs_only ? on_retire_brief : on_retire;
        acfg.on_away = j->briefs_only ? NULL : on_away;
        acfg.on_retire_arg = j;
    }
    j->windowed = acfg.window.on;
    j->first_front = INT64_MAX;
    j->totals = tn_analyzer_new(&acfg);
    j->an = tn_analyzer_new(&acfg);
    if (j->rank == 0) {
        struct tn_analysis_cfg rcfg = acfg;
        rcfg.shard = j->remote_part;   /* it may retire again what late packets brought back */
        /* what holds state here is what later packets brought back (each counted against no
         * rank's limit), and evicting would move the connections tn_cluster_taken points at */
        rcfg.max_conns = 0;
        j->remote = tn_analyzer_new(&rcfg);
        j->taken_of = tn_xcalloc((size_t)j->size, sizeof *j->taken_of);
    }
    if (threads >= 2 && !(j->workers = tn_shards_new(threads, &acfg, false)))
        warn_rank(j, "cannot start the analysis threads: running on one (-j 1)");
    j->out = tn_xcalloc((size_t)j->size, sizeof *j->out);
    j->in = tn_xcalloc((size_t)j->size, sizeof *j->in);
    j->in_off = tn_xcalloc((size_t)j->size, sizeof *j->in_off);
    j->hold_limit = hold_limit(local);
    const char *rr = getenv("TN_CLUSTER_ROUND");
    j->round_records = rr && atol(rr) > 0 ? atol(rr) : TN_CLUSTER_ROUND_RECORDS;
    open_files(j);
    rounds(j);
    double rounds_cpu = cpu_s();
    if (j->workers)
        tn_shards_end(j->workers, j->an);   /* finished by their threads, merged into an */
    else
        tn_analyzer_finish(j->an);
    j->workers = NULL;
    job_report(j, rounds_cpu, cpu_s());
    struct tn_err err;
    if (tn_source_close(j->src, &err) < 0) {
        warn_rank(j, "%s", err.msg);
        j->status = TN_EXIT_INPUT;
    }
    j->src = NULL;
    int status;
    MPI_Request rq;
    MPI_Iallreduce(&j->status, &status, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &rq);
    wait_gently(&rq);
    if (j->rank == 0) {
        /* (the store stays the job's: the analyzers' cfg points at j->store) */
        struct tn_run r = {.o = o, .acfg = acfg, .status = status, .finished = true};
        double t0 = cpu_s();
        r.an = assemble(j, &acfg);
        double t1 = cpu_s();
        status = tn_run_end(&r);
        if (getenv("TN_CLUSTER_REPORT"))
            fprintf(stderr, "rank 0: CPU s: the merge %.2f, the outputs %.2f, in all %.2f\n", t1 - t0, cpu_s() - t1,
                    cpu_s());
    } else {
        results_out(j);
    }
    status = tn_cluster_share_status(status);
    for (int r = 0; r < j->size; r++) {
        tn_packbuf_fini(&j->out[r]);
        tn_packbuf_fini(&j->in[r]);
    }
    free(j->out);
    free(j->in);
    tn_packbuf_fini(&j->sbuf);
    tn_packbuf_fini(&j->rbuf);
    free(j->in_off);
    tn_analyzer_free(j->an);
    tn_analyzer_free(j->totals);
    tn_analyzer_free(j->remote);
    for (int r = 0; j->taken_of && r < j->size; r++)
        free(j->taken_of[r].idx);
    free(j->taken_of);
    tn_packbuf_fini(&j->rout);
    tn_packbuf_fini(&j->rsend);
    tn_packbuf_fini(&j->rrecv);
    tn_retire_fini(&j->store);
    pthread_mutex_destroy(&j->rlock);
    return status;
}

/* A rank's standard output is a pipe to the launcher, which Open MPI line-buffers: a report of
 * many connections would cost a write and a forwarding per line. */
static char stdout_buf[1 << 16];

int tn_cluster_main(struct tn_options *o, int (*alone)(const struct tn_options *o))
{
    setvbuf(stdout, stdout_buf, _IOFBF, sizeof stdout_buf);
    MPI_Init(NULL, NULL);
    struct job j = {.o = o, .file = -1};
    MPI_Comm_rank(MPI_COMM_WORLD, &j.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &j.size);
    /* Another MPI's launcher (Open MPI's mpirun starting a binary built with MPICH, or the
     * reverse): each process is a job of one and would write every output. */
    int env = tn_cluster_env_size();
    if (j.size == 1 && env > 1) {
        char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "", msg[400];
        int len = 0;
        MPI_Get_library_version(lib, &len);
        lib[strcspn(lib, "\n,")] = 0;
        for (char *t = lib; (t = strchr(t, '\t')) != NULL;)
            *t = ' ';
        snprintf(msg, sizeof msg, "started as one of %d MPI processes, but this tcptrace-ng's MPI (%.200s) sees a "
                 "job of one: start it with the launcher of that MPI (docs/cluster.md)", env, lib);
        tn_cli_warn(msg);
        MPI_Finalize();
        return TN_EXIT_USAGE;
    }
    tn_cluster_share_order(o->files, o->nfiles, j.rank);
    int status = j.rank == 0 ? tn_report_file_open(o->report_path) : 0;
    status = tn_cluster_share_status(status);   /* a report rank 0 cannot write ends every rank */
    if (status) {
        MPI_Finalize();
        return status;
    }
    if (o->nexps > 0 && !o->tui) {
        status = run_experiment(&j);
    } else if (divisible(o)) {
        status = run_divided(&j);
    } else if (tn_cluster_two_points(o, j.size)) {
        status = tn_cluster_run_two_points(o, j.rank, alone);
    } else {
        if (j.rank == 0)
            status = alone(o);
        status = tn_cluster_share_status(status);
    }
    if (j.rank == 0)
        status = tn_report_file_close(status);
    MPI_Finalize();
    return status;
}
