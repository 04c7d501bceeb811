/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rawsock.c - the raw-socket frame path: an AF_PACKET socket on one
 * interface (promiscuous, IPv4 ethertype frames only, never the socket's
 * own outgoing ones), and the monotonic clock.  The raw target
 * (target_raw.c) and the engine on a raw socket (engine_raw.c) share it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* ppoll */
#endif
#include <errno.h>
#include <string.h>
#include <time.h>

#include "probe_int.h"

#ifdef __linux__
#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

uint64_t probe_mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int probe_rawsock_open(const char *iface, int *ifindex, char *err, size_t errlen)
{
    unsigned idx = if_nametoindex(iface);
    if (!idx) {
        snprintf(err, errlen, "%s: no such interface", iface);
        return -1;
    }
    int fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC,
                    htons(ETH_P_ALL));
    if (fd < 0) {
        snprintf(err, errlen, "%s: raw socket: %s (root or CAP_NET_RAW)", iface,
                 strerror(errno));
        return -1;
    }
    struct sockaddr_ll sll;
    memset(&sll, 0, sizeof sll);
    sll.sll_family = AF_PACKET;
    sll.sll_protocol = htons(ETH_P_ALL);
    sll.sll_ifindex = (int)idx;
    struct packet_mreq mr;
    memset(&mr, 0, sizeof mr);
    mr.mr_ifindex = (int)idx;
    mr.mr_type = PACKET_MR_PROMISC;
    int one = 1;
    if (bind(fd, (struct sockaddr *)&sll, sizeof sll) ||
        setsockopt(fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr, sizeof mr) ||
        setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one)) {
        snprintf(err, errlen, "%s: %s", iface, strerror(errno));
        close(fd);
        return -1;
    }
    *ifindex = (int)idx;
    return fd;
}

int probe_rawsock_mac(const char *iface, uint8_t mac[6], char *err, size_t errlen)
{
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    if (strlen(iface) >= sizeof ifr.ifr_name) {
        snprintf(err, errlen, "%s: interface name too long", iface);
        return -1;
    }
    memcpy(ifr.ifr_name, iface, strlen(iface));
    int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    int rc = s < 0 ? -1 : ioctl(s, SIOCGIFHWADDR, &ifr);
    if (s >= 0)
        close(s);
    if (rc) {
        snprintf(err, errlen, "%s: no MAC address: %s", iface, strerror(errno));
        return -1;
    }
    memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
    return 0;
}

void probe_rawsock_close(int fd)
{
    if (fd >= 0)
        close(fd);
}

int probe_rawsock_send(int fd, int ifindex, const uint8_t *f, size_t len)
{
    struct sockaddr_ll sll;
    memset(&sll, 0, sizeof sll);
    sll.sll_family = AF_PACKET;
    sll.sll_ifindex = ifindex;
    sll.sll_halen = 6;
    memcpy(sll.sll_addr, f, 6);
    ssize_t n = sendto(fd, f, len, 0, (struct sockaddr *)&sll, sizeof sll);
    return n == (ssize_t)len ? 0 : -1;
}

/* The kernel's receive time (CLOCK_REALTIME) on the monotonic clock. */
static uint64_t mono_of(const struct timespec *rt)
{
    struct timespec m, r;
    clock_gettime(CLOCK_MONOTONIC, &m);
    clock_gettime(CLOCK_REALTIME, &r);
    int64_t off = ((int64_t)r.tv_sec - (int64_t)m.tv_sec) * 1000000000 +
                  (r.tv_nsec - m.tv_nsec);
    int64_t t = (int64_t)rt->tv_sec * 1000000000 + rt->tv_nsec - off;
    return t > 0 ? (uint64_t)t : 0;
}

int probe_rawsock_recv(int fd, uint8_t *buf, size_t cap, size_t *len,
                       uint64_t *at)
{
    for (;;) {
        struct sockaddr_ll from;
        struct iovec iov = {buf, cap};
        union {
            struct cmsghdr h;
            char b[CMSG_SPACE(sizeof(struct timespec))];
        } ctl;
        struct msghdr mh;
        memset(&mh, 0, sizeof mh);
        mh.msg_name = &from;
        mh.msg_namelen = sizeof from;
        mh.msg_iov = &iov;
        mh.msg_iovlen = 1;
        mh.msg_control = ctl.b;
        mh.msg_controllen = sizeof ctl.b;
        ssize_t n = recvmsg(fd, &mh, MSG_TRUNC);
        if (n < 0)
            return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -1;
        if (from.sll_pkttype == PACKET_OUTGOING)
            continue;
        if ((size_t)n > cap || n < 14 || buf[12] != 0x08 || buf[13] != 0x00)
            continue; /* IPv4 frames only (the kernel's IPv6 chatter is not ours) */
        *len = (size_t)n;
        if (at) {
            *at = probe_mono_ns();
            for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
                if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
                    struct timespec ts;
                    memcpy(&ts, CMSG_DATA(c), sizeof ts);
                    uint64_t k = mono_of(&ts);
                    if (k && k <= *at)
                        *at = k;
                }
        }
        return 1;
    }
}

void probe_rawsock_wait(int fd, uint64_t ns)
{
    struct pollfd p = {fd, POLLIN, 0};
    struct timespec ts = {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)};
    ppoll(&p, 1, &ts, NULL);
}

#else /* not Linux: no AF_PACKET */

uint64_t probe_mono_ns(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
int probe_rawsock_open(const char *iface, int *ifindex, char *err, size_t errlen)
{
    (void)ifindex;
    snprintf(err, errlen, "%s: raw sockets are Linux's AF_PACKET", iface);
    return -1;
}
int probe_rawsock_mac(const char *iface, uint8_t mac[6], char *err, size_t errlen)
{
    (void)mac;
    snprintf(err, errlen, "%s: raw sockets are Linux's AF_PACKET", iface);
    return -1;
}
void probe_rawsock_close(int fd) { (void)fd; }
int probe_rawsock_send(int fd, int ifindex, const uint8_t *f, size_t len)
{
    (void)fd; (void)ifindex; (void)f; (void)len;
    return -1;
}
int probe_rawsock_recv(int fd, uint8_t *buf, size_t cap, size_t *len,
                       uint64_t *at)
{
    (void)fd; (void)buf; (void)cap; (void)len; (void)at;
    return -1;
}
void probe_rawsock_wait(int fd, uint64_t ns) { (void)fd; (void)ns; }
#endif
