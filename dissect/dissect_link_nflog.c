/* dissect_link_nflog.c - Linux NFLOG (LINKTYPE_NFLOG 239): packets logged by netfilter's NFLOG
 * target, as libpcap's nflog capture writes them.
 * Reference: tcpdump.org/linktypes.html, LINKTYPE_NFLOG (header and TLV layout).
 */
#include "dissect_int.h"

#define NFLOG_HDR_LEN 4     /* family, version, resource id */
#define NFLOG_TLV_HDR_LEN 4 /* length, type */
#define NFLOG_MAX_TLVS 64   /* TLVs walked before the payload; more is not a real log message */

enum {
    NFULA_HWADDR = 8,         /* the link-layer addresses (linux/netfilter/nfnetlink_log.h) */
    NFULA_PAYLOAD = 9,
    NFULA_HWHEADER = 16,
    NFULA_L2HDR = 21,
    NFULA_TYPE_MASK = 0x7fff, /* the top bit of the type marks a nested attribute */
    NF_AF_INET = 2,
    NF_AF_INET6 = 10,
};

/* A 4-byte header, then TLVs of length (host order, little-endian on the machines that write
 * them, including the 4-byte TLV header) and type, each padded to 4 bytes; type 9 holds the
 * packet from its IP header on. */
void tn_dis_nflog(struct tn_dis *d, struct tn_cursor *c)
{
    if (!tn_dis_hdr(d, c, NFLOG_HDR_LEN, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
        return;
    uint8_t family = tn_cur_u8(c);
    tn_cur_skip(c, 3);
    for (unsigned n = 0; n < NFLOG_MAX_TLVS; n++) {
        if (!tn_dis_hdr(d, c, NFLOG_TLV_HDR_LEN, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
            return;
        uint16_t len = tn_cur_le16(c), type = tn_cur_le16(c) & NFULA_TYPE_MASK;
        if (len < NFLOG_TLV_HDR_LEN) {
            tn_dis_flag(d, TN_ANOM_LINK_TRUNCATED, TN_DIS_MALFORMED);
            return;
        }
        size_t body = (size_t)len - NFLOG_TLV_HDR_LEN;
        if (type == NFULA_PAYLOAD) {
            struct tn_cursor pl;
            tn_dis_push(d, c, body, &pl);
            if (family == NF_AF_INET)
                tn_dis_ip(d, &pl, 4);
            else if (family == NF_AF_INET6)
                tn_dis_ip(d, &pl, 6);
            return;
        }
        size_t padded = (body + 3) & ~(size_t)3;
        if (!tn_dis_hdr(d, c, padded, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
            return;
        if (type == NFULA_HWADDR || type == NFULA_HWHEADER || type == NFULA_L2HDR)
            tn_dis_lay(d, c, TN_LAY_LINKADDR, body, body, TN_LAY_NONE);
        tn_cur_skip(c, padded);
    }
}
