/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The registry: every wire header of wire.h and every engine record is
 * listed once, under a unique name, and can be found by that name; a few
 * entries are compared with facts from the catalog (records.md) and IBA.
 */
#include "ibwire/registry.h"
#include "testutil.h"

/* name, convention, width in bits: written from records.md and IBA. */
static const struct {
    const char *name;
    int conv;
    uint32_t width;
} expect[] = {
    {"lrh", IBW_CONV_WIRE, 64},          {"grh", IBW_CONV_WIRE, 320},
    {"bth", IBW_CONV_WIRE, 96},          {"reth", IBW_CONV_WIRE, 128},
    {"atomiceth", IBW_CONV_WIRE, 224},   {"feth", IBW_CONV_WIRE, 32},
    {"sq_doorbell", IBW_CONV_RECORD, 64}, {"cxt_cmd", IBW_CONV_RECORD, 128},
    {"vtp_cmd", IBW_CONV_RECORD, 256},   {"vtp_resp", IBW_CONV_RECORD, 8},
    {"timer_set_event", IBW_CONV_RECORD, 64},
    {"timer_expire_event", IBW_CONV_RECORD, 32},
    {"timer_entry", IBW_CONV_RECORD, 23}, {"sem_cmd", IBW_CONV_RECORD, 160},
    {"sem_resp", IBW_CONV_RECORD, 160},  {"rwm_cmd", IBW_CONV_RECORD, 256},
    {"rwm_resp", IBW_CONV_RECORD, 192},  {"db_meta", IBW_CONV_RECORD, 256},
    {"common_meta", IBW_CONV_RECORD, 368}, {"sg_entry", IBW_CONV_RECORD, 128},
    {"raddr_meta", IBW_CONV_RECORD, 128}, {"atomic_meta", IBW_CONV_RECORD, 128},
    {"bad_req_meta", IBW_CONV_RECORD, 128},
    {"req_hdr_meta", IBW_CONV_RECORD, 320},
    {"resp_hdr_meta", IBW_CONV_RECORD, 240},
    {"resp_gen_meta", IBW_CONV_RECORD, 192},
    {"rpb_list_entry", IBW_CONV_RECORD, 19}, {"rpb_element", IBW_CONV_RECORD, 265},
    {"rpb_free_entry", IBW_CONV_RECORD, 9}, {"reb_list_entry", IBW_CONV_RECORD, 29},
    {"reb_element", IBW_CONV_RECORD, 142}, {"reb_free_entry", IBW_CONV_RECORD, 14},
    {"swpb_list_entry", IBW_CONV_RECORD, 25},
    {"swpb_element", IBW_CONV_RECORD, 268},
    {"swpb_free_entry", IBW_CONV_RECORD, 12},
    {"wqe_indicator", IBW_CONV_RECORD, 1},
    {"write_addr_entry", IBW_CONV_RECORD, 96},
    {"link_word", IBW_CONV_RECORD, 72},  {"stream_word", IBW_CONV_RECORD, 258},
    {"dma_head", IBW_CONV_RECORD, 128},  {"dma_head_rtl", IBW_CONV_RECORD, 128},
};

/* The field lists the issue names, in that order. */
static const struct {
    const char *record;
    const char *fields;
} named[] = {
    {"sq_doorbell", "opcode fence offset size qpn"},
    {"cxt_cmd", "type opcode qpn"},
    {"vtp_cmd", "type opcode flags pd key va length"},
    {"timer_set_event", "opcode qpn counter_value timer_value"},
    {"timer_expire_event", "event qpn"},
    {"timer_entry", "current_value set_value active retry_count retry_threshold"},
    {"sem_cmd", "op number qpn length key va"},
    {"rwm_resp", "code qpn length key va wqe_offset"},
    {"db_meta", "opcode fence service_type src_qpn dst_qpn pd lkey pkey "
                "wqe_size pmtu sq_length wqe_offset"},
    {"sg_entry", "length lkey va"},
    {"raddr_meta", "va rkey"},
    {"atomic_meta", "swap_add compare"},
    {"rpb_list_entry", "head tail empty"},
    {"reb_list_entry", "head tail empty"},
    {"swpb_list_entry", "head tail empty"},
    {"write_addr_entry", "va rkey"},
    {"dma_head", "length addr type chnl_num"},
};

static void test_names_and_lookup(void)
{
    size_t n = ibw_registry_count();
    TU_CHECK(n >= 13 + 53);
    size_t nrec = 0, nwire = 0;
    for (size_t i = 0; i < n; i++) {
        const struct ibw_format *f = ibw_registry_get(i);
        TU_CHECK(f != NULL);
        if (!f)
            continue;
        nrec += f->conv == IBW_CONV_RECORD && f->id[0] == 'E';
        nwire += f->conv == IBW_CONV_WIRE;
        TU_CHECK(ibw_registry_find(f->name) == f);
        for (size_t k = 0; k < i; k++)
            TU_CHECK(strcmp(ibw_registry_get(k)->name, f->name) != 0);
        TU_CHECK(f->nfields > 0);
    }
    TU_EQ(nrec, 53); /* the engine records of records.h */
    TU_CHECK(nwire >= 13);
    TU_CHECK(ibw_registry_get(n) == NULL);
    TU_CHECK(ibw_registry_find("no_such_format") == NULL);
    TU_CHECK(ibw_registry_find("") == NULL);
}

static void test_expected_entries(void)
{
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++) {
        const struct ibw_format *f = ibw_registry_find(expect[i].name);
        TU_CHECK(f != NULL);
        if (!f) {
            fprintf(stderr, "missing %s\n", expect[i].name);
            continue;
        }
        TU_EQ(f->conv, expect[i].conv);
        TU_EQ(f->width, expect[i].width);
    }
}

static void test_named_fields(void)
{
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
        const struct ibw_format *f = ibw_registry_find(named[i].record);
        TU_CHECK(f != NULL);
        if (!f)
            continue;
        char list[256];
        snprintf(list, sizeof list, "%s", named[i].fields);
        size_t k = 0;
        for (char *tok = strtok(list, " "); tok; tok = strtok(NULL, " "), k++) {
            const struct ibw_field *fd = ibw_format_field(f, tok);
            if (!fd)
                fprintf(stderr, "%s has no field %s\n", f->name, tok);
            TU_CHECK(fd != NULL);
        }
        /* exactly the named fields, none more (the lists are complete) */
        TU_EQ(f->nfields, k);
    }
    /* the fields' positions as the tables give them */
    const struct ibw_format *db = ibw_registry_find("sq_doorbell");
    const struct ibw_field *q = ibw_format_field(db, "qpn");
    TU_EQ(q->pos, 40);
    TU_EQ(q->width, 24);
    const struct ibw_format *sw = ibw_registry_find("stream_word");
    const struct ibw_field *d = ibw_format_field(sw, "data");
    TU_EQ(d->kind, IBW_FK_WIDE);
    TU_EQ(d->width, 256);
    TU_EQ(ibw_format_field(sw, "eop")->pos, 257);
    const struct ibw_format *bth = ibw_registry_find("bth");
    TU_EQ(ibw_format_field(bth, "psn")->pos, 72); /* byte 9, bit 0 */
}

int main(void)
{
    test_names_and_lookup();
    test_expected_entries();
    test_named_fields();
    return tu_done("registry");
}
