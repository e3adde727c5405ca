/* train.c - `wgc bench train`: training steps with wt's autograd and optimizers beside PyTorch eager
 * in the same run (bench/baseline_train.py), and `--agree DIR`, the files of the agreement run
 * against PyTorch (bench/agree_train.py).  Rows (full size; --size and the flags below scale them):
 *   cnn step       the digits CNN (below), batch 512, f32: forward, cross_entropy, backward, SGD with
 *                  momentum 0.9: GPU time per step (ms)
 *   gpt step       GPT-2 small's shape (12 layers, width 768, 12 heads, sequence 512, batch 8,
 *                  vocabulary 50257), f32, AdamW: GPU time per step (ms)
 *   gpt amp step   the same in mixed precision against torch.autocast(float16) + GradScaler: the
 *                  forward under wt_set_autocast(WT_F16) (products, convolutions and attention in
 *                  f16 on f32 master weights; layer_norm and the loss in f32), the loss scaled,
 *                  the gradients unscaled and checked for inf/NaN on the GPU, the step skipped
 *                  there on an overflow, the scale updated (wt_grad_scaler_*): GPU time per step
 *   cnn amp step   the digits CNN likewise (SGD with momentum)
 *   peak memory    wt_stats.peak_allocated_bytes of a context that ran only that model's steps
 *                  (the pool: live and pooled buffers, warm-up included), beside
 *                  torch.cuda.max_memory_allocated over the timed steps (MiB)
 * A step is recorded whole (nothing is read back), then wt_sync; its GPU time is wt_stats.gpu_ns
 * before and after (wt's batch timestamps, what CUDA events measure), best of the timed steps
 * after BENCH_WARM_S of warm-up steps (median in the note); wall clock where the adapter has no
 * timestamps.  The first loss and the last are checked finite; a NaN is a wrong result.
 *
 * The models (one definition, used by the rows and by --agree):
 *   digits CNN   x [N, 1, 8, 8]: conv(1->16, 3x3, pad 1), relu, max_pool 2 -> conv(16->32, 3x3,
 *                pad 1), relu, max_pool 2 -> flatten [N, 128] -> linear(128 -> 10)
 *   GPT          token embedding [V, C] + learned positions [T, C]; L pre-LN blocks: layer_norm,
 *                qkv linear [3C, C], causal scaled_dot_product_attention over H heads, proj [C, C],
 *                residual; layer_norm, linear [4C, C], gelu (erf), linear [C, 4C], residual; final
 *                layer_norm; the head tied to the token embedding; cross_entropy over B T positions.
 *                Weights N(0, 0.02), biases 0, layer_norm weights 1 (eps 1e-5).
 *
 * --agree DIR writes what bench/agree_train.py needs to train the same models in PyTorch: the
 * initial parameters (DIR/cnn/pNNN.npy, DIR/gpt/pNNN.npy in the order of meta.json's "params"),
 * every step's batch (cnn/x.npy [S, N, 1, 8, 8] f32 and cnn/y.npy [S, N] i32: scikit-learn's digits
 * when wt_digits_load finds them (--data FILE), pixels / 16, else random; gpt/tokens.npy [S, B, T + 1] i32 from a
 * text file's characters), DIR/meta.json (shapes and hyperparameters) and the losses wt computed
 * at every step (cnn/losses.txt, gpt/losses.txt: %.9g per line). */
#include "bench.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "wgc/tensor.h"

/* X(key, name, unit, target as a fraction of the torch figure: time and bytes, lower is better) */
#define TRAIN_ROWS(X)                                                                        \
    X(cnn_step_ms, "digits CNN step f32 (SGD momentum)", "ms", 1.0)                          \
    X(cnn_peak_MiB, "digits CNN peak GPU memory", "MiB", 1.2)                                \
    X(gpt_step_ms, "GPT step f32 (AdamW)", "ms", 1 / 0.9)                                     \
    X(gpt_peak_MiB, "GPT peak GPU memory f32", "MiB", 1.2)                                   \
    X(gpt_amp_step_ms, "GPT step mixed precision f16 (AdamW)", "ms", 1 / 0.5)                \
    X(cnn_amp_step_ms, "digits CNN step amp f16 (SGD momentum)", "ms", NAN)   /* no target: reported */

enum {
#define X(key, name, unit, rel) TRAIN_ROW_##key,
    TRAIN_ROWS(X)
#undef X
    TRAIN_ROW_COUNT
};
_Static_assert(TRAIN_ROW_COUNT == 6, "train rows: update the count and bench/baseline_train.py");

static const double train_rel[] = {
#define X(key, name, unit, rel) rel,
    TRAIN_ROWS(X)
#undef X
};

typedef struct gpt_shape {
    int64_t L, C, H, T, B, V;
} gpt_shape;

typedef struct train_cfg {
    int64_t cnn_batch;
    gpt_shape gpt;
    int runs;                 /* timed steps */
    const char *agree;        /* --agree DIR, or NULL */
    int agree_cnn_steps, agree_gpt_steps;
    gpt_shape agree_gpt;      /* L, C, H, T, B (V: the text's characters) */
    const char *text;         /* --text FILE */
    const char *data;         /* --data FILE: the digits (NULL: wt_digits_load's default) */
} train_cfg;

typedef struct tb {
    const bench_options *opt;
    bench_report *rep;
    wt_context *ctx;          /* the model's own context (its peak is the model's) */
    bool timed;
    int wrong, errors;
} tb;

/* ---- the models ---------------------------------------------------------------------------- */
typedef struct model {
    bool gpt;
    bool amp;                 /* forward under autocast, a GradScaler (the amp rows) */
    gpt_shape g;
    int np;
    wt_tensor *p[2 + 12 * 64 + 2];
} model;

