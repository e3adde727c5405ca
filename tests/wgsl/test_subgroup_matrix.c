/* test_subgroup_matrix.c - `enable chromium_experimental_subgroup_matrix` lowered to
 * SPV_KHR_cooperative_matrix.  The spirv-val on this machine (SPIRV-Tools 2023.1) predates the
 * KHR extension, so the module is checked here word by word: the capability and extension,
 * OpTypeCooperativeMatrixKHR with scope Subgroup, rows, columns and use (MatrixA/B/Accumulator)
 * read back through their constants, the Load/Store layouts (RowMajor 0 / ColumnMajor 1) and
 * strides, MulAdd operands and the signed-component flags for i32.  Also: the device option
 * no_subgroup_matrix rejects the extension, and modules without it carry no trace of it. */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "wgc/wgsl.h"

enum {
    OP_EXTENSION = 10, OP_CAPABILITY = 17, OP_TYPE_INT = 21, OP_TYPE_FLOAT = 22, OP_CONSTANT = 43,
    OP_ACCESS_CHAIN = 65, OP_TYPE_COOP = 4456, OP_COOP_LOAD = 4457, OP_COOP_STORE = 4458,
    OP_COOP_MULADD = 4459, CAP_COOP = 6022
};

typedef struct mod {
    const uint32_t *w;
    size_t n;
    uint32_t bound;
    uint32_t *cval;      /* [bound] value of an OpConstant (32-bit), else ~0 */
    uint32_t *tkind;     /* [bound] 'i' int 32, 'f' float: width in tbits */
    uint32_t *tbits;
    uint32_t *def;       /* [bound] word offset of the defining instruction, 0 if none */
} mod;

static void mod_init(mod *m, const uint32_t *w, size_t n) {
    m->w = w;
    m->n = n;
    m->bound = n > 3 ? w[3] : 0;
    m->cval = malloc((m->bound + 1) * sizeof *m->cval);
    m->tkind = calloc(m->bound + 1, sizeof *m->tkind);
    m->tbits = calloc(m->bound + 1, sizeof *m->tbits);
    m->def = calloc(m->bound + 1, sizeof *m->def);
    for (uint32_t i = 0; i <= m->bound; i++) m->cval[i] = ~0u;
    for (size_t i = 5; i < n;) {
        uint32_t op = w[i] & 0xffff, len = w[i] >> 16;
        if (!len || i + len > n) break;
        if (op == OP_CONSTANT && len == 4 && w[i + 2] <= m->bound) m->cval[w[i + 2]] = w[i + 3];
        if ((op == OP_TYPE_INT || op == OP_TYPE_FLOAT) && w[i + 1] <= m->bound) {
            m->tkind[w[i + 1]] = op == OP_TYPE_INT ? 'i' : 'f';
            m->tbits[w[i + 1]] = w[i + 2];
        }
        if (op == OP_TYPE_COOP && w[i + 1] <= m->bound) m->def[w[i + 1]] = (uint32_t)i;
        i += len;
    }
}

static void mod_free(mod *m) { free(m->cval); free(m->tkind); free(m->tbits); free(m->def); }

/* The instruction (with a result type) that defines `id`, or NULL. */
static const uint32_t *def_of(const mod *m, uint32_t id) {
    for (size_t i = 5; i < m->n;) {
        uint32_t len = m->w[i] >> 16;
        if (!len) break;
        if (len >= 3 && m->w[i + 2] == id && (m->w[i] & 0xffff) != 71 /* OpDecorate */) return &m->w[i];
        i += len;
    }
    return NULL;
}

static uint32_t cv(const mod *m, uint32_t id) { return id <= m->bound ? m->cval[id] : ~0u; }

/* Counts instructions with opcode `op`; the k-th one's offset goes to *at (k < 0: none). */
static int count_op(const mod *m, uint32_t op, int k, size_t *at) {
    int c = 0;
    for (size_t i = 5; i < m->n;) {
        uint32_t len = m->w[i] >> 16;
        if (!len) break;
        if ((m->w[i] & 0xffff) == op) {
            if (c == k && at) *at = i;
            c++;
        }
        i += len;
    }
    return c;
}

static bool has_cap(const mod *m, uint32_t cap) {
    for (size_t i = 5; i < m->n;) {
        uint32_t len = m->w[i] >> 16;
        if (!len) break;
        if ((m->w[i] & 0xffff) == OP_CAPABILITY && m->w[i + 1] == cap) return true;
        i += len;
    }
    return false;
}

