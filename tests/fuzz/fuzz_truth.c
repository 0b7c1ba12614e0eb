/* fuzz_truth.c - libFuzzer target: the input is a kernel truth file (the lab's tcp_probe.csv
 * when it starts with its header, else tracefs text), loaded and graded against an analysis of
 * one small hand-made connection so that the comparison runs too. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "analysis.h"
#include "dissect.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* 10.0.0.1:1000 -> 10.0.0.2:80 SYN, the truth files' most common pair in the seeds */
static const uint8_t syn[40] = {0x45, 0, 0, 40, 0, 1, 0, 0, 64, 6, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2,
                                0x03, 0xe8, 0, 80, 0, 0, 0, 1, 0, 0, 0, 0, 0x50, 0x02, 0xff, 0xff,
                                0, 0, 0, 0};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char dir[4096], path[4200];
    if (tn_fuzz_mkdtemp(dir) < 0)
        return 0;
    /* the loader also reads tcp_cong_state.csv and tcp_retransmit.csv beside the file: the
     * same bytes serve as all three */
    static const char *const names[] = {"tcp_probe.csv", "tcp_cong_state.csv", "tcp_retransmit.csv"};
    for (size_t i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        FILE *fp = fopen(path, "wb");
        if (fp) {
            fwrite(data, 1, size, fp);
            fclose(fp);
        }
    }
    snprintf(path, sizeof path, "%s/tcp_probe.csv", dir);
    struct tn_truth *t;
    struct tn_err err;
    if (tn_truth_load(path, &t, &err) == 0) {
        struct tn_analysis_cfg acfg = {.record_events = true, .record_series = true};
        struct tn_analyzer *an = tn_analyzer_new(&acfg);
        struct tn_dissect_cfg cfg;
        tn_dissect_cfg_default(&cfg);
        struct tn_pkt p;
        int st = tn_dissect(&cfg, TN_LINK_RAW, syn, sizeof syn, sizeof syn,
                            (struct tn_time){1796044084, 0}, 1, &p);
        tn_analyzer_add(an, &p, st, "fuzz");
        tn_analyzer_finish(an);
        struct tn_accuracy acc[8];
        (void)tn_truth_compare(t, an, acc, 8);
        tn_analyzer_free(an);
        tn_truth_free(t);
    }
    tn_fuzz_rmtree(dir);
    return 0;
}
