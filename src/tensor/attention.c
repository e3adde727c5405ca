/* attention.c - scaled dot-product attention: softmax(scale q k^T + mask) v, plain and flash.
 *
 * q [..., Lq, D], k [..., Lk, D], v [..., Lk, Dv] with zero to two batch dims (B, H); k and v may
 * have fewer heads than q when H is a multiple of theirs (grouped-query attention: query head h
 * reads KV head h / (H / Hkv)).  Every operand is read through its strides, so a [B, S, H, D]
 * projection transposed to [B, H, S, D] is not copied.  Causal masking is aligned to the end:
 * query i sees keys j <= i + Lk - Lq, which is what a KV cache needs (with Lq == Lk it is the
 * usual lower triangle); a row that sees no key gives zeros (not NaN).
 *   plain  wt_matmul q k^T (k^T a stride swap, grouped KV heads a stride-0 batch dim), then
 *          attention.wgsl writes the f32 scores [B, H, Lq, Lk] (scale, causal, boolean or additive
 *          mask broadcast through stride-0 views), softmax.wgsl normalises the rows, wt_matmul
 *          multiplies by v.  Memory O(Lq * Lk).
 *   flash  one workgroup per block of query rows streams the keys in tiles with an online
 *          softmax, K/V in chunks through workgroup memory; memory O(sequence).  No mask tensor
 *          (causal only); D <= 256, Dv == D, at most WT_FLASH_MAX_KEYS keys (65,535 blocks of
 *          32: lavapipe stops longer loops; the plain path takes longer ones).  flash3.wgsl (hand-unrolled) for D <= 128 on devices
 *          with more than 32 KiB of workgroup memory, else flash2.wgsl: flash_kernel() and the
 *          table FL below, which wt_policy.attention_kernel names.  attention_coop.c takes the
 *          tensor-core precisions first (f32's default where the device has tensor cores).
 * AUTO takes flash whenever it applies. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensor/internal.h"

enum { MASK_NONE = 0, MASK_BOOL = 1, MASK_ADD = 2 };

/* The operands as 4-d (batch, head, row, col) views: sizes and strides. */
typedef struct at_op {
    int64_t shape[4], st[4], off;
} at_op;

static bool as4(const wt_tensor *t, at_op *o) {
    if (t->ndim < 2 || t->ndim > 4)
        return false;
    int pad = 4 - t->ndim;
    for (int d = 0; d < 4; d++) {
        o->shape[d] = d < pad ? 1 : t->shape[d - pad];
        o->st[d] = d < pad ? 0 : t->strides[d - pad];
    }
    o->off = t->offset;
    return true;
}

static bool fits_i32(const at_op *o) {
    int64_t hi = o->off, lo = o->off;
    for (int d = 0; d < 4; d++) {
        int64_t span = (o->shape[d] - 1) * o->st[d];
        if (span > 0)
            hi += span;
        else
            lo += span;
    }
    return lo >= 0 && hi <= INT32_MAX;
}

static void put_strides(wt_params *p, int k, const at_op *o) {
    for (int d = 0; d < 4; d++)
        p->st[k][d] = o->shape[d] == 1 ? 0 : (int32_t)o->st[d];
    p->off[k] = (uint32_t)o->off;
}

static wt_kkey at_key(wt_kfile file, uint32_t op, wt_dtype out, wt_dtype a, wt_dtype b, wt_dtype c) {
    wt_kkey key = wt_key(file, op, out, a, b, WT_F32);
    key.in[2] = (uint8_t)c;
    return key;
}

typedef struct at_plan {
    at_op q, k, v, m;
    int64_t B, H, Hkv, Lq, Lk, D, Dv;
    int mask_kind;
    float scale;
    int out_nd;
    int64_t out_shape[4];
} at_plan;

