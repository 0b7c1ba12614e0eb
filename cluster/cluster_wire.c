/* cluster_wire.c - what the ranks of an MPI job send each other, as bytes and back (see
 * cluster_wire.h).  No MPI here: the fuzz target decodes the same bytes. */
#include <string.h>

#include "cluster_wire.h"
#include "source.h"

/* The latest time stamp pcap holds (the capture layer keeps them within TN_TIME_SEC_MAX). */
#define CLOCK_MAX (TN_TIME_SEC_MAX * 1000000000 + 999999999)

size_t tn_cluster_rec_pack(uint32_t file, int64_t clock_ns, const struct tn_pkt *p, uint8_t *out)
{
    memcpy(out, &file, 4);
    memcpy(out + 4, &clock_ns, 8);
    return TN_CLUSTER_REC_HEAD + tn_pkt_pack(p, out + TN_CLUSTER_REC_HEAD);
}

size_t tn_cluster_rec_unpack(const uint8_t *in, size_t n, int nfiles, struct tn_cluster_rec *r)
{
    if (n < TN_CLUSTER_REC_HEAD)
        return 0;
    memcpy(&r->file, in, 4);
    memcpy(&r->clock_ns, in + 4, 8);
    r->first_ns = INT64_MAX;
    if (nfiles <= 0 || r->file >= (uint32_t)nfiles)
        return 0;
    size_t used = tn_pkt_unpack(in + TN_CLUSTER_REC_HEAD, n - TN_CLUSTER_REC_HEAD, &r->pkt);
    /* the clock is a time stamp read before (pcap's range, TN_TIME_SEC_MAX), or none (INT64_MIN) */
    if (!used || (r->clock_ns != INT64_MIN && (r->clock_ns < 0 || r->clock_ns > CLOCK_MAX)))
        return 0;
    return TN_CLUSTER_REC_HEAD + used;
}

size_t tn_cluster_wrec_pack(uint32_t file, int64_t clock_ns, int64_t first_ns, const struct tn_pkt *p,
                            uint8_t *out)
{
    memcpy(out, &first_ns, 8);
    return 8 + tn_cluster_rec_pack(file, clock_ns, p, out + 8);
}

size_t tn_cluster_wrec_unpack(const uint8_t *in, size_t n, int nfiles, struct tn_cluster_rec *r)
{
    int64_t first;
    if (n < 8)
        return 0;
    memcpy(&first, in, 8);
    size_t used = tn_cluster_rec_unpack(in + 8, n - 8, nfiles, r);
    /* a time stamp its reader read: pcap's range, and never after the packet's own */
    if (!used || first < 0 || first > CLOCK_MAX || first > tn_time_ns(r->pkt.ts))
        return 0;
    r->first_ns = first;
    return 8 + used;
}

/* ---- trace totals ---- */

struct stats_rec {
    struct tn_trace_stats st;   /* anom_first_file all NULL */
    int32_t first_file[TN_ANOM_COUNT];
};

static int file_index(const char *const *files, int nfiles, const char *name)
{
    for (int i = 0; i < nfiles; i++)
        if (files[i] == name)
            return i;
    return -1;
}

void tn_cluster_stats_pack(const struct tn_trace_stats *st, uint64_t evicted, const char *const *files,
                           int nfiles, struct tn_packbuf *b)
{
    struct stats_rec s;
    memset(&s, 0, sizeof s);
    s.st = *st;
    s.st.evicted += evicted;
    for (int k = 0; k < TN_ANOM_COUNT; k++) {
        s.first_file[k] = s.st.anom_count[k] ? file_index(files, nfiles, s.st.anom_first_file[k]) : -1;
        s.st.anom_first_file[k] = NULL;
    }
    tn_packbuf_put(b, &s, sizeof s);
}

static bool time_ok(struct tn_time t)
{
    return t.sec >= 0 && t.sec <= TN_TIME_SEC_MAX && t.nsec < 1000000000u;
}

/* Totals as a rank writes them: a bool that is 0 or 1, time stamps in pcap's range (the capture
 * layer holds them there, TN_TIME_SEC_MAX), no pointer.  The bool is read as a byte: a bool
 * holding 2 is undefined to load. */
static bool stats_ok(struct tn_trace_stats *st)
{
    uint8_t have;
    memcpy(&have, &st->have_time, 1);
    if (have > 1 || (have && (!time_ok(st->first) || !time_ok(st->last))))
        return false;
    for (int k = 0; k < TN_ANOM_COUNT; k++)
        st->anom_first_file[k] = NULL;
    return true;
}

/* Two packets in the order one process reads them: file index, then packet number. */
static int read_order(int fa, uint64_t na, int fb, uint64_t nb)
{
    if (fa != fb)
        return fa < fb ? -1 : 1;
    return na < nb ? -1 : na > nb;
}

