/* anon_cryptopan.c - Crypto-PAn (Xu, Fan, Ammar, Moon: "Prefix-Preserving IP Address
 * Anonymization", ICNP 2002, section 4) with AES-128 from nettle.
 *
 * For an n-bit address a = a_1 ... a_n the anonymized address is a XOR otp, where bit i of the
 * one-time pad is the first bit of AES_K(a_1 ... a_{i-1} followed by the last 128-(i-1) bits
 * of the pad P).  P is the key file's second half encrypted with K, as in the reference
 * implementation's constructor.  Bit i of the result depends only on the first i bits of a, so
 * two addresses sharing exactly a k-bit prefix share exactly a k-bit prefix afterwards.
 * IPv4 (n = 32) is the reference implementation bit for bit (its test vectors are checked in
 * tests/unit/check_anon.c); IPv6 is the same construction with n = 128 over the whole 128-bit
 * block, as yacryptopan does (its published vector is checked too).
 */
#include <nettle/aes.h>
#include <string.h>

#include "anon_int.h"

/* The one-time pad bits for the first nbits bits of in (big endian), XORed into out. */
static void cryptopan(const struct tn_anon *a, const uint8_t *in, uint8_t *out, unsigned nbits)
{
    uint8_t block[16], enc[16], otp[16] = {0};
    memcpy(block, a->pad, sizeof block);
    for (unsigned pos = 0; pos < nbits; pos++) {
        /* block = the first pos bits of the address, then the pad */
        aes128_encrypt(&a->aes, sizeof block, enc, block);
        otp[pos / 8] |= (uint8_t)((enc[0] >> 7) << (7 - pos % 8));
        uint8_t m = (uint8_t)(0x80u >> (pos % 8));
        block[pos / 8] = (uint8_t)((block[pos / 8] & ~m) | (in[pos / 8] & m));
    }
    for (unsigned i = 0; i < nbits / 8; i++)
        out[i] = in[i] ^ otp[i];
}

uint32_t tn_anon_ip4(const struct tn_anon *a, uint32_t addr)
{
    uint8_t in[4] = {(uint8_t)(addr >> 24), (uint8_t)(addr >> 16), (uint8_t)(addr >> 8), (uint8_t)addr};
    uint8_t out[4];
    cryptopan(a, in, out, 32);
    return (uint32_t)out[0] << 24 | (uint32_t)out[1] << 16 | (uint32_t)out[2] << 8 | out[3];
}

void tn_anon_ip6(const struct tn_anon *a, const uint8_t in[16], uint8_t out[16])
{
    cryptopan(a, in, out, 128);
}

/* A host's TCP time stamp offset: its address encrypted with the time stamp key (anon_key.c),
 * the first 32 bits (docs/anonymization.md, "TCP time stamps"). */
uint32_t tn_anon_ts_prf(const struct tn_anon *a, uint8_t family, const uint8_t *addr)
{
    uint8_t block[16] = {0}, enc[16];
    memcpy(block, addr, family == 4 ? 4 : 16);
    if (family == 4)
        block[15] = 4;
    aes128_encrypt(&a->ts_aes, sizeof block, enc, block);
    return (uint32_t)enc[0] << 24 | (uint32_t)enc[1] << 16 | (uint32_t)enc[2] << 8 | enc[3];
}