static bool has_ext(const mod *m, const char *name) {
    for (size_t i = 5; i < m->n;) {
        uint32_t len = m->w[i] >> 16;
        if (!len) break;
        if ((m->w[i] & 0xffff) == OP_EXTENSION && !strcmp((const char *)&m->w[i + 1], name)) return true;
        i += len;
    }
    return false;
}

/* The coop matrix type `t`: component kind/bits, scope, rows, cols, use. */
static bool coop_is(const mod *m, uint32_t t, char kind, uint32_t bits, uint32_t rows, uint32_t cols, uint32_t use) {
    if (t > m->bound || !m->def[t]) return false;
    const uint32_t *d = &m->w[m->def[t]];
    return m->tkind[d[2]] == (uint32_t)kind && m->tbits[d[2]] == bits && cv(m, d[3]) == 3 &&
           cv(m, d[4]) == rows && cv(m, d[5]) == cols && cv(m, d[6]) == use;
}

static wgsl_result *compile(const char *src, wgsl_target_env env, bool no_sgm) {
    return wgsl_compile(src, strlen(src), &(wgsl_options){ .filename = "sgm.wgsl", .target_env = env,
                                                           .no_subgroup_matrix = no_sgm });
}

static const char *matmul_src =
    "enable f16;\n"
    "enable chromium_experimental_subgroup_matrix;\n"
    "@group(0) @binding(0) var<storage, read> a : array<f16>;\n"
    "@group(0) @binding(1) var<storage, read> b : array<f16>;\n"
    "@group(0) @binding(2) var<storage, read_write> c : array<f32>;\n"
    "var<workgroup> tile : array<f16, 256>;\n"
    "@compute @workgroup_size(32)\n"
    "fn main(@builtin(workgroup_id) wg : vec3<u32>) {\n"
    "  var acc = subgroup_matrix_result<f32, 16, 8>();\n"
    "  for (var k = 0u; k < 64u; k += 16u) {\n"
    "    let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 8>>(&a, wg.x * 1024u + k, false, 64u);\n"
    "    let r = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>>(&b, k * 64u, true, 64u);\n"
    "    acc = subgroupMatrixMultiplyAccumulate(l, r, acc);\n"
    "  }\n"
    "  let t = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 8>>(&tile, 0u, false, 16u);\n"
    "  let p = subgroupMatrixMultiply<f32>(t, subgroup_matrix_right<f16, 16, 16>(1.0));\n"
    "  subgroupMatrixStore(&c, wg.x * 256u, acc, false, 16u);\n"
    "  subgroupMatrixStore(&c, 0u, p, true, 8u);\n"
    "}\n";

static void test_matmul(wgsl_target_env env) {
    wgsl_result *r = compile(matmul_src, env, false);
    CHECK(r != NULL);
    if (!r) return;
    CHECKF(r->ok, "%s", wgsl_result_text(r));
    if (!r->ok) { wgsl_result_free(r); return; }
    mod m;
    mod_init(&m, r->spirv, r->spirv_word_count);
    CHECK_EQ_INT(m.w[1], 0x00010600);   /* SPIR-V 1.6 whatever the target: the extension needs it */
    CHECK(has_cap(&m, CAP_COOP));
    CHECK(has_ext(&m, "SPV_KHR_cooperative_matrix"));
    CHECK_EQ_INT(count_op(&m, OP_TYPE_COOP, -1, NULL), 3);
    CHECK_EQ_INT(count_op(&m, OP_COOP_LOAD, -1, NULL), 3);
    CHECK_EQ_INT(count_op(&m, OP_COOP_STORE, -1, NULL), 2);
    CHECK_EQ_INT(count_op(&m, OP_COOP_MULADD, -1, NULL), 2);
    size_t at = 0;
    /* left<f16, 16, 8>: 8 rows, 16 columns, MatrixAKHR; loaded row-major with stride 64 */
    if (count_op(&m, OP_COOP_LOAD, 0, &at) > 0) {
        const uint32_t *w = &m.w[at];
        CHECK(coop_is(&m, w[1], 'f', 16, 8, 16, 0));
        CHECK_EQ_INT(cv(&m, w[4]), 0);
        CHECK_EQ_INT(cv(&m, w[5]), 64);
    }
    /* right<f16, 16, 16>: MatrixBKHR, column-major */
    if (count_op(&m, OP_COOP_LOAD, 1, &at) > 1) {
        const uint32_t *w = &m.w[at];
        CHECK(coop_is(&m, w[1], 'f', 16, 16, 16, 1));
        CHECK_EQ_INT(cv(&m, w[4]), 1);
    }
    /* MulAdd: result<f32, 16, 8> = 8 rows x 16 columns, MatrixAccumulatorKHR; no signed flags */
    if (count_op(&m, OP_COOP_MULADD, 0, &at) > 0) {
        const uint32_t *w = &m.w[at];
        CHECK(coop_is(&m, w[1], 'f', 32, 8, 16, 2));
        CHECK_EQ_INT(w[0] >> 16, 6);
    }
    /* second store: column-major, stride 8 */
    if (count_op(&m, OP_COOP_STORE, 1, &at) > 1) {
        const uint32_t *w = &m.w[at];
        CHECK_EQ_INT(w[0] >> 16, 5);
        CHECK_EQ_INT(cv(&m, w[3]), 1);
        CHECK_EQ_INT(cv(&m, w[4]), 8);
    }
    mod_free(&m);
    wgsl_result_free(r);
}

