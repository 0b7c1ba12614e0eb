/* fuzz_dissect.c - libFuzzer target: the first byte picks the link type, the rest is the frame. */
#include <stddef.h>
#include <stdint.h>

#include "dissect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const int links[] = {TN_LINK_ETHERNET, TN_LINK_RAW, TN_LINK_NULL, TN_LINK_LOOP,
                                TN_LINK_LINUX_SLL, TN_LINK_LINUX_SLL2, TN_LINK_IPV4, TN_LINK_IPV6,
                                TN_LINK_PPP, TN_LINK_C_HDLC, TN_LINK_FDDI, TN_LINK_NFLOG,
                                TN_LINK_PPI, TN_LINK_IEEE802_11, TN_LINK_RADIOTAP};
    if (size < 1)
        return 0;
    struct tn_dissect_cfg cfg;
    tn_dissect_cfg_default(&cfg);
    struct tn_pkt p;
    struct tn_time ts = {0, 0};
    int link = links[data[0] % (sizeof links / sizeof links[0])];
    uint32_t len = (uint32_t)(size - 1);
    /* the wire length is sometimes larger than what was captured (snap length) */
    uint32_t wire = (data[0] & 0x80) ? len + 1000 : len;
    tn_dissect(&cfg, link, data + 1, len, wire, ts, 1, &p);
    return 0;
}
