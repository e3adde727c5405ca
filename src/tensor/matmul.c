/* matmul.c - the matmul family: wt_matmul (torch.matmul rules: 1-D operands, batched 3-D/4-D
 * with broadcast batch dims), wt_linear (x . W^T + b), wt_matmul_ex (a precision mode) and
 * wt_matmul_kernel_ex (a kernel forced: the tuner, tests, conv.c).
 *
 * A product goes through three steps.  plan(): operands are read in place through their strides
 * (a transposed view is a stride swap), so a plan is (shape, strides, offset) per operand after
 * the batch dims are broadcast and collapsed (size-1 dims dropped, mergeable neighbours merged;
 * batch dims that continue A's rows become rows).  choose(): the kernel forced by the caller or
 * by the policy (wt_policy.matmul_kernel), else for WT_MATMUL_F16_TENSOR the tensor-core kernels
 * where the device and the shape allow, else matvec for one output row or column, else the
 * autotuner's choice for the shape class (autotune.c), else heuristic().  One exception to
 * reading in place: a large ragged product (no 16-byte kernel can read it) runs on zero-padded
 * copies when that pays (pad_plan), its result a view of the padded product.  record(): the
 * dispatch.  The kernels, one row each in internal.h's WT_MM_KERNELS: matmul2.wgsl (any strides),
 * matmul3.wgsl and matmul4.wgsl (16-byte loads and stores for quad-aligned operands; matmul4 with
 * swizzled tiles and a tile-exact specialisation), matvec.wgsl (the bandwidth-bound decode
 * path), matmul_coop.wgsl (subgroup matrices) and matmul_wgm.wgsl (workgroup matrices).  The
 * tiled kernels accumulate in f32 (f16 operands are widened on load) and round once on store. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tensor/internal.h"

#define MM_MAX_BATCH (WT_MAX_DIMS - 2)

typedef struct mm_plan {
    int64_t M, N, K;
    int nb;                               /* collapsed batch dims */
    int64_t bshape[MM_MAX_BATCH];
    int64_t ast[MM_MAX_BATCH], bst[MM_MAX_BATCH];
    int64_t batch;                        /* product of bshape */
    int64_t a_off, a_ms, a_ks;            /* A (m, k) at a_off + m * a_ms + k * a_ks */
    int64_t b_off, b_ks, b_ns;            /* B (k, n) at b_off + k * b_ks + n * b_ns */
    int64_t c_off, c_ns;                  /* bias (n) at c_off + n * c_ns */
    wt_dtype odt;                         /* the result: dtype, rank, shape */
    int ond;
    int64_t shape[WT_MAX_DIMS];
    char sa[160], sb[160];                /* the operands' shapes, for messages */
} mm_plan;

/* The kernels' table (internal.h WT_MM_KERNELS), indexed by wt_mm_kernel. */
static const struct mm_kernel_row {
    const char *name;
    wt_kfile file;
    uint8_t op;
    uint16_t tm, tn, bk;
    uint32_t smem;
    bool v4, sk;
} kt[WT_MM_KERNEL_COUNT] = {
    [WT_MM_AUTO] = { "auto", WT_K_COUNT, 0, 0, 0, 0, 0, false, false },
#define X(nm, str, file, op, tm, tn, bk, smem, v4, sk) [WT_MM_##nm] = { str, WT_K_##file, op, tm, tn, bk, smem, v4, sk },
    WT_MM_KERNELS(X)
#undef X
};

const char *wt_mm_kernel_name(wt_mm_kernel k) {
    return (unsigned)k < WT_MM_KERNEL_COUNT ? kt[k].name : "?";
}

wt_mm_kernel wt_mm_kernel_by_name(const char *name) {
    for (int k = 1; name && k < WT_MM_KERNEL_COUNT; k++)
        if (!strcmp(name, kt[k].name))
            return (wt_mm_kernel)k;
    return WT_MM_AUTO;
}

bool wt_matmul_kernel_known(const char *name) {
    return wt_mm_kernel_by_name(name) != WT_MM_AUTO;
}

size_t wt_matmul_kernel_names(const char **out, size_t cap) {
    for (size_t k = 1; out && k < WT_MM_KERNEL_COUNT && k - 1 < cap; k++)
        out[k - 1] = kt[k].name;
    return WT_MM_KERNEL_COUNT - 1;
}

static int64_t cdiv(int64_t a, int64_t b) {
    return (a + b - 1) / b;
}

/* Can matvec.wgsl run this plan?  It needs no batch, one output row (M == 1: rows of B^T) or
 * column (N == 1: rows of A) whose matrix is k-contiguous with quad-aligned rows, and a
 * contiguous, quad-aligned vector. */
static bool matvec_ok(const mm_plan *p) {
    if (p->batch != 1 || p->K % 4)
        return false;
    if (p->M == 1)
        return p->b_ks == 1 && p->b_ns % 4 == 0 && p->b_off % 4 == 0 && p->a_ks == 1 && p->a_off % 4 == 0;
    if (p->N == 1)
        return p->a_ks == 1 && p->a_ms % 4 == 0 && p->a_off % 4 == 0 && p->b_ks == 1 && p->b_off % 4 == 0;
    return false;
}

/* Is B k-contiguous (x . W^T, a transposed view)?  The kernels' MB == 1 (key.mode[1]). */
static bool b_kcontig(const mm_plan *p) {
    return p->b_ns != 1 && p->b_ks == 1;
}


/* Is A m-contiguous (a transposed view)?  The kernels' MA == 1 (key.mode[0]). */
static bool a_mcontig(const mm_plan *p) {
    return p->a_ks != 1 && p->a_ms == 1;
}

/* Can matmul3.wgsl / matmul4.wgsl (16-byte loads and stores) run this plan?  A row-major or
 * m-contiguous (A^T row-major, M a multiple of 4), B row-major or k-contiguous (B^T row-major:
 * linear's weight), their contiguous runs, offsets and batch strides quad-aligned, K and N
 * multiples of 4. */
static bool v4_ok(const mm_plan *p) {
    int64_t a_rows = a_mcontig(p) ? p->a_ks : p->a_ms;     /* stride between A's contiguous runs */
    int64_t b_rows = b_kcontig(p) ? p->b_ns : p->b_ks;     /* and B's */
    if ((p->a_ks != 1 && !a_mcontig(p)) || (p->b_ns != 1 && !b_kcontig(p)) || (a_mcontig(p) && p->M % 4) ||
        p->K % 4 || p->N % 4 || a_rows % 4 || b_rows % 4 || p->a_off % 4 || p->b_off % 4)
        return false;
    for (int d = 0; d < p->nb; d++)
        if (p->ast[d] % 4 || p->bst[d] % 4)
            return false;
    return true;
}

/* The operands' layout for the autotuner's class (WT_MM_LAYOUT_*): key.mode[0..1], and whether
 * the 16-byte kernels can run the plan. */
static unsigned layout_of(const mm_plan *p) {
    return (b_kcontig(p) ? WT_MM_LAYOUT_B_KCONTIG : 0u) | (a_mcontig(p) ? WT_MM_LAYOUT_A_COLS : 0u) |
           (v4_ok(p) ? 0u : WT_MM_LAYOUT_RAGGED);
}

