/* SPDX-License-Identifier: Apache-2.0 */
/* dump_out.c - buffered output and tshark-style value formatting. */
#include <arpa/inet.h>
#include <stdarg.h>
#include <string.h>
#include <sys/socket.h>

#include "dump.h"

void dump_out_flush(struct dump_out *o)
{
    /* a buffer with no stream (one value rendered into memory) cannot
     * spill: what does not fit is lost and said so */
    if (o->n && (!o->f || fwrite(o->buf, 1, o->n, o->f) != o->n))
        o->failed = 1;
    o->n = 0;
}

void dump_out_mem(struct dump_out *o, const void *p, size_t n)
{
    if (n > sizeof o->buf - o->n) {
        dump_out_flush(o);
        if (n > sizeof o->buf) {
            if (!o->f || fwrite(p, 1, n, o->f) != n)
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

size_t dump_hex_len(size_t n, char sep)
{
    return n == 0 ? 0 : sep ? 3 * n - 1 : 2 * n;
}

char *dump_hex_chars(char *dst, const uint8_t *p, size_t n, char sep)
{
    for (size_t i = 0; i < n; i++) {
        if (sep && i)
            *dst++ = sep;
        *dst++ = hexdig[p[i] >> 4];
        *dst++ = hexdig[p[i] & 0xF];
    }
    return dst;
}

void dump_out_bytes_hex(struct dump_out *o, const uint8_t *p, size_t n,
                        char sep)
{
    /* in slices, each rendered whole and copied in at once */
    enum { SLICE = 512 };
    char tmp[3 * SLICE];
    for (size_t done = 0; done < n;) {
        size_t k = n - done < SLICE ? n - done : SLICE;
        char *at = tmp;
        if (sep && done)
            *at++ = sep;
        at = dump_hex_chars(at, p + done, k, sep);
        dump_out_mem(o, tmp, (size_t)(at - tmp));
        done += k;
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

int dump_value_text(struct dump_out *o, enum dump_type t,
                    const struct dump_val *v, char *buf, size_t cap,
                    size_t *len)
{
    if (t == DT_BYTES || t == DT_ETHER) {
        /* the only values that can be long: rendered in place */
        char sep = t == DT_ETHER ? ':' : 0;
        *len = dump_hex_len(v->len, sep);
        if (*len >= cap)
            return -1;
        *dump_hex_chars(buf, v->p, v->len, sep) = '\0';
        return 0;
    }
    /* everything else is a few dozen characters at most (a string value is
     * a message or a name) */
    o->f = NULL;
    o->n = 0;
    o->failed = 0;
    dump_out_value(o, t, v);
    int rc = 0;
    *len = o->n;
    if (o->failed || o->n >= cap)
        rc = -1;
    else {
        memcpy(buf, o->buf, o->n);
        buf[o->n] = '\0';
    }
    return rc;
}
