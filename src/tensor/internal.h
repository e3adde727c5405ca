/* internal.h - the wt layer's private structures, shared by its files:
 *
 *   context.c  context creation and destruction, the host allocator hook
 *   errors.c   the error state (status + message)
 *   policy.c   the policy (wt_policy) and its WGC_* mapping for programs
 *   catalogue.h  the kernel catalogue: one row per kernel file
 *   pool.c     GPU buffer pool (size classes, retire-after-completion, trim, out-of-memory)
 *   kernel.c   kernel cache (WGSL file + specialisation key -> pipeline), bind group cache
 *   batch.c    the pending batch: recording dispatches, flush, wait
 *   tensor.c   tensor objects, storages, views, readback
 *   create.c   creation ops (fill, arange, eye, host upload, rand)
 *   ops.c      the op table, type rules and the elementwise ops
 *   npy.c      .npy load and save
 *
 * A storage is a pool buffer plus a refcount; tensors are (storage, dtype, shape, strides,
 * offset) and views share the storage.  A recorded dispatch holds a reference to every storage
 * it touches, so temporaries live exactly as long as the batch needs them; when a storage's last
 * reference goes its buffer enters the pool's retiring list tagged with the context's submit
 * count and becomes reusable once the GPU has finished that submit.  Tensor, storage and
 * dispatch records come from free lists, so the steady state does no host allocation per op. */
#ifndef WT_INTERNAL_H
#define WT_INTERNAL_H

#include <stdarg.h>

#include "wgc/tensor.h"

#define WT_WG_SIZE 256u           /* workgroup size of every elementwise kernel */
#define WT_PARAMS_SIZE 192u       /* sizeof(Params) in kernels/common.wgsl */
#define WT_POOL_CLASSES 320       /* size classes: 8 per power of two from 256 B */
#define WT_BG_CACHE 4096u         /* bind group cache slots at first (a power of two), */
#define WT_BG_CACHE_MAX 32768u    /* doubling up to this many when 3/4 full (kernel.c) */
#define WT_KERNEL_CACHE 4096u     /* kernel cache slots (a power of two) */
#define WT_WGM_VERDICTS 32u       /* matmul.c: matmul_wgm verdicts kept (the oldest goes first) */
#define WT_MAX_IN 3               /* inputs of a dispatch */
#define WT_TUNE_BUDGET_MS 10000u  /* autotune.c: a lazy op's tuning of a class stops timing new
                                   * candidates after this (wt_policy.tune_budget_ms 0) */
#define WT_BATCH_BYTES (1ull << 30)   /* flush once the pool handed out this much for a batch */
#define WT_CHAIN 7                /* ops fused after a kernel's own (wt_kkey.chain; chain.wgsl applies
                                   * LINK1 .. LINK7) */
#define WT_UNARY_F_CLAMP 18u      /* unary_f.wgsl's clamp: bounds in Params, never fused after another op */
#define WT_FLASH_MAX_KEYS (65535 * 32)  /* attention.c: flash kernels loop over keys in blocks of 32 or 64,
                                   * at most 65,535 blocks (lavapipe stops longer loops); longer key
                                   * sequences take the plain path */
#define WT_TIMING_PAIRS 2048u     /* timed batches between two harvests of their timestamps */

/* Kernel files: one row each in the catalogue (catalogue.h), which kernel.c builds from. */
#include "tensor/catalogue.h"

typedef enum wt_kfile {
#define X(name, nin, entry, s1, s2, needs, unclamped, when) WT_K_##name,
    WT_KERNEL_CATALOGUE(X)
#undef X
    WT_K_COUNT
} wt_kfile;

/* Addressing mode of one input (see common.wgsl). */
enum { WT_MODE_STRIDED = 0, WT_MODE_CONTIG = 1, WT_MODE_ONE = 2, WT_MODE_PARAM = 3 };

