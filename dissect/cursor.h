/* cursor.h - the one bounds-checked reader of packet bytes (design: style.md section 5). */
#ifndef TN_CURSOR_H
#define TN_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* end is exclusive: one past the last captured byte.  short_read is sticky. */
struct tn_cursor {
    const uint8_t *pos, *end;
    bool short_read;
};

static inline void tn_cur_init(struct tn_cursor *c, const uint8_t *p, size_t len)
{
    c->pos = p;
    c->end = p + len;
    c->short_read = false;
}

static inline size_t tn_cur_left(const struct tn_cursor *c)
{
    return (size_t)(c->end - c->pos);
}

static inline bool tn_cur_need(struct tn_cursor *c, size_t n)
{
    if (tn_cur_left(c) < n) {
        c->short_read = true;
        c->pos = c->end;
        return false;
    }
    return true;
}

static inline uint8_t tn_cur_u8(struct tn_cursor *c)
{
    if (!tn_cur_need(c, 1))
        return 0;
    return *c->pos++;
}

static inline uint16_t tn_cur_be16(struct tn_cursor *c)
{
    if (!tn_cur_need(c, 2))
        return 0;
    uint16_t v = (uint16_t)((unsigned)c->pos[0] << 8 | c->pos[1]);
    c->pos += 2;
    return v;
}

static inline uint16_t tn_cur_le16(struct tn_cursor *c)
{
    if (!tn_cur_need(c, 2))
        return 0;
    uint16_t v = (uint16_t)((unsigned)c->pos[1] << 8 | c->pos[0]);
    c->pos += 2;
    return v;
}

static inline uint32_t tn_cur_be32(struct tn_cursor *c)
{
    if (!tn_cur_need(c, 4))
        return 0;
    uint32_t v = (uint32_t)c->pos[0] << 24 | (uint32_t)c->pos[1] << 16 |
                 (uint32_t)c->pos[2] << 8 | c->pos[3];
    c->pos += 4;
    return v;
}

static inline uint32_t tn_cur_le32(struct tn_cursor *c)
{
    if (!tn_cur_need(c, 4))
        return 0;
    uint32_t v = (uint32_t)c->pos[3] << 24 | (uint32_t)c->pos[2] << 16 |
                 (uint32_t)c->pos[1] << 8 | c->pos[0];
    c->pos += 4;
    return v;
}

/* Copy n bytes out; on a short read the destination is zeroed. */
static inline void tn_cur_bytes(struct tn_cursor *c, uint8_t *dst, size_t n)
{
    if (!tn_cur_need(c, n)) {
        for (size_t i = 0; i < n; i++)
            dst[i] = 0;
        return;
    }
    for (size_t i = 0; i < n; i++)
        dst[i] = c->pos[i];
    c->pos += n;
}

static inline void tn_cur_skip(struct tn_cursor *c, size_t n)
{
    if (tn_cur_need(c, n))
        c->pos += n;
}

/* Narrow to a field the protocol says is len bytes long (tcpdump nd_push_snaplen):
 * sub gets min(len, remaining) and c advances past it; returns false if len > remaining
 * (the field is truncated by the capture). */
static inline bool tn_cur_sub(struct tn_cursor *c, size_t len, struct tn_cursor *sub)
{
    size_t left = tn_cur_left(c);
    size_t take = len < left ? len : left;
    sub->pos = c->pos;
    sub->end = c->pos + take;
    sub->short_read = false;
    c->pos += take;
    return len <= left;
}

#endif
