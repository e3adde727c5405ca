/* reduce.c - reductions (sum, mean, prod, max, min, argmax, argmin, var, std) and cumsum.
 *
 * A reduction sees its input as M outputs x K reduced elements without moving data: the logical
 * dims are split into kept dims (in order) and reduced dims (in order), each group with adjacent
 * dims merged where the strides allow, and kernels/reduce.wgsl addresses element (o, r) through
 * those two small stride lists.  So a reduction over a non-last dim, or of a transposed view, is
 * never a transposed copy.  The plan then picks a layout:
 *   ROW  one workgroup per output (and segment): lanes stride through the reduced elements and
 *        meet in a shared-memory tree; chosen when the reduced elements are contiguous, or when
 *        nothing else is;
 *   COL  one invocation per output (and segment) looping over the reduced elements: chosen when
 *        neighbouring outputs are neighbours in memory (a reduction over a leading dim), so a
 *        wave of invocations reads one contiguous run per step.
 * Long reductions (and few outputs) are cut into segments so that the GPU has enough workgroups
 * and no invocation loops more than 65535 times (lavapipe stops such loops); the segments'
 * accumulators (value bits, index) go to a u32 partial buffer that a second plan reduces the
 * same way: the whole-tensor sum is two dispatches.  Floats accumulate in f32: sequentially over
 * short runs per lane, then in a tree, which keeps the error near log2(K) ulps.  var/std are two
 * passes (mean, then the mean of squared deviations) built from these kernels and ops.c's.
 * cumsum scans 256-element blocks in shared memory; longer rows add the cumsum of the block
 * totals (recursively) as each block's prefix. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tensor/internal.h"

/* kernel codes (reduce.wgsl OP) */
enum { RK_SUM, RK_PROD, RK_MAX, RK_MIN, RK_ARGMAX, RK_ARGMIN, RK_MEAN, RK_COUNT };

/* dtype rules of the reductions */
typedef enum { RR_SUM, RR_MEAN, RR_KEEP, RR_INDEX } reduce_rule;

/* X(name, kernel code, dtype rule, empty reduction allowed) */
#define WT_REDUCE_TABLE(X)                  \
    X(sum, RK_SUM, RR_SUM, true)            \
    X(mean, RK_MEAN, RR_MEAN, true)         \
    X(prod, RK_PROD, RR_SUM, true)          \
    X(max, RK_MAX, RR_KEEP, false)          \
    X(min, RK_MIN, RR_KEEP, false)          \
    X(argmax, RK_ARGMAX, RR_INDEX, false)   \
    X(argmin, RK_ARGMIN, RR_INDEX, false)

typedef struct reduce_row {
    const char *name;
    uint32_t code;
    reduce_rule rule;
    bool empty_ok;
} reduce_row;

static const reduce_row reduce_ops[] = {
#define X(name, code, rule, empty) { "wt_" #name, code, rule, empty },
    WT_REDUCE_TABLE(X)
#undef X
};
enum {
#define X(name) N_RED_##name,
    WT_REDUCE_OPS(X)
#undef X
    N_RED_COUNT
};
_Static_assert(sizeof reduce_ops / sizeof *reduce_ops == N_RED_COUNT, "one table row per public reduction");

enum { MB_IN_PARTIAL = 1, MB_OUT_PARTIAL = 2, MB_FLOAT = 4 };
enum { LAYOUT_ROW = 0, LAYOUT_COL = 1 };

/* The input as kept dims [0, nk) then reduced dims [nk, nk + nr), merged. */
typedef struct rplan {
    int nk, nr;
    int64_t shape[WT_MAX_DIMS], strides[WT_MAX_DIMS];
    int64_t off, M, K;
} rplan;

/* Appends dims of group `red` (in order, size-1 dims dropped, mergeable neighbours merged). */
static int plan_group(const wt_tensor *t, const bool *red, bool want, int64_t *shape, int64_t *strides) {
    int n = 0;
    for (int d = 0; d < t->ndim; d++) {
        if (red[d] != want || t->shape[d] == 1)
            continue;
        if (n && strides[n - 1] == t->strides[d] * t->shape[d]) {
            shape[n - 1] *= t->shape[d];
            strides[n - 1] = t->strides[d];
            continue;
        }
        shape[n] = t->shape[d];
        strides[n] = t->strides[d];
        n++;
    }
    return n;
}

