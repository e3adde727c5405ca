/* tensor.h - wt, wgc's GPU tensors: refcounted n-d arrays on a wg device, views without copies,
 * lazy batched execution, a buffer pool, the everyday elementwise ops, all run on the GPU, and
 * autograd (see its section).
 *
 * A context binds to a wg device and owns the buffer pool, the kernel cache (WGSL kernel file +
 * specialisation key -> pipeline), the pending batch and the error state.  Ops do not run when
 * called: they check shapes and dtypes, take an output buffer from the pool and record a dispatch
 * into the pending batch.  The batch goes to the GPU in one submit when a value is read
 * (wt_to_host, wt_item, wt_save_npy), when it reaches max_batch_ops, or at wt_flush; reading is
 * the only thing that waits.  Errors are values: a failing call returns NULL (or a status), sets
 * the context's last error (status + a message naming the op and the shapes) and changes nothing
 * else.  Passing NULL to an op is itself an error that keeps the first error's message, so a
 * chain of calls can be checked once at the end.  The library never exits, aborts or prints.
 *
 * Worked example (error handling shortened):
 *
 *     wg_device *dev = ...;                                    // see gpu.h
 *     wt_context *ctx = wt_context_create(dev, NULL);          // NULL desc = defaults
 *     wt_tensor *x = wt_arange(ctx, WT_F32, 0, 6, 1);          // [0 1 2 3 4 5]
 *     wt_tensor *m = wt_reshape(ctx, x, WT_SHAPE(2, 3));       // a view: no copy
 *     wt_tensor *t = wt_transpose(ctx, m, 0, 1);               // 3x2 view with strides (1, 3)
 *     wt_tensor *e = wt_exp(ctx, t);                           // recorded, not run
 *     wt_tensor *y = wt_add_scalar(ctx, e, 1.0);               // recorded: 2 dispatches pending
 *     float host[6];
 *     if (wt_to_host(ctx, y, host, sizeof host) != WT_OK)      // one submit, one wait
 *         fprintf(stderr, "%s\n", wt_last_error(ctx));         // e.g. "wt_add: shapes ..."
 *     wt_release(x); wt_release(m); wt_release(t); wt_release(e); wt_release(y);
 *     wt_context_destroy(ctx);
 *
 * Ownership: every function returning a wt_tensor * returns a new reference (wt_release it); views
 * hold a reference to their storage, so the base can be released first.  Recorded dispatches hold
 * their inputs and outputs until the GPU is done, so releasing a tensor right after using it is
 * fine.  Destroying the context frees every buffer and pipeline of it; a tensor still held then
 * has no storage, and the context's host shell stays until the last such tensor is released (a
 * second release of a tensor is an error, never a crash).  One thread at a time per context.
 *
 * Dtypes and type rules (numpy/PyTorch-like): f32, f16 (only where the device has shader-f16),
 * i32, u32, bool.  Host memory holds f16 as IEEE binary16 bits (uint16_t) and bool as one byte
 * (0/1); on the GPU bool is stored as u32.  Binary ops promote: equal -> that dtype; bool with X
 * -> X; integer with float -> the float; f16 with f32 -> f32; i32 with u32 -> i32.  div and the
 * float-only unary ops (exp, log, sqrt, rsqrt, sin, cos, tanh, sigmoid, silu, gelu, reciprocal)
 * give f32 for integer inputs.  Arithmetic on bool is an error (cast first).  A scalar operand
 * (the *_scalar forms) keeps the tensor's dtype unless the tensor is integer and the scalar is
 * not integral, which gives f32.  Comparisons and logical ops give bool.  See doc/tensor.md. */
#ifndef WGC_TENSOR_H
#define WGC_TENSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wgc/gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wt_context wt_context;
typedef struct wt_tensor wt_tensor;

#define WT_MAX_DIMS 8

/* ---- dtypes: X(NAME, "name", host bytes per element, GPU bytes per element) ---------------- */
#define WT_DTYPES(X)          \
    X(F32, "f32", 4, 4)       \
    X(F16, "f16", 2, 2)       \
    X(I32, "i32", 4, 4)       \
    X(U32, "u32", 4, 4)       \
    X(BOOL, "bool", 1, 4)

typedef enum wt_dtype {
    WT_DTYPE_DEFAULT = 0,     /* in creation calls: f32 */
#define X(name, str, hsize, gsize) WT_##name,
    WT_DTYPES(X)
#undef X
    WT_DTYPE_COUNT
} wt_dtype;

const char *wt_dtype_name(wt_dtype dt);      /* "f32", ...; "?" when out of range */
size_t wt_dtype_size(wt_dtype dt);           /* host bytes per element; 0 when out of range */

/* ---- errors: X(NAME, summary); the status is the row number ------------------------------- */
#define WT_ERRORS(X)                                                   \
    X(OK, "no error")                                                  \
    X(INVALID_ARGUMENT, "invalid argument")                            \
    X(NULL_TENSOR, "NULL tensor passed (an earlier call failed?)")     \
    X(SHAPE, "shape mismatch")                                         \
    X(DTYPE, "dtype not supported")                                    \
    X(NOT_VIEWABLE, "view impossible without a copy")                  \
    X(OUT_OF_MEMORY, "GPU memory exhausted")                           \
    X(HOST_OUT_OF_MEMORY, "host memory exhausted")                     \
    X(IO, "file error")                                                \
    X(NPY_FORMAT, "unsupported or malformed .npy file")                \
    X(KERNEL, "kernel compilation failed (a wgc bug)")                 \
    X(GPU, "GPU error")                                                \
    X(DEVICE_LOST, "device lost")                                      \
    X(WRONG_CONTEXT, "tensor belongs to another context")

typedef enum wt_status {
#define X(name, summary) WT_STATUS_##name,
    WT_ERRORS(X)
#undef X
    WT_STATUS_COUNT
} wt_status;
#define WT_OK WT_STATUS_OK

const char *wt_status_name(wt_status s);     /* "WT_STATUS_SHAPE" */

/* The last error of the context: status, and "<op>: <detail>" (e.g. "wt_add: shapes [2, 3] and
 * [4] are not broadcastable").  A successful call does not clear it; wt_clear_error does.  A NULL
 * tensor passed while an error is set does not overwrite it (the root cause stays). */
wt_status wt_last_status(const wt_context *ctx);
const char *wt_last_error(const wt_context *ctx);    /* "" when none */
void wt_clear_error(wt_context *ctx);

/* ---- policy: every setting that changes what the library runs ------------------------------ */
/* A three-way setting: AUTO (0) is the library's choice, documented per field. */
typedef enum wt_toggle {
    WT_AUTO = 0,
    WT_ON,
    WT_OFF,
    WT_TOGGLE_COUNT
} wt_toggle;
/* When matmuls time kernels: the autotuner (which tiled kernel is fastest for a shape class) and
 * the guard of WT_MATMUL_F16_TENSOR's workgroup-matrix kernel (wt_policy.matmul_workgroup_matrix
 * AUTO).  FIRST_USE: the first lazy wt_matmul of a class without a cached choice tunes it there:
 * it submits the pending work and waits while it times candidates, for at most about
 * tune_budget_ms (the candidates not timed by then are left out; such a choice is kept for the
 * process but not written to the cache file), and the first tensor-core product of a kernel key
 * times the guard likewise.  AHEAD: lazy ops never time; they take a cached choice, else the
 * heuristic, and a workgroup-matrix verdict made ahead, else the subgroup-matrix kernel;
 * wt_autotune_matmul does the timing, with no budget.  OFF: lazy ops neither look the cache up
 * nor time (the heuristic; the guard as AHEAD). */
typedef enum wt_tune_mode {
    WT_TUNE_DEFAULT = 0,          /* FIRST_USE */
    WT_TUNE_FIRST_USE,
    WT_TUNE_AHEAD,
    WT_TUNE_OFF,
    WT_TUNE_MODE_COUNT
} wt_tune_mode;
/* Zero is the default of every field; doc/tensor.md's settings table gives each default, the
 * measurement behind it and the WGC_* variable wt_policy_from_env maps onto it.  Strings are
 * copied when the policy is applied. */
