/* fuzz_cli.c - libFuzzer target: the whole program, from the command line to every output.
 *
 * Input: byte 0 picks one of the command lines below, bytes 1-2 (little-endian) where the rest
 * is split into two files F and G (two capture points, a truth file beside its trace, two
 * experiment traces); the rest is the files' bytes.  The program's main() runs as it does from
 * a shell, writing into a scratch directory D that is removed afterwards: the readers, the
 * analysis, the text reports, every CSV writer, JSON Lines, the figures (PNG, SVG, PDF), xplot,
 * -w, the multi-flow views (fairness, queues, experiments), the two-point merge, the ns-2
 * reader, --flow names and a BPF filter.
 * The packets of the read loop live in main's callees only, so a pointer kept to one past its
 * frame is caught with ASan's detect_stack_use_after_return (see fuzz_pipeline.c).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_util.h"

int tn_cli_main(int argc, char **argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* "@F", "@G": the two files; "@D": the scratch directory (a prefix: "@D/csv") */
static const char *const cmds[][16] = {
    {"--timeline", "-l", "--csv", "@D/csv", "@F"},
    {"-q", "--plot", "@D/plot", "--plot-size", "200x150", "--plot-scale", "0.25", "@F"},
    {"-q", "--plot", "@D/plot", "--plot-format", "svg", "--plot-size", "200x150", "@F"},
    {"-q", "--plot", "@D/plot", "--plot-format", "pdf", "--plot-size", "200x150", "@F"},
    {"-q", "--xplot", "@D/xpl", "-w", "@D/w.pcap", "@F", "@G"},
    {"--fairness-by", "hostpair", "--queue-estimate", "--csv", "@D/csv", "-A", "@F"},
    {"--ingress", "@F", "--egress", "@G", "--csv", "@D/csv", "--plot", "@D/plot",
     "--plot-size", "200x150", "--plot-scale", "0.25"},
    {"--ns2", "@F", "--csv", "@D/csv", "--plot", "@D/plot", "--plot-size", "200x150",
     "--plot-scale", "0.25"},
    {"--truth", "@F", "@G"},
    {"--experiment", "a=@F", "--experiment", "=b=@G", "--csv", "@D/csv", "--plot", "@D/plot",
     "--plot-size", "200x150", "--plot-scale", "0.25"},
    {"--connection", "1", "--from", "0.001", "--to", "2", "--interval", "10", "--csv", "@D/csv",
     "--timeline", "@F"},
    {"--fairness-window", "100", "--parallel-window", "50", "--csv", "@D/csv", "@F", "@G"},
    /* the flow names (terms, and a BPF filter on made-up headers), the JSON Lines writer */
    {"--flow", "web=tcp port 80 or tcp port 5201", "--flow", "c=client=10.0.0.1,proto=tcp",
     "--fairness-by", "conn", "--json", "@D/out.jsonl", "--csv", "@D/csv", "@F", "@G"},
    /* a BPF filter after the files, tcptrace's habits (-n -r -W) */
    {"-n", "-r", "-W", "-l", "@F", "tcp or udp"},
};

static char *expand(const char *a, const char *d, const char *f, const char *g)
{
    const char *at = strchr(a, '@');
    if (!at)
        return strdup(a);
    const char *what = at[1] == 'F' ? f : at[1] == 'G' ? g : d;
    size_t n = strlen(a) + strlen(what) + 1;
    char *s = malloc(n);
    snprintf(s, n, "%.*s%s%s", (int)(at - a), a, what, at + 2);
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    const char *const *cmd = cmds[data[0] % (sizeof cmds / sizeof cmds[0])];
    size_t rest = size - 3, cut = ((size_t)data[1] | (size_t)data[2] << 8) % (rest + 1);
    char dir[4096], f[4096], g[4096];
    if (tn_fuzz_mkdtemp(dir) < 0)
        return 0;
    if (tn_fuzz_write_file(dir, "", data + 3, cut, f) < 0 ||
        tn_fuzz_write_file(dir, "", data + 3 + cut, rest - cut, g) < 0) {
        tn_fuzz_rmtree(dir);
        return 0;
    }
    char *argv[20];
    int argc = 0;
    argv[argc++] = strdup("tcptrace-ng");
    for (int i = 0; cmd[i]; i++)
        argv[argc++] = expand(cmd[i], dir, f, g);
    argv[argc] = NULL;
    extern int optind;
    optind = 0;
    struct tn_fuzz_quiet q;
    tn_fuzz_quiet_begin(&q);
    (void)tn_cli_main(argc, argv);
    tn_fuzz_quiet_end(&q);
    for (int i = 0; i < argc; i++)
        free(argv[i]);
    tn_fuzz_rmtree(dir);
    return 0;
}
