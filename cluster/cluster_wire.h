/* cluster_wire.h - what the ranks of an MPI job send each other, as bytes and back, without MPI
 * (docs/cluster.md): packet records, a rank's trace totals, its finished connections, an
 * experiment trace's results.  cluster_mpi.c sends them; tests/fuzz/fuzz_cluster.c decodes
 * hostile ones.  The bytes come from ranks of the same job (the same binary), yet every decoder
 * refuses what is cut, names a file that is not there, or holds a value the encoder never
 * writes, rather than read past its end or follow a pointer of another process: a corrupt
 * message ends the job with a message, not a crash. */
#ifndef TN_CLUSTER_WIRE_H
#define TN_CLUSTER_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>   /* options.h */

#include "analysis.h"
#include "dissect.h"
#include "options.h"

/* A packet record: the index in the options' files of the file the packet came from (u32), the
 * trace clock before it among the packets its reader read (i64, tn_pkt_place.clock_ns), then
 * tn_pkt_pack's bytes. */
#define TN_CLUSTER_REC_HEAD 12
#define TN_CLUSTER_REC_MAX (TN_CLUSTER_REC_HEAD + TN_PKT_PACK_MAX)

struct tn_cluster_rec {
    uint32_t file;
    int64_t clock_ns;
    int64_t first_ns;          /* a windowed record's (below); INT64_MAX in a plain one */
    struct tn_pkt pkt;
};

/* Writes the record into out (TN_CLUSTER_REC_MAX bytes at least); returns its length. */
size_t tn_cluster_rec_pack(uint32_t file, int64_t clock_ns, const struct tn_pkt *p, uint8_t *out);

/* Reads one record at in (n bytes there) naming one of nfiles files; returns its length, 0 when
 * it is cut or malformed. */
size_t tn_cluster_rec_unpack(const uint8_t *in, size_t n, int nfiles, struct tn_cluster_rec *r);

/* A windowed run's record (--from/--to): the earliest time stamp its reader had read, its own
 * included (i64, the window's base: tn_pkt_place.first_ns), then the record. */
#define TN_CLUSTER_WREC_MAX (8 + TN_CLUSTER_REC_MAX)
size_t tn_cluster_wrec_pack(uint32_t file, int64_t clock_ns, int64_t first_ns, const struct tn_pkt *p,
                            uint8_t *out);
size_t tn_cluster_wrec_unpack(const uint8_t *in, size_t n, int nfiles, struct tn_cluster_rec *r);

/* A rank's trace totals (with evicted connections added), the file of each anomaly's first
 * packet written as its index in files (pointers mean nothing on another rank). */
void tn_cluster_stats_pack(const struct tn_trace_stats *st, uint64_t evicted, const char *const *files,
                           int nfiles, struct tn_packbuf *b);

/* Merges the totals tn_cluster_stats_pack wrote (n bytes at in) into m: sums, the earliest and
 * latest time stamps, each anomaly's first packet by read order (file index, then packet).
 * 0, or -1 when the bytes are no such totals. */
int tn_cluster_stats_merge(const uint8_t *in, size_t n, const char *const *files, int nfiles,
                           struct tn_trace_stats *m);

/* Connections tn_conn_pack wrote one after the other (n bytes at in), adopted by into in their
 * order (tn_analyzer_adopt, numbered next).  0, or -1 when one is malformed (those before it
 * are into's). */
int tn_cluster_conns_unpack(const uint8_t *in, size_t n, struct tn_analyzer *into);

/* The key of a packet in the order one process reads them (tn_pkt_place.ord): file index,
 * packet number. */
#define TN_CLUSTER_KEY_FILE_SHIFT 40
static inline uint64_t tn_cluster_key(uint32_t file, uint64_t num)
{
    return (uint64_t)file << TN_CLUSTER_KEY_FILE_SHIFT | (num & (((uint64_t)1 << TN_CLUSTER_KEY_FILE_SHIFT) - 1));
}

/* What a rank streams to rank 0 during the run, as items of a kind (u8):
 * 0: a connection retired (analysis cfg.on_retire): its brief (struct tn_conn_brief, the
 *    sender's store reference zeroed but for out.part TN_OUT_AWAY: the sender kept no copy),
 *    the length of its bytes (u32) and the bytes (tn_conn_pack's bytes and the rest of its
 *    state);
 * 1: a later packet of the endpoints of such a connection its sender kept no copy of
 *    (cfg.on_away), for rank 0 to analyse: the connection's number among the items of kind 0
 *    its sender sent, from 0 (u64), and a windowed packet record (tn_cluster_wrec_pack) at the
 *    packet's final place;
 * 2: a connection by its brief alone, for outputs that read only briefs (tn_outputs_briefs_only):
 *    struct tn_conn_brief, retired, the store reference zeroed. */
