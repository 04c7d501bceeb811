/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_probe_agent.c - the probe's client of ibwire-agent's side channel
 * (conformance/probe/agent_client.c) against the protocol as agent.c's
 * header writes it: each answer line parsed by hand-written expectations,
 * malformed lines refused, and a whole test's conversation (qp, recv, post,
 * poll, mem, destroy) against a scripted fake agent on the loopback that
 * checks every command the client sends, byte for byte.  The real agent on
 * a real device is the rxe bench's (scripts/rxe-vm.sh --probe).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "probe_int.h"

static int failures;
#define CHECK(c)                                                              \
    do {                                                                      \
        if (!(c)) {                                                           \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c); \
            failures++;                                                       \
        }                                                                     \
    } while (0)

static void parsing(void)
{
    struct probe_dev d;
    memset(&d, 0, sizeof d);
    CHECK(!probe_agent_parse_dev("dev 17 10.9.0.1 02:ab:0c:00:ff:10", &d));
    CHECK(d.qpn == 17 && d.dev_ip4 == 0x0A090001u);
    CHECK(d.dev_mac[0] == 0x02 && d.dev_mac[1] == 0xab && d.dev_mac[4] == 0xff &&
          d.dev_mac[5] == 0x10);
    CHECK(probe_agent_parse_dev("dev 17 10.9.0.256 02:ab:0c:00:ff:10", &d));
    CHECK(probe_agent_parse_dev("dev 17 10.9.0.1", &d));
    CHECK(probe_agent_parse_dev("dev 17 10.9.0.1 02:ab:0c:00:ff:10 x", &d));
    CHECK(probe_agent_parse_dev("dev 16777216 10.9.0.1 02:ab:0c:00:ff:10", &d));
    CHECK(probe_agent_parse_dev("err no RDMA device", &d));

    CHECK(!probe_agent_parse_reg("reg R 140737488355328 4096 4660 4661 7", &d));
    CHECK(d.reg[PR_R].va == 0x800000000000ull && d.reg[PR_R].len == 4096 &&
          d.reg[PR_R].rkey == 0x1234 && d.reg[PR_R].lkey == 0x1235 &&
          d.reg[PR_R].access == 7);
    CHECK(d.reg[PR_A].va == 0); /* only the region named */
    CHECK(probe_agent_parse_reg("reg Q 1 4096 1 1 1", &d));
    CHECK(probe_agent_parse_reg("reg A 1 4096 1 1", &d));

    struct probe_cqe c;
    CHECK(!probe_agent_parse_cqe("cqe recv ok 16 - success", &c));
    CHECK(c.recv == 1 && c.status == PROBE_ST_OK && c.len == 16 && !c.has_imm);
    CHECK(!probe_agent_parse_cqe("cqe recv ok 264 51966 success", &c));
    CHECK(c.has_imm && c.imm == 0xcafe && c.len == 264);
    CHECK(!probe_agent_parse_cqe("cqe send rnr-exc 0 - RNR retry counter exceeded", &c));
    CHECK(c.recv == 0 && c.status == PROBE_ST_RNR_RETRY_EXC);
    CHECK(!probe_agent_parse_cqe("cqe recv loc-len 0 - local length error", &c));
    CHECK(c.status == PROBE_ST_LOC_LEN);
    CHECK(!probe_agent_parse_cqe("cqe send retry-exc 0 -", &c));
    CHECK(c.status == PROBE_ST_RETRY_EXC);
    CHECK(!probe_agent_parse_cqe("cqe send flush 0 -", &c) && c.status == PROBE_ST_FLUSH);
    CHECK(!probe_agent_parse_cqe("cqe send other 0 -", &c) && c.status == PROBE_ST_OTHER);
    CHECK(!probe_agent_parse_cqe("cqe recv rem-inv 0 -", &c) && c.status == PROBE_ST_REM_INV_REQ);
    CHECK(!probe_agent_parse_cqe("cqe send rem-acc 0 -", &c) && c.status == PROBE_ST_REM_ACCESS);
    CHECK(!probe_agent_parse_cqe("cqe send rem-op 0 -", &c) && c.status == PROBE_ST_REM_OP);
    CHECK(!probe_agent_parse_cqe("cqe recv ok 4 4294967295", &c) && c.imm == 0xFFFFFFFFu);
    CHECK(probe_agent_parse_cqe("cqe recv ok 4 4294967296", &c));
    CHECK(probe_agent_parse_cqe("cqe both ok 16 -", &c));
    CHECK(probe_agent_parse_cqe("cqe recv success 16 -", &c));
    CHECK(probe_agent_parse_cqe("cqe recv ok 16 12x", &c));
    CHECK(probe_agent_parse_cqe("cqe recv ok", &c));

    uint8_t b[4];
    CHECK(!probe_agent_parse_mem("mem 00a5fF7e", b, 4));
    CHECK(b[0] == 0 && b[1] == 0xa5 && b[2] == 0xff && b[3] == 0x7e);
    CHECK(probe_agent_parse_mem("mem 00a5ff", b, 4));
    CHECK(probe_agent_parse_mem("mem 00a5ff7e00", b, 4));
    CHECK(probe_agent_parse_mem("mem 00a5fg7e", b, 4));
    CHECK(probe_agent_parse_mem("err mem A|R|N|L OFF LEN", b, 4));

    struct probe_setup s;
    memset(&s, 0, sizeof s);
    s.type = PROBE_RC;
    s.probe_qpn = 0x11;
    s.rq_psn = 0x1000;
    s.sq_psn = 0xFFFFFF;
    s.pmtu = 1024;
    s.retry_cnt = 7;
    s.rnr_retry = 2;
    s.timeout = 14;
    s.min_rnr_timer = 1;
    s.max_rd_atomic = 0;
    s.pkey = 0xFFFF;
    s.qkey = 0;
    char out[256];
    CHECK(!probe_agent_format_qp(&s, 0x0A090003u, out, sizeof out));
    CHECK(!strcmp(out, "qp rc 17 4096 16777215 1024 7 2 14 1 0 65535 0 10.9.0.3\n"));
    s.type = PROBE_UD;
    s.qkey = 0x1234;
    CHECK(!probe_agent_format_qp(&s, 0x0A090003u, out, sizeof out));
    CHECK(!strcmp(out, "qp ud 17 4096 16777215 1024 7 2 14 1 0 65535 4660 10.9.0.3\n"));
    CHECK(probe_agent_format_qp(&s, 0x0A090003u, out, 20));
    s.type = PROBE_RC;
    s.needs = PROBE_CAP_SEND_INV | PROBE_CAP_ATOMIC;
    CHECK(!probe_agent_format_qp(&s, 0x0A090003u, out, sizeof out));
    CHECK(!strcmp(out, "qp rc 17 4096 16777215 1024 7 2 14 1 0 65535 4660 10.9.0.3 mw\n"));
}

