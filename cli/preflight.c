/* preflight.c - what the options name is checked before the first packet is read, so that a
 * run never ends, after all its work, on an output folder it cannot write or an input of the
 * wrong kind.  Each problem is told once. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis.h"
#include "ns2.h"
#include "pipeline.h"
#include "preflight.h"

__attribute__((format(printf, 1, 2))) static int fail(const char *fmt, ...)
{
    char msg[8400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    tn_cli_warn(msg);
    return TN_EXIT_INPUT;
}

/* Can a file be created in dir?  Tried for real: create and remove a probe file. */
static int probe_write(const char *what, const char *dir)
{
    char path[4200];
    int w = snprintf(path, sizeof path, "%s/.tcptrace-ng-probe.XXXXXX", dir);
    if (w < 0 || (size_t)w >= sizeof path)
        return fail("%s: cannot write there (%s: the path is too long)", what, dir);
    int fd = mkstemp(path);
    if (fd < 0)
        return fail("%s: cannot write there (%s: %s)", what, dir, strerror(errno));
    close(fd);
    unlink(path);
    return 0;
}

/* An output folder: created if missing (as the writers would), a folder, writable. */
static int check_dir(const char *opt, const char *dir)
{
    char what[4200];
    snprintf(what, sizeof what, "%s %s", opt, dir);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return fail("%s: cannot create the folder: %s", what, strerror(errno));
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return fail("%s: not a folder", what);
    return probe_write(what, dir);
}

/* An output file: its folder must take a new file (it is written as a temporary and renamed). */
static int check_file(const char *opt, const char *file)
{
    if (strcmp(file, "-") == 0)
        return 0;
    char what[4200], dir[4200];
    snprintf(what, sizeof what, "%s %s", opt, file);
    snprintf(dir, sizeof dir, "%s", file);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = 0;
    else
        *slash = 0;
    struct stat st;
    if (stat(file, &st) == 0 && S_ISDIR(st.st_mode))
        return fail("%s: is a folder, not a file", what);
    return probe_write(what, dir);
}

static int check_truth(const char *path)
{
    struct tn_truth *t;
    struct tn_err err;
    if (tn_truth_load(path, &t, &err) < 0) {
        tn_cli_warn(err.msg);
        return TN_EXIT_INPUT;
    }
    tn_truth_free(t);
    return 0;
}

int tn_cli_preflight(const struct tn_options *o)
{
    int st = 0, r;
#define KEEP(x) ((r = (x)) > st ? (st = r) : 0)
    if (o->csv_dir)
        KEEP(check_dir("--csv", o->csv_dir));
    if (o->plot_dir)
        KEEP(check_dir("--plot", o->plot_dir));
    if (o->xplot_dir)
        KEEP(check_dir("--xplot", o->xplot_dir));
    if (o->write_file)
        KEEP(check_file("-w", o->write_file));
    if (o->senders_json)
        KEEP(check_file("--json", o->senders_json));
    if (o->report_path)
        KEEP(check_file("--report", o->report_path));
    if (o->truth_file)
        KEEP(check_truth(o->truth_file));
    if (o->ns2_file && access(o->ns2_file, R_OK) == 0 && !tn_ns2_probe(o->ns2_file))
        KEEP(fail("--ns2 %s: not an ns-2 ASCII trace (a packet trace is read without --ns2)",
                  o->ns2_file));
#undef KEEP
    return st;
}