/* The specialisation key of a kernel: file, op code, storage dtypes, compute dtype, modes. */
typedef struct wt_kkey {
    uint8_t file, op, out, compute;
    uint8_t in[WT_MAX_IN];
    uint8_t mode[WT_MAX_IN];
    uint8_t v4;                   /* map kernels: the vec4 entry point (P.n counts vec4s) */
    uint8_t nchain;               /* unary_f: ops chain[0 .. nchain) applied after OP (batch.c fuses) */
    uint8_t chain[WT_CHAIN];
    uint8_t ld[16];               /* matmul_wgm: leading dimensions of A, B, out and K (4 x u32, bytes
                                   * of the host's order; keys never leave the process): kernel
                                   * constants, since NVIDIA's workgroup-matrix loads run 5-20x
                                   * slower with a stride only known at run time */
} wt_kkey;

typedef struct wt_kernel {
    wt_kkey key;
    bool used;
    uint8_t nin;
    uint8_t per;                  /* work items per invocation (vec4 map kernels: VPT), else 1 */
    uint8_t writes;               /* storage bindings written: 1 (the output), 2 (NEEDS_W2: binding 1 too) */
    wg_compute_pipeline *pipe;
    uint64_t calls, gpu_ns;       /* profile (wt_context_set_profiling) */
} wt_kernel;

typedef struct wt_storage {
    wt_context *ctx;
    uint32_t refs;
    uint32_t cls;                 /* pool size class */
    wg_buffer *buf;               /* NULL for zero bytes */
    uint64_t bytes;               /* requested size */
    struct wt_storage *next_free;
} wt_storage;

struct wt_tensor {
    wt_context *ctx;
    uint32_t refs;
    wt_dtype dtype;
    int ndim;
    int64_t shape[WT_MAX_DIMS];
    int64_t strides[WT_MAX_DIMS];
    int64_t offset;
    int64_t numel;
    wt_storage *st;
    bool requires_grad;           /* autograd (grad.c): a leaf marked so, or a result with a node */
    struct wt_node *node;         /* the op that made it (grad_fn); NULL for leaves */
    wt_tensor *grad;              /* a leaf's accumulated gradient */
    wt_tensor *gpend;             /* a leaf's gradient within one wt_backward */
    wt_tensor *next;              /* free list / live list */
    wt_tensor *prev;
};

typedef struct wt_dispatch {
    wt_kernel *k;
    uint32_t param_off;
    uint32_t gx, gy;
    uint8_t nres, nbuf, nmid;
    wt_storage *res[WT_MAX_IN + 1];   /* write set [0], read set [1..]: one reference each */
    wt_storage *mid[WT_CHAIN];        /* fused: the intermediates [0, nmid), one reference each, dropped
                                       * with the dispatch in op order (so the pool hands the same
                                       * buffers out in the same order next time: same bind groups) */
    wg_buffer *buf[WT_MAX_IN + 1];    /* group 0's bindings [0, nbuf): output, inputs (ctx->dummy for one
                                       * read from Params); no references: res[] or the context hold
                                       * them.  The bind group is fetched at flush, after fusion */
} wt_dispatch;

typedef struct wt_bgslot {
    wg_buffer *buf[WT_MAX_IN + 1];
    uint8_t nbuf;
    uint8_t writes;               /* the layout: wt_kernel.writes */
    wg_bind_group *bg;
} wt_bgslot;

typedef struct wt_retiring {
    wg_buffer *buf;
    uint32_t cls;
    uint64_t tag;                 /* submit count when it was released */
} wt_retiring;

typedef struct wt_paramsbuf {     /* per-batch uniform buffer for the Params blocks */
    wg_buffer *buf;
    wg_bind_group *bg;
    uint64_t size;
    uint64_t tag;                 /* submit that last used it */
} wt_paramsbuf;