static void make_plan(const wt_tensor *t, const bool *red, rplan *p) {
    memset(p, 0, sizeof *p);
    p->nk = plan_group(t, red, false, p->shape, p->strides);
    p->nr = plan_group(t, red, true, p->shape + p->nk, p->strides + p->nk);
    p->off = t->offset;
    p->M = 1;
    p->K = 1;
    for (int d = 0; d < t->ndim; d++) {
        if (red[d])
            p->K *= t->shape[d];
        else
            p->M *= t->shape[d];
    }
}

static int64_t cdiv(int64_t a, int64_t b) {
    return (a + b - 1) / b;
}
static int64_t max64(int64_t a, int64_t b) {
    return a > b ? a : b;
}
static int64_t min64(int64_t a, int64_t b) {
    return a < b ? a : b;
}

/* The op's identity as bits of the compute type (reduce4.wgsl starts every lane from it). */
static uint32_t identity_bits(uint32_t code, wt_dtype cdt) {
    bool f = wt_is_float(cdt);
    switch (code) {
    case RK_PROD: return wt_scalar_bits(cdt, 1);
    case RK_MAX: return f ? 0xff800000u : cdt == WT_I32 ? 0x80000000u : 0;
    case RK_MIN: return f ? 0x7f800000u : cdt == WT_I32 ? 0x7fffffffu : 0xffffffffu;
    default: return 0;
    }
}

/* Whether reduce4.wgsl (16-byte loads) can run this pass: 32-bit input, not argmax/argmin, and
 * ROW: one reduced dim of stride 1, K and every row start divisible by 4; COL: the innermost
 * kept dim of stride 1 and size divisible by 4, every other stride and the offset too. */
static bool vec4_ok(uint32_t code, wt_dtype cdt, wt_dtype sdt, bool partial, const rplan *p, int layout) {
    if (partial || code == RK_ARGMAX || code == RK_ARGMIN || sdt == WT_F16 || wt_gpu_size(sdt) != 4 ||
        wt_gpu_size(cdt) != 4 || p->off % 4 || p->K < 4)
        return false;
    if (layout == LAYOUT_ROW) {
        if (p->nr != 1 || p->strides[p->nk] != 1 || p->K % 4)
            return false;
        for (int d = 0; d < p->nk; d++)
            if (p->strides[d] % 4)
                return false;
        return true;
    }
    if (p->nk < 1 || p->strides[p->nk - 1] != 1 || p->shape[p->nk - 1] % 4)
        return false;
    for (int d = 0; d < p->nk + p->nr; d++)
        if (d != p->nk - 1 && p->strides[d] % 4)
            return false;
    return true;
}

/* Records the reduction described by p (input storage st of storage dtype sdt; pairs of u32 when
 * partial) into out (final) with as many passes as the plan needs. */
