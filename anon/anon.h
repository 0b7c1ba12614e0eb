/* anon.h - public interface of the anonymization layer: Crypto-PAn prefix-preserving address
 * anonymization (Xu, Fan, Ammar, Moon, ICNP 2002), a cache in front of it, and the per-host
 * TCP time stamp offsets of --anonymize-ts.  docs/anonymization.md describes the constructions.
 *
 * The key is read once from a 32-byte file (bytes 0-15 the AES-128 key, 16-31 the pad, as the
 * reference implementation and traceanon); it is never printed, and its bytes are wiped when
 * the handle is freed.  AES comes from nettle.
 */
#ifndef TN_ANON_H
#define TN_ANON_H

#include <stdbool.h>
#include <stdint.h>

#include "common.h"
#include "dissect.h"

#define TN_ANON_KEY_LEN 32

struct tn_anon;

/* Read the key file and set up the cipher.  Returns 0, or -TN_EIO (cannot open or read) /
 * -TN_EFORMAT (not 32 bytes) with err filled; the message names the file, never the key.
 * A key file that group or others may read is accepted with a warning: 0 is returned with
 * err->code == 0 and the warning in err->msg (otherwise err->msg is empty). */
int tn_anon_open(struct tn_anon **out, const char *keyfile, struct tn_err *err);

/* The same from the 32 key bytes themselves (tests). */
struct tn_anon *tn_anon_new(const uint8_t key[TN_ANON_KEY_LEN]);

/* Wipes the key material.  NULL is fine. */
void tn_anon_free(struct tn_anon *a);

/* Crypto-PAn of one address, uncached: IPv4 in host order exactly as the reference
 * implementation; IPv6 the 128-round generalization (docs/anonymization.md). */
uint32_t tn_anon_ip4(const struct tn_anon *a, uint32_t addr);
void tn_anon_ip6(const struct tn_anon *a, const uint8_t in[16], uint8_t out[16]);

/* Anonymize an address in place through the cache (family 4 or 6; others are left alone).
 * When ts_off is not NULL it gets the host's TCP time stamp offset (a keyed pseudo-random
 * function of the anonymized address, so that every station with the key finds the same). */
void tn_anon_addr(struct tn_anon *a, uint8_t family, uint8_t *addr, uint32_t *ts_off);

/* The packet record's addresses, and with rebase_ts its TCP time stamps: TSval + offset of
 * the source, TSecr + offset of the destination when the ACK bit makes it valid (RFC 7323
 * section 3.2).  Differences within one host's clock and the echo of a TSval are kept. */
void tn_anon_pkt(struct tn_anon *a, struct tn_pkt *p, bool rebase_ts);

/* Cache statistics (lookups, and those that had to run the cipher). */
void tn_anon_stats(const struct tn_anon *a, uint64_t *lookups, uint64_t *misses);

#endif