struct wt_context {
    wg_device *dev;
    wg_queue *q;
    bool destroyed;               /* wt_context_destroy ran; tensors still held keep this shell alive */
    wg_allocator al;
    char label[64];
    uint32_t max_batch, early_ops;
    uint32_t ramp;                /* after an early flush: the next chunk's size (doubling); 0 at a wait */
    bool ramp_on;                 /* policy.batch_ramp */
    bool eager, f16, early;       /* early: max_batch_ops defaulted, start an idle GPU after early_ops
                                   * (16) ops */
    uint64_t memory_limit;
    uint64_t batch_flush_bytes;   /* flush once the pool handed out this much: policy.batch_bytes, else
                                   * max(WT_BATCH_BYTES, heap / 16) */
    uint32_t ew_vpt;              /* policy.ew_vec4_per_thread (1, 2 or 4): vec4s per invocation of every
                                   * vec4 map kernel; 0: 2 for one input (map1v4), 1 for two (map2v4) */
    wt_policy pol;                /* the validated policy (policy.c); its strings point to the buffers: */
    char pol_cache_dir[512], pol_matmul_kernel[32], pol_fault_tune[32], pol_attention_kernel[32];
    uint32_t uniform_align, params_stride;
    uint64_t max_binding;

    wt_status status;
    char message[512];

    /* pool */
    wg_buffer **free_list[WT_POOL_CLASSES];   /* FIFO per class: [free_head, free_end) */
    uint32_t free_head[WT_POOL_CLASSES], free_end[WT_POOL_CLASSES], free_cap[WT_POOL_CLASSES];
    wt_retiring *retiring;
    uint32_t retiring_count, retiring_cap;
    uint64_t submits, completed;  /* my submits so far; all up to `completed` are done */
    uint64_t batch_bytes;         /* bytes the pool handed out since the last flush */
    uint64_t pool_live_peak;      /* pool.c: the most bytes found live when the pool reclaimed */

    /* kernels and bind groups */
    wg_bind_group_layout *bgl[WT_MAX_IN + 1], *params_bgl;
    wg_bind_group_layout *bgl_w2[WT_MAX_IN + 1];   /* bindings 0 and 1 read_write ([1 ..] used) */
    wg_buffer *dummy;             /* bound in place of an input read from Params (MODE_PARAM) */
    wg_pipeline_layout *pl[WT_MAX_IN + 1], *pl_w2[WT_MAX_IN + 1];
    wt_kernel *kernels;           /* WT_KERNEL_CACHE slots */
    uint32_t kernel_count;
    wt_bgslot *bgs;               /* bg_cap slots: WT_BG_CACHE .. WT_BG_CACHE_MAX */
    uint32_t bg_count, bg_cap;

    /* batch */
    wt_dispatch *batch;
    uint32_t batch_count, batch_cap;
    uint8_t *params;              /* host copy of this batch's Params blocks */
    uint32_t params_cap;
    wt_paramsbuf *pbufs;
    uint32_t pbuf_count, pbuf_cap;

    /* fusion and timing (batch.c) */
    bool no_fusion;
    bool timing;                  /* timestamps around every batch's pass: stats.gpu_ns */
    wg_query_set *tq;             /* WT_TIMING_PAIRS pairs of timestamp queries */
    uint32_t tq_used;             /* pairs [0, tq_used) written since the last harvest */
    bool profiling;               /* a pass and a pair per dispatch (wt_context_set_profiling) */
    wt_kernel **tq_kernel;        /* profiling: the kernel whose dispatch wrote each pair (NULL: a batch) */

    /* objects */
    wt_tensor *free_tensors, *live_tensors;
    wt_storage *free_storages;
    uint64_t rng_seed, rng_counter;

    /* matmul.c's guard on matmul_wgm.wgsl: per kernel key, whether it lost to matmul_coop.wgsl
     * when timed, and the device's pipelines_created count then */
    struct wt_wgm_verdict { wt_kkey key; uint64_t at; bool slow; } wgm[WT_WGM_VERDICTS];
    uint32_t wgm_count;
    bool mm_ahead;                /* inside wt_autotune_matmul: the tuner and the guard may time,
                                     whatever the policy's tune mode, with no budget */

