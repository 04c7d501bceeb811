/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire record: list, describe, pack and unpack the engine's internal
 * records through the registry's descriptors.
 *
 *   ibwire record list                      NAME WIDTH per record
 *   ibwire record describe NAME             FIELD HI LO per field
 *   ibwire record pack NAME FIELD=VALUE...  the record as hex, MSB first,
 *                                           ceil(width/4) digits
 *   ibwire record unpack NAME HEX           FIELD=0xVALUE per field
 *
 * Values are decimal or 0x-hex, of any width (WIDE fields too); '_' may
 * separate digits.  Exit 0 on success, 2 on any bad argument, with a
 * message naming the record, field or value.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ibwire/registry.h"
#include "tool.h"
#include "tool_doc.h"

/* One more word than any record so that overflow is detectable. */
enum { NUM_WORDS = IBW_RECORD_MAX_WORDS + 1 };

/* The actions (tool_doc.h): cmd_record, --help and ibwire-record(1). */
enum { RA_HELP = 1, RA_LIST, RA_DESCRIBE, RA_PACK, RA_UNPACK };

const struct tool_opt record_actions[] = {
    {RA_LIST, "list", NULL, "every record: NAME and width in bits, one a line",
     NULL, NULL},
    {RA_DESCRIBE, "describe", "NAME",
     "the record's fields: FIELD, high bit and low bit, one a line", NULL,
     NULL},
    {RA_PACK, "pack", "NAME FIELD=VALUE...",
     "the record with these fields set (the others 0) as its bus value in "
     "hex, most significant digit first, ceil(width/4) digits", NULL, NULL},
    {RA_UNPACK, "unpack", "NAME HEX", "every field of the bus value HEX as "
     "FIELD=0xVALUE, one a line", NULL, NULL},
    TOOL_OPT_HELP(RA_HELP),
    TOOL_OPT_END};

static void usage(FILE *out)
{
    tool_doc_help(&doc_record, out);
}

static int digit_value(char ch, unsigned base)
{
    int v;
    if (ch >= '0' && ch <= '9')
        v = ch - '0';
    else if (ch >= 'a' && ch <= 'f')
        v = ch - 'a' + 10;
    else if (ch >= 'A' && ch <= 'F')
        v = ch - 'A' + 10;
    else
        return -1;
    return (unsigned)v < base ? v : -1;
}

/* w = w * mul + add over NUM_WORDS words; 0 on overflow out of the top. */
static int mul_add(uint32_t *w, unsigned mul, unsigned add)
{
    uint64_t carry = add;
    for (size_t i = 0; i < NUM_WORDS; i++) {
        uint64_t x = (uint64_t)w[i] * mul + carry;
        w[i] = (uint32_t)x;
        carry = x >> 32;
    }
    return carry == 0;
}

/* Parse decimal or 0x-hex text into NUM_WORDS little-endian words.
 * 0 when the text is not a number or exceeds the buffer. */
static int parse_number(const char *text, uint32_t *w)
{
    unsigned base = 10;
    memset(w, 0, NUM_WORDS * sizeof *w);
    if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        base = 16;
        text += 2;
    }
    int digits = 0;
    for (const char *p = text; *p; p++) {
        if (*p == '_' && digits > 0)
            continue;
        int d = digit_value(*p, base);
        if (d < 0 || !mul_add(w, base, (unsigned)d))
            return 0;
        digits++;
    }
    return digits > 0;
}

/* Print words as hex, most significant digit first, exactly `ndigits`
 * digits, or the minimal number (at least one) when ndigits is 0. */
static void print_hex(FILE *out, const uint32_t *w, size_t nwords,
                      size_t ndigits)
{
    size_t n = ndigits;
    if (n == 0) {
        n = 1;
        for (size_t d = nwords * 8; d-- > 0;)
            if ((w[d / 8] >> (4 * (d % 8))) & 0xFu) {
                n = d + 1;
                break;
            }
    }
    for (size_t d = n; d-- > 0;) {
        unsigned nib = d / 8 < nwords ? (w[d / 8] >> (4 * (d % 8))) & 0xFu : 0;
        fputc("0123456789abcdef"[nib], out);
    }
}

/* The record called name, or NULL after a message naming the problem. */
static const struct ibw_format *find_record(const char *action,
                                            const char *name)
{
    const struct ibw_format *fmt = ibw_registry_find(name);
    if (!fmt) {
        fprintf(stderr,
                "ibwire record %s: unknown record '%s' (see 'ibwire record "
                "list')\n",
                action, name);
        return NULL;
    }
    if (fmt->conv != IBW_CONV_RECORD) {
        fprintf(stderr,
                "ibwire record %s: '%s' is a wire format, not an engine "
                "record\n",
                action, name);
        return NULL;
    }
    return fmt;
}

static int do_list(void)
{
    for (size_t i = 0; i < ibw_registry_count(); i++) {
        const struct ibw_format *fmt = ibw_registry_get(i);
        if (fmt->conv == IBW_CONV_RECORD)
            printf("%s %" PRIu32 "\n", fmt->name, fmt->width);
    }
    return TOOL_EXIT_OK;
}

static int do_describe(const struct ibw_format *fmt)
{
    for (size_t i = 0; i < fmt->nfields; i++) {
        const struct ibw_field *f = &fmt->fields[i];
        printf("%s %" PRIu32 " %" PRIu32 "\n", f->name, f->pos + f->width - 1,
               f->pos);
    }
    return TOOL_EXIT_OK;
}

