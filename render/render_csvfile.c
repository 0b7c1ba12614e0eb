/* render_csvfile.c - CSV cells through libcsv (RFC 4180 quoting), written atomically. */
#include <csv.h>
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>

#include "render_csvfile.h"

int tn_csvfile_open(struct tn_csvfile *f, const char *dir, const char *name, const char *header,
                    struct tn_err *err)
{
    memset(f, 0, sizeof *f);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return tn_err_set(err, TN_EIO, "%s: cannot create directory: %s", dir, strerror(errno));
    snprintf(f->path, sizeof f->path, "%s/%s", dir, name);
    snprintf(f->tmp, sizeof f->tmp, "%s/.%s.tmp", dir, name);
    f->fp = fopen(f->tmp, "w");
    if (!f->fp)
        return tn_err_set(err, TN_EIO, "%s: cannot write: %s", f->tmp, strerror(errno));
    fputs(header, f->fp);
    fputs("\r\n", f->fp);
    return 0;
}

static void sep(struct tn_csvfile *f)
{
    if (f->ncol++)
        fputc(',', f->fp);
}

void tn_csvfile_str(struct tn_csvfile *f, const char *s)
{
    sep(f);
    if (!s || !*s)
        return;
    if (strpbrk(s, ",\"\r\n"))
        csv_fwrite(f->fp, s, strlen(s));   /* quotes and doubles embedded quotes */
    else
        fputs(s, f->fp);
}

void tn_csvfile_u64(struct tn_csvfile *f, uint64_t v)
{
    sep(f);
    fprintf(f->fp, "%" PRIu64, v);
}

void tn_csvfile_dbl(struct tn_csvfile *f, double v, int prec)
{
    sep(f);
    fprintf(f->fp, "%.*f", prec, v);
}

void tn_csvfile_time(struct tn_csvfile *f, struct tn_time t)
{
    sep(f);
    fprintf(f->fp, "%" PRId64 ".%09" PRIu32, t.sec, t.nsec);
}

void tn_csvfile_ns(struct tn_csvfile *f, int64_t t_ns)
{
    sep(f);
    fprintf(f->fp, "%" PRId64 ".%09" PRId64, t_ns / 1000000000, t_ns % 1000000000);
}

void tn_csvfile_end_row(struct tn_csvfile *f)
{
    fputs("\r\n", f->fp);
    f->ncol = 0;
}

int tn_csvfile_close(struct tn_csvfile *f, struct tn_err *err)
{
    if (!f->fp)
        return 0;
    bool bad = ferror(f->fp) != 0;
    bad |= fclose(f->fp) != 0;
    f->fp = NULL;
    if (bad) {
        remove(f->tmp);
        return tn_err_set(err, TN_EIO, "%s: write failed", f->path);
    }
    if (rename(f->tmp, f->path) != 0) {
        int e = errno;
        remove(f->tmp);
        return tn_err_set(err, TN_EIO, "%s: cannot rename from %s: %s", f->path, f->tmp, strerror(e));
    }
    return 0;
}
