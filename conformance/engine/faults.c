/* SPDX-License-Identifier: Apache-2.0 */
/* faults.c - the fault-mode table of faults.h, the open choices of
 * choices.h, and their parsing. */
#include "faults.h"
#include "choices.h"

#include <stdlib.h>
#include <string.h>

const struct ibe_fault_info ibe_fault_table[IBE_FAULT_COUNT] = {
#define IBE_FAULT_ROW(E, n, z, s, r, nd, t, d) {n, z, s, r, nd, t, d},
    IBE_FAULTS(IBE_FAULT_ROW)
#undef IBE_FAULT_ROW
};

const struct ibe_fault_gap ibe_fault_gaps[] = {
#define IBE_FAULT_GAP_ROW(z, r, w) {z, r, w},
    IBE_FAULT_GAPS(IBE_FAULT_GAP_ROW)
#undef IBE_FAULT_GAP_ROW
};

const unsigned ibe_fault_ngaps = sizeof ibe_fault_gaps / sizeof ibe_fault_gaps[0];

/* "name[,name...]" against the names name(0..count-1): the mask of the
 * names' indices added to *mask, or -1 with *bad at the unknown one. */
static int parse_names(const char *list, const char *(*name)(unsigned),
                       unsigned count, uint64_t *mask, const char **bad)
{
    uint64_t m = 0;
    const char *p = list;
    *bad = list;
    if (!p || !*p)
        return -1;
    while (*p) {
        size_t n = strcspn(p, ",");
        unsigned k;
        for (k = 0; k < count; k++)
            if (strlen(name(k)) == n && !strncmp(p, name(k), n))
                break;
        if (k == count) {
            *bad = p;
            return -1;
        }
        m |= 1ull << k;
        p += n;
        if (*p == ',')
            p++;
    }
    *mask |= m;
    return 0;
}

static const char *fault_name(unsigned k) { return ibe_fault_table[k].name; }

int ibe_fault_parse(const char *list, uint64_t *mask, const char **bad)
{
    return parse_names(list, fault_name, IBE_FAULT_COUNT, mask, bad);
}

/* ---- the open choices of choices.h ---- */

const struct ibe_choice_info ibe_choice_table[IBE_CHOICE_COUNT] = {
#define IBE_CHOICE_ROW(E, n, st, s, t, d) {n, st, s, t, d},
    IBE_CHOICES(IBE_CHOICE_ROW)
#undef IBE_CHOICE_ROW
};

static const char *choice_name(unsigned k) { return ibe_choice_table[k].name; }

int ibe_choice_parse(const char *list, uint64_t *mask, const char **bad)
{
    return parse_names(list, choice_name, IBE_CHOICE_COUNT, mask, bad);
}

uint64_t ibe_fault_side_mask(uint64_t mask, int side)
{
    uint64_t out = 0;
    for (unsigned k = 0; k < IBE_FAULT_COUNT; k++)
        if ((mask >> k & 1) && ibe_fault_table[k].side == side)
            out |= 1ull << k;
    return out;
}

uint32_t ibe_fault_traffic(uint64_t mask)
{
    uint32_t t = 0;
    for (unsigned k = 0; k < IBE_FAULT_COUNT; k++)
        if (mask >> k & 1)
            t |= ibe_fault_table[k].traffic;
    return t;
}

const char *ibe_fault_side_name(int side)
{
    return side == IBE_FS_REQ ? "requester" : "responder";
}

/* Zoo rows in the bug zoo's order: "6a" after "6", before "7". */
static int zoo_cmp(const char *a, const char *b)
{
    long x = strtol(a, NULL, 10), y = strtol(b, NULL, 10);
    if (x != y)
        return x < y ? -1 : 1;
    return strcmp(a, b);
}

void ibe_fault_write_markdown(FILE *out)
{
    fprintf(out, "| zoo row | fault mode (`ibwire sim --fault`) | side | rule | "
           "what the fault does |\n|---|---|---|---|---|\n");
    const char *last = "";
    for (;;) {
        const char *next = NULL;
        for (unsigned k = 0; k < IBE_FAULT_COUNT; k++) {
            const char *z = ibe_fault_table[k].zoo;
            if (zoo_cmp(z, last) > 0 && (!next || zoo_cmp(z, next) < 0))
                next = z;
        }
        for (unsigned k = 0; k < ibe_fault_ngaps; k++) {
            const char *z = ibe_fault_gaps[k].zoo;
            if (zoo_cmp(z, last) > 0 && (!next || zoo_cmp(z, next) < 0))
                next = z;
        }
        if (!next)
            break;
        for (unsigned k = 0; k < IBE_FAULT_COUNT; k++) {
            const struct ibe_fault_info *f = &ibe_fault_table[k];
            if (!strcmp(f->zoo, next))
                fprintf(out, "| %s | %s | %s | %s%s | %s |\n", f->zoo, f->name,
                       ibe_fault_side_name(f->side),
                       strcmp(f->rule, "-") ? f->rule : "none yet",
                       f->needs == IBE_FN_REPLAY ? " (--replay)" : "", f->what);
        }
        for (unsigned k = 0; k < ibe_fault_ngaps; k++)
            if (!strcmp(ibe_fault_gaps[k].zoo, next))
                fprintf(out, "| %s | no fault mode | - | %s | %s |\n", next,
                       ibe_fault_gaps[k].rule, ibe_fault_gaps[k].why);
        last = next;
    }
}
