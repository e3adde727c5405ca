/* demo.c - `wgc demo`: shows the default adapter, adds two vectors of an odd length on the GPU
 * with the runtime's embedded add kernel and checks the result against the CPU, then runs one
 * transformer block through the wt tensor library on random weights and checks it against a
 * plain C double-precision reference of the same block:
 *
 *   h = rmsnorm(x) . q, k, v = linear(h) . rope(q), rope(k) (half-split) . causal attention
 *   . x1 = x + linear(attn) . h2 = rmsnorm(x1) . x2 = x1 + linear(silu(linear(h2)) * linear(h2))
 *
 * x is [seq, dim], heads are views of the projections ([seq, heads, hd] transposed to [heads,
 * seq, hd], read in place by rope).  The block runs twice: once recorded into one batch (one
 * submit; its result is the one checked, its wall and GPU time are the "one batch" row), then
 * once with wt_sync after every op, each op its own batch, to time each op: GPU time from wt's
 * batch timing (timestamps around each batch's pass) where the device has timestamp queries,
 * else the wall-clock flush + wait time (which includes tens of microseconds of submit cost).
 * Prints "demo: ok" when both checks pass; exit 1 on a wrong result or no usable Vulkan. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "gpu_add.spv.h"
#include "wgc/gpu.h"
#include "wgc/tensor.h"

/* ---- the checked vector add ------------------------------------------------------------ */

static int vector_add(wg_device *dev) {
    const uint32_t n = 100003;
    float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *out = malloc(n * sizeof *out);
    int rc = 1;
    if (!a || !b || !out) {
        free(a);
        free(b);
        free(out);
        fprintf(stderr, "wgc: demo: out of memory\n");
        return 1;
    }
    for (uint32_t i = 0; i < n; i++) {
        a[i] = (float)i * 0.5f;
        b[i] = 1000.0f - (float)i;
    }
    wg_device_push_error_scope(dev, WG_ERROR_TYPE_VALIDATION);
    wg_device_push_error_scope(dev, WG_ERROR_TYPE_OUT_OF_MEMORY);
    wg_queue *q = wg_device_get_queue(dev);
    wg_buffer *ba = wg_device_create_buffer(dev, &(wg_buffer_desc){ .label = "a", .size = n * 4 });
    wg_buffer *bb = wg_device_create_buffer(dev, &(wg_buffer_desc){ .label = "b", .size = n * 4 });
    wg_buffer *bo = wg_device_create_buffer(dev, &(wg_buffer_desc){ .label = "out", .size = n * 4 });
    wg_queue_write_buffer(q, ba, 0, a, n * 4);
    wg_queue_write_buffer(q, bb, 0, b, n * 4);
    wg_shader_module *sm = wg_device_create_shader_module(
        dev, &(wg_shader_module_desc){ .label = "add", .spirv = gpu_add_spv, .spirv_words = gpu_add_spv_words });
    wg_compute_pipeline *p = wg_device_create_compute_pipeline(dev, &(wg_compute_pipeline_desc){ .label = "add",
                                                                                                 .module = sm });
    wg_bind_group *bg = wg_device_create_bind_group(
        dev, &(wg_bind_group_desc){ .layout = wg_compute_pipeline_get_bind_group_layout(p, 0), .entry_count = 3,
                                    .entries = (wg_bind_group_entry[]){ { .binding = 0, .buffer = ba },
                                                                        { .binding = 1, .buffer = bb },
                                                                        { .binding = 2, .buffer = bo } } });
    wg_command_encoder *enc = wg_device_create_command_encoder(dev, NULL);
    wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(enc, NULL);
    wg_compute_pass_set_pipeline(pass, p);
    wg_compute_pass_set_bind_group(pass, 0, bg, 0, NULL);
    wg_compute_pass_dispatch_workgroups(pass, (n + 63) / 64, 1, 1);
    wg_compute_pass_end(pass);
    wg_compute_pass_release(pass);
    wg_command_buffer *cb = wg_command_encoder_finish(enc, NULL);
    wg_command_encoder_release(enc);
    wg_queue_submit(q, 1, &cb);
    wg_status st = wg_buffer_read(bo, 0, out, n * 4);
    wg_error e1, e2;
    wg_error_id oom = wg_device_pop_error_scope(dev, &e1), val = wg_device_pop_error_scope(dev, &e2);
    if (st != WG_STATUS_OK || oom || val) {
        fprintf(stderr, "wgc: demo failed: status %d; %s; %s\n", (int)st, oom ? e1.message : "",
                val ? e2.message : "");
    } else {
        uint32_t bad = 0;
        for (uint32_t i = 0; i < n; i++)
            if (out[i] != a[i] + b[i] && bad++ < 5)
                fprintf(stderr, "wgc: demo: out[%u] = %g, expected %g\n", i, out[i], a[i] + b[i]);
        if (bad)
            fprintf(stderr, "wgc: demo: %u of %u wrong\n", bad, n);
        else {
            printf("vector add of %u floats on the GPU matches the CPU\n", n);
            rc = 0;
        }
    }
    wg_bind_group_release(bg);
    wg_compute_pipeline_release(p);
    wg_shader_module_release(sm);
    wg_buffer_release(ba);
    wg_buffer_release(bb);
    wg_buffer_release(bo);
    free(a);
    free(b);
    free(out);
    return rc;
}

