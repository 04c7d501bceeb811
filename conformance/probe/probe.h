/* SPDX-License-Identifier: Apache-2.0 */
/*
 * probe.h - `ibwire probe`: an active conformance suite.  Each test is a
 * short script of packets the probe injects into a device, packets it
 * expects back (with time limits), and device-side operations (post a
 * receive, post a request, read completions and memory); each is keyed to
 * the IBA statement it checks.  README.md (this directory) has the script
 * format and the test list.
 *
 * The device under test is reached through a target (struct probe_target):
 * frames to and from the device, and the device-side operations an agent
 * performs on it.  target_self.c is ibwire's own reference engine in the
 * same process (virtual time); a raw-socket target with a device agent
 * fills the same table with real time.
 */
#ifndef IBW_PROBE_H
#define IBW_PROBE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- what a test asks of the device ---- */

/* The device's memory regions, set up for every test with known contents
 * (probe_init_byte) and access rights. */
enum probe_region {
    PR_A,  /* 64 KiB: remote read, write and atomic */
    PR_R,  /* 4 KiB: remote read and write, no atomic */
    PR_N,  /* 4 KiB: no remote access at all */
    PR_L,  /* 64 KiB: local only: receive buffers, the device's own requests */
    PR_COUNT
};
#define PROBE_REGION_NAMES "ARNL"

enum probe_qp_type { PROBE_RC = 0, PROBE_UD = 3 };

struct probe_setup {
    uint8_t type;          /* enum probe_qp_type */
    uint32_t probe_qpn;    /* the probe's QPN: the device QP's remote QPN */
    uint32_t rq_psn;       /* the first PSN the device expects */
    uint32_t sq_psn;       /* the first PSN the device sends */
    uint32_t pmtu;         /* 256..4096 */
    uint8_t retry_cnt, rnr_retry; /* 0..7 (rnr 7: infinite) */
    uint8_t timeout;       /* local ACK timeout code: 4.096 us << timeout */
    uint8_t min_rnr_timer; /* the RNR NAK timer code the device sends */
    uint8_t max_rd_atomic; /* READ/atomic responder resources the device is
                              told it has (0: the device's default) */
    uint16_t pkey;
    uint32_t qkey;         /* UD */
    uint32_t needs;        /* the PROBE_CAP_*s the test needs: a device may
                              set itself up for them (an agent's region R
                              becomes a memory window for send-inv) */
};

/* Features a test may need; a target without one reports the test N/A. */
enum {
    PROBE_CAP_ATOMIC = 1u << 0,
    PROBE_CAP_SEND_INV = 1u << 1,
    PROBE_CAP_UD = 1u << 2,
    PROBE_CAP_RD_LIMIT = 1u << 3, /* enforces max_rd_atomic as a responder */
    PROBE_CAP_VTIME = 1u << 4     /* virtual time: long waits cost nothing */
};

struct probe_region_info {
    uint64_t va;
    uint32_t len, rkey, lkey, access;
};

/* What the target answers about the device once set up. */
struct probe_dev {
    uint32_t qpn;          /* the device's QPN */
    struct probe_region_info reg[PR_COUNT];
    uint8_t dev_mac[6], probe_mac[6];
    uint32_t dev_ip4, probe_ip4;
    uint32_t caps;         /* PROBE_CAP_* */
};

/* A request the device posts (requester tests): local data in PR_L. */
enum probe_wr_op {
    PROBE_WR_SEND, PROBE_WR_SEND_IMM, PROBE_WR_WRITE, PROBE_WR_WRITE_IMM,
    PROBE_WR_READ, PROBE_WR_CAS, PROBE_WR_FAA
};
struct probe_wr {
    uint8_t op;            /* enum probe_wr_op */
    uint32_t local_off, len;
    uint64_t remote_va;
    uint32_t rkey, imm;
    uint64_t cmp, swap;
};

enum probe_status {
    PROBE_ST_OK, PROBE_ST_LOC_LEN, PROBE_ST_REM_INV_REQ, PROBE_ST_REM_ACCESS,
    PROBE_ST_REM_OP, PROBE_ST_RETRY_EXC, PROBE_ST_RNR_RETRY_EXC,
    PROBE_ST_FLUSH, PROBE_ST_OTHER
};
struct probe_cqe {
    uint8_t recv;          /* 1: a receive completion, 0: a send-side one */
    uint8_t status;        /* enum probe_status */
    uint8_t has_imm;
    uint32_t len, imm;
};