typedef struct wt_policy {
    /* batching and fusion */
    uint32_t max_batch_ops;       /* flush when the pending batch holds this many dispatches; 0: 128,
                                     and early_ops when the GPU is idle (it starts on a long stream
                                     of ops while the rest is recorded) */
    uint32_t early_ops;           /* 0: 16 (only with max_batch_ops 0) */
    wt_toggle batch_ramp;         /* after an early start, chunks double up to max_batch_ops; AUTO: on */
    uint64_t batch_bytes;         /* flush once a batch took this many pool bytes; 0: max(1 GiB, heap / 16) */
    wt_toggle fusion;             /* elementwise chains fused at flush (see below); AUTO: on */
    uint32_t ew_vec4_per_thread;  /* 1, 2 or 4 vec4s per invocation of the vec4 elementwise kernels;
                                     0: 2 with one input, 1 with two */
    /* matmul */
    const char *matmul_kernel;    /* NULL: chosen by shape; else a kernel by name (benchmarks;
                                     wt_matmul_kernel_names lists them); an unknown name is an error */
    wt_toggle matmul_workgroup_matrix;  /* f16 tensor-core products on workgroup matrices where the
                                     device has them: AUTO = when faster than the subgroup-matrix
                                     kernel on the first product of a kernel key (timed when tune
                                     allows, see wt_tune_mode), ON = always, OFF = never */
    wt_toggle matmul_pad;         /* large ragged products on zero-padded copies: AUTO = when it pays,
                                     ON = always (tests), OFF = never */
    /* attention */
    const char *attention_kernel; /* NULL: chosen by device and shape; else the FMA flash kernel
                                     by name where it fits the device, else the default (tests,
                                     benchmarks; wt_attention_kernel_names lists them); an unknown
                                     name is an error */
    /* convolution */
    uint64_t winograd_chunk_bytes;  /* conv2d by Winograd runs a chunk of images at a time whose
                                     transformed input and output stay under this many bytes each
                                     (at least one image); 0: 256 MiB */
    /* tuning */
    wt_tune_mode tune;
    uint32_t tune_budget_ms;      /* FIRST_USE: a lazy op's tuning stops timing new candidates past
                                     this (the shape's heuristic kernel is timed first); 0: 10000 */
    double tune_min_flop;         /* smaller products are never tuned; 0: 2^28 */
    const char *cache_dir;        /* tuner cache directory; NULL: the device's pipeline cache directory
                                     (wg_device_desc.cache_dir); "": none */
    /* test hooks: fault injection for the suite (NULL / false in programs) */
    const char *fault_tune_reject;  /* the tuner's check rejects this kernel */
    bool fault_wgm_slow;          /* every workgroup-matrix timing finds it slower */
} wt_policy;
/* Fills the fields of *p that are zero from WGC_* environment variables (doc/tensor.md lists
 * them), for programs that want their users' knobs: the library itself reads no environment.
 * Returns false with a message in err (err_size bytes) when a variable is malformed; *p then
 * holds what was read before it.  The strings point into the environment. */
bool wt_policy_from_env(wt_policy *p, char *err, size_t err_size);

/* ---- context ------------------------------------------------------------------------------ */
typedef struct wt_context_desc {
    const char *label;
    wg_allocator allocator;       /* host allocations; zero = libc */
    bool eager;                   /* run every op at once and wait (debugging) */
    uint64_t memory_limit;        /* cap on GPU bytes the pool may hold; 0: none (the device's limit) */
    bool timing;                  /* GPU timestamps around every batch: wt_stats.gpu_ns (needs a device
                                     made with WG_FEATURE_TIMESTAMP_QUERY; else ignored, see
                                     wt_context_set_timing) */
    wt_policy policy;             /* zero: every default */
} wt_context_desc;

/* NULL only when the host allocation of the context fails or dev is NULL. */
wt_context *wt_context_create(wg_device *dev, const wt_context_desc *desc);
/* Flushes, waits, frees every buffer and pipeline of the context and every tensor no longer held
 * (tensors still held: see "Ownership" above). */
void wt_context_destroy(wt_context *ctx);
wg_device *wt_context_device(wt_context *ctx);
bool wt_context_has_f16(const wt_context *ctx);
void wt_context_set_eager(wt_context *ctx, bool eager);
/* GPU time: with timing on, every submitted batch's compute pass carries two timestamp queries,
 * and wt_stats.gpu_ns adds up (end - beginning) of every timed batch the GPU has finished, read
 * at each wait (wt_sync, a readback): the GPU's busy time, the figure CUDA events give, free of
 * the host's recording and submit costs.  Errors with WT_STATUS_INVALID_ARGUMENT when on and the
 * device lacks WG_FEATURE_TIMESTAMP_QUERY. */
wt_status wt_context_set_timing(wt_context *ctx, bool on);
/* Kernel profile, for finding where a workload's GPU time goes (what a kernel-level profiler such
 * as nsys or PyTorch's profiler shows): with profiling on, every dispatch runs in a compute pass
 * of its own with a pair of timestamps, and wt_kernel_list reports per kernel how many dispatches
 * of it finished and their summed GPU time (read at each wait, like wt_stats.gpu_ns, which then
 * adds up the dispatches).  Each dispatch then waits for the one before (a pass boundary is a
 * full barrier), so the sum can exceed the unprofiled batch time: compare kernels with each
 * other, time the workload without it.  Turning it on zeroes every kernel's counters and turns
 * timing on; turning it off keeps timing on.  Errors as wt_context_set_timing. */
wt_status wt_context_set_profiling(wt_context *ctx, bool on);
/* Fusion: at a flush, an elementwise float op whose tensor input is the f32 result of the
 * elementwise float op just before it, when nothing else holds that result (its tensor was
 * released: a temporary), becomes one dispatch with it, up to 8 ops per dispatch.  The joining
 * op is a unary float op (neg ... reciprocal; not clamp) or a binary float op with a scalar right
 * operand (wt_add_scalar ... wt_remainder_scalar); the first may also be a binary op of two
 * tensors.  The temporary is never written, so relu(abs(x)) or (x + b) * 0.5 reads its inputs and
 * writes the result once.  Results are those of the separate ops (f32 throughout; the
 * intermediate was f32; f16 intermediates, which round on store, are never fused).
 * wt_stats.fused counts the dispatches saved.  On by default. */
void wt_context_set_fusion(wt_context *ctx, bool on);
/* Replaces the context's policy (flushing pending work first, so recorded ops keep the policy
 * they were recorded under); WT_STATUS_INVALID_ARGUMENT for a value out of range or an unknown
 * kernel name, and then nothing changes. */
wt_status wt_context_set_policy(wt_context *ctx, const wt_policy *policy);
void wt_context_get_policy(const wt_context *ctx, wt_policy *out);

/* Submits the pending batch (no wait). */
wt_status wt_flush(wt_context *ctx);
/* Submits the pending batch and waits for the GPU. */
wt_status wt_sync(wt_context *ctx);

/* ---- buffer pool and statistics ------------------------------------------------------------ */
typedef struct wt_stats {
    uint64_t allocated_bytes, peak_allocated_bytes;  /* GPU bytes the pool holds (live + pooled) */
    uint64_t live_bytes, live_buffers;               /* held by tensors or by work in flight */
    uint64_t pooled_bytes, pooled_buffers;           /* free, or waiting for the GPU to finish */
    uint64_t pool_hits, pool_misses;                 /* buffer requests served from / not from the pool */
    uint64_t live_tensors;
    uint64_t ops, dispatches, flushes;               /* recorded ops, dispatches submitted, submits */
    uint64_t kernels_compiled, kernel_hits;          /* pipelines built / served from the cache */
    uint64_t bind_group_hits, bind_group_misses;
    uint64_t fused;                                  /* dispatches saved by fusing unary chains */
    uint64_t gpu_ns, timed_batches;                  /* with timing on: GPU time of finished batches */
    uint64_t wgm_checks, wgm_fallbacks;              /* WT_MATMUL_F16_TENSOR on workgroup matrices: times
                                                      * matmul_wgm.wgsl was timed against matmul_coop.wgsl,
                                                      * products it could have run that ran matmul_coop.wgsl
                                                      * because it lost (wt_matmul_ex) */
} wt_stats;
void wt_get_stats(const wt_context *ctx, wt_stats *out);
/* The kernels this context has compiled, for kernel authors: each one's name (kernel file, op
 * code, dtypes and modes of its specialisation, fused links: "matmul4 op 4 f32<-f32,f32,f32 mode
 * 0,0,0"), the driver's figures for its pipeline (registers, spills, ...:
 * wg_compute_pipeline_get_statistics) where the device has WG_FEATURE_PIPELINE_STATISTICS, else
 * none, and its profile (wt_context_set_profiling; zero without).  Fills up to cap entries of out
 * (NULL when cap is 0) and returns how many kernels there are. */
typedef struct wt_kernel_info {
    char name[96];
    uint32_t statistic_count;
    wg_pipeline_statistic statistics[8];
    uint64_t calls;               /* profiled dispatches of it the GPU has finished */
    uint64_t gpu_ns;              /* their summed GPU time */
} wt_kernel_info;
uint32_t wt_kernel_list(wt_context *ctx, wt_kernel_info *out, uint32_t cap);
/* Waits for the GPU and releases every pooled buffer (and the cached bind groups holding them). */
void wt_trim(wt_context *ctx);

/* ---- tensors ------------------------------------------------------------------------------ */
/* WT_SHAPE(2, 3) expands to the (ndim, shape) argument pair of the calls below (C only). */
#define WT_SHAPE(...) (int)(sizeof((int64_t[]){ __VA_ARGS__ }) / sizeof(int64_t)), (const int64_t[]){ __VA_ARGS__ }

void wt_retain(wt_tensor *t);
void wt_release(wt_tensor *t);                /* NULL is fine */

wt_dtype wt_dtype_of(const wt_tensor *t);
int wt_ndim(const wt_tensor *t);
const int64_t *wt_shape(const wt_tensor *t);   /* ndim entries */
const int64_t *wt_strides(const wt_tensor *t); /* in elements */
int64_t wt_offset(const wt_tensor *t);         /* in elements, into the storage */
int64_t wt_numel(const wt_tensor *t);
int64_t wt_size(const wt_tensor *t, int dim);  /* negative dims count from the end */
bool wt_is_contiguous(const wt_tensor *t);
/* Two tensors share storage (one is a view of the other, or both of a third). */
bool wt_same_storage(const wt_tensor *a, const wt_tensor *b);

