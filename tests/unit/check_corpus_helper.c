/* check_corpus_helper.c - the corpus folder for the unit tests, and skipping its test cases when
 * it is absent.  (Named check_* so the tests' source glob picks it up; it holds no suite.) */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "corpus_helper.h"

const char *tn_test_corpus_dir(void)
{
    const char *env = getenv("TN_CORPUS");
    return env && *env ? env : TN_CORPUS_DIR;
}

bool tn_test_corpus_present(void)
{
    char manifest[4096];
    snprintf(manifest, sizeof manifest, "%s/MANIFEST.tsv", tn_test_corpus_dir());
    return access(manifest, R_OK) == 0;
}

const char *tn_test_corpus_path(const char *rel)
{
    static char buf[8][4096];
    static unsigned k;
    char *p = buf[k++ % 8];
    snprintf(p, sizeof buf[0], "%s/%s", tn_test_corpus_dir(), rel);
    return p;
}

TCase *tn_test_corpus_tcase(Suite *s, const char *name)
{
    if (!tn_test_corpus_present()) {
        /* Check has no "skipped" result: the case is not made, and the reason is printed. */
        fprintf(stderr, "SKIP test case %s: no corpus at %s (set TN_CORPUS to its folder)\n", name,
                tn_test_corpus_dir());
        return NULL;
    }
    TCase *tc = tcase_create(name);
    suite_add_tcase(s, tc);
    return tc;
}