#define CNN_PARAMS 6
static const int64_t cnn_shapes[CNN_PARAMS][4] = { { 16, 1, 3, 3 }, { 16 }, { 32, 16, 3, 3 }, { 32 }, { 10, 128 }, { 10 } };
static const int cnn_ndim[CNN_PARAMS] = { 4, 1, 4, 1, 2, 1 };

/* GPT parameter i: its shape (ndim returned) and its initialisation (0 normal, 1 zeros, 2 ones) */
static int gpt_param(const gpt_shape *g, int i, int64_t *shape, int *init) {
    int64_t C = g->C;
    if (i == 0) {
        shape[0] = g->V, shape[1] = C, *init = 0;
        return 2;
    }
    if (i == 1) {
        shape[0] = g->T, shape[1] = C, *init = 0;
        return 2;
    }
    int k = (i - 2) % 12;
    if (i - 2 >= 12 * g->L)
        k = (i - 2 - 12 * (int)g->L) == 0 ? 0 : 1;   /* final layer_norm: weight, bias */
    static const int64_t rows[12] = { 0, 0, 3, 3, 1, 1, 0, 0, 4, 4, 1, 1 };   /* x C */
    static const int64_t cols[12] = { 0, 0, 1, 0, 1, 0, 0, 0, 1, 0, 4, 0 };   /* x C; 0: a vector */
    static const int inits[12] = { 2, 1, 0, 1, 0, 1, 2, 1, 0, 1, 0, 1 };
    *init = inits[k];
    if (k == 0 || k == 1 || k == 6 || k == 7) {
        shape[0] = C;
        return 1;
    }
    shape[0] = rows[k] * C;
    if (!cols[k])
        return 1;
    shape[1] = cols[k] * C;
    return 2;
}

static bool model_init(tb *b, model *m, bool gpt, const gpt_shape *g) {
    memset(m, 0, sizeof *m);
    m->gpt = gpt;
    if (gpt) {
        m->g = *g;
        m->np = 2 + 12 * (int)g->L + 2;
    } else {
        m->np = CNN_PARAMS;
    }
    for (int i = 0; i < m->np; i++) {
        wt_tensor *t;
        if (gpt) {
            int64_t sh[2];
            int init;
            int nd = gpt_param(g, i, sh, &init);
            t = init == 0 ? wt_normal(b->ctx, WT_F32, nd, sh, 0, 0.02)
                : init == 1 ? wt_zeros(b->ctx, WT_F32, nd, sh) : wt_ones(b->ctx, WT_F32, nd, sh);
        } else {
            wt_tensor *bias = NULL;
            if (cnn_ndim[i] == 1)
                continue;   /* made with its weight */
            if (wt_init_default(b->ctx, WT_F32, cnn_ndim[i], cnn_shapes[i], &t, &bias) != WT_OK)
                t = NULL;
            m->p[i + 1] = bias;
        }
        m->p[i] = t;
    }
    for (int i = 0; i < m->np; i++) {
        if (!bench_got(b->ctx, &b->errors, "parameter", m->p[i]))
            return false;
        if (wt_set_requires_grad(b->ctx, m->p[i], true) != WT_OK)
            return bench_got(b->ctx, &b->errors, "requires_grad", NULL);
    }
    return true;
}

static void model_free(model *m) {
    for (int i = 0; i < m->np; i++)
        wt_release(m->p[i]);
    m->np = 0;
}

#define REL(x) wt_release(x)

/* The CNN's mean cross-entropy on x [N, 1, 8, 8], y [N] i32. */
static wt_tensor *cnn_loss(wt_context *ctx, wt_tensor *const *p, wt_tensor *x, wt_tensor *y) {
    wt_conv2d_desc cd = { .padding = { 1, 1 } };
    wt_pool2d_desc pd = { .kernel = { 2, 2 } };
    wt_tensor *c1 = wt_conv2d(ctx, x, p[0], p[1], &cd), *r1 = wt_relu(ctx, c1);
    wt_tensor *m1 = wt_max_pool2d(ctx, r1, &pd, NULL);
    wt_tensor *c2 = wt_conv2d(ctx, m1, p[2], p[3], &cd), *r2 = wt_relu(ctx, c2);
    wt_tensor *m2 = wt_max_pool2d(ctx, r2, &pd, NULL);
    wt_tensor *f = wt_reshape(ctx, m2, WT_SHAPE(wt_size(x, 0), 128));
    wt_tensor *logits = wt_linear(ctx, f, p[4], p[5]);
    wt_tensor *l32 = wt_cast(ctx, logits, WT_F32);   /* a no-op (a new reference) in f32 */
    wt_tensor *loss = wt_cross_entropy(ctx, l32, y, NULL);
    REL(c1), REL(r1), REL(m1), REL(c2), REL(r2), REL(m2), REL(f), REL(logits), REL(l32);
    return loss;
}

/* q, k or v (which 0..2) of qkv [B, T, 3C] as [B, H, T, D] */
static wt_tensor *head_view(wt_context *ctx, wt_tensor *qkv, const gpt_shape *g, int which) {
    wt_tensor *r = wt_reshape(ctx, qkv, WT_SHAPE(g->B, g->T, 3, g->H, g->C / g->H));
    wt_tensor *s = wt_select(ctx, r, 2, which);
    wt_tensor *t = wt_permute(ctx, s, (int[]){ 0, 2, 1, 3 });
    REL(r), REL(s);
    return t;
}

