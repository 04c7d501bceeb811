/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ports.h - the FIFO layer's ports: every way one module reaches another.
 * Each port packs its arguments into a struct eng_msg and steps the module
 * that owns it (eng_port, through the step table engine.c wires); the
 * module's step function unpacks them.  Records themselves travel in the
 * boundary FIFOs (records.c); a port carries what hands them over and the
 * side values README.md lists.  Nothing here knows a module's insides.
 *
 * The ports are inline so that the message is built in the caller's frame
 * and handed straight to the step function: as out-of-line functions they
 * added a call, a frame and a copy of the arguments to each of the millions
 * of port calls of a benchmark run.  A message gets only the fields its
 * port uses: zero-filling the whole struct cost 8 % of that run's time.
 * Included once, at the end of eng.h.
 */

static inline int eng_xlate(struct ibe_engine *e, int mod_from, uint8_t type, uint8_t op,
              uint32_t pd, uint32_t key, uint64_t va, uint32_t len,
              uint32_t need_access)
{
    struct eng_msg m;
    m.port = PORT_ENG_XLATE;
    m.a[0] = (uint64_t)mod_from, m.a[1] = type, m.a[2] = op, m.a[3] = pd,
        m.a[4] = key, m.a[5] = va, m.a[6] = len, m.a[7] = need_access;
    eng_port(e, M_XLATE, &m);
    return (int)m.ret;
}

static inline int eng_mr_invalidate(struct ibe_engine *e, uint32_t key)
{
    struct eng_msg m;
    m.port = PORT_ENG_MR_INVALIDATE;
    m.a[0] = key;
    eng_port(e, M_XLATE, &m);
    return (int)m.ret;
}

static inline void bw_transmit(struct ibe_engine *e, int from, const uint8_t *pkt, size_t len)
{
    struct eng_msg m;
    m.port = PORT_BW_TRANSMIT;
    m.a[0] = (uint64_t)from, m.a[1] = (uint64_t)len;
    m.cp[0] = pkt;
    eng_port(e, M_TX256TO64, &m);
}

static inline void bw_receive(struct ibe_engine *e, const uint8_t *pkt, size_t len)
{
    struct eng_msg m;
    m.port = PORT_BW_RECEIVE;
    m.a[0] = (uint64_t)len;
    m.cp[0] = pkt;
    eng_port(e, M_RX64TO256, &m);
}

static inline void cxt_read(struct ibe_engine *e, int from, uint8_t type, uint8_t op,
              uint32_t qpn, struct eng_view *v)
{
    struct eng_msg m;
    m.port = PORT_CXT_READ;
    m.a[0] = (uint64_t)from, m.a[1] = type, m.a[2] = op, m.a[3] = qpn;
    m.p[0] = v;
    eng_port(e, M_CXT, &m);
}

static inline void cxt_write(struct ibe_engine *e, int from, uint8_t op, uint32_t qpn,
               uint8_t state, uint32_t psn)
{
    struct eng_msg m;
    m.port = PORT_CXT_WRITE;
    m.a[0] = (uint64_t)from, m.a[1] = op, m.a[2] = qpn, m.a[3] = state,
        m.a[4] = psn;
    eng_port(e, M_CXT, &m);
}

static inline void cxt_cq_push(struct ibe_engine *e, uint32_t cqn, const struct ibe_wc *wc,
                 uint32_t wqe_offset, int is_send, uint32_t qpn, uint8_t opcode)
{
    struct eng_msg m;
    m.port = PORT_CXT_CQ_PUSH;
    m.a[0] = cqn, m.a[1] = wqe_offset, m.a[2] = (uint64_t)is_send, m.a[3] = qpn,
        m.a[4] = opcode;
    m.cp[0] = wc;
    eng_port(e, M_CXT, &m);
}

static inline void datapack_take(struct ibe_engine *e, const struct eng_wqe_side *side,
                   const uint8_t *inline_data, uint32_t inline_len)
{
    struct eng_msg m;
    m.port = PORT_DATAPACK_TAKE;
    m.a[0] = inline_len;
    m.cp[0] = side, m.cp[1] = inline_data;
    eng_port(e, M_DATAPACK, &m);
}

static inline void eng_dma_read(struct ibe_engine *e, int from, uint64_t addr, void *dst,
                  uint32_t len)
{
    struct eng_msg m;
    m.port = PORT_ENG_DMA_READ;
    m.a[0] = (uint64_t)from, m.a[1] = addr, m.a[2] = len;
    m.p[0] = dst;
    eng_port(e, M_DMA, &m);
}

