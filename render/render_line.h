/* render_line.h - a line of a text report put together piece by piece and written at once:
 * what fprintf's "%s", "%-*s", "%" PRIu64 and "%.*f" write, byte for byte, without parsing a
 * format per line (a short-connection report is tens of lines per connection, millions of
 * lines in all: fprintf's parsing was most of the long report's time). */
#ifndef TN_RENDER_LINE_H
#define TN_RENDER_LINE_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* room for a whole connection of the long report: one fwrite per connection, not per row */
#define TN_LINE_BUF 8192

struct tn_line {
    FILE *out;
    size_t n;                  /* bytes in buf not yet written */
    char buf[TN_LINE_BUF];
};

static inline void tn_line_begin(struct tn_line *l, FILE *out)
{
    l->out = out;
    l->n = 0;
}

/* writes what is held (the caller ends its line with '\n' itself) */
void tn_line_end(struct tn_line *l);

/* len bytes (at most TN_LINE_BUF) to be filled by the caller, after what is held */
static inline char *tn_line_room(struct tn_line *l, size_t len)
{
    if (len > sizeof l->buf - l->n)
        tn_line_end(l);
    char *p = l->buf + l->n;
    l->n += len;
    return p;
}

void tn_line_mem_slow(struct tn_line *l, const char *s, size_t len);

/* text of len bytes ("%s"); a piece longer than the room left goes out first. Inline: the
 * pieces are mostly literals, whose strlen and memcpy the compiler then does itself. */
static inline void tn_line_mem(struct tn_line *l, const char *s, size_t len)
{
    if (len <= sizeof l->buf - l->n) {
        memcpy(l->buf + l->n, s, len);
        l->n += len;
    } else {
        tn_line_mem_slow(l, s, len);
    }
}

static inline void tn_line_str(struct tn_line *l, const char *s)
{
    tn_line_mem(l, s, strlen(s));
}

static inline void tn_line_char(struct tn_line *l, char ch)
{
    *tn_line_room(l, 1) = ch;
}

/* v's decimal digits written backwards, ending just before end; returns the first digit */
static inline char *tn_u64_back(char *end, uint64_t v)
{
    do {
        *--end = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return end;
}
void tn_line_pad_slow(struct tn_line *l, const char *s, size_t len, size_t width, int left);

/* s padded with spaces to width: on the right ("%-*s") when left, else on the left ("%*s");
 * the field blanked at once, then s put in its place */
static inline void tn_line_pad(struct tn_line *l, const char *s, size_t width, int left)
{
    size_t len = strlen(s);
    if (len >= width || width > TN_LINE_BUF) {
        tn_line_pad_slow(l, s, len, width, left);
        return;
    }
    char *p = tn_line_room(l, width);
    memset(p, ' ', width);
    memcpy(left ? p : p + width - len, s, len);
}

/* "%" PRIu64: the digits made in t, then a fixed 20 bytes copied (a constant-size memcpy the
 * compiler inlines; what lies past the digits is left beyond l->n) */
static inline void tn_line_u64(struct tn_line *l, uint64_t v)
{
    char t[40], *end = t + 20;
    char *p = tn_u64_back(end, v);
    memcpy(tn_line_room(l, 20), p, 20);
    l->n -= 20 - (size_t)(end - p);
}
void tn_line_fixed(struct tn_line *l, double v, int prec);    /* "%.*f" (tn_fmt_fixed) */

#endif
