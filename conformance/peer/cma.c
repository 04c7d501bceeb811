/* SPDX-License-Identifier: Apache-2.0 */
/* cma.c - annex A11's CMA header (see cma.h). */
#include <stdio.h>
#include <string.h>

#include <ibwire/base.h>

#include "cma.h"

uint64_t peer_cma_service_id(uint16_t port_space, uint16_t port)
{
    /* the port spaces (0x01PP) carry the 0x01 of the prefix */
    return ((uint64_t)port_space << 16) | port;
}

int peer_cma_parse_sid(uint64_t sid, uint16_t *port_space, uint16_t *port)
{
    if ((sid >> 24) != 0x01u)
        return 0;
    *port_space = (uint16_t)(sid >> 16);
    *port = (uint16_t)sid;
    return 1;
}

void peer_cma_encode4(uint8_t out[PEER_CMA_HDR_LEN], uint16_t src_port,
                      uint32_t src, uint32_t dst)
{
    memset(out, 0, PEER_CMA_HDR_LEN);
    out[0] = 0x00;      /* version 0.0 */
    out[1] = 4u << 4;   /* IPv4 */
    ibw_store_be16(out + 2, src_port);
    ibw_store_be32(out + 16, src);
    ibw_store_be32(out + 32, dst);
}

void peer_cma_encode6(uint8_t out[PEER_CMA_HDR_LEN], uint16_t src_port,
                      const uint8_t src[16], const uint8_t dst[16])
{
    memset(out, 0, PEER_CMA_HDR_LEN);
    out[1] = 6u << 4;
    ibw_store_be16(out + 2, src_port);
    memcpy(out + 4, src, 16);
    memcpy(out + 20, dst, 16);
}

int peer_cma_decode(const uint8_t *p, size_t len, struct peer_cma *h,
                    char *err, size_t errlen)
{
    memset(h, 0, sizeof *h);
    if (len < PEER_CMA_HDR_LEN) {
        snprintf(err, errlen, "CMA header: %zu bytes of private data, 36 needed",
                 len);
        return -1;
    }
    h->major = p[0] >> 4;
    h->minor = p[0] & 15u;
    h->ip_version = p[1] >> 4;
    h->src_port = ibw_load_be16(p + 2);
    memcpy(h->src, p + 4, 16);
    memcpy(h->dst, p + 20, 16);
    if (h->major != 0) {
        snprintf(err, errlen, "CMA header: version %u.%u (0.0 expected)",
                 h->major, h->minor);
        return -1;
    }
    if (h->ip_version != 4 && h->ip_version != 6) {
        snprintf(err, errlen, "CMA header: IP version %u (4 or 6)", h->ip_version);
        return -1;
    }
    return 0;
}

uint32_t peer_cma_ip4(const uint8_t a[16])
{
    return ibw_load_be32(a + 12);
}
