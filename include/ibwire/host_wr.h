/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire/host_wr.h - work requests (catalog H7) and the WQE bytes they
 * become in the H1/H2 layout of host_wqe.h.
 *
 * The structs carry every element the WR/WQE/CQE article §1.3 lists for send,
 * RDMA write, RDMA read, both atomics, memory-window bind and receive.
 * Opcode, flag and access values mirror libibverbs (IBV_WR_*, IBV_SEND_*,
 * IBV_ACCESS_*) so they pass through unchanged.
 *
 * A built WQE ends the chain (its NextSeg has nds = 0).  To append it to a
 * queue, link the previous WQE's NextSeg to it with ibw_wqe_link(); the
 * first WQE's opcode/size/fence go into the doorbell instead.
 */
#ifndef IBWIRE_HOST_WR_H
#define IBWIRE_HOST_WR_H

#include "base.h"
#include "host_wqe.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Work request opcodes (IBV_WR_* values). */
enum ibw_wr_opcode {
    IBW_WR_RDMA_WRITE = 0,
    IBW_WR_RDMA_WRITE_WITH_IMM = 1,
    IBW_WR_SEND = 2,
    IBW_WR_SEND_WITH_IMM = 3,
    IBW_WR_RDMA_READ = 4,
    IBW_WR_ATOMIC_CMP_AND_SWP = 5,
    IBW_WR_ATOMIC_FETCH_AND_ADD = 6,
    IBW_WR_BIND_MW = 8,
    IBW_WR_SEND_WITH_INV = 9 /* imm_data holds the R_Key to invalidate */
};

/* Send flags (IBV_SEND_* values). */
enum ibw_send_flags {
    IBW_SEND_FENCE = 1u << 0,     /* fence indicator */
    IBW_SEND_SIGNALED = 1u << 1,  /* CQE generation indicator */
    IBW_SEND_SOLICITED = 1u << 2, /* solicited event indicator */
    IBW_SEND_INLINE = 1u << 3     /* copy the data into the WQE */
};

/* Memory-window access (IBV_ACCESS_* values). */
enum ibw_access_flags {
    IBW_ACCESS_LOCAL_WRITE = 1u << 0,
    IBW_ACCESS_REMOTE_WRITE = 1u << 1,
    IBW_ACCESS_REMOTE_READ = 1u << 2,
    IBW_ACCESS_REMOTE_ATOMIC = 1u << 3,
    IBW_ACCESS_MW_BIND = 1u << 4
};

/* One gather/scatter buffer: virtual address, length, L_Key. */
struct ibw_sge {
    uint64_t addr;
    uint32_t length;
    uint32_t lkey;
};

/* Where a datagram (UD) or raw packet goes: the address handle. */
struct ibw_ah {
    uint16_t dlid;          /* destination LID */
    uint16_t slid;          /* source LID (HanGu puts it in the WQE) */
    uint8_t src_path_bits;  /* source path bits (raw) */
    uint8_t sl;             /* service level */
    uint8_t static_rate;    /* maximum static rate */
    uint8_t port;           /* port to send from */
    uint8_t is_global;      /* a GRH follows: the fields below are used */
    uint8_t sgid_index;
    uint8_t hop_limit;
    uint8_t tclass;
    uint32_t flow_label;
    uint8_t dgid[16];
    uint8_t eth;            /* RoCE: address by MAC/IPv4 instead of LID */
    uint8_t dmac[6];
    uint8_t smac[6];
    uint32_t sip;           /* IPv4, host order */
    uint32_t dip;
    uint16_t ethertype;     /* raw Ethertype QPs */
};

