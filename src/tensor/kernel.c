/* kernel.c - the kernel cache and the bind group cache.
 *
 * A kernel is a WGSL file of src/tensor/kernels/ (embedded at build time; its row of the
 * catalogue, catalogue.h, says how it is put together) specialised by a key:
 * op code, storage dtypes of output and inputs, compute dtype and the addressing mode of each
 * input.  The key becomes a prelude of aliases and constants (SO, SA, SB, SC, C, OP, MA, MB, MC)
 * put in front of common.wgsl and the file; wgc's compiler turns it into SPIR-V once, and the
 * pipeline is kept in an open-addressing table keyed by the key's bytes.  All kernels with the
 * same number of inputs share one pipeline layout: group 0 = output (binding 0, read_write) and
 * inputs (bindings 1.., read), group 1 = the Params uniform with a dynamic offset; files whose
 * row says NEEDS_W2 write binding 1 too (a second output: optim.wgsl's state), in layouts of
 * their own.  So a bind group depends only on the buffers and that choice: a second table maps
 * (buffers, layout) -> bind group (batch.c asks it
 * at flush, once per dispatch left after fusion).  That table doubles when 3/4 full, from
 * WT_BG_CACHE up to WT_BG_CACHE_MAX slots, so a repeated workload that binds more buffer sets
 * than it holds finds them all again instead of missing on every one (a cyclic working set past
 * a clear-all table); past the maximum, or when the pool releases buffers, it is cleared. */
#include <stdio.h>
#include <string.h>

#include "tensor/internal.h"
#include "wgc/wgsl.h"

#include "tensor_kernels.h"         /* generated: every kernel file as text (mk/tensor.mk) */

typedef struct snippet {
    const char *text;
    size_t len;
} snippet;
#define TEXT(name) { tensor_##name##_wgsl, sizeof tensor_##name##_wgsl - 1 }
static const char tensor_none_wgsl[] = "";   /* the catalogue's "no snippet" */

enum { OWN, MAP1, MAP2, STD };                 /* entry kinds (catalogue.h) */
enum { NEEDS_F16 = 1, NEEDS_SG = 2, NEEDS_SGMAT = 4, NEEDS_WGMAT = 8, NEEDS_W2 = 16 };
enum { CLAMPED = 0, UNCLAMPED = 0x100 };       /* else: the op bits compiled without clamps */

