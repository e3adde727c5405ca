/* common.c - the report table, JSON output, statistics, the child-process runner and the JSON
 * scanner shared by the `wgc bench` suites (see bench.h), and the runner of the PyTorch baseline
 * scripts that the runtime, ops, nn and llm suites share.
 *
 * Baselines run as child processes (python3, node) whose stdout we capture through a pipe with
 * a deadline; a hung baseline is killed and reported as "none (timed out)". */
#include "bench.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "wgc/gpu.h"
#include "wgc/tensor.h"

void bench_report_init(bench_report *r, const char *title) {
    memset(r, 0, sizeof *r);
    snprintf(r->title, sizeof r->title, "%s", title);
}

void bench_info(bench_report *r, const char *key, const char *fmt, ...) {
    if (r->info_count >= BENCH_MAX_INFO)
        return;
    int i = r->info_count++;
    snprintf(r->info_key[i], sizeof r->info_key[i], "%s", key);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->info_val[i], sizeof r->info_val[i], fmt, ap);
    va_end(ap);
}

int bench_add_baseline(bench_report *r, const char *name) {
    if (r->baseline_count >= BENCH_MAX_BASELINES)
        return BENCH_MAX_BASELINES - 1;
    int b = r->baseline_count++;
    snprintf(r->baselines[b].name, sizeof r->baselines[b].name, "%s", name);
    snprintf(r->baselines[b].info, sizeof r->baselines[b].info, "not run");
    return b;
}

void bench_baseline_status(bench_report *r, int b, bool ran, const char *fmt, ...) {
    r->baselines[b].ran = ran;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->baselines[b].info, sizeof r->baselines[b].info, fmt, ap);
    va_end(ap);
}

bench_row *bench_add_row(bench_report *r, const char *key, const char *name, const char *unit,
                         bench_better better, double target) {
    if (r->row_count >= BENCH_MAX_ROWS)
        return NULL;
    bench_row *row = &r->rows[r->row_count++];
    memset(row, 0, sizeof *row);
    snprintf(row->key, sizeof row->key, "%s", key);
    snprintf(row->name, sizeof row->name, "%s", name);
    snprintf(row->unit, sizeof row->unit, "%s", unit);
    row->better = better;
    row->ours = NAN;
    for (int b = 0; b < BENCH_MAX_BASELINES; b++)
        row->base[b] = NAN;
    row->target = target;
    return row;
}

bench_row *bench_find_row(bench_report *r, const char *key) {
    for (int i = 0; i < r->row_count; i++)
        if (!strcmp(r->rows[i].key, key))
            return &r->rows[i];
    return NULL;
}

void bench_row_label(bench_report *r, const char *key, const char *fmt, ...) {
    bench_row *row = bench_find_row(r, key);
    if (!row)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(row->name, sizeof row->name, fmt, ap);
    va_end(ap);
}

double bench_ratio(const bench_row *row, int b) {
    double o = row->ours, x = row->base[b];
    if (isnan(o) || isnan(x) || o <= 0 || x <= 0)
        return NAN;
    return row->better == BENCH_HIGHER ? o / x : x / o;
}

static bool target_met(const bench_row *row) {
    return row->better == BENCH_HIGHER ? row->ours >= row->target : row->ours <= row->target;
}

/* Formats a figure with about four significant digits. */
static void fmt_num(char *buf, size_t cap, double v) {
    if (isnan(v))
        snprintf(buf, cap, "-");
    else if (fabs(v) >= 1000)
        snprintf(buf, cap, "%.0f", v);
    else if (fabs(v) >= 100)
        snprintf(buf, cap, "%.1f", v);
    else if (fabs(v) >= 10)
        snprintf(buf, cap, "%.2f", v);
    else
        snprintf(buf, cap, "%.3f", v);
}

