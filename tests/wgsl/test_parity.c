/* test_parity.c - execution parity: every kernel of tests/parity/ through wgc (WGSL -> SPIR-V
 * with wgsl_compile, dispatched with wg on Vulkan: lavapipe here) and through Dawn
 * (tests/oracle/dawn-run.mjs, OpenGL ES on llvmpipe), binding by binding.
 *
 * Design.  The spec lines at the top of each kernel (format: the header of dawn-run.mjs) are
 * parsed here a third time, after dawn-run.mjs and expect.py, and the initial contents are made
 * by this file's own generators; they must equal the .in.bin files Dawn's run wrote, so the three
 * readings of one definition check each other.  Each binding lives at offset `pad` inside a
 * buffer whose pads hold the canary 0xCAFEBABE; after the dispatch the pads must be intact.
 * Outputs go to $BUILD/parity/wg in dawn-run's layout (results.json, <stem>/<g>_<b>.{in,out}.bin),
 * and tests/oracle/expect.py then checks the kernels' own expectations on wgc's outputs too,
 * which covers the f16 and subgroup kernels Dawn's GL backend cannot run.  Finally every binding
 * is compared with Dawn's per its @compare line: exact (default) | ulp:N | abs:X | ignore, limited
 * to words=A..B,... when given.  A kernel Dawn should have run (no @requires, no @dawn-skip) but
 * did not is a failure.  Run from the repository root (tests/run.sh does).
 * Env: BUILD (default build), WGC_PARITY_FILTER (substring of kernel names), WGC_PARITY_SPV_DIR
 * (a folder of <kernel>.spv files used instead of wgsl_compile's output where present: to test
 * the runtime apart from the compiler; @override values do not apply to them). */
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "wgc/gpu.h"
#include "wgc/wgsl.h"

#define CANARY 0xCAFEBABEu
#define MAX_BINDS 16
#define MAX_CMP 16
#define MAX_RANGES 32
#define MAX_OVERRIDES 16
#define MAX_KERNELS 512

typedef struct pk_bind {
    uint32_t group, binding;
    wg_binding_type type;
    uint32_t size, pad, fill;
    char init[4096];
} pk_bind;

typedef enum pk_mode { PK_EXACT = 0, PK_ULP, PK_ABS, PK_IGNORE } pk_mode;

typedef struct pk_compare {
    uint32_t group, binding;
    pk_mode mode;
    double amount;                         /* ulp count or absolute tolerance */
    uint32_t range_count;
    uint32_t lo[MAX_RANGES], hi[MAX_RANGES];
} pk_compare;

typedef struct pk_spec {
    uint32_t dispatch[3];
    char entry[64];
    char requires[4][32];
    uint32_t require_count;
    int dawn_skip;                         /* has @dawn-skip */
    wgsl_override_value overrides[MAX_OVERRIDES];
    char override_names[MAX_OVERRIDES][64];
    uint32_t override_count;
    pk_bind binds[MAX_BINDS];
    uint32_t bind_count;
    pk_compare cmps[MAX_CMP];
    uint32_t cmp_count;
    char error[256];
} pk_spec;

static int failures;                       /* problems not tied to one kernel */
static char *names[MAX_KERNELS];           /* kernel stems, sorted */
static int kernel_failed[MAX_KERNELS];
static size_t nk;

static void fail_kernel(const char *kernel, const char *what, const char *detail) {
    size_t k = 0;
    while (k < nk && strcmp(names[k], kernel)) k++;
    if (k < nk) kernel_failed[k] = 1; else failures++;
    printf("FAIL %s: %s%s\n", kernel, what, detail);
}

/* tests/wgsl/parity-known.txt: "KERNEL REASON" lines ('#' comments) for kernels wgc is known to
 * get wrong.  Their failures are reported as XFAIL with the reason; a listed kernel that passes
 * fails the test ("stale") so the list only holds live bugs.  Returns the reason or NULL. */
