/* quant.c - weights in a model file's encoding (wt_qweight): the GGML block formats, bf16, f16 and
 * f32, decoded on the GPU inside the kernels that use them.
 *
 * A weight W [N, K] is uploaded byte for byte as the file holds it (GGML blocks back to back, rows
 * one after another) into one pool buffer, held as a u32 tensor of ceil(bytes / 4) words, so its
 * lifetime follows the tensor rules (recorded work keeps it; a release after the context's
 * destruction is safe).  The upload is wg_queue_write_buffer straight from the caller's memory (a
 * GGUF mapping): no host copy, except the last 1-3 bytes of a size that is not a multiple of 4.
 * Three kernels share kernels/qblock.wgsl, which decodes one "unit" of 32 consecutive weights of a
 * row from its bytes (one block, or an eighth of a 256-weight super-block):
 *   qmatvec  1-4 rows of x (decode): the blocks read in place, 8-32 lanes per weight row;
 *   qmatmul  more rows (prefill): 32 x 64 output tiles, the weight tile decoded into workgroup
 *            memory 64 weights deep;
 *   qrows    whole rows decoded to f32: wt_qdequantize and wt_qembedding.
 * The key's OP is the format (the wt_qformat value, which qblock.wgsl names as QF_*).  Every loop
 * runs at most K / 32 / 8 (qmatvec) or K / 64 (qmatmul) times, so K <= 2^20 keeps them under
 * lavapipe's 65,535 iterations; offsets are u32 bytes, so a weight fits 4 GiB. */
#include <stdio.h>
#include <string.h>

#include "tensor/internal.h"

#define QMAX_COLS (1 << 20)       /* K: the kernels' loops stay below 65,535 iterations */
#define QMATVEC_ROWS 4            /* rows of x the matrix-vector kernel takes (one vec4 of sums) */
enum { Q_BIAS = 1, Q_SG = 8 };    /* qmatvec / qmatmul MC bits (Q_SG is kernel.c's subgroup bit) */

static const struct qformat {
    const char *name;
    uint32_t blk, bytes;
} qformats[WT_QFORMAT_COUNT] = {
    [WT_QFORMAT_NONE] = { "?", 0, 0 },
#define X(name, str, blk, bytes) [WT_QFORMAT_##name] = { str, blk, bytes },
    WT_QFORMATS(X)
#undef X
};
/* qblock.wgsl's QF_* codes are these values */
_Static_assert(WT_QFORMAT_F32 == 1 && WT_QFORMAT_BF16 == 3 && WT_QFORMAT_Q4_0 == 4 && WT_QFORMAT_Q8_0 == 8 &&
                   WT_QFORMAT_Q2_K == 9 && WT_QFORMAT_Q6_K == 13 && WT_QFORMAT_COUNT == 14,
               "qblock.wgsl's QF_* codes");

struct wt_qweight {
    wt_context *ctx;
    wt_qformat format;
    int64_t rows, cols;
    uint64_t bytes, row_bytes;
    wt_tensor *t;                 /* u32 [ceil(bytes / 4)]: the raw blocks */
};

const char *wt_qformat_name(wt_qformat f) {
    return (unsigned)f < WT_QFORMAT_COUNT ? qformats[f].name : "?";
}

uint32_t wt_qformat_block_elements(wt_qformat f) {
    return (unsigned)f < WT_QFORMAT_COUNT ? qformats[f].blk : 0;
}

uint32_t wt_qformat_block_bytes(wt_qformat f) {
    return (unsigned)f < WT_QFORMAT_COUNT ? qformats[f].bytes : 0;
}

wt_qformat wt_qweight_format(const wt_qweight *w) {
    return w ? w->format : WT_QFORMAT_NONE;
}

int64_t wt_qweight_rows(const wt_qweight *w) {
    return w ? w->rows : 0;
}

int64_t wt_qweight_cols(const wt_qweight *w) {
    return w ? w->cols : 0;
}

uint64_t wt_qweight_bytes(const wt_qweight *w) {
    return w ? w->bytes : 0;
}

