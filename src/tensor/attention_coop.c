/* attention_coop.c - scaled dot-product attention on tensor cores (precisions
 * WT_ATTENTION_F16_TENSOR, opt-in, and WT_ATTENTION_F32_TENSOR, the default for f32): flash_coop.wgsl / flash_x3.wgsl, q, k, v
 * through WGSL subgroup matrices (Q K^T and P V as 16 x 16 x 16 f16 products accumulated in f32,
 * the online softmax in f32; P rounded to f16, or with f32 operands every operand and P split
 * into f16 hi + lo parts, three products each).  attention.c routes here after its plan() has
 * validated the shapes (same rank, [B, H, Lq, D] / [B, Hkv, Lk, D] with H a multiple of Hkv) when
 * wt_attention_coop_ok() says the kernel can take them: the device has the 16 x 16 x 16 f16 -> f32
 * shapes with subgroups of 32 (wt_matmul_tensor_cores), no mask tensor, D = Dv = 64 or 128,
 * operands of the precision's dtype with the head dim contiguous and every other stride and offset
 * whole 16-byte chunks.  Otherwise the default path runs.
 * One workgroup per 64 query rows of one (batch, head); see the kernel's header. */
#include <math.h>
#include <string.h>

#include "tensor/internal.h"

/* t as 4-d (batch, head, row, d): strides in st, false unless 2 <= ndim <= 4 */
static bool coop_view(const wt_tensor *t, int64_t shape[4], int64_t st[4]) {
    if (t->ndim < 2 || t->ndim > 4)
        return false;
    int pad = 4 - t->ndim;
    for (int d = 0; d < 4; d++) {
        shape[d] = d < pad ? 1 : t->shape[d - pad];
        st[d] = d < pad || shape[d] == 1 ? 0 : t->strides[d - pad];
    }
    return true;
}

/* the precision's dtype, the head dim D contiguous, every other stride and the offset whole
 * 16-byte chunks (8 halves, 4 floats) */
static bool coop_operand(const wt_tensor *t, int64_t D, wt_dtype dt) {
    int64_t shape[4], st[4], epc = dt == WT_F16 ? 8 : 4;
    if (t->dtype != dt || !coop_view(t, shape, st) || shape[3] != D || st[3] != 1 || t->offset % epc)
        return false;
    for (int d = 0; d < 3; d++)
        if (st[d] % epc)
            return false;
    return true;
}

bool wt_attention_tensor_cores(wt_context *ctx) {
    return wt_matmul_tensor_cores(ctx);
}

bool wt_attention_coop_ok(wt_context *ctx, const wt_tensor *q, const wt_tensor *k, const wt_tensor *v,
                          const wt_attention_desc *d) {
    int64_t D = q->shape[q->ndim - 1];
    if (d->mask || (D != 64 && D != 128) || v->shape[v->ndim - 1] != D || k->shape[k->ndim - 2] > WT_FLASH_MAX_KEYS)
        return false;
    wt_dtype dt = d->precision == WT_ATTENTION_F32_TENSOR ? WT_F32 : WT_F16;
    if (!coop_operand(q, D, dt) || !coop_operand(k, D, dt) || !coop_operand(v, D, dt))
        return false;
    return wt_matmul_tensor_cores(ctx);
}

wt_tensor *wt_attention_coop(wt_context *ctx, const char *op, wt_tensor *q, wt_tensor *k, wt_tensor *v,
                             const wt_attention_desc *d) {
    int64_t qs[4], qst[4], ks[4], kst[4], vs[4], vst[4];
    coop_view(q, qs, qst);
    coop_view(k, ks, kst);
    coop_view(v, vs, vst);
    int64_t B = qs[0], H = qs[1], Lq = qs[2], D = qs[3], Hkv = ks[1], Lk = ks[2];
    bool x3 = d->precision == WT_ATTENTION_F32_TENSOR;   /* flash_x3.wgsl: f32 split into f16 hi + lo */
    wt_dtype dt = x3 ? WT_F32 : WT_F16;
    wt_tensor *out = wt_tensor_new(ctx, op, dt, q->ndim, q->shape);
    if (!out || !out->numel)
        return out;
    int64_t nqb = (Lq + 63) / 64, groups = B * H * nqb;
    if (groups * 256 > UINT32_MAX || out->numel > INT32_MAX) {
        wt_release(out);
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "too many query blocks (%lld) for tensor-core attention",
                       (long long)groups);
    }
    wt_params pr;
    memset(&pr, 0, sizeof pr);
    pr.n = (uint32_t)(groups * 256);
    pr.shape[0] = (uint32_t)B;
    pr.shape[1] = (uint32_t)H;
    pr.shape[2] = (uint32_t)Lq;
    pr.shape[3] = (uint32_t)Lk;
    pr.shape[4] = (uint32_t)D;
    pr.shape[5] = (uint32_t)(H / Hkv);
    pr.shape[6] = (uint32_t)nqb;
    float scale = (float)(d->scale != 0 ? d->scale : 1.0 / sqrt((double)D));
    memcpy(&pr.sv[0], &scale, 4);
    const int64_t *st[3] = { qst, kst, vst };
    const wt_tensor *t[3] = { q, k, v };
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 4; j++)
            pr.st[i][j] = (int32_t)st[i][j];
        pr.off[i] = (uint32_t)t[i]->offset;
    }
    wt_kkey key = wt_key(x3 ? WT_K_flash_x3 : WT_K_flash_coop, 0, dt, dt, dt, WT_F32);
    key.in[2] = dt;
    key.mode[0] = D == 128 ? 1 : 0;
    key.mode[2] = d->causal ? 1 : 0;
    wt_storage *in[3] = { q->st, k->st, v->st };
    if (wt_record_key(ctx, op, &key, &pr, out->st, 3, in) != WT_OK) {
        wt_release(out);
        return NULL;
    }
    return out;
}