static char known_text[16384];
static const char *known_reason(const char *kernel) {
    static int loaded;
    if (!loaded) {
        loaded = 1;
        FILE *f = fopen("tests/wgsl/parity-known.txt", "r");
        if (f) {
            size_t n = fread(known_text, 1, sizeof known_text - 1, f);
            known_text[n] = 0;
            fclose(f);
        }
    }
    size_t kl = strlen(kernel);
    for (const char *l = known_text; *l;) {
        const char *e = strchr(l, '\n');
        if (!e) e = l + strlen(l);
        if (*l != '#' && !strncmp(l, kernel, kl) && (l[kl] == ' ' || l[kl] == '\t')) {
            static char why[512];
            const char *r = l + kl;
            while (*r == ' ' || *r == '\t') r++;
            size_t n = (size_t)(e - r) < sizeof why - 1 ? (size_t)(e - r) : sizeof why - 1;
            memcpy(why, r, n);
            why[n] = 0;
            return why;
        }
        l = *e ? e + 1 : e;
    }
    return NULL;
}

static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    for (;;) {
        if (!buf) break;
        if (n == cap) {
            char *nb = realloc(buf, cap * 2 + 1);
            if (!nb) { free(buf); buf = NULL; break; }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    fclose(f);
    if (buf) { buf[n] = 0; *len = n; }
    return buf;
}

/* ------------------------------------------------------------------ spec parsing */
static void spec_err(pk_spec *s, int line, const char *what) {
    if (!s->error[0]) snprintf(s->error, sizeof s->error, "line %d: %s", line, what);
}

static int parse_bind(pk_spec *s, int line, char *rest) {
    if (s->bind_count == MAX_BINDS) { spec_err(s, line, "too many @bind"); return 0; }
    pk_bind *b = &s->binds[s->bind_count];
    memset(b, 0, sizeof *b);
    strcpy(b->init, "zero");
    char *save = NULL, *tok = strtok_r(rest, " \t", &save);
    if (!tok || sscanf(tok, "%u:%u", &b->group, &b->binding) != 2) { spec_err(s, line, "bad @bind"); return 0; }
    tok = strtok_r(NULL, " \t", &save);
    if (tok && !strcmp(tok, "uniform")) b->type = WG_BINDING_TYPE_UNIFORM;
    else if (tok && !strcmp(tok, "storage")) {
        tok = strtok_r(NULL, " \t", &save);
        if (tok && !strcmp(tok, "rw")) b->type = WG_BINDING_TYPE_STORAGE;
        else if (tok && !strcmp(tok, "read")) b->type = WG_BINDING_TYPE_READ_ONLY_STORAGE;
        else { spec_err(s, line, "bad @bind storage access"); return 0; }
    } else { spec_err(s, line, "bad @bind kind"); return 0; }
    tok = strtok_r(NULL, " \t", &save);
    if (!tok || (b->size = (uint32_t)strtoul(tok, NULL, 0)) == 0 || b->size % 4) {
        spec_err(s, line, "bad @bind size");
        return 0;
    }
    while ((tok = strtok_r(NULL, " \t", &save))) {
        if (!strncmp(tok, "init=", 5)) snprintf(b->init, sizeof b->init, "%s", tok + 5);
        else if (!strncmp(tok, "fill=", 5)) b->fill = (uint32_t)strtoul(tok + 5, NULL, 0);
        else if (!strncmp(tok, "pad=", 4)) b->pad = (uint32_t)strtoul(tok + 4, NULL, 0);
        else { spec_err(s, line, "bad @bind option"); return 0; }
    }
    s->bind_count++;
    return 1;
}

static void parse_compare(pk_spec *s, int line, char *rest) {
    if (s->cmp_count == MAX_CMP) { spec_err(s, line, "too many @compare"); return; }
    pk_compare *c = &s->cmps[s->cmp_count];
    memset(c, 0, sizeof *c);
    char *save = NULL, *tok = strtok_r(rest, " \t", &save);
    if (!tok || sscanf(tok, "%u:%u", &c->group, &c->binding) != 2) { spec_err(s, line, "bad @compare"); return; }
    tok = strtok_r(NULL, " \t", &save);
    if (!tok) { spec_err(s, line, "@compare needs a mode"); return; }
    if (!strcmp(tok, "exact")) c->mode = PK_EXACT;
    else if (!strcmp(tok, "ignore")) c->mode = PK_IGNORE;
    else if (!strncmp(tok, "ulp:", 4)) { c->mode = PK_ULP; c->amount = strtod(tok + 4, NULL); }
    else if (!strncmp(tok, "abs:", 4)) { c->mode = PK_ABS; c->amount = strtod(tok + 4, NULL); }
    else { spec_err(s, line, "bad @compare mode"); return; }
    while ((tok = strtok_r(NULL, " \t", &save))) {
        if (strncmp(tok, "words=", 6)) { spec_err(s, line, "bad @compare option"); return; }
        char *save2 = NULL;
        for (char *r = strtok_r(tok + 6, ",", &save2); r; r = strtok_r(NULL, ",", &save2)) {
            if (c->range_count == MAX_RANGES) { spec_err(s, line, "too many ranges"); return; }
            char *dots = strstr(r, "..");
            c->lo[c->range_count] = (uint32_t)strtoul(r, NULL, 10);
            c->hi[c->range_count] = dots ? (uint32_t)strtoul(dots + 2, NULL, 10) : c->lo[c->range_count];
            c->range_count++;
        }
    }
    s->cmp_count++;
}

static void parse_spec(const char *text, pk_spec *s) {
    memset(s, 0, sizeof *s);
    strcpy(s->entry, "main");
    int line = 0;
    const char *p = text;
    while (*p) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char buf[8192];
        line++;
        if (n >= sizeof buf) n = sizeof buf - 1;
        memcpy(buf, p, n);
        buf[n] = 0;
        p = end ? end + 1 : p + n;
        char *l = buf;
        while (*l == ' ' || *l == '\t' || *l == '\r') l++;
        size_t ln = strlen(l);
        while (ln && (l[ln - 1] == ' ' || l[ln - 1] == '\r' || l[ln - 1] == '\t')) l[--ln] = 0;
        if (!*l) continue;
        if (strncmp(l, "//", 2)) break;
        l += 2;
        while (*l == ' ' || *l == '\t') l++;
        if (*l != '@') continue;
        char *word = ++l;
        while (*l && *l != ' ' && *l != '\t') l++;
        if (*l) *l++ = 0;
        while (*l == ' ' || *l == '\t') l++;
        if (!strcmp(word, "dispatch")) {
            s->dispatch[0] = s->dispatch[1] = s->dispatch[2] = 1;
            if (sscanf(l, "%u,%u,%u", &s->dispatch[0], &s->dispatch[1], &s->dispatch[2]) < 1)
                spec_err(s, line, "bad @dispatch");
        } else if (!strcmp(word, "entry")) snprintf(s->entry, sizeof s->entry, "%s", l);
        else if (!strcmp(word, "override")) {
            char *eq = strchr(l, '=');
            if (!eq || s->override_count == MAX_OVERRIDES) { spec_err(s, line, "bad @override"); continue; }
            *eq = 0;
            uint32_t k = s->override_count++;
            wgsl_override_value *o = &s->overrides[k];
            if (*l >= '0' && *l <= '9') { o->name = NULL; o->id = (uint32_t)strtoul(l, NULL, 10); }
            else { snprintf(s->override_names[k], sizeof s->override_names[k], "%s", l); o->name = s->override_names[k]; }
            o->value = !strcmp(eq + 1, "true") ? 1.0 : !strcmp(eq + 1, "false") ? 0.0 : strtod(eq + 1, NULL);
        } else if (!strcmp(word, "requires")) {
            if (s->require_count < 4) snprintf(s->requires[s->require_count++], 32, "%s", l);
        } else if (!strcmp(word, "dawn-skip")) s->dawn_skip = 1;
        else if (!strcmp(word, "bind")) parse_bind(s, line, l);
        else if (!strcmp(word, "compare")) parse_compare(s, line, l);
        else if (strcmp(word, "expect") && strcmp(word, "expect-py") &&
                 strcmp(word, "assert-py") && strcmp(word, "let-py") && strcmp(word, "note"))
            spec_err(s, line, "unknown spec word");
    }
    if (!s->dispatch[0] && !s->dispatch[1] && !s->dispatch[2]) spec_err(s, 0, "no @dispatch");
}

