/* render_line.c - a report line put together without printf (render_line.h). */
#include <string.h>

#include "common.h"
#include "render_line.h"

void tn_line_end(struct tn_line *l)
{
    if (l->n)
        fwrite(l->buf, 1, l->n, l->out);
    l->n = 0;
}

void tn_line_mem_slow(struct tn_line *l, const char *s, size_t len)
{
    tn_line_end(l);
    if (len > sizeof l->buf) {   /* longer than the buffer: straight out */
        fwrite(s, 1, len, l->out);
        return;
    }
    memcpy(l->buf, s, len);
    l->n = len;
}

static void spaces(struct tn_line *l, size_t k)
{
    while (k) {
        size_t m = k < TN_LINE_BUF ? k : TN_LINE_BUF;
        memset(tn_line_room(l, m), ' ', m);
        k -= m;
    }
}

void tn_line_pad_slow(struct tn_line *l, const char *s, size_t len, size_t width, int left)
{
    size_t pad = len < width ? width - len : 0;
    if (!left)
        spaces(l, pad);
    tn_line_mem(l, s, len);
    if (left)
        spaces(l, pad);
}

void tn_line_fixed(struct tn_line *l, double v, int prec)
{
    char x[TN_FIXED_LEN];
    size_t k = tn_fmt_fixed(x, sizeof x, v, prec);
    tn_line_mem(l, x, k < sizeof x ? k : sizeof x - 1);
}
