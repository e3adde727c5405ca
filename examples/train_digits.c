/* train_digits.c - train a small network on scikit-learn's digits with wt: data loading, model,
 * training loop, evaluation, checkpoint.
 *
 *   cc train_digits.c $(pkg-config --cflags --libs wgc) -lm -o train_digits
 *   ./train_digits [--model mlp|cnn] [--epochs N] [--checkpoint FILE] [--data digits.csv.gz] [--amp]
 *
 * The data set is Debian's copy in python3-sklearn (wt_digits_load's default path): 1,797 8x8
 * images, 1,498 for training and 299 held out (every sixth row of the file), each pixel
 * standardised by the training rows' statistics.  Two models, with PyTorch's default
 * initialisation: the MLP 64 -> 256 -> ReLU -> dropout 0.2 -> 10, and the CNN conv(1->16, 3x3,
 * pad 1)-ReLU-max pool 2 -> conv(16->32, 3x3, pad 1)-ReLU-max pool 2 -> dropout 0.2 -> linear(128
 * -> 10).  Both
 * train 30 epochs with AdamW (weight decay on the weights only: a parameter group each) on
 * mini-batches of 25, a quarter of the images moved by a pixel, under a cosine schedule with one
 * epoch of warm-up; the loss is cross-entropy.  Autograd gives the gradients (wt_backward into
 * each parameter's .grad, read by wt_optimizer_step_grads); forward, backward and update all stay
 * on the GPU and lazy: a step is recorded, and only the per-epoch figures are read back.  At the
 * end the model and the optimizer go to a safetensors checkpoint, which is loaded into a fresh
 * model to check that it scores the same.
 * With --amp (mixed precision, as torch.autocast(float16) + GradScaler) the forward passes run
 * under autocast (f16 products on f32 master weights), the logits are cast to f32 for the loss,
 * and a GradScaler scales the loss, unscales the gradients and skips steps that overflowed.
 * Prints one line per epoch and "train_digits: ok" when the held-out accuracy reaches 97%.
 * `wgc demo train` runs this same code (train_digits.h). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L   /* clock_gettime */
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <wgc/tensor.h>

#include "train_digits.h"

#define HIDDEN 256
#define BATCH 25
#define DROPOUT 0.2             /* of the hidden units, in training */
#define SHIFTED_EIGHTHS 2       /* of every 8 training images, about this many move by a pixel */

#define NPARAM 6

typedef struct model {
    train_digits_model kind;
    bool amp;                       /* forward under autocast, f32 logits */
    int n;                          /* parameters: weight, bias pairs */
    wt_tensor *p[NPARAM];           /* w1, b1, w2, b2 (, w3, b3) */
} model;

static const char *const param_names[NPARAM] = { "l1.weight", "l1.bias", "l2.weight", "l2.bias", "l3.weight",
                                                 "l3.bias" };

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* the parameters' shapes: MLP [256, 64] [256] [10, 256] [10]; CNN [16, 1, 3, 3] [16] [32, 16, 3, 3] [32]
 * [10, 128] [10] */
static wt_status model_init(wt_context *ctx, train_digits_model kind, model *m) {
    memset(m, 0, sizeof *m);
    m->kind = kind;
    wt_status st;
    if (kind == TRAIN_DIGITS_MLP) {
        m->n = 4;
        if ((st = wt_init_default(ctx, WT_F32, WT_SHAPE(HIDDEN, 64), &m->p[0], &m->p[1])) != WT_OK)
            return st;
        return wt_init_default(ctx, WT_F32, WT_SHAPE(10, HIDDEN), &m->p[2], &m->p[3]);
    }
    m->n = 6;
    if ((st = wt_init_default(ctx, WT_F32, WT_SHAPE(16, 1, 3, 3), &m->p[0], &m->p[1])) != WT_OK ||
        (st = wt_init_default(ctx, WT_F32, WT_SHAPE(32, 16, 3, 3), &m->p[2], &m->p[3])) != WT_OK)
        return st;
    return wt_init_default(ctx, WT_F32, WT_SHAPE(10, 128), &m->p[4], &m->p[5]);
}

