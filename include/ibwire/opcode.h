/* ibwire/opcode.h - placeholder, filled in by the wire-codec work. */
#ifndef IBWIRE_OPCODE_H
#define IBWIRE_OPCODE_H
#include "base.h"
#endif