/* Bounds checks (the default).  A load from the storage buffer (runtime-sized) and the store sit in
 * selections whose condition says the matrix lies inside the array, the load's value a phi with the
 * zero matrix.  A load from a fixed-size workgroup array with a constant stride has no branch: its
 * offset goes through UMin with count - ((rows - 1) * stride + width) (256 - (7 * 16 + 8) = 136).  A
 * matrix larger than its array loads as the zero matrix, with no load.  None of this without. */
static void test_bounds(void) {
    const char *src =
        "enable f16;\n"
        "enable chromium_experimental_subgroup_matrix;\n"
        "@group(0) @binding(0) var<storage, read_write> s : array<f16>;\n"
        "var<workgroup> w : array<f16, 64>;\n"
        "var<workgroup> w2 : array<f16, 256>;\n"
        "var<workgroup> w3 : array<f16, 32>;\n"
        "@compute @workgroup_size(32) fn main(@builtin(workgroup_id) g : vec3<u32>) {\n"
        "  let m = subgroupMatrixLoad<subgroup_matrix_left<f16, 8, 8>>(&s, 4u, true, 8u);\n"
        "  subgroupMatrixStore(&w, 0u, m, false, 8u);\n"
        "  let q = subgroupMatrixLoad<subgroup_matrix_left<f16, 8, 8>>(&w2, g.x * 8u, false, 16u);\n"
        "  subgroupMatrixStore(&s, 64u, q, false, 8u);\n"
        "  let z = subgroupMatrixLoad<subgroup_matrix_left<f16, 8, 8>>(&w3, 0u, false, 8u);\n"
        "  subgroupMatrixStore(&s, 128u, z, false, 8u);\n"
        "}\n";
    for (int nb = 0; nb < 2; nb++) {
        wgsl_result *r = wgsl_compile(src, strlen(src), &(wgsl_options){ .filename = "b.wgsl", .no_bounds_checks = nb });
        CHECK(r && r->ok);
        if (!r || !r->ok) { wgsl_result_free(r); continue; }
        mod m;
        mod_init(&m, r->spirv, r->spirv_word_count);
        size_t at = 0, at2 = 0;
        int phis = count_op(&m, 245, -1, NULL), sels = count_op(&m, 247, -1, NULL), lens = count_op(&m, 68, -1, NULL);
        int loads = count_op(&m, OP_COOP_LOAD, 0, &at);
        count_op(&m, OP_COOP_LOAD, 1, &at2);
        if (nb) {
            CHECK_EQ_INT(loads, 3);
            CHECK_EQ_INT(phis, 0);
            CHECK_EQ_INT(lens, 0);
        } else {
            CHECK_EQ_INT(loads, 2);    /* w3's matrix does not fit: the zero matrix, no load */
            CHECK_EQ_INT(phis, 1);     /* the storage load's */
            CHECK(sels >= 4);          /* the storage load, the three stores (+ the workgroup zeroing loop) */
            CHECK_EQ_INT(lens, 3);     /* the runtime array's length, for the load and two stores */
            size_t ph = 0;
            count_op(&m, 245, 0, &ph);
            if (ph) {                  /* phi: the loaded matrix or the zero matrix constant */
                CHECK_EQ_INT(m.w[ph + 3], m.w[at + 2]);
            }
            /* the workgroup load: pointer = AccessChain(w2, UMin(offset, 136)) */
            bool clamped = false;
            const uint32_t *ac = at2 ? def_of(&m, m.w[at2 + 3]) : NULL;
            if (ac && (ac[0] & 0xffff) == 65 && (ac[0] >> 16) == 5) {
                const uint32_t *mn = def_of(&m, ac[4]);
                clamped = mn && (mn[0] & 0xffff) == 12 && mn[4] == 38 && cv(&m, mn[6]) == 136;
            }
            CHECK(clamped);
        }
        mod_free(&m);
        wgsl_result_free(r);
    }
}

