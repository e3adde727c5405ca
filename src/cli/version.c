/* version.c - `wgc version`. */
#include <stdio.h>

#include "cli/cli.h"

#define WGC_VERSION "0.1.0"

int cli_version(int argc, char **argv) {
    (void)argc; (void)argv;
    printf("wgc %s\n", WGC_VERSION);
    return 0;
}
