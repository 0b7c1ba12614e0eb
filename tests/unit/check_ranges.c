/* check_ranges.c - the sorted range set behind the gaps and the SACK scoreboard
 * (analysis_ranges.c): splits, merges, pruning, and hundreds of holes open at once. */
#include <check.h>

#include "analysis_int.h"

START_TEST(test_cut_splits_and_trims)
{
    struct tn_rangeset rs = {0};
    tn_ranges_put(&rs, (struct tn_gap){.lo = 100, .hi = 200});
    tn_ranges_cut(&rs, 120, 130);   /* middle: two gaps */
    ck_assert_uint_eq(rs.n, 2);
    ck_assert_ptr_nonnull(tn_ranges_holding(&rs, 100, 120));
    ck_assert_ptr_null(tn_ranges_holding(&rs, 110, 125));
    ck_assert_ptr_nonnull(tn_ranges_holding(&rs, 130, 200));
    tn_ranges_cut(&rs, 90, 110);    /* left end */
    ck_assert_int_eq(rs.v[0].lo, 110);
    tn_ranges_cut(&rs, 190, 250);   /* right end */
    ck_assert_int_eq(rs.v[1].hi, 190);
    tn_ranges_cut(&rs, 0, 1000);    /* everything */
    ck_assert_uint_eq(rs.n, 0);
    tn_ranges_free(&rs);
}
END_TEST

START_TEST(test_merge_counts_new_bytes)
{
    struct tn_rangeset rs = {0};
    ck_assert_int_eq(tn_ranges_merge(&rs, 10, 20), 10);
    ck_assert_int_eq(tn_ranges_merge(&rs, 30, 40), 10);
    ck_assert_int_eq(tn_ranges_merge(&rs, 15, 35), 10);   /* bridges both: 20-30 is new */
    ck_assert_uint_eq(rs.n, 1);
    ck_assert_int_eq(rs.v[0].lo, 10);
    ck_assert_int_eq(rs.v[0].hi, 40);
    ck_assert_int_eq(tn_ranges_merge(&rs, 40, 50), 10);   /* touching joins */
    ck_assert_uint_eq(rs.n, 1);
    ck_assert_int_eq(tn_ranges_bytes_above(&rs, 25), 25);
    ck_assert_int_eq(tn_ranges_highest(&rs), 50);
    tn_ranges_free(&rs);
}
END_TEST

/* A loss burst at 50 Mbit/s x 80 ms: every other segment of 700 lost, 350 holes at once, all
 * still known; filling them in any order empties the set. */
START_TEST(test_hundreds_of_holes)
{
    struct tn_rangeset rs = {0};
    for (int64_t k = 0; k < 350; k++)
        tn_ranges_put(&rs, (struct tn_gap){.lo = 2 * k * 1448, .hi = (2 * k + 1) * 1448});
    ck_assert_uint_eq(rs.n, 350);
    for (int64_t k = 349; k >= 0; k -= 2)
        ck_assert_ptr_nonnull(tn_ranges_holding(&rs, 2 * k * 1448, (2 * k + 1) * 1448));
    for (int64_t k = 0; k < 350; k += 2)
        tn_ranges_cut(&rs, 2 * k * 1448, (2 * k + 1) * 1448);
    ck_assert_uint_eq(rs.n, 175);
    int64_t bytes;
    ck_assert_uint_eq(tn_ranges_prune_below(&rs, 400 * 1448, &bytes), 100);   /* ACK of the first 200 */
    ck_assert_int_eq(bytes, 100 * 1448);
    ck_assert_uint_eq(rs.n, 175 - 100);
    ck_assert_int_eq(tn_ranges_bytes_above(&rs, 0), 75 * 1448);
    tn_ranges_free(&rs);
}
END_TEST

START_TEST(test_bounded_forgets_lowest)
{
    struct tn_rangeset rs = {0};
    for (int64_t k = 0; k < TN_RANGES_MAX + 10; k++)
        tn_ranges_put(&rs, (struct tn_gap){.lo = 2 * k, .hi = 2 * k + 1});
    ck_assert_uint_eq(rs.n, TN_RANGES_MAX);
    ck_assert_int_eq(rs.v[0].lo, 20);
    ck_assert_int_eq(tn_ranges_highest(&rs), 2 * (TN_RANGES_MAX + 9) + 1);
    tn_ranges_free(&rs);
}
END_TEST

Suite *tn_ranges_suite(void)
{
    Suite *s = suite_create("ranges");
    TCase *tc = tcase_create("ranges");
    tcase_add_test(tc, test_cut_splits_and_trims);
    tcase_add_test(tc, test_merge_counts_new_bytes);
    tcase_add_test(tc, test_hundreds_of_holes);
    tcase_add_test(tc, test_bounded_forgets_lowest);
    suite_add_tcase(s, tc);
    return s;
}
