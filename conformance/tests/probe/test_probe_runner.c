/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The probe's runner can fail in every way a step judges: small scripts run
 * against the self target (the reference engine) with a verdict decided by
 * hand from what the engine sends (a SEND ONLY into a posted receive is an
 * ACK with MSN 1 at once; a lost ACK is resent after the local ACK timeout,
 * 4.096 us << 14 = 67 ms).  Each expectation changed by one field, one time
 * limit or one completion must turn PASS into FAIL; scripts that do not
 * parse are refused with their line.
 */
#include <string.h>

#include "probe.h"
#include "testutil.h"

static struct probe_target *tg;

static unsigned scale; /* probe_opts.within_scale of the next runs */

static int verdict(const char *script, char *why, size_t n)
{
    struct probe_test t = {"runner-test", PROBE_RESPONDER, "9.7.5", "", "", script};
    struct probe_opts o;
    memset(&o, 0, sizeof o);
    o.within_scale = scale;
    struct probe_result r;
    probe_run(&t, tg, &o, &r);
    if (why)
        snprintf(why, n, "%s", r.why);
    return r.verdict;
}

#define SEND "recv len=64\n> SEND_ONLY psn=E len=8\n"

static const struct {
    const char *script;
    int verdict;
} cases[] = {
    {SEND "< ACK psn=E aeth=ack msn=1\ncqe recv ok len=8\nmem L+0 len=8 data=0\n", PROBE_PASS},
    {SEND "< ACK psn=E+1 aeth=ack msn=1\n", PROBE_FAIL},      /* PSN */
    {SEND "< ACK psn=E aeth=nak-seq msn=1\n", PROBE_FAIL},    /* syndrome */
    {SEND "< ACK psn=E aeth=ack msn=2\n", PROBE_FAIL},        /* MSN */
    {SEND "< ATOMIC_ACK psn=E\n", PROBE_FAIL},                /* opcode */
    {SEND "< ACK psn=E dqp=0x12\n", PROBE_FAIL},              /* destination QP */
    {SEND "< ACK psn=E aeth=nak-inv|ack\n", PROBE_PASS},       /* alternatives */
    {SEND "< ACK psn=E aeth=nak-inv|nak-acc\n", PROBE_FAIL},
    {SEND "< ACK psn=E-1..E+1\n", PROBE_PASS},                 /* ranges */
    {SEND "< ACK psn=E+1..E+2\n", PROBE_FAIL},
    {SEND "< ACK psn=E after=1us\n", PROBE_FAIL},              /* too early */
    {SEND ". within=1ms\n", PROBE_FAIL},                       /* not silent */
    {SEND, PROBE_FAIL},                                        /* left over */
    {SEND "~ within=1ms\n", PROBE_PASS},                       /* drained */
    {SEND "< ACK psn=E\ncqe recv loc-len\n", PROBE_FAIL},      /* status */
    {SEND "< ACK psn=E\ncqe recv ok len=9\n", PROBE_FAIL},     /* length */
    {SEND "< ACK psn=E\ncqe send ok\n", PROBE_FAIL},           /* kind */
    {SEND "< ACK psn=E\ncqe none\n", PROBE_FAIL},
    {SEND "< ACK psn=E\nmem L+0 len=8 data=1\n", PROBE_FAIL},  /* memory */
    {SEND "< ACK psn=E\nmem L+0 len=8 init\n", PROBE_FAIL},
    {"> READ_REQUEST psn=E va=A rkey=A dmalen=8\n"
     "< READ_RESPONSE_ONLY psn=E len=8 from=A\n", PROBE_PASS},
    {"> READ_REQUEST psn=E va=A rkey=A dmalen=8\n"
     "< READ_RESPONSE_ONLY psn=E len=8 from=A+1\n", PROBE_FAIL}, /* payload */
    {"> READ_REQUEST psn=E va=A rkey=A dmalen=8\n"
     "< READ_RESPONSE_ONLY psn=E len=8 data=0\n", PROBE_FAIL},
    /* the lost ACK: resent at 67 ms, not within 1 ms, not before 68 ms */
    {"post send len=8\n< SEND_ONLY psn=S\n< SEND_ONLY psn=S after=67108us within=70ms\n"
     "> ACK psn=S aeth=ack msn=1\ncqe send ok\n", PROBE_PASS},
    {"post send len=8\n< SEND_ONLY psn=S\n< SEND_ONLY psn=S within=1ms\n", PROBE_FAIL},
    {"post send len=8\n< SEND_ONLY psn=S\n< SEND_ONLY psn=S after=68ms\n", PROBE_FAIL},
    {"needs rd-limit\n> SEND_ONLY psn=E len=8\n", PROBE_NA},
    /* the resend at 67 ms is past the default 50 ms */
    {"post send len=8\n< SEND_ONLY psn=S\n< SEND_ONLY psn=S\n", PROBE_FAIL},
    /* none-ok: a completion with status ok fails it */
    {SEND "< ACK psn=E\ncqe none-ok\n", PROBE_FAIL},
    {"recv len=64\n> SEND_ONLY psn=E len=128\n< ACK psn=E\ncqe none-ok\n", PROBE_PASS},
};

