/* anon_int.h - private state of the anonymization layer, shared by its files. */
#ifndef TN_ANON_INT_H
#define TN_ANON_INT_H

#include <nettle/aes.h>

#include "anon.h"

/* One cached IPv4 address: the anonymized address and its host's time stamp offset. */
struct tn_anon_e4 {
    uint32_t orig, anon, ts;
    uint32_t used;
};

struct tn_anon_e6 {
    uint8_t orig[16], anon[16];
    uint32_t ts;
    uint32_t used;
};

/* Open-addressing tables, doubled at half load up to their limit, then emptied and refilled:
 * memory stays bounded (64 MiB + 40 MiB) however many hosts a trace has. */
struct tn_anon_cache {
    struct tn_anon_e4 *e4;
    size_t n4, cap4;
    struct tn_anon_e6 *e6;
    size_t n6, cap6;
    uint64_t lookups, misses;
};

struct tn_anon {
    struct aes128_ctx aes;     /* K */
    uint8_t pad[16];           /* AES_K(second half of the key file) */
    struct aes128_ctx ts_aes;  /* the time stamp offset key */
    struct tn_anon_cache cache;
};

/* anon_cryptopan.c: the host's time stamp offset, from its anonymized address. */
uint32_t tn_anon_ts_prf(const struct tn_anon *a, uint8_t family, const uint8_t *addr);

/* anon_cache.c */
void tn_anon_cache_init(struct tn_anon *a);
void tn_anon_cache_fini(struct tn_anon *a);

#endif
