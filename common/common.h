/* common.h - error buffer, checked allocation and time stamps shared by every layer. */
#ifndef TN_COMMON_H
#define TN_COMMON_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>   /* tn_unpack_get */

/* Error codes returned (negated) by operational functions. */
enum {
    TN_EOK = 0,
    TN_EIO = 1,       /* a file or device could not be opened, read or written */
    TN_EFORMAT = 2,   /* the input is not a trace we can read */
    TN_ETRUNC = 3,    /* the input ends in the middle of a record */
    TN_EUSAGE = 4,    /* a bad option or argument */
    TN_ENOMEM = 5,
};

/* libpcap's error buffer with libtrace's numeric code. */
struct tn_err {
    int code;
    char msg[512];
};

/* Fill *e (when not NULL) and return -code, so callers can `return tn_err_set(...)`. */
int tn_err_set(struct tn_err *e, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Time stamp of a capture: seconds since the epoch plus nanoseconds. */
struct tn_time {
    int64_t sec;
    uint32_t nsec;
};

static inline double tn_time_to_double(struct tn_time t)
{
    return (double)t.sec + (double)t.nsec * 1e-9;
}

/* a - b in seconds */
static inline double tn_time_diff(struct tn_time a, struct tn_time b)
{
    return (double)(a.sec - b.sec) + ((double)a.nsec - (double)b.nsec) * 1e-9;
}

/* The seconds a capture's time stamp may have: 0 .. 2^32-1 (1970-2106), the range of pcap's
 * unsigned 32-bit seconds (pcap-savefile(5)).  The capture layer holds every frame's time stamp
 * to it (pcapng resolutions and offsets allow +-2^64 s): nanoseconds then stay below 2^62, so
 * sums and differences of times in the analysis cannot overflow. */
#define TN_TIME_SEC_MAX INT64_C(4294967295)

/* Nanoseconds since the epoch (+-292 years); a corrupt time stamp saturates instead of
 * overflowing. */
static inline int64_t tn_time_ns(struct tn_time t)
{
    const int64_t lim = INT64_MAX / 1000000000 - 1;
    int64_t sec = t.sec > lim ? lim : t.sec < -lim ? -lim : t.sec;
    return sec * 1000000000 + (int64_t)t.nsec;
}

static inline int tn_time_cmp(struct tn_time a, struct tn_time b)
{
    if (a.sec != b.sec)
        return a.sec < b.sec ? -1 : 1;
    if (a.nsec != b.nsec)
        return a.nsec < b.nsec ? -1 : 1;
    return 0;
}

/* Called when memory runs out; the TUI installs a hook that restores the terminal first. */
void tn_set_fatal_hook(void (*hook)(void));
_Noreturn void tn_fatal(const char *what);

/* TN_BUG_ON(cond): cond breaks an invariant of the program itself (never of its input: bad input
 * is an anomaly or an error).  Active in debug and fuzz builds: it names the condition, file and
 * line through tn_fatal, which aborts.  With NDEBUG (release builds) the condition is not even
 * evaluated (Suricata's DEBUG_VALIDATE_BUG_ON, design.md section 4). */
#ifdef NDEBUG
#define TN_BUG_ON(cond) ((void)sizeof(cond))
#else
#define TN_BUG_ON(cond) ((cond) ? tn_bug(#cond, __FILE__, __LINE__) : (void)0)
#endif
_Noreturn void tn_bug(const char *cond, const char *file, int line);

void *tn_xmalloc(size_t n) __attribute__((malloc, warn_unused_result));
void *tn_xcalloc(size_t n, size_t size) __attribute__((malloc, warn_unused_result));
void *tn_xrealloc(void *p, size_t n) __attribute__((warn_unused_result));
char *tn_xstrdup(const char *s) __attribute__((malloc, warn_unused_result));

/* v as snprintf(buf, len, "%.*f", prec, v) writes it, byte for byte, and the same return: the
 * length of the whole text (a text of len or more was cut) (common_fmt.c). Unlike snprintf it
 * may change bytes after the NUL, within len. */
size_t tn_fmt_fixed(char *buf, size_t len, double v, int prec);

/* v in decimal as "%" PRIu64 prints it, with its NUL, into buf (TN_U64_LEN bytes); returns the
 * length (common_fmt.c) */
#define TN_U64_LEN 21
size_t tn_fmt_u64(char *buf, uint64_t v);

/* v as "%.*f" prints it, into buf for a "%s" (prec <= 9: the longest is a sign, 309 digits, the
 * point and 9 decimals). */
#define TN_FIXED_LEN 328
static inline const char *tn_fixed(char buf[TN_FIXED_LEN], double v, int prec)
{
    tn_fmt_fixed(buf, TN_FIXED_LEN, v, prec);
    return buf;
}

/* Memory handed out in order and given back at once (common_arena.c); zero-initialised {0}. */
struct tn_arena_chunk;
struct tn_arena {
    struct tn_arena_chunk *head;
    size_t total;              /* handed out since the last reset */
    size_t want;               /* the most handed out between two resets: the next chunk's size */
};
/* n bytes aligned for any type (zeroed when zero), valid until the next reset. */
void *tn_arena_alloc(struct tn_arena *a, size_t n, bool zero);
/* Everything handed out is given back (one chunk is kept for the next round). */
void tn_arena_reset(struct tn_arena *a);
void tn_arena_free(struct tn_arena *a);

/* Grow a dynamic array *arr of *cap elements of size elsz so that it holds at least need. */
void tn_grow(void **arr, size_t *cap, size_t need, size_t elsz);

/* qsort that takes an empty array: qsort(NULL, 0, ...) is undefined (C11 7.22.5p1: the
 * pointer must be valid even for zero elements), and an empty analysis has NULL arrays. */
static inline void tn_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    if (n > 1)
        qsort(base, n, size, cmp);
}