    /* autograd (grad.c) */
    bool no_grad;                 /* wt_set_grad_enabled(false), and inside wt_backward */
    struct wt_gstate *grad;       /* node free list and backward scratch, made on first use */
    wt_dtype autocast;            /* amp.c: wt_set_autocast (0: off, WT_F16: on) */
    uint32_t amp_scalers;         /* amp.c: live GradScalers of this context */

    wt_stats stats;
};

/* context.c */
/* The context's error state (status and message), kept across work whose own errors are not the
 * caller's: an optional path that gives up quietly (matmul.c's padded copies), a timing (the
 * autotuner, the matmul_wgm guard). */
typedef struct wt_error_state {
    wt_status status;
    char message[sizeof ((wt_context *)0)->message];
} wt_error_state;
void wt_error_save(const wt_context *ctx, wt_error_state *es);
void wt_error_restore(wt_context *ctx, const wt_error_state *es);
void *wt_alloc(wt_context *ctx, size_t n);
void *wt_realloc(wt_context *ctx, void *p, size_t n);
void wt_free(wt_context *ctx, void *p);
/* Grows *arr (element size esz) so that it holds at least need elements; false on OOM. */
bool wt_grow(wt_context *ctx, void **arr, uint32_t *cap, uint32_t need, size_t esz);
/* Sets the last error: "<op>: <formatted detail>".  Returns NULL for `return wt_fail(...)`. */
void *wt_fail(wt_context *ctx, wt_status st, const char *op, const char *fmt, ...);
wt_status wt_failst(wt_context *ctx, wt_status st, const char *op, const char *fmt, ...);
/* "[2, 3]" into buf */
const char *wt_shape_str(char *buf, size_t size, int ndim, const int64_t *shape);
size_t wt_gpu_size(wt_dtype dt);

/* pool.c */
uint32_t wt_pool_class(uint64_t bytes);
uint64_t wt_pool_class_size(uint32_t cls);
wt_status wt_pool_get(wt_context *ctx, const char *op, uint64_t bytes, wg_buffer **out, uint32_t *cls);
void wt_pool_put(wt_context *ctx, wg_buffer *buf, uint32_t cls);
void wt_pool_collect(wt_context *ctx);        /* moves finished retiring buffers to the free lists */
void wt_pool_destroy(wt_context *ctx);

/* matmul.c: the matmul kernels, one row each: X(NAME, "name", kernel file, op, tile rows, tile
 * columns, K step, workgroup bytes, 16-byte loads, split-K).  The tiled kernels come first (every
 * one is a tuner candidate; TILE64U, the first, is also the tuner's reference), then matvec and the
 * tensor-core kernels.  Split-K rows run their kernel on K cut into S chunks as a batch of partial
 * products and sum them (matmul.c split_of says which S).  When each runs, and the measurement
 * behind it: doc/tensor.md's kernel table and each file's header. */
