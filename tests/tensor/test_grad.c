/* test_grad.c - gradient checks of every backward rule (src/tensor/derivatives.c) and the tape's
 * behaviour (src/tensor/grad.c).
 *
 * Each case (named after its row of WT_GRAD_OPS) has a plain C forward in f64 and the wt op(s) on
 * the GPU.  Inputs are random leaves (contiguous, transposed views or strided slices); the GPU
 * result y gets a random upstream gradient W through wt_backward(y, W), and each leaf's gradient
 * is compared with central finite differences of sum(W * ref(x)) computed in f64 on the host,
 * within the case's tolerance relative to the largest gradient.  The forward is compared too.
 * Then the tape: PyTorch's tie rules, retain_graph, a second backward through a freed graph,
 * errors (nothing changes), no-grad mode, detach, accumulation, and no leak over 100 training
 * steps (live tensors, pooled bytes and graph nodes return to the same values). */
#include "tensor/tensor_test.h"

static wt_context *ctx;
static uint64_t seed = 0x2545f4914f6cdd1dull;

enum { MAXIN = 3, MAXN = 4096 };

typedef struct gcase gcase;
typedef void (*ref_fn)(const gcase *c, double *const *x, double *out);
typedef wt_tensor *(*gpu_fn)(const gcase *c, wt_tensor *const *x);
struct gcase {
    const char *name;         /* the WT_GRAD_OPS row it checks */
    ref_fn ref;
    gpu_fn gpu;
    int nin;
    int nd[MAXIN];
    int64_t sh[MAXIN][WT_MAX_DIMS];
    int layout[MAXIN];
    double lo, hi;            /* inputs uniform in [lo, hi); 0, 0: [-1, 1) */
    double tol;               /* 0: 1e-4 */
    wt_dtype dt;              /* of the leaves; 0: f32 (f16 cases run where the device has it) */
    double p[4];
    int ip[10];
    double (*f1)(double);
    double (*f2)(double, double);
    wt_tensor *(*u)(wt_context *, wt_tensor *);
    wt_tensor *(*b)(wt_context *, wt_tensor *, wt_tensor *);
    wt_tensor *(*bs)(wt_context *, wt_tensor *, double);
};

/* the GPU result's shape, which the references fill in C order */
static int ond;
static int64_t osh[WT_MAX_DIMS];

static int64_t count(int nd, const int64_t *s) {
    int64_t n = 1;
    for (int d = 0; d < nd; d++)
        n *= s[d];
    return n;
}

static void unravel(int64_t i, int nd, const int64_t *s, int64_t *co) {
    for (int d = nd - 1; d >= 0; d--) {
        co[d] = s[d] ? i % s[d] : 0;
        i = s[d] ? i / s[d] : 0;
    }
}

static int64_t ravel(const int64_t *co, int nd, const int64_t *s) {
    int64_t i = 0;
    for (int d = 0; d < nd; d++)
        i = i * s[d] + co[d];
    return i;
}

/* index into an input of shape (nd, s) broadcast against output coordinates co (ond dims) */
static int64_t bidx(const int64_t *co, int nd, const int64_t *s) {
    int64_t i = 0;
    for (int d = 0; d < nd; d++) {
        int j = d + ond - nd;
        i = i * s[d] + (s[d] == 1 ? 0 : co[j]);
    }
    return i;
}

static int64_t on(void) {
    return count(ond, osh);
}

/* ---- elementwise ---- */

static void ref_unary(const gcase *c, double *const *x, double *out) {
    for (int64_t i = 0; i < on(); i++)
        out[i] = c->f1(x[0][i]);
}
static wt_tensor *gpu_unary(const gcase *c, wt_tensor *const *x) { return c->u(ctx, x[0]); }

static void ref_binary(const gcase *c, double *const *x, double *out) {
    int64_t co[WT_MAX_DIMS] = { 0 };
    for (int64_t i = 0; i < on(); i++) {
        unravel(i, ond, osh, co);
        out[i] = c->f2(x[0][bidx(co, c->nd[0], c->sh[0])], x[1][bidx(co, c->nd[1], c->sh[1])]);
    }
}
static wt_tensor *gpu_binary(const gcase *c, wt_tensor *const *x) { return c->b(ctx, x[0], x[1]); }

static void ref_scalar(const gcase *c, double *const *x, double *out) {
    for (int64_t i = 0; i < on(); i++)
        out[i] = c->f2(x[0][i], c->p[0]);
}
static wt_tensor *gpu_scalar(const gcase *c, wt_tensor *const *x) { return c->bs(ctx, x[0], c->p[0]); }

static double f_add(double a, double b) { return a + b; }
static double f_sub(double a, double b) { return a - b; }
static double f_mul(double a, double b) { return a * b; }
static double f_div(double a, double b) { return a / b; }
static double f_min(double a, double b) { return a < b ? a : b; }
static double f_max(double a, double b) { return a > b ? a : b; }
static double f_rem(double a, double b) { return a - b * floor(a / b); }
static double f_neg(double a) { return -a; }
static double f_rsqrt(double a) { return 1 / sqrt(a); }
static double f_sigmoid(double a) { return 1 / (1 + exp(-a)); }
static double f_relu(double a) { return a > 0 ? a : 0; }
static double f_silu(double a) { return a / (1 + exp(-a)); }
static double f_gelu(double a) { return 0.5 * a * (1 + erf(a / sqrt(2.0))); }
static double f_round(double a) { return nearbyint(a); }
static double f_sign(double a) { return a > 0 ? 1 : a < 0 ? -1 : 0; }
static double f_recip(double a) { return 1 / a; }
static double f_ident(double a) { return a; }

static void ref_clamp(const gcase *c, double *const *x, double *out) {
    for (int64_t i = 0; i < on(); i++)
        out[i] = x[0][i] < c->p[0] ? c->p[0] : x[0][i] > c->p[1] ? c->p[1] : x[0][i];
}
static wt_tensor *gpu_clamp(const gcase *c, wt_tensor *const *x) { return wt_clamp(ctx, x[0], c->p[0], c->p[1]); }

/* the condition / mask pattern of where and masked_fill: element i of a [n] pattern is set when i % 3 == 0 */
static wt_tensor *pattern(int nd, const int64_t *s) {
    double v[64];
    int64_t n = count(nd, s);
    for (int64_t i = 0; i < n; i++)
        v[i] = i % 3 == 0;
    return tt_upload(ctx, WT_BOOL, nd, s, v);
}
static void ref_where(const gcase *c, double *const *x, double *out) {   /* cond [3, 4], a [3, 4], b [4] */
    int64_t co[WT_MAX_DIMS] = { 0 };
    for (int64_t i = 0; i < on(); i++) {
        unravel(i, ond, osh, co);
        out[i] = i % 3 == 0 ? x[0][i] : x[1][bidx(co, c->nd[1], c->sh[1])];
    }
}
static wt_tensor *gpu_where(const gcase *c, wt_tensor *const *x) {
    wt_tensor *cond = pattern(c->nd[0], c->sh[0]);
    wt_tensor *y = wt_where(ctx, cond, x[0], x[1]);
    wt_release(cond);
    return y;
}
static void ref_masked_fill(const gcase *c, double *const *x, double *out) {   /* x [3, 4], mask [4] */
    int64_t co[WT_MAX_DIMS] = { 0 };
    for (int64_t i = 0; i < on(); i++) {
        unravel(i, ond, osh, co);
        out[i] = co[1] % 3 == 0 ? c->p[0] : x[0][i];
    }
}
static wt_tensor *gpu_masked_fill(const gcase *c, wt_tensor *const *x) {
    wt_tensor *mask = pattern(1, (int64_t[]){ c->sh[0][1] });
    wt_tensor *y = wt_masked_fill(ctx, x[0], mask, c->p[0]);
    wt_release(mask);
    return y;
}
static wt_tensor *gpu_cast(const gcase *c, wt_tensor *const *x) {   /* f32 -> f16 -> f32 where the device has f16 */
    if (!wt_context_has_f16(ctx))
        return wt_cast(ctx, x[0], WT_F32);
    wt_tensor *h = wt_cast(ctx, x[0], WT_F16);
    wt_tensor *y = wt_cast(ctx, h, WT_F32);
    wt_release(h);
    return y;
}
static wt_tensor *gpu_clone(const gcase *c, wt_tensor *const *x) { return wt_clone(ctx, x[0]); }
static wt_tensor *gpu_contiguous(const gcase *c, wt_tensor *const *x) { return wt_contiguous(ctx, x[0]); }

/* ---- reductions: ip[0] kind, ip[1] ndims, ip[2..] dims; p[0] keepdim, p[1] correction ---- */

enum { R_SUM, R_MEAN, R_PROD, R_MAX, R_MIN, R_VAR, R_STD };

static void ref_reduce(const gcase *c, double *const *x, double *out) {
    int nd = c->nd[0];
    const int64_t *s = c->sh[0];
    bool red[WT_MAX_DIMS] = { 0 };
    for (int k = 0; k < c->ip[1]; k++)
        red[(c->ip[2 + k] + nd) % nd] = true;
    if (!c->ip[1])
        for (int d = 0; d < nd; d++)
            red[d] = true;
    int64_t o = on(), n = count(nd, s), K = 1, co[WT_MAX_DIMS], oc[WT_MAX_DIMS];
    for (int d = 0; d < nd; d++)
        K *= red[d] ? s[d] : 1;
    double acc[MAXN], mean[MAXN];
    int kind = c->ip[0];
    for (int64_t i = 0; i < o; i++) {
        acc[i] = kind == R_PROD ? 1 : kind == R_MAX ? -INFINITY : kind == R_MIN ? INFINITY : 0;
        mean[i] = 0;
    }
    int64_t ks[WT_MAX_DIMS];
    for (int d = 0; d < nd; d++)
        ks[d] = red[d] ? 1 : s[d];
    for (int pass = 0; pass < 2; pass++) {
        for (int64_t i = 0; i < n; i++) {
            unravel(i, nd, s, co);
            for (int d = 0; d < nd; d++)
                oc[d] = red[d] ? 0 : co[d];
            int64_t j = ravel(oc, nd, ks);   /* keepdim order = output order */
            double v = x[0][i];
            if (pass == 0) {
                switch (kind) {
                case R_PROD: acc[j] *= v; break;
                case R_MAX: acc[j] = fmax(acc[j], v); break;
                case R_MIN: acc[j] = fmin(acc[j], v); break;
                default: acc[j] += v; break;
                }
            } else if (kind == R_VAR || kind == R_STD) {
                mean[j] += (v - acc[j] / K) * (v - acc[j] / K);
            }
        }
    }
    for (int64_t j = 0; j < o; j++) {
        double den = (double)K - c->p[1];
        out[j] = kind == R_MEAN ? acc[j] / K : kind == R_VAR ? mean[j] / den : kind == R_STD ? sqrt(mean[j] / den) : acc[j];
    }
}
static wt_tensor *gpu_reduce(const gcase *c, wt_tensor *const *x) {
    const int *dims = c->ip + 2;
    int n = c->ip[1];
    bool kd = c->p[0] != 0;
    switch (c->ip[0]) {
    case R_SUM: return wt_sum(ctx, x[0], n, dims, kd);
    case R_MEAN: return wt_mean(ctx, x[0], n, dims, kd);
    case R_PROD: return wt_prod(ctx, x[0], n, dims, kd);
    case R_MAX: return wt_max(ctx, x[0], n, dims, kd);
    case R_MIN: return wt_min(ctx, x[0], n, dims, kd);
    case R_VAR: return wt_var(ctx, x[0], n, dims, c->p[1], kd);
    default: return wt_std(ctx, x[0], n, dims, c->p[1], kd);
    }
}

static void ref_cumsum(const gcase *c, double *const *x, double *out) {   /* ip[0] dim (>= 0) */
    int dim = c->ip[0];
    int64_t co[WT_MAX_DIMS] = { 0 };
    for (int64_t i = 0; i < on(); i++) {
        unravel(i, ond, osh, co);
        double s = 0;
        int64_t at = co[dim];
        for (co[dim] = 0; co[dim] <= at; co[dim]++)
            s += x[0][ravel(co, ond, osh)];
        out[i] = s;
    }
}
static wt_tensor *gpu_cumsum(const gcase *c, wt_tensor *const *x) { return wt_cumsum(ctx, x[0], c->ip[0]); }