static bool plan(wt_context *ctx, const char *op, wt_tensor *q, wt_tensor *k, wt_tensor *v, const wt_attention_desc *d,
                 at_plan *p) {
    char bq[96], bk[96], bv[96];
    if (!wt_check_tensor(ctx, op, q) || !wt_check_tensor(ctx, op, k) || !wt_check_tensor(ctx, op, v) ||
        (d->mask && !wt_check_tensor(ctx, op, d->mask)))
        return false;
    wt_shape_str(bq, sizeof bq, q->ndim, q->shape);
    wt_shape_str(bk, sizeof bk, k->ndim, k->shape);
    wt_shape_str(bv, sizeof bv, v->ndim, v->shape);
    if (!wt_is_float(q->dtype) || q->dtype != k->dtype || q->dtype != v->dtype) {
        wt_fail(ctx, WT_STATUS_DTYPE, op, "q, k, v must share one float dtype, got %s, %s, %s",
                wt_dtype_name(q->dtype), wt_dtype_name(k->dtype), wt_dtype_name(v->dtype));
        return false;
    }
    memset(p, 0, sizeof *p);
    if (q->ndim != k->ndim || q->ndim != v->ndim || !as4(q, &p->q) || !as4(k, &p->k) || !as4(v, &p->v)) {
        wt_fail(ctx, WT_STATUS_SHAPE, op, "q %s, k %s, v %s: need [..., L, D] with the same rank 2 to 4", bq, bk, bv);
        return false;
    }
    p->B = p->q.shape[0];
    p->H = p->q.shape[1];
    p->Hkv = p->k.shape[1];
    p->Lq = p->q.shape[2];
    p->D = p->q.shape[3];
    p->Lk = p->k.shape[2];
    p->Dv = p->v.shape[3];
    if (p->k.shape[0] != p->B || p->v.shape[0] != p->B || p->v.shape[1] != p->Hkv || p->k.shape[3] != p->D ||
        p->v.shape[2] != p->Lk || p->Hkv < 1 || p->H % p->Hkv) {
        wt_fail(ctx, WT_STATUS_SHAPE, op,
                "q %s, k %s, v %s do not fit [B, H, Lq, D], [B, Hkv, Lk, D], [B, Hkv, Lk, Dv] (H a multiple of Hkv)",
                bq, bk, bv);
        return false;
    }
    if (!fits_i32(&p->q) || !fits_i32(&p->k) || !fits_i32(&p->v)) {
        wt_fail(ctx, WT_STATUS_SHAPE, op, "q %s, k %s, v %s: offsets past 2^31 elements", bq, bk, bv);
        return false;
    }
    double sc = d->scale != 0 ? d->scale : 1.0 / sqrt((double)(p->D ? p->D : 1));
    p->scale = (float)sc;
    if (d->mask) {
        wt_tensor *m = d->mask;
        char bm[96];
        wt_shape_str(bm, sizeof bm, m->ndim, m->shape);
        int64_t want[4] = { p->B, p->H, p->Lq, p->Lk };
        bool ok = m->ndim <= 4;
        for (int i = 0; ok && i < 4; i++) {
            int j = i - (4 - m->ndim);
            int64_t sz = j >= 0 ? m->shape[j] : 1;
            ok = sz == 1 || sz == want[i];
            p->m.shape[i] = want[i];
            p->m.st[i] = j >= 0 && sz != 1 ? m->strides[j] : 0;
        }
        p->m.off = m->offset;
        if (!ok) {
            wt_fail(ctx, WT_STATUS_SHAPE, op, "mask %s does not broadcast to [%lld, %lld, %lld, %lld]", bm,
                    (long long)p->B, (long long)p->H, (long long)p->Lq, (long long)p->Lk);
            return false;
        }
        p->mask_kind = wt_is_float(m->dtype) ? MASK_ADD : MASK_BOOL;
    }
    p->out_nd = q->ndim;
    for (int i = 0; i < q->ndim; i++)
        p->out_shape[i] = q->shape[i];
    p->out_shape[q->ndim - 1] = p->Dv;
    return true;
}

static void base_params(wt_params *pr, const at_plan *p, int64_t inner) {
    memset(pr, 0, sizeof *pr);
    pr->shape[0] = (uint32_t)p->B;
    pr->shape[1] = (uint32_t)p->H;
    pr->shape[2] = (uint32_t)p->Lq;
    pr->shape[3] = (uint32_t)p->Lk;
    pr->shape[4] = (uint32_t)inner;
    pr->shape[5] = (uint32_t)(p->H / p->Hkv);
    memcpy(&pr->sv[0], &p->scale, 4);
}

