// SPDX-License-Identifier: Apache-2.0
// bitwidth_rtl.cpp - clocks the Verilated converters (Vbwdown:
// bitwidth_256to64.sv, Vbwup: bitwidth_64to256.sv) for the engine: a record
// is put on the input for one clock, then the clock runs until the
// converter has given what that input makes.
#include "bitwidth_rtl.h"

#include <new>

#include "Vbwdown.h"
#include "Vbwup.h"
#include "verilated.h"

struct eng_bw_rtl {
    VerilatedContext ctx;
    Vbwdown *down;
    Vbwup *up;
};

static uint64_t cycles;

extern "C" uint64_t eng_bw_rtl_cycles(void)
{
    return cycles;
}

template <class Model> static void tick(Model *m)
{
    cycles++;
    m->clk = 0;
    m->eval();
    m->clk = 1;
    m->eval();
}

template <class Model> static void reset(Model *m)
{
    m->rst = 1;
    tick(m);
    m->rst = 0;
    tick(m);
}

extern "C" void *eng_bw_rtl_new(void)
{
    eng_bw_rtl *r = new (std::nothrow) eng_bw_rtl;
    if (!r)
        return nullptr;
    r->down = new (std::nothrow) Vbwdown(&r->ctx, "down");
    r->up = new (std::nothrow) Vbwup(&r->ctx, "up");
    if (!r->down || !r->up) {
        delete r->down;
        delete r->up;
        delete r;
        return nullptr;
    }
    reset(r->down);
    reset(r->up);
    return r;
}

extern "C" void eng_bw_rtl_free(void *model)
{
    eng_bw_rtl *r = static_cast<eng_bw_rtl *>(model);
    if (!r)
        return;
    r->down->final();
    r->up->final();
    delete r->down;
    delete r->up;
    delete r;
}

extern "C" unsigned eng_bw_rtl_down(void *model, const uint32_t *e25,
                                    unsigned nbytes, uint32_t e24[4][3])
{
    Vbwdown *top = static_cast<eng_bw_rtl *>(model)->down;
    for (int i = 0; i < 9; i++)
        top->in_word[i] = e25[i];
    top->in_bytes = static_cast<uint8_t>(nbytes);
    top->in_valid = 1;
    tick(top);
    top->in_valid = 0;
    unsigned n = 0;
    // one link word per clock until the converter is ready for the next
    // stream word (at most four, and a clock to spare)
    for (int guard = 0; guard < 6 && n < 4; guard++) {
        tick(top);
        if (top->out_valid) {
            for (int i = 0; i < 3; i++)
                e24[n][i] = top->out_word[i];
            n++;
        }
        if (top->in_ready)
            break;
    }
    return n;
}

extern "C" int eng_bw_rtl_up(void *model, const uint32_t *e24,
                             uint32_t *e25, uint32_t *bytes)
{
    Vbwup *top = static_cast<eng_bw_rtl *>(model)->up;
    for (int i = 0; i < 3; i++)
        top->in_word[i] = e24[i];
    top->in_valid = 1;
    tick(top);
    top->in_valid = 0;
    if (!top->out_valid)
        return 0;
    for (int i = 0; i < 9; i++)
        e25[i] = top->out_word[i];
    *bytes = top->out_bytes;
    return 1;
}
