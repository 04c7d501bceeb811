/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bitwidth.c - BitWidthTrans (HanGu RDMA engine design §6) and the link
 * layer's side of it.  Transmit: the packet generators' bytes become E25
 * stream words (32 bytes, bit 256 start, bit 257 end), 256To64Trans cuts each
 * into E24 link words (8 bytes and a control byte), and the link layer
 * collects the bytes it puts on the wire.  Receive: the link layer makes link
 * words of the arriving bytes, 64To256Trans gathers four into a stream word (a
 * Counter and a DataReg, §6.4.2.3) and HeaderParser collects the packet.
 *
 * The E25 word has no count of valid bytes in its last word, so the packet
 * length travels beside the stream words (README: side channels); the E24
 * word carries it in ValidByte.
 */
#include "eng.h"

#include "ibwire/records.h"

enum { STREAM_BYTES = 32, LINK_BYTES = 8 };

static void link_bytes(uint64_t data, uint8_t *out, unsigned n)
{
    uint32_t w[2] = {(uint32_t)data, (uint32_t)(data >> 32)};
    ibw_bus_to_wire_bytes(w, 2, out, n);
}

/* The C 256To64Trans: one stream word, nbytes of it valid -> its link
 * words. */
static unsigned c_256to64(void *state, const uint32_t *e25, unsigned nbytes,
                          uint32_t e24[4][3])
{
    (void)state;
    struct ibw_stream_word s;
    ibw_stream_word_unpack(e25, &s);
    unsigned words = (nbytes + LINK_BYTES - 1) / LINK_BYTES;
    for (unsigned i = 0; i < words; i++) {
        bool last = s.eop && i + 1 == words;
        struct ibw_link_word l = {ibw_stream_data_slice(&s, i),
                                  (uint8_t)(s.sop && i == 0), (uint8_t)last, 0,
                                  (uint8_t)(last ? nbytes % LINK_BYTES : 0), 0};
        ibw_link_word_pack(&l, e24[i]);
    }
    return words;
}

/* The C 64To256Trans: a Counter and a DataReg (§6.4.2.3) gather four link
 * words, or fewer at the end of a packet, into a stream word. */
static int c_64to256(void *state, const uint32_t *e24, uint32_t *e25,
                     uint32_t *bytes)
{
    struct eng_bw_gather *g = state;
    struct ibw_link_word l;
    ibw_link_word_unpack(e24, &l);
    if (l.sop) {
        g->counter = 0;
        g->got = 0;
        memset(g->data, 0, sizeof g->data);
        g->sop = 1;
    }
    g->data[2 * g->counter] = (uint32_t)l.data;
    g->data[2 * g->counter + 1] = (uint32_t)(l.data >> 32);
    g->got += l.eop && l.valid_bytes ? l.valid_bytes : LINK_BYTES;
    if (!l.eop && g->counter < 3) {
        g->counter++;
        return 0;
    }
    struct ibw_stream_word s;
    memcpy(s.data, g->data, sizeof s.data);
    s.sop = g->sop;
    s.eop = l.eop;
    ibw_stream_word_pack(&s, e25);
    *bytes = g->got;
    memset(g->data, 0, sizeof g->data);
    g->sop = 0;
    g->counter = 0;
    return 1;
}

void bw_use_c_converters(struct ibe_engine *e)
{
    e->bw.core = (struct eng_bw_core){c_256to64, c_64to256, &e->bw.gather, NULL};
}

/* 256To64Trans: one stream word -> up to four link words, which the link
 * layer takes at once. */
static void tx_256to64(struct ibe_engine *e, size_t remain)
{
    uint32_t w[12], e24[4][3];
    eng_pop(e, CH_TX_STREAM, w);
    unsigned n = remain < STREAM_BYTES ? (unsigned)remain : STREAM_BYTES;
    unsigned words = e->bw.core.down(e->bw.core.state, w, n, e24);
    for (unsigned i = 0; i < words; i++) {
        eng_push(e, CH_TX_LINK, M_TX256TO64, M_WIRE, 24,
                 ibw_link_word_format()->name, e24[i], ibw_link_word_WORDS);
        uint32_t got[12];
        eng_pop(e, CH_TX_LINK, got);
        struct ibw_link_word g;
        ibw_link_word_unpack(got, &g);
        unsigned nb = g.eop && g.valid_bytes ? g.valid_bytes : LINK_BYTES;
        if (e->bw.txlen + nb > sizeof e->bw.txbuf)
            abort();
        link_bytes(g.data, e->bw.txbuf + e->bw.txlen, nb);
        e->bw.txlen += nb;
    }
}

/* Word by word the converters cost ~50x the rest of the engine (a 4 KB
 * packet is 640 records each way), and they are lossless (tested), so they
 * run when someone looks: a trace hook, or ibe_engine_set_bitwidth(). */
