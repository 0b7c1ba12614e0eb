/* fuzz_util.h - what the file-based fuzz targets share: the input as a temporary file, a
 * scratch directory removed after each run. */
#ifndef TN_FUZZ_UTIL_H
#define TN_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* Write data[0..size) to a new file under dir (or /tmp when dir is NULL) whose name ends in
 * suffix; the path goes to out (at least 4096 bytes).  0, or -1. */
int tn_fuzz_write_file(const char *dir, const char *suffix, const uint8_t *data, size_t size,
                       char *out);

/* mkdtemp under /tmp; path to out (at least 4096 bytes).  0, or -1. */
int tn_fuzz_mkdtemp(char *out);

/* rm -rf path. */
void tn_fuzz_rmtree(const char *path);

/* Standard output (the reports) and, unless TN_FUZZ_VERBOSE is set, standard error (the
 * program's warnings) go to /dev/null until tn_fuzz_quiet_end, out of the way of libFuzzer's
 * log (a finding's sanitizer report is on stderr: replay it with TN_FUZZ_VERBOSE=1). */
struct tn_fuzz_quiet {
    int out, err;   /* the saved descriptors, -1: none */
};
void tn_fuzz_quiet_begin(struct tn_fuzz_quiet *q);
void tn_fuzz_quiet_end(struct tn_fuzz_quiet *q);

#endif
