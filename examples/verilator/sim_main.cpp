// SPDX-License-Identifier: Apache-2.0
//
// Clock driver for a Verilator testbench top with ports `clk` (in) and
// `failed` (out), built with --prefix Vtb: toggles the clock until the
// testbench calls $finish and exits 1 when it reports a failure.  The
// testbench, not this file, decides everything else (plusargs reach it
// through commandArgs).
#include <memory>

#include "Vtb.h"
#include "verilated.h"

int main(int argc, char **argv)
{
    const std::unique_ptr<VerilatedContext> context{new VerilatedContext};
    context->commandArgs(argc, argv);
    const std::unique_ptr<Vtb> top{new Vtb{context.get()}};
    top->clk = 0;
    while (!context->gotFinish()) {
        top->clk = !top->clk;
        top->eval();
        context->timeInc(1);
    }
    top->final();
    return top->failed ? 1 : 0;
}
