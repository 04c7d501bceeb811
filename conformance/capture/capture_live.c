/* SPDX-License-Identifier: Apache-2.0 */
/*
 * capture_live.c - frames from a network interface (libpcap), through the
 * same reader interface as a capture file: cap_next() returns each frame
 * with its number and nanosecond time, or CAP_TIMEOUT when nothing came
 * within the timeout, so that the caller can keep its own clock (duration,
 * periodic summaries, signals).
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capture_int.h"

struct cap_reader *cap_open_live(const char *iface, const char *filter,
                                 int timeout_ms, char *err, size_t errlen)
{
    char perr[PCAP_ERRBUF_SIZE] = "";
    pcap_t *p = pcap_create(iface, perr);
    if (!p) {
        snprintf(err, errlen, "cannot open interface %s: %s", iface, perr);
        return NULL;
    }
    pcap_set_snaplen(p, 262144);
    pcap_set_promisc(p, 1);
    pcap_set_timeout(p, timeout_ms > 0 ? timeout_ms : 100);
    pcap_set_immediate_mode(p, 1); /* findings as the frames come */
    /* Immediate mode is a TPACKET_V2 ring of one slot per frame, each slot
     * the snap length wide on an interface with segmentation offloads
     * (veth): libpcap's default 2 MiB held 8 frames, and a burst of 80
     * small RDMA CM frames lost 6 of them under a slow (TCG) guest
     * (scripts/rxe-vm.sh, ucmatose).  32 MiB holds 128 such slots, and
     * some 20,000 where the slot is the MTU. */
    pcap_set_buffer_size(p, 32 << 20);
    pcap_set_tstamp_precision(p, PCAP_TSTAMP_PRECISION_NANO);
    int rc = pcap_activate(p);
    if (rc < 0) {
        /* libpcap's message when it has one, else the status' words */
        const char *why = pcap_geterr(p);
        snprintf(err, errlen, "cannot capture on interface %s: %s", iface,
                 why && *why ? why : pcap_statustostr(rc));
        pcap_close(p);
        return NULL;
    }
    int lt = pcap_datalink(p);
    if (!cap_linktype_supported(lt)) {
        const char *name = pcap_datalink_val_to_name(lt);
        snprintf(err, errlen,
                 "cannot check interface %s: link type %d (%s); ibwire reads "
                 "1 (Ethernet), 197 (ERF), 247 (InfiniBand), 252 (exported "
                 "PDU)",
                 iface, lt, name ? name : "unknown");
        pcap_close(p);
        return NULL;
    }
    /* RoCE only, unless asked otherwise; native InfiniBand link types
     * carry nothing else, and BPF does not look into ERF records. */
    if (!filter && lt == CAP_LINKTYPE_ETHERNET)
        filter = CAP_LIVE_FILTER;
    if (filter) {
        struct bpf_program prog;
        if (pcap_compile(p, &prog, filter, 1, PCAP_NETMASK_UNKNOWN) < 0 ||
            pcap_setfilter(p, &prog) < 0) {
            snprintf(err, errlen, "interface %s: filter '%s': %s", iface,
                     filter, pcap_geterr(p));
            pcap_close(p);
            return NULL;
        }
        pcap_freecode(&prog);
    }
    if (pcap_setnonblock(p, 1, perr) < 0) {
        snprintf(err, errlen, "interface %s: %s", iface, perr);
        pcap_close(p);
        return NULL;
    }
    struct cap_reader *r = cap_new_pcap_reader(p, lt, iface);
    if (!r) {
        snprintf(err, errlen, "interface %s: out of memory", iface);
        pcap_close(p);
        return NULL;
    }
    r->live = 1;
    r->live_timeout_ms = timeout_ms > 0 ? timeout_ms : 100;
    r->micro = pcap_get_tstamp_precision(p) != PCAP_TSTAMP_PRECISION_NANO;
    snprintf(r->path, sizeof r->path, "%s", iface);
    return r;
}

int cap_live_wait(struct cap_reader *r)
{
    int fd = pcap_get_selectable_fd(r->pcap);
    if (fd >= 0) {
        struct pollfd pfd = {fd, POLLIN, 0};
        /* EINTR (a signal) and a timeout alike: back to the caller */
        (void)poll(&pfd, 1, r->live_timeout_ms);
    } else {
        struct timespec ts = {0, 10 * 1000000L};
        nanosleep(&ts, NULL);
    }
    return CAP_TIMEOUT;
}

int cap_live_stats(const struct cap_reader *r, uint64_t *received,
                   uint64_t *dropped)
{
    struct pcap_stat ps;
    if (!r->live || pcap_stats(r->pcap, &ps) < 0)
        return -1;
    *received = ps.ps_recv;
    *dropped = (uint64_t)ps.ps_drop + ps.ps_ifdrop;
    return 0;
}
