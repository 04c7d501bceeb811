/* SPDX-License-Identifier: Apache-2.0 */
/*
 * peer.h - `ibwire peer`: the reference engine on a real interface.
 *
 * The engine and its CM (conformance/engine/cm: the agent over QP1) run in
 * real time on an AF_PACKET socket: RoCEv2 over IPv4 or IPv6 with the
 * engine's own address on the interface (the kernel of that interface must
 * not own it), ARP or ND answered for it and used to find the other side,
 * the CM MADs of
 * Linux's RDMA CM (annex A11's IP CM service, cma.h) and the rping
 * protocol of rdma-core's rping on the connection.
 */
#ifndef IBW_PEER_H
#define IBW_PEER_H

#include <stdint.h>
#include <stdio.h>

enum peer_role { PEER_CLIENT, PEER_SERVER };
enum peer_app { PEER_APP_RPING, PEER_APP_UCMATOSE, PEER_APP_AGENT,
                PEER_APP_PERFTEST /* perftest.c: ib_*_bw -R, server */ };

struct peer_opts {
    const char *iface;
    uint32_t ip;              /* the engine's IPv4 address (host order) */
    uint32_t remote_ip;       /* client: the server's address */
    int have_remote_mac;
    uint8_t remote_mac[6];    /* given: no ARP for it */
    uint8_t role;             /* enum peer_role */
    uint8_t app;              /* enum peer_app: what runs on the connection */
    uint8_t perftest_verb;    /* --app perftest client: enum pt_verb */
    uint16_t port;            /* RDMA_PS_TCP port (rping: 7174) */
    uint32_t count;           /* rping iterations (client; server: 0 = until
                                 the client disconnects) */
    uint32_t size;            /* rping buffer bytes (rping's -S, 64) */
    int verbose, validate, quiet;
    double timeout_s;         /* give up after this long (0: 30 s) */
    double loss;              /* drop this share of the engine's frames on
                                 their way out (not the MADs): a lossy
                                 wire where netem is not to be had */
    int ip6;                  /* RoCEv2 over IPv6 with the two below,
                                 neighbours by ND, instead of ip/remote_ip */
    uint8_t ip6_addr[16];     /* the engine's IPv6 address */
    uint8_t remote_ip6[16];   /* client: the server's */
    uint32_t accept_delay_ms; /* server: answer the REQ this late, after an
                                 MRA whose service timeout covers the wait */
    int dup_req;              /* client: the REQ goes out twice (the
                                 duplicate a lost answer makes) */
    int lose_rtu;             /* client: the first RTU of each connection
                                 is not sent (the wire lost it; the
                                 server's REP resend draws it again) */
    int await_dreq;           /* perftest client: the server disconnects
                                 first (perftest 25.01's close) */
    const char *pcap;         /* every frame in and out, or NULL */
    FILE *log;
};

/* Run one connection.  0: the exchange completed (and verified with
 * validate) and the connection was torn down; 1: it failed; 2: bad
 * options or no interface. */
int peer_run(const struct peer_opts *o);

#endif
