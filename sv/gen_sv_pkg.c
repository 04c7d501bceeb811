/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_sv_pkg - write sv/ibwire_pkg.sv, the SystemVerilog package of ibwire,
 * from the format registry (include/ibwire/registry.h) alone.
 *
 *   gen_sv_pkg DPI_PART [OUT]
 *
 * For every engine record (catalog E*) and host format (H*) the package
 * gets a `typedef struct packed` whose bits are the value libibwire's
 * ibwire_record_* functions read and write (lib/ibwire_lib.h, "Records by
 * name"), so a testbench can cast a bus or a DPI result to the struct:
 *   - a record-convention format is the bus itself: field (pos, width) is
 *     bits [pos+width-1:pos];
 *   - a byte (wire-convention) format puts byte 0 in the most significant
 *     bits, so a field `width` bits from the MSB at offset pos sits at lsb
 *     = format width - pos - field width, and the members come out in field
 *     order, as `struct packed` lays them out.
 * Members run from the most significant bit down; bits no field covers
 * become `rsvd_<lsb>` members so that every struct is exactly as wide as
 * its format.  A field whose name is a SystemVerilog keyword gets a
 * trailing underscore (`type` -> `type_`); the DPI functions still take
 * the registry's name.
 *
 * DPI_PART (sv/ibwire_dpi.svh) is the hand-written rest of the package (the
 * DPI-C imports and the scoreboard class); it is copied in verbatim so that
 * users compile one file.  The output goes to OUT, or stdout.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ibwire/registry.h"

/* IEEE 1800-2017 Annex B: words a member cannot be called. */
static const char *const sv_keywords[] = {
    "accept_on", "alias", "always", "always_comb", "always_ff",
    "always_latch", "and", "assert", "assign", "assume", "automatic",
    "before", "begin", "bind", "bins", "binsof", "bit", "break", "buf",
    "bufif0", "bufif1", "byte", "case", "casex", "casez", "cell", "chandle",
    "checker", "class", "clocking", "cmos", "config", "const", "constraint",
    "context", "continue", "cover", "covergroup", "coverpoint", "cross",
    "deassign", "default", "defparam", "design", "disable", "dist", "do",
    "edge", "else", "end", "endcase", "endchecker", "endclass",
    "endclocking", "endconfig", "endfunction", "endgenerate", "endgroup",
    "endinterface", "endmodule", "endpackage", "endprimitive",
    "endprogram", "endproperty", "endspecify", "endsequence", "endtable",
    "endtask", "enum", "event", "eventually", "expect", "export", "extends",
    "extern", "final", "first_match", "for", "force", "foreach", "forever",
    "fork", "forkjoin", "function", "generate", "genvar", "global",
    "highz0", "highz1", "if", "iff", "ifnone", "ignore_bins",
    "illegal_bins", "implements", "implies", "import", "incdir", "include",
    "initial", "inout", "input", "inside", "instance", "int", "integer",
    "interconnect", "interface", "intersect", "join", "join_any",
    "join_none", "large", "let", "liblist", "library", "local", "localparam",
    "logic", "longint", "macromodule", "matches", "medium", "modport",
    "module", "nand", "negedge", "nettype", "new", "nexttime", "nmos", "nor",
    "noshowcancelled", "not", "notif0", "notif1", "null", "or", "output",
    "package", "packed", "parameter", "pmos", "posedge", "primitive",
    "priority", "program", "property", "protected", "pull0", "pull1",
    "pulldown", "pullup", "pulsestyle_ondetect", "pulsestyle_onevent",
    "pure", "rand", "randc", "randcase", "randsequence", "rcmos", "real",
    "realtime", "ref", "reg", "reject_on", "release", "repeat", "restrict",
    "return", "rnmos", "rpmos", "rtran", "rtranif0", "rtranif1", "s_always",
    "s_eventually", "s_nexttime", "s_until", "s_until_with", "scalared",
    "sequence", "shortint", "shortreal", "showcancelled", "signed", "small",
    "soft", "solve", "specify", "specparam", "static", "string", "strong",
    "strong0", "strong1", "struct", "super", "supply0", "supply1",
    "sync_accept_on", "sync_reject_on", "table", "tagged", "task", "this",
    "throughout", "time", "timeprecision", "timeunit", "tran", "tranif0",
    "tranif1", "tri", "tri0", "tri1", "triand", "trior", "trireg", "type",
    "typedef", "union", "unique", "unique0", "unsigned", "until",
    "until_with", "untyped", "use", "uwire", "var", "vectored", "virtual",
    "void", "wait", "wait_order", "wand", "weak", "weak0", "weak1", "while",
    "wildcard", "wire", "with", "within", "wor", "xnor", "xor",
};

static int is_sv_keyword(const char *name)
{
    for (size_t i = 0; i < sizeof sv_keywords / sizeof sv_keywords[0]; i++)
        if (strcmp(sv_keywords[i], name) == 0)
            return 1;
    return 0;
}

/* Registry names are C identifiers already; only keywords need a change. */
static void sv_member_name(const char *name, char *out, size_t n)
{
    snprintf(out, n, "%s%s", name, is_sv_keyword(name) ? "_" : "");
}

static int in_package(const struct ibw_format *fmt)
{
    return fmt->id[0] == 'E' || fmt->id[0] == 'H';
}

/* The lowest bit of field f in the package's (and libibwire's) bus value. */
static uint32_t bus_lsb(const struct ibw_format *fmt, const struct ibw_field *f)
{
    return fmt->conv == IBW_CONV_RECORD ? f->pos
                                        : fmt->width - f->pos - f->width;
}

static void upper(const char *s, char *out, size_t n)
{
    size_t i = 0;
    for (; s[i] && i + 1 < n; i++)
        out[i] = (char)(s[i] >= 'a' && s[i] <= 'z' ? s[i] - 'a' + 'A' : s[i]);
    out[i] = '\0';
}

static void emit_member(FILE *out, uint32_t lsb, uint32_t width,
                        const char *name, const char *desc)
{
    char range[32] = "";
    if (width > 1)
        snprintf(range, sizeof range, " [%u:0]", (unsigned)(width - 1));
    char decl[80];
    snprintf(decl, sizeof decl, "%s;", name);
    fprintf(out, "    logic%-9s %-20s // [%u:%u]", range, decl,
            (unsigned)(lsb + width - 1), (unsigned)lsb);
    if (desc && desc[0])
        fprintf(out, " %s", desc);
    fputc('\n', out);
}

/* The field of fmt covering bit `bit` of the bus value, or NULL. */
static const struct ibw_field *field_at(const struct ibw_format *fmt,
                                        uint32_t bit)
{
    for (size_t i = 0; i < fmt->nfields; i++) {
        uint32_t lsb = bus_lsb(fmt, &fmt->fields[i]);
        if (bit >= lsb && bit < lsb + fmt->fields[i].width)
            return &fmt->fields[i];
    }
    return NULL;
}

static int emit_struct(FILE *out, const struct ibw_format *fmt)
{
    char up[64];
    upper(fmt->name, up, sizeof up);
    fprintf(out, "  // %s %s: %s.\n", fmt->id, fmt->name, fmt->title);
    fprintf(out, "  // Source: %s.\n", fmt->source);
    fprintf(out, "  // %s.\n", fmt->conv == IBW_CONV_RECORD
                                   ? "Record: the engine's bus order"
                                   : "Bytes: byte 0 is the most significant");
    fprintf(out, "  localparam int %s_BITS = %u;\n", up, (unsigned)fmt->width);
    fprintf(out, "  typedef struct packed {\n");
    /* Walk down from the MSB, a field or a gap at a time. */
    uint32_t top = fmt->width;
    while (top > 0) {
        const struct ibw_field *f = field_at(fmt, top - 1);
        if (f) {
            uint32_t lsb = bus_lsb(fmt, f);
            if (lsb + f->width != top) {
                fprintf(stderr, "gen_sv_pkg: %s.%s overlaps another field\n",
                        fmt->name, f->name);
                return -1;
            }
            char name[64];
            sv_member_name(f->name, name, sizeof name);
            emit_member(out, lsb, f->width, name, f->desc);
            top = lsb;
            continue;
        }
        uint32_t lsb = top - 1;
        while (lsb > 0 && !field_at(fmt, lsb - 1))
            lsb--;
        char name[32];
        snprintf(name, sizeof name, "rsvd_%u", (unsigned)lsb);
        emit_member(out, lsb, top - lsb, name, "not a field of the format");
        top = lsb;
    }
    fprintf(out, "  } %s_t;\n\n", fmt->name);
    return 0;
}

static int copy_file(FILE *out, const char *path)
{
    FILE *in = fopen(path, "rb");
    if (!in) {
        perror(path);
        return -1;
    }
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        fwrite(buf, 1, n, out);
    int bad = ferror(in);
    fclose(in);
    return bad ? -1 : 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: gen_sv_pkg DPI_PART [OUT]\n");
        return 2;
    }
    FILE *out = argc == 3 ? fopen(argv[2], "w") : stdout;
    if (!out) {
        perror(argv[2]);
        return 1;
    }
    /* The DPI bus argument holds any registry format libibwire packs, not
     * only the ones given a struct here. */
    uint32_t max_bits = 0;
    for (size_t i = 0; i < ibw_registry_count(); i++) {
        const struct ibw_format *fmt = ibw_registry_get(i);
        if (fmt->width > max_bits)
            max_bits = fmt->width;
    }
    fprintf(out,
            "// SPDX-License-Identifier: Apache-2.0\n"
            "// ibwire_pkg: ibwire for SystemVerilog testbenches.\n"
            "// Generated by sv/gen_sv_pkg.c from the format registry; do not "
            "edit.\n"
            "// The structs are the bus values of libibwire's ibwire_record_* "
            "functions\n"
            "// (lib/ibwire_lib.h, \"Records by name\"); a field named as a "
            "keyword\n"
            "// carries a trailing underscore (type -> type_).\n"
            "package ibwire_pkg;\n\n"
            "  // Bits of the widest format libibwire packs (DPI bus "
            "arguments).\n"
            "  localparam int IBW_RECORD_MAX_BITS = %u;\n\n",
            (unsigned)max_bits);
    for (size_t i = 0; i < ibw_registry_count(); i++) {
        const struct ibw_format *fmt = ibw_registry_get(i);
        if (in_package(fmt) && emit_struct(out, fmt) != 0)
            return 1;
    }
    if (copy_file(out, argv[1]) != 0)
        return 1;
    fprintf(out, "\nendpackage : ibwire_pkg\n");
    if (fflush(out) != 0 || (out != stdout && fclose(out) != 0)) {
        perror("gen_sv_pkg");
        return 1;
    }
    return 0;
}
