/* tui_draw.c - drawing helpers for the views: clipped text, bars with eighth blocks, and line
 * plots in Unicode braille (2x4 dots per cell) or, without UTF-8, ASCII (1x2 per cell). */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_int.h"

void tn_draw_fill(int y, int x, int w, int attr)
{
    if (w <= 0)
        return;
    attrset(attr);
    mvhline(y, x, ' ', w);
    attrset(A_NORMAL);
}

void tn_draw_text(int y, int x, int w, int attr, const char *s)
{
    if (w <= 0)
        return;
    attrset(attr);
    size_t n = strlen(s);
    /* cut to w columns, at a code-point boundary */
    size_t cut = 0;
    int cols = 0;
    while (cut < n && cols < w) {
        size_t k = cut + 1;
        while (k < n && ((unsigned char)s[k] & 0xC0) == 0x80)
            k++;
        cut = k;
        cols++;
    }
    mvaddnstr(y, x, s, (int)cut);
    if (cols < w)
        hline(' ', w - cols);
    attrset(A_NORMAL);
}

/* ep in w columns: the port always whole, the address losing its start (its last digits tell
 * hosts apart); an IPv6 address keeps its brackets, "[…::1]:5201", so the port stays unambiguous
 * (RFC 5952 §6). */
static void cut_endpoint(char *out, size_t len, const char *ep, int w, const char *ell)
{
    int n = (int)strlen(ep);
    if (n <= w) {
        snprintf(out, len, "%s", ep);
        return;
    }
    const char *close = ep[0] == '[' ? strstr(ep, "]:") : NULL;
    const char *port = close ? close : strrchr(ep, ':');
    if (!port)
        port = ep + n;
    int head = close ? 1 : 0;                       /* "[" kept */
    int room = w - 1 - head - (int)strlen(port);    /* address digits that fit after the ellipsis */
    const char *addr_end = port, *addr = ep + head;
    if (room < 1) {                                 /* not even the port fits: its end, then */
        snprintf(out, len, "%s%s", ell, ep + n - (w - 1 > 0 ? w - 1 : 0));
        return;
    }
    const char *t = addr_end - room < addr ? addr : addr_end - room;
    t += (*t == '.' || *t == ':') && t + 1 < addr_end;
    snprintf(out, len, "%s%s%.*s%s", head ? "[" : "", ell, (int)(addr_end - t), t, port);
}

/* The address of an endpoint ("10.1.1.2:40001" -> "10.1.1.2", "[::1]:80" -> "[::1]") into out. */
static void addr_part(char *out, size_t len, const char *ep)
{
    const char *close = ep[0] == '[' ? strstr(ep, "]:") : NULL;
    const char *port = close ? close + 1 : strrchr(ep, ':');
    if (!port || (!close && ep[0] == '['))
        port = ep + strlen(ep);
    snprintf(out, len, "%.*s", (int)(port - ep), ep);
}

static void fmt_endpoints(char *out, size_t len, const char *a, const char *b, int w, bool retry);

void tn_fmt_endpoints(char *out, size_t len, const char *a, const char *b, int w)
{
    fmt_endpoints(out, len, a, b, w, true);
}

static void fmt_endpoints(char *out, size_t len, const char *a, const char *b, int w, bool retry)
{
    int la = (int)strlen(a), lb = (int)strlen(b);
    if (la + lb + 3 <= w) {
        snprintf(out, len, "%s > %s", a, b);
        return;
    }
    if (la + lb + 1 <= w) {
        snprintf(out, len, "%s>%s", a, b);
        return;
    }
    /* each side loses the start of its address: the port and last digits tell flows apart */
    int side = (w - 1) / 2;
    const char *ell = tn_crt_utf8() ? "\xe2\x80\xa6" : "~";
    char sa[80], sb[80];
    int wa = side, wb = w - 1 - side;
    if (la < wa) {   /* give the other side what this one does not need */
        wb += wa - la;
        wa = la;
    } else if (lb < wb) {
        wa += wb - lb;
        wb = lb;
    }
    cut_endpoint(sa, sizeof sa, a, wa, ell);
    cut_endpoint(sb, sizeof sb, b, wb, ell);
    /* two hosts whose shortened addresses read the same ("~1.2" for 10.1.1.2 and 10.9.1.2) are
     * told apart by nothing: a's port (the client's ephemeral one, RFC 6056) goes instead */
    char fa[80], fb[80], ca[80], cb[80];
    addr_part(fa, sizeof fa, a);
    addr_part(fb, sizeof fb, b);
    addr_part(ca, sizeof ca, sa);
    addr_part(cb, sizeof cb, sb);
    if (retry && strcmp(fa, fb) != 0 && strcmp(ca, cb) == 0 && strcmp(fa, a) != 0) {
        fmt_endpoints(out, len, fa, b, w, false);
        return;
    }
    snprintf(out, len, "%s>%s", sa, sb);
}