wt_qweight *wt_qweight_upload(wt_context *ctx, wt_qformat f, int64_t rows, int64_t cols, const void *data,
                              size_t bytes) {
    const char *op = "wt_qweight_upload";
    if (!ctx)
        return NULL;
    if ((unsigned)f >= WT_QFORMAT_COUNT || f == WT_QFORMAT_NONE)
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "unknown format %d", (int)f);
    const struct qformat *q = &qformats[f];
    if (rows < 1 || cols < 1 || cols % 32 || cols % q->blk || cols > QMAX_COLS)
        return wt_fail(ctx, WT_STATUS_SHAPE, op,
                       "%s weight of %lld rows x %lld columns: columns must be a positive multiple of %u "
                       "(and 32) up to %d, rows positive",
                       q->name, (long long)rows, (long long)cols, q->blk > 32 ? q->blk : 32u, QMAX_COLS);
    uint64_t row_bytes = (uint64_t)cols / q->blk * q->bytes;
    if ((uint64_t)rows > (UINT32_MAX - 8) / row_bytes)
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "%s weight of %lld x %lld takes 4 GiB or more", q->name,
                       (long long)rows, (long long)cols);
    uint64_t need = (uint64_t)rows * row_bytes;
    if (bytes != need)
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "%s weight of %lld x %lld is %llu bytes, got %zu", q->name,
                       (long long)rows, (long long)cols, (unsigned long long)need, bytes);
    if (!data)
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "data is NULL");
    wt_qweight *w = wt_alloc(ctx, sizeof *w);
    if (!w)
        return wt_fail(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "out of host memory");
    int64_t words = (int64_t)((need + 3) / 4);
    w->t = wt_tensor_new(ctx, op, WT_U32, 1, &words);
    if (!w->t) {
        wt_free(ctx, w);
        return NULL;
    }
    w->ctx = ctx;
    w->format = f;
    w->rows = rows;
    w->cols = cols;
    w->bytes = need;
    w->row_bytes = row_bytes;
    /* the whole words straight from data; the last 1-3 bytes padded with zeros */
    uint64_t whole = need & ~(uint64_t)3;
    wg_device_push_error_scope(ctx->dev, WG_ERROR_TYPE_VALIDATION);
    if (whole)
        wg_queue_write_buffer(ctx->q, w->t->st->buf, 0, data, whole);
    if (whole < need) {
        uint8_t tail[4] = { 0 };
        memcpy(tail, (const uint8_t *)data + whole, (size_t)(need - whole));
        wg_queue_write_buffer(ctx->q, w->t->st->buf, whole, tail, 4);
    }
    wg_error e;
    if (wg_device_pop_error_scope(ctx->dev, &e) != WG_ERR_NONE) {
        wt_qweight_release(w);
        return wt_fail(ctx, WT_STATUS_GPU, op, "upload: %s", e.message);
    }
    return w;
}

void wt_qweight_release(wt_qweight *w) {
    if (!w)
        return;
    wt_tensor *t = w->t;
    wt_free(w->ctx, w);   /* the context's shell lives while t is held */
    wt_release(t);
}

static bool check_weight(wt_context *ctx, const char *op, const wt_qweight *w) {
    if (!w) {
        if (ctx->status == WT_OK)
            wt_fail(ctx, WT_STATUS_NULL_TENSOR, op, "NULL weight passed");
        return false;
    }
    if (w->ctx != ctx) {
        wt_fail(ctx, WT_STATUS_WRONG_CONTEXT, op, "weight belongs to another context");
        return false;
    }
    return true;
}

/* subgroups for qmatvec's shuffles: aligned runs of 8 lanes or more (as attention.c's flash3) */
static bool q_subgroups(wt_context *ctx) {
    if (!wg_device_has_feature(ctx->dev, WG_FEATURE_SUBGROUPS))
        return false;
    const wg_adapter_info *in = wg_adapter_get_info(wg_device_get_adapter(ctx->dev));
    return in && in->subgroup_min_size >= 8 && in->subgroup_max_size <= 128;
}

static wt_kkey q_key(wt_kfile file, const wt_qweight *w, wt_dtype out, wt_dtype x, wt_dtype bias) {
    wt_kkey key = wt_key(file, (uint32_t)w->format, out, WT_U32, x, WT_F32);
    key.in[2] = (uint8_t)bias;
    return key;
}

