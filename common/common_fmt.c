/* common_fmt.c - a double in fixed notation exactly as printf's "%.*f" writes it, without
 * printf: the reports and CSV files of a million short connections write tens of millions of
 * such numbers, and glibc's multi-precision conversion (__printf_fp) was a sixth of a run. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common.h"

__extension__ typedef unsigned __int128 tn_u128;

/* "00".."99": two digits per division, half the divisions of one digit at a time */
static const char digits2[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                              "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                              "8081828384858687888990919293949596979899";

/* v's decimal digits ending just before p; returns the first */
static char *u64_back(char *p, uint64_t v)
{
    while (v >= 100) {
        p -= 2;
        memcpy(p, digits2 + 2 * (v % 100), 2);
        v /= 100;
    }
    if (v >= 10) {
        p -= 2;
        memcpy(p, digits2 + 2 * v, 2);
    } else {
        *--p = (char)('0' + v);
    }
    return p;
}

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
    /* digits made at the end of tmp, then a constant 32 bytes copied (the compiler inlines
     * that copy; at most 31 bytes with the NUL are the number, len >= 32 has room for all) */
    char tmp[64];
    char *p = tmp + 32;
    for (int i = prec; i > 0; i -= 2, fp /= 100) {
        if (i == 1) {
            *--p = (char)('0' + fp % 10);
            break;
        }
        p -= 2;
        memcpy(p, digits2 + 2 * (fp % 100), 2);
    }
    if (prec)
        *--p = '.';
    p = u64_back(p, ip);
    if (signbit(v))
        *--p = '-';   /* printf keeps the sign of a negative value that rounds to zero, and of -0 */
    size_t k = (size_t)(tmp + 32 - p);
    memcpy(buf, p, 32);
    buf[k] = '\0';
    return k;
}

size_t tn_fmt_u64(char *buf, uint64_t v)
{
    char t[TN_U64_LEN], *end = t + sizeof t;
    char *p = u64_back(end, v);
    size_t k = (size_t)(end - p);
    memcpy(buf, p, k);   /* exactly: tn_endpoint_str writes several into one buffer */
    buf[k] = '\0';
    return k;
}