#define WT_MM_KERNELS(X)                                                           \
    X(TILE64U, "tile64x64u", matmul2, 1, 64, 64, 16, 17408, false, false)          \
    X(TILE128U, "tile128x128u", matmul2, 0, 128, 128, 8, 16896, false, false)      \
    X(TILE128X64W, "tile128x64w", matmul2, 6, 128, 64, 8, 12800, false, false)     \
    X(TILE64V4W, "tile64x64v4w", matmul3, 5, 64, 64, 16, 17408, true, false)       \
    X(TILE128V4W, "tile128x128v4w", matmul3, 4, 128, 128, 8, 16896, true, false)   \
    X(TILE128V4S, "tile128x128v4s", matmul4, 0, 128, 128, 8, 16384, true, false)   \
    X(TILE128X64V4S, "tile128x64v4s", matmul4, 8, 128, 64, 8, 12288, true, false)  \
    X(TILE128V4SK, "tile128x128v4s_sk", matmul4, 0, 128, 128, 8, 16384, true, true) \
    X(TILE128X64V4SK, "tile128x64v4s_sk", matmul4, 8, 128, 64, 8, 12288, true, true) \
    X(MATVEC, "matvec", matvec, 0, 0, 0, 0, 0, false, false)                       \
    X(COOP, "coop128x128", matmul_coop, 0, 128, 128, 32, 0, false, false)          \
    X(COOP_SB1, "coop128x128s", matmul_coop, 1, 128, 128, 32, 0, false, false)     \
    X(WGM, "wgm128x256", matmul_wgm, 0, 128, 256, 64, 0, false, false)

typedef enum wt_mm_kernel {
    WT_MM_AUTO = 0,           /* the policy's matmul_kernel, else chosen by shape */
#define X(name, str, file, op, tm, tn, bk, smem, v4, sk) WT_MM_##name,
    WT_MM_KERNELS(X)
#undef X
    WT_MM_KERNEL_COUNT
} wt_mm_kernel;
#define WT_MM_TILED(k) ((k) > WT_MM_AUTO && (k) < WT_MM_MATVEC)   /* the tuner's candidates */

const char *wt_mm_kernel_name(wt_mm_kernel k);          /* "tile64x64u"; "auto"; "?" out of range */
wt_mm_kernel wt_mm_kernel_by_name(const char *name);    /* WT_MM_AUTO when unknown */
/* wt_matmul_ex with the kernel given (AUTO: as wt_matmul_ex); an error when it cannot run the
 * product (the tuner, conv.c's Winograd GEMMs). */
wt_tensor *wt_matmul_kernel_ex(wt_context *ctx, wt_tensor *a, wt_tensor *b, wt_tensor *bias, wt_mm_kernel kernel);

/* autotune.c: the tuner's choice for operands in a layout (WT_MM_LAYOUT_* bits; 0: row-major);
 * tunes a class without a choice where wt_mm_may_time says so and the product is large enough */
#define WT_MM_LAYOUT_B_KCONTIG 1u    /* B k-contiguous (b_ks == 1 != b_ns: linear's W^T) */
#define WT_MM_LAYOUT_A_COLS 2u       /* A m-contiguous (a_ms == 1 != a_ks: a transposed view) */
#define WT_MM_LAYOUT_RAGGED 4u       /* the 16-byte kernels cannot run it (matmul.c v4_ok) */
wt_mm_kernel wt_autotune_layout(wt_context *ctx, int64_t M, int64_t N, int64_t K, int64_t batch, wt_dtype dt,
                                unsigned layout, wt_mm_kernel first);   /* first: the heuristic's kernel */
/* May a matmul time kernels now (the tuner, the matmul_wgm guard)?  Inside wt_autotune_matmul,
 * or in a lazy op when the policy's tune is FIRST_USE (the default). */
bool wt_mm_may_time(const wt_context *ctx);
/* Seconds per product made by fn(ctx, arg) (a new tensor whose dispatches, at most 4, it recorded last): GPU
 * timestamps around a pass of repeated copies of that dispatch where the device has the feature
 * (not eager), else the host clock around repeated products; best of three after one look that
 * sizes the repetitions (>= 1 ms, >= 2 ms by the host clock).  Flushes the caller's pending work
 * and waits; negative on failure (the error stays set).  *gpu_timer: which clock timed it. */
typedef wt_tensor *(*wt_product_fn)(wt_context *ctx, void *arg);
double wt_time_product(wt_context *ctx, wt_product_fn fn, void *arg, bool *gpu_timer);
/* Runs fn's products back to back for `seconds` of host time (at least one), waiting on each
 * batch: after the GPU sat idle its clocks stay low for the first 0.2-0.3 s of work (H200), so
 * timings come after this.  False when a product failed. */