/* ---- creation (shape: ndim entries; ndim 0 = a scalar; dtype 0 = f32) ---------------------- */
wt_tensor *wt_empty(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape);
wt_tensor *wt_zeros(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape);
wt_tensor *wt_ones(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape);
wt_tensor *wt_full(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape, double value);
wt_tensor *wt_scalar(wt_context *ctx, wt_dtype dt, double value);          /* 0-d tensor */
/* [start, end) in steps of step, as numpy.arange; ceil((end - start) / step) elements. */
wt_tensor *wt_arange(wt_context *ctx, wt_dtype dt, double start, double end, double step);
wt_tensor *wt_eye(wt_context *ctx, wt_dtype dt, int64_t n, int64_t m);   /* m <= 0: m = n */
/* Copies numel * wt_dtype_size(dt) bytes of C-order data (uploaded before the next submit). */
wt_tensor *wt_from_host(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape, const void *data);
/* Random numbers from the context's generator: Philox-4x32-10 keyed by the seed, counter = a
 * running 64-bit element count (see src/tensor/kernels/rand.wgsl for the exact formulas).  Same
 * seed and same sequence of calls: the same numbers on every adapter.  dt: f32 or f16. */
void wt_manual_seed(wt_context *ctx, uint64_t seed);   /* also resets the counter; default seed 0 */
wt_tensor *wt_rand(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape);   /* [0, 1) */
wt_tensor *wt_randn(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape);  /* N(0, 1) */
wt_tensor *wt_uniform(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape, double lo, double hi);
wt_tensor *wt_normal(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape, double mean, double std);

/* .npy files: version 1, 2 or 3 headers, little-endian, C order (fortran_order True is refused),
 * dtypes <f4 <f2 <i4 <u4 |b1, and <f8 / <i8 loaded as f32 / i32 (an <i8 value outside the i32
 * range is an error).  Anything else fails with WT_STATUS_NPY_FORMAT and a message saying why.
 * Saving writes version 1.0 (2.0 when the header needs it). */
wt_tensor *wt_load_npy(wt_context *ctx, const char *path);
wt_status wt_save_npy(wt_context *ctx, wt_tensor *t, const char *path);

/* ---- readback (flushes, waits) ------------------------------------------------------------- */
/* Copies the tensor in C order into dst (size must be numel * wt_dtype_size). */
wt_status wt_to_host(wt_context *ctx, wt_tensor *t, void *dst, size_t size);
/* The single element of a one-element tensor, as a double. */
wt_status wt_item(wt_context *ctx, wt_tensor *t, double *out);
/* Host conversions of IEEE binary16 (round to nearest even). */
uint16_t wt_f32_to_f16(float f);
float wt_f16_to_f32(uint16_t h);

/* ---- views (no copy; negative dims count from the end) ------------------------------------- */
/* One entry of shape may be -1 (inferred).  reshape copies when the layout does not allow a
 * view; view fails with WT_STATUS_NOT_VIEWABLE instead. */
wt_tensor *wt_reshape(wt_context *ctx, wt_tensor *t, int ndim, const int64_t *shape);
wt_tensor *wt_view(wt_context *ctx, wt_tensor *t, int ndim, const int64_t *shape);
wt_tensor *wt_flatten(wt_context *ctx, wt_tensor *t);
wt_tensor *wt_permute(wt_context *ctx, wt_tensor *t, const int *dims);      /* ndim entries */
wt_tensor *wt_transpose(wt_context *ctx, wt_tensor *t, int dim0, int dim1);
/* numpy broadcasting to shape (leading dims may be added; -1 keeps a dim): stride 0 views. */
wt_tensor *wt_expand(wt_context *ctx, wt_tensor *t, int ndim, const int64_t *shape);
wt_tensor *wt_squeeze(wt_context *ctx, wt_tensor *t, int dim);     /* a no-op if size != 1 */
wt_tensor *wt_squeeze_all(wt_context *ctx, wt_tensor *t);
wt_tensor *wt_unsqueeze(wt_context *ctx, wt_tensor *t, int dim);   /* dim in [-ndim-1, ndim] */
/* Elements start, start+step, ... < end along dim (python-style clamping of start/end, which
 * may be negative; step >= 1). */
wt_tensor *wt_slice(wt_context *ctx, wt_tensor *t, int dim, int64_t start, int64_t end, int64_t step);
wt_tensor *wt_narrow(wt_context *ctx, wt_tensor *t, int dim, int64_t start, int64_t length);
wt_tensor *wt_select(wt_context *ctx, wt_tensor *t, int dim, int64_t index);   /* drops dim */
/* Fills out[0..*count) (at most max) with views; returns the status. chunk: `chunks` pieces of
 * ceil(size / chunks); split: pieces of split_size (the last may be smaller). */
wt_status wt_chunk(wt_context *ctx, wt_tensor *t, int chunks, int dim, wt_tensor **out, int max, int *count);
wt_status wt_split(wt_context *ctx, wt_tensor *t, int64_t split_size, int dim, wt_tensor **out, int max, int *count);
/* t itself (retained) when contiguous, else a contiguous copy. */
wt_tensor *wt_contiguous(wt_context *ctx, wt_tensor *t);
wt_tensor *wt_clone(wt_context *ctx, wt_tensor *t);    /* always a new contiguous copy */
wt_tensor *wt_cast(wt_context *ctx, wt_tensor *t, wt_dtype dt);

/* ---- elementwise ops ---------------------------------------------------------------------- */
/* Binary: X(name).  wt_<name>(ctx, a, b) and wt_<name>_scalar(ctx, a, s). */
#define WT_BINARY_OPS(X) \
    X(add) X(sub) X(mul) X(div) X(pow) X(minimum) X(maximum) X(remainder) \
    X(eq) X(ne) X(lt) X(le) X(gt) X(ge) \
    X(logical_and) X(logical_or) X(logical_xor)
/* Unary: X(name).  wt_<name>(ctx, a). */
#define WT_UNARY_OPS(X) \
    X(neg) X(abs) X(exp) X(log) X(sqrt) X(rsqrt) X(sin) X(cos) X(tanh) X(sigmoid) X(relu) \
    X(silu) X(gelu) X(floor) X(ceil) X(round) X(sign) X(reciprocal) X(logical_not)

#define X(name)                                                                 \
    wt_tensor *wt_##name(wt_context *ctx, wt_tensor *a, wt_tensor *b);          \
    wt_tensor *wt_##name##_scalar(wt_context *ctx, wt_tensor *a, double s);
WT_BINARY_OPS(X)
#undef X
#define X(name) wt_tensor *wt_##name(wt_context *ctx, wt_tensor *a);
WT_UNARY_OPS(X)
#undef X

/* min(max(a, lo), hi) elementwise (gelu is the exact erf form; round is half-to-even). */
wt_tensor *wt_clamp(wt_context *ctx, wt_tensor *a, double lo, double hi);
/* cond ? a : b with broadcasting over all three; cond of any dtype (nonzero = true). */
wt_tensor *wt_where(wt_context *ctx, wt_tensor *cond, wt_tensor *a, wt_tensor *b);

/* The result dtype of a binary arithmetic op on these dtypes (promotion rule above). */
wt_dtype wt_promote(wt_dtype a, wt_dtype b);

/* ---- reductions (src/tensor/reduce.c) ----------------------------------------------------- */
/* Reduce over the dims dims[0 .. ndims) (negative dims count from the end; each at most once),
 * or over every dim when ndims == 0.  keepdim keeps the reduced dims with size 1.  Dtypes: sum,
 * prod and cumsum keep the dtype (bool -> i32; integers wrap); mean, var and std keep a float
 * dtype, integers -> f32; max and min keep the dtype; argmax and argmin give i32 indices and take
 * ndims 0 (an index into the flattened tensor) or 1.  Floats accumulate in f32 in a tree order;
 * max, min, argmax and argmin propagate NaN (argmax gives the first NaN) and give the first index
 * on ties (numpy).  The sum of nothing is 0, the prod 1, the mean NaN; max, min, argmax and argmin
 * of an empty reduction are errors.  Inputs may be any view: no transposed copy is made. */
#define WT_REDUCE_OPS(X) X(sum) X(mean) X(prod) X(max) X(min) X(argmax) X(argmin)
#define X(name) wt_tensor *wt_##name(wt_context *ctx, wt_tensor *t, int ndims, const int *dims, bool keepdim);
WT_REDUCE_OPS(X)
#undef X
/* sum((x - mean)^2) / max(0, N - correction), in two passes (mean first); correction 1 is the
 * unbiased estimate, 0 the population variance.  std = sqrt(var). */
wt_tensor *wt_var(wt_context *ctx, wt_tensor *t, int ndims, const int *dims, double correction, bool keepdim);
wt_tensor *wt_std(wt_context *ctx, wt_tensor *t, int ndims, const int *dims, double correction, bool keepdim);
/* Inclusive prefix sum along dim (f32 accumulation for floats); same shape as t. */
wt_tensor *wt_cumsum(wt_context *ctx, wt_tensor *t, int dim);
/* torch.topk(t, k, dim, largest, sorted=True): the k largest (largest) or smallest entries along
 * dim, sorted that way (largest first, or smallest first), the other dims as t's; *indices (when
 * not NULL) gets their i32 positions along dim.  Equal values come in index order; NaN ranks above
 * every number, as in torch (first among the largest, last among the smallest); -0 equals +0.
 * f32, f16 and i32; 0 <= k <= 1024 and k <= the dim's size; rows up to 65535 x 256.  Gradients
 * reach t through the values (scattered back to their positions).  Selection and sort run on the
 * GPU, one workgroup per row. */
