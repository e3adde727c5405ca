/* nn_conv.c - the conv2d rows of `wgc bench nn`: wt_conv2d f32, 3x3, stride 1, padding 1, bias,
 * on x [N, C, H, W] with K output channels (full size N32 C64 K64 128^2, as issue 5 asks; CPU
 * adapters get smaller problems), in TFLOP/s of 2 N K OH OW C 9 flop.  Timed as bench/nn.c times
 * its products (bench_time_op: `reps` convolutions recorded back to back into the batch, wt_sync,
 * GPU time / reps where wt's batch timing is on, else wall clock), best of `runs` (median in the
 * note).  48 sampled outputs of one more convolution are checked against a double-precision host
 * convolution; a mismatch counts as a wrong result.  With variants
 * (WGC_NN_KERNELS=all, or WGC_CONV_KERNELS=all for these rows only) a row per forced kernel
 * (Winograd by chunk size, the implicit GEMM, direct) follows; WGC_CONV_KERNELS=wino: the
 * Winograd rows and the implicit GEMM only.  H200 (two runs, cuDNN 36.9): AUTO (Winograd) 29.6
 * TFLOP/s = 0.80 of cuDNN (flop of the direct sum); the implicit GEMM 21.7-22.0 = 0.59-0.60.  Baseline: torch.nn.functional.conv2d (cuDNN, TF32 off) in
 * bench/baseline_nn.py (--conv N,C,K,H,W). */
#include "nn_conv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONV_MAX_RUNS BENCH_MAX_RUNS

typedef struct conv_size {
    int64_t N, C, K, H, W;
    int reps;
} conv_size;

static conv_size size_of(bench_size size) {
    switch (size) {
    case BENCH_SIZE_SMALL: return (conv_size){ 1, 8, 16, 16, 16, 4 };
    case BENCH_SIZE_MEDIUM: return (conv_size){ 2, 16, 32, 32, 32, 4 };
    default: return (conv_size){ 32, 64, 64, 128, 128, 10 };
    }
}

const char *nn_conv_shape(bench_size size) {
    static char buf[96];
    conv_size s = size_of(size);
    snprintf(buf, sizeof buf, "%lld,%lld,%lld,%lld,%lld", (long long)s.N, (long long)s.C, (long long)s.K,
             (long long)s.H, (long long)s.W);
    return buf;
}

static uint64_t rng = 0x2545f4914f6cdd1dull;
static float urand(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (float)((double)(rng >> 11) / 4503599627370496.0 - 1.0);
}

typedef struct conv_call {
    wt_context *ctx;
    wt_tensor *x, *w, *b;
    const wt_conv2d_desc *d;
} conv_call;

static wt_tensor *call_conv(void *arg) {
    conv_call *c = arg;
    return wt_conv2d(c->ctx, c->x, c->w, c->b, c->d);
}