/* A number read from a file as a double, held to what int64_t can hold (NaN -> 0): converting
 * an out-of-range double to an integer is undefined (C11 6.3.1.4). */
/* fmax and fmin as glibc's x86-64 ones compute them (maxsd/minsd for ordered operands: the
 * second of two equal ones, so fmax(-0.0, 0.0) is 0.0; the other operand where one is a NaN),
 * inline: without -ffinite-math-only the compiler calls libm for every fmax, 5% of a bulk
 * trace's time in the window replay. */
static inline double tn_fmax(double a, double b) { return (a > b || b != b) ? a : b; }
static inline double tn_fmin(double a, double b) { return (a < b || b != b) ? a : b; }
/* round() as C99 defines it (halves away from zero, the sign of zero kept), inline: glibc's
 * is a call, 2% of a bulk trace's time */
static inline double tn_round(double x)
{
    if (!(fabs(x) < 4503599627370496.0))   /* 2^52: integral already, or infinite, or NaN */
        return x;
    double t = (double)(int64_t)x;   /* exact below 2^52, towards zero */
    if (fabs(x - t) >= 0.5)
        t += x > 0 ? 1.0 : -1.0;
    return copysign(t, x);
}

static inline int64_t tn_sat_i64(double v)
{
    if (!(v == v))
        return 0;
    if (v >= 9223372036854775807.0)
        return INT64_MAX;
    if (v <= -9223372036854775808.0)
        return INT64_MIN;
    return (int64_t)v;
}

#define TN_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ---- bytes one process writes for another (common_pack.c): the records and results the
 * ranks of an MPI job exchange (docs/cluster.md), in native byte order ---- */
struct tn_packbuf {
    uint8_t *p;
    size_t n, cap;
};

void tn_packbuf_put(struct tn_packbuf *b, const void *v, size_t n);
void tn_packbuf_fini(struct tn_packbuf *b);

/* A reader of such bytes: a read past the end gives zeros and sets bad, which stays set. */
struct tn_unpack {
    const uint8_t *p, *end;
    bool bad;
};

/* (inline: the codecs read fields of constant size, whose copies then compile to moves; rank 0
 * of an MPI job reads millions of records) */
static inline void tn_unpack_get(struct tn_unpack *r, void *v, size_t n)
{
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = true;
        memset(v, 0, n);
        return;
    }
    memcpy(v, r->p, n);
    r->p += n;
}
static inline uint8_t tn_unpack_u8(struct tn_unpack *r) { uint8_t v; tn_unpack_get(r, &v, 1); return v; }
static inline uint16_t tn_unpack_u16(struct tn_unpack *r) { uint16_t v; tn_unpack_get(r, &v, 2); return v; }
static inline uint32_t tn_unpack_u32(struct tn_unpack *r) { uint32_t v; tn_unpack_get(r, &v, 4); return v; }
static inline uint64_t tn_unpack_u64(struct tn_unpack *r) { uint64_t v; tn_unpack_get(r, &v, 8); return v; }

#endif
