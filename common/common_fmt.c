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
    int e2;
    double m = frexp(fabs(v), &e2);   /* |v| = m * 2^e2, 0.5 <= m < 1 */
    /* the exact cases below: a finite value below 2^63, at most 9 decimals */
    if (!isfinite(v) || prec < 0 || prec > 9 || e2 > 63 || len < 32)
        return (size_t)snprintf(buf, len, "%.*f", prec, v);
    /* |v| = mant * 2^e exactly, mant an integer of at most 53 bits */
    uint64_t mant = (uint64_t)ldexp(m, 53);
    int e = e2 - 53;
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
    uint64_t ip = (uint64_t)(n / pow10_u32[prec]);
    uint32_t fp = (uint32_t)(n % pow10_u32[prec]);
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
