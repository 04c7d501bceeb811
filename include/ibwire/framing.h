/* ibwire/framing.h - placeholder, filled in by the wire-codec work. */
#ifndef IBWIRE_FRAMING_H
#define IBWIRE_FRAMING_H
#include "base.h"
#endif
