/* capture_writer.c - pcap files written by -w and --export: the classic format with nanosecond
 * time stamps (magic 0xa1b23c4d, pcap-savefile(5) / draft-ietf-opsawg-pcap section 4), written
 * through safeout.h: a mkstemp temporary in PATH's directory (a name planted there is never
 * followed), every write checked, renamed to PATH only when all of it is on disk; a failed or
 * abandoned file is removed, never left half-written under its final name.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "safeout.h"

#define PCAP_MAGIC_NS 0xa1b23c4du
#define PCAP_VERSION_MAJOR 2
#define PCAP_VERSION_MINOR 4

/* Flush a live file at least this often, so that a crash loses little. */
enum { FLUSH_FRAMES = 4096 };

struct tn_pcap_writer {
    struct tn_safeout out;     /* the temporary and its stream (fp) */
    FILE *fp;
    uint32_t snaplen;
    bool flush_often;
    int linktype;              /* -1 until the first frame (or close) writes the header */
    uint64_t frames, skipped, unflushed;
    struct tn_err failed;      /* the first write error; later calls return it */
};

static void le16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void le32(uint8_t *p, uint32_t v)
{
    le16(p, (uint16_t)v);
    le16(p + 2, (uint16_t)(v >> 16));
}

static int fail(struct tn_pcap_writer *w, struct tn_err *err, const char *what)
{
    if (!w->failed.code)
        tn_err_set(&w->failed, TN_EIO, "%s: %s after %llu packets: %s", w->out.path, what,
                   (unsigned long long)w->frames, strerror(errno ? errno : EIO));
    if (err)
        *err = w->failed;
    return -TN_EIO;
}

static int put(struct tn_pcap_writer *w, const void *p, size_t n, struct tn_err *err)
{
    errno = 0;
    if (n && fwrite(p, 1, n, w->fp) != n)
        return fail(w, err, "write failed");
    return 0;
}

static int header(struct tn_pcap_writer *w, int linktype, struct tn_err *err)
{
    uint8_t h[24];
    le32(h, PCAP_MAGIC_NS);
    le16(h + 4, PCAP_VERSION_MAJOR);
    le16(h + 6, PCAP_VERSION_MINOR);
    le32(h + 8, 0);            /* thiszone */
    le32(h + 12, 0);           /* sigfigs */
    le32(h + 16, w->snaplen);
    le32(h + 20, (uint32_t)linktype);
    w->linktype = linktype;
    return put(w, h, sizeof h, err);
}

int tn_pcap_writer_open(struct tn_pcap_writer **out, const char *path, uint32_t snaplen,
                        bool flush_often, struct tn_err *err)
{
    *out = NULL;
    struct tn_pcap_writer *w = tn_xcalloc(1, sizeof *w);
    int r = tn_safeout_open(&w->out, path, err);
    if (r < 0) {
        free(w);
        return r;
    }
    w->fp = w->out.fp;
    w->snaplen = snaplen ? snaplen : 262144;
    w->flush_often = flush_often;
    w->linktype = -1;
    *out = w;
    return 0;
}

int tn_pcap_writer_put(struct tn_pcap_writer *w, int linktype, struct tn_time ts, const uint8_t *data,
                       uint32_t caplen, uint32_t wirelen, struct tn_err *err)
{
    if (w->failed.code) {
        if (err)
            *err = w->failed;
        return -TN_EIO;
    }
    if (linktype < 0 || (w->linktype >= 0 && linktype != w->linktype)) {
        w->skipped++;   /* one link type per pcap file */
        return 0;
    }
    if (w->linktype < 0 && header(w, linktype, err) < 0)
        return -TN_EIO;
    uint8_t h[16];
    le32(h, (uint32_t)ts.sec);
    le32(h + 4, ts.nsec);
    le32(h + 8, caplen);
    le32(h + 12, wirelen > caplen ? wirelen : caplen);
    if (put(w, h, sizeof h, err) < 0 || put(w, data, caplen, err) < 0)
        return -TN_EIO;
    w->frames++;
    if (w->flush_often && ++w->unflushed >= FLUSH_FRAMES) {
        w->unflushed = 0;
        errno = 0;
        if (fflush(w->fp) != 0)
            return fail(w, err, "write failed");
    }
    return 1;
}

uint64_t tn_pcap_writer_skipped(const struct tn_pcap_writer *w)
{
    return w ? w->skipped : 0;
}

void tn_pcap_writer_abort(struct tn_pcap_writer *w)
{
    if (!w)
        return;
    tn_safeout_abort(&w->out);
    free(w);
}

int tn_pcap_writer_close(struct tn_pcap_writer *w, int linktype_if_empty, struct tn_err *err)
{
    if (!w)
        return 0;
    int r = 0;
    if (w->failed.code) {
        if (err)
            *err = w->failed;
        r = -TN_EIO;
    } else if (w->linktype < 0) {
        r = header(w, linktype_if_empty >= 0 ? linktype_if_empty : 1, err);
    }
    if (r == 0)
        r = tn_safeout_commit(&w->out, err);   /* flush, fsync, close, rename; removed if not */
    else
        tn_safeout_abort(&w->out);
    free(w);
    return r;
}