static wt_status reduce_plan(wt_context *ctx, const char *op, uint32_t code, wt_dtype cdt, wt_storage *st, wt_dtype sdt,
                             bool partial, const rplan *p, wt_tensor *out, float scale) {
    int64_t M = p->M, K = p->K;
    bool unit_red = p->nr >= 1 && (p->strides[p->nk + p->nr - 1] == 1 || p->strides[p->nk + p->nr - 1] == -1);
    bool unit_kept = p->nk >= 1 && p->strides[p->nk - 1] == 1;
    int layout;
    if (M == 1)
        layout = LAYOUT_ROW;
    else if (K <= 1)
        layout = LAYOUT_COL;
    else if (unit_red && K >= 16)
        layout = LAYOUT_ROW;
    else if (!unit_kept && K >= 256)
        layout = LAYOUT_ROW;
    else
        layout = LAYOUT_COL;
    int64_t S, L;
    if (layout == LAYOUT_ROW) {
        S = min64(cdiv(2048, M), cdiv(K, 8192));   /* 2048 workgroups: best of 1024..8192 on the H200 */
        S = max64(max64(S, cdiv(K, (int64_t)1 << 24)), 1);
        if (M * S >= ((int64_t)1 << 23))  /* P.n = workgroups * 256 must fit a u32 */
            layout = LAYOUT_COL;
    }
    bool v4 = false;
    if (layout == LAYOUT_COL) {
        /* 2^18 invocations of one element per step, or 2^17 of a vec4 (4 outputs) each */
        v4 = vec4_ok(code, cdt, sdt, partial, p, layout);
        /* tuned on the H200 (sum over dim 0 of 8192 x 8192): 2^17 vec4 invocations, and no
         * third pass over partials (an extra dispatch costs more than longer chains) */
        S = v4 ? min64(cdiv(131072, M / 4), cdiv(K, 32)) : min64(cdiv(262144, M), cdiv(K, 64));
        S = max64(max64(S, cdiv(K, 16384)), 1);
    } else {
        v4 = vec4_ok(code, cdt, sdt, partial, p, layout);
    }
    L = K ? cdiv(K, S) : 0;
    if (v4 && layout == LAYOUT_ROW)
        L = (L + 3) & ~(int64_t)3;   /* vec4 segments */
    S = K ? cdiv(K, L) : 1;
    /* COL vec4 over 256-output blocks: 4 segments meet in shared memory per workgroup, so a
     * quarter of the partials (a shorter second pass) for the same parallelism */
    bool grouped = v4 && layout == LAYOUT_COL && M % 256 == 0 && S >= 4;
    int64_t np = grouped ? cdiv(S, 4) : S;   /* partials per output */
    bool last = np == 1;

    wt_tensor *part = NULL;
    wt_storage *dst = out->st;
    if (!last) {
        part = wt_tensor_new(ctx, op, WT_U32, 1, (const int64_t[]){ 2 * M * np });
        if (!part)
            return ctx->status;
        dst = part->st;
    }
    wt_kkey key = wt_key(v4 ? WT_K_reduce4 : WT_K_reduce, code, last ? out->dtype : WT_U32, sdt, 0, cdt);
    key.mode[1] = (uint8_t)((partial ? MB_IN_PARTIAL : 0) | (last ? 0 : MB_OUT_PARTIAL) | (wt_is_float(cdt) ? MB_FLOAT : 0));
    key.mode[2] = (uint8_t)(grouped ? 2 : layout);
    wt_params pr;
    memset(&pr, 0, sizeof pr);
    int64_t inv = layout == LAYOUT_ROW ? M * S * 256 : grouped ? M / 256 * np * 256 : v4 ? M / 4 * S : M * S;
    pr.n = (uint32_t)inv;
    pr.ndim = (uint32_t)p->nk;
    for (int d = 0; d < p->nk + p->nr; d++) {
        pr.shape[d] = (uint32_t)p->shape[d];
        pr.st[0][d] = (int32_t)p->strides[d];
    }
    int64_t pso = layout == LAYOUT_ROW ? np : 1, pst = layout == LAYOUT_ROW ? 1 : M;
    pr.off[0] = (uint32_t)p->off;
    pr.off[1] = (uint32_t)pso;
    pr.off[2] = (uint32_t)pst;
    memcpy(&pr.sv[0], &scale, 4);
    pr.sv[1] = (uint32_t)p->nr;
    pr.sv[2] = identity_bits(code, cdt);
    pr.aux[0] = (uint32_t)M;
    pr.aux[1] = (uint32_t)K;
    pr.aux[2] = (uint32_t)S;
    pr.aux[3] = (uint32_t)L;
    wt_status s = wt_record_key(ctx, op, &key, &pr, dst, 1, &st);
    if (s == WT_OK && !last) {
        rplan q;
        memset(&q, 0, sizeof q);
        q.M = M;
        q.K = np;
        if (M > 1) {
            q.shape[q.nk] = M;
            q.strides[q.nk++] = pso;
        }
        q.shape[q.nk] = np;
        q.strides[q.nk] = pst;
        q.nr = 1;
        s = reduce_plan(ctx, op, code, cdt, part->st, WT_U32, true, &q, out, scale);
    }
    wt_release(part);
    return s;
}

