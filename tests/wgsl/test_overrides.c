/* test_overrides.c - pipeline-constant values (wgsl_options.overrides) through the public API,
 * against WebGPU's rules for GPUProgrammableStage.constants: a key is an override's identifier (its
 * @id in decimal when it has one, else its name), a value is a finite double converted as WebIDL
 * converts it (i32/u32: integer part, [EnforceRange]; f32/f16: rounded to nearest even, no
 * overflow; bool: != 0).  Each value is checked against a reference conversion written here from
 * those rules, over boundary values of every type; accepted integer values must arrive in the
 * entry point's workgroup size; refused ones must give exactly one error with no location and
 * wgsl_result.override_error set.  Also: a workgroup size below 1 from override values, and an
 * override-expression whose evaluation fails with the values (division by zero). */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "test.h"
#include "wgc/wgsl.h"

static const char *module =
    "enable f16;\n"
    "override u: u32 = 1;\n"
    "override i: i32 = 1;\n"
    "override f: f32 = 1.0;\n"
    "override h: f16 = 1.0;\n"
    "override b: bool = false;\n"
    "@id(7) override w: u32 = 1;\n"
    "override wi: i32 = 1;\n"
    "@compute @workgroup_size(w, u) fn main() { _ = i; _ = f; _ = h; _ = b; }\n"
    "@compute @workgroup_size(wi) fn other() { }\n";

/* The reference: whether WebGPU accepts value v for an override of type t ('u','i','f','h','b'),
 * and for integers the converted value. */
static bool reference(char t, double v, long long *out) {
    if (!isfinite(v)) return false;
    double x = trunc(v);
    switch (t) {
    case 'u': *out = (long long)x; return x >= 0 && x <= 4294967295.0;
    case 'i': *out = (long long)x; return x >= -2147483648.0 && x <= 2147483647.0;
    case 'f': {
        /* nearest-even rounding to binary32 overflows exactly from FLT_MAX + half an ulp on */
        double lim = (double)FLT_MAX + ldexp(1.0, 127 - 24);
        return fabs(v) < lim;
    }
    case 'h': return fabs(v) < 65520.0;   /* 65504 + half an ulp (16) */
    default: return true;
    }
}

static wgsl_result *compile_with(const wgsl_override_value *ov, uint32_t n) {
    wgsl_options o = { .filename = "k.wgsl", .overrides = ov, .override_count = n };
    return wgsl_compile(module, strlen(module), &o);
}

static void expect_refused(wgsl_result *r, const char *what, const char *needle) {
    CHECKF(r && !r->ok, "%s: accepted", what);
    if (!r || r->ok) { wgsl_result_free(r); return; }
    CHECKF(r->override_error, "%s: override_error not set", what);
    CHECKF(r->error_count == 1 && r->diagnostic_count == 1, "%s: %u errors", what, r->error_count);
    CHECKF(r->spirv == NULL, "%s: a module came out", what);
    if (r->diagnostic_count) {
        CHECKF(strstr(r->diagnostics[0].message, needle), "%s: message '%s' lacks '%s'", what,
               r->diagnostics[0].message, needle);
        if (!strstr(needle, "workgroup_size"))
            CHECKF(r->diagnostics[0].line == 0, "%s: the error has a location", what);
    }
    wgsl_result_free(r);
}