/* A view of t (4-d form o) as [B, Hkv, G, rows, cols] with head h = kv * G + g (split = true:
 * q, P) or with the KV head broadcast over G (split = false: k, v); transposed swaps rows and
 * cols (k^T). */
static wt_tensor *view5(wt_context *ctx, const char *op, wt_tensor *t, const at_op *o, int64_t Hkv, int64_t G,
                        bool split, bool transposed) {
    int64_t shape[5] = { o->shape[0], Hkv, G, o->shape[2], o->shape[3] };
    int64_t st[5] = { o->st[0], split ? o->st[1] * G : o->st[1], split ? o->st[1] : 0, o->st[2], o->st[3] };
    if (!split)
        shape[2] = 1;
    if (transposed) {
        int64_t x = shape[3];
        shape[3] = shape[4];
        shape[4] = x;
        x = st[3];
        st[3] = st[4];
        st[4] = x;
    }
    return wt_tensor_view(ctx, op, t, 5, shape, st, o->off);
}

/* softmax(mask(scale q k^T)) v with wt_matmul for both products (grouped heads as a broadcast
 * batch dim, k^T as a stride swap: nothing is copied), attention.wgsl for the scale and masks
 * and softmax.wgsl in between. */
static wt_tensor *plain(wt_context *ctx, const char *op, wt_tensor *q, wt_tensor *k, wt_tensor *v,
                        const wt_attention_desc *d, const at_plan *p) {
    int64_t G = p->H / p->Hkv;
    int64_t sshape[4] = { p->B, p->H, p->Lq, p->Lk };
    if (p->B * p->H * p->Lq * p->Lk > INT32_MAX)
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "the %lld x %lld scores per head are too many for plain attention",
                       (long long)p->Lq, (long long)p->Lk);
    wt_tensor *qv = NULL, *kt = NULL, *vv = NULL, *raw = NULL, *scores = NULL, *probs = NULL, *pv = NULL, *o = NULL;
    wt_tensor *out = NULL;
    qv = view5(ctx, op, q, &p->q, p->Hkv, G, true, false);
    kt = qv ? view5(ctx, op, k, &p->k, p->Hkv, G, false, true) : NULL;
    raw = kt ? wt_matmul(ctx, qv, kt) : NULL;                  /* [B, Hkv, G, Lq, Lk] */
    scores = raw ? wt_tensor_new(ctx, op, WT_F32, 4, sshape) : NULL;
    if (!scores)
        goto done;
    if (scores->numel) {
        wt_params pr;
        base_params(&pr, p, p->D);
        pr.n = (uint32_t)scores->numel;
        at_op ro = { { p->B, p->H, p->Lq, p->Lk }, { p->H * p->Lq * p->Lk, p->Lq * p->Lk, p->Lk, 1 }, raw->offset };
        put_strides(&pr, 0, &ro);
        if (p->mask_kind)
            put_strides(&pr, 2, &p->m);
        wt_kkey key = at_key(WT_K_attention, 0, WT_F32, raw->dtype, raw->dtype,
                             p->mask_kind ? d->mask->dtype : raw->dtype);
        key.mode[1] = d->causal ? 1 : 0;
        key.mode[2] = (uint8_t)p->mask_kind;
        wt_storage *in[3] = { raw->st, NULL, p->mask_kind ? d->mask->st : NULL };
        if (wt_record_key(ctx, op, &key, &pr, scores->st, 3, in) != WT_OK)
            goto done;
    }
    probs = wt_softmax_flags(ctx, op, scores, 3, 2);
    at_op po = { { p->B, p->H, p->Lq, p->Lk }, { p->H * p->Lq * p->Lk, p->Lq * p->Lk, p->Lk, 1 }, 0 };
    pv = probs ? view5(ctx, op, probs, &po, p->Hkv, G, true, false) : NULL;
    vv = pv ? view5(ctx, op, v, &p->v, p->Hkv, G, false, false) : NULL;
    o = vv ? wt_matmul(ctx, pv, vv) : NULL;                    /* [B, Hkv, G, Lq, Dv], f32 */
    wt_tensor *r = o ? wt_reshape(ctx, o, p->out_nd, p->out_shape) : NULL;
    out = r && r->dtype != q->dtype ? wt_cast(ctx, r, q->dtype) : r;
    if (out && out != r)
        wt_release(r);
