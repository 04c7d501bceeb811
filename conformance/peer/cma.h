/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cma.h - the IP-based CM service of IBA Vol. 1 annex A11 (RDMA IP CM
 * Service), as Linux's RDMA CM (drivers/infiniband/core/cma.c, struct
 * cma_hdr) puts it at the head of a REQ's private data:
 *
 *   byte 0      version: major (7:4) and minor (3:0), 0.0
 *   byte 1      IP version (7:4): 4 or 6; (3:0) reserved
 *   bytes 2-3   source port (the active side's), big-endian
 *   bytes 4-19  source IP address: IPv6, or IPv4 in bytes 16-19 (12 zero
 *               bytes before it, not the ::ffff: mapping)
 *   bytes 20-35 destination IP address, the same way
 *   bytes 36-91 the consumer's private data (56 bytes)
 *
 * and the service ID 0x0000000001PPpppp: the port space 0x01PP
 * (RDMA_PS_TCP 0x0106, RDMA_PS_UDP 0x0111, RDMA_PS_IB 0x013F; PP is the
 * IP protocol number) shifted 16 left, and the destination port (pppp).  A REP
 * carries the consumer's data only.
 */
#ifndef IBW_PEER_CMA_H
#define IBW_PEER_CMA_H

#include <stddef.h>
#include <stdint.h>

#define PEER_CMA_HDR_LEN 36u
#define PEER_CMA_PS_TCP 0x0106u
#define PEER_CMA_PS_UDP 0x0111u

struct peer_cma {
    uint8_t major, minor;
    uint8_t ip_version;   /* 4 or 6 */
    uint16_t src_port;
    uint8_t src[16], dst[16]; /* IPv6; IPv4 in the last four bytes */
};

/* (port_space << 16) | port: 0x0000000001PPpppp */
uint64_t peer_cma_service_id(uint16_t port_space, uint16_t port);
/* 1 when sid is an IP CM service ID (prefix 0x0000000001), with the port
 * space and port; 0 otherwise. */
int peer_cma_parse_sid(uint64_t sid, uint16_t *port_space, uint16_t *port);
/* The 36-byte header for IPv4 addresses (host order). */
void peer_cma_encode4(uint8_t out[PEER_CMA_HDR_LEN], uint16_t src_port,
                      uint32_t src, uint32_t dst);
/* The 36-byte header for IPv6 addresses (IP version 6, all 16 bytes). */
void peer_cma_encode6(uint8_t out[PEER_CMA_HDR_LEN], uint16_t src_port,
                      const uint8_t src[16], const uint8_t dst[16]);
/* Decode; 0, or -1 with a message naming the field. */
int peer_cma_decode(const uint8_t *p, size_t len, struct peer_cma *h,
                    char *err, size_t errlen);
/* The IPv4 address of an IPv4 header's field (host order). */
uint32_t peer_cma_ip4(const uint8_t a[16]);

#endif
