/* run.c - `wgc run` and `wgc profile`: run one WGSL compute entry point on buffers described on
 * the command line, write chosen bindings back to .npy files, print a summary of each output;
 * profile adds warmup and repeated timed runs (GPU timestamps), compile and pipeline times apart,
 * and bandwidth / throughput from --bytes / --flops.
 *
 * The two commands share everything: options are parsed into one run_args, each --bind SPEC
 * becomes host data (generated here, or loaded with the tensor layer's wt_load_npy; outputs are
 * written with wt_save_npy), and the GPU work is one call of wg_device_run_kernel (src/gpu/runner.c),
 * the engine the Python package uses too.  Random data comes from the tensor layer's generator
 * (wt_manual_seed + wt_rand, Philox-4x32-10), so the numbers match wt_rand with the same seed.
 * Exit status: 0 ok, 1 invalid kernel (diagnostics on stderr), 2 usage, I/O or GPU error. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "wgc/gpu.h"
#include "wgc/tensor.h"
#include "wgc/wgsl.h"

#define RUN_MAX_BINDS 64
#define RUN_MAX_OVERRIDES 64
#define RUN_SHOW 6   /* values shown per output */

/* Every error of run/profile goes through run_fail: "wgc: <message>" on stderr (cli_fail), and
 * the message kept so that --json can print it as its one document (run_json_error). */
static char run_msg[512];
static int run_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int run_fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(run_msg, sizeof run_msg, fmt, ap);
    va_end(ap);
    return cli_fail("%s", run_msg);
}

typedef enum spec_kind { SPEC_NONE = 0, SPEC_ZEROS, SPEC_FILL, SPEC_ARANGE, SPEC_RAND, SPEC_NPY, SPEC_COUNT } spec_kind;

typedef struct bind_spec {
    uint32_t group, binding;
    const char *text;            /* the SPEC as given */
    spec_kind kind;
    wt_dtype dt;
    int ndim;
    int64_t shape[WT_MAX_DIMS], numel;
    double value;                /* fill value, or rand seed */
    char npy[1024];              /* input file (SPEC_NPY) */
    char out[1024];              /* output file, "" if none */
    void *data;                  /* host data, numel * element size bytes */
    void *back;                  /* read back */
    size_t bytes;
} bind_spec;

typedef struct run_args {
    bool profile, json;
    const char *file, *entry, *adapter;
    uint32_t dispatch[3];
    bool have_dispatch;
    bind_spec binds[RUN_MAX_BINDS];
    uint32_t nbind;
    wg_kernel_override ov[RUN_MAX_OVERRIDES];
    uint32_t nov;
    uint32_t repeat, warmup;
    double bytes, flops;
    bool wall_clock, no_bounds;
} run_args;

static void run_usage(FILE *f, bool profile) {
    fprintf(f, "usage: wgc %s FILE.wgsl --dispatch X[,Y,Z] --bind G:B=SPEC... [options]\n", profile ? "profile" : "run");
    fputs(profile ? "  Runs a compute entry point warmup + repeat times and reports GPU time per run (timestamp\n"
                    "  queries), compile and pipeline-creation time apart, GB/s / GFLOP/s on request, and the\n"
                    "  driver's figures for the pipeline (registers, spills, ...) where it reports them.\n"
                  : "  Runs a compute entry point once and prints a summary of each output binding.\n",
          f);
    fputs("  --entry NAME          entry point (default: the only compute one)\n"
          "  --dispatch X[,Y,Z]    workgroup counts (required)\n"
          "  --bind G:B=SPEC       buffer of @group(G) @binding(B) (B=SPEC: group 0); SPEC is one of\n"
          "                          FILE.npy             contents of a .npy file (f32 f16 i32 u32; f64/i64 narrowed)\n"
          "                          zeros:T:SHAPE        zeros; T = f32 f16 i32 u32, SHAPE = N or AxBx..\n"
          "                          fill:T:SHAPE:V       every element V\n"
          "                          arange:T:SHAPE       0, 1, 2, ...\n"
          "                          rand:T:SHAPE:SEED    uniform [0,1) from wt_rand seeded with SEED (floats);\n"
          "                                               integers: floor(100 * that), in [0, 100)\n"
          "                        followed by ,out:FILE.npy to write the binding back after the run, e.g.\n"
          "                          --bind 0:1=zeros:f32:1024,out:y.npy\n"
          "  --override KEY=V      value of an `override`: KEY is its @id number when it has one, else\n"
          "                        its name (V finite, in the type's range; no initializer: required)\n"
          "  --adapter SEL         adapter index or name substring (default: $WGC_ADAPTER, else the best)\n"
          "  --json                one JSON document on stdout\n",
          f);
    if (profile)
        fputs("  --repeat N            timed runs (default 100)\n"
              "  --warmup M            untimed runs first (default 10)\n"
              "  --bytes N             bytes one run moves: prints GB/s at the median\n"
              "  --flops N             operations one run does: prints GFLOP/s at the median\n"
              "  --wall-clock          time runs on the host (submit + wait) instead of timestamps\n"
              "  --no-bounds-checks    compile without index clamping (unsafe; shows what the checks cost)\n",
              f);
    fputs("  Outputs: bindings with out:, or when none has one, every read_write storage binding, are\n"
          "  summarised (dtype, shape, min/max/mean, first values).  Exit: 0 ok, 1 invalid kernel,\n"
          "  2 bad usage, unreadable file or GPU error.\n",
          f);
}

