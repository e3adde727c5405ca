/* compile.c - `wgc compile k.wgsl [-o k.spv] [--entry NAME] [--target-env ENV] [--override NAME=V]...
 * [--reflect] [--no-bounds-checks] [--max-size N]`: WGSL to a SPIR-V binary.
 *
 * Diagnostics go to stderr in the compiler's text form; exit 0 when the module was written,
 * 1 when the WGSL is invalid, 2 on bad usage (an --override naming no override or with a value
 * its type cannot hold included) or I/O errors.  --reflect prints the reflection
 * (entry points, workgroup sizes, bindings, overrides) as one JSON document on stdout; without
 * -o it writes no file then.  Without -o and --reflect the module goes to standard output, as
 * tint's does, unless that is a terminal (refused: it is binary); never to a file not named.
 * Value options take `--opt V` or `--opt=V`; --target-env takes the spirv-tools names. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "wgc/wgsl.h"

/* Copies the module without the OpEntryPoint / OpExecutionMode instructions of entry points
 * other than `entry` (their functions stay, unused).  Returns the new word count. */
static size_t keep_entry(const uint32_t *w, size_t n, const char *entry, uint32_t *out) {
    size_t k = 0, i = 5;
    uint32_t keep_fn = 0;
    for (size_t j = 5; j < n;) { /* the function id of the entry point to keep */
        uint32_t len = w[j] >> 16, op = w[j] & 0xffff;
        if (!len || j + len > n) break;
        if (op == 15 && len > 3 && !strncmp((const char *)&w[j + 3], entry, (len - 3) * 4) &&
            strlen(entry) < (len - 3) * 4)
            keep_fn = w[j + 2];
        j += len;
    }
    memcpy(out, w, 5 * sizeof *w);
    k = 5;
    while (i < n) {
        uint32_t len = w[i] >> 16, op = w[i] & 0xffff;
        if (!len || i + len > n) break;
        int drop = (op == 15 && len > 2 && w[i + 2] != keep_fn) ||          /* OpEntryPoint */
                   ((op == 16 || op == 331) && len > 1 && w[i + 1] != keep_fn); /* OpExecutionMode(Id) */
        if (!drop) {
            memcpy(out + k, w + i, len * sizeof *w);
            k += len;
        }
        i += len;
    }
    return k;
}

/* The module version for a target environment named as spirv-tools names them (spirv-val
 * --target-env): SPIR-V 1.3 runs on Vulkan 1.1 and 1.2, SPIR-V 1.6 on 1.3 and 1.4. */
static const struct { const char *name; wgsl_target_env env; } target_envs[] = {
    { "vulkan1.1", WGSL_TARGET_VULKAN_1_1 }, { "vulkan1.2", WGSL_TARGET_VULKAN_1_1 },
    { "spv1.3", WGSL_TARGET_VULKAN_1_1 },    { "universal1.3", WGSL_TARGET_VULKAN_1_1 },
    { "vulkan1.3", WGSL_TARGET_VULKAN_1_3 }, { "vulkan1.4", WGSL_TARGET_VULKAN_1_3 },
    { "spv1.6", WGSL_TARGET_VULKAN_1_3 },    { "universal1.6", WGSL_TARGET_VULKAN_1_3 },
};

static void compile_usage(FILE *f) {
    fputs("usage: wgc compile FILE.wgsl [-o OUT.spv] [options]   (FILE -: standard input)\n"
          "  -o FILE              write the SPIR-V module to FILE ('-' = stdout); without -o it goes to\n"
          "                       stdout when that is a pipe or file (a terminal is refused)\n"
          "  --entry NAME         keep only entry point NAME (in the module and the reflection)\n"
          "  --target-env ENV     as spirv-tools names it: vulkan1.1, vulkan1.2, spv1.3 (SPIR-V 1.3,\n"
          "                       default), vulkan1.3, vulkan1.4, spv1.6 (SPIR-V 1.6); --target too\n"
          "  --override KEY=V     value of an `override`: KEY is its @id number when it has one, else its\n"
          "                       name (WebGPU's pipeline-constant rules: V finite, in the type's range)\n"
          "  --reflect, --json   print entry points, bindings and overrides as JSON on stdout\n"
          "  --no-bounds-checks   do not clamp indices (unsafe)\n"
          "  --max-size N         refuse an input larger than N bytes (k/M/G; default 16M)\n", f);
}

