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

/* Is `name` the third column of some line? */
static int tshark_has(const char *name)
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
                return 1;
        }
        p = eol ? eol + 1 : NULL;
    }
    return 0;
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
    free(names);
    return tu_done("mad_tshark_names");
}
