/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_mad_diff.c - captures of management datagrams for the tshark
 * differential of `ibwire dump`'s MAD and CM fields.
 *
 *   gen_mad_diff OUTDIR SEED PER_CASE
 *
 * Every case below is built PER_CASE times into each of
 *   roce4.pcap     RoCEv2/IPv4 (a REQ shows its GIDs as IPv4 there)
 *   roce6.pcapng   RoCEv2/IPv6, each packet commented "frame N CASE"
 *   rocev1.pcap    RoCEv1 (EtherType 0x8915 + GRH)
 *   ib-erf.pcap    native InfiniBand, LRH with and without GRH, ERF (197)
 *   ib-exp.pcapng  native InfiniBand in exported PDUs (252)
 * A case fixes what steers the dissectors (class, attribute, method, the
 * RMPP type, an IP CM service ID and IP version, the QPs); every other
 * byte of the 256-byte MAD is random (a seeded xorshift, so runs repeat),
 * reserved bits included.  The packets go through ibw_build() as UD SEND
 * ONLY (or with immediate) to QP0 for SMPs, QP1 otherwise.  Reserved
 * classes and reserved RMPP types are left out: tshark 4.0 reads them with
 * shifted layouts that ibwire does not imitate (dump_fields_mad.c).  A few
 * cases are not MADs to tshark or ibwire (short payload, QPs above 1).
 */
#include <stdlib.h>

#include "../gen_common.h"
#include "ibwire/mad.h"

/* What a case pins down; 0 fields are left random or default. */
struct mad_case {
    const char *name;
    uint8_t mgmtclass;   /* 0: random class from `classes` */
    const uint8_t *classes;
    uint16_t attr;
    uint8_t method;      /* 0: random */
    uint8_t kind;        /* enum case_kind */
};

enum case_kind {
    CK_PLAIN,        /* random MAD with the class/attribute/method set */
    CK_SA,           /* SA: random RMPP type 0..4 */
    CK_REQ_IP4,      /* CM REQ, IP CM service ID, IP CM header IPv4 */
    CK_REQ_IP6,      /* CM REQ, IP CM service ID, IP CM header IPv6 */
    CK_REQ_IPX,      /* CM REQ, IP CM service ID, random IP version */
    CK_IMM,          /* as PLAIN, sent as UD SEND ONLY WITH IMMEDIATE */
    CK_BAD_VERSION,  /* base version not 1 */
    CK_FROM_QP1,     /* GMP response from QP1 to another QP */
    CK_SHORT,        /* QP1, 100-byte payload: no MAD */
    CK_NOT_MAD       /* 256 bytes between QPs above 1: no MAD */
};

static const uint8_t vendor_app_classes[] = {0x09, 0x0F, 0x10, 0x11, 0x12,
                                             0x21, 0x2F, 0x30, 0x4F};

