/* capture.c - the capture handle: format probing, file chaining, statistics.
 *
 * The format of a file is found from its first bytes, as libtrace's trace_init/probe_magic do,
 * by walking the explicit formats[] list below.  Compressed files are recognized by their
 * compression magic, decompressed through libwandio (capture_wandio.c) and probed again.
 * Reference for the magic numbers: pcap-savefile(5), draft-ietf-opsawg-pcapng §4.1, RFC 1952
 * (gzip 1f 8b), bzip2 "BZh", xz (fd 37 7a 58 5a 00), zstd (28 b5 2f fd, RFC 8878 §3.1.1), lzop.
 */
#include "capture_int.h"

#include <errno.h>
#include <pcap/pcap.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Probed in this order; the first whose probe accepts the bytes reads the file. */
static const struct tn_capture_ops *const formats[] = {
    &tn_capture_pcap_ops,
    &tn_capture_pcapng_ops,
    &tn_capture_erf_ops,   /* ERF: no magic, so last */
};

static const struct {
    const char *name;
    uint8_t magic[9];
    size_t len;
} compressions[] = {
    {"gzip", {0x1f, 0x8b}, 2},
    {"bzip2", {'B', 'Z', 'h'}, 3},
    {"xz", {0xfd, '7', 'z', 'X', 'Z', 0x00}, 6},
    {"zstd", {0x28, 0xb5, 0x2f, 0xfd}, 4},
    {"lzo", {0x89, 'L', 'Z', 'O', 0x00, 0x0d, 0x0a, 0x1a, 0x0a}, 9},
};

struct tn_capture {
    char **paths;               /* owned copies */
    int npaths;
    int next_path;              /* index of the next file to open */

    const struct tn_capture_ops *ops;   /* current backend, NULL between files */
    void *st;
    const char *name;           /* current file's name for messages and frame.source */
    const char *backend;        /* name of the last backend used */
    uint64_t num;               /* frames delivered from the current file */
    uint64_t held_ts, first_held;   /* time stamps of the current file outside 1970-2106 */
    uint64_t held_frac, first_frac; /* fractions not below one second (a pcap record's) */
    struct tn_err pending;      /* error of an eager first open, told by the first next() */

    bool live;
    char *iface;
    volatile sig_atomic_t stop;
    struct tn_capture_stats stats;
    struct tn_err warnings[TN_CAPTURE_MAX_WARNINGS];  /* tn_capture_warning */
    size_t nwarnings;
    struct tn_bpf *bpf;         /* filter on file frames (NULL: all pass) */

};

struct tn_time tn_capture_ts_scaled(uint64_t ts, bool binary, unsigned exp)
{
    struct tn_time t;
    if (binary) {
        /* units of 2^-exp s; exp <= 63 */
        uint64_t frac = exp ? ts & ((UINT64_C(1) << exp) - 1) : 0;
        uint64_t s = exp ? ts >> exp : ts;
        t.sec = s > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)s;   /* told, held in next() */
        /* frac * 1e9 must fit 64 bits: drop low bits beyond 2^-34 (< 0.06 ns) first */
        unsigned e = exp;
        if (e > 34) {
            frac >>= e - 34;
            e = 34;
        }
        t.nsec = (uint32_t)((frac * 1000000000u) >> e);
        return t;
    }
    /* units of 10^-exp s; exp <= 19 */
    static const uint64_t pow10[20] = {
        1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000,
        UINT64_C(10000000000), UINT64_C(100000000000), UINT64_C(1000000000000),
        UINT64_C(10000000000000), UINT64_C(100000000000000), UINT64_C(1000000000000000),
        UINT64_C(10000000000000000), UINT64_C(100000000000000000),
        UINT64_C(1000000000000000000), UINT64_C(10000000000000000000)};
    uint64_t s, frac;
    if (exp == 6) {   /* the default (microseconds): a constant divisor, no division instruction */
        s = ts / 1000000;
        frac = ts % 1000000;
    } else {
        s = ts / pow10[exp];
        frac = ts % pow10[exp];
    }
    t.sec = s > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)s;   /* told, held in next() */
    t.nsec = exp <= 9 ? (uint32_t)(frac * pow10[9 - exp]) : (uint32_t)(frac / pow10[exp - 9]);
    return t;
}

static const char *compression_of(const uint8_t *m, size_t len)
{
    for (size_t i = 0; i < TN_ARRAY_LEN(compressions); i++)
        if (len >= compressions[i].len && memcmp(m, compressions[i].magic,
                                                 compressions[i].len) == 0)
            return compressions[i].name;
    return NULL;
}