static void ref_topk(const gcase *c, double *const *x, double *out) {   /* ip: dim (>= 0), k, largest */
    int dim = c->ip[0];
    int64_t L = c->sh[0][dim];
    int64_t co[WT_MAX_DIMS] = { 0 }, ci[WT_MAX_DIMS];
    for (int64_t i = 0; i < on(); i++) {
        unravel(i, ond, osh, co);
        memcpy(ci, co, sizeof ci);
        int64_t rank = co[dim], used = -1;   /* the rank-th in order (distinct random values: no ties) */
        double last = c->ip[2] ? INFINITY : -INFINITY;
        for (int64_t r = 0; r <= rank; r++) {
            double best = c->ip[2] ? -INFINITY : INFINITY;
            for (ci[dim] = 0; ci[dim] < L; ci[dim]++) {
                double v = x[0][ravel(ci, c->nd[0], c->sh[0])];
                if (c->ip[2] ? (v < last && v > best) : (v > last && v < best))
                    best = v, used = ci[dim];
            }
            last = best;
        }
        out[i] = last;
        (void)used;
    }
}
static wt_tensor *gpu_topk(const gcase *c, wt_tensor *const *x) {
    return wt_topk(ctx, x[0], c->ip[1], c->ip[0], c->ip[2] != 0, NULL);
}

/* ---- views ---- */

static void ref_copy(const gcase *c, double *const *x, double *out) {   /* C order unchanged */
    for (int64_t i = 0; i < on(); i++)
        out[i] = x[0][i];
}
static wt_tensor *gpu_reshape(const gcase *c, wt_tensor *const *x) {
    return wt_reshape(ctx, x[0], WT_SHAPE(c->ip[0], -1));
}
static wt_tensor *gpu_view(const gcase *c, wt_tensor *const *x) {   /* contiguous input: a view */
    wt_tensor *v = wt_view(ctx, x[0], WT_SHAPE(c->ip[0], -1));
    wt_tensor *y = wt_mul_scalar(ctx, v, 1.0);   /* a result of its own, not the leaf's storage */
    wt_release(v);
    return y;
}
static wt_tensor *gpu_flatten(const gcase *c, wt_tensor *const *x) { return wt_flatten(ctx, x[0]); }
static wt_tensor *gpu_squeeze(const gcase *c, wt_tensor *const *x) {   /* [3, 1, 4] -> unsqueeze(squeeze) */
    wt_tensor *s = wt_squeeze(ctx, x[0], 1);
    wt_tensor *u = wt_unsqueeze(ctx, s, 0);
    wt_tensor *a = wt_squeeze_all(ctx, u);
    wt_release(s);
    wt_release(u);
    return a;
}

static void ref_permute(const gcase *c, double *const *x, double *out) {   /* ip: the permutation */
    int64_t co[WT_MAX_DIMS] = { 0 }, ci[WT_MAX_DIMS] = { 0 };
    for (int64_t i = 0; i < on(); i++) {
        unravel(i, ond, osh, co);
        for (int k = 0; k < ond; k++)
            ci[c->ip[k]] = co[k];
        out[i] = x[0][ravel(ci, c->nd[0], c->sh[0])];
    }
}
static wt_tensor *gpu_permute(const gcase *c, wt_tensor *const *x) { return wt_permute(ctx, x[0], c->ip); }
static wt_tensor *gpu_transpose(const gcase *c, wt_tensor *const *x) {   /* ip = the swap as a permutation */
    int a = -1, b = -1;
    for (int k = 0; k < c->nd[0]; k++)
        if (c->ip[k] != k)
            a < 0 ? (a = k) : (b = k);
    return wt_transpose(ctx, x[0], a, b);
}

static void ref_expand(const gcase *c, double *const *x, double *out) {
    int64_t co[WT_MAX_DIMS] = { 0 };
    for (int64_t i = 0; i < on(); i++) {
        unravel(i, ond, osh, co);
        out[i] = x[0][bidx(co, c->nd[0], c->sh[0])];
    }
}
static wt_tensor *gpu_expand(const gcase *c, wt_tensor *const *x) {
    wt_tensor *e = wt_expand(ctx, x[0], WT_SHAPE(2, 3, 4));
    wt_tensor *y = wt_mul_scalar(ctx, e, 1.0);
    wt_release(e);
    return y;
}

/* slice: ip dim, start, end, step (start >= 0, python-clamped end) */
static void ref_slice(const gcase *c, double *const *x, double *out) {
    int64_t co[WT_MAX_DIMS] = { 0 };
    for (int64_t i = 0; i < on(); i++) {
        unravel(i, ond, osh, co);
        co[c->ip[0]] = c->ip[1] + co[c->ip[0]] * c->ip[3];
        out[i] = x[0][ravel(co, c->nd[0], c->sh[0])];
    }
}
static wt_tensor *gpu_slice(const gcase *c, wt_tensor *const *x) {
    return wt_slice(ctx, x[0], c->ip[0], c->ip[1], c->ip[2], c->ip[3]);
}
static wt_tensor *gpu_narrow(const gcase *c, wt_tensor *const *x) {   /* step 1, end = start + length */
    return wt_narrow(ctx, x[0], c->ip[0], c->ip[1], c->ip[2] - c->ip[1]);
}
static wt_tensor *gpu_chunk(const gcase *c, wt_tensor *const *x) {   /* piece 1 of chunk(3) along ip[0] */
    wt_tensor *pcs[4] = { 0 };
    int n = 0;
    wt_chunk(ctx, x[0], 3, c->ip[0], pcs, 4, &n);
    wt_tensor *y = pcs[1];
    wt_release(pcs[0]);
    wt_release(pcs[2]);
    return y;
}
static wt_tensor *gpu_split(const gcase *c, wt_tensor *const *x) {   /* the last piece of split(3) along ip[0] */
    wt_tensor *pcs[4] = { 0 };
    int n = 0;
    wt_split(ctx, x[0], 3, c->ip[0], pcs, 4, &n);
    for (int i = 0; i + 1 < n; i++)
        wt_release(pcs[i]);
    return n ? pcs[n - 1] : NULL;
}
static void ref_select(const gcase *c, double *const *x, double *out) {   /* ip dim, index */
    int64_t co[WT_MAX_DIMS] = { 0 }, ci[WT_MAX_DIMS] = { 0 };
    for (int64_t i = 0; i < on(); i++) {
        unravel(i, ond, osh, co);
        for (int d = 0, j = 0; d < c->nd[0]; d++)
            ci[d] = d == c->ip[0] ? c->ip[1] : co[j++];
        out[i] = x[0][ravel(ci, c->nd[0], c->sh[0])];
    }
}
static wt_tensor *gpu_select(const gcase *c, wt_tensor *const *x) { return wt_select(ctx, x[0], c->ip[0], c->ip[1]); }

/* ---- data movement ---- */

static void ref_cat(const gcase *c, double *const *x, double *out) {   /* ip[0] dim */
    int dim = c->ip[0];
    int64_t co[WT_MAX_DIMS] = { 0 };
    for (int64_t i = 0; i < on(); i++) {
        unravel(i, ond, osh, co);
        int k = 0;
        while (co[dim] >= c->sh[k][dim])
            co[dim] -= c->sh[k++][dim];
        out[i] = x[k][ravel(co, c->nd[k], c->sh[k])];
    }
}
static wt_tensor *gpu_cat(const gcase *c, wt_tensor *const *x) { return wt_cat(ctx, x, c->nin, c->ip[0]); }
static void ref_stack(const gcase *c, double *const *x, double *out) {
    int dim = c->ip[0];
    int64_t co[WT_MAX_DIMS] = { 0 }, ci[WT_MAX_DIMS] = { 0 };
    for (int64_t i = 0; i < on(); i++) {
        unravel(i, ond, osh, co);
        for (int d = 0, j = 0; d < ond; d++)
            if (d != dim)
                ci[j++] = co[d];
        out[i] = x[co[dim]][ravel(ci, c->nd[0], c->sh[0])];
    }
}
static wt_tensor *gpu_stack(const gcase *c, wt_tensor *const *x) { return wt_stack(ctx, x, c->nin, c->ip[0]); }

/* gather along dim 1 of x [3, 4] with a [3, 2] index (repeats: gradients add up) */
static const double gather_idx[6] = { 0, 0, 3, 1, 2, 2 };
static void ref_gather(const gcase *c, double *const *x, double *out) {
    for (int64_t i = 0; i < 3; i++)
        for (int64_t j = 0; j < 2; j++)
            out[i * 2 + j] = x[0][i * 4 + (int64_t)gather_idx[i * 2 + j]];
}
static wt_tensor *gpu_gather(const gcase *c, wt_tensor *const *x) {
    wt_tensor *idx = tt_upload(ctx, WT_I32, WT_SHAPE(3, 2), gather_idx);
    wt_tensor *y = wt_gather(ctx, x[0], 1, idx);
    wt_release(idx);
    return y;
}
/* index_select along dim 0 of x [4, 3] */
static const double isel_idx[5] = { 3, 0, 3, 1, -2 };
static void ref_index_select(const gcase *c, double *const *x, double *out) {
    for (int64_t i = 0; i < 5; i++)
        for (int64_t j = 0; j < 3; j++)
            out[i * 3 + j] = x[0][(((int64_t)isel_idx[i] + 4) % 4) * 3 + j];
}
static wt_tensor *gpu_index_select(const gcase *c, wt_tensor *const *x) {
    wt_tensor *idx = tt_upload(ctx, WT_I32, 1, (int64_t[]){ 5 }, isel_idx);
    wt_tensor *y = wt_index_select(ctx, x[0], 0, idx);
    wt_release(idx);
    return y;
}
/* embedding: weight [5, 3], indices [2, 3] */
static const double emb_idx[6] = { 1, 4, 1, 0, 4, 4 };
static void ref_embedding(const gcase *c, double *const *x, double *out) {
    for (int64_t i = 0; i < 6; i++)
        for (int64_t j = 0; j < 3; j++)
            out[i * 3 + j] = x[0][(int64_t)emb_idx[i] * 3 + j];
}
static wt_tensor *gpu_embedding(const gcase *c, wt_tensor *const *x) {
    wt_tensor *idx = tt_upload(ctx, WT_U32, WT_SHAPE(2, 3), emb_idx);
    wt_tensor *y = wt_embedding(ctx, x[0], idx);
    wt_release(idx);
    return y;
}
/* scatter_add along dim 1: t [3, 4], index [3, 2] (gather_idx), src [3, 3] */
static void ref_scatter_add(const gcase *c, double *const *x, double *out) {
    for (int64_t i = 0; i < 12; i++)
        out[i] = x[0][i];
    for (int64_t i = 0; i < 3; i++)
        for (int64_t j = 0; j < 2; j++)
            out[i * 4 + (int64_t)gather_idx[i * 2 + j]] += x[1][i * 3 + j];
}
static wt_tensor *gpu_scatter_add(const gcase *c, wt_tensor *const *x) {
    wt_tensor *idx = tt_upload(ctx, WT_I32, WT_SHAPE(3, 2), gather_idx);
    wt_tensor *y = wt_scatter_add(ctx, x[0], 1, idx, x[1]);
    wt_release(idx);
    return y;
}
/* pad: ip[0..4) the pads of a 2-d input, ip[4] the mode, p[0] the value */
static void ref_pad(const gcase *c, double *const *x, double *out) {
    int64_t co[WT_MAX_DIMS] = { 0 };
    for (int64_t i = 0; i < on(); i++) {
        unravel(i, ond, osh, co);
        bool outside = false;
        for (int d = 0; d < 2; d++) {
            int64_t q = co[d] - c->ip[2 * d], n = c->sh[0][d];
            if (q < 0 || q >= n) {
                if (c->ip[4] == WT_PAD_CONSTANT)
                    outside = true;
                else if (c->ip[4] == WT_PAD_REPLICATE)
                    q = q < 0 ? 0 : n - 1;
                else
                    q = q < 0 ? -q : 2 * (n - 1) - q;
            }
            co[d] = q;
        }
        out[i] = outside ? c->p[0] : x[0][ravel(co, 2, c->sh[0])];
    }
}
static wt_tensor *gpu_pad(const gcase *c, wt_tensor *const *x) {
    int64_t pads[4] = { c->ip[0], c->ip[1], c->ip[2], c->ip[3] };
    return wt_pad(ctx, x[0], pads, (wt_pad_mode)c->ip[4], c->p[0]);
}
static void ref_flip(const gcase *c, double *const *x, double *out) {   /* dims 0 and 2 of a 3-d input */
    int64_t co[WT_MAX_DIMS] = { 0 };
    for (int64_t i = 0; i < on(); i++) {
        unravel(i, ond, osh, co);
        co[0] = osh[0] - 1 - co[0];
        co[2] = osh[2] - 1 - co[2];
        out[i] = x[0][ravel(co, ond, osh)];
    }
}
static wt_tensor *gpu_flip(const gcase *c, wt_tensor *const *x) { return wt_flip(ctx, x[0], 2, (int[]){ 0, -1 }); }