/* The GPT's mean cross-entropy of predicting tok[:, 1:] from tok[:, :-1]: idx, tgt [B, T] i32. */
static wt_tensor *gpt_loss(wt_context *ctx, wt_tensor *const *p, const gpt_shape *g, wt_tensor *idx, wt_tensor *tgt) {
    int64_t B = g->B, T = g->T, C = g->C;
    wt_tensor *tok = wt_embedding(ctx, p[0], idx);
    wt_tensor *pos_i = wt_arange(ctx, WT_I32, 0, (double)T, 1);
    wt_tensor *pos = wt_embedding(ctx, p[1], pos_i);
    wt_tensor *x = wt_add(ctx, tok, pos);
    REL(tok), REL(pos_i), REL(pos);
    for (int64_t l = 0; l < g->L; l++) {
        wt_tensor *const *q = p + 2 + 12 * l;
        wt_tensor *h = wt_layer_norm(ctx, x, q[0], q[1], 1e-5);
        wt_tensor *qkv = wt_linear(ctx, h, q[2], q[3]);
        wt_tensor *hq = head_view(ctx, qkv, g, 0), *hk = head_view(ctx, qkv, g, 1), *hv = head_view(ctx, qkv, g, 2);
        wt_tensor *a = wt_scaled_dot_product_attention(ctx, hq, hk, hv, &(wt_attention_desc){ .causal = true });
        wt_tensor *at = wt_transpose(ctx, a, 1, 2);
        wt_tensor *ac = wt_contiguous(ctx, at);
        wt_tensor *ar = wt_reshape(ctx, ac, WT_SHAPE(B, T, C));
        wt_tensor *o = wt_linear(ctx, ar, q[4], q[5]);
        wt_tensor *x2 = wt_add(ctx, x, o);
        REL(h), REL(qkv), REL(hq), REL(hk), REL(hv), REL(a), REL(at), REL(ac), REL(ar), REL(o), REL(x);
        wt_tensor *h2 = wt_layer_norm(ctx, x2, q[6], q[7], 1e-5);
        wt_tensor *f = wt_linear(ctx, h2, q[8], q[9]);
        wt_tensor *ge = wt_gelu(ctx, f);
        wt_tensor *f2 = wt_linear(ctx, ge, q[10], q[11]);
        x = wt_add(ctx, x2, f2);
        REL(h2), REL(f), REL(ge), REL(f2), REL(x2);
    }
    wt_tensor *const *fin = p + 2 + 12 * g->L;
    wt_tensor *xf = wt_layer_norm(ctx, x, fin[0], fin[1], 1e-5);
    wt_tensor *logits = wt_linear(ctx, xf, p[0], NULL);
    wt_tensor *l2 = wt_reshape(ctx, logits, WT_SHAPE(B * T, g->V));
    wt_tensor *t2 = wt_reshape(ctx, tgt, WT_SHAPE(B * T));
    wt_tensor *l32 = wt_cast(ctx, l2, WT_F32);   /* autocast: the loss in f32, as torch's */
    wt_tensor *loss = wt_cross_entropy(ctx, l32, t2, NULL);
    REL(x), REL(xf), REL(logits), REL(l2), REL(t2), REL(l32);
    return loss;
}

/* The optimizers of the rows and of --agree (bench/agree_train.py builds the same). */
#define CNN_LR 0.05
#define CNN_MOMENTUM 0.9
#define GPT_LR 1e-3
#define GPT_WD 0.1

static wt_optimizer *model_optimizer(tb *b, model *m) {
    wt_param_group g = { m->p, m->np, { .lr = m->gpt ? GPT_LR : CNN_LR, .momentum = m->gpt ? 0 : CNN_MOMENTUM,
                                        .weight_decay = m->gpt ? GPT_WD : 0 } };
    wt_optimizer *o = wt_optimizer_create(b->ctx, &(wt_optimizer_desc){ .label = "bench train",
                                                                        .kind = m->gpt ? WT_OPTIM_ADAMW : WT_OPTIM_SGD,
                                                                        .groups = &g, .group_count = 1 });
    bench_got(b->ctx, &b->errors, "optimizer", o);
    return o;
}

/* One step recorded (nothing read back): loss, backward, the optimizer, gradients dropped.  The
 * loss is returned (a new reference) or NULL on an error.  live (or NULL) receives
 * wt_stats.live_bytes once the forward is recorded and once the backward is. */
static wt_tensor *model_step(tb *b, model *m, wt_optimizer *o, wt_grad_scaler *sc, wt_tensor *x, wt_tensor *y,
                             uint64_t *live) {
    wt_context *ctx = b->ctx;
    wt_stats st;
    wt_dtype was_ac = m->amp ? wt_set_autocast(ctx, WT_F16) : WT_DTYPE_DEFAULT;
    wt_tensor *loss = m->gpt ? gpt_loss(ctx, m->p, &m->g, x, y) : cnn_loss(ctx, m->p, x, y);
    if (m->amp)
        wt_set_autocast(ctx, was_ac);
    if (!bench_got(ctx, &b->errors, m->gpt ? "gpt forward" : "cnn forward", loss))
        return NULL;
    if (live) {
        wt_get_stats(ctx, &st);
        live[0] = st.live_bytes;
    }
    wt_tensor *scaled = sc ? wt_grad_scaler_scale(sc, loss) : NULL;
    if ((sc && !scaled) || wt_backward(ctx, sc ? scaled : loss, NULL, NULL) != WT_OK) {
        bench_got(ctx, &b->errors, "backward", NULL);
        REL(loss), REL(scaled);
        return NULL;
    }
    REL(scaled);
    if (sc) {   /* unscale, the step (a no-op on the GPU after an overflow), the scale's update */
        if (wt_grad_scaler_step(sc, o) != WT_OK || wt_grad_scaler_update(sc) != WT_OK) {
            bench_got(ctx, &b->errors, "scaler step", NULL);
            REL(loss);
            return NULL;
        }
        for (int i = 0; i < m->np; i++)
            wt_zero_grad(ctx, m->p[i]);
        return loss;
    }
    if (live) {
        wt_get_stats(ctx, &st);
        live[1] = st.live_bytes;
    }
    wt_tensor *grads[sizeof m->p / sizeof *m->p];
    bool ok = true;
    for (int i = 0; i < m->np; i++)
        ok = bench_got(ctx, &b->errors, "gradient", grads[i] = wt_grad(ctx, m->p[i])) && ok;
    bool was = wt_set_grad_enabled(ctx, false);
    if (ok && wt_optimizer_step(o, grads, m->np) != WT_OK)
        ok = bench_got(ctx, &b->errors, "optimizer step", NULL);
    wt_set_grad_enabled(ctx, was);
    for (int i = 0; i < m->np; i++) {
        REL(grads[i]);
        wt_zero_grad(ctx, m->p[i]);
    }
    if (!ok) {
        REL(loss);
        return NULL;
    }
    return loss;
}

