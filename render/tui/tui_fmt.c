/* tui_fmt.c - short number formats for narrow dashboard columns (no curses). */
#include <math.h>
#include <stdio.h>

#include "tui_int.h"

/* Three significant digits with an SI prefix: 0, 812, 4.19k, 41.9M, 419G. */
void tn_fmt_si(char *buf, size_t len, double v, const char *unit)
{
    static const char pfx[] = " kMGTP";
    if (v < 0 || isnan(v)) {
        snprintf(buf, len, "-");
        return;
    }
    int p = 0;
    while (v >= 999.5 && p < 5) {
        v /= 1000;
        p++;
    }
    if (p == 0)
        snprintf(buf, len, "%.0f%s", v, unit);
    else if (v < 9.995)
        snprintf(buf, len, "%.2f%c%s", v, pfx[p], unit);
    else if (v < 99.95)
        snprintf(buf, len, "%.1f%c%s", v, pfx[p], unit);
    else
        snprintf(buf, len, "%.0f%c%s", v, pfx[p], unit);
}

void tn_fmt_ms(char *buf, size_t len, double ms)
{
    if (ms < 0 || isnan(ms))
        snprintf(buf, len, "-");
    else if (ms < 1)
        snprintf(buf, len, "%.0fus", ms * 1000);
    else if (ms < 100)
        snprintf(buf, len, "%.1fms", ms);
    else if (ms < 1000)
        snprintf(buf, len, "%.0fms", ms);
    else
        snprintf(buf, len, "%.2fs", ms / 1000);
}

void tn_fmt_bytes(char *buf, size_t len, double b)
{
    tn_fmt_si(buf, len, b, "B");
}