/* ---- the target: the device under test ----
 * Every call returns 0 or a negative value on a target error (which fails
 * the test with the target's message in err).  Time is in nanoseconds on
 * the target's clock: virtual for the self target, CLOCK_MONOTONIC for a
 * device on a wire. */
struct probe_target {
    const char *name;
    void *ctx;
    /* Set the device up for one test (a fresh QP and regions); fills *d. */
    int (*open)(void *ctx, const struct probe_setup *s, struct probe_dev *d,
                char *err, size_t errlen);
    void (*close)(void *ctx);
    uint64_t (*now)(void *ctx);
    /* A frame to the device (an Ethernet frame for RoCEv2). */
    int (*send)(void *ctx, const uint8_t *frame, size_t len);
    /* The device's next frame, waiting until `deadline` at most: 1 with the
     * frame and the time it left, 0 when none came by then (the clock is
     * then at the deadline). */
    int (*recv)(void *ctx, uint8_t *buf, size_t cap, size_t *len,
                uint64_t *at, uint64_t deadline);
    /* Device-side operations (the agent's). */
    int (*post_recv)(void *ctx, uint32_t off, uint32_t len); /* in PR_L */
    int (*post_send)(void *ctx, const struct probe_wr *wr);
    int (*poll)(void *ctx, struct probe_cqe *c, int max); /* count */
    int (*mem_read)(void *ctx, int region, uint32_t off, uint8_t *buf,
                    uint32_t len);
};

/* The device-side operations of a target whose frames travel a wire: the
 * agent on the device (ibwire-agent, conformance/probe/agent.c over
 * libibverbs, reached through its side channel by agent_client.c), or the
 * reference engine on a raw socket of its own (probe_engine_raw_agent).
 * The same calls as the target's. */
struct probe_agent {
    const char *name;
    void *ctx;
    int (*open)(void *ctx, const struct probe_setup *s, struct probe_dev *d,
                char *err, size_t errlen);
    void (*close)(void *ctx);
    int (*post_recv)(void *ctx, uint32_t off, uint32_t len);
    int (*post_send)(void *ctx, const struct probe_wr *wr);
    int (*poll)(void *ctx, struct probe_cqe *c, int max);
    int (*mem_read)(void *ctx, int region, uint32_t off, uint8_t *buf,
                    uint32_t len);
    /* An in-process device's turn to run (NULL for a remote one): the raw
     * target calls it whenever it waits. */
    void (*pump)(void *ctx);
};

/* The raw-socket target: frames to and from the device over an AF_PACKET
 * socket on `iface` (root or CAP_NET_RAW; IPv4 frames only), on
 * CLOCK_MONOTONIC; the device-side operations are the agent's.  NULL with
 * the reason in err. */
struct probe_target *probe_raw_target(const char *iface, struct probe_agent *ag,
                                      char *err, size_t errlen);
void probe_raw_target_free(struct probe_target *t);
/* The reference engine as the device on its own raw socket on `iface`, in
 * real time: the other end of a veth pair from the raw target. */
struct probe_agent *probe_engine_raw_agent(const char *iface, char *err,
                                           size_t errlen);
void probe_engine_raw_agent_free(struct probe_agent *a);

/* A real device through its agent (agent.c, ibwire-agent) at HOST:PORT,
 * the agent's side channel: each test's QP is set up by the agent with
 * plain verbs, connected to the probe at probe_ip4/probe_mac (the raw
 * target's end of the wire).  NULL with the reason in err. */
struct probe_agent *probe_agent_client(const char *hostport, uint32_t probe_ip4,
                                       const uint8_t probe_mac[6], char *err,
                                       size_t errlen);
/* The last thing the agent said that went wrong ("" if nothing). */
const char *probe_agent_client_error(struct probe_agent *a);
void probe_agent_client_free(struct probe_agent *a);
/* An interface's MAC address (the probe's, for the agent): 0, or -1 with
 * the reason in err. */
int probe_rawsock_mac(const char *iface, uint8_t mac[6], char *err, size_t errlen);

/* The bytes every region holds when a test starts, and the bytes of the
 * probe's payloads: independent patterns, so a write shows. */
static inline uint8_t probe_init_byte(int region, uint32_t off)
{
    return (uint8_t)(0xA5u ^ (off * 7u) ^ ((unsigned)region << 6));
}
static inline uint8_t probe_data_byte(uint32_t off)
{
    return (uint8_t)(off * 13u + 0x5Au);
}

/* The self target: ibwire's reference engine as the device, in one
 * process.  `brk` names a deliberate breakage of the device's frames
 * (probe_self_breaks) or is NULL. */
