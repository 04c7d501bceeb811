/* SPDX-License-Identifier: Apache-2.0 */
/* dump_out.c - buffered output and tshark-style value formatting. */
#include <arpa/inet.h>
#include <stdarg.h>
#include <string.h>
#include <sys/socket.h>

#include "dump.h"

void dump_out_flush(struct dump_out *o)
{
    if (o->n && fwrite(o->buf, 1, o->n, o->f) != o->n)
        o->failed = 1;
    o->n = 0;
}

void dump_out_mem(struct dump_out *o, const void *p, size_t n)
{
    if (n > sizeof o->buf - o->n) {
        dump_out_flush(o);
        if (n > sizeof o->buf) {
            if (fwrite(p, 1, n, o->f) != n)
                o->failed = 1;
            return;
        }
    }
    memcpy(o->buf + o->n, p, n);
    o->n += n;
}

void dump_out_str(struct dump_out *o, const char *s)
{
    dump_out_mem(o, s, strlen(s));
}

void dump_out_char(struct dump_out *o, char c)
{
    if (o->n == sizeof o->buf)
        dump_out_flush(o);
    o->buf[o->n++] = c;
}

/* "00" "01" ... "99": two digits per division in dump_out_dec(), which
 * prints a number on every line of the common -T fields dumps. */
static const char digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536"
    "37383940414243444546474849505152535455565758596061626364656667686970717273"
    "7475767778798081828384858687888990919293949596979899";

void dump_out_dec(struct dump_out *o, uint64_t v)
{
    char tmp[20];
    size_t i = sizeof tmp;
    while (v >= 100) {
        unsigned d = (unsigned)(v % 100) * 2;
        v /= 100;
        tmp[--i] = digit_pairs[d + 1];
        tmp[--i] = digit_pairs[d];
    }
    if (v >= 10) {
        tmp[--i] = digit_pairs[v * 2 + 1];
        tmp[--i] = digit_pairs[v * 2];
    } else {
        tmp[--i] = (char)('0' + v);
    }
    if (sizeof o->buf - o->n >= sizeof tmp) { /* the usual case: no flush */
        memcpy(o->buf + o->n, tmp + i, sizeof tmp - i);
        o->n += sizeof tmp - i;
        return;
    }
    dump_out_mem(o, tmp + i, sizeof tmp - i);
}

static const char hexdig[] = "0123456789abcdef";

void dump_out_hex(struct dump_out *o, uint64_t v, unsigned digits)
{
    char tmp[18] = {'0', 'x'};
    if (digits > 16)
        digits = 16;
    for (unsigned i = 0; i < digits; i++)
        tmp[2 + digits - 1 - i] = hexdig[(v >> (4 * i)) & 0xF];
    dump_out_mem(o, tmp, 2 + digits);
}

void dump_out_bytes_hex(struct dump_out *o, const uint8_t *p, size_t n,
                        char sep)
{
    for (size_t i = 0; i < n; i++) {
        if (sep && i)
            dump_out_char(o, sep);
        dump_out_char(o, hexdig[p[i] >> 4]);
        dump_out_char(o, hexdig[p[i] & 0xF]);
    }
}

void dump_out_json_str(struct dump_out *o, const char *s)
{
    dump_out_char(o, '"');
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        switch (*c) {
        case '"': dump_out_str(o, "\\\""); break;
        case '\\': dump_out_str(o, "\\\\"); break;
        case '\n': dump_out_str(o, "\\n"); break;
        case '\r': dump_out_str(o, "\\r"); break;
        case '\t': dump_out_str(o, "\\t"); break;
        default:
            if (*c < 0x20 || *c == 0x7F) {
                dump_out_str(o, "\\u00");
                dump_out_char(o, hexdig[*c >> 4]);
                dump_out_char(o, hexdig[*c & 0xF]);
            } else {
                dump_out_char(o, (char)*c);
            }
        }
    }
    dump_out_char(o, '"');
}

void dump_out_printf(struct dump_out *o, const char *fmt, ...)
{
    char tmp[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    dump_out_mem(o, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

void dump_out_value(struct dump_out *o, enum dump_type t,
                    const struct dump_val *v)
{
    char addr[INET6_ADDRSTRLEN];
    switch (t) {
    case DT_DEC: dump_out_dec(o, v->u); break;
    case DT_HEX8: dump_out_hex(o, v->u, 2); break;
    case DT_HEX16: dump_out_hex(o, v->u, 4); break;
    case DT_HEX24: dump_out_hex(o, v->u, 6); break;
    case DT_HEX32: dump_out_hex(o, v->u, 8); break;
    case DT_HEX64: dump_out_hex(o, v->u, 16); break;
    case DT_BOOL: dump_out_char(o, v->u ? '1' : '0'); break;
    case DT_BYTES: dump_out_bytes_hex(o, v->p, v->len, 0); break;
    case DT_ETHER: dump_out_bytes_hex(o, v->p, v->len, ':'); break;
    case DT_IPV4:
    case DT_IPV6:
        if (inet_ntop(t == DT_IPV4 ? AF_INET : AF_INET6, v->p, addr,
                      sizeof addr))
            dump_out_str(o, addr);
        break;
    case DT_STRING: dump_out_str(o, v->s ? v->s : ""); break;
    case DT_TIME: {
        char frac[10];
        uint64_t ns = v->len;
        dump_out_dec(o, v->u);
        for (int i = 8; i >= 0; i--) {
            frac[1 + i] = (char)('0' + ns % 10);
            ns /= 10;
        }
        frac[0] = '.';
        dump_out_mem(o, frac, sizeof frac);
        break;
    }
    }
}