wt_tensor *wt_topk(wt_context *ctx, wt_tensor *t, int64_t k, int dim, bool largest, wt_tensor **indices);

/* ---- data movement (src/tensor/movement.c) ------------------------------------------------ */
/* Indices are i32 or u32 tensors; a negative index counts from the end of its dim (-1 = last).
 * The GPU cannot report a bad index: an index out of [-n, n) reads 0 (gather, index_select,
 * embedding) or is skipped (scatter_add). */
/* n tensors of one dtype and equal shapes except along dim, joined along dim (cat) or along a new
 * dim inserted at dim (stack: equal shapes; dim in [-ndim-1, ndim]). */
wt_tensor *wt_cat(wt_context *ctx, wt_tensor *const *ts, int n, int dim);
wt_tensor *wt_stack(wt_context *ctx, wt_tensor *const *ts, int n, int dim);
/* torch.gather: out has index's shape, out[i][j] = t[index[i][j]][j] for dim 0; index has t's
 * rank and index.shape[d] <= t.shape[d] for every d != dim. */
wt_tensor *wt_gather(wt_context *ctx, wt_tensor *t, int dim, wt_tensor *index);
/* The entries index[0 .. k) of t along dim (index 1-d): t's shape with k at dim. */
wt_tensor *wt_index_select(wt_context *ctx, wt_tensor *t, int dim, wt_tensor *index);
/* Rows of weight [V, D] picked by indices of any shape: indices.shape + [D]. */
wt_tensor *wt_embedding(wt_context *ctx, wt_tensor *weight, wt_tensor *indices);
/* torch.scatter_add (not in place): a copy of t with src[i][j] added to out[index[i][j]][j] for
 * dim 0; index has t's rank, index.shape[d] <= src.shape[d] and <= t.shape[d] for d != dim.
 * f32 adds are atomic (compare-exchange), so their order (the last bits) may vary run to run;
 * i32/u32 adds are exact.  f16 is added in f32 and rounded once. */
wt_tensor *wt_scatter_add(wt_context *ctx, wt_tensor *t, int dim, wt_tensor *index, wt_tensor *src);
typedef enum wt_pad_mode {
    WT_PAD_CONSTANT = 0,      /* value */
    WT_PAD_REFLECT,           /* mirror without the edge (numpy "reflect"; pad < size) */
    WT_PAD_REPLICATE,         /* repeat the edge (numpy "edge"; size > 0) */
    WT_PAD_MODE_COUNT
} wt_pad_mode;
/* pads[2 * d], pads[2 * d + 1]: elements added before and after dim d (numpy order, >= 0). */
wt_tensor *wt_pad(wt_context *ctx, wt_tensor *t, const int64_t *pads, wt_pad_mode mode, double value);
/* Reverses the order of elements along dims[0 .. ndims). */
wt_tensor *wt_flip(wt_context *ctx, wt_tensor *t, int ndims, const int *dims);
/* i32 tensor indices.shape + [num_classes]: 1 where the last coordinate equals the index; a
 * num_classes <= 0 takes max(indices) + 1 (which reads the indices: it waits for the GPU). */
wt_tensor *wt_one_hot(wt_context *ctx, wt_tensor *indices, int64_t num_classes);
/* t with value wherever mask (any dtype, nonzero = true, broadcastable to t's shape) is set. */
wt_tensor *wt_masked_fill(wt_context *ctx, wt_tensor *t, wt_tensor *mask, double value);
/* In place: copies src into dst (a tensor or any view with src's shape, e.g. a slice of a KV
 * cache), converting the dtype, lazily like every op (later ops reading dst's storage see the
 * new values).  dst must not share storage with src.  Returns the status. */
wt_status wt_copy_(wt_context *ctx, wt_tensor *dst, wt_tensor *src);

/* ---- neural-network ops (src/tensor/nn.c, src/tensor/attention.c) ------------------------- */
/* softmax / log_softmax along dim (negative counts from the end), numerically stable (the row's
 * max is subtracted), any input layout (strided dims are read in place); f32 or f16 (statistics
 * in f32); the output is contiguous with x's shape and dtype. */
wt_tensor *wt_softmax(wt_context *ctx, wt_tensor *x, int dim);
wt_tensor *wt_log_softmax(wt_context *ctx, wt_tensor *x, int dim);
/* Normalisation over the last dim K: layernorm (x - mean) / sqrt(var + eps) * weight + bias
 * (population variance), rmsnorm x / sqrt(mean(x^2) + eps) * weight.  weight and bias are 1-d of
 * K elements and x's dtype, or NULL (1 and 0). */
wt_tensor *wt_layer_norm(wt_context *ctx, wt_tensor *x, wt_tensor *weight, wt_tensor *bias, double eps);
wt_tensor *wt_rms_norm(wt_context *ctx, wt_tensor *x, wt_tensor *weight, double eps);
/* Rotary position embedding over the last dim (the first rotary_dims elements; the rest pass
 * through): pairs rotated by angle pos * theta^(-2p / rotary_dims), pos = the coordinate along
 * seq_dim + position_offset (the KV cache's length when decoding). */
typedef enum wt_rope_layout {
    WT_ROPE_INTERLEAVED = 0,  /* pairs (2p, 2p + 1): GPT-J, llama.cpp */
    WT_ROPE_HALF,             /* pairs (p, p + rotary_dims / 2): GPT-NeoX, Hugging Face llama */
    WT_ROPE_LAYOUT_COUNT
} wt_rope_layout;
typedef struct wt_rope_desc {
    const char *label;
    wt_rope_layout layout;
    double theta;             /* base; 0: 10000 */
    int64_t position_offset;  /* position of the first element along seq_dim; 0: 0 */
    int seq_dim;              /* 0: -2 ([..., seq, dim]); name dim 0 as -ndim */
    int64_t rotary_dims;      /* even; 0: the whole last dim */
} wt_rope_desc;
wt_tensor *wt_rope(wt_context *ctx, wt_tensor *x, const wt_rope_desc *desc);   /* desc NULL: defaults */
/* Scaled dot-product attention softmax(scale q k^T + mask) v.  q [..., Lq, D], k [..., Lk, D],
 * v [..., Lk, Dv] with zero to two batch dims [B, H] (same rank; k and v may have Hkv heads
 * where H is a multiple of Hkv: grouped-query attention); any strides (a transposed [B, S, H, D]
 * view is read in place); f32 or f16 (accumulation in f32).  Result [..., Lq, Dv] contiguous.
 * causal: query i sees keys j <= i + Lk - Lq (aligned to the end: a KV cache; the lower triangle
 * when Lq == Lk).  A query row that sees no key gives zeros. */
typedef enum wt_attention_impl {
    WT_ATTENTION_AUTO = 0,    /* flash when it applies (no mask tensor, D <= 256, Dv == D) */
    WT_ATTENTION_PLAIN,       /* scores in memory [B, H, Lq, Lk] (f32), softmax, times v */
    WT_ATTENTION_FLASH,       /* tiled, online softmax, memory O(sequence); an error if it cannot */
    WT_ATTENTION_IMPL_COUNT
} wt_attention_impl;
/* Precision.  The tensor-core modes run where the device can (wt_attention_tensor_cores) and the
 * shape allows (no mask tensor, D = Dv = 64 or 128, the head dim contiguous, strides and offsets
 * multiples of 16 bytes; impl AUTO or FLASH); elsewhere the FMA kernels run.
 * WT_ATTENTION_F16_TENSOR (opt-in): f16 q, k, v; f16 products, f32 softmax and accumulation, P
 * rounded to f16.  WT_ATTENTION_F32_TENSOR: f32 q, k, v; each operand (and P) split into two f16
 * parts, hi + lo, scaled per block by a power of two, and each product taken as hi.hi + hi.lo +
 * lo.hi in f32 (about 22 bits, errors near 1e-6 of max|v| times 1 + the scaled sum |q k|: the
 * accuracy class of CUTLASS's 3xTF32, which PyTorch's f32 SDPA uses on such GPUs by default); the
 * result is f32.  DEFAULT: F32_TENSOR for f32 operands, as PyTorch does, else the FMA kernels.
 * WT_ATTENTION_FMA: the FMA kernels only (f32 operands at full f32 accuracy). */
typedef enum wt_attention_precision {
    WT_ATTENTION_PRECISION_DEFAULT = 0,
    WT_ATTENTION_F16_TENSOR,
    WT_ATTENTION_F32_TENSOR,
    WT_ATTENTION_FMA,
    WT_ATTENTION_PRECISION_COUNT
} wt_attention_precision;
bool wt_attention_tensor_cores(wt_context *ctx);   /* as wt_matmul_tensor_cores */
typedef struct wt_attention_desc {
    const char *label;
    double scale;             /* 0: 1 / sqrt(D) */
    bool causal;
    wt_tensor *mask;          /* NULL; bool/i32/u32 (nonzero = attend) or float (added to the
                                 scores), broadcastable to [B, H, Lq, Lk]; not with FLASH */
    wt_attention_impl impl;
    wt_attention_precision precision;   /* 0: DEFAULT */
} wt_attention_desc;
wt_tensor *wt_scaled_dot_product_attention(wt_context *ctx, wt_tensor *q, wt_tensor *k, wt_tensor *v,
                                           const wt_attention_desc *desc);   /* desc NULL: defaults */