wt_tensor *wt_qlinear(wt_context *ctx, wt_tensor *x, wt_qweight *w, wt_tensor *bias) {
    const char *op = "wt_qlinear";
    if (!ctx || !wt_check_tensor(ctx, op, x) || !check_weight(ctx, op, w) || (bias && !wt_check_tensor(ctx, op, bias)))
        return NULL;
    char b[160], c[160];
    if (x->dtype != WT_F32 && x->dtype != WT_F16)
        return wt_fail(ctx, WT_STATUS_DTYPE, op, "x %s %s: f32 or f16 needed", wt_dtype_name(x->dtype),
                       wt_shape_str(b, sizeof b, x->ndim, x->shape));
    int64_t N = w->rows, K = w->cols;
    if (x->ndim < 1 || x->shape[x->ndim - 1] != K)
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "x %s does not end in the weight's %lld columns (weight %s [%lld, %lld])",
                       wt_shape_str(b, sizeof b, x->ndim, x->shape), (long long)K, wt_qformat_name(w->format),
                       (long long)N, (long long)K);
    if (bias && (bias->ndim != 1 || bias->shape[0] != N || (bias->dtype != WT_F32 && bias->dtype != x->dtype)))
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "bias %s %s for %lld outputs: 1-d [%lld], f32 or x's dtype",
                       wt_dtype_name(bias->dtype), wt_shape_str(c, sizeof c, bias->ndim, bias->shape), (long long)N,
                       (long long)N);
    int64_t shape[WT_MAX_DIMS];
    memcpy(shape, x->shape, (size_t)x->ndim * sizeof *shape);
    shape[x->ndim - 1] = N;
    int64_t M = x->numel / K;
    if (M * N > INT32_MAX)
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "output of %lld x %lld elements is too large", (long long)M,
                       (long long)N);
    wt_tensor *out = wt_tensor_new(ctx, op, x->dtype, x->ndim, shape);
    if (!out || !out->numel)
        return out;
    /* x as contiguous rows from a quad boundary (K % 32 keeps every row's start aligned) */
    wt_tensor *xc = wt_is_contiguous(x) && x->offset % 4 == 0 ? (wt_retain(x), x) : wt_contiguous(ctx, x);
    wt_tensor *bc = !bias ? NULL : bias->strides[0] == 1 ? (wt_retain(bias), bias) : wt_contiguous(ctx, bias);
    if (!xc || (bias && !bc)) {
        wt_release(xc);
        wt_release(bc);
        wt_release(out);
        return NULL;
    }
    wt_params p;
    memset(&p, 0, sizeof p);
    p.sv[0] = (uint32_t)N;
    p.sv[1] = (uint32_t)(K / 32);
    p.sv[2] = (uint32_t)w->row_bytes;
    p.sv[3] = (uint32_t)(K / 4);
    p.off[1] = (uint32_t)(xc->offset / 4);
    p.off[2] = bc ? (uint32_t)bc->offset : 0;
    wt_kkey key;
    uint8_t mc = bc ? Q_BIAS : 0;
    if (M <= QMATVEC_ROWS) {
        /* lanes per row: 32 for rows of 32 units or more, else 16 or 8 (so few stay idle) */
        int64_t U = K / 32;
        uint8_t mb = U >= 32 ? 5 : U >= 12 ? 4 : 3;
        key = q_key(WT_K_qmatvec, w, out->dtype, xc->dtype, bc ? bc->dtype : WT_F32);
        key.mode[0] = (uint8_t)M;
        key.mode[1] = mb;
        key.mode[2] = (uint8_t)(mc | (q_subgroups(ctx) ? Q_SG : 0));
        int64_t rpw = 256 >> mb;
        p.n = (uint32_t)((N + rpw - 1) / rpw * 256);
    } else {
        int64_t nt = (N + 63) / 64, mt = (M + 31) / 32;
        if (nt * mt * 256 > UINT32_MAX) {
            wt_release(xc);
            wt_release(bc);
            wt_release(out);
            return wt_fail(ctx, WT_STATUS_SHAPE, op, "too many tiles (%lld)", (long long)(nt * mt));
        }
        key = q_key(WT_K_qmatmul, w, out->dtype, xc->dtype, bc ? bc->dtype : WT_F32);
        key.mode[2] = mc;
        p.aux[0] = (uint32_t)M;
        p.aux[1] = (uint32_t)nt;
        p.n = (uint32_t)(nt * mt * 256);
    }
    wt_storage *in[3] = { w->t->st, xc->st, bc ? bc->st : NULL };
    wt_status s = wt_record_key(ctx, op, &key, &p, out->st, 3, in);
    wt_release(xc);
    wt_release(bc);
    if (s != WT_OK) {
        wt_release(out);
        return NULL;
    }
    return out;
}