/* 48 sampled outputs of one more convolution against the double-precision host sum. */
static void check_conv(wt_context *ctx, const char *name, const conv_size *s, const conv_call *cc, const float *hx,
                       const float *hw, const float *hb, int *wrong, int *errors) {
    int64_t OHW = s->H * s->W, no = s->N * s->K * OHW;
    wt_tensor *out = call_conv((void *)cc);
    float *ho = malloc((size_t)no * sizeof *ho);
    if (!out || !ho || wt_to_host(ctx, out, ho, (size_t)no * sizeof *ho) != WT_OK) {
        bench_got(ctx, errors, name, NULL);
        free(ho);
        wt_release(out);
        return;
    }
    uint64_t q = 88172645463325252ull;
    int bad = 0;
    for (int i = 0; i < 48; i++) {
        q ^= q << 13; q ^= q >> 7; q ^= q << 17;
        int64_t o = i == 0 ? no - 1 : i == 1 ? 0 : (int64_t)(q % (uint64_t)no);
        int64_t n = o / (s->K * OHW), k = o / OHW % s->K, oh = o % OHW / s->W, ow = o % s->W;
        double ref = hb[k], mag = fabs(hb[k]);
        for (int64_t c = 0; c < s->C; c++)
            for (int64_t kh = 0; kh < 3; kh++)
                for (int64_t kw = 0; kw < 3; kw++) {
                    int64_t ih = oh - 1 + kh, iw = ow - 1 + kw;
                    if (ih < 0 || ih >= s->H || iw < 0 || iw >= s->W)
                        continue;
                    double t2 = (double)hx[((n * s->C + c) * s->H + ih) * s->W + iw] *
                                (double)hw[((k * s->C + c) * 3 + kh) * 3 + kw];
                    ref += t2;
                    mag += fabs(t2);
                }
        if (!(fabs(ho[o] - ref) <= 1e-5 * (mag + 1)) && bad++ < 3)
            fprintf(stderr, "wgc bench: %s: out[%lld] = %.9g, expected %.9g\n", name, (long long)o, ho[o], ref);
    }
    if (bad)
        (*wrong)++;
    free(ho);
    wt_release(out);
}

/* One measured row (bench_time_op: GPU time with `timed`), then the check. */
static void conv_row(bench_report *rep, wt_context *ctx, bool timed, const char *key, const char *name,
                     const conv_size *s, int runs, wt_conv_impl impl, wt_tensor *x, wt_tensor *w, wt_tensor *b,
                     const float *hx, const float *hw, const float *hb, int *wrong, int *errors) {
    bench_row *row = bench_find_row(rep, key);
    if (!row)
        row = bench_add_row(rep, key, name, "TFLOP/s", BENCH_HIGHER, NAN);
    if (!row)
        return;
    wt_conv2d_desc d = { .padding = { 1, 1 }, .impl = impl };
    conv_call cc = { ctx, x, w, b, &d };
    bench_times t;
    if (!bench_time_op(ctx, timed, errors, call_conv, &cc, s->reps, runs, &t)) {
        snprintf(row->note, sizeof row->note, "failed: see stderr");
        return;
    }
    check_conv(ctx, name, s, &cc, hx, hw, hb, wrong, errors);
    double flop = 2.0 * (double)(s->N * s->K * s->H * s->W) * (double)(s->C * 9);
    row->ours = flop / t.best / 1e12;
    snprintf(row->note, sizeof row->note, "%s, median %.3g TFLOP/s; %d reps per batch", timed ? "GPU time" : "wall clock",
             flop / t.median / 1e12, s->reps);
}