/* ---- the transformer block ------------------------------------------------------------- */

typedef struct dims {
    int64_t S, D, H, F;           /* sequence, model dim, heads, MLP hidden dim */
} dims;

/* host weights (double, rounded to f32) and their GPU copies */
enum { W_N1, W_Q, W_K, W_V, W_O, W_N2, W_G, W_U, W_D, W_X, W_COUNT };
typedef struct weights {
    double *h[W_COUNT];
    wt_tensor *t[W_COUNT];
} weights;

#define BLOCK_OPS(X)                                                   \
    X(RMS1, "rmsnorm (attention)") X(QKV, "linear q, k, v")            \
    X(ROPE, "rope q, k") X(ATTN, "causal attention")                   \
    X(MERGE, "merge heads (copy)") X(PROJ, "linear out")               \
    X(RES1, "residual add") X(RMS2, "rmsnorm (mlp)")                   \
    X(UP, "linear gate, up") X(ACT, "silu(gate) * up")                 \
    X(DOWN, "linear down") X(RES2, "residual add")
enum {
#define X(id, name) OP_##id,
    BLOCK_OPS(X)
#undef X
    OP_COUNT
};
static const char *const op_names[] = {
#define X(id, name) name,
    BLOCK_OPS(X)
#undef X
};
_Static_assert(sizeof op_names / sizeof *op_names == OP_COUNT, "one name per block op");

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng_state = 0x853c49e6748fea9bull;
static double rnd(void) {   /* xorshift64*, uniform in [-1, 1) */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (double)((rng_state * 2685821657736338717ull) >> 11) / 4503599627370496.0 - 1.0;
}

static double gpu_s(wt_context *ctx) {
    wt_stats st;
    wt_get_stats(ctx, &st);
    return (double)st.gpu_ns * 1e-9;
}

/* timing: when `times` is set, waits after each op and adds its time to times[op]: GPU time
 * (wt batch timing) when `gpu`, else wall clock */
typedef struct runner {
    wt_context *ctx;
    double *times;
    bool gpu;
    double t0;
} runner;

static void op_begin(runner *r) {
    if (r->times)
        r->t0 = r->gpu ? gpu_s(r->ctx) : now_s();
}
static void op_end(runner *r, int op) {
    if (r->times) {
        wt_sync(r->ctx);
        r->times[op] += (r->gpu ? gpu_s(r->ctx) : now_s()) - r->t0;
    }
}

#define REL(t) wt_release(t)

