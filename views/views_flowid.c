/* views_flowid.c - a flow's identity across traces of an experiment.
 *
 * Connections are numbered by their first packet, so "connection 2" is one host in one trace and
 * another in the next.  A flow is named instead by a --flow NAME=SPEC rule it matches, or by a
 * default key that survives re-runs: client host > server host:port.  The client's ephemeral port
 * changes on every run (RFC 6056) and is left out; the server's port is what the client chose to
 * reach (iperf3 -p, a service).  The client is the SYN sender; with no handshake seen, the side
 * with the lower port is taken as the server (ephemeral ports are allocated high: RFC 6056
 * section 2.1 suggests 49152-65535, Linux uses 32768-60999 by default), and with equal ports
 * (ns-2 agents have none) the side that sent first is the client.
 *
 * SPEC is a comma-separated list of terms that must all hold:
 *   client=ADDR[:PORT]  server=ADDR[:PORT]  host=ADDR  port=N  proto=tcp|dfcp
 * ADDR is numeric IPv4 or IPv6 (IPv6 with a port in brackets: [2001:db8::1]:5201).
 * A SPEC that does not start with a term is a BPF expression ("tcp port 5201 and host
 * 10.0.0.1"), kept as text for the caller to compile (tn_flow_rule.match).
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "views.h"

static int parse_addr(const char *s, size_t len, struct tn_addr *a)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, s, len);
    buf[len] = 0;
    memset(a, 0, sizeof *a);
    if (inet_pton(AF_INET, buf, a->a) == 1) {
        a->family = 4;
        return 0;
    }
    if (inet_pton(AF_INET6, buf, a->a) == 1) {
        a->family = 6;
        return 0;
    }
    return -1;
}

static int parse_port(const char *s, uint16_t *port)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < 1 || v > 65535)
        return -1;
    *port = (uint16_t)v;
    return 0;
}

/* ADDR[:PORT], [V6]:PORT or a bare IPv6 address. */
static int parse_endpoint(const char *s, struct tn_flow_ep *ep)
{
    memset(ep, 0, sizeof *ep);
    ep->set = true;
    if (*s == '[') {
        const char *close = strchr(s, ']');
        if (!close || parse_addr(s + 1, (size_t)(close - s - 1), &ep->addr) < 0)
            return -1;
        if (!close[1])
            return 0;
        return close[1] == ':' ? parse_port(close + 2, &ep->port) : -1;
    }
    const char *colon = strchr(s, ':');
    if (colon && !strchr(colon + 1, ':')) {   /* one colon: IPv4:PORT */
        if (parse_addr(s, (size_t)(colon - s), &ep->addr) < 0)
            return -1;
        return parse_port(colon + 1, &ep->port);
    }
    return parse_addr(s, strlen(s), &ep->addr);
}

static int term(struct tn_flow_rule *r, const char *key, const char *val)
{
    if (!strcmp(key, "client"))
        return parse_endpoint(val, &r->client);
    if (!strcmp(key, "server"))
        return parse_endpoint(val, &r->server);
    if (!strcmp(key, "host")) {
        r->host.set = true;
        return parse_addr(val, strlen(val), &r->host.addr);
    }
    if (!strcmp(key, "port"))
        return parse_port(val, &r->port);
    if (!strcmp(key, "proto")) {
        if (!strcmp(val, "tcp"))
            r->proto = TN_PK_TCP;
        else if (!strcmp(val, "dfcp"))
            r->proto = TN_PK_DFCP;
        else
            return -1;
        r->proto_set = true;
        return 0;
    }
    return -1;
}

static bool starts_with_term(const char *spec)
{
    static const char *const keys[] = {"client=", "server=", "host=", "port=", "proto="};
    for (size_t i = 0; i < TN_ARRAY_LEN(keys); i++)
        if (!strncmp(spec, keys[i], strlen(keys[i])))
            return true;
    return false;
}