/* A work request for a send queue (WR/WQE/CQE article §1.3.1). */
struct ibw_send_wr {
    uint64_t hca_handle;    /* target HCA and QP: identify the queue, */
    uint64_t qp_handle;     /* not encoded in the WQE */
    uint64_t wr_id;         /* returned in the completion */
    uint32_t opcode;        /* enum ibw_wr_opcode */
    uint32_t send_flags;    /* enum ibw_send_flags */
    const struct ibw_sge *sg_list; /* gather (send, write) or scatter
                                      (read, atomics: one 8-byte entry) */
    uint32_t num_sge;       /* 0 is valid */
    const uint8_t *inline_data; /* IBW_SEND_INLINE: the bytes to copy */
    uint32_t inline_len;
    uint32_t imm_data;      /* *_WITH_IMM: immediate data; SEND_WITH_INV:
                               the R_Key to invalidate (verbs' union) */
    uint32_t remote_qpn;    /* UD, RD: destination QP */
    uint32_t remote_qkey;   /* UD, RD: Q_Key */
    uint32_t eecn;          /* RD: local EE context */
    struct ibw_ah ah;       /* UD (and raw) addressing */
    struct {
        uint64_t remote_addr; /* RETH VA */
        uint32_t rkey;        /* RETH R_Key */
        uint32_t length;      /* transfer length, must equal the data */
    } rdma;
    struct {
        uint64_t remote_addr;
        uint32_t rkey;
        uint64_t compare_add;  /* CmpSwap: compare data; FetchAdd: add data */
        uint64_t swap;         /* CmpSwap: swap data */
    } atomic;
    struct {
        uint64_t mw_handle;    /* the window */
        uint32_t mw_rkey;      /* its current R_Key */
        uint32_t new_rkey;     /* the R_Key it gets */
        uint64_t mr_handle;    /* the region it binds to */
        uint32_t mr_lkey;      /* that region's L_Key */
        uint64_t addr;         /* first byte bound */
        uint64_t length;       /* bytes bound */
        uint32_t access;       /* enum ibw_access_flags */
    } bind;
};

/* A work request for a receive queue (WR/WQE/CQE article §1.3.2). */
struct ibw_recv_wr {
    uint64_t hca_handle;
    uint64_t qp_handle;
    uint64_t wr_id;
    const struct ibw_sge *sg_list; /* scatter list; empty is valid (RDMA
                                      WRITE with immediate) */
    uint32_t num_sge;
};

/* What a built WQE tells its predecessor's NextSeg (or the doorbell). */
struct ibw_wqe_desc {
    uint8_t opcode; /* enum ibw_wqe_opcode (0 for receive WQEs) */
    uint8_t size;   /* 16-byte units */
    uint8_t fence;  /* IBW_SEND_FENCE */
};

/* The WQE opcode of a WR opcode; IBW_E_OPCODE for one without a WQE. */
static inline int ibw_wr_to_wqe_opcode(unsigned wr_op, uint8_t *out)
{
    switch (wr_op) {
    case IBW_WR_RDMA_WRITE: *out = IBW_WQE_OP_RDMA_WRITE; return IBW_OK;
    case IBW_WR_RDMA_WRITE_WITH_IMM: *out = IBW_WQE_OP_RDMA_WRITE_IMM; return IBW_OK;
    case IBW_WR_SEND: *out = IBW_WQE_OP_SEND; return IBW_OK;
    case IBW_WR_SEND_WITH_IMM: *out = IBW_WQE_OP_SEND_IMM; return IBW_OK;
    case IBW_WR_RDMA_READ: *out = IBW_WQE_OP_RDMA_READ; return IBW_OK;
    case IBW_WR_ATOMIC_CMP_AND_SWP: *out = IBW_WQE_OP_ATOMIC_CS; return IBW_OK;
    case IBW_WR_ATOMIC_FETCH_AND_ADD: *out = IBW_WQE_OP_ATOMIC_FA; return IBW_OK;
    case IBW_WR_BIND_MW: *out = IBW_WQE_OP_BIND_MW; return IBW_OK;
    case IBW_WR_SEND_WITH_INV: *out = IBW_WQE_OP_SEND_INV; return IBW_OK;
    default: return IBW_E_OPCODE;
    }
}

/* Write n DataSegs from sg at p. */
static inline void ibw__wr_put_sges(const struct ibw_sge *sg, uint32_t n,
                                    unsigned layout, uint8_t *p)
{
    for (uint32_t i = 0; i < n; i++) {
        struct ibw_wqe_data d;
        d.byte_count = sg[i].length & 0x7FFFFFFFu;
        d.inline_flag = 0;
        d.lkey = sg[i].lkey;
        d.addr = sg[i].addr;
        ibw_wqe_data_encode_layout(&d, layout, p + (size_t)i * IBW_WQE_UNIT,
                           IBW_WQE_UNIT);
    }
}

/* Bytes of data a send WR carries (inline or gathered). */
static inline uint64_t ibw__wr_data_len(const struct ibw_send_wr *wr)
{
    uint64_t total = 0;
    if (wr->send_flags & IBW_SEND_INLINE)
        return wr->inline_len;
    for (uint32_t i = 0; i < wr->num_sge; i++)
        total += wr->sg_list[i].length;
    return total;
}

