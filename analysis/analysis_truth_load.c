/* analysis_truth_load.c - read the kernel's record of a run for --truth, refusing what cannot
 * be read before any packet is: every file's header (or line format) is checked, columns are
 * found by name, and the companion files found are named.
 *
 * Inputs (docs/lab.md "Truth files"):
 *   - the lab's tcp_probe.csv, with tcp_cong_state.csv and tcp_retransmit.csv beside it;
 *   - a raw tracefs text dump of the tcp:tcp_probe event (trace_pipe / trace);
 *   - an `ss -tin` polling log: a time stamp line (date +%s.%N) before each poll, then ss's
 *     output (iproute2 ss(8): "cwnd:", "ssthresh:", "rtt:SRTT/RTTVAR" in ms, "mss:",
 *     "unacked:" in segments).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_int.h"
#include "analysis_truth_int.h"

static int64_t parse_time_ns(const char *s)
{
    char *end;
    long long sec = strtoll(s, &end, 10);
    /* a number from a file: held to what nanoseconds can count before it is scaled */
    if (sec > TN_TIME_SEC_MAX)
        sec = TN_TIME_SEC_MAX;
    else if (sec < 0)
        sec = 0;
    int64_t ns = (int64_t)sec * 1000000000;
    if (*end == '.') {
        int64_t frac = 0, scale = 100000000;
        for (const char *q = end + 1; *q >= '0' && *q <= '9' && scale > 0; q++, scale /= 10)
            frac += (*q - '0') * scale;
        ns += frac;
    }
    return ns;
}

/* Split a CSV line (no quoting in the lab's files) into at most max fields. */
static int split_csv(char *line, char **f, int max)
{
    int n = 0;
    char *p = line;
    while (n < max) {
        f[n++] = p;
        char *c = strchr(p, ',');
        if (!c)
            break;
        *c = 0;
        p = c + 1;
    }
    char *nl = strpbrk(f[n - 1], "\r\n");
    if (nl)
        *nl = 0;
    return n;
}

/* "addr:port" with IPv6 brackets dropped, as the comparison names flow ends. */
static void end_set(char *out, size_t len, const char *addr, const char *port)
{
    size_t n = strlen(addr);
    int w;
    if (n >= 2 && addr[0] == '[' && addr[n - 1] == ']')
        w = snprintf(out, len, "%.*s:%s", (int)(n - 2), addr + 1, port);
    else
        w = snprintf(out, len, "%s:%s", addr, port);
    if (w < 0 || (size_t)w >= len)
        out[0] = '\0';   /* longer than any address:port: matches no connection */
}

static void key_set(struct truth_key *k, const char *sa, const char *sp, const char *da, const char *dp)
{
    end_set(k->src, sizeof k->src, sa, sp);
    end_set(k->dst, sizeof k->dst, da, dp);
}

/* "[v6]:port" or "v4:port" -> key end without brackets */
static void end_from(char *out, size_t len, const char *ep)
{
    const char *colon = strrchr(ep, ':');
    if (!colon) {
        snprintf(out, len, "%s", ep);
        return;
    }
    char addr[64];
    snprintf(addr, sizeof addr, "%.*s", (int)(colon - ep), ep);
    end_set(out, len, addr, colon + 1);
}

/* ---- CSV files: columns by name ---- */

enum { MAXCOL = 32 };

struct header {
    char *names[MAXCOL];
    int n;
    char buf[1024];
};

static int col_of(const struct header *h, const char *name)
{
    for (int i = 0; i < h->n; i++)
        if (strcmp(h->names[i], name) == 0)
            return i;
    return -1;
}

/* Read the header row of fp and find every required column; on a missing one the message names
 * the file, the columns missing and the header found. */
static int read_header(FILE *fp, const char *path, const char *what, const char *const *req, int nreq,
                       int *idx, struct tn_err *err)
{
    struct header h;
    if (!fgets(h.buf, sizeof h.buf, fp))
        return tn_err_set(err, TN_EFORMAT, "%s: empty (a %s CSV starts with its header row)", path, what);
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", h.buf);
    copy[strcspn(copy, "\r\n")] = 0;
    h.n = split_csv(h.buf, h.names, MAXCOL);
    char missing[512] = "";
    for (int i = 0; i < nreq; i++) {
        idx[i] = col_of(&h, req[i]);
        if (idx[i] < 0)
            snprintf(missing + strlen(missing), sizeof missing - strlen(missing), "%s%s",
                     missing[0] ? ", " : "", req[i]);
    }
    if (missing[0])
        return tn_err_set(err, TN_EFORMAT, "%s: not a %s CSV: no column %s (header: '%.200s')", path, what,
                          missing, copy);
    return 0;
}

