/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_lib_checker - the checker ABI against the bundled verdicts: every
 * capture of pcaps/ (NAME.pcap with NAME.expect beside it), read with
 * libpcap directly and fed frame by frame through ibwire_checker_feed(),
 * must give exactly the findings (frame, rule, in order) and the exit
 * status its .expect file states.  Also: the flow callback sees each flow
 * once, its JSON object parses as the members ibwire_flow_uint() gives,
 * and the calls refuse what they must.
 *
 *   test_lib_checker PCAPS_DIR
 */
#include <dirent.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibwire_lib.h"
#include "testutil.h"


/* What the callbacks saw of one capture. */
struct seen {
    char text[65536]; /* "finding N RULE\n"..., as the .expect writes them */
    size_t len;
    uint64_t flows, last_flow_id;
    int flow_order_ok;
};

static void on_finding(void *user, uint64_t frame, const char *rule,
                       int severity, const char *message, uint64_t flow_id)
{
    struct seen *s = user;
    (void)flow_id;
    if (severity < 1 || severity > 2 || !message)
        tu_failures++;
    if (s->len < sizeof s->text)
        s->len += (size_t)snprintf(s->text + s->len, sizeof s->text - s->len,
                                   "finding %llu %s\n",
                                   (unsigned long long)frame, rule);
}

static void on_flow(void *user, const ibwire_flow *f)
{
    struct seen *s = user;
    uint64_t id = 0, first = 0, last = 0;
    char json[4096];
    s->flows++;
    TU_CHECK(ibwire_flow_uint(f, "id", &id) == 1);
    TU_CHECK(ibwire_flow_uint(f, "first_frame", &first) == 1);
    TU_CHECK(ibwire_flow_uint(f, "last_frame", &last) == 1);
    TU_CHECK(first <= last);
    TU_CHECK(ibwire_flow_text(f, "transport") != NULL);
    TU_CHECK(ibwire_flow_text(f, "requester") != NULL);
    TU_CHECK(ibwire_flow_uint(f, "no_such_member", &id) == 0);
    int n = ibwire_flow_json(f, json, sizeof json);
    TU_CHECK(n > 0 && json[0] == '{' && json[n - 1] == '}');
    /* the JSON's first_frame is the member's */
    char want[64];
    snprintf(want, sizeof want, "\"first_frame\": %llu,",
             (unsigned long long)first);
    TU_CHECK(n > 0 && strstr(json, want) != NULL);
    TU_CHECK(ibwire_flow_json(f, json, 4) == IBWIRE_E_NOSPACE);
}

/* The .expect file without its comment lines. */
static size_t read_expect(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    size_t n = 0;
    char line[512];
    if (!f)
        return (size_t)-1;
    while (fgets(line, sizeof line, f))
        if (line[0] != '#' && n + strlen(line) < cap)
            n += (size_t)snprintf(buf + n, cap - n, "%s", line);
    fclose(f);
    return n;
}

static int check_one(const char *dir, const char *name)
{
    char path[4096], exp[4096], want[65536], errbuf[PCAP_ERRBUF_SIZE];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(exp, sizeof exp, "%s", path);
    char *dot = strrchr(exp, '.');
    snprintf(dot, sizeof exp - (size_t)(dot - exp), ".expect");
    size_t wlen = read_expect(exp, want, sizeof want);
    if (wlen == (size_t)-1)
        return 0; /* no verdict to compare with */
    pcap_t *pc = pcap_open_offline_with_tstamp_precision(
        path, PCAP_TSTAMP_PRECISION_NANO, errbuf);
    if (!pc) {
        fprintf(stderr, "%s: %s\n", path, errbuf);
        return 1;
    }
    static struct seen s;
    memset(&s, 0, sizeof s);
    ibwire_checker *c = ibwire_checker_new();
    TU_CHECK(c != NULL);
    TU_CHECK(ibwire_checker_on_finding(c, on_finding, &s) == 0);
    TU_CHECK(ibwire_checker_on_flow(c, on_flow, &s) == 0);
    struct pcap_pkthdr *h;
    const u_char *data;
    int link = pcap_datalink(pc);
    while (pcap_next_ex(pc, &h, &data) == 1) {
        uint64_t ts = (uint64_t)h->ts.tv_sec * 1000000000u +
                      (uint64_t)h->ts.tv_usec; /* nanoseconds, as opened */
        TU_CHECK(ibwire_checker_feed(c, data, h->caplen, h->len, link, ts) == 0);
    }
    pcap_close(pc);
    /* options are fixed once frames came */
    TU_CHECK(ibwire_checker_set_pmtu(c, 1024) == IBWIRE_E_STATE);
    TU_CHECK(ibwire_checker_finish(c) == 0);
    TU_CHECK(ibwire_checker_feed(c, (const uint8_t *)"", 0, 0, 1, 0) ==
           IBWIRE_E_STATE);
    TU_CHECK(ibwire_checker_count(c, "flows") == s.flows);
    int status = ibwire_checker_count(c, "errors") ? 1 : 0;
    s.len += (size_t)snprintf(s.text + s.len, sizeof s.text - s.len,
                              "exit %d\n", status);
    int bad = s.len != wlen || memcmp(s.text, want, wlen) != 0;
    if (bad)
        fprintf(stderr, "%s: differs from %s; got:\n%s", name, exp, s.text);
    ibwire_checker_free(c);
    return bad;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_lib_checker PCAPS_DIR\n");
        return 2;
    }
    /* the calls refuse what they must */
    TU_CHECK(ibwire_checker_feed(NULL, NULL, 0, 0, 1, 0) == IBWIRE_E_ARG);
    TU_CHECK(ibwire_checker_finish(NULL) == IBWIRE_E_ARG);
    ibwire_checker *c = ibwire_checker_new();
    TU_CHECK(ibwire_checker_set_pmtu(c, 1000) == IBWIRE_E_RANGE);
    TU_CHECK(ibwire_checker_set_pmtu(c, 2048) == 0);
    TU_CHECK(ibwire_checker_feed(c, NULL, 10, 0, 1, 0) == IBWIRE_E_ARG);
    TU_CHECK(ibwire_checker_feed(c, (const uint8_t *)"x", 1, 0, 999, 0) ==
           IBWIRE_E_LINKTYPE);
    TU_CHECK(ibwire_checker_feed_file(c, "/nonexistent.pcap") == IBWIRE_E_IO);
    TU_CHECK(ibwire_checker_error(c) != NULL);
    ibwire_checker_free(c);

    DIR *d = opendir(argv[1]);
    if (!d) {
        fprintf(stderr, "%s: cannot open\n", argv[1]);
        return 1;
    }
    char *names[512];
    size_t n = 0;
    struct dirent *de;
    while ((de = readdir(d)) && n < 512) {
        size_t l = strlen(de->d_name);
        if ((l > 5 && !strcmp(de->d_name + l - 5, ".pcap")) ||
            (l > 7 && !strcmp(de->d_name + l - 7, ".pcapng")))
            names[n++] = strdup(de->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_names);
    unsigned compared = 0, differ = 0;
    for (size_t i = 0; i < n; i++) {
        differ += (unsigned)check_one(argv[1], names[i]);
        compared++;
        free(names[i]);
    }
    printf("%u captures, %u differ from their verdicts, %d other failures\n",
           compared, differ, tu_failures);
    return differ || tu_failures || compared == 0;
}
