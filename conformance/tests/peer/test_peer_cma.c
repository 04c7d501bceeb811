/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_peer_cma: annex A11's CMA header and service ID against Linux's
 * own REQ.  The vector is the private data of the REQ in the real capture
 * /work/shared/captures/rxe-rping-cm-send-read-write.pcap (Linux 6.1 rxe,
 * rping -c from 10.1.16.62 to 10.1.16.61, frame 1, bytes 0xe2-0x105 of the
 * frame; tshark decodes it as "IP CM Source Port: 0xbd69, Source IP
 * 10.1.16.62, Destination IP 10.1.16.61", IP version 4, version 0.0) and
 * its service ID (MAD data bytes 8-15: 00 00 00 00 01 06 1c 06, tshark's
 * "Prefix 0000000001, Protocol 0x06, Destination Port 0x1c06": rping's
 * port 7174 in RDMA_PS_TCP).
 */
#include "cma.h"
#include "testutil.h"

static const uint8_t linux_req_pd[36] = {
    0x00, 0x40, 0xbd, 0x69,                         /* version, IPv4, port */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0a, 0x01, 0x10, 0x3e, /* src */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0a, 0x01, 0x10, 0x3d, /* dst */
};

int main(void)
{
    uint8_t b[PEER_CMA_HDR_LEN];
    peer_cma_encode4(b, 0xbd69, 0x0a01103eu, 0x0a01103du);
    TU_MEMEQ(b, linux_req_pd, sizeof b);

    struct peer_cma h;
    char err[120];
    TU_EQ(peer_cma_decode(linux_req_pd, sizeof linux_req_pd, &h, err, sizeof err), 0);
    TU_EQ(h.major, 0);
    TU_EQ(h.minor, 0);
    TU_EQ(h.ip_version, 4);
    TU_EQ(h.src_port, 0xbd69);
    TU_EQ(peer_cma_ip4(h.src), 0x0a01103eu);
    TU_EQ(peer_cma_ip4(h.dst), 0x0a01103du);

    TU_EQ(peer_cma_service_id(PEER_CMA_PS_TCP, 7174), 0x0000000001061c06ull);
    uint16_t ps = 0, port = 0;
    TU_EQ(peer_cma_parse_sid(0x0000000001061c06ull, &ps, &port), 1);
    TU_EQ(ps, 0x0106);
    TU_EQ(port, 7174);
    /* not an IP CM service ID: an IB service (prefix 0x0000000002...) */
    TU_EQ(peer_cma_parse_sid(0x0000000002061c06ull, &ps, &port), 0);

    /* bad input names the field */
    TU_EQ(peer_cma_decode(linux_req_pd, 35, &h, err, sizeof err), -1);
    TU_CHECK(strstr(err, "36 needed") != NULL);
    uint8_t bad[36];
    memcpy(bad, linux_req_pd, sizeof bad);
    bad[0] = 0x10;
    TU_EQ(peer_cma_decode(bad, sizeof bad, &h, err, sizeof err), -1);
    TU_CHECK(strstr(err, "version 1.0") != NULL);
    bad[0] = 0;
    bad[1] = 0x50;
    TU_EQ(peer_cma_decode(bad, sizeof bad, &h, err, sizeof err), -1);
    TU_CHECK(strstr(err, "IP version 5") != NULL);
    return tu_done("peer_cma");
}