enum { P_TIME, P_SADDR, P_SPORT, P_DADDR, P_DPORT, P_NXT, P_UNA, P_CWND, P_SSTHRESH, P_SRTT, P_N };
static const char *const probe_cols[P_N] = {"time_s", "saddr", "sport", "daddr", "dport",
                                            "snd_nxt", "snd_una", "snd_cwnd", "ssthresh", "srtt_us"};

static int load_probe_csv(struct tn_truth *t, FILE *fp, const char *path, struct tn_err *err)
{
    int ix[P_N];
    int r = read_header(fp, path, "tcp_probe", probe_cols, P_N, ix, err);
    if (r)
        return r;
    char line[1024], *f[MAXCOL];
    while (fgets(line, sizeof line, fp)) {
        int n = split_csv(line, f, MAXCOL);
        bool ok = true;
        for (int i = 0; i < P_N; i++)
            ok &= ix[i] < n;
        if (!ok)
            continue;
        tn_grow((void **)&t->probes, &t->cap_probes, t->nprobes + 1, sizeof *t->probes);
        struct truth_probe *p = &t->probes[t->nprobes++];
        key_set(&p->k, f[ix[P_SADDR]], f[ix[P_SPORT]], f[ix[P_DADDR]], f[ix[P_DPORT]]);
        p->t_ns = parse_time_ns(f[ix[P_TIME]]);
        double d = strtod(f[ix[P_NXT]], NULL) - strtod(f[ix[P_UNA]], NULL);
        if (d < -2147483648.0)
            d += 4294967296.0;   /* snd_nxt wrapped past snd_una */
        p->inflight = tn_sat_i64(d);
        p->cwnd = strtod(f[ix[P_CWND]], NULL);
        p->ssthresh = strtod(f[ix[P_SSTHRESH]], NULL);
        p->srtt_ms = strtod(f[ix[P_SRTT]], NULL) / 1000.0;
    }
    return 0;
}

/* ---- raw tracefs text ---- */

static const char *kv_get(const char *line, const char *key, char *buf, size_t len)
{
    char pat[32];
    snprintf(pat, sizeof pat, " %s=", key);
    const char *p = strstr(line, pat);
    if (!p)
        return NULL;
    p += strlen(pat);
    size_t i = 0;
    while (p[i] && p[i] != ' ' && p[i] != '\n' && i + 1 < len) {
        buf[i] = p[i];
        i++;
    }
    buf[i] = 0;
    return buf;
}

/* "... 1796044084.209146: tcp_probe: ... src=A:P dest=B:Q ... snd_cwnd=10 ..." (the event's
 * format file: /sys/kernel/tracing/events/tcp/tcp_probe/format) */
static int probe_text(struct tn_truth *t, const char *line, const char *path, unsigned long lineno,
                      struct tn_err *err)
{
    const char *ev = strstr(line, " tcp_probe:");
    if (!ev)
        return 0;
    const char *ts = ev;
    while (ts > line && ts[-1] != ' ')
        ts--;
    static const char *const keys[] = {"src", "dest", "snd_nxt", "snd_una", "snd_cwnd", "ssthresh", "srtt"};
    char v[7][64];
    for (size_t i = 0; i < TN_ARRAY_LEN(keys); i++)
        if (!kv_get(ev, keys[i], v[i], sizeof v[i]))
            return tn_err_set(err, TN_EFORMAT, "%s: line %lu: a tcp_probe event without %s= (not the "
                              "tcp:tcp_probe format this reads)", path, lineno, keys[i]);
    tn_grow((void **)&t->probes, &t->cap_probes, t->nprobes + 1, sizeof *t->probes);
    struct truth_probe *p = &t->probes[t->nprobes++];
    memset(p, 0, sizeof *p);
    end_from(p->k.src, sizeof p->k.src, v[0]);
    end_from(p->k.dst, sizeof p->k.dst, v[1]);
    p->t_ns = parse_time_ns(ts);
    double d = (double)strtoul(v[2], NULL, 16) - (double)strtoul(v[3], NULL, 16);
    if (d < -2147483648.0)
        d += 4294967296.0;
    p->inflight = tn_sat_i64(d);
    p->cwnd = strtod(v[4], NULL);
    p->ssthresh = strtod(v[5], NULL);
    p->srtt_ms = strtod(v[6], NULL) / 1000.0;
    return 0;
}