/* Append code point cp as UTF-8. */
static void put_cp(char *out, unsigned cp)
{
    out[0] = (char)(0xE0 | (cp >> 12));
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[2] = (char)(0x80 | (cp & 0x3F));
    out[3] = 0;
}

void tn_draw_bar(int y, int x, int w, double frac, int attr)
{
    if (w <= 0)
        return;
    if (frac < 0 || isnan(frac))
        frac = 0;
    if (frac > 1)
        frac = 1;
    int eighths = (int)lround(frac * w * 8);
    attrset(attr);
    move(y, x);
    for (int i = 0; i < w; i++) {
        int e = eighths - i * 8;
        if (e <= 0) {
            addch(tn_crt_utf8() ? ' ' : '.');
            continue;
        }
        if (!tn_crt_utf8()) {
            addch(e >= 4 ? '#' : ' ');
            continue;
        }
        char u[4];
        put_cp(u, e >= 8 ? 0x2588 : 0x2590 - (unsigned)e);   /* U+2589..258F: 7/8 .. 1/8 */
        addstr(u);
    }
    attrset(A_NORMAL);
}

/* ---- plots ---- */

struct canvas {
    int w, h, sx, sy;          /* cells; dots per cell */
    uint8_t *bits;             /* per cell */
    int8_t *owner;             /* line index that drew last in the cell, -1 none */
};

static void dot(struct canvas *c, int px, int py, int line)
{
    if (px < 0 || py < 0 || px >= c->w * c->sx || py >= c->h * c->sy)
        return;
    int cx = px / c->sx, cy = py / c->sy, bx = px % c->sx, by = py % c->sy;
    uint8_t bit;
    if (c->sx == 2) {   /* braille dot numbering */
        static const uint8_t map[4][2] = {{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}};
        bit = map[by][bx];
    } else {
        bit = (uint8_t)(1u << by);
    }
    c->bits[cy * c->w + cx] |= bit;
    c->owner[cy * c->w + cx] = (int8_t)line;
}

static void segment(struct canvas *c, int x0, int y0, int x1, int y1, int line)
{
    int dx = abs(x1 - x0), dy = -abs(y1 - y0), sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
    int e = dx + dy;
    for (int guard = 0; guard < 4096; guard++) {
        dot(c, x0, y0, line);
        if (x0 == x1 && y0 == y1)
            break;
        int e2 = 2 * e;
        if (e2 >= dy) {
            e += dy;
            x0 += sx;
        }
        if (e2 <= dx) {
            e += dx;
            y0 += sy;
        }
    }
}

/* A round number >= v for the top of an axis: 1, 2, 2.5, 5 x 10^k. */
static double nice_max(double v)
{
    if (v <= 0)
        return 1;
    double p = pow(10, floor(log10(v)));
    static const double steps[] = {1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10};
    for (size_t i = 0; i < TN_ARRAY_LEN(steps); i++)
        if (v <= steps[i] * p * 1.0000001)
            return steps[i] * p;
    return 10 * p;
}

static void fmt_axis(char *buf, size_t len, double v, const char *unit)
{
    if (strcmp(unit, "ms") == 0)
        tn_fmt_ms(buf, len, v);
    else
        tn_fmt_si(buf, len, v, unit);
}

/* Axis labels leave the unit to the title when it would not fit the label column. */
static void fmt_label(char *buf, size_t len, double v, const char *unit)
{
    fmt_axis(buf, len, v, strcmp(unit, "ms") && strlen(unit) > 1 ? "" : unit);
}

