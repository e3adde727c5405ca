/* cli.h - the wgc command table.  One row per subcommand; each lives in src/cli/<name>.c as
 * int cli_<name>(int argc, char **argv) (argv[0] is the subcommand name) and returns the exit
 * status: 0 success, 1 a negative verdict (invalid kernel, failed check), 2 bad usage or error. */
#ifndef WGC_CLI_H
#define WGC_CLI_H

#include <stdio.h>

#include "wgc/llm.h"

#define CLI_COMMANDS(X) \
    X(version, "print wgc's version") \
    X(compile, "compile WGSL to a SPIR-V module (wgc compile k.wgsl -o k.spv)") \
    X(check, "validate WGSL files, print diagnostics (--json)") \
    X(info, "list Vulkan adapters: info, limits, features (--json)") \
    X(demo, "a checked vector add and a transformer block (wt) checked against the CPU, per-op times") \
    X(bench, "benchmarks with same-run baselines: runtime | compile | ops | nn | llm (--json, --svg)") \
    X(run, "run a compute kernel on buffers from .npy files or generators (wgc run k.wgsl --dispatch ..)") \
    X(profile, "time a compute kernel with GPU timestamps: min/median/max, GB/s (--json)") \
    X(chat, "chat with a model: user turns from stdin, answers streamed (wgc chat -m FILE)") \
    X(perplexity, "perplexity of a text under a model (wgc perplexity -m FILE -f TEXT [-c CTX], --json)") \
    X(model, "describe a GGUF or safetensors model: architecture, sizes, tensor types, memory (--json)") \
    X(tokenize, "the token ids of a text under a model's tokenizer (wgc tokenize -m FILE TEXT, --json)") \
    X(generate, "generate tokens with a llama-family model (wgc generate -m FILE --ids 1,2,3 -n 64)")

#define X(name, help) int cli_##name(int argc, char **argv);
CLI_COMMANDS(X)
#undef X
int cli_demo_train(int argc, char **argv);   /* `wgc demo train` (demo_train.c) */

/* The model commands' GPU side (llm_open.c): the default adapter's device (shader-f16 where it has
 * it; WGC_* settings through wg_config_from_env and wt_policy_from_env), a tensor context and an
 * engine for m with n_ctx positions (0: the engine's default).  0, or the cli_fail status (2)
 * after "wgc: CMD: reason", with *l closed. */
typedef struct cli_llm {
    wg_instance *inst;
    wg_device *dev;
    wt_context *ctx;
    wl_engine *e;
} cli_llm;
int cli_llm_open(cli_llm *l, const char *cmd, const wl_model *m, uint32_t n_ctx);
/* The same with the whole engine descriptor (the KV cache type, ...). */
int cli_llm_open_desc(cli_llm *l, const char *cmd, const wl_model *m, const wl_engine_desc *desc);
void cli_llm_close(cli_llm *l);   /* the engine, context, device and instance; a closed one is fine */
/* text[0..len) under tok as a malloc'ed array of *n ids: one tokenizer pass (room for an id per
 * byte and the specials; a second pass only if it gives more); NULL with *err set. */
int32_t *cli_tokens(const wl_tokenizer *tok, const char *text, size_t len, uint32_t flags, size_t *n,
                      wl_error *err);
/* The sampling options of generate and chat (--temp, --top-k, --top-p, --min-p, --repeat-penalty,
 * --seed): true when a is one, its value v parsed into *sd with *end set as strto* set it. */
bool cli_sampler_option(const char *a, const char *v, wl_sampler_desc *sd, char **end);
uint64_t cli_clock_seed(void);   /* a seed from the clock and the process id (no --seed) */

/* Prints "wgc: <message>" to stderr; returns 2 so commands can `return cli_fail(...)`. */
int cli_fail(const char *fmt, ...);
const char *cli_last_message(void);   /* the last cli_fail message, without "wgc: " */

/* Writes s to f as a JSON string: quoted, with '"', '\\' and control characters escaped (NULL as ""). */
void cli_json_str(FILE *f, const char *s);

/* The whole of a file (standard input for "-"), malloc'ed and NUL-terminated, its length in *len
 * (len may be NULL); NULL when it cannot be opened or read, or memory runs out (errno set), or
 * with *why set to a reason ("is not a regular file": a device, FIFO or directory, refused without
 * being opened; "is too large": more than max bytes). */
char *cli_read_file(const char *path, size_t max, size_t *len, const char **why);
/* The default limit on a WGSL source's size (the --max-size option raises it). */
#define CLI_MAX_SOURCE_SIZE ((size_t)16 << 20)
/* cli_read_file for a command's WGSL input: 0 with *src set, or the cli_fail status (2) after a
 * one-line message "wgc: CMD: 'PATH' is not a regular file" (or too large, or unreadable). */
int cli_read_source(const char *cmd, const char *path, size_t max, char **src, size_t *len);
/* A byte count with an optional k/M/G suffix (powers of 1024): 0, or -1 when malformed. */
int cli_parse_size(const char *s, size_t *out);

#endif