void tn_cluster_retired_pack(const struct tn_conn_brief *b, const void *bytes, size_t n, struct tn_packbuf *out);
void tn_cluster_away_pack(uint64_t id, const struct tn_pkt *p, struct tn_pkt_place place, struct tn_packbuf *out);
void tn_cluster_brief_pack(const struct tn_conn_brief *b, struct tn_packbuf *out);

/* Where rank 0 put the connections of kind 0 one sender sent, in order: their index in the
 * analyzer that took them. */
struct tn_cluster_taken {
    size_t *idx;
    size_t n, cap;
};

/* Reads one item of kind 0 at in (n bytes there, after the kind): *b its brief, *bytes and *len
 * the connection's bytes (in the input).  Returns its length, 0 when it is cut or malformed. */
size_t tn_cluster_retired_unpack(const uint8_t *in, size_t n, struct tn_conn_brief *b, const uint8_t **bytes,
                                 size_t *len);

/* Every item one sender sent (n bytes at in) into analyzer into, taken (what was taken of
 * that sender before, grown): a connection's bytes to into's store (cfg.spill_put, as store part
 * `part`) and the connection adopted by its brief (tn_analyzer_adopt_retired), with no room in
 * the store adopted whole; a packet (naming one of nfiles files) analysed in the connection of
 * its endpoints (tn_analyzer_take_late for the first one, tn_analyzer_add_away); a brief alone
 * adopted so (tn_analyzer_adopt_brief).  0, or -1 when
 * one is malformed (a connection's bytes must read as a connection with its brief's first packet,
 * a packet must be one of a connection taken; those before it are into's). */
int tn_cluster_retired_adopt(const uint8_t *in, size_t n, struct tn_analyzer *into, unsigned part, int nfiles,
                             struct tn_cluster_taken *taken);

/* An experiment trace's results: its exit status (i32), trace totals (no file names: the
 * experiment table names the trace), the number of connections (u64) and each connection with
 * its number. */
void tn_cluster_trace_pack(int status, const struct tn_analyzer *an, struct tn_packbuf *b);

/* Those results in a new analyzer of acfg, *status its exit status; NULL when malformed
 * (connections whose numbers do not grow, cut bytes, bytes after the last connection). */
struct tn_analyzer *tn_cluster_trace_unpack(const uint8_t *in, size_t n, const struct tn_analysis_cfg *acfg,
                                            int *status);

/* Two capture points: rank 1 reads the egress files and sends rank 0 what its source gives, in
 * order, as items: kind (u8: 1 a packet, 2 a problem); a packet: its dissection status (u8),
 * the index of its file among the egress files (u32), tn_pkt_pack's bytes; a problem:
 * tn_source_next's return (i32, negative), the message's length (u16) and bytes. */
#define TN_CLUSTER_EGRESS_MAX (6 + TN_PKT_PACK_MAX + 512)   /* an item at most */

struct tn_cluster_egress {
    int code;                  /* 0: a packet; < 0: a problem (tn_source_next's return) */
    int status;                /* the packet's dissection status */
    uint32_t file;
    struct tn_pkt pkt;
    struct tn_err err;         /* the problem */
};

void tn_cluster_egress_pkt_pack(int status, uint32_t file, const struct tn_pkt *p, struct tn_packbuf *b);
void tn_cluster_egress_problem_pack(int code, const struct tn_err *err, struct tn_packbuf *b);

/* Reads one item at in (n bytes there) of a stream over nfiles egress files; returns its length,
 * 0 when it is cut or malformed. */
size_t tn_cluster_egress_unpack(const uint8_t *in, size_t n, int nfiles, struct tn_cluster_egress *e);

/* The item at in + *off (n bytes in all) as the two-point source takes it from its feed
 * (source.h's tn_twopoint_feed, the options' egress files naming its origin): 1 with out set,
 * the problem's code (< 0) with err set, 0 when the item is cut or malformed.  *off moves past
 * the item. */
struct tn_source_pkt;
int tn_cluster_egress_next(const uint8_t *in, size_t n, size_t *off, const struct tn_options *o,
                           struct tn_source_pkt *out, struct tn_err *err);

#endif