static inline void eng_dma_write(struct ibe_engine *e, int from, uint64_t addr,
                   const void *src, uint32_t len)
{
    struct eng_msg m;
    m.port = PORT_ENG_DMA_WRITE;
    m.a[0] = (uint64_t)from, m.a[1] = addr, m.a[2] = len;
    m.cp[0] = src;
    eng_port(e, M_DMA, &m);
}

static inline void db_ring(struct ibe_engine *e)
{
    struct eng_msg m;
    m.port = PORT_DB_RING;
    eng_port(e, M_DOORBELL, &m);
}

static inline void ee_request(struct ibe_engine *e, const uint8_t *payload,
                              uint32_t len)
{
    struct eng_msg m;
    m.port = PORT_EE_REQUEST;
    m.a[0] = len;
    m.cp[0] = payload;
    eng_port(e, M_EXEC, &m);
}

static inline void hp_receive(struct ibe_engine *e, const uint8_t *pkt, size_t len)
{
    struct eng_msg m;
    m.port = PORT_HP_RECEIVE;
    m.a[0] = (uint64_t)len;
    m.cp[0] = pkt;
    eng_port(e, M_HDRPARSER, &m);
}

static inline void mq_list_init(struct ibe_engine *e, int b, uint32_t qpn)
{
    struct eng_msg m;
    m.port = PORT_MQ_LIST_INIT;
    m.a[0] = (uint64_t)b, m.a[1] = qpn;
    eng_port(e, M_MQ, &m);
}

static inline bool mq_empty(struct ibe_engine *e, int b, uint32_t qpn)
{
    struct eng_msg m;
    m.port = PORT_MQ_EMPTY;
    m.a[0] = (uint64_t)b, m.a[1] = qpn;
    eng_port(e, M_MQ, &m);
    return (bool)m.ret;
}

static inline uint32_t mq_head(struct ibe_engine *e, int b, uint32_t qpn)
{
    struct eng_msg m;
    m.port = PORT_MQ_HEAD;
    m.a[0] = (uint64_t)b, m.a[1] = qpn;
    eng_port(e, M_MQ, &m);
    return (uint32_t)m.ret;
}

static inline void mq_heads(struct ibe_engine *e, uint32_t qpn, uint32_t *swpb,
                            uint32_t *rpb)
{
    struct eng_msg m;
    m.port = PORT_MQ_HEADS;
    m.a[0] = qpn;
    eng_port(e, M_MQ, &m);
    *swpb = (uint32_t)m.ret;
    *rpb = (uint32_t)((uint64_t)m.ret >> 32);
}

static inline uint32_t mq_next(struct ibe_engine *e, int b, uint32_t qpn, uint32_t i)
{
    struct eng_msg m;
    m.port = PORT_MQ_NEXT;
    m.a[0] = (uint64_t)b, m.a[1] = qpn, m.a[2] = i;
    eng_port(e, M_MQ, &m);
    return (uint32_t)m.ret;
}

static inline uint32_t mq_nfree(struct ibe_engine *e, int b)
{
    struct eng_msg m;
    m.port = PORT_MQ_NFREE;
    m.a[0] = (uint64_t)b;
    eng_port(e, M_MQ, &m);
    return (uint32_t)m.ret;
}

static inline uint32_t mq_alloc(struct ibe_engine *e, int b, uint32_t qpn)
{
    struct eng_msg m;
    m.port = PORT_MQ_ALLOC;
    m.a[0] = (uint64_t)b, m.a[1] = qpn;
    eng_port(e, M_MQ, &m);
    return (uint32_t)m.ret;
}

static inline void mq_pop(struct ibe_engine *e, int b, uint32_t qpn)
{
    struct eng_msg m;
    m.port = PORT_MQ_POP;
    m.a[0] = (uint64_t)b, m.a[1] = qpn;
    eng_port(e, M_MQ, &m);
}

static inline void mq_reb_write(struct ibe_engine *e, uint32_t i, const struct ibe_sge *g)
{
    struct eng_msg m;
    m.port = PORT_MQ_REB_WRITE;
    m.a[0] = i;
    m.cp[0] = g;
    eng_port(e, M_MQ, &m);
}