/* ---- ss -tin polling log ---- */

/* A time stamp line of the log: "1796045296.100449" (date +%s.%N) and nothing else. */
static bool is_stamp(const char *line)
{
    size_t n = strspn(line, "0123456789.");
    if (n == 0 || (line[n] && line[n] != '\n' && line[n] != '\r'))
        return false;
    const char *dot = memchr(line, '.', n);   /* exactly one '.' */
    return dot && !memchr(dot + 1, '.', n - (size_t)(dot + 1 - line));
}

/* "cwnd:10" -> 10 */
static bool ss_num(const char *info, const char *key, double *v)
{
    char pat[32];
    snprintf(pat, sizeof pat, " %s:", key);
    const char *p = strstr(info, pat);
    if (!p && strncmp(info, pat + 1, strlen(pat + 1)) == 0)
        p = info - 1;
    if (!p)
        return false;
    *v = strtod(p + strlen(pat), NULL);
    return true;
}

static int load_ss(struct tn_truth *t, FILE *fp, const char *path, struct tn_err *err)
{
    char line[2048];
    int64_t now = -1;
    unsigned long lineno = 0, stamps = 0;
    char src[64] = "", dst[64] = "";
    while (fgets(line, sizeof line, fp)) {
        lineno++;
        if (is_stamp(line)) {
            now = parse_time_ns(line);
            stamps++;
            continue;
        }
        char state[32], rq[32], sq[32], local[96], peer[96];
        if (line[0] != ' ' && line[0] != '\t') {   /* "ESTAB 0 0 10.1.1.2:40001 10.9.1.2:5201" */
            src[0] = dst[0] = 0;
            if (sscanf(line, "%31s %31s %31s %95s %95s", state, rq, sq, local, peer) == 5 &&
                strcmp(state, "State") != 0) {
                end_from(src, sizeof src, local);
                end_from(dst, sizeof dst, peer);
            }
            continue;
        }
        double cwnd, mss, srtt, ssthresh = 0, unacked = 0;
        if (!src[0] || !ss_num(line, "cwnd", &cwnd) || !ss_num(line, "rtt", &srtt))
            continue;
        if (now < 0)
            return tn_err_set(err, TN_EFORMAT, "%s: line %lu: ss output before any time stamp line "
                              "(log it as: while sleep 0.1; do date +%%s.%%N; ss -tin; done)", path, lineno);
        if (!ss_num(line, "mss", &mss))
            mss = 0;
        ss_num(line, "ssthresh", &ssthresh);
        ss_num(line, "unacked", &unacked);
        tn_grow((void **)&t->probes, &t->cap_probes, t->nprobes + 1, sizeof *t->probes);
        struct truth_probe *p = &t->probes[t->nprobes++];
        memset(p, 0, sizeof *p);
        snprintf(p->k.src, sizeof p->k.src, "%s", src);
        snprintf(p->k.dst, sizeof p->k.dst, "%s", dst);
        p->t_ns = now;
        p->cwnd = cwnd;
        p->ssthresh = ssthresh;
        p->srtt_ms = srtt;
        p->inflight = tn_sat_i64(unacked * mss);
        src[0] = 0;   /* one info line per socket line */
    }
    if (!stamps)
        return tn_err_set(err, TN_EFORMAT, "%s: an ss -tin log without time stamp lines (log it as: "
                          "while sleep 0.1; do date +%%s.%%N; ss -tin; done)", path);
    return 0;
}

/* ---- which kind of file ---- */

enum kind { K_CSV, K_TRACEFS, K_SS, K_NONE };

static enum kind sniff(FILE *fp)
{
    char line[2048];
    enum kind k = K_NONE;
    for (int i = 0; i < 64 && k == K_NONE && fgets(line, sizeof line, fp); i++) {
        if (i == 0 && strchr(line, ',') && strstr(line, "time_s"))
            k = K_CSV;
        else if (strstr(line, " tcp_probe:"))
            k = K_TRACEFS;
        else if (strncmp(line, "State", 5) == 0 && strstr(line, "Recv-Q") && strstr(line, "Peer Address"))
            k = K_SS;
    }
    rewind(fp);
    return k;
}

