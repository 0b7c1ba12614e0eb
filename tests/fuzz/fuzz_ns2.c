/* fuzz_ns2.c - libFuzzer target: the input is an ns-2 ASCII trace, read line by line into
 * packets and queue events (ns2/ns2_reader.c). */
#include <stdbool.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "ns2.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[4096];
    if (tn_fuzz_write_file(NULL, ".tr", data, size, path) < 0)
        return 0;
    (void)tn_ns2_probe(path);
    struct tn_ns2 *r;
    struct tn_err err;
    if (tn_ns2_open(&r, path, &err) == 0) {
        struct tn_ns2_event ev;
        struct tn_pkt p;
        bool has;
        int st;
        while ((st = tn_ns2_next(r, &ev, &p, &has, &err)) != 0)
            (void)st;   /* a bad line: the reader goes on */
        (void)tn_ns2_lines(r);
        tn_ns2_close(r);
    }
    unlink(path);
    return 0;
}