static inline void mq_reb_read(struct ibe_engine *e, uint32_t i, struct ibe_sge *g)
{
    struct eng_msg m;
    m.port = PORT_MQ_REB_READ;
    m.a[0] = i;
    m.p[0] = g;
    eng_port(e, M_MQ, &m);
}

static inline void reqpkt_send(struct ibe_engine *e, int from, const struct eng_hdr *h,
                 const uint8_t *payload)
{
    struct eng_msg m;
    m.port = PORT_REQPKT_SEND;
    m.a[0] = (uint64_t)from;
    m.cp[0] = h, m.cp[1] = payload;
    eng_port(e, M_REQPKTGEN, &m);
}

static inline void rrc_response(struct ibe_engine *e, const uint8_t *payload,
                                uint32_t len)
{
    struct eng_msg m;
    m.port = PORT_RRC_RESPONSE;
    m.a[0] = len;
    m.cp[0] = payload;
    eng_port(e, M_REQRECV, &m);
}

static inline void rrc_timer(struct ibe_engine *e, const struct rec_texp *ev)
{
    struct eng_msg m;
    m.port = PORT_RRC_TIMER;
    m.cp[0] = ev;
    eng_port(e, M_REQRECV, &m);
}

static inline void rrc_bad_request(struct ibe_engine *e)
{
    struct eng_msg m;
    m.port = PORT_RRC_BAD_REQUEST;
    eng_port(e, M_REQRECV, &m);
}

static inline void rrc_cnp(struct ibe_engine *e, struct eng_qp *q)
{
    struct eng_msg m;
    m.port = PORT_RRC_CNP;
    m.p[0] = q;
    eng_port(e, M_REQRECV, &m);
}

static inline bool rtc_can_issue(struct ibe_engine *e, struct eng_qp *q,
                                 uint32_t scheduled)
{
    struct eng_msg m;
    m.port = PORT_RTC_CAN_ISSUE;
    m.a[0] = scheduled;
    m.p[0] = q;
    eng_port(e, M_REQTRANS, &m);
    return (bool)m.ret;
}

static inline void rtc_take(struct ibe_engine *e, const struct eng_wqe_side *side,
              uint8_t *payload)
{
    struct eng_msg m;
    m.port = PORT_RTC_TAKE;
    m.p[0] = payload;
    m.cp[0] = side;
    eng_port(e, M_REQTRANS, &m);
}

static inline void rtc_retransmit_from(struct ibe_engine *e, struct eng_qp *q, uint32_t psn)
{
    struct eng_msg m;
    m.port = PORT_RTC_RETRANSMIT_FROM;
    m.a[0] = psn;
    m.p[0] = q;
    eng_port(e, M_REQTRANS, &m);
}

static inline void rtc_retransmit_range(struct ibe_engine *e, struct eng_qp *q, uint32_t from,
                          uint32_t to_excl)
{
    struct eng_msg m;
    m.port = PORT_RTC_RETRANSMIT_RANGE;
    m.a[0] = from, m.a[1] = to_excl;
    m.p[0] = q;
    eng_port(e, M_REQTRANS, &m);
}

static inline void rtc_resume(struct ibe_engine *e, struct eng_qp *q)
{
    struct eng_msg m;
    m.port = PORT_RTC_RESUME;
    m.p[0] = q;
    eng_port(e, M_REQTRANS, &m);
}

static inline void rtc_pump(struct ibe_engine *e, struct eng_qp *q)
{
    struct eng_msg m;
    m.port = PORT_RTC_PUMP;
    m.p[0] = q;
    eng_port(e, M_REQTRANS, &m);
}

static inline int eng_upsn(struct ibe_engine *e, const struct eng_qp *q, uint32_t *psn)
{
    struct eng_msg m;
    m.port = PORT_ENG_UPSN;
    m.p[0] = psn;
    m.cp[0] = q;
    eng_port(e, M_REQTRANS, &m);
    return (int)m.ret;
}

static inline void rtc_complete(struct ibe_engine *e, struct eng_qp *q, uint32_t slot,
                  uint8_t opcode, uint8_t status, uint32_t len, int counted)
{
    struct eng_msg m;
    m.port = PORT_RTC_COMPLETE;
    m.a[0] = slot, m.a[1] = opcode, m.a[2] = status, m.a[3] = len,
        m.a[4] = (uint64_t)counted;
    m.p[0] = q;
    eng_port(e, M_REQTRANS, &m);
}

