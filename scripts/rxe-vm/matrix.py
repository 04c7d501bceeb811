#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The workload matrix of scripts/rxe-vm.sh, one line per workload:

    NAME|NETEM_A|NETEM_B|MTU|TIMEOUT|SERVER|CLIENT

Server on rxe_a (10.9.0.1, veth_a), client on rxe_b (10.9.0.2, veth_b); GID
index 1 is ::ffff:10.9.0.x (RoCEv2).  NETEM_x is veth_x's egress netem
('-': none).  MTU is the veth MTU: rxe's active MTU is the largest IB MTU
not over it less 80 bytes of headers (400 -> 256, 1500 -> 1024, 4200 ->
4096).

tc netem on Debian 12 (iproute2 6.1, kernel 6.1) has no seed (the kernel's
TCA_NETEM_PRNG_SEED came in 6.3): the netem randomness itself is the
kernel's.  --seed N seeds the choices made here: each lossy workload's rate
in 0.5-5 %, the duplicate/corrupt/reorder rates, and the side(s) netem sits
on.  The chosen settings are in the workload list (and results table), so a
run is described exactly, not replayed bit for bit.
"""
import argparse
import random
import re
import sys

A, B = "10.9.0.1", "10.9.0.2"
MTU_FOR = {256: 400, 1024: 1500, 4096: 4200}


def perftest(tool, size=None, iters=None, rdma_cm=False, qps=None, conn=None,
             extra=""):
    """Server and client command lines of one perftest run."""
    opts = ["-F"]
    if conn:
        opts.append("-c " + conn)
    if size is not None:
        opts.append("-s %d" % size)
    if iters is not None:
        opts.append("-n %d" % iters)
    if qps:
        opts.append("-q %d" % qps)
    if rdma_cm:
        opts.append("-R")
    else:
        opts.append("-x 1")
    if extra:
        opts.append(extra)
    o = " ".join(opts)
    return ("%s -d rxe_a %s" % (tool, o), "%s -d rxe_b %s %s" % (tool, o, A))


def pingpong(kind, size, iters, mtu_ib=1024):
    o = "-g 1 -n %d -s %d" % (iters, size)
    if kind != "ud":   # ibv_ud_pingpong has no -m: the port's MTU
        o += " -m %d" % mtu_ib
    return ("ibv_%s_pingpong -d rxe_a %s" % (kind, o),
            "ibv_%s_pingpong -d rxe_b %s %s" % (kind, o, A))


def rping(count=10, size=None):
    s = " -S %d" % size if size else ""
    return ("rping -s -a %s -C %d%s" % (A, count, s),
            "rping -c -a %s -I %s -C %d%s -v" % (A, B, count, s))


def ucmatose(conns=2, count=10):
    return ("ucmatose -b %s -c %d -C %d" % (A, conns, count),
            "ucmatose -s %s -b %s -c %d -C %d" % (A, B, conns, count))


def udaddy(conns=2):
    return ("udaddy -b %s -c %d" % (A, conns), "udaddy -s %s -b %s -c %d" % (A, B, conns))


class Matrix:
    def __init__(self, seed):
        self.rnd = random.Random(seed)
        self.rows = []

    def add(self, name, cmds, na="-", nb="-", mtu=1500, timeout=90):
        name = re.sub(r"[^A-Za-z0-9_.+-]", "_", name)
        self.rows.append((name, na, nb, str(mtu), str(timeout), cmds[0], cmds[1]))

    # netem settings, parameters chosen by the seed
    def loss(self):
        return "loss %.1f%%" % self.rnd.choice([0.5, 1, 1.5, 2, 3, 4, 5])

    def side(self):
        return self.rnd.choice(["a", "b", "ab"])

    def netem(self, kind):
        r = self.rnd
        if kind == "loss":
            s = self.loss()
        elif kind == "duplicate":
            s = "duplicate %d%%" % r.choice([1, 2, 5])
        elif kind == "reorder":
            s = "delay %dms reorder %d%% 50%%" % (r.choice([5, 10]), r.choice([10, 25]))
        elif kind == "corrupt":
            s = "corrupt %.1f%%" % r.choice([0.5, 1, 2])
        elif kind == "delay":
            return ("delay %dms" % r.choice([10, 20, 40]), "-", "a")
        side = self.side()
        return (s if "a" in side else "-", s if "b" in side else "-", side)


def quick(m):
    m.add("rc_pingpong", pingpong("rc", 4096, 50))
    m.add("ud_pingpong", pingpong("ud", 512, 50))
    m.add("rping", rping(10))
    m.add("ucmatose", ucmatose(2, 10))
    m.add("write_bw_R_255", perftest("ib_write_bw", 255, 100, rdma_cm=True))
    m.add("read_bw_4096", perftest("ib_read_bw", 4096, 200))
    m.add("send_lat_255", perftest("ib_send_lat", 255, 100))
    m.add("atomic_bw", perftest("ib_atomic_bw", None, 200))
    na, nb, side = m.netem("loss")
    m.add("write_bw_4096_loss_" + side, perftest("ib_write_bw", 4096, 300), na, nb)
    na, nb, side = m.netem("loss")
    m.add("read_bw_4096_loss_" + side, perftest("ib_read_bw", 4096, 300), na, nb)
    na, nb, side = m.netem("loss")
    m.add("rping_loss_" + side, rping(20), na, nb)


def full(m):
    for kind, size in (("rc", 4096), ("uc", 4096), ("ud", 512), ("srq", 4096)):
        m.add(kind + "_pingpong", pingpong(kind, size, 100))
    m.add("rping", rping(20))
    m.add("rping_S_65000", rping(10, 65000))  # rping refuses 65536 (range check off by one)
    m.add("ucmatose", ucmatose(4, 20))
    m.add("udaddy", udaddy(4))
    # every perftest, with and without RDMA CM
    for op in ("write", "read", "send", "atomic"):
        for t in ("bw", "lat"):
            tool = "ib_%s_%s" % (op, t)
            size = None if op == "atomic" else 4096
            iters = 200 if t == "bw" else 100
            for cm in (False, True):
                m.add("%s_%s%s" % (op, t, "_R" if cm else ""),
                      perftest(tool, size, iters, rdma_cm=cm))
    # many QPs
    for op in ("write", "read", "send", "atomic"):
        size = None if op == "atomic" else 4096
        m.add("%s_bw_q8" % op, perftest("ib_%s_bw" % op, size, 200, qps=8))
    m.add("send_bw_q8_R", perftest("ib_send_bw", 4096, 200, rdma_cm=True, qps=8))
    # UC and UD through perftest
    m.add("write_bw_uc", perftest("ib_write_bw", 4096, 200, conn="UC"))
    m.add("send_bw_uc", perftest("ib_send_bw", 4096, 200, conn="UC"))
    m.add("send_bw_ud", perftest("ib_send_bw", 1024, 200, conn="UD"))
    # message sizes (PMTU 1024)
    for size in (1, 255, 256, 1023, 1024, 4096, 65536):
        it = 100 if size == 65536 else 200
        m.add("write_bw_%d" % size, perftest("ib_write_bw", size, it))
        m.add("read_bw_%d" % size, perftest("ib_read_bw", size, it))
        m.add("send_bw_%d" % size, perftest("ib_send_bw", size, it))
        m.add("write_lat_%d" % size, perftest("ib_write_lat", size, 50))
    # the capture-loss run: 64 KB x 1000 WRITEs, no netem
    m.add("write_bw_65536_x1000", perftest("ib_write_bw", 65536, 1000), timeout=180)
    # PMTU through the veth MTU
    for pmtu in (256, 1024, 4096):
        mtu = MTU_FOR[pmtu]
        for op in ("write", "read", "send"):
            for size in (pmtu - 1, pmtu, 4 * pmtu + 1, 65536):
                m.add("%s_bw_%d_pmtu%d" % (op, size, pmtu),
                      perftest("ib_%s_bw" % op, size, 100), mtu=mtu)
        m.add("rc_pingpong_pmtu%d" % pmtu, pingpong("rc", 4 * pmtu + 3, 50, pmtu), mtu=mtu)
        m.add("rping_pmtu%d" % pmtu, rping(10), mtu=mtu)
    # netem: each kind on either side and both, on the tools that resend
    loads = [
        ("write_bw_4096", lambda: perftest("ib_write_bw", 4096, 300)),
        ("read_bw_4096", lambda: perftest("ib_read_bw", 4096, 300)),
        ("send_bw_4096", lambda: perftest("ib_send_bw", 4096, 300)),
        ("read_bw_65536", lambda: perftest("ib_read_bw", 65536, 100)),
        ("write_bw_R_4096", lambda: perftest("ib_write_bw", 4096, 300, rdma_cm=True)),
        ("atomic_bw", lambda: perftest("ib_atomic_bw", None, 300)),
        ("rc_pingpong", lambda: pingpong("rc", 4096, 100)),
        ("rping", lambda: rping(20)),
        ("ucmatose", lambda: ucmatose(2, 20)),
    ]
    for kind in ("loss", "duplicate", "reorder", "corrupt", "delay"):
        for name, cmds in loads:
            na, nb, side = m.netem(kind)
            m.add("%s_%s_%s" % (name, kind, side), cmds(), na, nb,
                  timeout=150)
    # loss on each side explicitly, besides the seed's choice
    for side in ("a", "b", "ab"):
        s = m.loss()
        m.add("read_bw_4096_loss_%s_x" % side, perftest("ib_read_bw", 4096, 300),
              s if "a" in side else "-", s if "b" in side else "-", timeout=150)
        m.add("write_bw_4096_q8_loss_%s_x" % side,
              perftest("ib_write_bw", 4096, 100, qps=8),
              s if "a" in side else "-", s if "b" in side else "-", timeout=150)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", choices=("quick", "all"), default="quick")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", help="keep the workloads whose name matches")
    a = ap.parse_args()
    m = Matrix(a.seed)
    (quick if a.mode == "quick" else full)(m)
    print("# rxe-vm workloads: mode %s, seed %d" % (a.mode, a.seed))
    for r in m.rows:
        if a.only and not re.search(a.only, r[0]):
            continue
        print("|".join(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
