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
 * analysis never waits for more than the ranks before it.  Packets of no connection (kind
 * other) only count in the trace totals: their reader counts them.
 *
 * Merge: after the last round each owner finishes its analysis and sends its connections
 * (tn_conn_pack) with the key of their first packet, (file, packet number), and its trace
 * totals to rank 0, which numbers the connections by that key, as one process numbers them by
 * their first packet, and writes every output through the outputs table (run.c).
 *
 * Experiments (--experiment): rank r reads traces r, r + N, ... and sends each trace's
 * connections to rank 0, which builds the experiment table in trace order (experiment.c). */
#include <limits.h>
#include <stdarg.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cluster.h"
#include "experiment.h"
#include "run.h"

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

/* The key of a packet in the order one process reads them: file index, packet number. */
#define KEY_FILE_SHIFT 40
static uint64_t pkt_key(int file, uint64_t num)
{
    return (uint64_t)file << KEY_FILE_SHIFT | (num & (((uint64_t)1 << KEY_FILE_SHIFT) - 1));
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
    struct tn_analyzer *other;     /* trace totals of packets of no connection read here */
    /* the connections owned here */
    struct tn_analyzer *an;
    uint64_t *first_key;           /* by local connection number: its first packet's key */
    size_t cap_keys;
    /* exchange */
    struct tn_packbuf *out;        /* [size]: records for each rank this round */
    struct tn_packbuf *in;         /* [size]: records received from each rank, not analysed */
    size_t *in_off;                /* [size]: how far each is analysed */
    size_t hold_limit;             /* bytes of records this rank may hold for later */
    long round_records;            /* packets read per round at most */
    unsigned long long records, records_sent, bytes_sent, rounds;
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
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, TN_EXIT_INPUT);
    abort();   /* MPI_Abort does not return */
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

/* Record layout: file index (u32), dissection status (u8), tn_pkt_pack's bytes. */
static void route(struct job *j, const struct tn_source_pkt *sp)
{
    const struct tn_pkt *p = &sp->pkt;
    if (p->kind != TN_PK_TCP && p->kind != TN_PK_DFCP) {
        tn_analyzer_add(j->other, p, sp->status, j->o->files[j->file]);
        return;
    }
    int dest = owner_of(tn_flow_hash(p), j->size);
    uint8_t rec[5 + TN_PKT_PACK_MAX];
    uint32_t file = (uint32_t)j->file;
    memcpy(rec, &file, 4);
    rec[4] = (uint8_t)sp->status;
    size_t n = 5 + tn_pkt_pack(p, rec + 5);
    tn_packbuf_put(&j->out[dest], rec, n);
    j->records++;
    if (dest != j->rank) {
        j->records_sent++;
        j->bytes_sent += n;
    }
}

/* ---- analysis of the records received ---- */

static void note_first_key(struct job *j, size_t before, uint64_t key)
{
    if (tn_analyzer_conn_count(j->an) == before)
        return;
    unsigned idx = tn_analyzer_conn(j->an, tn_analyzer_conn_count(j->an) - 1)->idx;
    tn_grow((void **)&j->first_key, &j->cap_keys, (size_t)idx + 1, sizeof *j->first_key);
    j->first_key[idx] = key;
}

static void analyse_from(struct job *j, int s)
{
    struct tn_packbuf *q = &j->in[s];
    size_t off = j->in_off[s];
    while (off < q->n) {
        if (q->n - off < 5)
            abort_job(j, "a packet record from another rank is cut");
        uint32_t file;
        memcpy(&file, q->p + off, 4);
        int status = q->p[off + 4];
        struct tn_pkt p;
        size_t used = tn_pkt_unpack(q->p + off + 5, q->n - off - 5, &p);
        if (!used || file >= (uint32_t)j->o->nfiles)
            abort_job(j, "a packet record from another rank is malformed");
        size_t before = tn_analyzer_conn_count(j->an);
        tn_analyzer_add(j->an, &p, status, j->o->files[file]);
        note_first_key(j, before, pkt_key((int)file, p.num));
        off += 5 + used;
    }
    q->n = 0;
    j->in_off[s] = 0;
}

/* Rank s's records are analysed once every rank before s has sent all it had (state: done,
 * held bytes of each rank).  Returns the bytes still held. */
