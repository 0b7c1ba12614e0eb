/* anon_key.c - an anonymizer's life: the key file (exactly 32 bytes: the AES-128 key, then the
 * pad, as the reference implementation and traceanon -F read it), the keys derived from it, the
 * address cache, and wiping it all at the end. */
#include <errno.h>
#include <fcntl.h>
#include <nettle/aes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "anon_int.h"

/* The time stamp offset key: AES_K of a constant, so that it is as secret as K but never
 * equal to it (docs/anonymization.md, "TCP time stamps"). */
static const uint8_t ts_key_label[16] = "tcptrace-ng ts k";

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
