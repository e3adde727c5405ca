/* version.c - `wgc version`. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

#define WGC_VERSION "0.1.0"

int cli_version(int argc, char **argv) {
    int json = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            puts("usage: wgc version [--json]\n  prints wgc's version (--json: {\"version\":\"X.Y.Z\"})");
            return 0;
        } else if (!strcmp(argv[i], "--json")) {
            json = 1;
        } else {
            return cli_fail("version: unknown option '%s' (try wgc version --help)", argv[i]);
        }
    }
    printf(json ? "{\"version\":\"%s\"}\n" : "wgc %s\n", WGC_VERSION);
    return 0;
}
