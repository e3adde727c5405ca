/* test_kernels.c - every kernel file of src/tensor/kernels/ compiles through wt_kernel_compile, the
 * path wt_kernel_get builds pipelines from (kernel.c's prelude + common.wgsl + the file + shared
 * code + entry point), for several specialisation keys each: f32, i32/u32 where the file takes
 * them, f16 where the adapter has it, both map entry points, a fused chain of each length.  A name
 * in the prelude that a file also declares, or a file that no longer compiles for a key it is
 * used with, fails here on any adapter, also where the kernel cannot run (the cooperative-matrix
 * files on lavapipe).  Every catalogue row (src/tensor/catalogue.h) says when its kernel runs. */
#include "tensor_test.h"
#include "tensor/internal.h"
#include "wgc/wgsl.h"

static const char *const names[] = {
#define X(name, nin, entry, s1, s2, needs, unclamped, when) #name,
    WT_KERNEL_CATALOGUE(X)
#undef X
};

static int compiled;

static void compile(wt_context *ctx, const wt_kkey *key, uint32_t per, const char *what) {
    wgsl_result *r = wt_kernel_compile(ctx, "test_kernels", key, per);
    CHECKF(r && r->ok && r->spirv_word_count > 0, "%s.wgsl (%s, op %u): %s", names[key->file], what, key->op,
           r ? "no SPIR-V" : wt_last_error(ctx));
    wgsl_result_free(r);
    wt_clear_error(ctx);
    compiled++;
}

/* A key as the C side makes them: integer-only files take i32, norm4/softmax4 at least one vec4
 * slot per lane (MC = NV >= 1). */
static wt_kkey key_of(uint32_t file, uint8_t dt) {
    wt_kkey k;
    memset(&k, 0, sizeof k);
    k.file = (uint8_t)file;
    if ((file == WT_K_binary_i || file == WT_K_unary_i) && (dt == WT_F32 || dt == WT_F16))
        dt = WT_I32;
    k.out = k.in[0] = k.in[1] = k.in[2] = k.compute = dt;
    if (file == WT_K_norm4 || file == WT_K_softmax4)
        k.mode[2] = 1;
    return k;
}

/* Files never specialised for f16 storage: integer ops, and scatter_add (f16 adds run in an f32 copy). */
static bool takes_f16(uint32_t file) {
    return file != WT_K_binary_i && file != WT_K_unary_i && file != WT_K_scatter;
}

