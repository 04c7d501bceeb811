/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dump_frame.c - one capture frame as the field getters see it: the times
 * and lengths tshark shows for it and its parse, with the decode error
 * worded "header.field: problem".  `ibwire dump` and libibwire's packet
 * handle both read frames through here, so a field answers the same in
 * both.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "dump.h"

/* The ERF record's own timestamp (32.32 fixed point, little-endian), which
 * is what tshark shows for ERF frames, rounded to the nanosecond as
 * Wireshark's ERF reader does. */
static void erf_time(const struct cap_frame *c, uint64_t *sec, uint32_t *nsec)
{
    uint64_t ts = ((uint64_t)ibw_load_le32(c->raw + 4) << 32) |
                  ibw_load_le32(c->raw);
    uint64_t frac = (ts & 0xFFFFFFFFu) * 1000000000u;
    frac += (frac & 0x80000000u) << 1;
    *sec = ts >> 32;
    *nsec = (uint32_t)(frac >> 32);
    if (*nsec >= 1000000000u) {
        *nsec -= 1000000000u;
        *sec += 1;
    }
}

static void describe_error(struct dump_frame *fr)
{
    const struct ibw_pkt *p = fr->pkt;
    const char *what = ibw_strerror(p->err);
    int n = p->err_field ? snprintf(fr->err, sizeof fr->err, "%s.%s: %s",
                                    p->err_hdr, p->err_field, what)
                         : snprintf(fr->err, sizeof fr->err, "%s: %s",
                                    p->err_hdr ? p->err_hdr : "frame", what);
    if (fr->cap->truncated && n > 0 && (size_t)n < sizeof fr->err)
        snprintf(fr->err + n, sizeof fr->err - (size_t)n,
                 " (cut short at capture: %u of %u bytes)", fr->cap->caplen,
                 fr->cap->origlen);
}

enum dump_frame_status dump_frame_read(struct dump_frame *fr,
                                       const struct cap_frame *cf,
                                       struct ibw_pkt *pkt)
{
    /* readers of different handles and threads never share a number */
    static atomic_uint_fast64_t readings;
    fr->serial = (uint64_t)atomic_fetch_add(&readings, 1) + 1;
    fr->cap = cf;
    fr->pkt = NULL;
    fr->err[0] = 0;
    fr->ts_sec = (uint64_t)cf->ts_sec;
    fr->ts_nsec = cf->ts_nsec;
    fr->cap_len = cf->caplen;
    if (cf->erf_type >= 0) {
        erf_time(cf, &fr->ts_sec, &fr->ts_nsec);
        fr->cap_len = cf->iba ? (uint32_t)cf->iba_len
                              : cf->caplen - (uint32_t)CAP_ERF_HEADER_LEN;
    }
    fr->rep_len = 0;
    if (!cf->iba && cf->encap.err && cf->encap.err != IBW_E_LINKTYPE &&
        !(cf->encap.err == IBW_E_TRUNCATED && cf->truncated)) {
        /* an outer header (ERSPAN, VXLAN, ...) the frame cannot be taken
         * out of: named like a parse error */
        snprintf(fr->err, sizeof fr->err, "%s%s%s: %s (outer header)",
                 cf->encap.err_hdr ? cf->encap.err_hdr : "frame",
                 cf->encap.err_field ? "." : "",
                 cf->encap.err_field ? cf->encap.err_field : "",
                 ibw_strerror(cf->encap.err));
        return DUMP_FRAME_ERROR;
    }
    if (!cf->iba)
        return DUMP_FRAME_OK;
    /* ERF's wire length counts the packet alone; origlen the whole
     * record, link headers before the IBA bytes included */
    size_t before = (size_t)(cf->iba - cf->raw);
    size_t rep = cf->erf_type >= 0 ? cf->wire_len
                 : cf->wire_len > before ? cf->wire_len - before : 0;
    fr->rep_len = (uint32_t)(rep > cf->iba_len ? rep : cf->iba_len);
    ibw_parse(cf->iba, cf->iba_len, cf->link, pkt);
    fr->pkt = pkt;
    /* A frame cut short, every header that fits whole, is no error:
     * header-only capture is how RDMA traffic is taken at speed. */
    if (pkt->cut && pkt->err == IBW_E_TRUNCATED)
        return cf->truncated ? DUMP_FRAME_OK : DUMP_FRAME_CUT_UNRECORDED;
    if (pkt->err != IBW_OK) {
        describe_error(fr);
        return DUMP_FRAME_ERROR;
    }
    return DUMP_FRAME_OK;
}