/* The catalogue (catalogue.h) as data. */
static const struct kfile {
    const char *name;
    snippet text, shared[2];
    uint8_t nin, entry, needs;
    uint16_t unclamped;
    const char *when;
} kfiles[] = {
#define X(name, nin, entry, s1, s2, needs, unclamped, when) \
    { #name, TEXT(name), { TEXT(s1), TEXT(s2) }, nin, entry, needs, unclamped, when },
    WT_KERNEL_CATALOGUE(X)
#undef X
};
_Static_assert(sizeof kfiles / sizeof *kfiles == WT_K_COUNT, "one row per kernel file");

/* The generic entry points of MAP1 / MAP2 files: [entry - 1][key.v4] */
static const snippet maps[2][2] = { { TEXT(map1), TEXT(map1v4) }, { TEXT(map2), TEXT(map2v4) } };
/* NEEDS_SG files: their subgroup code, or stand-ins of the same functions (never called there) */
static const snippet sg_with = TEXT(flash_sg), sg_without = TEXT(flash_nosg);
#define SG_KEY_BIT 8u                          /* key.mode[2]: the caller found subgroups usable */

bool wt_kernel_vec4_ok(uint32_t file) {
    return file < WT_K_COUNT && (kfiles[file].entry == MAP1 || kfiles[file].entry == MAP2);
}

const char *wt_kernel_when(uint32_t file) {
    return file < WT_K_COUNT ? kfiles[file].when : NULL;
}

static const char *storage_type(uint8_t dt) {
    switch (dt) {
    case WT_F16: return "f16";
    case WT_I32: return "i32";
    case WT_U32: case WT_BOOL: return "u32";
    default: return "f32";
    }
}

static void *wa_alloc(void *user, size_t n) {
    return wt_alloc(user, n);
}
static void wa_free(void *user, void *p) {
    wt_free(user, p);
}

wt_status wt_kernels_init(wt_context *ctx) {
    for (uint32_t n = 0; n <= WT_MAX_IN; n++) {
        wg_bind_group_layout_entry e[WT_MAX_IN + 1];
        for (uint32_t i = 0; i <= n; i++)
            e[i] = (wg_bind_group_layout_entry){ .binding = i,
                                                 .type = i ? WG_BINDING_TYPE_READ_ONLY_STORAGE : WG_BINDING_TYPE_STORAGE };
        ctx->bgl[n] = wg_device_create_bind_group_layout(
            ctx->dev, &(wg_bind_group_layout_desc){ .label = "wt tensors", .entry_count = n + 1, .entries = e });
        if (!ctx->bgl[n])
            return WT_STATUS_HOST_OUT_OF_MEMORY;
        if (n == 0)
            continue;
        e[1].type = WG_BINDING_TYPE_STORAGE;   /* NEEDS_W2: a second output */
        ctx->bgl_w2[n] = wg_device_create_bind_group_layout(
            ctx->dev, &(wg_bind_group_layout_desc){ .label = "wt tensors w2", .entry_count = n + 1, .entries = e });
        if (!ctx->bgl_w2[n])
            return WT_STATUS_HOST_OUT_OF_MEMORY;
    }
    ctx->params_bgl = wg_device_create_bind_group_layout(ctx->dev, &(wg_bind_group_layout_desc){
        .label = "wt params", .entry_count = 1,
        .entries = &(wg_bind_group_layout_entry){ .binding = 0, .type = WG_BINDING_TYPE_UNIFORM,
                                                  .has_dynamic_offset = true, .min_binding_size = WT_PARAMS_SIZE } });
    if (!ctx->params_bgl)
        return WT_STATUS_HOST_OUT_OF_MEMORY;
    for (uint32_t n = 0; n <= WT_MAX_IN; n++) {
        wg_bind_group_layout *l[2] = { ctx->bgl[n], ctx->params_bgl };
        ctx->pl[n] = wg_device_create_pipeline_layout(
            ctx->dev, &(wg_pipeline_layout_desc){ .label = "wt", .bind_group_layout_count = 2, .bind_group_layouts = l });
        if (!ctx->pl[n])
            return WT_STATUS_HOST_OUT_OF_MEMORY;
        if (n == 0)
            continue;
        l[0] = ctx->bgl_w2[n];
        ctx->pl_w2[n] = wg_device_create_pipeline_layout(
            ctx->dev, &(wg_pipeline_layout_desc){ .label = "wt w2", .bind_group_layout_count = 2, .bind_group_layouts = l });
        if (!ctx->pl_w2[n])
            return WT_STATUS_HOST_OUT_OF_MEMORY;
    }
    ctx->dummy = wg_device_create_buffer(ctx->dev, &(wg_buffer_desc){ .label = "wt dummy", .size = 256 });
    if (!ctx->dummy)
        return WT_STATUS_HOST_OUT_OF_MEMORY;
    ctx->kernels = wt_alloc(ctx, WT_KERNEL_CACHE * sizeof *ctx->kernels);
    if (ctx->kernels)
        memset(ctx->kernels, 0, WT_KERNEL_CACHE * sizeof *ctx->kernels);
    ctx->bgs = wt_alloc(ctx, WT_BG_CACHE * sizeof *ctx->bgs);
    if (ctx->bgs)
        memset(ctx->bgs, 0, WT_BG_CACHE * sizeof *ctx->bgs);
    ctx->bg_cap = WT_BG_CACHE;
    return ctx->kernels && ctx->bgs ? WT_OK : WT_STATUS_HOST_OUT_OF_MEMORY;
}

void wt_bind_groups_clear(wt_context *ctx) {
    if (!ctx->bgs)
        return;
    for (uint32_t i = 0; i < ctx->bg_cap && ctx->bg_count; i++)
        if (ctx->bgs[i].bg) {
            wg_bind_group_release(ctx->bgs[i].bg);
            ctx->bgs[i].bg = NULL;
            ctx->bg_count--;
        }
    memset(ctx->bgs, 0, (size_t)ctx->bg_cap * sizeof *ctx->bgs);
    ctx->bg_count = 0;
}

void wt_kernels_destroy(wt_context *ctx) {
    wt_bind_groups_clear(ctx);
    if (ctx->kernels)
        for (uint32_t i = 0; i < WT_KERNEL_CACHE; i++)
            if (ctx->kernels[i].used && ctx->kernels[i].pipe)
                wg_compute_pipeline_release(ctx->kernels[i].pipe);
    wt_free(ctx, ctx->kernels);
    wt_free(ctx, ctx->bgs);
    ctx->kernels = NULL;
    ctx->bgs = NULL;
    for (uint32_t n = 0; n <= WT_MAX_IN; n++) {
        if (ctx->pl[n])
            wg_pipeline_layout_release(ctx->pl[n]);
        if (ctx->bgl[n])
            wg_bind_group_layout_release(ctx->bgl[n]);
        if (ctx->pl_w2[n])
            wg_pipeline_layout_release(ctx->pl_w2[n]);
        if (ctx->bgl_w2[n])
            wg_bind_group_layout_release(ctx->bgl_w2[n]);
    }
    if (ctx->params_bgl)
        wg_bind_group_layout_release(ctx->params_bgl);
    if (ctx->dummy)
        wg_buffer_release(ctx->dummy);
}

static uint32_t hash_bytes(const void *p, size_t n) {
    const uint8_t *b = p;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 16777619u;
    return h;
}

wgsl_result *wt_kernel_compile(wt_context *ctx, const char *op, const wt_kkey *key, uint32_t per) {
    const struct kfile *kf = &kfiles[key->file];
    bool f16 = key->out == WT_F16 || (kf->needs & NEEDS_F16);
    for (int i = 0; i < WT_MAX_IN; i++)
        f16 |= key->in[i] == WT_F16;
    char pre[1024];
    bool sg = (kf->needs & NEEDS_SG) && (key->mode[2] & SG_KEY_BIT);
    int np = snprintf(pre, sizeof pre,
                      "%s%s%s%salias SO = %s;\nalias SA = %s;\nalias SB = %s;\nalias SC = %s;\nalias C = %s;\n"
                      "const OP: u32 = %uu;\nconst MA: u32 = %uu;\nconst MB: u32 = %uu;\nconst MC: u32 = %uu;\n"
                      "const VPT: u32 = %uu;\n",
                      f16 ? "enable f16;\n" : "", sg ? "enable subgroups;\n" : "",
                      kf->needs & NEEDS_SGMAT ? "enable chromium_experimental_subgroup_matrix;\n" : "",
                      kf->needs & NEEDS_WGMAT ? "enable wgc_workgroup_matrix;\n" : "",
                      storage_type(key->out), storage_type(key->in[0]),
                      storage_type(key->in[1]), storage_type(key->in[2]),
                      key->compute == WT_F16 ? "f32" : storage_type(key->compute), key->op, key->mode[0],
                      key->mode[1], key->mode[2], (unsigned)per);
    /* STD files, and the scalar map entry points, take the standard bindings from here: out and
     * the inputs a, b, c as arrays of their storage types (the pipeline layout of kernel.c) */
    if (kf->entry == STD || ((kf->entry == MAP1 || kf->entry == MAP2) && !key->v4)) {
        static const char *const bind[4] = {
            "@group(0) @binding(0) var<storage, read_write> out: array<SO>;\n",
            "@group(0) @binding(1) var<storage, read> a: array<SA>;\n",
            "@group(0) @binding(2) var<storage, read> b: array<SB>;\n",
            "@group(0) @binding(3) var<storage, read> c: array<SC>;\n",
        };
        for (uint32_t i = 0; i <= kf->nin && i < 4; i++)
            np += snprintf(pre + np, sizeof pre - (size_t)np, "%s", bind[i]);
    }
    if (key->file == WT_K_matmul_wgm) {
        uint32_t ld[4];
        memcpy(ld, key->ld, sizeof ld);
        np += snprintf(pre + np, sizeof pre - (size_t)np, "const LDA: u32 = %uu;\nconst LDB: u32 = %uu;\nconst LDO: u32 = %uu;\nconst KC: u32 = %uu;\n",
                       ld[0] ? ld[0] : 8u, ld[1] ? ld[1] : 8u, ld[2] ? ld[2] : 8u, ld[3] ? ld[3] : 64u);
    }
    /* the parts: prelude, common.wgsl, the file (for unary_f / binary_f its `op`, and with a chain
     * both op tables and chain.wgsl), its subgroup code or stand-ins (NEEDS_SG), code it
     * shares with other files, the map entry point */
    uint8_t map = kf->entry;
    bool ewf = key->file == WT_K_unary_f || key->file == WT_K_binary_f, one = key->file == WT_K_unary_f;
    if (ewf && key->nchain) {   /* the fused chain (batch.c, chain.wgsl): NCHAIN links LINK1.. after OP */
        np += snprintf(pre + np, sizeof pre - (size_t)np, "const NCHAIN: u32 = %uu;\n", key->nchain);
        for (int i = 0; i < WT_CHAIN; i++)
            np += snprintf(pre + np, sizeof pre - (size_t)np, "const LINK%d: u32 = %uu;\n", i + 1,
                           i < key->nchain ? key->chain[i] : 0u);
    }
    static const char op1[] = "fn op(x: f32) -> f32 { return unary_code(x, OP); }\n";
    static const char op2[] = "fn op(x: f32, y: f32) -> f32 { return binary_code(x, y, OP); }\n";
    static const char chain1[] = "fn op(x: f32) -> f32 { return chain(unary_code(x, OP)); }\n";
    static const char chain2[] = "fn op(x: f32, y: f32) -> f32 { return chain(binary_code(x, y, OP)); }\n";
    snippet part[8] = {
        { pre, (size_t)np }, TEXT(common), kf->text,
    };
    int nparts = 3;
    if (ewf && key->nchain) {   /* a fused chain: both op tables and chain.wgsl */
        part[2].text = tensor_unary_f_wgsl, part[2].len = sizeof tensor_unary_f_wgsl - 1;
        part[nparts].text = tensor_binary_f_wgsl, part[nparts++].len = sizeof tensor_binary_f_wgsl - 1;
        part[nparts].text = tensor_chain_wgsl, part[nparts++].len = sizeof tensor_chain_wgsl - 1;
        part[nparts].text = one ? chain1 : chain2, part[nparts++].len = one ? sizeof chain1 - 1 : sizeof chain2 - 1;
    } else if (ewf) {
        part[nparts].text = one ? op1 : op2, part[nparts++].len = one ? sizeof op1 - 1 : sizeof op2 - 1;
    }
    if (kf->needs & NEEDS_SG)
        part[nparts++] = sg ? sg_with : sg_without;
    for (int i = 0; i < 2 && kf->shared[i].len; i++)
        part[nparts++] = kf->shared[i];
    if (map == MAP1 || map == MAP2)
        part[nparts++] = maps[map - 1][key->v4 ? 1 : 0];
    size_t len = 0;
    for (int i = 0; i < nparts; i++)
        len += part[i].len;
    char *src = wt_alloc(ctx, len + 1);
    if (!src)
        return wt_fail(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "out of host memory building a kernel");
    for (size_t i = 0, at = 0; i < (size_t)nparts; at += part[i].len, i++)
        memcpy(src + at, part[i].text, part[i].len);
    src[len] = 0;
    char fname[64];
    snprintf(fname, sizeof fname, "%s.wgsl", kfiles[key->file].name);
    bool unclamped = kf->unclamped == UNCLAMPED || (key->op & kf->unclamped);
    wgsl_result *r = wgsl_compile(src, len, &(wgsl_options){ .filename = fname, .no_f16 = !ctx->f16,
                                                           .no_bounds_checks = unclamped,
                                                           .allocator = { wa_alloc, wa_free, ctx } });
    wt_free(ctx, src);
    if (!r)
        return wt_fail(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "out of host memory compiling %s", fname);
    if (!r->ok) {
        const char *t = wgsl_result_text(r);
        wt_fail(ctx, WT_STATUS_KERNEL, op, "%s (op %u): %.380s", fname, key->op, t ? t : "out of memory");
        wgsl_result_free(r);
        return NULL;
    }
    return r;
}

static wt_status build(wt_context *ctx, const char *op, wt_kernel *k) {
    const wt_kkey *key = &k->key;
    wgsl_result *r = wt_kernel_compile(ctx, op, key, k->per);
    if (!r)
        return ctx->status;
    char fname[64];
    snprintf(fname, sizeof fname, "%s.wgsl", kfiles[key->file].name);
    wg_device_push_error_scope(ctx->dev, WG_ERROR_TYPE_VALIDATION);
    wg_device_push_error_scope(ctx->dev, WG_ERROR_TYPE_OUT_OF_MEMORY);
    wg_shader_module *m = wg_device_create_shader_module(
        ctx->dev, &(wg_shader_module_desc){ .label = fname, .spirv = r->spirv, .spirv_words = r->spirv_word_count });
    wg_compute_pipeline *p = m ? wg_device_create_compute_pipeline(
        ctx->dev, &(wg_compute_pipeline_desc){ .label = fname, .layout = k->writes == 2 ? ctx->pl_w2[k->nin] : ctx->pl[k->nin], .module = m, .entry_point = "main" })
                               : NULL;
    wgsl_result_free(r);
    if (m)
        wg_shader_module_release(m);
    wg_error e1, e2;
    wg_error_id o = wg_device_pop_error_scope(ctx->dev, &e1);
    wg_error_id v = wg_device_pop_error_scope(ctx->dev, &e2);
    if (!p || o != WG_ERR_NONE || v != WG_ERR_NONE || !wg_compute_pipeline_is_valid(p)) {
        if (p)
            wg_compute_pipeline_release(p);
        return wt_failst(ctx, o != WG_ERR_NONE ? WT_STATUS_OUT_OF_MEMORY : WT_STATUS_KERNEL, op, "pipeline for %s: %s",
                         fname, o != WG_ERR_NONE ? e1.message : v != WG_ERR_NONE ? e2.message : "creation failed");
    }
    k->pipe = p;
    ctx->stats.kernels_compiled++;
    return WT_OK;
}

wt_kkey wt_key(wt_kfile file, uint32_t op, wt_dtype out, wt_dtype in0, wt_dtype in1, wt_dtype compute) {
    wt_kkey key;
    memset(&key, 0, sizeof key);
    key.file = (uint8_t)file;
    key.op = (uint8_t)op;
    key.out = (uint8_t)out;
    key.in[0] = (uint8_t)in0;
    key.in[1] = (uint8_t)in1;
    key.compute = (uint8_t)compute;
    return key;
}

static const char *dtype_or_dash(uint8_t dt) {
    return dt == WT_DTYPE_DEFAULT ? "-" : wt_dtype_name((wt_dtype)dt);
}

uint32_t wt_kernel_list(wt_context *ctx, wt_kernel_info *out, uint32_t cap) {
    if (!ctx || !ctx->kernels)
        return 0;
    bool stats = wg_device_has_feature(ctx->dev, WG_FEATURE_PIPELINE_STATISTICS);
    uint32_t n = 0;
    for (uint32_t i = 0; i < WT_KERNEL_CACHE; i++) {
        const wt_kernel *k = &ctx->kernels[i];
        if (!k->used)
            continue;
        if (out && n < cap) {
            wt_kernel_info *o = &out[n];
            memset(o, 0, sizeof *o);
            const wt_kkey *y = &k->key;
            snprintf(o->name, sizeof o->name, "%s op %u %s<-%s,%s,%s mode %u,%u,%u%s", kfiles[y->file].name, y->op,
                     dtype_or_dash(y->out), dtype_or_dash(y->in[0]), dtype_or_dash(y->in[1]), dtype_or_dash(y->in[2]),
                     y->mode[0], y->mode[1], y->mode[2], y->v4 ? " vec4" : "");
            for (uint32_t c = 0; c < y->nchain; c++) {   /* fused links (batch.c): their chain codes */
                size_t len = strlen(o->name);
                snprintf(o->name + len, sizeof o->name - len, "%s%u", c ? "," : " chain ", y->chain[c]);
            }
            o->calls = k->calls;
            o->gpu_ns = k->gpu_ns;
            if (stats && k->pipe) {
                uint32_t have = sizeof o->statistics / sizeof o->statistics[0];
                uint32_t got = wg_compute_pipeline_get_statistics(k->pipe, o->statistics, have);
                o->statistic_count = got < have ? got : have;
            }
        }
        n++;
    }
    return n;
}

wt_kernel *wt_kernel_get(wt_context *ctx, const char *op, const wt_kkey *key) {
    uint32_t h = hash_bytes(key, sizeof *key) & (WT_KERNEL_CACHE - 1);
    for (uint32_t probe = 0; probe < WT_KERNEL_CACHE; probe++) {
        wt_kernel *k = &ctx->kernels[(h + probe) & (WT_KERNEL_CACHE - 1)];
        if (k->used && !memcmp(&k->key, key, sizeof *key)) {
            ctx->stats.kernel_hits++;
            return k;
        }
        if (!k->used) {
            if (ctx->kernel_count >= WT_KERNEL_CACHE * 3 / 4)
                return wt_fail(ctx, WT_STATUS_KERNEL, op, "kernel cache full (%u kernels)", ctx->kernel_count);
            k->key = *key;
            k->nin = kfiles[key->file].nin;
            k->writes = (kfiles[key->file].needs & NEEDS_W2) && k->nin ? 2 : 1;
            /* vec4s per invocation: on the H200 two lifted a chain of 5 unary ops 3-4% (3753 ->
             * 3877 GB/s), while add/mul measured best at one (4247 vs 4158 GB/s) */
            uint8_t entry = kfiles[key->file].entry;
            uint32_t vpt = ctx->ew_vpt ? ctx->ew_vpt : entry == MAP1 ? 2u : 1u;
            k->per = (uint8_t)(key->v4 && (entry == MAP1 || entry == MAP2) ? vpt : 1u);
            if (build(ctx, op, k) != WT_OK) {
                memset(k, 0, sizeof *k);
                return NULL;
            }
            k->used = true;
            ctx->kernel_count++;
            return k;
        }
    }
    return wt_fail(ctx, WT_STATUS_KERNEL, op, "kernel cache full");
}

static uint32_t bg_hash(wg_buffer *const *bufs, uint32_t n, uint8_t writes) {
    return hash_bytes(bufs, n * sizeof *bufs) ^ (writes == 2 ? 0x9e3779b9u : 0u);
}

/* The bind group table at twice the size, its entries kept; false at WT_BG_CACHE_MAX or out of
 * host memory (the caller clears it instead: no error). */
static bool bind_groups_grow(wt_context *ctx) {
    if (ctx->bg_cap >= WT_BG_CACHE_MAX)
        return false;
    uint32_t cap = 2 * ctx->bg_cap;
    wt_bgslot *t = wt_alloc(ctx, (size_t)cap * sizeof *t);
    if (!t)
        return false;
    memset(t, 0, (size_t)cap * sizeof *t);
    for (uint32_t i = 0; i < ctx->bg_cap; i++) {
        const wt_bgslot *s = &ctx->bgs[i];
        if (!s->bg)
            continue;
        uint32_t h = bg_hash(s->buf, s->nbuf, s->writes) & (cap - 1);
        while (t[h].bg)
            h = (h + 1) & (cap - 1);
        t[h] = *s;
    }
    wt_free(ctx, ctx->bgs);
    ctx->bgs = t;
    ctx->bg_cap = cap;
    return true;
}

wg_bind_group *wt_bind_group_get(wt_context *ctx, const char *op, const wt_kernel *k, uint32_t n,
                                 wg_buffer *const *bufs) {
    uint8_t writes = k->writes == 2 && n > 1 ? 2 : 1;
    uint32_t hash = bg_hash(bufs, n, writes);
    uint32_t mask = ctx->bg_cap - 1, h = hash & mask;
    wt_bgslot *slot = NULL;
    for (uint32_t probe = 0; probe < ctx->bg_cap; probe++) {
        wt_bgslot *s = &ctx->bgs[(h + probe) & mask];
        if (s->bg && s->nbuf == n && s->writes == writes && !memcmp(s->buf, bufs, n * sizeof *bufs)) {
            ctx->stats.bind_group_hits++;
            return s->bg;
        }
        if (!s->bg) {
            slot = s;
            break;
        }
    }
    ctx->stats.bind_group_misses++;
    if (!slot || ctx->bg_count >= ctx->bg_cap / 4 * 3) {
        if (!bind_groups_grow(ctx))
            wt_bind_groups_clear(ctx);
        mask = ctx->bg_cap - 1;
        for (h = hash & mask; ctx->bgs[h].bg;)   /* at most 3/8 full now */
            h = (h + 1) & mask;
        slot = &ctx->bgs[h];
    }
    wg_bind_group_entry e[WT_MAX_IN + 1];
    for (uint32_t i = 0; i < n; i++)
        e[i] = (wg_bind_group_entry){ .binding = i, .buffer = bufs[i] };
    wg_device_push_error_scope(ctx->dev, WG_ERROR_TYPE_VALIDATION);
    wg_device_push_error_scope(ctx->dev, WG_ERROR_TYPE_OUT_OF_MEMORY);
    wg_bind_group *bg = wg_device_create_bind_group(
        ctx->dev, &(wg_bind_group_desc){ .label = "wt", .layout = writes == 2 ? ctx->bgl_w2[n - 1] : ctx->bgl[n - 1],
                                         .entry_count = n, .entries = e });
    wg_error oom, val;
    wg_error_id o = wg_device_pop_error_scope(ctx->dev, &oom);
    wg_error_id v = wg_device_pop_error_scope(ctx->dev, &val);
    if (o != WG_ERR_NONE || v != WG_ERR_NONE || !bg) {
        if (bg)
            wg_bind_group_release(bg);
        if (v != WG_ERR_NONE)
            return wt_fail(ctx, WT_STATUS_GPU, op, "bind group: %s", val.message);
        return wt_fail(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "bind group: %s",
                       o != WG_ERR_NONE ? oom.message : "out of host memory");
    }
    memcpy(slot->buf, bufs, n * sizeof *bufs);
    slot->nbuf = (uint8_t)n;
    slot->writes = writes;
    slot->bg = bg;
    ctx->bg_count++;
    return bg;
}