/* Without a tuned choice: 16-byte kernels where the operands allow, 128 x 128 tiles when there are
 * >= 256 of them (matmul4's tile128x128v4s on tile-exact shapes, H200 4096^3 3.39 ms, else
 * matmul3's tile128x128v4w, 3.99 ms), else for K >= 2048 tile128x64v4s_sk (split-K where
 * split_of finds a split; H200 tuner, A^T . B 768 x 3072 x 4096: 483 us against 903 for
 * tile64x64v4w, 768 x 768 x 4096: 140 against 268; row-major 4096 x 768 x 3072: 540 against
 * 709), else tile64x64v4w (1024^3 72 us against 82 for tile64x64u); other operands: tile128x64w where there are >= 128 of its tiles (within 3% of
 * the fastest in-place kernel on 4095 x 4097 x 1023), else tile64x64u (more of the GPU busy
 * below about one tile per SM).  The transposed layouts matmul3/matmul4 read in place take the
 * same rule (x . W^T 4096^3 tile128x128v4s 3.51 ms against 4.85 for tile128x64w). */
static wt_mm_kernel heuristic(const mm_plan *p) {
    if (matvec_ok(p))
        return WT_MM_MATVEC;
    if (v4_ok(p)) {
        if (p->batch * cdiv(p->M, 128) * cdiv(p->N, 128) >= 256)
            return p->M % 128 == 0 && p->N % 128 == 0 && p->K % 8 == 0 ? WT_MM_TILE128V4S : WT_MM_TILE128V4W;
        return p->K >= 2048 ? WT_MM_TILE128X64V4SK : WT_MM_TILE64V4W;
    }
    if (p->batch * cdiv(p->M, 128) * cdiv(p->N, 64) >= 128)
        return WT_MM_TILE128X64W;
    return WT_MM_TILE64U;
}

/* The product's dispatch: out from the two operands and the bias (an empty tensor's storage has
 * no buffer: the binding gets the dummy). */
static wt_status record_product(wt_context *ctx, const char *op, const wt_kkey *key, wt_params *pr, wt_tensor *out,
                                wt_tensor *a, wt_tensor *b, wt_tensor *bias) {
    wt_storage *in[3] = { a->st->buf ? a->st : NULL, b->st->buf ? b->st : NULL,
                          bias && bias->st->buf ? bias->st : NULL };
    return wt_record_key(ctx, op, key, pr, out->st, 3, in);
}

static wt_status record_matvec(wt_context *ctx, const char *op, const mm_plan *p, wt_tensor *out, wt_tensor *a,
                               wt_tensor *b, wt_tensor *bias) {
    bool rows_of_a = p->N == 1 && !(p->M == 1 && p->b_ks == 1 && p->b_ns % 4 == 0);
    wt_tensor *mat = rows_of_a ? a : b, *vec = rows_of_a ? b : a;
    int64_t R = rows_of_a ? p->M : p->N;
    wt_kkey key = wt_key(WT_K_matvec, 0, out->dtype, mat->dtype, vec->dtype, WT_F32);
    key.in[2] = (uint8_t)(bias ? bias->dtype : WT_F32);
    key.mode[2] = bias ? 1 : 0;
    wt_params pr;
    memset(&pr, 0, sizeof pr);
    int64_t groups = cdiv(R, 8);
    pr.n = (uint32_t)(groups * 256);
    pr.off[0] = (uint32_t)((rows_of_a ? p->a_off : p->b_off) / 4);
    pr.off[1] = (uint32_t)((rows_of_a ? p->b_off : p->a_off) / 4);
    pr.off[2] = (uint32_t)p->c_off;
    pr.sv[0] = (uint32_t)R;
    pr.sv[1] = (uint32_t)(p->K / 4);
    pr.sv[2] = (uint32_t)((rows_of_a ? p->a_ms : p->b_ns) / 4);
    pr.sv[3] = (uint32_t)(rows_of_a ? 0 : p->c_ns);
    return record_product(ctx, op, &key, &pr, out, mat, vec, bias);
}

static wt_status record_tiled(wt_context *ctx, const char *op, const mm_plan *p, wt_mm_kernel kind,
                              wt_tensor *out, wt_tensor *a, wt_tensor *b, wt_tensor *bias) {
    if (wg_device_get_limits(ctx->dev)->max_compute_workgroup_storage_size < kt[kind].smem)
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "kernel %s needs %u bytes of workgroup memory",
                         kt[kind].name, (unsigned)kt[kind].smem);
    int64_t tm = kt[kind].tm, tn = kt[kind].tn;
    uint8_t kop = kt[kind].op;
    /* matmul4.wgsl EXACT: tile-exact shapes compile without range selects and index clamps */
    if (kt[kind].file == WT_K_matmul4 && p->M % tm == 0 && p->N % tn == 0 && p->K % kt[kind].bk == 0)
        kop |= 4u;
    int64_t tiles_m = cdiv(p->M, tm), tiles_n = cdiv(p->N, tn);
    int64_t groups = p->batch * tiles_m * tiles_n;
    if (groups > (int64_t)(UINT32_MAX / 256))
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "%lld output tiles are too many for one dispatch",
                         (long long)groups);
    wt_kkey key = wt_key(kt[kind].file, kop, out->dtype, a->dtype, b->dtype, WT_F32);
    key.in[2] = (uint8_t)(bias ? bias->dtype : WT_F32);
    /* load mapping: follow the unit stride (k contiguous for A unless m is; n for B unless k is) */
    key.mode[0] = (uint8_t)(p->a_ks != 1 && p->a_ms == 1 ? 1 : 0);
    key.mode[1] = (uint8_t)(p->b_ns != 1 && p->b_ks == 1 ? 1 : 0);
    key.mode[2] = bias ? 1 : 0;
    wt_params pr;
    memset(&pr, 0, sizeof pr);
    pr.n = (uint32_t)(groups * 256);
    pr.ndim = (uint32_t)p->nb;
    pr.off[0] = (uint32_t)p->a_off;
    pr.off[1] = (uint32_t)p->b_off;
    pr.off[2] = (uint32_t)p->c_off;
    pr.off[3] = (uint32_t)tiles_n;
    pr.sv[0] = (uint32_t)p->M;
    pr.sv[1] = (uint32_t)p->N;
    pr.sv[2] = (uint32_t)p->K;
    pr.sv[3] = (uint32_t)tiles_m;
    pr.aux[0] = (uint32_t)p->a_ms;
    pr.aux[1] = (uint32_t)p->a_ks;
    pr.aux[2] = (uint32_t)p->b_ks;
    pr.aux[3] = (uint32_t)p->b_ns;
    for (int d = 0; d < p->nb; d++) {
        pr.shape[d] = (uint32_t)p->bshape[d];
        pr.st[0][d] = (int32_t)p->ast[d];
        pr.st[1][d] = (int32_t)p->bst[d];
    }
    pr.st[2][0] = (int32_t)p->c_ns;
    return record_product(ctx, op, &key, &pr, out, a, b, bias);
}

