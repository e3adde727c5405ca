/* conv.c - conv2d, maxpool2d and avgpool2d over NCHW tensors.
 *
 * conv2d has three ways.  conv.wgsl is an implicit GEMM: per group, the output [Kg channels x
 * N*OH*OW pixels] is the product of the weight [Kg x R] (R = Cg*KH*KW) and the patch matrix
 * [R x pixels], whose tiles are gathered from the input on the fly (through the input's
 * strides, zero outside the border), so no im2col buffer ever exists and a strided view is
 * read in place (tiles of 64 channels x 128 pixels; filter sizes up to 7 x 7 are compiled in
 * as constants).
 * conv_direct.wgsl computes one output element per invocation; AUTO takes it
 * when the GEMM's 64 x 128 tiles would be mostly empty (few output channels per group, as in
 * depthwise convolutions, or a tiny inner dimension).  Winograd's F(2x2, 3x3) (3 x 3, stride
 * 1, dilation 1, one group) runs winograd.wgsl's filter and input transforms, 16 batched
 * products through wt_matmul_ex and the output transform, over f32 pool temporaries, a chunk of
 * images at a time (winograd() below); AUTO takes it for f32 problems deep and wide enough, the
 * fastest on the H200 at the bench shape (doc/tensor.md).  The weight and bias are read as
 * contiguous arrays (wt_contiguous copies them only when they are views).
 *
 * The pools (pool.wgsl) run one invocation per output element; max pooling with indices
 * records the kernel twice (values, then i32 indices), since a dispatch has one output. */
#include <stdlib.h>
#include <string.h>

#include "tensor/backward.h"
#include "tensor/internal.h"

enum { POOL_MAX = 0, POOL_ARGMAX = 1, POOL_AVG_PAD = 2, POOL_AVG = 3 };

static int64_t cdiv(int64_t a, int64_t b) {
    return (a + b - 1) / b;
}

static bool fits_i32(int64_t v) {
    return v >= -(int64_t)INT32_MAX && v <= INT32_MAX;
}

/* Checks x is a 4-D float tensor addressable with 32-bit indices. */
static bool nchw_input(wt_context *ctx, const char *op, const wt_tensor *x) {
    char b[160];
    if (!wt_check_tensor(ctx, op, x))
        return false;
    wt_shape_str(b, sizeof b, x->ndim, x->shape);
    if (x->ndim != 4) {
        wt_fail(ctx, WT_STATUS_SHAPE, op, "input %s: expected 4 dims [N, C, H, W]", b);
        return false;
    }
    if (!wt_is_float(x->dtype)) {
        wt_fail(ctx, WT_STATUS_DTYPE, op, "input %s %s: f32 or f16 only", wt_dtype_name(x->dtype), b);
        return false;
    }
    int64_t far = x->offset;
    for (int d = 0; d < 4; d++)
        far += (x->shape[d] - 1) * (x->strides[d] < 0 ? -x->strides[d] : x->strides[d]);
    if (!fits_i32(far) || !fits_i32(x->numel)) {
        wt_fail(ctx, WT_STATUS_SHAPE, op, "input %s: too large for 32-bit indexing", b);
        return false;
    }
    return true;
}

/* One output size: (in + 2 pad - dil (k - 1) - 1) / stride + 1, or -1 when not positive. */
static int64_t out_size(int64_t in, int64_t k, int64_t stride, int64_t pad, int64_t dil) {
    int64_t span = in + 2 * pad - dil * (k - 1) - 1;
    return span < 0 ? -1 : span / stride + 1;
}

static void put_strides(wt_params *p, const wt_tensor *x) {
    for (int d = 0; d < 4; d++)
        p->st[0][d] = (int32_t)x->strides[d];
    p->off[0] = (uint32_t)x->offset;
}