/* Normalises dims[0 .. ndims) into red[] (ndims 0: all); false with an error. */
static bool parse_dims(wt_context *ctx, const char *op, const wt_tensor *t, int ndims, const int *dims, bool *red) {
    char b[160];
    memset(red, 0, WT_MAX_DIMS * sizeof *red);
    if (ndims < 0 || ndims > WT_MAX_DIMS || (ndims && !dims)) {
        wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "%d dims%s given for shape %s", ndims, ndims && !dims ? " (NULL)" : "",
                wt_shape_str(b, sizeof b, t->ndim, t->shape));
        return false;
    }
    if (ndims == 0) {
        for (int d = 0; d < t->ndim; d++)
            red[d] = true;
        return true;
    }
    for (int i = 0; i < ndims; i++) {
        int d = dims[i];
        int n = t->ndim ? t->ndim : 1;   /* a 0-d tensor takes dim 0 / -1 */
        if (d < -n || d >= n) {
            wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "dim %d out of range for shape %s", dims[i],
                    wt_shape_str(b, sizeof b, t->ndim, t->shape));
            return false;
        }
        if (d < 0)
            d += n;
        if (t->ndim && red[d]) {
            wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "dim %d repeated for shape %s", dims[i],
                    wt_shape_str(b, sizeof b, t->ndim, t->shape));
            return false;
        }
        if (t->ndim)
            red[d] = true;
    }
    return true;
}

static void out_shape(const wt_tensor *t, const bool *red, bool keepdim, int *nd, int64_t *shape) {
    int n = 0;
    for (int d = 0; d < t->ndim; d++) {
        if (!red[d])
            shape[n++] = t->shape[d];
        else if (keepdim)
            shape[n++] = 1;
    }
    *nd = n;
}

static wt_tensor *reduce(wt_context *ctx, int which, wt_tensor *t, int ndims, const int *dims, bool keepdim) {
    const reduce_row *r = &reduce_ops[which];
    if (!ctx || !wt_check_tensor(ctx, r->name, t))
        return NULL;
    bool red[WT_MAX_DIMS];
    if (!parse_dims(ctx, r->name, t, ndims, dims, red))
        return NULL;
    char b[160];
    if (r->rule == RR_INDEX && ndims > 1)
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, r->name, "takes one dim or none (all), got %d for shape %s",
                       ndims, wt_shape_str(b, sizeof b, t->ndim, t->shape));
    wt_dtype in = t->dtype, out_dt, cdt;
    switch (r->rule) {
    case RR_SUM:
        out_dt = in == WT_BOOL ? WT_I32 : in;
        cdt = wt_compute_dtype(out_dt);
        break;
    case RR_MEAN:
        out_dt = wt_is_float(in) ? in : WT_F32;
        cdt = WT_F32;
        break;
    case RR_KEEP:
        out_dt = in;
        cdt = wt_compute_dtype(in);
        break;
    default:
        out_dt = WT_I32;
        cdt = wt_compute_dtype(in);
        break;
    }
    rplan p;
    make_plan(t, red, &p);
    if (!r->empty_ok && p.K == 0 && p.M > 0)
        return wt_fail(ctx, WT_STATUS_SHAPE, r->name, "reduction over zero elements of shape %s has no identity",
                       wt_shape_str(b, sizeof b, t->ndim, t->shape));
    int nd;
    int64_t shape[WT_MAX_DIMS];
    out_shape(t, red, keepdim, &nd, shape);
    wt_tensor *out = wt_tensor_new(ctx, r->name, out_dt, nd, shape);
    if (!out)
        return NULL;
    if (!p.M) {
        ctx->stats.ops++;
        return out;
    }
    float scale = (float)(1.0 / (double)p.K);
    /* an empty input (K == 0) binds the dummy buffer: the kernel reads nothing */
    if (reduce_plan(ctx, r->name, r->code, cdt, t->numel ? t->st : NULL, in, false, &p, out, scale) != WT_OK) {
        wt_release(out);
        return NULL;
    }
    return out;
}

/* autograd: the backward rows (grad.h) and the arguments their rules read */
static const wt_gop reduce_grad[N_RED_COUNT] = {
    [N_RED_sum] = WT_G_sum, [N_RED_mean] = WT_G_mean, [N_RED_prod] = WT_G_prod, [N_RED_max] = WT_G_max,
    [N_RED_min] = WT_G_min,
};

static wt_gargs dims_args(int ndims, const int *dims, bool keepdim, double correction) {
    wt_gargs a = { .f = { keepdim, correction } };
    for (int k = 0; dims && k < ndims && k < 2 * WT_MAX_DIMS; k++)
        a.i[a.ni++] = dims[k];
    return a;
}

#define X(name)                                                                                      \
    wt_tensor *wt_##name(wt_context *ctx, wt_tensor *t, int ndims, const int *dims, bool keepdim) { \
        return wt__grad(ctx, reduce(ctx, N_RED_##name, t, ndims, dims, keepdim), reduce_grad[N_RED_##name], 1, &t, \
                        (wt_gargs[]){ dims_args(ndims, dims, keepdim, 0) });          \
    }
