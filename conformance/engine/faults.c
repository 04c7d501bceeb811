/* SPDX-License-Identifier: Apache-2.0 */
/* faults.c - the fault-mode table of faults.h and its parsing. */
#include "faults.h"

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

int ibe_fault_parse(const char *list, uint64_t *mask, const char **bad)
{
    uint64_t m = 0;
    const char *p = list;
    *bad = list;
    if (!p || !*p)
        return -1;
    while (*p) {
        size_t n = strcspn(p, ",");
        unsigned k;
        for (k = 0; k < IBE_FAULT_COUNT; k++)
            if (strlen(ibe_fault_table[k].name) == n &&
                !strncmp(p, ibe_fault_table[k].name, n))
                break;
        if (k == IBE_FAULT_COUNT) {
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
