/* boundary.c - the packet boundary (boundary.h): dissect once, anonymize the record, export the
 * frame.  The anonymized export is rewritten from the layout the same dissection recorded, so it
 * holds exactly the addresses the reports show. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boundary.h"
#include "pipeline.h"

static void map_addr(void *ctx, uint8_t family, uint8_t *addr, uint32_t *ts_off)
{
    tn_anon_addr(ctx, family, addr, ts_off);
}

int tn_boundary_new(struct tn_boundary **out, const struct tn_options *o, struct tn_err *err)
{
    struct tn_boundary *b = tn_xcalloc(1, sizeof *b);
    tn_dissect_cfg_default(&b->dcfg);
    b->dcfg.dfcp_ipproto = o->dfcp_ipproto;
    b->dcfg.dfcp_udp_port = o->dfcp_udp_port;
    b->out_linktype = -1;
    *out = b;
    if (!o->anon_key)
        return 0;
    int r = tn_anon_open(&b->anon, o->anon_key, err);
    if (r < 0) {
        free(b);
        *out = NULL;
        return r;
    }
    if (err->msg[0])
        tn_cli_warn(err->msg);   /* a key file others may read: used, with a warning */
    b->anon_ts = o->anon_ts;
    b->rw = (struct tn_rewrite_ops){
        .addr = map_addr,
        .ctx = b->anon,
        .keep_payload = o->keep_payload,
        .rebase_ts = o->anon_ts,
    };
    return 0;
}

int tn_boundary_export(struct tn_boundary *b, const char *path, struct tn_capture *cap,
                       struct tn_err *err)
{
    struct tn_capture_stats st;
    tn_capture_get_stats(cap, &st);
    b->out_linktype = tn_capture_linktype(cap);
    return tn_pcap_writer_open(&b->out, path, tn_capture_snaplen(cap), st.live, err);
}

static void export(struct tn_boundary *b, const struct tn_frame *f)
{
    const uint8_t *data = f->data;
    uint32_t caplen = f->caplen;
    if (b->anon) {
        if (b->bufcap < caplen) {
            free(b->buf);
            b->bufcap = caplen;
            b->buf = tn_xmalloc(caplen);
        }
        if (caplen)
            memcpy(b->buf, f->data, caplen);
        caplen = tn_rewrite(&b->lay, b->buf, caplen, &b->rw);
        if (caplen == 0 && f->caplen != 0) {
            b->not_written++;   /* its headers could not all be found: not written at all */
            return;
        }
        data = b->buf;
    }
    if (tn_pcap_writer_put(b->out, f->linktype, f->ts, data, caplen, f->wirelen, &b->out_err) < 0) {
        tn_pcap_writer_abort(b->out);   /* disk full, I/O error: the half file is removed */
        b->out = NULL;
    }
}

int tn_boundary_frame(struct tn_boundary *b, const struct tn_frame *f, struct tn_pkt *pk)
{
    bool rewrite = b->out && b->anon;
    int st = tn_dissect_layout(&b->dcfg, f->linktype, f->data, f->caplen, f->wirelen, f->ts, f->num,
                               pk, rewrite ? &b->lay : NULL);
    if (b->out)
        export(b, f);
    if (b->anon)
        tn_anon_pkt(b->anon, pk, b->anon_ts);
    return st;
}

void tn_boundary_record(struct tn_boundary *b, struct tn_pkt *pk)
{
    if (b->anon)
        tn_anon_pkt(b->anon, pk, b->anon_ts);
}

int tn_boundary_free(struct tn_boundary *b, struct tn_err *err)
{
    if (!b)
        return 0;
    int r = 0;
    if (b->out_err.code) {
        if (err)
            *err = b->out_err;
        r = -b->out_err.code;
    } else if (b->out) {
        char msg[600];
        uint64_t skipped = tn_pcap_writer_skipped(b->out);
        if (skipped) {
            snprintf(msg, sizeof msg, "export: %llu packets of another link type than the first "
                     "were not written (a pcap file has one)", (unsigned long long)skipped);
            tn_cli_warn(msg);
        }
        if (b->not_written) {
            snprintf(msg, sizeof msg, "export: %llu packets with more than %d headers were not "
                     "written (they could not be anonymized completely)",
                     (unsigned long long)b->not_written, TN_LAY_MAX);
            tn_cli_warn(msg);
        }
        r = tn_pcap_writer_close(b->out, b->out_linktype, err);
    }
    tn_anon_free(b->anon);
    free(b->buf);
    free(b);
    return r;
}