/*
 * The send WQE for wr on a QP of `service` (enum ibw_transport: RC, UC or
 * UD), in `layout` byte order, written to out[0..cap).  The WQE ends the
 * chain; *desc gets its opcode, size and fence for linking.  Segments:
 * NextSeg, [UDSeg], [RaddrSeg], [AtomicSeg] or [BindSeg], then the
 * DataSegs or one InlineSeg padded to 16 bytes.
 *
 * Errors: IBW_E_OPCODE (unknown WR opcode, or not allowed on `service`),
 * IBW_E_RANGE (a data length >= 2^31, an atomic without exactly one
 * scatter entry, inline data on READ/atomic/bind, NULL data), IBW_E_LENGTH
 * (RDMA length differs from the data, 2 GiB or more, atomic entry not 8
 * bytes), IBW_E_NOSPACE (more than 63 units, or cap too small),
 * IBW_E_UNSUPPORTED (UD with the mthca layout: its address vector is not
 * modelled; RD service).
 */
static inline int ibw_wqe_build_send(const struct ibw_send_wr *wr,
                                     unsigned layout, unsigned service,
                                     uint8_t *out, size_t cap,
                                     struct ibw_wqe_desc *desc)
{
    uint8_t op;
    int err = ibw_wr_to_wqe_opcode(wr->opcode, &op);
    if (err)
        return err;
    if (service != IBW_TR_RC && service != IBW_TR_UC && service != IBW_TR_UD)
        return IBW_E_UNSUPPORTED;
    if (!ibw_wqe_opcode_allowed(op, service))
        return IBW_E_OPCODE;
    int is_ud = service == IBW_TR_UD;
    if (is_ud && layout == IBW_WQE_LAYOUT_MTHCA)
        return IBW_E_UNSUPPORTED;
    int is_atomic = op == IBW_WQE_OP_ATOMIC_CS || op == IBW_WQE_OP_ATOMIC_FA;
    int has_raddr = is_atomic || op == IBW_WQE_OP_RDMA_WRITE ||
                    op == IBW_WQE_OP_RDMA_WRITE_IMM ||
                    op == IBW_WQE_OP_RDMA_READ;
    int is_bind = op == IBW_WQE_OP_BIND_MW;
    int may_inline = op == IBW_WQE_OP_SEND || op == IBW_WQE_OP_SEND_IMM ||
                     op == IBW_WQE_OP_SEND_INV || op == IBW_WQE_OP_RDMA_WRITE ||
                     op == IBW_WQE_OP_RDMA_WRITE_IMM;
    int use_inline = (wr->send_flags & IBW_SEND_INLINE) != 0;

    if (use_inline && (!may_inline ||
                       (wr->inline_len && wr->inline_data == NULL)))
        return IBW_E_RANGE;
    if (!use_inline && wr->num_sge && wr->sg_list == NULL)
        return IBW_E_RANGE;
    if (is_bind && (use_inline || wr->num_sge))
        return IBW_E_RANGE;
    if (is_atomic && (wr->num_sge != 1))
        return IBW_E_RANGE;
    if (is_atomic && wr->sg_list[0].length != 8)
        return IBW_E_LENGTH;
    if (!use_inline)
        for (uint32_t i = 0; i < wr->num_sge; i++)
            if (wr->sg_list[i].length & 0x80000000u)
                return IBW_E_RANGE;
    if (use_inline && wr->inline_len & 0x80000000u)
        return IBW_E_RANGE;
    uint64_t data_len = ibw__wr_data_len(wr);
    if (!is_ud && data_len >= IBW_WQE_MAX_MSG)
        return IBW_E_LENGTH;
    if (has_raddr && !is_atomic && wr->rdma.length != data_len)
        return IBW_E_LENGTH;

    uint64_t units = 1;
    if (is_ud)
        units += IBW_WQE_UD_UNITS;
    if (has_raddr)
        units++;
    if (is_atomic)
        units++;
    if (is_bind)
        units += IBW_WQE_BIND_UNITS;
    uint64_t data_at = units;
    if (use_inline)
        units += ((uint64_t)wr->inline_len + IBW_WQE_INLINE_HDR_BYTES +
                  IBW_WQE_UNIT - 1) / IBW_WQE_UNIT;
    else
        units += wr->num_sge;
    if (units > IBW_WQE_MAX_UNITS || units * IBW_WQE_UNIT > cap)
        return IBW_E_NOSPACE;