/* ---- parsing ------------------------------------------------------------------------------ */
static bool parse_u32(const char *s, uint32_t *v) {
    char *end;
    if (!*s || *s == '-')
        return false;
    unsigned long x = strtoul(s, &end, 10);
    if (*end || x > UINT32_MAX)
        return false;
    *v = (uint32_t)x;
    return true;
}

static bool parse_num(const char *s, double *v) {
    char *end;
    if (!*s)
        return false;
    *v = strtod(s, &end);
    return !*end && isfinite(*v);
}

/* fill:T:SHAPE:V: V must be a value of T, not something the conversion wraps or rounds to inf */
static bool fill_fits(wt_dtype dt, double v) {
    switch (dt) {
    case WT_U32: return v == floor(v) && v >= 0 && v <= 4294967295.0;
    case WT_I32: return v == floor(v) && v >= -2147483648.0 && v <= 2147483647.0;
    case WT_F16: return isnan(v) || isinf(v) || fabs(v) <= 65504.0;
    default: return isnan(v) || isinf(v) || fabs(v) <= 3.4028234663852886e38;
    }
}

static wt_dtype parse_dtype(const char *s, size_t n) {
    static const struct { const char *name; wt_dtype dt; } t[] = { { "f32", WT_F32 }, { "f16", WT_F16 },
                                                                   { "i32", WT_I32 }, { "u32", WT_U32 } };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++)
        if (strlen(t[i].name) == n && !strncmp(s, t[i].name, n))
            return t[i].dt;
    return WT_DTYPE_DEFAULT;
}

/* "1024" or "4x256" into b->shape; false when malformed. */
static bool parse_shape(const char *s, size_t n, bind_spec *b) {
    b->ndim = 0;
    b->numel = 1;
    const char *p = s, *end = s + n;
    while (p < end) {
        char *q;
        if (*p < '0' || *p > '9' || b->ndim >= WT_MAX_DIMS)
            return false;
        long long v = strtoll(p, &q, 10);
        if (q > end || v <= 0 || v > (1ll << 40))
            return false;
        b->shape[b->ndim++] = v;
        b->numel *= v;
        if (b->numel > (1ll << 40))
            return false;
        p = q;
        if (p < end && *p != 'x')
            return false;
        if (p < end)
            p++;
    }
    return b->ndim > 0;
}

/* Splits "a:b:c" (length n) into at most max fields. */
static int split_fields(const char *s, size_t n, const char **f, size_t *len, int max) {
    int k = 0;
    const char *p = s, *end = s + n;
    while (k < max) {
        const char *c = memchr(p, ':', (size_t)(end - p));
        f[k] = p;
        len[k] = (size_t)((c ? c : end) - p);
        k++;
        if (!c)
            break;
        p = c + 1;
    }
    return k;
}