static void test_signed(void) {
    const char *src =
        "enable chromium_experimental_subgroup_matrix;\n"
        "@group(0) @binding(0) var<storage, read_write> o : array<i32>;\n"
        "@compute @workgroup_size(32) fn main() {\n"
        "  let l = subgroup_matrix_left<i32, 8, 8>(1);\n"
        "  let p = subgroupMatrixMultiply<i32>(l, subgroup_matrix_right<i32, 8, 8>(2));\n"
        "  subgroupMatrixStore(&o, 0u, p, false, 8u);\n"
        "}\n";
    wgsl_result *r = compile(src, WGSL_TARGET_VULKAN_1_3, false);
    CHECK(r && r->ok);
    if (!r || !r->ok) { if (r) { fputs(wgsl_result_text(r), stderr); wgsl_result_free(r); } return; }
    mod m;
    mod_init(&m, r->spirv, r->spirv_word_count);
    size_t at = 0;
    CHECK_EQ_INT(count_op(&m, OP_COOP_MULADD, 0, &at), 1);
    if (at) {
        CHECK_EQ_INT(m.w[at] >> 16, 7);
        CHECK_EQ_INT(m.w[at + 6], 0x1e);   /* MatrixA|B|C|Result SignedComponentsKHR */
        CHECK(coop_is(&m, m.w[at + 1], 'i', 32, 8, 8, 2));
    }
    mod_free(&m);
    wgsl_result_free(r);
}

static void test_device_option(void) {
    wgsl_result *r = compile(matmul_src, WGSL_TARGET_VULKAN_1_3, true);
    CHECK(r && !r->ok);
    if (r) {
        CHECKF(strstr(wgsl_result_text(r), "'chromium_experimental_subgroup_matrix' extension is not supported by the device"),
               "%s", wgsl_result_text(r));
        wgsl_result_free(r);
    }
    const char *plain = "@group(0) @binding(0) var<storage, read_write> d : array<f32>;\n"
                        "@compute @workgroup_size(1) fn main() { d[0] = 1.0; }\n";
    r = compile(plain, WGSL_TARGET_VULKAN_1_3, true);
    CHECK(r && r->ok);
    if (r && r->ok) {
        mod m;
        mod_init(&m, r->spirv, r->spirv_word_count);
        CHECK(!has_cap(&m, CAP_COOP) && !has_ext(&m, "SPV_KHR_cooperative_matrix"));
        CHECK_EQ_INT(count_op(&m, OP_TYPE_COOP, -1, NULL), 0);
        mod_free(&m);
    }
    if (r) wgsl_result_free(r);
}


/* Workgroup matrices (enable wgc_workgroup_matrix, wgc's own): the same opcodes with scope
 * Workgroup (2) and SPV_NV_cooperative_matrix2 declared, sizes up to 1024 in multiples of 16, a
 * result converted f32 -> f16 by its constructor (OpFConvert); the diagnostics: no enable, the
 * device option, a size not a multiple of 16, a subgroup built-in on a workgroup matrix, a call
 * in non-uniform control flow. */
static const char *wgm_src =
    "enable f16;\n"
    "enable wgc_workgroup_matrix;\n"
    "@group(0) @binding(0) var<storage, read> a : array<f16>;\n"
    "@group(0) @binding(1) var<storage, read> b : array<f16>;\n"
    "@group(0) @binding(2) var<storage, read_write> c : array<f16>;\n"
    "@compute @workgroup_size(256)\n"
    "fn main(@builtin(workgroup_id) wg : vec3<u32>) {\n"
    "  var acc = workgroup_matrix_result<f32, 256, 128>();\n"
    "  for (var k = 0u; k < 1024u; k += 64u) {\n"
    "    let l = workgroupMatrixLoad<workgroup_matrix_left<f16, 64, 128>>(&a, wg.y * 131072u + k, false, 1024u);\n"
    "    let r = workgroupMatrixLoad<workgroup_matrix_right<f16, 256, 64>>(&b, k * 1024u + wg.x * 256u, false, 1024u);\n"
    "    acc = workgroupMatrixMultiplyAccumulate(l, r, acc);\n"
    "  }\n"
    "  workgroupMatrixStore(&c, wg.y * 131072u + wg.x * 256u, workgroup_matrix_result<f16, 256, 128>(acc), false, 1024u);\n"
    "}\n";