WT_REDUCE_OPS(X)
#undef X

static wt_tensor *variance(wt_context *ctx, const char *op, wt_tensor *t, int ndims, const int *dims, double correction,
                           bool keepdim, bool root) {
    if (!ctx || !wt_check_tensor(ctx, op, t))
        return NULL;
    bool red[WT_MAX_DIMS];
    if (!parse_dims(ctx, op, t, ndims, dims, red))
        return NULL;
    if (isnan(correction) || correction < 0)
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "correction %g must be >= 0", correction);
    int64_t K = 1;
    for (int d = 0; d < t->ndim; d++)
        if (red[d])
            K *= t->shape[d];
    wt_dtype out_dt = wt_is_float(t->dtype) ? t->dtype : WT_F32;
    /* f32 throughout (f16 and integers are converted once), rounded to out_dt at the end */
    wt_tensor *x = wt_cast(ctx, t, WT_F32);
    wt_tensor *mu = x ? reduce(ctx, N_RED_mean, x, ndims, dims, true) : NULL;
    wt_tensor *dev = mu ? wt_sub(ctx, x, mu) : NULL;
    wt_tensor *sq = dev ? wt_mul(ctx, dev, dev) : NULL;
    wt_tensor *ss = sq ? reduce(ctx, N_RED_sum, sq, ndims, dims, keepdim) : NULL;
    double den = (double)K - correction;
    wt_tensor *v = ss ? wt_mul_scalar(ctx, ss, den > 0 ? 1.0 / den : INFINITY) : NULL;
    wt_tensor *r = v && root ? wt_sqrt(ctx, v) : v;
    if (r && r == v)
        wt_retain(r);
    wt_tensor *res = r ? wt_cast(ctx, r, out_dt) : NULL;
    wt_release(x);
    wt_release(mu);
    wt_release(dev);
    wt_release(sq);
    wt_release(ss);
    wt_release(v);
    wt_release(r);
    if (!res && ctx->status == WT_OK)
        wt_fail(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "failed");
    return res;
}

wt_tensor *wt_var(wt_context *ctx, wt_tensor *t, int ndims, const int *dims, double correction, bool keepdim) {
    return wt__grad(ctx, variance(ctx, "wt_var", t, ndims, dims, correction, keepdim, false), WT_G_var, 1, &t,
                    (wt_gargs[]){ dims_args(ndims, dims, keepdim, correction) });
}

wt_tensor *wt_std(wt_context *ctx, wt_tensor *t, int ndims, const int *dims, double correction, bool keepdim) {
    return wt__grad(ctx, variance(ctx, "wt_std", t, ndims, dims, correction, keepdim, true), WT_G_std, 1, &t,
                    (wt_gargs[]){ dims_args(ndims, dims, keepdim, correction) });
}

/* ---- cumsum ---- */

/* Scan of rows described by (nk kept dims shape/istr/ostr, scan dim length L with strides is/os)
 * from storage a (offset aoff) into storage o (offset ooff). */
typedef struct splan {
    int nk;
    int64_t shape[WT_MAX_DIMS], istr[WT_MAX_DIMS], ostr[WT_MAX_DIMS];
    int64_t ioff, ooff, R, L;
} splan;

static wt_status scan_dispatch(wt_context *ctx, const char *op, uint32_t code, const splan *p, wt_dtype cdt,
                               wt_storage *in, wt_dtype idt, wt_storage *pre, wt_dtype pdt, wt_storage *out,
                               wt_dtype odt) {
    int64_t B = cdiv(p->L, 256);
    wt_kkey key = wt_key(WT_K_scan, code, odt, idt, pre ? pdt : WT_F32, cdt);
    key.mode[1] = pre ? 1 : 0;
    wt_params pr;
    memset(&pr, 0, sizeof pr);
    pr.n = (uint32_t)(p->R * B * 256);
    pr.ndim = (uint32_t)p->nk;
    for (int d = 0; d <= p->nk; d++) {
        pr.shape[d] = (uint32_t)(d < p->nk ? p->shape[d] : p->L);
        pr.st[0][d] = (int32_t)p->istr[d];
        pr.st[1][d] = (int32_t)p->ostr[d];
    }
    pr.off[0] = (uint32_t)p->ioff;
    pr.off[1] = (uint32_t)p->ooff;
    pr.aux[0] = (uint32_t)p->R;
    pr.aux[1] = (uint32_t)p->L;
    pr.aux[2] = (uint32_t)B;
    wt_storage *ins[2] = { in, pre };
    return wt_record_key(ctx, op, &key, &pr, out, 2, ins);
}

