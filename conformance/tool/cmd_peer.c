/* SPDX-License-Identifier: Apache-2.0 */
/* ibwire peer: the reference engine on an interface (conformance/peer). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>

#include "peer.h"
#include "perftest.h"
#include "tool.h"
#include "tool_doc.h"

/* The options (tool_doc.h): cmd_peer's loop, --help and ibwire-peer(1). */
enum {
    PE_HELP = 1, PE_SERVER, PE_VERBOSE, PE_VALIDATE, PE_IPV6, PE_DUP_REQ,
    PE_IFACE, PE_IP, PE_CLIENT, PE_PEER_MAC, PE_PORT, PE_COUNT, PE_SIZE,
    PE_APP, PE_PERFTEST, PE_PCAP, PE_LOSS, PE_ACCEPT_DELAY, PE_TIMEOUT,
    PE_LOSE_RTU, PE_AWAIT_DREQ
};

static const char *const peer_apps[] = {"rping", "ucmatose", "agent",
                                        "perftest", NULL};

const struct tool_opt peer_opts[] = {
    {PE_IFACE, "-i", "IFACE", "the interface", NULL, NULL},
    {PE_IP, "--ip", "ADDR",
     "the engine's address, IPv4 or IPv6 (RoCEv2 over it); the kernel of "
     "IFACE must not own it (ARP or ND for it is answered here)",
     "Without it, IFACE's own (its GID table): the first IPv4 address, or "
     "with -6 (or an IPv6 -c) the first IPv6 one not link-local. The kernel "
     "then owns it too and answers RoCEv2 frames with ICMP port unreachable "
     "(harmless), and no rxe device may be bound to IFACE.", NULL},
    {PE_IPV6, "-6", NULL, "without --ip: IFACE's IPv6 address", NULL, NULL},
    {PE_CLIENT, "-c", "ADDR", "client: connect to the rping server there",
     NULL, NULL},
    {PE_SERVER, "-s", NULL, "server: accept one rping client", NULL, NULL},
    {PE_APP, "--app", "APP", "the protocol on the connection (rping)",
     "agent (client): ibwire-agent's regions, READ A and compare, WRITE R "
     "and read it back on the agent's side channel (127.0.0.1:PORT); "
     "perftest: the server of ib_write_bw/ib_read_bw/ib_send_bw -R, or (-c) "
     "their client.", peer_apps},
    {PE_PERFTEST, "--perftest", "write|read|send",
     "perftest client: the test (write)", NULL, NULL},
    {PE_PORT, "-p", "PORT",
     "RDMA_PS_TCP port (rping 7174, ucmatose 7471, perftest 18515)", NULL,
     NULL},
    {PE_COUNT, "-C", "COUNT",
     "rping: pings (client: 10; server: until the client leaves); ucmatose: "
     "messages each way (10, at most 60); perftest: the client's -n, checked "
     "(0: not checked)", NULL, NULL},
    {PE_SIZE, "-S", "SIZE",
     "rping buffer bytes (64); ucmatose message (100); perftest: the largest "
     "message, -s (65536)", NULL, NULL},
    {PE_VERBOSE, "-v", NULL, "print the ping data (as rping -V) and CM events",
     NULL, NULL},
    {PE_VALIDATE, "-V", NULL, "verify the data (client; as rping -v)", NULL,
     NULL},
    {PE_PEER_MAC, "--peer-mac", "MAC", "the other side's MAC (no ARP)", NULL,
     NULL},
    {PE_PCAP, "--pcap", "FILE", "record every RoCE frame in and out", NULL,
     NULL},
    {PE_LOSS, "--loss", "P",
     "drop this share (0 to 1) of the engine's frames on their way out, MADs "
     "excepted (a lossy wire where netem is not to be had)", NULL, NULL},
    {PE_TIMEOUT, "--timeout", "SEC", "give up after SEC seconds (30)", NULL,
     NULL},
    {PE_ACCEPT_DELAY, "--accept-delay", "MS",
     "server: answer the REQ MS late, an MRA first", NULL, NULL},
    {PE_DUP_REQ, "--dup-req", NULL,
     "client: send the REQ twice (a duplicate that reaches Linux's CM before "
     "its application accepts draws an MRA)", NULL, NULL},
    {PE_LOSE_RTU, "--lose-rtu", NULL,
     "client: each connection's first RTU is lost on the wire (the server's "
     "REP resend draws it again)", NULL, NULL},
    {PE_AWAIT_DREQ, "--await-dreq", NULL,
     "perftest client: after the closing handshake, wait for the server's "
     "DREQs as perftest 25.01's client does (4.5's sends its own)", NULL,
     NULL},
    TOOL_OPT_HELP(PE_HELP),
    TOOL_OPT_END};