/* Winograd F(2x2, 3x3) (winograd.wgsl): does it apply?  3 x 3, stride 1, dilation 1, one group. */
static bool wino_applies(int64_t KH, int64_t KW, int64_t sh, int64_t sw, int64_t dh, int64_t dw, int64_t G) {
    return KH == 3 && KW == 3 && sh == 1 && sw == 1 && dh == 1 && dw == 1 && G == 1;
}

/* The matmul kernel of the 16 GEMMs [rows x C] . [C x cols].  At most 64 rows with 16-byte
 * operands (C and cols multiples of 4): matmul3's 16-byte 64 x 64 tiles, else AUTO (matmul.c's
 * tuner or heuristic, whose 128-row tiles would be half empty); AUTO too when the policy forces a
 * matmul kernel (wt_policy.matmul_kernel, a benchmark's measurement).  H200, channel-major at the
 * bench shape (rows K = 64): tile64x64v4w 30.3 TFLOP/s (also the tuner's pick), tile128x128v4w
 * (the heuristic's, with tuning off) 24.3. */
static wt_mm_kernel wino_mm_kernel(const wt_context *ctx, int64_t rows, int64_t C, int64_t cols) {
    if (ctx->pol.matmul_kernel)
        return WT_MM_AUTO;
    return rows <= 64 && C % 4 == 0 && cols % 4 == 0 ? WT_MM_TILE64V4W : WT_MM_AUTO;
}

/* Images per chunk: V (16 C tiles f32) and M (16 K tiles) of one chunk stay under
 * wt_policy.winograd_chunk_bytes each (0: 256 MiB; at least one image per chunk), and always
 * under what one binding may hold and under a sixteenth of memory_limit: 0 when one image alone
 * is too big for those.  H200, N32 C64 K64 128^2 (16 MiB of V per image): 256 MiB 29.6 TFLOP/s,
 * smaller chunks slower (16 MiB 27.0). */
static int64_t wino_chunk(const wt_context *ctx, int64_t N, int64_t C, int64_t K, int64_t TT) {
    uint64_t soft = ctx->pol.winograd_chunk_bytes ? ctx->pol.winograd_chunk_bytes : 256ull << 20;
    uint64_t hard = ctx->max_binding / 5 * 4;
    if (ctx->memory_limit && hard > ctx->memory_limit / 16)
        hard = ctx->memory_limit / 16;
    uint64_t per = 16ull * 4ull * (uint64_t)(C > K ? C : K) * (uint64_t)TT;
    if (per > hard)
        return 0;
    int64_t nc = (int64_t)((soft < hard ? soft : hard) / per);
    return nc < 1 ? 1 : nc < N ? nc : N;
}

/* out = conv2d(x, w, b) by F(2x2, 3x3), nc images at a time: the filter transform once, then per
 * chunk the input transform, 16 batched GEMMs through wt_matmul_ex, the output transform (bias
 * added).  U, V and M are f32 pool temporaries (released as soon as they are recorded: the
 * batch holds them until it ran). */