/* ---- matmul ---- */

/* a [.., M, K] . b [.., K, N] with broadcasting; 1-d operands as numpy */
static void ref_matmul(const gcase *c, double *const *x, double *out) {
    int an = c->nd[0], bn = c->nd[1];
    int64_t as[WT_MAX_DIMS], bs[WT_MAX_DIMS];
    int and_ = an, bnd = bn;
    memcpy(as, c->sh[0], sizeof as);
    memcpy(bs, c->sh[1], sizeof bs);
    if (an == 1) { as[1] = as[0]; as[0] = 1; and_ = 2; }
    if (bn == 1) { bs[1] = 1; bnd = 2; }
    int64_t M = as[and_ - 2], K = as[and_ - 1], N = bs[bnd - 1];
    int nb = (and_ > bnd ? and_ : bnd) - 2;
    int64_t bsh[WT_MAX_DIMS], co[WT_MAX_DIMS];
    for (int d = 0; d < nb; d++) {
        int ja = d - (nb - (and_ - 2)), jb = d - (nb - (bnd - 2));
        int64_t sa = ja >= 0 ? as[ja] : 1, sb = jb >= 0 ? bs[jb] : 1;
        bsh[d] = sa > sb ? sa : sb;
    }
    int64_t B = count(nb, bsh);
    for (int64_t bi = 0; bi < B; bi++) {
        unravel(bi, nb, bsh, co);
        int64_t ao = 0, bo = 0;
        for (int d = 0; d < and_ - 2; d++) {
            int j = d + nb - (and_ - 2);
            ao = ao * as[d] + (as[d] == 1 ? 0 : co[j]);
        }
        for (int d = 0; d < bnd - 2; d++) {
            int j = d + nb - (bnd - 2);
            bo = bo * bs[d] + (bs[d] == 1 ? 0 : co[j]);
        }
        for (int64_t m = 0; m < M; m++)
            for (int64_t n = 0; n < N; n++) {
                double s = 0;
                for (int64_t k = 0; k < K; k++)
                    s += x[0][ao * M * K + m * K + k] * x[1][bo * K * N + k * N + n];
                out[(bi * M + m) * N + n] = s + (c->nin > 2 ? x[2][n] : 0);
            }
    }
}
static wt_tensor *gpu_matmul(const gcase *c, wt_tensor *const *x) { return wt_matmul(ctx, x[0], x[1]); }
static wt_tensor *gpu_matmul_ex(const gcase *c, wt_tensor *const *x) { return wt_matmul_ex(ctx, x[0], x[1], x[2], NULL); }
static void ref_linear(const gcase *c, double *const *x, double *out) {   /* x [.., K], w [N, K], bias [N] */
    int64_t N = c->sh[1][0], K = c->sh[1][1], R = count(c->nd[0], c->sh[0]) / K;
    for (int64_t r = 0; r < R; r++)
        for (int64_t n = 0; n < N; n++) {
            double s = c->nin > 2 ? x[2][n] : 0;
            for (int64_t k = 0; k < K; k++)
                s += x[0][r * K + k] * x[1][n * K + k];
            out[r * N + n] = s;
        }
}
static wt_tensor *gpu_linear(const gcase *c, wt_tensor *const *x) { return wt_linear(ctx, x[0], x[1], c->nin > 2 ? x[2] : NULL); }

/* ---- nn ---- */

/* softmax / log_softmax along ip[0] (>= 0); ip[1] 1 = log */
static void ref_softmax(const gcase *c, double *const *x, double *out) {
    int dim = c->ip[0];
    int64_t co[WT_MAX_DIMS] = { 0 };
    for (int64_t i = 0; i < on(); i++) {
        unravel(i, ond, osh, co);
        int64_t at = co[dim];
        double mx = -INFINITY, s = 0;
        for (co[dim] = 0; co[dim] < osh[dim]; co[dim]++)
            mx = fmax(mx, x[0][ravel(co, ond, osh)]);
        for (co[dim] = 0; co[dim] < osh[dim]; co[dim]++)
            s += exp(x[0][ravel(co, ond, osh)] - mx);
        co[dim] = at;
        double v = x[0][i] - mx - log(s);
        out[i] = c->ip[1] ? v : exp(v);
    }
}
static wt_tensor *gpu_softmax(const gcase *c, wt_tensor *const *x) {
    int dim = c->ip[0] - c->nd[0];   /* as a negative dim */
    return c->ip[1] ? wt_log_softmax(ctx, x[0], dim) : wt_softmax(ctx, x[0], dim);
}
/* layer_norm (ip[0] 0) / rms_norm (1) over the last dim; inputs x, weight[, bias]; p[0] eps */
static void ref_norm(const gcase *c, double *const *x, double *out) {
    int64_t K = osh[ond - 1], R = on() / K;
    for (int64_t r = 0; r < R; r++) {
        const double *v = x[0] + r * K;
        double mu = 0, ms = 0;
        if (!c->ip[0]) {
            for (int64_t k = 0; k < K; k++)
                mu += v[k] / K;
        }
        for (int64_t k = 0; k < K; k++)
            ms += (v[k] - mu) * (v[k] - mu) / K;
        double rs = 1 / sqrt(ms + c->p[0]);
        for (int64_t k = 0; k < K; k++)
            out[r * K + k] = (v[k] - mu) * rs * (c->nin > 1 ? x[1][k] : 1) + (c->nin > 2 ? x[2][k] : 0);
    }
}
static wt_tensor *gpu_norm(const gcase *c, wt_tensor *const *x) {
    if (c->ip[0])
        return wt_rms_norm(ctx, x[0], c->nin > 1 ? x[1] : NULL, c->p[0]);
    return wt_layer_norm(ctx, x[0], c->nin > 1 ? x[1] : NULL, c->nin > 2 ? x[2] : NULL, c->p[0]);
}
/* rope on x [B, S, D] (seq dim 1): ip[0] layout, ip[1] rotary dims (0: D), ip[2] position offset */
static void ref_rope(const gcase *c, double *const *x, double *out) {
    int64_t B = osh[0], S = osh[1], D = osh[2], rd = c->ip[1] ? c->ip[1] : D;
    for (int64_t b = 0; b < B; b++)
        for (int64_t s = 0; s < S; s++) {
            const double *v = x[0] + (b * S + s) * D;
            double *o = out + (b * S + s) * D;
            for (int64_t k = 0; k < D; k++)
                o[k] = v[k];
            for (int64_t p = 0; p < rd / 2; p++) {
                double ang = (double)(s + c->ip[2]) * pow(10000.0, -2.0 * (double)p / (double)rd);
                int64_t i0 = c->ip[0] == WT_ROPE_HALF ? p : 2 * p, i1 = c->ip[0] == WT_ROPE_HALF ? p + rd / 2 : 2 * p + 1;
                o[i0] = v[i0] * cos(ang) - v[i1] * sin(ang);
                o[i1] = v[i0] * sin(ang) + v[i1] * cos(ang);
            }
        }
}
static wt_tensor *gpu_rope(const gcase *c, wt_tensor *const *x) {
    wt_rope_desc d = { .layout = (wt_rope_layout)c->ip[0], .rotary_dims = c->ip[1], .position_offset = c->ip[2] };
    return wt_rope(ctx, x[0], &d);
}

/* attention: q [.., H, Lq, D], k, v [.., Hkv, Lk, D] (the batch dims 1); ip[0] causal; p[0] scale (0: 1/sqrt(D)) */
static void ref_sdpa(const gcase *c, double *const *x, double *out) {
    int nd = c->nd[0];
    int64_t H = nd >= 3 ? c->sh[0][nd - 3] : 1, Hkv = nd >= 3 ? c->sh[1][nd - 3] : 1;
    int64_t Lq = c->sh[0][nd - 2], D = c->sh[0][nd - 1], Lk = c->sh[1][nd - 2];
    double sc = c->p[0] ? c->p[0] : 1 / sqrt((double)D);
    for (int64_t h = 0; h < H; h++) {
        int64_t kh = h / (H / Hkv);
        const double *q = x[0] + h * Lq * D, *k = x[1] + kh * Lk * D, *v = x[2] + kh * Lk * D;
        for (int64_t i = 0; i < Lq; i++) {
            double s[64], mx = -INFINITY, sum = 0;
            for (int64_t j = 0; j < Lk; j++) {
                s[j] = -INFINITY;
                if ((c->ip[0] && j > i + Lk - Lq) || (c->ip[1] && (i + j) % 3 == 1))
                    continue;
                double d = 0;
                for (int64_t e = 0; e < D; e++)
                    d += q[i * D + e] * k[j * D + e];
                s[j] = d * sc;
                mx = fmax(mx, s[j]);
            }
            for (int64_t j = 0; j < Lk; j++)
                sum += s[j] == -INFINITY ? 0 : exp(s[j] - mx);
            for (int64_t e = 0; e < D; e++) {
                double o = 0;
                for (int64_t j = 0; j < Lk; j++)
                    o += s[j] == -INFINITY ? 0 : exp(s[j] - mx) / sum * v[j * D + e];
                out[(h * Lq + i) * D + e] = o;
            }
        }
    }
}
static wt_tensor *gpu_sdpa(const gcase *c, wt_tensor *const *x) {   /* ip[1]: a bool mask hiding (i + j) % 3 == 1 */
    int nd = c->nd[0];
    int64_t Lq = c->sh[0][nd - 2], Lk = c->sh[1][nd - 2];
    double mv[64];
    for (int64_t i = 0; i < Lq * Lk; i++)
        mv[i] = (i / Lk + i % Lk) % 3 != 1;
    wt_tensor *m = c->ip[1] ? tt_upload(ctx, WT_BOOL, WT_SHAPE(Lq, Lk), mv) : NULL;
    wt_attention_desc d = { .causal = c->ip[0] != 0, .scale = c->p[0], .mask = m };
    wt_tensor *y = wt_scaled_dot_product_attention(ctx, x[0], x[1], x[2], &d);
    wt_release(m);
    return y;
}

