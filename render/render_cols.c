/* render_cols.c - CSV cells and JSON members from one column table (render_cols.h). */
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "render_cols.h"

/* A cell before its getter: the values zeroed, the text buffer empty.  Not the whole buffer: 240
 * bytes cleared per cell were a fifth of a --csv run (packets.csv has 1 row per packet). */
static inline void cell_blank(struct tn_cell *c)
{
    memset(c, 0, offsetof(struct tn_cell, buf));
    c->buf[0] = '\0';
}

void tn_cols_header(const struct tn_col *cols, size_t n, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = 0;
    for (size_t i = 0; i < n && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? "," : "", cols[i].name);
}

void tn_cols_csv_row(struct tn_csvfile *f, const struct tn_col *cols, size_t n, const void *row)
{
    for (size_t i = 0; i < n; i++) {
        struct tn_cell c;
        cell_blank(&c);
        cols[i].get(row, &c);
        if (!c.have || (cols[i].type == TN_COL_REAL && !isfinite(c.r))) {
            tn_csvfile_str(f, NULL);
            continue;
        }
        switch (cols[i].type) {
        case TN_COL_UINT: tn_csvfile_u64(f, c.u); break;
        case TN_COL_INT: tn_csvfile_i64(f, c.i); break;
        case TN_COL_REAL: tn_csvfile_dbl(f, c.r, c.own_prec ? c.prec : cols[i].prec); break;
        case TN_COL_TEXT: tn_csvfile_str(f, c.s); break;
        case TN_COL_TIME: tn_csvfile_ns(f, c.ns); break;
        }
    }
    tn_csvfile_end_row(f);
}

/* A JSON string (RFC 8259 §7): quotes, backslashes and control characters escaped. */
static void json_str(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

void tn_cols_json_row(FILE *out, const char *type, const struct tn_col *cols, size_t n, const void *row)
{
    fputs("{\"type\":", out);
    json_str(out, type);
    for (size_t i = 0; i < n; i++) {
        struct tn_cell c;
        cell_blank(&c);
        cols[i].get(row, &c);
        fputc(',', out);
        json_str(out, cols[i].name);
        fputc(':', out);
        if (!c.have || (cols[i].type == TN_COL_REAL && !isfinite(c.r))) {
            fputs("null", out);
            continue;
        }
        switch (cols[i].type) {
        case TN_COL_UINT: fprintf(out, "%" PRIu64, c.u); break;
        case TN_COL_INT: fprintf(out, "%" PRId64, c.i); break;
        case TN_COL_REAL: fprintf(out, "%.*f", c.own_prec ? c.prec : cols[i].prec, c.r); break;
        case TN_COL_TEXT: json_str(out, c.s); break;
        case TN_COL_TIME:
            fprintf(out, "%" PRId64 ".%09" PRId64, c.ns / 1000000000, c.ns % 1000000000);
            break;
        }
    }
    fputs("}\n", out);
}