/* qrows.wgsl: rows of w decoded, picked by ids (contiguous i32/u32) or all of them (ids NULL) */
static wt_tensor *q_rows(wt_context *ctx, const char *op, wt_qweight *w, wt_tensor *ids, int ndim,
                         const int64_t *shape) {
    wt_tensor *out = wt_tensor_new(ctx, op, WT_F32, ndim, shape);
    if (!out || !out->numel)
        return out;
    int64_t U = w->cols / 32, rows = out->numel / w->cols;
    if (rows * U > UINT32_MAX / 8) {
        wt_release(out);
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "%lld rows of %lld are too many", (long long)rows,
                       (long long)w->cols);
    }
    wt_params p;
    memset(&p, 0, sizeof p);
    p.n = (uint32_t)(rows * U);
    p.sv[0] = (uint32_t)w->rows;
    p.sv[1] = (uint32_t)U;
    p.sv[2] = (uint32_t)w->row_bytes;
    wt_kkey key = q_key(WT_K_qrows, w, WT_F32, ids ? ids->dtype : WT_U32, WT_F32);
    if (ids) {
        key.mode[0] = 1;
        key.mode[1] = ids->dtype == WT_U32 ? 1 : 0;
        p.off[1] = (uint32_t)ids->offset;
    }
    wt_storage *in[2] = { w->t->st, ids ? ids->st : NULL };
    if (wt_record_key(ctx, op, &key, &p, out->st, 2, in) != WT_OK) {
        wt_release(out);
        return NULL;
    }
    return out;
}

wt_tensor *wt_qembedding(wt_context *ctx, wt_qweight *w, wt_tensor *ids) {
    const char *op = "wt_qembedding";
    if (!ctx || !check_weight(ctx, op, w) || !wt_check_tensor(ctx, op, ids))
        return NULL;
    char b[160];
    if (ids->dtype != WT_I32 && ids->dtype != WT_U32)
        return wt_fail(ctx, WT_STATUS_DTYPE, op, "ids of shape %s have dtype %s (i32 or u32 needed)",
                       wt_shape_str(b, sizeof b, ids->ndim, ids->shape), wt_dtype_name(ids->dtype));
    if (ids->ndim >= WT_MAX_DIMS)
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "ids of shape %s give more than %d dims",
                       wt_shape_str(b, sizeof b, ids->ndim, ids->shape), WT_MAX_DIMS);
    int64_t shape[WT_MAX_DIMS], numel;
    memcpy(shape, ids->shape, (size_t)ids->ndim * sizeof *shape);
    shape[ids->ndim] = w->cols;
    if (!wt_check_shape(ctx, op, ids->ndim + 1, shape, &numel))
        return NULL;
    wt_tensor *ic = wt_is_contiguous(ids) ? (wt_retain(ids), ids) : wt_contiguous(ctx, ids);
    if (!ic)
        return NULL;
    wt_tensor *out = q_rows(ctx, op, w, ic, ids->ndim + 1, shape);
    wt_release(ic);
    return out;
}

wt_tensor *wt_qdequantize(wt_context *ctx, wt_qweight *w) {
    const char *op = "wt_qdequantize";
    if (!ctx || !check_weight(ctx, op, w))
        return NULL;
    int64_t shape[2] = { w->rows, w->cols }, numel;
    if (!wt_check_shape(ctx, op, 2, shape, &numel))
        return NULL;
    return q_rows(ctx, op, w, NULL, 2, shape);
}
