/*
 * Mutation test: random single mutations (fixed seed) of the clean crafted
 * captures, each fed to the checker, which must notice:
 *   BYTE    one byte changed inside what the CRCs cover (CRCs left stale):
 *           an error on that frame.
 *   PSN     one PSN bit flipped in a request, CRCs recomputed: a finding
 *           on that frame or later, or a retransmission counted.
 *   OPCODE  a request's opcode replaced by another defined one, CRCs
 *           recomputed: a finding on that frame or later, unless the result
 *           is itself a valid packet sequence (counted, listed, bounded).
 *   DROP    a request removed: a finding (the PSN gap) on the frames after.
 *   DUP     a request sent twice: a retransmission counted, or a finding.
 * The mutations come from the library (ibw_parse / ibw_pkt_store_crcs), not
 * from the checker under test.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "testutil.h"

#define MAXF 64
#define MAXLEN 4200

struct cap {
    unsigned n;
    size_t len[MAXF];
    enum ibw_link link[MAXF];
    uint64_t ts[MAXF];
    uint8_t data[MAXF][MAXLEN];
};

static struct cap clean, mut;

static int load(const char *path, struct cap *c)
{
    char err[256];
    struct cap_reader *r = cap_open(path, err, sizeof err);
    struct cap_frame fr;
    if (!r) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    c->n = 0;
    while (cap_next(r, &fr) == 1 && c->n < MAXF) {
        if (!fr.iba || fr.iba_len > MAXLEN)
            continue;
        memcpy(c->data[c->n], fr.iba, fr.iba_len);
        c->len[c->n] = fr.iba_len;
        c->link[c->n] = fr.link;
        c->ts[c->n] = (uint64_t)fr.ts_sec * 1000000000u + fr.ts_nsec;
        c->n++;
    }
    cap_close(r);
    return 0;
}

struct verdict {
    uint64_t first_frame; /* first frame with a finding, 0 = none */
    uint64_t errors_at;   /* errors on the watched frame */
    uint64_t watch;
    uint64_t retrans;
};

static void on_finding(void *user, const struct chk_finding *f)
{
    struct verdict *v = user;
    if (!v->first_frame || f->frame < v->first_frame)
        v->first_frame = f->frame;
    if (f->frame == v->watch && f->severity == CHK_ERROR)
        v->errors_at++;
}

static void add_retrans(void *user, const struct chk_flow_summary *s)
{
    ((struct verdict *)user)->retrans += s->retransmissions;
}

static void judge(const struct cap *c, struct verdict *v, uint64_t watch)
{
    memset(v, 0, sizeof *v);
    v->watch = watch;
    struct chk_opts o = {0, on_finding, v, NULL, NULL};
    struct chk *k = chk_new(&o);
    for (unsigned i = 0; i < c->n; i++)
        chk_bytes(k, i + 1, c->ts[i], c->data[i], c->len[i], c->link[i], 0);
    chk_flows(k, add_retrans, v);
    chk_free(k);
}

static int is_request(const struct cap *c, unsigned i, struct ibw_pkt *p);

static uint64_t rng = 0x1b5eed2024ull;
static uint32_t rnd(uint32_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng % n);
}

/* Frames that are RC/UC requests to a QP above 1. */
static int is_request(const struct cap *c, unsigned i, struct ibw_pkt *p)
{
    if (ibw_parse(c->data[i], c->len[i], c->link[i], p) != IBW_OK ||
        !ibw_pkt_has(p, IBW_HDR_BTH))
        return 0;
    const struct ibw_opcode_info *oi = ibw_opcode_info(p->opcode);
    return (oi->flags & IBW_OPF_REQUEST) && oi->transport != IBW_TR_UD &&
           ibw_bth_get_destqp(p->data + p->off[IBW_HDR_BTH]) > 1;
}

static unsigned pick_request(const struct cap *c, struct ibw_pkt *p)
{
    for (int tries = 0; tries < 1000; tries++) {
        unsigned i = rnd(c->n);
        if (is_request(c, i, p))
            return i;
    }
    return c->n;
}

/*
 * Bytes whose change no receiver could notice, left out: on RoCE the
 * variant fields the ICRC masks (BTH byte 4: FECN/BECN/resv6; GRH traffic
 * class, flow label, hop limit), and the fields that make the frame
 * another protocol's (IPv4 protocol, UDP destination port), after which it
 * is no longer IBA traffic at all.  Native IB has the VCRC over everything.
 */
