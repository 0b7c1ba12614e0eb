/* check_tcp_pkt_helper.c - tn_test_tcp (tcp_pkt_helper.h).
 * (Named check_* so the tests' source glob picks it up; it holds no suite.) */
#include <string.h>

#include "tcp_pkt_helper.h"

struct tn_pkt tn_test_tcp(bool from_client, uint32_t seq, uint32_t ack, uint8_t flags, uint16_t win,
                          uint32_t len, int64_t t_ns, uint64_t num)
{
    struct tn_pkt p;
    memset(&p, 0, sizeof p);
    p.kind = TN_PK_TCP;
    p.ipver = 4;
    p.src.family = p.dst.family = 4;
    uint8_t c[4] = {10, 0, 0, 1}, s[4] = {10, 0, 0, 2};
    memcpy(p.src.a, from_client ? c : s, 4);
    memcpy(p.dst.a, from_client ? s : c, 4);
    p.sport = from_client ? 40000 : 80;
    p.dport = from_client ? 80 : 40000;
    p.tcp.seq = seq;
    p.tcp.ack = ack;
    p.tcp.flags = flags;
    p.tcp.win = win;
    p.payload_len = p.payload_caplen = len;
    p.wirelen = p.caplen = 54 + len;
    p.ts.sec = t_ns / 1000000000;
    p.ts.nsec = (uint32_t)(t_ns % 1000000000);
    p.num = num;
    return p;
}
