/* SPDX-License-Identifier: Apache-2.0 */
/*
 * choices.h - the reference engine's open choices: where the IBA lets a
 * conforming device behave in more than one way, the engine can take each
 * of them, so that a test can run every one and require the checker and
 * `--replay` to find the traffic clean (conformance/check/statements.h
 * names the statement each choice belongs to).  Declared once here:
 *
 *   X(ENUM, "name", "statement", side, "traffic", "what the engine then does")
 *
 *   statement  the ID of the statement in conformance/check/statements.h
 *   side       IBE_FS_REQ / IBE_FS_RESP (faults.h): the role it changes
 *   traffic    a fault mode whose traffic (`ibwire sim --traffic-of`, the
 *              fault itself off) makes the choice show on the wire
 *
 * The default (no choice set) is the engine's usual behaviour; a choice
 * replaces it by the other one the statement allows.  Unlike a fault mode
 * (faults.h) a choice never breaks a rule.
 */
#ifndef IBW_ENGINE_CHOICES_H
#define IBW_ENGINE_CHOICES_H

#include <stdint.h>

#define IBE_CHOICES(X)                                                         \
    X(DUP_READ_CONTINUE, "dup-read-continue", "READ-DUP-OPCODE", IBE_FS_RESP,  \
      "read-reissue-length",                                                   \
      "a READ re-issued from inside the span of one already executed is "     \
      "answered with the opcodes of the original span from the re-issued "     \
      "PSN (MIDDLE ... LAST, as Linux rxe's duplicate_request() does); "       \
      "default: FIRST ... LAST (or ONLY) from it, as rdmavt/hfi1 do")          \
    X(DUP_MSN_ORIGINAL, "dup-msn-original", "MSN", IBE_FS_RESP,                \
      "read-reissue-length",                                                   \
      "the responses to a duplicate READ carry the MSN the READ's first "      \
      "answer had, not the responder's current one (default: the current "    \
      "MSN, as Linux rxe)")                                                    \
    X(ACK_COALESCE, "ack-coalesce", "ACK-COALESCE", IBE_FS_RESP,               \
      "ack-covers-read",                                                        \
      "the responder answers the requests that ask for an ACK with one ACK "   \
      "for up to four of them, at the last one's PSN, sent when the fourth "   \
      "comes, before any other response, or 3 us after the first (default: "   \
      "an ACK for each)")                                                      \
    X(RNR_WAIT_LONGER, "rnr-wait-longer", "RNR", IBE_FS_REQ,                   \
      "rnr-ignore-timer",                                                      \
      "after an RNR NAK the requester waits twice the timer the NAK names "    \
      "before it sends again (default: the timer exactly)")

enum ibe_choice {
#define IBE_CHOICE_ENUM(E, n, st, s, t, d) IBE_CHOICE_##E,
    IBE_CHOICES(IBE_CHOICE_ENUM)
#undef IBE_CHOICE_ENUM
    IBE_CHOICE_COUNT
};

#define IBE_CHOICE_BIT(E) (1ull << IBE_CHOICE_##E)

struct ibe_choice_info {
    const char *name, *statement;
    uint8_t side; /* enum ibe_fault_side */
    const char *traffic, *what;
};

extern const struct ibe_choice_info ibe_choice_table[IBE_CHOICE_COUNT];

/* Parses "name[,name...]" into a mask of IBE_CHOICE_BIT()s: 0, or -1 with
 * *bad pointing at the unknown name. */
int ibe_choice_parse(const char *list, uint64_t *mask, const char **bad);

#endif