static void usage(FILE *out)
{
    tool_doc_help(&doc_peer, out);
}

/* IFACE's own address, as Linux fills an RDMA device's GID table from its
 * netdev: the first IPv4 address, or (want6) the first IPv6 address that
 * is not link-local (a link-local GID needs a scope the CM's GIDs lack).
 * 0 when found. */
static int iface_addr(const char *iface, int want6, uint32_t *ip, uint8_t ip6[16])
{
    struct ifaddrs *all;
    if (getifaddrs(&all))
        return -1;
    int rc = -1;
    for (const struct ifaddrs *a = all; a && rc; a = a->ifa_next) {
        if (!a->ifa_addr || strcmp(a->ifa_name, iface))
            continue;
        if (!want6 && a->ifa_addr->sa_family == AF_INET) {
            struct sockaddr_in s4;
            memcpy(&s4, a->ifa_addr, sizeof s4);
            *ip = ntohl(s4.sin_addr.s_addr);
            rc = 0;
        } else if (want6 && a->ifa_addr->sa_family == AF_INET6) {
            struct sockaddr_in6 s6;
            memcpy(&s6, a->ifa_addr, sizeof s6);
            if (IN6_IS_ADDR_LINKLOCAL(&s6.sin6_addr))
                continue;
            memcpy(ip6, &s6.sin6_addr, 16);
            rc = 0;
        }
    }
    freeifaddrs(all);
    return rc;
}

static int parse_ip(const char *s, uint32_t *ip)
{
    unsigned a, b, c, d;
    char extra;
    if (sscanf(s, "%u.%u.%u.%u%c", &a, &b, &c, &d, &extra) != 4 || a > 255 ||
        b > 255 || c > 255 || d > 255)
        return -1;
    *ip = a << 24 | b << 16 | c << 8 | d;
    return 0;
}

/* IPv4 into *ip, or IPv6 into ip6 (*is6 set). */
static int parse_addr(const char *s, uint32_t *ip, uint8_t ip6[16], int *is6)
{
    if (!parse_ip(s, ip)) {
        *is6 = 0;
        return 0;
    }
    if (inet_pton(AF_INET6, s, ip6) == 1) {
        *is6 = 1;
        return 0;
    }
    return -1;
}

static int parse_mac(const char *s, uint8_t m[6])
{
    unsigned v[6];
    char extra;
    if (sscanf(s, "%x:%x:%x:%x:%x:%x%c", &v[0], &v[1], &v[2], &v[3], &v[4],
               &v[5], &extra) != 6)
        return -1;
    for (int i = 0; i < 6; i++) {
        if (v[i] > 255)
            return -1;
        m[i] = (uint8_t)v[i];
    }
    return 0;
}