/* conv2d: x [N, C, H, W], w [K, C / G, KH, KW][, bias [K]]; ip: stride, padding, dilation (h, w), groups */
static void ref_conv(const gcase *c, double *const *x, double *out) {
    const int64_t *xs = c->sh[0], *ws = c->sh[1];
    const int *a = c->ip;
    int64_t N = xs[0], C = xs[1], H = xs[2], W = xs[3], K = ws[0], Cg = ws[1], KH = ws[2], KW = ws[3];
    int64_t G = a[6] ? a[6] : 1, Kg = K / G, OH = osh[2], OW = osh[3];
    for (int64_t nn = 0; nn < N; nn++)
        for (int64_t k = 0; k < K; k++)
            for (int64_t oh = 0; oh < OH; oh++)
                for (int64_t ow = 0; ow < OW; ow++) {
                    double s = c->nin > 2 ? x[2][k] : 0;
                    for (int64_t cg = 0; cg < Cg; cg++)
                        for (int64_t kh = 0; kh < KH; kh++)
                            for (int64_t kw = 0; kw < KW; kw++) {
                                int64_t ih = oh * a[0] - a[2] + kh * a[4], iw = ow * a[1] - a[3] + kw * a[5];
                                int64_t ci = (k / Kg) * Cg + cg;
                                if (ih >= 0 && ih < H && iw >= 0 && iw < W)
                                    s += x[0][((nn * C + ci) * H + ih) * W + iw] * x[1][((k * Cg + cg) * KH + kh) * KW + kw];
                            }
                    out[((nn * K + k) * OH + oh) * OW + ow] = s;
                }
}
static wt_tensor *gpu_conv(const gcase *c, wt_tensor *const *x) {
    const int *a = c->ip;
    wt_conv2d_desc d = { .stride = { a[0], a[1] }, .padding = { a[2], a[3] }, .dilation = { a[4], a[5] }, .groups = a[6] };
    return wt_conv2d(ctx, x[0], x[1], c->nin > 2 ? x[2] : NULL, &d);
}
/* pools on x [N, C, H, W]: ip kernel, stride, padding (h, w), dilation (h, w), count_include_pad, max */
static void ref_pool(const gcase *c, double *const *x, double *out) {
    const int64_t *xs = c->sh[0];
    const int *a = c->ip;
    int64_t H = xs[2], W = xs[3], OH = osh[2], OW = osh[3], P = xs[0] * xs[1];
    for (int64_t pl = 0; pl < P; pl++)
        for (int64_t oh = 0; oh < OH; oh++)
            for (int64_t ow = 0; ow < OW; ow++) {
                double m = -INFINITY, s = 0;
                int64_t inside = 0;
                for (int64_t kh = 0; kh < a[0]; kh++)
                    for (int64_t kw = 0; kw < a[1]; kw++) {
                        int64_t ih = oh * a[2] - a[4] + kh * a[6], iw = ow * a[3] - a[5] + kw * a[7];
                        if (ih < 0 || ih >= H || iw < 0 || iw >= W)
                            continue;
                        double v = x[0][(pl * H + ih) * W + iw];
                        m = fmax(m, v);
                        s += v;
                        inside++;
                    }
                out[(pl * OH + oh) * OW + ow] = a[9] ? m : s / (double)(a[8] ? a[0] * a[1] : inside);
            }
}
static wt_tensor *gpu_pool(const gcase *c, wt_tensor *const *x) {
    const int *a = c->ip;
    wt_pool2d_desc d = { .kernel = { a[0], a[1] }, .stride = { a[2], a[3] }, .padding = { a[4], a[5] },
                         .dilation = { a[6], a[7] }, .count_include_pad = a[8] != 0 };
    return a[9] ? wt_max_pool2d(ctx, x[0], &d, NULL) : wt_avg_pool2d(ctx, x[0], &d);
}

/* ---- losses: logits/input x[0]; targets fixed ---- */

static const double ce_target[4] = { 1, 0, 4, 2 };
static const double ce_target_ign[4] = { 1, -100, 4, 2 };
/* ip[0] reduction, ip[1] ignore (row 1 ignored), ip[2] 1 = nll_loss (x are log-probabilities); p[0] smoothing */
static void ref_ce(const gcase *c, double *const *x, double *out) {
    int64_t N = c->sh[0][0], C = c->sh[0][1];
    double tot = 0, cnt = 0, per[16];
    for (int64_t i = 0; i < N; i++) {
        const double *v = x[0] + i * C;
        int t = (int)(c->ip[1] ? ce_target_ign[i] : ce_target[i]);
        if (t < 0) {
            per[i] = 0;
            continue;
        }
        double l;
        if (c->ip[2]) {
            l = -v[t];
        } else {
            double mx = -INFINITY, s = 0, mean = 0;
            for (int64_t k = 0; k < C; k++)
                mx = fmax(mx, v[k]);
            for (int64_t k = 0; k < C; k++) {
                s += exp(v[k] - mx);
                mean += v[k] / C;
            }
            double lse = mx + log(s);
            l = (1 - c->p[0]) * (lse - v[t]) + c->p[0] * (lse - mean);
        }
        per[i] = l;
        tot += l;
        cnt++;
    }
    if (c->ip[0] == WT_REDUCTION_NONE)
        for (int64_t i = 0; i < N; i++)
            out[i] = per[i];
    else
        out[0] = c->ip[0] == WT_REDUCTION_SUM ? tot : tot / cnt;
}
/* logits [2, 5, 2] (N, C, d) with target [2, 2]: the rows of ref_ce are (n, d) pairs */
static void ref_ce_nd(const gcase *c, double *const *x, double *out) {
    double rows[20];
    for (int n = 0; n < 2; n++)
        for (int k = 0; k < 5; k++)
            for (int j = 0; j < 2; j++)
                rows[(n * 2 + j) * 5 + k] = x[0][(n * 5 + k) * 2 + j];
    gcase r = *c;
    r.sh[0][0] = 4, r.sh[0][1] = 5;
    double *in[1] = { rows };
    ref_ce(&r, in, out);
}
static wt_tensor *gpu_ce(const gcase *c, wt_tensor *const *x) {
    wt_tensor *t = c->nd[0] == 3 ? tt_upload(ctx, WT_I32, WT_SHAPE(2, 2), c->ip[1] ? ce_target_ign : ce_target)
                                 : tt_upload(ctx, WT_I32, 1, (int64_t[]){ 4 }, c->ip[1] ? ce_target_ign : ce_target);
    wt_loss_desc d = { .reduction = (wt_reduction)c->ip[0], .use_ignore_index = c->ip[1] != 0, .ignore_index = -100,
                       .label_smoothing = c->p[0] };
    wt_tensor *y = c->ip[2] ? wt_nll_loss(ctx, x[0], t, &d) : wt_cross_entropy(ctx, x[0], t, &d);
    wt_release(t);
    return y;
}
/* ip[0] reduction, ip[1] kind: 0 mse, 1 l1, 2 smooth_l1 (p[0] beta), 3 bce_with_logits */
static void ref_pointwise_loss(const gcase *c, double *const *x, double *out) {
    int64_t n = count(c->nd[0], c->sh[0]);
    double tot = 0;
    for (int64_t i = 0; i < n; i++) {
        double a = x[0][i], b = x[1][i], d = a - b, l;
        switch (c->ip[1]) {
        case 0: l = d * d; break;
        case 1: l = fabs(d); break;
        case 2: l = fabs(d) < c->p[0] ? 0.5 * d * d / c->p[0] : fabs(d) - 0.5 * c->p[0]; break;
        default: l = fmax(a, 0) - a * b + log1p(exp(-fabs(a))); break;
        }
        if (c->ip[0] == WT_REDUCTION_NONE)
            out[i] = l;
        tot += l;
    }
    if (c->ip[0] != WT_REDUCTION_NONE)
        out[0] = c->ip[0] == WT_REDUCTION_SUM ? tot : tot / (double)n;
}
static wt_tensor *gpu_pointwise_loss(const gcase *c, wt_tensor *const *x) {
    wt_loss_desc d = { .reduction = (wt_reduction)c->ip[0], .beta = c->p[0] };
    switch (c->ip[1]) {
    case 0: return wt_mse_loss(ctx, x[0], x[1], &d);
    case 1: return wt_l1_loss(ctx, x[0], x[1], &d);
    case 2: return wt_smooth_l1_loss(ctx, x[0], x[1], &d);
    default: return wt_binary_cross_entropy_with_logits(ctx, x[0], x[1], &d);
    }
}

/* ---- a composite: a two-layer MLP with a shared input, through cross_entropy ---- */
static void ref_mlp(const gcase *c, double *const *x, double *out) {   /* x [4, 3], w1 [5, 3], w2 [5, 5] */
    double h[4 * 5], lg[4 * 5];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 5; j++) {
            double s = 0;
            for (int k = 0; k < 3; k++)
                s += x[0][i * 3 + k] * x[1][j * 3 + k];
            h[i * 5 + j] = tanh(s) + s * s;   /* the linear result used twice */
        }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 5; j++) {
            double s = 0;
            for (int k = 0; k < 5; k++)
                s += h[i * 5 + k] * x[2][k * 5 + j];
            lg[i * 5 + j] = s;
        }
    gcase ce = { .nd = { 2 }, .sh = { { 4, 5 } } };
    double *l[1] = { lg };
    ref_ce(&ce, l, out);
}
static wt_tensor *gpu_mlp(const gcase *c, wt_tensor *const *x) {
    wt_tensor *s = wt_linear(ctx, x[0], x[1], NULL);
    wt_tensor *t = wt_tanh(ctx, s);
    wt_tensor *sq = wt_mul(ctx, s, s);
    wt_tensor *h = wt_add(ctx, t, sq);
    wt_tensor *lg = wt_matmul(ctx, h, x[2]);
    gcase ce = { .ip = { 0 } };
    wt_tensor *y = gpu_ce(&ce, &lg);
    wt_release(s);
    wt_release(t);
    wt_release(sq);
    wt_release(h);
    wt_release(lg);
    return y;
}

/* ---- the cases ---- */

#define SH(...) { __VA_ARGS__ }
#define UN(nm, fn, f, l, h) { .name = nm, .ref = ref_unary, .gpu = gpu_unary, .nin = 1, .nd = { 2 }, \
    .sh = { SH(3, 5) }, .layout = { TT_TRANSPOSED }, .f1 = f, .u = fn, .lo = l, .hi = h }
#define BIN(nm, fn, f, n0, s0, n1, s1, l, h) { .name = nm, .ref = ref_binary, .gpu = gpu_binary, .nin = 2, \
    .nd = { n0, n1 }, .sh = { s0, s1 }, .layout = { TT_STRIDED, TT_CONTIG }, .f2 = f, .b = fn, .lo = l, .hi = h }
#define SC(nm, fn, f, s, l, h) { .name = nm, .ref = ref_scalar, .gpu = gpu_scalar, .nin = 1, .nd = { 2 }, \
    .sh = { SH(4, 3) }, .f2 = f, .bs = fn, .p = { s }, .lo = l, .hi = h }
#define RED(nm, kind, nd0, s0, kd, corr, ndims, ...) { .name = nm, .ref = ref_reduce, .gpu = gpu_reduce, .nin = 1, \
    .nd = { nd0 }, .sh = { s0 }, .layout = { TT_TRANSPOSED }, .ip = { kind, ndims, __VA_ARGS__ }, .p = { kd, corr }, \
    .lo = 0.5, .hi = 1.5 }