/* Split-K (the tiled rows with sk set: tile128x128v4s_sk, tile128x64v4s_sk).  When a product's
 * output tiles do not fill the GPU and K is long (the weight gradients x^T . dy of a linear layer:
 * M x N the weight, K the tokens), K is cut into S chunks that run as one dispatch of S partial
 * products: the chunk is an outer batch dim whose strides move A and B by a chunk of K, so the
 * kernels' batch walk does the work.  The partials go to an f32 temporary [S, batch x M x N],
 * one reduction over its leading dim (reduce.c's column layout: one invocation per output, S
 * reads) sums them, then a cast to the product's dtype.  S: the smallest power of two up to 16
 * that makes at least SK_GROUPS workgroups (H200: several waves of 132 SMs), chunks staying
 * >= SK_MIN_K and multiples of 8 (matmul4's K step, so tile-exact products keep EXACT); 1 (the
 * row's kernel alone) with a bias, where the chunk strides would pass the kernels' 32-bit offset
 * math, or where the temporary would pass SK_MAX_BYTES.  A tuner candidate: the tuner times it
 * against the in-place kernels on the class's shape. */
#define SK_GROUPS 1024
#define SK_MIN_K 256
#define SK_MAX_BYTES ((int64_t)256 << 20)

static int split_of(const mm_plan *p, wt_mm_kernel kind, bool bias) {
    if (!kt[kind].sk || bias || p->nb >= MM_MAX_BATCH)
        return 1;
    int64_t tiles = p->batch * cdiv(p->M, kt[kind].tm) * cdiv(p->N, kt[kind].tn), out = p->batch * p->M * p->N;
    int s = 1;
    while (s < 16 && tiles * s < SK_GROUPS && p->K % (16 * s) == 0 && p->K / (2 * s) >= SK_MIN_K &&
           2 * s * out * 4 <= SK_MAX_BYTES)
        s *= 2;
    int64_t kc = p->K / s;
    if ((s - 1) * kc * p->a_ks > INT32_MAX || (s - 1) * kc * p->b_ks > INT32_MAX || s * out > (int64_t)UINT32_MAX)
        return 1;
    return s;
}

/* The product as S partial products over K chunks, summed (split_of). */
static wt_tensor *mm_split(wt_context *ctx, const char *op, const mm_plan *p, wt_mm_kernel kind, int s, wt_tensor *a,
                           wt_tensor *b) {
    mm_plan q = *p;
    q.K = p->K / s;
    for (int d = p->nb; d > 0; d--) {
        q.bshape[d] = p->bshape[d - 1];
        q.ast[d] = p->ast[d - 1];
        q.bst[d] = p->bst[d - 1];
    }
    q.bshape[0] = s;
    q.ast[0] = q.K * p->a_ks;
    q.bst[0] = q.K * p->b_ks;
    q.nb = p->nb + 1;
    q.batch = p->batch * s;
    wt_tensor *part = wt_tensor_new(ctx, op, WT_F32, WT_SHAPE(s, p->batch * p->M * p->N));
    if (!part || record_tiled(ctx, op, &q, kind, part, a, b, NULL) != WT_OK) {
        wt_release(part);
        return NULL;
    }
    bool was = wt_set_grad_enabled(ctx, false);
    wt_tensor *sum = wt_sum(ctx, part, 1, (const int[]){ 0 }, false);
    wt_release(part);
    if (sum && p->odt != WT_F32) {
        wt_tensor *c = wt_cast(ctx, sum, p->odt);
        wt_release(sum);
        sum = c;
    }
    wt_tensor *out = sum ? wt_view(ctx, sum, p->ond, p->shape) : NULL;
    wt_release(sum);
    wt_set_grad_enabled(ctx, was);
    return out;
}

bool wt_matmul_tensor_cores(wt_context *ctx) {
    if (!ctx || !ctx->f16 || !wg_device_has_feature(ctx->dev, WG_FEATURE_COOPERATIVE_MATRIX))
        return false;
    const wg_adapter_info *in = wg_adapter_get_info(wg_device_get_adapter(ctx->dev));
    return in && in->subgroup_min_size == 32 && in->subgroup_max_size == 32 &&
           wg_adapter_info_has_coop_shape(in, 16, 16, 16, WG_COMPONENT_F16, WG_COMPONENT_F16, WG_COMPONENT_F32,
                                          WG_COMPONENT_F32);
}

/* Does t's storage (f16) hold element `last`? */
static bool coop_holds(const wt_tensor *t, int64_t last) {
    return last < (int64_t)(t->st->bytes / 2);
}

/* Can matmul_coop.wgsl run this plan?  It reads both operands in 16-byte chunks of 8 halves along
 * their contiguous dimension (leading dimensions and offsets multiples of 8) and skips the chunks
 * that start past the matrix; a chunk starting inside may run past M (column-major A) or N
 * (row-major B) by up to 7 elements, which must still lie inside the storage.  K is a multiple of
 * 16 (the subgroup-matrix depth). */
static bool coop_ok(wt_context *ctx, const mm_plan *p, const wt_tensor *a, const wt_tensor *b) {
    if (a->dtype != WT_F16 || b->dtype != WT_F16 || p->batch != 1 || p->K % 16)
        return false;
    int64_t as = p->a_ks == 1 ? p->a_ms : p->a_ms == 1 ? p->a_ks : -1;
    int64_t bs = p->b_ns == 1 ? p->b_ks : p->b_ks == 1 ? p->b_ns : -1;
    if (as <= 0 || bs <= 0 || as % 8 || bs % 8 || p->a_off % 8 || p->b_off % 8)
        return false;
    if (p->a_ks != 1 && !coop_holds(a, p->a_off + (p->K - 1) * as + (p->M + 7) / 8 * 8 - 1))
        return false;
    if (p->b_ns == 1 && !coop_holds(b, p->b_off + (p->K - 1) * bs + (p->N + 7) / 8 * 8 - 1))
        return false;
    return wt_matmul_tensor_cores(ctx);
}

/* matmul_coop.wgsl's op: one slice buffer (COOP_SB1) where there are enough tiles to fill the GPU
 * four times over (H200, f16 4096^3: 219.1 TFLOP/s, A^T 250.6, the kernel's header), else two
 * (COOP; COOP_SB1 is unmeasured on fewer tiles); a forced kernel (the policy) wins. */
static wt_mm_kernel coop_kernel(const mm_plan *p, wt_mm_kernel forced) {
    if (forced == WT_MM_COOP || forced == WT_MM_COOP_SB1)
        return forced;
    return cdiv(p->M, 128) * cdiv(p->N, 128) >= 528 ? WT_MM_COOP_SB1 : WT_MM_COOP;
}

/* The tensor-core kernels' key and parameters (matmul_coop.wgsl, matmul_wgm.wgsl): operand layouts
 * (MA, MB), bias (MC), offsets, (M, N, K, tiles along N), leading dimensions; one workgroup per
 * output tile.  matmul_wgm.wgsl also takes the leading dimensions and K as kernel constants
 * (wt_kkey.ld). */
/* The leading dimensions of the tensor-core kernels' operands (coop_ok: one of each operand's
 * strides is 1): A column-major (MA 1) when its k stride is not 1, B column-major (MB 1) when its n
 * stride is not. */
static int64_t lda_of(const mm_plan *p) {
    return p->a_ks != 1 ? p->a_ks : p->a_ms;
}