/* The FMA flash kernels wt_policy.attention_kernel may name (the default is chosen by device and
 * shape: doc/nn.md).  Fills up to cap entries of out (NULL when cap is 0); returns how many. */
size_t wt_attention_kernel_names(const char **out, size_t cap);
/* ---- end of the neural-network ops ---------------------------------------------------------- */

/* ---- autograd (src/tensor/grad.c, derivatives.c, loss.c; doc/tensor.md "Autograd") --------- */
/* Define-by-run, as PyTorch's: mark leaves with wt_set_requires_grad; every differentiable op
 * called on a tensor that requires grad (while grad mode is on) records how to differentiate
 * itself on its result; wt_backward(loss) walks that graph back and adds each leaf's gradient to
 * its .grad (wt_grad).  Backward is made of wt ops: lazy, batched with forward, on the GPU; it
 * reads nothing back.  Gradients accumulate over calls until wt_zero_grad.  The graph lives as
 * long as a result of it is held; wt_backward frees each node's saved tensors as soon as it has
 * used them, unless retain_graph: a second backward through such a node is an error naming the
 * op (a node that saved nothing, like add's, can be walked again).  Only leaves get .grad.
 * Integer and bool results never require grad (comparisons, argmax, one_hot ...).
 *
 *     wt_set_requires_grad(ctx, w, true);                    // a float leaf
 *     wt_tensor *y = wt_matmul(ctx, x, w);                   // recorded: y requires grad
 *     wt_tensor *l = wt_mean(ctx, y, 0, NULL, false);
 *     wt_backward(ctx, l, NULL, NULL);                       // one-element loss: NULL gradient
 *     wt_tensor *gw = wt_grad(ctx, w);                       // dl/dw, w's shape and dtype
 *
 * Ops with a backward rule: every float elementwise op (binary, *_scalar, unary, clamp, where,
 * masked_fill, cast between floats, clone, contiguous), the reductions (sum, mean, prod, max, min,
 * var, std, cumsum), the views, cat, stack, gather, index_select, embedding, scatter_add, pad
 * (all modes), flip, matmul, matmul_ex, linear, conv2d, max_pool2d, avg_pool2d, softmax,
 * log_softmax, layer_norm, rms_norm, rope, scaled_dot_product_attention (flash backward for f32
 * without a mask tensor; otherwise with the scores in memory) and the losses below. */
typedef struct wt_backward_desc {
    const char *label;
    bool retain_graph;        /* keep the saved tensors: the graph can be walked again */
} wt_backward_desc;
/* Only float tensors, and only leaves (a result of a recorded op is not: wt_detach gives one). */
wt_status wt_set_requires_grad(wt_context *ctx, wt_tensor *t, bool requires_grad);
bool wt_requires_grad(const wt_tensor *t);
bool wt_is_leaf(const wt_tensor *t);              /* no recorded op made it */
const char *wt_grad_fn_name(const wt_tensor *t);  /* "wt_mul" for a result of wt_mul; NULL for a leaf */
/* A new reference to t's accumulated gradient (t's shape and dtype, contiguous, never shared with
 * another tensor's); NULL when there is none.  The tensor is replaced, not written, when more is
 * accumulated. */
wt_tensor *wt_grad(wt_context *ctx, wt_tensor *t);
/* Replaces t's gradient (NULL: none; else t's shape and dtype, retained). */
wt_status wt_set_grad(wt_context *ctx, wt_tensor *t, wt_tensor *grad);
void wt_zero_grad(wt_context *ctx, wt_tensor *t);   /* drops the gradient (PyTorch's set_to_none) */
/* Backpropagates from t: grad is dL/dt (t's shape, a float dtype), or NULL when t has one element
 * (then 1).  Errors (nothing changes): t does not require grad, a non-scalar t without grad, a
 * gradient of another shape, a node whose saved tensors a previous backward freed, an op without
 * a backward rule.  An error during the pass (out of memory) leaves every .grad as it was. */
wt_status wt_backward(wt_context *ctx, wt_tensor *t, wt_tensor *grad, const wt_backward_desc *desc);
/* Grad mode (on at creation): when off, ops record nothing (evaluation, optimizer steps).  Returns
 * the previous state, for scoping: bool was = wt_set_grad_enabled(ctx, false); ...;
 * wt_set_grad_enabled(ctx, was). */
bool wt_set_grad_enabled(wt_context *ctx, bool enabled);
bool wt_is_grad_enabled(const wt_context *ctx);
/* A view of t's data outside the graph (a leaf that does not require grad); no copy. */
wt_tensor *wt_detach(wt_context *ctx, wt_tensor *t);
uint64_t wt_grad_node_count(const wt_context *ctx);   /* graph nodes alive (tests, leak checks) */

/* Losses, as torch.nn.functional's.  Reduction MEAN (default) averages over the elements (over
 * the targets not ignored for cross_entropy / nll_loss), SUM adds, NONE keeps one value per
 * element (per row for cross_entropy / nll_loss).  Input and target shapes must match exactly
 * (no broadcasting); errors name the op and both shapes. */
typedef enum wt_reduction {
    WT_REDUCTION_MEAN = 0,
    WT_REDUCTION_SUM,
    WT_REDUCTION_NONE,
    WT_REDUCTION_COUNT
} wt_reduction;
typedef struct wt_loss_desc {
    const char *label;
    wt_reduction reduction;
    bool use_ignore_index;    /* cross_entropy, nll_loss: targets equal to ignore_index add nothing */
    int64_t ignore_index;     /* (PyTorch's default is -100 with use_ignore_index) */
    double label_smoothing;   /* cross_entropy: in [0, 1] */
    double beta;              /* smooth_l1: 0: 1 */
} wt_loss_desc;
/* logits [N, C] (f32 or f16), target [N] class indices (i32 or u32, in [0, C) unless ignored; an
 * index out of range adds nothing); also [C] with a 0-d target, and [N, C, d1, ...] with target
 * [N, d1, ...] (NONE then gives [N, d1, ...]), as PyTorch.  Only the logits and per-row values are kept for backward
 * (no log-probabilities, no one-hot); forward and backward are one kernel each, so nothing
 * [N, C] is written beyond the logits' gradient. */
wt_tensor *wt_cross_entropy(wt_context *ctx, wt_tensor *logits, wt_tensor *target, const wt_loss_desc *desc);
/* logp [N, C] (log-probabilities), target [N]: -logp[i, target[i]]. */
wt_tensor *wt_nll_loss(wt_context *ctx, wt_tensor *logp, wt_tensor *target, const wt_loss_desc *desc);
wt_tensor *wt_mse_loss(wt_context *ctx, wt_tensor *input, wt_tensor *target, const wt_loss_desc *desc);
wt_tensor *wt_l1_loss(wt_context *ctx, wt_tensor *input, wt_tensor *target, const wt_loss_desc *desc);
/* 0.5 d^2 / beta where |d| < beta, else |d| - 0.5 beta (d = input - target). */
wt_tensor *wt_smooth_l1_loss(wt_context *ctx, wt_tensor *input, wt_tensor *target, const wt_loss_desc *desc);
/* max(x, 0) - x y + log(1 + exp(-|x|)), the gradient sigmoid(x) - y (also at x = 0). */
wt_tensor *wt_binary_cross_entropy_with_logits(wt_context *ctx, wt_tensor *logits, wt_tensor *target,
                                               const wt_loss_desc *desc);
/* ---- end of autograd ---------------------------------------------------------------------- */

/* ---- matmul family (src/tensor/matmul.c, autotune.c) --------------------------------------- */
/* torch.matmul: a [..., M, K] . b [..., K, N] -> [..., M, N] with numpy broadcasting of the batch
 * dims; a 1-D a is [1, K] and a 1-D b is [K, 1], their dim dropped from the result.  Operands are
 * read through their strides (a transposed or sliced view is not copied).  f32/f16 operands (out:
 * wt_promote), accumulation in f32.  Errors name the op and both shapes.  Large products whose
 * rows are not 16-byte aligned (K or N not a multiple of 4, row-major) run on zero-padded copies
 * of the operands (AUTO only; in place when the copies cannot be allocated), and then the result
 * is a view of the padded product: rows N wide with a row stride rounded up to the tile (every op
 * takes views; wt_contiguous makes it dense). */
wt_tensor *wt_matmul(wt_context *ctx, wt_tensor *a, wt_tensor *b);
/* x [..., K] . w^T + bias: w [N, K] (nn.Linear's weight), bias [N] or [1] or NULL. */
wt_tensor *wt_linear(wt_context *ctx, wt_tensor *x, wt_tensor *w, wt_tensor *bias);
/* The kernel is chosen by shape: matvec for one output row or column, else the autotuner's choice
 * for the shape class, else a heuristic (doc/tensor.md, "Kernels"); wt_policy.matmul_kernel forces
 * one by name.  Fills up to cap entries of out (NULL when cap is 0) with the kernels' names, the
 * tiled kernels first, and returns how many there are. */