int tn_cluster_stats_merge(const uint8_t *in, size_t n, const char *const *files, int nfiles,
                           struct tn_trace_stats *m)
{
    struct stats_rec s;
    if (n != sizeof s || nfiles <= 0)
        return -1;
    memcpy(&s, in, sizeof s);
    if (!stats_ok(&s.st))
        return -1;
    for (int k = 0; k < TN_ANOM_COUNT; k++)
        if (s.st.anom_count[k] && (s.first_file[k] < 0 || s.first_file[k] >= nfiles))
            return -1;
    const struct tn_trace_stats *x = &s.st;
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
        int f = s.first_file[k];
        if (!m->anom_count[k] || read_order(f, x->anom_first[k], file_index(files, nfiles, m->anom_first_file[k]),
                                            m->anom_first[k]) < 0) {
            m->anom_first[k] = x->anom_first[k];
            m->anom_first_file[k] = files[f];
        }
        m->anom_count[k] += x->anom_count[k];
    }
    return 0;
}

/* ---- connections ---- */

int tn_cluster_conns_unpack(const uint8_t *in, size_t n, struct tn_analyzer *into)
{
    size_t off = 0;
    while (off < n) {
        size_t used = 0;
        struct tn_conn *c = tn_conn_unpack(in + off, n - off, &used);
        if (!c)
            return -1;
        tn_analyzer_adopt(into, c, 0);
        off += used;
    }
    return 0;
}

/* ---- connections retired during the run ---- */

void tn_cluster_retired_pack(const struct tn_conn_brief *b, const void *bytes, size_t n, struct tn_packbuf *out)
{
    struct tn_conn_brief head = *b;
    /* the sender's store means nothing to rank 0; whether it kept a copy does */
    head.out = (struct tn_out_ref){.part = b->out.part == TN_OUT_AWAY ? TN_OUT_AWAY : 0};
    uint32_t len = (uint32_t)n;
    tn_packbuf_put(out, (uint8_t[1]){0}, 1);
    tn_packbuf_put(out, &head, sizeof head);
    tn_packbuf_put(out, &len, sizeof len);
    tn_packbuf_put(out, bytes, n);
}

/* A brief as the analysis makes one (tn_conn_brief_of): a TCP or DFCP connection between two
 * addresses of one family, a state of enum tn_conn_state, bools of 0 or 1 (read as bytes: a
 * bool holding 2 is undefined to load); retired, and not unfinished (on_retire sends it before
 * idle retirement could mark it so, and that is off where on_retire is on). */
static bool brief_ok(const struct tn_conn_brief *b)
{
    uint8_t udp, retired, unfinished;
    memcpy(&udp, &b->dfcp_over_udp, 1);
    memcpy(&retired, &b->retired, 1);
    memcpy(&unfinished, &b->unfinished, 1);
    return b->out.at == 0 && b->out.len == 0 && (b->out.part == 0 || b->out.part == TN_OUT_AWAY) &&
           (b->proto == TN_PK_TCP || b->proto == TN_PK_DFCP) && b->state <= TN_ST_PARTIAL &&
           udp <= 1 && retired == 1 && unfinished == 0 && (b->a.family == 4 || b->a.family == 6) &&
           b->b.family == b->a.family && (b->proto == TN_PK_DFCP || !udp);
}

size_t tn_cluster_retired_unpack(const uint8_t *in, size_t n, struct tn_conn_brief *b, const uint8_t **bytes,
                                 size_t *len)
{
    uint32_t l32;
    if (n < sizeof *b + sizeof l32)
        return 0;
    memcpy(b, in, sizeof *b);
    memcpy(&l32, in + sizeof *b, sizeof l32);
    if (!brief_ok(b) || l32 == 0 || l32 > n - sizeof *b - sizeof l32)
        return 0;
    *bytes = in + sizeof *b + sizeof l32;
    *len = l32;
    return sizeof *b + sizeof l32 + l32;
}

static bool addr_eq(const struct tn_addr *x, const struct tn_addr *y)
{
    return x->family == y->family && memcmp(x->a, y->a, sizeof x->a) == 0;
}

/* The brief says what its connection says (the sender made it with tn_conn_brief_of from the
 * connection it packed): the outputs read the list, the significance rule and the summary from
 * the brief and the rest from the bytes, which must not tell two stories. */