/* ------------------------------------------------------------------ initial contents */
static uint32_t f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bits_f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* One literal element of type ty ("u32", "i32", "f32") as a word. */
static uint32_t literal_word(const char *ty, const char *v) {
    while (*v == ' ') v++;
    if (!strcmp(ty, "f32")) {
        if (!strncmp(v, "0x", 2) || !strncmp(v, "0X", 2)) return (uint32_t)strtoul(v, NULL, 16);
        if (!strcmp(v, "nan")) return 0x7FC00000u;
        if (!strcmp(v, "inf")) return 0x7F800000u;
        if (!strcmp(v, "-inf")) return 0xFF800000u;
        return f32_bits((float)strtod(v, NULL));     /* a double, then one rounding */
    }
    if (v[0] == '-') return (uint32_t)(int32_t)strtoll(v, NULL, 0);
    return (uint32_t)strtoull(v, NULL, 0);
}

/* Fills words[n] per the binding's init; returns 0 on a malformed init. */
static int make_init(const pk_bind *b, uint32_t *w) {
    uint32_t n = b->size / 4;
    for (uint32_t k = 0; k < n; k++) w[k] = b->fill;
    char spec[4096];
    snprintf(spec, sizeof spec, "%s", b->init);
    char *save = NULL, *kind = strtok_r(spec, ":", &save);
    if (!kind) return 0;
    if (!strcmp(kind, "zero")) return 1;
    if (!strcmp(kind, "fill")) {
        char *v = strtok_r(NULL, ":", &save);
        if (!v) return 0;
        for (uint32_t k = 0; k < n; k++) w[k] = (uint32_t)strtoul(v, NULL, 16);
        return 1;
    }
    char *ty = strtok_r(NULL, ":", &save);
    if (!ty || (strcmp(ty, "u32") && strcmp(ty, "i32") && strcmp(ty, "f32"))) return 0;
    if (!strcmp(kind, "ramp")) {
        char *a = strtok_r(NULL, ":", &save), *c = a ? strtok_r(NULL, ":", &save) : NULL;
        double start = a ? strtod(a, NULL) : 0.0, step = c ? strtod(c, NULL) : 1.0;
        for (uint32_t k = 0; k < n; k++) {
            if (!strcmp(ty, "f32")) w[k] = f32_bits((float)(start + (double)k * step));
            else w[k] = (uint32_t)((int64_t)start + (int64_t)k * (int64_t)step);
        }
        return 1;
    }
    if (!strcmp(kind, "rand")) {
        char *sd = strtok_r(NULL, ":", &save);
        if (!sd) return 0;
        uint32_t x = (uint32_t)strtoul(sd, NULL, 0);
        if (!x) x = 0x9E3779B9u;
        for (uint32_t k = 0; k < n; k++) {
            x ^= x << 13; x ^= x >> 17; x ^= x << 5;
            w[k] = !strcmp(ty, "f32") ? f32_bits((float)((double)(x >> 8) * 0x1p-23 - 1.0)) : x;
        }
        return 1;
    }
    if (!strcmp(kind, "vals")) {
        char *list = strtok_r(NULL, "", &save);
        if (!list) return 0;
        uint32_t k = 0;
        char *save2 = NULL;
        for (char *v = strtok_r(list, ",", &save2); v; v = strtok_r(NULL, ",", &save2)) {
            if (k == n) return 0;
            w[k++] = literal_word(ty, v);
        }
        return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ comparison */
static int64_t ordered(uint32_t u) { return (u & 0x80000000u) ? -(int64_t)(u & 0x7FFFFFFFu) : (int64_t)u; }

static int words_match(const pk_compare *c, uint32_t a, uint32_t b) {
    if (!c || c->mode == PK_EXACT) return a == b;
    if (c->mode == PK_IGNORE) return 1;
    float fa = bits_f32(a), fb = bits_f32(b);
    if (isnan(fa) || isnan(fb)) return isnan(fa) && isnan(fb);
    if (fa == 0.0f && fb == 0.0f) return 1;               /* WGSL may ignore the sign of a zero */
    if (c->mode == PK_ULP) return llabs(ordered(a) - ordered(b)) <= (long long)c->amount;
    return fabs((double)fa - (double)fb) <= c->amount;
}

static int in_ranges(const pk_compare *c, uint32_t w) {
    if (!c || !c->range_count) return 1;
    for (uint32_t r = 0; r < c->range_count; r++)
        if (w >= c->lo[r] && w <= c->hi[r]) return 1;
    return 0;
}

/* ------------------------------------------------------------------ running on wg */
typedef struct pk_env {
    wg_instance *inst;
    wg_device *dev;
    wg_queue *q;
    int has_f16, has_subgroups;
    char build[256];
} pk_env;

static int write_file(const char *path, const void *data, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    int ok = fwrite(data, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

static void json_escape(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20) fprintf(f, "\\u%04x", (unsigned char)*s);
        else fputc(*s, f);
    }
    fputc('"', f);
}

/* Runs one kernel; returns "ok", "unsupported" or "error" and sets msg.  Writes the outputs. */
static const char *run_kernel(pk_env *env, const char *name, const char *src, size_t len, const pk_spec *s,
                              const char *outdir, char *msg, size_t msgcap) {
    for (uint32_t r = 0; r < s->require_count; r++) {
        if ((!strcmp(s->requires[r], "shader-f16") && !env->has_f16) ||
            (!strcmp(s->requires[r], "subgroups") && !env->has_subgroups)) {
            snprintf(msg, msgcap, "adapter lacks %s", s->requires[r]);
            return "unsupported";
        }
    }
    const char *spvdir = getenv("WGC_PARITY_SPV_DIR");
    uint32_t *spv = NULL;
    size_t spv_bytes = 0;
    if (spvdir && *spvdir) {
        char sp[600];
        snprintf(sp, sizeof sp, "%s/%s.spv", spvdir, name);
        spv = (uint32_t *)(void *)slurp(sp, &spv_bytes);   /* malloc'd: aligned for words */
    }
    wgsl_result *cr = NULL;
    if (!spv) {
        cr = wgsl_compile(src, len, &(wgsl_options){
            .filename = name, .overrides = s->overrides, .override_count = s->override_count,
            .no_f16 = !env->has_f16, .no_subgroups = !env->has_subgroups });
        if (!cr || !cr->ok || !cr->spirv || !cr->spirv_word_count) {
            const char *t = cr ? wgsl_result_text(cr) : "out of memory";
            snprintf(msg, msgcap, "wgsl_compile: %s", t && *t ? t : "no SPIR-V emitted");
            wgsl_result_free(cr);
            return "error";
        }
    }
    wg_device *dev = env->dev;
    wg_device_push_error_scope(dev, WG_ERROR_TYPE_VALIDATION);
    wg_device_push_error_scope(dev, WG_ERROR_TYPE_INTERNAL);
    wg_shader_module *sm = wg_device_create_shader_module(dev, &(wg_shader_module_desc){
        .label = name, .spirv = spv ? spv : cr->spirv, .spirv_words = spv ? spv_bytes / 4 : cr->spirv_word_count });
    wgsl_result_free(cr);
    free(spv);

    uint32_t ngroups = 0;
    for (uint32_t i = 0; i < s->bind_count; i++)
        if (s->binds[i].group + 1 > ngroups) ngroups = s->binds[i].group + 1;
    wg_bind_group_layout *bgl[4] = { 0 };
    wg_bind_group *bg[4] = { 0 };
    wg_buffer *bufs[MAX_BINDS] = { 0 };
    uint32_t *host[MAX_BINDS] = { 0 };
    const char *status = "ok";
    if (ngroups > 4) { snprintf(msg, msgcap, "more than 4 bind groups"); status = "error"; goto done; }
    for (uint32_t g = 0; g < ngroups; g++) {
        wg_bind_group_layout_entry ents[MAX_BINDS];
        wg_bind_group_entry bents[MAX_BINDS];
        size_t n = 0;
        for (uint32_t i = 0; i < s->bind_count; i++) {
            const pk_bind *b = &s->binds[i];
            if (b->group != g) continue;
            if (!bufs[i]) {
                uint64_t total = (uint64_t)b->pad * 2 + b->size;
                uint32_t usage = (b->type == WG_BINDING_TYPE_UNIFORM ? WG_BUFFER_USAGE_UNIFORM : WG_BUFFER_USAGE_STORAGE) |
                                 WG_BUFFER_USAGE_COPY_SRC | WG_BUFFER_USAGE_COPY_DST;
                bufs[i] = wg_device_create_buffer(dev, &(wg_buffer_desc){ .label = name, .size = total, .usage = usage });
                host[i] = malloc(total);
                if (!host[i]) { snprintf(msg, msgcap, "out of memory"); status = "error"; goto done; }
                for (uint64_t k = 0; k < total / 4; k++) host[i][k] = CANARY;
                if (!make_init(b, host[i] + b->pad / 4)) {
                    snprintf(msg, msgcap, "bad init '%s'", b->init);
                    status = "error";
                    goto done;
                }
                wg_queue_write_buffer(env->q, bufs[i], 0, host[i], total);
            }
            ents[n] = (wg_bind_group_layout_entry){ .binding = b->binding, .type = b->type };
            bents[n] = (wg_bind_group_entry){ .binding = b->binding, .buffer = bufs[i], .offset = b->pad, .size = b->size };
            n++;
        }
        bgl[g] = wg_device_create_bind_group_layout(dev, &(wg_bind_group_layout_desc){
            .label = name, .entry_count = n, .entries = ents });
        bg[g] = wg_device_create_bind_group(dev, &(wg_bind_group_desc){
            .label = name, .layout = bgl[g], .entry_count = n, .entries = bents });
    }
    wg_pipeline_layout *pl = wg_device_create_pipeline_layout(dev, &(wg_pipeline_layout_desc){
        .label = name, .bind_group_layout_count = ngroups, .bind_group_layouts = bgl });
    wg_compute_pipeline *pipe = wg_device_create_compute_pipeline(dev, &(wg_compute_pipeline_desc){
        .label = name, .layout = pl, .module = sm, .entry_point = s->entry });
    wg_command_encoder *enc = wg_device_create_command_encoder(dev, NULL);
    wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(enc, NULL);
    wg_compute_pass_set_pipeline(pass, pipe);
    for (uint32_t g = 0; g < ngroups; g++) wg_compute_pass_set_bind_group(pass, g, bg[g], 0, NULL);
    wg_compute_pass_dispatch_workgroups(pass, s->dispatch[0], s->dispatch[1], s->dispatch[2]);
    wg_compute_pass_end(pass);
    wg_command_buffer *cb = wg_command_encoder_finish(enc, NULL);
    wg_queue_submit(env->q, 1, &cb);
    wg_compute_pass_release(pass);
    wg_command_encoder_release(enc);
    wg_compute_pipeline_release(pipe);
    wg_pipeline_layout_release(pl);

    char dir[512];
    snprintf(dir, sizeof dir, "%s/%s", outdir, name);
    mkdir(dir, 0777);
    for (uint32_t i = 0; i < s->bind_count && !strcmp(status, "ok"); i++) {
        const pk_bind *b = &s->binds[i];
        uint64_t total = (uint64_t)b->pad * 2 + b->size;
        uint32_t *got = malloc(total);
        if (!got) { snprintf(msg, msgcap, "out of memory"); status = "error"; break; }
        char path[600];
        snprintf(path, sizeof path, "%s/%u_%u.in.bin", dir, b->group, b->binding);
        write_file(path, host[i] + b->pad / 4, b->size);
        if (wg_buffer_read(bufs[i], 0, got, total) != WG_STATUS_OK) {
            snprintf(msg, msgcap, "wg_buffer_read of %u:%u failed", b->group, b->binding);
            status = "error";
        } else {
            for (uint64_t k = 0; k < b->pad / 4; k++)
                if (got[k] != CANARY || got[total / 4 - 1 - k] != CANARY) {
                    snprintf(msg, msgcap, "a write escaped binding %u:%u (pad canary changed)", b->group, b->binding);
                    status = "error";
                    break;
                }
            snprintf(path, sizeof path, "%s/%u_%u.out.bin", dir, b->group, b->binding);
            write_file(path, got + b->pad / 4, b->size);
        }
        free(got);
    }
done:;
    wg_error e1, e2;
    wg_error_id id1 = wg_device_pop_error_scope(dev, &e1);
    wg_error_id id2 = wg_device_pop_error_scope(dev, &e2);
    if (id1 != WG_ERR_NONE || id2 != WG_ERR_NONE) {
        snprintf(msg, msgcap, "%s", id1 != WG_ERR_NONE ? e1.message : e2.message);
        status = "error";
    }
    for (uint32_t g = 0; g < 4; g++) {
        if (bg[g]) wg_bind_group_release(bg[g]);
        if (bgl[g]) wg_bind_group_layout_release(bgl[g]);
    }
    for (uint32_t i = 0; i < MAX_BINDS; i++) {
        if (bufs[i]) wg_buffer_release(bufs[i]);
        free(host[i]);
    }
    if (sm) wg_shader_module_release(sm);
    return status;
}

/* ------------------------------------------------------------------ main */
static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static uint32_t *read_words(const char *path, size_t *nbytes) {
    size_t n = 0;
    char *d = slurp(path, &n);
    if (!d) return NULL;
    uint32_t *w = malloc(n + 4);
    if (w) memcpy(w, d, n);
    free(d);
    *nbytes = n;
    return w;
}

/* Compares wgc's outputs of one kernel with Dawn's, per the @compare lines. */
static void compare_with_dawn(const char *name, const pk_spec *s, const char *wgdir, const char *dawndir) {
    for (uint32_t i = 0; i < s->bind_count; i++) {
        const pk_bind *b = &s->binds[i];
        const pk_compare *c = NULL;
        for (uint32_t k = 0; k < s->cmp_count; k++)
            if (s->cmps[k].group == b->group && s->cmps[k].binding == b->binding) c = &s->cmps[k];
        char pw[600], pd[600], pi[600], what[128];
        snprintf(pw, sizeof pw, "%s/%s/%u_%u.out.bin", wgdir, name, b->group, b->binding);
        snprintf(pd, sizeof pd, "%s/%s/%u_%u.out.bin", dawndir, name, b->group, b->binding);
        snprintf(pi, sizeof pi, "%s/%s/%u_%u.in.bin", dawndir, name, b->group, b->binding);
        snprintf(what, sizeof what, "binding %u:%u", b->group, b->binding);
        size_t nw = 0, nd = 0, ni = 0;
        uint32_t *w = read_words(pw, &nw), *d = read_words(pd, &nd), *in = read_words(pi, &ni);
        uint32_t *mine = malloc(b->size);
        if (!w || !d || !in || !mine || nw != b->size || nd != b->size || ni != b->size) {
            fail_kernel(name, what, ": missing or short output files");
        } else {
            if (!make_init(b, mine) || memcmp(mine, in, b->size))
                fail_kernel(name, what, ": initial bytes differ between test_parity.c and dawn-run.mjs");
            uint32_t bad = 0, first = 0;
            for (uint32_t k = 0; k < b->size / 4; k++)
                if (in_ranges(c, k) && !words_match(c, w[k], d[k])) { if (!bad++) first = k; }
            if (bad) {
                char det[256];
                snprintf(det, sizeof det, ": %u words differ from Dawn, first [%u] wgc 0x%08X Dawn 0x%08X",
                         bad, first, w[first], d[first]);
                fail_kernel(name, what, det);
            }
        }
        free(w); free(d); free(in); free(mine);
    }
}

int main(void) {
    pk_env env = { 0 };
    const char *build = getenv("BUILD");
    snprintf(env.build, sizeof env.build, "%s", build && *build ? build : "build");
    const char *filter = getenv("WGC_PARITY_FILTER");
    if (filter && (strlen(filter) > 64 || strpbrk(filter, "'\"$`\\ "))) { printf("FAIL: bad WGC_PARITY_FILTER\n"); return 1; }

    DIR *dp = opendir("tests/parity");
    if (!dp) { printf("FAIL: run from the repository root (no tests/parity)\n"); return 1; }
    for (struct dirent *de; (de = readdir(dp)) && nk < MAX_KERNELS;) {
        size_t l = strlen(de->d_name);
        if (l > 5 && !strcmp(de->d_name + l - 5, ".wgsl") && (!filter || strstr(de->d_name, filter)))
            names[nk++] = strndup(de->d_name, l - 5);
    }
    closedir(dp);
    qsort(names, nk, sizeof *names, cmp_str);

    /* Dawn's reference outputs: one node process for all kernels. */
    char dawndir[300], wgdir[300], cmd[4096];
    snprintf(dawndir, sizeof dawndir, "%s/parity/dawn-for-wg", env.build);
    snprintf(wgdir, sizeof wgdir, "%s/parity/wg", env.build);
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s' && mkdir -p '%s' '%s' && pkg=$(sh tests/oracle/install.sh) && "
             "node tests/oracle/dawn-run.mjs --pkg \"$pkg\" --out '%s' tests/parity/*%s*.wgsl >/dev/null 2>'%s/stderr.log'",
             dawndir, wgdir, dawndir, wgdir, dawndir, filter ? filter : "", dawndir);
    if (system(cmd) != 0) printf("note: dawn-run reported errors (%s/stderr.log)\n", dawndir);

    wg_error err;
    wg_env_strings strs;   /* the WGC_* settings */
    wg_instance_desc idesc = { .label = "parity" };
    wg_adapter_options opt = { .label = "parity" };
    wg_device_desc ddesc = { .label = "parity" };
    if (!wg_config_from_env(&strs, &idesc, &opt, &ddesc, &err)) {
        printf("FAIL: %s\n", err.message);
        return 1;
    }
    env.inst = wg_instance_create(&idesc, &err);
    wg_adapter *ad = env.inst ? wg_instance_request_adapter(env.inst, &opt, &err) : NULL;
    if (ad) {
        env.has_f16 = wg_adapter_has_feature(ad, WG_FEATURE_SHADER_F16);
        env.has_subgroups = wg_adapter_has_feature(ad, WG_FEATURE_SUBGROUPS);
        uint64_t feats = (env.has_f16 ? WG_FEATURE_BIT(WG_FEATURE_SHADER_F16) : 0) |
                         (env.has_subgroups ? WG_FEATURE_BIT(WG_FEATURE_SUBGROUPS) : 0);
        ddesc.required_features = feats;
        env.dev = wg_adapter_create_device(ad, &ddesc, &err);
    }
    if (!env.dev) {
        printf("FAIL: no wg device: %s\n", err.message);
        if (env.inst) wg_instance_release(env.inst);
        return 1;
    }
    env.q = wg_device_get_queue(env.dev);

    char rpath[400];
    snprintf(rpath, sizeof rpath, "%s/results.json", wgdir);
    FILE *rj = fopen(rpath, "w");
    if (!rj) { printf("FAIL: cannot write %s\n", rpath); return 1; }
    fputs("[\n", rj);
    int ran = 0, compared = 0;
    for (size_t k = 0; k < nk; k++) {
        char path[512], msg[2048] = "";
        snprintf(path, sizeof path, "tests/parity/%s.wgsl", names[k]);
        size_t len = 0;
        char *src = slurp(path, &len);
        static pk_spec spec;
        const char *status = "error";
        if (!src) snprintf(msg, sizeof msg, "cannot read %s", path);
        else {
            parse_spec(src, &spec);
            if (spec.error[0]) snprintf(msg, sizeof msg, "spec: %s", spec.error);
            else status = run_kernel(&env, names[k], src, len, &spec, wgdir, msg, sizeof msg);
        }
        printf("%-11s %s%s%s\n", status, names[k], *msg ? ": " : "", msg);
        if (!strcmp(status, "error")) kernel_failed[k] = 1;
        fprintf(rj, "%s{\"name\": ", k ? ",\n" : "");
        json_escape(rj, names[k]);
        fprintf(rj, ", \"status\": \"%s\", \"message\": ", status);
        json_escape(rj, msg);
        fputs("}", rj);
        if (!strcmp(status, "ok")) {
            ran++;
            char dres[400];
            snprintf(dres, sizeof dres, "%s/%s/%u_%u.out.bin", dawndir, names[k], spec.binds[0].group, spec.binds[0].binding);
            struct stat st;
            if (spec.bind_count && stat(dres, &st) == 0) {
                compare_with_dawn(names[k], &spec, wgdir, dawndir);
                compared++;
            } else if (spec.bind_count && !spec.require_count && !spec.dawn_skip) {
                fail_kernel(names[k], "no Dawn output", " (see the dawn-run log)");
            }
        }
        free(src);
    }
    fputs("\n]\n", rj);
    fclose(rj);
    wg_device_release(env.dev);
    wg_instance_release(env.inst);

    /* The kernels' own expectations, checked on wgc's outputs by the same script as Dawn's. */
    snprintf(cmd, sizeof cmd, "python3 tests/oracle/expect.py '%s' tests/parity/*%s*.wgsl", wgdir, filter ? filter : "");
    FILE *ep = popen(cmd, "r");
    char line[4096];
    int expect_ok = 0;
    while (ep && fgets(line, sizeof line, ep)) {
        fputs(line, stdout);
        char kname[256];
        if (!strncmp(line, "FAIL ", 5) && sscanf(line + 5, "%255s", kname) == 1) fail_kernel(kname, "", "expectations (above)");
        if (strstr(line, " passed, ") && strstr(line, " failed, ")) expect_ok = 1;
    }
    if (!ep || pclose(ep) == -1 || !expect_ok) { failures++; printf("FAIL: expect.py did not run\n"); }
    int xfail = 0, real = 0;
    for (size_t k = 0; k < nk; k++) {
        const char *why = known_reason(names[k]);
        if (kernel_failed[k] && why) { xfail++; printf("XFAIL %s: known wgc bug: %s\n", names[k], why); }
        else if (kernel_failed[k]) real++;
        else if (why) { failures++; printf("STALE %s: passes now; remove it from tests/wgsl/parity-known.txt\n", names[k]); }
    }
    failures += real;
    printf("parity: %zu kernels, %d ran on wgc, %d compared with Dawn, %d failed, %d known failures (XFAIL), "
           "%d other problems\n", nk, ran, compared, real, xfail, failures - real);
    for (size_t k = 0; k < nk; k++) free(names[k]);
    return failures ? 1 : 0;
}