static wt_status winograd(wt_context *ctx, const char *op, wt_tensor *x, wt_tensor *w, wt_tensor *b, wt_tensor *out,
                          int64_t nc, int64_t ph, int64_t pw) {
    int64_t N = x->shape[0], C = x->shape[1], H = x->shape[2], W = x->shape[3];
    int64_t K = out->shape[1], OH = out->shape[2], OW = out->shape[3];
    int64_t TH = cdiv(OH, 2), TW = cdiv(OW, 2), TT = TH * TW;
    wt_kkey key = wt_key(WT_K_winograd, 0, WT_F32, w->dtype, x->dtype, WT_F32);
    wt_params p;
    memset(&p, 0, sizeof p);
    key.op = 0;   /* the filter transform */
    p.n = (uint32_t)(K * C);
    p.off[0] = (uint32_t)w->offset;
    p.shape[0] = (uint32_t)K;
    p.shape[1] = (uint32_t)C;
    wt_tensor *U = wt_tensor_new(ctx, op, WT_F32, 3, (const int64_t[]){ 16, K, C });
    wt_kernel *k = U ? wt_kernel_get(ctx, op, &key) : NULL;
    wt_storage *in[2] = { w->st, NULL };
    wt_status s = k ? wt_record(ctx, op, k, &p, U->st, 2, in) : ctx->status;
    for (int64_t n0 = 0; n0 < N && s == WT_OK; n0 += nc) {
        int64_t m = N - n0 < nc ? N - n0 : nc, T = m * TT;
        /* input transform: V */
        key.op = 1;
        key.in[0] = (uint8_t)x->dtype;
        memset(&p, 0, sizeof p);
        put_strides(&p, x);
        p.off[0] = (uint32_t)(x->offset + n0 * x->strides[0]);
        p.st[0][4] = (int32_t)ph;
        p.st[0][5] = (int32_t)pw;
        p.shape[0] = (uint32_t)C;
        p.shape[1] = (uint32_t)TT;
        p.shape[2] = (uint32_t)TW;
        p.shape[3] = (uint32_t)T;
        p.shape[4] = (uint32_t)H;
        p.shape[5] = (uint32_t)W;
        p.n = (uint32_t)(m * C * TT);
        wt_tensor *V = wt_tensor_new(ctx, op, WT_F32, 3, (const int64_t[]){ 16, C, T });
        k = V ? wt_kernel_get(ctx, op, &key) : NULL;
        in[0] = x->st;
        s = k ? wt_record(ctx, op, k, &p, V->st, 2, in) : ctx->status;
        /* the GEMMs: M[xi] = U[xi] V[xi] */
        wt_tensor *M = s == WT_OK ? wt_matmul_kernel_ex(ctx, U, V, NULL, wino_mm_kernel(ctx, K, C, T)) : NULL;
        wt_release(V);
        if (!M) {
            s = s == WT_OK ? ctx->status : s;
            break;
        }
        /* output transform: y (+ bias) */
        key.op = 2;
        key.out = (uint8_t)out->dtype;
        key.in[0] = WT_F32;
        key.in[1] = (uint8_t)(b ? b->dtype : x->dtype);
        key.mode[0] = b ? 1 : 0;
        memset(&p, 0, sizeof p);
        p.off[2] = b ? (uint32_t)b->offset : 0;
        p.aux[0] = (uint32_t)(n0 * K * OH * OW);
        p.shape[0] = (uint32_t)K;
        p.shape[1] = (uint32_t)TT;
        p.shape[2] = (uint32_t)TW;
        p.shape[3] = (uint32_t)T;
        p.shape[4] = (uint32_t)OH;
        p.shape[5] = (uint32_t)OW;
        p.n = (uint32_t)(m * K * TT);
        k = wt_kernel_get(ctx, op, &key);
        in[0] = M->st;
        in[1] = b ? b->st : NULL;
        s = k ? wt_record(ctx, op, k, &p, out->st, 2, in) : ctx->status;
        wt_release(M);
        key.out = WT_F32;
        key.mode[0] = 0;
        in[1] = NULL;
    }
    wt_release(U);
    return s;
}

static wt_tensor *conv2d(wt_context *ctx, wt_tensor *x, wt_tensor *weight, wt_tensor *bias, const wt_conv2d_desc *desc);
wt_tensor *wt_conv2d(wt_context *ctx, wt_tensor *x, wt_tensor *weight, wt_tensor *bias, const wt_conv2d_desc *desc) {
    wt_tensor *c[3];   /* autocast (amp.c): the f16 list */
    if (wt__autocast(ctx, WT__AMP_F16, 3, (wt_tensor *const[]){ x, weight, bias }, c))
        return wt__autocast_done(3, c, wt_conv2d(ctx, c[0], c[1], c[2], desc));
    wt_conv2d_desc d = desc ? *desc : (wt_conv2d_desc){ 0 };   /* autograd: the rule reads these */
    wt_gargs a = { .i = { d.stride[0], d.stride[1], d.padding[0], d.padding[1], d.dilation[0], d.dilation[1], d.groups } };
    return wt__grad(ctx, conv2d(ctx, x, weight, bias, desc), WT_G_conv2d, 3, (wt_tensor *const[]){ x, weight, bias }, &a);
}

