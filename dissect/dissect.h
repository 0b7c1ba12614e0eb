/* dissect.h - public interface of the dissect layer: frame bytes -> one normalized packet record.
 *
 * The dissector is pure: it allocates nothing, keeps no state and never prints.  Malformed or
 * truncated input is data: it sets anomaly bits and a status, never crashes.
 */
#ifndef TN_DISSECT_H
#define TN_DISSECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "addr.h"
#include "common.h"
#include "linktype.h"

/* ---- anomalies (listed once in anomalies.def) ---- */
enum tn_anom_kind {
#define X(name, sname, text) TN_ANOM_##name,
#include "anomalies.def"
#undef X
    TN_ANOM_COUNT
};

/* The anomaly set of one packet is a 64-bit mask. */
_Static_assert(TN_ANOM_COUNT <= 64, "anomalies.def lists more than 64 kinds");

struct tn_anoms {
    uint64_t bits;   /* bit k set = anomaly kind k seen in this packet */
};

static inline void tn_anom(struct tn_anoms *a, enum tn_anom_kind k)
{
    a->bits |= (uint64_t)1 << k;
}

static inline bool tn_anom_has(const struct tn_anoms *a, enum tn_anom_kind k)
{
    return (a->bits >> k) & 1u;
}

const char *tn_anom_name(enum tn_anom_kind k);  /* "tcp.opt_len0" */
const char *tn_anom_text(enum tn_anom_kind k);  /* "TCP option length 0 or 1" */

/* ---- dissector status ----
 * The status is the worst thing found; kind says whether the record is usable.  They combine:
 *  - TRUNCATED + kind TCP: the fixed TCP header is complete but its options were cut by the snap
 *    length (tcp.opt_truncated); seq/ack/flags/window are valid, options partial.
 *  - TRUNCATED + kind TCP/DFCP with ip4.len_gt_wire / ip6.len_gt_wire: the IP length says more
 *    than the frame holds (offload captures, a damaged length).  The IP header is believed:
 *    payload_len comes from it and payload_caplen is what the frame holds, as for a snap length.
 *  - MALFORMED + kind TCP: a length inside the packet is inconsistent but the transport header
 *    could still be read (ip4.opt_len, tcp.opt_len_*); the bad option is skipped.
 *  - OK with anomaly bits: content that parses but is odd (tcp.flags_bad, tcp.wscale_big,
 *    tcp.opt_dup, dfcp.type_reserved, ...) or a limit of this dissector (link.unknown,
 *    gre.version, vlan.depth, ip6.ext_depth, tunnel.depth; kind OTHER).
 * Header-only captures (payload cut by the snap length) are normal: OK, payload_caplen <
 * payload_len, no anomaly. */
enum tn_dis_status {
    TN_DIS_OK = 0,
    TN_DIS_TRUNCATED = 1,  /* the capture ended early (snap length, cut file) */
    TN_DIS_MALFORMED = 2,  /* the packet contradicts itself */
};

/* What the packet turned out to be. */
enum tn_pkt_kind {
    TN_PK_OTHER = 0,  /* not TCP or DFCP (ARP, UDP, ICMP, ...) or undecodable */
    TN_PK_TCP,
    TN_PK_DFCP,
};

/* ---- DFCP (dfcp-wire-format.md) ---- */
enum tn_dfcp_type {
    TN_DFCP_T_DATA = 0,
    TN_DFCP_T_SYN = 1,
    TN_DFCP_T_SYNACK = 2,
    TN_DFCP_T_ACK = 3,
    TN_DFCP_T_BACK = 4,
    TN_DFCP_T_FIN = 5,
    TN_DFCP_T_FINACK = 6,
    TN_DFCP_T_RST = 7,
};

enum {
    TN_DFCP_F_ACKING = 0x01,
    TN_DFCP_F_ENCODED = 0x02,
    TN_DFCP_F_DECODE_FAILED = 0x04,
    TN_DFCP_F_LAST_BLOCK = 0x08,
    TN_DFCP_F_KNOWN = 0x0f,
};

#define TN_DFCP_HDR_LEN 20
#define TN_DFCP_DEFAULT_IPPROTO 253
#define TN_DFCP_DEFAULT_UDP_PORT 9253

struct tn_dfcp {
    uint8_t version;
    uint8_t type;      /* enum tn_dfcp_type, 8-15 reserved */
    uint8_t flags;
    uint16_t n;        /* symbols per block */
    uint32_t block;
    uint16_t sym_idx;
    uint16_t window;   /* blocks */
    uint32_t k;        /* block source length, bytes */
    bool over_udp;     /* carried in UDP rather than natively */
    uint16_t hdr_sport, hdr_dport; /* ports in the DFCP header; tn_pkt.sport/dport are these when
                                      native and the UDP ports when over UDP (a mismatch is fine) */
};