static bool bw_on(const struct ibe_engine *e)
{
    return e->trace || e->bw.on;
}

/* The word-by-word paths are out of line so that the bytes passing
 * straight (the usual case) do not pay their frames. */
ENG_OUT_OF_LINE static void transmit_words(struct ibe_engine *e, int from,
                                           const uint8_t *pkt, size_t len)
{
    e->bw.txlen = 0;
    for (size_t off = 0; off < len; off += STREAM_BYTES) {
        size_t n = len - off < STREAM_BYTES ? len - off : STREAM_BYTES;
        struct ibw_stream_word s;
        memset(&s, 0, sizeof s);
        ibw_bus_from_wire_bytes(pkt + off, n, s.data, 8);
        s.sop = off == 0;
        s.eop = off + n == len;
        uint32_t w[ibw_stream_word_WORDS];
        ibw_stream_word_pack(&s, w);
        eng_push(e, CH_TX_STREAM, from, M_TX256TO64, 25,
                 ibw_stream_word_format()->name, w, ibw_stream_word_WORDS);
        tx_256to64(e, len - off);
    }
    if (e->tx)
        e->tx(e->tx_ctx, e, e->bw.txbuf, e->bw.txlen);
}

/* HeaderParser's input: collect the stream words of one packet. */
static void hp_take_stream(struct ibe_engine *e, size_t len)
{
    uint32_t w[12];
    eng_pop(e, CH_RX_STREAM, w);
    struct ibw_stream_word s;
    ibw_stream_word_unpack(w, &s);
    if (s.sop)
        e->bw.rxlen = 0;
    size_t n = len - e->bw.rxlen < STREAM_BYTES ? len - e->bw.rxlen : STREAM_BYTES;
    ibw_bus_to_wire_bytes(s.data, 8, e->bw.rxbuf + e->bw.rxlen, n);
    e->bw.rxlen += n;
    if (s.eop)
        hp_receive(e, e->bw.rxbuf, e->bw.rxlen);
}

ENG_OUT_OF_LINE static void receive_words(struct ibe_engine *e,
                                          const uint8_t *pkt, size_t len)
{
    if (!len || len > sizeof e->bw.rxbuf) { /* the link layer cannot frame it */
        e->st.pkts_rx++;
        e->st.malformed_drops++;
        return;
    }
    for (size_t off = 0; off < len; off += LINK_BYTES) {
        size_t n = len - off < LINK_BYTES ? len - off : LINK_BYTES;
        uint32_t dw[2] = {0, 0};
        ibw_bus_from_wire_bytes(pkt + off, n, dw, 2);
        struct ibw_link_word l = {(uint64_t)dw[1] << 32 | dw[0], (uint8_t)(off == 0),
                                  (uint8_t)(off + n == len), 0,
                                  (uint8_t)(off + n == len ? n % LINK_BYTES : 0), 0};
        uint32_t lw[ibw_link_word_WORDS];
        ibw_link_word_pack(&l, lw);
        eng_push(e, CH_RX_LINK, M_WIRE, M_RX64TO256, 24, ibw_link_word_format()->name,
                 lw, ibw_link_word_WORDS);
        uint32_t in[12], sw[ibw_stream_word_WORDS], got;
        eng_pop(e, CH_RX_LINK, in);
        if (!e->bw.core.up(e->bw.core.state, in, sw, &got))
            continue;
        eng_push(e, CH_RX_STREAM, M_RX64TO256, M_HDRPARSER, 25,
                 ibw_stream_word_format()->name, sw, ibw_stream_word_WORDS);
        hp_take_stream(e, got);
    }
}

static void serve_bw_transmit(struct ibe_engine *e, int from,
                              const uint8_t *pkt, size_t len)
{
    if (bw_on(e))
        transmit_words(e, from, pkt, len);
    else if (e->tx)
        e->tx(e->tx_ctx, e, pkt, len);
}

static void serve_bw_receive(struct ibe_engine *e, const uint8_t *pkt,
                             size_t len)
{
    if (bw_on(e) || !len)
        receive_words(e, pkt, len);
    else
        hp_receive(e, pkt, len);
}

void bw_step(struct ibe_engine *e, struct eng_msg *m)
{
    switch (m->port) {
    case PORT_BW_TRANSMIT:
        serve_bw_transmit(e, (int)m->a[0], (const uint8_t *)m->cp[0],
                          (size_t)m->a[1]);
        break;
    case PORT_BW_RECEIVE:
        serve_bw_receive(e, (const uint8_t *)m->cp[0], (size_t)m->a[0]);
        break;
    default:
        abort(); /* a port this module does not have: a wiring bug */
    }
}