static int64_t ldb_of(const mm_plan *p) {
    return p->b_ns != 1 ? p->b_ns : p->b_ks;
}

static wt_kkey tiles_key(const mm_plan *p, wt_kfile file, int var, wt_dtype odt, const wt_tensor *bias) {
    wt_kkey key = wt_key(file, (uint32_t)var, odt, WT_F16, WT_F16, WT_F32);
    key.in[2] = (uint8_t)(bias ? bias->dtype : WT_F32);
    key.mode[0] = p->a_ks != 1 ? 1 : 0;
    key.mode[1] = p->b_ns != 1 ? 1 : 0;
    key.mode[2] = bias ? 1 : 0;
    if (file == WT_K_matmul_wgm) {
        uint32_t ld[4] = { (uint32_t)lda_of(p), (uint32_t)ldb_of(p), (uint32_t)p->N, (uint32_t)p->K };
        memcpy(key.ld, ld, sizeof key.ld);
    }
    return key;
}

static wt_status record_tiles(wt_context *ctx, const char *op, const mm_plan *p, wt_kfile file, int var,
                              int64_t tiles_n, int64_t groups, wt_tensor *out, wt_tensor *a, wt_tensor *b,
                              wt_tensor *bias) {
    wt_kkey key = tiles_key(p, file, var, out->dtype, bias);
    wt_params pr;
    memset(&pr, 0, sizeof pr);
    pr.n = (uint32_t)(groups * 256);       /* one workgroup per 256 "elements" */
    pr.off[0] = (uint32_t)p->a_off;
    pr.off[1] = (uint32_t)p->b_off;
    pr.off[2] = (uint32_t)p->c_off;
    pr.sv[0] = (uint32_t)p->M;
    pr.sv[1] = (uint32_t)p->N;
    pr.sv[2] = (uint32_t)p->K;
    pr.sv[3] = (uint32_t)tiles_n;
    pr.aux[0] = (uint32_t)lda_of(p);
    pr.aux[1] = (uint32_t)ldb_of(p);
    pr.st[2][0] = (int32_t)p->c_ns;
    return record_product(ctx, op, &key, &pr, out, a, b, bias);
}

static wt_status record_coop(wt_context *ctx, const char *op, const mm_plan *p, wt_mm_kernel kind, wt_tensor *out,
                             wt_tensor *a, wt_tensor *b, wt_tensor *bias) {
    int var = kt[kind].op;
    int64_t tiles_m = cdiv(p->M, kt[kind].tm), tiles_n = cdiv(p->N, kt[kind].tn);
    int64_t groups = tiles_m * tiles_n;
    if (groups > (int64_t)(UINT32_MAX / 256))
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "%lld output tiles are too many for one dispatch",
                         (long long)groups);
    return record_tiles(ctx, op, p, WT_K_matmul_coop, var, tiles_n, groups, out, a, b, bias);
}

/* Can matmul_wgm.wgsl (workgroup matrices, VK_NV_cooperative_matrix2) run this plan, which coop_ok
 * accepted (f16 operands, no batch, leading dimensions and offsets multiples of 8: 16-byte aligned
 * rows, as the cooperative-matrix loads want)?  Whole 128 x 256 tiles (M % 128, N % 256), K a
 * multiple of 8 64-deep slices (K % 512; the kernel's header says why), leading dimensions that
 * fit the kernel's u32 constants, a device listing the 128 x 256 x 64 f16 -> f32 shape for 256
 * invocations.  Every load and store then lies inside its tensor.  The default where it applies
 * (H200, 4096^3: 307-314 TFLOP/s against 237-243 for matmul_coop.wgsl) unless the policy's
 * matmul_workgroup_matrix is OFF, behind wgm_guard when it is AUTO. */
static bool wgm_fits(wt_context *ctx, const mm_plan *p) {
    if (p->M <= 0 || p->N <= 0 || p->K <= 0 || p->M % 128 || p->N % 256 || p->K % 512)
        return false;
    if (lda_of(p) > UINT32_MAX || ldb_of(p) > UINT32_MAX || !wg_device_has_feature(ctx->dev, WG_FEATURE_WORKGROUP_MATRIX))
        return false;
    const wg_adapter_info *in = wg_adapter_get_info(wg_device_get_adapter(ctx->dev));
    return in && wg_adapter_info_has_wgm_shape(in, 256, 128, 256, 64, WG_COMPONENT_F16, WG_COMPONENT_F16,
                                               WG_COMPONENT_F32, WG_COMPONENT_F32);
}

/* One workgroup per 128 x 256 tile; M N < 2^32 (the kernel's u32 output index) also bounds the
 * workgroups (M N / 32768). */
static wt_status record_wgm(wt_context *ctx, const char *op, const mm_plan *p, wt_tensor *out, wt_tensor *a,
                            wt_tensor *b, wt_tensor *bias) {
    if (p->M * p->N > (int64_t)UINT32_MAX || p->a_off > UINT32_MAX || p->b_off > UINT32_MAX || p->c_off > UINT32_MAX)
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "a %lld x %lld product is too large for one dispatch",
                         (long long)p->M, (long long)p->N);
    return record_tiles(ctx, op, p, WT_K_matmul_wgm, 0, p->N / 256, p->M / 128 * (p->N / 256), out, a, b, bias);
}

/* The guard against matmul_wgm.wgsl pipelines that run far below their speed on a fresh device
 * (H200, 4096^3 after warm-up: 61-96 TFLOP/s where the pipeline was created after 64 large
 * pipelines on the device, against 217-236 for matmul_coop.wgsl; doc/tensor.md).  The first
 * product of each matmul_wgm kernel key in a context is timed against matmul_coop.wgsl on the
 * same operands, after 0.3 s of matmul_wgm products that bring the GPU's clocks up; when
 * matmul_wgm loses, both are timed a second time.  The verdict holds until 32 more pipelines have
 * been created on the device (wg_device_stats.pipelines_created), then the key's next product
 * looks again; a key that lost runs matmul_coop.wgsl for the rest of the context.  A check
 * submits the caller's pending work and waits (H200: 0.31 s), so it runs only where
 * wt_mm_may_time allows (wt_policy.tune FIRST_USE, or inside wt_autotune_matmul); elsewhere a key
 * without a verdict runs matmul_coop.wgsl and a stale verdict stands.  wt_stats counts the checks
 * and the products that fell back.  The policy's matmul_workgroup_matrix ON takes matmul_wgm.wgsl
 * unguarded; fault_wgm_slow makes every check find it slower (tests). */
#define WGM_RECHECK 32u

static wt_status record(wt_context *ctx, const char *op, const mm_plan *p, wt_mm_kernel kind, wt_tensor *out,
                        wt_tensor *a, wt_tensor *b, wt_tensor *bias);

typedef struct wgm_arm {
    const char *op;
    const mm_plan *p;
    wt_tensor *a, *b, *bias;
    wt_mm_kernel kind;                    /* WGM or a matmul_coop kernel */
} wgm_arm;

static wt_tensor *wgm_arm_product(wt_context *ctx, void *arg) {
    wgm_arm *w = arg;
    wt_tensor *o = wt_tensor_new(ctx, w->op, w->p->odt, w->p->ond, w->p->shape);
    if (o && record(ctx, w->op, w->p, w->kind, o, w->a, w->b, w->bias) != WT_OK) {
        wt_release(o);
        return NULL;
    }
    return o;
}