const char *tn_dfcp_type_name(unsigned type, char buf[16]);  /* "DATA", "unknown-9" */

/* ---- TCP ---- */
enum {
    TN_TCP_FIN = 0x01,
    TN_TCP_SYN = 0x02,
    TN_TCP_RST = 0x04,
    TN_TCP_PSH = 0x08,
    TN_TCP_ACK = 0x10,
    TN_TCP_URG = 0x20,
    TN_TCP_ECE = 0x40,
    TN_TCP_CWR = 0x80,
};

#define TN_MAX_SACK 4

struct tn_sack_block {
    uint32_t left, right;
};

struct tn_tcp_opts {
    bool has_mss, has_ws, sack_ok, has_ts;
    uint16_t mss;
    uint8_t ws;                /* as sent (values > 14 flagged as an anomaly) */
    uint8_t nsack;             /* SACK blocks present */
    struct tn_sack_block sack[TN_MAX_SACK];
    uint32_t ts_val, ts_ecr;
};

struct tn_tcp {
    uint32_t seq, ack;
    uint8_t flags;
    uint16_t win;              /* raw, unscaled */
    uint16_t urp;
    uint8_t hdr_len;           /* bytes */
    struct tn_tcp_opts opt;
    /* the trace does not carry these (an ns-2 trace: no window, no options): unknown, not 0 */
    bool no_window, no_options;
};

/* Tunnels the packet was found inside (bit set). */
enum {
    TN_TUN_GRE = 0x01,
    TN_TUN_VXLAN = 0x02,
    TN_TUN_GTPU = 0x04,
    TN_TUN_IPIP = 0x08,
    TN_TUN_ERSPAN = 0x10,      /* ERSPAN type I/II/III mirror inside GRE (GRE bit set too) */
};

/* One normalized packet.  Filled completely by tn_dissect (zeroed first). */
struct tn_pkt {
    struct tn_time ts;
    uint64_t num;              /* packet number in the trace, 1-based (copied from the caller) */
    enum tn_pkt_kind kind;
    struct tn_anoms anoms;

    /* network layer (innermost IP header) */
    uint8_t ipver;             /* 4 or 6, 0 when no IP */
    struct tn_addr src, dst;
    uint8_t ipproto;           /* transport protocol number */
    uint8_t ttl;               /* TTL or hop limit */
    uint8_t ecn;               /* low 2 bits of TOS / traffic class */
    uint16_t ip_id;            /* IPv4 identification (0 for IPv6) */
    bool fragment;             /* a fragment (first or later); transport not dissected unless first */
    uint8_t tunnels;           /* TN_TUN_* bits */
    uint32_t ifindex;          /* Linux cooked v2: the interface the packet passed (0: unknown) */
    uint8_t vlan_depth;        /* 802.1Q/802.1ad tags seen */
    uint8_t mpls_depth;        /* MPLS labels seen */

    /* transport */
    uint16_t sport, dport;
    struct tn_tcp tcp;         /* valid when kind == TN_PK_TCP */
    struct tn_dfcp dfcp;       /* valid when kind == TN_PK_DFCP */

    /* payload: len is what the IP lengths say (on the wire); caplen what was captured.
     * For TCP and DFCP payload points just past the transport header (even when caplen is 0). */
    uint32_t payload_len;
    uint32_t payload_caplen;
    const uint8_t *payload;    /* borrowed: valid until the next frame is read */
    uint32_t wirelen, caplen;  /* of the whole frame */
};

struct tn_dissect_cfg {
    uint8_t dfcp_ipproto;      /* default 253 */
    uint16_t dfcp_udp_port;    /* default 9253 */
};

void tn_dissect_cfg_default(struct tn_dissect_cfg *cfg);

/* One link type tn_dissect reads: a row of the link table in dissect_link.c (tcpdump's
 * printers[]).  Adding a link type is adding a row there (docs/HACKING.md). */
struct tn_link_info {
    int linktype;              /* LINKTYPE_ value (linktype.h) */
    const char *name;          /* its name in tcpdump.org/linktypes.html, without LINKTYPE_ */
};

/* Row i of the link table, for i < tn_dissect_link_count(); NULL past the end. */
const struct tn_link_info *tn_dissect_link_info(size_t i);
size_t tn_dissect_link_count(void);

/* Dissect one frame.  Returns enum tn_dis_status; out is always fully set (kind TN_PK_OTHER when
 * nothing of interest was found).  ts and num are copied into out unchanged. */
int tn_dissect(const struct tn_dissect_cfg *cfg, int linktype, const uint8_t *data, uint32_t caplen,
               uint32_t wirelen, struct tn_time ts, uint64_t num, struct tn_pkt *out);

