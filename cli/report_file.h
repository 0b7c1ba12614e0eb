/* report_file.h - --report FILE: the text report into a file instead of standard output. */
#ifndef TN_REPORT_FILE_H
#define TN_REPORT_FILE_H

#include "common.h"

/* Send standard output to a temporary beside path (nothing when path is NULL).  0, or an exit
 * status with the reason told. */
int tn_report_file_open(const char *path);

/* Put standard output back and rename the report over its name; returns status, or an exit
 * status where the report could not be written (the reason told). */
int tn_report_file_close(int status);

#endif