static uint64_t pipelines_created(wt_context *ctx) {
    wg_device_stats s;
    wg_device_get_stats(ctx->dev, &s);
    return s.pipelines_created;
}

/* Run this product on matmul_wgm.wgsl (true) or on matmul_coop.wgsl (false)? */
static bool wgm_guard(wt_context *ctx, const char *op, const mm_plan *p, wt_tensor *a, wt_tensor *b, wt_tensor *bias) {
    if (ctx->pol.matmul_workgroup_matrix == WT_ON)
        return true;
    wt_kkey key = tiles_key(p, WT_K_matmul_wgm, 0, p->odt, bias);
    struct wt_wgm_verdict *v = NULL;
    for (uint32_t i = 0; i < ctx->wgm_count && !v; i++)
        if (!memcmp(&ctx->wgm[i].key, &key, sizeof key))
            v = &ctx->wgm[i];
    bool may_time = wt_mm_may_time(ctx);
    if (v && (v->slow || !may_time || pipelines_created(ctx) < v->at + WGM_RECHECK)) {
        ctx->stats.wgm_fallbacks += v->slow;
        return !v->slow;
    }
    if (!may_time)                    /* no verdict, and no timing inside a lazy op: matmul_coop.wgsl */
        return false;
    if (wt_flush(ctx) != WT_OK)       /* the caller's work failed: its error stands */
        return true;
    wt_error_state es;                /* the timing's own errors are not the caller's */
    wt_error_save(ctx, &es);
    wgm_arm coop = { op, p, a, b, bias, coop_kernel(p, WT_MM_AUTO) }, wgm = coop;
    wgm.kind = WT_MM_WGM;
    double tc = INFINITY, tw = INFINITY;
    bool gpu, failed = !wt_warm_up(ctx, wgm_arm_product, &wgm, 0.3);
    for (int look = 0; look < 2 && !(tw < tc); look++) {
        double c = wt_time_product(ctx, wgm_arm_product, &coop, &gpu);
        double w = failed ? -1 : wt_time_product(ctx, wgm_arm_product, &wgm, &gpu);
        if (ctx->pol.fault_wgm_slow)
            w = 2 * c;
        tc = c > 0 && c < tc ? c : tc;  /* matmul_coop.wgsl failed: matmul_wgm.wgsl wins */
        tw = w > 0 && w < tw ? w : tw;  /* matmul_wgm.wgsl failed: it loses */
        if (c <= 0)
            break;
    }
    ctx->stats.wgm_checks++;
    wt_error_restore(ctx, &es);
    if (!v) {
        if (ctx->wgm_count == WT_WGM_VERDICTS)
            memmove(ctx->wgm, ctx->wgm + 1, --ctx->wgm_count * sizeof *ctx->wgm);
        v = &ctx->wgm[ctx->wgm_count++];
        v->key = key;
    }
    v->at = pipelines_created(ctx);
    v->slow = tw >= tc;               /* both failed: matmul_coop.wgsl, whose error the caller sees */
    ctx->stats.wgm_fallbacks += v->slow;
    return !v->slow;
}

/* Ragged products (K, N, or M of an m-contiguous A not a multiple of 4, rows not quad-aligned)
 * cannot use the 16-byte kernels in place.  Padded copies pay when the product is large (K >=
 * 256, and a GPU's worth of 128 x 128 tiles or K >= 2048, where split-K fills the GPU), the
 * tile-exact shape wastes at most 10%, and the copies are cheap beside the product (>= 64
 * multiply-adds per copied element): each operand that is not already tile-exact and aligned is
 * copied zero-padded, A to [Mp, Kp] (m-contiguous, an A^T view: its [K, M] rows to [Kp, Mp]) and
 * B to [Kp, Np] (k-contiguous: [Np, Kp]), Mp and Np multiples of 128, Kp of 8 (of 128 from K =
 * 2048 on, which split-K's chunks need); the product runs on the fast kernels, and its [M, N]
 * corner is the result (a view with row stride Np, no copy out).  No batch, no kernel forced.
 * H200: 4095 x 4097 x 1023 padded 0.88 ms (39.0 TFLOP/s) against 1.17 in place on tile128x64w;
 * the GPT-2 LM head's products (V = 50257): x . W^T, dlogits . W (K = V) and dlogits^T . x (M =
 * V), doc/results.  The policy's matmul_pad OFF turns it off, ON takes it for every such
 * product whatever its size (tests). */
typedef struct mm_pad {
    int64_t mp, np, kp;
    bool a_mc, b_kc;                      /* A m-contiguous, B k-contiguous */
    bool copy_a, copy_b;                  /* the operands that need a padded copy */
} mm_pad;

static bool pad_plan(wt_context *ctx, const mm_plan *p, const wt_tensor *a, mm_pad *d) {
    if (ctx->pol.matmul_pad == WT_OFF || p->batch != 1 || p->M <= 0 || p->N <= 0 || p->K <= 0 || v4_ok(p) ||
        matvec_ok(p))
        return false;
    d->a_mc = p->a_ks != 1 && p->a_ms == 1;
    d->b_kc = b_kcontig(p);
    if ((p->a_ks != 1 && !(d->a_mc && a->ndim == 2)) || (p->b_ns != 1 && p->b_ks != 1))
        return false;
    d->mp = cdiv(p->M, 128) * 128;
    d->np = cdiv(p->N, 128) * 128;
    d->kp = p->K >= 2048 ? cdiv(p->K, 128) * 128 : cdiv(p->K, 8) * 8;
    int64_t a_rows = d->a_mc ? p->a_ks : p->a_ms, b_rows = d->b_kc ? p->b_ns : p->b_ks;
    d->copy_a = p->M != d->mp || p->K != d->kp || a_rows % 4 || p->a_off % 4;
    d->copy_b = p->N != d->np || p->K != d->kp || b_rows % 4 || p->b_off % 4;
    if (ctx->pol.matmul_pad == WT_ON)
        return true;
    double work = (double)d->mp * (double)d->np * (double)d->kp;
    double copied = (d->copy_a ? (double)d->mp * (double)d->kp : 0) + (d->copy_b ? (double)d->np * (double)d->kp : 0);
    return (d->mp / 128 * (d->np / 128) >= 256 || p->K >= 2048) && p->K >= 256 &&
           work <= 1.10 * (double)p->M * (double)p->N * (double)p->K && work >= 64 * copied;
}

static wt_tensor *mm(wt_context *ctx, const char *op, wt_tensor *a, wt_tensor *b, bool b_t, wt_tensor *bias,
                     wt_matmul_precision prec, wt_mm_kernel kernel);

/* pad_plan's path: the result, a view of the padded [Mp, Np] product (row stride Np: no copy
 * out), or NULL with the context's error state as it was before (an allocation failed: the
 * caller runs the product in place).  The padded operands go back to the pool. */
