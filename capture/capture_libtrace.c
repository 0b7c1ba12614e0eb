/* capture_libtrace.c - libtrace 3.0.22 backend, only for compressed pcap and ERF when libwandio
 * cannot be loaded directly (opened by URI, never probed).  Plain and decompressed ERF is read
 * by capture_erf.c: libtrace asserts on records shorter than their framing.
 *
 * Reference: libtrace.h (trace_create URIs "erf:PATH", "pcapfile:PATH"; trace_get_packet_buffer
 * returns the link layer with its libtrace_linktype_t); ERF record header: Endace "Extensible
 * Record Format" (EDM11-01), 16 bytes:
 *
 *     0       8      9       10      12      14      16
 *    +-------+------+-------+-------+-------+-------+
 *    |  ts   | type | flags | rlen  | lctr  | wlen  |   ts: little-endian 32.32 fixed point
 *    +-------+------+-------+-------+-------+-------+   rlen, lctr, wlen: big-endian
 *
 * ERF wire length counts the Ethernet FCS; it is passed on as libtrace gives it.
 */
#include "capture_int.h"

#include <libtrace.h>
#include <stdlib.h>
#include <string.h>

/* libtrace link types -> LINKTYPE_ values (libtrace 3.0.22 does not export its own
 * libtrace_to_pcap_dlt()).  tcpdump's struct tok pattern; the table ends at linktype 0. */
static const struct {
    libtrace_linktype_t type;
    int linktype;
} lt_map[] = {
    {TRACE_TYPE_ETH, TN_LINK_ETHERNET},
    {TRACE_TYPE_NONE, TN_LINK_RAW},
    {TRACE_TYPE_LINUX_SLL, TN_LINK_LINUX_SLL},
    {TRACE_TYPE_80211, TN_LINK_IEEE802_11},
    {TRACE_TYPE_80211_RADIO, TN_LINK_RADIOTAP},
    {TRACE_TYPE_HDLC_POS, TN_LINK_C_HDLC},
    {TRACE_TYPE_PPP, TN_LINK_PPP},
    {TRACE_TYPE_PFLOG, TN_LINK_PFLOG},
    {TRACE_TYPE_OPENBSD_LOOP, TN_LINK_LOOP},
    {TRACE_TYPE_ATM, TN_LINK_ATM_RFC1483},      /* after the 4-byte cell header, see below */
    {TRACE_TYPE_LLCSNAP, TN_LINK_ATM_RFC1483},
    {0, 0},
};

static int map_linktype(libtrace_linktype_t t)
{
    for (size_t i = 0; lt_map[i].linktype; i++)
        if (lt_map[i].type == t)
            return lt_map[i].linktype;
    return TN_CAPTURE_LINKTYPE_UNKNOWN;
}

enum {
    ATM_CELL_HDR = 4,
};

struct ltrace {
    libtrace_t *t;
    libtrace_packet_t *pkt;
    int erf_type;
};

static int ltrace_err(libtrace_t *t, int code, const char *name, const char *what,
                      struct tn_err *err)
{
    libtrace_err_t e = trace_get_err(t);
    return tn_err_set(err, code, "%s: %s (libtrace: %s)", name, what,
                      e.problem[0] ? e.problem : "no detail");
}

int tn_capture_libtrace_open_uri(void **st, const char *uri, const char *name,
                                 struct tn_err *err)
{
    *st = NULL;
    libtrace_t *t = trace_create(uri);
    if (!t)
        return tn_err_set(err, TN_ENOMEM, "%s: libtrace could not create a trace", name);
    if (trace_is_err(t)) {
        int r = ltrace_err(t, TN_EFORMAT, name, "cannot open", err);
        trace_destroy(t);
        return r;
    }
    if (trace_start(t) < 0) {
        int r = ltrace_err(t, TN_EFORMAT, name, "cannot read", err);
        trace_destroy(t);
        return r;
    }
    struct ltrace *lt = tn_xcalloc(1, sizeof *lt);
    lt->t = t;
    lt->pkt = trace_create_packet();
    lt->erf_type = -1;
    if (!lt->pkt)
        tn_fatal("out of memory (libtrace packet)");
    *st = lt;
    return 0;
}

static int ltrace_next(void *st, struct tn_frame *f, uint64_t num, const char *name,
                       struct tn_err *err)
{
    struct ltrace *lt = st;
    for (;;) {
        int r = trace_read_packet(lt->t, lt->pkt);
        if (r == 0)
            return 0;
        if (r < 0) {
            libtrace_err_t e = trace_get_err(lt->t);
            bool trunc = strstr(e.problem, "runcated") || strstr(e.problem, "hort read") ||
                         strstr(e.problem, "ncomplete");
            return tn_err_set(err, trunc ? TN_ETRUNC : TN_EFORMAT, "%s: %s packet %llu "
                              "(libtrace: %s)", name, trunc ? "truncated in" : "bad record at",
                              (unsigned long long)num, e.problem[0] ? e.problem : "read error");
        }
        libtrace_linktype_t type;
        uint32_t remaining = 0;
        const uint8_t *l2 = trace_get_packet_buffer(lt->pkt, &type, &remaining);
        if (!l2 || type == TRACE_TYPE_NONDATA || type == TRACE_TYPE_METADATA)
            continue;   /* not a frame */
        uint32_t wirelen = (uint32_t)trace_get_wire_length(lt->pkt);
        bool erf = lt->pkt->type == TRACE_RT_DATA_ERF;
        lt->erf_type = erf ? ((const uint8_t *)lt->pkt->header)[8] & 0x7f : -1;
        if (type == TRACE_TYPE_ATM) {
            /* ERF ATM records start with the 4-byte cell header; LINKTYPE_ATM_RFC1483 is the
             * LLC/SNAP that follows. */
            uint32_t skip = remaining < ATM_CELL_HDR ? remaining : ATM_CELL_HDR;
            l2 += skip;
            remaining -= skip;
            wirelen = wirelen > skip ? wirelen - skip : 0;
        }
        if (erf) {
            f->ts = tn_capture_erf_ts(trace_get_erf_timestamp(lt->pkt));
        } else {
            struct timespec ts = trace_get_timespec(lt->pkt);
            f->ts = (struct tn_time){.sec = (int64_t)ts.tv_sec, .nsec = (uint32_t)ts.tv_nsec};
        }
        f->data = l2;
        f->caplen = remaining;
        f->wirelen = wirelen;
        f->linktype = map_linktype(type);
        return 1;
    }
}

static void ltrace_close(void *st)
{
    struct ltrace *lt = st;
    if (!lt)
        return;
    if (lt->pkt)
        trace_destroy_packet(lt->pkt);
    trace_destroy(lt->t);
    free(lt);
}

static int ltrace_erf_type(void *st)
{
    return ((struct ltrace *)st)->erf_type;
}

const struct tn_capture_ops tn_capture_libtrace_ops = {
    .name = "libtrace",
    .next = ltrace_next,
    .close = ltrace_close,
    .erf_type = ltrace_erf_type,
};