/* One block on the GPU; returns the output [S, D] (NULL on error: see wt_last_error). */
static wt_tensor *block_gpu(runner *r, const dims *d, const weights *w) {
    wt_context *ctx = r->ctx;
    const double eps = 1e-5;
    int64_t hd = d->D / d->H;
    wt_tensor *x = w->t[W_X];
    op_begin(r);
    wt_tensor *h = wt_rms_norm(ctx, x, w->t[W_N1], eps);
    op_end(r, OP_RMS1);
    op_begin(r);
    wt_tensor *q = wt_linear(ctx, h, w->t[W_Q], NULL);
    wt_tensor *k = wt_linear(ctx, h, w->t[W_K], NULL);
    wt_tensor *v = wt_linear(ctx, h, w->t[W_V], NULL);
    op_end(r, OP_QKV);
    /* heads: [S, D] -> [S, H, hd] -> [H, S, hd] (views) */
    int64_t hs[3] = { d->S, d->H, hd };
    wt_tensor *q3 = wt_view(ctx, q, 3, hs), *k3 = wt_view(ctx, k, 3, hs), *v3 = wt_view(ctx, v, 3, hs);
    wt_tensor *qh = wt_transpose(ctx, q3, 0, 1), *kh = wt_transpose(ctx, k3, 0, 1), *vh = wt_transpose(ctx, v3, 0, 1);
    op_begin(r);
    wt_rope_desc rd = { .layout = WT_ROPE_HALF };
    wt_tensor *qr = wt_rope(ctx, qh, &rd), *kr = wt_rope(ctx, kh, &rd);
    op_end(r, OP_ROPE);
    op_begin(r);
    wt_tensor *att = wt_scaled_dot_product_attention(ctx, qr, kr, vh, &(wt_attention_desc){ .causal = true });
    op_end(r, OP_ATTN);
    op_begin(r);
    wt_tensor *at = wt_transpose(ctx, att, 0, 1);                      /* [S, H, hd] view */
    wt_tensor *am = wt_reshape(ctx, at, 2, (const int64_t[]){ d->S, d->D });   /* a copy */
    op_end(r, OP_MERGE);
    op_begin(r);
    wt_tensor *o = wt_linear(ctx, am, w->t[W_O], NULL);
    op_end(r, OP_PROJ);
    op_begin(r);
    wt_tensor *x1 = wt_add(ctx, x, o);
    op_end(r, OP_RES1);
    op_begin(r);
    wt_tensor *h2 = wt_rms_norm(ctx, x1, w->t[W_N2], eps);
    op_end(r, OP_RMS2);
    op_begin(r);
    wt_tensor *g = wt_linear(ctx, h2, w->t[W_G], NULL);
    wt_tensor *u = wt_linear(ctx, h2, w->t[W_U], NULL);
    op_end(r, OP_UP);
    op_begin(r);
    wt_tensor *sg = wt_silu(ctx, g);
    wt_tensor *gu = wt_mul(ctx, sg, u);
    op_end(r, OP_ACT);
    op_begin(r);
    wt_tensor *dn = wt_linear(ctx, gu, w->t[W_D], NULL);
    op_end(r, OP_DOWN);
    op_begin(r);
    wt_tensor *x2 = wt_add(ctx, x1, dn);
    op_end(r, OP_RES2);
    REL(h); REL(q); REL(k); REL(v); REL(q3); REL(k3); REL(v3); REL(qh); REL(kh); REL(vh); REL(qr); REL(kr);
    REL(att); REL(at); REL(am); REL(o); REL(x1); REL(h2); REL(g); REL(u); REL(sg); REL(gu); REL(dn);
    return x2;
}

/* y [S, N] = x [S, K] . W^T, W [N, K] */
static void ref_linear(const double *x, const double *W, int64_t S, int64_t K, int64_t N, double *y) {
    for (int64_t s = 0; s < S; s++)
        for (int64_t n = 0; n < N; n++) {
            double acc = 0;
            for (int64_t i = 0; i < K; i++)
                acc += x[s * K + i] * W[n * K + i];
            y[s * N + n] = acc;
        }
}

static void ref_rmsnorm(const double *x, const double *w, int64_t S, int64_t D, double *y) {
    for (int64_t s = 0; s < S; s++) {
        double ss = 0;
        for (int64_t i = 0; i < D; i++)
            ss += x[s * D + i] * x[s * D + i];
        double inv = 1.0 / sqrt(ss / (double)D + 1e-5);
        for (int64_t i = 0; i < D; i++)
            y[s * D + i] = x[s * D + i] * inv * w[i];
    }
}

/* rope, half-split pairs (p, p + hd / 2), on [S, D] seen as [S, H, hd]; position = s */
static void ref_rope(double *t, const dims *d) {
    int64_t hd = d->D / d->H, half = hd / 2;
    for (int64_t s = 0; s < d->S; s++)
        for (int64_t h = 0; h < d->H; h++)
            for (int64_t p = 0; p < half; p++) {
                double ang = (double)s * pow(10000.0, -2.0 * (double)p / (double)hd);
                double *a = &t[s * d->D + h * hd + p], *b = a + half;
                double x0 = *a, x1 = *b;
                *a = x0 * cos(ang) - x1 * sin(ang);
                *b = x1 * cos(ang) + x0 * sin(ang);
            }
}

