/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire.h - the umbrella header: InfiniBand and RoCE wire formats, MADs,
 * host-interface formats and the HanGu RDMA engine's internal records.
 *
 * Header-only, C11, no allocation, no global state.  Include this, or only
 * the family header you need from ibwire/.  Every public name starts with
 * ibw_ / IBW_; names with a double underscore are internal.
 */
#ifndef IBWIRE_H
#define IBWIRE_H

#include "ibwire/base.h"
#include "ibwire/cm.h"
#include "ibwire/crc.h"
#include "ibwire/framing.h"
#include "ibwire/host.h"
#include "ibwire/mad.h"
#include "ibwire/opcode.h"
#include "ibwire/packet.h"
#include "ibwire/records.h"
#include "ibwire/registry.h"
#include "ibwire/wire.h"

#endif /* IBWIRE_H */