static wt_tensor *conv2d(wt_context *ctx, wt_tensor *x, wt_tensor *weight, wt_tensor *bias, const wt_conv2d_desc *desc) {
    const char *op = "wt_conv2d";
    if (!ctx || !nchw_input(ctx, op, x) || !wt_check_tensor(ctx, op, weight) ||
        (bias && !wt_check_tensor(ctx, op, bias)))
        return NULL;
    wt_conv2d_desc d = desc ? *desc : (wt_conv2d_desc){ 0 };
    char sx[160], sw[160], sb[160] = "none";
    wt_shape_str(sx, sizeof sx, x->ndim, x->shape);
    wt_shape_str(sw, sizeof sw, weight->ndim, weight->shape);
    if (bias)
        wt_shape_str(sb, sizeof sb, bias->ndim, bias->shape);
    if (weight->dtype != x->dtype || (bias && bias->dtype != x->dtype))
        return wt_fail(ctx, WT_STATUS_DTYPE, op, "input %s %s, weight %s %s, bias %s: dtypes differ",
                       wt_dtype_name(x->dtype), sx, wt_dtype_name(weight->dtype), sw,
                       bias ? wt_dtype_name(bias->dtype) : "none");
    int64_t sh = d.stride[0] ? d.stride[0] : 1, swd = d.stride[1] ? d.stride[1] : 1;
    int64_t dh = d.dilation[0] ? d.dilation[0] : 1, dw = d.dilation[1] ? d.dilation[1] : 1;
    int64_t ph = d.padding[0], pw = d.padding[1];
    int64_t G = d.groups ? d.groups : 1;
    if (sh < 1 || swd < 1 || dh < 1 || dw < 1 || ph < 0 || pw < 0 || G < 1 || sh > 65535 || swd > 65535 ||
        dh > 65535 || dw > 65535 || ph > 65535 || pw > 65535 || (unsigned)d.impl >= WT_CONV_IMPL_COUNT)
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op,
                       "input %s, weight %s: stride (%lld, %lld), padding (%lld, %lld), dilation (%lld, %lld), "
                       "groups %lld or impl %d out of range", sx, sw, (long long)sh, (long long)swd, (long long)ph,
                       (long long)pw, (long long)dh, (long long)dw, (long long)G, (int)d.impl);
    int64_t N = x->shape[0], C = x->shape[1], H = x->shape[2], W = x->shape[3];
    if (weight->ndim != 4 || C % G || weight->shape[1] != C / G || weight->shape[0] % G || weight->shape[0] < 1 ||
        weight->shape[2] < 1 || weight->shape[3] < 1)
        return wt_fail(ctx, WT_STATUS_SHAPE, op,
                       "input %s, weight %s, groups %lld: expected weight [K, C / groups, KH, KW] with groups "
                       "dividing C and K", sx, sw, (long long)G);
    int64_t K = weight->shape[0], KH = weight->shape[2], KW = weight->shape[3];
    /* the kernels' reduction loops: conv.wgsl takes 8 of C / groups * KH * KW per step,
     * conv_direct.wgsl loops over KH, KW and C / groups; at most 65,535 steps each (lavapipe stops
     * longer loops) */
    if (C / G > 65535 || KH > 65535 || KW > 65535 || (C / G) * KH * KW > 65535 * 8)
        return wt_fail(ctx, WT_STATUS_SHAPE, op,
                       "input %s, weight %s, groups %lld: C / groups, KH and KW (each at most 65535) make too "
                       "long a reduction (C / groups * KH * KW at most 524280)", sx, sw, (long long)G);
    if (bias && (bias->ndim != 1 || bias->shape[0] != K))
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "input %s, weight %s: bias %s should be [%lld]", sx, sw, sb,
                       (long long)K);
    int64_t OH = out_size(H, KH, sh, ph, dh), OW = out_size(W, KW, swd, pw, dw);
    if (OH < 0 || OW < 0)
        return wt_fail(ctx, WT_STATUS_SHAPE, op,
                       "input %s, weight %s, padding (%lld, %lld), dilation (%lld, %lld): the kernel is larger "
                       "than the padded input", sx, sw, (long long)ph, (long long)pw, (long long)dh, (long long)dw);
    int64_t Cg = C / G, Kg = K / G, R = Cg * KH * KW, OHW = OH * OW, Ptot = N * OHW;
    if (!fits_i32(R * K) || !fits_i32(Ptot * K) || !fits_i32(H + 2 * ph) || !fits_i32(W + 2 * pw) ||
        !fits_i32(OH * sh + dh * KH) || !fits_i32(OW * swd + dw * KW))
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "input %s, weight %s: too large for 32-bit indexing", sx, sw);
    wt_tensor *out = wt_tensor_new(ctx, op, x->dtype, 4, (const int64_t[]){ N, K, OH, OW });
    if (!out || !out->numel)
        return out;
    if (R == 0) {   /* C == 0: only the bias */
        wt_release(out);
        wt_tensor *z = wt_zeros(ctx, x->dtype, 4, (const int64_t[]){ N, K, OH, OW });
        if (!z || !bias)
            return z;
        wt_tensor *bv = wt_view(ctx, bias, 4, (const int64_t[]){ 1, K, 1, 1 });
        wt_tensor *r = bv ? wt_add(ctx, z, bv) : NULL;
        wt_release(bv);
        wt_release(z);
        return r;
    }
    wt_conv_impl impl = d.impl;
    bool wino = wino_applies(KH, KW, sh, swd, dh, dw, G);
    int64_t nc = wino ? wino_chunk(ctx, N, C, K, cdiv(OH, 2) * cdiv(OW, 2)) : 0;
    if (impl == WT_CONV_WINOGRAD && (!wino || nc < 1)) {
        wt_release(out);
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op,
                       "input %s, weight %s: winograd needs a 3x3 filter, stride 1, dilation 1, groups 1%s", sx, sw,
                       wino ? " and one image's transforms within a buffer binding" : "");
    }
    /* H200, N32 C64 K64 128^2 3x3 (cuDNN 36.9 TFLOP/s): Winograd 29.6, the implicit GEMM 21.9,
     * direct 4.6.  Winograd for f32 with deep enough channel sums and enough tiles for its
     * GEMMs (thresholds not measured elsewhere: only the bench shape is) */
    if (impl == WT_CONV_AUTO)
        impl = Kg < 16 || R < 16 ? WT_CONV_DIRECT
             : wino && nc > 0 && x->dtype == WT_F32 && C >= 32 && K >= 32 && Ptot >= 16384 ? WT_CONV_WINOGRAD
                                                                                          : WT_CONV_GEMM;
    wt_tensor *w = wt_contiguous(ctx, weight);
    wt_tensor *b = bias ? wt_contiguous(ctx, bias) : NULL;
    if (!w || (bias && !b)) {
        wt_release(w);
        wt_release(out);
        return NULL;
    }
    if (impl == WT_CONV_WINOGRAD) {
        wt_status ws = winograd(ctx, op, x, w, b, out, nc, ph, pw);
        wt_release(w);
        wt_release(b);
        if (ws != WT_OK) {
            wt_release(out);
            return NULL;
        }
        return out;
    }
    wt_params p;
    memset(&p, 0, sizeof p);
    put_strides(&p, x);
    p.off[1] = (uint32_t)w->offset;
    p.off[2] = b ? (uint32_t)b->offset : 0;
    p.shape[0] = (uint32_t)Ptot;
    p.shape[1] = (uint32_t)OHW;
    p.shape[2] = (uint32_t)OW;
    p.shape[3] = (uint32_t)R;
    p.shape[4] = (uint32_t)(KH * KW);
    p.shape[5] = (uint32_t)KW;
    p.shape[6] = (uint32_t)H;
    p.shape[7] = (uint32_t)W;
    p.sv[0] = (uint32_t)sh;
    p.sv[1] = (uint32_t)swd;
    p.sv[2] = (uint32_t)dh;
    p.sv[3] = (uint32_t)dw;
    p.aux[0] = (uint32_t)Kg;
    p.aux[1] = (uint32_t)Cg;
    p.aux[2] = (uint32_t)K;
    p.st[0][4] = (int32_t)ph;      /* WGSL st[1] */
    p.st[0][5] = (int32_t)pw;
    wt_kkey key = wt_key(0, 0, out->dtype, x->dtype, x->dtype, WT_F32);   /* file and op per kernel below */
    key.in[2] = (uint8_t)x->dtype;
    key.mode[0] = b ? 1 : 0;
    wt_status s = WT_OK;
    if (impl == WT_CONV_GEMM) {
        int64_t tc = cdiv(Kg, 64), tp = cdiv(Ptot, 128), groups = G * tc * tp;
        if (groups > (int64_t)(UINT32_MAX / 256))
            s = wt_failst(ctx, WT_STATUS_SHAPE, op, "input %s, weight %s: %lld tiles are too many for one dispatch",
                          sx, sw, (long long)groups);
        key.file = WT_K_conv;
        if (KH <= 7 && KW <= 7) {   /* filter size as constants: divisions become multiplies */
            key.mode[1] = (uint8_t)KH;
            key.mode[2] = (uint8_t)KW;
        }
        p.aux[3] = (uint32_t)tc;
        p.st[0][6] = (int32_t)tp;
        p.n = (uint32_t)(groups * 256);
    } else {
        key.file = WT_K_conv_direct;
        p.n = (uint32_t)out->numel;
    }
    wt_kernel *k = s == WT_OK ? wt_kernel_get(ctx, op, &key) : NULL;
    wt_storage *in[3] = { x->st, w->st, b ? b->st : NULL };
    s = k ? wt_record(ctx, op, k, &p, out->st, 3, in) : ctx->status;
    wt_release(w);
    wt_release(b);
    if (s != WT_OK) {
        wt_release(out);
        return NULL;
    }
    return out;
}