/* The fake agent: for each pair, read one line, which must be `want`
 * (without its newline), and write `answer` (lines with newlines). */
struct exchange {
    const char *want, *answer;
};

static const struct exchange script[] = {
    {"qp rc 17 4096 8192 256 7 7 14 1 0 65535 0 10.9.0.3",
     "dev 33 10.9.0.1 02:00:0a:09:00:01\n"
     "reg A 4096 65536 100 101 15\n"
     "reg R 69632 4096 102 103 7\n"
     "reg N 73728 4096 104 105 1\n"
     "reg L 77824 65536 106 107 1\n"
     "ok\n"},
    {"recv 0 64", "ok\n"},
    {"post faa 8 8 4096 100 0 0 5", "ok\n"},
    {"poll", "cqe recv ok 16 - success\ncqe send ok 8 - success\nend\n"},
    {"mem A 0 4", "mem a5a2abac\n"},
    {"recv 65536 64", "err recv OFF LEN inside L\n"},
    {"poll", "cqe recv nonsense 16 - success\nend\n"},
    {"destroy", "ok\n"},
    /* an agent that cannot set a QP up */
    {"qp rc 17 4096 8192 256 7 7 14 1 0 65535 0 10.9.0.3",
     "err rxe_a port 1 has no RoCEv2 IPv4 GID\n"},
    /* a test that needs send-inv: R is a memory window */
    {"qp rc 17 4096 8192 256 7 7 14 1 0 65535 0 10.9.0.3 mw",
     "dev 34 10.9.0.1 02:00:0a:09:00:01\n"
     "reg A 4096 65536 100 101 15\n"
     "reg R 69632 4096 4353 103 7\n"
     "reg N 73728 4096 104 105 1\n"
     "reg L 77824 65536 106 107 1\n"
     "cap send-inv\n"
     "ok\n"},
    {"destroy", "ok\n"},
    /* an answer that misses a region */
    {"qp rc 17 4096 8192 256 7 7 14 1 0 65535 0 10.9.0.3",
     "dev 33 10.9.0.1 02:00:0a:09:00:01\nreg A 4096 65536 100 101 15\nok\n"},
    {NULL, NULL}};

static int fake_agent(int ls)
{
    int fd = accept(ls, NULL, NULL);
    if (fd < 0)
        return 10;
    FILE *in = fdopen(fd, "r");
    char line[512];
    for (const struct exchange *e = script; e->want; e++) {
        if (!fgets(line, sizeof line, in)) {
            fprintf(stderr, "fake agent: the client hung up before '%s'\n", e->want);
            return 11;
        }
        line[strcspn(line, "\n")] = 0;
        if (strcmp(line, e->want)) {
            fprintf(stderr, "fake agent: got '%s', want '%s'\n", line, e->want);
            return 12;
        }
        if (write(fd, e->answer, strlen(e->answer)) != (ssize_t)strlen(e->answer))
            return 13;
    }
    return fgets(line, sizeof line, in) ? 14 : 0; /* nothing more */
}

