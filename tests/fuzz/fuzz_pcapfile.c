/* fuzz_pcapfile.c - libFuzzer target: the input is a trace file, read through the capture
 * layer (format probing, pcap/pcapng/ERF readers) from a temporary file, every frame dissected. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "capture.h"
#include "dissect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[] = "/tmp/tn_fuzz_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 0;
    if (write(fd, data, size) != (ssize_t)size) {
        close(fd);
        unlink(path);
        return 0;
    }
    close(fd);
    struct tn_capture *c;
    struct tn_err err;
    if (tn_capture_open_file(&c, path, &err) == 0) {
        struct tn_dissect_cfg cfg;
        tn_dissect_cfg_default(&cfg);
        struct tn_frame f;
        struct tn_pkt p;
        int r;
        while ((r = tn_capture_next(c, &f, &err)) != 0) {
            if (r < 0)
                continue;   /* the reader moves on or ends */
            tn_dissect(&cfg, f.linktype, f.data, f.caplen, f.wirelen, f.ts, f.num, &p);
        }
        tn_capture_close(c, &err);
    }
    unlink(path);
    return 0;
}
