/* render_cols.h - private: a table of columns {name, type, value} from which a CSV file's
 * header and rows and the same records as JSON Lines are all written, so that the three can
 * never disagree (every CSV file of csv-contract.md, and --json). */
#ifndef TN_RENDER_COLS_H
#define TN_RENDER_COLS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "render_csvfile.h"

enum tn_col_type {
    TN_COL_UINT,               /* u */
    TN_COL_INT,                /* i */
    TN_COL_REAL,               /* r, printed with the column's decimals */
    TN_COL_TEXT,               /* s */
    TN_COL_TIME,               /* ns since the epoch, printed as seconds.nanoseconds */
};

/* One value; have == false is an empty cell (JSON null): unknown or not applicable. */
struct tn_cell {
    bool have;
    uint64_t u;
    int64_t i;
    double r;
    int64_t ns;
    const char *s;
    int prec;                  /* decimals of a real when own_prec (series.csv: per series) */
    bool own_prec;
    char buf[192];             /* room for text made for this cell */
};

struct tn_col {
    const char *name;
    enum tn_col_type type;
    int prec;                  /* decimals of TN_COL_REAL */
    void (*get)(const void *row, struct tn_cell *out);
};

/* The header row: the names, comma-separated, into buf. */
void tn_cols_header(const struct tn_col *cols, size_t n, char *buf, size_t len);
/* One CSV row of the record row. */
void tn_cols_csv_row(struct tn_csvfile *f, const struct tn_col *cols, size_t n, const void *row);
/* One JSON object on one line: {"type":TYPE,"name":value,...}; numbers as in the CSV. */
void tn_cols_json_row(FILE *out, const char *type, const struct tn_col *cols, size_t n, const void *row);

/* A table is a list macro LIST(X, P) of X(P, name, type, decimals, fill) entries, where fill
 * sets the cell o from the variables that TN_ROW_P declares from the record row:
 *   LIST(TN_COL_GETTER, P)                                    (the value functions)
 *   const struct tn_col table[] = {LIST(TN_COL_ENTRY, P)};    (the table) */
#define TN_COL_GETTER(P, name, type, prec, fill)                \
    static void P##_##name(const void *row, struct tn_cell *o) \
    {                                                           \
        TN_ROW_##P;                                             \
        fill;                                                   \
    }
#define TN_COL_ENTRY(P, name, type, prec, fill) {#name, TN_COL_##type, prec, P##_##name},

/* Helpers of the tables: fill a cell. */
static inline void tn_cell_u(struct tn_cell *o, bool have, uint64_t v) { o->have = have; o->u = v; }
static inline void tn_cell_i(struct tn_cell *o, bool have, int64_t v) { o->have = have; o->i = v; }
static inline void tn_cell_r(struct tn_cell *o, bool have, double v) { o->have = have; o->r = v; }
static inline void tn_cell_s(struct tn_cell *o, bool have, const char *s) { o->have = have && s; o->s = s; }
static inline void tn_cell_t(struct tn_cell *o, bool have, int64_t ns) { o->have = have; o->ns = ns; }
static inline void tn_cell_rp(struct tn_cell *o, bool have, double v, int prec)
{
    tn_cell_r(o, have, v);
    o->prec = prec;
    o->own_prec = true;
}

#include "render.h"

/* The records of the tables. */
struct tn_sender_row {
    const struct tn_conn *c;
    unsigned d;                /* enum tn_dir of the data */
};
struct tn_event_row {
    const struct tn_conn *c;
    const struct tn_event *e;
    const struct tn_view *v;
};
struct tn_series_row {
    unsigned conn;             /* 0: across connections (empty cell) */
    int dir;                   /* enum tn_dir; < 0: none (empty cell) */
    const char *name;
    const struct tn_point *pt;
    int prec;                  /* decimals of the value */
};
struct tn_packet_row {
    const struct tn_conn *c;
    const struct tn_pktrec *r;
    const struct tn_view *v;
};
struct tn_block_row {
    const struct tn_conn *c;
    const struct tn_dfcp_block *b;
};

/* The tables (render_csv_*.c), for the writers and for the test that checks them against
 * docs/csv-contract.md. */
extern const struct tn_col tn_sender_cols[];
extern const size_t tn_sender_ncols;
/* A direction gets a senders.csv row when it sent data. */
bool tn_sender_sent_data(const struct tn_conn *c, unsigned d);
extern const struct tn_col tn_conn_cols[];
extern const size_t tn_conn_ncols;
extern const struct tn_col tn_event_cols[];
extern const size_t tn_event_ncols;
extern const struct tn_col tn_series_cols[];
extern const size_t tn_series_ncols;
extern const struct tn_col tn_packet_cols[];
extern const size_t tn_packet_ncols;
extern const struct tn_col tn_block_cols[];
extern const size_t tn_block_ncols;
extern const struct tn_col tn_exp_cols[];
extern const size_t tn_exp_ncols;

/* The rows of one series in the view (v NULL: all), into series.csv; c is the connection of a
 * per-connection series (its window with --time-base conn), NULL for a multi-flow one. */
void tn_csv_series_rows(struct tn_csvfile *f, unsigned conn, int dir, const char *name, const struct tn_series *s,
                        int prec, const struct tn_view *v, const struct tn_conn *c);

/* The rows connection c gives each CSV file of the view (render_csvset.c writes them in one
 * pass over the connections); nothing when c is not selected. */
void tn_csv_conn_rows(struct tn_csvfile *f, const struct tn_conn *c, const struct tn_view *v);
void tn_csv_sender_rows(struct tn_csvfile *f, const struct tn_conn *c, const struct tn_view *v);
void tn_csv_event_rows(struct tn_csvfile *f, const struct tn_conn *c, const struct tn_view *v);
void tn_csv_conn_series_rows(struct tn_csvfile *f, const struct tn_conn *c, const struct tn_view *v);
void tn_csv_packet_rows(struct tn_csvfile *f, const struct tn_conn *c, const struct tn_view *v);
void tn_csv_block_rows(struct tn_csvfile *f, const struct tn_conn *c, const struct tn_view *v);
/* The multi-flow rows of series.csv (jain_index with empty conn, queue_pkts, queue_bytes,
 * sojourn_ms, queue_delay_ms, queue_est_pkts), after the connections' rows. */
void tn_csv_multi_series_rows(struct tn_csvfile *f, const struct tn_multi *m, const struct tn_view *v);

#endif