    memset(out, 0, (size_t)units * IBW_WQE_UNIT);
    struct ibw_wqe_next nx;
    memset(&nx, 0, sizeof nx);
    nx.cq_update = (wr->send_flags & IBW_SEND_SIGNALED) ? 1 : 0;
    nx.solicit = (wr->send_flags & IBW_SEND_SOLICITED) ? 1 : 0;
    if (op == IBW_WQE_OP_SEND_IMM || op == IBW_WQE_OP_RDMA_WRITE_IMM ||
        op == IBW_WQE_OP_SEND_INV)
        nx.imm = wr->imm_data;
    ibw_wqe_next_encode_layout(&nx, layout, out, IBW_WQE_UNIT);
    uint8_t *p = out + IBW_WQE_UNIT;
    if (is_ud) {
        const struct ibw_ah *ah = &wr->ah;
        struct ibw_wqe_ud ud;
        memset(&ud, 0, sizeof ud);
        ud.port = ah->port;
        if (ah->eth) {
            ud.dlid = (uint16_t)(((unsigned)ah->dmac[4] << 8) | ah->dmac[5]);
            ud.slid = (uint16_t)(((unsigned)ah->smac[4] << 8) | ah->smac[5]);
            ud.dmac_hi = ibw_load_be32(ah->dmac);
            ud.smac_hi = ibw_load_be32(ah->smac);
            ud.sip = ah->sip;
            ud.dip = ah->dip;
        } else {
            ud.dlid = ah->dlid;
            ud.slid = ah->slid;
        }
        ud.dqpn = wr->remote_qpn;
        ud.qkey = wr->remote_qkey;
        ibw_wqe_ud_encode_layout(&ud, layout, p, IBW_WQE_UD_BYTES);
        p += IBW_WQE_UD_BYTES;
    }
    if (has_raddr) {
        struct ibw_wqe_raddr ra;
        ra.raddr = is_atomic ? wr->atomic.remote_addr : wr->rdma.remote_addr;
        ra.rkey = is_atomic ? wr->atomic.rkey : wr->rdma.rkey;
        ibw_wqe_raddr_encode_layout(&ra, layout, p, IBW_WQE_UNIT);
        p += IBW_WQE_UNIT;
    }
    if (is_atomic) {
        struct ibw_wqe_atomic at;
        if (op == IBW_WQE_OP_ATOMIC_CS) {
            at.swap_add = wr->atomic.swap;
            at.compare = wr->atomic.compare_add;
        } else {
            at.swap_add = wr->atomic.compare_add;
            at.compare = 0;
        }
        ibw_wqe_atomic_encode_layout(&at, layout, p, IBW_WQE_UNIT);
        p += IBW_WQE_UNIT;
    }
    if (is_bind) {
        struct ibw_wqe_bind b;
        b.remote_read = (wr->bind.access & IBW_ACCESS_REMOTE_READ) ? 1 : 0;
        b.remote_write = (wr->bind.access & IBW_ACCESS_REMOTE_WRITE) ? 1 : 0;
        b.remote_atomic =
            (wr->bind.access & IBW_ACCESS_REMOTE_ATOMIC) ? 1 : 0;
        b.new_rkey = wr->bind.new_rkey;
        b.lkey = wr->bind.mr_lkey;
        b.addr = wr->bind.addr;
        b.length = wr->bind.length;
        ibw_wqe_bind_encode_layout(&b, layout, p, IBW_WQE_BIND_BYTES);
        p += IBW_WQE_BIND_BYTES;
    }
    if (use_inline) {
        struct ibw_wqe_inline h;
        h.byte_count = wr->inline_len;
        h.inline_flag = 1;
        ibw_wqe_inline_encode_layout(&h, layout, p, IBW_WQE_INLINE_HDR_BYTES);
        if (wr->inline_len)
            memcpy(p + IBW_WQE_INLINE_HDR_BYTES, wr->inline_data,
                   wr->inline_len);
    } else {
        ibw__wr_put_sges(wr->sg_list, wr->num_sge, layout,
                         out + data_at * IBW_WQE_UNIT);
    }
    desc->opcode = op;
    desc->size = (uint8_t)units;
    desc->fence = (wr->send_flags & IBW_SEND_FENCE) ? 1 : 0;
    return IBW_OK;
}

