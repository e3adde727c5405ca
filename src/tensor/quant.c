/* quant.c - weights in a model file's encoding (wt_qweight): the GGML block formats, bf16, f16 and
 * f32, decoded on the GPU inside the kernels that use them.
 *
 * A weight W [N, K] is uploaded byte for byte as the file holds it (GGML blocks back to back, rows
 * one after another) into a buffer of its own, ceil(bytes / 4) words: not the pool's, whose size
 * classes would add up to 25% to a model's memory.  The buffer sits in a wt_storage without a pool
 * class, so recorded dispatches hold it as any input; wt_qweight_release submits the pending
 * batch when one still does, then releases the buffer (wg destroys it once the GPU is done) and
 * clears the bind group cache, which names buffers.  The upload is wg_queue_write_buffer straight
 * from the caller's memory (a GGUF mapping): no host copy, except the last 1-3 bytes of a size
 * that is not a multiple of 4.
 * Three kernels share kernels/qblock.wgsl, which decodes one "unit" of 32 consecutive weights of a
 * row from its bytes (one block, or an eighth of a 256-weight super-block):
 *   qmatvec  1-4 rows of x (decode): the blocks read in place by row groups of 8-256 lanes and
 *            1-4 weight rows (qmatvec_shape);
 *   qmatmul  5-63 rows, or f16 x: 32 x 64 output tiles, the weight tile decoded into workgroup
 *            memory 64 weights deep;
 *   qrows    whole rows decoded to f32: wt_qdequantize, wt_qembedding, and the prefill of 64 or
 *            more rows of f32 x, which decodes the weight a chunk at a time and runs wt_linear's
 *            tuned kernels on each chunk (exact weights, f32 math: the same products).
 * The key's OP is the format (the wt_qformat value, which qblock.wgsl names as QF_*).  Every loop
 * runs at most K / 64 times (qmatvec: K / 8 tasks over 8 lanes or more; qmatmul: steps of 64), so
 * K <= 2^20 keeps them under lavapipe's 65,535 iterations; offsets are u32 bytes, so a weight fits
 * 4 GiB. */
#include <stdio.h>
#include <string.h>

#include "tensor/internal.h"

#define QMAX_COLS (1 << 20)       /* K: the kernels' loops stay below 65,535 iterations */
#define QMATVEC_ROWS 4            /* rows of x the matrix-vector kernel takes (one vec4 of sums) */
/* qmatvec / qmatmul MC bits: bias; (qmatvec) log2 of the rows a row group takes in bits 1-2,
 * subgroups (kernel.c's bit), shuffles over 32 lanes */
