/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_peer_perftest: the server side of perftest's -R exchange
 * (conformance/peer/perftest.h) against a real run.  The vectors are the
 * SEND payloads on the comm QP of two captures of Debian 12's perftest
 * 4.5+0.17-1 between two Linux 6.1 rxe devices (scripts/rxe-vm.sh --all
 * --only '^(write|read|send)_bw_R$', veth_a, MTU 1500): server
 * `ib_{write,send}_bw -d rxe_a -F -s 4096 -n 200 -R` on 10.9.0.1, client
 * on 10.9.0.2; each row: frame, from the client?, length, bytes.
 *
 * Independent of the code under test: the real server's answers (lengths,
 * and the bytes where perftest's server is deterministic), the values its
 * log printed for its own pingpong_dest ("local address: LID 0000 QPN
 * 0x0012 PSN 0x971879", "GID: ...:255:255:10:09:00:01", GID index 1), and
 * the command line (-s 4096, -n 200) for the client's BW report.
 */
#include <stdlib.h>

#include "perftest.h"
#include "testutil.h"

struct xmsg {
    unsigned frame;
    int from_client;
    unsigned len;
    const char *hex;
};

/* ib_write_bw -R: 16 exchanges, client (10.9.0.2) then server (10.9.0.1) */
static const struct xmsg write_msgs[] = {
    {4, 1, 16, "362e3036000000000000000000000000"},
    {6, 0, 16, "362e3036000000000000000000000000"},
    {8, 1, 4, "00001000"},
    {10, 0, 4, "00001000"},
    {12, 1, 4, "00000040"},
    {14, 0, 4, "00000040"},
    {16, 1, 2, "3300"},
    {18, 0, 2, "3300"},
    {20, 1, 56, "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"},
    {22, 0, 56, "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"},
    {27, 1, 56, "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"},
    {29, 0, 56, "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"},
    {31, 1, 56, "00000000000000010000001200ce8eeb000003a8000000000000561eff00a00000000000000000000000ffff0a0900020000000000000001"},
    {33, 0, 56, "000000000000000100000012009718790000035f00000000000055fb9cb9100000000000000000000000ffff0a0900010000000000000001"},
    {35, 1, 56, "00000000000000010000001200ce8eeb000003a8000000000000561eff00a00000000000000000000000ffff0a0900020000000000000001"},
    {37, 0, 56, "000000000000000100000012009718790000035f00000000000055fb9cb9100000000000000000000000ffff0a0900010000000000000001"},
    {39, 1, 56, "00000000000000010000001200ce8eeb000003a8000000000000561eff00a00000000000000000000000ffff0a0900020000000000000001"},
    {41, 0, 56, "000000000000000100000012009718790000035f00000000000055fb9cb9100000000000000000000000ffff0a0900010000000000000001"},
    {1043, 1, 56, "00000000000000010000001200ce8eeb000003a8000000000000561eff00a00000000000000000000000ffff0a0900020000000000000001"},
    {1045, 0, 56, "000000000000000100000012009718790000035f00000000000055fb9cb9100000000000000000000000ffff0a0900010000000000000001"},
    {1047, 1, 8, "0000000000001000"},
    {1049, 0, 8, "00007ffc5d6c3f34"},
    {1051, 1, 8, "00000000000000c8"},
    {1053, 0, 8, "00007ffb18172ad0"},
    {1055, 1, 8, "0000000000000000"},
    {1057, 0, 8, "0000000000000006"},
    {1059, 1, 8, "0000000000000000"},
    {1061, 0, 8, "00007ffb17cf50e1"},
    {1063, 1, 8, "0000000000000000"},
    {1065, 0, 8, "00007ffc5d6c3ff8"},
    {1067, 1, 56, "00000000000000010000001200ce8eeb000003a81e5600000000561eff00a00000000000000000000000ffff0a0900020000000000000001"},
    {1069, 0, 56, "000000000000000100000012009718790000035f1e560000000055fb9cb9100000000000000000000000ffff0a0900010000000000000001"},
};
/* ib_send_bw -R: 11 exchanges, client (10.9.0.2) then server (10.9.0.1) */
static const struct xmsg send_msgs[] = {
    {4, 1, 16, "362e3036000000000000000000000000"},
    {6, 0, 16, "362e3036000000000000000000000000"},
    {8, 1, 4, "00001000"},
    {10, 0, 4, "00001000"},
    {12, 1, 4, "00000040"},
    {14, 0, 4, "00000040"},
    {16, 1, 2, "3300"},
    {18, 0, 2, "3300"},
    {20, 1, 56, "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"},
    {22, 0, 56, "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"},
    {27, 1, 56, "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"},
    {29, 0, 56, "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"},
    {31, 1, 56, "00000000000000010000001600b297c6000000000000000000005650be27600000000000000000000000ffff0a0900020000000000000001"},
    {33, 0, 56, "0000000000000001000000160050ed2600000000000000000000559ea7d3400000000000000000000000ffff0a0900010000000000000001"},
    {35, 1, 56, "00000000000000010000001600b297c6000000000000000000005650be27600000000000000000000000ffff0a0900020000000000000001"},
    {37, 0, 56, "0000000000000001000000160050ed2600000000000000000000559ea7d3400000000000000000000000ffff0a0900010000000000000001"},
    {39, 1, 56, "00000000000000010000001600b297c6000000000000000000005650be27600000000000000000000000ffff0a0900020000000000000001"},
    {41, 0, 56, "0000000000000001000000160050ed2600000000000000000000559ea7d3400000000000000000000000ffff0a0900010000000000000001"},
    {43, 1, 56, "00000000000000010000001600b297c600000000fe7f000000005650be27600000000000000000000000ffff0a0900020000000000000001"},
    {44, 0, 56, "0000000000000001000000160050ed2600000000fe7f00000000559ea7d3400000000000000000000000ffff0a0900010000000000000001"},
    {1047, 1, 56, "00000000000000010000001600b297c6000000000000000000005650be27600000000000000000000000ffff0a0900020000000000000001"},
    {1049, 0, 56, "0000000000000001000000160050ed2600000000000000000000559ea7d3400000000000000000000000ffff0a0900010000000000000001"},
};

static size_t unhex(const char *h, uint8_t *out, size_t cap)
{
    size_t n = strlen(h) / 2;
    for (size_t i = 0; i < n && i < cap; i++) {
        char b[3] = {h[2 * i], h[2 * i + 1], 0};
        out[i] = (uint8_t)strtoul(b, NULL, 16);
    }
    return n;
}

static int all_zero(const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (b[i])
            return 0;
    return 1;
}

/* Run the client's side of one capture through pt_reply(); the test QP is
 * connected between the first and second zero pingpong_dest, as in the
 * capture (its REQ/REP/RTU are frames 24-26). */
static void replay(const struct xmsg *m, size_t n, struct pt_server *s)
{
    pt_server_init(s, 4096, 64);
    unsigned zero_dests = 0;
    for (size_t i = 0; i + 1 < n; i += 2) {
        const struct xmsg *c = &m[i], *r = &m[i + 1];
        TU_CHECK(c->from_client && !r->from_client);
        uint8_t in[PT_MAX_MSG], real[PT_MAX_MSG], out[PT_MAX_MSG];
        char err[160] = "";
        TU_EQ(unhex(c->hex, in, sizeof in), c->len);
        TU_EQ(unhex(r->hex, real, sizeof real), r->len);
        int k = pt_reply(s, in, c->len, out, sizeof out, err, sizeof err);
        if (k < 0)
            fprintf(stderr, "frame %u: %s\n", c->frame, err);
        TU_EQ(k, (int)r->len);
        if (k != (int)r->len)
            continue;
        if (c->len == PT_DEST_LEN) {
            /* the same step: zero where the real server's was zero */
            TU_EQ(all_zero(out, PT_DEST_LEN), all_zero(real, PT_DEST_LEN));
            if (all_zero(in, PT_DEST_LEN) && ++zero_dests == 1) {
                s->ready = 1;
                s->dest.qpn = 0x21;
                s->dest.rkey = 0x1234;
                s->dest.vaddr = 0x10000;
                s->dest.gid_index = 1;
            }
        } else if (c->len != PT_REPORT_LEN) {
            /* version, cycle buffer, cache line, MTU: as perftest's own */
            TU_MEMEQ(out, real, r->len);
        }
    }
}

int main(void)
{
    /* the real server's pingpong_dest (frame 33) against its own log */
    uint8_t b[PT_DEST_LEN], e[PT_DEST_LEN];
    struct pt_dest d;
    unhex(write_msgs[13].hex, b, sizeof b);
    TU_EQ(write_msgs[13].frame, 33u);
    pt_dest_decode(b, &d);
    TU_EQ(d.lid, 0u);
    TU_EQ(d.qpn, 0x12u);
    TU_EQ(d.psn, 0x971879u);
    TU_EQ(d.gid_index, 1u);
    TU_EQ(d.srqn, 0u);
    TU_EQ(d.out_reads, 1u); /* write_bw's default */
    static const uint8_t gid[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff,
                                    10, 9, 0, 1};
    TU_MEMEQ(d.gid, gid, 16);
    TU_CHECK(d.vaddr != 0 && d.rkey != 0);
    pt_dest_encode(e, &d);
    TU_MEMEQ(e, b, PT_DEST_LEN);
    /* frame 1069: the same with perftest's uninitialised padding (bytes
     * 20-23), which this side writes as zero */
    unhex(write_msgs[31].hex, b, sizeof b);
    TU_EQ(write_msgs[31].frame, 1069u);
    TU_CHECK(!all_zero(b + 20, 4));
    pt_dest_decode(b, &d);
    pt_dest_encode(e, &d);
    TU_MEMEQ(e, b, 20);
    TU_CHECK(all_zero(e + 20, 4));
    TU_MEMEQ(e + 24, b + 24, PT_DEST_LEN - 24);

    struct pt_server s;
    replay(write_msgs, sizeof write_msgs / sizeof write_msgs[0], &s);
    TU_CHECK(strcmp(s.version, "6.06") == 0);
    TU_EQ(s.dests, 7u);
    TU_EQ(s.dests_ready, 5u); /* three before the test, one after, one to close */
    TU_EQ(s.reports, 5u);
    TU_EQ(s.report[0], 4096u); /* -s */
    TU_EQ(s.report[1], 200u);  /* -n */
    TU_EQ(s.client.qpn, 0x12u);
    TU_EQ(s.client.psn, 0xce8eebu); /* the client log's "local address" */

    replay(send_msgs, sizeof send_msgs / sizeof send_msgs[0], &s);
    TU_EQ(s.dests, 7u);
    TU_EQ(s.dests_ready, 5u); /* send: four before the test, one to close */
    TU_EQ(s.reports, 0u);     /* send_bw's server prints its own report */
    TU_EQ(s.client.qpn, 0x16u);

    /* what is no step of the exchange is refused, naming the message */
    char err[160];
    uint8_t in[PT_MAX_MSG] = {0}, out[PT_MAX_MSG];
    pt_server_init(&s, 4096, 64);
    TU_EQ(pt_reply(&s, in, 12, out, sizeof out, err, sizeof err), -1);
    TU_CHECK(strstr(err, "message 1: 12 bytes") != NULL);
    pt_server_init(&s, 4096, 64);
    for (int i = 0; i < 2; i++)
        TU_EQ(pt_reply(&s, in, 4, out, sizeof out, err, sizeof err), 4);
    TU_EQ(pt_reply(&s, in, 4, out, sizeof out, err, sizeof err), -1);
    TU_CHECK(strstr(err, "third 4-byte") != NULL);
    pt_server_init(&s, 4096, 64);
    for (int i = 0; i < 5; i++)
        TU_EQ(pt_reply(&s, in, 8, out, sizeof out, err, sizeof err), 8);
    TU_EQ(pt_reply(&s, in, 8, out, sizeof out, err, sizeof err), -1);
    TU_CHECK(strstr(err, "sixth 8-byte") != NULL);
    pt_server_init(&s, 4096, 64);
    memcpy(in, "9\0", 2);
    TU_EQ(pt_reply(&s, in, 2, out, sizeof out, err, sizeof err), -1);
    TU_CHECK(strstr(err, "MTU enum") != NULL);
    return tu_done("peer_perftest");
}