/* The block in double precision on the host; out [S, D]. */
static void block_ref(const dims *d, const weights *w, double *out) {
    int64_t S = d->S, D = d->D, F = d->F, hd = D / d->H;
    size_t sd = (size_t)(S * D), sf = (size_t)(S * F);
    double *h = malloc(sd * sizeof *h), *q = malloc(sd * sizeof *q), *k = malloc(sd * sizeof *k);
    double *v = malloc(sd * sizeof *v), *a = malloc(sd * sizeof *a), *o = malloc(sd * sizeof *o);
    double *x1 = malloc(sd * sizeof *x1), *g = malloc(sf * sizeof *g), *u = malloc(sf * sizeof *u);
    double *p = malloc((size_t)S * sizeof *p);
    ref_rmsnorm(w->h[W_X], w->h[W_N1], S, D, h);
    ref_linear(h, w->h[W_Q], S, D, D, q);
    ref_linear(h, w->h[W_K], S, D, D, k);
    ref_linear(h, w->h[W_V], S, D, D, v);
    ref_rope(q, d);
    ref_rope(k, d);
    double scale = 1.0 / sqrt((double)hd);
    for (int64_t hh = 0; hh < d->H; hh++)
        for (int64_t i = 0; i < S; i++) {
            double mx = -INFINITY, sum = 0;
            for (int64_t j = 0; j <= i; j++) {
                double s = 0;
                for (int64_t e = 0; e < hd; e++)
                    s += q[i * D + hh * hd + e] * k[j * D + hh * hd + e];
                p[j] = s * scale;
                mx = p[j] > mx ? p[j] : mx;
            }
            for (int64_t j = 0; j <= i; j++)
                sum += (p[j] = exp(p[j] - mx));
            for (int64_t e = 0; e < hd; e++) {
                double acc = 0;
                for (int64_t j = 0; j <= i; j++)
                    acc += p[j] * v[j * D + hh * hd + e];
                a[i * D + hh * hd + e] = acc / sum;
            }
        }
    ref_linear(a, w->h[W_O], S, D, D, o);
    for (size_t i = 0; i < sd; i++)
        x1[i] = w->h[W_X][i] + o[i];
    ref_rmsnorm(x1, w->h[W_N2], S, D, h);
    ref_linear(h, w->h[W_G], S, D, F, g);
    ref_linear(h, w->h[W_U], S, D, F, u);
    for (size_t i = 0; i < sf; i++)
        g[i] = g[i] / (1.0 + exp(-g[i])) * u[i];
    ref_linear(g, w->h[W_D], S, F, D, o);
    for (size_t i = 0; i < sd; i++)
        out[i] = x1[i] + o[i];
    free(h); free(q); free(k); free(v); free(a); free(o); free(x1); free(g); free(u); free(p);
}