static int parse_bind(const char *arg, bind_spec *b) {
    const char *eq = strchr(arg, '=');
    if (!eq)
        return run_fail("--bind '%s': expected G:B=SPEC", arg);
    char gb[32];
    size_t n = (size_t)(eq - arg);
    if (n == 0 || n >= sizeof gb)
        return run_fail("--bind '%s': expected G:B=SPEC", arg);
    memcpy(gb, arg, n);
    gb[n] = 0;
    char *colon = strchr(gb, ':');
    if (colon)
        *colon = 0;
    if (colon ? !parse_u32(gb, &b->group) || !parse_u32(colon + 1, &b->binding) : !parse_u32(gb, &b->binding))
        return run_fail("--bind '%s': G and B must be numbers", arg);
    b->text = eq + 1;
    for (const char *p = eq + 1; *p;) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        const char *f[5];
        size_t fl[5];
        int nf = split_fields(p, len, f, fl, 5);
        if (len > 4 && !strncmp(p, "out:", 4)) {
            if (len - 4 >= sizeof b->out)
                return run_fail("--bind '%s': output path too long", arg);
            memcpy(b->out, p + 4, len - 4);
            b->out[len - 4] = 0;
        } else if (b->kind != SPEC_NONE) {
            return run_fail("--bind '%s': more than one source of contents", arg);
        } else if (nf >= 3 && (!strncmp(p, "zeros:", 6) || !strncmp(p, "fill:", 5) || !strncmp(p, "arange:", 7) ||
                               !strncmp(p, "rand:", 5))) {
            b->kind = p[0] == 'z' ? SPEC_ZEROS : p[0] == 'f' ? SPEC_FILL : p[0] == 'a' ? SPEC_ARANGE : SPEC_RAND;
            int want = b->kind == SPEC_FILL || b->kind == SPEC_RAND ? 4 : 3;
            if (nf != want)
                return run_fail("--bind '%s': '%.*s' needs %s", arg, (int)len, p,
                                want == 4 ? (b->kind == SPEC_FILL ? "fill:T:SHAPE:V" : "rand:T:SHAPE:SEED")
                                          : "KIND:T:SHAPE");
            b->dt = parse_dtype(f[1], fl[1]);
            if (!b->dt)
                return run_fail("--bind '%s': dtype '%.*s' (f32, f16, i32 or u32)", arg, (int)fl[1], f[1]);
            if (!parse_shape(f[2], fl[2], b))
                return run_fail("--bind '%s': shape '%.*s' (N or AxBx.., positive)", arg, (int)fl[2], f[2]);
            if (want == 4) {
                char num[64];
                if (fl[3] >= sizeof num)
                    return run_fail("--bind '%s': bad number", arg);
                memcpy(num, f[3], fl[3]);
                num[fl[3]] = 0;
                if (!parse_num(num, &b->value) || (b->kind == SPEC_RAND && (b->value < 0 || b->value != floor(b->value))))
                    return run_fail("--bind '%s': bad %s '%s'", arg, b->kind == SPEC_RAND ? "seed" : "value", num);
                if (b->kind == SPEC_FILL && !fill_fits(b->dt, b->value))
                    return run_fail("--bind '%s': value %s does not fit %.*s (%s)", arg, num, (int)fl[1], f[1],
                                    b->dt == WT_U32 ? "an integer in 0..4294967295"
                                    : b->dt == WT_I32 ? "an integer in -2147483648..2147483647"
                                    : b->dt == WT_F16 ? "|value| <= 65504" : "a finite f32");
            }
        } else {
            if (len == 0 || len >= sizeof b->npy)
                return run_fail("--bind '%s': empty or too long SPEC", arg);
            if (len < 4 || strncmp(p + len - 4, ".npy", 4))
                return run_fail("--bind '%s': '%.*s' is neither a .npy file nor zeros:/fill:/arange:/rand:/out:", arg,
                                (int)len, p);
            b->kind = SPEC_NPY;
            memcpy(b->npy, p, len);
            b->npy[len] = 0;
        }
        p = c ? c + 1 : p + len;
    }
    if (b->kind == SPEC_NONE)
        return run_fail("--bind '%s': out: needs contents too, e.g. zeros:f32:1024,out:FILE.npy", arg);
    return 0;
}