size_t wt_matmul_kernel_names(const char **out, size_t cap);
/* Precision modes: DEFAULT accumulates in f32 on the kernels above.  F16_TENSOR (opt-in): f16 x f16
 * products on tensor cores through WGSL subgroup matrices (VK_KHR_cooperative_matrix, 16x16x16
 * f16 -> f32 shapes, subgroup size 32), f32 accumulation rounded to f16 on store; taken when
 * wt_matmul_tensor_cores() says the device can and the shape fits (both operands f16, no batch,
 * K a multiple of 16, each operand row- or column-major with 16-byte aligned offset and stride,
 * no tiled kernel forced by the policy), else the DEFAULT path runs. */
typedef enum wt_matmul_precision {
    WT_MATMUL_PRECISION_DEFAULT = 0,
    WT_MATMUL_F16_TENSOR,
    WT_MATMUL_PRECISION_COUNT
} wt_matmul_precision;
typedef struct wt_matmul_desc {
    const char *label;
    wt_matmul_precision precision; /* 0: DEFAULT */
} wt_matmul_desc;
/* Whether WT_MATMUL_F16_TENSOR can use tensor cores on ctx's device: the device was created with
 * WG_FEATURE_COOPERATIVE_MATRIX (and SHADER_F16), the adapter lists a 16x16x16 f16 x f16 -> f32
 * subgroup shape and its subgroup size is 32. */
bool wt_matmul_tensor_cores(wt_context *ctx);
/* wt_matmul (+ bias [N] added to every row, or NULL) in desc's precision (NULL: DEFAULT). */
wt_tensor *wt_matmul_ex(wt_context *ctx, wt_tensor *a, wt_tensor *b, wt_tensor *bias, const wt_matmul_desc *desc);
/* The autotuner: for the shape class of (M, N, K, batch, dtype, operand layout) on this device, it
 * times every tiled kernel on a problem of that class (after checking each against a reference
 * kernel on small random problems: a kernel that fails to build or differs is never chosen) and
 * remembers the fastest, in memory and in a file under wt_policy.cache_dir (doc/tensor.md,
 * "Tuning").  When it runs: wt_policy.tune.
 * wt_autotune_matmul tunes ahead of time: it runs one product a [batch, M, K] . b (b [batch, K, N],
 * or with b_transposed the transposed view of a weight [N, K], as wt_linear reads it) of dtype dt
 * on random operands, which tunes the class that product uses (any tune mode, no budget) and, for
 * f16 where the device has tensor cores, also one WT_MATMUL_F16_TENSOR product, which makes the
 * workgroup-matrix guard's verdict for it.  Submits the pending work and waits. */
wt_status wt_autotune_matmul(wt_context *ctx, int64_t M, int64_t N, int64_t K, int64_t batch, wt_dtype dt,
                             bool b_transposed);
/* The cached choice for contiguous row-major operands, by name; NULL when none.  Never tunes. */
const char *wt_autotune_lookup(wt_context *ctx, int64_t M, int64_t N, int64_t K, int64_t batch, wt_dtype dt);

/* ---- quantized weights (src/tensor/quant.c) ------------------------------------------------ */
/* A weight matrix W [N rows, K columns] kept on the GPU in a model file's own encoding and decoded
 * inside the kernels: the GGML block formats that GGUF files use, bf16, f16 and f32.  A row is K
 * consecutive weights and rows follow each other (GGUF's ne = {K, N}, safetensors' [N, K]); each
 * row is K / block elements blocks, so a Q4_1 weight takes 20 bytes per 32 weights on the GPU as in
 * the file.  Products accumulate in f32 and activations are never quantized: a result is that of
 * the dequantized weight (exact in f32) times x, up to f32 rounding of the sums.
 * X(NAME, "name", weights per block, bytes per block); the layouts: doc/llm.md. */
#define WT_QFORMATS(X)          \
    X(F32, "f32", 1, 4)         \
    X(F16, "f16", 1, 2)         \
    X(BF16, "bf16", 1, 2)       \
    X(Q4_0, "q4_0", 32, 18)     \
    X(Q4_1, "q4_1", 32, 20)     \
    X(Q5_0, "q5_0", 32, 22)     \
    X(Q5_1, "q5_1", 32, 24)     \
    X(Q8_0, "q8_0", 32, 34)     \
    X(Q2_K, "q2_k", 256, 84)    \
    X(Q3_K, "q3_k", 256, 110)   \
    X(Q4_K, "q4_k", 256, 144)   \
    X(Q5_K, "q5_k", 256, 176)   \
    X(Q6_K, "q6_k", 256, 210)

typedef enum wt_qformat {
    WT_QFORMAT_NONE = 0,
#define X(name, str, blk, bytes) WT_QFORMAT_##name,
    WT_QFORMATS(X)
#undef X
    WT_QFORMAT_COUNT
} wt_qformat;

const char *wt_qformat_name(wt_qformat f);          /* "q4_1"; "?" for NONE or out of range */
uint32_t wt_qformat_block_elements(wt_qformat f);   /* 32 for Q4_1; 0 for NONE or out of range */
uint32_t wt_qformat_block_bytes(wt_qformat f);      /* 20 for Q4_1; 0 for NONE or out of range */

typedef struct wt_qweight wt_qweight;
/* Uploads rows x cols weights of format f from data (bytes long: exactly rows * cols / block
 * elements * block bytes; a GGUF tensor's wl_tensor_info data and size, straight from the mapping:
 * no host copy is made) to one GPU buffer.  cols must be a multiple of 32 and of the block, and
 * at most 2^20 (the kernels' loops stay under 65,535 iterations); the weight must fit one storage
 * binding and 4 GiB.  NULL with the context's error set otherwise (WT_STATUS_INVALID_ARGUMENT for an
 * unknown format or a NULL data, WT_STATUS_SHAPE for sizes). */
wt_qweight *wt_qweight_upload(wt_context *ctx, wt_qformat f, int64_t rows, int64_t cols, const void *data,
                              size_t bytes);
/* Frees the weight (work already recorded keeps its buffer until it ran: the pending batch is
 * submitted first when it uses the weight); NULL is fine.  Release every weight before destroying
 * its context.  A weight's buffer is its own, of the exact size (not the pool's); wt_stats counts
 * it in allocated, peak and live bytes and live buffers while the weight lives. */
void wt_qweight_release(wt_qweight *w);
wt_qformat wt_qweight_format(const wt_qweight *w);
int64_t wt_qweight_rows(const wt_qweight *w);       /* N */
int64_t wt_qweight_cols(const wt_qweight *w);       /* K */
uint64_t wt_qweight_bytes(const wt_qweight *w);     /* as uploaded */
/* x [..., K] . W^T + bias -> [..., N] of x's dtype (f32 or f16; any layout: a view that is not
 * contiguous rows is copied first), f32 accumulation; bias [N] (f32 or x's dtype) or NULL.  One to
 * four rows of x (decode) run the matrix-vector kernel that reads the blocks in place; more rows
 * (prefill) a tiled kernel that decodes the weight into workgroup memory, and from 64 rows of f32
 * x the weight decoded to f32 (exact) in chunks of at most 64 MiB (and an eighth of memory_limit)
 * through wt_linear's tuned kernels (the result may then be a view, as wt_matmul's). */
wt_tensor *wt_qlinear(wt_context *ctx, wt_tensor *x, wt_qweight *w, wt_tensor *bias);
/* Rows of W picked by ids (i32 or u32, any shape), decoded: f32 ids.shape + [K].  A negative id
 * counts from the end; one out of [-N, N) gives a row of zeros (the GPU cannot report it). */
wt_tensor *wt_qembedding(wt_context *ctx, wt_qweight *w, wt_tensor *ids);
/* The whole weight decoded: f32 [N, K]. */
wt_tensor *wt_qdequantize(wt_context *ctx, wt_qweight *w);
/* ---- end of quantized weights ------------------------------------------------------------- */

/* ---- convolution and pooling (src/tensor/conv.c) ------------------------------------------- */
/* conv2d as torch.nn.functional.conv2d: x [N, C, H, W] (any strides: read in place), weight
 * [K, C / groups, KH, KW], bias [K] or NULL; out [N, K, OH, OW] contiguous with
 * OH = (H + 2 pad_h - dil_h (KH - 1) - 1) / stride_h + 1 (likewise OW).  f32 or f16 (all three of
 * one dtype; accumulation in f32).  Errors name the op and the shapes. */
typedef enum wt_conv_impl {
    WT_CONV_AUTO = 0,         /* WINOGRAD or a GEMM when the problem fills its tiles, else DIRECT */
    WT_CONV_GEMM,             /* implicit GEMM: 64 channel x 128 pixel tiles, no im2col in memory */
    WT_CONV_DIRECT,           /* one invocation per output element (small, depthwise) */
    WT_CONV_WINOGRAD,         /* Winograd F(2x2, 3x3): 3x3, stride 1, dilation 1, groups 1 only */
    WT_CONV_IMPL_COUNT
} wt_conv_impl;
typedef struct wt_conv2d_desc {
    const char *label;
    int64_t stride[2];        /* (h, w); 0: 1 */
    int64_t padding[2];       /* zeros added on both sides of (h, w) */
    int64_t dilation[2];      /* 0: 1 */
    int64_t groups;           /* 0: 1; divides C and K */
    wt_conv_impl impl;
} wt_conv2d_desc;
wt_tensor *wt_conv2d(wt_context *ctx, wt_tensor *x, wt_tensor *weight, wt_tensor *bias,
                     const wt_conv2d_desc *desc);   /* desc NULL: stride 1, no padding */