static int parse_u32(const char *s, uint32_t lo, uint32_t hi, uint32_t *out)
{
    char *end;
    unsigned long v = strtoul(s, &end, 0);
    if (!*s || *end || v < lo || v > hi)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

int cmd_peer(int argc, char **argv)
{
    struct peer_opts o;
    memset(&o, 0, sizeof o);
    int have_port = 0, have_size = 0;
    o.log = stderr;
    int role = -1, have_ip = 0, remote6 = 0, want6 = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint32_t u;
        const struct tool_opt *opt = tool_opt_find(peer_opts, a);
        if ((!opt || opt->arg) && !v) {
            fprintf(stderr, "ibwire peer: %s: needs a value\n", a);
            return TOOL_EXIT_USAGE;
        }
        if (!opt) {
            fprintf(stderr, "ibwire peer: unknown option %s\n", a);
            usage(stderr);
            return TOOL_EXIT_USAGE;
        }
        if (opt->arg)
            i++;
        switch (opt->id) {
        case PE_HELP: {
            usage(stdout);
            return TOOL_EXIT_OK;
        }
        case PE_SERVER: {
            role = PEER_SERVER;
            break;
        }
        case PE_VERBOSE: {
            o.verbose = 1;
            break;
        }
        case PE_VALIDATE: {
            o.validate = 1;
            break;
        }
        case PE_IPV6: {
            want6 = 1;
            break;
        }
        case PE_DUP_REQ: {
            o.dup_req = 1;
            break;
        }
        case PE_LOSE_RTU: {
            o.lose_rtu = 1;
            break;
        }
        case PE_AWAIT_DREQ: {
            o.await_dreq = 1;
            break;
        }
        case PE_IFACE: {
            o.iface = v;
            break;
        }
        case PE_IP: {
            if (parse_addr(v, &o.ip, o.ip6_addr, &o.ip6)) {
                fprintf(stderr, "ibwire peer: --ip %s: not an IPv4 or IPv6 address\n", v);
                return TOOL_EXIT_USAGE;
            }
            have_ip = 1;
            break;
        }
        case PE_CLIENT: {
            if (parse_addr(v, &o.remote_ip, o.remote_ip6, &remote6)) {
                fprintf(stderr, "ibwire peer: -c %s: not an IPv4 or IPv6 address\n", v);
                return TOOL_EXIT_USAGE;
            }
            role = PEER_CLIENT;
            break;
        }
        case PE_PEER_MAC: {
            if (parse_mac(v, o.remote_mac)) {
                fprintf(stderr, "ibwire peer: --peer-mac %s: not a MAC\n", v);
                return TOOL_EXIT_USAGE;
            }
            o.have_remote_mac = 1;
            break;
        }
        case PE_PORT: {
            if (parse_u32(v, 1, 65535, &u)) {
                fprintf(stderr, "ibwire peer: -p %s: 1 ... 65535\n", v);
                return TOOL_EXIT_USAGE;
            }
            o.port = (uint16_t)u;
            have_port = 1;
            break;
        }
        case PE_COUNT: {
            if (parse_u32(v, 1, 1000000000u, &o.count)) {
                fprintf(stderr, "ibwire peer: -C %s: 1 ... 10^9\n", v);
                return TOOL_EXIT_USAGE;
            }
            break;
        }
        case PE_SIZE: {
            if (parse_u32(v, 32, 65536, &o.size)) {
                fprintf(stderr, "ibwire peer: -S %s: 32 ... 65536\n", v);
                return TOOL_EXIT_USAGE;
            }
            have_size = 1;
            break;
        }
        case PE_APP: {
            if (!strcmp(v, "rping")) {
                o.app = PEER_APP_RPING;
            } else if (!strcmp(v, "ucmatose")) {
                o.app = PEER_APP_UCMATOSE;
            } else if (!strcmp(v, "agent")) {
                o.app = PEER_APP_AGENT;
            } else if (!strcmp(v, "perftest")) {
                o.app = PEER_APP_PERFTEST;
            } else {
                fprintf(stderr, "ibwire peer: --app %s: rping, ucmatose, agent or "
                        "perftest\n", v);
                return TOOL_EXIT_USAGE;
            }
            break;
        }
        case PE_PERFTEST: {
            if (!strcmp(v, "write")) {
                o.perftest_verb = PT_WRITE;
            } else if (!strcmp(v, "read")) {
                o.perftest_verb = PT_READ;
            } else if (!strcmp(v, "send")) {
                o.perftest_verb = PT_SEND;
            } else {
                fprintf(stderr, "ibwire peer: --perftest %s: write, read or send\n", v);
                return TOOL_EXIT_USAGE;
            }
            break;
        }
        case PE_PCAP: {
            o.pcap = v;
            break;
        }
        case PE_LOSS: {
            char *end;
            o.loss = strtod(v, &end);
            if (*end || !(o.loss >= 0 && o.loss < 1)) {
                fprintf(stderr, "ibwire peer: --loss %s: 0 <= P < 1\n", v);
                return TOOL_EXIT_USAGE;
            }
            break;
        }
        case PE_ACCEPT_DELAY: {
            if (parse_u32(v, 0, 600000, &o.accept_delay_ms)) {
                fprintf(stderr, "ibwire peer: --accept-delay %s: 0 ... 600000 ms\n", v);
                return TOOL_EXIT_USAGE;
            }
            break;
        }
        case PE_TIMEOUT: {
            char *end;
            o.timeout_s = strtod(v, &end);
            if (*end || !(o.timeout_s > 0)) {
                fprintf(stderr, "ibwire peer: --timeout %s: seconds > 0\n", v);
                return TOOL_EXIT_USAGE;
            }
            break;
        }
        }
    }
    if (!o.iface || role < 0) {
        fprintf(stderr, "ibwire peer: -i IFACE and -c or -s are needed\n");
        usage(stderr);
        return TOOL_EXIT_USAGE;
    }
    if (!have_ip) {
        o.ip6 = want6 || (role == PEER_CLIENT && remote6);
        if (iface_addr(o.iface, o.ip6, &o.ip, o.ip6_addr)) {
            fprintf(stderr, "ibwire peer: -i %s has no %s address to take (give --ip)\n",
                    o.iface, o.ip6 ? "IPv6 (not link-local)" : "IPv4");
            return TOOL_EXIT_USAGE;
        }
    } else if (want6) {
        fprintf(stderr, "ibwire peer: -6 is for no --ip (the address says its family)\n");
        return TOOL_EXIT_USAGE;
    }
    if (role == PEER_CLIENT && remote6 != o.ip6) {
        fprintf(stderr, "ibwire peer: --ip and -c: both IPv4 or both IPv6\n");
        return TOOL_EXIT_USAGE;
    }
    o.role = (uint8_t)role;
    int ucm = o.app == PEER_APP_UCMATOSE;
    if (o.app == PEER_APP_AGENT && role != PEER_CLIENT) {
        fprintf(stderr, "ibwire peer: --app agent is a client (-c)\n");
        return TOOL_EXIT_USAGE;
    }
    int perf = o.app == PEER_APP_PERFTEST;
    if (!have_port)
        o.port = ucm ? 7471 : o.app == PEER_APP_AGENT || perf ? 18515 : 7174;
    if (!have_size)
        o.size = ucm ? 100 : o.app == PEER_APP_AGENT ? 256 : perf ? 65536 : 64;
    if (o.app == PEER_APP_AGENT && o.size < 256) {
        fprintf(stderr, "ibwire peer: --app agent: -S at least 256\n");
        return TOOL_EXIT_USAGE;
    }
    if (o.app == PEER_APP_AGENT)
        o.count = 1; /* one READ, one WRITE, one look at the memory */
    if ((role == PEER_CLIENT || ucm) && !o.count)
        o.count = 10;
    if (ucm && o.count > 60) {
        fprintf(stderr, "ibwire peer: ucmatose: -C %u: at most 60\n", o.count);
        return TOOL_EXIT_USAGE;
    }
    int rc = peer_run(&o);
    return rc == 0 ? TOOL_EXIT_OK : rc == 1 ? 1 : TOOL_EXIT_USAGE;
}
