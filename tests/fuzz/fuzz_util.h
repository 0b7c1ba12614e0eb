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

#endif
