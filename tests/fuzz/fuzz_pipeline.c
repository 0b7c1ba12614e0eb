/* fuzz_pipeline.c - libFuzzer target: frames split by a 2-byte length prefix go through dissect
 * and the whole analysis (with every recording on), then the analyzer is finished and freed:
 * reaches state-machine bugs that single packets cannot. */
#include <stddef.h>
#include <stdint.h>

#include "analysis.h"
#include "dissect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every frame is dissected into a packet that lives in this function's frame only, as in the
 * program's read loop: anything the analysis keeps pointing at a packet is caught by ASan's
 * detect_stack_use_after_return once tn_analyzer_finish runs (a packet in the caller's scope
 * hid that use after return of the slow-start-end event). */
__attribute__((noinline)) static void feed(struct tn_analyzer *an, const uint8_t *data, size_t size)
{
    struct tn_dissect_cfg cfg;
    tn_dissect_cfg_default(&cfg);
    size_t off = 0;
    uint64_t num = 0;
    while (off + 3 <= size) {
        size_t len = (size_t)data[off] << 8 | data[off + 1];
        int link = data[off + 2] & 1 ? TN_LINK_RAW : TN_LINK_ETHERNET;
        off += 3;
        if (len > size - off)
            len = size - off;
        struct tn_pkt p;
        struct tn_time ts = {1000 + (int64_t)(num / 8), (uint32_t)(num % 8) * 125000000u};
        int st = tn_dissect(&cfg, link, data + off, (uint32_t)len, (uint32_t)len, ts, ++num, &p);
        tn_analyzer_add(an, &p, st, "fuzz");
        off += len;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct tn_analysis_cfg acfg = {.record_events = true, .record_series = true, .record_packets = true};
    struct tn_analyzer *an = tn_analyzer_new(&acfg);
    feed(an, data, size);
    tn_analyzer_finish(an);
    tn_analyzer_free(an);
    return 0;
}