/* Pooling over the (H, W) dims of x [N, C, H, W] (any strides), f32 or f16; out [N, C, OH, OW]
 * contiguous, OH as for conv2d (floor mode).  max pads with -inf; avg divides by the window size
 * (count_include_pad, PyTorch's default) or by the elements inside the image. */
typedef struct wt_pool2d_desc {
    const char *label;
    int64_t kernel[2];        /* (h, w); required */
    int64_t stride[2];        /* 0: the kernel size */
    int64_t padding[2];       /* at most half the kernel size */
    int64_t dilation[2];      /* max only; 0: 1 */
    bool count_include_pad;   /* avg only */
} wt_pool2d_desc;
/* indices: when not NULL, receives an i32 tensor of out's shape holding, per output, the flat
 * index h * W + w of the maximum within its input plane (torch's return_indices). */
wt_tensor *wt_max_pool2d(wt_context *ctx, wt_tensor *x, const wt_pool2d_desc *desc, wt_tensor **indices);
wt_tensor *wt_avg_pool2d(wt_context *ctx, wt_tensor *x, const wt_pool2d_desc *desc);
/* ---- end of convolution and pooling ------------------------------------------------------- */

/* ---- training: optimizers, initialisation, checkpoints (src/tensor/optim.c, init.c,
 * checkpoint.c, digits.c) ---------------------------------------------------------------------- */
/* Optimizers as torch.optim: each step updates every parameter IN PLACE, on the GPU, one fused
 * dispatch per parameter (parameter and state together), recorded into the pending batch like
 * any op (nothing is read back).  Parameters are leaves: contiguous f32 tensors the optimizer
 * writes through (a view of the same storage sees the new values; a tensor made from a parameter
 * before the step keeps the old values: it was recorded before).  State (momentum buffers, Adam's
 * moments) is made on a parameter's first step.  A step checks every parameter and gradient
 * first (dtype, shape, missing gradient, contiguity) and records nothing when one is wrong: the
 * error names the parameter (group and index) and the shapes.
 *   SGD:   d = g + wd p; buf = d (first step) else momentum buf + (1 - dampening) d;
 *          d = d + momentum buf (nesterov) or buf; p -= lr d
 *   Adam:  g += wd p; m = lerp(m, g, 1 - beta1); v = beta2 v + (1 - beta2) g^2; vmax = max(vmax, v);
 *          p -= lr / (1 - beta1^t) m / (sqrt(v or vmax) / sqrt(1 - beta2^t) + eps)
 *   AdamW: p *= 1 - lr wd, then Adam without the wd term.
 * t counts each parameter's own steps (torch's state['step']). */
typedef enum wt_optimizer_kind {
    WT_OPTIM_SGD = 0,
    WT_OPTIM_ADAM,
    WT_OPTIM_ADAMW,
    WT_OPTIM_KIND_COUNT
} wt_optimizer_kind;
/* Hyperparameters of one parameter group.  Zero is the default where it says so; weight_decay is
 * taken as given (0: none, also for AdamW, whose torch default is 0.01). */
typedef struct wt_optim_hparams {
    double lr;                /* 0: 1e-3 */
    double momentum;          /* SGD; 0: none (no state) */
    double dampening;         /* SGD */
    bool nesterov;            /* SGD: needs momentum > 0 and dampening 0 */
    double weight_decay;
    double beta1, beta2;      /* Adam(W); 0: 0.9, 0.999 */
    double eps;               /* Adam(W); 0: 1e-8 */
    bool amsgrad;             /* Adam(W) */
    bool maximize;            /* ascend instead of descend */
} wt_optim_hparams;
typedef struct wt_param_group {
    wt_tensor *const *params; /* count parameters (retained by the optimizer) */
    int count;
    wt_optim_hparams h;
} wt_param_group;
typedef struct wt_optimizer_desc {
    const char *label;
    wt_optimizer_kind kind;
    const wt_param_group *groups;
    int group_count;
} wt_optimizer_desc;
typedef struct wt_optimizer wt_optimizer;
/* NULL with the context's error set for a bad hyperparameter (the field named), a parameter that
 * is not a contiguous f32 leaf (wt_is_leaf: not the result of a recorded op) or appears twice. */
wt_optimizer *wt_optimizer_create(wt_context *ctx, const wt_optimizer_desc *desc);
void wt_optimizer_destroy(wt_optimizer *opt);      /* NULL is fine; releases its references */
/* One step.  grads[i] is the gradient of the i-th parameter in group order (group 0's first);
 * n must be the optimizer's parameter count; each gradient f32 with its parameter's shape (any
 * layout: a view is copied contiguous first).  A NULL gradient is an error (WT_STATUS_NULL_TENSOR). */
wt_status wt_optimizer_step(wt_optimizer *opt, wt_tensor *const *grads, int n);
/* With autograd: one step with each parameter's accumulated gradient (wt_grad); a parameter
 * without one is left out, as torch.optim does (its values, state and step count stay).  Steps
 * run with grad mode off; call it after wt_backward (the graph must not need the old values). */
wt_status wt_optimizer_step_grads(wt_optimizer *opt);
void wt_optimizer_zero_grad(wt_optimizer *opt);          /* wt_zero_grad of every parameter */
/* wt_clip_grad_norm over the gradients the parameters have (an error when none has one). */
wt_tensor *wt_optimizer_clip_grad_norm(wt_optimizer *opt, double max_norm, double norm_type);
int wt_optimizer_param_count(const wt_optimizer *opt);
wt_tensor *wt_optimizer_param(const wt_optimizer *opt, int i);   /* borrowed; NULL out of range */
int64_t wt_optimizer_steps(const wt_optimizer *opt);   /* completed steps (either call) */
/* The group's learning rate (schedules set it before each step); an error out of range or <= 0. */
wt_status wt_optimizer_set_lr(wt_optimizer *opt, int group, double lr);
double wt_optimizer_get_lr(const wt_optimizer *opt, int group);   /* 0 out of range */
/* State tensor `which` of parameter i (a view of the optimizer's own: a new reference, the
 * parameter's shape), NULL before its first step or with no such state: "momentum_buffer" (SGD),
 * "exp_avg", "exp_avg_sq", "max_exp_avg_sq" (Adam). */
wt_tensor *wt_optimizer_state(wt_optimizer *opt, int i, const char *which);

/* torch.nn.utils.clip_grad_norm_: total = the norm_type norm of the per-gradient norms (inf: the
 * largest |g|); every gradient is multiplied in place by min(1, max_norm / (total + 1e-6)), on
 * the GPU, without reading anything back.  Returns total as a new 0-d f32 tensor (lazy); f32
 * gradients only. */
wt_tensor *wt_clip_grad_norm(wt_context *ctx, wt_tensor *const *grads, int n, double max_norm, double norm_type);

/* Learning-rate schedules: plain functions of the step (0 = the first step). */
typedef enum wt_lr_schedule_kind {
    WT_LR_CONSTANT = 0,
    WT_LR_STEP,               /* torch StepLR: base_lr gamma^floor(step / step_size) */
    WT_LR_COSINE,             /* min_lr + (base_lr - min_lr) (1 + cos(pi (step - warmup) / (total_steps -
                                 warmup))) / 2, min_lr from total_steps on */
    WT_LR_SCHEDULE_COUNT
} wt_lr_schedule_kind;
typedef struct wt_lr_schedule {
    wt_lr_schedule_kind kind;
    double base_lr;
    int64_t warmup_steps;     /* any kind: base_lr (step + 1) / warmup_steps while step < warmup_steps */
    int64_t step_size;        /* STEP; 0: 1 */
    double gamma;             /* STEP; 0: 0.1 */
    int64_t total_steps;      /* COSINE */
    double min_lr;            /* COSINE */
} wt_lr_schedule;
double wt_lr_at(const wt_lr_schedule *s, int64_t step);

/* Initialisation as torch.nn.init, from the context's generator (wt_uniform / wt_normal): same
 * seed, same calls, same numbers.  Fans of a weight [out, in, k...]: fan_in = in * prod(k),
 * fan_out = out * prod(k) (at least 2 dims; an error otherwise). */
typedef enum wt_nonlinearity {
    WT_NL_LEAKY_RELU = 0,     /* gain sqrt(2 / (1 + a^2)): kaiming's default (a = 0: relu's) */
    WT_NL_LINEAR,             /* 1 (also conv and sigmoid) */
    WT_NL_RELU,               /* sqrt(2) */
    WT_NL_TANH,               /* 5 / 3 */
    WT_NL_SIGMOID,            /* 1 */
    WT_NL_SELU,               /* 3 / 4 */
    WT_NONLINEARITY_COUNT
} wt_nonlinearity;
typedef enum wt_fan_mode {
    WT_FAN_IN = 0,
    WT_FAN_OUT,
    WT_FAN_MODE_COUNT
} wt_fan_mode;
double wt_init_gain(wt_nonlinearity nl, double a);    /* torch.nn.init.calculate_gain */
wt_status wt_init_fans(wt_context *ctx, int ndim, const int64_t *shape, int64_t *fan_in, int64_t *fan_out);
/* kaiming: std = gain(nl, a) / sqrt(fan); uniform in +-sqrt(3) std, or normal(0, std).
 * xavier: std = gain sqrt(2 / (fan_in + fan_out)) (gain 0: 1); uniform in +-sqrt(3) std, or normal. */