static const char *binding_kind_name(wgsl_binding_kind k) {
    switch (k) {
    case WGSL_BINDING_STORAGE_READ: return "read-only-storage";
    case WGSL_BINDING_STORAGE_READ_WRITE: return "storage";
    case WGSL_BINDING_UNIFORM: return "uniform";
    default: return "unknown";
    }
}

static const char *scalar_name(wgsl_scalar s) {
    switch (s) {
    case WGSL_SCALAR_BOOL: return "bool";
    case WGSL_SCALAR_I32: return "i32";
    case WGSL_SCALAR_U32: return "u32";
    case WGSL_SCALAR_F32: return "f32";
    case WGSL_SCALAR_F16: return "f16";
    default: return "unknown";
    }
}

static void print_reflection(FILE *f, const wgsl_result *r, const char *entry) {
    fputs("{\"entryPoints\":[", f);   /* camelCase, as every wgc JSON document */
    int first = 1;
    int64_t sel = -1;
    for (uint32_t i = 0; i < r->entry_point_count; i++) {
        const wgsl_entry_point *e = &r->entry_points[i];
        if (entry && strcmp(entry, e->name)) continue;
        sel = i;
        fprintf(f, "%s{\"name\":", first ? "" : ",");
        cli_json_str(f, e->name);
        fprintf(f, ",\"stage\":\"compute\",\"workgroupSize\":[%u,%u,%u],\"workgroupSizeOverride\":[%d,%d,%d],"
                "\"workgroupMemoryBytes\":%u}",
                e->workgroup_size[0], e->workgroup_size[1], e->workgroup_size[2],
                e->workgroup_size_override[0], e->workgroup_size_override[1],
                e->workgroup_size_override[2], e->workgroup_memory_bytes);
        first = 0;
    }
    fputs("],\"bindings\":[", f);
    first = 1;
    for (uint32_t i = 0; i < r->binding_count; i++) {
        const wgsl_binding *b = &r->bindings[i];
        if (entry && (sel < 0 || sel >= 64 || !(b->entry_point_mask >> sel & 1))) continue;
        fprintf(f, "%s{\"name\":", first ? "" : ",");
        cli_json_str(f, b->name);
        fprintf(f, ",\"group\":%u,\"binding\":%u,\"type\":\"%s\",\"minSize\":%llu,\"arrayStride\":%u}",
                b->group, b->binding, binding_kind_name(b->kind), (unsigned long long)b->min_size,
                b->array_stride);
        first = 0;
    }
    fputs("],\"overrides\":[", f);
    for (uint32_t i = 0; i < r->override_count; i++) {
        const wgsl_override *o = &r->overrides[i];
        fprintf(f, "%s{\"name\":", i ? "," : "");
        cli_json_str(f, o->name);
        fprintf(f, ",\"id\":%u,\"explicitId\":%s,\"type\":\"%s\"", o->id,
                o->has_explicit_id ? "true" : "false", scalar_name(o->type));
        if (o->has_default) fprintf(f, ",\"default\":%.17g", o->default_value);
        fputc('}', f);
    }
    fputs("]}\n", f);
}

