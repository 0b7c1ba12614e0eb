/* capture_wandio.c - FILE* streams over libwandio (compressed traces) and over a probed prefix.
 *
 * Compressed traces (gzip, bzip2, xz, lzo, and zstd where the installed libwandio has it) are
 * decompressed by libwandio, the same library libtrace uses, and handed to the ordinary readers
 * as a FILE* made with fopencookie(): a compressed pcap then goes through libpcap (exact
 * nanosecond time stamps, the same truncation messages) and a compressed pcapng through our own
 * block reader, which libtrace 3.0.22 cannot read at all.
 *
 * Debian's libwandio1 ships no header and no libwandio.so link, only libwandio.so.1 (a
 * dependency of libtrace), so its four public functions are looked up with dlopen()/dlsym().
 * When that fails, capture.c falls back to libtrace's own pcapfile/erf readers.
 */
#include "capture_int.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* libwandio's reader API (wandio.h of libwandio 1.0 / libtrace 3.0). */
struct wandio_io;
struct wandio_api {
    struct wandio_io *(*create)(const char *filename);
    int64_t (*read)(struct wandio_io *io, void *buffer, int64_t len);
    void (*destroy)(struct wandio_io *io);
    bool ok;
};

static struct wandio_api wandio;
static pthread_once_t wandio_once = PTHREAD_ONCE_INIT;

/* dlsym returns void *; copying the bytes into a function pointer is the POSIX-blessed way. */
static bool load_sym(void *lib, const char *sym, void *fnptr, size_t size)
{
    void *p = dlsym(lib, sym);
    if (!p || size != sizeof p)
        return false;
    memcpy(fnptr, &p, size);
    return true;
}

static void wandio_load(void)
{
    static const char *const libs[] = {"libwandio.so.1", "libwandio.so", "libwandio.so.6",
                                       "libwandio.so.4"};
    for (size_t i = 0; i < TN_ARRAY_LEN(libs); i++) {
        void *lib = dlopen(libs[i], RTLD_NOW | RTLD_LOCAL);
        if (!lib)
            continue;
        if (load_sym(lib, "wandio_create", &wandio.create, sizeof wandio.create) &&
            load_sym(lib, "wandio_read", &wandio.read, sizeof wandio.read) &&
            load_sym(lib, "wandio_destroy", &wandio.destroy, sizeof wandio.destroy)) {
            wandio.ok = true;
            return;     /* the library stays loaded for the life of the process */
        }
        dlclose(lib);
    }
}

static ssize_t wandio_cookie_read(void *cookie, char *buf, size_t size)
{
    int64_t n = wandio.read(cookie, buf, (int64_t)size);
    if (n < 0) {
        errno = EIO;
        return -1;
    }
    return (ssize_t)n;
}

static int wandio_cookie_close(void *cookie)
{
    wandio.destroy(cookie);
    return 0;
}

int tn_capture_wandio_fopen(FILE **out, const char *path, const char *name, struct tn_err *err)
{
    *out = NULL;
    pthread_once(&wandio_once, wandio_load);
    if (!wandio.ok)
        return tn_err_set(err, TN_EFORMAT, "%s: compressed trace, but libwandio could not be "
                          "loaded to decompress it", name);
    struct wandio_io *io = wandio.create(path);
    if (!io)
        return tn_err_set(err, TN_EFORMAT, "%s: libwandio cannot decompress this file", name);
    cookie_io_functions_t fns = {.read = wandio_cookie_read, .close = wandio_cookie_close};
    FILE *fp = fopencookie(io, "rb", fns);
    if (!fp) {
        wandio.destroy(io);
        return tn_err_set(err, TN_ENOMEM, "%s: fopencookie: %s", name, strerror(errno));
    }
    setvbuf(fp, NULL, _IOFBF, 1u << 20);
    *out = fp;
    return 0;
}

/* ---- prefix stream: probed bytes first, then the rest of the underlying stream ---- */

struct prefix_cookie {
    FILE *under;
    size_t len, pos;
    uint8_t buf[TN_PROBE_LEN];
};

static ssize_t prefix_read(void *cookie, char *buf, size_t size)
{
    struct prefix_cookie *pc = cookie;
    size_t n = 0;
    if (pc->pos < pc->len) {
        n = pc->len - pc->pos;
        if (n > size)
            n = size;
        memcpy(buf, pc->buf + pc->pos, n);
        pc->pos += n;
    }
    if (n < size) {
        size_t m = fread(buf + n, 1, size - n, pc->under);
        if (m == 0 && n == 0 && ferror(pc->under)) {
            errno = EIO;
            return -1;
        }
        n += m;
    }
    return (ssize_t)n;
}

static int prefix_close(void *cookie)
{
    struct prefix_cookie *pc = cookie;
    int r = 0;
    if (pc->under != stdin)
        r = fclose(pc->under);
    free(pc);
    return r;
}

FILE *tn_capture_prefix_fopen(FILE *under, const uint8_t *prefix, size_t len)
{
    struct prefix_cookie *pc = tn_xcalloc(1, sizeof *pc);
    pc->under = under;
    pc->len = len < sizeof pc->buf ? len : sizeof pc->buf;
    memcpy(pc->buf, prefix, pc->len);
    cookie_io_functions_t fns = {.read = prefix_read, .close = prefix_close};
    FILE *fp = fopencookie(pc, "rb", fns);
    if (!fp) {
        free(pc);
        return NULL;
    }
    setvbuf(fp, NULL, _IOFBF, 1u << 20);
    return fp;
}
