/* common_addr.c - addresses as text (inet_ntop, RFC 5952 for IPv6). */
#include "addr.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <sys/socket.h>

const char *tn_addr_str(const struct tn_addr *a, char *buf, size_t len)
{
    const char *r = NULL;
    if (len == 0)
        return buf;
    if (a->family == 4)
        r = inet_ntop(AF_INET, a->a, buf, (socklen_t)len);
    else if (a->family == 6)
        r = inet_ntop(AF_INET6, a->a, buf, (socklen_t)len);
    if (!r)
        snprintf(buf, len, "-");
    return buf;
}

const char *tn_endpoint_str(const struct tn_addr *a, uint16_t port, char *buf, size_t len)
{
    char ab[64];
    tn_addr_str(a, ab, sizeof ab);
    snprintf(buf, len, a->family == 6 ? "[%s]:%u" : "%s:%u", ab, port);
    return buf;
}