static int parse_args(int argc, char **argv, run_args *a) {
    a->repeat = a->profile ? 100 : 1;
    a->warmup = a->profile ? 10 : 0;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool takes = !strcmp(s, "--entry") || !strcmp(s, "--dispatch") || !strcmp(s, "--bind") ||
                     !strcmp(s, "--override") || !strcmp(s, "--adapter") ||
                     (a->profile && (!strcmp(s, "--repeat") || !strcmp(s, "--warmup") || !strcmp(s, "--bytes") ||
                                     !strcmp(s, "--flops")));
        if (takes && !v)
            return run_fail("%s: %s needs a value (try wgc %s --help)", argv[0], s, argv[0]);
        if (takes)
            i++;
        if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
            run_usage(stdout, a->profile);
            return -1;
        } else if (!strcmp(s, "--json")) {
            a->json = true;
        } else if (a->profile && !strcmp(s, "--wall-clock")) {
            a->wall_clock = true;
        } else if (a->profile && !strcmp(s, "--no-bounds-checks")) {
            a->no_bounds = true;
        } else if (!strcmp(s, "--entry")) {
            a->entry = v;
        } else if (!strcmp(s, "--adapter")) {
            a->adapter = v;
        } else if (!strcmp(s, "--dispatch")) {
            char tmp[64];
            snprintf(tmp, sizeof tmp, "%s", v);
            a->dispatch[1] = a->dispatch[2] = 1;
            int k = 0;
            for (char *tok = strtok(tmp, ","); tok; tok = strtok(NULL, ","))
                if (k >= 3 || !parse_u32(tok, &a->dispatch[k++]))
                    return run_fail("%s: --dispatch '%s': X[,Y,Z] with non-negative numbers", argv[0], v);
            if (k == 0)
                return run_fail("%s: --dispatch '%s': X[,Y,Z]", argv[0], v);
            a->have_dispatch = true;
        } else if (!strcmp(s, "--bind")) {
            if (a->nbind >= RUN_MAX_BINDS)
                return run_fail("%s: at most %d --bind", argv[0], RUN_MAX_BINDS);
            if (parse_bind(v, &a->binds[a->nbind]))
                return 2;
            for (uint32_t k = 0; k < a->nbind; k++)
                if (a->binds[k].group == a->binds[a->nbind].group && a->binds[k].binding == a->binds[a->nbind].binding)
                    return run_fail("%s: --bind %u:%u given twice", argv[0], a->binds[k].group, a->binds[k].binding);
            a->nbind++;
        } else if (!strcmp(s, "--override")) {
            const char *eq = strchr(v, '=');
            if (!eq || eq == v || a->nov >= RUN_MAX_OVERRIDES || !parse_num(eq + 1, &a->ov[a->nov].value))
                return run_fail("%s: --override '%s': NAME=NUMBER", argv[0], v);
            *(char *)eq = 0;   /* argv strings are writable */
            a->ov[a->nov++].name = v;
        } else if (!strcmp(s, "--repeat") || !strcmp(s, "--warmup")) {
            uint32_t n;
            if (!parse_u32(v, &n) || n > 1000000 || (s[2] == 'r' && n == 0))
                return run_fail("%s: %s '%s': a number (repeat 1..1000000, warmup 0..1000000)", argv[0], s, v);
            *(s[2] == 'r' ? &a->repeat : &a->warmup) = n;
        } else if (!strcmp(s, "--bytes") || !strcmp(s, "--flops")) {
            double d;
            if (!parse_num(v, &d) || d <= 0)
                return run_fail("%s: %s '%s': a positive number (1e9 is fine)", argv[0], s, v);
            *(s[2] == 'b' ? &a->bytes : &a->flops) = d;
        } else if (s[0] == '-' && s[1]) {
            return run_fail("%s: unknown option '%s' (try wgc %s --help)", argv[0], s, argv[0]);
        } else if (a->file) {
            return run_fail("%s: one kernel file at a time ('%s' and '%s')", argv[0], a->file, s);
        } else {
            a->file = s;
        }
    }
    if (!a->file) {
        run_usage(stderr, a->profile);
        return 2;
    }
    if (!a->have_dispatch)
        return run_fail("%s: --dispatch X[,Y,Z] is required", argv[0]);
    return 0;
}

/* ---- host data ---------------------------------------------------------------------------- */
static size_t elem_size(wt_dtype dt) {
    return dt == WT_F16 ? 2 : 4;
}

static double get_value(const bind_spec *b, const void *data, int64_t i) {
    const uint8_t *p = (const uint8_t *)data;
    switch (b->dt) {
    case WT_F16: { uint16_t h; memcpy(&h, p + 2 * i, 2); return wt_f16_to_f32(h); }
    case WT_I32: { int32_t v; memcpy(&v, p + 4 * i, 4); return v; }
    case WT_U32: { uint32_t v; memcpy(&v, p + 4 * i, 4); return v; }
    default: { float v; memcpy(&v, p + 4 * i, 4); return v; }
    }
}

static void set_value(const bind_spec *b, void *data, int64_t i, double v) {
    uint8_t *p = (uint8_t *)data;
    switch (b->dt) {
    case WT_F16: { uint16_t h = wt_f32_to_f16((float)v); memcpy(p + 2 * i, &h, 2); break; }
    case WT_I32: { int32_t x = (int32_t)v; memcpy(p + 4 * i, &x, 4); break; }
    case WT_U32: { uint32_t x = (uint32_t)v; memcpy(p + 4 * i, &x, 4); break; }
    default: { float x = (float)v; memcpy(p + 4 * i, &x, 4); break; }
    }
}

/* The tensor context, made on first use (only .npy files and rand: need it); NULL after printing
 * why (a malformed WGC_* variable, or out of memory). */
static wt_context *tensors(wg_device *dev, wt_context **ctx) {
    wt_context_desc cd = { .label = "wgc run" };
    char perr[160] = "out of memory";
    if (!*ctx && wt_policy_from_env(&cd.policy, perr, sizeof perr))
        *ctx = wt_context_create(dev, &cd);
    if (!*ctx)
        run_fail("%s", perr);
    return *ctx;
}

