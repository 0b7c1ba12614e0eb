/* render_json.c - --json: the records of connections.csv, senders.csv and events.csv as JSON
 * Lines (one object per line, "type" first: "connection", "sender", "event"), from the same
 * column tables, for jq and notebooks.  Written through safeout, like the CSV. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "render_cols.h"
#include "safeout.h"

static void write_all(FILE *out, const struct tn_analyzer *a, const struct tn_view *v)
{
    for (size_t i = 0; i < tn_analyzer_conn_count(a); i++) {
        const struct tn_conn *c = tn_analyzer_conn(a, i);
        if (!tn_selected(v->sel, c->idx))
            continue;
        tn_cols_json_row(out, "connection", tn_conn_cols, tn_conn_ncols, c);
        for (unsigned d = 0; d < 2; d++) {
            struct tn_sender_row row = {c, d};
            if (tn_sender_sent_data(c, d))
                tn_cols_json_row(out, "sender", tn_sender_cols, tn_sender_ncols, &row);
        }
        for (size_t k = 0; k < c->nevents; k++) {
            struct tn_event_row row = {c, &c->events[k], v};
            if (tn_view_time(v, c, c->events[k].t_ns))
                tn_cols_json_row(out, "event", tn_event_cols, tn_event_ncols, &row);
        }
    }
}

int tn_json_write(const char *path, const struct tn_analyzer *a, const struct tn_view *v,
                  struct tn_err *err)
{
    if (strcmp(path, "-") == 0) {
        write_all(stdout, a, v);
        return fflush(stdout) == 0 ? 0 : tn_err_set(err, TN_EIO, "--json: standard output: %s", strerror(errno));
    }
    struct tn_safeout o;
    int r = tn_safeout_open(&o, path, err);
    if (r < 0)
        return r;
    write_all(o.fp, a, v);
    return tn_safeout_commit(&o, err);
}