static const struct mad_case cases[] = {
    {"cm-req", 0x07, NULL, IBW_CM_ATTR_REQ, 0x03, CK_PLAIN},
    {"cm-req-ipcm4", 0x07, NULL, IBW_CM_ATTR_REQ, 0x03, CK_REQ_IP4},
    {"cm-req-ipcm6", 0x07, NULL, IBW_CM_ATTR_REQ, 0x03, CK_REQ_IP6},
    {"cm-req-ipcmx", 0x07, NULL, IBW_CM_ATTR_REQ, 0x03, CK_REQ_IPX},
    {"cm-req-imm", 0x07, NULL, IBW_CM_ATTR_REQ, 0x03, CK_IMM},
    {"cm-rep", 0x07, NULL, IBW_CM_ATTR_REP, 0x03, CK_PLAIN},
    {"cm-rtu", 0x07, NULL, IBW_CM_ATTR_RTU, 0x03, CK_PLAIN},
    {"cm-rej", 0x07, NULL, IBW_CM_ATTR_REJ, 0x03, CK_PLAIN},
    {"cm-dreq", 0x07, NULL, IBW_CM_ATTR_DREQ, 0x03, CK_PLAIN},
    {"cm-drep", 0x07, NULL, IBW_CM_ATTR_DREP, 0x03, CK_PLAIN},
    {"cm-mra", 0x07, NULL, IBW_CM_ATTR_MRA, 0x03, CK_PLAIN},
    {"cm-lap", 0x07, NULL, IBW_CM_ATTR_LAP, 0x03, CK_PLAIN},
    {"cm-apr", 0x07, NULL, IBW_CM_ATTR_APR, 0x03, CK_PLAIN},
    {"cm-sidr-req", 0x07, NULL, IBW_CM_ATTR_SIDR_REQ, 0x03, CK_PLAIN},
    {"cm-sidr-rep", 0x07, NULL, IBW_CM_ATTR_SIDR_REP, 0x03, CK_PLAIN},
    {"cm-classportinfo", 0x07, NULL, IBW_CM_ATTR_CLASSPORTINFO, 0x01,
     CK_PLAIN},
    {"cm-unknown-attr", 0x07, NULL, 0x0033, 0x03, CK_PLAIN},
    {"cm-bad-method", 0x07, NULL, IBW_CM_ATTR_RTU, 0x05, CK_PLAIN},
    {"cm-bad-version", 0x07, NULL, IBW_CM_ATTR_REP, 0x03, CK_BAD_VERSION},
    {"cm-from-qp1", 0x07, NULL, IBW_CM_ATTR_DREQ, 0x03, CK_FROM_QP1},
    {"smp-lid-sminfo", 0x01, NULL, IBW_SMP_ATTR_SMINFO, 0x81, CK_PLAIN},
    {"smp-lid-nodeinfo", 0x01, NULL, IBW_SMP_ATTR_NODEINFO, 0x81, CK_PLAIN},
    {"smp-lid-portinfo", 0x01, NULL, IBW_SMP_ATTR_PORTINFO, 0x01, CK_PLAIN},
    {"smp-lid-lft", 0x01, NULL, IBW_SMP_ATTR_LINEARFORWARDINGTABLE, 0x02,
     CK_PLAIN},
    {"smp-lid-pkeytable", 0x01, NULL, IBW_SMP_ATTR_PKEYTABLE, 0x01, CK_PLAIN},
    {"smp-lid-sltovl", 0x01, NULL, IBW_SMP_ATTR_SLTOVLMAPPINGTABLE, 0x01,
     CK_PLAIN},
    {"smp-lid-notice", 0x01, NULL, IBW_SMP_ATTR_NOTICE, 0x05, CK_PLAIN},
    {"smp-lid-lswpt", 0x01, NULL, IBW_SMP_ATTR_LINKSPEEDWIDTHPAIRSTABLE, 0x81,
     CK_PLAIN},
    {"smp-lid-unknown", 0x01, NULL, 0x00AB, 0x01, CK_PLAIN},
    {"smp-dr-sminfo", 0x81, NULL, IBW_SMP_ATTR_SMINFO, 0x01, CK_PLAIN},
    {"smp-dr-nodeinfo", 0x81, NULL, IBW_SMP_ATTR_NODEINFO, 0x81, CK_PLAIN},
    {"smp-dr-portinfo", 0x81, NULL, IBW_SMP_ATTR_PORTINFO, 0x81, CK_PLAIN},
    {"smp-dr-vlarb", 0x81, NULL, IBW_SMP_ATTR_VLARBITRATIONTABLE, 0x81,
     CK_PLAIN},
    {"smp-dr-ledinfo", 0x81, NULL, IBW_SMP_ATTR_LEDINFO, 0x02, CK_PLAIN},
    {"smp-dr-unknown", 0x81, NULL, 0x00CD, 0x81, CK_PLAIN},
    {"sa-pathrecord", 0x03, NULL, IBW_SA_ATTR_PATHRECORD, 0, CK_SA},
    {"sa-sminforecord", 0x03, NULL, IBW_SA_ATTR_SMINFORECORD, 0, CK_SA},
    {"sa-noderecord", 0x03, NULL, IBW_SA_ATTR_NODERECORD, 0, CK_SA},
    {"sa-informinfo", 0x03, NULL, IBW_MAD_ATTR_INFORMINFO, 0, CK_SA},
    {"sa-linkrecord", 0x03, NULL, IBW_SA_ATTR_LINKRECORD, 0, CK_SA},
    {"sa-servicerecord", 0x03, NULL, IBW_SA_ATTR_SERVICERECORD, 0, CK_SA},
    {"sa-mcmemberrecord", 0x03, NULL, IBW_SA_ATTR_MCMEMBERRECORD, 0, CK_SA},
    {"sa-tracerecord", 0x03, NULL, IBW_SA_ATTR_TRACERECORD, 0, CK_SA},
    {"sa-multipathrecord", 0x03, NULL, IBW_SA_ATTR_MULTIPATHRECORD, 0, CK_SA},
    {"sa-sarecord", 0x03, NULL, IBW_SA_ATTR_SERVICEASSOCIATIONRECORD, 0,
     CK_SA},
    {"sa-lftrecord", 0x03, NULL, IBW_SA_ATTR_LINEARFORWARDINGTABLERECORD, 0,
     CK_SA},
    {"sa-portinforecord", 0x03, NULL, IBW_SA_ATTR_PORTINFORECORD, 0, CK_SA},
    {"sa-sltovlrecord", 0x03, NULL, IBW_SA_ATTR_SLTOVLMAPPINGTABLERECORD, 0,
     CK_SA},
    {"sa-vlarbrecord", 0x03, NULL, IBW_SA_ATTR_VLARBITRATIONTABLERECORD, 0,
     CK_SA},
    {"sa-classportinfo", 0x03, NULL, IBW_MAD_ATTR_CLASSPORTINFO, 0, CK_SA},
    {"sa-notice", 0x03, NULL, IBW_MAD_ATTR_NOTICE, 0, CK_SA},
    {"sa-lswptrecord", 0x03, NULL, IBW_SA_ATTR_LINKSPEEDWIDTHPAIRSTABLERECORD,
     0, CK_SA},
    {"sa-unknown", 0x03, NULL, 0x00AA, 0, CK_SA},
    {"perf-portcounters", 0x04, NULL, IBW_PERF_ATTR_PORTCOUNTERS, 0x01,
     CK_PLAIN},
    {"perf-classportinfo", 0x04, NULL, IBW_MAD_ATTR_CLASSPORTINFO, 0x01,
     CK_PLAIN},
    {"perf-other", 0x04, NULL, IBW_PERF_ATTR_PORTSAMPLESCONTROL, 0x01,
     CK_PLAIN},
    {"bm", 0x05, NULL, 0x0010, 0x03, CK_PLAIN},
    {"devmgt", 0x06, NULL, 0x0010, 0x01, CK_PLAIN},
    {"snmp", 0x08, NULL, 0x0010, 0x03, CK_PLAIN},
    {"vendor-app", 0, vendor_app_classes, 0x0010, 0, CK_PLAIN},
    {"short-qp1", 0x07, NULL, IBW_CM_ATTR_REQ, 0x03, CK_SHORT},
    {"not-mad", 0x07, NULL, IBW_CM_ATTR_REQ, 0x03, CK_NOT_MAD},
};