/* With within_scale 2 the default limit is 100 ms; explicit ones stay; a
 * default local ACK timeout goes one code up (15: 134 ms). */
static const struct {
    const char *script;
    int verdict;
} scaled[] = {
    {"setup timeout=14\npost send len=8\n< SEND_ONLY psn=S\n< SEND_ONLY psn=S\n"
     "> ACK psn=S aeth=ack msn=1\ncqe send ok\n", PROBE_PASS},
    {"setup timeout=14\npost send len=8\n< SEND_ONLY psn=S\n"
     "< SEND_ONLY psn=S within=50ms\n", PROBE_FAIL},
    {"setup timeout=14\npost send len=8\n< SEND_ONLY psn=S\n"
     "< SEND_ONLY psn=S after=68ms\n", PROBE_FAIL},
    {"post send len=8\n< SEND_ONLY psn=S\n< SEND_ONLY psn=S after=134217us within=140ms\n",
     PROBE_PASS},
    {"post send len=8\n< SEND_ONLY psn=S\n< SEND_ONLY psn=S within=100ms\n", PROBE_FAIL},
};

static const char *const bad_scripts[] = {
    "> SEND_ONLY len=8\n",                 /* no psn */
    "> SEND_NOTHING psn=E\n",              /* opcode */
    "> SEND_ONLY psn=Q\n",                 /* value */
    "> SEND_ONLY psn=E colour=red\n",      /* key */
    "< ACK psn=E within=5\n",              /* a time without its unit */
    "< ACK aeth=maybe\n",
    "cqe recv fine\n",
    "mem Z+0 len=8 init\n",
    "recv len=70000\n",
    "> SEND_ONLY psn=E\nsetup pmtu=512\n",  /* setup after a step */
    "setup pmtu=300\n> SEND_ONLY psn=E\n",
    "needs telepathy\n> SEND_ONLY psn=E\n",
    "jump\n",
    "setup pmtu=512\n",                    /* no steps */
    "",
};

int main(void)
{
    tg = probe_self_target(NULL);
    TU_CHECK(tg != NULL);
    if (!tg)
        return tu_done("probe_runner");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char why[512];
        int v = verdict(cases[i].script, why, sizeof why);
        if (v != cases[i].verdict)
            printf("case %zu: verdict %d, expected %d: %s\n", i, v,
                   cases[i].verdict, why);
        TU_CHECK(v == cases[i].verdict);
        if (v == PROBE_FAIL)
            TU_CHECK(strstr(why, "line ") == why); /* it names the step */
    }
    scale = 2;
    for (size_t i = 0; i < sizeof scaled / sizeof scaled[0]; i++) {
        char why[512];
        int v = verdict(scaled[i].script, why, sizeof why);
        if (v != scaled[i].verdict)
            printf("scaled case %zu: verdict %d, expected %d: %s\n", i, v,
                   scaled[i].verdict, why);
        TU_CHECK(v == scaled[i].verdict);
    }
    scale = 0;
    for (size_t i = 0; i < sizeof bad_scripts / sizeof bad_scripts[0]; i++) {
        char err[512];
        int rc = probe_script_check(bad_scripts[i], err, sizeof err);
        if (rc == 0)
            printf("bad script %zu accepted\n", i);
        TU_CHECK(rc == -1 && strstr(err, "line ") == err);
        TU_CHECK(verdict(bad_scripts[i], NULL, 0) == PROBE_ERROR);
    }
    /* every script of the suite parses */
    for (size_t i = 0; i < probe_ntests; i++) {
        char err[512];
        TU_CHECK(probe_script_check(probe_tests[i].script, err, sizeof err) == 0);
    }
    TU_CHECK(probe_self_target("no-such-break") == NULL);
    probe_self_target_free(tg);
    return tu_done("probe_runner");
}
