/*
 * records.c - every record handed from one module to another passes here:
 * it is counted and, when a trace hook is installed, encoded (the bus image
 * of the record) and shown to the hook with its source and destination
 * module, so that an RTL testbench can compare FIFO traffic record by
 * record.
 */
#include "eng.h"

static void emit(struct ibe_engine *e, uint8_t id, const char *name, int from,
                 int to, const uint32_t *w, uint32_t nwords)
{
    e->st.records++;
    if (!e->trace)
        return;
    struct ibe_trace_rec r;
    memset(&r, 0, sizeof r);
    r.time = e->w->now;
    r.rec_id = id;
    r.rec = name;
    r.from = eng_mod_name[from];
    r.to = eng_mod_name[to];
    if (nwords > 12)
        nwords = 12;
    r.nwords = nwords;
    if (w)
        memcpy(r.words, w, nwords * sizeof *w);
    e->trace(e->trace_ctx, e, &r);
}

void eng_rec_db(struct ibe_engine *e, int from, int to, const struct rec_db *r)
{ (void)r; emit(e, 1, "sq_doorbell", from, to, NULL, 0); }
void eng_rec_sched(struct ibe_engine *e, int from, int to, const struct rec_sched *r)
{ (void)r; emit(e, 12, "db_meta", from, to, NULL, 0); }
void eng_rec_md(struct ibe_engine *e, int from, int to, const struct rec_md *r)
{ (void)r; emit(e, 13, "req_meta", from, to, NULL, 0); }
void eng_rec_bad(struct ibe_engine *e, int from, int to, const struct rec_bad *r)
{ (void)r; emit(e, 17, "bad_req", from, to, NULL, 0); }
void eng_rec_tset(struct ibe_engine *e, int from, int to, const struct rec_tset *r)
{ (void)r; emit(e, 5, "timer_set_event", from, to, NULL, 0); }
void eng_rec_texp(struct ibe_engine *e, int from, int to, const struct rec_texp *r)
{ (void)r; emit(e, 6, "timer_expire_event", from, to, NULL, 0); }
void eng_rec_sem(struct ibe_engine *e, int from, int to, int is_resp, const struct rec_sem *r)
{ (void)r; emit(e, is_resp ? 9 : 8, is_resp ? "sem_resp" : "sem_cmd", from, to, NULL, 0); }
void eng_rec_rq(struct ibe_engine *e, int from, int to, int is_resp, const struct rec_rq *r)
{ (void)r; emit(e, is_resp ? 11 : 10, is_resp ? "rwm_resp" : "rwm_cmd", from, to, NULL, 0); }
void eng_rec_hdr(struct ibe_engine *e, int from, int to, int rec_id, const struct eng_hdr *h)
{ (void)h; emit(e, (uint8_t)rec_id, rec_id == 19 ? "resp_hdr_meta" : "req_hdr_meta", from, to, NULL, 0); }
void eng_rec_resp(struct ibe_engine *e, int from, int to, const struct rec_resp *r)
{ (void)r; emit(e, 20, "resp_meta", from, to, NULL, 0); }
void eng_rec_cxt(struct ibe_engine *e, int from, int to, const struct rec_cxt *r)
{ (void)r; emit(e, 2, "cxt_cmd", from, to, NULL, 0); }
void eng_rec_xlate(struct ibe_engine *e, int from, uint8_t type, uint8_t op,
                   uint32_t flags, uint32_t pd, uint32_t key, uint64_t va,
                   uint32_t len, int status)
{
    (void)type; (void)op; (void)flags; (void)pd; (void)key; (void)va; (void)len; (void)status;
    emit(e, 3, "vtp_cmd", from, M_XLATE, NULL, 0);
    emit(e, 4, "vtp_resp", M_XLATE, from, NULL, 0);
}
void eng_rec_dma(struct ibe_engine *e, int from, int is_write, uint64_t addr,
                 uint32_t len, uint8_t tag)
{
    (void)is_write; (void)addr; (void)len; (void)tag;
    if (e->trace)
        emit(e, 26, "dma_head", from, M_DMA, NULL, 0);
    else
        e->st.records++;
}
void eng_rec_mq(struct ibe_engine *e, int from, uint8_t which, uint32_t qpn, uint32_t idx)
{ (void)which; (void)qpn; (void)idx; emit(e, 21, "mq_entry", from, M_MQ, NULL, 0); }
void eng_rec_sge(struct ibe_engine *e, int from, int to, const struct ibe_sge *s)
{ (void)s; emit(e, 14, "sg_entry", from, to, NULL, 0); }
void eng_rec_wat(struct ibe_engine *e, int from, int is_write, uint32_t qpn,
                 uint32_t rkey, uint64_t va)
{ (void)is_write; (void)qpn; (void)rkey; (void)va; emit(e, 23, "write_addr_entry", from, M_WAT, NULL, 0); }