static int make_data(bind_spec *b, wg_device *dev, wt_context **ctx) {
    wt_tensor *t = NULL;
    if (b->kind == SPEC_NPY) {
        if (!tensors(dev, ctx))
            return 2;
        t = wt_load_npy(*ctx, b->npy);
        if (!t)
            return run_fail("--bind %u:%u: %s", b->group, b->binding, wt_last_error(*ctx));
        wt_dtype dt = wt_dtype_of(t);
        if (dt == WT_BOOL) {   /* bools go to the GPU as u32 */
            wt_tensor *u = wt_cast(*ctx, t, WT_U32);
            wt_release(t);
            t = u;
            if (!t)
                return run_fail("--bind %u:%u: %s", b->group, b->binding, wt_last_error(*ctx));
            dt = WT_U32;
        }
        b->dt = dt;
        b->ndim = wt_ndim(t);
        memcpy(b->shape, wt_shape(t), (size_t)b->ndim * sizeof *b->shape);
        b->numel = wt_numel(t);
        if (b->ndim == 0) {
            b->ndim = 1;
            b->shape[0] = 1;
        }
    }
    b->bytes = (size_t)b->numel * elem_size(b->dt);
    if (b->bytes == 0) {
        wt_release(t);
        return run_fail("--bind %u:%u: '%s' has no elements", b->group, b->binding, b->npy);
    }
    b->data = calloc(1, b->bytes);
    b->back = calloc(1, b->bytes);
    if (!b->data || !b->back) {
        wt_release(t);
        return run_fail("out of memory (%zu bytes for --bind %u:%u)", b->bytes, b->group, b->binding);
    }
    if (t) {
        wt_status s = wt_to_host(*ctx, t, b->data, b->bytes);
        wt_release(t);
        if (s != WT_OK)
            return run_fail("--bind %u:%u: %s", b->group, b->binding, wt_last_error(*ctx));
    } else if (b->kind == SPEC_FILL || b->kind == SPEC_ARANGE) {
        for (int64_t i = 0; i < b->numel; i++)
            set_value(b, b->data, i, b->kind == SPEC_FILL ? b->value : (double)i);
    } else if (b->kind == SPEC_RAND) {
        if (!tensors(dev, ctx))
            return 2;
        wt_manual_seed(*ctx, (uint64_t)b->value);
        bool fl = b->dt == WT_F32 || b->dt == WT_F16;
        wt_tensor *r = wt_rand(*ctx, fl ? b->dt : WT_F32, b->ndim, b->shape);
        float *tmp = fl ? NULL : malloc((size_t)b->numel * 4);
        wt_status s = r ? wt_to_host(*ctx, r, fl ? b->data : (void *)tmp, fl ? b->bytes : (size_t)b->numel * 4)
                        : wt_last_status(*ctx);
        wt_release(r);
        if (!fl && tmp && s == WT_OK)
            for (int64_t i = 0; i < b->numel; i++)
                set_value(b, b->data, i, floor(100.0 * tmp[i]));
        free(tmp);
        if (s != WT_OK || (!fl && !tmp))
            return run_fail("--bind %u:%u: rand: %s", b->group, b->binding, *wt_last_error(*ctx) ? wt_last_error(*ctx) : "out of memory");
    }
    return 0;
}

static int save_output(bind_spec *b, wt_context **ctx, wg_device *dev) {
    if (!tensors(dev, ctx))
        return 2;
    wt_tensor *t = wt_from_host(*ctx, b->dt, b->ndim, b->shape, b->back);
    wt_status s = t ? wt_save_npy(*ctx, t, b->out) : wt_last_status(*ctx);
    wt_release(t);
    if (s != WT_OK)
        return run_fail("writing '%s': %s", b->out, wt_last_error(*ctx));
    return 0;
}

/* ---- output ------------------------------------------------------------------------------- */
static void json_num(double v) {
    if (isfinite(v))
        printf("%.9g", v);
    else
        printf("null");   /* JSON has no NaN or infinity */
}

