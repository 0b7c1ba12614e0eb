/* source.c - the packet source of a run: which kind the options ask for, the capture kind
 * (a file of any format, a live interface, two live capture points as one capture on "any"),
 * privilege dropping after the open, and the calls every kind shares. */
#include <errno.h>
#include <net/if.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pipeline.h"
#include "safeout.h"
#include "source.h"

const char *tn_names_intern(struct tn_names *s, const char *name)
{
    if (!name)
        return "?";
    if (s->n && strcmp(s->v[s->n - 1], name) == 0)
        return s->v[s->n - 1];
    tn_grow((void **)&s->v, &s->cap, s->n + 1, sizeof *s->v);
    s->v[s->n] = tn_xstrdup(name);
    return s->v[s->n++];
}

void tn_names_fini(struct tn_names *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i]);
    free(s->v);
    *s = (struct tn_names){0};
}

/* ---- the capture kind ---- */

struct capture_source {
    struct tn_source base;
    struct tn_capture *cap;
    const char *last_src;      /* the frame's source pointer last interned */
    const char *origin;
    struct tn_names names;
    /* two live capture points on "any": each packet's interface (Linux cooked v2 header) says
     * which point saw it, so both share one clock and one order; 0 = one point */
    unsigned in_idx, out_idx;
    const char *point_name;    /* the report names the ingress interface, not "any" */
};

static int capture_next(struct tn_source *s, struct tn_source_pkt *out, struct tn_err *err)
{
    struct capture_source *cs = (struct capture_source *)s;
    for (;;) {
        struct tn_frame f;
        int r = tn_capture_next(cs->cap, &f, err);
        if (r <= 0)
            return r;
        if (f.source != cs->last_src) {
            cs->last_src = f.source;
            cs->origin = tn_names_intern(&cs->names, f.source);
        }
        out->status = tn_boundary_frame(s->bnd, &f, &out->pkt);
        out->has_pkt = true;
        out->egress = false;
        out->origin = cs->origin;
        out->ns2 = NULL;
        if (!cs->in_idx)
            return 1;
        out->origin = cs->point_name;
        if (out->pkt.ifindex != cs->in_idx && out->pkt.ifindex != cs->out_idx)
            continue;   /* another interface of this host */
        out->egress = out->pkt.ifindex == cs->out_idx;
        return 1;
    }
}

static void capture_brk(struct tn_source *s)
{
    tn_capture_break(((struct capture_source *)s)->cap);
}

static void capture_stats(struct tn_source *s, struct tn_capture_stats *st)
{
    tn_capture_get_stats(((struct capture_source *)s)->cap, st);
}

static int capture_dump_open(struct tn_source *s, const char *path, struct tn_err *err)
{
    return tn_boundary_export(s->bnd, path, ((struct capture_source *)s)->cap, err);
}

static int capture_close(struct tn_source *s, struct tn_err *err)
{
    struct capture_source *cs = (struct capture_source *)s;
    int r = tn_capture_close(cs->cap, err);
    tn_names_fini(&cs->names);
    free(cs);
    return r;
}

static const struct tn_source_ops capture_ops = {
    .name = "capture",
    .next = capture_next,
    .brk = capture_brk,
    .stats = capture_stats,
    .dump_open = capture_dump_open,
    .close = capture_close,
};

int tn_source_open_capture(struct tn_source **out, struct tn_capture *cap)
{
    struct capture_source *cs = tn_xcalloc(1, sizeof *cs);
    struct tn_capture_stats st;
    tn_capture_get_stats(cap, &st);
    cs->base = (struct tn_source){.ops = &capture_ops, .live = st.live};
    cs->cap = cap;
    *out = &cs->base;
    return 0;
}

/* Tell the user what a live capture met without failing (an activation warning). */
static void tell_capture_warnings(const struct tn_capture *cap)
{
    const char *w;
    for (size_t i = 0; (w = tn_capture_warning(cap, i)) != NULL; i++)
        tn_cli_warn(w);
}

int tn_source_open_twopoint_live(struct tn_source **out, const struct tn_options *o, struct tn_err *err)
{
    unsigned in_idx = if_nametoindex(o->ingress_if), out_idx = if_nametoindex(o->egress_if);
    if (!in_idx || !out_idx)
        return tn_err_set(err, TN_EIO, "%s: no such interface", !in_idx ? o->ingress_if : o->egress_if);
    struct tn_live_opts lo = {
        .iface = "any",
        .filter = o->filter,
        .snaplen = o->snaplen ? o->snaplen : 256,
        .immediate = o->immediate,
        .buffer_kib = o->buffer_kib,
        .promisc = false,   /* "any" cannot be promiscuous; a router sees its own traffic */
        .linktype = TN_LINK_LINUX_SLL2,
    };
    struct tn_capture *cap;
    int r = tn_capture_open_live(&cap, &lo, err);
    if (r < 0)
        return r;
    tell_capture_warnings(cap);
    tn_source_open_capture(out, cap);
    struct capture_source *cs = (struct capture_source *)*out;
    cs->in_idx = in_idx;
    cs->out_idx = out_idx;
    cs->point_name = o->ingress_if;
    return 0;
}

/* setgid/initgroups/setuid to USER, as tcpdump -Z does after opening the interface.  From root
 * to another user setuid also clears the permitted, effective and ambient capabilities
 * (capabilities(7), "Effect of user ID changes on capabilities"). */