static void conversation(void)
{
    int ls = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t al = sizeof a;
    if (ls < 0 || bind(ls, (struct sockaddr *)&a, sizeof a) || listen(ls, 1) ||
        getsockname(ls, (struct sockaddr *)&a, &al)) {
        printf("SKIP conversation: no loopback TCP socket\n");
        return;
    }
    pid_t pid = fork();
    if (pid == 0)
        _exit(fake_agent(ls));
    close(ls);
    char hp[64], err[256];
    snprintf(hp, sizeof hp, "127.0.0.1:%u", ntohs(a.sin_port));
    const uint8_t pmac[6] = {2, 0, 0x0a, 9, 0, 3};
    struct probe_agent *ag = probe_agent_client(hp, 0x0A090003u, pmac, err, sizeof err);
    CHECK(ag != NULL);
    if (!ag) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        return;
    }
    struct probe_setup s;
    memset(&s, 0, sizeof s);
    s.probe_qpn = 0x11;
    s.rq_psn = 0x1000;
    s.sq_psn = 0x2000;
    s.pmtu = 256;
    s.retry_cnt = s.rnr_retry = 7;
    s.timeout = 14;
    s.min_rnr_timer = 1;
    s.pkey = 0xFFFF;
    struct probe_dev d;
    CHECK(!ag->open(ag->ctx, &s, &d, err, sizeof err));
    CHECK(d.qpn == 33 && d.dev_ip4 == 0x0A090001u && d.dev_mac[5] == 1);
    CHECK(d.probe_ip4 == 0x0A090003u && !memcmp(d.probe_mac, pmac, 6));
    CHECK(d.reg[PR_A].va == 4096 && d.reg[PR_A].rkey == 100 && d.reg[PR_L].lkey == 107);
    CHECK(d.reg[PR_N].access == 1 && d.reg[PR_R].len == 4096);
    CHECK((d.caps & PROBE_CAP_ATOMIC) && !(d.caps & PROBE_CAP_VTIME) &&
          !(d.caps & PROBE_CAP_RD_LIMIT));
    CHECK(!ag->post_recv(ag->ctx, 0, 64));
    struct probe_wr wr;
    memset(&wr, 0, sizeof wr);
    wr.op = PROBE_WR_FAA;
    wr.local_off = 8;
    wr.len = 8;
    wr.remote_va = 4096;
    wr.rkey = 100;
    wr.swap = 5;
    CHECK(!ag->post_send(ag->ctx, &wr));
    struct probe_cqe c[2];
    CHECK(ag->poll(ag->ctx, c, 1) == 1 && c[0].recv && c[0].len == 16);
    CHECK(ag->poll(ag->ctx, c, 1) == 1 && !c[0].recv && c[0].len == 8); /* kept */
    uint8_t m[4];
    CHECK(!ag->mem_read(ag->ctx, PR_A, 0, m, 4));
    CHECK(m[0] == 0xa5 && m[3] == 0xac);
    CHECK(ag->post_recv(ag->ctx, 65536, 64) < 0);
    CHECK(strstr(probe_agent_client_error(ag), "inside L") != NULL);
    CHECK(ag->poll(ag->ctx, c, 2) < 0);
    ag->close(ag->ctx);
    CHECK(ag->open(ag->ctx, &s, &d, err, sizeof err) < 0);
    CHECK(strstr(err, "no RoCEv2 IPv4 GID") != NULL);
    s.needs = PROBE_CAP_SEND_INV;
    CHECK(!ag->open(ag->ctx, &s, &d, err, sizeof err));
    CHECK(d.qpn == 34 && d.reg[PR_R].rkey == 4353 && (d.caps & PROBE_CAP_SEND_INV));
    ag->close(ag->ctx);
    s.needs = 0;
    CHECK(ag->open(ag->ctx, &s, &d, err, sizeof err) < 0);
    CHECK(strstr(err, "not every region") != NULL);
    probe_agent_client_free(ag);
    int st = 0;
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    parsing();
    conversation();
    char err[128];
    CHECK(!probe_agent_client("nocolon", 1, (const uint8_t *)"\0\0\0\0\0\0", err,
                              sizeof err));
    CHECK(strstr(err, "HOST:PORT") != NULL);
    if (failures) {
        fprintf(stderr, "%d checks failed\n", failures);
        return 1;
    }
    printf("probe agent client: all checks passed\n");
    return 0;
}
