/* fuzz_cluster_args.c - the command line of one process for the cluster fuzz targets
 * (fuzz_cluster_args.h). */
#include "fuzz_cluster_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tn_fuzz_args_add(struct tn_fuzz_args *a, const char *dir, const char *word)
{
    if (a->n + 2 >= (int)(sizeof a->v / sizeof a->v[0]))
        abort(); /* a target's table is too long: room for the name and NULL */
    bool at = strncmp(word, "@D", 2) == 0;
    size_t n = strlen(word) + strlen(dir) + 1;
    a->v[a->n] = malloc(n);
    snprintf(a->v[a->n++], n, "%s%s", at ? dir : "", word + (at ? 2 : 0));
}

void tn_fuzz_args_free(struct tn_fuzz_args *a)
{
    for (int i = 0; i < a->n; i++)
        free(a->v[i]);
    a->n = 0;
}

int tn_fuzz_args_parse(struct tn_options *o, struct tn_fuzz_args *a, const char *dir)
{
    memmove(a->v + 1, a->v, (size_t)a->n * sizeof *a->v);
    a->v[0] = strdup("tcptrace-ng");
    a->v[++a->n] = NULL;
    extern int optind;
    optind = 0;
    for (int i = 0; i < TN_FUZZ_NFILES; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%c.pcap", dir, 'a' + i);
        FILE *f = fopen(path, "w");
        if (f)
            fclose(f);
    }
    /* a pcap file header (pcap-savefile(5): magic, version 2.4, snap length 262144, Ethernet) */
    static const uint8_t header[24] = {0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                       0, 0, 4, 0, 1, 0, 0, 0};
    char path[4200];
    snprintf(path, sizeof path, "%s/i.pcap", dir);
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(header, 1, sizeof header, f);
        fclose(f);
    }
    struct tn_err err;
    return tn_options_parse(o, a->n, a->v, &err);
}
