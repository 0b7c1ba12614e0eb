/* capture_int.h - private to capture/: the backend table and the helpers the backends share.
 *
 * Each backend (capture_pcap.c, capture_pcapng.c, capture_libtrace.c) is one struct of function
 * pointers, after libtrace's libtrace_format_t.  capture.c probes a file's first bytes, picks a
 * backend from its explicit formats[] list and drives it; it also owns frame numbering, file
 * chaining and the statistics, so the backends stay small.
 */
#ifndef TN_CAPTURE_INT_H
#define TN_CAPTURE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "capture.h"
#include "linktype.h"

/* How many leading bytes capture.c reads to recognize a format: TN_MAGIC_LEN first, which is
 * enough for every format with a magic number; up to TN_PROBE_LEN when none matched, so that
 * the ERF probe can check a chain of record headers (a slow pipe with a pcap magic is not held
 * up waiting for 4 KiB). */
#define TN_MAGIC_LEN 32
#define TN_PROBE_LEN 4096

/* An input file, opened and probed by capture.c, handed to a backend's open(). */
struct tn_capture_input {
    const char *path;    /* as given ("-" for standard input) */
    const char *name;    /* for messages: path, or "(stdin)" */
    FILE *fp;            /* positioned at byte 0 of the (decompressed) trace, or NULL for
                          * backends that open path themselves; the backend owns it from open()
                          * on, success or failure */
    const uint8_t *magic; /* the first magic_len bytes of the (decompressed) trace */
    size_t magic_len;
    bool compressed;     /* fp delivers decompressed bytes of a compressed file */
};

struct tn_capture_ops {
    const char *name;

    /* Does this backend read a trace starting with these bytes?  path helps formats without a
     * magic number (ERF: by extension). */
    bool (*probe)(const uint8_t *magic, size_t len, const char *path);

    /* Open in; *st receives backend state.  Returns 0 or -TN_E* with err filled (message names
     * in->name).  Takes ownership of in->fp in both cases. */
    int (*open)(void **st, const struct tn_capture_input *in, struct tn_err *err);

    /* Next frame: 1 = frame (f->ts, data, caplen, wirelen, linktype filled; data borrowed until
     * the next call), 0 = end of file, <0 = -TN_E* with err filled.  num is the number the
     * frame would get, name the file's name, both for messages. */
    int (*next)(void *st, struct tn_frame *f, uint64_t num, const char *name,
                struct tn_err *err);

    /* Free everything; st may be NULL. */
    void (*close)(void *st);

    /* Optional: link type of the whole file when it has one (pcap, live), else -1. */
    int (*linktype)(void *st);

    /* Optional: ERF record type of the last frame, or -1. */
    int (*erf_type)(void *st);
};

extern const struct tn_capture_ops tn_capture_pcap_ops;
extern const struct tn_capture_ops tn_capture_pcapng_ops;
extern const struct tn_capture_ops tn_capture_erf_ops;
extern const struct tn_capture_ops tn_capture_libtrace_ops;   /* by URI only: no probe, no open */

/* Does a trace starting with m (or named path) look like ERF?  capture_erf.c. */
bool tn_capture_erf_probe(const uint8_t *m, size_t len, const char *path);
/* An ERF time stamp (32.32 fixed point) as seconds + nanoseconds, rounded to nearest as
 * Wireshark does.  capture_erf.c. */
struct tn_time tn_capture_erf_ts(uint64_t ts);

/* Live capture (capture_pcap.c); not in the probe list. */
extern const struct tn_capture_ops tn_capture_live_ops;
/* Returns 0 or -TN_E* with err filled; a warning of a successful open goes into warn (code 0,
 * message empty when there is none). */
int tn_capture_live_open(void **st, const struct tn_live_opts *o, struct tn_err *warn,
                         struct tn_err *err);
void tn_capture_live_break(void *st);
void tn_capture_live_stats(void *st, struct tn_capture_stats *s);
int tn_capture_live_snaplen(void *st);

/* Open path ("pcapfile:" or "erf:" URI chosen from the decompressed magic) with libtrace; used
 * when libwandio cannot be loaded for a compressed file.  capture_libtrace.c. */
int tn_capture_libtrace_open_uri(void **st, const char *uri, const char *name,
                                 struct tn_err *err);

/* Decompress path through libwandio (loaded at run time: Debian ships no wandio.h) and return a
 * FILE* reading the decompressed bytes.  Returns 0, or -TN_EFORMAT when libwandio is not
 * available or cannot read the file.  capture_wandio.c. */
int tn_capture_wandio_fopen(FILE **out, const char *path, const char *name, struct tn_err *err);

/* A FILE* that first returns prefix[0..len) and then the rest of under (for inputs that cannot
 * seek back after probing, such as a pipe on standard input).  Closing it closes under unless
 * under is stdin.  capture_wandio.c. */
FILE *tn_capture_prefix_fopen(FILE *under, const uint8_t *prefix, size_t len);

/* Convert a count of 1/2^32 seconds (ERF) or of 10^-d / 2^-b seconds (pcapng) to tn_time. */
struct tn_time tn_capture_ts_scaled(uint64_t ts, bool binary, unsigned exp);

/* BPF filter on frames from files (capture_bpf.c). */
struct tn_bpf;
/* Compile expr (checked on Ethernet and raw IP); -TN_EUSAGE when it is not a filter. */
int tn_bpf_new(struct tn_bpf **out, const char *expr, struct tn_err *err);
/* 1: the frame passes, 0: not, <0: the filter cannot be compiled for the frame's link type
 * (said once per link type; its frames never pass). */
int tn_bpf_match(struct tn_bpf *b, const struct tn_frame *f, const char *source, struct tn_err *err);
void tn_bpf_free(struct tn_bpf *b);

#endif
