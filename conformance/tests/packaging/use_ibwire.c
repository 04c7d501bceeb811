/* SPDX-License-Identifier: Apache-2.0 */
/* A consumer of the installed or subproject ibwire: it must compile with
 * nothing but the dependency's flags, and decode a BTH correctly. */
#include <ibwire.h>
#include <stdio.h>

int main(void)
{
    /* RC SEND ONLY to QP 0x12, PSN 7, P_Key 0xFFFF (IBA 9.2, by hand) */
    static const uint8_t bth[12] = {0x04, 0x00, 0xFF, 0xFF, 0x00, 0x00,
                                    0x00, 0x12, 0x00, 0x00, 0x00, 0x07};
    struct ibw_bth h;
    if (ibw_bth_decode(bth, sizeof bth, &h) != IBW_OK)
        return 1;
    printf("ibwire %s: opcode %u qp %u psn %u\n", IBW_VERSION_STRING,
           (unsigned)h.opcode, (unsigned)h.destqp, (unsigned)h.psn);
    return (h.opcode == 4 && h.destqp == 0x12 && h.psn == 7) ? 0 : 1;
}
