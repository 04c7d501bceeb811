/* ibwire dump: not built yet; its issue fills this file in. */
#include <stdio.h>

#include "tool.h"

int cmd_dump(int argc, char **argv)
{
    (void)argc;
    fprintf(stderr, "ibwire %s: not implemented yet\n", argv[0]);
    return TOOL_EXIT_USAGE;
}