static bool brief_of_conn(const struct tn_conn_brief *b, const struct tn_conn *c)
{
    struct tn_conn_brief w;
    tn_conn_brief_of(c, &w);
    return w.ord == b->ord && addr_eq(&w.a, &b->a) && addr_eq(&w.b, &b->b) &&
           w.a_port == b->a_port && w.b_port == b->b_port && w.proto == b->proto &&
           w.state == b->state && w.dfcp_over_udp == b->dfcp_over_udp && w.pkts[0] == b->pkts[0] &&
           w.pkts[1] == b->pkts[1] && w.data_bytes[0] == b->data_bytes[0] &&
           w.data_bytes[1] == b->data_bytes[1] && w.mss[0] == b->mss[0] && w.mss[1] == b->mss[1] &&
           w.capture_gaps == b->capture_gaps;
}

void tn_cluster_brief_pack(const struct tn_conn_brief *b, struct tn_packbuf *out)
{
    struct tn_conn_brief head = *b;
    head.out = (struct tn_out_ref){0};
    head.retired = true;   /* on rank 0: only the brief */
    tn_packbuf_put(out, (uint8_t[1]){2}, 1);
    tn_packbuf_put(out, &head, sizeof head);
}

void tn_cluster_away_pack(uint64_t id, const struct tn_pkt *p, struct tn_pkt_place place, struct tn_packbuf *out)
{
    tn_grow((void **)&out->p, &out->cap, out->n + 9 + TN_CLUSTER_WREC_MAX, 1);
    out->p[out->n++] = 1;
    memcpy(out->p + out->n, &id, 8);
    out->n += 8;
    out->n += tn_cluster_wrec_pack((uint32_t)(place.ord >> TN_CLUSTER_KEY_FILE_SHIFT), place.clock_ns,
                                   place.first_ns, p, out->p + out->n);
}

int tn_cluster_retired_adopt(const uint8_t *in, size_t n, struct tn_analyzer *into, unsigned part, int nfiles,
                             struct tn_cluster_taken *taken)
{
    const struct tn_analysis_cfg *cfg = tn_analyzer_cfg(into);
    struct tn_arena mem = {0};   /* each connection read for its checks, one after the other */
    size_t off = 0;
    int ret = 0;
    while (off < n) {
        uint8_t kind = in[off++];
        if (kind == 1) {
            uint64_t id;
            struct tn_cluster_rec r;
            size_t used = n - off >= 8 ? tn_cluster_wrec_unpack(in + off + 8, n - off - 8, nfiles, &r) : 0;
            if (!used) {
                ret = -1;
                break;
            }
            memcpy(&id, in + off, 8);
            struct tn_pkt_place place = {tn_cluster_key(r.file, r.pkt.num), r.clock_ns, r.first_ns};
            /* the first packet of its endpoints names its connection; the later ones find it */
            if (!tn_analyzer_add_away(into, &r.pkt, place) &&
                (id >= taken->n || !tn_analyzer_take_late(into, taken->idx[id], &r.pkt, place))) {
                ret = -1;
                break;
            }
            off += 8 + used;
            continue;
        }
        if (kind == 2) {
            struct tn_conn_brief b;
            if (n - off < sizeof b) {
                ret = -1;
                break;
            }
            memcpy(&b, in + off, sizeof b);
            if (!brief_ok(&b) || b.out.part != 0) {
                ret = -1;
                break;
            }
            tn_analyzer_adopt_brief(into, &b);
            off += sizeof b;
            continue;
        }
        struct tn_conn_brief b;
        const uint8_t *bytes;
        size_t len, used = kind == 0 ? tn_cluster_retired_unpack(in + off, n - off, &b, &bytes, &len) : 0;
        /* the store keeps the bytes as they are, and the outputs read them back whole with
         * tn_conn_priv_unpack, which may not fail there (fuzz_retired: bytes cut after the
         * connection's summary passed here, then rank 0 read a NULL connection back): they
         * must read so here, every byte, as a connection whose values the analysis makes, that
         * its brief describes. */
        tn_arena_reset(&mem);
        const struct tn_conn *c = used ? tn_conn_retired_unpack_in(bytes, len, &mem) : NULL;
        if (!c || !brief_of_conn(&b, c)) {
            ret = -1;
            break;
        }
        if (cfg->spill_put && cfg->spill_put(cfg->spill_arg, part, bytes, len, &b.out)) {
            tn_analyzer_adopt_retired(into, &b);
        } else {
            /* no store (or it is full): kept in memory, read again into memory of its own */
            struct tn_conn *whole = tn_conn_retired_unpack(bytes, len);
            if (!whole) {
                ret = -1;
                break;
            }
            tn_analyzer_adopt(into, whole, 0);
        }
        tn_grow((void **)&taken->idx, &taken->cap, taken->n + 1, sizeof *taken->idx);
        taken->idx[taken->n++] = tn_analyzer_conn_count(into) - 1;
        off += used;
    }
    tn_arena_free(&mem);
    return ret;
}

