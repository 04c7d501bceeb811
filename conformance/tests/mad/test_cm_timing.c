/* SPDX-License-Identifier: Apache-2.0 */
/*
 * M4: CM timing, UESTC thesis (2017) eq. 3-1 ... 3-5.  Every expected value is
 * worked out by hand in the comment next to it: t = 4.096 us * 2^x = 4096 ns
 * << x.
 */
#include "ibwire/cm.h"
#include "testutil.h"

#define MS 1000000ULL /* ns per ms */

static void test_eq_3_1(void)
{
    TU_EQ(ibw_cm_timeout_ns(0), 4096);              /* 4.096 us */
    TU_EQ(ibw_cm_timeout_ns(1), 8192);              /* 8.192 us */
    TU_EQ(ibw_cm_timeout_ns(10), 4194304);          /* 4096 * 1024 */
    TU_EQ(ibw_cm_timeout_ns(14), 67108864);         /* 4096 * 16384: 67.108864 ms */
    TU_EQ(ibw_cm_timeout_ns(18), 1073741824);       /* 4096 * 262144: 1.07 s */
    TU_EQ(ibw_cm_timeout_ns(20), 4294967296ULL);    /* 4096 * 1048576 = 2^32 */
    TU_EQ(ibw_cm_timeout_ns(31), 8796093022208ULL); /* 2^12 * 2^31 = 2^43 */
    TU_EQ(ibw_cm_timeout_ns(32), UINT64_MAX);       /* not a 5-bit code */

    TU_EQ(ibw_cm_timeout_us(0), 4);                 /* 4.096 rounded down */
    TU_EQ(ibw_cm_timeout_us(3), 32);                /* 32.768 */
    TU_EQ(ibw_cm_timeout_us(14), 67108);            /* 67108.864 */
    TU_EQ(ibw_cm_timeout_us(20), 4294967);          /* 4294967.296 */
    TU_EQ(ibw_cm_timeout_us(31), 8796093022ULL);    /* 8796093022.208 */
    TU_EQ(ibw_cm_timeout_us(40), UINT64_MAX);

    /* the inverse: the smallest code that waits at least that long */
    TU_EQ(ibw_cm_timeout_code(0), 0);
    TU_EQ(ibw_cm_timeout_code(1), 0);
    TU_EQ(ibw_cm_timeout_code(4096), 0);
    TU_EQ(ibw_cm_timeout_code(4097), 1);
    TU_EQ(ibw_cm_timeout_code(67108864), 14);
    TU_EQ(ibw_cm_timeout_code(67108865), 15);
    TU_EQ(ibw_cm_timeout_code(1 * MS), 8);  /* 2^8 * 4096 = 1048576 >= 1e6 */
    TU_EQ(ibw_cm_timeout_code(UINT64_MAX), 31);
}

static void test_waits(void)
{
    /* 3-2: RemoteCMResponseTimeout 20, t_max 1 ms:
     * 4294967296 + 2 * 1000000 = 4296967296 ns */
    TU_EQ(ibw_cm_client_wait_ns(20, 1 * MS), 4296967296ULL);
    /* 3-3: MRA ServiceTimeout 14, t_max 1 ms: 67108864 + 1000000 */
    TU_EQ(ibw_cm_client_mra_wait_ns(14, 1 * MS), 68108864ULL);
    /* 3-4: LocalCMResponseTimeout 18, t_max 1 ms: 1073741824 + 2000000 */
    TU_EQ(ibw_cm_server_wait_ns(18, 1 * MS), 1075741824ULL);
    /* 3-5: service timeout 16, t_max 1 ms: 268435456 + 1000000 */
    TU_EQ(ibw_cm_server_mra_wait_ns(16, 1 * MS), 269435456ULL);
    /* t_max 0 leaves eq. 3-1 */
    TU_EQ(ibw_cm_client_wait_ns(0, 0), 4096);
    TU_EQ(ibw_cm_server_mra_wait_ns(5, 0), 131072); /* 4096 * 32 */
    /* 3-2 with t_max 250 us and timeout 10: 4194304 + 500000 = 4694304 */
    TU_EQ(ibw_cm_client_wait_ns(10, 250000), 4694304ULL);

    /* saturation instead of wrap-around */
    TU_EQ(ibw_cm_client_wait_ns(31, UINT64_MAX / 2 + 1), UINT64_MAX);
    TU_EQ(ibw_cm_client_mra_wait_ns(31, UINT64_MAX - 10), UINT64_MAX);
    TU_EQ(ibw_cm_server_wait_ns(40, 0), UINT64_MAX);

    /* read off the messages */
    struct ibw_cm_req req;
    memset(&req, 0, sizeof req);
    req.remoteresptout = 20;
    req.localresptout = 18;
    TU_EQ(ibw_cm_req_client_wait_ns(&req, 1 * MS), 4296967296ULL);
    TU_EQ(ibw_cm_req_server_wait_ns(&req, 1 * MS), 1075741824ULL);
    struct ibw_cm_mra mra;
    memset(&mra, 0, sizeof mra);
    mra.servicetimeout = 14;
    TU_EQ(ibw_cm_mra_wait_ns(&mra, 1 * MS), 68108864ULL);
}

int main(void)
{
    test_eq_3_1();
    test_waits();
    return tu_done("cm_timing");
}
