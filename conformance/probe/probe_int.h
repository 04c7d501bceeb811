/* SPDX-License-Identifier: Apache-2.0 */
/* probe_int.h - between the probe's files: frame crafting and decoding. */
#ifndef IBW_PROBE_INT_H
#define IBW_PROBE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "probe.h"

#define PROBE_MAX_FRAME 4400

/* What the probe puts into a frame (craft.c fills an ibw_build_spec). */
struct probe_frame_spec {
    uint8_t opcode;
    uint32_t psn, destqp, srcqp, qkey;
    uint16_t pkey;
    uint8_t ackreq, se, fecn, becn;
    uint64_t va;
    uint32_t rkey, dmalen;
    uint64_t swap, cmp, orig;
    uint8_t syndrome;
    uint32_t msn, imm, ieth;
    uint32_t len, data;    /* payload: len bytes of probe_data_byte(data + i) */
    uint8_t fault;         /* enum probe_fault */
};

enum probe_fault {
    PF_NONE, PF_ICRC, PF_IPVER, PF_IPLEN, PF_UDPPORT, PF_UDPLEN
};

/* Build a RoCEv2/IPv4 frame from the probe to the device.  Its length, or
 * 0 when the spec cannot be built. */
size_t probe_craft(const struct probe_frame_spec *fs, const struct probe_dev *d,
                   uint8_t *out, size_t cap);

/* Recompute the IPv4 header checksum and the ICRC of a RoCEv2/IPv4 frame
 * (no VLAN, IHL 5) over the bytes as they are, after a header was changed:
 * the ICRC is CRC-32 over 8 bytes of ones and the IP datagram from its first
 * byte to the last before the ICRC, with TOS, TTL, header checksum, UDP
 * checksum and BTH byte 4 as ones (RoCEv2 A17.3.3, CA17-22), stored least
 * significant byte first. */
void probe_frame_fix(uint8_t *f, size_t len);

/* A frame the device sent, decoded with ibw_parse. */
struct probe_rx {
    int ok;                /* parsed, with a good ICRC */
    uint8_t opcode, ackreq, se, syndrome, has_aeth;
    uint32_t psn, destqp, msn, paylen, dmalen, rkey, imm;
    uint64_t va, orig;
    const uint8_t *payload;
};
void probe_decode(const uint8_t *f, size_t len, struct probe_rx *rx);
/* "WRITE_FIRST psn=0x1000 len=256 ..." */
void probe_describe(const struct probe_rx *rx, char *out, size_t cap);

/* The script's opcode names: IBW_OP_* value, or -1. */
int probe_opcode_by_name(const char *name);
const char *probe_opcode_name(uint8_t op);

/* The raw-socket frame path (rawsock.c). */
uint64_t probe_mono_ns(void);
/* An AF_PACKET socket on iface, non-blocking; the fd, or -1 with err. */
int probe_rawsock_open(const char *iface, int *ifindex, char *err, size_t errlen);
void probe_rawsock_close(int fd);

int probe_rawsock_send(int fd, int ifindex, const uint8_t *f, size_t len);
/* The next IPv4 frame that came in: 1, 0 none waiting, -1 error; *at
 * (when not NULL): when the kernel took it, on the monotonic clock. */
int probe_rawsock_recv(int fd, uint8_t *buf, size_t cap, size_t *len,
                       uint64_t *at);
/* Wait until a frame may be there, at most ns. */
void probe_rawsock_wait(int fd, uint64_t ns);

/* The reference engine as a device (engdev.c): the engine's IPv4 address;
 * it sends to this ^ 1, its MAC is 02:00 + the address. */
#define PROBE_ENGDEV_IP 0x0A000002u
struct probe_engdev {
    struct ibe_world *w;
    struct ibe_engine *e;
    uint32_t qpn, cq;
    uint32_t lkey[PR_COUNT], rkey[PR_COUNT];
    uint64_t va[PR_COUNT];
    uint64_t faults;        /* the engine's fault modes (faults.h
                               IBE_FAULT_BIT()s), set at every open */
    uint64_t choices;       /* its open choices (choices.h), likewise */
};
/* A fresh world and engine set up for a test; its frames go to tx. */
int probe_engdev_open(struct probe_engdev *s, const struct probe_setup *su,
                      struct probe_dev *d, ibe_tx_fn tx, void *txctx,
                      char *err, size_t errlen);
void probe_engdev_close(struct probe_engdev *s);
int probe_engdev_post_recv(struct probe_engdev *s, uint32_t off, uint32_t len);
int probe_engdev_post_send(struct probe_engdev *s, const struct probe_wr *wr);
int probe_engdev_poll(struct probe_engdev *s, struct probe_cqe *c, int max);
int probe_engdev_mem_read(struct probe_engdev *s, int region, uint32_t off,
                          uint8_t *buf, uint32_t len);

/* The agent's side channel (agent_client.c; agent.c has the protocol):
 * one line of the agent's answer each, 0 or -1 when it is not well formed.
 * "dev QPN IPV4 MAC" and "reg X VA LEN RKEY LKEY ACCESS" fill *d;
 * "cqe recv|send STATUS LEN IMM ..." *c; "mem HEX" len bytes. */
int probe_agent_parse_dev(const char *line, struct probe_dev *d);
int probe_agent_parse_reg(const char *line, struct probe_dev *d);
int probe_agent_parse_cqe(const char *line, struct probe_cqe *c);
int probe_agent_parse_mem(const char *line, uint8_t *buf, uint32_t len);
/* The `qp` command for a test's setup (with its newline). */
int probe_agent_format_qp(const struct probe_setup *s, uint32_t probe_ip4,
                          char *out, size_t cap);

#endif