static void summarise(const bind_spec *b, bool json) {
    double mn = INFINITY, mx = -INFINITY, sum = 0;
    int64_t nan = 0;
    for (int64_t i = 0; i < b->numel; i++) {
        double v = get_value(b, b->back, i);
        if (isnan(v)) {
            nan++;
            continue;
        }
        mn = v < mn ? v : mn;
        mx = v > mx ? v : mx;
        sum += v;
    }
    double mean = b->numel > nan ? sum / (double)(b->numel - nan) : NAN;
    int64_t show = b->numel < RUN_SHOW ? b->numel : RUN_SHOW;
    if (json) {
        printf("{\"group\":%u,\"binding\":%u,\"file\":", b->group, b->binding);
        if (b->out[0])
            cli_json_str(stdout, b->out);
        else
            printf("null");
        printf(",\"dtype\":\"%s\",\"shape\":[", wt_dtype_name(b->dt));
        for (int d = 0; d < b->ndim; d++)
            printf("%s%lld", d ? "," : "", (long long)b->shape[d]);
        printf("],\"min\":");
        json_num(mn);
        printf(",\"max\":");
        json_num(mx);
        printf(",\"mean\":");
        json_num(mean);
        printf(",\"nan\":%lld,\"first\":[", (long long)nan);
        for (int64_t i = 0; i < show; i++) {
            if (i)
                putchar(',');
            json_num(get_value(b, b->back, i));
        }
        printf("]}");
        return;
    }
    char shape[128];
    int n = 0;
    for (int d = 0; d < b->ndim; d++)
        n += snprintf(shape + n, sizeof shape - (size_t)n, "%s%lld", d ? "x" : "", (long long)b->shape[d]);
    printf("%u:%u %s[%s]", b->group, b->binding, wt_dtype_name(b->dt), shape);
    if (b->out[0])
        printf(" -> %s", b->out);
    printf("  min %.6g  max %.6g  mean %.6g", mn, mx, mean);
    if (nan)
        printf("  nan %lld", (long long)nan);
    printf("  [");
    for (int64_t i = 0; i < show; i++)
        printf("%s%.6g", i ? ", " : "", get_value(b, b->back, i));
    printf("%s]\n", b->numel > show ? ", ..." : "");
}

static void fmt_time(char *buf, size_t n, double ns) {
    if (ns >= 1e6)
        snprintf(buf, n, "%.3f ms", ns / 1e6);
    else if (ns >= 1e3)
        snprintf(buf, n, "%.2f us", ns / 1e3);
    else
        snprintf(buf, n, "%.0f ns", ns);
}

/* Which bindings are outputs: those with out:, else every read_write storage binding. */
static void pick_outputs(run_args *a, const char *src, size_t len, bool *is_out) {
    bool any = false;
    for (uint32_t k = 0; k < a->nbind; k++)
        any |= (is_out[k] = a->binds[k].out[0] != 0);
    if (any)
        return;
    wgsl_result *r = wgsl_compile(src, len, &(wgsl_options){ .label = "outputs" });
    for (uint32_t i = 0; r && r->ok && i < r->binding_count; i++)
        for (uint32_t k = 0; k < a->nbind; k++)
            if (r->bindings[i].group == a->binds[k].group && r->bindings[i].binding == a->binds[k].binding &&
                r->bindings[i].kind == WGSL_BINDING_STORAGE_READ_WRITE)
                is_out[k] = true;
    wgsl_result_free(r);
}

/* --json promises one document on every exit: an error before the kernel ran is this one */
static void run_json_error(void) {
    printf("{\"ok\":false,\"error\":\"WGC_ERROR\",\"message\":");
    cli_json_str(stdout, run_msg);
    printf(",\"diagnostics\":\"\"}\n");
}

