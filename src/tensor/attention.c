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
 *          (causal only); D <= 256, Dv == D.  flash3.wgsl (hand-unrolled, 16 KiB K/V chunks;
 *          256 lanes for 64 < D <= 128) for D <= 128 on devices with more than 32 KiB of
 *          workgroup memory, else flash2.wgsl (flash_kernel() below; its environment knobs for
 *          benchmarks and tests).
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
    return !d->mask && p->D >= 1 && p->D <= 256 && p->Dv == p->D;
}

/* flash3.wgsl's query rows per lane group for mode bits mb (its header: bit 0 eight, unless bit
 * 6 splits each group's S block over two lanes) */
static int64_t flash3_rpg(unsigned mb) {
    return mb & 1 && !(mb & 64) ? 8 : 4;
}

/* flash3.wgsl's workgroup memory in bytes for head dims up to 16 << l2 (<= 128) and mode bits
 * mb (its header: bit 1 16 KiB K/V chunks, bit 3 four groups, bit 6 two lanes per column) */
static int64_t flash3_smem(int l2, unsigned mb) {
    int64_t d4 = (16 << l2) / 4, rpg = flash3_rpg(mb), ng = mb & 8 ? 4 : 8, nh = mb & 64 ? 2 : 1;
    return 16 * (ng * (rpg * d4 + 1) + 64 * 17 + ng * (rpg * 16 + 1) + 4 * ng * rpg * nh);
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
 * tiles and query blocks; WGC_FLASH3's bit 8 turns it off (for measurements) */
static bool flash3_exact(const at_plan *p, int l2, int64_t br) {
    const char *f3 = getenv("WGC_FLASH3");
    if (f3 && *f3 && (atoi(f3) & 256))
        return false;
    return flash3_v4(p) && p->D == (16 << l2) && p->Lk % 64 == 0 && p->Lq % br == 0;
}

/* flash3's subgroup exchange (MC bit 3, flash_sg.wgsl): in mode bits mb with WQ (bits 0 and 6:
 * a warp holds 8 columns of 4 row groups) each row maximum meets across a warp's 8 columns by
 * three shuffles, and 4 shared quads per lane replace 32; where the device has subgroups of 8
 * lanes or more (aligned runs of local_invocation_index: NVIDIA's 32, lavapipe's 8).
 * WGC_FLASH3's bit 9 (512) turns it off (for measurements). */
static bool flash3_sg(wt_context *ctx, unsigned mb) {
    const char *f3 = getenv("WGC_FLASH3");
    if ((f3 && *f3 && (atoi(f3) & 512)) || (mb & 65) != 65 || !wg_device_has_feature(ctx->dev, WG_FEATURE_SUBGROUPS))
        return false;
    const wg_adapter_info *in = wg_adapter_get_info(wg_device_get_adapter(ctx->dev));
    return in && in->subgroup_min_size >= 8 && in->subgroup_max_size <= 128;
}

/* The flash kernel and its mode bits (key.mode[1]) for head dims up to 16 << l2; *br = query rows
 * per workgroup.  flash3 where D <= 128 and it fits the device's workgroup memory: for 64 < D <=
 * 128 (256 lanes, two per column of a row group) in mode 195 (a warp 4 row groups x 8 columns;
 * 64-dim K chunks fetched one chunk ahead into registers; P key-major), where the device has
 * subgroups for WQ's exchange (flash3_sg) with f32 and f16 inputs and with the S phase split over
 * head dims (flash3_sd) and the O phase over keys (flash3_ok): on the H200, causal B1 H32 S4096
 * D128, the run at 756bd7a (torch SDPA f32 42.39), f32 29.83 TFLOP/s (0.704 of SDPA) against 28.17
 * (mode 67 + SD, the default before), f16 28.58 against 26.44 (mode 243, the f16 default before);
 * without subgroups mode 195 with f32 (25.97, two runs at the commit that added the exchange) and
 * 114 with f16 (2 groups x 16 columns, fetched at the stores: 24.67); else (or where these do not
 * fit) mode 2 (128 lanes, 64-dim K chunks, fetched one chunk ahead); else flash2.  Earlier: mode 2
 * 19.7, flash2 15.0 (D <= 64 keeps mode 2: there mode 114's second half of the lanes would repeat
 * the first half's O work, and it was not measured; flash3's header has the other modes).
 * Benchmarks and tests: WGC_FLASH_KERNEL=2 takes flash2, =3 flash2 with its 16 KiB K/V buffer
 * where the device allows; WGC_FLASH3=<mode bits> a given flash3 configuration where it fits (plus
 * 256: without the unguarded path, flash3_exact; plus 512: without the subgroup exchange,
 * flash3_sg; plus 1024: S split over head dims, flash3_sd; plus 4096: O split over keys,
 * flash3_ok; WGC_FLASH3 leaves both off otherwise; plus 32768: the maxima from half 0's slots,
 * flash3_m2).  Registers on the H200: 170 per lane in the f32 default, 160 in f16 (one workgroup
 * per multiprocessor). */
static wt_kfile flash_kernel(wt_context *ctx, int l2, bool f16, uint8_t *mode, int64_t *br) {
    const wg_limits *lim = wg_device_get_limits(ctx->dev);
    uint64_t smax = lim ? lim->max_compute_workgroup_storage_size : 16384;
    const char *fk = getenv("WGC_FLASH_KERNEL"), *f3 = getenv("WGC_FLASH3");
    int64_t dp = 16 << l2;
    if (l2 <= 3 && !(fk && *fk)) {
        /* the default only on devices with more workgroup memory than lavapipe's 32 KiB (there
         * flash2 stays the default: flash3's unrolled code takes llvmpipe seconds to compile;
         * the tests run flash3 there through WGC_FLASH3) */
        bool sg = flash3_sg(ctx, 67);
        const uint8_t pref[] = { l2 == 3 ? (sg || !f16 ? 195 : 114) : 2, 2 };
        for (size_t i = 0; i <= sizeof pref; i++) {
            unsigned mb = i == 0 ? (f3 && *f3 ? (unsigned)atoi(f3) & 255 : 255) : pref[i - 1];
            if (mb == 255 || (i > 0 && smax <= 32768) || (uint64_t)flash3_smem(l2, mb) > smax)
                continue;
            *mode = (uint8_t)mb;
            *br = flash3_rpg(mb) * (mb & 8 ? 4 : 8);
            return WT_K_flash3;
        }
    }
    /* flash2's 16 KiB K/V chunk buffer (half the barriers) only on request and where it fits: on
     * the H200 the 8 KiB buffer's higher occupancy wins (causal B1 H32 S4096 D128 f32: 15.0
     * TFLOP/s against 12.5) */
    *br = dp > 128 ? 16 : 32;
    *mode = fk && !strcmp(fk, "3") && (uint64_t)(*br * dp * 4 + 16384 + *br * 64 * 4) <= smax ? 1 : 0;
    return WT_K_flash2;
}

/* flash3's S split over head dims (MC bit 4, SD) and O split over keys (MC bit 6, OK), in modes
 * with bit 6 (two lanes per column): both the default in mode 195 (where flash3_sg holds: the
 * default mode for f32 and f16 then); with WGC_FLASH3 set, its bits 10 (1024) and 12 (4096) */
static bool flash3_sd(wt_context *ctx, unsigned mb) {
    const char *f3 = getenv("WGC_FLASH3");
    if (f3 && *f3)
        return (atoi(f3) & 1024) && (mb & 64);
    return mb == 195 && flash3_sg(ctx, mb);
}

/* flash3's row maxima read from the two slots of half 0's warps alone (MC bit 7, M2, with SD and
 * flash3_sg: half 1's slots hold -inf there): opt-in, WGC_FLASH3's bit 15 (32768); on the H200
 * within noise of the default (flash3.wgsl's header) */
static bool flash3_m2(void) {
    const char *f3 = getenv("WGC_FLASH3");
    return f3 && *f3 && (atoi(f3) & 32768);
}

static bool flash3_ok(wt_context *ctx, unsigned mb) {
    const char *f3 = getenv("WGC_FLASH3");
    if (f3 && *f3)
        return (atoi(f3) & 4096) && (mb & 64);
    return mb == 195 && flash3_sg(ctx, mb);
}

static wt_tensor *flash(wt_context *ctx, const char *op, wt_tensor *q, wt_tensor *k, wt_tensor *v,
                        const wt_attention_desc *d, const at_plan *p) {
    wt_tensor *out = wt_tensor_new(ctx, op, q->dtype, p->out_nd, p->out_shape);
    if (!out || !out->numel)
        return out;
    int l2 = flash_log2(p->D);
    uint8_t mode = 0;
    int64_t br = 32;
    wt_kfile file = flash_kernel(ctx, l2, q->dtype == WT_F16, &mode, &br);
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
    wt_kkey key = at_key(file, 0, out->dtype, q->dtype, k->dtype, v->dtype);
    key.mode[0] = (uint8_t)l2;
    key.mode[1] = mode;
    key.mode[2] = (uint8_t)((d->causal ? 1 : 0) | (file == WT_K_flash3 && flash3_v4(p) ? 2 : 0) |
                            (file == WT_K_flash3 && flash3_exact(p, l2, br) ? 4 : 0) |
                            (file == WT_K_flash3 && flash3_sg(ctx, mode) ? 8 : 0) |
                            (file == WT_K_flash3 && flash3_sd(ctx, mode) ? 16 : 0) |
                            (file == WT_K_flash3 && flash3_ok(ctx, mode) ? 64 : 0) |
                            (file == WT_K_flash3 && flash3_m2() ? 128 : 0));
    wt_storage *in[3] = { q->st, k->st, v->st };
    if (wt_record_key(ctx, op, &key, &pr, out->st, 3, in) != WT_OK) {
        wt_release(out);
        return NULL;
    }
    return out;
}

wt_tensor *wt_scaled_dot_product_attention(wt_context *ctx, wt_tensor *q, wt_tensor *k, wt_tensor *v,
                                           const wt_attention_desc *desc) {
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
    if ((tc.precision == WT_ATTENTION_F16_TENSOR || tc.precision == WT_ATTENTION_F32_TENSOR) &&
        d.impl != WT_ATTENTION_PLAIN && wt_attention_coop_ok(ctx, q, k, v, &tc))
        return wt_attention_coop(ctx, op, q, k, v, &tc);   /* attention_coop.c: flash_coop / flash_x3.wgsl */
    bool fl = flash_ok(&p, &d);
    if (d.impl == WT_ATTENTION_FLASH && !fl)
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op,
                       "flash attention takes no mask tensor, 1 <= D <= 256 and Dv == D (got D %lld, Dv %lld%s)",
                       (long long)p.D, (long long)p.Dv, d.mask ? ", a mask" : "");
    if (d.impl == WT_ATTENTION_PLAIN || !fl)
        return plain(ctx, op, q, k, v, &d, &p);
    return flash(ctx, op, q, k, v, &d, &p);
}