static int do_pack(const struct ibw_format *fmt, int nargs, char **args)
{
    uint32_t w[NUM_WORDS] = {0};
    unsigned char seen[64] = {0};
    for (int i = 0; i < nargs; i++) {
        const char *eq = strchr(args[i], '=');
        if (!eq || eq == args[i]) {
            fprintf(stderr, "ibwire record pack: expected FIELD=VALUE, got '%s'\n",
                    args[i]);
            return TOOL_EXIT_USAGE;
        }
        char fname[64];
        size_t flen = (size_t)(eq - args[i]);
        if (flen >= sizeof fname)
            flen = sizeof fname - 1;
        memcpy(fname, args[i], flen);
        fname[flen] = '\0';
        const struct ibw_field *f = ibw_format_field(fmt, fname);
        if (!f) {
            fprintf(stderr, "ibwire record pack: record '%s' has no field '%s'\n",
                    fmt->name, fname);
            return TOOL_EXIT_USAGE;
        }
        size_t idx = (size_t)(f - fmt->fields);
        if (idx < sizeof seen && seen[idx]) {
            fprintf(stderr, "ibwire record pack: %s.%s given twice\n", fmt->name,
                    f->name);
            return TOOL_EXIT_USAGE;
        }
        if (idx < sizeof seen)
            seen[idx] = 1;
        uint32_t v[NUM_WORDS];
        if (!parse_number(eq + 1, v)) {
            fprintf(stderr,
                    "ibwire record pack: %s.%s: '%s' is not a number (decimal "
                    "or 0x-hex) that ibwire can hold\n",
                    fmt->name, f->name, eq + 1);
            return TOOL_EXIT_USAGE;
        }
        int err = ibw_record_field_set_words(fmt, f, w, v, NUM_WORDS);
        if (err == IBW_E_RANGE) {
            fprintf(stderr,
                    "ibwire record pack: %s.%s: value '%s' does not fit in %" PRIu32
                    " bits\n",
                    fmt->name, f->name, eq + 1, f->width);
            return TOOL_EXIT_USAGE;
        }
        if (err) {
            fprintf(stderr, "ibwire record pack: %s.%s: %s\n", fmt->name,
                    f->name, ibw_strerror(err));
            return TOOL_EXIT_USAGE;
        }
    }
    print_hex(stdout, w, ibw_record_words(fmt), ((size_t)fmt->width + 3) / 4);
    fputc('\n', stdout);
    return TOOL_EXIT_OK;
}

static int do_unpack(const struct ibw_format *fmt, const char *hex)
{
    uint32_t w[NUM_WORDS];
    char buf[160];
    /* The value is hex with or without 0x. */
    if (!(hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X'))) {
        if (strlen(hex) + 3 > sizeof buf) {
            fprintf(stderr, "ibwire record unpack: value '%s' is too long for %s\n",
                    hex, fmt->name);
            return TOOL_EXIT_USAGE;
        }
        snprintf(buf, sizeof buf, "0x%s", hex);
        hex = buf;
    }
    if (!parse_number(hex, w)) {
        fprintf(stderr,
                "ibwire record unpack: '%s' is not a hex value that fits %s\n",
                hex, fmt->name);
        return TOOL_EXIT_USAGE;
    }
    for (uint32_t bit = fmt->width; bit < 32 * NUM_WORDS; bit++)
        if ((w[bit / 32] >> (bit % 32)) & 1u) {
            fprintf(stderr,
                    "ibwire record unpack: value %s is wider than %s (%" PRIu32
                    " bits): bit %" PRIu32 " is set\n",
                    hex, fmt->name, fmt->width, bit);
            return TOOL_EXIT_USAGE;
        }
    for (size_t i = 0; i < fmt->nfields; i++) {
        const struct ibw_field *f = &fmt->fields[i];
        uint32_t v[NUM_WORDS] = {0};
        if (ibw_record_field_get_words(fmt, f, w, v, NUM_WORDS) != IBW_OK) {
            fprintf(stderr, "ibwire record unpack: %s.%s cannot be read\n",
                    fmt->name, f->name);
            return TOOL_EXIT_USAGE;
        }
        printf("%s=0x", f->name);
        print_hex(stdout, v, IBW_WIDE_WORDS((size_t)f->width), 0);
        fputc('\n', stdout);
    }
    return TOOL_EXIT_OK;
}

int cmd_record(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return TOOL_EXIT_USAGE;
    }
    const char *action = argv[1];
    const struct tool_opt *act = tool_opt_find(record_actions, action);
    int id = act ? act->id : 0;
    if (id == RA_HELP) {
        usage(stdout);
        return TOOL_EXIT_OK;
    }
    if (id == RA_LIST) {
        if (argc != 2) {
            fprintf(stderr, "ibwire record list: takes no arguments\n");
            return TOOL_EXIT_USAGE;
        }
        return do_list();
    }
    if (!id) {
        fprintf(stderr, "ibwire record: unknown action '%s'\n", action);
        usage(stderr);
        return TOOL_EXIT_USAGE;
    }
    if (argc < 3) {
        fprintf(stderr, "ibwire record %s: missing record name\n", action);
        return TOOL_EXIT_USAGE;
    }
    const struct ibw_format *fmt = find_record(action, argv[2]);
    if (!fmt)
        return TOOL_EXIT_USAGE;
    if (id == RA_DESCRIBE) {
        if (argc != 3) {
            fprintf(stderr, "ibwire record describe: takes one record name\n");
            return TOOL_EXIT_USAGE;
        }
        return do_describe(fmt);
    }
    if (id == RA_PACK)
        return do_pack(fmt, argc - 3, argv + 3);
    if (argc != 4) {
        fprintf(stderr, "ibwire record unpack: expected NAME HEX\n");
        return TOOL_EXIT_USAGE;
    }
    return do_unpack(fmt, argv[3]);
}
