/* render_line.c - a report line put together without printf (render_line.h). */
#include <string.h>

#include "common.h"
#include "render_line.h"

static void drain(struct tn_line *l)
{
    if (l->n)
        fwrite(l->buf, 1, l->n, l->out);
    l->n = 0;
}

void tn_line_mem(struct tn_line *l, const char *s, size_t len)
{
    if (len > sizeof l->buf - l->n) {
        drain(l);
        if (len > sizeof l->buf) {   /* longer than a line: straight out */
            fwrite(s, 1, len, l->out);
            return;
        }
    }
    memcpy(l->buf + l->n, s, len);
    l->n += len;
}

void tn_line_str(struct tn_line *l, const char *s)
{
    tn_line_mem(l, s, strlen(s));
}

void tn_line_char(struct tn_line *l, char ch)
{
    if (l->n == sizeof l->buf)
        drain(l);
    l->buf[l->n++] = ch;
}

static void spaces(struct tn_line *l, size_t k)
{
    static const char sp[] = "                                                                ";
    while (k) {
        size_t m = k < sizeof sp - 1 ? k : sizeof sp - 1;
        tn_line_mem(l, sp, m);
        k -= m;
    }
}

void tn_line_pad(struct tn_line *l, const char *s, size_t width, int left)
{
    size_t len = strlen(s), pad = len < width ? width - len : 0;
    if (!left)
        spaces(l, pad);
    tn_line_mem(l, s, len);
    if (left)
        spaces(l, pad);
}

void tn_line_u64(struct tn_line *l, uint64_t v)
{
    char s[TN_U64_LEN];
    tn_line_mem(l, s, tn_fmt_u64(s, v));
}

void tn_line_fixed(struct tn_line *l, double v, int prec)
{
    char x[TN_FIXED_LEN];
    size_t k = tn_fmt_fixed(x, sizeof x, v, prec);
    tn_line_mem(l, x, k < sizeof x ? k : sizeof x - 1);
}

void tn_line_end(struct tn_line *l)
{
    drain(l);
}
