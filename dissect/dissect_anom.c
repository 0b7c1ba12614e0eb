/* dissect_anom.c - name tables: anomalies (from anomalies.def) and DFCP types.
 * Reference: dfcp-wire-format.md "Header" for the DFCP type names. */
#include <stdio.h>

#include "dissect_int.h"

static const char *const anom_names[TN_ANOM_COUNT] = {
#define X(name, sname, text) [TN_ANOM_##name] = sname,
#include "anomalies.def"
#undef X
};

static const char *const anom_texts[TN_ANOM_COUNT] = {
#define X(name, sname, text) [TN_ANOM_##name] = text,
#include "anomalies.def"
#undef X
};

const char *tn_anom_name(enum tn_anom_kind k)
{
    return (unsigned)k < TN_ANOM_COUNT ? anom_names[k] : "unknown";
}

const char *tn_anom_text(enum tn_anom_kind k)
{
    return (unsigned)k < TN_ANOM_COUNT ? anom_texts[k] : "unknown anomaly";
}

/* tcpdump's struct tok: value -> name, ending with { 0, NULL }. */
struct tn_tok {
    unsigned v;
    const char *s;
};

static const struct tn_tok dfcp_types[] = {
    {TN_DFCP_T_DATA, "DATA"},     {TN_DFCP_T_SYN, "SYN"},  {TN_DFCP_T_SYNACK, "SYNACK"},
    {TN_DFCP_T_ACK, "ACK"},       {TN_DFCP_T_BACK, "BACK"}, {TN_DFCP_T_FIN, "FIN"},
    {TN_DFCP_T_FINACK, "FINACK"}, {TN_DFCP_T_RST, "RST"},  {0, NULL},
};

const char *tn_dfcp_type_name(unsigned type, char buf[16])
{
    for (const struct tn_tok *t = dfcp_types; t->s; t++)
        if (t->v == type)
            return t->s;
    snprintf(buf, 16, "unknown-%u", type);
    return buf;
}
