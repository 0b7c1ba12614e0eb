/* check_dissect.c - what the whole dissect layer shares: the anomaly list (names, texts), the
 * DFCP type names.  Each layer has its own file: check_dissect_link.c,
 * check_dissect_ip.c, check_dissect_tunnel.c, check_dissect_tcp.c, check_dissect_dfcp.c.
 */
#include <check.h>
#include <string.h>

#include "dissect_test.h"

/* ---------------------------------------------------------------- name tables */

START_TEST(test_names)
{
    for (int k = 0; k < TN_ANOM_COUNT; k++) {
        const char *n = tn_anom_name((enum tn_anom_kind)k);
        ck_assert_ptr_nonnull(n);
        ck_assert_ptr_nonnull(strchr(n, '.'));
        ck_assert_uint_gt(strlen(tn_anom_text((enum tn_anom_kind)k)), 5);
        for (int j = 0; j < k; j++)
            ck_assert_str_ne(n, tn_anom_name((enum tn_anom_kind)j));
    }
    ck_assert_str_eq(tn_anom_name(TN_ANOM_TCP_OPT_LEN_ZERO), "tcp.opt_len0");
    ck_assert_str_eq(tn_anom_text(TN_ANOM_TCP_OPT_LEN_ZERO), "TCP option length 0 or 1");
    ck_assert_str_eq(tn_anom_name(TN_ANOM_COUNT), "unknown");
    char b[16];
    ck_assert_str_eq(tn_dfcp_type_name(4, b), "BACK");
    ck_assert_str_eq(tn_dfcp_type_name(15, b), "unknown-15");
    ck_assert_str_eq(tn_dfcp_type_name(255, b), "unknown-255");
}
END_TEST


Suite *tn_dissect_suite(void)
{
    Suite *s = suite_create("dissect");
    TCase *tc = dissect_tcase(s, "names");
    tcase_add_test(tc, test_names);
    return s;
}
