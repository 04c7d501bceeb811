/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Field naming: ibw_mad_tshark_name() must map every non-reserved field of
 * the formats tshark dissects to a name tshark 4.0 actually has, so the
 * later tshark differential for MADs is a lookup.  The list of tshark's
 * names is shared/reference/tshark-ib-all-fields.txt (`tshark -G fields`);
 * the fields tshark lacks are listed here, and must really be absent there.
 *
 * Usage: test_mad_tshark_names FILE; exits 77 (skip) without FILE.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ibwire/mad.h"
#include "testutil.h"

static char *names;      /* the file, one name per tab-separated line */
static size_t names_len;

/* The line whose third column is `name` ("F\tDescription\tname\ttype\t
 * protocol\tbase\tbitmask\t..."), or NULL. */
static const char *tshark_line(const char *name)
{
    size_t n = strlen(name);
    const char *p = names;
    while (p && *p) {
        const char *eol = strchr(p, '\n');
        size_t linelen = eol ? (size_t)(eol - p) : strlen(p);
        /* "F\tDescription\tname\t..." */
        const char *t1 = memchr(p, '\t', linelen);
        const char *t2 = t1 ? memchr(t1 + 1, '\t', linelen - (size_t)(t1 + 1 - p))
                            : NULL;
        if (t2) {
            const char *field = t2 + 1;
            if ((size_t)(p + linelen - field) > n && strncmp(field, name, n) == 0 &&
                field[n] == '\t')
                return p;
        }
        p = eol ? eol + 1 : NULL;
    }
    return NULL;
}

static int tshark_has(const char *name)
{
    return tshark_line(name) != NULL;
}

/* Column `col` (0-based) of a line as a number, -1 when missing. */
static long long tshark_column(const char *line, int col)
{
    for (int i = 0; i < col; i++) {
        line = strpbrk(line, "\t\n");
        if (!line || *line != '\t')
            return -1;
        line++;
    }
    char *end;
    long long v = strtoll(line, &end, 0);
    return end == line ? -1 : v;
}

/* The bitmask tshark gives a field: "FT_UINTn" with mask 0 means all n
 * bits.  -1 when tshark lacks the field. */
static long long tshark_mask(const char *name)
{
    const char *line = tshark_line(name);
    if (!line)
        return -1;
    const char *type = strstr(line, "FT_UINT");
    long long mask = tshark_column(line, 6);
    if (mask == 0 && type)
        mask = (long long)((1ULL << atoi(type + 7)) - 1);
    return mask;
}

/* Every Notice field as tshark's bitmask places it: in tshark's
 * container (8, 16 or 24 bits from the field's first byte), the field's
 * width at its bit offset (bit 0 the most significant). */
static void test_notice_masks(void)
{
    const struct ibw_format *f = ibw_notice_format();
    char buf[128];
    for (size_t i = 0; i < f->nfields; i++) {
        const struct ibw_field *fld = &f->fields[i];
        if (fld->kind == IBW_FK_BYTES)
            continue;
        TU_EQ(ibw_mad_tshark_name(f->name, fld->name, buf, sizeof buf), IBW_OK);
        const char *line = tshark_line(buf);
        TU_CHECK(line != NULL);
        if (!line)
            continue;
        unsigned bits = (unsigned)atoi(strstr(line, "FT_UINT") + 7);
        unsigned shift = bits - fld->pos % 8 - fld->width;
        long long want = (long long)(((1ULL << fld->width) - 1) << shift);
        if (tshark_mask(buf) != want)
            fprintf(stderr, "%s: tshark mask 0x%llx, ibwire 0x%llx\n", buf,
                    tshark_mask(buf), want);
        TU_EQ(tshark_mask(buf), want);
    }
}

/* Every PortInfo capability bit is tshark's capabilitymask.<name> with
 * the mask 2^bit. */
