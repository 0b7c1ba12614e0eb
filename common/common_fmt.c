/* common_fmt.c - a double in fixed notation exactly as printf's "%.*f" writes it, without
 * printf: the reports and CSV files of a million short connections write tens of millions of
 * such numbers, and glibc's multi-precision conversion (__printf_fp) was a sixth of a run. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common.h"

__extension__ typedef unsigned __int128 tn_u128;

static const uint32_t pow10_u32[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000};

size_t tn_fmt_fixed(char *buf, size_t len, double v, int prec)
{
    if (!isfinite(v) || prec < 0 || prec > 9 || len < 32)
        return (size_t)snprintf(buf, len, "%.*f", prec, v);
    /* |v| = mant * 2^e exactly, mant an integer of at most 53 bits: from the IEEE 754 fields
     * of a normal double (the implicit 1 and the biased exponent), else as frexp says (zero,
     * subnormals) */
    uint64_t bits, mant;
    memcpy(&bits, &v, sizeof bits);
    int biased = (int)(bits >> 52 & 0x7ff), e2, e;
    if (biased != 0 && biased != 0x7ff) {
        mant = (bits & ((UINT64_C(1) << 52) - 1)) | UINT64_C(1) << 52;
        e2 = biased - 1022;   /* frexp's exponent: |v| = m * 2^e2, 0.5 <= m < 1 */
    } else {
        double m = frexp(fabs(v), &e2);
        mant = (uint64_t)ldexp(m, 53);
    }
    e = e2 - 53;
    /* the exact cases below: a finite value below 2^63, at most 9 decimals */
    if (e2 > 63)
        return (size_t)snprintf(buf, len, "%.*f", prec, v);
    /* n = |v| * 10^prec rounded to the nearest integer, ties to even: glibc rounds the exact
     * binary value so in the default rounding mode (C11 7.21.6.1 leaves it to the
     * implementation; glibc's printf_fp follows the current mode, round-to-nearest-even) */
    tn_u128 t = (tn_u128)mant * pow10_u32[prec];   /* < 2^83 */
    tn_u128 n;
    if (e >= 0) {
        n = t << e;   /* |v| < 2^63: < 2^93 */
    } else if (-e >= 100) {
        n = 0;        /* t < 2^83 < half of 2^100 */
    } else {
        unsigned s = (unsigned)-e;
        n = t >> s;
        tn_u128 rest = t - (n << s), half = (tn_u128)1 << (s - 1);
        if (rest > half || (rest == half && (n & 1)))
            n++;
    }
    uint64_t ip;
    uint32_t fp;
    if (n >> 64 == 0) {   /* the usual case: 64-bit division, not a 128-bit library call */
        ip = (uint64_t)n / pow10_u32[prec];
        fp = (uint32_t)((uint64_t)n % pow10_u32[prec]);
    } else {
        ip = (uint64_t)(n / pow10_u32[prec]);
        fp = (uint32_t)(n % pow10_u32[prec]);
    }
    char tmp[32];
    char *p = tmp + sizeof tmp;
    for (int i = 0; i < prec; i++, fp /= 10)
        *--p = (char)('0' + fp % 10);
    if (prec)
        *--p = '.';
    do {
        *--p = (char)('0' + ip % 10);
        ip /= 10;
    } while (ip);
    if (signbit(v))
        *--p = '-';   /* printf keeps the sign of a negative value that rounds to zero, and of -0 */
    size_t k = (size_t)(tmp + sizeof tmp - p);
    memcpy(buf, p, k);
    buf[k] = '\0';
    return k;
}

size_t tn_fmt_u64(char *buf, uint64_t v)
{
    char t[TN_U64_LEN], *p = t + sizeof t;
    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    size_t k = (size_t)(t + sizeof t - p);
    memcpy(buf, p, k);
    buf[k] = '\0';
    return k;
}
