/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A second translation unit for test_format_same: it hands out its own
 * copies of two descriptor tables.
 */
#include "ibwire/registry.h"

const struct ibw_format *other_bth_format(void);
const struct ibw_format *other_sq_doorbell_format(void);

const struct ibw_format *other_bth_format(void) { return ibw_bth_format(); }
const struct ibw_format *other_sq_doorbell_format(void)
{
    return ibw_registry_find("sq_doorbell");
}
