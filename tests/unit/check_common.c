/* check_common.c - error buffer, growth helper, time stamps, addresses and TN_BUG_ON. */
#include <check.h>
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addr.h"
#include "common.h"
#include "render_line.h"

START_TEST(test_err_set_returns_negative_code)
{
    struct tn_err e;
    int r = tn_err_set(&e, TN_EFORMAT, "%s: packet %d: %s", "x.pcap", 7, "bad");
    ck_assert_int_eq(r, -TN_EFORMAT);
    ck_assert_int_eq(e.code, TN_EFORMAT);
    ck_assert_str_eq(e.msg, "x.pcap: packet 7: bad");
    ck_assert_int_eq(tn_err_set(NULL, TN_EIO, "ignored"), -TN_EIO);
}
END_TEST

START_TEST(test_grow_keeps_contents)
{
    int *v = NULL;
    size_t cap = 0;
    for (int i = 0; i < 1000; i++) {
        tn_grow((void **)&v, &cap, (size_t)i + 1, sizeof *v);
        v[i] = i * 3;
    }
    ck_assert_uint_ge(cap, 1000);
    ck_assert_int_eq(v[999], 2997);
    ck_assert_int_eq(v[17], 51);
    free(v);
}
END_TEST

START_TEST(test_time_diff)
{
    struct tn_time a = {10, 100000000}, b = {9, 900000000};
    ck_assert_double_eq_tol(tn_time_diff(a, b), 0.2, 1e-12);
    ck_assert_int_eq(tn_time_cmp(a, b), 1);
    ck_assert_int_eq(tn_time_cmp(b, a), -1);
    ck_assert_int_eq(tn_time_cmp(a, a), 0);
}
END_TEST

START_TEST(test_addr_str)
{
    struct tn_addr none = {0};
    char ab[48];
    ck_assert_str_eq(tn_addr_str(&none, ab, sizeof ab), "-");
    struct tn_addr v6 = {.family = 6, .a = {0xfe, 0x80, [15] = 1}};
    ck_assert_str_eq(tn_addr_str(&v6, ab, sizeof ab), "fe80::1");
    struct tn_addr v4 = {.family = 4, .a = {255, 255, 255, 255}};
    ck_assert_str_eq(tn_addr_str(&v4, ab, sizeof ab), "255.255.255.255");
    /* the endpoint without printf: as "%s:%u" of inet_ntop's text, and a v6 one in brackets */
    char eb[64], want[64];
    const struct tn_addr v4s[] = {{.family = 4, .a = {0, 0, 0, 0}}, {.family = 4, .a = {10, 0, 0, 1}},
                                  {.family = 4, .a = {192, 168, 100, 255}}, v4};
    const uint16_t ports[] = {0, 9, 80, 10000, 65535};
    for (size_t i = 0; i < sizeof v4s / sizeof v4s[0]; i++)
        for (size_t k = 0; k < sizeof ports / sizeof ports[0]; k++) {
            snprintf(want, sizeof want, "%s:%u", tn_addr_str(&v4s[i], ab, sizeof ab), ports[k]);
            ck_assert_str_eq(tn_endpoint_str(&v4s[i], ports[k], eb, sizeof eb), want);
        }
    ck_assert_str_eq(tn_endpoint_str(&v6, 443, eb, sizeof eb), "[fe80::1]:443");
}
END_TEST

/* TN_BUG_ON goes through tn_fatal, whose hook runs first: this one jumps back instead of letting
 * it abort, so the test can see that a broken invariant stops the program and a kept one does
 * not. */
static jmp_buf bug_jmp;
static int bug_hits;

static void bug_hook(void)
{
    bug_hits++;
    longjmp(bug_jmp, 1);
}

