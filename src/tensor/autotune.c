/* autotune.c - the matmul autotuner: which tiled kernel is fastest for a shape class on this
 * device.
 *
 * A shape class is (dtype, the operands' layout, and for each of M, N, K and batch the bucket
 * ceil(log2(x)), M/N/K buckets below 6 merged, batch buckets above 0 merged).  The layout
 * (WT_MM_LAYOUT_*: B k-contiguous as linear's W^T, A m-contiguous) selects other variants of the
 * same kernels (their loads), so a choice is never reused across layouts; tuning builds its
 * operands in the class's layout (transposed views of fresh tensors).  RAGGED marks products the
 * 16-byte kernels cannot run (K or N not a multiple of 4, unaligned rows): a choice made among
 * the other kernels is never served to an aligned product of the same buckets.
 *
 * Tuning a class: every tiled kernel the device can run is first checked on a small random
 * ragged problem (67 x 44 . 44 x 72, 68 rows for m-contiguous A: partial tiles in M, N and K,
 * quad-aligned so that the 16-byte kernels qualify) and on a tile-exact one (128 x 64 . 64 x 256)
 * against tile64x64u, the reference; one that fails to build or differs by more than 1e-4 of the
 * largest output is never chosen.  The survivors are timed on a problem of the class itself
 * (dims capped at 4096, a batch of at most 2^24 outputs) by wt_time_product (GPU timestamps where
 * the device has them, else the host clock), after 0.3 s of products that bring the GPU's clocks
 * up (H200: after about 1.5 s idle the first 0.2-0.3 s of work run 4-6x slower).  Candidates
 * within 2x of the fastest are timed twice more and keep their best time (one slow measurement
 * once sent sgemm 1024^3 to a kernel half as fast); the fastest wins.
 *
 * When: wt_policy.tune (wt_mm_may_time).  FIRST_USE: the first lazy product of a class with
 * 2 M N K batch >= tune_min_flop (default 2^28) tunes, checking and timing no new candidate once
 * tune_budget_ms (default WT_TUNE_BUDGET_MS, 10 s) has passed; a choice cut short that way is kept for the process
 * only (tune_entry.partial).  wt_autotune_matmul tunes with no budget (and completes a partial
 * choice).  Tuning submits the caller's pending work and waits; the caller's error state and
 * random stream are left as they were.  Choices live in a process-wide table (a mutex guards it;
 * contexts on other threads may share it) keyed by the device UUID, and are appended to
 * <cache_dir>/tune-v4-<uuid>.txt (wt_policy.cache_dir, else the device's pipeline cache
 * directory; TUNE_VERSION), one line per class: "<class> <kernel> timer=gpu|wall <kernel>=<us>...",
 * read back once per file; lines naming an unknown kernel are skipped. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "tensor/internal.h"

#define TUNE_MAX 256
/* In the cache file's name: bump it when a kernel is added or its code changes its speed, or the
 * timing changes, so that choices made among the old ones, or the old way, are made again. */
#define TUNE_VERSION "v4"

typedef struct tune_entry {
    uint8_t uuid[16];
    uint32_t cls;
    wt_mm_kernel kernel;
    bool partial;                 /* a budget left candidates out: not in the file, tuned again ahead */
} tune_entry;

static pthread_mutex_t tune_lock = PTHREAD_MUTEX_INITIALIZER;
static tune_entry tune_table[TUNE_MAX];
static int tune_count;
static char loaded_paths[8][1024];     /* cache files read into the table */
static int loaded_count;

static uint32_t bucket(int64_t x) {
    uint32_t b = 0;
    while (b < 31 && ((int64_t)1 << b) < x)
        b++;
    return b;
}

/* layout << 28 | dtype << 24 | M bucket << 16 | N bucket << 8 | K bucket << 1 | batch > 1 */
static uint32_t shape_class(int64_t M, int64_t N, int64_t K, int64_t batch, wt_dtype dt, unsigned layout) {
    uint32_t bm = bucket(M), bn = bucket(N), bk = bucket(K), bb = batch > 1 ? 1u : 0u;
    bm = bm < 6 ? 6 : bm;
    bn = bn < 6 ? 6 : bn;
    bk = bk < 6 ? 6 : bk;
    return (layout & 7u) << 28 | (uint32_t)dt << 24 | bm << 16 | bn << 8 | bk << 1 | bb;
}

