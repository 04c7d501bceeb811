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

static void usage(FILE *out)
{
    fprintf(out,
        "usage: ibwire peer -i IFACE [--ip ADDR | -6] (-c SERVER_ADDR | -s) [options]\n"
        "\n"
        "The reference engine and its CM on a raw socket (root or CAP_NET_RAW),\n"
        "RoCEv2 over IPv4 or IPv6 with its own address on IFACE (the kernel of\n"
        "IFACE must not own it; ARP or ND for it is answered here), talking rping's\n"
        "protocol through Linux's RDMA CM (annex A11's IP CM service).\n"
        "\n"
        "  -i IFACE          the interface\n"
        "  --ip ADDR         the engine's address, IPv4 or IPv6 (RoCEv2 over it);\n"
        "                    without it, IFACE's own (its GID table): the first\n"
        "                    IPv4 address, or with -6 (or an IPv6 -c) the first\n"
        "                    IPv6 one not link-local.  The kernel then owns it too\n"
        "                    and answers RoCEv2 frames with ICMP port unreachable\n"
        "                    (harmless), and no rxe device may be bound to IFACE\n"
        "  -6                without --ip: IFACE's IPv6 address\n"
        "  -c ADDR           client: connect to the rping server there\n"
        "  -s                server: accept one rping client\n"
        "  --app rping|ucmatose|agent|perftest  the protocol on the connection\n"
        "                    (rping); agent (client): ibwire-agent's regions, READ A\n"
        "                    and compare, WRITE R and read it back on the agent's\n"
        "                    side channel (127.0.0.1:PORT); perftest: the server of\n"
        "                    ib_write_bw/ib_read_bw/ib_send_bw -R, or (-c) their\n"
        "                    client\n"
        "  --perftest write|read|send  perftest client: the test (write)\n"
        "  -p PORT           RDMA_PS_TCP port (rping 7174, ucmatose 7471,\n"
        "                    perftest 18515)\n"
        "  -C COUNT          rping: pings (client: 10; server: until the client\n"
        "                    leaves); ucmatose: messages each way (10, <= 60);\n"
        "                    perftest: the client's -n, checked (0: not checked)\n"
        "  -S SIZE           rping buffer bytes (64); ucmatose message (100);\n"
        "                    perftest: the largest message, -s (65536)\n"
        "  -v                print the ping data (as rping -V) and CM events\n"
        "  -V                verify the data (client; as rping -v)\n"
        "  --peer-mac MAC    the other side's MAC (no ARP)\n"
        "  --pcap FILE       every RoCE frame in and out\n"
        "  --loss P          drop this share (0..1) of the engine's frames on\n"
        "                    their way out, MADs excepted (a lossy wire)\n"
        "  --timeout SEC     give up after SEC seconds (30)\n"
        "  --accept-delay MS server: answer the REQ MS late, an MRA first\n"
        "  --dup-req         client: send the REQ twice (a duplicate that reaches\n"
        "                    Linux's CM before its application accepts draws an MRA)\n"
        "  --lose-rtu        client: each connection's first RTU is lost on the\n"
        "                    wire (the server's REP resend draws it again)\n"
        "\n"
        "Exit: 0 the exchange completed and the connection was torn down,\n"
        "1 it failed (the reason on stderr), 2 bad arguments.\n");
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
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return TOOL_EXIT_OK;
        } else if (!strcmp(a, "-s")) {
            role = PEER_SERVER;
        } else if (!strcmp(a, "-v")) {
            o.verbose = 1;
        } else if (!strcmp(a, "-V")) {
            o.validate = 1;
        } else if (!strcmp(a, "-6")) {
            want6 = 1;
        } else if (!strcmp(a, "--dup-req")) {
            o.dup_req = 1;
        } else if (!strcmp(a, "--lose-rtu")) {
            o.lose_rtu = 1;
        } else if (!v) {
            fprintf(stderr, "ibwire peer: %s: needs a value\n", a);
            return TOOL_EXIT_USAGE;
        } else if (!strcmp(a, "-i")) {
            o.iface = v;
            i++;
        } else if (!strcmp(a, "--ip")) {
            if (parse_addr(v, &o.ip, o.ip6_addr, &o.ip6)) {
                fprintf(stderr, "ibwire peer: --ip %s: not an IPv4 or IPv6 address\n", v);
                return TOOL_EXIT_USAGE;
            }
            have_ip = 1;
            i++;
        } else if (!strcmp(a, "-c")) {
            if (parse_addr(v, &o.remote_ip, o.remote_ip6, &remote6)) {
                fprintf(stderr, "ibwire peer: -c %s: not an IPv4 or IPv6 address\n", v);
                return TOOL_EXIT_USAGE;
            }
            role = PEER_CLIENT;
            i++;
        } else if (!strcmp(a, "--peer-mac")) {
            if (parse_mac(v, o.remote_mac)) {
                fprintf(stderr, "ibwire peer: --peer-mac %s: not a MAC\n", v);
                return TOOL_EXIT_USAGE;
            }
            o.have_remote_mac = 1;
            i++;
        } else if (!strcmp(a, "-p")) {
            if (parse_u32(v, 1, 65535, &u)) {
                fprintf(stderr, "ibwire peer: -p %s: 1 ... 65535\n", v);
                return TOOL_EXIT_USAGE;
            }
            o.port = (uint16_t)u;
            have_port = 1;
            i++;
        } else if (!strcmp(a, "-C")) {
            if (parse_u32(v, 1, 1000000000u, &o.count)) {
                fprintf(stderr, "ibwire peer: -C %s: 1 ... 10^9\n", v);
                return TOOL_EXIT_USAGE;
            }
            i++;
        } else if (!strcmp(a, "-S")) {
            if (parse_u32(v, 32, 65536, &o.size)) {
                fprintf(stderr, "ibwire peer: -S %s: 32 ... 65536\n", v);
                return TOOL_EXIT_USAGE;
            }
            have_size = 1;
            i++;
        } else if (!strcmp(a, "--app")) {
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
            i++;
        } else if (!strcmp(a, "--perftest")) {
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
            i++;
        } else if (!strcmp(a, "--pcap")) {
            o.pcap = v;
            i++;
        } else if (!strcmp(a, "--loss")) {
            char *end;
            o.loss = strtod(v, &end);
            if (*end || !(o.loss >= 0 && o.loss < 1)) {
                fprintf(stderr, "ibwire peer: --loss %s: 0 <= P < 1\n", v);
                return TOOL_EXIT_USAGE;
            }
            i++;
        } else if (!strcmp(a, "--accept-delay")) {
            if (parse_u32(v, 0, 600000, &o.accept_delay_ms)) {
                fprintf(stderr, "ibwire peer: --accept-delay %s: 0 ... 600000 ms\n", v);
                return TOOL_EXIT_USAGE;
            }
            i++;
        } else if (!strcmp(a, "--timeout")) {
            char *end;
            o.timeout_s = strtod(v, &end);
            if (*end || !(o.timeout_s > 0)) {
                fprintf(stderr, "ibwire peer: --timeout %s: seconds > 0\n", v);
                return TOOL_EXIT_USAGE;
            }
            i++;
        } else {
            fprintf(stderr, "ibwire peer: unknown option %s\n", a);
            usage(stderr);
            return TOOL_EXIT_USAGE;
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
