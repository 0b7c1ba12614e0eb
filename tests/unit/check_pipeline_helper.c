/* check_pipeline_helper.c - tn_test_load: the pipeline of cli/main.c without the CLI, for tests.
 * (Named check_* so the tests' source glob picks it up; it holds no suite.) */
#include <stddef.h>

#include "capture.h"
#include "dissect.h"
#include "pipeline_helper.h"

struct tn_analyzer *tn_test_load(const char *path, const struct tn_analysis_cfg *cfg)
{
    return tn_test_load_missing(path, cfg, NULL, NULL);
}

struct tn_analyzer *tn_test_load_missing(const char *path, const struct tn_analysis_cfg *cfg,
                                         bool (*missed)(uint64_t num, void *arg), void *arg)
{
    struct tn_capture *cap;
    struct tn_err err;
    if (tn_capture_open_file(&cap, path, &err) < 0)
        return NULL;
    struct tn_dissect_cfg dcfg;
    tn_dissect_cfg_default(&dcfg);
    struct tn_analyzer *an = tn_analyzer_new(cfg);
    struct tn_frame f;
    struct tn_pkt p;
    int r;
    while ((r = tn_capture_next(cap, &f, &err)) != 0) {
        if (r < 0)
            continue;   /* a damaged record: the reader moves on, as the CLI does */
        if (missed && missed(f.num, arg))
            continue;
        int st = tn_dissect(&dcfg, f.linktype, f.data, f.caplen, f.wirelen, f.ts, f.num, &p);
        tn_analyzer_add(an, &p, st, path);
    }
    tn_analyzer_finish(an);
    tn_capture_close(cap, &err);
    return an;
}