/* ---- host data ------------------------------------------------------------------------------ */
static uint64_t xs(uint64_t *s) {
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

static wt_tensor *random_labels(wt_context *ctx, int ndim, const int64_t *shape, int64_t classes, uint64_t seed) {
    int64_t n = 1;
    for (int i = 0; i < ndim; i++)
        n *= shape[i];
    int32_t *h = malloc((size_t)n * sizeof *h);
    if (!h)
        return NULL;
    for (int64_t i = 0; i < n; i++)
        h[i] = (int32_t)(xs(&seed) % (uint64_t)classes);
    wt_tensor *t = wt_from_host(ctx, WT_I32, ndim, shape, h);
    free(h);
    return t;
}

/* ---- the rows ------------------------------------------------------------------------------- */
/* A fresh context for one model, with the suite's policy (WGC_* knobs) and timing when it can. */
static wt_context *model_context(bench_wt *w, tb *b, const char *label) {
    wt_context_desc cd = { .label = label };
    char perr[160];
    if (!wt_policy_from_env(&cd.policy, perr, sizeof perr))
        memset(&cd.policy, 0, sizeof cd.policy);
    wt_context *ctx = wt_context_create(w->dev, &cd);
    b->timed = ctx && w->timed && wt_context_set_timing(ctx, true) == WT_OK;
    return ctx;
}

/* --profile: three more steps with the kernel profile on, printed per step. */
static void profile_steps(tb *b, model *m, wt_optimizer *o, wt_grad_scaler *sc, wt_tensor *x, wt_tensor *y,
                          const char *what) {
    if (wt_context_set_profiling(b->ctx, true) != WT_OK) {
        fprintf(stderr, "wgc bench: --profile: %s\n", wt_last_error(b->ctx));
        wt_clear_error(b->ctx);
        return;
    }
    for (int i = 0; i < 3; i++) {
        wt_tensor *loss = model_step(b, m, o, sc, x, y, NULL);
        if (!loss || wt_sync(b->ctx) != WT_OK) {
            bench_got(b->ctx, &b->errors, "profiled step", NULL);
            REL(loss);
            return;
        }
        REL(loss);
    }
    bench_profile_print(b->ctx, what, 3);
    wt_context_set_profiling(b->ctx, false);
}

/* Times the steps of one model on its own context: *step_key gets best seconds per step (ms),
 * *peak_key the context's peak pool bytes (MiB). */
static void time_model(bench_wt *w, tb *b, bool gpt, bool amp, const train_cfg *cfg, const char *step_key,
                       const char *peak_key) {
    b->ctx = model_context(w, b, gpt ? "bench train gpt" : "bench train cnn");
    if (!b->ctx) {
        b->errors++;
        return;
    }
    wt_manual_seed(b->ctx, 1234);
    model m;
    wt_optimizer *o = NULL;
    wt_grad_scaler *sc = NULL;
    wt_tensor *x = NULL, *y = NULL;
    const gpt_shape *g = &cfg->gpt;
    if (!model_init(b, &m, gpt, g) || !(o = model_optimizer(b, &m)))
        goto out;
    if (amp && !wt_context_has_f16(b->ctx)) {
        snprintf(bench_find_row(b->rep, step_key)->note, sizeof b->rep->rows[0].note,
                 "not available: the device has no shader-f16");
        goto out;
    }
    m.amp = amp;
    if (amp && !bench_got(b->ctx, &b->errors, "grad scaler", sc = wt_grad_scaler_create(b->ctx, NULL)))
        goto out;
    if (gpt) {
        x = random_labels(b->ctx, WT_SHAPE(g->B, g->T), g->V, 11);
        y = random_labels(b->ctx, WT_SHAPE(g->B, g->T), g->V, 12);
    } else {
        x = wt_randn(b->ctx, WT_F32, WT_SHAPE(cfg->cnn_batch, 1, 8, 8));
        y = random_labels(b->ctx, WT_SHAPE(cfg->cnn_batch), 10, 13);
    }
    if (!bench_got(b->ctx, &b->errors, "data", x) || !bench_got(b->ctx, &b->errors, "labels", y))
        goto out;
    double first = NAN, last = NAN, t[BENCH_MAX_RUNS], wall[BENCH_MAX_RUNS];
    wt_stats st0 = { 0 }, st1 = { 0 };
    uint64_t live[2] = { 0, 0 };
    int n = 0, warm = 0;
    double w0 = bench_now_s();
    for (;;) {
        bool timing = warm >= 2 && bench_now_s() - w0 >= BENCH_WARM_S;
        bool last_step = timing && n == cfg->runs - 1;
        if (last_step)
            wt_get_stats(b->ctx, &st0);
        uint64_t g0 = bench_gpu_ns(b->ctx);
        double s0 = bench_now_s();
        wt_tensor *loss = model_step(b, &m, o, sc, x, y, last_step ? live : NULL);
        if (!loss || wt_sync(b->ctx) != WT_OK) {
            bench_got(b->ctx, &b->errors, "step", NULL);
            REL(loss);
            goto out;
        }
        double s1 = bench_now_s();
        uint64_t g1 = bench_gpu_ns(b->ctx);
        if (last_step)
            wt_get_stats(b->ctx, &st1);
        if (warm == 0 || (timing && n == cfg->runs - 1)) {
            double v = NAN;
            if (wt_item(b->ctx, loss, &v) != WT_OK)
                bench_got(b->ctx, &b->errors, "loss", NULL);
            *(warm == 0 ? &first : &last) = v;
        }
        REL(loss);
        if (!timing) {
            warm++;
            continue;
        }
        t[n] = b->timed ? (double)(g1 - g0) * 1e-9 : s1 - s0;
        wall[n] = s1 - s0;
        if (++n == cfg->runs)
            break;
    }
    if (!isfinite(first) || !isfinite(last)) {
        fprintf(stderr, "wgc bench: %s: loss %g at the first step, %g at the last\n", step_key, first, last);
        b->wrong++;
    }
    bench_row *row = bench_find_row(b->rep, step_key);
    double best = bench_min(t, n), med = bench_median(t, n), wmed = bench_median(wall, n);
    row->ours = best * 1e3;
    snprintf(row->note, sizeof row->note, "best of %d steps after %d warm-up, median %.3f ms, wall %.3f ms; loss %.3f -> %.3f",
             n, warm, med * 1e3, wmed * 1e3, first, last);
    wt_stats st;
    wt_get_stats(b->ctx, &st);
    if (sc) {   /* the scale after the run: halved once per skipped step */
        wt_tensor *sv = wt_grad_scaler_get_scale(sc);
        double scale = NAN;
        if (!sv || wt_item(b->ctx, sv, &scale) != WT_OK)
            bench_got(b->ctx, &b->errors, "scale", NULL);
        REL(sv);
        size_t len = strlen(row->note);
        snprintf(row->note + len, sizeof row->note - len, "; loss scale %g", scale);
    }
    if (b->opt->profile)
        profile_steps(b, &m, o, sc, x, y, step_key);
    if (!peak_key)
        goto out;
    bench_info(b->rep, gpt ? "wt gpt" : "wt cnn",
               "a step: %llu ops, %llu dispatches (%llu fused away) in %llu submits; %llu kernels compiled; "
               "graph nodes alive between steps: %llu", (unsigned long long)(st1.ops - st0.ops),
               (unsigned long long)(st1.dispatches - st0.dispatches), (unsigned long long)(st1.fused - st0.fused),
               (unsigned long long)(st1.flushes - st0.flushes), (unsigned long long)st.kernels_compiled,
               (unsigned long long)wt_grad_node_count(b->ctx));
    bench_row *pk = bench_find_row(b->rep, peak_key);
    pk->ours = (double)st.peak_allocated_bytes / (1024.0 * 1024.0);
    snprintf(pk->note, sizeof pk->note, "pool peak over %d steps; live %.4g MiB after fwd, %.4g after bwd", warm + n,
             (double)live[0] / 1048576.0, (double)live[1] / 1048576.0);
out:
    REL(x), REL(y);
    wt_grad_scaler_destroy(sc);
    wt_optimizer_destroy(o);
    model_free(&m);
    wt_context_destroy(b->ctx);
    b->ctx = NULL;
}

static void baseline(tb *b, int bi, const train_cfg *cfg, bench_wt *w) {
    char a[3][64];
    snprintf(a[0], 64, "%lld", (long long)cfg->cnn_batch);
    const gpt_shape *g = &cfg->gpt;
    snprintf(a[1], 64, "%lld,%lld,%lld,%lld,%lld,%lld", (long long)g->L, (long long)g->C, (long long)g->H,
             (long long)g->T, (long long)g->B, (long long)g->V);
    snprintf(a[2], 64, "%d", cfg->runs);
    const char *args[] = { "--cnn-batch", a[0], "--gpt", a[1], "--runs", a[2], NULL };
    const char *js;
    char *out = bench_torch_baseline(b->rep, bi, b->opt, w->cpu, w->info->name, "baseline_train.py", args,
                                     "CUDA events", &js);
    if (!out)
        return;
    for (int i = 0; i < b->rep->row_count; i++) {
        bench_row *row = &b->rep->rows[i];
        double v = bench_json_num(js, row->key, NULL);
        if (isnan(v))
            continue;
        row->base[bi] = v;
        snprintf(row->base_note[bi], sizeof row->base_note[bi], "%s",
                 strstr(row->key, "MiB") ? "max_memory_allocated" : strstr(row->key, "amp") ? "autocast f16" : "eager, CUDA events");
    }
    free(out);
}

/* ---- --agree DIR ---------------------------------------------------------------------------- */
static bool mkdir_p(const char *path) {
    return mkdir(path, 0777) == 0 || errno == EEXIST;
}

static bool save(tb *b, wt_tensor *t, const char *dir, const char *name) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (!t || wt_save_npy(b->ctx, t, path) != WT_OK) {
        fprintf(stderr, "wgc bench train: %s: %s\n", path, wt_last_error(b->ctx));
        b->errors++;
        return false;
    }
    return true;
}

