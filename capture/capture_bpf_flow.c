/* capture_bpf_flow.c - a BPF expression on a flow's made-up headers (capture.h): the filter of
 * capture_bpf.c run on one raw-IP frame built from the 5-tuple.  Header layouts: RFC 791 §3.1
 * (IPv4), RFC 8200 §3 (IPv6), RFC 9293 §3.1 (TCP), RFC 768 (UDP). */
#include <stdlib.h>
#include <string.h>

#include "capture_int.h"

struct tn_flow_filter {
    struct tn_bpf *bpf;
};

int tn_flow_filter_new(struct tn_flow_filter **out, const char *expr, struct tn_err *err)
{
    struct tn_bpf *b;
    int r = tn_bpf_new(&b, expr, err);
    if (r)
        return r;
    /* the headers made up are raw IP: a filter that cannot run there (ether, vlan...) names no flow */
    uint8_t v4[20] = {0x45, 0, 0, 20, [8] = 64};
    struct tn_frame fr = {.data = v4, .caplen = 20, .wirelen = 20, .linktype = TN_LINK_RAW, .num = 1};
    struct tn_err why;
    if (tn_bpf_match(b, &fr, "--flow", &why) < 0) {
        tn_bpf_free(b);
        return tn_err_set(err, TN_EUSAGE, "'%s' cannot be tested on IP headers (a flow has no link layer)", expr);
    }
    *out = tn_xcalloc(1, sizeof **out);
    (*out)->bpf = b;
    return 0;
}

void tn_flow_filter_free(struct tn_flow_filter *f)
{
    if (!f)
        return;
    tn_bpf_free(f->bpf);
    free(f);
}

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

bool tn_flow_filter_match(struct tn_flow_filter *f, int family, const uint8_t *src, const uint8_t *dst,
                          uint8_t ipproto, uint16_t sport, uint16_t dport)
{
    uint8_t pkt[60] = {0};
    size_t ip = family == 6 ? 40 : 20;
    size_t l4 = ipproto == 6 ? 20 : ipproto == 17 ? 8 : 0;
    if (family == 6) {
        pkt[0] = 0x60;
        put16(pkt + 4, (uint16_t)l4);   /* payload length */
        pkt[6] = ipproto;               /* next header */
        pkt[7] = 64;                    /* hop limit */
        memcpy(pkt + 8, src, 16);
        memcpy(pkt + 24, dst, 16);
    } else {
        pkt[0] = 0x45;                  /* version 4, 5 words of header */
        put16(pkt + 2, (uint16_t)(ip + l4));
        pkt[8] = 64;                    /* TTL */
        pkt[9] = ipproto;
        memcpy(pkt + 12, src, 4);
        memcpy(pkt + 16, dst, 4);
    }
    uint8_t *t = pkt + ip;
    if (l4) {
        put16(t, sport);
        put16(t + 2, dport);
    }
    if (ipproto == 6) {
        t[12] = 5 << 4;                 /* data offset: 5 words */
        t[13] = 0x10;                   /* ACK */
    } else if (ipproto == 17) {
        put16(t + 4, 8);                /* UDP length */
    }
    struct tn_frame fr = {.data = pkt, .caplen = (uint32_t)(ip + l4), .wirelen = (uint32_t)(ip + l4),
                          .linktype = TN_LINK_RAW, .num = 1, .source = "--flow"};
    struct tn_err err;
    return tn_bpf_match(f->bpf, &fr, "--flow", &err) > 0;
}
