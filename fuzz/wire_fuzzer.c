/* SPDX-License-Identifier: Apache-2.0 */
/*
 * wire_fuzzer.c - every wire transport header (catalog W1-W12) through its
 * generated decode/encode, fast accessors and descriptor table.
 *
 * Input: byte 0 picks the format (modulo the table), the following bytes
 * are the header (possibly short), and bytes past the header are the values
 * the setter and encode checks write.  The last table slot exercises the
 * AETH syndrome, credit, RNR-timer and MTU helpers instead.
 * See wire_check.h for the properties.
 */
#include <ibwire/wire.h>

#include "fuzz_common.h"
#include "wire_check.h"

WIRE_CHECK_DEFINE(ibw_lrh, IBW_LRH_FIELDS)
WIRE_CHECK_DEFINE(ibw_grh, IBW_GRH_FIELDS)
WIRE_CHECK_DEFINE(ibw_bth, IBW_BTH_FIELDS)
WIRE_CHECK_DEFINE(ibw_rdeth, IBW_RDETH_FIELDS)
WIRE_CHECK_DEFINE(ibw_deth, IBW_DETH_FIELDS)
WIRE_CHECK_DEFINE(ibw_reth, IBW_RETH_FIELDS)
WIRE_CHECK_DEFINE(ibw_atomiceth, IBW_ATOMICETH_FIELDS)
WIRE_CHECK_DEFINE(ibw_aeth, IBW_AETH_FIELDS)
WIRE_CHECK_DEFINE(ibw_atomicacketh, IBW_ATOMICACKETH_FIELDS)
WIRE_CHECK_DEFINE(ibw_immdt, IBW_IMMDT_FIELDS)
WIRE_CHECK_DEFINE(ibw_ieth, IBW_IETH_FIELDS)
WIRE_CHECK_DEFINE(ibw_xrceth, IBW_XRCETH_FIELDS)
WIRE_CHECK_DEFINE(ibw_feth, IBW_FETH_FIELDS)

struct wire_case {
    const struct ibw_format *(*format)(void);
    size_t size;
    void (*check)(const uint8_t *p, size_t len, struct fuzz_in *v);
};

#define WIRE_CASE(pfx) {pfx##_format, pfx##_SIZE, wire_check_##pfx}
static const struct wire_case cases[] = {
    WIRE_CASE(ibw_lrh),       WIRE_CASE(ibw_grh),
    WIRE_CASE(ibw_bth),       WIRE_CASE(ibw_rdeth),
    WIRE_CASE(ibw_deth),      WIRE_CASE(ibw_reth),
    WIRE_CASE(ibw_atomiceth), WIRE_CASE(ibw_aeth),
    WIRE_CASE(ibw_atomicacketh), WIRE_CASE(ibw_immdt),
    WIRE_CASE(ibw_ieth),      WIRE_CASE(ibw_xrceth),
    WIRE_CASE(ibw_feth),
};
#define N_CASES (sizeof cases / sizeof cases[0])

/* The syndrome and table helpers of wire.h, against their definitions. */
static void check_helpers(struct fuzz_in *in)
{
    uint8_t syn = fuzz_u8(in);
    unsigned kind = ibw_aeth_syndrome_kind(syn);
    unsigned value = ibw_aeth_syndrome_value(syn);
    /* Bit 7 is reserved: kind is bits 6:5, value bits 4:0. */
    FUZZ_CHECK(kind == ((syn >> 5) & 3u) && value == (syn & 0x1Fu));
    FUZZ_CHECK(ibw_aeth_syndrome(kind, value) == (syn & 0x7F));

    uint32_t avail = (uint32_t)fuzz_u64(in);
    unsigned code = ibw_aeth_credit_code(avail);
    FUZZ_CHECK(code <= 30);
    FUZZ_CHECK(ibw_aeth_credits(code) >= 0 &&
               (uint32_t)ibw_aeth_credits(code) <= avail);
    FUZZ_CHECK(code == 30 || (uint32_t)ibw_aeth_credits(code + 1) > avail);
    unsigned c = syn % 32;
    FUZZ_CHECK((c == 31) == (ibw_aeth_credits(c) < 0));
    if (c < 31)
        FUZZ_CHECK(ibw_aeth_credit_code((uint32_t)ibw_aeth_credits(c)) == c);
    FUZZ_CHECK(ibw_rnr_timer_usec(c) > 0 && ibw_rnr_timer_usec(32 + syn) == 0);

    unsigned e = syn % 8;
    uint32_t bytes = ibw_mtu_enum_to_bytes(e);
    FUZZ_CHECK((bytes != 0) == (e >= 1 && e <= 5));
    if (bytes)
        FUZZ_CHECK(ibw_mtu_bytes_to_enum(bytes) == e);
    uint32_t any = (uint32_t)fuzz_u64(in);
    unsigned back = ibw_mtu_bytes_to_enum(any);
    FUZZ_CHECK(back == 0 || ibw_mtu_enum_to_bytes(back) == any);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    for (size_t i = 0; i < N_CASES; i++) {
        wire_check_wire_descriptor(cases[i].format(), cases[i].size,
                                   cases[i].size, 1);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t pick = data[0] % (N_CASES + 1);
    const uint8_t *hdr = data + 1;
    size_t len = size - 1;
    if (pick == N_CASES) {
        struct fuzz_in in = {hdr, len};
        check_helpers(&in);
        return 0;
    }
    const struct wire_case *wc = &cases[pick];
    struct fuzz_in vals = {hdr + (len < wc->size ? len : wc->size),
                           len < wc->size ? 0 : len - wc->size};
    wc->check(hdr, len, &vals);
    return 0;
}