/*
 * The receive WQE for wr: NextSeg, one DataSeg per scatter entry, and the
 * terminator (HanGu: 16 zero bytes; mthca: L_Key 0x100).  The NextSeg ends
 * the chain; mthca's receive NextSeg has DBD set.
 * A scatter entry whose DataSeg would be the terminator (HanGu: address,
 * length and L_Key all 0, since every DataSeg bit is a field there is no
 * other encoding; mthca: address 0, length 0, L_Key 0x100) would end the
 * list early for the walker and the hardware (HanGu RDMA engine design
 * fig. 4.8), so it is refused.
 * Errors: IBW_E_RANGE (a length >= 2^31, NULL list, a scatter entry that
 * encodes as the terminator), IBW_E_NOSPACE (more than 63 units or cap too
 * small).  On error out holds nothing useful.
 */
static inline int ibw_wqe_build_recv(const struct ibw_recv_wr *wr,
                                     unsigned layout, uint8_t *out,
                                     size_t cap, struct ibw_wqe_desc *desc)
{
    if (wr->num_sge && wr->sg_list == NULL)
        return IBW_E_RANGE;
    for (uint32_t i = 0; i < wr->num_sge; i++)
        if (wr->sg_list[i].length & 0x80000000u)
            return IBW_E_RANGE;
    uint64_t units = 2 + (uint64_t)wr->num_sge;
    if (units > IBW_WQE_MAX_UNITS || units * IBW_WQE_UNIT > cap)
        return IBW_E_NOSPACE;
    memset(out, 0, (size_t)units * IBW_WQE_UNIT);
    struct ibw_wqe_next nx;
    memset(&nx, 0, sizeof nx);
    nx.dbd = layout == IBW_WQE_LAYOUT_MTHCA ? 1 : 0;
    ibw_wqe_next_encode_layout(&nx, layout, out, IBW_WQE_UNIT);
    ibw__wr_put_sges(wr->sg_list, wr->num_sge, layout, out + IBW_WQE_UNIT);
    for (uint32_t i = 0; i < wr->num_sge; i++)
        if (ibw_wqe_is_terminator(out + (1 + (size_t)i) * IBW_WQE_UNIT, layout))
            return IBW_E_RANGE;
    if (layout == IBW_WQE_LAYOUT_MTHCA) {
        struct ibw_wqe_data t;
        memset(&t, 0, sizeof t);
        t.lkey = IBW_MTHCA_INVAL_LKEY;
        ibw_wqe_data_encode_layout(&t, layout, out + (units - 1) * IBW_WQE_UNIT,
                           IBW_WQE_UNIT);
    }
    desc->opcode = 0;
    desc->size = (uint8_t)units;
    desc->fence = 0;
    return IBW_OK;
}

/*
 * Point the NextSeg of the WQE at prev (len bytes available) at the WQE
 * `next` that sits at byte offset next_offset of the same queue: its
 * opcode, offset, size and fence.  The NextSeg's other fields keep their
 * values (its unlisted reserved bits are cleared); the rest of prev is
 * untouched.
 * Errors: IBW_E_TRUNCATED (len < 16), IBW_E_RANGE (offset not aligned to
 * the layout's unit -- 16 bytes HanGu, 64 mthca -- or too large for nda).
 */
static inline int ibw_wqe_link(uint8_t *prev, size_t len, unsigned layout,
                               const struct ibw_wqe_desc *next,
                               uint32_t next_offset)
{
    struct ibw_wqe_next nx;
    unsigned shift = ibw_wqe_nda_shift(layout);
    if (len < IBW_WQE_UNIT)
        return IBW_E_TRUNCATED;
    if (next_offset & ((1u << shift) - 1u))
        return IBW_E_RANGE;
    if (((uint64_t)next_offset >> shift) >> 26)
        return IBW_E_RANGE;
    ibw_wqe_next_decode_layout(prev, len, layout, &nx);
    nx.nopcode = next->opcode;
    nx.nda = next_offset >> shift;
    nx.nds = next->size;
    nx.fence = next->fence;
    return ibw_wqe_next_encode_layout(&nx, layout, prev, len);
}

#ifdef __cplusplus
}
#endif

#endif /* IBWIRE_HOST_WR_H */