static const struct tn_capture_ops *probe_format(const uint8_t *m, size_t len, const char *path)
{
    for (size_t i = 0; i < TN_ARRAY_LEN(formats); i++)
        if (formats[i]->probe(m, len, path))
            return formats[i];
    return NULL;
}

/* The path libtrace should see for a compressed file (it decompresses by itself). */
static int open_compressed_libtrace(struct tn_capture *c, const char *path, bool erf,
                                    struct tn_err *err)
{
    size_t n = strlen(path) + 16;
    char *uri = tn_xmalloc(n);
    snprintf(uri, n, "%s:%s", erf ? "erf" : "pcapfile", path);
    int r = tn_capture_libtrace_open_uri(&c->st, uri, c->name, err);
    free(uri);
    if (r == 0)
        c->ops = &tn_capture_libtrace_ops;
    return r;
}

/* A compressed file: decompress with libwandio and probe what comes out. */
static int open_compressed(struct tn_capture *c, const char *path, const char *how,
                           struct tn_err *err)
{
    FILE *fp;
    struct tn_err werr;
    if (tn_capture_wandio_fopen(&fp, path, c->name, &werr) < 0) {
        /* No usable libwandio here: libtrace can still read compressed pcap and ERF. */
        bool erf = tn_capture_erf_probe((const uint8_t *)"", 0, path);
        if (open_compressed_libtrace(c, path, erf, err) == 0)
            return 0;
        return tn_err_set(err, TN_EFORMAT, "%s: %s-compressed file that cannot be read (%s)",
                          c->name, how, werr.msg);
    }
    uint8_t m[TN_PROBE_LEN];
    size_t len = fread(m, 1, sizeof m, fp);
    bool bad = ferror(fp);
    fclose(fp);   /* a cookie stream cannot seek back: open it again for the backend */
    /* libwandio 1.0 reads ahead in large blocks and drops a block whose compressed data ends
     * early, so a short damaged file yields nothing at all. */
    if (len == 0)
        return tn_err_set(err, TN_EFORMAT, "%s: %s-compressed data %s", c->name, how,
                          bad ? "is damaged or cut short (libwandio read error)"
                              : "decompresses to nothing");
    if (compression_of(m, len) == how)   /* libwandio passed it through undecoded */
        return tn_err_set(err, TN_EFORMAT, "%s: %s-compressed, and this system's libwandio "
                          "cannot decompress %s", c->name, how, how);
    const struct tn_capture_ops *ops = probe_format(m, len, path);
    if (!ops)
        return tn_err_set(err, TN_EFORMAT, "%s: not a packet trace (unknown format inside %s "
                          "compression)", c->name, how);
    struct tn_capture_input in = {.path = path, .name = c->name, .magic = m, .magic_len = len,
                                  .compressed = true};
    int r = tn_capture_wandio_fopen(&fp, path, c->name, err);
    if (r < 0)
        return r;
    in.fp = fp;
    r = ops->open(&c->st, &in, err);
    if (r == 0)
        c->ops = ops;
    return r;
}

/* Open c->paths[i] and choose its backend. */
static int open_path(struct tn_capture *c, int i, struct tn_err *err)
{
    const char *path = c->paths[i];
    bool is_stdin = strcmp(path, "-") == 0;
    c->name = is_stdin ? "(stdin)" : path;
    c->num = 0;
    c->held_ts = c->held_frac = 0;
    FILE *fp = is_stdin ? stdin : fopen(path, "rb");
    if (!fp)
        return tn_err_set(err, TN_EIO, "%s: %s", path, strerror(errno));
    /* Large stdio buffer: pcap_next_ex and the pcapng reader read record by record. */
    setvbuf(fp, NULL, _IOFBF, 1u << 20);
    uint8_t m[TN_PROBE_LEN];
    size_t len = fread(m, 1, TN_MAGIC_LEN, fp);
    if (len == TN_MAGIC_LEN && !compression_of(m, len) && !tn_capture_pcap_ops.probe(m, len, NULL) &&
        !tn_capture_pcapng_ops.probe(m, len, NULL))
        len += fread(m + len, 1, sizeof m - len, fp);   /* ERF: no magic, a chain of records */
    if (len == 0) {
        int e = ferror(fp) ? errno : 0;
        if (!is_stdin)
            fclose(fp);
        if (e)
            return tn_err_set(err, TN_EIO, "%s: %s", c->name, strerror(e));
        return tn_err_set(err, TN_EFORMAT, "%s: empty file (not a packet trace)", c->name);
    }
    const char *how = compression_of(m, len);
    if (how) {
        if (is_stdin)
            return tn_err_set(err, TN_EFORMAT, "%s: %s-compressed input on standard input is "
                              "not supported; decompress it in the pipe", c->name, how);
        fclose(fp);
        return open_compressed(c, path, how, err);
    }
    const struct tn_capture_ops *ops = probe_format(m, len, is_stdin ? NULL : path);
    if (!ops) {
        if (!is_stdin)
            fclose(fp);
        return tn_err_set(err, TN_EFORMAT, "%s: not a packet trace (unknown format)", c->name);
    }
    /* Back to byte 0.  A pipe cannot seek, so it gets the probed bytes served again; so does
     * stdin always, which the backends must not close. */
    if (is_stdin || fseek(fp, 0, SEEK_SET) != 0) {
        FILE *pf = tn_capture_prefix_fopen(fp, m, len);
        if (!pf) {
            if (!is_stdin)
                fclose(fp);
            return tn_err_set(err, TN_ENOMEM, "%s: fopencookie: %s", c->name, strerror(errno));
        }
        fp = pf;
    }
    struct tn_capture_input in = {.path = path, .name = c->name, .fp = fp, .magic = m,
                                  .magic_len = len};
    int r = ops->open(&c->st, &in, err);
    if (r == 0)
        c->ops = ops;
    return r;
}