void bench_print_table(const bench_report *r, FILE *f) {
    fprintf(f, "wgc bench %s\n", r->title);
    for (int i = 0; i < r->info_count; i++)
        fprintf(f, "  %-10s %s\n", r->info_key[i], r->info_val[i]);
    for (int b = 0; b < r->baseline_count; b++)
        fprintf(f, "  baseline %s: %s%s%s\n", r->baselines[b].name, r->baselines[b].ran ? "" : "none (",
                r->baselines[b].info, r->baselines[b].ran ? "" : ")");
    fprintf(f, "  (ratio = how many times better wgc is than the baseline: >1 wgc wins)\n");
    if (r->cpu_adapter)
        fprintf(f, "  (a CPU adapter: the targets are set for GPUs, shown here but not judged)\n");
    fputc('\n', f);
    fprintf(f, "%-40s %10s %-5s", "benchmark", "wgc", "unit");
    for (int b = 0; b < r->baseline_count; b++)
        fprintf(f, " %10s %7s", r->baselines[b].name, "ratio");
    fprintf(f, "  %s\n", "target");
    for (int i = 0; i < r->row_count; i++) {
        const bench_row *row = &r->rows[i];
        char v[32];
        fmt_num(v, sizeof v, row->ours);
        fprintf(f, "%-40s %10s %-5s", row->name, v, row->unit);
        for (int b = 0; b < r->baseline_count; b++) {
            char bv[32], rv[32];
            fmt_num(bv, sizeof bv, row->base[b]);
            double ratio = bench_ratio(row, b);
            if (isnan(ratio))
                snprintf(rv, sizeof rv, "-");
            else
                snprintf(rv, sizeof rv, "x%.2f", ratio);
            fprintf(f, " %10s %7s", bv, rv);
        }
        if (!isnan(row->target)) {
            char t[32];
            fmt_num(t, sizeof t, row->target);
            fprintf(f, "  %s %s %s%s", row->better == BENCH_HIGHER ? ">=" : "<=", t, row->unit,
                    isnan(row->ours) ? "" : target_met(row) ? " met"
                    : r->cpu_adapter ? " (target applies to GPUs)" : " MISSED");
        }
        fputc('\n', f);
    }
    bool notes = false;
    for (int i = 0; i < r->row_count; i++)
        if (r->rows[i].note[0] || r->rows[i].base_note[0][0] || r->rows[i].base_note[1][0] ||
            r->rows[i].base_note[2][0]) {
            if (!notes)
                fputs("\nnotes:\n", f);
            notes = true;
            fprintf(f, "  %s: %s", r->rows[i].name, r->rows[i].note);
            for (int b = 0; b < r->baseline_count; b++)
                if (r->rows[i].base_note[b][0])
                    fprintf(f, "; %s = %s", r->baselines[b].name, r->rows[i].base_note[b]);
            fputc('\n', f);
        }
}

static void json_num(FILE *f, double v) {
    if (isnan(v) || isinf(v))
        fputs("null", f);
    else
        fprintf(f, "%.6g", v);
}

void bench_print_json(const bench_report *r, FILE *f) {
    fputs("{\"bench\":", f);
    cli_json_str(f, r->title);
    fputs(",\"info\":{", f);
    for (int i = 0; i < r->info_count; i++) {
        if (i)
            fputc(',', f);
        cli_json_str(f, r->info_key[i]);
        fputc(':', f);
        cli_json_str(f, r->info_val[i]);
    }
    fprintf(f, "},\"cpuAdapter\":%s,\"baselines\":[", r->cpu_adapter ? "true" : "false");
    for (int b = 0; b < r->baseline_count; b++) {
        fprintf(f, "%s{\"name\":", b ? "," : "");
        cli_json_str(f, r->baselines[b].name);
        fprintf(f, ",\"ran\":%s,\"%s\":", r->baselines[b].ran ? "true" : "false",
                r->baselines[b].ran ? "info" : "reason");
        cli_json_str(f, r->baselines[b].info);
        fputc('}', f);
    }
    fputs("],\"rows\":[", f);
    for (int i = 0; i < r->row_count; i++) {
        const bench_row *row = &r->rows[i];
        fprintf(f, "%s{\"key\":", i ? "," : "");
        cli_json_str(f, row->key);
        fputs(",\"name\":", f);
        cli_json_str(f, row->name);
        fputs(",\"unit\":", f);
        cli_json_str(f, row->unit);
        fprintf(f, ",\"better\":\"%s\",\"wgc\":", row->better == BENCH_HIGHER ? "higher" : "lower");
        json_num(f, row->ours);
        fputs(",\"target\":", f);
        json_num(f, row->target);
        /* on a CPU adapter a GPU target is not judged: targetMet is null */
        if (!isnan(row->target) && !isnan(row->ours))
            fprintf(f, ",\"targetMet\":%s", r->cpu_adapter && !target_met(row) ? "null"
                                             : target_met(row) ? "true" : "false");
        fputs(",\"note\":", f);
        cli_json_str(f, row->note);
        fputs(",\"baselines\":{", f);
        for (int b = 0; b < r->baseline_count; b++) {
            fprintf(f, "%s", b ? "," : "");
            cli_json_str(f, r->baselines[b].name);
            fputs(":{\"value\":", f);
            json_num(f, row->base[b]);
            fputs(",\"ratio\":", f);
            json_num(f, bench_ratio(row, b));
            fputs(",\"what\":", f);
            cli_json_str(f, row->base_note[b]);
            fputc('}', f);
        }
        fputs("}}", f);
    }
    fputs("]}\n", f);
}


