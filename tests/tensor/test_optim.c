/* test_optim.c - the training parts of wt: every optimizer step against a plain C f64 reference of
 * torch.optim's formulas over several steps (SGD with momentum, dampening, nesterov, weight decay,
 * maximize; Adam and AdamW with weight decay and amsgrad; parameter groups with their own learning
 * rates), errors that leave every parameter unchanged, the schedules, clip_grad_norm (values, the
 * in-place scale, no submit), the initialisers' statistics and reproducibility, checkpoints (a
 * round trip that resumes bit for bit, files wl's safetensors reader opens, every mismatch
 * refused with the tensor named and nothing changed), and the digits loader. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "tensor/tensor_test.h"
#include "wgc/llm.h"

static wt_context *ctx;
static uint64_t seed = 0x9e3779b97f4a7c15ull;

/* ---- reference optimizers in f64 (torch.optim's single-tensor formulas) ---- */
typedef struct ref_param {
    int64_t n;
    double *p, *s0, *s1, *s2;   /* momentum buffer / exp_avg, exp_avg_sq, max_exp_avg_sq */
    int64_t step;
} ref_param;

static void ref_step(wt_optimizer_kind kind, const wt_optim_hparams *h, ref_param *r, const double *grad) {
    double lr = h->lr, b1 = h->beta1 ? h->beta1 : 0.9, b2 = h->beta2 ? h->beta2 : 0.999, eps = h->eps ? h->eps : 1e-8;
    r->step++;
    for (int64_t i = 0; i < r->n; i++) {
        double g = h->maximize ? -grad[i] : grad[i], p = r->p[i];
        if (kind == WT_OPTIM_SGD) {
            if (h->weight_decay)
                g += h->weight_decay * p;
            if (h->momentum) {
                r->s0[i] = r->step == 1 ? g : h->momentum * r->s0[i] + (1 - h->dampening) * g;
                g = h->nesterov ? g + h->momentum * r->s0[i] : r->s0[i];
            }
            r->p[i] = p - lr * g;
            continue;
        }
        if (kind == WT_OPTIM_ADAMW)
            p *= 1 - lr * h->weight_decay;
        else if (h->weight_decay)
            g += h->weight_decay * p;
        r->s0[i] += (1 - b1) * (g - r->s0[i]);
        r->s1[i] = b2 * r->s1[i] + (1 - b2) * g * g;
        double v = r->s1[i];
        if (h->amsgrad) {
            r->s2[i] = fmax(r->s2[i], v);
            v = r->s2[i];
        }
        double bc1 = 1 - pow(b1, (double)r->step), bc2 = 1 - pow(b2, (double)r->step);
        r->p[i] = p - lr / bc1 * r->s0[i] / (sqrt(v) / sqrt(bc2) + eps);
    }
}

/* |got - want| <= atol + rtol |want| for every element; prints the first misses */
static bool close_to(const char *what, const double *got, const double *want, int64_t n, double atol, double rtol) {
    int bad = 0;
    for (int64_t i = 0; i < n; i++)
        if (!(fabs(got[i] - want[i]) <= atol + rtol * fabs(want[i])) && bad++ < 3)
            fprintf(stderr, "%s[%lld]: got %.9g want %.9g\n", what, (long long)i, got[i], want[i]);
    CHECKF(bad == 0, "%s: %d of %lld elements off", what, bad, (long long)n);
    return bad == 0;
}

static double *rand_vec(int64_t n, double lo, double hi) {
    double *v = malloc((size_t)n * sizeof *v + 8);
    for (int64_t i = 0; i < n; i++)
        v[i] = (float)tt_rand(&seed, lo, hi);   /* f32 values: the GPU sees the same numbers */
    return v;
}

/* Runs `steps` steps of an optimizer over parameters of the given shapes in groups (group g holds
 * parameters [first[g], first[g + 1])) against the reference; transposed: the first gradient is
 * passed as a transposed view (the step copies it contiguous). */
static void run_optimizer(const char *name, wt_optimizer_kind kind, int ngroups, const wt_optim_hparams *hs,
                          const int *first, int nparams, const int64_t (*shapes)[2], int steps, bool transposed) {
    wt_tensor *p[4];
    ref_param r[4];
    for (int i = 0; i < nparams; i++) {
        int64_t n = shapes[i][0] * shapes[i][1];
        r[i] = (ref_param){ n, rand_vec(n, -1, 1), calloc((size_t)n, 8), calloc((size_t)n, 8), calloc((size_t)n, 8), 0 };
        p[i] = tt_upload(ctx, WT_F32, 2, shapes[i], r[i].p);
    }
    wt_param_group groups[3];
    for (int g = 0; g < ngroups; g++)
        groups[g] = (wt_param_group){ p + first[g], first[g + 1] - first[g], hs[g] };
    wt_optimizer *opt = wt_optimizer_create(ctx, &(wt_optimizer_desc){ .kind = kind, .groups = groups,
                                                                        .group_count = ngroups });
    CHECKF(opt != NULL, "%s: %s", name, wt_last_error(ctx));
    if (!opt)
        return;
    wt_optim_hparams cur[3];
    memcpy(cur, hs, (size_t)ngroups * sizeof *cur);
    for (int s = 0; s < steps; s++) {
        if (s == 2)   /* a schedule's change between steps */
            for (int g = 0; g < ngroups; g++) {
                cur[g].lr = (cur[g].lr ? cur[g].lr : 1e-3) * 0.5;
                CHECK(wt_optimizer_set_lr(opt, g, cur[g].lr) == WT_OK);
            }
        wt_tensor *grads[4];
        for (int i = 0; i < nparams; i++) {
            double *gv = rand_vec(r[i].n, -1, 1);
            if (transposed && i == 0) {
                grads[i] = tt_make(ctx, WT_F32, 2, shapes[i], gv, TT_TRANSPOSED);
                CHECK(!wt_is_contiguous(grads[i]));
            } else {
                grads[i] = tt_upload(ctx, WT_F32, 2, shapes[i], gv);
            }
            int g = 0;
            while (i >= first[g + 1])
                g++;
            wt_optim_hparams h = cur[g];
            if (!h.lr)
                h.lr = 1e-3;
            ref_step(kind, &h, &r[i], gv);
            free(gv);
        }
        wt_stats s0, s1;
        wt_get_stats(ctx, &s0);
        wt_status st = wt_optimizer_step(opt, grads, nparams);
        wt_get_stats(ctx, &s1);
        CHECKF(st == WT_OK, "%s step %d: %s", name, s, wt_last_error(ctx));
        CHECK_EQ_INT(s1.flushes, s0.flushes);   /* recorded into the batch: nothing submitted or read */
        /* one dispatch per parameter, plus the copies of strided gradients and the new state's fills */
        CHECK(s1.ops - s0.ops <= (uint64_t)(3 * nparams));
        if (s > 0 && !transposed)   /* state made: exactly one fused dispatch per parameter */
            CHECK_EQ_INT(s1.ops - s0.ops, nparams);
        for (int i = 0; i < nparams; i++)
            wt_release(grads[i]);
    }
    CHECK_EQ_INT(wt_optimizer_steps(opt), steps);
    for (int i = 0; i < nparams; i++) {
        char what[96];
        double *got = tt_read(ctx, p[i]);
        snprintf(what, sizeof what, "%s param %d", name, i);
        close_to(what, got, r[i].p, r[i].n, 2e-6, 2e-5);
        free(got);
        const char *sn = kind == WT_OPTIM_SGD ? "momentum_buffer" : "exp_avg";
        wt_tensor *s0 = wt_optimizer_state(opt, i, sn);
        int g = 0;
        while (i >= first[g + 1])
            g++;
        bool has = kind != WT_OPTIM_SGD || hs[g].momentum != 0;
        CHECKF((s0 != NULL) == has, "%s: state %s of param %d", name, sn, i);
        if (s0) {
            got = tt_read(ctx, s0);
            snprintf(what, sizeof what, "%s %s %d", name, sn, i);
            close_to(what, got, r[i].s0, r[i].n, 2e-6, 2e-5);
            free(got);
            CHECK_EQ_INT(wt_ndim(s0), 2);
            CHECK_EQ_INT(wt_shape(s0)[0], shapes[i][0]);
        }
        wt_release(s0);
        if (kind != WT_OPTIM_SGD) {
            wt_tensor *s1 = wt_optimizer_state(opt, i, "exp_avg_sq");
            wt_tensor *s2 = wt_optimizer_state(opt, i, "max_exp_avg_sq");
            CHECK(s1 != NULL);
            CHECK((s2 != NULL) == hs[g].amsgrad);
            if (s1) {
                got = tt_read(ctx, s1);
                snprintf(what, sizeof what, "%s exp_avg_sq %d", name, i);
                close_to(what, got, r[i].s1, r[i].n, 1e-7, 2e-5);
                free(got);
            }
            if (s2) {
                got = tt_read(ctx, s2);
                snprintf(what, sizeof what, "%s max_exp_avg_sq %d", name, i);
                close_to(what, got, r[i].s2, r[i].n, 1e-7, 2e-5);
                free(got);
            }
            wt_release(s1);
            wt_release(s2);
        }
    }
    wt_optimizer_destroy(opt);
    for (int i = 0; i < nparams; i++) {
        wt_release(p[i]);
        free(r[i].p), free(r[i].s0), free(r[i].s1), free(r[i].s2);
    }
}

