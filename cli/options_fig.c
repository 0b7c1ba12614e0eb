/* options_fig.c - the options of paper figures and experiments (issue 14): flow identities,
 * significant connections, averaging windows, figure sizes, titles and legends. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "capture.h"
#include "options.h"
#include "render.h"

/* A --flow NAME=FILTER rule: the connection is the flow when a packet of it, either way, would
 * pass the BPF filter (capture.h tn_flow_filter: headers made up from the 5-tuple). */
struct flow_bpf {
    struct tn_flow_filter *f;
    const uint8_t *dfcp_ipproto;   /* the run's DFCP protocol number (--dfcp-proto) */
};

static bool flow_bpf_match(void *arg, const struct tn_conn *c)
{
    struct flow_bpf *b = arg;
    uint8_t ipproto = c->proto == TN_PK_DFCP ? *b->dfcp_ipproto : 6;
    int fam = c->a.family == 6 ? 6 : 4;
    return tn_flow_filter_match(b->f, fam, c->a.a, c->b.a, ipproto, c->a_port, c->b_port) ||
           tn_flow_filter_match(b->f, fam, c->b.a, c->a.a, ipproto, c->b_port, c->a_port);
}

void tn_options_flow_rules_free(struct tn_options *o)
{
    for (int i = 0; i < o->nflow_rules; i++) {
        struct flow_bpf *b = o->flow_rules[i].match_arg;
        if (b)
            tn_flow_filter_free(b->f);
        free(b);
    }
    free(o->flow_rules);
    o->flow_rules = NULL;
    o->nflow_rules = 0;
}

static int flow(struct tn_options *o, const char *arg, struct tn_err *err)
{
    struct tn_flow_rule r;
    int rc = tn_flow_rule_parse(arg, &r, err);
    if (rc)
        return rc;
    if (r.filter[0]) {
        struct tn_flow_filter *f;
        struct tn_err why;
        if (tn_flow_filter_new(&f, r.filter, &why) < 0)
            return tn_err_set(err, TN_EUSAGE,
                              "--flow %s: %s (SPEC is client=, server=, host=, port=, proto= terms or a BPF filter)",
                              r.name, why.msg);
        struct flow_bpf *b = tn_xcalloc(1, sizeof *b);
        b->f = f;
        b->dfcp_ipproto = &o->dfcp_ipproto;
        r.match = flow_bpf_match;
        r.match_arg = b;
    }
    o->flow_rules = tn_xrealloc(o->flow_rules, (size_t)(o->nflow_rules + 1) * sizeof *o->flow_rules);
    o->flow_rules[o->nflow_rules++] = r;
    return 0;
}

/* FROM:TO in seconds from the trace's first packet; either may be empty ("2:", ":10"). */
static int window(struct tn_options *o, const char *arg, struct tn_err *err)
{
    const char *colon = strchr(arg, ':');
    double from = 0, to = 0;
    char *end;
    if (!colon || (colon == arg && !colon[1]))
        goto bad;
    if (colon != arg) {
        from = strtod(arg, &end);
        if (end != colon || from < 0)
            goto bad;
    }
    if (colon[1]) {
        to = strtod(colon + 1, &end);
        if (*end || to <= from)
            goto bad;
    }
    o->exp_window = TN_EXPW_FIXED;
    o->win_from_ns = (int64_t)llround(from * 1e9);
    o->win_to_ns = (int64_t)llround(to * 1e9);
    return 0;
bad:
    return tn_err_set(err, TN_EUSAGE, "--window: '%s' is not FROM:TO in seconds (TO after FROM; one may be empty)",
                      arg);
}