bool wt_warm_up(wt_context *ctx, wt_product_fn fn, void *arg, double seconds);

/* kernel.c */
wt_status wt_kernels_init(wt_context *ctx);
/* A kernel key: file, op code, output, first two input and compute dtypes; everything else zero. */
wt_kkey wt_key(wt_kfile file, uint32_t op, wt_dtype out, wt_dtype in0, wt_dtype in1, wt_dtype compute);
void wt_kernels_destroy(wt_context *ctx);
wt_kernel *wt_kernel_get(wt_context *ctx, const char *op, const wt_kkey *key);
/* The kernel's full WGSL (prelude + common.wgsl + file + shared code + entry point) through wgc's
 * compiler, as wt_kernel_get builds it (per: work items per invocation); NULL with the error set
 * (status, "<file>.wgsl (op N): <diagnostic>").  Tests compile every kernel file through it. */
struct wgsl_result *wt_kernel_compile(wt_context *ctx, const char *op, const wt_kkey *key, uint32_t per);
/* The cached bind group of group 0 for bufs[0 .. n) in k's layout (borrowed: valid until the cache is cleared, so
 * a caller that keeps it retains it or sets it on a pass first, which holds it); NULL with the
 * error set (WT_STATUS_GPU, or WT_STATUS_HOST_OUT_OF_MEMORY). */
wg_bind_group *wt_bind_group_get(wt_context *ctx, const char *op, const wt_kernel *k, uint32_t n,
                                 wg_buffer *const *bufs);
/* The file's kernels have a vec4 variant (wt_kkey.v4): the elementwise "map" families. */
bool wt_kernel_vec4_ok(uint32_t file);
const char *wt_kernel_when(uint32_t file);   /* the catalogue's "when" column; NULL out of range */
void wt_bind_groups_clear(wt_context *ctx);

/* amp.c: autocast at an op's entry.  Under wt_set_autocast(ctx, WT_F16), the f16 list (matmul,
 * linear, conv2d, attention) takes every float input as f16 and the f32 list (softmax,
 * log_softmax, layer_norm, rms_norm) as f32: out[0 .. n) then holds new references (casts
 * recorded on the tape, or the input itself retained; NULL stays NULL) and the call returns
 * true, the op calls itself again on them and hands its result to wt__autocast_done, which
 * releases them.  false (autocast off, or nothing to cast): the op goes on with its inputs. */
typedef enum { WT__AMP_F16 = 0, WT__AMP_F32 = 1 } wt__amp_list;
bool wt__autocast(wt_context *ctx, wt__amp_list list, int n, wt_tensor *const *in, wt_tensor **out);
wt_tensor *wt__autocast_done(int n, wt_tensor **held, wt_tensor *result);
/* Mixed precision's products: true while autocast is on or a GradScaler of ctx lives (the
 * backward of an autocast forward); then f16 x f16 products and f16 attention in the DEFAULT
 * precision take the tensor-core kernels where the device and the shape allow
 * (WT_MATMUL_F16_TENSOR, WT_ATTENTION_F16_TENSOR). */
bool wt__amp_tensor_cores(const wt_context *ctx);

/* batch.c: one dispatch of k over p->n elements (p->gx is filled here); in[i] NULL binds the
 * dummy buffer (an input taken from the Params block). */
typedef struct wt_params {
    uint32_t n, ndim, gx, pad0;
    uint32_t off[4];
    uint32_t sv[4];
    uint32_t aux[4];
    uint32_t shape[8];
    int32_t st[3][8];
} wt_params;
_Static_assert(sizeof(wt_params) == WT_PARAMS_SIZE, "wt_params matches common.wgsl's Params");
wt_status wt_record(wt_context *ctx, const char *op, wt_kernel *k, wt_params *p, wt_storage *out,
                    uint32_t nin, wt_storage *const *in);