static size_t analyse_ready(struct job *j, const long long *state)
{
    int s = 0;
    for (; s < j->size; s++) {
        analyse_from(j, s);
        if (!state[2 * s])
            break;
    }
    size_t held = 0;
    for (s++; s < j->size; s++)
        held += j->in[s].n - j->in_off[s];
    return held;
}

/* Wait for a collective without spinning: Open MPI and MPICH poll while a blocking collective
 * waits, which takes the core from a rank still reading or analysing on the same machine.
 * MPI_Test drives the progress; the sleep grows from 1 us to 1 ms. */
static void wait_gently(MPI_Request *rq)
{
    long ns = 1000;
    for (;;) {
        int done = 0;
        MPI_Test(rq, &done, MPI_STATUS_IGNORE);
        if (done)
            return;
        struct timespec t = {0, ns};
        nanosleep(&t, NULL);
        if (ns < 1000000)
            ns *= 2;
    }
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
    uint8_t *sbuf = tn_xmalloc(total ? total : 1);
    for (int d = 0; d < n; d++) {
        if (j->out[d].n)
            memcpy(sbuf + sd[d], j->out[d].p, j->out[d].n);
        j->out[d].n = 0;
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
    uint8_t *rbuf = tn_xmalloc(rtotal ? rtotal : 1);
    MPI_Alltoallv(sbuf, sc, sd, MPI_BYTE, rbuf, rc, rdsp, MPI_BYTE, MPI_COMM_WORLD);
    for (int s = 0; s < n; s++)
        tn_packbuf_put(&j->in[s], rbuf + rdsp[s], (size_t)rc[s]);
    free(sbuf);
    free(rbuf);
    free(sc);
}

/* Rounds until every rank has read everything; all received records analysed in order. */
static void rounds(struct job *j)
{
    long long *state = tn_xcalloc((size_t)j->size * 2, sizeof *state);
    size_t held = 0;
    read_next(j);
    for (;;) {
        long long mine[2] = {!j->have, (long long)held};
        MPI_Request rq;
        MPI_Iallgather(mine, 2, MPI_LONG_LONG, state, 2, MPI_LONG_LONG, MPI_COMM_WORLD, &rq);
        wait_gently(&rq);
        held = analyse_ready(j, state);
        int front = -1;
        bool room = true;
        for (int s = 0; s < j->size; s++) {
            if (!state[2 * s] && front < 0)
                front = s;
            room &= (size_t)state[2 * s + 1] < j->hold_limit;
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

/* This rank's share of the memory for held records: a share of the node's memory divided by
 * the ranks on the node. */
static size_t hold_limit(void)
{
    const char *mb = getenv("TN_CLUSTER_HOLD_MB");
    if (mb)
        return (size_t)strtoull(mb, NULL, 10) << 20;
    MPI_Comm node;
    int local = 1;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &local);
    MPI_Comm_free(&node);
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || psize <= 0)
        return (size_t)1 << 30;
    return (size_t)pages * (size_t)psize / TN_CLUSTER_HOLD_SHARE / (size_t)local;
}

/* ---- the merge on rank 0 ---- */

/* Trace totals with the anomalies' first packets as file indexes (pointers mean nothing on
 * another rank). */
struct stats_rec {
    struct tn_trace_stats st;
    int32_t first_file[TN_ANOM_COUNT];
};

static int file_index(const struct tn_options *o, const char *name)
{
    for (int i = 0; i < o->nfiles; i++)
        if (o->files[i] == name)
            return i;
    return -1;
}

static void pack_stats(const struct tn_options *o, const struct tn_analyzer *a, struct tn_packbuf *b)
{
    struct stats_rec s;
    memset(&s, 0, sizeof s);
    s.st = *tn_analyzer_stats(a);
    for (int k = 0; k < TN_ANOM_COUNT; k++) {
        s.first_file[k] = s.st.anom_count[k] ? file_index(o, s.st.anom_first_file[k]) : -1;
        s.st.anom_first_file[k] = NULL;
    }
    tn_packbuf_put(b, &s, sizeof s);
}

/* Sums, the earliest and latest time stamps, each anomaly's first packet by read order. */
static void merge_stats(const struct tn_options *o, struct tn_trace_stats *m, const struct stats_rec *s)
{
    const struct tn_trace_stats *x = &s->st;
    m->frames += x->frames;
    m->tcp += x->tcp;
    m->dfcp += x->dfcp;
    m->other += x->other;
    m->ip4 += x->ip4;
    m->ip6 += x->ip6;
    m->fragments += x->fragments;
    m->tunneled += x->tunneled;
    m->anom_pkts += x->anom_pkts;
    m->truncated += x->truncated;
    m->malformed += x->malformed;
    m->evicted += x->evicted;
    if (x->have_time) {
        if (!m->have_time || tn_time_cmp(x->first, m->first) < 0)
            m->first = x->first;
        if (!m->have_time || tn_time_cmp(x->last, m->last) > 0)
            m->last = x->last;
        m->have_time = true;
    }
    for (int k = 0; k < TN_ANOM_COUNT; k++) {
        if (!x->anom_count[k])
            continue;
        int f = s->first_file[k] < 0 ? 0 : s->first_file[k];
        bool earlier = !m->anom_count[k] ||
                       pkt_key(f, x->anom_first[k]) < pkt_key(file_index(o, m->anom_first_file[k]), m->anom_first[k]);
        if (earlier) {
            m->anom_first[k] = x->anom_first[k];
            m->anom_first_file[k] = o->files[f];
        }
        m->anom_count[k] += x->anom_count[k];
    }
}

static void send_results(struct job *j, const struct tn_packbuf *b)
{
    (void)j;
    unsigned long long len = b->n;
    MPI_Send(&len, 1, MPI_UNSIGNED_LONG_LONG, 0, 1, MPI_COMM_WORLD);
    for (size_t off = 0; off < b->n; off += TN_CLUSTER_CHUNK) {
        size_t k = b->n - off < TN_CLUSTER_CHUNK ? b->n - off : TN_CLUSTER_CHUNK;
        MPI_Send(b->p + off, (int)k, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
    }
}

static void recv_results(int from, struct tn_packbuf *b)
{
    unsigned long long len;
    MPI_Recv(&len, 1, MPI_UNSIGNED_LONG_LONG, from, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    b->n = 0;
    tn_grow((void **)&b->p, &b->cap, (size_t)len, 1);
    for (size_t off = 0; off < len; off += TN_CLUSTER_CHUNK) {
        size_t k = len - off < TN_CLUSTER_CHUNK ? len - off : TN_CLUSTER_CHUNK;
        MPI_Recv(b->p + off, (int)k, MPI_BYTE, from, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    b->n = (size_t)len;
}

struct keyed {
    uint64_t key;
    struct tn_conn *c;
};

/* What rank 0 gathers: the merged totals and every connection with its key. */
struct merged {
    struct tn_trace_stats st;
    struct keyed *v;
    size_t n, cap;
};

/* A rank's first message: its two trace totals (packets of no connection, and its own). */
static void unpack_stats(struct job *j, const struct tn_packbuf *b, struct merged *m)
{
    if (b->n != 2 * sizeof(struct stats_rec))
        abort_job(j, "the trace totals of a rank are cut");
    for (int k = 0; k < 2; k++) {
        struct stats_rec s;
        memcpy(&s, b->p + k * sizeof s, sizeof s);
        merge_stats(j->o, &m->st, &s);
    }
}

/* The next messages: connections, each after its first packet's key. */
static void unpack_conns(struct job *j, const struct tn_packbuf *b, int from, struct merged *m)
{
    size_t off = 0;
    while (off < b->n) {
        struct keyed kc;
        size_t used = 0;
        if (b->n - off < sizeof kc.key)
            abort_job(j, "the results of a rank are cut");
        memcpy(&kc.key, b->p + off, sizeof kc.key);
        off += sizeof kc.key;
        kc.c = tn_conn_unpack(b->p + off, b->n - off, &used);
        if (!kc.c) {
            char msg[120];
            snprintf(msg, sizeof msg, "a connection of rank %d's results is malformed", from);
            abort_job(j, msg);
        }
        off += used;
        tn_grow((void **)&m->v, &m->cap, m->n + 1, sizeof *m->v);
        m->v[m->n++] = kc;
    }
}

/* One message of this rank's results: to rank 0, or on rank 0 straight into m. */
static void deliver(struct job *j, struct tn_packbuf *b, bool first, struct merged *m)
{
    if (j->rank != 0)
        send_results(j, b);
    else if (first)
        unpack_stats(j, b, m);
    else
        unpack_conns(j, b, 0, m);
    b->n = 0;
}

/* This rank's results as messages of about TN_CLUSTER_RESULT_MSG bytes: the trace totals,
 * then the connections, then an empty message; the analysis is freed after. */
static void results_out(struct job *j, struct merged *m)
{
    struct tn_packbuf b = {0};
    pack_stats(j->o, j->other, &b);
    pack_stats(j->o, j->an, &b);
    deliver(j, &b, true, m);
    size_t n = tn_analyzer_conn_count(j->an);
    for (size_t i = 0; i < n; i++) {
        const struct tn_conn *c = tn_analyzer_conn(j->an, i);
        tn_packbuf_put(&b, &j->first_key[c->idx], sizeof j->first_key[c->idx]);
        tn_conn_pack(c, &b);
        if (b.n >= TN_CLUSTER_RESULT_MSG || i + 1 == n)
            deliver(j, &b, false, m);
    }
    if (j->rank != 0)
        deliver(j, &b, false, m);   /* the empty message: the end */
    tn_packbuf_fini(&b);
    tn_analyzer_free(j->an);
    j->an = NULL;
}

static int by_key(const void *x, const void *y)
{
    uint64_t a = ((const struct keyed *)x)->key, b = ((const struct keyed *)y)->key;
    return a < b ? -1 : a > b;
}

/* Rank 0: every rank's connections in one analyzer, numbered by first packet. */
static struct tn_analyzer *assemble(struct job *j, const struct tn_analysis_cfg *acfg)
{
    struct merged m;
    memset(&m, 0, sizeof m);
    results_out(j, &m);
    struct tn_packbuf b = {0};
    for (int r = 1; r < j->size; r++) {
        recv_results(r, &b);
        unpack_stats(j, &b, &m);
        for (;;) {
            recv_results(r, &b);
            if (b.n == 0)
                break;
            unpack_conns(j, &b, r, &m);
        }
    }
    tn_packbuf_fini(&b);
    qsort(m.v, m.n, sizeof *m.v, by_key);
    struct tn_analyzer *a = tn_analyzer_new(acfg);
    for (size_t i = 0; i < m.n; i++)
        tn_analyzer_adopt(a, m.v[i].c, 0);
    tn_analyzer_set_stats(a, &m.st);
    free(m.v);
    return a;
}

/* ---- experiments: a rank per trace ---- */

/* Trace i's results: exit status (i32), trace totals (no file names: the experiment table
 * names the trace), the connections in their order with their numbers. */
static void pack_trace(int status, const struct tn_analyzer *an, struct tn_packbuf *b)
{
    int32_t st32 = status;
    tn_packbuf_put(b, &st32, sizeof st32);
    struct tn_trace_stats st = *tn_analyzer_stats(an);
    for (int k = 0; k < TN_ANOM_COUNT; k++)
        st.anom_first_file[k] = NULL;
    tn_packbuf_put(b, &st, sizeof st);
    uint64_t n = tn_analyzer_conn_count(an);
    tn_packbuf_put(b, &n, sizeof n);
    for (size_t i = 0; i < n; i++)
        tn_conn_pack(tn_analyzer_conn(an, i), b);
}

static struct tn_analyzer *unpack_trace(struct job *j, const struct tn_packbuf *b, int *status)
{
    struct tn_analysis_cfg acfg;
    tn_experiment_analysis_cfg(j->o, &acfg);
    struct tn_analyzer *an = tn_analyzer_new(&acfg);
    int32_t st32;
    struct tn_trace_stats st;
    uint64_t n;
    if (b->n < sizeof st32 + sizeof st + sizeof n)
        abort_job(j, "the results of a trace are cut");
    memcpy(&st32, b->p, sizeof st32);
    memcpy(&st, b->p + sizeof st32, sizeof st);
    memcpy(&n, b->p + sizeof st32 + sizeof st, sizeof n);
    size_t off = sizeof st32 + sizeof st + sizeof n;
    for (uint64_t i = 0; i < n; i++) {
        size_t used = 0;
        struct tn_conn *c = tn_conn_unpack(b->p + off, b->n - off, &used);
        if (!c)
            abort_job(j, "a connection of a trace's results is malformed");
        tn_analyzer_adopt(an, c, c->idx);
        off += used;
    }
    tn_analyzer_set_stats(an, &st);
    *status = st32;
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
    struct tn_analyzer *an = unpack_trace(j, &b, status);
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
            pack_trace(st, an, &b);
            send_results(j, &b);
            tn_packbuf_fini(&b);
            tn_analyzer_free(an);
        }
    }
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return status;
}

/* ---- the job ---- */

/* Inputs and outputs that one rank handles best alone. */
static bool divisible(const struct tn_options *o)
{
    return !(o->tui || o->iface || o->ns2_file || o->ningress || o->ingress_if || o->write_file || o->nfiles == 0);
}

static void job_report(const struct job *j)
{
    if (!getenv("TN_CLUSTER_REPORT"))
        return;
    fprintf(stderr, "rank %d: files %d..%d, %llu packet records, %llu of them to other ranks: %llu bytes "
            "(%.1f per record), %llu rounds, %zu connections owned\n", j->rank, j->file0 + 1, j->file0 + j->nmine,
            j->records, j->records_sent, j->bytes_sent,
            j->records_sent ? (double)j->bytes_sent / (double)j->records_sent : 0.0, j->rounds,
            tn_analyzer_conn_count(j->an));
}

static int run_divided(struct job *j)
{
    const struct tn_options *o = j->o;
    struct tn_analysis_cfg acfg;
    tn_pipeline_analysis_cfg(o, &acfg);
    j->an = tn_analyzer_new(&acfg);
    j->other = tn_analyzer_new(&acfg);
    j->out = tn_xcalloc((size_t)j->size, sizeof *j->out);
    j->in = tn_xcalloc((size_t)j->size, sizeof *j->in);
    j->in_off = tn_xcalloc((size_t)j->size, sizeof *j->in_off);
    j->hold_limit = hold_limit();
    const char *rr = getenv("TN_CLUSTER_ROUND");
    j->round_records = rr && atol(rr) > 0 ? atol(rr) : TN_CLUSTER_ROUND_RECORDS;
    open_files(j);
    rounds(j);
    tn_analyzer_finish(j->an);
    job_report(j);
    struct tn_err err;
    if (tn_source_close(j->src, &err) < 0) {
        warn_rank(j, "%s", err.msg);
        j->status = TN_EXIT_INPUT;
    }
    j->src = NULL;
    int status;
    MPI_Allreduce(&j->status, &status, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (j->rank == 0) {
        struct tn_run r = {.o = o, .acfg = acfg, .status = status, .finished = true};
        r.an = assemble(j, &acfg);
        status = tn_run_end(&r);
    } else {
        results_out(j, NULL);
    }
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (int r = 0; r < j->size; r++) {
        tn_packbuf_fini(&j->out[r]);
        tn_packbuf_fini(&j->in[r]);
    }
    free(j->out);
    free(j->in);
    free(j->in_off);
    free(j->first_key);
    tn_analyzer_free(j->an);
    tn_analyzer_free(j->other);
    return status;
}

/* A rank's standard output is a pipe to the launcher, which Open MPI line-buffers: a report of
 * many connections would cost a write and a forwarding per line. */
static char stdout_buf[1 << 16];

int tn_cluster_main(const struct tn_options *o, int (*alone)(const struct tn_options *o))
{
    setvbuf(stdout, stdout_buf, _IOFBF, sizeof stdout_buf);
    MPI_Init(NULL, NULL);
    struct job j = {.o = o, .file = -1};
    MPI_Comm_rank(MPI_COMM_WORLD, &j.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &j.size);
    int status = 0;
    if (o->nexps > 0 && !o->tui) {
        status = run_experiment(&j);
    } else if (divisible(o)) {
        status = run_divided(&j);
    } else {
        if (j.rank == 0)
            status = alone(o);
        MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return status;
}
