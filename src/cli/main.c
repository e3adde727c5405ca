/* main.c - wgc's entry: dispatches argv[1] through the command table in cli.h.  Besides the
 * commands: `wgc --help` / `-h` / `help` (the list), `wgc help CMD` (= `wgc CMD --help`) and
 * `wgc --version` / `-V` (= `wgc version`), as tint, naga and the spirv tools take them. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"

typedef struct cli_command {
    const char *name;
    const char *help;
    int (*run)(int argc, char **argv);
} cli_command;

static const cli_command commands[] = {
#define X(name, help) { #name, help, cli_##name },
    CLI_COMMANDS(X)
#undef X
};

static char last_message[512];

int cli_fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_message, sizeof last_message, fmt, ap);
    va_end(ap);
    fprintf(stderr, "wgc: %s\n", last_message);
    return 2;
}

const char *cli_last_message(void) {
    return last_message;
}

void cli_json_str(FILE *f, const char *s) {
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

char *cli_read_file(const char *path, size_t max, size_t *len, const char **why) {
    static const char *const not_regular = "is not a regular file", *too_big = "is too large";
    int use_stdin = !strcmp(path, "-");
    struct stat st;
    *why = NULL;
    /* refused before opening: opening a FIFO waits for a writer, and a device (/dev/zero)
     * never ends */
    if (!use_stdin && !stat(path, &st) && !S_ISREG(st.st_mode)) {
        *why = not_regular;
        return NULL;
    }
    FILE *f = use_stdin ? stdin : fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n > max) {                   /* one byte past the limit is enough to know */
            *why = too_big;
            free(buf);
            buf = NULL;
            break;
        }
        if (n + 1 >= cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    if (buf && ferror(f)) {
        free(buf);
        buf = NULL;
    }
    if (f != stdin)
        fclose(f);
    if (buf) {
        buf[n] = 0;
        if (len)
            *len = n;
    }
    return buf;
}

int cli_read_source(const char *cmd, const char *path, size_t max, char **src, size_t *len) {
    const char *why;
    int err;
    errno = 0;
    *src = cli_read_file(path, max, len, &why);
    err = errno;
    if (*src)
        return 0;
    if (why && !strcmp(why, "is too large"))
        return cli_fail("%s: '%s' is larger than %zu bytes (--max-size raises the limit)", cmd, path, max);
    if (why)
        return cli_fail("%s: '%s' %s", cmd, path, why);
    return cli_fail("%s: cannot read '%s'%s%s", cmd, path, err ? ": " : "", err ? strerror(err) : "");
}

int cli_parse_size(const char *s, size_t *out) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || errno || s[0] == '-')
        return -1;
    unsigned shift = 0;
    if (*end == 'k' || *end == 'K') shift = 10, end++;
    else if (*end == 'm' || *end == 'M') shift = 20, end++;
    else if (*end == 'g' || *end == 'G') shift = 30, end++;
    if (*end || v > (SIZE_MAX >> shift))
        return -1;
    *out = (size_t)(v << shift);
    return 0;
}

static void usage(FILE *f) {
    fputs("usage: wgc <command> [options]   (wgc help <command>, or wgc <command> --help, for each)\n"
          "       wgc --version\n\ncommands:\n", f);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
}

static const cli_command *find_command(const char *name) {
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(name, commands[i].name))
            return &commands[i];
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *a = argv[1];
    if (!strcmp(a, "--version") || !strcmp(a, "-V")) {
        if (argc > 2)
            return cli_fail("%s takes no arguments (wgc version --json: the JSON form)", a);
        char name[] = "version", *vargv[] = { name, NULL };
        return find_command(name)->run(1, vargv);
    }
    if (!strcmp(a, "help") && argc > 2) {
        const cli_command *c = find_command(argv[2]);
        if (!c)
            return cli_fail("help: unknown command '%s' (try wgc --help)", argv[2]);
        if (argc > 3)
            return cli_fail("help: one command at a time");
        char help[] = "--help", *hargv[] = { argv[2], help, NULL };
        return c->run(2, hargv);
    }
    if (!strcmp(a, "--help") || !strcmp(a, "-h") || !strcmp(a, "help")) {
        usage(stdout);
        return 0;
    }
    const cli_command *c = find_command(a);
    if (c)
        return c->run(argc - 1, argv + 1);
    return cli_fail("unknown command '%s' (try wgc --help)", a);
}