static inline void resppkt_send(struct ibe_engine *e, const struct rec_resp *r,
                  const uint8_t *payload)
{
    struct eng_msg m;
    m.port = PORT_RESPPKT_SEND;
    m.cp[0] = r, m.cp[1] = payload;
    eng_port(e, M_RESPPKTGEN, &m);
}

static inline int rqm_cmd(struct ibe_engine *e, const struct rec_rq *cmd, struct rec_rq *resp)
{
    struct eng_msg m;
    m.port = PORT_RQM_CMD;
    m.p[0] = resp;
    m.cp[0] = cmd;
    eng_port(e, M_RQWQE, &m);
    return (int)m.ret;
}

static inline void rqm_reset(struct ibe_engine *e, struct eng_qp *q)
{
    struct eng_msg m;
    m.port = PORT_RQM_RESET;
    m.p[0] = q;
    eng_port(e, M_RQWQE, &m);
}

static inline int sem_cmd(struct ibe_engine *e, const struct rec_sem *cmd,
            struct rec_sem *resp)
{
    struct eng_msg m;
    m.port = PORT_SEM_CMD;
    m.p[0] = resp;
    m.cp[0] = cmd;
    eng_port(e, M_SEM, &m);
    return (int)m.ret;
}

static inline void sched_push(struct ibe_engine *e)
{
    struct eng_msg m;
    m.port = PORT_SCHED_PUSH;
    eng_port(e, M_SCHED, &m);
}

static inline void sched_wake(struct ibe_engine *e, struct eng_qp *q)
{
    struct eng_msg m;
    m.port = PORT_SCHED_WAKE;
    m.p[0] = q;
    eng_port(e, M_SCHED, &m);
}

static inline void timer_set(struct ibe_engine *e, int from, const struct rec_tset *r)
{
    struct eng_msg m;
    m.port = PORT_TIMER_SET;
    m.a[0] = (uint64_t)from;
    m.cp[0] = r;
    eng_port(e, M_TIMER, &m);
}

static inline void parser_take(struct ibe_engine *e)
{
    struct eng_msg m;
    m.port = PORT_PARSER_TAKE;
    eng_port(e, M_PARSER, &m);
}

static inline void wat_write(struct ibe_engine *e, uint32_t qpn, uint32_t rkey, uint64_t va)
{
    struct eng_msg m;
    m.port = PORT_WAT_WRITE;
    m.a[0] = qpn, m.a[1] = rkey, m.a[2] = va;
    eng_port(e, M_WAT, &m);
}

static inline void wat_read(struct ibe_engine *e, uint32_t qpn, uint32_t *rkey, uint64_t *va)
{
    struct eng_msg m;
    m.port = PORT_WAT_READ;
    m.a[0] = qpn;
    m.p[0] = rkey, m.p[1] = va;
    eng_port(e, M_WAT, &m);
}

/* Ports added with the per-module state (each module owns its struct in
 * eng.h; what another module holds it asks for here). */

/* A port with a pointer (the QP, or what the module fills), one to what
 * it reads, and up to two scalars: its answer, 0 for a port that gives
 * none. */
static inline int64_t eng_port_args(struct ibe_engine *e, int mod, uint8_t port,
                                    void *p, const void *cp, uint64_t a0,
                                    uint64_t a1)
{
    struct eng_msg m;
    m.port = port;
    m.p[0] = p;
    m.cp[0] = cp;
    m.a[0] = a0, m.a[1] = a1;
    m.ret = 0;
    eng_port(e, mod, &m);
    return m.ret;
}

static inline void cxt_conf(struct ibe_engine *e, uint32_t qpn, struct eng_conf *out)
{
    eng_port_args(e, M_CXT, PORT_CXT_CONF, out, NULL, qpn, 0);
}

static inline void timer_entry(struct ibe_engine *e, uint32_t qpn, int which,
                               struct tm_entry *out)
{
    eng_port_args(e, M_TIMER, PORT_TIMER_ENTRY, out, NULL, qpn, (uint64_t)which);
}

static inline void timer_clear_count(struct ibe_engine *e, uint32_t qpn, int which)
{
    eng_port_args(e, M_TIMER, PORT_TIMER_CLEAR_COUNT, NULL, NULL, qpn, (uint64_t)which);
}

