/* check_main.c - one runner for every suite; CK_RUN_SUITE picks one (CTest runs them apart). */
#include <check.h>
#include <stdlib.h>

#define SUITE(stem, name) Suite *tn_##stem##_suite(void);
#include "suites.def"
#undef SUITE

int main(void)
{
    SRunner *sr = srunner_create(NULL);
#define SUITE(stem, name) srunner_add_suite(sr, tn_##stem##_suite());
#include "suites.def"
#undef SUITE
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
