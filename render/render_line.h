/* render_line.h - a line of a text report put together piece by piece and written at once:
 * what fprintf's "%s", "%-*s", "%" PRIu64 and "%.*f" write, byte for byte, without parsing a
 * format per line (a short-connection report is tens of lines per connection, millions of
 * lines in all: fprintf's parsing was most of the long report's time). */
#ifndef TN_RENDER_LINE_H
#define TN_RENDER_LINE_H

#include <stdint.h>
#include <stdio.h>

#define TN_LINE_BUF 512

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

/* text of len bytes ("%s"); a piece longer than the room left goes out first */
void tn_line_mem(struct tn_line *l, const char *s, size_t len);
void tn_line_str(struct tn_line *l, const char *s);
void tn_line_char(struct tn_line *l, char ch);
/* s padded with spaces to width: on the right ("%-*s") when left, else on the left ("%*s") */
void tn_line_pad(struct tn_line *l, const char *s, size_t width, int left);
void tn_line_u64(struct tn_line *l, uint64_t v);              /* "%" PRIu64 */
void tn_line_fixed(struct tn_line *l, double v, int prec);    /* "%.*f" (tn_fmt_fixed) */
/* writes what is held (the caller ends its line with '\n' itself) */
void tn_line_end(struct tn_line *l);

#endif
