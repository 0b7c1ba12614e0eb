/* fuzz_util.c - temporary files and directories for the fuzz targets (fuzz_util.h). */
#include "fuzz_util.h"

#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int tn_fuzz_write_file(const char *dir, const char *suffix, const uint8_t *data, size_t size,
                       char *out)
{
    snprintf(out, 4096, "%s/tn_fuzz_XXXXXX%s", dir ? dir : "/tmp", suffix);
    int fd = mkstemps(out, (int)strlen(suffix));
    if (fd < 0)
        return -1;
    size_t done = 0;
    while (done < size) {
        ssize_t w = write(fd, data + done, size - done);
        if (w <= 0) {
            close(fd);
            unlink(out);
            return -1;
        }
        done += (size_t)w;
    }
    close(fd);
    return 0;
}

int tn_fuzz_mkdtemp(char *out)
{
    snprintf(out, 4096, "/tmp/tn_fuzz_dir_XXXXXX");
    return mkdtemp(out) ? 0 : -1;
}

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    remove(p);
    return 0;
}

void tn_fuzz_rmtree(const char *path)
{
    nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

void tn_fuzz_quiet_begin(struct tn_fuzz_quiet *q)
{
    static int quiet = -1;
    if (quiet < 0)
        quiet = !getenv("TN_FUZZ_VERBOSE");
    fflush(stdout);
    fflush(stderr);
    q->out = dup(1);
    q->err = quiet ? dup(2) : -1;
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
        dup2(null, 1);
        if (quiet)
            dup2(null, 2);
        close(null);
    }
}

void tn_fuzz_quiet_end(struct tn_fuzz_quiet *q)
{
    fflush(stdout);
    fflush(stderr);
    if (q->out >= 0) {
        dup2(q->out, 1);
        close(q->out);
    }
    if (q->err >= 0) {
        dup2(q->err, 2);
        close(q->err);
    }
}
