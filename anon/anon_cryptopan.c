/* anon_cryptopan.c - Crypto-PAn (Xu, Fan, Ammar, Moon: "Prefix-Preserving IP Address
 * Anonymization", ICNP 2002, section 4) with AES-128 from nettle, and the key file.
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
#include <errno.h>
#include <fcntl.h>
#include <nettle/aes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* The time stamp offset key: AES_K of a constant, so that it is as secret as K but never
 * equal to it (docs/anonymization.md, "TCP time stamps"). */
static const uint8_t ts_key_label[16] = "tcptrace-ng ts k";

uint32_t tn_anon_ts_prf(const struct tn_anon *a, uint8_t family, const uint8_t *addr)
{
    uint8_t block[16] = {0}, enc[16];
    memcpy(block, addr, family == 4 ? 4 : 16);
    if (family == 4)
        block[15] = 4;
    aes128_encrypt(&a->ts_aes, sizeof block, enc, block);
    return (uint32_t)enc[0] << 24 | (uint32_t)enc[1] << 16 | (uint32_t)enc[2] << 8 | enc[3];
}

struct tn_anon *tn_anon_new(const uint8_t key[TN_ANON_KEY_LEN])
{
    struct tn_anon *a = tn_xcalloc(1, sizeof *a);
    aes128_set_encrypt_key(&a->aes, key);
    aes128_encrypt(&a->aes, sizeof a->pad, a->pad, key + 16);
    uint8_t ts_key[16];
    aes128_encrypt(&a->aes, sizeof ts_key, ts_key, ts_key_label);
    aes128_set_encrypt_key(&a->ts_aes, ts_key);
    explicit_bzero(ts_key, sizeof ts_key);
    tn_anon_cache_init(a);
    return a;
}

void tn_anon_free(struct tn_anon *a)
{
    if (!a)
        return;
    tn_anon_cache_fini(a);
    explicit_bzero(a, sizeof *a);
    free(a);
}

int tn_anon_open(struct tn_anon **out, const char *keyfile, struct tn_err *err)
{
    *out = NULL;
    err->code = 0;
    err->msg[0] = '\0';
    int fd = open(keyfile, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return tn_err_set(err, TN_EIO, "--anonymize %s: %s", keyfile, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) < 0) {
        int e = errno;
        close(fd);
        return tn_err_set(err, TN_EIO, "--anonymize %s: %s", keyfile, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return tn_err_set(err, TN_EIO, "--anonymize %s: not a regular file", keyfile);
    }
    /* One byte more than a key: a longer file is refused rather than silently cut. */
    uint8_t key[TN_ANON_KEY_LEN + 1];
    size_t n = 0;
    while (n < sizeof key) {
        ssize_t r = read(fd, key + n, sizeof key - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int e = errno;
            close(fd);
            explicit_bzero(key, sizeof key);
            return tn_err_set(err, TN_EIO, "--anonymize %s: %s", keyfile, strerror(e));
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    if (n != TN_ANON_KEY_LEN) {
        explicit_bzero(key, sizeof key);
        return tn_err_set(err, TN_EFORMAT,
                          "--anonymize %s: the key file has %s%zu bytes; a Crypto-PAn key file "
                          "has exactly 32 (16 bytes of AES-128 key, then 16 of pad)",
                          keyfile, n > TN_ANON_KEY_LEN ? "more than " : "",
                          n > TN_ANON_KEY_LEN ? (size_t)TN_ANON_KEY_LEN : n);
    }
    *out = tn_anon_new(key);
    explicit_bzero(key, sizeof key);
    if (st.st_mode & (S_IRGRP | S_IROTH))
        snprintf(err->msg, sizeof err->msg,
                 "--anonymize %s: the key file is readable by %s (mode %04o): whoever reads it "
                 "can undo the anonymization; chmod 600 it",
                 keyfile, (st.st_mode & S_IRGRP) && (st.st_mode & S_IROTH) ? "group and others"
                          : st.st_mode & S_IRGRP ? "its group" : "others",
                 (unsigned)(st.st_mode & 07777));
    return 0;
}
