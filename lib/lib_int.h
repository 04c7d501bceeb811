/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lib_int.h - what the files of libibwire share; not installed, not ABI.
 */
#ifndef IBWIRE_LIB_INT_H
#define IBWIRE_LIB_INT_H

#include <stddef.h>
#include <stdint.h>

#include "capture.h"
#include "ibwire_lib.h"

/* Frames larger than this are refused (IBWIRE_E_ARG): no link type carries
 * one, and it keeps every length in 32 bits. */
#define LIB_MAX_FRAME (1u << 24)

/* Check a frame handed in by a caller and describe it as the capture
 * reader would (cap_locate_iba): 0, or IBWIRE_E_ARG / IBWIRE_E_LINKTYPE.
 * cf->raw points at `frame`; number and times are the caller's. */
int lib_frame_describe(struct cap_frame *cf, const uint8_t *frame,
                       size_t caplen, size_t origlen, int link,
                       uint64_t ts_ns);

#endif