static void class_name(uint32_t cls, char *buf, size_t n) {
    snprintf(buf, n, "%s:m%u:n%u:k%u:b%u:l%u", wt_dtype_name((wt_dtype)((cls >> 24) & 15)), (cls >> 16) & 255,
             (cls >> 8) & 255, (cls >> 1) & 127, cls & 1, cls >> 28);
}

/* The cache file of a device: <cache_dir>/tune-... with the policy's cache_dir ("": none), else
 * the directory of the device's pipeline cache file (wg_device_pipeline_cache_path; none: none). */
static bool cache_path(wt_context *ctx, const uint8_t *uuid, char *buf, size_t n, char *dir, size_t dn) {
    if (ctx->pol.cache_dir) {
        if (!*ctx->pol.cache_dir)
            return false;
        snprintf(dir, dn, "%s", ctx->pol.cache_dir);
    } else {       /* the directory of the device's pipeline cache file */
        const char *pc = wg_device_pipeline_cache_path(ctx->dev), *slash = strrchr(pc, '/');
        if (!slash || (size_t)(slash - pc) >= dn)
            return false;
        snprintf(dir, dn, "%.*s", (int)(slash - pc), pc);
    }
    int w = snprintf(buf, n, "%s/tune-" TUNE_VERSION "-", dir);
    for (int i = 0; i < 16 && w > 0 && (size_t)w + 3 < n; i++)
        w += snprintf(buf + w, n - (size_t)w, "%02x", uuid[i]);
    return w > 0 && (size_t)w + 5 < n && snprintf(buf + w, n - (size_t)w, ".txt") == 4;
}

/* The entry for the class (the latest wins), or NULL. */
static tune_entry *find(const uint8_t *uuid, uint32_t cls) {
    for (int i = tune_count - 1; i >= 0; i--)
        if (tune_table[i].cls == cls && !memcmp(tune_table[i].uuid, uuid, 16))
            return &tune_table[i];
    return NULL;
}

/* k: a kernel, or WT_MM_KERNEL_COUNT for "tuned, nothing chosen". */
static void add(const uint8_t *uuid, uint32_t cls, wt_mm_kernel k, bool partial) {
    if (tune_count >= TUNE_MAX)
        memmove(tune_table, tune_table + 1, (TUNE_MAX - 1) * sizeof *tune_table), tune_count--;
    tune_entry *e = &tune_table[tune_count++];
    memcpy(e->uuid, uuid, 16);
    e->cls = cls;
    e->kernel = k;
    e->partial = partial;
}

/* Reads the device's cache file into the table, once per file (lock held). */
static void load(wt_context *ctx, const uint8_t *uuid) {
    char path[1024], dir[900];
    if (!cache_path(ctx, uuid, path, sizeof path, dir, sizeof dir))
        return;
    for (int i = 0; i < loaded_count; i++)
        if (!strcmp(loaded_paths[i], path))
            return;
    if (loaded_count < 8)
        memcpy(loaded_paths[loaded_count++], path, sizeof path);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char cname[64], kname[64], dt[16];
        unsigned m, n, k, bb, l;
        if (sscanf(line, "%63s %63s", cname, kname) != 2)
            continue;
        char *c = strchr(cname, ':');
        if (!c || (size_t)(c - cname) >= sizeof dt)
            continue;
        memcpy(dt, cname, (size_t)(c - cname));
        dt[c - cname] = 0;
        if (sscanf(c, ":m%u:n%u:k%u:b%u:l%u", &m, &n, &k, &bb, &l) != 5 || m > 31 || n > 31 || k > 31 || bb > 1 ||
            l > 7)
            continue;
        wt_dtype d = WT_DTYPE_DEFAULT;
        for (int i = 1; i < WT_DTYPE_COUNT; i++)
            if (!strcmp(dt, wt_dtype_name((wt_dtype)i)))
                d = (wt_dtype)i;
        wt_mm_kernel kk = wt_mm_kernel_by_name(kname);
        if (d != WT_DTYPE_DEFAULT && WT_MM_TILED(kk))
            add(uuid, l << 28 | (uint32_t)d << 24 | m << 16 | n << 8 | k << 1 | bb, kk, false);
    }
    fclose(f);
}