static int drop_privileges(const char *user, struct tn_err *err)
{
    errno = 0;
    struct passwd *pw = getpwnam(user);
    if (!pw)
        return tn_err_set(err, TN_EUSAGE, "-Z: no user '%s'%s%s", user, errno ? ": " : "",
                          errno ? strerror(errno) : "");
    /* the -w file, opened as root, belongs to the user from now on */
    if (tn_safeout_chown_all(pw->pw_uid, pw->pw_gid) < 0)
        return tn_err_set(err, TN_EIO, "-Z: cannot give the -w file to '%s': %s", user, strerror(errno));
    if (initgroups(pw->pw_name, pw->pw_gid) < 0 || setgid(pw->pw_gid) < 0 || setuid(pw->pw_uid) < 0)
        return tn_err_set(err, TN_EIO, "-Z: cannot become user '%s': %s", user, strerror(errno));
    if (pw->pw_uid != 0 && setuid(0) == 0)   /* paranoia: the drop must not be undoable */
        return tn_err_set(err, TN_EIO, "-Z: still able to regain root after becoming '%s'", user);
    return 0;
}

static int open_plain(struct tn_source **out, const struct tn_options *o, struct tn_err *err)
{
    struct tn_capture *cap;
    int r;
    if (o->iface) {
        struct tn_live_opts lo = {
            .iface = o->iface,
            .filter = o->filter,
            .snaplen = o->snaplen ? o->snaplen : 256,
            .immediate = o->immediate,
            .buffer_kib = o->buffer_kib,
            .promisc = o->promisc,
        };
        r = tn_capture_open_live(&cap, &lo, err);
        if (r == 0)
            tell_capture_warnings(cap);
    } else if (o->nfiles > 1) {
        return tn_source_open_merged(out, o->files, o->nfiles, o->filter, err);
    } else {
        r = tn_capture_open_files(&cap, o->files, o->nfiles, err);
        /* a BPF filter after the files (tcpdump -r FILE FILTER), checked before any frame */
        if (r == 0 && o->filter && tn_capture_set_filter(cap, o->filter, err) < 0) {
            tn_capture_close(cap, NULL);
            return -TN_EUSAGE;
        }
    }
    if (r < 0)
        return r;
    return tn_source_open_capture(out, cap);
}

/* The source just opened (r = its open's result) gets the boundary made before it. */
static int attach(struct tn_source **out, struct tn_boundary *bnd, int r)
{
    if (r < 0) {
        tn_boundary_free(bnd, NULL);
        *out = NULL;
        return r;
    }
    (*out)->bnd = bnd;
    return 0;
}

int tn_source_open(struct tn_source **out, const struct tn_options *o, struct tn_err *err)
{
    struct tn_boundary *bnd;
    *out = NULL;
    int r = tn_boundary_new(&bnd, o, err);   /* the --anonymize key before any input */
    if (r < 0)
        return r;
    if (o->ns2_file)
        r = tn_source_open_ns2(out, o->ns2_file, err);
    else if (o->ingress_if)
        r = tn_source_open_twopoint_live(out, o, err);
    else if (o->ningress > 0)
        r = tn_source_open_twopoint(out, o, err);
    else
        r = open_plain(out, o, err);
    return attach(out, bnd, r);
}

int tn_source_drop_privileges(const struct tn_options *o, struct tn_err *err)
{
    return o->user ? drop_privileges(o->user, err) : 0;
}

int tn_source_open_path(struct tn_source **out, const char *path, const struct tn_options *o,
                        struct tn_err *err)
{
    struct tn_boundary *bnd;
    *out = NULL;
    int r = tn_boundary_new(&bnd, o, err);
    if (r < 0)
        return r;
    if (tn_ns2_probe(path)) {
        r = tn_source_open_ns2(out, path, err);
    } else {
        struct tn_capture *cap;
        r = tn_capture_open_file(&cap, path, err);
        if (r == 0)
            r = tn_source_open_capture(out, cap);
    }
    return attach(out, bnd, r);
}

int tn_source_open_files(struct tn_source **out, const char *const *paths, int n,
                         const struct tn_options *o, struct tn_err *err)
{
    struct tn_boundary *bnd;
    *out = NULL;
    int r = tn_boundary_new(&bnd, o, err);
    if (r < 0)
        return r;
    r = tn_source_open_merged(out, paths, n, NULL, err);
    return attach(out, bnd, r);
}

void tn_source_break(struct tn_source *s)
{
    if (s && s->ops->brk)
        s->ops->brk(s);
}

void tn_source_stats(struct tn_source *s, struct tn_capture_stats *st)
{
    *st = (struct tn_capture_stats){0};
    if (s && s->ops->stats)
        s->ops->stats(s, st);
}

int tn_source_dump_open(struct tn_source *s, const char *path, struct tn_err *err)
{
    if (!s->ops->dump_open)
        return tn_err_set(err, TN_EUSAGE, "-w: the %s input has no frames to save", s->ops->name);
    return s->ops->dump_open(s, path, err);
}

int tn_source_close(struct tn_source *s, struct tn_err *err)
{
    if (!s)
        return 0;
    struct tn_err xerr;
    int rx = tn_boundary_free(s->bnd, &xerr);   /* the export first: its failure is the news */
    int r = s->ops->close(s, err);
    if (rx < 0 && err)
        *err = xerr;
    return rx < 0 ? rx : r;
}

void tn_source_report_stats(struct tn_source *s, FILE *out)
{
    struct tn_capture_stats cs;
    tn_source_stats(s, &cs);
    if (cs.live)
        fprintf(out,
                "\nCapture: %llu packets received by filter, %llu dropped by kernel, "
                "%llu dropped by interface\n",
                (unsigned long long)cs.kernel_recv, (unsigned long long)cs.kernel_drop,
                (unsigned long long)cs.if_drop);
}