done:
    wt_release(qv);
    wt_release(kt);
    wt_release(vv);
    wt_release(raw);
    wt_release(scores);
    wt_release(probs);
    wt_release(pv);
    wt_release(o);
    return out;
}

static int flash_log2(int64_t D) {
    int l = 0;
    while ((16 << l) < D)
        l++;
    return l;
}

static bool flash_ok(const at_plan *p, const wt_attention_desc *d) {
    return !d->mask && p->D >= 1 && p->D <= 256 && p->Dv == p->D && p->Lk <= WT_FLASH_MAX_KEYS;
}

/* The FMA flash kernels by name (wt_policy.attention_kernel; flash_kernel() picks the default):
 * flash2.wgsl, or flash3.wgsl in one of its configurations, mode bits mb (its header).  Where a
 * configuration has sg and the device subgroups of 8 to 128 lanes, flash3 also meets the row
 * maxima and sums of a warp by shuffles (SG) and splits S over head dims (SD) and O over keys
 * (OK).  Rows: when each is the default, or why it is kept. */
typedef struct fl_kernel {
    const char *name;
    uint8_t mb;                   /* flash3's MB; flash2: 0 */
    bool sg;                      /* SG, SD and OK where the device has the subgroups */
} fl_kernel;

enum { FL_FLASH2, FL_FLASH3, FL_WQ, FL_WQ_NOSG, FL_DS, FL_WQ4, FL_COUNT };

static const fl_kernel FL[FL_COUNT] = {
    /* D > 128, and every D where flash3 does not fit (lavapipe's 32 KiB) */
    [FL_FLASH2] = { "flash2", 0, false },
    /* 128 lanes, 8 groups of 4 rows, 64-dim K chunks fetched one chunk ahead: D <= 64, and
     * D <= 128 where the others do not fit (H200, D 128: 19.7 TFLOP/s against flash2's 15.0) */
    [FL_FLASH3] = { "flash3", 2, false },
    /* 256 lanes, two per column, warps of 4 groups x 8 columns, P key-major (mode 195): 64 < D
     * <= 128 for f32, and f16 with subgroups (H200, causal B1 H32 S4096 D128: f32 29.83 TFLOP/s,
     * f16 28.58, with SG, SD and OK; without subgroups f32 25.97) */
    [FL_WQ] = { "flash3_wq", 195, true },
    /* the same without SG, SD and OK (tests: the default of devices without subgroups) */
    [FL_WQ_NOSG] = { "flash3_wq_nosg", 195, false },
    /* mode 114, every chunk fetched at its store: 64 < D <= 128, f16 without subgroups (H200:
     * 24.67 TFLOP/s) */
    [FL_DS] = { "flash3_ds", 114, false },
    /* flash3_wq in 4 groups, 128 lanes, 16 rows (mode 203; H200 18.74 TFLOP/s): the D 128
     * default's code within 32 KiB, so that lavapipe (CI) runs it (tests) */
    [FL_WQ4] = { "flash3_wq4", 203, true },
};

size_t wt_attention_kernel_names(const char **out, size_t cap) {
    for (size_t i = 0; out && i < FL_COUNT && i < cap; i++)
        out[i] = FL[i].name;
    return FL_COUNT;
}

bool wt_attention_kernel_known(const char *name) {
    for (int i = 0; i < FL_COUNT; i++)
        if (!strcmp(name, FL[i].name))
            return true;
    return false;
}

/* flash3.wgsl's workgroup memory in bytes for head dims up to 16 << l2 (<= 128) and mode bits
 * mb (its header: 4 rows per group; bit 3 four groups, bit 6 two lanes per column) */
static int64_t flash3_smem(int l2, unsigned mb) {
    int64_t d4 = (16 << l2) / 4, ng = mb & 8 ? 4 : 8, nh = mb & 64 ? 2 : 1;
    return 16 * (ng * (4 * d4 + 1) + 64 * 17 + ng * (4 * 16 + 1) + 4 * ng * 4 * nh);
}