/* "NAME: N records", or "no NAME beside it" when n < 0 */
static void add_source(struct tn_truth *t, const char *name, long n)
{
    size_t at = strlen(t->sources);
    if (n < 0)
        snprintf(t->sources + at, sizeof t->sources - at, "%sno %s beside it", at ? "; " : "", name);
    else
        snprintf(t->sources + at, sizeof t->sources - at, "%s%s: %ld records", at ? "; " : "", name, n);
}

/* A companion CSV of the lab beside path: absent is fine (said in the sources); present with
 * the wrong header is refused. */
static int load_companion(struct tn_truth *t, const char *path, const char *name, bool states,
                          struct tn_err *err)
{
    char dir[4096], p[4200];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[1] = 0;
    else
        dir[0] = 0;
    snprintf(p, sizeof p, "%s%s", dir, name);
    FILE *fp = fopen(p, "r");
    if (!fp) {
        add_source(t, name, -1);
        return 0;
    }
    static const char *const state_cols[] = {"time_s", "saddr", "sport", "daddr", "dport", "cong_state"};
    int ix[6];
    int r = read_header(fp, p, states ? "tcp_cong_state" : "tcp_retransmit", state_cols, states ? 6 : 5, ix,
                        err);
    size_t n = 0;
    char line[1024], *f[MAXCOL];
    while (r == 0 && fgets(line, sizeof line, fp)) {
        int nf = split_csv(line, f, MAXCOL);
        bool ok = true;   /* every column found in the header, wherever it stands, is on the line */
        for (int i = 0; i < (states ? 6 : 5); i++)
            ok &= ix[i] < nf;
        if (!ok)
            continue;
        struct truth_key k;
        key_set(&k, f[ix[1]], f[ix[2]], f[ix[3]], f[ix[4]]);
        int64_t ts = parse_time_ns(f[ix[0]]);
        if (states) {
            tn_grow((void **)&t->states, &t->cap_states, t->nstates + 1, sizeof *t->states);
            t->states[t->nstates++] = (struct truth_state){k, ts, atoi(f[ix[5]])};
        } else {
            tn_grow((void **)&t->rexmits, &t->cap_rexmits, t->nrexmits + 1, sizeof *t->rexmits);
            t->rexmits[t->nrexmits++] = (struct truth_rexmit){k, ts};
        }
        n++;
    }
    fclose(fp);
    if (r == 0) {
        add_source(t, name, (long)n);
        if (states)
            t->have_states = true;
        else
            t->have_rexmits = true;
    }
    return r;
}

int tn_truth_load(const char *path, struct tn_truth **out, struct tn_err *err)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return tn_err_set(err, TN_EIO, "%s: %s", path, strerror(errno));
    struct tn_truth *t = tn_xcalloc(1, sizeof *t);
    enum kind k = sniff(fp);
    int r = 0;
    const char *what = "";
    if (k == K_CSV) {
        what = "tcp_probe CSV";
        r = load_probe_csv(t, fp, path, err);
    } else if (k == K_TRACEFS) {
        what = "tracefs tcp_probe text";
        char line[2048];
        unsigned long lineno = 0;
        while (r == 0 && fgets(line, sizeof line, fp))
            r = probe_text(t, line, path, ++lineno, err);
    } else if (k == K_SS) {
        what = "ss -tin log";
        r = load_ss(t, fp, path, err);
    } else {
        r = tn_err_set(err, TN_EFORMAT, "%s: not kernel ground truth: neither a tcp_probe CSV (header "
                       "time_s,...,srtt_us), a tracefs tcp_probe dump nor an ss -tin log", path);
    }
    fclose(fp);
    if (r == 0 && t->nprobes == 0)
        r = tn_err_set(err, TN_EFORMAT, "%s: a %s without a single record", path, what);
    if (r == 0) {
        const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        char first[300];
        snprintf(first, sizeof first, "%s (%s)", base, what);
        add_source(t, first, (long)t->nprobes);
        if (k == K_CSV) {   /* the lab writes its other event files beside tcp_probe.csv */
            r = load_companion(t, path, "tcp_cong_state.csv", true, err);
            if (r == 0)
                r = load_companion(t, path, "tcp_retransmit.csv", false, err);
        }
    }
    if (r) {
        tn_truth_free(t);
        return r;
    }
    *out = t;
    return 0;
}

void tn_truth_free(struct tn_truth *t)
{
    if (!t)
        return;
    free(t->probes);
    free(t->states);
    free(t->rexmits);
    free(t);
}

const char *tn_truth_sources(const struct tn_truth *t)
{
    return t->sources;
}