START_TEST(test_bug_on)
{
    volatile int evaluated = 0;
    tn_set_fatal_hook(bug_hook);
    if (setjmp(bug_jmp) == 0) {
        TN_BUG_ON(evaluated++ > 0);
#ifndef NDEBUG
        ck_assert_int_eq(evaluated, 1);
        TN_BUG_ON(evaluated == 1);
        ck_abort_msg("TN_BUG_ON(true) returned");
#endif
    }
    tn_set_fatal_hook(NULL);
#ifndef NDEBUG
    ck_assert_int_eq(bug_hits, 1);
#else
    ck_assert_int_eq(bug_hits, 0);
    ck_assert_int_eq(evaluated, 0);
#endif
}
END_TEST

/* tn_fmt_fixed writes what printf's "%.*f" writes: checked against glibc's snprintf on exact
 * ties (rounded to even on the binary value), signed zeros, the smallest and largest values it
 * converts itself, the ones it leaves to snprintf, and 200,000 pseudo-random doubles. */
static void fmt_same(double v, int prec)
{
    char want[512], got[512];
    snprintf(want, sizeof want, "%.*f", prec, v);
    size_t n = tn_fmt_fixed(got, sizeof got, v, prec);
    ck_assert_msg(strcmp(got, want) == 0 && n == strlen(want), "%.17g with %d decimals: %s, printf %s", v, prec,
                  got, want);
}

/* tn_fmax, tn_fmin and tn_round give libm's results bit for bit (the sign of a zero, NaNs, the
 * halves), on special values and 300,000 pseudo-random pairs, so the window replay's outputs do
 * not change with them. */
static void math_same(double a, double b)
{
    double r[3] = {tn_fmax(a, b), tn_fmin(a, b), tn_round(a)}, e[3] = {fmax(a, b), fmin(a, b), round(a)};
    for (int k = 0; k < 3; k++) {
        bool same = isnan(e[k]) ? isnan(r[k]) : memcmp(&r[k], &e[k], sizeof r[k]) == 0;
        if (!same)   /* (an assertion per value would be a write to Check's pipe each) */
            ck_abort_msg("op %d (%a, %a): %a, libm %a", k, a, b, r[k], e[k]);
    }
}