/* a model of the same kind whose parameters are zeros (to load a checkpoint into) */
static void model_zeros(wt_context *ctx, const model *like, model *m) {
    memset(m, 0, sizeof *m);
    m->kind = like->kind;
    m->amp = like->amp;
    m->n = like->n;
    for (int i = 0; i < m->n; i++)
        m->p[i] = wt_zeros(ctx, WT_F32, wt_ndim(like->p[i]), wt_shape(like->p[i]));
}

static void model_release(model *m) {
    for (int i = 0; i < m->n; i++)
        wt_release(m->p[i]);
}

/* dropout on h in training: a random mask of kept units, scaled by 1 / (1 - DROPOUT) */
static wt_tensor *dropout(wt_context *ctx, wt_tensor *h) {
    wt_tensor *u = wt_rand(ctx, WT_F32, wt_ndim(h), wt_shape(h));
    wt_tensor *keep = wt_ge_scalar(ctx, u, DROPOUT);
    wt_tensor *kf = wt_cast(ctx, keep, WT_F32);
    wt_tensor *mask = wt_mul_scalar(ctx, kf, 1 / (1 - DROPOUT));
    wt_tensor *hd = wt_mul(ctx, h, mask);
    wt_release(u), wt_release(keep), wt_release(kf), wt_release(mask), wt_release(h);
    return hd;
}

/* conv 3x3 pad 1, ReLU, max pool 2 */
static wt_tensor *conv_block(wt_context *ctx, wt_tensor *x, wt_tensor *w, wt_tensor *b) {
    wt_tensor *c = wt_conv2d(ctx, x, w, b, &(wt_conv2d_desc){ .padding = { 1, 1 } });
    wt_tensor *r = wt_relu(ctx, c);
    wt_tensor *p = wt_max_pool2d(ctx, r, &(wt_pool2d_desc){ .kernel = { 2, 2 } }, NULL);
    wt_release(c), wt_release(r);
    return p;
}

static wt_tensor *forward_ops(wt_context *ctx, const model *m, wt_tensor *x, bool train);

/* f32 logits of x [B, 64].  Every op is recorded for autograd while grad mode is on.  With amp
 * the model runs under autocast (its products in f16) and the logits are cast back to f32: the
 * loss wants f32, as torch's autocast gives it. */
static wt_tensor *forward(wt_context *ctx, const model *m, wt_tensor *x, bool train) {
    if (!m->amp)
        return forward_ops(ctx, m, x, train);
    wt_dtype was = wt_set_autocast(ctx, WT_F16);
    wt_tensor *h = forward_ops(ctx, m, x, train);
    wt_set_autocast(ctx, was);
    wt_tensor *logits = wt_cast(ctx, h, WT_F32);
    wt_release(h);
    return logits;
}

static wt_tensor *forward_ops(wt_context *ctx, const model *m, wt_tensor *x, bool train) {
    if (m->kind == TRAIN_DIGITS_MLP) {
        wt_tensor *z = wt_linear(ctx, x, m->p[0], m->p[1]);
        wt_tensor *h = wt_relu(ctx, z);
        wt_release(z);
        if (train)
            h = dropout(ctx, h);
        wt_tensor *logits = wt_linear(ctx, h, m->p[2], m->p[3]);
        wt_release(h);
        return logits;
    }
    wt_tensor *img = wt_reshape(ctx, x, WT_SHAPE(-1, 1, 8, 8));
    wt_tensor *h1 = conv_block(ctx, img, m->p[0], m->p[1]);     /* [B, 16, 4, 4] */
    wt_tensor *h2 = conv_block(ctx, h1, m->p[2], m->p[3]);      /* [B, 32, 2, 2] */
    wt_tensor *f = wt_reshape(ctx, h2, WT_SHAPE(-1, 128));
    if (train)
        f = dropout(ctx, f);
    wt_tensor *logits = wt_linear(ctx, f, m->p[4], m->p[5]);
    wt_release(img), wt_release(h1), wt_release(h2), wt_release(f);
    return logits;
}