static inline unsigned rrc_holds(struct ibe_engine *e, struct eng_qp *q)
{
    return (unsigned)eng_port_args(e, M_REQRECV, PORT_RRC_HOLDS, q, NULL, 0, 0);
}

static inline void rtc_set_limit(struct ibe_engine *e, struct eng_qp *q, uint32_t limit)
{
    eng_port_args(e, M_REQTRANS, PORT_RTC_SET_LIMIT, q, NULL, limit, 0);
}

static inline bool rtc_drop_seg(struct ibe_engine *e, struct eng_qp *q, uint8_t status)
{
    return eng_port_args(e, M_REQTRANS, PORT_RTC_DROP_SEG, q, NULL, status, 0) != 0;
}

static inline bool rtc_cutting(struct ibe_engine *e, struct eng_qp *q)
{
    return eng_port_args(e, M_REQTRANS, PORT_RTC_CUTTING, q, NULL, 0, 0) != 0;
}

static inline void rtc_reset(struct ibe_engine *e, struct eng_qp *q)
{
    eng_port_args(e, M_REQTRANS, PORT_RTC_RESET, q, NULL, 0, 0);
}

static inline void sched_requeue(struct ibe_engine *e, struct eng_qp *q)
{
    eng_port_args(e, M_SCHED, PORT_SCHED_REQUEUE, q, NULL, 0, 0);
}

static inline uint32_t rqm_posted(struct ibe_engine *e, struct eng_qp *q)
{
    return (uint32_t)eng_port_args(e, M_RQWQE, PORT_RQM_POSTED, q, NULL, 0, 0);
}

static inline int64_t rqm_retire_posted(struct ibe_engine *e, struct eng_qp *q)
{
    return eng_port_args(e, M_RQWQE, PORT_RQM_RETIRE_POSTED, q, NULL, 0, 0);
}

static inline void ee_reset(struct ibe_engine *e, struct eng_qp *q)
{
    eng_port_args(e, M_EXEC, PORT_EE_RESET, q, NULL, 0, 0);
}

static inline void mq_head_psns(struct ibe_engine *e, uint32_t qpn, struct mq_heads *out)
{
    eng_port_args(e, M_MQ, PORT_MQ_HEAD_PSNS, out, NULL, qpn, 0);
}

static inline void mq_swpb_read(struct ibe_engine *e, uint32_t i, struct swpb_elem *out)
{
    eng_port_args(e, M_MQ, PORT_MQ_SWPB_READ, out, NULL, i, 0);
}

static inline void mq_rpb_read(struct ibe_engine *e, uint32_t i, struct rpb_elem *out)
{
    eng_port_args(e, M_MQ, PORT_MQ_RPB_READ, out, NULL, i, 0);
}

static inline int eng_mr_invalidate_in_pd(struct ibe_engine *e, uint32_t key, uint32_t pd)
{
    return (int)eng_port_args(e, M_XLATE, PORT_XLATE_INVALIDATE_IN_PD, NULL, NULL,
                              key, pd);
}

static inline const uint8_t *mq_swpb_write(struct ibe_engine *e, uint32_t i,
                                           const struct swpb_elem *in,
                                           const uint8_t *payload, uint32_t len)
{
    const uint8_t *slot = NULL;
    struct eng_msg m;
    m.port = PORT_MQ_SWPB_WRITE;
    m.a[0] = i, m.a[1] = len;
    m.cp[0] = in, m.cp[1] = payload;
    m.p[0] = &slot;
    eng_port(e, M_MQ, &m);
    return slot;
}

static inline void mq_rpb_write(struct ibe_engine *e, uint32_t i, const struct rpb_elem *in)
{
    eng_port_args(e, M_MQ, PORT_MQ_RPB_WRITE, NULL, in, i, 0);
}

static inline uint32_t mq_next_psn(struct ibe_engine *e, int b, uint32_t qpn,
                                   uint32_t i, uint32_t *psn)
{
    struct eng_msg m;
    m.port = PORT_MQ_NEXT_PSN;
    m.a[0] = (uint64_t)b, m.a[1] = qpn, m.a[2] = i;
    m.p[0] = psn;
    eng_port(e, M_MQ, &m);
    return (uint32_t)m.ret;
}

static inline void mq_swpb_msg(struct ibe_engine *e, uint32_t i, struct mq_swpb_msg *out)
{
    eng_port_args(e, M_MQ, PORT_MQ_SWPB_MSG, out, NULL, i, 0);
}
