/* check_int.h - what the checker's files share (not for users). */
#ifndef IBWIRE_CHECK_INT_H
#define IBWIRE_CHECK_INT_H

#include <stdarg.h>
#include <string.h>

#include "check.h"

#define CHK_PSN_MASK 0xFFFFFFu
#define CHK_HIST 256u      /* per-flow history of request PSNs (power of 2) */
#define CHK_OUTSTANDING 64 /* per-flow READ/atomic requests remembered */

/* 24-bit PSN difference a - b as a signed number in [-2^23, 2^23). */
static inline int32_t chk_psn_diff(uint32_t a, uint32_t b)
{
    uint32_t d = (a - b) & CHK_PSN_MASK;
    return d & 0x800000u ? (int32_t)d - 0x1000000 : (int32_t)d;
}

static inline uint32_t chk_psn_add(uint32_t a, uint32_t n)
{
    return (a + n) & CHK_PSN_MASK;
}

/* Same endpoint address? */
static inline int chk_addr_eq(const struct chk_addr *a, const struct chk_addr *b)
{
    return a->kind == b->kind && !memcmp(a->a, b->a, sizeof a->a);
}

/* What a packet was, per PSN, when first sent. */
struct chk_hist {
    uint32_t psn;
    uint8_t opcode;
    uint8_t valid;
    uint16_t paylen;
};

/* A READ or atomic request waiting for its response. */
struct chk_outst {
    uint32_t psn;
    uint32_t span;      /* PSNs consumed; 0 = not known yet (PMTU unknown) */
    uint32_t len;       /* READ: DMA length */
    uint8_t kind;       /* IBW_OPK_READ or IBW_OPK_ATOMIC */
    uint8_t answered;
};

enum chk_msg_state {
    CHK_MSG_NONE = 0,   /* between messages */
    CHK_MSG_SEND,       /* a SEND message is open */
    CHK_MSG_WRITE,      /* an RDMA WRITE message is open */
    CHK_MSG_UNKNOWN     /* after a gap/start/retransmit: accept anything */
};

enum chk_pending { CHK_PEND_NONE = 0, CHK_PEND_NAK_SEQ, CHK_PEND_RNR };

struct chk_flow {
    struct chk_flow_summary s;
    uint8_t tr;             /* enum ibw_transport */
    uint8_t tr_known;       /* tr set: by the first packet or by CM's REQ */
    uint16_t pkey;
    uint16_t resp_pkey;
    uint8_t have_pkey, have_resp_pkey;
    /* requests */
    uint8_t have_psn;
    uint32_t next_psn;      /* the next new PSN expected */
    uint32_t first_psn;     /* first request PSN seen */
    uint8_t msg;            /* enum chk_msg_state */
    uint8_t in_retrans;
    uint8_t span_unknown;   /* last READ's span not known: PSN may jump */
    uint32_t span_max;      /* ... by at most this many */
    uint8_t cm_psn_pending; /* CM gave a starting PSN to check */
    uint32_t cm_start_psn;  /* the side's own starting PSN */
    uint32_t cm_alt_psn;    /* the peer's (IPoIB-CM starts there) */
    uint64_t msgs_done;     /* messages completed by requests seen */
    uint8_t wr_open;        /* an RDMA WRITE's FIRST seen, its LAST not yet */
    uint32_t wr_len;        /* ... its RETH DMA Length */
    uint64_t wr_bytes;      /* ... payload bytes of its packets so far */
    struct chk_hist hist[CHK_HIST];
    struct chk_outst out[CHK_OUTSTANDING];
    unsigned nout, out_head;
    /* responses */
    uint8_t have_ack;
    uint32_t last_ack;      /* highest PSN acknowledged */
    uint8_t have_msn;
    uint32_t msn;
    uint32_t msn_first;     /* the first MSN seen */
    uint8_t pending;        /* enum chk_pending */
    uint32_t pend_psn;
    uint64_t pend_ts;
    uint32_t pend_rnr_us;
    /* read response in progress */
    int rr_idx;             /* index into out[], -1 none */
    uint32_t rr_next;       /* next response PSN expected */
    uint32_t rr_bytes;      /* bytes received so far */
    uint8_t rr_open;
};

/* Flow-table key: (src, dst, qpn) of a request or of a response alias,
 * packed into words so that building, hashing and comparing it (several
 * times a packet) are a few word operations: w[0..1] the source address,
 * w[2..3] the destination's, w[4] both kinds, the role (1 request key,
 * 2 response alias) and the QPN. */
struct chk_key {
    uint64_t w[5];
};

struct chk_slot {
    struct chk_key key;
    uint32_t hash;          /* of key: most probes end on it, not memcmp */
    uint32_t flow;          /* index + 1; 0 = empty slot */
};

struct chk_cm;

struct chk {
    struct chk_opts o;
    struct chk_stats st;
    uint64_t frame;
    uint64_t ts_ns;
    struct chk_flow *flows;
    uint32_t nflows, capflows;
    struct chk_slot *slots;
    uint32_t nslots, used;
    struct chk_cm *cm;
    uint32_t ncm, capcm;
    struct chk_flow *cur_flow; /* flow of the packet being judged */
    char msg[512];
};

/* Report rule r for the current frame (printf-style evidence). */
void chk_report(struct chk *c, unsigned rule, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Per-packet rules; returns 0 when the packet cannot be judged further. */
int chk_packet(struct chk *c, const struct ibw_pkt *p, int truncated);

/* Source and destination addresses of a parsed packet. */
void chk_pkt_addrs(const struct ibw_pkt *p, struct chk_addr *src,
                   struct chk_addr *dst);

/* Flow rules for a packet with a BTH: RC/UC/XRC ones join their flow,
 * any one is held to the transport of the flows its QP has. */
void chk_flow_packet(struct chk *c, const struct ibw_pkt *p);

/* Look up / create the flow of requests src -> dst:qpn. */
struct chk_flow *chk_flow_get(struct chk *c, const struct chk_addr *src,
                              const struct chk_addr *dst, uint32_t qpn,
                              int create);

/* The flow a response src -> dst:qpn was bound to, or NULL. */
struct chk_flow *chk_flow_of_response(struct chk *c, const struct chk_addr *src,
                                      const struct chk_addr *dst, uint32_t qpn);

/* Add a response alias: responses dst -> src:req_qpn belong to flow f. */
void chk_flow_bind(struct chk *c, struct chk_flow *f, uint32_t req_qpn);

/* CM rules for a MAD to QP1 that decoded as a CM message. */
void chk_cm_mad(struct chk *c, const struct ibw_pkt *p, const uint8_t *mad,
                size_t len);

/* Free the CM table. */
void chk_cm_free(struct chk *c);

#endif