static gcase cases[] = {
    BIN("add", wt_add, f_add, 3, SH(2, 3, 4), 1, SH(4), -1, 1),
    BIN("sub", wt_sub, f_sub, 2, SH(3, 4), 3, SH(2, 1, 4), -1, 1),
    BIN("mul", wt_mul, f_mul, 2, SH(3, 4), 2, SH(3, 1), -1, 1),
    BIN("div", wt_div, f_div, 2, SH(3, 4), 1, SH(4), 0.5, 2),
    BIN("pow", wt_pow, pow, 2, SH(3, 4), 2, SH(3, 4), 0.5, 2),
    BIN("minimum", wt_minimum, f_min, 2, SH(3, 4), 1, SH(4), -1, 1),
    BIN("maximum", wt_maximum, f_max, 2, SH(3, 4), 2, SH(1, 4), -1, 1),
    { .name = "remainder", .ref = ref_binary, .gpu = gpu_binary, .nin = 2, .nd = { 2, 2 }, .sh = { SH(3, 4), SH(3, 4) },
      .f2 = f_rem, .b = wt_remainder, .lo = 2.05, .hi = 2.95 },   /* a / b in (1, 2) for every pair: no jump */
    SC("add_scalar", wt_add_scalar, f_add, 2.5, -1, 1),
    SC("sub_scalar", wt_sub_scalar, f_sub, -1.5, -1, 1),
    SC("mul_scalar", wt_mul_scalar, f_mul, 2.5, -1, 1),
    SC("div_scalar", wt_div_scalar, f_div, -1.5, -1, 1),
    SC("pow_scalar", wt_pow_scalar, pow, 3, -1, 1),
    SC("pow_scalar", wt_pow_scalar, pow, 0.5, 0.5, 2),
    SC("minimum_scalar", wt_minimum_scalar, f_min, 0.3, -1, 1),
    SC("maximum_scalar", wt_maximum_scalar, f_max, 0.3, -1, 1),
    SC("remainder_scalar", wt_remainder_scalar, f_rem, 1.0, 2.05, 2.95),
    UN("neg", wt_neg, f_neg, -1, 1),
    UN("abs", wt_abs, fabs, -1, 1),
    UN("exp", wt_exp, exp, -1, 1),
    UN("log", wt_log, log, 0.5, 2),
    UN("sqrt", wt_sqrt, sqrt, 0.5, 2),
    UN("rsqrt", wt_rsqrt, f_rsqrt, 0.5, 2),
    UN("sin", wt_sin, sin, -2, 2),
    UN("cos", wt_cos, cos, -2, 2),
    UN("tanh", wt_tanh, tanh, -2, 2),
    UN("sigmoid", wt_sigmoid, f_sigmoid, -3, 3),
    UN("relu", wt_relu, f_relu, -1, 1),
    UN("silu", wt_silu, f_silu, -3, 3),
    UN("gelu", wt_gelu, f_gelu, -3, 3),
    UN("gelu", wt_gelu, f_gelu, -0.002, 0.002),   /* the branch near 0 */
    UN("floor", wt_floor, floor, -3, 3),
    UN("ceil", wt_ceil, ceil, -3, 3),
    UN("round", wt_round, f_round, -3, 3),
    UN("sign", wt_sign, f_sign, -1, 1),
    UN("reciprocal", wt_reciprocal, f_recip, 0.5, 2),
    { .name = "clamp", .ref = ref_clamp, .gpu = gpu_clamp, .nin = 1, .nd = { 2 }, .sh = { SH(4, 5) }, .p = { -0.5, 0.4 } },
    { .name = "where", .ref = ref_where, .gpu = gpu_where, .nin = 2, .nd = { 2, 1 }, .sh = { SH(3, 4), SH(4) } },
    { .name = "masked_fill", .ref = ref_masked_fill, .gpu = gpu_masked_fill, .nin = 1, .nd = { 2 }, .sh = { SH(3, 4) },
      .layout = { TT_TRANSPOSED }, .p = { 7.5 } },
    { .name = "cast", .ref = ref_unary, .gpu = gpu_cast, .nin = 1, .nd = { 2 }, .sh = { SH(3, 4) }, .f1 = f_ident,
      .tol = 2e-3 },
    { .name = "clone", .ref = ref_copy, .gpu = gpu_clone, .nin = 1, .nd = { 2 }, .sh = { SH(3, 4) }, .layout = { TT_STRIDED } },
    { .name = "contiguous", .ref = ref_copy, .gpu = gpu_contiguous, .nin = 1, .nd = { 3 }, .sh = { SH(2, 3, 4) },
      .layout = { TT_TRANSPOSED } },
    RED("sum", R_SUM, 3, SH(3, 4, 5), 0, 0, 1, 1),
    RED("sum", R_SUM, 3, SH(3, 4, 5), 0, 0, 0, 0),
    RED("mean", R_MEAN, 3, SH(3, 4, 5), 1, 0, 2, 0, -1),
    RED("prod", R_PROD, 3, SH(3, 4, 5), 0, 0, 1, 2),
    RED("prod", R_PROD, 2, SH(4, 5), 1, 0, 0, 0),
    RED("max", R_MAX, 3, SH(3, 4, 5), 0, 0, 1, 1),
    RED("max", R_MAX, 2, SH(4, 5), 0, 0, 0, 0),
    RED("min", R_MIN, 3, SH(3, 4, 5), 1, 0, 2, 0, 2),
    RED("min", R_MIN, 2, SH(4, 5), 1, 0, 1, -1),
    RED("var", R_VAR, 3, SH(3, 4, 5), 0, 1, 1, 1),
    RED("var", R_VAR, 2, SH(4, 5), 1, 0, 0, 0),
    RED("std", R_STD, 3, SH(3, 4, 5), 1, 1, 2, 0, 2),
    RED("std", R_STD, 2, SH(4, 5), 0, 0, 0, 0),
    { .name = "cumsum", .ref = ref_cumsum, .gpu = gpu_cumsum, .nin = 1, .nd = { 2 }, .sh = { SH(3, 6) }, .ip = { 1 },
      .layout = { TT_TRANSPOSED } },
    { .name = "cumsum", .ref = ref_cumsum, .gpu = gpu_cumsum, .nin = 1, .nd = { 3 }, .sh = { SH(4, 2, 3) }, .ip = { 0 } },
    { .name = "topk", .ref = ref_topk, .gpu = gpu_topk, .nin = 1, .nd = { 2 }, .sh = { SH(3, 9) }, .ip = { 1, 4, 1 } },
    { .name = "topk", .ref = ref_topk, .gpu = gpu_topk, .nin = 1, .nd = { 3 }, .sh = { SH(5, 2, 3) }, .ip = { 0, 2, 0 },
      .layout = { TT_TRANSPOSED } },
    { .name = "reshape", .ref = ref_copy, .gpu = gpu_reshape, .nin = 1, .nd = { 2 }, .sh = { SH(3, 4) }, .ip = { 2 },
      .layout = { TT_TRANSPOSED } },
    { .name = "reshape", .ref = ref_copy, .gpu = gpu_view, .nin = 1, .nd = { 3 }, .sh = { SH(2, 3, 4) }, .ip = { 4 } },
    { .name = "reshape", .ref = ref_copy, .gpu = gpu_flatten, .nin = 1, .nd = { 2 }, .sh = { SH(3, 4) },
      .layout = { TT_STRIDED } },
    { .name = "reshape", .ref = ref_copy, .gpu = gpu_squeeze, .nin = 1, .nd = { 3 }, .sh = { SH(3, 1, 4) } },
    { .name = "permute", .ref = ref_permute, .gpu = gpu_permute, .nin = 1, .nd = { 3 }, .sh = { SH(2, 3, 4) },
      .ip = { 2, 0, 1 } },
    { .name = "transpose", .ref = ref_permute, .gpu = gpu_transpose, .nin = 1, .nd = { 3 }, .sh = { SH(2, 3, 4) },
      .ip = { 2, 1, 0 }, .layout = { TT_STRIDED } },
    { .name = "expand", .ref = ref_expand, .gpu = gpu_expand, .nin = 1, .nd = { 2 }, .sh = { SH(3, 1) } },
    { .name = "slice", .ref = ref_slice, .gpu = gpu_slice, .nin = 1, .nd = { 2 }, .sh = { SH(3, 8) }, .ip = { 1, 1, 7, 2 } },
    { .name = "slice", .ref = ref_slice, .gpu = gpu_slice, .nin = 1, .nd = { 2 }, .sh = { SH(7, 3) }, .ip = { 0, 2, 100, 3 },
      .layout = { TT_TRANSPOSED } },
    { .name = "slice", .ref = ref_slice, .gpu = gpu_narrow, .nin = 1, .nd = { 2 }, .sh = { SH(3, 8) }, .ip = { 1, 2, 5, 1 } },
    { .name = "slice", .ref = ref_slice, .gpu = gpu_chunk, .nin = 1, .nd = { 2 }, .sh = { SH(3, 7) }, .ip = { 1, 3, 6, 1 } },
    { .name = "slice", .ref = ref_slice, .gpu = gpu_split, .nin = 1, .nd = { 2 }, .sh = { SH(8, 2) }, .ip = { 0, 6, 8, 1 } },
    { .name = "select", .ref = ref_select, .gpu = gpu_select, .nin = 1, .nd = { 3 }, .sh = { SH(2, 3, 4) }, .ip = { 1, 2 } },
    { .name = "cat", .ref = ref_cat, .gpu = gpu_cat, .nin = 3, .nd = { 2, 2, 2 }, .sh = { SH(3, 2), SH(3, 4), SH(3, 1) },
      .ip = { 1 }, .layout = { TT_CONTIG, TT_TRANSPOSED, TT_STRIDED } },
    { .name = "stack", .ref = ref_stack, .gpu = gpu_stack, .nin = 2, .nd = { 2, 2 }, .sh = { SH(3, 2), SH(3, 2) },
      .ip = { 1 } },
    { .name = "gather", .ref = ref_gather, .gpu = gpu_gather, .nin = 1, .nd = { 2 }, .sh = { SH(3, 4) },
      .layout = { TT_TRANSPOSED } },
    { .name = "index_select", .ref = ref_index_select, .gpu = gpu_index_select, .nin = 1, .nd = { 2 }, .sh = { SH(4, 3) } },
    { .name = "embedding", .ref = ref_embedding, .gpu = gpu_embedding, .nin = 1, .nd = { 2 }, .sh = { SH(5, 3) } },
    { .name = "scatter_add", .ref = ref_scatter_add, .gpu = gpu_scatter_add, .nin = 2, .nd = { 2, 2 },
      .sh = { SH(3, 4), SH(3, 3) } },
    { .name = "pad", .ref = ref_pad, .gpu = gpu_pad, .nin = 1, .nd = { 2 }, .sh = { SH(3, 4) },
      .ip = { 1, 2, 0, 3, WT_PAD_CONSTANT }, .p = { 0.25 } },
    { .name = "pad", .ref = ref_pad, .gpu = gpu_pad, .nin = 1, .nd = { 2 }, .sh = { SH(3, 4) },
      .ip = { 1, 2, 2, 1, WT_PAD_REFLECT }, .layout = { TT_TRANSPOSED } },
    { .name = "pad", .ref = ref_pad, .gpu = gpu_pad, .nin = 1, .nd = { 2 }, .sh = { SH(3, 4) },
      .ip = { 2, 1, 3, 3, WT_PAD_REPLICATE } },
    { .name = "flip", .ref = ref_flip, .gpu = gpu_flip, .nin = 1, .nd = { 3 }, .sh = { SH(2, 3, 4) },
      .layout = { TT_STRIDED } },
    { .name = "matmul", .ref = ref_matmul, .gpu = gpu_matmul, .nin = 2, .nd = { 2, 2 }, .sh = { SH(3, 4), SH(4, 5) },
      .layout = { TT_TRANSPOSED, TT_CONTIG } },
    { .name = "matmul", .ref = ref_matmul, .gpu = gpu_matmul, .nin = 2, .nd = { 3, 2 }, .sh = { SH(2, 3, 4), SH(4, 5) },
      .layout = { TT_CONTIG, TT_TRANSPOSED } },
    { .name = "matmul", .ref = ref_matmul, .gpu = gpu_matmul, .nin = 2, .nd = { 4, 3 },
      .sh = { SH(2, 1, 3, 4), SH(3, 4, 2) } },
    { .name = "matmul", .ref = ref_matmul, .gpu = gpu_matmul, .nin = 2, .nd = { 1, 3 }, .sh = { SH(4), SH(2, 4, 3) } },
    { .name = "matmul", .ref = ref_matmul, .gpu = gpu_matmul, .nin = 2, .nd = { 3, 1 }, .sh = { SH(2, 3, 4), SH(4) } },
    { .name = "matmul", .ref = ref_matmul, .gpu = gpu_matmul, .nin = 2, .nd = { 1, 1 }, .sh = { SH(5), SH(5) } },
    { .name = "matmul", .ref = ref_matmul, .gpu = gpu_matmul_ex, .nin = 3, .nd = { 2, 2, 1 },
      .sh = { SH(3, 4), SH(4, 5), SH(5) } },
    { .name = "linear", .ref = ref_linear, .gpu = gpu_linear, .nin = 3, .nd = { 3, 2, 1 },
      .sh = { SH(2, 3, 4), SH(5, 4), SH(5) }, .layout = { TT_CONTIG, TT_TRANSPOSED, TT_CONTIG } },
    { .name = "linear", .ref = ref_linear, .gpu = gpu_linear, .nin = 2, .nd = { 1, 2 }, .sh = { SH(4), SH(3, 4) } },
    { .name = "softmax", .ref = ref_softmax, .gpu = gpu_softmax, .nin = 1, .nd = { 2 }, .sh = { SH(3, 5) }, .ip = { 1, 0 },
      .lo = -2, .hi = 2 },
    { .name = "softmax", .ref = ref_softmax, .gpu = gpu_softmax, .nin = 1, .nd = { 3 }, .sh = { SH(4, 2, 3) },
      .ip = { 0, 0 }, .layout = { TT_TRANSPOSED } },
    { .name = "log_softmax", .ref = ref_softmax, .gpu = gpu_softmax, .nin = 1, .nd = { 2 }, .sh = { SH(3, 5) },
      .ip = { 1, 1 }, .lo = -2, .hi = 2 },
    { .name = "log_softmax", .ref = ref_softmax, .gpu = gpu_softmax, .nin = 1, .nd = { 2 }, .sh = { SH(4, 3) },
      .ip = { 0, 1 }, .layout = { TT_STRIDED } },
    { .name = "layer_norm", .ref = ref_norm, .gpu = gpu_norm, .nin = 3, .nd = { 2, 1, 1 }, .sh = { SH(3, 6), SH(6), SH(6) },
      .p = { 1e-5 }, .tol = 3e-4 },
    { .name = "layer_norm", .ref = ref_norm, .gpu = gpu_norm, .nin = 1, .nd = { 3 }, .sh = { SH(2, 2, 5) }, .p = { 1e-3 },
      .tol = 3e-4 },
    { .name = "rms_norm", .ref = ref_norm, .gpu = gpu_norm, .nin = 2, .nd = { 2, 1 }, .sh = { SH(3, 6), SH(6) },
      .ip = { 1 }, .p = { 1e-5 }, .tol = 3e-4 },
    { .name = "rope", .ref = ref_rope, .gpu = gpu_rope, .nin = 1, .nd = { 3 }, .sh = { SH(2, 3, 6) },
      .ip = { WT_ROPE_INTERLEAVED, 0, 2 } },
    { .name = "rope", .ref = ref_rope, .gpu = gpu_rope, .nin = 1, .nd = { 3 }, .sh = { SH(1, 4, 8) },
      .ip = { WT_ROPE_HALF, 4, 0 } },
    { .name = "scaled_dot_product_attention", .ref = ref_sdpa, .gpu = gpu_sdpa, .nin = 3, .nd = { 4, 4, 4 },
      .sh = { SH(1, 4, 3, 4), SH(1, 2, 4, 4), SH(1, 2, 4, 4) }, .ip = { 1 }, .lo = -2, .hi = 2, .tol = 3e-4 },
    { .name = "scaled_dot_product_attention", .ref = ref_sdpa, .gpu = gpu_sdpa, .nin = 3, .nd = { 4, 4, 4 },
      .sh = { SH(1, 4, 3, 4), SH(1, 2, 5, 4), SH(1, 2, 5, 4) }, .ip = { 0, 1 }, .lo = -2, .hi = 2, .tol = 3e-4 },
    { .name = "scaled_dot_product_attention", .ref = ref_sdpa, .gpu = gpu_sdpa, .nin = 3, .nd = { 3, 3, 3 },
      .sh = { SH(2, 3, 8), SH(2, 4, 8), SH(2, 4, 8) }, .ip = { 1 }, .dt = WT_F16, .tol = 2e-2 },
    { .name = "scaled_dot_product_attention", .ref = ref_sdpa, .gpu = gpu_sdpa, .nin = 3, .nd = { 3, 3, 3 },
      .sh = { SH(2, 4, 3), SH(2, 3, 3), SH(2, 3, 3) }, .p = { 0.7 }, .lo = -2, .hi = 2, .tol = 3e-4,
      .layout = { TT_TRANSPOSED, TT_CONTIG, TT_STRIDED } },
    { .name = "conv2d", .ref = ref_conv, .gpu = gpu_conv, .nin = 3, .nd = { 4, 4, 1 },
      .sh = { SH(2, 2, 5, 4), SH(3, 2, 3, 2), SH(3) }, .ip = { 1, 1, 1, 0, 1, 1, 1 }, .tol = 3e-4 },
    { .name = "conv2d", .ref = ref_conv, .gpu = gpu_conv, .nin = 2, .nd = { 4, 4 },
      .sh = { SH(1, 4, 7, 6), SH(2, 2, 2, 3) }, .ip = { 2, 1, 1, 2, 2, 1, 2 }, .tol = 3e-4,
      .layout = { TT_STRIDED, TT_CONTIG } },
    { .name = "max_pool2d", .ref = ref_pool, .gpu = gpu_pool, .nin = 1, .nd = { 4 }, .sh = { SH(2, 2, 5, 6) },
      .ip = { 2, 3, 2, 2, 1, 1, 1, 1, 0, 1 } },
    { .name = "max_pool2d", .ref = ref_pool, .gpu = gpu_pool, .nin = 1, .nd = { 4 }, .sh = { SH(1, 2, 6, 6) },
      .ip = { 3, 3, 1, 1, 1, 1, 1, 1, 0, 1 } },   /* overlapping windows: a maximum gets several */
    { .name = "avg_pool2d", .ref = ref_pool, .gpu = gpu_pool, .nin = 1, .nd = { 4 }, .sh = { SH(2, 2, 5, 6) },
      .ip = { 2, 3, 2, 2, 1, 1, 1, 1, 1, 0 }, .layout = { TT_TRANSPOSED } },
    { .name = "avg_pool2d", .ref = ref_pool, .gpu = gpu_pool, .nin = 1, .nd = { 4 }, .sh = { SH(1, 3, 5, 5) },
      .ip = { 3, 3, 2, 2, 1, 1, 1, 1, 0, 0 } },
    { .name = "cross_entropy", .ref = ref_ce, .gpu = gpu_ce, .nin = 1, .nd = { 2 }, .sh = { SH(4, 5) },
      .ip = { WT_REDUCTION_MEAN }, .lo = -2, .hi = 2 },
    { .name = "cross_entropy", .ref = ref_ce, .gpu = gpu_ce, .nin = 1, .nd = { 2 }, .sh = { SH(4, 5) },
      .ip = { WT_REDUCTION_SUM, 1 }, .p = { 0.1 }, .layout = { TT_TRANSPOSED }, .lo = -2, .hi = 2 },
    { .name = "cross_entropy", .ref = ref_ce, .gpu = gpu_ce, .nin = 1, .nd = { 2 }, .sh = { SH(4, 5) },
      .ip = { WT_REDUCTION_NONE, 0 }, .p = { 0.2 }, .lo = -2, .hi = 2 },
    { .name = "cross_entropy", .ref = ref_ce, .gpu = gpu_ce, .nin = 1, .nd = { 2 }, .sh = { SH(4, 5) },
      .ip = { WT_REDUCTION_MEAN, 1 }, .p = { 0.3 }, .lo = -2, .hi = 2 },
    { .name = "nll_loss", .ref = ref_ce, .gpu = gpu_ce, .nin = 1, .nd = { 2 }, .sh = { SH(4, 5) },
      .ip = { WT_REDUCTION_MEAN, 1, 1 } },
    { .name = "cross_entropy", .ref = ref_ce_nd, .gpu = gpu_ce, .nin = 1, .nd = { 3 }, .sh = { SH(2, 5, 2) },
      .ip = { WT_REDUCTION_NONE, 1 }, .p = { 0.1 }, .lo = -2, .hi = 2 },
    { .name = "nll_loss", .ref = ref_ce_nd, .gpu = gpu_ce, .nin = 1, .nd = { 3 }, .sh = { SH(2, 5, 2) },
      .ip = { WT_REDUCTION_MEAN, 0, 1 }, .layout = { TT_TRANSPOSED } },
    { .name = "nll_loss", .ref = ref_ce, .gpu = gpu_ce, .nin = 1, .nd = { 2 }, .sh = { SH(4, 5) },
      .ip = { WT_REDUCTION_NONE, 0, 1 } },
    { .name = "mse", .ref = ref_pointwise_loss, .gpu = gpu_pointwise_loss, .nin = 2, .nd = { 2, 2 },
      .sh = { SH(3, 4), SH(3, 4) }, .ip = { WT_REDUCTION_MEAN, 0 } },
    { .name = "l1", .ref = ref_pointwise_loss, .gpu = gpu_pointwise_loss, .nin = 2, .nd = { 2, 2 },
      .sh = { SH(3, 4), SH(3, 4) }, .ip = { WT_REDUCTION_SUM, 1 } },
    { .name = "smooth_l1", .ref = ref_pointwise_loss, .gpu = gpu_pointwise_loss, .nin = 2, .nd = { 2, 2 },
      .sh = { SH(3, 4), SH(3, 4) }, .ip = { WT_REDUCTION_NONE, 2 }, .p = { 0.5 } },
    { .name = "bce_with_logits", .ref = ref_pointwise_loss, .gpu = gpu_pointwise_loss, .nin = 2, .nd = { 2, 2 },
      .sh = { SH(3, 4), SH(3, 4) }, .ip = { WT_REDUCTION_MEAN, 3 }, .lo = -3, .hi = 3 },
    /* f16 leaves: f16 results and gradients, f32 arithmetic */
    { .name = "mul", .ref = ref_binary, .gpu = gpu_binary, .nin = 2, .nd = { 2, 1 }, .sh = { SH(3, 4), SH(4) },
      .f2 = f_mul, .b = wt_mul, .dt = WT_F16, .tol = 1e-2 },
    { .name = "matmul", .ref = ref_matmul, .gpu = gpu_matmul, .nin = 2, .nd = { 2, 2 }, .sh = { SH(3, 4), SH(4, 5) },
      .layout = { TT_TRANSPOSED, TT_CONTIG }, .dt = WT_F16, .tol = 1e-2 },
    { .name = "softmax", .ref = ref_softmax, .gpu = gpu_softmax, .nin = 1, .nd = { 2 }, .sh = { SH(3, 5) }, .ip = { 1, 0 },
      .dt = WT_F16, .tol = 1e-2 },
    { .name = "layer_norm", .ref = ref_norm, .gpu = gpu_norm, .nin = 3, .nd = { 2, 1, 1 }, .sh = { SH(3, 6), SH(6), SH(6) },
      .p = { 1e-5 }, .dt = WT_F16, .tol = 2e-2 },
    { .name = "cross_entropy", .ref = ref_ce, .gpu = gpu_ce, .nin = 1, .nd = { 2 }, .sh = { SH(4, 5) },
      .ip = { WT_REDUCTION_MEAN, 1 }, .p = { 0.1 }, .lo = -2, .hi = 2, .dt = WT_F16, .tol = 1e-2 },
    { .name = "sum", .ref = ref_reduce, .gpu = gpu_reduce, .nin = 1, .nd = { 3 }, .sh = { SH(3, 4, 5) },
      .layout = { TT_TRANSPOSED }, .ip = { R_SUM, 1, 1 }, .dt = WT_F16, .tol = 1e-2 },
    { .name = "mlp", .ref = ref_mlp, .gpu = gpu_mlp, .nin = 3, .nd = { 2, 2, 2 }, .sh = { SH(4, 3), SH(5, 3), SH(5, 5) },
      .layout = { TT_CONTIG, TT_CONTIG, TT_TRANSPOSED }, .tol = 3e-4 },
};

