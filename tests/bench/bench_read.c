/* bench_read.c - the floor for reading a trace: libpcap's pcap_next_ex() over every record,
 * counting packets and captured bytes, nothing else.  Built and run by tests/bench/bench.sh.
 *   cc -O2 -o bench_read bench_read.c -lpcap && ./bench_read FILE */
#include <pcap/pcap.h>
#include <stdint.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE\n", argv[0]);
        return 1;
    }
    char errbuf[PCAP_ERRBUF_SIZE];
    pcap_t *p = pcap_open_offline_with_tstamp_precision(argv[1], PCAP_TSTAMP_PRECISION_NANO, errbuf);
    if (!p) {
        fprintf(stderr, "%s: %s\n", argv[1], errbuf);
        return 2;
    }
    struct pcap_pkthdr *h;
    const u_char *d;
    uint64_t n = 0, bytes = 0, sum = 0;
    int r;
    while ((r = pcap_next_ex(p, &h, &d)) == 1) {
        n++;
        bytes += h->caplen;
        sum += h->caplen ? d[h->caplen - 1] : 0;   /* touch the data */
    }
    if (r == PCAP_ERROR)
        fprintf(stderr, "%s: %s\n", argv[1], pcap_geterr(p));
    pcap_close(p);
    printf("%llu packets, %llu bytes (checksum %llu)\n", (unsigned long long)n,
           (unsigned long long)bytes, (unsigned long long)sum);
    return 0;
}
