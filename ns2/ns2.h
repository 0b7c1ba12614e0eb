/* ns2.h - public interface of the ns-2 trace reader: ns-2 ASCII traces -> normalized packets.
 *
 * ns-2 traces are text, not frames, so they skip capture/ and dissect/: this reader emits the
 * same struct tn_pkt records the dissector emits, plus the link queue events.  The format
 * (ns-2 manual, "Trace and Monitoring Support"), 12 fields per line:
 *
 *     ev time from to type size flags fid src dst seq id
 *     +  0.0128 0   1  tcp  1040 ------- 0  0.0 2.0 1   2
 *
 * ev: + enqueue, - dequeue, r receive, d drop; from/to: the link's nodes; src/dst: node.port of
 * the agents; seq: packet sequence number (TCP counts packets); id: unique packet id.
 *
 * The capture point is each agent's own host: a flow's data packets are emitted when they leave
 * their source node ('-' on a link from it), its ACKs when they arrive back ('r' on a link into
 * the data source's node).  Node n becomes IPv4 address 10.0.0.0 + n, the agent port
 * the TCP port.  TCP sequence numbers count packets: packet k of a flow starts at byte
 * 1 + k * segment, where segment is the flow's largest 'tcp' size less 40 header bytes; an
 * 'ack' for k acknowledges 1 + (k + 1) * segment.  No SYN is synthesized (connections show as
 * partial).
 */
#ifndef TN_NS2_H
#define TN_NS2_H

#include <stdbool.h>
#include <stdint.h>

#include "common.h"
#include "dissect.h"

/* One trace line. */
struct tn_ns2_event {
    int ev;                    /* '+', '-', 'r', 'd' */
    int64_t t_ns;
    int from, to;
    char type[16];             /* "tcp", "ack", "cbr", ... */
    uint32_t size;
    int fid;
    int src_node, src_port, dst_node, dst_port;
    long seq, id;
    uint64_t line;
};

struct tn_ns2;

/* Does the file look like an ns-2 trace (its first non-empty lines have the 12 fields)? */
bool tn_ns2_probe(const char *path);

/* Open (reads the file once to learn each flow's segment size).  Returns 0 or -TN_EIO /
 * -TN_EFORMAT with err naming the file. */
int tn_ns2_open(struct tn_ns2 **out, const char *path, struct tn_err *err);

/* Next line.  Returns 1 with ev filled (and *has_pkt set, p filled, when the line is a packet
 * at its capture point), 0 at the end, -TN_EFORMAT for a line that does not parse (err names
 * the file and line; call again to go on). */
int tn_ns2_next(struct tn_ns2 *r, struct tn_ns2_event *ev, struct tn_pkt *p, bool *has_pkt,
                struct tn_err *err);

/* Lines read, lines that did not parse. */
uint64_t tn_ns2_lines(const struct tn_ns2 *r);
uint64_t tn_ns2_bad_lines(const struct tn_ns2 *r);

void tn_ns2_close(struct tn_ns2 *r);

/* Address of ns-2 node n (10.0.0.0 + n). */
void tn_ns2_node_addr(int node, struct tn_addr *a);

#endif