/* Correct predictions of the model on x [N, 64] against y [N], as a lazy 0-d tensor. */
static wt_tensor *correct(wt_context *ctx, const model *m, wt_tensor *x, wt_tensor *y) {
    bool was = wt_set_grad_enabled(ctx, false);   /* evaluation: nothing recorded for backward */
    wt_tensor *logits = forward(ctx, m, x, false);
    int d1 = 1;
    wt_tensor *pred = wt_argmax(ctx, logits, 1, &d1, false);
    wt_tensor *hit = wt_eq(ctx, pred, y);
    wt_tensor *hf = wt_cast(ctx, hit, WT_F32);
    wt_tensor *n = wt_sum(ctx, hf, 0, NULL, false);
    wt_release(logits), wt_release(pred), wt_release(hit), wt_release(hf);
    wt_set_grad_enabled(ctx, was);
    return n;
}

static double accuracy(wt_context *ctx, const model *m, wt_tensor *x, wt_tensor *y) {
    wt_tensor *n = correct(ctx, m, x, y);
    double v = -1;
    if (!n || wt_item(ctx, n, &v) != WT_OK)
        v = -1;
    wt_release(n);
    return v / (double)wt_size(x, 0);
}

typedef struct run {                /* what train_digits holds, released in one place */
    float *raw;
    int32_t *labels, *order;
    wt_tensor *xtr, *ytr, *xte, *yte;
    model m, m2;
    wt_optimizer *opt;
    wt_grad_scaler *scaler;         /* amp */
} run;

static void run_free(run *r) {
    free(r->raw), free(r->labels), free(r->order);
    wt_optimizer_destroy(r->opt);
    wt_grad_scaler_destroy(r->scaler);
    model_release(&r->m);
    model_release(&r->m2);
    wt_release(r->xtr), wt_release(r->ytr), wt_release(r->xte), wt_release(r->yte);
}

static int fail(wt_context *ctx, run *r, char *err, size_t err_size, const char *what) {
    snprintf(err, err_size, "%s: %s", what, wt_last_error(ctx));
    run_free(r);
    return 1;
}