enum { Q_BIAS = 1, Q_SG = 8, Q_SG32 = 16 };
#define QMATVEC_TASKS 8           /* qmatvec's lanes per row: about this many tasks each */
#define QDENSE_ROWS 64            /* f32 x of this many rows: decode the weight, then wt_linear */
#define QDENSE_CHUNK_BYTES (64ull << 20)   /* the decoded weight is made this many bytes at a time */

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
    wt_storage *st;               /* the raw blocks: a buffer of ceil(bytes / 4) words, not the pool's */
    bool counted;                 /* its buffer is in wt_stats' allocated and live bytes */
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
    uint64_t size = (need + 3) & ~(uint64_t)3;
    if (size > ctx->max_binding)
        return wt_fail(ctx, WT_STATUS_OUT_OF_MEMORY, op, "%s weight of %llu bytes exceeds what one buffer binding may "
                       "hold on this device (%llu)", q->name, (unsigned long long)need,
                       (unsigned long long)ctx->max_binding);
    wt_qweight *w = wt_alloc(ctx, sizeof *w);
    wt_storage *st = w ? wt_storage_new(ctx, op, 0) : NULL;   /* no pool buffer: ours, of the exact size */
    if (!st) {
        wt_free(ctx, w);
        return w ? NULL : wt_fail(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "out of host memory");
    }
    *w = (wt_qweight){ .ctx = ctx, .format = f, .rows = rows, .cols = cols, .bytes = need, .row_bytes = row_bytes,
                       .st = st };
    wg_device_push_error_scope(ctx->dev, WG_ERROR_TYPE_VALIDATION);
    wg_device_push_error_scope(ctx->dev, WG_ERROR_TYPE_OUT_OF_MEMORY);
    st->buf = wg_device_create_buffer(ctx->dev, &(wg_buffer_desc){ .label = "wt qweight", .size = size });
    st->bytes = size;
    /* the whole words straight from data; the last 1-3 bytes padded with zeros */
    uint64_t whole = need & ~(uint64_t)3;
    if (st->buf && whole)
        wg_queue_write_buffer(ctx->q, st->buf, 0, data, whole);
    if (st->buf && whole < need) {
        uint8_t tail[4] = { 0 };
        memcpy(tail, (const uint8_t *)data + whole, (size_t)(need - whole));
        wg_queue_write_buffer(ctx->q, st->buf, whole, tail, 4);
    }
    wg_error e1, e2;
    wg_error_id o = wg_device_pop_error_scope(ctx->dev, &e1);
    wg_error_id v = wg_device_pop_error_scope(ctx->dev, &e2);
    if (!st->buf || o != WG_ERR_NONE || v != WG_ERR_NONE || !wg_buffer_is_valid(st->buf)) {
        wt_qweight_release(w);
        if (v != WG_ERR_NONE && o == WG_ERR_NONE)
            return wt_fail(ctx, WT_STATUS_GPU, op, "upload: %s", e2.message);
        return wt_fail(ctx, WT_STATUS_OUT_OF_MEMORY, op, "cannot allocate %llu bytes on the GPU for a %s weight%s%s",
                       (unsigned long long)size, q->name, o != WG_ERR_NONE ? ": " : "",
                       o != WG_ERR_NONE ? e1.message : "");
    }
    w->counted = true;
    ctx->stats.allocated_bytes += size;   /* counted as live GPU memory in wt_stats, like the pool's */
    ctx->stats.live_buffers++;
    if (ctx->stats.allocated_bytes > ctx->stats.peak_allocated_bytes)
        ctx->stats.peak_allocated_bytes = ctx->stats.allocated_bytes;
    return w;
}