int cli_compile(int argc, char **argv) {
    const char *in = NULL, *out = NULL, *entry = NULL;
    int reflect = 0;
    size_t max = CLI_MAX_SOURCE_SIZE;
    wgsl_options opt;
    memset(&opt, 0, sizeof opt);
    wgsl_override_value ovs[64];
    uint32_t nov = 0;
    for (int i = 1; i < argc; i++) {
        char *a = argv[i], *inline_v = NULL;
        if (!strncmp(a, "--", 2) && strchr(a, '=')) {   /* --opt=V */
            inline_v = strchr(a, '=');
            *inline_v++ = '\0';
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            compile_usage(stdout);
            return 0;
        } else if (!strcmp(a, "-o") || !strcmp(a, "--entry") || !strcmp(a, "--target") ||
                   !strcmp(a, "--target-env") || !strcmp(a, "--override")) {
            if (!inline_v && i + 1 >= argc) return cli_fail("compile: %s needs a value", a);
            char *v = inline_v ? inline_v : argv[++i];
            if (!strcmp(a, "-o")) out = v;
            else if (!strcmp(a, "--entry")) entry = v;
            else if (!strcmp(a, "--target") || !strcmp(a, "--target-env")) {
                size_t k = 0, n = sizeof target_envs / sizeof target_envs[0];
                while (k < n && strcmp(v, target_envs[k].name)) k++;
                if (k == n)
                    return cli_fail("compile: unknown target environment '%s' (vulkan1.1, vulkan1.2, spv1.3, "
                                    "universal1.3: SPIR-V 1.3; vulkan1.3, vulkan1.4, spv1.6, universal1.6: "
                                    "SPIR-V 1.6)", v);
                opt.target_env = target_envs[k].env;
            } else {
                const char *eq = strchr(v, '=');
                if (!eq || eq == v) return cli_fail("compile: --override wants NAME=VALUE, got '%s'", v);
                if (nov == sizeof ovs / sizeof ovs[0]) return cli_fail("compile: too many overrides");
                char *end;
                errno = 0;
                double val = strtod(eq + 1, &end);
                if (!strcmp(eq + 1, "true")) val = 1;
                else if (!strcmp(eq + 1, "false")) val = 0;
                else if (end == eq + 1 || *end || errno)
                    return cli_fail("compile: bad override value in '%s'", v);
                wgsl_override_value *o = &ovs[nov++];
                memset(o, 0, sizeof *o);
                o->value = val;
                v[eq - v] = '\0'; /* argv is ours to cut: NAME ends at '=' */
                char *idend;
                unsigned long id = strtoul(v, &idend, 10);
                if (*idend == '\0') o->id = (uint32_t)id;
                else o->name = v;
            }
        } else if (inline_v) {
            return cli_fail("compile: %s takes no value (try wgc compile --help)", a);
        } else if (!strcmp(a, "--reflect") || !strcmp(a, "--json")) {
            reflect = 1;
        } else if (!strcmp(a, "--max-size")) {
            if (i + 1 >= argc || cli_parse_size(argv[++i], &max))
                return cli_fail("compile: --max-size wants a byte count (e.g. 64M)");
        } else if (!strcmp(a, "--no-bounds-checks")) {
            opt.no_bounds_checks = true;
        } else if (a[0] == '-' && a[1]) {
            return cli_fail("compile: unknown option '%s' (try wgc compile --help)", a);
        } else if (in) {
            return cli_fail("compile: one input file only ('%s' and '%s')", in, a);
        } else {
            in = a;
        }
    }
    if (!in) {
        compile_usage(stderr);
        return 2;
    }
    size_t len = 0;
    char *src;
    if (cli_read_source("compile", in, max, &src, &len)) return 2;
    opt.filename = in;
    opt.overrides = ovs;
    opt.override_count = nov;
    wgsl_result *r = wgsl_compile(src, len, &opt);
    free(src);
    if (!r) return cli_fail("compile: out of memory");
    fputs(wgsl_result_text(r) ? wgsl_result_text(r) : "", stderr);
    if (!r->ok || !r->spirv) {
        int rc = r->ok ? cli_fail("compile: %s: no SPIR-V was produced", in) : r->override_error ? 2 : 1;
        wgsl_result_free(r);
        return rc;
    }
    if (entry) {
        uint32_t i = 0;
        while (i < r->entry_point_count && strcmp(r->entry_points[i].name, entry)) i++;
        if (i == r->entry_point_count) {
            wgsl_result_free(r);
            return cli_fail("compile: %s has no entry point '%s'", in, entry);
        }
    }
    const uint32_t *words = r->spirv;
    size_t nwords = r->spirv_word_count;
    uint32_t *filtered = NULL;
    if (entry) {
        filtered = malloc(nwords * sizeof *filtered);
        if (!filtered) { wgsl_result_free(r); return cli_fail("compile: out of memory"); }
        nwords = keep_entry(words, nwords, entry, filtered);
        words = filtered;
    }
    if (!out && !reflect) {
        if (isatty(STDOUT_FILENO)) {
            free(filtered);
            wgsl_result_free(r);
            return cli_fail("compile: no -o: the SPIR-V module is binary and standard output is a terminal "
                            "(give -o FILE.spv, or -o - or a pipe for standard output)");
        }
        out = "-";
    }
    int rc = 0;
    if (out) {
        FILE *f = strcmp(out, "-") ? fopen(out, "wb") : stdout;
        if (!f) {
            rc = cli_fail("compile: cannot write %s: %s", out, strerror(errno));
        } else {
            size_t w = fwrite(words, 4, nwords, f);
            if ((f != stdout && fclose(f)) || w != nwords)
                rc = cli_fail("compile: cannot write %s", out);
        }
    }
    if (reflect && rc == 0) print_reflection(stdout, r, entry);
    free(filtered);
    wgsl_result_free(r);
    return rc;
}
