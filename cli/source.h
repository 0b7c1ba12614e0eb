/* source.h - one packet source for every input: trace files of every format (several read as
 * one trace), a live interface, two capture points (files merged by time, or one live capture on
 * "any"), and ns-2 traces.  Each hands out dissected packets through the same next(), so the read
 * loop (pipeline.c) exists once.  Private to cli/.
 *
 * Shape borrowed from libpcap/libtrace: an opaque handle over a table of functions per kind. */
#ifndef TN_CLI_SOURCE_H
#define TN_CLI_SOURCE_H

#include <stdbool.h>
#include <stdio.h>

#include "boundary.h"
#include "capture.h"
#include "dissect.h"
#include "ns2.h"
#include "options.h"

/* One item of a source.  Everything in it is valid until the next tn_source_next. */
struct tn_source_pkt {
    struct tn_pkt pkt;
    int status;                 /* tn_dissect's return (TN_DIS_OK for ns-2 packets) */
    bool has_pkt;               /* false: an ns-2 line that is no packet at its capture point */
    bool egress;                /* two capture points: seen at the egress point */
    const char *origin;         /* file or interface; lives as long as the source */
    const struct tn_ns2_event *ns2;   /* ns-2: the trace line (queue events); NULL otherwise */
};

struct tn_source;

struct tn_source_ops {
    const char *name;
    /* 1 = item, 0 = end, <0 = a problem with err filled, then call again: -TN_ETRUNC is a
     * warning (a cut file, a bad ns-2 line), others make the run's exit status 2 */
    int (*next)(struct tn_source *s, struct tn_source_pkt *out, struct tn_err *err);
    void (*brk)(struct tn_source *s);                 /* async-signal-safe */
    void (*stats)(struct tn_source *s, struct tn_capture_stats *st);
    int (*dump_open)(struct tn_source *s, const char *path, struct tn_err *err);
    int (*close)(struct tn_source *s, struct tn_err *err);   /* frees s */
};

struct tn_source {
    const struct tn_source_ops *ops;
    bool live;                  /* reads may block: the loop never holds its lock around them */
    struct tn_boundary *bnd;    /* every frame is dissected (and anonymized, exported) there;
                                 * owned, set by tn_source_open / tn_source_open_path */
};

/* The input of the options: --ns2, --ingress/--egress files, --ingress-if/--egress-if, -i or
 * FILE arguments.  The --anonymize key is read first, before any input is opened.  Returns 0
 * or <0 with err. */
int tn_source_open(struct tn_source **out, const struct tn_options *o, struct tn_err *err);
/* -Z USER: become USER (groups, gid, uid; no capabilities left).  Called once every capture
 * handle and the -w file are open.  0 without -Z; <0 with err when it fails. */
int tn_source_drop_privileges(const struct tn_options *o, struct tn_err *err);

/* One file: an ns-2 trace when it looks like one, else a packet trace (experiments). */
int tn_source_open_path(struct tn_source **out, const char *path, const struct tn_options *o,
                        struct tn_err *err);

/* Several packet trace files read as one, in time order (the capture points of one run of an
 * experiment). */
int tn_source_open_files(struct tn_source **out, const char *const *paths, int n,
                         const struct tn_options *o, struct tn_err *err);

/* The kinds (source.c, source_files.c, source_twopoint.c, source_ns2.c). */
int tn_source_open_capture(struct tn_source **out, struct tn_capture *cap);
/* Several trace files as one trace in time order, merged as mergecap does (source_files.c); the
 * BPF filter (or NULL) applies to each. */
int tn_source_open_merged(struct tn_source **out, const char *const *paths, int n, const char *filter,
                          struct tn_err *err);
int tn_source_open_twopoint(struct tn_source **out, const struct tn_options *o, struct tn_err *err);
int tn_source_open_twopoint_live(struct tn_source **out, const struct tn_options *o, struct tn_err *err);
int tn_source_open_ns2(struct tn_source **out, const char *path, struct tn_err *err);

/* Two capture points read by two processes (cluster/): while a feed is set, a two-point source
 * over files reads the ingress files itself and takes the egress packets, merged by time stamp
 * (ties in file order), from feed->next: 1 with out's pkt, status and origin set, 0 at the end,
 * <0 with err as tn_source_next (a problem of the egress files, then called again).  NULL: both
 * points read here. */
struct tn_twopoint_feed {
    int (*next)(void *arg, struct tn_source_pkt *out, struct tn_err *err);
    void *arg;
};
void tn_source_twopoint_feed(const struct tn_twopoint_feed *feed);

static inline int tn_source_next(struct tn_source *s, struct tn_source_pkt *out, struct tn_err *err)
{
    return s->ops->next(s, out, err);
}

void tn_source_break(struct tn_source *s);
/* Capture statistics (live: kernel counters); zeros where a source has none. */
void tn_source_stats(struct tn_source *s, struct tn_capture_stats *st);
/* -w/--export: save every frame read from now on (packet sources only), anonymized with
 * --anonymize. */
int tn_source_dump_open(struct tn_source *s, const char *path, struct tn_err *err);
/* NULL is fine.  Returns 0 or <0 with err (an export that could not be completed). */
int tn_source_close(struct tn_source *s, struct tn_err *err);

/* "Capture: N packets received by filter, ..." for live sources; nothing otherwise. */
void tn_source_report_stats(struct tn_source *s, FILE *out);

/* Names of the files frames came from, kept (interned) as long as the holder lives: the
 * analyzer keeps borrowed pointers for its anomaly report. */
struct tn_names {
    char **v;
    size_t n, cap;
};

const char *tn_names_intern(struct tn_names *s, const char *name);
void tn_names_fini(struct tn_names *s);

#endif
