/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perftest.h - the server side of perftest's `-R` exchange (linux-rdma
 * perftest, Debian 12's 4.5+0.17, "Data ex. method: rdma_cm").
 *
 * With -R perftest makes two RDMA CM connections to the same RDMA_PS_TCP
 * port (18515): first a "comm" RC QP on which every exchange is a SEND the
 * client makes and the server answers with a SEND of the same length (the
 * client writes first, the server reads first: ctx_xchg_data_rdma,
 * ctx_hand_shake), then the test's own QP.  What goes over the comm QP, as
 * a real run between two Linux 6.1 rxe devices shows it (write, read and
 * send, -s 4096 -n 200):
 *
 *   16 bytes  the version string, NUL padded ("6.06")
 *    4 bytes  the cycle buffer (page size), big-endian
 *    4 bytes  the cache line size, big-endian
 *    2 bytes  the port's MTU enum as a decimal string ("3" = 1024)
 *   56 bytes  struct pingpong_dest, big-endian: lid, out_reads, qpn, psn,
 *             rkey, 4 bytes of padding (uninitialised), vaddr, gid[16],
 *             srqn, gid_index; zero until the test QP is set up: once
 *             before the test QP's CM exchange and once after, then with
 *             values three times before the test (send: four, the last
 *             after its receives are posted), and write/read once after
 *    8 bytes  five times, write and read only: the BW report (size,
 *             iterations, peak, average, message rate; big-endian)
 *   56 bytes  a last pingpong_dest to close
 *
 * then the client sends a DREQ on each connection.  pt_reply() is that
 * exchange as a pure function, so it can be held against the bytes of the
 * real capture (test_peer_perftest).
 */
#ifndef IBW_PEER_PERFTEST_H
#define IBW_PEER_PERFTEST_H

#include <stddef.h>
#include <stdint.h>

#define PT_VERSION_LEN 16u
#define PT_DEST_LEN 56u
#define PT_REPORT_LEN 8u
#define PT_MTU_LEN 2u
#define PT_INT_LEN 4u
#define PT_MAX_MSG 64u     /* the largest message of the exchange, rounded */
#define PT_PORT 18515u     /* perftest's default port (-p) */

/* the client's test (ib_write_bw, ib_read_bw, ib_send_bw) */
enum pt_verb { PT_WRITE, PT_READ, PT_SEND };

/* the bytes of the engine's test region, which a READ client checks */
static inline uint8_t pt_region_byte(uint32_t i) { return (uint8_t)(i * 7u + 3u); }

/* struct pingpong_dest, host values */
struct pt_dest {
    uint32_t lid, out_reads, qpn, psn, rkey;
    uint64_t vaddr;
    uint8_t gid[16];
    uint32_t srqn, gid_index;
};

void pt_dest_encode(uint8_t out[PT_DEST_LEN], const struct pt_dest *d);
void pt_dest_decode(const uint8_t in[PT_DEST_LEN], struct pt_dest *d);

/* The server's side of the comm exchange. */
struct pt_server {
    /* what this side announces */
    uint32_t cycle_buffer, cache_line;
    struct pt_dest dest;     /* sent once `ready` (the test QP is set up) */
    int ready;
    /* what was seen */
    char version[PT_VERSION_LEN + 1];
    unsigned ints, dests, reports, mtus, msgs;
    unsigned dests_ready;    /* pingpong_dests answered with `dest` */
    struct pt_dest client;   /* the client's last pingpong_dest */
    uint64_t report[5];      /* the client's BW report, as sent */
};

void pt_server_init(struct pt_server *s, uint32_t cycle_buffer,
                    uint32_t cache_line);
/* The answer to one message of the client: its bytes to out (cap at least
 * PT_MAX_MSG), its length the return value; -1 (err filled) when the
 * message is no step of the exchange. */
int pt_reply(struct pt_server *s, const uint8_t *msg, size_t len, uint8_t *out,
             size_t cap, char *err, size_t errlen);

#endif