static wt_tensor *mm_padded(wt_context *ctx, const char *op, const mm_plan *p, const mm_pad *d, wt_tensor *a,
                            wt_tensor *b, bool b_t, wt_tensor *bias) {
    wt_error_state es;
    wt_error_save(ctx, &es);
    int64_t mp = d->mp, np = d->np, kp = d->kp;
    bool kc = d->b_kc;
    enum { A2, AP, AQ, WT, WP, CP, R, N1, N2, NT };
    wt_tensor *t[NT] = { 0 }, *out = NULL;
    /* A as [M, K] (batch dims that continue its rows: a view) or, m-contiguous, as its [K, M]
     * rows; B as [N, K] (k-contiguous) or [K, N]; the padded copies where needed */
    if (d->a_mc)
        t[A2] = wt_transpose(ctx, a, 0, 1);
    else
        t[A2] = a->ndim == 2 ? a : wt_view(ctx, a, WT_SHAPE(p->M, p->K));
    t[WT] = b_t || !kc ? b : wt_transpose(ctx, b, 0, 1);
    const int64_t pa[4] = { 0, d->a_mc ? kp - p->K : mp - p->M, 0, d->a_mc ? mp - p->M : kp - p->K };
    const int64_t pw[4] = { 0, kc ? np - p->N : kp - p->K, 0, kc ? kp - p->K : np - p->N };
    const int64_t pc[2] = { 0, np - p->N };
    if (t[A2])
        t[AP] = d->copy_a ? wt_pad(ctx, t[A2], pa, WT_PAD_CONSTANT, 0) : (wt_retain(t[A2]), t[A2]);
    t[AQ] = t[AP] && d->a_mc ? wt_transpose(ctx, t[AP], 0, 1) : NULL;
    if (t[AP] && t[WT])
        t[WP] = d->copy_b ? wt_pad(ctx, t[WT], pw, WT_PAD_CONSTANT, 0) : (wt_retain(t[WT]), t[WT]);
    t[CP] = bias && bias->shape[0] != 1 && t[WP] ? wt_pad(ctx, bias, pc, WT_PAD_CONSTANT, 0) : NULL;
    if (t[WP] && (!d->a_mc || t[AQ]) && (!bias || bias->shape[0] == 1 || t[CP]))
        t[R] = mm(ctx, op, d->a_mc ? t[AQ] : t[AP], t[WP], kc, t[CP] ? t[CP] : bias, WT_MATMUL_PRECISION_DEFAULT,
                  WT_MM_AUTO);
    t[N1] = t[R] ? wt_narrow(ctx, t[R], 0, 0, p->M) : NULL;
    t[N2] = t[N1] ? wt_narrow(ctx, t[N1], 1, 0, p->N) : NULL;
    if (t[N2])
        out = p->ond == 2 ? t[N2] : wt_view(ctx, t[N2], p->ond, p->shape);
    if (out == t[N2])
        t[N2] = NULL;
    if (t[A2] == a)
        t[A2] = NULL;
    if (t[WT] == b)
        t[WT] = NULL;
    for (int i = 0; i < NT; i++)
        wt_release(t[i]);
    if (!out)
        wt_error_restore(ctx, &es);
    return out;
}

/* Lavapipe stops any shader loop after 65,535 iterations in one invocation, and every kernel's
 * K loop takes at least 8 of K per iteration (the smallest bk above), so a product whose K exceeds
 * WT_MM_MAX_K = 65535 * 8 runs as a sum of products over K chunks of WT_MM_K_CHUNK (2^18: a
 * multiple of every kernel's K step, so each chunk takes the kernel the whole would): the chunks'
 * results (f32, whatever the operands) are added in order and the sum cast to the product's
 * dtype.  Same rule on every device, so results do not depend on the driver. */
#define WT_MM_MAX_K (65535 * 8)
#define WT_MM_K_CHUNK (1 << 18)

static wt_tensor *mm_split_k_sum(wt_context *ctx, const char *op, const mm_plan *p, wt_tensor *a, wt_tensor *b, bool b_t,
                                 wt_tensor *bias, wt_matmul_precision prec, wt_mm_kernel kernel) {
    wt_tensor *acc = NULL;
    int bdim = b_t || b->ndim == 1 ? -1 : -2;
    for (int64_t k0 = 0; k0 < p->K; k0 += WT_MM_K_CHUNK) {
        int64_t kc = p->K - k0 < WT_MM_K_CHUNK ? p->K - k0 : WT_MM_K_CHUNK;
        wt_tensor *ac = wt_narrow(ctx, a, -1, k0, kc);
        wt_tensor *bc = ac ? wt_narrow(ctx, b, bdim, k0, kc) : NULL;
        wt_tensor *part = bc ? mm(ctx, op, ac, bc, b_t, k0 == 0 ? bias : NULL, prec, kernel) : NULL;
        wt_release(ac);
        wt_release(bc);
        if (part && part->dtype != WT_F32) {
            wt_tensor *f = wt_cast(ctx, part, WT_F32);
            wt_release(part);
            part = f;
        }
        wt_tensor *sum = part && acc ? wt_add(ctx, acc, part) : part;
        if (sum != part)
            wt_release(part);
        wt_release(acc);
        acc = sum;
        if (!acc)
            return NULL;
    }
    if (acc->dtype != p->odt) {
        wt_tensor *c = wt_cast(ctx, acc, p->odt);
        wt_release(acc);
        acc = c;
    }
    return acc;
}

static wt_tensor *mm_split_k(wt_context *ctx, const char *op, const mm_plan *p, wt_tensor *a, wt_tensor *b, bool b_t,
                             wt_tensor *bias, wt_matmul_precision prec, wt_mm_kernel kernel) {
    bool was = wt_set_grad_enabled(ctx, false);   /* the public op records one node for the whole */
    wt_tensor *acc = mm_split_k_sum(ctx, op, p, a, b, b_t, bias, prec, kernel);
    wt_set_grad_enabled(ctx, was);
    return acc;
}

/* ---- plan: shapes and strides -> mm_plan ----------------------------------------------------- */

static bool fits_i32(int64_t v) {
    return v >= 0 && v <= INT32_MAX;
}

/* The plan of a [..., M, K] . b [..., K, N] (b_t: b is given as [N, K], linear's weight; a 1-D
 * operand's dim is dropped from the result): matrix views of the operands, the batch dims
 * broadcast and collapsed, the result's shape; or an error naming the op and the shapes. */