static void save(wt_context *ctx, const uint8_t *uuid, uint32_t cls, wt_mm_kernel k, const double *us, int n,
                 const char *timer) {
    char path[1024], dir[900];
    if (!cache_path(ctx, uuid, path, sizeof path, dir, sizeof dir))
        return;
    /* mkdir -p of the two levels we may need (<base>/wgc, and <home>/.cache) */
    char *slash = strrchr(dir, '/');
    if (slash) {
        *slash = 0;
        mkdir(dir, 0755);
        *slash = '/';
    }
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        return;
    FILE *f = fopen(path, "a");
    if (!f)
        return;
    char cn[64];
    class_name(cls, cn, sizeof cn);
    fprintf(f, "%s %s timer=%s", cn, wt_mm_kernel_name(k), timer);
    for (int i = 0; i < n; i++)
        if (WT_MM_TILED(i))
            fprintf(f, " %s=%.1f", wt_mm_kernel_name((wt_mm_kernel)i), us[i]);
    fputc('\n', f);
    fclose(f);
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* max |x - y| over two f32 tensors of equal size, and max |y|; false when a read fails. */
static bool compare(wt_context *ctx, wt_tensor *x, wt_tensor *y, double *diff, double *mag) {
    int64_t n = wt_numel(x);
    float *hx = wt_alloc(ctx, (size_t)n * 4 + 4), *hy = wt_alloc(ctx, (size_t)n * 4 + 4);
    wt_tensor *fx = wt_cast(ctx, x, WT_F32), *fy = wt_cast(ctx, y, WT_F32);
    bool good = hx && hy && fx && fy && wt_to_host(ctx, fx, hx, (size_t)n * 4) == WT_OK &&
                wt_to_host(ctx, fy, hy, (size_t)n * 4) == WT_OK;
    *diff = 0;
    *mag = 0;
    for (int64_t i = 0; good && i < n; i++) {
        double d = fabs((double)hx[i] - hy[i]);
        if (!(d <= *diff))
            *diff = d;     /* NaN sticks */
        if (fabs(hy[i]) > *mag)
            *mag = fabs(hy[i]);
    }
    wt_release(fx);
    wt_release(fy);
    wt_free(ctx, hx);
    wt_free(ctx, hy);
    return good;
}

/* A uniform(-1, 1) [bt, r, c] (bt > 1) or [r, c] tensor; transposed: a view of a [.., c, r]
 * tensor (column-major). */
static wt_tensor *operand(wt_context *ctx, wt_dtype dt, int64_t bt, int64_t r, int64_t c, bool transposed) {
    int64_t r0 = transposed ? c : r, c0 = transposed ? r : c;
    wt_tensor *t = bt > 1 ? wt_uniform(ctx, dt, WT_SHAPE(bt, r0, c0), -1, 1) : wt_uniform(ctx, dt, WT_SHAPE(r0, c0), -1, 1);
    if (!t || !transposed)
        return t;
    int n = wt_ndim(t);
    wt_tensor *v = wt_transpose(ctx, t, n - 2, n - 1);
    wt_release(t);
    return v;
}

static wt_tensor *mm(wt_context *ctx, wt_tensor *a, wt_tensor *b, wt_mm_kernel k) {
    return wt_matmul_kernel_ex(ctx, a, b, NULL, k);
}

/* A product on one tiled kernel (the tuner's candidates). */
typedef struct tune_arg {
    wt_tensor *a, *b;
    wt_mm_kernel k;
} tune_arg;

static wt_tensor *tune_product(wt_context *ctx, void *arg) {
    tune_arg *t = arg;
    return mm(ctx, t->a, t->b, t->k);
}

/* GPU time of one product, from timestamp queries around a compute pass of `reps` copies of
 * the dispatches fn just recorded (at most TUNE_DISPATCHES: a split-K product is its partial
 * products and their sum; each one's pipeline and Params block, taken from the pending batch
 * before it is flushed, and the bind group of its buffers, held across the flush).  Seconds, 0
 * when this path is unavailable (no timestamp-query feature, eager mode, more dispatches, or the
 * batch was flushed on the way), negative on failure. */
#define TUNE_DISPATCHES 4

static double gpu_time(wt_context *ctx, wt_product_fn fn, void *arg) {
    if (!wg_device_has_feature(ctx->dev, WG_FEATURE_TIMESTAMP_QUERY) || ctx->eager)
        return 0;
    uint32_t before = ctx->batch_count;
    wt_tensor *o = fn(ctx, arg);
    if (!o)
        return -1;
    uint32_t nd = ctx->batch_count - before;
    if (ctx->batch_count <= before || nd > TUNE_DISPATCHES) {   /* flushed on the way: time by wall clock */
        wt_release(o);
        return 0;
    }
    wt_dispatch d[TUNE_DISPATCHES];
    wt_params pr[TUNE_DISPATCHES];
    wg_bind_group *bg[TUNE_DISPATCHES] = { 0 };
    bool got = true;
    for (uint32_t i = 0; i < nd; i++) {
        d[i] = ctx->batch[before + i];
        memcpy(&pr[i], ctx->params + d[i].param_off, sizeof pr[i]);
        bg[i] = got ? wt_bind_group_get(ctx, "autotune", d[i].k, d[i].nbuf, d[i].buf) : NULL;
        got = got && bg[i];
        if (bg[i])
            wg_bind_group_retain(bg[i]);      /* the flush may clear the cache */
    }
    double best = -1;
    if (!got || wt_sync(ctx) != WT_OK) {
        for (uint32_t i = 0; i < nd; i++)
            if (bg[i])
                wg_bind_group_release(bg[i]);
        wt_release(o);
        return -1;
    }
    wg_device_push_error_scope(ctx->dev, WG_ERROR_TYPE_VALIDATION);
    wg_device_push_error_scope(ctx->dev, WG_ERROR_TYPE_OUT_OF_MEMORY);
    wg_buffer *pbuf = wg_device_create_buffer(ctx->dev, &(wg_buffer_desc){
        .label = "wt autotune params", .size = 256 * nd, .usage = WG_BUFFER_USAGE_UNIFORM | WG_BUFFER_USAGE_COPY_DST });
    wg_bind_group *pbg = pbuf ? wg_device_create_bind_group(ctx->dev, &(wg_bind_group_desc){
        .label = "wt autotune params", .layout = ctx->params_bgl, .entry_count = 1,
        .entries = &(wg_bind_group_entry){ .binding = 0, .buffer = pbuf, .offset = 0, .size = WT_PARAMS_SIZE } })
                              : NULL;
    wg_query_set *qs = wg_device_create_query_set(ctx->dev, &(wg_query_set_desc){
        .label = "wt autotune", .type = WG_QUERY_TYPE_TIMESTAMP, .count = 2 });
    if (pbuf && pbg && qs) {
        for (uint32_t i = 0; i < nd; i++)
            wg_queue_write_buffer(ctx->q, pbuf, 256 * i, &pr[i], sizeof pr[i]);
        uint32_t reps = 1;
        for (int run = 0; run < 4; run++) {      /* run 0 sizes reps for >= 1 ms, then best of 3 */
            wg_command_encoder *enc = wg_device_create_command_encoder(ctx->dev, &(wg_command_encoder_desc){ .label = "wt autotune" });
            wg_compute_pass *pass = enc ? wg_command_encoder_begin_compute_pass(enc, &(wg_compute_pass_desc){
                .label = "wt autotune", .timestamp_query_set = qs, .beginning_index = 0, .end_index = 1,
                .write_beginning = true, .write_end = true }) : NULL;
            wg_command_buffer *cb = NULL;
            if (pass) {
                for (uint32_t r = 0; r < reps; r++)
                    for (uint32_t i = 0; i < nd; i++) {
                        uint32_t off = 256 * i;
                        wg_compute_pass_set_pipeline(pass, d[i].k->pipe);
                        wg_compute_pass_set_bind_group(pass, 0, bg[i], 0, NULL);
                        wg_compute_pass_set_bind_group(pass, 1, pbg, 1, &off);
                        wg_compute_pass_dispatch_workgroups(pass, d[i].gx, d[i].gy, 1);
                    }
                wg_compute_pass_end(pass);
                wg_compute_pass_release(pass);
                cb = wg_command_encoder_finish(enc, NULL);
            }
            if (enc)
                wg_command_encoder_release(enc);
            uint64_t ns[2] = { 0, 0 };     /* submit consumes cb */
            bool good = cb && wg_queue_submit(ctx->q, 1, &cb) != 0 && wg_query_set_read_ns(qs, 0, 2, ns) == WG_STATUS_OK &&
                        ns[1] > ns[0];
            if (!good) {
                best = -1;
                break;
            }
            double t = (double)(ns[1] - ns[0]) * 1e-9 / reps;
            if (run == 0) {
                reps = t >= 1e-3 ? 1u : (uint32_t)(1e-3 / t) + 1;
                reps = reps > 64 ? 64 : reps;
            } else if (best < 0 || t < best) {
                best = t;
            }
        }
    }
    if (qs)
        wg_query_set_release(qs);
    if (pbg)
        wg_bind_group_release(pbg);
    if (pbuf)
        wg_buffer_release(pbuf);
    wg_error e1, e2;
    wg_error_id oom = wg_device_pop_error_scope(ctx->dev, &e1);
    wg_error_id val = wg_device_pop_error_scope(ctx->dev, &e2);
    for (uint32_t i = 0; i < nd; i++)
        wg_bind_group_release(bg[i]);
    wt_release(o);
    if (oom != WG_ERR_NONE || val != WG_ERR_NONE)
        return -1;
    return best;
}

/* Seconds per product of fn by the host clock, or a negative number when it failed. */
static double wall_time(wt_context *ctx, wt_product_fn fn, void *arg) {
    wt_tensor *o = fn(ctx, arg);                  /* warm-up: pipeline built, pool filled */
    if (!o || wt_sync(ctx) != WT_OK) {
        wt_release(o);
        return -1;
    }
    wt_release(o);
    double t0 = now_s();
    o = fn(ctx, arg);
    if (!o || wt_sync(ctx) != WT_OK) {
        wt_release(o);
        return -1;
    }
    wt_release(o);
    double one = now_s() - t0;
    int reps = one > 2e-3 ? 1 : (int)(2e-3 / (one > 1e-6 ? one : 1e-6)) + 1;
    if (reps > 64)
        reps = 64;
    double best = INFINITY;
    for (int r = 0; r < 3; r++) {
        t0 = now_s();
        for (int i = 0; i < reps; i++) {
            o = fn(ctx, arg);
            if (!o)
                return -1;
            wt_release(o);
        }
        if (wt_sync(ctx) != WT_OK)
            return -1;
        double t = (now_s() - t0) / reps;
        if (t < best)
            best = t;
    }
    return best;
}

double wt_time_product(wt_context *ctx, wt_product_fn fn, void *arg, bool *gpu_timer) {
    double t = gpu_time(ctx, fn, arg);
    *gpu_timer = t != 0;
    return t != 0 ? t : wall_time(ctx, fn, arg);
}

bool wt_warm_up(wt_context *ctx, wt_product_fn fn, void *arg, double seconds) {
    double w0 = now_s();
    do {
        wt_tensor *o = fn(ctx, arg);
        wt_release(o);
        if (!o || wt_sync(ctx) != WT_OK)
            return false;
    } while (now_s() - w0 < seconds);
    return true;
}

/* The fastest tiled kernel for the class of (M, N, K, batch, dt, layout) on this device, or
 * WT_MM_AUTO; us[k]: the kernels' times (-1: not timed).  Candidates are checked and timed with
 * `first` (the heuristic's kernel for the shape) leading, so that past `deadline` (now_s() time),
 * where no further candidate is checked or timed once one has been (*cut is then set), the choice
 * is never one the heuristic would beat. */
static wt_mm_kernel tune(wt_context *ctx, int64_t M, int64_t N, int64_t K, int64_t batch, wt_dtype dt,
                         unsigned layout, wt_mm_kernel first, double deadline, double *us, const char **timer,
                         bool *cut) {
    bool at = layout & WT_MM_LAYOUT_A_COLS, bt_ = layout & WT_MM_LAYOUT_B_KCONTIG;
    *timer = "gpu";
    int nk = WT_MM_KERNEL_COUNT;          /* us[] and ok[] are indexed by kernel */
    bool ok[WT_MM_KERNEL_COUNT];
    int order[WT_MM_KERNEL_COUNT], no = 0;  /* the candidates, `first` leading */
    if (WT_MM_TILED(first))
        order[no++] = first;
    for (int i = 0; i < nk; i++) {
        us[i] = -1;
        ok[i] = false;
        if (WT_MM_TILED(i) && i != (int)first)
            order[no++] = i;
    }
    /* 1. correctness against tile64x64u on a small ragged problem and on a tile-exact one (128 x 64 .
     * 64 x 256: matmul4.wgsl's EXACT specialisation), in the class's layout (A m-contiguous: 68
     * rows, as the 16-byte kernels need M % 4 == 0 there) */
    wt_tensor *sa = operand(ctx, dt, 1, at ? 68 : 67, 44, at), *sb = operand(ctx, dt, 1, 44, 72, bt_);
    wt_tensor *ea = operand(ctx, dt, 1, 128, 64, at), *eb = operand(ctx, dt, 1, 64, 256, bt_);
    wt_tensor *ref = sa && sb ? mm(ctx, sa, sb, WT_MM_TILE64U) : NULL;
    wt_tensor *eref = ea && eb ? mm(ctx, ea, eb, WT_MM_TILE64U) : NULL;
    int survivors = 0;
    for (int j = 0; j < no; j++) {
        int i = order[j];
        wt_mm_kernel k = (wt_mm_kernel)i;
        if (!ref || !eref)
            continue;
        if (survivors && now_s() > deadline) {
            *cut = true;
            continue;
        }
        wt_tensor *o = mm(ctx, sa, sb, k);
        double diff, mag;
        ok[i] = o && compare(ctx, o, ref, &diff, &mag) && diff <= 1e-4 * mag + (dt == WT_F16 ? 1e-2 : 1e-6);
        wt_release(o);
        o = ok[i] ? mm(ctx, ea, eb, k) : NULL;
        ok[i] = o && compare(ctx, o, eref, &diff, &mag) && diff <= 1e-4 * mag + (dt == WT_F16 ? 1e-2 : 1e-6);
        const char *fault = ctx->pol.fault_tune_reject;      /* test hook: this kernel's check fails */
        if (fault && !strcmp(fault, wt_mm_kernel_name(k)))
            ok[i] = false;
        survivors += ok[i];
        wt_release(o);
        wt_clear_error(ctx);
    }
    wt_release(sa);
    wt_release(sb);
    wt_release(ref);
    wt_release(ea);
    wt_release(eb);
    wt_release(eref);
    if (!survivors)
        return WT_MM_AUTO;
    /* 2. time the survivors on a problem of the class */
    int64_t m = M < 4096 ? M : 4096, n = N < 4096 ? N : 4096, k = K < 4096 ? K : 4096, bt = batch;
    while (bt > 1 && bt * m * n > ((int64_t)1 << 24))
        bt = (bt + 1) / 2;
    wt_tensor *a = operand(ctx, dt, bt, m, k, at), *b = operand(ctx, dt, bt, k, n, bt_);
    /* the GPU's clocks fall while it waits for the host (the checks above, pipeline builds, the
     * caller's work): 0.3 s of products first, so the first candidates are not timed on a slow
     * clock (H200: after about 1.5 s idle the SM clock drops from 1980 to 345 MHz, and the first
     * 0.2-0.3 s of work run 4-6x slower; doc/tensor.md) */
    for (int j = 0; j < no && a && b; j++)
        if (ok[order[j]]) {
            tune_arg ta = { a, b, (wt_mm_kernel)order[j] };
            wt_warm_up(ctx, tune_product, &ta, 0.3);
            wt_clear_error(ctx);
            break;
        }
    wt_mm_kernel best = WT_MM_AUTO;
    double best_t = INFINITY;
    for (int j = 0; j < no && a && b; j++) {
        int i = order[j];
        if (!ok[i])
            continue;
        if (best != WT_MM_AUTO && now_s() > deadline) {
            *cut = true;
            continue;
        }
        wt_mm_kernel kk = (wt_mm_kernel)i;
        tune_arg ta = { a, b, kk };
        bool gpu;
        double t = wt_time_product(ctx, tune_product, &ta, &gpu);
        if (!gpu)
            *timer = "wall";
        wt_clear_error(ctx);
        us[i] = t * 1e6;
        if (t > 0 && t < best_t) {
            best_t = t;
            best = kk;
        }
    }
    /* 3. a second look: every candidate within 2x of the fastest is timed twice more, in turn,
     * and keeps its best time, so one slow measurement (a clock change, another process) does
     * not decide the choice (on the H200 sgemm 1024^3 once went to a kernel half as fast) */
    for (int round = 0; round < 2 && best != WT_MM_AUTO; round++)
        for (int i = 0; i < nk && a && b; i++) {
            if (!ok[i] || us[i] <= 0 || us[i] > 2.0 * best_t * 1e6 || now_s() > deadline)
                continue;
            wt_mm_kernel kk = (wt_mm_kernel)i;
            tune_arg ta = { a, b, kk };
            double t = (*timer)[0] == 'g' ? gpu_time(ctx, tune_product, &ta) : wall_time(ctx, tune_product, &ta);
            wt_clear_error(ctx);
            if (t > 0 && t * 1e6 < us[i])
                us[i] = t * 1e6;
        }
    for (int i = 0; i < nk; i++)
        if (ok[i] && us[i] > 0 && us[i] * 1e-6 < best_t) {
            best_t = us[i] * 1e-6;
            best = (wt_mm_kernel)i;
        }
    wt_release(a);
    wt_release(b);
    return best;
}

bool wt_mm_may_time(const wt_context *ctx) {
    return ctx->mm_ahead || ctx->pol.tune == WT_TUNE_DEFAULT || ctx->pol.tune == WT_TUNE_FIRST_USE;
}

/* The choice for the class; tune_ok: tune a class without one (or with a partial one, ahead). */
static wt_mm_kernel choice(wt_context *ctx, int64_t M, int64_t N, int64_t K, int64_t batch, wt_dtype dt,
                           unsigned layout, wt_mm_kernel first, bool tune_ok) {
    if (!ctx || M <= 0 || N <= 0 || K <= 0 || batch <= 0 || dt <= WT_DTYPE_DEFAULT || dt >= WT_DTYPE_COUNT ||
        layout > 7)
        return WT_MM_AUTO;
    const uint8_t *uuid = wg_adapter_get_info(wg_device_get_adapter(ctx->dev))->device_uuid;
    uint32_t cls = shape_class(M, N, K, batch, dt, layout);
    pthread_mutex_lock(&tune_lock);
    load(ctx, uuid);
    tune_entry *e = find(uuid, cls);
    wt_mm_kernel k = e ? e->kernel : WT_MM_AUTO;
    bool partial = e && e->partial;
    pthread_mutex_unlock(&tune_lock);
    if (!tune_ok || (e && !(partial && ctx->mm_ahead)))
        return k == WT_MM_KERNEL_COUNT ? WT_MM_AUTO : k;
    /* tune, keeping the caller's error state, pending work and random stream intact */
    uint32_t budget = ctx->pol.tune_budget_ms ? ctx->pol.tune_budget_ms : WT_TUNE_BUDGET_MS;
    double deadline = ctx->mm_ahead ? INFINITY : now_s() + 1e-3 * budget;
    wt_error_state es;
    wt_error_save(ctx, &es);
    uint64_t rng = ctx->rng_counter;
    double us[WT_MM_KERNEL_COUNT];
    const char *timer = "none";
    bool cut = false;
    k = WT_MM_AUTO;
    if (wt_flush(ctx) == WT_OK)
        k = tune(ctx, M, N, K, batch, dt, layout, first, deadline, us, &timer, &cut);
    wt_error_restore(ctx, &es);
    ctx->rng_counter = rng;
    pthread_mutex_lock(&tune_lock);
    e = find(uuid, cls);
    if (!e || e->partial) {
        add(uuid, cls, k == WT_MM_AUTO ? WT_MM_KERNEL_COUNT : k, cut);   /* never retried in this process */
        if (k != WT_MM_AUTO && !cut)
            save(ctx, uuid, cls, k, us, WT_MM_KERNEL_COUNT, timer);
    }
    pthread_mutex_unlock(&tune_lock);
    return k;
}

wt_mm_kernel wt_autotune_layout(wt_context *ctx, int64_t M, int64_t N, int64_t K, int64_t batch, wt_dtype dt,
                                unsigned layout, wt_mm_kernel first) {
    if (!ctx || (ctx->pol.tune == WT_TUNE_OFF && !ctx->mm_ahead))
        return WT_MM_AUTO;
    double min_flop = ctx->pol.tune_min_flop > 0 ? ctx->pol.tune_min_flop : 268435456.0;
    bool big = 2.0 * (double)M * (double)N * (double)K * (double)batch >= min_flop;
    return choice(ctx, M, N, K, batch, dt, layout, first, wt_mm_may_time(ctx) && (big || ctx->mm_ahead));
}

/* Contiguous row-major operands: ragged when K or N is not a multiple of 4. */
const char *wt_autotune_lookup(wt_context *ctx, int64_t M, int64_t N, int64_t K, int64_t batch, wt_dtype dt) {
    wt_mm_kernel k = choice(ctx, M, N, K, batch, dt, K % 4 || N % 4 ? WT_MM_LAYOUT_RAGGED : 0u, WT_MM_AUTO, false);
    return k != WT_MM_AUTO ? wt_mm_kernel_name(k) : NULL;
}

wt_status wt_autotune_matmul(wt_context *ctx, int64_t M, int64_t N, int64_t K, int64_t batch, wt_dtype dt,
                             bool b_transposed) {
    const char *op = "wt_autotune_matmul";
    if (!ctx)
        return WT_STATUS_INVALID_ARGUMENT;
    if (M <= 0 || N <= 0 || K <= 0 || batch <= 0 || (dt != WT_F32 && dt != WT_F16))
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "M %lld, N %lld, K %lld, batch %lld, %s: positive sizes, "
                         "f32 or f16", (long long)M, (long long)N, (long long)K, (long long)batch, wt_dtype_name(dt));
    wt_status s = wt_flush(ctx);
    if (s != WT_OK)
        return s;
    uint64_t rng = ctx->rng_counter;
    wt_tensor *a = operand(ctx, dt, batch, M, K, false);
    wt_tensor *w = b_transposed ? operand(ctx, dt, 1, N, K, false) : NULL;
    wt_tensor *b = b_transposed ? (w ? wt_transpose(ctx, w, 0, 1) : NULL) : operand(ctx, dt, batch, K, N, false);
    ctx->mm_ahead = true;
    wt_tensor *r = a && b ? wt_matmul(ctx, a, b) : NULL, *rt = NULL;
    if (r && dt == WT_F16 && wt_matmul_tensor_cores(ctx))
        rt = wt_matmul_ex(ctx, a, b, NULL, &(wt_matmul_desc){ .label = op, .precision = WT_MATMUL_F16_TENSOR });
    ctx->mm_ahead = false;
    s = r && (rt || dt != WT_F16 || !wt_matmul_tensor_cores(ctx)) ? wt_sync(ctx) : ctx->status;
    wt_release(a);
    wt_release(b);
    wt_release(w);
    wt_release(r);
    wt_release(rt);
    ctx->rng_counter = rng;
    return s;
}