struct probe_target *probe_self_target(const char *brk);
void probe_self_target_free(struct probe_target *t);
/* The reference engine's fault modes (a mask of IBE_FAULT_BIT()s of
 * conformance/engine/faults.h) for every test the self target runs from
 * now on: the device then behaves as the buggy implementation did. */
void probe_self_target_set_faults(struct probe_target *t, uint64_t faults);
/* The reference engine's open choices (IBE_CHOICE_BIT()s of
 * conformance/engine/choices.h) for every test from now on: the other
 * behaviour a statement allows, which every test must still pass. */
void probe_self_target_set_choices(struct probe_target *t, uint64_t choices);
/* "name: what it does" for each breakage, NULL-terminated. */
extern const char *const probe_self_breaks[];

/* ---- the tests ---- */
enum probe_side { PROBE_RESPONDER, PROBE_REQUESTER };
struct probe_test {
    const char *id;        /* resp-..., req-... */
    uint8_t side;          /* enum probe_side: which role of the device */
    const char *spec;      /* IBA statements: CA17-n, C9-n, else Vol. 1 section */
    const char *rule;      /* the `ibwire check` rule it provokes, or "" */
    const char *summary;   /* what a conforming device does */
    const char *script;    /* the script (README.md: format) */
};
extern const struct probe_test probe_tests[];
extern const size_t probe_ntests;
/* The reference engine's fault modes (faults.h names, "a,b") of which each
 * must make test `id` fail on the self target (`ibwire probe --self --fault
 * NAME`): the test checks the behaviour the fault breaks, so a device
 * failing the test the same way is caught for a real reason (README.md,
 * "Fault modes").  NULL when no fault mode breaks what the test checks. */
const char *probe_test_faults(const char *id);
/* The fault modes (faults.h names) that must make test `id` a QUALITY
 * result, not a FAIL: they miss a bound the IBA does not set.  NULL when
 * none. */
const char *probe_test_quality_faults(const char *id);

/* FAIL: the device broke a "shall" of the statements the test names.
 * QUALITY: every "shall" held, but a bound the IBA does not set was missed
 * (a `<` step's quality=T): the result says the figure measured. */
enum probe_verdict { PROBE_PASS, PROBE_FAIL, PROBE_NA, PROBE_ERROR,
                     PROBE_QUALITY };
struct probe_result {
    uint8_t verdict;       /* enum probe_verdict */
    int step_line;         /* script line of the failing step */
    char why[512];
};

struct probe_opts {
    const char *pcap_dir;  /* write each failing test's frames here (NULL:
                              nowhere) */
    int pcap_all;          /* ... and every passing test's too */
    int verbose;           /* print every frame as it passes */
    FILE *log;             /* verbose output (stderr when NULL) */
    unsigned within_scale; /* the DEFAULT time limits of `<` and `cqe` (50
                              ms) times this, for a device on a slow
                              (emulated) machine; 0 or 1: as written.  An
                              explicit within= or after= is a bound the test
                              sets on purpose and stays as written.  A test
                              that leaves the local ACK timeout at its
                              default gets log2 of it more (4: 16, 268 ms),
                              so that the probe still answers in time. */
    /* The fuzzer's view of a run (fuzz.c; NULL: none).  on_frame: every
     * frame as the runner keeps it (dir 0: probe to device, 1: device to
     * probe), with the script line it belongs to; on_step: each step's
     * line as it starts, with the target's clock; at_end: once the script
     * is over (whatever the verdict), before the target is closed, so the
     * device's completions and memory can still be read. */
    void (*on_frame)(void *user, int dir, int line, uint64_t at,
                     const uint8_t *f, size_t len);
    void (*on_step)(void *user, int line, uint64_t now);
    void (*at_end)(void *user, struct probe_target *tg);
    void *user;
    /* The fuzzer's run of an episode on a real device (fuzz.c; NULL:
     * none): a `~ within=T` on line L lasts at least until the device has
     * sent window_frames[L] frames in it (what the reference engine sent
     * there), but no longer than window_cap_ns; lines from nwindow on have
     * none; after one window that ran to its cap, none waits again in
     * that run.  The probe answers the device's requests as the engine's
     * run did, after them, however slowly the device sends. */
    const uint16_t *window_frames;
    int nwindow;
    uint64_t window_cap_ns;
};

/* Check a script without running it: 0, or -1 with the line and the
 * reason in err. */
int probe_script_check(const char *script, char *err, size_t errlen);
/* Run one test against a target. */
void probe_run(const struct probe_test *t, struct probe_target *tg,
               const struct probe_opts *o, struct probe_result *r);

#endif