/* Validates a pool desc for x; fills the Params and the output shape (backward.h). */
bool wt__pool_plan(wt_context *ctx, const char *op, wt_tensor *x, const wt_pool2d_desc *desc, bool max,
                   wt_params *p, int64_t oshape[4]) {
    if (!ctx || !nchw_input(ctx, op, x))
        return false;
    char sx[160];
    wt_shape_str(sx, sizeof sx, x->ndim, x->shape);
    if (!desc) {
        wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "input %s: a desc with the kernel size is required", sx);
        return false;
    }
    int64_t kh = desc->kernel[0], kw = desc->kernel[1];
    int64_t sh = desc->stride[0] ? desc->stride[0] : kh, sw = desc->stride[1] ? desc->stride[1] : kw;
    int64_t ph = desc->padding[0], pw = desc->padding[1];
    int64_t dh = desc->dilation[0] ? desc->dilation[0] : 1, dw = desc->dilation[1] ? desc->dilation[1] : 1;
    if (kh < 1 || kw < 1 || sh < 1 || sw < 1 || dh < 1 || dw < 1 || kh > 65535 || kw > 65535 || sh > 65535 ||
        sw > 65535 || dh > 65535 || dw > 65535 || ph < 0 || pw < 0 || 2 * ph > kh || 2 * pw > kw ||
        (!max && (dh != 1 || dw != 1))) {
        wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op,
                "input %s: kernel (%lld, %lld), stride (%lld, %lld), padding (%lld, %lld), dilation (%lld, %lld) "
                "out of range (padding at most half the kernel%s)", sx, (long long)kh, (long long)kw, (long long)sh,
                (long long)sw, (long long)ph, (long long)pw, (long long)dh, (long long)dw,
                max ? "" : "; no dilation for avg");
        return false;
    }
    int64_t OH = out_size(x->shape[2], kh, sh, ph, dh), OW = out_size(x->shape[3], kw, sw, pw, dw);
    if (OH < 0 || OW < 0) {
        wt_fail(ctx, WT_STATUS_SHAPE, op, "input %s: kernel (%lld, %lld) larger than the padded input", sx,
                (long long)kh, (long long)kw);
        return false;
    }
    oshape[0] = x->shape[0];
    oshape[1] = x->shape[1];
    oshape[2] = OH;
    oshape[3] = OW;
    memset(p, 0, sizeof *p);
    put_strides(p, x);
    for (int i = 0; i < 4; i++)
        p->shape[i] = (uint32_t)x->shape[i];
    p->shape[4] = (uint32_t)OH;
    p->shape[5] = (uint32_t)OW;
    p->shape[6] = (uint32_t)kh;
    p->shape[7] = (uint32_t)kw;
    p->sv[0] = (uint32_t)sh;
    p->sv[1] = (uint32_t)sw;
    p->sv[2] = (uint32_t)ph;
    p->sv[3] = (uint32_t)pw;
    p->aux[0] = (uint32_t)dh;
    p->aux[1] = (uint32_t)dw;
    return true;
}

