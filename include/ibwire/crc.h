/*
 * ibwire/crc.h - the two CRCs of InfiniBand (catalog W13, the arithmetic).
 *
 * ibw_crc32(): the reflected CRC-32 of IEEE 802.3 (poly 0x04C11DB7), with
 * the same pre/post inversion as zlib's crc32(), so that
 * ibw_crc32(ibw_crc32(0, a, n), b, m) == ibw_crc32(0, a||b, n+m).
 * The ICRC is this CRC over the masked invariant fields (packet.h does the
 * masking).
 *
 * ibw_crc16_vcrc(): the VCRC, CRC-16 poly 0x100B reflected, initial 0xFFFF,
 * final XOR 0xFFFF, over the whole LRH-to-ICRC packet.
 */
#ifndef IBWIRE_CRC_H
#define IBWIRE_CRC_H

#include "base.h"

/* One byte of the reflected CRC-32, computed without tables (used to build
 * the tables at compile time would need C23; we build them lazily per call
 * site instead, see ibw__crc32_table). */
static inline uint32_t ibw__crc32_byte(uint32_t c)
{
    for (int k = 0; k < 8; k++)
        c = (c & 1u) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
    return c;
}

/* The 256-entry table, as a constant the compiler keeps in .rodata. */
static inline const uint32_t *ibw__crc32_table(void)
{
#define IBW__C1(n) ((n) & 1u ? ((n) >> 1) ^ 0xEDB88320u : (n) >> 1)
#define IBW__C2(n) IBW__C1(IBW__C1(n))
#define IBW__C8(n) IBW__C2(IBW__C2(IBW__C2(IBW__C2((uint32_t)(n)))))
#define IBW__R4(n) IBW__C8(n), IBW__C8(n + 1), IBW__C8(n + 2), IBW__C8(n + 3)
#define IBW__R16(n) IBW__R4(n), IBW__R4(n + 4), IBW__R4(n + 8), IBW__R4(n + 12)
#define IBW__R64(n) \
    IBW__R16(n), IBW__R16(n + 16), IBW__R16(n + 32), IBW__R16(n + 48)
    static const uint32_t table[256] = {IBW__R64(0u), IBW__R64(64u),
                                        IBW__R64(128u), IBW__R64(192u)};
#undef IBW__C1
#undef IBW__C2
#undef IBW__C8
#undef IBW__R4
#undef IBW__R16
#undef IBW__R64
    return table;
}

/* Continue a zlib-compatible CRC-32: pass 0 to start; the result of one call
 * is the `crc` of the next.  buf may be NULL when len is 0. */
static inline uint32_t ibw_crc32(uint32_t crc, const void *buf, size_t len)
{
    const uint32_t *t = ibw__crc32_table();
    const uint8_t *p = (const uint8_t *)buf;
    uint32_t c = ~crc;
    for (size_t i = 0; i < len; i++)
        c = t[(c ^ p[i]) & 0xFFu] ^ (c >> 8);
    return ~c;
}

/* Continue a VCRC: pass 0xFFFF to start, XOR the final value with 0xFFFF
 * (ibw_vcrc() does both).  Bitwise; VCRCs cover one packet at a time. */
static inline uint16_t ibw_crc16_update(uint16_t crc, const void *buf,
                                        size_t len)
{
    const uint8_t *p = (const uint8_t *)buf;
    uint32_t c = crc;
    for (size_t i = 0; i < len; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c & 1u) ? (c >> 1) ^ 0xD008u : c >> 1; /* 0x100B reflected */
    }
    return (uint16_t)c;
}

/* The VCRC of len bytes (LRH through ICRC). */
static inline uint16_t ibw_vcrc(const void *buf, size_t len)
{
    return (uint16_t)(ibw_crc16_update(0xFFFF, buf, len) ^ 0xFFFFu);
}

#endif /* IBWIRE_CRC_H */
