/* render_csv_dfcp.c - dfcp_blocks.csv of csv-contract.md: one row per DFCP block. */
#include "render.h"
#include "render_csvfile.h"

static void block_row(struct tn_csvfile *f, const struct tn_conn *c, const struct tn_dfcp_block *b)
{
    bool data = b->symbols_seen > 0 || b->first_ns;
    tn_csvfile_u64(f, c->idx);
    tn_csvfile_u64(f, b->block);
    tn_csvfile_u64(f, b->symbols_seen);
    tn_csvfile_u64(f, b->n);
    if (data) {
        tn_csvfile_ns(f, b->first_ns);
        tn_csvfile_ns(f, b->last_ns);
    } else {                   /* known from its BACK only: no symbol passed the monitor */
        tn_csvfile_str(f, NULL);
        tn_csvfile_str(f, NULL);
    }
    if (b->back_ns)
        tn_csvfile_ns(f, b->back_ns);
    else
        tn_csvfile_str(f, NULL);
    tn_csvfile_str(f, tn_dfcp_outcome_name((enum tn_dfcp_outcome)b->outcome));
    tn_csvfile_end_row(f);
}

/* A block is in the view when any of its times (first symbol, last symbol, BACK) is. */
static bool block_in_view(const struct tn_view *v, const struct tn_dfcp_block *b)
{
    return (b->first_ns && tn_view_time(v, b->first_ns)) ||
           (b->last_ns && tn_view_time(v, b->last_ns)) ||
           (b->back_ns && tn_view_time(v, b->back_ns));
}

int tn_csv_write_dfcp_blocks(const char *dir, const struct tn_analyzer *a, const struct tn_view *v,
                             struct tn_err *err)
{
    struct tn_csvfile f;
    int r = tn_csvfile_open(&f, dir, "dfcp_blocks.csv",
                            "conn,block,symbols_seen,symbols_expected,first_s,last_s,back_s,outcome",
                            err);
    if (r)
        return r;
    for (size_t i = 0; i < tn_analyzer_conn_count(a); i++) {
        const struct tn_conn *c = tn_analyzer_conn(a, i);
        if (c->proto != TN_PK_DFCP || !tn_selected(v->sel, c->idx))
            continue;
        for (size_t k = 0; k < c->nblocks; k++)
            if (block_in_view(v, &c->blocks[k]))
                block_row(&f, c, &c->blocks[k]);
    }
    return tn_csvfile_close(&f, err);
}
