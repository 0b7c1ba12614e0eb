/* fuzz_options.c - libFuzzer target: the input is a command line, arguments separated by NUL
 * bytes (--experiment LABEL=FILE, --connection A:P-B:P, numbers, time windows ...), parsed and
 * freed.  Nothing is run: option parsing alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    enum { MAX_ARGS = 64 };
    char *buf = malloc(size + 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = 0;
    char *argv[MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = "tcptrace-ng";
    for (size_t i = 0; i < size && argc < MAX_ARGS;) {
        argv[argc++] = buf + i;
        i += strlen(buf + i) + 1;
    }
    argv[argc] = NULL;
    struct tn_options o;
    struct tn_err err;
    extern int optind;
    optind = 0;   /* getopt_long: start over (0 also resets its internal state, glibc) */
    (void)tn_options_parse(&o, argc, argv, &err);
    tn_options_fini(&o);
    free(buf);
    return 0;
}
