/* check_common.c - error buffer, growth helper, time stamps, addresses and TN_BUG_ON. */
#include <check.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "addr.h"
#include "common.h"

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

Suite *tn_common_suite(void)
{
    Suite *s = suite_create("common");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_err_set_returns_negative_code);
    tcase_add_test(tc, test_grow_keeps_contents);
    tcase_add_test(tc, test_time_diff);
    tcase_add_test(tc, test_addr_str);
    tcase_add_test(tc, test_bug_on);
    suite_add_tcase(s, tc);
    return s;
}
