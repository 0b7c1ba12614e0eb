/* capture_bpf.c - a BPF filter on trace files, as `tcpdump -r FILE EXPR` applies one: the
 * expression is compiled with libpcap for each link type met (pcap_open_dead + pcap_compile)
 * and run on every frame with pcap_offline_filter, whatever reader delivered it (pcap, pcapng,
 * ERF, compressed).  Reference: pcap_compile(3PCAP), pcap_offline_filter(3PCAP). */
#include "capture_int.h"

#include <pcap/pcap.h>
#include <stdlib.h>
#include <string.h>

/* Programs kept, one per link type; a pcapng file rarely mixes more than a few. */
enum { BPF_LINKTYPES = 16, BPF_SNAPLEN = 262144 };

struct tn_bpf {
    char *expr;
    struct {
        int linktype;
        bool ok;               /* compiled; false: the expression does not apply to it */
        struct bpf_program prog;
    } lt[BPF_LINKTYPES];
    int n;
};

/* pcap_open_dead takes a DLT_ value; files carry LINKTYPE_ values, which differ for a few
 * (pcap-linktype(7): LINKTYPE_ATM_RFC1483 100 = DLT_ATM_RFC1483 11, LINKTYPE_RAW 101 = DLT_RAW
 * 12 on Linux). */
static int dlt_of(int linktype)
{
    switch (linktype) {
    case TN_LINK_ATM_RFC1483: return DLT_ATM_RFC1483;
    case TN_LINK_RAW: return DLT_RAW;
    default: return linktype;
    }
}

static int compile(const char *expr, int linktype, struct bpf_program *prog, char *why, size_t len)
{
    pcap_t *dead = pcap_open_dead(dlt_of(linktype), BPF_SNAPLEN);
    if (!dead) {
        snprintf(why, len, "pcap_open_dead failed");
        return -1;
    }
    int r = pcap_compile(dead, prog, expr, 1, PCAP_NETMASK_UNKNOWN);
    if (r < 0)
        snprintf(why, len, "%s", pcap_geterr(dead));
    pcap_close(dead);
    return r;
}

int tn_bpf_new(struct tn_bpf **out, const char *expr, struct tn_err *err)
{
    /* checked now, before any packet is read, on Ethernet (the common case; a filter that
     * needs another link type is checked again when one appears) */
    struct bpf_program prog;
    char why[PCAP_ERRBUF_SIZE + 64], why_raw[PCAP_ERRBUF_SIZE + 64];
    if (compile(expr, TN_LINK_ETHERNET, &prog, why, sizeof why) < 0 &&
        compile(expr, TN_LINK_RAW, &prog, why_raw, sizeof why_raw) < 0)
        return tn_err_set(err, TN_EUSAGE, "'%s' is not a BPF filter: %s", expr, why);
    struct tn_bpf *b = tn_xcalloc(1, sizeof *b);
    b->expr = tn_xstrdup(expr);
    pcap_freecode(&prog);
    *out = b;
    return 0;
}

void tn_bpf_free(struct tn_bpf *b)
{
    if (!b)
        return;
    for (int i = 0; i < b->n; i++)
        if (b->lt[i].ok)
            pcap_freecode(&b->lt[i].prog);
    free(b->expr);
    free(b);
}

int tn_bpf_match(struct tn_bpf *b, const struct tn_frame *f, const char *source, struct tn_err *err)
{
    int i = 0;
    while (i < b->n && b->lt[i].linktype != f->linktype)
        i++;
    if (i == b->n) {
        if (b->n == BPF_LINKTYPES) {   /* more link types than slots: recompile the last one */
            i = --b->n;
            if (b->lt[i].ok)
                pcap_freecode(&b->lt[i].prog);
        }
        char why[PCAP_ERRBUF_SIZE + 64];
        b->lt[i].linktype = f->linktype;
        b->lt[i].ok = compile(b->expr, f->linktype, &b->lt[i].prog, why, sizeof why) == 0;
        b->n++;
        if (!b->lt[i].ok)
            return tn_err_set(err, TN_EFORMAT, "%s: packet %llu: the filter '%s' does not apply to "
                               "link type %d (%s); its frames are left out", source,
                               (unsigned long long)f->num, b->expr, f->linktype, why);
    }
    if (!b->lt[i].ok)
        return 0;
    struct pcap_pkthdr h = {.caplen = f->caplen, .len = f->wirelen};
    return pcap_offline_filter(&b->lt[i].prog, &h, f->data) != 0;
}