START_TEST(test_inline_math_as_libm)
{
    const double v[] = {0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994,
                        4503599627370495.5, -4503599627370495.5, 4503599627370496.0, 9007199254740993.0,
                        1e300, -1e300, 5e-324, 1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        for (size_t j = 0; j < sizeof v / sizeof v[0]; j++)
            math_same(v[i], v[j]);
    uint64_t x = 0x2545f4914f6cdd1du;
    for (int i = 0; i < 300000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;   /* xorshift64 */
        double a = (double)(int64_t)(x % 4000001u - 2000000) / 8.0;   /* quarters and halves */
        uint64_t bits = (x & 0x800fffffffffffffu) | ((uint64_t)(1023 - 60 + (x >> 52) % 121) << 52);
        double b;
        memcpy(&b, &bits, sizeof b);
        math_same(a, b);
        math_same(b, a);
        math_same(b, i % 3 ? b : -b);
    }
}
END_TEST

START_TEST(test_fmt_fixed_as_printf)
{
    char b[64];
    tn_fmt_fixed(b, sizeof b, 0.125, 2);
    ck_assert_str_eq(b, "0.12");   /* a tie, exact in binary: to even */
    tn_fmt_fixed(b, sizeof b, 0.375, 2);
    ck_assert_str_eq(b, "0.38");
    tn_fmt_fixed(b, sizeof b, 2.5, 0);
    ck_assert_str_eq(b, "2");
    tn_fmt_fixed(b, sizeof b, 1.005, 2);
    ck_assert_str_eq(b, "1.00");   /* 1.005 is 1.00499999999999989... in binary */
    tn_fmt_fixed(b, sizeof b, -0.0001, 3);
    ck_assert_str_eq(b, "-0.000");
    tn_fmt_fixed(b, sizeof b, 1764662400.123456, 6);
    ck_assert_str_eq(b, "1764662400.123456");
    const double fixed[] = {0.0, -0.0, 0.5, 1.5, -2.5, 1e-300, 5e-324, 0.0005, 0.00049999999999999999,
                            9.9999999995, 123456.0005, 4503599627370495.5, 9007199254740993.0,
                            9223372036854774784.0, 9223372036854775808.0, 1e20, -1e300,
                            1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        for (int p = 0; p <= 12; p++)
            fmt_same(fixed[i], p);
    uint64_t x = 0x9e3779b97f4a7c15u;
    for (int i = 0; i < 200000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;   /* xorshift64 */
        double v;
        switch (i % 4) {
        case 0: {   /* any bit pattern with an exponent from 2^-70 to 2^70 */
            uint64_t bits = (x & 0x800fffffffffffffu) | ((uint64_t)(1023 - 70 + (x >> 52) % 141) << 52);
            memcpy(&v, &bits, sizeof v);
            break;
        }
        case 1: v = (double)(int64_t)(x % 2000000001u - 1000000000) / 1000.0; break;   /* "ms" values */
        case 2: v = ((double)(x % 100000000u) + 0.5) / 1e6; break;                    /* near ties */
        default: v = (double)(x >> 11) / 9007199254740992.0 * 1e4; break;
        }
        fmt_same(v, (int)((x >> 3) % 10));
    }
}
END_TEST

/* A report line put together by render_line.h is what fprintf writes from the same pieces: padded
 * both ways, numbers, a piece longer than the buffer, and lines that fill it many times. */
START_TEST(test_line_as_fprintf)
{
    char *got = NULL, *want = NULL;
    size_t ngot = 0, nwant = 0;
    FILE *g = open_memstream(&got, &ngot), *w = open_memstream(&want, &nwant);
    ck_assert(g && w);
    char long_text[TN_LINE_BUF * 2 + 7];
    memset(long_text, 'x', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = '\0';
    struct tn_line l;
    tn_line_begin(&l, g);
    for (int i = 0; i < 300; i++) {
        double v = i * 1.0005 - 17.25;
        uint64_t u = (uint64_t)i * 0x9e3779b97f4a7c15u;
        fprintf(w, "       %-22s %" PRIu64 " / %.3f|%*s|%c\n", i % 2 ? "RTT min/avg/max:" : "x", u, v, 9, "ab", 'z');
        tn_line_mem(&l, "       ", 7);
        tn_line_pad(&l, i % 2 ? "RTT min/avg/max:" : "x", 22, 1);
        tn_line_char(&l, ' ');
        tn_line_u64(&l, u);
        tn_line_str(&l, " / ");
        tn_line_fixed(&l, v, 3);
        tn_line_char(&l, '|');
        tn_line_pad(&l, "ab", 9, 0);
        tn_line_char(&l, '|');
        tn_line_char(&l, 'z');
        tn_line_char(&l, '\n');
        if (i == 150) {
            fprintf(w, "%s %-3s\n", long_text, "wider than three");
            tn_line_str(&l, long_text);
            tn_line_char(&l, ' ');
            tn_line_pad(&l, "wider than three", 3, 1);
            tn_line_char(&l, '\n');
        }
    }
    tn_line_end(&l);
    fclose(g);
    fclose(w);
    ck_assert_uint_eq(ngot, nwant);
    ck_assert(memcmp(got, want, nwant) == 0);
    free(got);
    free(want);
}
END_TEST

Suite *tn_common_suite(void)
{
    Suite *s = suite_create("common");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_err_set_returns_negative_code);
    tcase_add_test(tc, test_grow_keeps_contents);
    tcase_add_test(tc, test_time_diff);
    tcase_add_test(tc, test_addr_str);
    tcase_add_test(tc, test_bug_on);
    tcase_add_test(tc, test_fmt_fixed_as_printf);
    tcase_add_test(tc, test_line_as_fprintf);
    tcase_add_test(tc, test_inline_math_as_libm);
    suite_add_tcase(s, tc);
    return s;
}