/* flash3's 16-byte path: every row of q, k, v quad-aligned with unit stride along D */
static bool flash3_v4(const at_plan *p) {
    const at_op *o[3] = { &p->q, &p->k, &p->v };
    if (p->D % 4)
        return false;
    for (int i = 0; i < 3; i++) {
        if (o[i]->off % 4 || o[i]->st[3] != 1)
            return false;
        for (int d = 0; d < 3; d++)
            if (o[i]->shape[d] > 1 && o[i]->st[d] % 4)
                return false;
    }
    return true;
}

/* flash3's unguarded path (MC bit 2): 16-byte rows, D a power of two (no padding), whole key
 * tiles and query blocks */
static bool flash3_exact(const at_plan *p, int l2, int64_t br) {
    return flash3_v4(p) && p->D == (16 << l2) && p->Lk % 64 == 0 && p->Lq % br == 0;
}

/* subgroups for flash3's exchange: aligned runs of 8 lanes or more (NVIDIA's 32, lavapipe's 8) */
static bool flash3_sg(wt_context *ctx) {
    if (!wg_device_has_feature(ctx->dev, WG_FEATURE_SUBGROUPS))
        return false;
    const wg_adapter_info *in = wg_adapter_get_info(wg_device_get_adapter(ctx->dev));
    return in && in->subgroup_min_size >= 8 && in->subgroup_max_size <= 128;
}

/* The flash kernel for head dims up to 16 << l2: the policy's where it fits, else flash3 where
 * D <= 128 and the device has more than 32 KiB of workgroup memory (FL's rows), else flash2.
 * flash2 stays lavapipe's default: there flash3 fits only as flash3_wq4 at D 128 and takes 0.7-0.9
 * s to compile against flash2's 0.1-0.3, and runs no faster (B1 H4 S512 D128 causal f32: 0.13-0.18
 * s against 0.12-0.15). */
static const fl_kernel *flash_kernel(wt_context *ctx, int l2, bool f16) {
    const wg_limits *lim = wg_device_get_limits(ctx->dev);
    uint64_t smax = lim ? lim->max_compute_workgroup_storage_size : 16384;
    const char *want = ctx->pol.attention_kernel;
    for (int i = 0; want && i < FL_COUNT; i++)
        if (!strcmp(want, FL[i].name) && (i == FL_FLASH2 || (l2 <= 3 && (uint64_t)flash3_smem(l2, FL[i].mb) <= smax)))
            return &FL[i];
    if (l2 <= 3 && smax > 32768) {
        int pref[2] = { l2 == 3 ? (flash3_sg(ctx) || !f16 ? FL_WQ : FL_DS) : FL_FLASH3, FL_FLASH3 };
        for (int i = 0; i < 2; i++)
            if ((uint64_t)flash3_smem(l2, FL[pref[i]].mb) <= smax)
                return &FL[pref[i]];
    }
    return &FL[FL_FLASH2];
}

static wt_tensor *flash(wt_context *ctx, const char *op, wt_tensor *q, wt_tensor *k, wt_tensor *v,
                        const wt_attention_desc *d, const at_plan *p) {
    wt_tensor *out = wt_tensor_new(ctx, op, q->dtype, p->out_nd, p->out_shape);
    if (!out || !out->numel)
        return out;
    int l2 = flash_log2(p->D);
    const fl_kernel *fk = flash_kernel(ctx, l2, q->dtype == WT_F16);
    bool f3 = fk != &FL[FL_FLASH2], sg = f3 && fk->sg && flash3_sg(ctx);
    int64_t br = f3 ? 4 * (fk->mb & 8 ? 4 : 8) : p->D > 128 ? 16 : 32;
    int64_t nqb = (p->Lq + br - 1) / br, groups = p->B * p->H * nqb;
    if (groups * 256 > UINT32_MAX) {
        wt_release(out);
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "too many query blocks (%lld)", (long long)groups);
    }
    wt_params pr;
    base_params(&pr, p, p->D);
    pr.shape[6] = (uint32_t)nqb;
    pr.n = (uint32_t)(groups * 256);
    put_strides(&pr, 0, &p->q);
    put_strides(&pr, 1, &p->k);
    put_strides(&pr, 2, &p->v);
    wt_kkey key = at_key(f3 ? WT_K_flash3 : WT_K_flash2, 0, out->dtype, q->dtype, k->dtype, v->dtype);
    key.mode[0] = (uint8_t)l2;
    key.mode[1] = fk->mb;
    /* flash3's MC: bit 1 16-byte loads, 2 unguarded, 3 SG, 4 SD, 6 OK */
    key.mode[2] = (uint8_t)((d->causal ? 1 : 0) | (f3 && flash3_v4(p) ? 2 : 0) |
                            (f3 && flash3_exact(p, l2, br) ? 4 : 0) | (sg ? 8 | 16 | 64 : 0));
    wt_storage *in[3] = { q->st, k->st, v->st };
    if (wt_record_key(ctx, op, &key, &pr, out->st, 3, in) != WT_OK) {
        wt_release(out);
        return NULL;
    }
    return out;
}

