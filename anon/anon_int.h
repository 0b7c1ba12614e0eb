/* anon_int.h - private state of the anonymization layer, shared by its files. */
#ifndef TN_ANON_INT_H
#define TN_ANON_INT_H

#include <nettle/aes.h>

#include "anon.h"

/* One cached address (IPv4 in the first 4 bytes): the anonymized address and its host's time
 * stamp offset. */
struct tn_anon_entry {
    uint8_t orig[16], anon[16];
    uint32_t ts;
    uint8_t family;            /* 0: empty slot */
};

/* An open-addressing table, doubled at half load up to its limit, then emptied and refilled:
 * memory stays bounded (80 MiB) however many hosts a trace has. */
struct tn_anon_cache {
    struct tn_anon_entry *e;
    size_t n, cap;
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