static int run_main(int argc, char **argv, bool profile) {
    run_args *a = calloc(1, sizeof *a);
    if (!a)
        return run_fail("out of memory");
    a->profile = profile;
    int rc = parse_args(argc, argv, a);
    for (int i = 1; rc > 0 && i < argc; i++)   /* an error before --json was reached still owes it */
        a->json |= !strcmp(argv[i], "--json");
    if (rc) {
        if (rc > 0 && a->json)
            run_json_error();
        free(a);
        return rc < 0 ? 0 : rc;
    }
    const char *cmd = argv[0];
    size_t len = 0;
    char *src = NULL;
    int read_rc = cli_read_source(cmd, a->file, CLI_MAX_SOURCE_SIZE, &src, &len);
    wg_instance *inst = NULL;
    wg_device *dev = NULL;
    wt_context *ctx = NULL;
    uint64_t *ns = NULL;
    bool json_done = false;
    if (read_rc) {
        rc = read_rc;
        snprintf(run_msg, sizeof run_msg, "%s", cli_last_message());   /* for --json */
        goto done;
    }
    wg_error err;
    wg_env_strings env;
    wg_instance_desc idesc = { .label = cmd };
    wg_adapter_options opt = { .label = cmd, .select = a->adapter };   /* --adapter, else $WGC_ADAPTER */
    wg_device_desc ddesc = { .label = cmd };
    if (!wg_config_from_env(&env, &idesc, &opt, &ddesc, &err)) {
        rc = run_fail("%s: %s", cmd, err.message);
        goto done;
    }
    inst = wg_instance_create(&idesc, &err);
    wg_adapter *ad = inst ? wg_instance_request_adapter(inst, &opt, &err) : NULL;
    /* every feature the adapter has: f16 and subgroups for kernels that enable them, timestamps,
     * the driver's pipeline statistics */
    if (ad)
        ddesc.required_features = wg_adapter_get_info(ad)->features;
    dev = ad ? wg_adapter_create_device(ad, &ddesc, &err) : NULL;
    if (!dev) {
        rc = run_fail("%s: %s", cmd, err.message);
        goto done;
    }
    bool tty = isatty(2) && !getenv("WGC_NO_PROGRESS");
    for (uint32_t k = 0; k < a->nbind; k++)
        if ((rc = make_data(&a->binds[k], dev, &ctx)) != 0)
            goto done;
    wg_kernel_binding kb[RUN_MAX_BINDS];
    for (uint32_t k = 0; k < a->nbind; k++)
        kb[k] = (wg_kernel_binding){ .group = a->binds[k].group, .binding = a->binds[k].binding,
                                     .size = a->binds[k].bytes, .data = a->binds[k].data, .readback = a->binds[k].back };
    ns = calloc(a->repeat, sizeof *ns);
    wg_kernel_run_result *res = calloc(1, sizeof *res);
    if (!ns || !res) {
        free(res);
        rc = run_fail("out of memory");
        goto done;
    }
    const char *fname = strcmp(a->file, "-") ? a->file : "<stdin>";
    if (tty)
        fprintf(stderr, profile ? "wgc %s: %s: compiling, %u warmup + %u timed runs..." : "wgc %s: %s: running...", cmd,
                fname, a->warmup, a->repeat);
    wg_status st = wg_device_run_kernel(dev, &(wg_kernel_run_desc){ .label = fname, .wgsl = src, .wgsl_length = len,
        .filename = fname, .entry_point = a->entry, .dispatch = { a->dispatch[0], a->dispatch[1], a->dispatch[2] },
        .overrides = a->ov, .override_count = a->nov, .bindings = kb, .binding_count = a->nbind,
        .warmup = a->warmup, .repeat = a->repeat, .gpu_ns = ns, .wall_clock = a->wall_clock,
        .no_bounds_checks = a->no_bounds }, res);
    if (tty)
        fputs("\r\033[K", stderr);
    if (st != WG_STATUS_OK) {
        bool invalid = res->error.id == WG_ERR_WGSL_COMPILE && res->diagnostics[0];   /* else: an unknown override */
        if (invalid)
            fputs(res->diagnostics, stderr);
        if (a->json) {
            json_done = true;
            printf("{\"ok\":false,\"error\":");
            cli_json_str(stdout, wg_error_id_name(res->error.id));
            printf(",\"message\":");
            cli_json_str(stdout, res->error.message);
            printf(",\"diagnostics\":");
            cli_json_str(stdout, res->diagnostics);
            printf("}\n");
        }
        if (!invalid)
            run_fail("%s: %s", cmd, res->error.message);
        rc = invalid ? 1 : 2;
        free(res);
        goto done;
    }
    bool is_out[RUN_MAX_BINDS] = { 0 };
    pick_outputs(a, src, len, is_out);
    for (uint32_t k = 0; k < a->nbind; k++)
        if (a->binds[k].out[0] && (rc = save_output(&a->binds[k], &ctx, dev)) != 0) {
            free(res);
            goto done;
        }
    uint64_t inv = (uint64_t)a->dispatch[0] * a->dispatch[1] * a->dispatch[2] * res->workgroup_size[0] *
                   res->workgroup_size[1] * res->workgroup_size[2];
    double spread = res->median_ns > 0 ? (res->max_ns - res->min_ns) / res->median_ns * 100 : 0;
    const wg_adapter_info *info = wg_adapter_get_info(wg_device_get_adapter(dev));
    if (a->json) {
        printf("{\"ok\":true,\"file\":");
        cli_json_str(stdout, fname);
        printf(",\"adapter\":");
        cli_json_str(stdout, info->name);
        printf(",\"entry\":");
        cli_json_str(stdout, res->entry_point);
        printf(",\"workgroupSize\":[%u,%u,%u],\"dispatch\":[%u,%u,%u],\"invocations\":%llu", res->workgroup_size[0],
               res->workgroup_size[1], res->workgroup_size[2], a->dispatch[0], a->dispatch[1], a->dispatch[2],
               (unsigned long long)inv);
        printf(",\"compileMs\":%.4f,\"pipelineMs\":%.4f,\"pipelineCacheHit\":%s", res->compile_ms, res->pipeline_ms,
               res->pipeline_cache_hit ? "true" : "false");
        if (profile) {
            printf(",\"timer\":\"%s\",\"warmup\":%u,\"repeat\":%u,\"minNs\":%.0f,\"medianNs\":%.0f,\"maxNs\":%.0f,"
                   "\"meanNs\":%.1f,\"stddevNs\":%.1f,\"spreadPercent\":%.2f,\"wallMs\":%.4f",
                   res->timestamps ? "timestamp" : "wall", a->warmup, a->repeat, res->min_ns, res->median_ns,
                   res->max_ns, res->mean_ns, res->stddev_ns, spread, res->wall_ms);
            if (a->bytes > 0)
                printf(",\"bytes\":%.0f,\"gbPerS\":%.7g", a->bytes, a->bytes / res->median_ns);
            if (a->flops > 0)
                printf(",\"flops\":%.0f,\"gflopPerS\":%.7g", a->flops, a->flops / res->median_ns);
            printf(",\"driverStatistics\":{");
            for (uint32_t i = 0; i < res->statistic_count; i++) {
                printf("%s", i ? "," : "");
                cli_json_str(stdout, res->statistics[i].name);
                printf(":%.17g", res->statistics[i].value);
            }
            printf("}");
            printf(",\"samplesNs\":[");
            for (uint32_t i = 0; i < a->repeat; i++)
                printf("%s%llu", i ? "," : "", (unsigned long long)ns[i]);
            printf("]");
        } else {
            printf(",\"gpuNs\":%.0f", res->median_ns);
        }
        printf(",\"outputs\":[");
        int first = 1;
        for (uint32_t k = 0; k < a->nbind; k++)
            if (is_out[k]) {
                if (!first)
                    putchar(',');
                first = 0;
                summarise(&a->binds[k], true);
            }
        printf("]}\n");
    } else {
        char t1[32], t2[32], t3[32];
        if (profile) {
            printf("kernel     %s  entry %s  workgroup %ux%ux%u  dispatch %ux%ux%u  (%llu invocations)\n", fname,
                   res->entry_point, res->workgroup_size[0], res->workgroup_size[1], res->workgroup_size[2],
                   a->dispatch[0], a->dispatch[1], a->dispatch[2], (unsigned long long)inv);
            printf("adapter    %s\n", info->name);
            printf("compile    %.3f ms  (WGSL -> SPIR-V, host)\n", res->compile_ms);
            printf("pipeline   %.3f ms  (shader module + pipeline creation%s)\n", res->pipeline_ms,
                   res->pipeline_cache_hit ? ", cache hit" : "");
            fmt_time(t1, sizeof t1, res->min_ns);
            fmt_time(t2, sizeof t2, res->median_ns);
            fmt_time(t3, sizeof t3, res->max_ns);
            printf("gpu time   min %s  median %s  max %s  spread %.1f%%  stddev %.1f%%\n", t1, t2, t3, spread,
                   res->mean_ns > 0 ? res->stddev_ns / res->mean_ns * 100 : 0);
            printf("           %u runs after %u warmup, %s\n", a->repeat, a->warmup,
                   res->timestamps ? "GPU timestamp queries" : "host wall clock (submit + wait)");
            if (a->bytes > 0)
                printf("bandwidth  %.3f GB/s  (%.0f bytes at the median)\n", a->bytes / res->median_ns, a->bytes);
            if (a->flops > 0)
                printf("compute    %.3f GFLOP/s  (%.0f ops at the median)\n", a->flops / res->median_ns, a->flops);
            for (uint32_t i = 0; i < res->statistic_count; i++) {
                const wg_pipeline_statistic *s = &res->statistics[i];
                printf("%s %s %.*f  (%s)\n", i ? "          " : "driver    ", s->name, s->integer ? 0 : 3, s->value,
                       s->description);
            }
        } else {
            fmt_time(t1, sizeof t1, res->median_ns);
            printf("%s: entry %s, workgroup %ux%ux%u, dispatch %ux%ux%u, %s on %s\n", fname, res->entry_point,
                   res->workgroup_size[0], res->workgroup_size[1], res->workgroup_size[2], a->dispatch[0],
                   a->dispatch[1], a->dispatch[2], t1, info->name);
        }
        for (uint32_t k = 0; k < a->nbind; k++)
            if (is_out[k])
                summarise(&a->binds[k], false);
    }
    free(res);
    rc = 0;
done:
    if (rc == 2 && a->json && !json_done)
        run_json_error();
    for (uint32_t k = 0; k < a->nbind; k++) {
        free(a->binds[k].data);
        free(a->binds[k].back);
    }
    free(ns);
    if (ctx)
        wt_context_destroy(ctx);
    wg_device_release(dev);
    wg_instance_release(inst);
    free(src);
    free(a);
    return rc;
}

int cli_run(int argc, char **argv) {
    return run_main(argc, argv, false);
}

int cli_profile(int argc, char **argv) {
    return run_main(argc, argv, true);
}