static wt_status scan_plan(wt_context *ctx, const char *op, const splan *p, wt_dtype cdt, wt_storage *in, wt_dtype idt,
                           wt_storage *out, wt_dtype odt) {
    int64_t B = cdiv(p->L, 256);
    if (B <= 1)
        return scan_dispatch(ctx, op, 0, p, cdt, in, idt, NULL, 0, out, odt);
    /* block totals [R, B], their cumsum along B, then the blocks with their prefixes */
    wt_tensor *tot = wt_tensor_new(ctx, op, cdt, 2, (const int64_t[]){ p->R, B });
    wt_tensor *cum = tot ? wt_tensor_new(ctx, op, cdt, 2, (const int64_t[]){ p->R, B }) : NULL;
    wt_status s = cum ? scan_dispatch(ctx, op, 1, p, cdt, in, idt, NULL, 0, tot->st, cdt) : ctx->status;
    if (s == WT_OK) {
        splan q;
        memset(&q, 0, sizeof q);
        q.R = p->R;
        q.L = B;
        if (p->R > 1) {
            q.shape[0] = p->R;
            q.istr[0] = q.ostr[0] = B;
            q.nk = 1;
        }
        q.istr[q.nk] = q.ostr[q.nk] = 1;
        s = scan_plan(ctx, op, &q, cdt, tot->st, cdt, cum->st, cdt);
    }
    if (s == WT_OK)
        s = scan_dispatch(ctx, op, 0, p, cdt, in, idt, cum->st, cdt, out, odt);
    wt_release(tot);
    wt_release(cum);
    return s;
}

wt_tensor *wt_cumsum(wt_context *ctx, wt_tensor *t, int dim) {
    const char *op = "wt_cumsum";
    if (!ctx || !wt_check_tensor(ctx, op, t))
        return NULL;
    int n = t->ndim ? t->ndim : 1;
    char b[160];
    if (dim < -n || dim >= n)
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "dim %d out of range for shape %s", dim,
                       wt_shape_str(b, sizeof b, t->ndim, t->shape));
    if (dim < 0)
        dim += n;
    wt_dtype odt = t->dtype == WT_BOOL ? WT_I32 : t->dtype;
    wt_dtype cdt = wt_compute_dtype(odt);
    wt_tensor *out = wt_tensor_new(ctx, op, odt, t->ndim, t->shape);
    if (!out)
        return NULL;
    if (!t->numel) {
        ctx->stats.ops++;
        return out;
    }
    splan p;
    memset(&p, 0, sizeof p);
    p.ioff = t->offset;
    p.L = t->ndim ? t->shape[dim] : 1;
    p.R = t->numel / p.L;
    for (int d = 0; d < t->ndim; d++) {
        if (d == dim || t->shape[d] == 1)
            continue;
        p.shape[p.nk] = t->shape[d];
        p.istr[p.nk] = t->strides[d];
        p.ostr[p.nk] = out->strides[d];
        p.nk++;
    }
    if (p.R * cdiv(p.L, 256) >= ((int64_t)1 << 23)) {   /* workgroups * 256 must fit a u32 */
        wt_release(out);
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "shape %s: %lld rows of %lld is more than the block scan takes "
                       "(2^23 blocks of 256)", wt_shape_str(b, sizeof b, t->ndim, t->shape), (long long)p.R,
                       (long long)p.L);
    }
    p.istr[p.nk] = t->ndim ? t->strides[dim] : 1;
    p.ostr[p.nk] = t->ndim ? out->strides[dim] : 1;
    if (scan_plan(ctx, op, &p, cdt, t->st, t->dtype, out->st, odt) != WT_OK) {
        wt_release(out);
        return NULL;
    }
    return wt__grad(ctx, out, WT_G_cumsum, 1, &t, &(wt_gargs){ .i = { dim }, .ni = 1 });
}