static int transformer(wg_device *dev, const dims *d) {
    wt_context_desc cd = { .label = "demo" };
    char perr[160] = "no tensor context";
    wt_context *ctx = wt_policy_from_env(&cd.policy, perr, sizeof perr) ? wt_context_create(dev, &cd) : NULL;
    if (!ctx) {
        fprintf(stderr, "wgc: demo: %s\n", perr);
        return 1;
    }
    int64_t S = d->S, D = d->D, F = d->F;
    /* X(id, rows, cols, scale) : norm weights around 1, projections ~ U(-1, 1) / sqrt(fan in) */
    const struct { int64_t r, c; double scale, base; } ws[W_COUNT] = {
        [W_N1] = { 1, D, 0.1, 1 }, [W_Q] = { D, D, 1 / sqrt((double)D), 0 }, [W_K] = { D, D, 1 / sqrt((double)D), 0 },
        [W_V] = { D, D, 1 / sqrt((double)D), 0 }, [W_O] = { D, D, 1 / sqrt((double)D), 0 },
        [W_N2] = { 1, D, 0.1, 1 }, [W_G] = { F, D, 1 / sqrt((double)D), 0 }, [W_U] = { F, D, 1 / sqrt((double)D), 0 },
        [W_D] = { D, F, 1 / sqrt((double)F), 0 }, [W_X] = { S, D, 1, 0 },
    };
    weights w;
    memset(&w, 0, sizeof w);
    int rc = 1;
    double *ref = malloc((size_t)(S * D) * sizeof *ref), *got = malloc((size_t)(S * D) * sizeof *got);
    float *buf = malloc((size_t)(S * D > F * D ? S * D : F * D) * sizeof *buf);
    wt_tensor *y = NULL;
    if (!ref || !got || !buf)
        goto done;
    for (int i = 0; i < W_COUNT; i++) {
        int64_t n = ws[i].r * ws[i].c;
        w.h[i] = malloc((size_t)n * sizeof(double));
        if (!w.h[i])
            goto done;
        for (int64_t j = 0; j < n; j++) {
            buf[j] = (float)(ws[i].base + ws[i].scale * rnd());
            w.h[i][j] = buf[j];
        }
        w.t[i] = ws[i].r == 1 ? wt_from_host(ctx, WT_F32, 1, &ws[i].c, buf)
                              : wt_from_host(ctx, WT_F32, 2, (const int64_t[]){ ws[i].r, ws[i].c }, buf);
    }
    printf("transformer block on random weights: seq %lld, dim %lld, heads %lld (head dim %lld), mlp %lld, f32\n",
           (long long)S, (long long)D, (long long)d->H, (long long)(D / d->H), (long long)F);
    /* pass 1: the whole block in one batch; warm-up (kernel compiles) then the timed run */
    bool gpu = wt_context_set_timing(ctx, true) == WT_OK;
    wt_clear_error(ctx);
    runner r = { .ctx = ctx };
    y = block_gpu(&r, d, &w);
    wt_sync(ctx);
    wt_stats s0, s1;
    double batch_s = INFINITY, batch_gpu = INFINITY;
    for (int rep = 0; rep < 3; rep++) {   /* best of 3; the last result is checked */
        wt_release(y);
        wt_get_stats(ctx, &s0);
        double t0 = now_s(), g0 = gpu_s(ctx);
        y = block_gpu(&r, d, &w);
        wt_sync(ctx);
        double t = now_s() - t0, g = gpu_s(ctx) - g0;
        batch_s = t < batch_s ? t : batch_s;
        batch_gpu = g < batch_gpu ? g : batch_gpu;
        wt_get_stats(ctx, &s1);
    }
    if (!y || wt_to_host(ctx, y, buf, (size_t)(S * D) * sizeof *buf) != WT_OK) {
        fprintf(stderr, "wgc: demo: %s\n", wt_last_error(ctx));
        goto done;
    }
    for (int64_t i = 0; i < S * D; i++)
        got[i] = buf[i];
    /* pass 2: a wait after every op, best of 3 */
    double times[OP_COUNT], best[OP_COUNT];
    for (int i = 0; i < OP_COUNT; i++)
        best[i] = INFINITY;
    for (int rep = 0; rep < 3; rep++) {
        memset(times, 0, sizeof times);
        runner rt = { .ctx = ctx, .times = times, .gpu = gpu };
        wt_tensor *y2 = block_gpu(&rt, d, &w);
        wt_sync(ctx);
        wt_release(y2);
        for (int i = 0; i < OP_COUNT; i++)
            best[i] = times[i] < best[i] ? times[i] : best[i];
    }
    if (wt_last_status(ctx) != WT_OK) {
        fprintf(stderr, "wgc: demo: %s\n", wt_last_error(ctx));
        goto done;
    }
    printf("  %-22s %10s   (%s, each op its own batch)\n", "op", "ms",
           gpu ? "GPU time: timestamps around the batch" : "wall clock: no timestamp queries here");
    double sum = 0;
    for (int i = 0; i < OP_COUNT; i++) {
        printf("  %-22s %10.3f\n", op_names[i], best[i] * 1e3);
        sum += best[i];
    }
    printf("  %-22s %10.3f\n", "sum of ops", sum * 1e3);
    if (gpu)
        printf("  %-22s %10.3f   (GPU; wall %.3f ms, %llu dispatches, %llu submit)\n", "whole block, 1 batch",
               batch_gpu * 1e3, batch_s * 1e3, (unsigned long long)(s1.dispatches - s0.dispatches),
               (unsigned long long)(s1.flushes - s0.flushes));
    else
        printf("  %-22s %10.3f   (wall, %llu dispatches, %llu submit)\n", "whole block, 1 batch", batch_s * 1e3,
               (unsigned long long)(s1.dispatches - s0.dispatches), (unsigned long long)(s1.flushes - s0.flushes));
    block_ref(d, &w, ref);
    double maxerr = 0, maxref = 0;
    bool finite = true;
    for (int64_t i = 0; i < S * D; i++) {
        finite = finite && isfinite(got[i]);
        double e = fabs(got[i] - ref[i]);
        maxerr = e > maxerr ? e : maxerr;
        maxref = fabs(ref[i]) > maxref ? fabs(ref[i]) : maxref;
    }
    double rel = maxref > 0 ? maxerr / maxref : maxerr;
    const double limit = 1e-4;
    bool pass = finite && rel <= limit;
    printf("block output vs CPU double reference: max relative error %.3g (limit %.0e): %s\n", rel, limit,
           pass ? "pass" : "FAIL");
    rc = pass ? 0 : 1;
done:
    if (rc && ctx && wt_last_status(ctx) != WT_OK)
        fprintf(stderr, "wgc: demo: %s\n", wt_last_error(ctx));
    wt_release(y);
    for (int i = 0; i < W_COUNT; i++) {
        wt_release(w.t[i]);
        free(w.h[i]);
    }
    free(ref);
    free(got);
    free(buf);
    wt_context_destroy(ctx);
    return rc;
}