static void close_current(struct tn_capture *c)
{
    if (c->ops) {
        c->backend = c->ops->name;
        c->ops->close(c->st);
    }
    c->ops = NULL;
    c->st = NULL;
}

static struct tn_capture *capture_new(void)
{
    struct tn_capture *c = tn_xcalloc(1, sizeof *c);
    c->backend = "none";
    return c;
}

int tn_capture_open_file(struct tn_capture **out, const char *path, struct tn_err *err)
{
    *out = NULL;
    struct tn_capture *c = capture_new();
    c->paths = tn_xcalloc(1, sizeof *c->paths);
    c->paths[0] = tn_xstrdup(path);
    c->npaths = 1;
    c->next_path = 1;
    int r = open_path(c, 0, err);
    if (r < 0) {
        tn_capture_close(c, NULL);
        return r;
    }
    *out = c;
    return 0;
}

int tn_capture_open_files(struct tn_capture **out, const char *const *paths, int npaths,
                          struct tn_err *err)
{
    *out = NULL;
    if (npaths <= 0)
        return tn_err_set(err, TN_EUSAGE, "no input files");
    struct tn_capture *c = capture_new();
    c->paths = tn_xcalloc((size_t)npaths, sizeof *c->paths);
    for (int i = 0; i < npaths; i++)
        c->paths[i] = tn_xstrdup(paths[i]);
    c->npaths = npaths;
    /* The first file is opened now so that its link type is known early (an export); if it
     * fails, the first tn_capture_next() tells, and the next call goes on with file two. */
    c->next_path = 1;
    if (open_path(c, 0, &c->pending) < 0)
        c->ops = NULL;
    *out = c;
    return 0;
}

int tn_capture_open_live(struct tn_capture **out, const struct tn_live_opts *o,
                         struct tn_err *err)
{
    *out = NULL;
    if (err) {
        err->code = TN_EOK;
        err->msg[0] = '\0';
    }
    struct tn_capture *c = capture_new();
    struct tn_err warn = {0};
    int r = tn_capture_live_open(&c->st, o, &warn, err);
    if (r < 0) {
        free(c);
        return r;
    }
    if (warn.msg[0])
        c->warnings[c->nwarnings++] = warn;
    c->ops = &tn_capture_live_ops;
    c->live = true;
    c->stats.live = true;
    c->iface = tn_xstrdup(o->iface);
    c->name = c->iface;
    *out = c;
    return 0;
}

int tn_capture_linktype(const struct tn_capture *c)
{
    return c->ops && c->ops->linktype ? c->ops->linktype(c->st) : -1;
}

uint32_t tn_capture_snaplen(const struct tn_capture *c)
{
    return c->live && c->st ? (uint32_t)tn_capture_live_snaplen(c->st) : 262144;
}

/* ---- reading ---- */

/* At the end of a file, the time stamps held to what a time stamp can be, told once each (a
 * warning: the packets were read).  1 with err filled, or 0 when there is nothing to tell. */