/* Trains `steps` steps on the batches xs[s], ys[s] (views of x, y along dim 0), writing the
 * initial parameters and the losses into dir. */
static bool agree_run(tb *b, model *m, wt_tensor *x, wt_tensor *y, int steps, const char *dir) {
    char name[32];
    for (int i = 0; i < m->np; i++) {
        snprintf(name, sizeof name, "p%03d.npy", i);
        if (!save(b, m->p[i], dir, name))
            return false;
    }
    wt_optimizer *o = model_optimizer(b, m);
    char path[1024];
    snprintf(path, sizeof path, "%s/losses.txt", dir);
    FILE *f = o ? fopen(path, "w") : NULL;
    if (!f) {
        wt_optimizer_destroy(o);
        fprintf(stderr, "wgc bench train: cannot write %s\n", path);
        b->errors++;
        return false;
    }
    bool ok = true;
    for (int s = 0; s < steps && ok; s++) {
        wt_tensor *xv = wt_select(b->ctx, x, 0, s), *yv = wt_select(b->ctx, y, 0, s);
        wt_tensor *xb = xv ? wt_contiguous(b->ctx, xv) : NULL, *yb = yv ? wt_contiguous(b->ctx, yv) : NULL;
        wt_tensor *loss = xb && yb ? model_step(b, m, o, NULL, xb, yb, NULL) : NULL;
        double v = NAN;
        ok = loss && wt_item(b->ctx, loss, &v) == WT_OK;
        if (ok)
            fprintf(f, "%.9g\n", v);
        else
            bench_got(b->ctx, &b->errors, "agree step", NULL);
        REL(xv), REL(yv), REL(xb), REL(yb), REL(loss);
    }
    wt_optimizer_destroy(o);
    return fclose(f) == 0 && ok;
}