int main(void) {
    static const double values[] = {
        0, -0.0, 0.5, -0.5, 1, 1.5, 2.7, -2.7, 1e-50, -1, 65504, 65519, 65519.99, 65520, 70000,
        2147483647, 2147483647.9, 2147483648.0, -2147483648.0, -2147483648.9, -2147483649.0,
        4294967295.0, 4294967295.5, 4294967296.0, 5e9, -5e9, 3.4028234663852886e38, 3.4028235e38,
        3.4028235677973362e38, 3.4028235677973366e38, 1e39, -1e39, 1e300, NAN, INFINITY, -INFINITY };
    static const struct { const char *name; char type; } keys[] = {
        { "u", 'u' }, { "i", 'i' }, { "f", 'f' }, { "h", 'h' }, { "b", 'b' } };
    int accepted = 0, refused = 0;
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        for (size_t j = 0; j < sizeof values / sizeof values[0]; j++) {
            double v = values[j];
            long long want = 0;
            bool ok = reference(keys[k].type, v, &want);
            /* u is also the workgroup size's y: values below 1 are refused for that reason */
            bool wg_bad = keys[k].type == 'u' && ok && want < 1;
            wgsl_override_value ov = { .name = keys[k].name, .value = v };
            wgsl_result *r = compile_with(&ov, 1);
            char what[64];
            snprintf(what, sizeof what, "%s = %.17g", keys[k].name, v);
            if (ok && !wg_bad) {
                accepted++;
                CHECKF(r && r->ok, "%s: refused: %s", what, r ? wgsl_result_text(r) : "NULL");
                if (r && r->ok && keys[k].type == 'u')
                    CHECKF(r->entry_points[0].workgroup_size[1] == (uint32_t)want, "%s: workgroup y %u, want %lld",
                           what, r->entry_points[0].workgroup_size[1], want);
                wgsl_result_free(r);
            } else {
                refused++;
                expect_refused(r, what, wg_bad ? "'@workgroup_size' argument must be at least 1"
                                       : !isfinite(v) ? "is not finite" : "is not representable in type");
            }
        }
    }
    /* i32 conversion lands in the workgroup size of `other`: integer part, toward zero */
    {
        wgsl_override_value ov = { .name = "wi", .value = 3.99 };
        wgsl_result *r = compile_with(&ov, 1);
        CHECKF(r && r->ok && r->entry_point_count == 2 && r->entry_points[1].workgroup_size[0] == 3,
               "wi = 3.99: %s", r ? wgsl_result_text(r) : "NULL");
        wgsl_result_free(r);
        ov.value = 0.99;   /* integer part 0: a workgroup size of 0 */
        expect_refused(compile_with(&ov, 1), "wi = 0.99", "'@workgroup_size' argument must be at least 1");
        ov.value = -3;
        expect_refused(compile_with(&ov, 1), "wi = -3", "'@workgroup_size' argument must be at least 1, is -3");
    }
    /* keys: @id(7) override by its id, others by name; anything else names no override */
    {
        wgsl_override_value ov = { .name = NULL, .id = 7, .value = 4 };
        wgsl_result *r = compile_with(&ov, 1);
        CHECKF(r && r->ok && r->entry_points[0].workgroup_size[0] == 4, "7 = 4: %s", r ? wgsl_result_text(r) : "NULL");
        wgsl_result_free(r);
        expect_refused(compile_with(&(wgsl_override_value){ .name = "w", .value = 4 }, 1), "w = 4",
                       "override 'w' has @id(7), so its key is '7'");
        expect_refused(compile_with(&(wgsl_override_value){ .name = "nosuch", .value = 4 }, 1), "nosuch = 4",
                       "the module declares no override 'nosuch'");
        expect_refused(compile_with(&(wgsl_override_value){ .id = 8, .value = 4 }, 1), "8 = 4",
                       "declares no override with @id(8)");
        /* u got id 0 from the compiler, but has no @id: its key is its name */
        expect_refused(compile_with(&(wgsl_override_value){ .id = 0, .value = 4 }, 1), "0 = 4",
                       "'u' has no @id: its key is its name");
        expect_refused(compile_with(&(wgsl_override_value){ .name = "W", .value = 4 }, 1), "W = 4",
                       "declares no override 'W'");
        /* check_only checks the keys too */
        wgsl_options o = { .check_only = true, .overrides = &(wgsl_override_value){ .name = "zz" }, .override_count = 1 };
        r = wgsl_compile(module, strlen(module), &o);
        CHECKF(r && !r->ok && r->override_error, "check_only: unknown key accepted");
        wgsl_result_free(r);
        /* an invalid module is not an override error, even with a bad key */
        r = wgsl_compile("fn f( {", 7, &(wgsl_options){ .overrides = &(wgsl_override_value){ .name = "zz" },
                                                          .override_count = 1 });
        CHECKF(r && !r->ok && !r->override_error, "syntax error flagged as an override error");
        wgsl_result_free(r);
    }
    /* an override-expression that fails with the values: an error at the expression, once */
    {
        static const char *m2 = "override a: u32 = 1;\noverride b = 10u / a;\n"
                                "@compute @workgroup_size(1) fn main() { _ = b; }\n"
                                "@compute @workgroup_size(10u / a) fn two() { }\n";
        wgsl_override_value ov = { .name = "a", .value = 0 };
        wgsl_result *r = wgsl_compile(m2, strlen(m2), &(wgsl_options){ .overrides = &ov, .override_count = 1 });
        CHECKF(r && !r->ok && r->override_error && r->error_count == 2 && r->diagnostic_count == 2 &&
               r->diagnostics[0].line == 2 && r->diagnostics[0].col == 14 && r->diagnostics[1].line == 4 &&
               strstr(r->diagnostics[0].message, "division by zero"),
               "a = 0: %s", r ? wgsl_result_text(r) : "NULL");
        wgsl_result_free(r);
        ov.value = 2;
        r = wgsl_compile(m2, strlen(m2), &(wgsl_options){ .overrides = &ov, .override_count = 1 });
        CHECKF(r && r->ok && r->entry_points[1].workgroup_size[0] == 5, "a = 2: %s", r ? wgsl_result_text(r) : "NULL");
        wgsl_result_free(r);
    }
    printf("%d values accepted, %d refused\n", accepted, refused);
    CHECK(accepted > 40 && refused > 40);
    return test_end();
}
