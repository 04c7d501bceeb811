/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bitwidth_rtl.h - the Verilated 256To64Trans and 64To256Trans
 * (bitwidth_*.sv) behind the engine's converter interface (struct
 * eng_bw_core in eng.h): records in and out as their packed bus images
 * (E25: 9 words, 258 bits; E24: 3 words, 72 bits).  Built with
 * -Dengine_rtl (meson_options.txt); an engine uses it when the environment
 * has IBWIRE_ENGINE_RTL=1.
 */
#ifndef IBW_ENGINE_BITWIDTH_RTL_H
#define IBW_ENGINE_BITWIDTH_RTL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void *eng_bw_rtl_new(void); /* NULL: no memory */
void eng_bw_rtl_free(void *model);
/* One E25 word of which nbytes (1..32) are valid -> the E24 words out;
 * returns how many (1..4). */
unsigned eng_bw_rtl_down(void *model, const uint32_t *e25, unsigned nbytes,
                         uint32_t e24[4][3]);
/* One E24 word in; 1 when an E25 word comes out (and the packet's bytes so
 * far in *bytes), 0 while it gathers. */
int eng_bw_rtl_up(void *model, const uint32_t *e24, uint32_t *e25,
                  uint32_t *bytes);

/* Clock cycles all models have run in this process (tests use it to see
 * that the RTL did the work). */
uint64_t eng_bw_rtl_cycles(void);

#ifdef __cplusplus
}
#endif

#endif