static uint64_t xorshift(uint64_t *s) {
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

int train_digits(wt_context *ctx, const train_digits_opts *o,
                 void (*on_epoch)(const train_digits_epoch *e, void *user), bool on_step, void *user,
                 train_digits_result *res, char *err, size_t err_size) {
    run r;
    memset(&r, 0, sizeof r);
    memset(res, 0, sizeof *res);
    res->reloaded_acc = -1;
    int epochs = o->epochs > 0 ? o->epochs : 30;
    if ((unsigned)o->model >= TRAIN_DIGITS_MODEL_COUNT) {
        snprintf(err, err_size, "unknown model %d", (int)o->model);
        return 1;
    }
    wt_manual_seed(ctx, o->seed);

    /* data: each pixel standardised by the training rows' mean and deviation; the whole set on the
     * GPU once for evaluation, the raw training images kept for augmented batches */
    wt_digits d;
    if (wt_digits_load(ctx, o->data, &d) != WT_OK)
        return fail(ctx, &r, err, err_size, "data");
    int64_t ntrain = d.train_count, ntest = d.count - d.train_count;
    float mean[64], inv_sd[64];
    r.raw = malloc((size_t)ntrain * 64 * sizeof *r.raw);
    r.labels = malloc((size_t)ntrain * sizeof *r.labels);
    r.order = malloc((size_t)ntrain * sizeof *r.order);
    if (!r.raw || !r.labels || !r.order) {
        wt_digits_free(ctx, &d);
        snprintf(err, err_size, "out of host memory");
        run_free(&r);
        return 1;
    }
    memcpy(r.raw, d.pixels, (size_t)ntrain * 64 * sizeof *r.raw);
    memcpy(r.labels, d.labels, (size_t)ntrain * sizeof *r.labels);
    for (int k = 0; k < 64; k++) {
        double mu = 0, var = 0;
        for (int64_t i = 0; i < ntrain; i++)
            mu += r.raw[i * 64 + k];
        mu /= (double)ntrain;
        for (int64_t i = 0; i < ntrain; i++)
            var += (r.raw[i * 64 + k] - mu) * (r.raw[i * 64 + k] - mu);
        mean[k] = (float)mu;
        inv_sd[k] = var > 0 ? (float)(1 / sqrt(var / (double)ntrain)) : 1;
        for (int64_t i = 0; i < d.count; i++)
            d.pixels[i * 64 + k] = (d.pixels[i * 64 + k] - mean[k]) * inv_sd[k];
    }
    r.xtr = wt_from_host(ctx, WT_F32, WT_SHAPE(ntrain, 64), d.pixels);
    r.ytr = wt_from_host(ctx, WT_I32, WT_SHAPE(ntrain), d.labels);
    r.xte = wt_from_host(ctx, WT_F32, WT_SHAPE(ntest, 64), d.pixels + ntrain * 64);
    r.yte = wt_from_host(ctx, WT_I32, WT_SHAPE(ntest), d.labels + ntrain);
    wt_digits_free(ctx, &d);
    if (!r.xtr || !r.ytr || !r.xte || !r.yte)
        return fail(ctx, &r, err, err_size, "upload");
    res->train_count = ntrain;
    res->test_count = ntest;

    /* model and optimizer: weight decay on the weights only (a group each) */
    if (model_init(ctx, o->model, &r.m) != WT_OK)
        return fail(ctx, &r, err, err_size, "init");
    r.m.amp = o->amp;
    if (o->amp && !wt_context_has_f16(ctx)) {
        snprintf(err, err_size, "mixed precision needs a device with shader-f16 (WG_FEATURE_SHADER_F16)");
        run_free(&r);
        return 1;
    }
    if (o->amp && !(r.scaler = wt_grad_scaler_create(ctx, NULL)))   /* torch's defaults */
        return fail(ctx, &r, err, err_size, "amp");
    wt_tensor *weights[NPARAM / 2], *biases[NPARAM / 2];
    for (int i = 0; i < r.m.n; i++) {   /* leaves whose gradients wt_backward accumulates */
        if (wt_set_requires_grad(ctx, r.m.p[i], true) != WT_OK)
            return fail(ctx, &r, err, err_size, "requires_grad");
        (i % 2 ? biases : weights)[i / 2] = r.m.p[i];
    }
    const double lr = 2e-3;
    wt_param_group groups[2] = { { weights, r.m.n / 2, { .lr = lr, .weight_decay = 1e-2 } },
                                 { biases, r.m.n / 2, { .lr = lr } } };
    r.opt = wt_optimizer_create(ctx, &(wt_optimizer_desc){ .kind = WT_OPTIM_ADAMW, .groups = groups, .group_count = 2 });
    if (!r.opt)
        return fail(ctx, &r, err, err_size, "optimizer");
    int64_t steps_per_epoch = ntrain / BATCH;
    wt_lr_schedule sched = { .kind = WT_LR_COSINE, .base_lr = lr, .warmup_steps = steps_per_epoch,
                             .total_steps = steps_per_epoch * epochs, .min_lr = lr / 100 };

    /* training */
    for (int i = 0; i < ntrain; i++)
        r.order[i] = i;
    uint64_t rng = 0x2545f4914f6cdd1dull ^ (o->seed * 0x9e3779b97f4a7c15ull);
    if (!rng)
        rng = 1;
    double t0 = now();
    for (int e = 0; e < epochs; e++) {
        for (int64_t i = ntrain - 1; i > 0; i--) {   /* shuffle (Fisher-Yates, xorshift) */
            int64_t j = (int64_t)(xorshift(&rng) % (uint64_t)(i + 1));
            int32_t t = r.order[i];
            r.order[i] = r.order[j], r.order[j] = t;
        }
        wt_tensor *loss_sum = wt_zeros(ctx, WT_F32, 0, NULL);
        for (int64_t s = 0; s < steps_per_epoch; s++) {
            /* a batch: some images moved by a pixel in x and/or y (zeros shifted in), standardised */
            float xb[BATCH * 64];
            int32_t yb[BATCH];
            for (int k = 0; k < BATCH; k++) {
                int32_t row = r.order[s * BATCH + k];
                uint64_t v3 = xorshift(&rng);
                int dy = (int)(v3 % 3) - 1, dx = (int)(v3 / 3 % 3) - 1;
                if (v3 / 9 % 8 >= SHIFTED_EIGHTHS)
                    dy = dx = 0;
                for (int py = 0; py < 8; py++)
                    for (int px = 0; px < 8; px++) {
                        int sy = py - dy, sx = px - dx;
                        float v = sy >= 0 && sy < 8 && sx >= 0 && sx < 8 ? r.raw[row * 64 + sy * 8 + sx] : 0;
                        xb[k * 64 + py * 8 + px] = (v - mean[py * 8 + px]) * inv_sd[py * 8 + px];
                    }
                yb[k] = r.labels[row];
            }
            wt_tensor *x = wt_from_host(ctx, WT_F32, WT_SHAPE(BATCH, 64), xb);
            wt_tensor *y = wt_from_host(ctx, WT_I32, WT_SHAPE(BATCH), yb);
            wt_tensor *logits = forward(ctx, &r.m, x, true);
            wt_tensor *loss = wt_cross_entropy(ctx, logits, y, NULL);
            wt_tensor *ld = wt_detach(ctx, loss);   /* the epoch's sum stays outside the graph */
            wt_tensor *acc = wt_add(ctx, loss_sum, ld);
            wt_release(loss_sum), wt_release(ld);
            loss_sum = acc;
            wt_tensor *scaled = r.scaler ? wt_grad_scaler_scale(r.scaler, loss) : loss;   /* amp: loss * scale */
            wt_status st = wt_backward(ctx, scaled, NULL, NULL);   /* each parameter's .grad */
            if (scaled != loss)
                wt_release(scaled);
            wt_release(logits), wt_release(x), wt_release(y), wt_release(loss);
            if (st != WT_OK) {
                wt_release(loss_sum);
                return fail(ctx, &r, err, err_size, "backward");
            }
            double l = wt_lr_at(&sched, e * steps_per_epoch + s);
            wt_optimizer_set_lr(r.opt, 0, l);
            wt_optimizer_set_lr(r.opt, 1, l);
            /* amp: the gradients unscaled, the step a no-op on the GPU when one is inf or NaN, the
             * scale updated; nothing read back */
            if (r.scaler ? wt_grad_scaler_step(r.scaler, r.opt) != WT_OK || wt_grad_scaler_update(r.scaler) != WT_OK
                         : wt_optimizer_step_grads(r.opt) != WT_OK) {
                wt_release(loss_sum);
                return fail(ctx, &r, err, err_size, "step");
            }
            wt_optimizer_zero_grad(r.opt);
            if (on_epoch && on_step && s + 1 < steps_per_epoch)
                on_epoch(&(train_digits_epoch){ .epoch = e + 1, .epochs = epochs, .step = (int)s + 1,
                                                .steps = (int)steps_per_epoch, .seconds = now() - t0 }, user);
        }
        double lsum = 0;
        wt_status st = wt_item(ctx, loss_sum, &lsum);
        wt_release(loss_sum);
        if (st != WT_OK)
            return fail(ctx, &r, err, err_size, "loss");
        res->test_acc = accuracy(ctx, &r.m, r.xte, r.yte);
        double train_acc = accuracy(ctx, &r.m, r.xtr, r.ytr);
        if (res->test_acc < 0 || train_acc < 0)
            return fail(ctx, &r, err, err_size, "evaluation");
        if (on_epoch)
            on_epoch(&(train_digits_epoch){ .epoch = e + 1, .epochs = epochs, .step = (int)steps_per_epoch,
                                            .steps = (int)steps_per_epoch, .loss = lsum / (double)steps_per_epoch,
                                            .train_acc = train_acc, .test_acc = res->test_acc,
                                            .seconds = now() - t0 }, user);
    }
    res->seconds = now() - t0;

    /* checkpoint, then a fresh model from it evaluates the same */
    if (o->checkpoint) {
        wt_named_tensor named[NPARAM], named2[NPARAM];
        model_zeros(ctx, &r.m, &r.m2);
        for (int i = 0; i < r.m.n; i++) {
            named[i] = (wt_named_tensor){ param_names[i], r.m.p[i] };
            named2[i] = (wt_named_tensor){ param_names[i], r.m2.p[i] };
        }
        if (wt_checkpoint_save(ctx, o->checkpoint, named, r.m.n, r.opt) != WT_OK)
            return fail(ctx, &r, err, err_size, "save");
        if (wt_checkpoint_load(ctx, o->checkpoint, named2, r.m.n, NULL) != WT_OK)
            return fail(ctx, &r, err, err_size, "load");
        res->reloaded_acc = accuracy(ctx, &r.m2, r.xte, r.yte);
    }
    run_free(&r);
    return 0;
}

#ifndef TRAIN_DIGITS_NO_MAIN
static void print_epoch(const train_digits_epoch *e, void *user) {
    (void)user;
    printf("epoch %2d  loss %.4f  train %.2f%%  test %.2f%%  %.2f s\n", e->epoch, e->loss, 100 * e->train_acc,
           100 * e->test_acc, e->seconds);
}

int main(int argc, char **argv) {
    train_digits_opts o = { .checkpoint = "train_digits.safetensors" };
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : "";
        if (!strcmp(argv[i], "--amp"))
            o.amp = true;
        else if (!strcmp(argv[i], "--epochs") && *v)
            o.epochs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--checkpoint") && *v)
            o.checkpoint = argv[++i];
        else if (!strcmp(argv[i], "--data") && *v)
            o.data = argv[++i];
        else if (!strcmp(argv[i], "--model") && (!strcmp(v, "cnn") || !strcmp(v, "mlp")))
            o.model = !strcmp(argv[++i], "cnn") ? TRAIN_DIGITS_CNN : TRAIN_DIGITS_MLP;
        else {
            fprintf(stderr, "usage: train_digits [--model mlp|cnn] [--epochs N] [--checkpoint FILE] [--data FILE] "
                    "[--amp]\n");
            return 2;
        }
    }
    wg_error err;
    wg_instance *inst = wg_instance_create(NULL, &err);
    wg_adapter *ad = inst ? wg_instance_request_adapter(inst, NULL, &err) : NULL;
    wg_device_desc dd = { .label = "train_digits" };
    static const wg_feature amp_features[] = { WG_FEATURE_SHADER_F16, WG_FEATURE_COOPERATIVE_MATRIX,
                                               WG_FEATURE_WORKGROUP_MATRIX };
    for (size_t i = 0; o.amp && ad && i < sizeof amp_features / sizeof *amp_features; i++)   /* f16, tensor cores */
        if (wg_adapter_has_feature(ad, amp_features[i]))
            dd.required_features |= WG_FEATURE_BIT(amp_features[i]);
    wg_device *dev = ad ? wg_adapter_create_device(ad, &dd, &err) : NULL;
    if (!dev) {
        fprintf(stderr, "train_digits: %s\n", err.message);
        wg_instance_release(inst);
        return 1;
    }
    wt_context *ctx = wt_context_create(dev, NULL);
    train_digits_result res;
    char msg[600];
    int rc = ctx ? train_digits(ctx, &o, print_epoch, false, NULL, &res, msg, sizeof msg) : 1;
    if (!ctx)
        snprintf(msg, sizeof msg, "no tensor context");
    if (rc)
        fprintf(stderr, "train_digits: %s\n", msg);
    else {
        printf("checkpoint %s: reloaded model's test accuracy %.2f%%\n", o.checkpoint, 100 * res.reloaded_acc);
        bool ok = res.test_acc >= 0.97 && res.reloaded_acc == res.test_acc;
        printf("train_digits: %s (%s%s, test accuracy %.2f%%, %.1f s)\n", ok ? "ok" : "FAILED",
               o.model == TRAIN_DIGITS_CNN ? "cnn" : "mlp", o.amp ? ", amp" : "", 100 * res.test_acc, res.seconds);
        rc = ok ? 0 : 1;
    }
    wt_context_destroy(ctx);
    wg_device_release(dev);
    wg_instance_release(inst);
    return rc;
}
#endif