void wt_qweight_release(wt_qweight *w) {
    if (!w)
        return;
    wt_context *ctx = w->ctx;
    wt_storage *st = w->st;
    /* recorded dispatches hold the storage until their batch is submitted: submit it (the GPU
     * finishes with the buffer before wg destroys it), then the buffer goes, not to the pool */
    if (st->refs > 1)
        wt_flush(ctx);
    wg_buffer *buf = st->buf;
    uint64_t size = st->bytes;
    if (st->refs == 1)
        st->buf = NULL;
    wt_storage_unref(st);
    if (buf && !st->buf) {
        wt_bind_groups_clear(ctx);   /* cached bind groups name it */
        wg_buffer_release(buf);
        if (w->counted) {
            ctx->stats.allocated_bytes -= size;
            ctx->stats.live_buffers--;
        }
    }
    wt_free(ctx, w);
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

/* qmatvec's subgroup bits: shuffles over aligned runs of 8 lanes where the device has subgroups
 * of 8 to 128 lanes (as attention.c's flash3), of 32 where they have 32 or more */
static uint8_t q_subgroups(wt_context *ctx) {
    if (!wg_device_has_feature(ctx->dev, WG_FEATURE_SUBGROUPS))
        return 0;
    const wg_adapter_info *in = wg_adapter_get_info(wg_device_get_adapter(ctx->dev));
    if (!in || in->subgroup_min_size < 8 || in->subgroup_max_size > 128)
        return 0;
    return in->subgroup_min_size >= 32 ? Q_SG | Q_SG32 : Q_SG;
}

/* weights per task of qmatvec.wgsl (its TQ x quads): Q4_1's and Q8_0's short rows are cut finer */
static int64_t q_task_weights(wt_qformat f) {
    return f == WT_QFORMAT_Q4_1 || f == WT_QFORMAT_Q8_0 ? 8 : 32;
}

static int tune_lanes, tune_rows;   /* wt__qmatvec_tune's override (0: qmatvec_shape's choice) */

void wt__qmatvec_tune(int log2_lanes, int log2_rows) {
    tune_lanes = log2_lanes >= 3 && log2_lanes <= 8 ? log2_lanes : 0;
    tune_rows = log2_rows >= 0 && log2_rows <= 2 ? log2_rows + 1 : 0;
}

/* qmatvec's row groups for N rows of T tasks, a unit of 32 weights taking `unit` bytes: 2^lanes
 * lanes (8..256) and 2^rows rows each.  The rows of a group share each x load; the fewer weight
 * bytes per x byte, the more that pays: on the H200, Q4_K ran fastest with 4 rows (14336 x 4096:
 * 1857 GB/s against 1588 with 2, 954 with 1), Q6_K with 2 (128256 x 4096: 2197 against 1916
 * with 4), the small SmolLM2 matrices with 2.  Lanes: about QMATVEC_TASKS tasks each (14336 x
 * 4096 Q4_K: 16 lanes, 1857 GB/s, against 1814 with 32 and 1492 with 128). */
static void qmatvec_shape(int64_t N, int64_t T, uint32_t unit, int *lanes, int *rows) {
    int r = N >= 4096 && unit <= 20 ? 2 : N >= 256 ? 1 : 0;
    int l = 3;
    while (l < 8 && ((int64_t)1 << l) * QMATVEC_TASKS < T)
        l++;
    *lanes = tune_lanes ? tune_lanes : l;
    *rows = tune_rows ? tune_rows - 1 : r;
}

static wt_kkey q_key(wt_kfile file, const wt_qweight *w, wt_dtype out, wt_dtype x, wt_dtype bias) {
    wt_kkey key = wt_key(file, (uint32_t)w->format, out, WT_U32, x, WT_F32);
    key.in[2] = (uint8_t)bias;
    return key;
}

static wt_tensor *q_rows(wt_context *ctx, const char *op, wt_qweight *w, wt_tensor *ids, int64_t first, int ndim,
                         const int64_t *shape);

/* Prefill of f32 x: the weight decoded to f32 (exact) a chunk of rows at a time, each chunk through
 * wt_linear (the tuned tiled kernels), the chunks' outputs joined along the last dim.  A chunk's
 * f32 copy stays under QDENSE_CHUNK_BYTES (and an eighth of the context's memory_limit). */
static wt_tensor *q_dense(wt_context *ctx, const char *op, wt_tensor *x, wt_qweight *w, wt_tensor *bias) {
    int64_t N = w->rows, K = w->cols;
    uint64_t budget = QDENSE_CHUNK_BYTES;
    if (ctx->memory_limit && ctx->memory_limit / 8 < budget)
        budget = ctx->memory_limit / 8;
    int64_t rows = (int64_t)(budget / ((uint64_t)K * 4));
    rows = rows < 64 ? 64 : rows / 64 * 64;
    int64_t n = (N + rows - 1) / rows;
    if (n > 64)
        return wt_fail(ctx, WT_STATUS_OUT_OF_MEMORY, op, "%lld chunks of %lld rows: memory_limit too small",
                       (long long)n, (long long)rows);
    wt_tensor *parts[64] = { 0 };
    bool ok = true;
    for (int64_t i = 0; i < n && ok; i++) {
        int64_t n0 = i * rows, nc = N - n0 < rows ? N - n0 : rows;
        wt_tensor *wd = q_rows(ctx, op, w, NULL, n0, 2, (int64_t[]){ nc, K });
        wt_tensor *bs = bias && n > 1 ? wt_narrow(ctx, bias, 0, n0, nc) : bias ? (wt_retain(bias), bias) : NULL;
        parts[i] = wd && (!bias || bs) ? wt_linear(ctx, x, wd, bs) : NULL;
        ok = parts[i] != NULL;
        wt_release(wd);
        wt_release(bs);
    }
    wt_tensor *out = !ok ? NULL : n == 1 ? (wt_retain(parts[0]), parts[0]) : wt_cat(ctx, parts, (int)n, -1);
    for (int64_t i = 0; i < n; i++)
        wt_release(parts[i]);
    return out;
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
        return wt_fail(ctx, WT_STATUS_SHAPE, op,
                       "x %s does not end in the weight's %lld columns (weight %s [%lld, %lld])",
                       wt_shape_str(b, sizeof b, x->ndim, x->shape), (long long)K, wt_qformat_name(w->format),
                       (long long)N, (long long)K);
    if (bias && (bias->ndim != 1 || bias->shape[0] != N || (bias->dtype != WT_F32 && bias->dtype != x->dtype)))
        return wt_fail(ctx, bias->ndim == 1 && bias->shape[0] == N ? WT_STATUS_DTYPE : WT_STATUS_SHAPE, op,
                       "bias %s %s for %lld outputs: 1-d [%lld], f32 or x's dtype", wt_dtype_name(bias->dtype),
                       wt_shape_str(c, sizeof c, bias->ndim, bias->shape), (long long)N, (long long)N);
    int64_t shape[WT_MAX_DIMS];
    memcpy(shape, x->shape, (size_t)x->ndim * sizeof *shape);
    shape[x->ndim - 1] = N;
    int64_t M = x->numel / K;
    if (M * N > INT32_MAX)
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "output of %lld x %lld elements is too large", (long long)M,
                       (long long)N);
    if (M >= QDENSE_ROWS && x->dtype == WT_F32 && (!bias || bias->dtype == WT_F32))
        return q_dense(ctx, op, x, w, bias);
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
    int64_t groups;   /* workgroups of 256 invocations */
    uint8_t mc = bc ? Q_BIAS : 0;
    if (M <= QMATVEC_ROWS) {
        int64_t T = K / q_task_weights(w->format);
        int lanes, rows;
        qmatvec_shape(N, T, qformats[w->format].bytes * 32 / qformats[w->format].blk, &lanes, &rows);
        key = q_key(WT_K_qmatvec, w, out->dtype, xc->dtype, bc ? bc->dtype : WT_F32);
        key.mode[0] = (uint8_t)M;
        key.mode[1] = (uint8_t)lanes;
        key.mode[2] = (uint8_t)(mc | rows << 1 | q_subgroups(ctx));
        p.sv[1] = (uint32_t)T;
        int64_t rpw = (256 >> lanes) << rows;
        groups = (N + rpw - 1) / rpw;
    } else {
        int64_t nt = (N + 63) / 64, mt = (M + 31) / 32;
        key = q_key(WT_K_qmatmul, w, out->dtype, xc->dtype, bc ? bc->dtype : WT_F32);
        key.mode[2] = mc;
        p.aux[0] = (uint32_t)M;
        p.aux[1] = (uint32_t)nt;
        groups = nt * mt;
    }
    if (groups * 256 > UINT32_MAX) {
        wt_release(xc);
        wt_release(bc);
        wt_release(out);
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "too many workgroups (%lld)", (long long)groups);
    }
    p.n = (uint32_t)(groups * 256);
    wt_storage *in[3] = { w->st, xc->st, bc ? bc->st : NULL };
    wt_status s = wt_record_key(ctx, op, &key, &p, out->st, 3, in);
    wt_release(xc);
    wt_release(bc);
    if (s != WT_OK) {
        wt_release(out);
        return NULL;
    }
    return out;
}

/* qrows.wgsl: rows of w decoded, picked by ids (contiguous i32/u32) or (ids NULL) the rows from
 * `first` on, as many as shape holds */
static wt_tensor *q_rows(wt_context *ctx, const char *op, wt_qweight *w, wt_tensor *ids, int64_t first, int ndim,
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
    p.aux[0] = (uint32_t)first;
    wt_kkey key = q_key(WT_K_qrows, w, WT_F32, ids ? ids->dtype : WT_U32, WT_F32);
    if (ids) {
        key.mode[0] = 1;
        key.mode[1] = ids->dtype == WT_U32 ? 1 : 0;
        p.off[1] = (uint32_t)ids->offset;
    }
    wt_storage *in[2] = { w->st, ids ? ids->st : NULL };
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
    wt_tensor *out = q_rows(ctx, op, w, ic, 0, ids->ndim + 1, shape);
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
    return q_rows(ctx, op, w, NULL, 0, 2, shape);
}
