/* warn.c - the one way cli/ tells the user something on stderr. */
#include <stdio.h>

#include "pipeline.h"

void tn_cli_warn(const char *msg)
{
    fprintf(stderr, "tcptrace-ng: %s\n", msg);
}
