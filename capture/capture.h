/* capture.h - public interface of the capture layer: trace files and live interfaces -> frames.
 *
 * The capture layer knows file formats, not protocols.  One opaque handle over a table of
 * backends (libpcap for pcap/pcapng/live, an own pcapng block reader for files libpcap refuses,
 * libtrace for ERF and compressed traces).  Several files can be chained as one trace.
 */
#ifndef TN_CAPTURE_H
#define TN_CAPTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "common.h"

/* One frame.  data is borrowed: valid until the next tn_capture_next() or tn_capture_close(). */
struct tn_frame {
    struct tn_time ts;
    const uint8_t *data;
    uint32_t caplen;           /* bytes captured */
    uint32_t wirelen;          /* bytes on the wire */
    int linktype;              /* LINKTYPE_ value (per interface for pcapng) */
    uint64_t num;              /* 1-based number of the frame in its file */
    const char *source;        /* file name or interface name; valid while the capture is open */
};

/* frame.linktype of a frame whose link layer has no LINKTYPE_ value (an ERF record type without
 * a pcap equivalent): the dissector reports it as an unknown link type. */
#define TN_CAPTURE_LINKTYPE_UNKNOWN (-1)

struct tn_live_opts {
    const char *iface;
    const char *filter;        /* BPF expression, or NULL */
    int snaplen;               /* default 256 */
    bool immediate;            /* deliver packets as they arrive */
    int buffer_kib;            /* kernel buffer size, 0 = libpcap default */
    bool promisc;
    int linktype;              /* LINKTYPE_ to ask for (e.g. 276, Linux cooked v2, whose header
                                * names the interface of each packet on "any"); 0 = default */
};

struct tn_capture_stats {
    uint64_t frames;           /* delivered to the caller */
    uint64_t kernel_recv;      /* live: pcap_stats ps_recv */
    uint64_t kernel_drop;      /* live: ps_drop */
    uint64_t if_drop;          /* live: ps_ifdrop */
    bool live;
    uint64_t filtered;         /* frames of files left out by tn_capture_set_filter's filter */
};

struct tn_capture;

/* Open one trace file ("-" = pcap on standard input).  The format is found from the file's
 * first bytes (pcap, pcap-ns, pcapng, ERF, gzip/bzip2/xz/zstd-compressed traces).
 * Returns 0 or -TN_EIO / -TN_EFORMAT with err filled (message names the file). */
int tn_capture_open_file(struct tn_capture **out, const char *path, struct tn_err *err);

/* Open several files read in the order given, one after the other, as one trace; frame numbers
 * restart per file.  (cli/source_files.c reads several files in time order instead.)
 * Files are opened lazily: an unreadable later file is reported by tn_capture_next. */
int tn_capture_open_files(struct tn_capture **out, const char *const *paths, int npaths,
                          struct tn_err *err);

/* Several files as one trace in time order (capture_order.c): the time stamp of path's first
 * frame, or INT64_MIN when it has none, cannot be read, or is standard input ("-", which cannot
 * be read twice); and order[0..n) = the indexes of paths by that time, ties in the order given,
 * with the times in first_ns[0..n) unless it is NULL.  Standard input comes first (INT64_MIN);
 * a file without a time takes the time of the file given before it, so it stays after that one.
 * Each file is opened and closed again. */
int64_t tn_capture_first_ns(const char *path);
void tn_capture_time_order(const char *const *paths, int n, int *order, int64_t *first_ns);

/* Open a live interface (libpcap).  Returns 0, or -TN_E* with err filled.  A warning libpcap
 * gives when it activates the interface (e.g. promiscuous mode not supported) does not fail the
 * open: it is kept in the capture's warnings (tn_capture_warning). */
int tn_capture_open_live(struct tn_capture **out, const struct tn_live_opts *o, struct tn_err *err);

/* The capture's warnings: things it met without failing, which the caller should tell the user
 * (today the warning of a live interface's activation; the text names the interface).  Returns
 * the i-th, oldest first, or NULL past the last; at most TN_CAPTURE_MAX_WARNINGS are kept.  Valid
 * until tn_capture_close. */
#define TN_CAPTURE_MAX_WARNINGS 4
const char *tn_capture_warning(const struct tn_capture *c, size_t i);

