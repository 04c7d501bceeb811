/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibw_format_same() recognises a format whose descriptor table came from
 * another translation unit (a static copy of its own), and tells two
 * different formats apart.
 */
#include "ibwire/registry.h"
#include "testutil.h"

const struct ibw_format *other_bth_format(void);
const struct ibw_format *other_sq_doorbell_format(void);

int main(void)
{
    const struct ibw_format *bth = other_bth_format();
    const struct ibw_format *db = other_sq_doorbell_format();

    TU_CHECK(ibw_format_same(bth, ibw_bth_format()));
    TU_CHECK(ibw_format_same(db, ibw_registry_find("sq_doorbell")));
    TU_CHECK(!ibw_format_same(bth, db));
    TU_CHECK(!ibw_format_same(bth, ibw_reth_format()));
    TU_CHECK(!ibw_format_same(bth, NULL));
    TU_CHECK(ibw_format_same(NULL, NULL));
    return tu_done("format_same");
}