static int held_warning(struct tn_capture *c, struct tn_err *err)
{
    uint64_t *held = c->held_ts ? &c->held_ts : c->held_frac ? &c->held_frac : NULL;
    if (!held)
        return 0;
    bool ts = held == &c->held_ts;
    unsigned long long n = *held, first = ts ? c->first_held : c->first_frac;
    *held = 0;
    const char *s = n == 1 ? "" : "s";
    char text[160];
    if (ts)
        snprintf(text, sizeof text, "time stamp%s outside 1970-2106 (pcap's range), held to it", s);
    else
        snprintf(text, sizeof text, "time stamp fraction%s not below one second (no time stamp), "
                 "held to the second's last microsecond", s);
    if (n == 1)
        tn_err_set(err, TN_ETRUNC, "%s: packet %llu has a %s", c->name, first, text);
    else
        tn_err_set(err, TN_ETRUNC, "%s: %llu packets from packet %llu have %s", c->name, n, first, text);
    return 1;
}

int tn_capture_next(struct tn_capture *c, struct tn_frame *f, struct tn_err *err)
{
    for (;;) {
        if (c->stop)
            return 0;
        if (c->pending.code) {
            int code = c->pending.code;
            if (err)
                *err = c->pending;
            c->pending.code = TN_EOK;
            return -code;
        }
        if (!c->ops) {
            if (held_warning(c, err))   /* the second of the last file's two */
                return -TN_ETRUNC;
            if (c->live || c->next_path >= c->npaths)
                return 0;
            int r = open_path(c, c->next_path++, err);
            if (r < 0)
                return r;
            continue;
        }
        int r = c->ops->next(c->st, f, c->num + 1, c->name, err);
        if (r == 1 && c->bpf) {
            f->num = c->num + 1;
            int m = tn_bpf_match(c->bpf, f, c->name, err);
            if (m <= 0) {
                c->num++;
                c->stats.filtered++;
                if (m < 0)
                    return m;
                continue;
            }
        }
        if (r == 1) {
            f->num = ++c->num;
            /* absurd time stamps are held to 1970-2106 (TN_TIME_SEC_MAX), told at the end */
            if (f->ts.sec > TN_TIME_SEC_MAX || f->ts.sec < 0) {
                f->ts.sec = f->ts.sec < 0 ? 0 : TN_TIME_SEC_MAX;
                if (!c->held_ts++)
                    c->first_held = f->num;
            }
            if (f->ts.nsec >= 1000000000u) {   /* the readers mark a fraction that is none */
                f->ts.nsec = 999999000u;   /* the last microsecond: a microsecond file holds it too */
                if (!c->held_frac++)
                    c->first_frac = f->num;
            }
            f->source = c->name;
            c->stats.frames++;
            return 1;
        }
        if (c->live) {
            /* 0 after a break; the handle stays for the stats.  An error of a live capture
             * does not go away (the interface is gone or down; libpcap says the same again at
             * once, forever): it is told once and the capture ends. */
            if (r < 0)
                c->stop = 1;
            return r;
        }
        close_current(c);
        if (r < 0)
            return r;
        if (held_warning(c, err))
            return -TN_ETRUNC;
    }
}

void tn_capture_break(struct tn_capture *c)
{
    c->stop = 1;
    if (c->live && c->st)
        tn_capture_live_break(c->st);
}

void tn_capture_get_stats(struct tn_capture *c, struct tn_capture_stats *st)
{
    if (c->live && c->st)
        tn_capture_live_stats(c->st, &c->stats);
    *st = c->stats;
}

const char *tn_capture_backend(const struct tn_capture *c)
{
    return c->ops ? c->ops->name : c->backend;
}

int tn_capture_erf_type(const struct tn_capture *c)
{
    return c->ops && c->ops->erf_type ? c->ops->erf_type(c->st) : -1;
}

const char *tn_capture_warning(const struct tn_capture *c, size_t i)
{
    return c && i < c->nwarnings ? c->warnings[i].msg : NULL;
}

int tn_capture_close(struct tn_capture *c, struct tn_err *err)
{
    if (!c)
        return 0;
    (void)err;
    close_current(c);
    for (int i = 0; i < c->npaths; i++)
        free(c->paths[i]);
    free(c->paths);
    free(c->iface);
    tn_bpf_free(c->bpf);
    free(c);
    return 0;
}

int tn_capture_set_filter(struct tn_capture *c, const char *expr, struct tn_err *err)
{
    if (c->live)   /* live captures filter in the kernel (tn_live_opts.filter) */
        return tn_err_set(err, TN_EUSAGE, "tn_capture_set_filter: for trace files only");
    struct tn_bpf *b;
    int r = tn_bpf_new(&b, expr, err);
    if (r < 0)
        return r;
    tn_bpf_free(c->bpf);
    c->bpf = b;
    return 0;
}
