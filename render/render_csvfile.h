/* render_csvfile.h - private: one CSV file being written (safeout.h: temp name, checked writes,
 * renamed when complete). */
#ifndef TN_RENDER_CSVFILE_H
#define TN_RENDER_CSVFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common.h"
#include "safeout.h"

struct tn_csvfile {
    struct tn_safeout out;
    int ncol;                  /* columns written in the current row */
    size_t rlen;               /* bytes of the current row in row[], written at its end */
    char row[1024];
};

/* Create dir if needed and open a temporary for dir/name; write the header row (columns
 * comma-separated). */
int tn_csvfile_open(struct tn_csvfile *f, const char *dir, const char *name, const char *header,
                    struct tn_err *err);
/* A text cell (NULL = empty).  One that begins with = + - @ or a tab or CR is written as "'..."
 * so that a spreadsheet takes it as text, not a formula (OWASP "CSV Injection"); numbers go
 * through the number functions and are never changed. */
void tn_csvfile_str(struct tn_csvfile *f, const char *s);
void tn_csvfile_u64(struct tn_csvfile *f, uint64_t v);
void tn_csvfile_i64(struct tn_csvfile *f, int64_t v);
void tn_csvfile_dbl(struct tn_csvfile *f, double v, int prec);
void tn_csvfile_time(struct tn_csvfile *f, struct tn_time t);  /* seconds.nanoseconds */
void tn_csvfile_ns(struct tn_csvfile *f, int64_t t_ns);       /* seconds.nanoseconds */
void tn_csvfile_end_row(struct tn_csvfile *f);
/* Flush, fsync, close and rename over the final name; on failure the temp file is removed and
 * err names the file and the reason. */
int tn_csvfile_close(struct tn_csvfile *f, struct tn_err *err);

#endif
