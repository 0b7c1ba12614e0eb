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
    int r = tn_safeout_open(&f->out, path, err);
    if (r == 0)   /* one writer: the stream's lock once, not per cell (the *_unlocked calls) */
        flockfile(f->out.fp);
    return r;
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

/* A row is gathered in f->row and written with one call at its end (packets.csv has a row per
 * packet, and a call into stdio per cell was a fifth of --csv's time on 8 bulk flows); what
 * does not fit, and what stdio formats itself, goes after what the buffer holds. */
static void flush_row(struct tn_csvfile *f)
{
    if (f->rlen)
        fwrite_unlocked(f->row, 1, f->rlen, f->out.fp);
    f->rlen = 0;
}

static void put(struct tn_csvfile *f, const char *b, size_t n)
{
    if (f->rlen + n > sizeof f->row) {
        flush_row(f);
        if (n > sizeof f->row) {
            fwrite_unlocked(b, 1, n, f->out.fp);
            return;
        }
    }
    memcpy(f->row + f->rlen, b, n);
    f->rlen += n;
}

static void sep(struct tn_csvfile *f)
{
    if (f->ncol++)
        put(f, ",", 1);
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
        flush_row(f);
        csv_fwrite(f->out.fp, q, n + 1);
        free(q);
    } else if (strpbrk(s, ",\"\r\n")) {
        flush_row(f);
        csv_fwrite(f->out.fp, s, strlen(s));   /* quotes and doubles embedded quotes */
    } else {
        put(f, s, strlen(s));
    }
}

/* v in decimal, as "%" PRIu64 writes it (without printf's format parsing: most cells are
 * integers, and packets.csv has a row per packet). */
static void put_u64(struct tn_csvfile *f, uint64_t v)
{
    char b[20];
    size_t i = sizeof b;
    do {
        b[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    put(f, b + i, sizeof b - i);
}

/* seconds "." nanoseconds (9 digits), as "%" PRId64 ".%09" PRId64 writes a time >= 0 */
static void put_sec_ns(struct tn_csvfile *f, uint64_t sec, uint32_t ns)
{
    put_u64(f, sec);
    char b[10];
    b[0] = '.';
    for (int i = 9; i >= 1; i--, ns /= 10)
        b[i] = (char)('0' + ns % 10);
    put(f, b, sizeof b);
}

void tn_csvfile_u64(struct tn_csvfile *f, uint64_t v)
{
    sep(f);
    put_u64(f, v);
}

void tn_csvfile_i64(struct tn_csvfile *f, int64_t v)
{
    sep(f);
    if (v < 0)
        put(f, "-", 1);
    put_u64(f, v < 0 ? -(uint64_t)v : (uint64_t)v);
}

void tn_csvfile_dbl(struct tn_csvfile *f, double v, int prec)
{
    sep(f);
    char b[40];
    size_t n = tn_fmt_fixed(b, sizeof b, v, prec);
    if (n < sizeof b) {
        put(f, b, n);
    } else {
        flush_row(f);
        fprintf(f->out.fp, "%.*f", prec, v);
    }
}

void tn_csvfile_time(struct tn_csvfile *f, struct tn_time t)
{
    sep(f);
    if (t.sec >= 0 && t.nsec < 1000000000) {
        put_sec_ns(f, (uint64_t)t.sec, t.nsec);
    } else {
        flush_row(f);
        fprintf(f->out.fp, "%" PRId64 ".%09" PRIu32, t.sec, t.nsec);
    }
}

void tn_csvfile_ns(struct tn_csvfile *f, int64_t t_ns)
{
    sep(f);
    if (t_ns >= 0) {
        put_sec_ns(f, (uint64_t)(t_ns / 1000000000), (uint32_t)(t_ns % 1000000000));
    } else {
        flush_row(f);
        fprintf(f->out.fp, "%" PRId64 ".%09" PRId64, t_ns / 1000000000, t_ns % 1000000000);
    }
}

void tn_csvfile_end_row(struct tn_csvfile *f)
{
    put(f, "\r\n", 2);
    flush_row(f);
    f->ncol = 0;
}

int tn_csvfile_close(struct tn_csvfile *f, struct tn_err *err)
{
    if (!f->out.active)
        return 0;
    flush_row(f);   /* a row left unended (none is, but nothing written is lost) */
    funlockfile(f->out.fp);
    return tn_safeout_commit(&f->out, err);
}