static wt_tensor *pool_run(wt_context *ctx, const char *op, wt_tensor *x, wt_params *p, const int64_t oshape[4],
                           uint32_t mode, wt_dtype odt) {
    wt_tensor *out = wt_tensor_new(ctx, op, odt, 4, oshape);
    if (!out || !out->numel)
        return out;
    wt_kkey key = wt_key(WT_K_pool, (uint32_t)mode, odt, x->dtype, WT_DTYPE_DEFAULT, WT_F32);
    p->n = (uint32_t)out->numel;
    wt_storage *in = x->st;
    if (wt_record_key(ctx, op, &key, p, out->st, 1, &in) != WT_OK) {
        wt_release(out);
        return NULL;
    }
    return out;
}

wt_tensor *wt_max_pool2d(wt_context *ctx, wt_tensor *x, const wt_pool2d_desc *desc, wt_tensor **indices) {
    const char *op = "wt_max_pool2d";
    if (indices)
        *indices = NULL;
    wt_params p;
    int64_t os[4];
    if (!wt__pool_plan(ctx, op, x, desc, true, &p, os))
        return NULL;
    wt_params p2 = p;
    wt_tensor *out = wt__grad(ctx, pool_run(ctx, op, x, &p, os, POOL_MAX, x->dtype), WT_G_max_pool2d, 1, &x,
                              (wt_gargs[]){ wt__pool_args(desc) });
    if (!out || !indices)
        return out;
    *indices = pool_run(ctx, op, x, &p2, os, POOL_ARGMAX, WT_I32);
    if (!*indices) {
        wt_release(out);
        return NULL;
    }
    return out;
}

wt_tensor *wt_avg_pool2d(wt_context *ctx, wt_tensor *x, const wt_pool2d_desc *desc) {
    const char *op = "wt_avg_pool2d";
    wt_params p;
    int64_t os[4];
    if (!wt__pool_plan(ctx, op, x, desc, false, &p, os))
        return NULL;
    return wt__grad(ctx, pool_run(ctx, op, x, &p, os, desc->count_include_pad ? POOL_AVG_PAD : POOL_AVG, x->dtype),
                    WT_G_avg_pool2d, 1, &x, (wt_gargs[]){ wt__pool_args(desc) });
}