static double loss_of(const gcase *c, double *const *x, const double *w, int64_t n) {
    double out[MAXN], l = 0;
    c->ref(c, x, out);
    for (int64_t i = 0; i < n; i++)
        l += w[i] * out[i];
    return l;
}

static void run_case(const gcase *c) {
    double *x[MAXIN] = { 0 };
    wt_tensor *leaf[MAXIN] = { 0 };
    double lo = c->lo || c->hi ? c->lo : -1, hi = c->lo || c->hi ? c->hi : 1, tol = c->tol ? c->tol : 1e-4;
    wt_dtype dt = c->dt ? c->dt : WT_F32;
    if (dt == WT_F16 && !wt_context_has_f16(ctx))
        return;
    for (int i = 0; i < c->nin; i++) {
        int64_t n = count(c->nd[i], c->sh[i]);
        x[i] = malloc((size_t)n * sizeof(double) + 8);
        for (int64_t j = 0; j < n; j++)
            x[i][j] = dt == WT_F16 ? wt_f16_to_f32(wt_f32_to_f16((float)tt_rand(&seed, lo, hi)))
                                   : (float)tt_rand(&seed, lo, hi);
        leaf[i] = tt_make(ctx, dt, c->nd[i], c->sh[i], x[i], c->layout[i]);
        CHECK(wt_set_requires_grad(ctx, leaf[i], true) == WT_OK);
    }
    wt_tensor *y = c->gpu(c, leaf);
    CHECKF(y && wt_requires_grad(y), "%s: %s", c->name, wt_last_error(ctx));
    if (!y)
        goto done;
    ond = wt_ndim(y);
    memcpy(osh, wt_shape(y), (size_t)ond * sizeof *osh);
    int64_t n = on();
    double *w = malloc((size_t)n * sizeof(double) + 8), ref[MAXN];
    for (int64_t j = 0; j < n; j++)
        w[j] = (float)tt_rand(&seed, -1, 1);
    double *got = tt_read(ctx, y);
    c->ref(c, x, ref);
    double fe = 0, fm = 0;
    for (int64_t j = 0; j < n; j++) {
        fe = fmax(fe, fabs(got[j] - ref[j]));
        fm = fmax(fm, fabs(ref[j]));
    }
    CHECKF(fe <= tol * (1 + fm), "%s: forward differs by %g (max %g)", c->name, fe, fm);
    wt_tensor *W = tt_upload(ctx, WT_F32, ond, osh, w);
    wt_status st = wt_backward(ctx, y, W, NULL);
    CHECKF(st == WT_OK, "%s: backward: %s", c->name, wt_last_error(ctx));
    for (int i = 0; i < c->nin && st == WT_OK; i++) {
        wt_tensor *g = wt_grad(ctx, leaf[i]);
        CHECKF(g && wt_ndim(g) == c->nd[i] && wt_dtype_of(g) == dt, "%s: no gradient of the leaf's dtype for input %d",
               c->name, i);
        if (!g)
            continue;
        double *gv = tt_read(ctx, g);
        int64_t m = count(c->nd[i], c->sh[i]);
        double fd[MAXN], gm = 0;
        for (int64_t j = 0; j < m; j++) {
            double keep = x[i][j], h = 1e-6 * fmax(1, fabs(keep));
            x[i][j] = keep + h;
            double lp = loss_of(c, x, w, n);
            x[i][j] = keep - h;
            double lm = loss_of(c, x, w, n);
            x[i][j] = keep;
            fd[j] = (lp - lm) / (2 * h);
            gm = fmax(gm, fabs(fd[j]));
        }
        int64_t bad = -1;
        double worst = 0;
        for (int64_t j = 0; j < m; j++) {
            double e = fabs(gv[j] - fd[j]);
            if (e > worst)
                worst = e, bad = j;
        }
        CHECKF(worst <= tol * (1 + gm), "%s: input %d: gradient[%lld] %g, finite differences %g (max |g| %g)", c->name, i,
               (long long)bad, bad >= 0 ? gv[bad] : 0, bad >= 0 ? fd[bad] : 0, gm);
        free(gv);
        wt_release(g);
    }
    free(got);
    free(w);
    wt_release(W);
    wt_release(y);
done:
    for (int i = 0; i < c->nin; i++) {
        wt_release(leaf[i]);
        free(x[i]);
    }
    CHECKF(wt_grad_node_count(ctx) == 0, "%s: %llu graph nodes left", c->name,
           (unsigned long long)wt_grad_node_count(ctx));
}

