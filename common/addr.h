/* addr.h - a network address as every layer keeps it: IPv4 or IPv6 in 16 bytes, and its text. */
#ifndef TN_ADDR_H
#define TN_ADDR_H

#include <stddef.h>
#include <stdint.h>

struct tn_addr {
    uint8_t family;            /* 4 or 6; 0 = none */
    uint8_t a[16];             /* IPv4 in the first 4 bytes */
};

/* Format numerically ("10.0.0.1", "2001:db8::1"; "-" for none); buf must hold 48 bytes. */
const char *tn_addr_str(const struct tn_addr *a, char *buf, size_t len);
/* An endpoint as people and tools write it (RFC 5952 §6): "10.0.0.1:5201", "[2001:db8::1]:80". */
const char *tn_endpoint_str(const struct tn_addr *a, uint16_t port, char *buf, size_t len);

#endif
