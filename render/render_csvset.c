/* render_csvset.c - the CSV files with rows per connection, written in one pass over the
 * connections (issue 12): a connection retired offline comes back from the store once for all
 * the files, not once per file.  Each file still goes to its own temporary and is renamed when
 * complete; its bytes are those of a pass of its own (the rows of a file are in connection order
 * either way). */
#include <string.h>

#include "render.h"
#include "render_cols.h"

struct csv_kind {
    const char *name;
    const struct tn_col *cols;
    const size_t *ncols;
    void (*rows)(struct tn_csvfile *f, const struct tn_conn *c, const struct tn_view *v);
};

/* In the order of the outputs table (the order warnings come in). */
static const struct csv_kind kinds[TN_CSV_NFILES] = {
    {"connections.csv", tn_conn_cols, &tn_conn_ncols, tn_csv_conn_rows},
    {"senders.csv", tn_sender_cols, &tn_sender_ncols, tn_csv_sender_rows},
    {"events.csv", tn_event_cols, &tn_event_ncols, tn_csv_event_rows},
    {"series.csv", tn_series_cols, &tn_series_ncols, tn_csv_conn_series_rows},
    {"packets.csv", tn_packet_cols, &tn_packet_ncols, tn_csv_packet_rows},
    {"dfcp_blocks.csv", tn_block_cols, &tn_block_ncols, tn_csv_block_rows},
};
enum { SERIES = 3 };

static int open_kind(const struct csv_kind *k, const char *dir, struct tn_csvfile *f, struct tn_err *err)
{
    char header[4096];
    tn_cols_header(k->cols, *k->ncols, header, sizeof header);
    return tn_csvfile_open(f, dir, k->name, header, err);
}

size_t tn_csv_write_all(const char *dir, const struct tn_analyzer *a, const struct tn_view *v,
                        const struct tn_multi *m, struct tn_err errs[TN_CSV_NFILES])
{
    struct tn_csvfile f[TN_CSV_NFILES];
    bool open[TN_CSV_NFILES];
    size_t nerr = 0;
    for (size_t k = 0; k < TN_CSV_NFILES; k++) {
        open[k] = open_kind(&kinds[k], dir, &f[k], &errs[nerr]) == 0;
        if (!open[k])
            nerr++;
    }
    size_t n = tn_analyzer_conn_count(a);
    for (size_t i = 0; i < n; i++) {
        const struct tn_conn *c = tn_analyzer_conn(a, i);
        for (size_t k = 0; k < TN_CSV_NFILES; k++)
            if (open[k])
                kinds[k].rows(&f[k], c, v);
    }
    if (m && open[SERIES])
        tn_csv_multi_series_rows(&f[SERIES], m, v);
    for (size_t k = 0; k < TN_CSV_NFILES; k++)
        if (open[k] && tn_csvfile_close(&f[k], &errs[nerr]) != 0)
            nerr++;
    return nerr;
}

int tn_csv_write_file(const char *dir, const char *name, const struct tn_analyzer *a, const struct tn_view *v,
                      struct tn_err *err)
{
    static const struct tn_view all;   /* every connection, the whole trace */
    const struct csv_kind *k = NULL;
    for (size_t i = 0; i < TN_CSV_NFILES && !k; i++)
        if (strcmp(kinds[i].name, name) == 0)
            k = &kinds[i];
    TN_BUG_ON(!k);
    if (!v)
        v = &all;
    struct tn_csvfile f;
    int r = open_kind(k, dir, &f, err);
    if (r)
        return r;
    for (size_t i = 0; i < tn_analyzer_conn_count(a); i++)
        k->rows(&f, tn_analyzer_conn(a, i), v);
    return tn_csvfile_close(&f, err);
}
