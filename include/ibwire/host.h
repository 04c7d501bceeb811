/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire/host.h - the host interface (catalog H1-H7): send and receive
 * WQEs and the WQE walker (host_wqe.h), CQEs and work completions
 * (host_cqe.h), the ConnectX-3 GMP WQE, CQE, HCR and UAR doorbells
 * (host_cx3.h), work requests and their WQE bytes (host_wr.h).
 */
#ifndef IBWIRE_HOST_H
#define IBWIRE_HOST_H

#include "host_wqe.h"
#include "host_cqe.h"
#include "host_cx3.h"
#include "host_wr.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The host-interface formats (H1-H6) as an X-macro list of format
 * prefixes, for the registry (IBW__REGISTRY_FAMILIES in registry.h). */
#define IBW_HOST_FORMATS(X)                                                   \
    X(ibw_wqe_next)                                                           \
    X(ibw_wqe_raddr)                                                          \
    X(ibw_wqe_atomic)                                                         \
    X(ibw_wqe_ud)                                                             \
    X(ibw_wqe_data)                                                           \
    X(ibw_wqe_inline)                                                         \
    X(ibw_wqe_bind)                                                           \
    X(ibw_cx3_gmp_ctrl)                                                       \
    X(ibw_cx3_data)                                                           \
    X(ibw_hg_cqe)                                                             \
    X(ibw_hg_err_cqe)                                                         \
    X(ibw_hg_err_cqe_doc)                                                     \
    X(ibw_cx3_cqe)                                                            \
    X(ibw_cx3_err_cqe)                                                        \
    X(ibw_hcr)                                                                \
    X(ibw_uar_send_db)                                                        \
    X(ibw_uar_cq_db)

#ifdef __cplusplus
}
#endif

#endif /* IBWIRE_HOST_H */