/* Read the next frame.  Returns 1 = frame, 0 = end of all input, <0 = error with err filled.
 * On -TN_ETRUNC (a file cut in the middle of a record, or a corrupt record header after the
 * file's first frame, which is treated the same: the frames before it stand, the rest of that
 * file is skipped; the message names the file, the packet number and the problem) the caller
 * may warn and call again:
 * the reader moves on to the next file, or returns 0.  On -TN_EIO/-TN_EFORMAT (a file that
 * cannot be read, or whose first record is corrupt) for one file of several the same holds.
 * Live captures return 0 after tn_capture_break(), and after an error (the interface is gone):
 * it is returned once, then the capture has ended. */
int tn_capture_next(struct tn_capture *c, struct tn_frame *f, struct tn_err *err);

/* Deliver only the frames of trace files that pass the BPF filter expr (as tcpdump -r FILE
 * EXPR); frame numbers still count every frame of the file.  Returns 0, or -TN_EUSAGE when expr
 * is not a filter (checked before any frame is read). */
int tn_capture_set_filter(struct tn_capture *c, const char *expr, struct tn_err *err);

/* Ask a live or file capture to stop at the next opportunity; safe in a signal handler. */
void tn_capture_break(struct tn_capture *c);

/* The link type of the current input when it has one for the whole file (pcap, live), else -1
 * (pcapng and ERF name it per frame, and between files there is none). */
int tn_capture_linktype(const struct tn_capture *c);

/* The snap length frames are captured with: the live one, else 262144 (pcap's default). */
uint32_t tn_capture_snaplen(const struct tn_capture *c);

void tn_capture_get_stats(struct tn_capture *c, struct tn_capture_stats *st);

/* Name of the backend reading the current file ("pcap", "pcapng-own", "erf", "libtrace", "live"). */
const char *tn_capture_backend(const struct tn_capture *c);

/* ERF record type (1 = HDLC_POS, 2 = ETH, 3 = ATM, ...) of the last frame delivered, when it
 * came from an ERF file; -1 otherwise. */
int tn_capture_erf_type(const struct tn_capture *c);

/* Close.  NULL is fine. */
int tn_capture_close(struct tn_capture *c, struct tn_err *err);

/* ---- BPF on flows (capture_bpf_flow.c): --flow NAME=FILTER ----
 * A BPF expression tested on the headers of one packet made up for a flow: an IPv4 or IPv6
 * header from src to dst with protocol ipproto, then a TCP header (ACK set) or a UDP header with
 * the ports (other protocols: no transport header), as raw IP.  "tcp port 5201 and host
 * 10.0.0.1" then names a connection as it would select its packets in tcpdump. */
struct tn_flow_filter;
int tn_flow_filter_new(struct tn_flow_filter **out, const char *expr, struct tn_err *err);
bool tn_flow_filter_match(struct tn_flow_filter *f, int family, const uint8_t *src, const uint8_t *dst,
                          uint8_t ipproto, uint16_t sport, uint16_t dport);
void tn_flow_filter_free(struct tn_flow_filter *f);

/* ---- pcap files written (capture_writer.c): -w and --export ----
 * Classic pcap with nanosecond time stamps, one link type per file (the first frame's).  The
 * file is written as PATH.tmp with checked writes and renamed to PATH by a successful close;
 * after any failure the temporary file is removed. */
struct tn_pcap_writer;

/* flush_often: flush every few thousand frames (live captures, so that a crash loses little). */
int tn_pcap_writer_open(struct tn_pcap_writer **out, const char *path, uint32_t snaplen,
                        bool flush_often, struct tn_err *err);

/* Append a frame.  Returns 1 when written, 0 when skipped (a link type other than the file's,
 * counted), -TN_EIO with err filled when writing failed (the message names the file and the
 * number of packets written; every later call returns the same error). */
int tn_pcap_writer_put(struct tn_pcap_writer *w, int linktype, struct tn_time ts, const uint8_t *data,
                       uint32_t caplen, uint32_t wirelen, struct tn_err *err);

uint64_t tn_pcap_writer_skipped(const struct tn_pcap_writer *w);

/* Flush, fsync, close and rename; a file that saw no frame gets linktype_if_empty (< 0:
 * Ethernet).  Returns 0 or -TN_EIO (the temporary file removed).  NULL is fine. */
int tn_pcap_writer_close(struct tn_pcap_writer *w, int linktype_if_empty, struct tn_err *err);

/* Give up: close and remove the temporary file.  NULL is fine. */
void tn_pcap_writer_abort(struct tn_pcap_writer *w);

#endif
