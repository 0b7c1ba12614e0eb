/* shards.h - -j N: N worker threads, each the only owner of its connections (those of the
 * flow-hash buckets given to it, each at its first packet), fed by the reader in blocks; merged
 * at the end into the reader's analyzer (tn_analyzer_merge) so every output equals one
 * thread's.  Private to cli/. */
#ifndef TN_CLI_SHARDS_H
#define TN_CLI_SHARDS_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis.h"

struct tn_shards;

/* n >= 2 workers, each with an analyzer of cfg (max_conns shared out).  live: the reader never
 * waits for a worker; a block that finds its worker's queue full is dropped (counted).  NULL
 * when the threads cannot be started. */
struct tn_shards *tn_shards_new(unsigned n, const struct tn_analysis_cfg *cfg, bool live);

/* The reader: one TCP/DFCP packet with its place (tn_analyzer_count); copied. */
void tn_shards_pkt(struct tn_shards *s, const struct tn_pkt *p, struct tn_pkt_place place);

/* The reader: how many packets it handed worker i so far. */
uint64_t tn_shards_handed(const struct tn_shards *s, unsigned i);

/* The reader: every worker retires its connections idle past idle_ns at now_ns
 * (tn_analyzer_retire_idle), at this place of the stream. */
void tn_shards_retire(struct tn_shards *s, int64_t now_ns, int64_t idle_ns);

/* End of input: the workers finish their analyzers, which are merged into an (empty of
 * connections) and freed; the threads are joined.  Returns the packets dropped (live). */
uint64_t tn_shards_end(struct tn_shards *s, struct tn_analyzer *an);

/* The worker count -j/--threads asks for: 0 = every online CPU. */
unsigned tn_shards_default(long asked);

#endif