static wt_tensor *sdpa(wt_context *ctx, wt_tensor *q, wt_tensor *k, wt_tensor *v, const wt_attention_desc *desc);
wt_tensor *wt_scaled_dot_product_attention(wt_context *ctx, wt_tensor *q, wt_tensor *k, wt_tensor *v,
                                           const wt_attention_desc *desc) {
    wt_tensor *c[4];   /* autocast (amp.c): the f16 list, a float mask too */
    if (wt__autocast(ctx, WT__AMP_F16, 4, (wt_tensor *const[]){ q, k, v, desc ? desc->mask : NULL }, c)) {
        wt_attention_desc d = desc ? *desc : (wt_attention_desc){ 0 };
        d.mask = c[3];
        return wt__autocast_done(4, c, wt_scaled_dot_product_attention(ctx, c[0], c[1], c[2], &d));
    }
    wt_gargs a = { .f = { desc ? desc->scale : 0 }, .i = { desc && desc->causal }, .save = { desc ? desc->mask : NULL } };
    return wt__grad(ctx, sdpa(ctx, q, k, v, desc), WT_G_scaled_dot_product_attention, 3, (wt_tensor *const[]){ q, k, v }, &a);
}

static wt_tensor *sdpa(wt_context *ctx, wt_tensor *q, wt_tensor *k, wt_tensor *v, const wt_attention_desc *desc) {
    const char *op = "wt_scaled_dot_product_attention";
    if (!ctx)
        return NULL;
    wt_attention_desc d = desc ? *desc : (wt_attention_desc){ 0 };
    if ((unsigned)d.impl >= WT_ATTENTION_IMPL_COUNT)
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "unknown implementation %d", (int)d.impl);
    at_plan p;
    if (!plan(ctx, op, q, k, v, &d, &p))
        return NULL;
    if ((unsigned)d.precision >= WT_ATTENTION_PRECISION_COUNT)
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "unknown precision %d", (int)d.precision);
    /* f32 operands take the tensor cores' split by default, as PyTorch's f32 SDPA does (3xTF32) */
    wt_attention_desc tc = d;
    if (tc.precision == WT_ATTENTION_PRECISION_DEFAULT && q->dtype == WT_F32)
        tc.precision = WT_ATTENTION_F32_TENSOR;
    else if (tc.precision == WT_ATTENTION_PRECISION_DEFAULT && q->dtype == WT_F16 && wt__amp_tensor_cores(ctx))
        tc.precision = WT_ATTENTION_F16_TENSOR;   /* mixed precision (amp.c) */
    if ((tc.precision == WT_ATTENTION_F16_TENSOR || tc.precision == WT_ATTENTION_F32_TENSOR) &&
        d.impl != WT_ATTENTION_PLAIN && wt_attention_coop_ok(ctx, q, k, v, &tc))
        return wt_attention_coop(ctx, op, q, k, v, &tc);   /* attention_coop.c: flash_coop / flash_x3.wgsl */
    bool fl = flash_ok(&p, &d);
    if (d.impl == WT_ATTENTION_FLASH && !fl)
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op,
                       "flash attention takes no mask tensor, 1 <= D <= 256, Dv == D and at most %d keys (got D "
                       "%lld, Dv %lld, %lld keys%s)",
                       WT_FLASH_MAX_KEYS, (long long)p.D, (long long)p.Dv, (long long)p.Lk, d.mask ? ", a mask" : "");
    if (d.impl == WT_ATTENTION_PLAIN || !fl)
        return plain(ctx, op, q, k, v, &d, &p);
    return flash(ctx, op, q, k, v, &d, &p);
}
