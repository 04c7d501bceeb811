/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_records_doc: write docs/records.md from the registry.
 *
 *   gen_records_doc              print the document
 *   gen_records_doc -o FILE      write it to FILE
 *   gen_records_doc --check FILE exit 1 (naming the first differing line)
 *                                when FILE is not what would be generated
 *
 * The document is generated so that it cannot drift from the field lists:
 * the records_docs_sync test runs --check against the committed file.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibwire/registry.h"

/* A growing text buffer. */
struct text {
    char *buf;
    size_t len, cap;
};

static void put(struct text *t, const char *s)
{
    size_t n = strlen(s);
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 4096;
        while (cap < t->len + n + 1)
            cap *= 2;
        char *b = realloc(t->buf, cap);
        if (!b) {
            fprintf(stderr, "gen_records_doc: out of memory\n");
            exit(2);
        }
        t->buf = b;
        t->cap = cap;
    }
    memcpy(t->buf + t->len, s, n + 1);
    t->len += n;
}

#if defined(__GNUC__)
static void putf(struct text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
#endif
static void putf(struct text *t, const char *fmt, ...)
{
    char tmp[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    put(t, tmp);
}

/* Table cell text: '|' would end the cell. */
static void put_cell(struct text *t, const char *s)
{
    for (; *s; s++) {
        char c[3] = {*s, 0, 0};
        if (*s == '|') {
            c[0] = '\\';
            c[1] = '|';
        }
        put(t, c);
    }
}

/* The document covers the engine records (catalog IDs E1-E28) only. */
static int is_engine_record(const struct ibw_format *f)
{
    return f->conv == IBW_CONV_RECORD && f->id[0] == 'E';
}

static const char *kind_note(const struct ibw_field *f)
{
    return f->kind == IBW_FK_WIDE ? " (WIDE: uint32_t words)" : "";
}

/* E27 and E28 are codes, not records: their summary is fixed text that
 * names the functions of records_codes.h. */
static void generate_codes(struct text *t)
{
    put(t,
        "\n## Codes (E27, E28)\n\n"
        "Declared in `include/ibwire/records_codes.h`; every converter returns "
        "`IBW_E_RANGE` for a\nvalue the other encoding cannot express.\n\n"
        "- E27 PMTU, three encodings: the internal code 0..4 of T7.21/T7.23 "
        "(`enum ibw_pmtu_code`,\n"
        "  MTU_256 0 ... MTU_4096 4), bytes 256..4096 (`db_meta.pmtu`, "
        "`common_meta.pmtu`) and the\n"
        "  IBA enum 1..5 (`resp_gen_meta.pmtu`, the context views' `pmtu`). "
        "Converters\n"
        "  `ibw_pmtu_code_to_bytes`, `ibw_pmtu_bytes_to_code`, "
        "`ibw_pmtu_code_to_iba`,\n"
        "  `ibw_pmtu_iba_to_code`, and `ibw_mtu_enum_to_bytes`/"
        "`ibw_mtu_bytes_to_enum` (wire.h).\n"
        "- E28 ReqState (`enum ibw_req_state`): 0 normal, 1 QP state error, "
        "2 opcode error,\n"
        "  4 local access error. `ibw_req_state_to_cpl` gives the completion "
        "code each becomes:\n"
        "  QP in Error -> WR_FLUSH_ERR (\"Flush in Error\"), opcode not "
        "allowed -> LOCAL_QP_OP_ERR\n"
        "  (\"Unsupported OpCode\"), gather entry failing the L_Key check -> "
        "LOCAL_PROT_ERR.\n"
        "- E28 NAK codes (`enum ibw_nak_code`, wire.h) -> completion codes: "
        "`ibw_nak_to_cpl`\n"
        "  (invalid request 0x12, remote access 0x13, remote operational "
        "0x14, invalid RD request\n"
        "  0x21; a PSN sequence error ends a request only as RETRY_EXC_ERR "
        "0x15). A timer's\n"
        "  counter-expired event ends requests with RETRY_EXC_ERR or "
        "RNR_RETRY_EXC_ERR 0x16\n"
        "  (`ibw_timer_expiry_cpl`). Completion codes: `enum ibw_cpl_code`, "
        "the CQE syndromes of\n"
        "  the software/hardware interface document (mthca values).\n"
        "- Code conflicts: service types (RTL `enum ibw_service_type` RC 0, "
        "UC 1, RD 2, UD 3,\n"
        "  CNP 4, XRC 5 canonical; documents `enum ibw_service_type_doc` RC 0, "
        "UC 1, UD 2;\n"
        "  `ibw_service_type_to_doc`/`_from_doc`), the address-translation "
        "state (documents'\n"
        "  4-bit code canonical, RTL one-hot; `ibw_vtp_state_from_rtl`/"
        "`_to_rtl`) and the\n"
        "  response type of `resp_gen_meta` (RTL ACK 0x11 / read 0x00 "
        "canonical, documents\n"
        "  0x01 / 0x02; `ibw_resp_gen_type_to_doc`/`_from_doc`).\n"
        "- Other codes: verbs opcodes (`enum ibw_rec_opcode`), context "
        "types/opcodes/QP states,\n"
        "  address-translation types/opcodes/flags, timer opcodes and events, "
        "scatter-entry and\n"
        "  receive-WQE manager ops and responses.\n");
}

static void generate(struct text *t)
{
    put(t,
        "# Engine records\n"
        "\n"
        "<!-- Generated by conformance/tool/gen_records_doc.c from the "
        "registry\n"
        "     (include/ibwire/registry.h). Do not edit by hand: regenerate "
        "with\n"
        "     `build/conformance/tool/gen_records_doc -o "
        "docs/records.md`.\n"
        "     The records_docs_sync test fails when this file and the "
        "registry differ. -->\n"
        "\n"
        "The internal records of the HanGu RDMA engine and DMA engine "
        "(catalog E1-E28 of\n"
        "`shared/reference/records.md`), as `include/ibwire/records.h` "
        "declares them.\n"
        "\n"
        "## Conventions\n"
        "\n"
        "- A record is a Verilog bus: bit 0 is the least significant bit of "
        "the record, held\n"
        "  in a little-endian array of 32-bit words (bit 0 = bit 0 of word 0, "
        "bit 32 = bit 0 of\n"
        "  word 1). `ibw_rec_to_bytes()` gives the byte image of the FIFO word "
        "(word 0 first,\n"
        "  each word little-endian).\n"
        "- Bits not covered by a field are reserved: zero when packed.\n"
        "- A field wider than 64 bits is WIDE: a `uint32_t` array in the same "
        "bus order.\n"
        "- `ibwire record pack` prints a record as hex, most significant digit "
        "first, exactly\n"
        "  ceil(width/4) digits, like a Verilog literal of the bus.\n"
        "- Headers inside records (E18-E20) and the stream data (E24, E25) "
        "keep wire byte k in\n"
        "  dword k/4, the dword's first byte in its top bits (so a BTH opcode "
        "is bits [31:24]).\n"
        "- Which source decides a layout: the documents decide which records "
        "and fields exist;\n"
        "  where they give no positions the RTL's are canonical; where they "
        "give a complete\n"
        "  layout (DMA head, timer RAM, MultiQueue tables, write-address table) "
        "theirs is. Where\n"
        "  the two disagree the canonical layout has the plain name and the "
        "other a `_doc` or\n"
        "  `_rtl` name, with converters (see each record's *Layout*).\n"
        "- Codes (opcodes, types, states, PMTU encodings, ReqState, completion "
        "codes) are in\n"
        "  `include/ibwire/records_codes.h`.\n"
        "\n"
        "## Summary\n"
        "\n"
        "| record | ID | width | what |\n"
        "|---|---|---|---|\n");
    size_t n = ibw_registry_count();
    for (size_t i = 0; i < n; i++) {
        const struct ibw_format *f = ibw_registry_get(i);
        if (!is_engine_record(f))
            continue;
        putf(t, "| [`%s`](#%s) | %s | %" PRIu32 " | ", f->name, f->name,
             f->id, f->width);
        put_cell(t, f->title);
        put(t, " |\n");
    }

    put(t, "\n## Conflicts and corrections\n\n"
           "Conflicts between the documents and the RTL, and errors inside the "
           "documents, with\nthe resolution chosen.\n\n");
    for (size_t i = 0; i < n; i++) {
        const struct ibw_format *f = ibw_registry_get(i);
        if (!is_engine_record(f) ||
            !(strstr(f->layout, "onflict") || strstr(f->layout, "orrected")))
            continue;
        putf(t, "- `%s` (%s): %s\n", f->name, f->id, f->layout);
    }

    generate_codes(t);
    put(t, "\n## Records\n");
    for (size_t i = 0; i < n; i++) {
        const struct ibw_format *f = ibw_registry_get(i);
        if (!is_engine_record(f))
            continue;
        putf(t, "\n### %s\n\n", f->name);
        putf(t, "%s %s, %" PRIu32 " bits (%" PRIu32 " words).\n\n", f->id,
             f->title, f->width, (f->width + 31) / 32);
        putf(t, "- Source: %s\n", f->source);
        putf(t, "- Layout: %s\n\n", f->layout);
        put(t, "| field | bits | width | meaning |\n|---|---|---|---|\n");
        for (size_t k = 0; k < f->nfields; k++) {
            const struct ibw_field *fd = &f->fields[k];
            uint32_t hi = fd->pos + fd->width - 1;
            if (hi == fd->pos)
                putf(t, "| `%s` | [%" PRIu32 "] | 1 | ", fd->name, hi);
            else
                putf(t, "| `%s` | [%" PRIu32 ":%" PRIu32 "] | %" PRIu32 " | ",
                     fd->name, hi, fd->pos, fd->width);
            put_cell(t, fd->desc);
            put(t, kind_note(fd));
            put(t, " |\n");
        }
    }
}

/* The whole file in a malloc'd buffer, its length in *len; NULL on error. */
static char *read_file(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0, got;
    do {
        if (n + 4096 > cap) {
            cap = cap ? 2 * cap : 65536;
            char *b = realloc(buf, cap);
            if (!b) {
                free(buf);
                fclose(fp);
                return NULL;
            }
            buf = b;
        }
        got = fread(buf + n, 1, cap - n, fp);
        n += got;
    } while (got > 0);
    fclose(fp);
    *len = n;
    return buf;
}

/* 0 when `have` equals `want`; else print the first differing line. */
static int compare(const char *path, const char *have, size_t hlen,
                   const char *want, size_t wlen)
{
    size_t i = 0, line = 1, start = 0;
    while (i < hlen && i < wlen && have[i] == want[i]) {
        if (have[i] == '\n') {
            line++;
            start = i + 1;
        }
        i++;
    }
    if (i == hlen && i == wlen)
        return 0;
    const char *we = memchr(want + start, '\n', wlen - start);
    const char *he = memchr(have + start, '\n', hlen > start ? hlen - start : 0);
    int wl = (int)(we ? (size_t)(we - want) - start : wlen - start);
    int hl = (int)(start < hlen ? (he ? (size_t)(he - have) - start : hlen - start) : 0);
    fprintf(stderr,
            "%s:%zu: differs from the registry (regenerate it with "
            "gen_records_doc -o)\n  file:      %.*s\n  generated: %.*s\n",
            path, line, hl, start < hlen ? have + start : "", wl,
            want + start);
    return 1;
}

int main(int argc, char **argv)
{
    struct text t = {0};
    generate(&t);
    if (argc == 1) {
        fwrite(t.buf, 1, t.len, stdout);
        return 0;
    }
    if (argc == 3 && !strcmp(argv[1], "-o")) {
        FILE *fp = fopen(argv[2], "wb");
        if (!fp || fwrite(t.buf, 1, t.len, fp) != t.len || fclose(fp)) {
            fprintf(stderr, "gen_records_doc: cannot write %s\n", argv[2]);
            return 2;
        }
        return 0;
    }
    if (argc == 3 && !strcmp(argv[1], "--check")) {
        size_t len;
        char *have = read_file(argv[2], &len);
        if (!have) {
            fprintf(stderr, "gen_records_doc: cannot read %s\n", argv[2]);
            return 2;
        }
        int rc = compare(argv[2], have, len, t.buf, t.len);
        free(have);
        free(t.buf);
        return rc;
    }
    fprintf(stderr, "usage: gen_records_doc [-o FILE | --check FILE]\n");
    return 2;
}