void tn_draw_plot(int y, int x, int h, int w, const char *title, const char *unit,
                  const struct tn_plot_line *lines, int nlines, int64_t t0_ns)
{
    enum { YLAB = 7 };
    if (h < 4 || w < YLAB + 8)
        return;
    int pw = w - YLAB - 1, ph = h - 2;
    /* ranges */
    int64_t tmin = INT64_MAX, tmax = INT64_MIN;
    double vmax = 0;
    size_t npts = 0;
    for (int l = 0; l < nlines; l++)
        for (size_t i = 0; i < lines[l].n; i++) {
            if (lines[l].v[i] < 0)
                continue;
            tmin = lines[l].t[i] < tmin ? lines[l].t[i] : tmin;
            tmax = lines[l].t[i] > tmax ? lines[l].t[i] : tmax;
            vmax = lines[l].v[i] > vmax ? lines[l].v[i] : vmax;
            npts++;
        }
    /* title, then each line's label and latest value in the line's colour */
    tn_draw_fill(y, x, w, A_NORMAL);
    attrset(A_BOLD);
    mvaddnstr(y, x, title, w);
    int cx = x + (int)strlen(title);
    for (int l = 0; l < nlines && cx < x + w; l++) {
        double last = -1;
        for (size_t i = lines[l].n; i-- > 0;)
            if (lines[l].v[i] >= 0) {
                last = lines[l].v[i];
                break;
            }
        char val[32], part[96];
        fmt_axis(val, sizeof val, last, unit);
        snprintf(part, sizeof part, "  %s%s%s", lines[l].label, *lines[l].label ? " " : "", val);
        attrset(lines[l].attr | A_BOLD);
        mvaddnstr(y, cx, part, x + w - cx);
        cx += (int)strlen(part);
    }
    attrset(A_NORMAL);
    double top = nice_max(vmax);
    char lab[32];
    fmt_label(lab, sizeof lab, top, unit);
    attrset(tn_crt_attr(TN_CR_DIM));
    mvprintw(y + 1, x, "%*.*s", YLAB, YLAB, lab);
    fmt_label(lab, sizeof lab, top / 2, unit);
    if (ph >= 5)
        mvprintw(y + 1 + (ph - 1) / 2, x, "%*.*s", YLAB, YLAB, lab);
    mvprintw(y + ph, x, "%*s", YLAB, "0");
    /* Box lines as characters, not the alternate character set: in UTF-8 terminals (tmux,
     * many emulators) ACS often shows up as the letters x, q, m. */
    bool uni = tn_crt_utf8();
    for (int r = 0; r < ph; r++)
        mvaddstr(y + 1 + r, x + YLAB, uni ? "\xe2\x94\x82" : "|");
    mvaddstr(y + 1 + ph, x + YLAB, uni ? "\xe2\x94\x94" : "+");
    for (int k = 0; k < pw; k++)
        addstr(uni ? "\xe2\x94\x80" : "-");
    attrset(A_NORMAL);
    if (npts == 0) {
        tn_draw_text(y + 1 + ph / 2, x + YLAB + 2, pw - 1, tn_crt_attr(TN_CR_DIM), "no samples yet");
        return;
    }
    /* x labels: seconds since the trace start at both ends */
    char l0[24], l1[24];
    snprintf(l0, sizeof l0, "%.1fs", (double)(tmin - t0_ns) / 1e9);
    snprintf(l1, sizeof l1, "%.1fs", (double)(tmax - t0_ns) / 1e9);
    attrset(tn_crt_attr(TN_CR_DIM));
    mvaddstr(y + 1 + ph, x + YLAB + 1, l0);
    if ((int)strlen(l1) + (int)strlen(l0) + 2 < pw)
        mvaddstr(y + 1 + ph, x + YLAB + 1 + pw - (int)strlen(l1), l1);
    attrset(A_NORMAL);

    struct canvas c = {pw, ph, tn_crt_utf8() ? 2 : 1, tn_crt_utf8() ? 4 : 2, NULL, NULL};
    c.bits = tn_xcalloc((size_t)(pw * ph), 1);
    c.owner = tn_xmalloc((size_t)(pw * ph));
    memset(c.owner, -1, (size_t)(pw * ph));
    int W = pw * c.sx - 1, H = ph * c.sy - 1;
    double span = tmax > tmin ? (double)(tmax - tmin) : 1;
    for (int l = 0; l < nlines; l++) {
        int px = -1, py = -1;
        for (size_t i = 0; i < lines[l].n; i++) {
            if (lines[l].v[i] < 0) {
                px = -1;
                continue;
            }
            int qx = (int)lround((double)(lines[l].t[i] - tmin) / span * W);
            int qy = H - (int)lround(lines[l].v[i] / top * H);
            if (px >= 0)
                segment(&c, px, py, qx, qy, l);
            else
                dot(&c, qx, qy, l);
            px = qx;
            py = qy;
        }
    }
    for (int r = 0; r < ph; r++)
        for (int k = 0; k < pw; k++) {
            uint8_t b = c.bits[r * pw + k];
            if (!b)
                continue;
            int own = c.owner[r * pw + k];
            attrset(own >= 0 ? lines[own].attr : (int)A_NORMAL);
            if (c.sx == 2) {
                char u[4];
                put_cp(u, 0x2800u + b);
                mvaddstr(y + 1 + r, x + YLAB + 1 + k, u);
            } else {
                mvaddch(y + 1 + r, x + YLAB + 1 + k, b == 3 ? ':' : b == 1 ? '\'' : '.');
            }
        }
    attrset(A_NORMAL);
    free(c.bits);
    free(c.owner);
}
