/* bench.h - shared pieces of `wgc bench`: a report of rows (our figure, the baselines measured
 * in the same run, the ratio, the target), timing and statistics helpers, a child
 * process runner for the baseline scripts and a tiny scanner for their JSON output.
 *
 * A row's ratio is always "how many times better we are": ours/baseline when higher is better
 * (GB/s), baseline/ours when lower is better (µs, ms), so > 1 means wgc wins.  A missing
 * figure is NaN and prints as "-"; a baseline that could not run carries its reason, printed
 * as "baseline <name>: none (<reason>)".  Figures are never invented. */
#ifndef WGC_BENCH_H
#define WGC_BENCH_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define BENCH_MAX_ROWS 48
#define BENCH_MAX_BASELINES 3
#define BENCH_MAX_INFO 16

typedef enum bench_better {
    BENCH_LOWER = 0,        /* times: smaller is better */
    BENCH_HIGHER,           /* rates: larger is better */
    BENCH_BETTER_COUNT
} bench_better;

typedef enum bench_size {
    BENCH_SIZE_AUTO = 0,    /* full on a GPU, scaled down on a CPU adapter */
    BENCH_SIZE_SMALL,       /* tiny working sets: smoke tests */
    BENCH_SIZE_MEDIUM,      /* what AUTO picks on a CPU adapter */
    BENCH_SIZE_FULL,        /* the sizes (256 MiB, 2^26 floats) */
    BENCH_SIZE_COUNT
} bench_size;

typedef struct bench_row {
    char key[48];           /* machine name: "add_vec4_GBps" */
    char name[80];          /* human name */
    char unit[12];          /* "GB/s", "us", "ms" */
    bench_better better;
    double ours;            /* NaN: not measured */
    double base[BENCH_MAX_BASELINES]; /* per baseline, NaN when it has no such figure */
    char base_note[BENCH_MAX_BASELINES][40]; /* what the baseline figure is ("CUDA graph") */
    double target;          /* NaN: none */
    char note[120];         /* how it was measured */
} bench_row;

typedef struct bench_baseline {
    char name[16];          /* "torch", "dawn", "tint" */
    bool ran;               /* figures came back */
    char info[200];         /* ran: what it ran on; else: why not */
} bench_baseline;

typedef struct bench_report {
    char title[32];                     /* "runtime", "compile" */
    char info_key[BENCH_MAX_INFO][24];  /* free key/value facts (adapter, sizes) */
    char info_val[BENCH_MAX_INFO][200];
    int info_count;
    bench_baseline baselines[BENCH_MAX_BASELINES];
    int baseline_count;
    bench_row rows[BENCH_MAX_ROWS];
    int row_count;
    bool cpu_adapter;                   /* ran on a CPU adapter: the targets, set for GPUs, are
                                           printed but not judged ("target applies to GPUs") */
} bench_report;

/* Options shared by the bench commands (parsed in src/cli/bench.c). */
typedef struct bench_options {
    bool json;              /* one JSON document on stdout */
    bench_size size;
    int runs;               /* repetitions (0: per benchmark default) */
    const char *root;       /* repository root (scripts, kernels); "." by default */
    const char *baseline;   /* "auto" (default), "none", "torch", "dawn", "tint" (comma list) */
    bool verbose;           /* progress on stderr (default: on when stderr is a terminal) */
    const char *svg;        /* --svg FILE: the ratios as an SVG bar chart (bench/svg.c), or NULL */
    bool kernels;           /* --kernels: the wt suites list their compiled kernels on stderr, with
                               the driver's figures (registers, ...) where the adapter has them */
    bool profile;           /* --profile: train: after the timed steps, a few more with
                               wt_context_set_profiling, GPU time per kernel on stderr */
} bench_options;

/* The defaults: root ".", baseline "auto", progress when stderr is a terminal and
 * WGC_NO_PROGRESS is unset. */
bench_options bench_options_default(void);
/* The options every suite shares (--json -v --kernels --profile --size --runs --baseline --svg
 * --root) at argv[*i]: 1 when taken (*i past its value), 0 when it is none of them, -1 when
 * malformed (the reason on stderr; the command exits 2). */
int bench_shared_option(bench_options *opt, int argc, char **argv, int *i);

