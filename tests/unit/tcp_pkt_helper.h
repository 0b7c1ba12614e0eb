/* tcp_pkt_helper.h - hand-made TCP packets for the analysis tests. */
#ifndef TN_TEST_TCP_PKT_HELPER_H
#define TN_TEST_TCP_PKT_HELPER_H

#include <stdbool.h>
#include <stdint.h>

#include "dissect.h"

/* A dissected IPv4 TCP packet between the client 10.0.0.1:40000 and the server 10.0.0.2:80,
 * len payload bytes, as if captured at t_ns (ns since the epoch) as packet number num. */
struct tn_pkt tn_test_tcp(bool from_client, uint32_t seq, uint32_t ack, uint8_t flags, uint16_t win,
                          uint32_t len, int64_t t_ns, uint64_t num);

#endif
