/* cli.h - the wgc command table.  One row per subcommand; each lives in src/cli/<name>.c as
 * int cli_<name>(int argc, char **argv) (argv[0] is the subcommand name) and returns the exit
 * status: 0 success, 1 a negative verdict (invalid kernel, failed check), 2 bad usage or error. */
#ifndef WGC_CLI_H
#define WGC_CLI_H

#include <stdio.h>

#define CLI_COMMANDS(X) \
    X(version, "print wgc's version") \
    X(compile, "compile WGSL to a SPIR-V module (wgc compile k.wgsl -o k.spv)") \
    X(check, "validate WGSL files, print diagnostics (--json)") \
    X(info, "list Vulkan adapters: info, limits, features (--json)") \
    X(demo, "a checked vector add and a transformer block (wt) checked against the CPU, per-op times") \
    X(bench, "benchmarks with same-run baselines: runtime | compile | ops | nn | llm (--json, --svg)") \
    X(run, "run a compute kernel on buffers from .npy files or generators (wgc run k.wgsl --dispatch ..)") \
    X(profile, "time a compute kernel with GPU timestamps: min/median/max, GB/s (--json)") \
    X(model, "describe a GGUF or safetensors model: architecture, sizes, tensor types, memory (--json)")

#define X(name, help) int cli_##name(int argc, char **argv);
CLI_COMMANDS(X)
#undef X

/* Prints "wgc: <message>" to stderr; returns 2 so commands can `return cli_fail(...)`. */
int cli_fail(const char *fmt, ...);

/* Writes s to f as a JSON string: quoted, with '"', '\\' and control characters escaped (NULL as ""). */
void cli_json_str(FILE *f, const char *s);

/* The whole of a file (standard input for "-"), malloc'ed and NUL-terminated, its length in *len
 * (len may be NULL); NULL when it cannot be opened or read, or memory runs out. */
char *cli_read_file(const char *path, size_t *len);

#endif