static void test_capability_masks(void)
{
    char buf[128];
#define CHECK_CAP(name, bit, meaning)                                        \
    snprintf(buf, sizeof buf, "infiniband.portinfo.capabilitymask.%s", #name); \
    if (tshark_mask(buf) != (1LL << IBW_PI_CAP_BIT_##name))                  \
        fprintf(stderr, "%s: tshark mask 0x%llx\n", buf, tshark_mask(buf));  \
    TU_EQ(tshark_mask(buf), 1LL << IBW_PI_CAP_BIT_##name);
    IBW_PORTINFO_CAPABILITIES(CHECK_CAP)
#undef CHECK_CAP
}

/* format, field: fields tshark 4.0 does not dissect */
static const char *const missing[][2] = {
    {"cm_req", "sap_supported"},
    {"portinfo", "mcastpkeytrapsuppress"},
    {"portinfo", "capabilitymask2"},
    {"portinfo", "linkspeedextactive"},
    {"portinfo", "linkspeedextsupported"},
    {"portinfo", "linkspeedextenabled"},
    {"classportinfo", "traphl"},
    {"vendor", "oui"},
    {"pathrecord", "serviceid"},
    {"pathrecord", "qosclass"},
    {"notice", "issuergid"},
};

static int is_missing(const char *fmt, const char *field)
{
    for (size_t i = 0; i < sizeof missing / sizeof missing[0]; i++)
        if (strcmp(missing[i][0], fmt) == 0 && strcmp(missing[i][1], field) == 0)
            return 1;
    return 0;
}

static void check_format(const struct ibw_format *f)
{
    char buf[128];
    for (size_t i = 0; i < f->nfields; i++) {
        const char *field = f->fields[i].name;
        if (strncmp(field, "rsvd", 4) == 0)
            continue;
        TU_EQ(ibw_mad_tshark_name(f->name, field, buf, sizeof buf), IBW_OK);
        int has = tshark_has(buf);
        if (has == is_missing(f->name, field))
            fprintf(stderr, "%s.%s -> %s: tshark %s it\n", f->name, field, buf,
                    has ? "has" : "lacks");
        TU_CHECK(has != is_missing(f->name, field));
    }
}

static void test_rules(void)
{
    char buf[64];
    TU_EQ(ibw_mad_tshark_name("cm_req", "localqpn", buf, sizeof buf), IBW_OK);
    TU_CHECK(strcmp(buf, "infiniband.cm.req.localqpn") == 0);
    TU_EQ(ibw_mad_tshark_name("cm_req", "localcommid", buf, sizeof buf), IBW_OK);
    TU_CHECK(strcmp(buf, "infiniband.cm.req") == 0);
    TU_EQ(ibw_mad_tshark_name("cm_drep", "private_data", buf, sizeof buf),
          IBW_OK);
    TU_CHECK(strcmp(buf, "infiniband.cm.drsp.private") == 0);
    TU_EQ(ibw_mad_tshark_name("mad_hdr", "attributeid", buf, sizeof buf),
          IBW_OK);
    TU_CHECK(strcmp(buf, "infiniband.mad.attributeid") == 0);
    TU_EQ(ibw_mad_tshark_name("smpdirected", "mkey", buf, sizeof buf), IBW_OK);
    TU_CHECK(strcmp(buf, "infiniband.smplid.mkey") == 0);
    TU_EQ(ibw_mad_tshark_name("bth", "psn", buf, sizeof buf), IBW_E_FIELD);
    TU_EQ(ibw_mad_tshark_name("cm_req", "localqpn", buf, 26), IBW_E_NOSPACE);
    TU_EQ(ibw_mad_tshark_name("cm_req", "localqpn", buf, 27), IBW_OK);
    TU_EQ(ibw_mad_tshark_name("cm_req", "localcommid", buf, 17), IBW_E_NOSPACE);
}

int main(int argc, char **argv)
{
    test_rules();
    if (argc < 2)
        return 77;
    FILE *fp = fopen(argv[1], "rb");
    if (!fp) {
        printf("mad_tshark_names: %s not available, skipped\n", argv[1]);
        return 77;
    }
    fseek(fp, 0, SEEK_END);
    long sz = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    names = malloc((size_t)sz + 1);
    names_len = fread(names, 1, (size_t)sz, fp);
    names[names_len] = '\0';
    fclose(fp);

    /* the formats tshark dissects */
    check_format(ibw_mad_hdr_format());
    check_format(ibw_gmp_format());
    check_format(ibw_rmpp_format());
    check_format(ibw_sa_format());
    check_format(ibw_vendor_mad_format());
    check_format(ibw_smp_lid_format());
    check_format(ibw_smp_dr_format());
    check_format(ibw_sminfo_format());
    check_format(ibw_nodeinfo_format());
    check_format(ibw_portinfo_format());
    check_format(ibw_classportinfo_format());
    check_format(ibw_pathrecord_format());
    check_format(ibw_cm_req_format());
    check_format(ibw_cm_rep_format());
    check_format(ibw_cm_rtu_format());
    check_format(ibw_cm_rej_format());
    check_format(ibw_cm_dreq_format());
    check_format(ibw_cm_drep_format());
    check_format(ibw_ip_cm_format());
    check_format(ibw_notice_format());
    test_notice_masks();
    test_capability_masks();
    free(names);
    return tu_done("mad_tshark_names");
}
