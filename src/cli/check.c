/* check.c - `wgc check [--json] [--parse-only] FILE...`: validates WGSL files the way a browser
 * would (parse + check, no code generation) and prints the diagnostics.
 *
 * Text mode prints each file's diagnostics as "file:line:col: error: msg", the source line and a
 * caret, on stderr, as tint and naga do (stdout stays empty; silence means valid), next to the
 * problems of the command itself (unreadable file, bad option).  --json prints one JSON document
 * on stdout: {"ok":bool,"files":[<wgsl_result_json of each file>]}.  Exit status: 0 all valid, 1 some
 * invalid, 2 usage error or a file that cannot be read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "wgc/wgsl.h"

static void check_usage(FILE *f) {
    fputs("usage: wgc check [--json] [--parse-only] [--max-size BYTES] FILE...\n"
          "  Validates WGSL files (parse + semantic checks) and prints diagnostics on stderr\n"
          "  as file:line:col: severity: message, the source line and a caret.\n"
          "  --json        one JSON document: {\"ok\":..,\"files\":[{\"file\",\"ok\",\"diagnostics\":[..]}]}\n"
          "                with line, col (code points, 1-based), offset and length (bytes)\n"
          "  --parse-only  syntax only\n"
          "  --max-size N  refuse a file larger than N bytes (k/M/G suffixes; default 16M)\n"
          "  FILE may be '-' for stdin; devices and FIFOs are refused.\n"
          "  Exit: 0 all valid, 1 some invalid, 2 usage/unreadable.\n",
          f);
}

int cli_check(int argc, char **argv) {
    int json = 0, parse_only = 0, nfiles = 0;
    size_t max = CLI_MAX_SOURCE_SIZE;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--max-size")) {
            if (i + 1 >= argc || cli_parse_size(argv[i + 1], &max))
                return cli_fail("check: --max-size wants a byte count (e.g. 64M)");
            argv[i] = argv[i + 1] = NULL;     /* consumed: the file loop below skips NULLs */
            i++;
            continue;
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            check_usage(stdout);
            return 0;
        }
        if (!strcmp(a, "--json")) json = 1;
        else if (!strcmp(a, "--parse-only")) parse_only = 1;
        else if (a[0] == '-' && a[1]) return cli_fail("check: unknown option '%s' (try wgc check --help)", a);
        else nfiles++;
    }
    if (!nfiles) {
        check_usage(stderr);
        return 2;
    }
    int status = 0, first = 1;
    if (json) fputs("{\"files\":[", stdout);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!a || (a[0] == '-' && a[1])) continue;
        size_t len = 0;
        char *src;
        if (cli_read_source("check", a, max, &src, &len)) {
            status = 2;
            continue;
        }
        wgsl_options opt = { .filename = strcmp(a, "-") ? a : "<stdin>", .check_only = 1,
                             .parse_only = parse_only != 0 };
        wgsl_result *r = wgsl_compile(src, len, &opt);
        free(src);
        if (!r) {
            cli_fail("check: out of memory");
            status = 2;
            continue;
        }
        if (!r->ok && status == 0) status = 1;
        const char *out = json ? wgsl_result_json(r) : wgsl_result_text(r);
        if (json) {
            if (!first) fputc(',', stdout);
            first = 0;
        }
        if (out) fputs(out, json ? stdout : stderr);
        wgsl_result_free(r);
    }
    if (json) printf("],\"ok\":%s}\n", status == 0 ? "true" : "false");
    return status;
}
