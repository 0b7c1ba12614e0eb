/* render_csvfile.c - CSV cells through libcsv (RFC 4180 quoting), written atomically through
 * safeout.h. */
#include <csv.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "render_csvfile.h"

static int open_in(struct tn_csvfile *f, const char *dir, const char *name, struct tn_err *err)
{
    memset(f, 0, sizeof *f);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return tn_err_set(err, TN_EIO, "%s: cannot create directory: %s", dir, strerror(errno));
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
        return tn_err_set(err, TN_EIO, "%s/%s: name too long", dir, name);
    return tn_safeout_open(&f->out, path, err);
}

int tn_csvfile_open(struct tn_csvfile *f, const char *dir, const char *name, const char *header,
                    struct tn_err *err)
{
    int r = open_in(f, dir, name, err);
    if (r)
        return r;
    fputs(header, f->out.fp);
    fputs("\r\n", f->out.fp);
    return 0;
}

int tn_csvfile_open_append(struct tn_csvfile *f, const char *dir, const char *name,
                           const char *header, struct tn_err *err)
{
    int r = open_in(f, dir, name, err);
    if (r)
        return r;
    FILE *old = fopen(f->out.path, "rb");
    if (!old) {
        if (errno != ENOENT) {
            int e = errno;
            tn_safeout_abort(&f->out);
            return tn_err_set(err, TN_EIO, "%s: cannot read: %s", f->out.path, strerror(e));
        }
        fputs(header, f->out.fp);
        fputs("\r\n", f->out.fp);
        f->new_append = true;
        return 0;
    }
    char buf[1 << 15];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, old)) > 0)
        fwrite(buf, 1, n, f->out.fp);
    bool bad = ferror(old) != 0;
    fclose(old);
    if (bad) {
        tn_safeout_abort(&f->out);
        return tn_err_set(err, TN_EIO, "%s: read error", f->out.path);
    }
    return 0;
}

static void sep(struct tn_csvfile *f)
{
    if (f->ncol++)
        fputc(',', f->out.fp);
}

void tn_csvfile_str(struct tn_csvfile *f, const char *s)
{
    sep(f);
    if (!s || !*s)
        return;
    if (strchr("=+-@\t\r", s[0])) {
        size_t n = strlen(s);
        char *q = tn_xmalloc(n + 2);
        q[0] = '\'';
        memcpy(q + 1, s, n + 1);
        csv_fwrite(f->out.fp, q, n + 1);
        free(q);
    } else if (strpbrk(s, ",\"\r\n")) {
        csv_fwrite(f->out.fp, s, strlen(s));   /* quotes and doubles embedded quotes */
    } else {
        fputs(s, f->out.fp);
    }
}

void tn_csvfile_u64(struct tn_csvfile *f, uint64_t v)
{
    sep(f);
    fprintf(f->out.fp, "%" PRIu64, v);
}

void tn_csvfile_dbl(struct tn_csvfile *f, double v, int prec)
{
    sep(f);
    fprintf(f->out.fp, "%.*f", prec, v);
}

void tn_csvfile_time(struct tn_csvfile *f, struct tn_time t)
{
    sep(f);
    fprintf(f->out.fp, "%" PRId64 ".%09" PRIu32, t.sec, t.nsec);
}

void tn_csvfile_ns(struct tn_csvfile *f, int64_t t_ns)
{
    sep(f);
    fprintf(f->out.fp, "%" PRId64 ".%09" PRId64, t_ns / 1000000000, t_ns % 1000000000);
}

void tn_csvfile_end_row(struct tn_csvfile *f)
{
    fputs("\r\n", f->out.fp);
    f->ncol = 0;
    f->rows++;
}

int tn_csvfile_close(struct tn_csvfile *f, struct tn_err *err)
{
    if (!f->out.active)
        return 0;
    if (f->new_append && f->rows == 0) {
        tn_safeout_abort(&f->out);
        return 0;
    }
    return tn_safeout_commit(&f->out, err);
}