static int agree(bench_wt *w, tb *b, const train_cfg *cfg) {
    char dir[800], sub[900];
    b->ctx = model_context(w, b, "bench train agree");
    if (!b->ctx || strlen(cfg->agree) >= sizeof dir || !mkdir_p(cfg->agree)) {
        fprintf(stderr, "wgc bench train: cannot use %s\n", cfg->agree);
        return 2;
    }
    wt_manual_seed(b->ctx, 2024);
    snprintf(dir, sizeof dir, "%s", cfg->agree);
    int S = cfg->agree_cnn_steps, N = 128;
    /* CNN: the digits (pixels / 16) in a fixed random order, else random images */
    float *xh = malloc((size_t)S * N * 64 * sizeof *xh);
    int32_t *yh = malloc((size_t)S * N * sizeof *yh);
    const char *data = "random U(0, 1) images, random labels (no digits file)";
    wt_digits d;
    uint64_t seed = 99;
    if (xh && yh && wt_digits_load(b->ctx, cfg->data, &d) == WT_OK) {
        data = "scikit-learn digits (training rows, pixels / 16)";
        for (int64_t i = 0; i < (int64_t)S * N; i++) {
            int64_t r = (int64_t)(xs(&seed) % (uint64_t)d.train_count);
            for (int k = 0; k < 64; k++)
                xh[i * 64 + k] = d.pixels[r * 64 + k] / 16.0f;
            yh[i] = d.labels[r];
        }
        wt_digits_free(b->ctx, &d);
    } else if (cfg->data) {   /* named: no silent fallback */
        fprintf(stderr, "wgc bench train: --data %s: %s\n", cfg->data, wt_last_error(b->ctx));
        free(xh), free(yh);
        xh = NULL, yh = NULL;
    } else if (xh && yh) {
        wt_clear_error(b->ctx);
        for (int64_t i = 0; i < (int64_t)S * N; i++) {
            for (int k = 0; k < 64; k++)   /* uniform in [0, 1), as the digits' pixels / 16 */
                xh[i * 64 + k] = (float)((double)(xs(&seed) >> 11) / 9007199254740992.0);
            yh[i] = (int32_t)(xs(&seed) % 10);
        }
    }
    wt_tensor *x = xh ? wt_from_host(b->ctx, WT_F32, WT_SHAPE(S, N, 1, 8, 8), xh) : NULL;
    wt_tensor *y = yh ? wt_from_host(b->ctx, WT_I32, WT_SHAPE(S, N), yh) : NULL;
    free(xh), free(yh);
    snprintf(sub, sizeof sub, "%s/cnn", dir);
    model m;
    bool ok = mkdir_p(sub) && save(b, x, sub, "x.npy") && save(b, y, sub, "y.npy") && model_init(b, &m, false, NULL);
    if (ok) {
        ok = agree_run(b, &m, x, y, S, sub);
        model_free(&m);
    }
    REL(x), REL(y);
    bench_say(b->opt, "agree: cnn %d steps %s", S, ok ? "written" : "failed");

    /* GPT: the text's distinct bytes are the vocabulary; B windows of T + 1 at random offsets */
    gpt_shape g = cfg->agree_gpt;
    int GS = cfg->agree_gpt_steps;
    FILE *tf = ok ? fopen(cfg->text, "rb") : NULL;
    unsigned char *text = NULL;
    long len = 0;
    if (tf && fseek(tf, 0, SEEK_END) == 0 && (len = ftell(tf)) > g.T + 1 && fseek(tf, 0, SEEK_SET) == 0 &&
        (text = malloc((size_t)len)) && fread(text, 1, (size_t)len, tf) != (size_t)len) {
        free(text);
        text = NULL;
    }
    if (tf)
        fclose(tf);
    if (ok && !text) {
        fprintf(stderr, "wgc bench train: --text %s: cannot read it (or it is shorter than %lld bytes)\n", cfg->text,
                (long long)g.T + 2);
        ok = false;
    }
    int vocab[256], V = 0;
    char chars[256 * 8 + 3] = "";
    if (ok) {
        bool seen[256] = { false };
        for (long i = 0; i < len; i++)
            seen[text[i]] = true;
        size_t cl = 0;
        for (int c = 0; c < 256; c++) {
            vocab[c] = seen[c] ? V++ : -1;
            if (seen[c])
                cl += (size_t)snprintf(chars + cl, sizeof chars - cl, "%s%d", V > 1 ? ", " : "", c);
        }
        g.V = V;
    }
    int32_t *th = ok ? malloc((size_t)GS * (size_t)g.B * (size_t)(g.T + 1) * sizeof *th) : NULL;
    ok = ok && th;
    for (int64_t i = 0; ok && i < (int64_t)GS * g.B; i++) {
        long off = (long)(xs(&seed) % (uint64_t)(len - g.T - 1));
        for (int64_t k = 0; k <= g.T; k++)
            th[i * (g.T + 1) + k] = vocab[text[off + k]];
    }
    free(text);
    wt_tensor *tok = ok ? wt_from_host(b->ctx, WT_I32, WT_SHAPE(GS, g.B, g.T + 1), th) : NULL;
    free(th);
    snprintf(sub, sizeof sub, "%s/gpt", dir);
    ok = ok && mkdir_p(sub) && save(b, tok, sub, "tokens.npy");
    wt_tensor *xin = ok ? wt_narrow(b->ctx, tok, 2, 0, g.T) : NULL, *tgt = ok ? wt_narrow(b->ctx, tok, 2, 1, g.T) : NULL;
    wt_tensor *xc = xin ? wt_contiguous(b->ctx, xin) : NULL, *tc = tgt ? wt_contiguous(b->ctx, tgt) : NULL;
    if (ok && xc && tc && model_init(b, &m, true, &g)) {
        ok = agree_run(b, &m, xc, tc, GS, sub);
        model_free(&m);
    } else {
        ok = false;
    }
    REL(tok), REL(xin), REL(tgt), REL(xc), REL(tc);
    bench_say(b->opt, "agree: gpt %d steps %s", GS, ok ? "written" : "failed");

    snprintf(sub, sizeof sub, "%s/meta.json", dir);
    FILE *f = ok ? fopen(sub, "w") : NULL;
    if (f) {
        fprintf(f, "{\"cnn\": {\"steps\": %d, \"batch\": %d, \"data\": \"%s\", \"optimizer\": \"sgd\", \"lr\": %g, "
                   "\"momentum\": %g, \"params\": [",
                S, N, data, CNN_LR, CNN_MOMENTUM);
        for (int i = 0; i < CNN_PARAMS; i++) {
            fprintf(f, "%s[", i ? ", " : "");
            for (int k = 0; k < cnn_ndim[i]; k++)
                fprintf(f, "%s%lld", k ? ", " : "", (long long)cnn_shapes[i][k]);
            fprintf(f, "]");
        }
        fprintf(f, "]},\n \"gpt\": {\"steps\": %d, \"layers\": %lld, \"width\": %lld, \"heads\": %lld, \"seq\": %lld, "
                   "\"batch\": %lld, \"vocab\": %lld, \"optimizer\": \"adamw\", \"lr\": %g, \"weight_decay\": %g, "
                   "\"betas\": [0.9, 0.999], \"eps\": 1e-8, \"text\": \"%s\", \"chars\": [%s]}}\n",
                GS, (long long)g.L, (long long)g.C, (long long)g.H, (long long)g.T, (long long)g.B, (long long)g.V,
                GPT_LR, GPT_WD, cfg->text, chars);
        ok = fclose(f) == 0;
    }
    wt_context_destroy(b->ctx);
    b->ctx = NULL;
    if (!ok) {
        fprintf(stderr, "wgc bench train: --agree %s failed\n", cfg->agree);
        return 2;
    }
    printf("wgc bench train: wrote %s (cnn %d steps, gpt %d steps, vocabulary %lld); next: python3 "
           "bench/agree_train.py %s\n", cfg->agree, S, GS, (long long)g.V, cfg->agree);
    return 0;
}

