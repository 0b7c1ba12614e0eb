/* pipeline_helper.h - run capture -> dissect -> analysis in-process on a trace file (tests). */
#ifndef TN_TEST_PIPELINE_HELPER_H
#define TN_TEST_PIPELINE_HELPER_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis.h"

/* Read every frame of path into a new analyzer built with cfg (NULL: defaults) and finish it.
 * Returns NULL when the file cannot be opened; the caller frees with tn_analyzer_free. */
struct tn_analyzer *tn_test_load(const char *path, const struct tn_analysis_cfg *cfg);

/* The same, leaving out the frames (by 1-based number) for which missed(num, arg) is true: a
 * capture that lost them, as kernel drops do. */
struct tn_analyzer *tn_test_load_missing(const char *path, const struct tn_analysis_cfg *cfg,
                                         bool (*missed)(uint64_t num, void *arg), void *arg);

#endif