static void wgm_error(const char *src, bool no_wgm, const char *want) {
    wgsl_result *r = wgsl_compile(src, strlen(src), &(wgsl_options){ .filename = "wgm.wgsl", .no_workgroup_matrix = no_wgm });
    CHECK(r && !r->ok);
    if (r) {
        CHECKF(strstr(wgsl_result_text(r), want) != NULL, "want '%s', got: %s", want, wgsl_result_text(r));
        wgsl_result_free(r);
    }
}

static char *replace(const char *s, const char *from, const char *to) {
    const char *at = strstr(s, from);
    size_t n = strlen(s) + strlen(to) + 1;
    char *o = malloc(n);
    if (!at) { snprintf(o, n, "%s", s); return o; }
    snprintf(o, n, "%.*s%s%s", (int)(at - s), s, to, at + strlen(from));
    return o;
}

static void test_workgroup_matrix(void) {
    wgsl_result *r = wgsl_compile(wgm_src, strlen(wgm_src), &(wgsl_options){ .filename = "wgm.wgsl" });
    CHECK(r && r->ok);
    if (r && r->ok) {
        mod m;
        mod_init(&m, r->spirv, r->spirv_word_count);
        CHECK(has_cap(&m, CAP_COOP));
        CHECK(has_ext(&m, "SPV_KHR_cooperative_matrix") && has_ext(&m, "SPV_NV_cooperative_matrix2"));
        CHECK_EQ_INT(count_op(&m, OP_TYPE_COOP, -1, NULL), 4);   /* left, right, f32 and f16 results */
        int wgscope = 0;
        for (int i = 0; i < count_op(&m, OP_TYPE_COOP, -1, NULL); i++) {
            size_t at = 0;
            count_op(&m, OP_TYPE_COOP, i, &at);
            wgscope += cv(&m, m.w[at + 3]) == 2;
        }
        CHECK_EQ_INT(wgscope, 4);
        size_t at = 0;
        if (count_op(&m, OP_COOP_LOAD, 0, &at) > 0) {   /* left<f16, 64, 128>: 128 rows, 64 columns */
            const uint32_t *d = &m.w[m.def[m.w[at + 1]]];
            CHECK(cv(&m, d[4]) == 128 && cv(&m, d[5]) == 64 && cv(&m, d[6]) == 0);
            CHECK_EQ_INT(cv(&m, m.w[at + 5]), 1024);
        }
        CHECK_EQ_INT(count_op(&m, OP_COOP_MULADD, -1, NULL), 1);
        CHECK_EQ_INT(count_op(&m, 115, -1, NULL), 1);   /* OpFConvert: the f32 result to f16 */
        mod_free(&m);
    }
    if (r) wgsl_result_free(r);
    char *s;
    wgm_error(s = replace(wgm_src, "enable wgc_workgroup_matrix;\n", ""), false, "requires enabling extension 'wgc_workgroup_matrix'");
    free(s);
    wgm_error(wgm_src, true, "'wgc_workgroup_matrix' extension is not supported by the device");
    wgm_error(s = replace(wgm_src, "result<f32, 256, 128>();", "result<f32, 256, 120>();"), false, "multiple of 16");
    free(s);
    wgm_error(s = replace(wgm_src, "acc = workgroupMatrixMultiplyAccumulate(l, r, acc);", "acc = subgroupMatrixMultiplyAccumulate(l, r, acc);"),
              false, "subgroupMatrixMultiplyAccumulate");
    free(s);
    wgm_error(s = replace(wgm_src, "    acc = workgroupMatrixMultiplyAccumulate(l, r, acc);\n",
                          "    if (c[k] > 0.0h) { acc = workgroupMatrixMultiplyAccumulate(l, r, acc); }\n"),
              false, "uniform");
    free(s);
}

int main(void) {
    test_matmul(WGSL_TARGET_VULKAN_1_3);
    test_matmul(WGSL_TARGET_VULKAN_1_1);
    test_signed();
    test_bounds();
    test_device_option();
    test_workgroup_matrix();
    return test_end();
}