/* ---- topk --------------------------------------------------------------------------------- */
/* topk.wgsl on contiguous rows: dim moves last (a transposed view and wt_contiguous, both on the
 * tape), one workgroup per row, then the results move back. */
enum { TOPK_MAX = 1024 };

wt_tensor *wt_topk(wt_context *ctx, wt_tensor *t, int64_t k, int dim, bool largest, wt_tensor **indices) {
    const char *op = "wt_topk";
    if (indices)
        *indices = NULL;
    if (!ctx || !wt_check_tensor(ctx, op, t))
        return NULL;
    int n = t->ndim ? t->ndim : 1;
    char b[160];
    wt_shape_str(b, sizeof b, t->ndim, t->shape);
    if (dim < -n || dim >= n)
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "dim %d out of range for shape %s", dim, b);
    if (dim < 0)
        dim += n;
    if (t->dtype != WT_F32 && t->dtype != WT_F16 && t->dtype != WT_I32)
        return wt_fail(ctx, WT_STATUS_DTYPE, op, "takes f32, f16 or i32 tensors, not %s", wt_dtype_name(t->dtype));
    int64_t L = t->ndim ? t->shape[dim] : 1;
    if (k < 0 || k > L)
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "k = %lld out of range for dim %d of shape %s",
                       (long long)k, dim, b);
    if (k > TOPK_MAX)
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "k = %lld: at most %d (the sort runs in one workgroup)",
                       (long long)k, TOPK_MAX);
    int64_t R = L ? t->numel / L : 0;
    if (L > (int64_t)65535 * 256 || t->numel > (int64_t)UINT32_MAX || R > (int64_t)(UINT32_MAX / 256))
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "shape %s: rows longer than 65535 x 256 or more than 2^32 "
                       "elements are more than topk.wgsl takes", b);
    int last = t->ndim ? t->ndim - 1 : 0;
    bool moved = t->ndim && dim != last;
    wt_tensor *view = moved ? wt_transpose(ctx, t, dim, last) : t;
    wt_tensor *x = view ? wt_contiguous(ctx, view) : NULL;
    if (moved)
        wt_release(view);
    if (!x)
        return NULL;
    int64_t shape[WT_MAX_DIMS];
    memcpy(shape, x->shape, sizeof shape);
    if (x->ndim)
        shape[last] = k;
    wt_tensor *vals = wt_tensor_new(ctx, op, x->dtype, x->ndim, shape);
    wt_tensor *idx = vals ? wt_tensor_new(ctx, op, WT_I32, x->ndim, shape) : NULL;
    wt_status s = idx ? WT_OK : ctx->status;
    if (s == WT_OK && k) {
        uint32_t n2 = 1;
        while (n2 < (uint32_t)k)
            n2 *= 2;
        wt_params p;
        memset(&p, 0, sizeof p);
        p.n = (uint32_t)(R * 256);
        p.sv[0] = (uint32_t)L;
        p.sv[1] = (uint32_t)k;
        p.sv[2] = largest ? 1u : 0u;
        p.sv[3] = (uint32_t)R;
        p.off[2] = (uint32_t)x->offset;
        p.aux[0] = n2;
        wt_kkey key = wt_key(WT_K_topk, x->dtype == WT_I32 ? 1u : 0u, x->dtype, WT_I32, x->dtype, WT_F32);
        wt_storage *in[2] = { idx->st, x->st };
        s = wt_record_key(ctx, op, &key, &p, vals->st, 2, in);
    } else if (s == WT_OK) {
        ctx->stats.ops++;
    }
    if (s != WT_OK) {
        wt_release(vals);
        wt_release(idx);
        wt_release(x);
        return NULL;
    }
    vals = wt__grad(ctx, vals, WT_G_topk, 1, &x, &(wt_gargs){ .i = { last }, .ni = 1, .save = { idx } });
    wt_release(x);
    if (vals && moved) {
        wt_tensor *v = wt_transpose(ctx, vals, dim, last), *i = wt_transpose(ctx, idx, dim, last);
        wt_release(vals);
        wt_release(idx);
        vals = v && i ? v : NULL;
        idx = v && i ? i : NULL;
        if (!vals) {
            wt_release(v);
            wt_release(i);
        }
    }
    if (!vals) {
        wt_release(idx);
        return NULL;
    }
    if (indices)
        *indices = idx;
    else
        wt_release(idx);
    return vals;
}