int main(void) {
    tt_fixture f;
    wt_context *ctx = tt_init(&f, NULL);
    bool f16 = wt_context_has_f16(ctx);
    for (uint32_t file = 0; file < WT_K_COUNT; file++) {
        const char *when = wt_kernel_when(file);   /* every catalogue row says when it runs */
        CHECKF(when && strlen(when) > 10, "%s.wgsl: no 'when' in the catalogue", names[file]);
        /* the tensor-core files: f16 operands, or f32 ones split into f16 parts (flash_x3) */
        bool x3 = file == WT_K_flash_x3;
        bool coop = file == WT_K_matmul_coop || file == WT_K_flash_coop || file == WT_K_matmul_wgm || x3;
        if (coop && !f16) {
            printf("SKIP: %s.wgsl: f16 kernels need shader-f16\n", names[file]);
            continue;
        }
        wt_kkey k = key_of(file, coop && !x3 ? WT_F16 : WT_F32);
        if (coop)
            k.compute = WT_F32;
        compile(ctx, &k, 1, coop && !x3 ? "f16" : "f32");
        if (coop && file == WT_K_matmul_wgm)   /* both layouts of each operand, the bias, f32 out */
            for (int m = 1; m < 16; m++) {
                wt_kkey w = k;
                w.mode[0] = (uint8_t)(m & 1), w.mode[1] = (uint8_t)(m >> 1 & 1), w.mode[2] = (uint8_t)(m >> 2 & 1);
                if (m & 8)
                    w.out = WT_F32;
                compile(ctx, &w, 1, "f16 layouts");
            }
        if (f16 && !coop && takes_f16(file)) {
            k = key_of(file, WT_F16);
            k.compute = WT_F32;
            compile(ctx, &k, 1, "f16 storage");
        }
        if (wt_kernel_vec4_ok(file)) {
            k = key_of(file, WT_F32);
            k.v4 = 1;
            k.mode[0] = k.mode[1] = WT_MODE_CONTIG;
            for (uint32_t per = 1; per <= 4; per *= 2)
                compile(ctx, &k, per, "vec4");
        }
    }
    /* integer files and modes of the elementwise ones */
    uint32_t ints[] = { WT_K_unary_i, WT_K_binary_i, WT_K_compare, WT_K_reduce, WT_K_scan, WT_K_gather };
    for (size_t i = 0; i < sizeof ints / sizeof *ints; i++) {
        wt_kkey k = key_of(ints[i], WT_I32);
        compile(ctx, &k, 1, "i32");
        k = key_of(ints[i], WT_U32);
        compile(ctx, &k, 1, "u32");
    }
    for (uint8_t m = WT_MODE_STRIDED; m <= WT_MODE_PARAM; m++) {
        wt_kkey k = key_of(WT_K_binary_f, WT_F32);
        k.mode[1] = m;
        compile(ctx, &k, 1, "binary mode");
    }
    /* fused chains of every length on unary and binary kernels, with unary and scalar links */
    for (uint32_t file = WT_K_unary_f; file <= WT_K_binary_f; file++) {
        if (file != WT_K_unary_f && file != WT_K_binary_f)
            continue;
        for (int n = 1; n <= WT_CHAIN; n++) {
            wt_kkey k = key_of(file, WT_F32);
            k.nchain = (uint8_t)n;
            for (int j = 0; j < n; j++)
                k.chain[j] = (uint8_t)(j % 2 ? 64 + j % 8 : j % 18);
            compile(ctx, &k, 1, "chain");
            k.v4 = 1;
            k.mode[0] = WT_MODE_CONTIG;
            compile(ctx, &k, 2, "chain vec4");
        }
    }
    printf("%d kernel specialisations compiled\n", compiled);

    /* wt_kernel_list: the kernels the context built (wt_kernel_compile above builds none), each
     * named, with the driver's figures exactly where the device has pipeline statistics */
    CHECK(wt_kernel_list(ctx, NULL, 0) == 0);
    wt_tensor *x = wt_arange(ctx, WT_F32, 0, 64, 1);
    wt_tensor *y = x ? wt_add(ctx, x, x) : NULL;
    wt_tensor *m = y ? wt_view(ctx, y, 2, (int64_t[]){ 8, 8 }) : NULL;
    wt_tensor *p = m ? wt_matmul(ctx, m, m) : NULL;
    CHECK(p && wt_sync(ctx) == WT_OK);
    wt_stats st;
    wt_get_stats(ctx, &st);
    uint32_t n = wt_kernel_list(ctx, NULL, 0);
    CHECKF(n >= 3 && n == st.kernels_compiled, "%u kernels listed, %llu compiled", n,
           (unsigned long long)st.kernels_compiled);
    wt_kernel_info *ks = calloc(n + 1, sizeof *ks);
    CHECK(ks != NULL);
    if (ks) {
        strcpy(ks[1].name, "untouched");
        CHECK(wt_kernel_list(ctx, ks, 1) == n && ks[0].name[0] && !strcmp(ks[1].name, "untouched"));
        CHECK(wt_kernel_list(ctx, ks, n) == n);
        bool stats = wg_device_has_feature(wt_context_device(ctx), WG_FEATURE_PIPELINE_STATISTICS);
        int add = 0, mm = 0;
        for (uint32_t i = 0; i < n; i++) {
            add += !strncmp(ks[i].name, "binary_f op ", 12) && strstr(ks[i].name, "f32<-f32,f32") != NULL;
            mm += !strncmp(ks[i].name, "matmul", 6);
            CHECKF(stats ? ks[i].statistic_count > 0 : ks[i].statistic_count == 0, "%s: %u statistics", ks[i].name,
                   ks[i].statistic_count);
            for (uint32_t j = 0; j < ks[i].statistic_count; j++)
                CHECKF(ks[i].statistics[j].name[0] && isfinite(ks[i].statistics[j].value), "%s: statistic %u",
                       ks[i].name, j);
        }
        CHECKF(add == 1 && mm >= 1, "add %d, matmul %d in the list", add, mm);
        printf("%u kernels listed%s, e.g. %s\n", n, stats ? " with the driver's figures" : "", ks[0].name);
        free(ks);
    }
    wt_release(x);
    wt_release(y);
    wt_release(m);
    wt_release(p);
    tt_end(&f);
    return test_end();
}