int bench_output(const bench_report *r, const bench_options *opt) {
    if (opt->json)
        bench_print_json(r, stdout);
    else
        bench_print_table(r, stdout);
    return opt->svg && bench_write_svg(r, opt->svg) ? 2 : 0;
}

void bench_relative_targets(bench_report *r, int b, const double *rel, int n) {
    for (int i = 0; i < n && i < r->row_count; i++) {
        bench_row *row = &r->rows[i];
        double f = rel[i];
        if (isnan(f))
            continue;
        if (!isnan(row->base[b]))
            row->target = f * row->base[b];
        /* Formatted apart first: GCC's -Wrestrict (at -O1 with sanitizers) cannot tell that the
         * baseline's name and the row's note are different parts of *r. */
        char add[96];
        size_t l = strlen(row->note);
        snprintf(add, sizeof add, "%starget %.0f%% of %s", l ? "; " : "", f * 100, r->baselines[b].name);
        snprintf(row->note + l, sizeof row->note - l, "%s", add);
    }
}
double bench_now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double bench_median(double *v, int n) {
    if (n <= 0)
        return NAN;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double bench_min(const double *v, int n) {
    double m = NAN;
    for (int i = 0; i < n; i++)
        if (isnan(m) || v[i] < m)
            m = v[i];
    return m;
}

double bench_mean(const double *v, int n) {
    if (n <= 0)
        return NAN;
    double s = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    return s / n;
}

bool bench_want(const bench_options *opt, const char *baseline) {
    const char *s = opt->baseline ? opt->baseline : "auto";
    if (!strcmp(s, "auto"))
        return true;
    size_t n = strlen(baseline);
    for (const char *p = s; (p = strstr(p, baseline)) != NULL; p += n)
        if ((p == s || p[-1] == ',') && (p[n] == 0 || p[n] == ','))
            return true;
    return false;
}

int bench_spawn(const char *const *argv, const char *const *env, double timeout_s, bool quiet_stderr,
                char **out) {
    *out = NULL;
    int fds[2];
    if (pipe(fds))
        return -1;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDWR);
        if (devnull >= 0) {
            dup2(devnull, 0);
            if (quiet_stderr)
                dup2(devnull, 2);
        }
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        for (const char *const *e = env; e && *e; e++)
            putenv((char *)(uintptr_t)*e);
        execvp(argv[0], (char *const *)(uintptr_t)argv);
        fprintf(stderr, "wgc bench: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    size_t cap = 1 << 14, n = 0;
    char *buf = malloc(cap);
    double deadline = bench_now_s() + timeout_s;
    bool timed_out = false;
    for (;;) {
        double left = deadline - bench_now_s();
        if (left <= 0) {
            timed_out = true;
            break;
        }
        struct pollfd p = { .fd = fds[0], .events = POLLIN };
        int pr = poll(&p, 1, (int)(left * 1000) + 1);
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr <= 0)
            continue;
        if (buf && n + 4096 + 1 > cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
            } else {
                buf = nb;
                cap *= 2;
            }
        }
        char tmp[4096];
        ssize_t got = read(fds[0], buf ? buf + n : tmp, buf ? cap - n - 1 : sizeof tmp);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        if (buf)
            n += (size_t)got;
    }
    close(fds[0]);
    int status = 0;
    if (timed_out) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    } else {
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
    if (buf)
        buf[n] = 0;
    *out = buf;
    if (timed_out)
        return 124;
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Points just past `"key"` followed by optional blanks and a colon; NULL when absent. */
static const char *json_key(const char *text, const char *key) {
    size_t n = strlen(key);
    for (const char *p = text; (p = strchr(p, '"')) != NULL; p++) {
        if (!strncmp(p + 1, key, n) && p[1 + n] == '"') {
            const char *q = p + 2 + n;
            while (*q == ' ' || *q == '\t')
                q++;
            if (*q == ':') {
                q++;
                while (*q == ' ' || *q == '\t')
                    q++;
                return q;
            }
        }
    }
    return NULL;
}

double bench_json_num(const char *text, const char *key, const char *key2) {
    if (!text)
        return NAN;
    const char *p = json_key(text, key);
    if (p && key2)
        p = json_key(p, key2);
    if (!p)
        return NAN;
    char *end;
    double v = strtod(p, &end);
    return end == p ? NAN : v;
}

bool bench_json_str(const char *text, const char *key, char *buf, size_t cap) {
    const char *p = text ? json_key(text, key) : NULL;
    if (!p || *p != '"' || cap == 0)
        return false;
    size_t n = 0;
    for (p++; *p && *p != '"' && n + 1 < cap; p++) {
        if (*p == '\\' && p[1])
            p++;
        buf[n++] = *p;
    }
    buf[n] = 0;
    return true;
}

bool bench_file_exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

const char *bench_last_json_line(char *out) {
    const char *last = NULL;
    for (char *line = out; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        if (line[0] == '{')
            last = line;
        line = nl ? nl + 1 : NULL;
    }
    return last;
}

char *bench_torch_baseline(bench_report *rep, int b, const bench_options *opt, bool cpu_adapter,
                           const char *adapter, const char *script, const char *const *args, const char *how,
                           const char **js) {
    *js = NULL;
    bool named = opt->baseline && strcmp(opt->baseline, "auto") != 0 && bench_want(opt, "torch");
    if (cpu_adapter && !named) {
        bench_baseline_status(rep, b, false, "adapter '%s' is a CPU; PyTorch/CUDA would not run on the same device",
                              adapter);
        return NULL;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/bench/%s", opt->root, script);
    if (!bench_file_exists(path)) {
        bench_baseline_status(rep, b, false, "%s not found (--root)", path);
        return NULL;
    }
    const char *py = getenv("WGC_PYTHON");
    const char *argv[32] = { py && *py ? py : "python3", path };
    int argc = 2;
    for (; args && *args && argc < 30; args++)
        argv[argc++] = *args;
    argv[argc] = NULL;
    if (opt->verbose)
        fprintf(stderr, "wgc bench: baseline: %s %s\n", argv[0], path);
    char *out = NULL;
    int rc = bench_spawn(argv, NULL, 600, !opt->verbose, &out);
    const char *line = out ? bench_last_json_line(out) : NULL;
    char err[160];
    if (line && bench_json_str(line, "error", err, sizeof err)) {
        bench_baseline_status(rep, b, false, "%s", err);
    } else if (rc != 0 || !line) {
        bench_baseline_status(rep, b, false, "%s exited with status %d%s", path, rc, rc == 127 ? " (no python3?)" : "");
    } else {
        char dev[96] = "?", ver[32] = "?";
        bench_json_str(line, "device", dev, sizeof dev);
        bench_json_str(line, "torch", ver, sizeof ver);
        bench_baseline_status(rep, b, true, "PyTorch %s on %s (%s)", ver, dev, how);
        *js = line;
        return out;
    }
    free(out);
    return NULL;
}

bool bench_wt_open(bench_wt *w, const char *label, bool f16, bool kernels) {
    memset(w, 0, sizeof *w);
    wg_error err;
    wg_env_strings env;
    wg_instance_desc idesc = { .label = label, .validation = -1 };
    wg_adapter_options opt = { .label = label };
    wg_device_desc ddesc = { .label = label };
    if (!wg_config_from_env(&env, &idesc, &opt, &ddesc, &err)) {
        fprintf(stderr, "wgc bench: %s\n", err.message);
        return false;
    }
    w->inst = wg_instance_create(&idesc, &err);
    wg_adapter *ad = w->inst ? wg_instance_request_adapter(w->inst, &opt, &err) : NULL;
    bool has_f16 = f16 && ad && wg_adapter_has_feature(ad, WG_FEATURE_SHADER_F16);
    uint64_t feats = has_f16 ? WG_FEATURE_BIT(WG_FEATURE_SHADER_F16) : 0;
    if (has_f16 && wg_adapter_has_feature(ad, WG_FEATURE_COOPERATIVE_MATRIX))   /* the tensor-core rows */
        feats |= WG_FEATURE_BIT(WG_FEATURE_COOPERATIVE_MATRIX);
    if (has_f16 && wg_adapter_has_feature(ad, WG_FEATURE_WORKGROUP_MATRIX))   /* matmul_wgm.wgsl */
        feats |= WG_FEATURE_BIT(WG_FEATURE_WORKGROUP_MATRIX);
    if (ad && wg_adapter_has_feature(ad, WG_FEATURE_SUBGROUPS))   /* flash3.wgsl's shuffles (attention.c) */
        feats |= WG_FEATURE_BIT(WG_FEATURE_SUBGROUPS);
    if (kernels && ad && wg_adapter_has_feature(ad, WG_FEATURE_PIPELINE_STATISTICS))
        feats |= WG_FEATURE_BIT(WG_FEATURE_PIPELINE_STATISTICS);
    ddesc.required_features = feats;
    w->dev = ad ? wg_adapter_create_device(ad, &ddesc, &err) : NULL;
    wt_context_desc cd = { .label = label };
    char perr[160] = "no wt context";
    bool pol = wt_policy_from_env(&cd.policy, perr, sizeof perr);   /* WGC_* knobs: doc/tensor.md */
    w->ctx = w->dev && pol ? wt_context_create(w->dev, &cd) : NULL;
    if (!w->ctx) {
        fprintf(stderr, "wgc bench: %s\n", w->dev ? perr : err.message);
        if (w->dev)
            wg_device_release(w->dev);
        if (w->inst)
            wg_instance_release(w->inst);
        memset(w, 0, sizeof *w);
        return false;
    }
    w->info = wg_adapter_get_info(ad);
    w->cpu = w->info->type == WG_ADAPTER_TYPE_CPU;
    w->timed = wt_context_set_timing(w->ctx, true) == WT_OK;
    w->kernels = kernels;
    wt_clear_error(w->ctx);
    return true;
}

bool bench_wt_start(const bench_options *opt, const char *name, bool f16, bench_report **rep, bench_wt *w,
                    bench_size *size) {
    char label[64];
    snprintf(label, sizeof label, "bench %s", name);
    *rep = calloc(1, sizeof **rep);
    if (!*rep)
        return false;
    bench_report_init(*rep, name);
    if (!bench_wt_open(w, label, f16, opt->kernels)) {
        free(*rep);
        *rep = NULL;
        return false;
    }
    bench_wt_info(w, *rep);
    *size = opt->size != BENCH_SIZE_AUTO ? opt->size : w->cpu ? BENCH_SIZE_MEDIUM : BENCH_SIZE_FULL;
    return true;
}

int bench_runs(const bench_options *opt, int dflt) {
    if (!opt->runs)
        return dflt;
    return opt->runs < BENCH_MAX_RUNS ? opt->runs : BENCH_MAX_RUNS;
}

void bench_wt_info(const bench_wt *w, bench_report *r) {
    const wg_adapter_info *info = w->info;
    r->cpu_adapter = w->cpu;
    bench_info(r, "adapter", "%s (%s, %s %s)", info->name, wg_adapter_type_name(info->type), info->driver_name,
               info->driver_info);
    bench_info(r, "timing", "%s", w->timed ? "GPU time per op: wt batch timestamps around the reps' batches (as CUDA events)"
                                           : "wall clock per op: record + submit + wait (no timestamp queries)");
}

bench_options bench_options_default(void) {
    return (bench_options){ .root = ".", .baseline = "auto",
                            .verbose = isatty(STDERR_FILENO) && !getenv("WGC_NO_PROGRESS") };
}

int bench_shared_option(bench_options *opt, int argc, char **argv, int *i) {
    const char *a = argv[*i];
    bool more = *i + 1 < argc;
    if (!strcmp(a, "--json")) {
        opt->json = true;
    } else if (!strcmp(a, "-v")) {
        opt->verbose = true;
    } else if (!strcmp(a, "--kernels")) {
        opt->kernels = true;
    } else if (!strcmp(a, "--profile")) {
        opt->profile = true;
    } else if (!strcmp(a, "--size") && more) {
        const char *s = argv[++*i];
        opt->size = !strcmp(s, "small") ? BENCH_SIZE_SMALL : !strcmp(s, "medium") ? BENCH_SIZE_MEDIUM
                    : !strcmp(s, "full") ? BENCH_SIZE_FULL : !strcmp(s, "auto") ? BENCH_SIZE_AUTO : BENCH_SIZE_COUNT;
        if (opt->size == BENCH_SIZE_COUNT) {
            fprintf(stderr, "wgc: bench: --size takes small, medium, full or auto\n");
            return -1;
        }
    } else if (!strcmp(a, "--runs") && more) {
        opt->runs = atoi(argv[++*i]);
        if (opt->runs < 1 || opt->runs > 10000) {
            fprintf(stderr, "wgc: bench: --runs takes 1..10000\n");
            return -1;
        }
    } else if (!strcmp(a, "--baseline") && more) {
        opt->baseline = argv[++*i];
    } else if (!strcmp(a, "--svg") && more) {
        opt->svg = argv[++*i];
    } else if (!strcmp(a, "--root") && more) {
        opt->root = argv[++*i];
    } else {
        return 0;
    }
    return 1;
}

void bench_say(const bench_options *opt, const char *fmt, ...) {
    if (!opt->verbose)
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("wgc bench: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

bool bench_kernel_built(wt_context *ctx, const char *file) {
    uint32_t n = wt_kernel_list(ctx, NULL, 0);
    wt_kernel_info *ki = n ? calloc(n, sizeof *ki) : NULL;
    size_t len = strlen(file);
    bool found = false;
    if (ki) {
        n = wt_kernel_list(ctx, ki, n);
        for (uint32_t i = 0; i < n && !found; i++)
            found = !strncmp(ki[i].name, file, len) && ki[i].name[len] == ' ';
    }
    free(ki);
    return found;
}

static int by_gpu_time(const void *a, const void *b) {
    uint64_t x = ((const wt_kernel_info *)a)->gpu_ns, y = ((const wt_kernel_info *)b)->gpu_ns;
    return x < y ? 1 : x > y ? -1 : 0;
}

void bench_profile_print(wt_context *ctx, const char *what, int steps) {
    uint32_t n = wt_kernel_list(ctx, NULL, 0);
    wt_kernel_info *ki = n ? calloc(n, sizeof *ki) : NULL;
    if (!ki)
        return;
    n = wt_kernel_list(ctx, ki, n);
    qsort(ki, n, sizeof *ki, by_gpu_time);
    uint64_t total = 0, calls = 0;
    for (uint32_t i = 0; i < n; i++)
        total += ki[i].gpu_ns, calls += ki[i].calls;
    double per = steps > 0 ? (double)steps : 1.0;
    fprintf(stderr, "wgc bench: profile %s: %.3f ms of GPU time per step in %.0f dispatches (one pass each)\n", what,
            (double)total * 1e-6 / per, (double)calls / per);
    for (uint32_t i = 0; i < n && ki[i].gpu_ns; i++)
        fprintf(stderr, "wgc bench: profile %s: %8.3f ms %5.1f%% %6.0f calls  %s\n", what,
                (double)ki[i].gpu_ns * 1e-6 / per, 100.0 * (double)ki[i].gpu_ns / (double)(total ? total : 1),
                (double)ki[i].calls / per, ki[i].name);
    free(ki);
}

bool bench_got(wt_context *ctx, int *errors, const char *what, const void *t) {
    if (t)
        return true;
    fprintf(stderr, "wgc bench: %s: %s\n", what, wt_last_error(ctx));
    wt_clear_error(ctx);
    (*errors)++;
    return false;
}

uint64_t bench_gpu_ns(wt_context *ctx) {
    wt_stats st;
    wt_get_stats(ctx, &st);
    return st.gpu_ns;
}

bool bench_time_op(wt_context *ctx, bool timed, int *errors, bench_op op, void *arg, int reps, int runs,
                   bench_times *out) {
    double secs[BENCH_MAX_RUNS], walls[BENCH_MAX_RUNS];
    runs = runs < 1 ? 1 : runs > BENCH_MAX_RUNS ? BENCH_MAX_RUNS : runs;
    wt_tensor **outs = calloc((size_t)reps, sizeof *outs);
    if (!outs)
        return false;
    bool good = true;
    double warm_until = -1;
    /* r = -1: warm-up (kernels, autotuner, pool), run again until BENCH_WARM_S have passed after
     * the first: the GPU's clocks */
    for (int r = -1; r < runs && good; r++) {
        if (r == 0 && bench_now_s() < warm_until)
            r = -1;
        wt_sync(ctx);
        uint64_t g0 = bench_gpu_ns(ctx);
        double t0 = bench_now_s();
        for (int i = 0; i < reps && good; i++)
            good = bench_got(ctx, errors, "op", outs[i] = op(arg));
        good = good && wt_sync(ctx) == WT_OK;
        double t = (bench_now_s() - t0) / reps;
        for (int i = 0; i < reps; i++) {
            wt_release(outs[i]);
            outs[i] = NULL;
        }
        if (warm_until < 0)
            warm_until = bench_now_s() + BENCH_WARM_S;
        if (r >= 0) {
            walls[r] = t;
            secs[r] = timed ? (double)(bench_gpu_ns(ctx) - g0) * 1e-9 / reps : t;
        }
    }
    free(outs);
    if (!good)
        return false;
    out->best = bench_min(secs, runs);
    out->median = bench_median(secs, runs);
    out->wall = bench_median(walls, runs);
    return true;
}

static int kernel_order(const void *a, const void *b) {
    return strcmp(((const wt_kernel_info *)a)->name, ((const wt_kernel_info *)b)->name);
}

void bench_wt_done(bench_wt *w, bench_report *r) {
    wt_stats st;
    wt_get_stats(w->ctx, &st);
    bench_info(r, "wt", "%llu dispatches in %llu submits (%llu fused away), %llu kernels compiled, bind groups %llu "
               "hits / %llu misses, peak %.1f MiB", (unsigned long long)st.dispatches, (unsigned long long)st.flushes,
               (unsigned long long)st.fused, (unsigned long long)st.kernels_compiled,
               (unsigned long long)st.bind_group_hits, (unsigned long long)st.bind_group_misses,
               (double)st.peak_allocated_bytes / 1048576.0);
    uint32_t n = w->kernels ? wt_kernel_list(w->ctx, NULL, 0) : 0;
    wt_kernel_info *ks = n ? calloc(n, sizeof *ks) : NULL;
    if (ks) {
        n = wt_kernel_list(w->ctx, ks, n);
        qsort(ks, n, sizeof *ks, kernel_order);
        for (uint32_t i = 0; i < n; i++) {
            fprintf(stderr, "wgc bench: kernel %s", ks[i].name);
            for (uint32_t j = 0; j < ks[i].statistic_count; j++)
                fprintf(stderr, "%s%s %.*f", j ? ", " : ": ", ks[i].statistics[j].name,
                        ks[i].statistics[j].integer ? 0 : 3, ks[i].statistics[j].value);
            fputc('\n', stderr);
        }
        free(ks);
    }
    wt_context_destroy(w->ctx);
    wg_device_release(w->dev);
    w->ctx = NULL;
    w->dev = NULL;
}

int bench_wt_end(bench_wt *w, bench_report *r, const bench_options *opt, int wrong, int errors) {
    if (errors)
        bench_info(r, "errors", "%d wt errors (see stderr)", errors);
    if (wrong)
        bench_info(r, "WRONG", "%d results did not match the CPU reference", wrong);
    if (bench_output(r, opt))
        errors++;
    wg_instance_release(w->inst);
    w->inst = NULL;
    return wrong ? 1 : errors ? 2 : 0;
}
