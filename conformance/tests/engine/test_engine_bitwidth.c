/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_engine_bitwidth.c - the bit-width converters (HanGu RDMA engine design
 * §6, records E24/E25): packet bytes -> stream words -> link words on transmit
 * and back on receive must be lossless, and the words of one small packet are
 * checked against values worked out by hand from the layouts in
 * include/ibwire/records_mem.h.
 */
#include "eng.h"
#include "testutil.h"

static uint8_t captured[8192];
static size_t captured_len;
static void cap_tx(void *ctx, struct ibe_engine *from, const uint8_t *pkt, size_t len)
{
    (void)ctx;
    (void)from;
    memcpy(captured, pkt, len);
    captured_len = len;
}

struct seen { uint32_t n; uint8_t id[1400]; uint32_t w[1400][9]; char to[1400][16]; };
static struct seen S;
static void trace(void *ctx, struct ibe_engine *e, const struct ibe_trace_rec *r)
{
    (void)ctx;
    (void)e;
    if (r->rec_id != 24 && r->rec_id != 25)
        return;
    if (S.n < 1400) {
        S.id[S.n] = r->rec_id;
        memcpy(S.w[S.n], r->words, r->nwords * 4 > sizeof S.w[0] ? sizeof S.w[0] : r->nwords * 4);
        snprintf(S.to[S.n], sizeof S.to[0], "%s", r->to);
    }
    S.n++;
}

int main(void)
{
    struct ibe_world *w = ibe_world_create(7);
    struct ibe_config cfg = {1u << 20, IBE_FRAME_ROCEV2, 1, 0x0A000001u, {2, 0, 10, 0, 0, 1}};
    struct ibe_engine *e = ibe_engine_create(w, &cfg);
    ibe_engine_set_tx(e, cap_tx, NULL);
    ibe_engine_set_bitwidth(e, 1);

    /* random packets, every length class: byte-identical both ways */
    uint64_t x = 0x9E3779B97F4A7C15ull;
    uint8_t pkt[4352];
    for (int i = 0; i < 400; i++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        size_t len = i < 40 ? (size_t)i + 1 : 1 + (size_t)(x % sizeof pkt);
        for (size_t k = 0; k < len; k++) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            pkt[k] = (uint8_t)x;
        }
        captured_len = 0;
        bw_transmit(e, M_REQPKTGEN, pkt, len);
        TU_EQ(captured_len, len);
        TU_MEMEQ(captured, pkt, len);
        bw_receive(e, pkt, len);
        TU_EQ(e->bw.rxlen, len);
        TU_MEMEQ(e->bw.rxbuf, pkt, len);
    }

    /* words on the trace: an 11-byte packet 00 01 .. 0A.
     * E25 (258 bits): bytes 0..3 big-endian in [31:0] -> 0x00010203, then
     * 0x04050607, 0x08090A00 (byte 11 absent), words 3..7 zero; bit 256 =
     * start, bit 257 = end -> word 8 = 0x3.
     * E24 (72 bits): word 1 carries bytes 0..7: [31:0] 0x00010203,
     * [63:32] 0x04050607, S (bit 64) -> word 2 = 0x01.  Word 2 carries bytes
     * 8..10: 0x08090A00, 0, T (bit 65) and ValidByte 3 in [69:67]:
     * 0x2 | 3 << 3 = 0x1A. */
    ibe_engine_set_trace(e, trace, NULL);
    uint8_t small[11];
    for (unsigned k = 0; k < sizeof small; k++)
        small[k] = (uint8_t)k;
    memset(&S, 0, sizeof S);
    bw_transmit(e, M_REQPKTGEN, small, sizeof small);
    bw_receive(e, small, sizeof small);
    /* transmit: E25, E24, E24; receive: E24, E24, E25 */
    TU_CHECK(S.n >= 6);
    static const uint8_t ids[6] = {25, 24, 24, 24, 24, 25};
    static const char *const to[6] = {"256To64Trans", "LinkLayer", "LinkLayer",
                                      "64To256Trans", "64To256Trans", "HeaderParser"};
    static const uint32_t sw[9] = {0x00010203u, 0x04050607u, 0x08090A00u, 0, 0, 0, 0, 0, 0x3u};
    static const uint32_t l1[3] = {0x00010203u, 0x04050607u, 0x01u};
    static const uint32_t l2[3] = {0x08090A00u, 0, 0x1Au};
    for (unsigned i = 0; i < 6; i++) {
        TU_EQ(S.id[i], ids[i]);
        TU_CHECK(!strcmp(S.to[i], to[i]));
    }
    TU_MEMEQ(S.w[0], sw, sizeof sw);
    TU_MEMEQ(S.w[1], l1, sizeof l1);
    TU_MEMEQ(S.w[2], l2, sizeof l2);
    TU_MEMEQ(S.w[3], l1, sizeof l1);
    TU_MEMEQ(S.w[4], l2, sizeof l2);
    TU_MEMEQ(S.w[5], sw, sizeof sw);

    ibe_engine_destroy(e);
    ibe_world_destroy(w);
    return tu_done("engine_bitwidth");
}
