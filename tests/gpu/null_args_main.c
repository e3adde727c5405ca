/* null_args_main.c - the runner of tests/gpu/test_null_args.sh: every public entry point called
 * with all arguments zero (the cases are generated into null_args.h by tests/gpu/null_args.py).
 * Each case runs in a child process, so one crash names its entry point and the rest still run;
 * under ASan the child's exit runs LeakSanitizer, so a NULL call that leaks fails too.  A case
 * passes when the child exits 0 and what the call returned is an error value: NULL for a pointer
 * (a string getter may return its fallback text, a constructor whose NULL descriptor means the
 * defaults its object), a non-OK status; void and plain values only have to come back.
 * Usage: null_args [SUBSTRING]  (only the entry points whose name contains it) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wgc/gpu.h"
#include "wgc/llm.h"
#include "wgc/tensor.h"
#include "wgc/wgsl.h"

typedef enum { R_PTR, R_ANY, R_STATUS, R_VOID, R_VALUE } ret_kind;
typedef struct null_case { const char *name; void (*fn)(void); ret_kind kind; } null_case;
#include "null_args.h"

int main(int argc, char **argv) {
    int n = 0, bad = 0, counts[5] = { 0 };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const null_case *c = &cases[i];
        if (argc > 1 && !strstr(c->name, argv[1]))
            continue;
        int fds[2];
        if (pipe(fds))
            return 2;
        fflush(stdout);
        pid_t pid = fork();
        if (pid < 0)
            return 2;
        if (pid == 0) {
            dup2(fds[1], 1);
            close(fds[0]);
            close(fds[1]);
            c->fn();
            fflush(stdout);
            exit(0);
        }
        close(fds[1]);
        char out[256] = "";
        size_t got = 0;
        ssize_t r;
        while (got + 1 < sizeof out && (r = read(fds[0], out + got, sizeof out - 1 - got)) > 0)
            got += (size_t)r;
        out[got] = 0;
        close(fds[0]);
        out[strcspn(out, "\n")] = 0;
        int st = 0;
        waitpid(pid, &st, 0);
        n++;
        counts[c->kind]++;
        const char *why = NULL;
        if (WIFSIGNALED(st))
            why = "killed by a signal";
        else if (!WIFEXITED(st) || WEXITSTATUS(st))
            why = "exit status not 0 (a sanitizer report?)";
        else if (c->kind == R_PTR && strcmp(out, "NULL"))
            why = "returned an object";
        else if (c->kind == R_ANY && strstr(out, "ok for a NULL source"))
            why = "compiled a NULL source";
        else if (c->kind == R_STATUS && !strcmp(out, "0"))
            why = "returned OK";
        if (why) {
            bad++;
            printf("FAIL %s(all zero): %s (%s, status %d)\n", c->name, why, out, st);
        }
    }
    printf("%d entry points called with all arguments zero (%d return a pointer, %d a pointer or their "
           "defaults, %d a status, %d nothing, %d a value): %d failed\n", n, counts[R_PTR], counts[R_ANY],
           counts[R_STATUS], counts[R_VOID], counts[R_VALUE], bad);
    return bad != 0;
}