/* wt_kernel_get(key) then wt_record: the context's status when the kernel cannot be built. */
wt_status wt_record_key(wt_context *ctx, const char *op, const wt_kkey *key, wt_params *p, wt_storage *out,
                        uint32_t nin, wt_storage *const *in);
wt_status wt_batch_flush(wt_context *ctx, const char *op);
/* policy.c: validates *p (NULL: defaults) and makes it the context's (strings copied); on an
 * invalid field sets the error and changes nothing */
wt_status wt_policy_apply(wt_context *ctx, const char *op, const wt_policy *p);
/* matmul.c: is name one of the matmul kernels (wt_policy.matmul_kernel)? */
bool wt_matmul_kernel_known(const char *name);
bool wt_attention_kernel_known(const char *name);   /* attention.c */
/* quant.c: qmatvec's row group forced to 2^log2_lanes lanes (3..8) and 2^log2_rows rows (0..2),
 * for test_quant's tests and --bench sweeps; out-of-range values restore quant.c's own choice */
void wt__qmatvec_tune(int log2_lanes, int log2_rows);
wt_status wt_batch_wait(wt_context *ctx, const char *op);
void wt_batch_destroy(wt_context *ctx);

/* tensor.c */
wt_storage *wt_storage_new(wt_context *ctx, const char *op, uint64_t bytes);
void wt_storage_ref(wt_storage *st);
void wt_storage_unref(wt_storage *st);
wt_tensor *wt_tensor_new(wt_context *ctx, const char *op, wt_dtype dt, int ndim, const int64_t *shape);
wt_tensor *wt_tensor_view(wt_context *ctx, const char *op, wt_tensor *base, int ndim, const int64_t *shape,
                          const int64_t *strides, int64_t offset);
void wt_tensors_destroy(wt_context *ctx);
bool wt_check_shape(wt_context *ctx, const char *op, int ndim, const int64_t *shape, int64_t *numel);
bool wt_check_tensor(wt_context *ctx, const char *op, const wt_tensor *t);
bool wt_valid_dtype(wt_context *ctx, const char *op, wt_dtype dt);

/* ops.c: out = kernel(inputs) elementwise over out's shape with broadcasting of the inputs. */
wt_status wt_elementwise(wt_context *ctx, const char *op, wt_kfile file, uint32_t code, wt_dtype compute,
                         wt_tensor *out, uint32_t nin, wt_tensor *const *in, const uint32_t sv[4],
                         const uint32_t aux[4]);
bool wt_is_float(wt_dtype dt);
uint32_t wt_scalar_bits(wt_dtype compute, double v);
wt_dtype wt_compute_dtype(wt_dtype dt);

/* attention_coop.c: WT_ATTENTION_F16_TENSOR (flash_coop.wgsl) and F32_TENSOR (flash_x3.wgsl) for operands that
 * plan() accepted */
bool wt_attention_coop_ok(wt_context *ctx, const wt_tensor *q, const wt_tensor *k, const wt_tensor *v,
                          const wt_attention_desc *d);
wt_tensor *wt_attention_coop(wt_context *ctx, const char *op, wt_tensor *q, wt_tensor *k, wt_tensor *v,
                             const wt_attention_desc *d);
/* nn.c: softmax along dim with OP flags (1 log_softmax, 2 rows of -inf give zeros: attention) */
wt_tensor *wt_softmax_flags(wt_context *ctx, const char *op, wt_tensor *x, int dim, uint32_t flags);

/* movement.c: the contiguous copy of a view whose last two dims are swapped, through 32x32
 * tiles; *out NULL (and WT_OK) when t is not such a view (then copy it another way). */
wt_status wt_transpose_copy(wt_context *ctx, const char *op, wt_tensor *t, wt_tensor **out);

/* autograd: the tape (grad.c), the rules (derivatives.c) */
#include "tensor/grad.h"

#endif