/* ---- the command ------------------------------------------------------------------------------ */
static void train_usage(FILE *f) {
    fputs("usage: wgc bench train [options]\n"
          "  a training step of the digits CNN (SGD with momentum) and of a GPT (AdamW) with wt's\n"
          "  autograd, GPU time per step and peak memory; baseline: PyTorch eager on CUDA, TF32 off\n"
          "  (bench/baseline_train.py)\n"
          "options: the shared ones (--json --size --runs --baseline --root --svg -v; wgc bench --help), and\n"
          "  --cnn-batch N       the CNN's batch (full: 512)\n"
          "  --gpt L,C,H,T,B,V   layers, width, heads, sequence, batch, vocabulary (full: 12,768,12,512,8,50257)\n"
          "  --profile           after the timed steps, three more with the kernel profile on\n"
          "                      (wt_context_set_profiling): GPU time per kernel per step on stderr\n"
          "  --agree DIR         instead of timing: write the agreement run's files into DIR (initial\n"
          "                      weights, batches, wt's losses) for bench/agree_train.py\n"
          "  --agree-steps N,M   its CNN and GPT steps (default 50,200)\n"
          "  --agree-gpt L,C,H,T,B  its character-level GPT (default 2,128,4,64,8)\n"
          "  --text FILE         its text (default /usr/share/common-licenses/GPL-3)\n"
          "  --data FILE         its digits (default: wt_digits_load's, python3-sklearn's digits.csv.gz;\n"
          "                      random images when there is none)\n",
          f);
}

static bool parse_list(const char *s, int64_t *v, int n) {
    for (int i = 0; i < n; i++) {
        char *e;
        v[i] = strtoll(s, &e, 10);
        if (e == s || v[i] < 1 || (i < n - 1 ? *e != ',' : *e != 0))
            return false;
        s = e + 1;
    }
    return true;
}

