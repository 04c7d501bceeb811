/*
 * dump_fields_mad.c - the MAD and CM fields of `ibwire dump -T fields`
 * (infiniband.mad.*, infiniband.cm.*).  Empty until the MAD family lands;
 * entries added here are found by name like those of dump_fields.c.
 */
#include "dump.h"

const struct dump_field dump_fields_mad[] = {{NULL, 0, NULL, NULL}};
