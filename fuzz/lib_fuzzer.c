/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lib_fuzzer.c - libibwire's ABI fed a stream of frames: each parsed
 * through a packet handle, every field read back in every way the ABI
 * offers, and the frame judged by an ABI checker.
 *
 * Input: check_fuzzer's (byte 0 picks the PMTU; then frames as a 2-byte
 * little-endian length, a flags byte (bit 0: native InfiniBand, else
 * Ethernet; bit 1: cut by the capture, the original length 64 bytes more)
 * and the bytes), so the two share seeds.
 *
 * Properties (the ABI's contract, lib/ibwire_lib.h):
 *   - a frame handed in is always read (result 0), its error NULL or text;
 *   - for every field, every occurrence counted gives text whose length is
 *     the result, an integer through _uint exactly for integer types and
 *     bytes through _bytes exactly for byte types, and one past the count
 *     is absent;
 *   - the checker takes every frame, numbers them as fed, and its findings
 *     and flows name frames fed; a flow's JSON object fits and is braced.
 */
#include "fuzz_common.h"
#include "ibwire_lib.h"

struct seen {
    uint64_t frames, findings;
};

static void on_finding(void *user, uint64_t frame, const char *rule,
                       int severity, const char *message, uint64_t flow_id)
{
    struct seen *s = user;
    (void)flow_id;
    FUZZ_CHECK(frame >= 1 && frame <= s->frames);
    FUZZ_CHECK(rule != NULL && rule[0] != '\0');
    FUZZ_CHECK(severity == 1 || severity == 2);
    FUZZ_CHECK(message != NULL);
    s->findings++;
}

static void on_flow(void *user, const ibwire_flow *f)
{
    struct seen *s = user;
    static char json[8192];
    uint64_t first = 0, last = 0;
    FUZZ_CHECK(ibwire_flow_uint(f, "first_frame", &first) == 1);
    FUZZ_CHECK(ibwire_flow_uint(f, "last_frame", &last) == 1);
    FUZZ_CHECK(first >= 1 && first <= last && last <= s->frames);
    int n = ibwire_flow_json(f, json, sizeof json);
    FUZZ_CHECK(n > 1 && json[0] == '{' && json[n - 1] == '}' &&
               strlen(json) == (size_t)n);
}

/* Every field of the parsed frame, every way. */
static void read_fields(const ibwire_packet *p)
{
    static char text[1 << 18]; /* a 64 KiB frame's bytes as hex */
    static uint8_t bytes[1 << 16];
    int nf = ibwire_field_count();
    for (int id = 0; id < nf; id++) {
        int type = ibwire_field_type(id);
        int integer = type == IBWIRE_FT_UINT || type == IBWIRE_FT_BOOL ||
                      type == IBWIRE_FT_TIME;
        int binary = type == IBWIRE_FT_BYTES || type == IBWIRE_FT_ETHER ||
                     type == IBWIRE_FT_IPV4 || type == IBWIRE_FT_IPV6;
        int count = ibwire_packet_count(p, id);
        FUZZ_CHECK_AT(count >= 0 && count <= 4, ibwire_field_name(id));
        /* Most fields are absent from any one frame: one call proves it,
         * where the three reads of every absent field made the harness
         * spend its time far from the parser. */
        if (count == 0) {
            FUZZ_CHECK_AT(ibwire_packet_text(p, id, 0, text, 8) == 0 &&
                              text[0] == '\0',
                          ibwire_field_name(id));
            continue;
        }
        for (int occ = 0; occ <= count; occ++) {
            int present = occ < count;
            int n = ibwire_packet_text(p, id, occ, text, sizeof text);
            FUZZ_CHECK_AT(present ? n >= 0 : n == 0, ibwire_field_name(id));
            FUZZ_CHECK_AT((size_t)n == strlen(text), ibwire_field_name(id));
            uint64_t u;
            int rc = ibwire_packet_uint(p, id, occ, &u);
            FUZZ_CHECK_AT(integer ? rc == present : rc == IBWIRE_E_FIELD,
                          ibwire_field_name(id));
            size_t len;
            rc = ibwire_packet_bytes(p, id, occ, bytes, sizeof bytes, &len);
            FUZZ_CHECK_AT(binary ? rc == present : rc == IBWIRE_E_FIELD,
                          ibwire_field_name(id));
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint32_t pmtus[] = {0, 256, 512, 1024, 2048, 4096};
    if (size < 1)
        return 0;
    struct seen s = {0, 0};
    ibwire_packet *p = ibwire_packet_new();
    ibwire_checker *c = ibwire_checker_new();
    FUZZ_CHECK(p && c);
    FUZZ_CHECK(ibwire_checker_set_pmtu(c, pmtus[data[0] % 6]) == 0);
    FUZZ_CHECK(ibwire_checker_on_finding(c, on_finding, &s) == 0);
    FUZZ_CHECK(ibwire_checker_on_flow(c, on_flow, &s) == 0);
    size_t pos = 1, len;
    uint64_t ts = 1000000000u;
    const uint8_t *frame;
    uint8_t flags;
    while (fuzz_next_frame(data, size, &pos, &frame, &len, &flags)) {
        int link = flags & 1 ? 247 : 1;
        size_t origlen = flags & 2 ? len + 64 : 0;
        ts += fuzz_frame_gap_ns(flags);
        FUZZ_CHECK(ibwire_packet_parse(p, frame, len, origlen, link, ts) ==
                   0);
        const char *err = ibwire_packet_error(p);
        FUZZ_CHECK(err == NULL || strlen(err) > 0);
        read_fields(p);
        s.frames++;
        FUZZ_CHECK(ibwire_checker_feed(c, frame, len, origlen, link, ts) ==
                   0);
    }
    FUZZ_CHECK(ibwire_checker_finish(c) == 0);
    FUZZ_CHECK(ibwire_checker_count(c, "frames") == s.frames);
    ibwire_checker_free(c);
    ibwire_packet_free(p);
    return 0;
}
