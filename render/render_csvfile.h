/* render_csvfile.h - private: one CSV file being written (temp name, renamed when complete). */
#ifndef TN_RENDER_CSVFILE_H
#define TN_RENDER_CSVFILE_H

#include <stdint.h>
#include <stdio.h>

#include "common.h"

struct tn_csvfile {
    FILE *fp;
    char path[4096], tmp[4096];
    int ncol;                  /* columns written in the current row */
};

/* Create dir if needed and open dir/name.tmp; write the header row (columns comma-separated). */
int tn_csvfile_open(struct tn_csvfile *f, const char *dir, const char *name, const char *header,
                    struct tn_err *err);
void tn_csvfile_str(struct tn_csvfile *f, const char *s);   /* NULL = empty cell */
void tn_csvfile_u64(struct tn_csvfile *f, uint64_t v);
void tn_csvfile_dbl(struct tn_csvfile *f, double v, int prec);
void tn_csvfile_time(struct tn_csvfile *f, struct tn_time t);  /* seconds.nanoseconds */
void tn_csvfile_ns(struct tn_csvfile *f, int64_t t_ns);       /* seconds.nanoseconds */
void tn_csvfile_end_row(struct tn_csvfile *f);
/* Flush, close and rename over the final name; on failure the temp file is removed. */
int tn_csvfile_close(struct tn_csvfile *f, struct tn_err *err);

#endif