/* Valid SA methods: requests and responses alike. */
static const uint8_t sa_methods[] = {0x01, 0x02, 0x06, 0x12, 0x13, 0x14, 0x15,
                                     0x81, 0x86, 0x92, 0x94, 0x95};

/* The MAD of case c into mad[256]. */
static void fill_mad(const struct mad_case *c, uint8_t *mad)
{
    rnd_fill(mad, IBW_MAD_SIZE);
    uint8_t cls = c->mgmtclass;
    if (!cls)
        cls = c->classes[rnd() % sizeof vendor_app_classes];
    uint8_t method = c->method;
    if (!method)
        method = cls == IBW_MGMT_CLASS_SUBN_ADM
                     ? sa_methods[rnd() % sizeof sa_methods]
                     : (uint8_t)rnd();
    ibw_mad_hdr_set_baseversion(mad, c->kind == CK_BAD_VERSION
                                         ? (uint8_t)(2 + rnd() % 254)
                                         : IBW_MAD_BASE_VERSION);
    ibw_mad_hdr_set_mgmtclass(mad, cls);
    ibw_mad_hdr_set_method(mad, method);
    ibw_mad_hdr_set_attributeid(mad, c->attr);
    if (c->kind == CK_SA)
        ibw_rmpp_set_rmpptype(mad, (uint8_t)(rnd() % 5));

    uint8_t *data = mad + IBW_CM_DATA_OFFSET;
    if (c->kind == CK_REQ_IP4 || c->kind == CK_REQ_IP6 ||
        c->kind == CK_REQ_IPX) {
        ibw_cm_req_set_serviceid(
            data, ibw_cm_ip_service_id((uint8_t)rnd(), (uint16_t)rnd()));
        uint8_t *ip = (uint8_t *)ibw_cm_req_get_private_data(data);
        uint8_t ipv = c->kind == CK_REQ_IP4   ? 4
                      : c->kind == CK_REQ_IP6 ? 6
                                              : (uint8_t)(rnd() & 0xF);
        ibw_ip_cm_set_ipv(ip, ipv);
    }
}