void nn_conv_rows(bench_report *rep, wt_context *ctx, bool timed, bench_size size, int runs, bool variants,
                  int *wrong, int *errors) {
    conv_size s = size_of(size);
    if (runs > CONV_MAX_RUNS)
        runs = CONV_MAX_RUNS;
    if (runs < 1)
        runs = 1;
    char name[80];
    snprintf(name, sizeof name, "conv2d f32 3x3 N%lld C%lld K%lld %lld^2 pad 1", (long long)s.N, (long long)s.C,
             (long long)s.K, (long long)s.H);
    bench_row *row = bench_add_row(rep, "conv2d_TFLOPs", name, "TFLOP/s", BENCH_HIGHER, NAN);
    int64_t nx = s.N * s.C * s.H * s.W, nw = s.K * s.C * 9;
    float *hx = malloc((size_t)nx * sizeof *hx), *hw = malloc((size_t)nw * sizeof *hw);
    float *hb = malloc((size_t)s.K * sizeof *hb);
    wt_tensor *x = NULL, *w = NULL, *b = NULL;
    if (!row || !hx || !hw || !hb) {
        (*errors)++;
        goto done;
    }
    for (int64_t i = 0; i < nx; i++)
        hx[i] = urand();
    for (int64_t i = 0; i < nw; i++)
        hw[i] = urand() / 24.0f;
    for (int64_t i = 0; i < s.K; i++)
        hb[i] = urand();
    x = wt_from_host(ctx, WT_F32, 4, (const int64_t[]){ s.N, s.C, s.H, s.W }, hx);
    w = wt_from_host(ctx, WT_F32, 4, (const int64_t[]){ s.K, s.C, 3, 3 }, hw);
    b = wt_from_host(ctx, WT_F32, 1, &s.K, hb);
    if (!x || !w || !b) {
        fprintf(stderr, "wgc bench: conv2d: %s\n", wt_last_error(ctx));
        (*errors)++;
        goto done;
    }
    conv_row(rep, ctx, timed, "conv2d_TFLOPs", name, &s, runs, WT_CONV_AUTO, x, w, b, hx, hw, hb, wrong, errors);
    const char *ck = getenv("WGC_CONV_KERNELS");
    if (variants || (ck && (!strcmp(ck, "all") || !strcmp(ck, "wino")))) {
        /* Winograd F(2x2, 3x3) by chunk size (wt_policy.winograd_chunk_bytes) */
        static const struct { uint64_t mib; const char *key, *name; } wv[] = {
            { 0, "conv2d_wino_TFLOPs", "  conv2d kernel winograd" },
            { 16, "conv2d_wino_16m_TFLOPs", "  conv2d winograd, chunks of 16 MiB" },
            { 32, "conv2d_wino_32m_TFLOPs", "  conv2d winograd, chunks of 32 MiB" },
            { 64, "conv2d_wino_64m_TFLOPs", "  conv2d winograd, chunks of 64 MiB" },
            { 1024, "conv2d_wino_1g_TFLOPs", "  conv2d winograd, chunks up to 1 GiB" },
        };
        wt_policy pol;
        wt_context_get_policy(ctx, &pol);
        for (size_t i = 0; i < sizeof wv / sizeof *wv; i++) {
            wt_policy pw = pol;
            if (wv[i].mib)
                pw.winograd_chunk_bytes = wv[i].mib << 20;
            wt_context_set_policy(ctx, &pw);
            conv_row(rep, ctx, timed, wv[i].key, wv[i].name, &s, runs, WT_CONV_WINOGRAD, x, w, b, hx, hw, hb, wrong, errors);
        }
        wt_context_set_policy(ctx, &pol);
        if (!variants && strcmp(ck, "all"))   /* "wino": the implicit GEMM too, for comparison */
            conv_row(rep, ctx, timed, "conv2d_gemm_TFLOPs", "  conv2d kernel implicit gemm", &s, runs, WT_CONV_GEMM, x, w, b,
                     hx, hw, hb, wrong, errors);
    }
    if (variants || (ck && !strcmp(ck, "all"))) {
        char vn[80];
        snprintf(vn, sizeof vn, "  conv2d kernel implicit gemm");
        conv_row(rep, ctx, timed, "conv2d_gemm_TFLOPs", vn, &s, runs, WT_CONV_GEMM, x, w, b, hx, hw, hb, wrong, errors);
        snprintf(vn, sizeof vn, "  conv2d kernel direct");
        conv_row(rep, ctx, timed, "conv2d_direct_TFLOPs", vn, &s, runs, WT_CONV_DIRECT, x, w, b, hx, hw, hb, wrong, errors);
    }
done:
    wt_release(x);
    wt_release(w);
    wt_release(b);
    free(hx);
    free(hw);
    free(hb);
}

void nn_conv_target(bench_report *rep, int bi) {
    bench_row *row = bench_find_row(rep, "conv2d_TFLOPs");
    if (!row)
        return;
    if (!isnan(row->base[bi]))
        row->target = 0.6 * row->base[bi];
    size_t l = strlen(row->note);
    snprintf(row->note + l, sizeof row->note - l, "%starget 60%% of torch (cuDNN f32)", l ? "; " : "");
}