int bench_train_cli(int argc, char **argv) {
    bench_options opt = bench_options_default();
    train_cfg cfg = { .agree_cnn_steps = 50, .agree_gpt_steps = 200, .agree_gpt = { 2, 128, 4, 64, 8, 0 },
                      .text = "/usr/share/common-licenses/GPL-3" };
    int64_t cnn_batch = 0, gpt[6] = { 0 };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool more = i + 1 < argc;
        int shared;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            train_usage(stdout);
            return 0;
        } else if ((shared = bench_shared_option(&opt, argc, argv, &i)) != 0) {
            if (shared < 0)
                return 2;
        } else if (!strcmp(a, "--cnn-batch") && more) {
            if (!parse_list(argv[++i], &cnn_batch, 1))
                return cli_fail("bench train: --cnn-batch takes a positive count");
        } else if (!strcmp(a, "--gpt") && more) {
            if (!parse_list(argv[++i], gpt, 6) || gpt[1] % gpt[2])
                return cli_fail("bench train: --gpt takes L,C,H,T,B,V (positive; H divides C)");
        } else if (!strcmp(a, "--agree") && more) {
            cfg.agree = argv[++i];
        } else if (!strcmp(a, "--agree-steps") && more) {
            int64_t v[2];
            if (!parse_list(argv[++i], v, 2) || v[0] > 100000 || v[1] > 100000)
                return cli_fail("bench train: --agree-steps takes N,M");
            cfg.agree_cnn_steps = (int)v[0], cfg.agree_gpt_steps = (int)v[1];
        } else if (!strcmp(a, "--agree-gpt") && more) {
            int64_t v[5];
            if (!parse_list(argv[++i], v, 5) || v[1] % v[2] || v[0] > 64)
                return cli_fail("bench train: --agree-gpt takes L,C,H,T,B (H divides C, L <= 64)");
            cfg.agree_gpt = (gpt_shape){ v[0], v[1], v[2], v[3], v[4], 0 };
        } else if (!strcmp(a, "--text") && more) {
            cfg.text = argv[++i];
        } else if (!strcmp(a, "--data") && more) {
            cfg.data = argv[++i];
        } else {
            return cli_fail("bench train: unknown option '%s' (try wgc bench train --help)", a);
        }
    }
    if (gpt[0] > 64)
        return cli_fail("bench train: --gpt: at most 64 layers");

    bench_report *rep;
    bench_wt w;
    bench_size size;
    if (!bench_wt_start(&opt, "train", true, &rep, &w, &size))   /* f16: the amp rows */
        return 2;
    tb b = { .opt = &opt, .rep = rep };
    if (cfg.agree) {
        int rc = agree(&w, &b, &cfg);
        bench_wt_done(&w, rep);
        wg_instance_release(w.inst);
        free(rep);
        return rc;
    }
    static const struct { const char *name; int64_t cnn; gpt_shape g; int runs; } sizes[BENCH_SIZE_COUNT] = {
        [BENCH_SIZE_SMALL] = { "small", 32, { 1, 32, 2, 16, 2, 64 }, 2 },
        [BENCH_SIZE_MEDIUM] = { "medium", 128, { 2, 128, 4, 64, 4, 1024 }, 3 },
        [BENCH_SIZE_FULL] = { "full", 512, { 12, 768, 12, 512, 8, 50257 }, 10 },
    };
    cfg.cnn_batch = cnn_batch ? cnn_batch : sizes[size].cnn;
    cfg.gpt = gpt[0] ? (gpt_shape){ gpt[0], gpt[1], gpt[2], gpt[3], gpt[4], gpt[5] } : sizes[size].g;
    cfg.runs = bench_runs(&opt, sizes[size].runs);
    const gpt_shape *g = &cfg.gpt;
    bench_info(rep, "size", "%s: CNN batch %lld; GPT L%lld C%lld H%lld T%lld B%lld V%lld; %d timed steps",
               sizes[size].name, (long long)cfg.cnn_batch, (long long)g->L, (long long)g->C, (long long)g->H,
               (long long)g->T, (long long)g->B, (long long)g->V, cfg.runs);
    bench_info(rep, "optimizers", "CNN SGD lr %g momentum %g; GPT AdamW lr %g weight decay %g", CNN_LR, CNN_MOMENTUM,
               GPT_LR, GPT_WD);
#define X(key, name, unit, rel) bench_add_row(rep, #key, name, unit, BENCH_LOWER, NAN);
    TRAIN_ROWS(X)
#undef X
    bench_say(&opt, "cnn steps");
    time_model(&w, &b, false, false, &cfg, "cnn_step_ms", "cnn_peak_MiB");
    bench_say(&opt, "gpt steps");
    time_model(&w, &b, true, false, &cfg, "gpt_step_ms", "gpt_peak_MiB");
    bench_say(&opt, "gpt amp steps");
    time_model(&w, &b, true, true, &cfg, "gpt_amp_step_ms", NULL);
    bench_say(&opt, "cnn amp steps");
    time_model(&w, &b, false, true, &cfg, "cnn_amp_step_ms", NULL);
    bench_wt_done(&w, rep);
    for (int i = 0; i < rep->info_count; i++)   /* the suite's own context ran nothing: the models' lines say it */
        if (!strcmp(rep->info_key[i], "wt"))
            snprintf(rep->info_val[i], sizeof rep->info_val[i], "each model on a context of its own: the lines above");

    int bt = bench_add_baseline(rep, "torch");
    if (bench_want(&opt, "torch"))
        baseline(&b, bt, &cfg, &w);
    else
        bench_baseline_status(rep, bt, false, "not selected (--baseline %s)", opt.baseline);
    bench_relative_targets(rep, bt, train_rel, TRAIN_ROW_COUNT);
    int rc = bench_wt_end(&w, rep, &opt, b.wrong, b.errors);
    free(rep);
    return rc;
}