/* ---- layout: where a frame's headers are, for rewriting a copy of it (dissect_rewrite.c) ----
 * Recorded, outermost first, by tn_dissect_layout during the same walk that fills the packet
 * record, so the rewriter sees exactly the headers the dissector understood. */
enum tn_lay_kind {
    TN_LAY_LINKADDR = 1,       /* link-layer addresses (MAC, cooked, 802.11, NFLOG hardware
                                * address): len bytes at off */
    TN_LAY_IP4,                /* IPv4 header, len = IHL bytes (all captured) */
    TN_LAY_IP6,                /* IPv6 fixed header (40 bytes) */
    TN_LAY_ADDR4,              /* one IPv4 address inside a message (ICMP redirect gateway) */
    TN_LAY_ADDR6,              /* one IPv6 address inside a message (neighbour discovery target) */
    TN_LAY_ARP,                /* ARP/RARP packet, len = 8 + 2 (hln + pln) bytes */
    TN_LAY_TCP,                /* transport headers: len = header bytes, wire = the segment's */
    TN_LAY_UDP,                /*   length on the wire (from the IP lengths), up = its IP */
    TN_LAY_ICMP4,
    TN_LAY_ICMP6,
    TN_LAY_TCP_TS,             /* TSval, TSecr of a timestamp option (8 bytes); up = its TCP */
    TN_LAY_CSUM0,              /* a checksum in a quoted header (2 bytes): zeroed, as it was
                                * computed over the original addresses */
    TN_LAY_HDR,                /* a header kept as it is (DFCP, tunnel headers) */
};

struct tn_lay_item {
    uint8_t kind;              /* enum tn_lay_kind */
    uint8_t up;                /* index of the enclosing item (see kinds); TN_LAY_NONE */
    bool quoted;               /* inside an ICMP error: a quote, not a packet of its own */
    uint32_t off, len, wire;
};

#define TN_LAY_MAX 32
#define TN_LAY_NONE 0xff

struct tn_layout {
    unsigned n;
    bool full;                 /* a frame with more than TN_LAY_MAX headers: not rewritable */
    bool payload_ok;           /* the innermost header was parsed completely and what follows
                                * it is payload, not a header we could not read */
    uint32_t hdr_end;          /* first byte after the headers: where payload is cut */
    struct tn_lay_item it[TN_LAY_MAX];
};

/* tn_dissect, also filling lay (which may be NULL). */
int tn_dissect_layout(const struct tn_dissect_cfg *cfg, int linktype, const uint8_t *data,
                      uint32_t caplen, uint32_t wirelen, struct tn_time ts, uint64_t num,
                      struct tn_pkt *out, struct tn_layout *lay);

/* How tn_rewrite changes a copy of a frame. */
struct tn_rewrite_ops {
    /* Map the address (family 4 or 6) in place; *ts_off gets its host's time stamp offset. */
    void (*addr)(void *ctx, uint8_t family, uint8_t *addr, uint32_t *ts_off);
    void *ctx;
    bool keep_payload;         /* else cut after the headers (caplen shrinks, lengths stay) */
    bool rebase_ts;            /* TSval += offset of the source, TSecr += that of the
                                * destination (when ACK is set, RFC 7323 section 3.2) */
};

/* Rewrite buf, the caplen captured bytes of a frame dissected into lay: every IPv4/IPv6
 * address the layout names (outer and tunnelled headers, ARP, ICMP quotes, neighbour
 * discovery) through ops->addr, link-layer addresses zeroed, payload cut, time stamps rebased,
 * and checksums recomputed where the whole covered data is kept, else zeroed (IPv4 header
 * checksums are always recomputed).  Returns the new captured length; 0 when the layout is
 * not trustworthy (lay->full) and the frame must not be written. */
uint32_t tn_rewrite(const struct tn_layout *lay, uint8_t *buf, uint32_t caplen,
                    const struct tn_rewrite_ops *ops);

/* True when the link type has a row in the link table. */
bool tn_dissect_link_supported(int linktype);

/* ---- a packet record as bytes (dissect_pack.c): what one rank of an MPI job sends to the rank
 * that owns the packet's connection (docs/cluster.md).  Every field of struct tn_pkt but the
 * payload pointer (analysis reads only the payload's lengths); IPv4 addresses take 4 bytes,
 * SACK blocks only those present, the TCP or DFCP part only for its kind.  Native byte order:
 * the ranks of one job run the same binary. */
#define TN_PKT_PACK_MAX 192

/* Write p into out (TN_PKT_PACK_MAX bytes at least); returns the bytes written. */
size_t tn_pkt_pack(const struct tn_pkt *p, uint8_t *out);

/* Read one record of n bytes at in into *p (zeroed first, payload NULL).  Returns the bytes
 * read, or 0 when the record is cut or malformed. */
size_t tn_pkt_unpack(const uint8_t *in, size_t n, struct tn_pkt *p);

#endif