static void test_optimizers(void) {
    static const int64_t shapes[3][2] = { { 7, 5 }, { 1, 13 }, { 33, 9 } };
    static const int one[2] = { 0, 3 }, two[3] = { 0, 2, 3 };
    struct { const char *name; wt_optimizer_kind kind; wt_optim_hparams h; } cases[] = {
        { "sgd", WT_OPTIM_SGD, { .lr = 0.1 } },
        { "sgd wd maximize", WT_OPTIM_SGD, { .lr = 0.05, .weight_decay = 0.01, .maximize = true } },
        { "sgd momentum", WT_OPTIM_SGD, { .lr = 0.1, .momentum = 0.9 } },
        { "sgd momentum dampening wd", WT_OPTIM_SGD, { .lr = 0.1, .momentum = 0.8, .dampening = 0.3, .weight_decay = 1e-2 } },
        { "sgd nesterov", WT_OPTIM_SGD, { .lr = 0.1, .momentum = 0.9, .nesterov = true, .weight_decay = 5e-3 } },
        { "adam", WT_OPTIM_ADAM, { .lr = 1e-2 } },
        { "adam wd", WT_OPTIM_ADAM, { .lr = 1e-2, .weight_decay = 0.1, .beta1 = 0.8, .beta2 = 0.99 } },
        { "adam amsgrad maximize", WT_OPTIM_ADAM, { .lr = 1e-2, .amsgrad = true, .maximize = true, .eps = 1e-6 } },
        { "adamw", WT_OPTIM_ADAMW, { .lr = 1e-2, .weight_decay = 0.01 } },
        { "adamw amsgrad", WT_OPTIM_ADAMW, { .lr = 3e-3, .weight_decay = 0.1, .amsgrad = true } },
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
        run_optimizer(cases[c].name, cases[c].kind, 1, &cases[c].h, one, 3, shapes, 5, c % 2 == 1);
    /* groups: their own learning rates and options */
    wt_optim_hparams sg[2] = { { .lr = 0.2, .momentum = 0.9 }, { .lr = 0.01, .weight_decay = 0.1 } };
    run_optimizer("sgd groups", WT_OPTIM_SGD, 2, sg, two, 3, shapes, 4, false);
    wt_optim_hparams ag[2] = { { .lr = 0 /* default 1e-3 */ }, { .lr = 0.05, .amsgrad = true, .weight_decay = 0.02 } };
    run_optimizer("adamw groups", WT_OPTIM_ADAMW, 2, ag, two, 3, shapes, 4, true);
}

/* ---- errors: nothing changes ---- */
static void test_optimizer_errors(void) {
    double v[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
    wt_tensor *a = tt_upload(ctx, WT_F32, WT_SHAPE(3, 4), v), *b = tt_upload(ctx, WT_F32, WT_SHAPE(4), v);
    wt_tensor *c = tt_upload(ctx, WT_F32, WT_SHAPE(2, 2), v);
    wt_tensor *ip = tt_upload(ctx, WT_I32, WT_SHAPE(4), v);
    wt_tensor *tv = wt_transpose(ctx, a, 0, 1);
    struct { const char *what; wt_optimizer_kind kind; wt_tensor *p[2]; wt_optim_hparams h; wt_status st; const char *msg; } bad[] = {
        { "integer parameter", WT_OPTIM_SGD, { a, ip }, { .lr = 0.1 }, WT_STATUS_DTYPE, "is i32" },
        { "non-contiguous parameter", WT_OPTIM_ADAM, { tv, b }, { .lr = 0.1 }, WT_STATUS_INVALID_ARGUMENT, "contiguous" },
        { "twice", WT_OPTIM_SGD, { a, a }, { .lr = 0.1 }, WT_STATUS_INVALID_ARGUMENT, "also group 0 parameter 0" },
        { "nesterov", WT_OPTIM_SGD, { a, b }, { .lr = 0.1, .nesterov = true }, WT_STATUS_INVALID_ARGUMENT, "nesterov" },
        { "negative lr", WT_OPTIM_ADAM, { a, b }, { .lr = -1 }, WT_STATUS_INVALID_ARGUMENT, "lr" },
        { "beta", WT_OPTIM_ADAMW, { a, b }, { .beta2 = 1 }, WT_STATUS_INVALID_ARGUMENT, "betas" },
        { "amsgrad sgd", WT_OPTIM_SGD, { a, b }, { .amsgrad = true }, WT_STATUS_INVALID_ARGUMENT, "amsgrad" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        wt_clear_error(ctx);
        wt_param_group g = { bad[i].p, 2, bad[i].h };
        wt_optimizer *o = wt_optimizer_create(ctx, &(wt_optimizer_desc){ .kind = bad[i].kind, .groups = &g, .group_count = 1 });
        CHECKF(o == NULL, "%s accepted", bad[i].what);
        wt_optimizer_destroy(o);
        CHECKF(wt_last_status(ctx) == bad[i].st && strstr(wt_last_error(ctx), bad[i].msg),
               "%s: %s", bad[i].what, wt_last_error(ctx));
    }
    /* a step with something wrong records nothing: parameters, state and counts stay */
    wt_tensor *ps[3] = { a, b, c };
    wt_param_group g = { ps, 3, { .lr = 0.1, .momentum = 0.9 } };
    wt_optimizer *o = wt_optimizer_create(ctx, &(wt_optimizer_desc){ .kind = WT_OPTIM_SGD, .groups = &g, .group_count = 1 });
    CHECK(o != NULL);
    wt_tensor *ga = wt_ones(ctx, WT_F32, WT_SHAPE(3, 4)), *gb = wt_ones(ctx, WT_F32, WT_SHAPE(4));
    wt_tensor *gc = wt_ones(ctx, WT_F32, WT_SHAPE(2, 2)), *gwrong = wt_ones(ctx, WT_F32, WT_SHAPE(4, 1));
    wt_tensor *gint = wt_ones(ctx, WT_I32, WT_SHAPE(2, 2));
    wt_tensor *g1[3] = { ga, gb, gc };
    CHECK(wt_optimizer_step(o, g1, 3) == WT_OK);   /* one good step: state exists */
    double *before[3];
    for (int i = 0; i < 3; i++)
        before[i] = tt_read(ctx, ps[i]);
    wt_tensor *m0 = wt_optimizer_state(o, 0, "momentum_buffer");
    double *mb = tt_read(ctx, m0);
    struct { wt_tensor *g[3]; int n; wt_status st; const char *msg; } steps[] = {
        { { ga, gwrong, gc }, 3, WT_STATUS_SHAPE, "gradient 1 [4, 1] does not match parameter [4]" },
        { { ga, gb, NULL }, 3, WT_STATUS_NULL_TENSOR, "parameter 2 [2, 2] (group 0) has no gradient" },
        { { ga, gb, gint }, 3, WT_STATUS_DTYPE, "gradient 2 [2, 2] is i32" },
        { { ga, gb, gc }, 2, WT_STATUS_INVALID_ARGUMENT, "2 gradients for 3 parameters" },
        { { ga, gb, a }, 3, WT_STATUS_SHAPE, "gradient 2 [3, 4] does not match parameter [2, 2]" },
    };
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
        wt_clear_error(ctx);
        CHECK(wt_optimizer_step(o, steps[i].g, steps[i].n) == steps[i].st);
        CHECKF(strstr(wt_last_error(ctx), steps[i].msg), "%s", wt_last_error(ctx));
    }
    wt_clear_error(ctx);
    wt_tensor *failed = wt_add(ctx, ga, gwrong);   /* not broadcastable: NULL, the error set */
    wt_tensor *groot[3] = { ga, gb, failed };
    CHECK(failed == NULL && wt_optimizer_step(o, groot, 3) == WT_STATUS_SHAPE);
    CHECKF(strstr(wt_last_error(ctx), "wt_add"), "root cause kept: %s", wt_last_error(ctx));
    wt_clear_error(ctx);
    CHECK_EQ_INT(wt_optimizer_steps(o), 1);
    for (int i = 0; i < 3; i++) {
        double *now = tt_read(ctx, ps[i]);
        CHECKF(!memcmp(now, before[i], (size_t)wt_numel(ps[i]) * 8), "parameter %d changed by a failed step", i);
        free(now);
        free(before[i]);
    }
    double *ma = tt_read(ctx, m0);
    CHECK(!memcmp(ma, mb, 12 * 8));
    free(ma), free(mb);
    /* the step after the failures is the second: momentum continues */
    CHECK(wt_optimizer_step(o, g1, 3) == WT_OK);
    double *m2 = tt_read(ctx, m0);
    CHECK(fabs(m2[0] - 1.9) < 1e-6);   /* 0.9 * 1 + 1 */
    free(m2);
    CHECK(wt_optimizer_set_lr(o, 1, 0.1) == WT_STATUS_INVALID_ARGUMENT);
    CHECK(wt_optimizer_set_lr(o, 0, 0) == WT_STATUS_INVALID_ARGUMENT);
    CHECK(wt_optimizer_get_lr(o, 0) == 0.1);
    wt_clear_error(ctx);
    wt_release(m0);
    wt_optimizer_destroy(o);
    wt_tensor *all[] = { a, b, c, ip, tv, ga, gb, gc, gwrong, gint };
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        wt_release(all[i]);
}

/* ---- schedules ---- */
static void test_schedules(void) {
    wt_lr_schedule c = { .kind = WT_LR_CONSTANT, .base_lr = 0.5 };
    CHECK(wt_lr_at(&c, 0) == 0.5 && wt_lr_at(&c, 1000) == 0.5);
    wt_lr_schedule s = { .kind = WT_LR_STEP, .base_lr = 1, .step_size = 3, .gamma = 0.5 };
    double want_step[8] = { 1, 1, 1, 0.5, 0.5, 0.5, 0.25, 0.25 };
    for (int i = 0; i < 8; i++)
        CHECKF(fabs(wt_lr_at(&s, i) - want_step[i]) < 1e-15, "step lr %d: %g", i, wt_lr_at(&s, i));
    s.gamma = 0;   /* default 0.1 */
    CHECK(fabs(wt_lr_at(&s, 6) - 0.01) < 1e-15);
    wt_lr_schedule w = { .kind = WT_LR_COSINE, .base_lr = 1, .warmup_steps = 4, .total_steps = 24, .min_lr = 0.1 };
    for (int i = 0; i < 4; i++)   /* linear warm-up to the base */
        CHECK(fabs(wt_lr_at(&w, i) - (i + 1) / 4.0) < 1e-15);
    CHECK(fabs(wt_lr_at(&w, 4) - 1) < 1e-15);
    CHECK(fabs(wt_lr_at(&w, 14) - 0.55) < 1e-12);   /* half way: (base + min) / 2 */
    CHECK(fabs(wt_lr_at(&w, 24) - 0.1) < 1e-15 && fabs(wt_lr_at(&w, 99) - 0.1) < 1e-15);
    double prev = 2;
    for (int i = 4; i < 24; i++) {   /* decreasing, matching the closed form */
        double l = wt_lr_at(&w, i), want = 0.1 + 0.9 * (1 + cos(M_PI * (i - 4) / 20.0)) / 2;
        CHECK(l < prev && fabs(l - want) < 1e-12);
        prev = l;
    }
}

/* ---- clip_grad_norm ---- */
static void test_clip(void) {
    wt_stats s0, s1;
    int64_t sh[3][2] = { { 6, 7 }, { 1, 33 }, { 300, 5 } };
    for (int mode = 0; mode < 4; mode++) {   /* 2-norm clipped, 2-norm not clipped, inf, 1.5 */
        double norm_type = mode == 2 ? INFINITY : mode == 3 ? 1.5 : 2;
        double *v[3];
        wt_tensor *g[3];
        double per[3], total = 0;
        for (int i = 0; i < 3; i++) {
            int64_t n = sh[i][0] * sh[i][1];
            v[i] = rand_vec(n, -2, 2);
            g[i] = tt_upload(ctx, WT_F32, 2, sh[i], v[i]);
            per[i] = 0;
            for (int64_t k = 0; k < n; k++)
                per[i] = isinf(norm_type) ? fmax(per[i], fabs(v[i][k])) : per[i] + pow(fabs(v[i][k]), norm_type);
            if (!isinf(norm_type))
                per[i] = pow(per[i], 1 / norm_type);
            total = isinf(norm_type) ? fmax(total, per[i]) : total + pow(per[i], norm_type);
        }
        if (!isinf(norm_type))
            total = pow(total, 1 / norm_type);
        double max_norm = mode == 1 ? total * 2 : total / 3;
        double coef = fmin(max_norm / (total + 1e-6), 1);
        wt_sync(ctx);
        wt_get_stats(ctx, &s0);
        wt_tensor *t = wt_clip_grad_norm(ctx, g, 3, max_norm, norm_type);
        CHECKF(t != NULL, "clip: %s", wt_last_error(ctx));
        wt_get_stats(ctx, &s1);
        CHECK_EQ_INT(s1.flushes, s0.flushes);   /* recorded, nothing submitted or read */
        double got;
        CHECK(wt_item(ctx, t, &got) == WT_OK);
        CHECKF(fabs(got - total) <= 1e-5 * total, "clip norm %g: %.9g want %.9g", norm_type, got, total);
        for (int i = 0; i < 3; i++) {
            int64_t n = sh[i][0] * sh[i][1];
            for (int64_t k = 0; k < n; k++)
                v[i][k] *= coef;
            double *now = tt_read(ctx, g[i]);
            close_to("clipped gradient", now, v[i], n, 1e-6, 1e-5);
            free(now);
            free(v[i]);
            wt_release(g[i]);
        }
        wt_release(t);
    }
    wt_tensor *bad[1] = { wt_zeros(ctx, WT_I32, WT_SHAPE(3)) };
    CHECK(wt_clip_grad_norm(ctx, bad, 1, 1, 2) == NULL && wt_last_status(ctx) == WT_STATUS_DTYPE);
    wt_clear_error(ctx);
    CHECK(wt_clip_grad_norm(ctx, bad, 1, 1, 0) == NULL && wt_last_status(ctx) == WT_STATUS_INVALID_ARGUMENT);
    wt_clear_error(ctx);
    wt_release(bad[0]);
}

/* ---- initialisation ---- */
static void check_stats(const char *what, wt_tensor *t, bool uniform, double sd) {
    CHECKF(t != NULL, "%s: %s", what, wt_last_error(ctx));
    if (!t)
        return;
    int64_t n = wt_numel(t);
    double *v = tt_read(ctx, t), mean = 0, m2 = 0, mx = 0;
    for (int64_t i = 0; i < n; i++) {
        mean += v[i];
        mx = fmax(mx, fabs(v[i]));
    }
    mean /= (double)n;
    for (int64_t i = 0; i < n; i++)
        m2 += (v[i] - mean) * (v[i] - mean);
    double got_sd = sqrt(m2 / (double)(n - 1));
    CHECKF(fabs(mean) < 5 * sd / sqrt((double)n), "%s: mean %g (std %g, %lld elements)", what, mean, sd, (long long)n);
    double tol = 5 / sqrt(2.0 * (double)n) + 0.005;   /* five standard errors of the estimate */
    CHECKF(fabs(got_sd / sd - 1) < tol, "%s: std %g want %g", what, got_sd, sd);
    if (uniform) {
        double bound = sqrt(3.0) * sd;
        CHECKF(mx <= bound * (1 + 1e-6) && mx > (1 - 20.0 / (double)n) * bound, "%s: max |x| %g, bound %g", what, mx,
               bound);
    }
    free(v);
}

static void test_init(void) {
    int64_t fi, fo;
    CHECK(wt_init_fans(ctx, WT_SHAPE(16, 8, 3, 3), &fi, &fo) == WT_OK && fi == 72 && fo == 144);
    CHECK(wt_init_fans(ctx, WT_SHAPE(10), &fi, &fo) == WT_STATUS_SHAPE);
    CHECKF(strstr(wt_last_error(ctx), "[10]"), "%s", wt_last_error(ctx));
    wt_clear_error(ctx);
    CHECK(fabs(wt_init_gain(WT_NL_LEAKY_RELU, 0) - sqrt(2)) < 1e-15);
    CHECK(fabs(wt_init_gain(WT_NL_LEAKY_RELU, sqrt(5)) - sqrt(1 / 3.0)) < 1e-15);
    CHECK(wt_init_gain(WT_NL_TANH, 0) == 5.0 / 3 && wt_init_gain(WT_NL_SELU, 0) == 0.75 &&
          wt_init_gain(WT_NL_LINEAR, 0) == 1 && wt_init_gain(WT_NL_SIGMOID, 0) == 1);
    wt_manual_seed(ctx, 7);
    wt_tensor *t = wt_kaiming_uniform(ctx, WT_F32, WT_SHAPE(256, 128), 0, WT_FAN_IN, WT_NL_LEAKY_RELU);
    check_stats("kaiming_uniform", t, true, sqrt(2.0) / sqrt(128));
    wt_release(t);
    t = wt_kaiming_normal(ctx, WT_F32, WT_SHAPE(64, 32, 3, 3), 0, WT_FAN_OUT, WT_NL_RELU);
    check_stats("kaiming_normal fan_out", t, false, sqrt(2.0) / sqrt(64 * 9));
    wt_release(t);
    t = wt_kaiming_uniform(ctx, WT_F32, WT_SHAPE(200, 150), 0.2, WT_FAN_OUT, WT_NL_LEAKY_RELU);
    check_stats("kaiming_uniform leaky", t, true, sqrt(2 / 1.04) / sqrt(200));
    wt_release(t);
    t = wt_xavier_uniform(ctx, WT_F32, WT_SHAPE(256, 128), wt_init_gain(WT_NL_TANH, 0));
    check_stats("xavier_uniform", t, true, 5.0 / 3 * sqrt(2.0 / 384));
    wt_release(t);
    t = wt_xavier_normal(ctx, WT_F32, WT_SHAPE(100, 300), 0);
    check_stats("xavier_normal", t, false, sqrt(2.0 / 400));
    wt_release(t);
    wt_tensor *w, *b;
    CHECK(wt_init_default(ctx, WT_F32, WT_SHAPE(500, 64), &w, &b) == WT_OK);
    check_stats("linear weight", w, true, 1 / 8.0 / sqrt(3.0));
    CHECK(b && wt_ndim(b) == 1 && wt_shape(b)[0] == 500);
    check_stats("linear bias", b, true, 1 / 8.0 / sqrt(3.0));
    wt_release(w), wt_release(b);
    CHECK(wt_init_default(ctx, WT_F32, WT_SHAPE(96, 4, 5, 5), &w, &b) == WT_OK);   /* conv: fan_in 100 */
    check_stats("conv weight", w, true, 0.1 / sqrt(3.0));
    check_stats("conv bias", b, true, 0.1 / sqrt(3.0));
    wt_release(w), wt_release(b);
    CHECK(wt_init_default(ctx, WT_F32, WT_SHAPE(5), &w, &b) == WT_STATUS_SHAPE && !w && !b);
    wt_clear_error(ctx);
    /* same seed and calls, same numbers */
    double *run[2];
    for (int r = 0; r < 2; r++) {
        wt_manual_seed(ctx, 1234);
        CHECK(wt_init_default(ctx, WT_F32, WT_SHAPE(10, 7), &w, &b) == WT_OK);
        wt_tensor *k = wt_kaiming_normal(ctx, WT_F32, WT_SHAPE(9, 4), 0, WT_FAN_IN, WT_NL_RELU);
        run[r] = malloc((70 + 10 + 36) * sizeof(float));
        CHECK(wt_to_host(ctx, w, run[r], 70 * 4) == WT_OK && wt_to_host(ctx, b, (float *)run[r] + 70, 40) == WT_OK &&
              wt_to_host(ctx, k, (float *)run[r] + 80, 36 * 4) == WT_OK);
        wt_release(w), wt_release(b), wt_release(k);
    }
    CHECK(!memcmp(run[0], run[1], 116 * 4));
    free(run[0]), free(run[1]);
}

/* ---- checkpoints ---- */

/* The gradients of 0.5 |W x + b - y|^2 summed over a fixed batch, computed on the GPU. */
static void model_grads(wt_tensor *W, wt_tensor *b, wt_tensor *x, wt_tensor *y, wt_tensor **gw, wt_tensor **gb) {
    wt_tensor *o = wt_linear(ctx, x, W, b);          /* [B, 4] */
    wt_tensor *r = wt_sub(ctx, o, y);
    wt_tensor *rt = wt_transpose(ctx, r, 0, 1);      /* [4, B] */
    *gw = wt_matmul(ctx, rt, x);                     /* [4, 6] */
    int d0 = 0;
    *gb = wt_sum(ctx, r, 1, &d0, false);
    wt_release(o), wt_release(r), wt_release(rt);
}

static void train(wt_optimizer *o, wt_tensor *W, wt_tensor *b, wt_tensor *x, wt_tensor *y, int steps) {
    for (int s = 0; s < steps; s++) {
        wt_tensor *g[2];
        model_grads(W, b, x, y, &g[0], &g[1]);
        wt_tensor *n = wt_clip_grad_norm(ctx, g, 2, 5.0, 2);
        CHECK(wt_optimizer_step(o, g, 2) == WT_OK);
        wt_release(n), wt_release(g[0]), wt_release(g[1]);
    }
}

static wt_optimizer *make_opt(wt_optimizer_kind kind, wt_tensor *W, wt_tensor *b) {
    wt_tensor *ps[2] = { W, b };
    wt_param_group g[2] = { { ps, 1, { .lr = 0.05, .amsgrad = kind != WT_OPTIM_SGD, .weight_decay = 0.01,
                                       .momentum = kind == WT_OPTIM_SGD ? 0.9 : 0 } },
                            { ps + 1, 1, { .lr = 0.02 } } };
    return wt_optimizer_create(ctx, &(wt_optimizer_desc){ .kind = kind, .groups = g, .group_count = 2 });
}

static void test_checkpoint(void) {
    char path[256];
    snprintf(path, sizeof path, "/tmp/wgc-test-optim-%d.safetensors", (int)getpid());
    wt_manual_seed(ctx, 99);
    wt_tensor *x = wt_randn(ctx, WT_F32, WT_SHAPE(16, 6)), *y = wt_randn(ctx, WT_F32, WT_SHAPE(16, 4));
    wt_tensor *W, *b;
    CHECK(wt_init_default(ctx, WT_F32, WT_SHAPE(4, 6), &W, &b) == WT_OK);
    wt_optimizer *o = make_opt(WT_OPTIM_ADAMW, W, b);
    CHECK(o != NULL);
    train(o, W, b, x, y, 3);
    wt_named_tensor named[2] = { { "fc.weight", W }, { "fc.bias", b } };
    CHECKF(wt_checkpoint_save(ctx, path, named, 2, o) == WT_OK, "save: %s", wt_last_error(ctx));
    train(o, W, b, x, y, 4);
    float w_a[24], b_a[4], m_a[24];
    CHECK(wt_to_host(ctx, W, w_a, sizeof w_a) == WT_OK && wt_to_host(ctx, b, b_a, sizeof b_a) == WT_OK);
    wt_tensor *ma = wt_optimizer_state(o, 0, "max_exp_avg_sq");
    CHECK(ma && wt_to_host(ctx, ma, m_a, sizeof m_a) == WT_OK);
    wt_release(ma);

    /* the file: wl's reader opens it, with the names, shapes and metadata */
    size_t len;
    char *file = test_read_file(path, &len);
    CHECK(file != NULL);
    wl_error err;
    wl_model *m = file ? wl_safetensors_open_memory(file, len, NULL, &err) : NULL;
    CHECKF(m != NULL, "wl: %s", m ? "" : err.message);
    if (m) {
        CHECK_EQ_INT(wl_model_tensor_count(m), 2 + 3 + 2);   /* + the weight's 3 state rows (amsgrad), the bias's 2 */
        const wl_tensor_info *ti = wl_model_tensor_find(m, "fc.weight");
        CHECK(ti && ti->n_dims == 2 && ti->ne[0] == 6 && ti->ne[1] == 4 && ti->dtype == WL_DTYPE_F32);
        CHECK(wl_model_tensor_find(m, "fc.bias.exp_avg") && wl_model_tensor_find(m, "fc.weight.max_exp_avg_sq"));
        const char *s;
        size_t sl;
        CHECK(wl_model_get_str(m, "wt.optimizer", &s, &sl) == WL_STATUS_OK && sl == 5 && !memcmp(s, "adamw", 5));
        CHECK(wl_model_get_str(m, "wt.steps", &s, &sl) == WL_STATUS_OK && sl == 1 && s[0] == '3');
        wl_model_close(m);
    }
    free(file);

    /* a fresh model and optimizer loaded from the file continue bit for bit */
    wt_tensor *W2 = wt_zeros(ctx, WT_F32, WT_SHAPE(4, 6)), *b2 = wt_zeros(ctx, WT_F32, WT_SHAPE(4));
    wt_optimizer *o2 = make_opt(WT_OPTIM_ADAMW, W2, b2);
    wt_named_tensor named2[2] = { { "fc.weight", W2 }, { "fc.bias", b2 } };
    CHECKF(wt_checkpoint_load(ctx, path, named2, 2, o2) == WT_OK, "load: %s", wt_last_error(ctx));
    CHECK_EQ_INT(wt_optimizer_steps(o2), 3);
    train(o2, W2, b2, x, y, 4);
    float w_b[24], b_b[4], m_b[24];
    CHECK(wt_to_host(ctx, W2, w_b, sizeof w_b) == WT_OK && wt_to_host(ctx, b2, b_b, sizeof b_b) == WT_OK);
    wt_tensor *mb = wt_optimizer_state(o2, 0, "max_exp_avg_sq");
    CHECK(mb && wt_to_host(ctx, mb, m_b, sizeof m_b) == WT_OK);
    wt_release(mb);
    CHECK(!memcmp(w_a, w_b, sizeof w_a) && !memcmp(b_a, b_b, sizeof b_a) && !memcmp(m_a, m_b, sizeof m_a));
    CHECK_EQ_INT(wt_optimizer_steps(o2), 7);

    /* mismatches: refused with the tensor named, nothing changed */
    float w_before[24];
    CHECK(wt_to_host(ctx, W2, w_before, sizeof w_before) == WT_OK);
    wt_tensor *bbig = wt_zeros(ctx, WT_F32, WT_SHAPE(5)), *bint = wt_zeros(ctx, WT_I32, WT_SHAPE(4));
    wt_tensor *extra = wt_zeros(ctx, WT_F32, WT_SHAPE(2));
    wt_optimizer *osgd = make_opt(WT_OPTIM_SGD, W2, b2);
    struct { const char *what; wt_named_tensor t[3]; int n; wt_optimizer *o; const char *msg; } bad[] = {
        { "shape", { { "fc.weight", W2 }, { "fc.bias", bbig } }, 2, NULL, "'fc.bias' has shape [4], the model's [5]" },
        { "dtype", { { "fc.weight", W2 }, { "fc.bias", bint } }, 2, NULL, "'fc.bias' is F32 [4], the model's I32 [4]" },
        { "missing", { { "fc.weight", W2 }, { "fc.bias", b2 }, { "head.bias", extra } }, 3, NULL, "'head.bias' is missing" },
        { "unexpected", { { "fc.weight", W2 } }, 1, NULL, "'fc.bias' is not part of the model" },
        { "renamed", { { "fc.w", W2 }, { "fc.bias", b2 } }, 2, NULL, "'fc.weight' is not part of the model" },
        { "optimizer kind", { { "fc.weight", W2 }, { "fc.bias", b2 } }, 2, osgd, "optimizer 'adamw' in the file, 'sgd' given" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        wt_clear_error(ctx);
        CHECKF(wt_checkpoint_load(ctx, path, bad[i].t, bad[i].n, bad[i].o) != WT_OK, "%s accepted", bad[i].what);
        CHECKF(strstr(wt_last_error(ctx), bad[i].msg), "%s: %s", bad[i].what, wt_last_error(ctx));
    }
    wt_clear_error(ctx);
    float w_after[24];
    CHECK(wt_to_host(ctx, W2, w_after, sizeof w_after) == WT_OK && !memcmp(w_before, w_after, sizeof w_after));
    CHECK_EQ_INT(wt_optimizer_steps(o2), 7);
    /* the model alone loads from a training checkpoint (the optimizer's entries skipped) */
    CHECKF(wt_checkpoint_load(ctx, path, named2, 2, NULL) == WT_OK, "model only: %s", wt_last_error(ctx));
    CHECK(wt_to_host(ctx, W2, w_after, sizeof w_after) == WT_OK && memcmp(w_before, w_after, sizeof w_after));
    /* a corrupt file */
    FILE *f = fopen(path, "r+b");
    if (f) {
        fputc(0xff, f);   /* the header length: past the end */
        fputc(0xff, f);
        fputc(0xff, f);
        fclose(f);
    }
    CHECK(wt_checkpoint_load(ctx, path, named2, 2, NULL) == WT_STATUS_IO);
    wt_clear_error(ctx);
    CHECK(wt_checkpoint_load(ctx, "/nonexistent/x.safetensors", named2, 2, NULL) == WT_STATUS_IO);
    wt_clear_error(ctx);
    remove(path);
    /* an SGD checkpoint before its first step: no state in the file, none after loading */
    CHECK(wt_checkpoint_save(ctx, path, named2, 2, osgd) == WT_OK);
    CHECK(wt_checkpoint_load(ctx, path, named2, 2, osgd) == WT_OK);
    CHECK(wt_optimizer_state(osgd, 0, "momentum_buffer") == NULL);
    remove(path);
    wt_optimizer_destroy(osgd);
    wt_optimizer_destroy(o);
    wt_optimizer_destroy(o2);
    wt_tensor *all[] = { x, y, W, b, W2, b2, bbig, bint, extra };
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        wt_release(all[i]);
}

/* ---- copy_into ---- */
static void test_copy_into(void) {
    double v[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
    wt_tensor *d = wt_zeros(ctx, WT_F32, WT_SHAPE(3, 4));
    wt_tensor *s = tt_make(ctx, WT_F32, WT_SHAPE(3, 4), v, TT_STRIDED);
    wt_tensor *before = wt_clone(ctx, d);   /* recorded before the copy: keeps zeros */
    CHECK(wt_copy_into(ctx, d, s) == WT_OK);
    double *got = tt_read(ctx, d), *old = tt_read(ctx, before);
    CHECK(!memcmp(got, v, sizeof v) && old[5] == 0);
    free(got), free(old);
    wt_tensor *i32 = wt_zeros(ctx, WT_I32, WT_SHAPE(3, 4));
    CHECK(wt_copy_into(ctx, i32, s) == WT_STATUS_SHAPE);
    wt_clear_error(ctx);
    wt_tensor *r = wt_flip(ctx, d, 1, (int[]){ 1 });   /* a view of the same storage: copied first */
    wt_tensor *rc = wt_contiguous(ctx, r);
    CHECK(wt_copy_into(ctx, d, rc) == WT_OK);
    got = tt_read(ctx, d);
    CHECK(got[0] == 4 && got[3] == 1 && got[11] == 9);
    free(got);
    wt_release(d), wt_release(s), wt_release(before), wt_release(i32), wt_release(r), wt_release(rc);
}

/* ---- digits ---- */
static void test_digits(void) {
    wt_digits d;
    wt_status st = wt_digits_load(ctx, NULL, &d);
    CHECKF(st == WT_OK, "digits: %s (scripts/deps.sh installs python3-sklearn)", wt_last_error(ctx));
    if (st != WT_OK)
        return;
    CHECK_EQ_INT(d.count, 1797);
    int per[10] = { 0 }, lo = 99, hi = -1;
    float pmin = 99, pmax = -1;
    for (int64_t i = 0; i < d.count; i++) {
        CHECK(d.labels[i] >= 0 && d.labels[i] <= 9);
        if (d.labels[i] >= 0 && d.labels[i] <= 9)
            per[d.labels[i]]++;
        lo = d.labels[i] < lo ? d.labels[i] : lo;
        hi = d.labels[i] > hi ? d.labels[i] : hi;
        for (int k = 0; k < 64; k++) {
            pmin = fminf(pmin, d.pixels[i * 64 + k]);
            pmax = fmaxf(pmax, d.pixels[i * 64 + k]);
        }
    }
    CHECK(lo == 0 && hi == 9 && pmin == 0 && pmax == 16);
    for (int c = 0; c < 10; c++)   /* sklearn's digits: 174 to 183 images per class */
        CHECKF(per[c] >= 170 && per[c] <= 185, "class %d: %d images", c, per[c]);
    CHECK(d.labels[0] == 0 && d.pixels[2] == 5 && d.pixels[3] == 13);   /* the first row, as the file */
    CHECK_EQ_INT(d.train_count, 1498);   /* rows 5, 11, ..., 1793 held out */
    int ptrain[10] = { 0 };
    for (int64_t i = 0; i < d.train_count; i++)
        ptrain[d.labels[i]]++;
    for (int c = 0; c < 10; c++)         /* every class on both sides */
        CHECKF(ptrain[c] > 130 && per[c] - ptrain[c] > 20, "class %d: %d train, %d test", c, ptrain[c], per[c] - ptrain[c]);
    /* the same file uncompressed (written from what was read) gives the same rows */
    char path[256];
    snprintf(path, sizeof path, "/tmp/wgc-test-digits-%d.csv", (int)getpid());
    FILE *f = fopen(path, "w");
    for (int64_t i = 0, a = 0, b = d.train_count; f && i < d.count; i++) {   /* back in file order */
        int64_t r = i % 6 == 5 ? b++ : a++;
        for (int k = 0; k < 64; k++)
            fprintf(f, "%d.0,", (int)d.pixels[r * 64 + k]);
        fprintf(f, "%d\r\n", d.labels[r]);
    }
    if (f)
        fclose(f);
    wt_digits e;
    CHECK(wt_digits_load(ctx, path, &e) == WT_OK && e.count == d.count && !memcmp(e.pixels, d.pixels, 1797 * 64 * 4) &&
          !memcmp(e.labels, d.labels, 1797 * 4));
    wt_digits_free(ctx, &e);
    /* bad files: an error, never a crash */
    f = fopen(path, "w");
    if (f) {
        fprintf(f, "0,1,2\n");
        fclose(f);
    }
    CHECK(wt_digits_load(ctx, path, &e) == WT_STATUS_IO && strstr(wt_last_error(ctx), "row 1, column 3"));
    wt_clear_error(ctx);
    f = fopen(path, "w");   /* rows ended by a lone '\r': refused, never written past the rows counted */
    for (int r = 0; f && r < 3; r++) {
        for (int k = 0; k < 64; k++)
            fprintf(f, "%d,", k % 17);
        fprintf(f, "%d\r", r);
    }
    if (f)
        fclose(f);
    CHECKF(wt_digits_load(ctx, path, &e) == WT_STATUS_IO, "%s", wt_last_error(ctx));
    wt_clear_error(ctx);
    size_t gl;
    char *gz = test_read_file("/usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz", &gl);
    CHECK(gz != NULL);
    for (int k = 0; gz && k < 40; k++) {   /* a flipped byte or a cut anywhere in the stream */
        size_t at = 10 + (size_t)(tt_rand(&seed, 0, 1) * (double)(gl - 10));
        f = fopen(path, "wb");
        if (!f)
            break;
        gz[at] ^= (char)(1 << (k % 8));
        fwrite(gz, 1, k % 2 ? gl : at, f);
        gz[at] ^= (char)(1 << (k % 8));
        fclose(f);
        st = wt_digits_load(ctx, path, &e);
        CHECKF(st == WT_STATUS_IO, "corrupt gzip %d at %zu: %s", k, at, wt_status_name(st));
        if (st == WT_OK)
            wt_digits_free(ctx, &e);
        wt_clear_error(ctx);
    }
    free(gz);
    remove(path);
    CHECK(wt_digits_load(ctx, "/nonexistent/digits.csv.gz", &e) == WT_STATUS_IO);
    wt_clear_error(ctx);
    wt_digits_free(ctx, &d);
}

/* ---- with autograd: steps from each parameter's .grad ---- */
static void test_autograd(void) {
    wt_manual_seed(ctx, 3);
    wt_tensor *x = wt_randn(ctx, WT_F32, WT_SHAPE(8, 5));
    double tv[8] = { 0, 1, 2, 1, 0, 2, 2, 1 };
    wt_tensor *t = tt_upload(ctx, WT_I32, WT_SHAPE(8), tv);
    wt_tensor *W, *b;
    CHECK(wt_init_default(ctx, WT_F32, WT_SHAPE(3, 5), &W, &b) == WT_OK);
    wt_tensor *unused = wt_ones(ctx, WT_F32, WT_SHAPE(4));
    wt_tensor *W2 = wt_clone(ctx, W), *b2 = wt_clone(ctx, b);   /* the same model, stepped explicitly */
    CHECK(wt_set_requires_grad(ctx, W, true) == WT_OK && wt_set_requires_grad(ctx, b, true) == WT_OK &&
          wt_set_requires_grad(ctx, unused, true) == WT_OK);
    wt_tensor *pa[3] = { W, b, unused }, *pb[2] = { W2, b2 };
    wt_param_group ga = { pa, 3, { .lr = 0.05, .amsgrad = true } }, gb = { pb, 2, { .lr = 0.05, .amsgrad = true } };
    wt_optimizer *A = wt_optimizer_create(ctx, &(wt_optimizer_desc){ .kind = WT_OPTIM_ADAM, .groups = &ga, .group_count = 1 });
    wt_optimizer *B = wt_optimizer_create(ctx, &(wt_optimizer_desc){ .kind = WT_OPTIM_ADAM, .groups = &gb, .group_count = 1 });
    CHECK(A && B);
    for (int s = 0; s < 3 && A && B; s++) {
        wt_tensor *y = wt_linear(ctx, x, W, b);
        wt_tensor *loss = wt_cross_entropy(ctx, y, t, NULL);
        CHECKF(wt_backward(ctx, loss, NULL, NULL) == WT_OK, "%s", wt_last_error(ctx));
        wt_tensor *g[2] = { wt_grad(ctx, W), wt_grad(ctx, b) };
        CHECK(g[0] && g[1] && wt_grad(ctx, unused) == NULL);
        wt_tensor *c[2] = { wt_clone(ctx, g[0]), wt_clone(ctx, g[1]) };
        wt_tensor *n1 = wt_optimizer_clip_grad_norm(A, 0.5, 2), *n2 = wt_clip_grad_norm(ctx, c, 2, 0.5, 2);
        CHECK(wt_optimizer_step_grads(A) == WT_OK && wt_optimizer_step(B, c, 2) == WT_OK);
        double v1, v2;
        CHECK(wt_item(ctx, n1, &v1) == WT_OK && wt_item(ctx, n2, &v2) == WT_OK && v1 == v2 && v1 > 0);
        float wa[15], wb[15], ba[3], bb[3];
        CHECK(wt_to_host(ctx, W, wa, sizeof wa) == WT_OK && wt_to_host(ctx, W2, wb, sizeof wb) == WT_OK &&
              wt_to_host(ctx, b, ba, sizeof ba) == WT_OK && wt_to_host(ctx, b2, bb, sizeof bb) == WT_OK);
        CHECKF(!memcmp(wa, wb, sizeof wa) && !memcmp(ba, bb, sizeof ba), "step %d: .grad step differs", s);
        wt_optimizer_zero_grad(A);
        CHECK(wt_grad(ctx, W) == NULL && wt_grad(ctx, b) == NULL);
        wt_tensor *all[] = { y, loss, g[0], g[1], c[0], c[1], n1, n2 };
        for (size_t i = 0; i < sizeof all / sizeof *all; i++)
            wt_release(all[i]);
    }
    /* the parameter without a gradient was left out: values, state and count */
    double *u = tt_read(ctx, unused);
    CHECK(u[0] == 1 && u[3] == 1);
    free(u);
    wt_tensor *m0 = wt_optimizer_state(A, 0, "exp_avg");
    CHECK(wt_optimizer_state(A, 2, "exp_avg") == NULL && m0 != NULL);
    wt_release(m0);
    CHECK(wt_optimizer_clip_grad_norm(A, 1, 2) == NULL && wt_last_status(ctx) == WT_STATUS_INVALID_ARGUMENT);
    wt_clear_error(ctx);
    /* a result of an op is not a parameter */
    wt_tensor *y = wt_mul_scalar(ctx, W, 2);
    wt_param_group gy = { &y, 1, { .lr = 0.1 } };
    CHECK(wt_optimizer_create(ctx, &(wt_optimizer_desc){ .groups = &gy, .group_count = 1 }) == NULL);
    CHECKF(strstr(wt_last_error(ctx), "not a leaf (a result of wt_mul_scalar)"), "%s", wt_last_error(ctx));
    wt_clear_error(ctx);
    wt_release(y);
    wt_optimizer_destroy(A);
    wt_optimizer_destroy(B);
    wt_tensor *all[] = { x, t, W, b, unused, W2, b2 };
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        wt_release(all[i]);
    CHECK_EQ_INT(wt_grad_node_count(ctx), 0);
}

/* ---- host allocation failures ---- */

/* Adam with amsgrad: create, two steps (the first makes the state), a checkpoint saved and loaded,
 * the digits loaded; true when everything succeeded.  Releases all it made on every path. */
static bool fault_workload(const char *path) {
    double v[6] = { 1, -2, 3, 0.5, 0.25, -1 };
    wt_tensor *w = tt_upload(ctx, WT_F32, WT_SHAPE(2, 3), v), *b = tt_upload(ctx, WT_F32, WT_SHAPE(3), v);
    wt_tensor *gw = tt_upload(ctx, WT_F32, WT_SHAPE(2, 3), v), *gb = tt_upload(ctx, WT_F32, WT_SHAPE(3), v);
    wt_tensor *ps[2] = { w, b }, *gs[2] = { gw, gb };
    wt_param_group g = { ps, 2, { .lr = 0.1, .amsgrad = true } };
    wt_optimizer *o = wt_optimizer_create(ctx, &(wt_optimizer_desc){ .kind = WT_OPTIM_ADAM, .groups = &g,
                                                                    .group_count = 1 });
    bool ok = o && wt_optimizer_step(o, gs, 2) == WT_OK && wt_optimizer_step(o, gs, 2) == WT_OK;
    wt_named_tensor named[2] = { { "w", w }, { "b", b } };
    ok = ok && wt_checkpoint_save(ctx, path, named, 2, o) == WT_OK && wt_checkpoint_load(ctx, path, named, 2, o) == WT_OK;
    wt_tensor *t = wt_clip_grad_norm(ctx, gs, 2, 0.5, 2);
    ok = ok && t;
    wt_release(t);
    wt_digits d;
    if (ok && (ok = wt_digits_load(ctx, NULL, &d) == WT_OK))
        wt_digits_free(ctx, &d);
    float bv[3];
    ok = ok && wt_to_host(ctx, b, bv, sizeof bv) == WT_OK;
    wt_optimizer_destroy(o);
    wt_release(w), wt_release(b), wt_release(gw), wt_release(gb);
    return ok;
}

/* Each host allocation of the workload fails in turn: an error or success, never a crash; the
 * context's allocations all come back at the end (tt_end checks). */
static void test_host_faults(tt_fixture *fx) {
    char path[256];
    snprintf(path, sizeof path, "/tmp/wgc-test-optim-faults-%d.safetensors", (int)getpid());
    CHECK(fault_workload(path));   /* kernels built, pools warm: the faults hit the training code */
    wt_clear_error(ctx);
    int runs = 0, errors = 0;
    for (long k = 1; k < 2000; k++, runs++) {
        fx->ta.fail_at = fx->ta.total + k;
        fx->ta.failed = 0;
        bool ok = fault_workload(path);
        bool failed = fx->ta.failed;
        fx->ta.fail_at = 0;
        if (!ok) {
            errors++;
            CHECKF(wt_last_status(ctx) != WT_OK, "allocation %ld: a failure without an error", k);
        }
        wt_clear_error(ctx);
        if (!failed) {
            CHECKF(ok, "allocation %ld: no fault, yet failed", k);
            break;
        }
    }
    printf("host faults: %d runs, %d reported an error, then a clean one\n", runs, errors);
    CHECK(runs > 10 && errors > 0);
    remove(path);
}

/* WGC_OPTIM_BENCH=1: time AdamW steps over GPT-2 small's parameters (124M, 148 tensors) and
 * print the time per step and the bytes it moves (read p, g, m, v; write p, m, v: 28 per
 * parameter).  For measurements on a real GPU (doc/train.md); not a check. */
static void bench_adamw(void) {
    int64_t shapes[160][2];
    int n = 0;
    shapes[n][0] = 50257, shapes[n++][1] = 768;   /* wte */
    shapes[n][0] = 1024, shapes[n++][1] = 768;    /* wpe */
    for (int l = 0; l < 12; l++) {
        int64_t blk[12][2] = { { 1, 768 }, { 1, 768 }, { 2304, 768 }, { 1, 2304 }, { 768, 768 }, { 1, 768 },
                               { 1, 768 }, { 1, 768 }, { 3072, 768 }, { 1, 3072 }, { 768, 3072 }, { 1, 768 } };
        for (int k = 0; k < 12; k++)
            shapes[n][0] = blk[k][0], shapes[n++][1] = blk[k][1];
    }
    shapes[n][0] = 1, shapes[n++][1] = 768;
    shapes[n][0] = 1, shapes[n++][1] = 768;
    wt_tensor *p[160], *g[160];
    int64_t total = 0;
    for (int i = 0; i < n; i++) {
        p[i] = wt_randn(ctx, WT_F32, 2, shapes[i]);
        g[i] = wt_randn(ctx, WT_F32, 2, shapes[i]);
        total += shapes[i][0] * shapes[i][1];
    }
    wt_param_group grp = { p, n, { .lr = 1e-4, .weight_decay = 0.1 } };
    wt_optimizer *o = wt_optimizer_create(ctx, &(wt_optimizer_desc){ .kind = WT_OPTIM_ADAMW, .groups = &grp,
                                                                    .group_count = 1 });
    CHECKF(o != NULL, "%s", wt_last_error(ctx));
    for (int w = 0; o && w < 3; w++)
        CHECK(wt_optimizer_step(o, g, n) == WT_OK);
    CHECK(wt_sync(ctx) == WT_OK);
    int reps = o ? 20 : 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int r = 0; r < reps; r++)
        CHECK(wt_optimizer_step(o, g, n) == WT_OK);
    CHECK(wt_sync(ctx) == WT_OK);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double sec = ((double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec)) / reps;
    if (o)
        printf("adamw: %d tensors, %lld parameters: %.3f ms per step, %.0f GB/s (28 bytes per parameter)\n", n,
               (long long)total, 1e3 * sec, 28.0 * (double)total / sec / 1e9);
    wt_optimizer_destroy(o);
    for (int i = 0; i < n; i++)
        wt_release(p[i]), wt_release(g[i]);
}

/* test_gzip.sh: each gzip file loads to the rows of the uncompressed reference */
static void test_gzip_files(const char *ref, char **files, int n) {
    wt_digits r, d;
    wt_status st = wt_digits_load(ctx, ref, &r);
    CHECKF(st == WT_OK && r.count > 0, "%s: %s", ref, wt_last_error(ctx));
    if (st != WT_OK)
        return;
    for (int i = 0; i < n; i++) {
        st = wt_digits_load(ctx, files[i], &d);
        CHECKF(st == WT_OK, "%s: %s", files[i], wt_last_error(ctx));
        if (st != WT_OK)
            continue;
        CHECKF(d.count == r.count && !memcmp(d.pixels, r.pixels, (size_t)r.count * 64 * 4) &&
               !memcmp(d.labels, r.labels, (size_t)r.count * 4), "%s differs from %s", files[i], ref);
        printf("%s: %lld rows\n", files[i], (long long)d.count);
        wt_digits_free(ctx, &d);
    }
    wt_digits_free(ctx, &r);
}

int main(int argc, char **argv) {
    tt_fixture f;
    ctx = tt_init(&f, &(wt_context_desc){ .policy = { .max_batch_ops = 65536 } });
    const char *bench = getenv("WGC_OPTIM_BENCH");
    if (bench && !strcmp(bench, "1")) {
        bench_adamw();
        tt_end(&f);
        return test_end();
    }
    if (argc > 2 && !strcmp(argv[1], "--gzip")) {   /* tests/tensor/test_gzip.sh */
        test_gzip_files(argv[2], argv + 3, argc - 3);
        tt_end(&f);
        return test_end();
    }
    test_optimizers();
    test_optimizer_errors();
    test_schedules();
    test_clip();
    test_init();
    test_copy_into();
    test_checkpoint();
    test_autograd();
    test_digits();
    test_host_faults(&f);
    CHECKF(wt_last_status(ctx) == WT_OK, "%s", wt_last_error(ctx));
    tt_end(&f);
    return test_end();
}