/* The UD headers around the MAD for case c over `transport`. */
static void fill_spec(const struct mad_case *c, uint8_t transport,
                      const uint8_t *mad, struct ibw_build_spec *s)
{
    gen_outer_headers(s, transport, 0);

    int smp = mad[1] == IBW_MGMT_CLASS_SUBN_LID_ROUTED ||
              mad[1] == IBW_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
    uint32_t qp = smp ? 0 : 1;
    s->bth.opcode = c->kind == CK_IMM ? 0x65 : 0x64;
    s->bth.pkey = (uint16_t)rnd();
    s->bth.destqp = qp;
    s->bth.psn = (uint32_t)(rnd() & 0xFFFFFF);
    s->deth.qkey = smp ? (uint32_t)rnd() : IBW_QP1_QKEY;
    s->deth.srcqp = qp;
    s->immdt.imm = (uint32_t)rnd();
    if (c->kind == CK_FROM_QP1) {
        s->bth.destqp = (uint32_t)(2 + rnd() % 0xFFFFFE);
    } else if (c->kind == CK_NOT_MAD) {
        s->bth.destqp = (uint32_t)(2 + rnd() % 0xFFFFFE);
        s->deth.srcqp = (uint32_t)(2 + rnd() % 0xFFFFFE);
    }
    s->payload = mad;
    s->payload_len = c->kind == CK_SHORT ? 100 : IBW_MAD_SIZE;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: gen_mad_diff OUTDIR SEED PER_CASE\n");
        return 2;
    }
    rng_state = strtoull(argv[2], NULL, 0) | 1;
    unsigned per = (unsigned)strtoul(argv[3], NULL, 0);
    for (size_t f = 0; f < GEN_NFILES; f++) {
        struct gen_out o;
        if (gen_out_open(&o, "gen_mad_diff", argv[1], &gen_files[f]) != 0)
            return 1;
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            for (unsigned k = 0; k < per; k++) {
                uint8_t mad[IBW_MAD_SIZE];
                struct ibw_build_spec s;
                uint8_t tk = gen_transport(&gen_files[f], k);
                fill_mad(&cases[i], mad);
                fill_spec(&cases[i], tk, mad, &s);
                if (gen_emit(&o, &s, cases[i].name) != 0)
                    return 1;
            }
        }
        if (gen_out_close(&o) != 0)
            return 1;
    }
    return 0;
}