static int invisible_byte(const struct ibw_pkt *p, size_t pos)
{
    if (ibw_pkt_has(p, IBW_HDR_LRH))
        return 0;
    if (pos == (size_t)p->off[IBW_HDR_BTH] + 4)
        return 1;
    if (ibw_pkt_has(p, IBW_HDR_GRH)) {
        size_t g = p->off[IBW_HDR_GRH];
        if (pos < g + 4 || pos == g + 7)
            return 1;
    }
    if (ibw_pkt_has(p, IBW_HDR_IPV4) && pos == (size_t)p->off[IBW_HDR_IPV4] + 9)
        return 1;
    if (ibw_pkt_has(p, IBW_HDR_UDP) &&
        (pos == (size_t)p->off[IBW_HDR_UDP] + 2 ||
         pos == (size_t)p->off[IBW_HDR_UDP] + 3))
        return 1;
    return 0;
}

/* The IPv4 IHL says where the UDP header starts: change it and the UDP
 * header (port 4791) is read from elsewhere, so, as with the protocol
 * byte, the datagram is no longer RoCEv2 to any receiver. */
static int ihl_bit(const struct ibw_pkt *p, size_t pos, uint8_t bit)
{
    return ibw_pkt_has(p, IBW_HDR_IPV4) && pos == (size_t)p->off[IBW_HDR_IPV4] &&
           (bit & 0x0F);
}

/* Is request i redundant: the same PSN to the same QP sent again in the
 * capture (a retransmission copy), or a UC packet (nothing answers it)?
 * Dropping it leaves a valid capture. */
static int redundant(const struct cap *c, unsigned i)
{
    struct ibw_pkt p, q;
    if (!is_request(c, i, &p))
        return 0;
    const uint8_t *b = p.data + p.off[IBW_HDR_BTH];
    if (ibw_opcode_info(p.opcode)->transport == IBW_TR_UC)
        return 1;
    for (unsigned k = 0; k < c->n; k++) {
        if (k == i || !is_request(c, k, &q))
            continue;
        const uint8_t *bq = q.data + q.off[IBW_HDR_BTH];
        if (ibw_bth_get_psn(bq) == ibw_bth_get_psn(b) &&
            ibw_bth_get_destqp(bq) == ibw_bth_get_destqp(b))
            return 1;
    }
    return 0;
}

enum { M_BYTE, M_PSN, M_OPCODE, M_DROP, M_DUP, M_COUNT };
static const char *const mname[M_COUNT] = {"byte", "psn", "opcode", "drop",
                                           "dup"};

