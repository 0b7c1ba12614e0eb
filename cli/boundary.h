/* boundary.h - the packet boundary: every frame a source reads is dissected here, once; with
 * --anonymize the packet record's addresses (and with --anonymize-ts its TCP time stamps) are
 * anonymized before the analysis or any output sees them, and -w/--export writes the frame,
 * rewritten the same way when anonymizing.  Each source owns one.  Private to cli/. */
#ifndef TN_CLI_BOUNDARY_H
#define TN_CLI_BOUNDARY_H

#include "anon.h"
#include "capture.h"
#include "dissect.h"
#include "options.h"

struct tn_boundary {
    struct tn_dissect_cfg dcfg;
    struct tn_anon *anon;          /* NULL: addresses in the clear */
    bool anon_ts;
    struct tn_pcap_writer *out;    /* NULL: no export */
    int out_linktype;              /* of an export that gets no frame (-1: unknown) */
    struct tn_err out_err;         /* the export's first failure (it stops writing) */
    struct tn_rewrite_ops rw;
    struct tn_layout lay;
    uint8_t *buf;                  /* the frame being rewritten */
    size_t bufcap;
    uint64_t not_written;          /* frames with more headers than a layout holds */
};

/* Dissector settings from the options and, with --anonymize, the key: read here, before any
 * packet.  Returns 0 (a warning about the key file's permissions is printed), or <0 with err
 * filled (a bad key file). */
int tn_boundary_new(struct tn_boundary **out, const struct tn_options *o, struct tn_err *err);

/* Open -w/--export FILE for the frames of cap (its snap length; flushed often when live). */
int tn_boundary_export(struct tn_boundary *b, const char *path, struct tn_capture *cap,
                       struct tn_err *err);

/* Dissect one frame into pk (anonymized), and export it.  Returns the dissector's status. */
int tn_boundary_frame(struct tn_boundary *b, const struct tn_frame *f, struct tn_pkt *pk);

/* A record that did not come from a frame (ns-2): anonymized like the others. */
void tn_boundary_record(struct tn_boundary *b, struct tn_pkt *pk);

/* Close the export (renamed into place) and free everything.  Returns 0 or <0 with err filled
 * (the export's message names the file and the packet count).  NULL is fine. */
int tn_boundary_free(struct tn_boundary *b, struct tn_err *err);

#endif
