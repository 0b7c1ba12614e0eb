/* render_csv_dfcp.c - dfcp_blocks.csv of csv-contract.md: one row per DFCP block, from its
 * column table (render_cols.h). */
#include "render.h"
#include "render_cols.h"
#include "render_csvfile.h"

#define TN_ROW_block                                                                         \
    const struct tn_block_row *w = row;                                                   \
    const struct tn_dfcp_block *b = w->b;                                                 \
    /* a block known from its BACK only: no symbol passed the monitor, no times of its own */ \
    bool data = b->symbols_seen > 0 || b->first_ns;                                       \
    (void)data

#define BLOCK_COLUMNS(X, P)                                                                        \
    X(P, conn, UINT, 0, tn_cell_u(o, true, w->c->idx))                                             \
    X(P, block, UINT, 0, tn_cell_u(o, true, b->block))                                             \
    X(P, symbols_seen, UINT, 0, tn_cell_u(o, true, b->symbols_seen))                               \
    X(P, symbols_expected, UINT, 0, tn_cell_u(o, true, b->n))                                      \
    X(P, first_s, TIME, 0, tn_cell_t(o, data, b->first_ns))                                        \
    X(P, last_s, TIME, 0, tn_cell_t(o, data, b->last_ns))                                          \
    X(P, back_s, TIME, 0, tn_cell_t(o, b->back_ns != 0, b->back_ns))                               \
    X(P, outcome, TEXT, 0, tn_cell_s(o, true, tn_dfcp_outcome_name((enum tn_dfcp_outcome)b->outcome)))

BLOCK_COLUMNS(TN_COL_GETTER, block)

const struct tn_col tn_block_cols[] = {BLOCK_COLUMNS(TN_COL_ENTRY, block)};
const size_t tn_block_ncols = TN_ARRAY_LEN(tn_block_cols);

void tn_csv_block_rows(struct tn_csvfile *f, const struct tn_conn *c, const struct tn_view *v)
{
    if (c->proto != TN_PK_DFCP || !tn_selected(v->sel, c->idx))
        return;
    for (size_t k = 0; k < c->nblocks; k++) {
        if (!(c->blocks[k].bflags & TN_DFCP_BF_COUNTED))   /* (--from/--to: as the summary) */
            continue;
        struct tn_block_row row = {c, &c->blocks[k]};
        tn_cols_csv_row(f, tn_block_cols, tn_block_ncols, &row);
    }
}