wt_tensor *wt_kaiming_uniform(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape, double a,
                              wt_fan_mode mode, wt_nonlinearity nl);
wt_tensor *wt_kaiming_normal(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape, double a,
                             wt_fan_mode mode, wt_nonlinearity nl);
wt_tensor *wt_xavier_uniform(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape, double gain);
wt_tensor *wt_xavier_normal(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape, double gain);
/* nn.Linear's and nn.Conv2d's default: weight (shape [out, in] or [K, C / groups, KH, KW]) by
 * kaiming_uniform with a = sqrt(5), i.e. U(-1/sqrt(fan_in), 1/sqrt(fan_in)), then, when bias is
 * not NULL, a bias [shape[0]] from the same U (zeros when fan_in is 0).  Both or neither made. */
wt_status wt_init_default(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape, wt_tensor **weight,
                          wt_tensor **bias);
/* Copies src (same dtype and shape, any layout) into dst's storage in place (dst contiguous):
 * recorded like an op, so work recorded before it reads dst's old values. */
wt_status wt_copy_into(wt_context *ctx, wt_tensor *dst, wt_tensor *src);

/* Checkpoints: safetensors files (an 8-byte little-endian header length, a JSON header of
 * {"name": {"dtype", "shape", "data_offsets"}} plus "__metadata__" strings, then the raw data in
 * header order).  Saving writes the named tensors (read back: it waits for the GPU) and, with an
 * optimizer, its state as "<name>.<state>" (wt_optimizer_state's names) for every parameter that
 * has state, and the metadata "wt.optimizer" (sgd, adam, adamw), "wt.steps", "wt.lr.<group>" and
 * "<name>.step" (each parameter's step count).  Every optimizer parameter must be one of the named
 * tensors.  Loading checks the file against the names, dtypes and shapes given (and the
 * optimizer's kind and state), refuses any difference (a missing, extra or different tensor)
 * with WT_STATUS_SHAPE naming the tensor, and then, with nothing changed before, copies every
 * tensor into place (recorded like ops) and restores the optimizer's state, steps and learning
 * rates: a run resumed from a checkpoint continues bit for bit as the saved run would have.
 * Files are written to path + ".tmp" and renamed. */
typedef struct wt_named_tensor {
    const char *name;
    wt_tensor *tensor;
} wt_named_tensor;
wt_status wt_checkpoint_save(wt_context *ctx, const char *path, const wt_named_tensor *ts, int n,
                             wt_optimizer *opt);
wt_status wt_checkpoint_load(wt_context *ctx, const char *path, const wt_named_tensor *ts, int n,
                             wt_optimizer *opt);

/* scikit-learn's digits data set (1,797 8x8 images of the digits 0-9, 64 pixel values 0..16 and
 * a label per row), read from digits.csv.gz (gzip; inflated by wt itself) or an uncompressed
 * digits.csv.  path NULL: Debian's python3-sklearn copy,
 * /usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz.  The fixed split: every
 * sixth row of the file (rows 5, 11, ..., 1793: 299 images, all writers) is held out for testing.
 * The rows come reordered: the train_count (1,498) training rows first, then the test rows, each
 * in file order.  Host arrays from the context's allocator. */
typedef struct wt_digits {
    int64_t count;            /* rows: 1797 */
    int64_t train_count;      /* rows [0, train_count) train, the rest test */
    float *pixels;            /* count x 64, row-major, 0..16 */
    int32_t *labels;          /* count, 0..9 */
} wt_digits;
wt_status wt_digits_load(wt_context *ctx, const char *path, wt_digits *out);
void wt_digits_free(wt_context *ctx, wt_digits *d);
/* ---- end of training ------------------------------------------------------------------------ */

/* ---- mixed precision: autocast and loss scaling (src/tensor/amp.c; doc/train.md) ----------- */
/* torch.autocast(dtype=float16) and torch.cuda.amp.GradScaler.  Under autocast the f16 list
 * (wt_matmul, wt_matmul_ex, wt_linear, wt_conv2d, wt_scaled_dot_product_attention) casts its
 * float inputs to f16 and runs the f16 kernels (f32 accumulation): f16 results.  While autocast
 * is on or a GradScaler of the context lives (the backward of an autocast forward), f16 products
 * and f16 attention of the DEFAULT precision run as WT_MATMUL_F16_TENSOR / WT_ATTENTION_F16_TENSOR:
 * on tensor cores where the device has cooperative matrices and the shape fits.  The f32 list (wt_softmax, wt_log_softmax,
 * wt_layer_norm, wt_rms_norm and the losses) casts its float inputs to f32: f32 results.  Other
 * ops run in the dtype they are given.  The casts are ops recorded on the tape like any other,
 * so gradients reach the f32 parameters (master weights) as f32 and the optimizers update
 * those.  A loss computed outside the region takes the dtype it is given (cast f16 logits
 * first: an f16 loss cannot carry a scaled gradient).  Call wt_backward outside the autocast
 * region, as torch advises.
 *
 *     wt_grad_scaler *sc = wt_grad_scaler_create(ctx, NULL);     // 65536, x2 per 2000, x0.5
 *     wt_dtype was = wt_set_autocast(ctx, WT_F16);
 *     wt_tensor *logits = forward(ctx, &model, x);              // f16
 *     wt_set_autocast(ctx, was);
 *     wt_tensor *l32 = wt_cast(ctx, logits, WT_F32);
 *     wt_tensor *loss = wt_cross_entropy(ctx, l32, y, NULL);
 *     wt_tensor *scaled = wt_grad_scaler_scale(sc, loss);       // loss * scale
 *     wt_backward(ctx, scaled, NULL, NULL);
 *     wt_grad_scaler_unscale(sc, opt);                          // optional: before clipping
 *     wt_optimizer_clip_grad_norm(opt, 1.0, 2);                 // (release its result)
 *     wt_grad_scaler_step(sc, opt);                             // a no-op on the GPU on inf/NaN
 *     wt_grad_scaler_update(sc);                                // the new scale, on the GPU
 *     wt_optimizer_zero_grad(opt);
 *
 * Sets autocast (WT_F16) or turns it off (WT_DTYPE_DEFAULT, 0) and returns the previous setting,
 * for scoping as wt_set_grad_enabled.  Any other dtype, or WT_F16 on a device without
 * shader-f16, is an error (WT_STATUS_DTYPE) that changes nothing. */
wt_dtype wt_set_autocast(wt_context *ctx, wt_dtype dt);
wt_dtype wt_autocast_dtype(const wt_context *ctx);     /* 0 when off */

/* Dynamic loss scaling.  The scale, the inf/NaN flag and the growth tracker live in one GPU
 * tensor: nothing is read back.  unscale multiplies every gradient the optimizer's parameters
 * have by 1 / scale in place and sets the flag when one is inf or NaN (at most once per
 * optimizer between updates; step does it when not done); step records the optimizer's step
 * with the flag bound, and each update kernel returns without writing when the flag is set, so
 * a skipped step leaves parameters and state bit for bit; the scaler counts skipped steps on the
 * GPU and the kernels take them off the step count (Adam's bias corrections, SGD's first step)
 * as torch, which never counts a skipped step (wt_optimizer_steps and checkpoints do count
 * them); update halves the scale on a flag (backoff) and resets the tracker, else grows it after
 * growth_interval clean steps, and clears the flag.  One flag serves every optimizer of the step
 * (torch keeps one per optimizer). */
typedef struct wt_grad_scaler_desc {
    const char *label;
    double init_scale;        /* 0: 65536 */
    double growth_factor;     /* 0: 2 (> 1) */
    double backoff_factor;    /* 0: 0.5 (in (0, 1)) */
    int64_t growth_interval;  /* 0: 2000 */
} wt_grad_scaler_desc;
typedef struct wt_grad_scaler wt_grad_scaler;
wt_grad_scaler *wt_grad_scaler_create(wt_context *ctx, const wt_grad_scaler_desc *desc);
void wt_grad_scaler_destroy(wt_grad_scaler *s);       /* NULL is fine */
/* loss (f32 or f16, any shape) cast to f32 and multiplied by the scale: recorded on the tape. */
wt_tensor *wt_grad_scaler_scale(wt_grad_scaler *s, wt_tensor *loss);
wt_status wt_grad_scaler_unscale(wt_grad_scaler *s, wt_optimizer *opt);
wt_status wt_grad_scaler_step(wt_grad_scaler *s, wt_optimizer *opt);
wt_status wt_grad_scaler_update(wt_grad_scaler *s);
/* 0-d f32 views of the state (new references, lazy): the scale, and the flag (1 after an unscale
 * that met inf or NaN, until the update). */
wt_tensor *wt_grad_scaler_get_scale(wt_grad_scaler *s);
wt_tensor *wt_grad_scaler_found_inf(wt_grad_scaler *s);
/* ---- end of mixed precision --------------------------------------------------------------- */

#ifdef __cplusplus
}
#endif
#endif
