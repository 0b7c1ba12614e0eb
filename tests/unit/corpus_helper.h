/* corpus_helper.h - where the third-party capture corpus is, and leaving its tests out when it is
 * not there (a fresh clone has no ../shared/corpus; its own tests must still pass). */
#ifndef TN_TEST_CORPUS_HELPER_H
#define TN_TEST_CORPUS_HELPER_H

#include <check.h>
#include <stdbool.h>

/* $TN_CORPUS when set, else the folder CMake was configured with (TN_CORPUS_DIR). */
const char *tn_test_corpus_dir(void);

/* True when the corpus folder holds its MANIFEST.tsv. */
bool tn_test_corpus_present(void);

/* The corpus file rel as a full path, in one of 8 rotating static buffers. */
const char *tn_test_corpus_path(const char *rel);

/* A new test case named name, added to s, for tests that read corpus files; NULL (and a line on
 * stderr saying that its tests are skipped and why) when the corpus is absent. */
TCase *tn_test_corpus_tcase(Suite *s, const char *name);

#endif