/* ---- the tape ---- */

static double *grad_of(wt_tensor *t) {
    wt_tensor *g = wt_grad(ctx, t);
    CHECKF(g != NULL, "no gradient: %s", wt_last_error(ctx));
    if (!g)
        return calloc(64, sizeof(double));
    double *v = tt_read(ctx, g);
    wt_release(g);
    return v;
}

static bool has(const char *s) {
    return strstr(wt_last_error(ctx), s) != NULL;
}

static void test_ties(void) {   /* PyTorch: full reductions split evenly, one dim to the index chosen */
    double v[8] = { 1, 3, 3, 2, 5, 5, 5, 0 };
    wt_tensor *x = tt_upload(ctx, WT_F32, WT_SHAPE(2, 4), v);
    wt_set_requires_grad(ctx, x, true);
    wt_tensor *m = wt_max(ctx, x, 0, NULL, false);   /* 5, three times */
    CHECK(wt_backward(ctx, m, NULL, NULL) == WT_OK);
    double *g = grad_of(x);
    for (int i = 0; i < 8; i++)
        CHECKF(fabs(g[i] - (v[i] == 5 ? 1.0 / 3 : 0)) < 1e-6, "max all: grad[%d] = %g", i, g[i]);
    free(g);
    wt_release(m);
    wt_zero_grad(ctx, x);
    m = wt_max(ctx, x, 1, (int[]){ 1 }, false);   /* rows: index 1 and index 0 */
    wt_tensor *up = tt_upload(ctx, WT_F32, 1, (int64_t[]){ 2 }, (double[]){ 1, 2 });
    CHECK(wt_backward(ctx, m, up, NULL) == WT_OK);
    wt_release(up);
    g = grad_of(x);
    double want[8] = { 0, 1, 0, 0, 2, 0, 0, 0 };
    for (int i = 0; i < 8; i++)
        CHECKF(fabs(g[i] - want[i]) < 1e-6, "max dim: grad[%d] = %g, want %g", i, g[i], want[i]);
    free(g);
    wt_release(m);
    wt_zero_grad(ctx, x);
    /* maximum of two tensors: half each on ties */
    wt_tensor *y = tt_upload(ctx, WT_F32, WT_SHAPE(2, 4), (double[]){ 1, 0, 3, 9, 5, 0, 0, 0 });
    wt_set_requires_grad(ctx, y, true);
    wt_tensor *mx = wt_maximum(ctx, x, y), *s = wt_sum(ctx, mx, 0, NULL, false);
    CHECK(wt_backward(ctx, s, NULL, NULL) == WT_OK);
    double *gx = grad_of(x), *gy = grad_of(y);
    double wx[8] = { 0.5, 1, 0.5, 0, 0.5, 1, 1, 0.5 };
    for (int i = 0; i < 8; i++)
        CHECKF(fabs(gx[i] - wx[i]) < 1e-6 && fabs(gy[i] - (1 - wx[i])) < 1e-6, "maximum: %d: %g %g", i, gx[i], gy[i]);
    free(gx);
    free(gy);
    /* prod with one zero and with two zeros */
    wt_tensor *z = tt_upload(ctx, WT_F32, WT_SHAPE(2, 3), (double[]){ 2, 0, 3, 0, 4, 0 });
    wt_set_requires_grad(ctx, z, true);
    wt_tensor *p = wt_prod(ctx, z, 1, (int[]){ 1 }, false), *ps = wt_sum(ctx, p, 0, NULL, false);
    CHECK(wt_backward(ctx, ps, NULL, NULL) == WT_OK);
    double *gz = grad_of(z), wz[6] = { 0, 6, 0, 0, 0, 0 };
    for (int i = 0; i < 6; i++)
        CHECKF(fabs(gz[i] - wz[i]) < 1e-6, "prod zeros: grad[%d] = %g, want %g", i, gz[i], wz[i]);
    free(gz);
    wt_tensor *all[] = { x, y, mx, s, z, p, ps };
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        wt_release(all[i]);
}

static void test_tape(void) {
    double v[6] = { 1, 2, 3, 4, 5, 6 };
    wt_tensor *x = tt_upload(ctx, WT_F32, WT_SHAPE(2, 3), v);
    CHECK(!wt_requires_grad(x) && wt_is_leaf(x));
    CHECK(wt_set_requires_grad(ctx, x, true) == WT_OK && wt_requires_grad(x));
    /* retain_graph: y = x * x twice gives 2 * 2x; then the graph is freed */
    wt_tensor *y = wt_mul(ctx, x, x), *s = wt_sum(ctx, y, 0, NULL, false);
    CHECK(!wt_is_leaf(y) && wt_grad_fn_name(y) && !strcmp(wt_grad_fn_name(y), "wt_mul"));
    CHECK(wt_backward(ctx, s, NULL, &(wt_backward_desc){ .retain_graph = true }) == WT_OK);
    CHECK(wt_backward(ctx, s, NULL, NULL) == WT_OK);
    double *g = grad_of(x);
    for (int i = 0; i < 6; i++)
        CHECKF(fabs(g[i] - 4 * v[i]) < 1e-5, "retain_graph: grad[%d] = %g", i, g[i]);
    free(g);
    /* a third walk: mul's saved tensors are gone -> an error naming it, .grad unchanged */
    wt_tensor *g0 = wt_grad(ctx, x);
    CHECK(wt_backward(ctx, s, NULL, NULL) == WT_STATUS_INVALID_ARGUMENT && has("wt_mul") && has("second time"));
    wt_tensor *g1 = wt_grad(ctx, x);
    CHECK(g0 == g1);
    wt_release(g0);
    wt_release(g1);
    wt_clear_error(ctx);
    /* nothing saved (add): walking twice is fine, as in PyTorch */
    wt_tensor *a = wt_add_scalar(ctx, x, 1), *as = wt_sum(ctx, a, 0, NULL, false);
    wt_zero_grad(ctx, x);
    CHECK(wt_grad(ctx, x) == NULL);
    CHECK(wt_backward(ctx, as, NULL, NULL) == WT_OK && wt_backward(ctx, as, NULL, NULL) == WT_OK);
    g = grad_of(x);
    for (int i = 0; i < 6; i++)
        CHECKF(fabs(g[i] - 2) < 1e-6, "accumulation: grad[%d] = %g", i, g[i]);
    free(g);
    /* errors: non-scalar without a gradient, a gradient of the wrong shape */
    wt_tensor *before = wt_grad(ctx, x);
    CHECK(wt_backward(ctx, a, NULL, NULL) == WT_STATUS_SHAPE && has("wt_backward") && has("[2, 3]"));
    wt_tensor *bad = wt_ones(ctx, WT_F32, WT_SHAPE(3, 2));
    CHECK(wt_backward(ctx, a, bad, NULL) == WT_STATUS_SHAPE && has("[3, 2]") && has("[2, 3]"));
    wt_tensor *after = wt_grad(ctx, x);
    CHECK(before == after);
    wt_release(before);
    wt_release(after);
    wt_release(bad);
    /* integer tensors, non-leaves, results that do not require grad */
    wt_tensor *i = wt_arange(ctx, WT_I32, 0, 4, 1);
    CHECK(wt_set_requires_grad(ctx, i, true) == WT_STATUS_DTYPE && has("i32") && has("[4]"));
    CHECK(wt_set_requires_grad(ctx, y, false) == WT_STATUS_INVALID_ARGUMENT && has("wt_mul"));
    wt_tensor *cmp = wt_gt_scalar(ctx, x, 2);
    CHECK(!wt_requires_grad(cmp));
    CHECK(wt_backward(ctx, i, NULL, NULL) == WT_STATUS_INVALID_ARGUMENT && has("does not require grad"));
    /* no-grad mode and detach */
    CHECK(wt_is_grad_enabled(ctx));
    bool was = wt_set_grad_enabled(ctx, false);
    CHECK(was && !wt_is_grad_enabled(ctx));
    wt_tensor *ng = wt_mul(ctx, x, x);
    CHECK(!wt_requires_grad(ng) && wt_is_leaf(ng));
    wt_set_grad_enabled(ctx, was);
    wt_tensor *d = wt_detach(ctx, x);
    CHECK(!wt_requires_grad(d) && wt_same_storage(d, x));
    wt_tensor *dm = wt_mul(ctx, d, x), *ds = wt_sum(ctx, dm, 0, NULL, false);   /* d/dx (c x) = c */
    wt_zero_grad(ctx, x);
    CHECK(wt_backward(ctx, ds, NULL, NULL) == WT_OK);
    g = grad_of(x);
    for (int k = 0; k < 6; k++)
        CHECKF(fabs(g[k] - v[k]) < 1e-6, "detach: grad[%d] = %g", k, g[k]);
    free(g);
    /* wt_set_grad checks the shape */
    wt_tensor *wrong = wt_zeros(ctx, WT_F32, WT_SHAPE(6));
    CHECK(wt_set_grad(ctx, x, wrong) == WT_STATUS_SHAPE && has("[6]"));
    CHECK(wt_set_grad(ctx, x, NULL) == WT_OK && !wt_grad(ctx, x));
    /* a loss given mismatched shapes */
    wt_tensor *t = wt_zeros(ctx, WT_F32, WT_SHAPE(3, 2));
    CHECK(!wt_mse_loss(ctx, x, t, NULL) && wt_last_status(ctx) == WT_STATUS_SHAPE && has("wt_mse_loss") &&
          has("[2, 3]") && has("[3, 2]"));
    wt_tensor *tgt = wt_zeros(ctx, WT_I32, WT_SHAPE(3));
    CHECK(!wt_cross_entropy(ctx, x, tgt, NULL) && has("wt_cross_entropy") && has("[3]"));
    /* nothing recorded when no input requires grad */
    uint64_t nodes = wt_grad_node_count(ctx);
    wt_tensor *plain = wt_ones(ctx, WT_F32, WT_SHAPE(4)), *pe = wt_exp(ctx, plain);
    CHECK(!wt_requires_grad(pe) && wt_grad_node_count(ctx) == nodes);
    wt_release(plain);
    wt_release(pe);
    /* a leaf as the result itself */
    wt_tensor *one = wt_ones(ctx, WT_F32, 0, NULL);
    wt_set_requires_grad(ctx, one, true);
    CHECK(wt_backward(ctx, one, NULL, NULL) == WT_OK);
    double go = 0;
    wt_tensor *gt = wt_grad(ctx, one);
    CHECK(gt && wt_item(ctx, gt, &go) == WT_OK && go == 1);
    wt_release(gt);
    wt_clear_error(ctx);
    wt_tensor *all[] = { x, y, s, a, as, i, cmp, ng, d, dm, ds, wrong, t, tgt, one };
    for (size_t k = 0; k < sizeof all / sizeof *all; k++)
        wt_release(all[k]);
    CHECK(wt_grad_node_count(ctx) == 0);
}