int main(int argc, char **argv)
{
    static const char *const files[] = {
        "crafted-rc-clean.pcap", "crafted-loss-clean.pcap",
        "crafted-uc-ud-clean.pcap", "crafted-ib-clean.pcap",
        "crafted-rocev1-clean.pcap",
        /* engine-generated (conformance/tool/gen_engine.c); engine-rc-loss-nak
         * is left out: its gap warning is its expected verdict, not clean */
        "engine-cm.pcap", "engine-rc-loss-timeout.pcap",
        "engine-rc-ops.pcap", "engine-rc-ops-erf.pcap",
        "engine-rc-ops-ib.pcap", "engine-rc-ops-rocev1.pcap",
        "engine-rc-rnr.pcap", "engine-uc.pcap", "engine-ud.pcap"};
    const char *dir = argc > 1 ? argv[1] : "pcaps";
    unsigned tried[M_COUNT] = {0}, caught[M_COUNT] = {0};
    unsigned valid_opcode = 0;
    for (unsigned fi = 0; fi < sizeof files / sizeof files[0]; fi++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, files[fi]);
        TU_CHECK(load(path, &clean) == 0);
        struct verdict base;
        judge(&clean, &base, 0);
        TU_EQ(base.first_frame, 0); /* clean really is clean */
        for (unsigned round = 0; round < 200; round++) {
            unsigned m = rnd(M_COUNT), i;
            struct ibw_pkt p;
            struct verdict v;
            mut = clean;
            if (m == M_BYTE) {
                i = rnd(clean.n);
                ibw_parse(mut.data[i], mut.len[i], mut.link[i], &p);
                size_t lo = ibw_pkt_has(&p, IBW_HDR_LRH) ? p.off[IBW_HDR_LRH]
                            : ibw_pkt_has(&p, IBW_HDR_IPV4) ? p.off[IBW_HDR_IPV4]
                            : ibw_pkt_has(&p, IBW_HDR_IPV6) ? p.off[IBW_HDR_IPV6]
                                                            : p.off[IBW_HDR_GRH];
                size_t pos = lo + rnd((uint32_t)(p.iba_end - lo));
                if (invisible_byte(&p, pos))
                    continue;
                uint8_t bit = (uint8_t)(1u << rnd(8));
                if (ihl_bit(&p, pos, bit))
                    continue;
                mut.data[i][pos] ^= bit;
                judge(&mut, &v, i + 1);
                tried[m]++;
                if (v.errors_at)
                    caught[m]++;
                else
                    fprintf(stderr, "%s: byte %zu of frame %u (0x%02x -> "
                            "0x%02x): no error\n", files[fi], pos, i + 1,
                            clean.data[i][pos], mut.data[i][pos]);
                continue;
            }
            i = pick_request(&clean, &p);
            if (i == clean.n)
                continue;
            ibw_parse(mut.data[i], mut.len[i], mut.link[i], &p);
            size_t bth = p.off[IBW_HDR_BTH];
            tried[m]++;
            if (m == M_PSN || m == M_OPCODE) {
                if (m == M_PSN) {
                    uint32_t psn = ibw_bth_get_psn(mut.data[i] + bth);
                    ibw_bth_set_psn(mut.data[i] + bth, psn ^ (1u << rnd(24)));
                } else {
                    uint8_t op;
                    do
                        op = (uint8_t)rnd(256);
                    while (!ibw_opcode_valid(op) || op == p.opcode);
                    mut.data[i][bth] = op;
                }
                ibw_parse(mut.data[i], mut.len[i], mut.link[i], &p);
                ibw_pkt_store_crcs(mut.data[i], &p);
                judge(&mut, &v, i + 1);
                if ((v.first_frame && v.first_frame >= i + 1) ||
                    v.retrans > base.retrans) {
                    caught[m]++;
                } else {
                    fprintf(stderr, "%s: %s mutation of frame %u (now %s, "
                            "PSN 0x%06x) not noticed\n", files[fi], mname[m],
                            i + 1, ibw_opcode_info(mut.data[i][bth])->name,
                            ibw_bth_get_psn(mut.data[i] + bth));
                    if (m == M_OPCODE)
                        valid_opcode++;
                }
                continue;
            }
            if (m == M_DROP && redundant(&clean, i)) {
                tried[m]--;
                continue;
            }
            if (m == M_DROP) {
                memmove(&mut.data[i], &mut.data[i + 1],
                        (clean.n - i - 1) * sizeof mut.data[0]);
                memmove(&mut.len[i], &mut.len[i + 1],
                        (clean.n - i - 1) * sizeof mut.len[0]);
                memmove(&mut.link[i], &mut.link[i + 1],
                        (clean.n - i - 1) * sizeof mut.link[0]);
                memmove(&mut.ts[i], &mut.ts[i + 1],
                        (clean.n - i - 1) * sizeof mut.ts[0]);
                mut.n--;
                judge(&mut, &v, 0);
                if (v.first_frame >= i + 1)
                    caught[m]++;
                else
                    fprintf(stderr, "%s: dropping frame %u not noticed\n",
                            files[fi], i + 1);
                continue;
            }
            /* M_DUP */
            if (clean.n >= MAXF)
                continue;
            memmove(&mut.data[i + 1], &mut.data[i],
                    (clean.n - i) * sizeof mut.data[0]);
            memmove(&mut.len[i + 1], &mut.len[i], (clean.n - i) * sizeof mut.len[0]);
            memmove(&mut.link[i + 1], &mut.link[i],
                    (clean.n - i) * sizeof mut.link[0]);
            memmove(&mut.ts[i + 1], &mut.ts[i], (clean.n - i) * sizeof mut.ts[0]);
            mut.n++;
            judge(&mut, &v, 0);
            if (v.retrans > base.retrans || v.first_frame)
                caught[m]++;
            else
                fprintf(stderr, "%s: duplicating frame %u not noticed\n",
                        files[fi], i + 1);
        }
    }
    for (unsigned m = 0; m < M_COUNT; m++)
        printf("%-7s %u/%u noticed\n", mname[m], caught[m], tried[m]);
    for (unsigned m = 0; m < M_COUNT; m++) {
        TU_CHECK(tried[m] > 20);
        /* An opcode can turn into another valid packet (WRITE ONLY into
         * SEND ONLY, its RETH read as payload); at most a fifth may. */
        if (m == M_OPCODE)
            TU_CHECK(valid_opcode * 5 <= tried[m]);
        else
            TU_EQ(caught[m], tried[m]);
    }
    return tu_done("check_mutation");
}
