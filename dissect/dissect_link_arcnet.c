/* dissect_link_arcnet.c - ARCNET as Linux captures it (LINKTYPE_ARCNET_LINUX 129).
 * References: tcpdump.org/linktypes.html (LINKTYPE_ARCNET_LINUX: the ATA 878.1 packet without
 * start delimiter, length or FCS, with a 2-byte offset field after the destination); RFC 1201
 * section 3 (IP over ARCNET: protocol 212, then a split flag and a sequence number); RFC 1051
 * (the older encapsulation: protocol 240, nothing after it); RFC 2497 (IPv6: protocol 196, the
 * RFC 1201 header).  Linux hands over reassembled packets, never exception frames (tcpdump's
 * print-arcnet.c).
 *
 *   | source | destination | offset (2) | protocol | [ split flag | sequence (2) ] | datagram
 */
#include "dissect_int.h"

#define ARC_LINUX_HDR_LEN 5      /* source, destination, offset, protocol */
#define ARC_RFC1201_EXTRA 3      /* split flag, sequence number */

enum {
    ARCTYPE_IP_RFC1201 = 212,
    ARCTYPE_INET6 = 196,
    ARCTYPE_IP_RFC1051 = 240,
};

void tn_dis_arcnet(struct tn_dis *d, struct tn_cursor *c)
{
    if (!tn_dis_hdr(d, c, ARC_LINUX_HDR_LEN, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
        return;
    tn_dis_lay(d, c, TN_LAY_LINKADDR, 2, 2, TN_LAY_NONE);   /* source, destination */
    tn_cur_skip(c, 4);
    uint8_t proto = tn_cur_u8(c);
    if (proto == ARCTYPE_IP_RFC1051) {
        tn_dis_ip(d, c, 4);
        return;
    }
    if (proto != ARCTYPE_IP_RFC1201 && proto != ARCTYPE_INET6)
        return;  /* ARP, IPX, AppleTalk, ...: kind OTHER */
    if (!tn_dis_hdr(d, c, ARC_RFC1201_EXTRA, TN_ANOM_LINK_TRUNCATED, TN_ANOM_LINK_TRUNCATED))
        return;
    tn_cur_skip(c, ARC_RFC1201_EXTRA);
    tn_dis_ip(d, c, proto == ARCTYPE_INET6 ? 6 : 4);
}