/* WxH[unit][@DPI]: unit pt (default), in, cm or mm; DPI sets the PNG pixels per inch. */
int tn_options_plot_size(struct tn_options *o, const char *arg, struct tn_err *err)
{
    static const struct {
        const char *name;
        double pt;             /* points per unit: 72 per inch */
    } units[] = {{"pt", 1}, {"in", 72}, {"cm", 72 / 2.54}, {"mm", 72 / 25.4}, {"", 1}};
    char *end;
    double w = strtod(arg, &end);
    if (end == arg || *end != 'x')
        goto bad;
    const char *hs = end + 1;
    double h = strtod(hs, &end);
    if (end == hs)
        goto bad;
    const char *at = strchr(end, '@');
    size_t ulen = at ? (size_t)(at - end) : strlen(end);
    double per = 0;
    for (size_t i = 0; i < TN_ARRAY_LEN(units) && !per; i++)
        if (strlen(units[i].name) == ulen && strncmp(end, units[i].name, ulen) == 0)
            per = units[i].pt;
    if (!per)
        goto bad;
    w *= per;
    h *= per;
    if (!(w >= 120 && h >= 90 && w <= 10000 && h <= 10000))
        goto bad;
    if (at) {
        double dpi = strtod(at + 1, &end);
        if (end == at + 1 || *end || dpi < 18 || dpi > 720)
            goto bad;
        o->plot_scale = dpi / 72;   /* PNG pixels per point */
    }
    o->plot_width = (int)lround(w);
    o->plot_height = (int)lround(h);
    return 0;
bad:
    return tn_err_set(err, TN_EUSAGE,
                      "--plot-size: '%s' is not WxH[pt|in|cm|mm][@DPI] (at least 120x90 pt, DPI 18-720), "
                      "e.g. 252x180pt or 3.5x2.5in@300", arg);
}

int tn_options_parse_fig(struct tn_options *o, const char *name, const char *arg, struct tn_err *err)
{
    if (!strcmp(name, "flow"))
        return flow(o, arg, err);
    if (!strcmp(name, "all-connections")) {
        o->all_connections = true;
        return 0;
    }
    if (!strcmp(name, "window"))
        return window(o, arg, err);
    if (!strcmp(name, "steady-state")) {
        o->exp_window = TN_EXPW_STEADY;
        return 0;
    }
    if (!strcmp(name, "transfer-period")) {
        o->exp_window = TN_EXPW_DATA;
        return 0;
    }
    if (!strcmp(name, "link-rate")) {
        char *end;
        double v = strtod(arg, &end);
        double mul = *end == 'k' ? 1e3 : *end == 'M' ? 1e6 : *end == 'G' ? 1e9 : *end ? 0 : 1;
        if (mul && *end)
            end++;
        if (!mul || *end || !(v > 0) || v * mul > 1e15)
            return tn_err_set(err, TN_EUSAGE, "--link-rate: '%s' is not a rate in bit/s (e.g. 10M)", arg);
        o->link_rate_bps = v * mul;
        return 0;
    }
    if (!strcmp(name, "time-base")) {
        if (strcmp(arg, "trace") && strcmp(arg, "conn"))
            return tn_err_set(err, TN_EUSAGE, "--time-base: '%s' is not trace or conn", arg);
        o->time_base_conn = !strcmp(arg, "conn");
        return 0;
    }
    if (!strcmp(name, "no-title")) {
        o->plot_no_title = true;
        return 0;
    }
    if (!strcmp(name, "legend")) {
        static const char *const pos[] = {"below", "right", "inside", "off"};
        for (size_t i = 0; i < TN_ARRAY_LEN(pos); i++)
            if (!strcmp(arg, pos[i])) {
                o->plot_legend = (int)i;
                return 0;
            }
        return tn_err_set(err, TN_EUSAGE, "--legend: '%s' is not below, right, inside or off", arg);
    }
    if (!strcmp(name, "legend-by")) {
        static const char *const by[] = {"label", "proto", "host"};
        for (size_t i = 0; i < TN_ARRAY_LEN(by); i++)
            if (!strcmp(arg, by[i])) {
                o->plot_legend_by = (int)i;
                return 0;
            }
        return tn_err_set(err, TN_EUSAGE, "--legend-by: '%s' is not label, proto or host", arg);
    }
    return tn_err_set(err, TN_EUSAGE, "unknown option --%s (try --help)", name);
}

void tn_options_plot_opts(const struct tn_options *o, struct tn_plot_opts *po)
{
    *po = (struct tn_plot_opts){
        .format = o->plot_format,
        .width = o->plot_width,
        .height = o->plot_height,
        .scale = o->plot_scale,
        .no_title = o->plot_no_title,
        .legend = o->plot_legend,
        .legend_by = o->plot_legend_by,
        .all_connections = o->all_connections,
        .rules = o->flow_rules,
        .nrules = (size_t)o->nflow_rules,
    };
}
