/* fuzz_dissect.c - libFuzzer target: the first byte picks a row of the dissector's link table,
 * the rest is the frame.  A new link type is fuzzed as soon as it has a row there. */
#include <stddef.h>
#include <stdint.h>

#include "dissect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    struct tn_dissect_cfg cfg;
    tn_dissect_cfg_default(&cfg);
    struct tn_pkt p;
    struct tn_time ts = {0, 0};
    int link = tn_dissect_link_info((data[0] & 0x7f) % tn_dissect_link_count())->linktype;
    uint32_t len = (uint32_t)(size - 1);
    /* the wire length is sometimes larger than what was captured (snap length) */
    uint32_t wire = (data[0] & 0x80) ? len + 1000 : len;
    tn_dissect(&cfg, link, data + 1, len, wire, ts, 1, &p);
    return 0;
}