int tn_flow_rule_parse(const char *arg, struct tn_flow_rule *r, struct tn_err *err)
{
    memset(r, 0, sizeof *r);
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof r->name || !eq[1])
        return tn_err_set(err, TN_EUSAGE, "--flow: '%s' is not NAME=SPEC (NAME up to %zu characters)", arg,
                          sizeof r->name - 1);
    memcpy(r->name, arg, (size_t)(eq - arg));
    r->name[eq - arg] = 0;
    if (!starts_with_term(eq + 1)) {
        if (strlen(eq + 1) >= sizeof r->filter)
            return tn_err_set(err, TN_EUSAGE, "--flow %s: the filter is longer than %zu characters", r->name,
                              sizeof r->filter - 1);
        snprintf(r->filter, sizeof r->filter, "%s", eq + 1);
        return 0;
    }
    char *spec = tn_xstrdup(eq + 1), *save = NULL;
    int rc = 0;
    for (char *t = strtok_r(spec, ",", &save); t && rc == 0; t = strtok_r(NULL, ",", &save)) {
        char *v = strchr(t, '=');
        if (!v || term(r, (*v = 0, t), v + 1) < 0)
            rc = tn_err_set(err, TN_EUSAGE,
                            "--flow %s: term '%s' is not client=ADDR[:PORT], server=ADDR[:PORT], host=ADDR, "
                            "port=N or proto=tcp|dfcp", r->name, v ? (*v = '=', t) : t);
    }
    free(spec);
    return rc;
}

bool tn_conn_client_is_a(const struct tn_conn *c)
{
    if (c->handshake_seen)   /* side a is the SYN sender when the handshake is seen */
        return true;
    /* the lower port is the server's (see the top); equal ports (ns-2 agents): the first sender */
    return c->a_port >= c->b_port;
}

static bool same_addr(const struct tn_addr *x, const struct tn_addr *y)
{
    return x->family == y->family && memcmp(x->a, y->a, x->family == 4 ? 4 : 16) == 0;
}

static bool ep_match(const struct tn_flow_ep *ep, const struct tn_addr *a, uint16_t port)
{
    return !ep->set || (same_addr(&ep->addr, a) && (!ep->port || ep->port == port));
}

bool tn_flow_rule_match(const struct tn_flow_rule *r, const struct tn_conn *c)
{
    if (r->filter[0])
        return r->match && r->match(r->match_arg, c);
    bool ca = tn_conn_client_is_a(c);
    const struct tn_addr *cl = ca ? &c->a : &c->b, *sv = ca ? &c->b : &c->a;
    uint16_t clp = ca ? c->a_port : c->b_port, svp = ca ? c->b_port : c->a_port;
    if (r->proto_set && r->proto != c->proto)
        return false;
    if (!ep_match(&r->client, cl, clp) || !ep_match(&r->server, sv, svp))
        return false;
    if (r->host.set && !same_addr(&r->host.addr, cl) && !same_addr(&r->host.addr, sv))
        return false;
    return !r->port || r->port == clp || r->port == svp;
}

void tn_flow_key(const struct tn_conn *c, const struct tn_flow_rule *rules, size_t nrules, char *buf, size_t len)
{
    for (size_t i = 0; i < nrules; i++)
        if (tn_flow_rule_match(&rules[i], c)) {
            snprintf(buf, len, "%s", rules[i].name);
            return;
        }
    bool ca = tn_conn_client_is_a(c);
    char cl[64], sv[64];
    tn_addr_str(ca ? &c->a : &c->b, cl, sizeof cl);
    tn_addr_str(ca ? &c->b : &c->a, sv, sizeof sv);
    uint16_t svp = ca ? c->b_port : c->a_port;
    bool v6 = c->a.family == 6;
    snprintf(buf, len, v6 ? "%s>[%s]:%u" : "%s>%s:%u", cl, sv, svp);
}