static bool parse_dim(const char *s, int64_t *out) {
    char *end;
    long long v = strtoll(s, &end, 10);
    if (*end || v < 1 || v > 65536)
        return false;
    *out = v;
    return true;
}

int cli_demo(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "train"))
        return cli_demo_train(argc - 1, argv + 1);
    dims d = { 32, 128, 4, 256 };
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            puts("usage: wgc demo [--seq N] [--dim N] [--heads N] [--mlp N]   |   wgc demo train --help\n"
                 "  on the default GPU ($WGC_ADAPTER picks another): adds two vectors and checks them on the\n"
                 "  CPU, then runs a transformer block (rmsnorm, q/k/v projections, rope, causal attention,\n"
                 "  output projection, residual, rmsnorm, silu-gated MLP, residual) on random weights\n"
                 "  through the wt tensor library (default seq 32, dim 128, heads 4, mlp 256), checks it\n"
                 "  against a double-precision CPU reference and prints per-op times; \"demo: ok\" when\n"
                 "  both pass, exit 1 on a wrong result or no usable Vulkan");
            return 0;
        }
        int64_t *dst = !strcmp(argv[i], "--seq") ? &d.S : !strcmp(argv[i], "--dim") ? &d.D
                     : !strcmp(argv[i], "--heads") ? &d.H : !strcmp(argv[i], "--mlp") ? &d.F : NULL;
        if (!dst)
            return cli_fail("demo: unknown option '%s' (try wgc demo --help)", argv[i]);
        if (i + 1 >= argc || !parse_dim(argv[i + 1], dst))
            return cli_fail("demo: %s needs a number in [1, 65536]", argv[i]);
        i++;
    }
    if (d.D % d.H || (d.D / d.H) % 2 || d.D / d.H > 256)
        return cli_fail("demo: dim %lld must split into %lld heads of an even size <= 256", (long long)d.D,
                        (long long)d.H);
    wg_error err;
    wg_env_strings env;
    wg_instance_desc idesc = { .label = "demo" };
    wg_adapter_options opt = { .label = "demo" };
    wg_device_desc ddesc = { .label = "demo" };
    if (!wg_config_from_env(&env, &idesc, &opt, &ddesc, &err))
        return cli_fail("demo: %s", err.message);
    wg_instance *inst = wg_instance_create(&idesc, &err);
    if (!inst) {
        fprintf(stderr, "wgc: demo: %s\n", err.message);   /* the message names the packages: once */
        return 1;
    }
    wg_adapter *ad = wg_instance_request_adapter(inst, &opt, &err);
    wg_device *dev = ad ? wg_adapter_create_device(ad, &ddesc, &err) : NULL;
    if (!dev) {
        fprintf(stderr, "wgc: %s\n", err.message);
        wg_instance_release(inst);
        return 1;
    }
    const wg_adapter_info *info = wg_adapter_get_info(ad);
    printf("adapter: %s (%s, %s %s)\n", info->name, wg_adapter_type_name(info->type), info->driver_name,
           info->driver_info);
    int rc = vector_add(dev);
    if (rc == 0)
        rc = transformer(dev, &d);
    if (rc == 0)
        printf("demo: ok\n");
    wg_device_release(dev);
    wg_instance_release(inst);
    return rc;
}
