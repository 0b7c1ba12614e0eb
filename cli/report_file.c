/* report_file.c - --report FILE: the text report (what the run writes on standard output) goes
 * to FILE, written as every output file is (common/safeout.h: a temporary renamed over the name
 * at the end, every write checked), so that a report is never left half-written.  Under mpirun
 * only rank 0 writes it, and none of it passes through the launcher, whose forwarding of rank
 * 0's standard output cost more CPU than rank 0's own run (docs/cluster.md). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pipeline.h"
#include "report_file.h"
#include "safeout.h"

static struct tn_safeout report;
static int saved_stdout = -1;

int tn_report_file_open(const char *path)
{
    struct tn_err err;
    if (!path)
        return 0;
    if (tn_safeout_open(&report, path, &err) != 0) {
        tn_cli_warn(err.msg);
        return TN_EXIT_INPUT;
    }
    fflush(stdout);
    saved_stdout = dup(STDOUT_FILENO);
    if (saved_stdout < 0 || dup2(report.fd, STDOUT_FILENO) < 0) {
        tn_cli_warn("--report: cannot send the report to the file");
        tn_safeout_abort(&report);
        return TN_EXIT_INPUT;
    }
    return 0;
}

int tn_report_file_close(int status)
{
    if (saved_stdout < 0)
        return status;
    /* what stdio still holds goes to the file, and a write that failed shows in the stream
     * (stdio keeps no errno: the flush's, else the device's, is the reason told) */
    errno = 0;
    bool bad = fflush(stdout) != 0 || ferror(stdout);
    int why = errno ? errno : EIO;
    dup2(saved_stdout, STDOUT_FILENO);
    close(saved_stdout);
    saved_stdout = -1;
    clearerr(stdout);
    struct tn_err err;
    if (bad) {
        char msg[4300];
        snprintf(msg, sizeof msg, "%s: cannot write: %s; the file was not written", report.path, strerror(why));
        tn_cli_warn(msg);
        tn_safeout_abort(&report);
        return status ? status : TN_EXIT_INPUT;
    }
    if (tn_safeout_commit(&report, &err) != 0) {
        tn_cli_warn(err.msg);
        return status ? status : TN_EXIT_INPUT;
    }
    return status;
}