static wt_status plan(wt_context *ctx, const char *op, wt_tensor *a, wt_tensor *b, bool b_t, wt_tensor *bias,
                      mm_plan *p) {
    memset(p, 0, sizeof *p);
    char s3[160];
    wt_shape_str(p->sa, sizeof p->sa, a->ndim, a->shape);
    wt_shape_str(p->sb, sizeof p->sb, b->ndim, b->shape);
    const char *s1 = p->sa, *s2 = p->sb;
    if (!wt_is_float(a->dtype) || !wt_is_float(b->dtype) || (bias && !wt_is_float(bias->dtype)))
        return wt_failst(ctx, WT_STATUS_DTYPE, op, "dtypes %s and %s%s%s: f32 or f16 operands only",
                         wt_dtype_name(a->dtype), wt_dtype_name(b->dtype), bias ? ", bias " : "",
                         bias ? wt_dtype_name(bias->dtype) : "");
    if (a->ndim == 0 || b->ndim == 0)
        return wt_failst(ctx, WT_STATUS_SHAPE, op, "shapes %s and %s: operands must have at least one dim", s1, s2);
    if (b_t && b->ndim != 2)
        return wt_failst(ctx, WT_STATUS_SHAPE, op, "weight shape %s: expected [out_features, in_features]", s2);
    /* matrix views of the operands: (rows, cols, row stride, col stride) and batch dims */
    bool a_vec = a->ndim == 1, b_vec = b->ndim == 1 && !b_t;
    int an = a->ndim, bn = b->ndim;
    if (a_vec) {
        p->M = 1; p->K = a->shape[0]; p->a_ms = 0; p->a_ks = a->strides[0];
    } else {
        p->M = a->shape[an - 2]; p->K = a->shape[an - 1]; p->a_ms = a->strides[an - 2]; p->a_ks = a->strides[an - 1];
    }
    int64_t kb;
    if (b_vec) {
        kb = b->shape[0]; p->N = 1; p->b_ks = b->strides[0]; p->b_ns = 0;
    } else if (b_t) {
        kb = b->shape[1]; p->N = b->shape[0]; p->b_ks = b->strides[1]; p->b_ns = b->strides[0];
    } else {
        kb = b->shape[bn - 2]; p->N = b->shape[bn - 1]; p->b_ks = b->strides[bn - 2]; p->b_ns = b->strides[bn - 1];
    }
    if (kb != p->K)
        return wt_failst(ctx, WT_STATUS_SHAPE, op, "shapes %s and %s%s: inner dims %lld and %lld differ", s1, s2,
                         b_t ? " (weight transposed)" : "", (long long)p->K, (long long)kb);
    p->a_off = a->offset;
    p->b_off = b->offset;
    /* batch dims, right-aligned and broadcast */
    int abn = a_vec ? 0 : an - 2, bbn = (b_vec || b_t) ? 0 : bn - 2;
    int obn = abn > bbn ? abn : bbn;
    int64_t oshape[WT_MAX_DIMS], ast[WT_MAX_DIMS], bst[WT_MAX_DIMS];
    for (int d = 0; d < obn; d++) {
        int da = d - (obn - abn), db = d - (obn - bbn);
        int64_t sa = da >= 0 ? a->shape[da] : 1, sb = db >= 0 ? b->shape[db] : 1;
        if (sa != sb && sa != 1 && sb != 1)
            return wt_failst(ctx, WT_STATUS_SHAPE, op, "shapes %s and %s: batch dims are not broadcastable", s1, s2);
        oshape[d] = sa == 1 ? sb : sa;
        ast[d] = da >= 0 && sa != 1 ? a->strides[da] : 0;
        bst[d] = db >= 0 && sb != 1 ? b->strides[db] : 0;
    }
    for (int d = 0; d < obn; d++)
        p->shape[p->ond++] = oshape[d];
    if (!a_vec)
        p->shape[p->ond++] = p->M;
    if (!b_vec)
        p->shape[p->ond++] = p->N;
    p->odt = wt_promote(a->dtype, b->dtype);
    if (bias) {
        wt_shape_str(s3, sizeof s3, bias->ndim, bias->shape);
        if (bias->ndim != 1 || (bias->shape[0] != p->N && bias->shape[0] != 1))
            return wt_failst(ctx, WT_STATUS_SHAPE, op, "bias shape %s does not match %lld output features", s3,
                             (long long)p->N);
        p->c_off = bias->offset;
        p->c_ns = bias->shape[0] == 1 ? 0 : bias->strides[0];
    }
    /* collapse the batch: drop size-1 dims, merge neighbours whose strides chain in both A and B */
    for (int d = 0; d < obn; d++) {
        if (oshape[d] == 1)
            continue;
        if (p->nb && ast[d] * oshape[d] == p->ast[p->nb - 1] && bst[d] * oshape[d] == p->bst[p->nb - 1]) {
            p->bshape[p->nb - 1] *= oshape[d];
            p->ast[p->nb - 1] = ast[d];
            p->bst[p->nb - 1] = bst[d];
            continue;
        }
        p->bshape[p->nb] = oshape[d];
        p->ast[p->nb] = ast[d];
        p->bst[p->nb] = bst[d];
        p->nb++;
    }
    /* batch dims that only A has and that continue A's rows are more rows (x [B, S, K] . W) */
    while (p->nb && p->bst[p->nb - 1] == 0 && p->M > 1 && p->ast[p->nb - 1] == p->M * p->a_ms) {
        p->M *= p->bshape[p->nb - 1];
        p->nb--;
    }
    if (p->M == 1 && p->nb && p->bst[p->nb - 1] == 0) {    /* a batch of single rows: rows */
        p->M = p->bshape[p->nb - 1];
        p->a_ms = p->ast[p->nb - 1];
        p->nb--;
    }
    p->batch = 1;
    for (int d = 0; d < p->nb; d++)
        p->batch *= p->bshape[d];
    /* the kernels index with 32-bit unsigned math from non-negative strides */
    bool ok = fits_i32(p->a_ms) && fits_i32(p->a_ks) && fits_i32(p->b_ks) && fits_i32(p->b_ns) &&
              fits_i32(p->c_ns) && fits_i32(p->M) && fits_i32(p->N) && fits_i32(p->K);
    for (int d = 0; d < p->nb; d++)
        ok = ok && fits_i32(p->ast[d]) && fits_i32(p->bst[d]);
    if (!ok)
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op,
                         "shapes %s and %s: negative or too large strides (make the operands contiguous)", s1, s2);
    return WT_OK;
}

/* ---- choose: the kernel ------------------------------------------------------------------------ */

/* Why kernel k cannot run plan p, or NULL when it can. */
static const char *cannot_run(wt_context *ctx, const mm_plan *p, wt_mm_kernel k, const wt_tensor *a,
                              const wt_tensor *b) {
    if (k == WT_MM_MATVEC && !matvec_ok(p))
        return "M or N = 1, no batch, aligned k-contiguous rows";
    if (kt[k].v4 && !v4_ok(p))
        return "row-major operands (or A m-contiguous with M a multiple of 4, B k-contiguous) with K and N "
               "multiples of 4 and quad-aligned rows";
    if ((kt[k].file == WT_K_matmul_coop || k == WT_MM_WGM) && !coop_ok(ctx, p, a, b))
        return "tensor cores and f16 operands with 16-byte aligned rows, K a multiple of 16";
    if (k == WT_MM_WGM && !wgm_fits(ctx, p))
        return "workgroup matrices and whole 128 x 256 tiles, K a multiple of 512";
    return NULL;
}

/* Run plan p on zero-padded copies (pad_plan)?  Only when nothing is forced. */
static bool choose_pad(wt_context *ctx, const mm_plan *p, const wt_tensor *a, wt_matmul_precision prec,
                       wt_mm_kernel forced, mm_pad *d) {
    return forced == WT_MM_AUTO && prec == WT_MATMUL_PRECISION_DEFAULT && pad_plan(ctx, p, a, d);
}