/* ---- an experiment trace ---- */

void tn_cluster_trace_pack(int status, const struct tn_analyzer *an, struct tn_packbuf *b)
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

struct tn_analyzer *tn_cluster_trace_unpack(const uint8_t *in, size_t n, const struct tn_analysis_cfg *acfg,
                                            int *status)
{
    int32_t st32;
    struct tn_trace_stats st;
    uint64_t nconns;
    size_t off = sizeof st32 + sizeof st + sizeof nconns;
    if (n < off)
        return NULL;
    memcpy(&st32, in, sizeof st32);
    memcpy(&st, in + sizeof st32, sizeof st);
    memcpy(&nconns, in + sizeof st32 + sizeof st, sizeof nconns);
    if (st32 < 0 || st32 > 255 || !stats_ok(&st))
        return NULL;
    struct tn_analyzer *an = tn_analyzer_new(acfg);
    unsigned last = 0;
    for (uint64_t i = 0; i < nconns; i++) {
        size_t used = 0;
        struct tn_conn *c = off < n ? tn_conn_unpack(in + off, n - off, &used) : NULL;
        /* one process numbers a trace's connections 1, 2, ... (gaps where some were evicted) */
        if (!c || c->idx <= last) {
            tn_conn_unpacked_free(c);
            tn_analyzer_free(an);
            return NULL;
        }
        last = c->idx;
        tn_analyzer_adopt(an, c, c->idx);
        off += used;
    }
    if (off != n) {
        tn_analyzer_free(an);
        return NULL;
    }
    tn_analyzer_set_stats(an, &st);
    *status = st32;
    return an;
}

/* ---- two capture points: the egress stream ---- */

enum { EGRESS_PKT = 1, EGRESS_PROBLEM = 2 };

void tn_cluster_egress_pkt_pack(int status, uint32_t file, const struct tn_pkt *p, struct tn_packbuf *b)
{
    uint8_t item[TN_CLUSTER_EGRESS_MAX];
    item[0] = EGRESS_PKT;
    item[1] = (uint8_t)status;
    memcpy(item + 2, &file, 4);
    tn_packbuf_put(b, item, 6 + tn_pkt_pack(p, item + 6));
}

void tn_cluster_egress_problem_pack(int code, const struct tn_err *err, struct tn_packbuf *b)
{
    uint8_t head[7];
    int32_t c = code;
    size_t len = strnlen(err->msg, sizeof err->msg - 1);
    uint16_t l16 = (uint16_t)len;
    head[0] = EGRESS_PROBLEM;
    memcpy(head + 1, &c, 4);
    memcpy(head + 5, &l16, 2);
    tn_packbuf_put(b, head, sizeof head);
    tn_packbuf_put(b, err->msg, len);
}

size_t tn_cluster_egress_unpack(const uint8_t *in, size_t n, int nfiles, struct tn_cluster_egress *e)
{
    if (n < 1)
        return 0;
    if (in[0] == EGRESS_PKT) {
        if (n < 6)
            return 0;
        e->code = 0;
        e->status = in[1];
        memcpy(&e->file, in + 2, 4);
        /* tn_dissect's statuses (TN_DIS_OK .. TN_DIS_MALFORMED) */
        if (e->status > TN_DIS_MALFORMED || nfiles <= 0 || e->file >= (uint32_t)nfiles)
            return 0;
        size_t used = tn_pkt_unpack(in + 6, n - 6, &e->pkt);
        return used ? 6 + used : 0;
    }
    if (in[0] != EGRESS_PROBLEM || n < 7)
        return 0;
    int32_t c;
    uint16_t len;
    memcpy(&c, in + 1, 4);
    memcpy(&len, in + 5, 2);
    if (c >= 0 || c < -TN_ENOMEM || len >= sizeof e->err.msg || len > n - 7)
        return 0;
    e->code = c;
    e->err.code = -c;
    memcpy(e->err.msg, in + 7, len);
    e->err.msg[len] = 0;
    return 7 + (size_t)len;
}

int tn_cluster_egress_next(const uint8_t *in, size_t n, size_t *off, const struct tn_options *o,
                           struct tn_source_pkt *out, struct tn_err *err)
{
    struct tn_cluster_egress e;
    size_t used = *off < n ? tn_cluster_egress_unpack(in + *off, n - *off, o->negress, &e) : 0;
    if (!used)
        return 0;
    *off += used;
    if (e.code < 0) {
        *err = e.err;
        return e.code;
    }
    memset(out, 0, sizeof *out);
    out->pkt = e.pkt;
    out->status = e.status;
    out->has_pkt = true;
    out->egress = true;
    out->origin = o->egress[e.file];
    return 1;
}