/* a chain of 20000 ops: backward and freeing walk it without recursion */
static void test_chain(void) {
    wt_tensor *x = wt_ones(ctx, WT_F32, WT_SHAPE(4));
    wt_set_requires_grad(ctx, x, true);
    wt_tensor *y = x;
    wt_retain(y);
    for (int i = 0; i < 20000; i++) {
        wt_tensor *z = wt_mul_scalar(ctx, y, i % 2 ? 2.0 : 0.5);
        wt_release(y);
        y = z;
    }
    CHECK(wt_grad_node_count(ctx) == 20000);
    wt_tensor *s = wt_sum(ctx, y, 0, NULL, false);
    CHECK(wt_backward(ctx, s, NULL, NULL) == WT_OK);
    double *g = grad_of(x);
    CHECKF(fabs(g[0] - 1) < 1e-6 && fabs(g[3] - 1) < 1e-6, "chain: %g", g[0]);
    free(g);
    wt_release(s);
    wt_release(y);
    CHECK(wt_grad_node_count(ctx) == 0);
    wt_release(x);
}

/* 100 training steps (SGD with momentum, wt_optimizer's in-place updates) of a small MLP and then
 * of a small CNN on fixed data: the loss falls, and after every step the live tensors, the pool's
 * bytes and the graph nodes are what they were after the first steps */
static wt_tensor *mlp_loss(wt_tensor *const *p, wt_tensor *X, wt_tensor *T) {
    wt_tensor *h = wt_linear(ctx, X, p[0], p[1]), *r = wt_relu(ctx, h), *lg = wt_linear(ctx, r, p[2], p[3]);
    wt_tensor *loss = wt_cross_entropy(ctx, lg, T, NULL);
    wt_release(h);
    wt_release(r);
    wt_release(lg);
    return loss;
}

static wt_tensor *cnn_loss(wt_tensor *const *p, wt_tensor *X, wt_tensor *T) {   /* X [N, 1, 6, 6] */
    wt_tensor *c = wt_conv2d(ctx, X, p[0], p[1], &(wt_conv2d_desc){ .padding = { 1, 1 } }), *r = wt_relu(ctx, c);
    wt_tensor *m = wt_max_pool2d(ctx, r, &(wt_pool2d_desc){ .kernel = { 2, 2 } }, NULL);
    wt_tensor *f = wt_reshape(ctx, m, WT_SHAPE(wt_size(m, 0), -1)), *lg = wt_linear(ctx, f, p[2], p[3]);
    wt_tensor *loss = wt_cross_entropy(ctx, lg, T, NULL);
    wt_tensor *all[] = { c, r, m, f, lg };
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        wt_release(all[i]);
    return loss;
}

static void train(const char *name, bool cnn) {
    enum { N = 16, D = 36, H = 8, C = 3, STEPS = 100 };
    double xv[N * D], tv[N];
    for (int i = 0; i < N * D; i++)
        xv[i] = tt_rand(&seed, -1, 1);
    for (int i = 0; i < N; i++)
        tv[i] = (xv[i * D] > 0) + (xv[i * D + 7] > 0);
    wt_tensor *X = cnn ? tt_upload(ctx, WT_F32, WT_SHAPE(N, 1, 6, 6), xv) : tt_upload(ctx, WT_F32, WT_SHAPE(N, D), xv);
    wt_tensor *T = tt_upload(ctx, WT_I32, 1, (int64_t[]){ N }, tv);
    wt_manual_seed(ctx, 7);
    wt_tensor *p[4];
    if (cnn) {
        p[0] = wt_uniform(ctx, WT_F32, WT_SHAPE(4, 1, 3, 3), -0.3, 0.3);
        p[1] = wt_zeros(ctx, WT_F32, WT_SHAPE(4));
        p[2] = wt_uniform(ctx, WT_F32, WT_SHAPE(C, 36), -0.2, 0.2);
    } else {
        p[0] = wt_uniform(ctx, WT_F32, WT_SHAPE(H, D), -0.3, 0.3);
        p[1] = wt_zeros(ctx, WT_F32, WT_SHAPE(H));
        p[2] = wt_uniform(ctx, WT_F32, WT_SHAPE(C, H), -0.3, 0.3);
    }
    p[3] = wt_zeros(ctx, WT_F32, WT_SHAPE(C));
    for (int k = 0; k < 4; k++)
        wt_set_requires_grad(ctx, p[k], true);
    wt_optimizer *opt = wt_optimizer_create(ctx, &(wt_optimizer_desc){
        .groups = &(wt_param_group){ .params = p, .count = 4, .h = { .lr = 0.1, .momentum = 0.9 } }, .group_count = 1 });
    CHECKF(opt != NULL, "%s", wt_last_error(ctx));
    wt_stats s0 = { 0 }, s = { 0 };
    double first = 0, last = 0;
    for (int step = 0; step < STEPS && opt; step++) {
        wt_tensor *loss = cnn ? cnn_loss(p, X, T) : mlp_loss(p, X, T);
        CHECKF(wt_backward(ctx, loss, NULL, NULL) == WT_OK, "%s step %d: %s", name, step, wt_last_error(ctx));
        wt_tensor *g[4];
        for (int k = 0; k < 4; k++) {
            g[k] = wt_grad(ctx, p[k]);
            wt_zero_grad(ctx, p[k]);
        }
        CHECKF(wt_optimizer_step(opt, g, 4) == WT_OK, "%s step %d: %s", name, step, wt_last_error(ctx));
        for (int k = 0; k < 4; k++)
            wt_release(g[k]);
        double lv = 0;
        wt_item(ctx, loss, &lv);
        wt_release(loss);
        if (step == 0)
            first = lv;
        last = lv;
        wt_sync(ctx);
        wt_get_stats(ctx, &s);
        if (step == 2)
            s0 = s;
        if (step > 2) {
            CHECKF(s.live_tensors == s0.live_tensors, "%s step %d: %llu live tensors, %llu before", name, step,
                   (unsigned long long)s.live_tensors, (unsigned long long)s0.live_tensors);
            CHECKF(s.allocated_bytes == s0.allocated_bytes && s.pooled_bytes == s0.pooled_bytes,
                   "%s step %d: pool %llu / %llu bytes, %llu / %llu before", name, step,
                   (unsigned long long)s.allocated_bytes, (unsigned long long)s.pooled_bytes,
                   (unsigned long long)s0.allocated_bytes, (unsigned long long)s0.pooled_bytes);
        }
        CHECKF(wt_grad_node_count(ctx) == 0, "%s step %d: %llu nodes", name, step,
               (unsigned long long)wt_grad_node_count(ctx));
        if (test_failures_ > 20)
            break;
    }
    printf("%s: loss %.4f -> %.4f over %d steps; %llu live tensors, %llu pool bytes, %.1f submits, %.1f ops per step\n",
           name, first, last, STEPS, (unsigned long long)s0.live_tensors, (unsigned long long)s0.allocated_bytes,
           (double)(s.flushes - s0.flushes) / (STEPS - 3), (double)(s.ops - s0.ops) / (STEPS - 3));
    CHECKF(last < 0.5 * first, "%s: the loss did not fall: %g -> %g", name, first, last);
    wt_optimizer_destroy(opt);
    for (int k = 0; k < 4; k++)
        wt_release(p[k]);
    wt_release(X);
    wt_release(T);
}

/* Every host allocation of a forward + backward fails once in turn (a fresh context each run):
 * no crash, no leak, an error where something failed, and after a failed backward no leaf has a
 * gradient (all or none); a run that succeeds has the right gradients. */
static int grad_workload(wt_context *c) {
    double xv[6] = { 0.1, -0.2, 0.3, 0.4, -0.5, 0.6 }, wv[6] = { 0.5, -0.1, 0.2, 0.3, -0.4, 0.7 };
    float xh[6], wh[6];
    for (int i = 0; i < 6; i++)
        xh[i] = (float)xv[i], wh[i] = (float)wv[i];
    wt_tensor *x = wt_from_host(c, WT_F32, WT_SHAPE(2, 3), xh), *w = wt_from_host(c, WT_F32, WT_SHAPE(3, 2), wh);
    wt_set_requires_grad(c, x, true);
    wt_set_requires_grad(c, w, true);
    wt_tensor *y = wt_matmul(c, x, w), *t = wt_tanh(c, y), *p = wt_mul(c, t, y), *s = wt_sum(c, p, 0, NULL, false);
    wt_status st = s ? wt_backward(c, s, NULL, NULL) : wt_last_status(c);
    int ok = 0;
    wt_tensor *gx = wt_grad(c, x), *gw = wt_grad(c, w);
    if (st != WT_OK) {
        ok = gx || gw ? -1 : 0;   /* all or none */
    } else {
        float hx[6], hw[6];
        if (wt_to_host(c, gx, hx, sizeof hx) == WT_OK && wt_to_host(c, gw, hw, sizeof hw) == WT_OK) {
            ok = 1;   /* d/dy (tanh(y) y) = tanh(y) + y (1 - tanh^2 y); dx = dy w^T, dw = x^T dy */
            double dy[4];
            for (int i = 0; i < 2; i++)
                for (int j = 0; j < 2; j++) {
                    double v = 0;
                    for (int k = 0; k < 3; k++)
                        v += (double)xh[i * 3 + k] * wh[k * 2 + j];
                    dy[i * 2 + j] = tanh(v) + v * (1 - tanh(v) * tanh(v));
                }
            for (int i = 0; i < 2; i++)
                for (int k = 0; k < 3; k++) {
                    double a = dy[i * 2] * wh[k * 2] + dy[i * 2 + 1] * wh[k * 2 + 1];
                    if (fabs(hx[i * 3 + k] - a) > 1e-5)
                        ok = -1;
                }
            for (int k = 0; k < 3; k++)
                for (int j = 0; j < 2; j++) {
                    double b = xh[k] * dy[j] + xh[3 + k] * dy[2 + j];
                    if (fabs(hw[k * 2 + j] - b) > 1e-5)
                        ok = -1;
                }
        }
    }
    wt_tensor *all[] = { x, w, y, t, p, s, gx, gw };
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        wt_release(all[i]);
    return ok;
}

static void test_faults(tt_fixture *f) {
    test_alloc ta = { 0 };
    wt_context *c = wt_context_create(f->g.dev, &(wt_context_desc){ .allocator = test_allocator(&ta) });
    CHECK(c && grad_workload(c) == 1);
    wt_context_destroy(c);
    long total = ta.total, runs = 0, failed = 0, bad = 0;
    for (long k = 1; k <= total + 2; k++, runs++) {
        test_alloc fa = { .fail_at = k };
        c = wt_context_create(f->g.dev, &(wt_context_desc){ .allocator = test_allocator(&fa) });
        if (c) {
            int r = grad_workload(c);
            bad += r < 0;
            failed += fa.failed && wt_last_status(c) != WT_OK;
            wt_context_destroy(c);
        } else {
            failed++;
        }
        CHECKF(fa.live == 0, "fail at %ld: %ld allocations leaked", k, fa.live);
    }
    printf("faults: %ld allocations, each failed in turn: %ld runs reported it, %ld wrong\n", total, failed, bad);
    CHECK_EQ_INT(bad, 0);
    CHECKF(failed > runs / 2, "only %ld of %ld runs reported the failure", failed, runs);
}

int main(void) {
    tt_fixture f;
    ctx = tt_init(&f, NULL);
    if (!wt_context_has_f16(ctx))
        printf("note: no shader-f16 on this adapter: the cast case runs f32 -> f32\n");
    size_t nc = sizeof cases / sizeof *cases;
    for (size_t i = 0; i < nc; i++) {
        int before = test_failures_;
        run_case(&cases[i]);
        if (test_failures_ != before)
            fprintf(stderr, "  (case %zu: %s)\n", i, cases[i].name);
        wt_clear_error(ctx);
    }
    printf("%zu gradient checks\n", nc);
    test_ties();
    test_tape();
    test_chain();
    train("mlp", false);
    train("cnn", true);
    test_faults(&f);
    tt_end(&f);
    return test_end();
}