/* The kernel for plan p: the one forced (by the caller, else by the policy's matmul_kernel; an
 * error when it cannot run p), else for F16_TENSOR where tensor cores can run p matmul_wgm.wgsl
 * (where it fits and wgm_guard keeps it) or matmul_coop.wgsl, else matvec where it applies, else
 * the autotuner's choice for p's class, else the heuristic. */
static wt_status choose(wt_context *ctx, const char *op, const mm_plan *p, wt_tensor *a, wt_tensor *b, wt_tensor *bias,
                        wt_matmul_precision prec, wt_mm_kernel forced, wt_mm_kernel *kind) {
    *kind = forced;
    if (forced != WT_MM_AUTO) {
        const char *why = cannot_run(ctx, p, forced, a, b);
        return why ? wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "shapes %s and %s: kernel %s needs %s", p->sa,
                               p->sb, kt[forced].name, why)
                   : WT_OK;
    }
    if (prec == WT_MATMUL_F16_TENSOR && coop_ok(ctx, p, a, b)) {
        bool wgm = ctx->pol.matmul_workgroup_matrix != WT_OFF && wgm_fits(ctx, p) && wgm_guard(ctx, op, p, a, b, bias);
        *kind = wgm ? WT_MM_WGM : coop_kernel(p, WT_MM_AUTO);
        return WT_OK;
    }
    *kind = heuristic(p);
    if (*kind != WT_MM_MATVEC) {
        wt_mm_kernel tuned = wt_autotune_layout(ctx, p->M, p->N, p->K, p->batch, p->odt, layout_of(p), *kind);
        if (tuned != WT_MM_AUTO && !cannot_run(ctx, p, tuned, a, b))
            *kind = tuned;
    }
    return WT_OK;
}

/* ---- record: the dispatch ---------------------------------------------------------------------- */

static wt_status record(wt_context *ctx, const char *op, const mm_plan *p, wt_mm_kernel kind, wt_tensor *out,
                        wt_tensor *a, wt_tensor *b, wt_tensor *bias) {
    if (kind == WT_MM_MATVEC)
        return record_matvec(ctx, op, p, out, a, b, bias);
    if (kind == WT_MM_WGM)
        return record_wgm(ctx, op, p, out, a, b, bias);
    if (kt[kind].file == WT_K_matmul_coop)
        return record_coop(ctx, op, p, kind, out, a, b, bias);
    return record_tiled(ctx, op, p, kind, out, a, b, bias);
}

/* The product: plan, choose, record.  kernel: forced by the caller (WT_MM_AUTO: the policy's
 * matmul_kernel, else chosen). */
static wt_tensor *mm(wt_context *ctx, const char *op, wt_tensor *a, wt_tensor *b, bool b_t, wt_tensor *bias,
                     wt_matmul_precision prec, wt_mm_kernel kernel) {
    if (!wt_check_tensor(ctx, op, a) || !wt_check_tensor(ctx, op, b) || (bias && !wt_check_tensor(ctx, op, bias)))
        return NULL;
    if ((unsigned)prec >= WT_MATMUL_PRECISION_COUNT)
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "precision %d is not a wt_matmul_precision", (int)prec);
    if (prec == WT_MATMUL_PRECISION_DEFAULT && kernel == WT_MM_AUTO && a->dtype == WT_F16 && b->dtype == WT_F16 &&
        wt__amp_tensor_cores(ctx))
        prec = WT_MATMUL_F16_TENSOR;   /* mixed precision (amp.c): tensor cores where they fit */
    if ((unsigned)kernel >= WT_MM_KERNEL_COUNT)
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "kernel %d is not a matmul kernel", (int)kernel);
    mm_plan p;
    if (plan(ctx, op, a, b, b_t, bias, &p) != WT_OK)
        return NULL;
    if (p.K > WT_MM_MAX_K)
        return mm_split_k(ctx, op, &p, a, b, b_t, bias, prec, kernel);
    wt_mm_kernel forced = kernel != WT_MM_AUTO ? kernel : wt_mm_kernel_by_name(ctx->pol.matmul_kernel);
    wt_mm_kernel kind = WT_MM_AUTO;
    mm_pad pd;
    if (choose_pad(ctx, &p, a, prec, forced, &pd)) {
        wt_tensor *r = mm_padded(ctx, op, &p, &pd, a, b, b_t, bias);
        if (r)
            return r;
    }
    if (p.batch * p.M * p.N > 0) {
        if (choose(ctx, op, &p, a, b, bias, prec, forced, &kind) != WT_OK)
            return NULL;
        int s = split_of(&p, kind, bias != NULL);
        if (s > 1)
            return mm_split(ctx, op, &p, kind, s, a, b);
    }
    wt_tensor *out = wt_tensor_new(ctx, op, p.odt, p.ond, p.shape);
    if (!out || out->numel == 0)
        return out;
    if (record(ctx, op, &p, kind, out, a, b, bias) != WT_OK) {
        wt_release(out);
        return NULL;
    }
    return out;
}

wt_tensor *wt_matmul(wt_context *ctx, wt_tensor *a, wt_tensor *b) {
    wt_tensor *c[2];   /* autocast (amp.c): the f16 list */
    if (wt__autocast(ctx, WT__AMP_F16, 2, (wt_tensor *const[]){ a, b }, c))
        return wt__autocast_done(2, c, wt_matmul(ctx, c[0], c[1]));
    return wt__grad(ctx, mm(ctx, "wt_matmul", a, b, false, NULL, WT_MATMUL_PRECISION_DEFAULT, WT_MM_AUTO), WT_G_matmul, 2,
                    (wt_tensor *const[]){ a, b }, NULL);
}

wt_tensor *wt_matmul_ex(wt_context *ctx, wt_tensor *a, wt_tensor *b, wt_tensor *bias, const wt_matmul_desc *desc) {
    wt_tensor *c[3];
    if (wt__autocast(ctx, WT__AMP_F16, 3, (wt_tensor *const[]){ a, b, bias }, c))
        return wt__autocast_done(3, c, wt_matmul_ex(ctx, c[0], c[1], c[2], desc));
    return wt__grad(ctx, mm(ctx, "wt_matmul", a, b, false, bias, desc ? desc->precision : WT_MATMUL_PRECISION_DEFAULT, WT_MM_AUTO),
                    WT_G_matmul, 3, (wt_tensor *const[]){ a, b, bias }, NULL);
}

wt_tensor *wt_matmul_kernel_ex(wt_context *ctx, wt_tensor *a, wt_tensor *b, wt_tensor *bias, wt_mm_kernel kernel) {
    return mm(ctx, "wt_matmul", a, b, false, bias, WT_MATMUL_PRECISION_DEFAULT, kernel);
}

wt_tensor *wt_linear(wt_context *ctx, wt_tensor *x, wt_tensor *w, wt_tensor *bias) {
    wt_tensor *c[3];
    if (wt__autocast(ctx, WT__AMP_F16, 3, (wt_tensor *const[]){ x, w, bias }, c))
        return wt__autocast_done(3, c, wt_linear(ctx, c[0], c[1], c[2]));
    return wt__grad(ctx, mm(ctx, "wt_linear", x, w, true, bias, WT_MATMUL_PRECISION_DEFAULT, WT_MM_AUTO), WT_G_linear, 3,
                    (wt_tensor *const[]){ x, w, bias }, NULL);
}