int bench_runtime(const bench_options *opt);   /* 0 ok, 1 a kernel gave a wrong result, 2 error */
int bench_compile(const bench_options *opt);
int bench_ops(const bench_options *opt);       /* bench/ops.c: wt tensor ops (issue 4) */
int bench_nn(const bench_options *opt);        /* bench/nn.c: matmul and nn kernels (issue 5) */
int bench_llm(const bench_options *opt);       /* bench/nn_llm.c: softmax, norms, flash attention (issue 5) */
/* bench/train.c: `wgc bench train [options]` (argv[0] "train"): training steps, --agree (issue 19) */
int bench_train_cli(int argc, char **argv);
/* bench/generate.c: `wgc bench generate [options]`: decode/prefill tok/s, peak memory (issue 20) */
int bench_generate_cli(int argc, char **argv);

/* ---- report ---- */
void bench_report_init(bench_report *r, const char *title);
void bench_info(bench_report *r, const char *key, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Adds a baseline column; returns its index. */
int bench_add_baseline(bench_report *r, const char *name);
void bench_baseline_status(bench_report *r, int b, bool ran, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Adds a row with every figure NaN; returns it (NULL when the table is full). */
bench_row *bench_add_row(bench_report *r, const char *key, const char *name, const char *unit,
                         bench_better better, double target);
bench_row *bench_find_row(bench_report *r, const char *key);
/* Renames row `key` (printf-style): rows whose names carry their shape say the sizes that ran. */
void bench_row_label(bench_report *r, const char *key, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
double bench_ratio(const bench_row *row, int b);   /* NaN when either side is missing */
void bench_print_table(const bench_report *r, FILE *f);
void bench_print_json(const bench_report *r, FILE *f);
/* Prints r on stdout (JSON with --json, else the table) and writes --svg when asked; 0, or 2
 * when the SVG could not be written. */
int bench_output(const bench_report *r, const bench_options *opt);
/* Targets relative to baseline b: for each of the first n rows whose rel[i] is not NaN, the
 * target becomes rel[i] x the baseline's figure (when it has one), and the note says
 * "target <rel>% of <baseline>". */
void bench_relative_targets(bench_report *r, int b, const double *rel, int n);

/* Writes the report's ratios against its baselines as a bar chart (bench/svg.c); 0, or 2 with a
 * message on stderr when the file cannot be written. */
int bench_write_svg(const bench_report *r, const char *path);

/* ---- timing and statistics ---- */
double bench_now_s(void);                       /* monotonic clock, seconds */
double bench_median(double *v, int n);          /* sorts v */
double bench_min(const double *v, int n);
double bench_mean(const double *v, int n);
bool bench_want(const bench_options *opt, const char *baseline);  /* baseline selected? */

/* ---- child processes ---- */
/* Runs argv (argv[0] looked up in PATH) with extra "NAME=value" strings in env (NULL-ended, may
 * be NULL), stdin from /dev/null, stderr inherited unless quiet_stderr; captures stdout into a
 * malloc'ed NUL-terminated *out.  Kills it after timeout_s.  Returns the exit status (0..255),
 * 124 on timeout, 128+signal when killed, -1 when it could not be started. */
int bench_spawn(const char *const *argv, const char *const *env, double timeout_s, bool quiet_stderr,
                char **out);

/* ---- JSON scanning (flat or shallow objects written by our own scripts) ---- */
/* Finds "key" (then "key2" after it when key2 is not NULL) in text and parses the number after
 * its colon.  NaN when absent or not a number. */
double bench_json_num(const char *text, const char *key, const char *key2);
/* Copies the string value of "key" (unescaped minimally) into buf; false when absent. */
bool bench_json_str(const char *text, const char *key, char *buf, size_t cap);
bool bench_file_exists(const char *path);
/* The last line of out that starts with '{' (lines are cut in place); NULL when none. */
const char *bench_last_json_line(char *out);

/* ---- the PyTorch baseline scripts (bench/baseline_<suite>.py) ---- */
/* Runs baseline column b of rep: skipped on a CPU adapter (adapter names it) unless --baseline
 * names torch; else `$WGC_PYTHON (default python3) <root>/bench/<script> args...` (args
 * NULL-ended, at most 28), reading the last JSON line of its stdout.  When figures came back,
 * marks b ran as "PyTorch <ver> on <device> (<how>)", points *js at that line and returns the
 * malloc'ed stdout that holds it (the caller frees it); otherwise marks why not (not found, the
 * script's "error", its exit status) and returns NULL. */
char *bench_torch_baseline(bench_report *rep, int b, const bench_options *opt, bool cpu_adapter,
                           const char *adapter, const char *script, const char *const *args, const char *how,
                           const char **js);

/* ---- the wt suites (ops, nn, llm) ---- */
#define BENCH_MAX_RUNS 64

typedef struct bench_wt {
    struct wg_instance *inst;
    struct wg_device *dev;
    struct wt_context *ctx;
    const struct wg_adapter_info *info;  /* the adapter's (lives as long as inst) */
    bool cpu;                            /* a CPU adapter: AUTO sizes mean MEDIUM */
    bool timed;                          /* wt's batch timing is on (timestamp queries) */
    bool kernels;                        /* list the compiled kernels at bench_wt_done (--kernels) */
} bench_wt;

/* The default adapter, a device (with shader-f16 when f16 and the adapter has it; with
 * pipeline-statistics when kernels and the adapter has it) and a wt context, all labelled label;
 * false with a message on stderr, nothing held, when one fails. */
bool bench_wt_open(bench_wt *w, const char *label, bool f16, bool kernels);
/* The start of a wt suite: a report named `name` (*rep, calloc'ed: the caller frees it),
 * bench_wt_open, its "adapter" and "timing" lines, and the size (AUTO: MEDIUM on a CPU adapter,
 * else FULL).  False, nothing held, when one fails. */
bool bench_wt_start(const bench_options *opt, const char *name, bool f16, bench_report **rep, bench_wt *w,
                    bench_size *size);
/* A suite's runs: --runs when given (at most BENCH_MAX_RUNS), else the size's default. */
int bench_runs(const bench_options *opt, int dflt);
/* The report's "adapter" line and its "timing" line (GPU time from wt's batch timing, or wall clock). */
void bench_wt_info(const bench_wt *w, bench_report *r);
/* After the measurements: adds the context's "wt" line (dispatches, submits, kernels, peak) to r,
 * with --kernels lists the compiled kernels on stderr (wt_kernel_list: name and the driver's
 * figures), destroys the context and releases the device; inst and info stay for the baselines. */
void bench_wt_done(bench_wt *w, bench_report *r);
/* The end of the suite: notes wt errors and wrong results in r, prints it (bench_output: an SVG
 * that cannot be written counts as an error), releases the instance; returns the exit status
 * (1 a wrong result, 2 an error, else 0). */
int bench_wt_end(bench_wt *w, bench_report *r, const bench_options *opt, int wrong, int errors);

/* What the wt suites (ops, nn, llm) share while measuring. */
/* "wgc bench: <message>" on stderr with --verbose. */
void bench_say(const bench_options *opt, const char *fmt, ...);
/* t (a tensor or any result pointer) non-NULL: true; else "wgc bench: <what>: <wt's last
 * error>" on stderr, the error cleared, *errors counted, false. */
bool bench_got(struct wt_context *ctx, int *errors, const char *what, const void *t);
/* Whether ctx has built a kernel of the file named `file` (wt_kernel_list): which of several
 * paths an op took. */
bool bench_kernel_built(struct wt_context *ctx, const char *file);
/* --profile: prints ctx's kernel profile (wt_context_set_profiling; `steps` steps of `what` ran
 * since it was turned on) on stderr, the kernels by GPU time, most first, per step. */
void bench_profile_print(struct wt_context *ctx, const char *what, int steps);
/* wt_stats.gpu_ns of ctx: the GPU time of its timed batches finished so far. */
uint64_t bench_gpu_ns(struct wt_context *ctx);
/* One op to time: returns a new tensor (NULL on error). */
typedef struct wt_tensor *(*bench_op)(void *arg);
typedef struct bench_times {
    double best, median;       /* seconds per op: GPU time when timed, else wall clock */
    double wall;               /* median wall clock per op (record + submit + wait) */
} bench_times;
/* After the GPU sat idle (pipeline builds, host work) its clocks stay low for the first 0.2-0.3 s
 * of work (H200: the SM clock drops from 1980 to 345 MHz after about 1.5 s idle; doc/tensor.md):
 * warm-ups run the timed work for this long before timing it. */
#define BENCH_WARM_S 0.3
/* Seconds per op of `reps` op(arg) recorded back to back into the pending batch (independent
 * outputs), then wt_sync, over `runs` runs after a warm-up (kernels, autotuner, pool; repeated
 * for BENCH_WARM_S after the first): with
 * `timed` the GPU time of the run's batches (wt_stats.gpu_ns) / reps, what CUDA events measure
 * for the baselines; else the wall clock / reps.  runs <= BENCH_MAX_RUNS.  False on an error. */
bool bench_time_op(struct wt_context *ctx, bool timed, int *errors, bench_op op, void *arg, int reps, int runs,
                   bench_times *out);

#endif
