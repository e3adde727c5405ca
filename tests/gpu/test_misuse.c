/* test_misuse.c - the misuse matrix: a table of API misuses (wrong usage, unaligned offsets,
 * oversized bindings, destroyed objects, mapping state errors, mismatched layouts, limits
 * exceeded, encoder state, submission state), each run inside error scopes and asserting the
 * numbered error id it must produce.  Cases are rows generated from a few parameterised
 * functions, so the matrix grows by adding rows.  After every case the device must still work. */
#include "gpu_test.h"
#include "gpu_add.spv.h"
#include "test_inc.spv.h"

typedef struct ctx {
    gpu_fixture *f;
    wg_device *dev, *dev2;  /* dev2: another device, with small binding limits */
    wg_queue *q;
    wg_buffer *storage, *uniform, *mapread, *mapwrite, *indirect, *resolve, *big_uniform, *other;
    wg_compute_pipeline *inc, *add;
    wg_bind_group *inc_group, *add_group, *dyn_group;
    wg_bind_group_layout *l_storage, *l_uniform, *l_ro, *l_dyn, *l_min;
    wg_pipeline_layout *pl_dyn;
    wg_query_set *qs;
} ctx;

typedef wg_error_id (*case_fn)(ctx *c, uint32_t p);
typedef struct mcase { char name[64]; wg_error_id want; case_fn fn; uint32_t p; } mcase;

static mcase cases[512];
static int ncases;
static void add_case(const char *name, uint32_t p, wg_error_id want, case_fn fn) {
    if (ncases == (int)(sizeof cases / sizeof cases[0]))
        return;
    mcase *m = &cases[ncases++];
    snprintf(m->name, sizeof m->name, "%s/%u", name, p);
    m->want = want;
    m->fn = fn;
    m->p = p;
}
#define ROWS(name, want, fn, ...) do { static const uint32_t ps_[] = { __VA_ARGS__ }; \
    for (size_t i_ = 0; i_ < sizeof ps_ / sizeof ps_[0]; i_++) add_case(name, ps_[i_], want, fn); } while (0)

static wg_buffer *buf(ctx *c, uint64_t size, uint32_t usage) {
    return mkbuf(c->dev, "victim", size, usage);
}
static void finish_release(wg_command_encoder *e) {
    wg_command_buffer *cb = wg_command_encoder_finish(e, NULL);
    wg_command_buffer_release(cb);
    wg_command_encoder_release(e);
}
static wg_command_encoder *enc(ctx *c) {
    return wg_device_create_command_encoder(c->dev, &(wg_command_encoder_desc){ .label = "misuse" });
}
static wg_buffer *invalid_buffer(ctx *c) {
    wg_device_push_error_scope(c->dev, WG_ERROR_TYPE_VALIDATION);
    wg_buffer *b = mkbuf(c->dev, "invalid", 1ull << 62, 0);
    wg_device_pop_error_scope(c->dev, NULL);
    return b;
}
static wg_buffer *destroyed_buffer(ctx *c, uint32_t usage) {
    wg_buffer *b = buf(c, 1024, usage);
    wg_buffer_destroy(b);
    return b;
}

/* ---- buffer creation ---- */
static wg_error_id c_buf_usage(ctx *c, uint32_t p) {
    wg_buffer_release(buf(c, 64, p));
    return 0;
}
static wg_error_id c_buf_large(ctx *c, uint32_t p) {
    uint64_t max = wg_device_get_limits(c->dev)->max_buffer_size;
    uint64_t sizes[] = { max + 1, max + 4096, UINT64_MAX, UINT64_MAX - 3, 1ull << 62 };
    wg_buffer_release(buf(c, sizes[p], 0));
    return 0;
}
static wg_error_id c_buf_mapped(ctx *c, uint32_t p) {
    wg_buffer_release(wg_device_create_buffer(c->dev, &(wg_buffer_desc){ .size = p, .mapped_at_creation = true }));
    return 0;
}

/* ---- write_buffer ---- */
static uint32_t data[1024];
static wg_error_id c_write_off(ctx *c, uint32_t p) {
    wg_queue_write_buffer(c->q, c->storage, p, data, 16);
    return 0;
}
static wg_error_id c_write_size(ctx *c, uint32_t p) {
    wg_queue_write_buffer(c->q, c->storage, 0, data, p);
    return 0;
}
static wg_error_id c_write_oob(ctx *c, uint32_t p) {
    static const uint64_t o[][2] = { { 1024, 4 }, { 0, 1028 }, { 1020, 8 }, { 2048, 0 }, { UINT64_MAX - 3, 8 },
                                     { 4, 1024 } };
    wg_queue_write_buffer(c->q, c->storage, o[p][0], data, o[p][1]);
    return 0;
}
static wg_error_id c_write_usage(ctx *c, uint32_t p) {
    wg_buffer *b = buf(c, 256, p);
    wg_queue_write_buffer(c->q, b, 0, data, 16);
    wg_buffer_release(b);
    return 0;
}
static wg_error_id c_write_misc(ctx *c, uint32_t p) {
    wg_buffer *b = NULL;
    switch (p) {
    case 0: b = destroyed_buffer(c, 0); break;
    case 1: b = wg_device_create_buffer(c->dev, &(wg_buffer_desc){ .size = 64, .mapped_at_creation = true }); break;
    case 2: wg_queue_write_buffer(c->q, c->storage, 0, NULL, 16); return 0;
    case 3: wg_queue_write_buffer(c->q, NULL, 0, data, 16); return 0;
    case 4: b = invalid_buffer(c); break;
    case 5: wg_queue_write_buffer(c->q, c->other, 0, data, 16); return 0;
    }
    wg_queue_write_buffer(c->q, b, 0, data, 16);
    wg_buffer_release(b);
    return 0;
}

/* ---- mapping ---- */
static void nop_cb(void *u, wg_map_status s) {
    (void)u;
    (void)s;
}
static wg_error_id c_map_mode(ctx *c, uint32_t p) {
    wg_buffer *b = p == 0 ? buf(c, 256, WG_BUFFER_USAGE_MAP_WRITE) : p == 4 ? buf(c, 256, 0)
                                                                     : buf(c, 256, WG_BUFFER_USAGE_MAP_READ);
    wg_map_mode m[] = { WG_MAP_MODE_READ, WG_MAP_MODE_WRITE, WG_MAP_MODE_NONE, (wg_map_mode)3, WG_MAP_MODE_READ };
    wg_buffer_map_async(b, m[p], 0, 256, nop_cb, NULL);
    wg_buffer_release(b);
    return 0;
}
static wg_error_id c_map_range(ctx *c, uint32_t p) {
    wg_buffer *b = buf(c, 256, WG_BUFFER_USAGE_MAP_READ);
    static const uint64_t r[][2] = { { 1, 8 }, { 2, 8 }, { 3, 8 }, { 4, 8 }, { 5, 8 }, { 6, 8 }, { 7, 8 },  /* off */
                                     { 0, 1 }, { 0, 2 }, { 0, 3 }, { 8, 5 },                            /* size */
                                     { 264, 4 }, { 0, 260 }, { 248, 16 } };                             /* range */
    wg_buffer_map_async(b, WG_MAP_MODE_READ, r[p][0], r[p][1], nop_cb, NULL);
    wg_buffer_release(b);
    return 0;
}
static wg_error_id c_map_state(ctx *c, uint32_t p) {
    wg_buffer *b;
    if (p == 0) {
        b = buf(c, 256, WG_BUFFER_USAGE_MAP_READ);
        wg_buffer_map_async(b, WG_MAP_MODE_READ, 0, 256, nop_cb, NULL);
        wg_buffer_map_async(b, WG_MAP_MODE_READ, 0, 256, nop_cb, NULL);
    } else if (p == 1) {
        b = wg_device_create_buffer(c->dev, &(wg_buffer_desc){ .size = 64, .usage = WG_BUFFER_USAGE_MAP_WRITE,
                                                               .mapped_at_creation = true });
        wg_buffer_map_async(b, WG_MAP_MODE_WRITE, 0, 64, nop_cb, NULL);
    } else if (p == 2) {
        b = destroyed_buffer(c, WG_BUFFER_USAGE_MAP_READ);
        wg_buffer_map_async(b, WG_MAP_MODE_READ, 0, 64, nop_cb, NULL);
    } else {
        b = invalid_buffer(c);
        wg_buffer_map_async(b, WG_MAP_MODE_READ, 0, 64, nop_cb, NULL);
    }
    wg_buffer_release(b);
    return 0;
}
static wg_error_id c_mapped_range(ctx *c, uint32_t p) {
    wg_buffer *b = buf(c, 256, WG_BUFFER_USAGE_MAP_READ);
    if (p > 0) {
        wg_buffer_map_async(b, WG_MAP_MODE_READ, 0, 128, nop_cb, NULL);
        wg_device_poll(c->dev, true);
    }
    static const uint64_t r[][2] = { { 0, 16 }, { 136, 8 }, { 0, 132 }, { 8, 128 }, { 4, 8 }, { 8, 2 }, { 128, 8 } };
    wg_buffer_get_mapped_range(b, r[p][0], r[p][1]);
    wg_buffer_release(b);
    return 0;
}
static wg_error_id c_read(ctx *c, uint32_t p) {
    uint8_t out[64];
    wg_buffer *b = p == 0 ? buf(c, 64, WG_BUFFER_USAGE_UNIFORM) : p == 1 ? destroyed_buffer(c, 0) : buf(c, 64, 0);
    if (p == 2)
        wg_buffer_read(b, 32, out, 64);
    else if (p == 3)
        wg_buffer_read(b, 0, NULL, 64);
    else
        wg_buffer_read(b, 0, out, 64);
    wg_buffer_release(b);
    return 0;
}

/* ---- layouts ---- */
static wg_error_id c_bgl(ctx *c, uint32_t p) {
    wg_bind_group_layout_entry e[40];
    memset(e, 0, sizeof e);
    size_t n = 2;
    switch (p) {
    case 0: e[0].binding = 3, e[1].binding = 3; break;                    /* duplicate */
    case 1: n = 4, e[0].binding = 0, e[1].binding = 1, e[2].binding = 2, e[3].binding = 1; break;
    case 2: n = 3, e[0].binding = 7, e[1].binding = 7, e[2].binding = 7; break;
    case 3: n = 1, e[0].type = (wg_binding_type)4; break;                 /* bad type */
    case 4: n = 1, e[0].type = (wg_binding_type)100; break;
    case 5: n = 2, e[1].binding = 1, e[1].type = (wg_binding_type)-1; break;
    case 6: n = 1, e[0].binding = (uint32_t)wg_device_get_limits(c->dev)->max_bindings_per_bind_group; break;
    case 7: n = 1, e[0].binding = 100000; break;
    case 8: n = 1, e[0].binding = UINT32_MAX; break;
    case 9: /* too many storage buffers (dev2 allows 8) */
        n = 9;
        for (uint32_t i = 0; i < n; i++)
            e[i].binding = i;
        break;
    case 10: /* too many uniform buffers (dev2 allows 4) */
        n = 5;
        for (uint32_t i = 0; i < n; i++)
            e[i].type = WG_BINDING_TYPE_UNIFORM;
        break;
    case 11:
        n = 9;
        for (uint32_t i = 0; i < n; i++)
            e[i].binding = i, e[i].has_dynamic_offset = true;
        break;
    case 12:
        n = 9;
        for (uint32_t i = 0; i < n; i++)
            e[i].binding = i, e[i].has_dynamic_offset = true, e[i].type = WG_BINDING_TYPE_UNIFORM;
        break;
    }
    if (p == 9 || p == 10 || p == 13) {
        /* counts against dev2's small limits (real GPUs allow up to 10^6 storage buffers) */
        if (p == 13)
            n = 17;
        for (uint32_t i = 0; i < n; i++)
            e[i].binding = i;
        wg_device_push_error_scope(c->dev2, WG_ERROR_TYPE_VALIDATION);
        wg_bind_group_layout_release(wg_device_create_bind_group_layout(
            c->dev2, &(wg_bind_group_layout_desc){ .label = "bad", .entry_count = n, .entries = e }));
        return wg_device_pop_error_scope(c->dev2, NULL);
    }
    wg_bind_group_layout_release(wg_device_create_bind_group_layout(
        c->dev, &(wg_bind_group_layout_desc){ .label = "bad", .entry_count = n, .entries = e }));
    return 0;
}
static wg_error_id c_pl(ctx *c, uint32_t p) {
    wg_bind_group_layout *ls[9];
    for (int i = 0; i < 9; i++)
        ls[i] = c->l_storage;
    size_t n = 9;
    wg_bind_group_layout *bad = NULL;
    if (p == 1)
        n = 2, ls[1] = NULL;
    if (p == 2) {
        wg_device_push_error_scope(c->dev, WG_ERROR_TYPE_VALIDATION);
        bad = wg_device_create_bind_group_layout(c->dev, &(wg_bind_group_layout_desc){
            .entry_count = 1, .entries = &(wg_bind_group_layout_entry){ .binding = UINT32_MAX } });
        wg_device_pop_error_scope(c->dev, NULL);
        n = 2, ls[1] = bad;
    }
    if (p == 3)
        n = 2, ls[1] = wg_compute_pipeline_get_bind_group_layout(c->f->dev == c->dev ? c->inc : c->inc, 0),
        ls[0] = NULL;
    wg_pipeline_layout_release(wg_device_create_pipeline_layout(
        c->dev, &(wg_pipeline_layout_desc){ .bind_group_layout_count = n, .bind_group_layouts = ls }));
    wg_bind_group_layout_release(bad);
    return 0;
}

/* ---- shader modules ---- */
static uint32_t *spv_copy(const uint32_t *w, size_t n) {
    uint32_t *c = malloc(n * 4);
    memcpy(c, w, n * 4);
    return c;
}
/* Finds the first instruction with opcode op (and, if word1 >= 0, words[at] == word1). */
static uint32_t *spv_find(uint32_t *w, size_t n, uint32_t op, int at, int64_t val) {
    for (size_t i = 5; i < n; i += w[i] >> 16)
        if ((w[i] & 0xffff) == op && (at < 0 || (int64_t)w[i + (size_t)at] == val))
            return &w[i];
    return NULL;
}
static wg_error_id c_spirv(ctx *c, uint32_t p) {
    size_t n = test_inc_spv_words;
    uint32_t *w = spv_copy(test_inc_spv, n);
    const uint32_t *words = w;
    switch (p) {
    case 0: words = NULL; n = 0; break;
    case 1: n = 0; break;
    case 2: case 3: case 4: case 5: ((uint8_t *)w)[p - 2] ^= 0x5a; break;   /* magic */
    case 6: case 7: case 8: case 9: n = p - 5; break;                        /* shorter than the header */
    case 10: n -= 1; break;                                                  /* last instruction cut */
    case 11: w[5] &= 0xffff; break;                                          /* word count 0 */
    case 12: w[3] = 0x7fffffff; break;                                       /* absurd id bound */
    case 13: w[5] = (0xffffu << 16) | (w[5] & 0xffff); break;                /* overrunning instruction */
    case 14: spv_find(w, n, 15, -1, 0)[1] = 0; break;                        /* Vertex, no compute entry */
    }
    wg_shader_module_release(wg_device_create_shader_module(
        c->dev, &(wg_shader_module_desc){ .label = "bad spirv", .spirv = words, .spirv_words = n }));
    free(w);
    return 0;
}
static wg_error_id c_wgsl_only(ctx *c, uint32_t p) {
    wg_shader_module_release(wg_device_create_shader_module(
        c->dev, &(wg_shader_module_desc){ .wgsl = p ? "this is not wgsl" : "fn main() {}" }));
    return 0;
}

/* ---- pipelines ---- */
static wg_compute_pipeline *pipe_from(ctx *c, const uint32_t *w, size_t n, const char *entry, wg_pipeline_layout *l) {
    wg_shader_module *m = wg_device_create_shader_module(c->dev, &(wg_shader_module_desc){ .spirv = w, .spirv_words = n });
    wg_compute_pipeline *p = wg_device_create_compute_pipeline(
        c->dev, &(wg_compute_pipeline_desc){ .label = "bad pipe", .module = m, .entry_point = entry, .layout = l });
    wg_shader_module_release(m);
    return p;
}
static wg_error_id c_pipe_module(ctx *c, uint32_t p) {
    wg_shader_module *m = NULL;
    if (p == 1) {
        wg_device_push_error_scope(c->dev, WG_ERROR_TYPE_VALIDATION);
        m = wg_device_create_shader_module(c->dev, &(wg_shader_module_desc){ .spirv = data, .spirv_words = 1 });
        wg_device_pop_error_scope(c->dev, NULL);
    }
    wg_compute_pipeline_release(wg_device_create_compute_pipeline(c->dev, &(wg_compute_pipeline_desc){ .module = m }));
    wg_shader_module_release(m);
    return 0;
}
static wg_error_id c_pipe_entry(ctx *c, uint32_t p) {
    const char *names[] = { "nope", "", "mai", "main2", "MAIN" };
    wg_compute_pipeline_release(pipe_from(c, test_inc_spv, test_inc_spv_words, names[p], NULL));
    return 0;
}
static wg_error_id c_pipe_wgsize(ctx *c, uint32_t p) {
    size_t n = test_inc_spv_words;
    uint32_t *w = spv_copy(test_inc_spv, n);
    uint32_t *em = spv_find(w, n, 16, 2, 17);
    static const uint32_t s[][3] = { { 2048, 1, 1 }, { 1, 2048, 1 }, { 1, 1, 2048 }, { 64, 64, 1 }, { 0, 1, 1 },
                                     { 32, 32, 2 } };
    memcpy(&em[3], s[p], 12);
    wg_compute_pipeline_release(pipe_from(c, w, n, NULL, NULL));
    free(w);
    return 0;
}
static wg_error_id c_pipe_group(ctx *c, uint32_t p) {
    size_t n = test_inc_spv_words;
    uint32_t *w = spv_copy(test_inc_spv, n);
    spv_find(w, n, 71, 2, 34)[3] = 8 + p; /* DescriptorSet 8+ */
    wg_compute_pipeline_release(pipe_from(c, w, n, NULL, NULL));
    free(w);
    return 0;
}
static wg_error_id c_pipe_layout(ctx *c, uint32_t p) {
    wg_pipeline_layout *pl = NULL;
    wg_bind_group_layout *l = NULL;
    const uint32_t *spv = test_inc_spv;
    size_t n = test_inc_spv_words;
    switch (p) {
    case 0: pl = wg_device_create_pipeline_layout(c->dev, NULL); break;   /* no groups */
    case 1: l = wg_device_create_bind_group_layout(c->dev, &(wg_bind_group_layout_desc){
                .entry_count = 1, .entries = &(wg_bind_group_layout_entry){ .binding = 1 } }); break;
    case 2: l = c->l_uniform; wg_bind_group_layout_retain(l); break;
    case 3: l = c->l_ro; wg_bind_group_layout_retain(l); break;         /* inc writes */
    case 4: l = c->l_uniform; wg_bind_group_layout_retain(l); spv = gpu_add_spv; n = gpu_add_spv_words; break;
    case 5: l = c->l_storage; wg_bind_group_layout_retain(l); spv = gpu_add_spv; n = gpu_add_spv_words; break;
    }
    if (l)
        pl = wg_device_create_pipeline_layout(c->dev, &(wg_pipeline_layout_desc){ .bind_group_layout_count = 1,
                                                                                   .bind_group_layouts = &l });
    wg_compute_pipeline_release(pipe_from(c, spv, n, NULL, pl));
    wg_pipeline_layout_release(pl);
    wg_bind_group_layout_release(l);
    return 0;
}
static wg_error_id c_pipe_invalid_layout(ctx *c, uint32_t p) {
    wg_device_push_error_scope(c->dev, WG_ERROR_TYPE_VALIDATION);
    wg_bind_group_layout *ls[9] = { 0 };
    for (int i = 0; i < 9; i++)
        ls[i] = c->l_storage;
    wg_pipeline_layout *pl = wg_device_create_pipeline_layout(
        c->dev, &(wg_pipeline_layout_desc){ .bind_group_layout_count = 9, .bind_group_layouts = ls });
    wg_device_pop_error_scope(c->dev, NULL);
    wg_compute_pipeline_release(pipe_from(c, test_inc_spv, test_inc_spv_words, NULL, pl));
    wg_pipeline_layout_release(pl);
    return 0;
}
static wg_error_id c_get_bgl(ctx *c, uint32_t p) {
    wg_compute_pipeline_get_bind_group_layout(c->inc, p);
    return 0;
}
/* driver statistics on a device without the feature (the fixture enables none) */
static wg_error_id c_pipe_stats(ctx *c, uint32_t p) {
    wg_pipeline_statistic st[4];
    CHECK(wg_compute_pipeline_get_statistics(c->inc, p ? st : NULL, p ? 4 : 0) == 0);
    return 0;
}

/* ---- bind groups ---- */
static wg_error_id c_bg_entries(ctx *c, uint32_t p) {
    wg_bind_group_entry e[3] = { { 0, c->storage, 0, 0 }, { 1, c->storage, 0, 0 }, { 2, c->storage, 0, 0 } };
    wg_bind_group_layout *l = c->l_storage;
    size_t n = 1;
    const wg_bind_group_entry *ents = e;
    switch (p) {
    case 0: e[0].binding = 1; break;                       /* extra */
    case 1: e[0].binding = 5; break;
    case 2: n = 2, e[1].binding = 0; break;                /* duplicate */
    case 3: n = 0; break;                                  /* missing */
    case 4: l = wg_compute_pipeline_get_bind_group_layout(c->add, 0), n = 2; break;
    case 5: l = wg_compute_pipeline_get_bind_group_layout(c->add, 0), n = 2, e[1].binding = 2; break;
    case 6: l = wg_compute_pipeline_get_bind_group_layout(c->add, 0), n = 1, e[0].binding = 2; break;
    case 7: ents = NULL; break;                            /* count without entries */
    case 8: l = NULL; break;
    case 9: l = wg_compute_pipeline_get_bind_group_layout(c->add, 0), n = 3, e[2].binding = 3; break;
    }
    wg_bind_group_release(wg_device_create_bind_group(
        c->dev, &(wg_bind_group_desc){ .label = "bad group", .layout = l, .entry_count = n, .entries = ents }));
    return 0;
}
static wg_error_id c_bg_buffer(ctx *c, uint32_t p) {
    wg_buffer *b = NULL;
    wg_bind_group_layout *l = c->l_storage;
    switch (p) {
    case 0: break;
    case 1: b = invalid_buffer(c); break;
    case 2: b = destroyed_buffer(c, 0); break;
    case 3: b = c->other; wg_buffer_retain(b); break;
    case 4: b = buf(c, 256, WG_BUFFER_USAGE_UNIFORM); break;                  /* storage binding, wrong usage */
    case 5: b = buf(c, 256, WG_BUFFER_USAGE_MAP_READ); break;
    case 6: b = buf(c, 256, WG_BUFFER_USAGE_MAP_WRITE); break;
    case 7: b = buf(c, 256, WG_BUFFER_USAGE_INDIRECT); break;
    case 8: b = buf(c, 256, WG_BUFFER_USAGE_QUERY_RESOLVE); break;
    case 9: b = buf(c, 256, WG_BUFFER_USAGE_COPY_DST | WG_BUFFER_USAGE_COPY_SRC); break;
    case 10: b = buf(c, 256, WG_BUFFER_USAGE_STORAGE); l = c->l_uniform; break; /* uniform binding */
    case 11: b = buf(c, 256, WG_BUFFER_USAGE_COPY_DST); l = c->l_uniform; break;
    }
    wg_bind_group_release(wg_device_create_bind_group(c->dev, &(wg_bind_group_desc){
        .layout = l, .entry_count = 1, .entries = &(wg_bind_group_entry){ .binding = 0, .buffer = b } }));
    wg_buffer_release(b);
    return 0;
}
static wg_error_id c_bg_range(ctx *c, uint32_t p) {
    static const struct { int uniform; uint64_t off, size; } r[] = {
        { 0, 4, 16 }, { 0, 8, 16 }, { 0, 12, 16 }, { 0, 20, 16 }, { 1, 4, 16 }, { 1, 8, 16 },  /* unaligned */
        { 0, 1040, 16 }, { 0, 16, 1024 }, { 0, 0, 1028 }, { 1, 0, 300 },                        /* range */
        { 0, 1024, 0 },                                                                         /* zero */
        { 0, 0, 6 }, { 0, 16, 10 },                                                             /* size align */
        { 2, 0, 0 }, { 2, 0, 65536 + 16 },                                                      /* uniform limit */
        { 3, 0, 32 },                                                                           /* min size */
    };
    wg_bind_group_layout *l = r[p].uniform == 1 ? c->l_uniform : r[p].uniform == 2 ? c->l_uniform
                            : r[p].uniform == 3 ? c->l_min : c->l_storage;
    wg_buffer *b = r[p].uniform == 1 ? c->uniform : r[p].uniform == 2 ? c->big_uniform : c->storage;
    wg_bind_group_release(wg_device_create_bind_group(c->dev, &(wg_bind_group_desc){
        .layout = l, .entry_count = 1,
        .entries = &(wg_bind_group_entry){ .binding = 0, .buffer = b, .offset = r[p].off, .size = r[p].size } }));
    return 0;
}
/* A bind group with more entries than fit on the stack (32 storage + 1 uniform): valid. */
static wg_error_id c_bg_big(ctx *c, uint32_t p) {
    wg_bind_group_layout_entry le[33];
    wg_bind_group_entry be[33];
    for (uint32_t i = 0; i < 33; i++) {
        le[i] = (wg_bind_group_layout_entry){ .binding = i, .type = i == 32 ? WG_BINDING_TYPE_UNIFORM : WG_BINDING_TYPE_STORAGE };
        be[i] = (wg_bind_group_entry){ .binding = i, .buffer = i == 32 ? c->uniform : c->storage, .size = 64 };
    }
    uint32_t n = p ? 33 : 32;
    wg_bind_group_layout *l = wg_device_create_bind_group_layout(c->dev, &(wg_bind_group_layout_desc){
        .entry_count = n, .entries = le });
    wg_bind_group *g = wg_device_create_bind_group(c->dev, &(wg_bind_group_desc){
        .layout = l, .entry_count = n, .entries = be });
    wg_bind_group_release(g);
    wg_bind_group_layout_release(l);
    return 0;
}

static wg_error_id c_bg_dev2_limit(ctx *c, uint32_t p) {
    /* dev2 has maxStorageBufferBindingSize 4096 */
    wg_device *d = c->dev2;
    wg_buffer *b = mkbuf(d, "big", 8192, 0);
    wg_bind_group_layout *l = wg_device_create_bind_group_layout(d, &(wg_bind_group_layout_desc){
        .entry_count = 1, .entries = &(wg_bind_group_layout_entry){ .binding = 0 } });
    wg_device_push_error_scope(d, WG_ERROR_TYPE_VALIDATION);
    wg_bind_group_release(wg_device_create_bind_group(d, &(wg_bind_group_desc){
        .layout = l, .entry_count = 1,
        .entries = &(wg_bind_group_entry){ .binding = 0, .buffer = b, .size = p ? 4100 : 0 } }));
    wg_error e;
    wg_error_id id = wg_device_pop_error_scope(d, &e);
    CHECKF(strstr(e.message, "above maxStorageBufferBindingSize 4096"), "message names the limit: %s", e.message);
    wg_bind_group_layout_release(l);
    wg_buffer_release(b);
    return id;
}

/* ---- encoding ---- */
static wg_error_id c_dispatch_state(ctx *c, uint32_t p) {
    wg_command_encoder *e = enc(c);
    wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(e, NULL);
    if (p >= 1)
        wg_compute_pass_set_pipeline(pass, c->inc);
    if (p == 2)
        wg_compute_pass_set_bind_group(pass, 0, c->add_group, 0, NULL);
    if (p == 3) { /* group set, then unset */
        wg_compute_pass_set_bind_group(pass, 0, c->inc_group, 0, NULL);
        wg_compute_pass_set_bind_group(pass, 0, NULL, 0, NULL);
    }
    if (p == 4) { /* indirect without pipeline */
        wg_compute_pass_set_pipeline(pass, NULL);
    } else if (p == 5) {
        wg_compute_pass *p2 = pass;
        wg_command_encoder_release(e);
        e = enc(c);
        pass = wg_command_encoder_begin_compute_pass(e, NULL);
        wg_compute_pass_dispatch_workgroups_indirect(pass, c->indirect, 0);
        wg_compute_pass_end(p2);
        wg_compute_pass_release(p2);
    } else {
        wg_compute_pass_dispatch_workgroups(pass, 1, 1, 1);
    }
    wg_compute_pass_end(pass);
    wg_compute_pass_release(pass);
    finish_release(e);
    return 0;
}
static wg_error_id c_dispatch_size(ctx *c, uint32_t p) {
    static const uint32_t s[][3] = { { 65536, 1, 1 }, { 1, 65536, 1 }, { 1, 1, 65536 }, { UINT32_MAX, 1, 1 },
                                     { 1, UINT32_MAX, 1 }, { 70000, 70000, 70000 } };
    wg_command_encoder *e = enc(c);
    wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(e, NULL);
    wg_compute_pass_set_pipeline(pass, c->inc);
    wg_compute_pass_set_bind_group(pass, 0, c->inc_group, 0, NULL);
    wg_compute_pass_dispatch_workgroups(pass, s[p][0], s[p][1], s[p][2]);
    wg_compute_pass_end(pass);
    wg_compute_pass_release(pass);
    finish_release(e);
    return 0;
}
static wg_error_id c_set_group(ctx *c, uint32_t p) {
    wg_command_encoder *e = enc(c);
    wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(e, NULL);
    uint32_t offs[2] = { 0, 0 };
    wg_bind_group *bad = NULL;
    switch (p) {
    case 0: wg_compute_pass_set_bind_group(pass, 8, c->inc_group, 0, NULL); break;
    case 1: wg_compute_pass_set_bind_group(pass, 9, c->inc_group, 0, NULL); break;
    case 2: wg_compute_pass_set_bind_group(pass, 100, c->inc_group, 0, NULL); break;
    case 3: wg_compute_pass_set_bind_group(pass, 0, c->inc_group, 1, offs); break;      /* count */
    case 4: wg_compute_pass_set_bind_group(pass, 0, c->dyn_group, 0, NULL); break;
    case 5: wg_compute_pass_set_bind_group(pass, 0, c->dyn_group, 2, offs); break;
    case 6: offs[0] = 4; wg_compute_pass_set_bind_group(pass, 0, c->dyn_group, 1, offs); break;  /* align */
    case 7: offs[0] = 8; wg_compute_pass_set_bind_group(pass, 0, c->dyn_group, 1, offs); break;
    case 8: offs[0] = 1024; wg_compute_pass_set_bind_group(pass, 0, c->dyn_group, 1, offs); break; /* range */
    case 9: offs[0] = 1u << 30; wg_compute_pass_set_bind_group(pass, 0, c->dyn_group, 1, offs); break;
    case 10: wg_compute_pass_set_pipeline(pass, NULL); break;
    case 11:
        wg_device_push_error_scope(c->dev, WG_ERROR_TYPE_VALIDATION);
        bad = wg_device_create_bind_group(c->dev, NULL);
        wg_device_pop_error_scope(c->dev, NULL);
        wg_compute_pass_set_bind_group(pass, 0, bad, 0, NULL);
        break;
    case 12: {
        wg_compute_pipeline *ip;
        wg_device_push_error_scope(c->dev, WG_ERROR_TYPE_VALIDATION);
        ip = wg_device_create_compute_pipeline(c->dev, NULL);
        wg_device_pop_error_scope(c->dev, NULL);
        wg_compute_pass_set_pipeline(pass, ip);
        wg_compute_pipeline_release(ip);
        break;
    }
    case 13: wg_compute_pass_set_bind_group(pass, 0, (wg_bind_group *)NULL, 1, offs);
        wg_compute_pass_set_pipeline(pass, c->inc); wg_compute_pass_dispatch_workgroups(pass, 1, 1, 1); break;
    }
    wg_compute_pass_end(pass);
    wg_compute_pass_release(pass);
    finish_release(e);
    wg_bind_group_release(bad);
    return 0;
}
static wg_error_id c_copy(ctx *c, uint32_t p) {
    static const struct { int src, dst; uint64_t so, dof, size; } r[] = {
        { 0, 0, 0, 16, 16 },                                                        /* same buffer */
        { 0, 1, 1, 0, 16 }, { 0, 1, 2, 0, 16 }, { 0, 1, 3, 0, 16 },                 /* src offset */
        { 0, 1, 0, 1, 16 }, { 0, 1, 0, 2, 16 }, { 0, 1, 0, 3, 16 },                 /* dst offset */
        { 0, 1, 0, 0, 1 }, { 0, 1, 0, 0, 2 }, { 0, 1, 0, 0, 3 },                    /* size */
        { 0, 1, 1020, 0, 8 }, { 0, 1, 0, 1020, 8 }, { 0, 1, 0, 0, 2048 }, { 0, 1, UINT64_MAX - 3, 0, 8 },
        { 2, 1, 0, 0, 16 }, { 3, 1, 0, 0, 16 },                                     /* src lacks COPY_SRC */
        { 0, 4, 0, 0, 16 }, { 0, 5, 0, 0, 16 },                                     /* dst lacks COPY_DST */
        { 6, 1, 0, 0, 16 }, { 0, 6, 0, 0, 16 },                                     /* destroyed */
        { 7, 1, 0, 0, 16 }, { 0, 7, 0, 0, 16 },                                     /* NULL */
        { 8, 1, 0, 0, 16 }, { 0, 9, 0, 0, 16 },                                     /* other device */
    };
    wg_buffer *bs[10] = { c->storage, buf(c, 1024, 0), c->uniform, c->mapread, c->mapwrite, c->resolve,
                          destroyed_buffer(c, 0), NULL, c->other, c->other };
    wg_command_encoder *e = enc(c);
    wg_command_encoder_copy_buffer_to_buffer(e, bs[r[p].src], r[p].so, bs[r[p].dst], r[p].dof, r[p].size);
    finish_release(e);
    wg_buffer_release(bs[1]);
    wg_buffer_release(bs[6]);
    return 0;
}
static wg_error_id c_clear(ctx *c, uint32_t p) {
    static const struct { int b; uint64_t off, size; } r[] = {
        { 0, 1, 16 }, { 0, 2, 16 }, { 0, 3, 16 }, { 0, 0, 1 }, { 0, 0, 2 }, { 0, 4, 3 },
        { 0, 1028, 4 }, { 0, 512, 1024 }, { 1, 0, 16 }, { 2, 0, 16 }, { 3, 0, 16 }, { 4, 0, 16 },
    };
    wg_buffer *bs[5] = { c->storage, c->mapwrite, c->resolve, destroyed_buffer(c, 0), NULL };
    wg_command_encoder *e = enc(c);
    wg_command_encoder_clear_buffer(e, bs[r[p].b], r[p].off, r[p].size);
    finish_release(e);
    wg_buffer_release(bs[3]);
    return 0;
}
static void do_op(ctx *c, wg_command_encoder *e, uint32_t op) {
    switch (op) {
    case 0: wg_command_encoder_copy_buffer_to_buffer(e, c->storage, 0, c->resolve, 0, 16); break;
    case 1: wg_command_encoder_clear_buffer(e, c->storage, 0, 16); break;
    case 2: wg_command_encoder_write_timestamp(e, c->qs, 0); break;
    case 3: wg_command_encoder_resolve_query_set(e, c->qs, 0, 1, c->resolve, 0); break;
    case 4: { wg_compute_pass *p = wg_command_encoder_begin_compute_pass(e, NULL);
              wg_compute_pass_end(p); wg_compute_pass_release(p); break; }
    case 5: wg_command_buffer_release(wg_command_encoder_finish(e, NULL)); break;
    }
}
static wg_error_id c_enc_finished(ctx *c, uint32_t p) {
    wg_command_encoder *e = enc(c);
    wg_command_buffer_release(wg_command_encoder_finish(e, NULL));
    do_op(c, e, p);
    wg_command_encoder_release(e);
    return 0;
}
static wg_error_id c_enc_locked(ctx *c, uint32_t p) {
    wg_command_encoder *e = enc(c);
    wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(e, NULL);
    if (p == 4) {
        wg_compute_pass *p2 = wg_command_encoder_begin_compute_pass(e, NULL);
        wg_compute_pass_release(p2);
    } else {
        do_op(c, e, p);
    }
    wg_compute_pass_end(pass);
    wg_compute_pass_release(pass);
    finish_release(e);
    return 0;
}
static wg_error_id c_pass_ended(ctx *c, uint32_t p) {
    wg_command_encoder *e = enc(c);
    wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(e, NULL);
    wg_compute_pass_end(pass);
    switch (p) {
    case 0: wg_compute_pass_set_pipeline(pass, c->inc); break;
    case 1: wg_compute_pass_set_bind_group(pass, 0, c->inc_group, 0, NULL); break;
    case 2: wg_compute_pass_dispatch_workgroups(pass, 1, 1, 1); break;
    case 3: wg_compute_pass_dispatch_workgroups_indirect(pass, c->indirect, 0); break;
    case 4: wg_compute_pass_end(pass); break;
    }
    wg_compute_pass_release(pass);
    finish_release(e);
    return 0;
}
static wg_error_id c_open_at_finish(ctx *c, uint32_t p) {
    wg_command_encoder *e = enc(c);
    wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(e, NULL);
    if (p == 1) {
        wg_compute_pass_set_pipeline(pass, c->inc);
        wg_compute_pass_set_bind_group(pass, 0, c->inc_group, 0, NULL);
        wg_compute_pass_dispatch_workgroups(pass, 1, 1, 1);
    }
    finish_release(e);
    wg_compute_pass_release(pass);
    return 0;
}
static wg_error_id c_indirect(ctx *c, uint32_t p) {
    static const uint64_t offs[] = { 1, 2, 56, 64, 100, UINT64_MAX - 3, 0, 0 };
    wg_buffer *b = p == 6 ? buf(c, 64, WG_BUFFER_USAGE_STORAGE) : p == 7 ? destroyed_buffer(c, WG_BUFFER_USAGE_INDIRECT)
                                                                        : c->indirect;
    if (b == c->indirect)
        wg_buffer_retain(b);
    wg_command_encoder *e = enc(c);
    wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(e, NULL);
    wg_compute_pass_set_pipeline(pass, c->inc);
    wg_compute_pass_set_bind_group(pass, 0, c->inc_group, 0, NULL);
    wg_compute_pass_dispatch_workgroups_indirect(pass, b, offs[p]);
    wg_compute_pass_end(pass);
    wg_compute_pass_release(pass);
    finish_release(e);
    wg_buffer_release(b);
    return 0;
}
static wg_error_id c_timestamp(ctx *c, uint32_t p) {
    wg_command_encoder *e = enc(c);
    wg_query_set *dq = NULL;
    switch (p) {
    case 0: wg_command_encoder_write_timestamp(e, c->qs, 4); break;
    case 1: wg_command_encoder_write_timestamp(e, c->qs, 100); break;
    case 2: dq = wg_device_create_query_set(c->dev, &(wg_query_set_desc){ .count = 2 });
        wg_query_set_destroy(dq); wg_command_encoder_write_timestamp(e, dq, 0); break;
    case 3: case 4: case 5: {
        wg_compute_pass_desc d = { .timestamp_query_set = c->qs, .beginning_index = p == 3 ? 4 : 0,
                                   .end_index = p == 4 ? 9 : 0, .write_beginning = true, .write_end = true };
        wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(e, &d);
        wg_compute_pass_end(pass);
        wg_compute_pass_release(pass);
        break;
    }
    case 6: wg_command_encoder_resolve_query_set(e, c->qs, 4, 1, c->resolve, 0); break;
    case 7: wg_command_encoder_resolve_query_set(e, c->qs, 2, 3, c->resolve, 0); break;
    case 8: wg_command_encoder_resolve_query_set(e, c->qs, 0, 1, c->resolve, 8); break;
    case 9: wg_command_encoder_resolve_query_set(e, c->qs, 0, 1, c->resolve, 128); break;
    case 10: wg_command_encoder_resolve_query_set(e, c->qs, 0, 4, c->resolve, 1024); break;
    case 11: wg_command_encoder_resolve_query_set(e, c->qs, 0, 4, c->storage, 0); break;
    case 12: wg_command_encoder_write_timestamp(e, NULL, 0); break;
    }
    finish_release(e);
    wg_query_set_release(dq);
    return 0;
}
static wg_error_id c_query_set(ctx *c, uint32_t p) {
    static const struct { int type; uint32_t count; } r[] = { { 0, 0 }, { 0, 4097 }, { 1, 4 }, { 7, 4 }, { -1, 4 } };
    wg_query_set_release(wg_device_create_query_set(
        c->dev, &(wg_query_set_desc){ .type = (wg_query_type)r[p].type, .count = r[p].count }));
    return 0;
}
static wg_error_id c_query_read(ctx *c, uint32_t p) {
    uint64_t ns[8];
    wg_query_set *q = wg_device_create_query_set(c->dev, &(wg_query_set_desc){ .count = 4 });
    if (p == 0)
        wg_query_set_read_ns(q, 2, 3, ns);
    else if (p == 1)
        wg_query_set_read_ns(q, 5, 0, ns);
    else {
        wg_query_set_destroy(q);
        wg_query_set_read_ns(q, 0, 1, ns);
    }
    wg_query_set_release(q);
    return 0;
}

/* ---- submission ---- */
static wg_command_buffer *copy_cb(ctx *c, wg_buffer *src, wg_buffer *dst) {
    wg_command_encoder *e = enc(c);
    wg_command_encoder_copy_buffer_to_buffer(e, src, 0, dst, 0, 16);
    wg_command_buffer *cb = wg_command_encoder_finish(e, NULL);
    wg_command_encoder_release(e);
    return cb;
}
static wg_error_id c_submit(ctx *c, uint32_t p) {
    wg_buffer *tmp = buf(c, 1024, 0);
    wg_command_buffer *cb = NULL;
    switch (p) {
    case 0: /* resubmit */
        cb = copy_cb(c, c->storage, tmp);
        wg_command_buffer_retain(cb);
        wg_queue_submit(c->q, 1, &cb);
        wg_queue_submit(c->q, 1, &cb);
        break;
    case 1: { /* twice in one submit */
        cb = copy_cb(c, c->storage, tmp);
        wg_command_buffer_retain(cb);
        wg_command_buffer *two[2] = { cb, cb };
        wg_queue_submit(c->q, 2, two);
        break;
    }
    case 2: { /* invalid command buffer */
        wg_device_push_error_scope(c->dev, WG_ERROR_TYPE_VALIDATION);
        cb = copy_cb(c, c->storage, c->storage);
        wg_device_pop_error_scope(c->dev, NULL);
        wg_queue_submit(c->q, 1, &cb);
        break;
    }
    case 3: cb = copy_cb(c, tmp, c->storage); wg_buffer_destroy(tmp); wg_queue_submit(c->q, 1, &cb); break;
    case 4: cb = copy_cb(c, c->storage, tmp); wg_buffer_destroy(tmp); wg_queue_submit(c->q, 1, &cb); break;
    case 5: { /* a bind group's buffer destroyed before submit */
        wg_bind_group *g = mkgroup(c->dev, c->inc, 1, &tmp);
        wg_command_encoder *e = enc(c);
        wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(e, NULL);
        wg_compute_pass_set_pipeline(pass, c->inc);
        wg_compute_pass_set_bind_group(pass, 0, g, 0, NULL);
        wg_compute_pass_dispatch_workgroups(pass, 1, 1, 1);
        wg_compute_pass_end(pass);
        wg_compute_pass_release(pass);
        cb = wg_command_encoder_finish(e, NULL);
        wg_command_encoder_release(e);
        wg_bind_group_release(g);
        wg_buffer_destroy(tmp);
        wg_queue_submit(c->q, 1, &cb);
        break;
    }
    case 6: { /* mapped buffer used */
        wg_buffer *m = buf(c, 256, WG_BUFFER_USAGE_MAP_READ | WG_BUFFER_USAGE_COPY_DST);
        cb = copy_cb(c, c->storage, m);
        wg_buffer_map_async(m, WG_MAP_MODE_READ, 0, 256, nop_cb, NULL);
        wg_queue_submit(c->q, 1, &cb);
        wg_buffer_release(m);
        break;
    }
    case 7: { /* mapped_at_creation buffer used */
        wg_buffer *m = wg_device_create_buffer(c->dev, &(wg_buffer_desc){ .size = 64, .mapped_at_creation = true });
        cb = copy_cb(c, m, tmp);
        wg_queue_submit(c->q, 1, &cb);
        wg_buffer_release(m);
        break;
    }
    case 8: { /* destroyed query set */
        wg_query_set *q = wg_device_create_query_set(c->dev, &(wg_query_set_desc){ .count = 2 });
        wg_command_encoder *e = enc(c);
        wg_command_encoder_write_timestamp(e, q, 0);
        cb = wg_command_encoder_finish(e, NULL);
        wg_command_encoder_release(e);
        wg_query_set_destroy(q);
        wg_queue_submit(c->q, 1, &cb);
        wg_query_set_release(q);
        break;
    }
    case 9: { wg_command_buffer *n = NULL; wg_queue_submit(c->q, 1, &n); break; }
    case 10: { wg_command_buffer *many[65] = { 0 }; wg_queue_submit(c->q, 65, many); break; }
    case 11: { /* 64 is fine */
        wg_command_buffer *many[64];
        for (int i = 0; i < 64; i++)
            many[i] = copy_cb(c, c->storage, tmp);
        wg_device_push_error_scope(c->dev, WG_ERROR_TYPE_VALIDATION);
        CHECK(wg_queue_submit(c->q, 64, many) != 0);
        wg_error_id id = wg_device_pop_error_scope(c->dev, NULL);
        wg_buffer_release(tmp);
        return id;
    }
    case 12: wg_queue_submit(c->q, 1, NULL); break; /* a count and no array */
    }
    wg_buffer_release(tmp);
    return 0;
}
/* the one-call runner: a count with a NULL array is an error in its result, never a read through NULL */
static wg_error_id c_runner(ctx *c, uint32_t p) {
    wg_kernel_run_result r;
    wg_kernel_run_desc d = { .wgsl = "override n: u32 = 1u;\n"
                                     "@group(0) @binding(0) var<storage, read_write> x: array<u32>;\n"
                                     "@compute @workgroup_size(1) fn main() { x[0] = n; }\n",
                             .dispatch = { 1, 1, 1 } };
    if (p == 0)
        d.binding_count = 3;
    else
        d.override_count = 3;
    CHECK(wg_device_run_kernel(c->dev, &d, &r) == WG_STATUS_ERROR);
    return r.error.id;
}
/* a released buffer (last reference gone) stays readable while the device lives: every later
 * release, retain, destroy or use is WG_ERR_OBJECT_RELEASED, never a use-after-free */
static wg_error_id c_released(ctx *c, uint32_t p) {
    wg_buffer *b = buf(c, 256, WG_BUFFER_USAGE_STORAGE | WG_BUFFER_USAGE_COPY_DST | WG_BUFFER_USAGE_COPY_SRC);
    wg_buffer_release(b);
    switch (p) {
    case 0: wg_buffer_release(b); break;
    case 1: wg_buffer_retain(b); break;
    case 2: wg_buffer_destroy(b); break;
    case 3: wg_queue_write_buffer(c->q, b, 0, data, 16); break;
    case 4: { wg_command_encoder *e = enc(c); wg_command_encoder_copy_buffer_to_buffer(e, c->storage, 0, b, 0, 16);
              finish_release(e); break; }
    case 5: wg_bind_group_release(mkgroup(c->dev, c->inc, 1, &b)); break;
    case 6: /* released long ago: many releases since, still detected within WG_RELEASED_KEEP */
        for (int i = 0; i < 200; i++)
            wg_buffer_release(buf(c, 64, 0));
        wg_buffer_release(b);
        break;
    }
    return 0;
}
static wg_error_id c_scope(ctx *c, uint32_t p) {
    wg_device_push_error_scope(c->dev, (wg_error_type)p);
    return 0;
}

/* ---- instance / adapter / device creation (errors come back through wg_error) ---- */
static wg_error_id c_create(ctx *c, uint32_t p) {
    wg_error err = { 0 };
    if (p == 0) {
        wg_instance *i = wg_instance_create(&(wg_instance_desc){ .vulkan_library = "/nonexistent/libvulkan.so.1" }, &err);
        CHECK(i == NULL);
        return err.id;
    }
    if (p == 1 || p == 2) {
        CHECK(wg_instance_request_adapter(c->f->inst, &(wg_adapter_options){ .select = p == 1 ? "no such gpu" : "99" },
                                          &err) == NULL);
        return err.id;
    }
    wg_limits lim = { 0 };
    const wg_limits *al = wg_adapter_get_limits(c->f->ad);
    uint64_t feat = 0;
    int copy = 0, memory = 0;
    switch (p) {
    case 11: copy = WG_COPY_ENGINE_COUNT; break;
    case 12: copy = -1; break;
    case 13: memory = WG_DEVICE_MEMORY_COUNT; break;
    case 3: feat = WG_FEATURE_BIT(WG_FEATURE_COOPERATIVE_MATRIX); break;
    case 4: feat = 1ull << 40; break;
    case 10: feat = WG_FEATURE_BIT(WG_FEATURE_PIPELINE_STATISTICS); break;
    case 5: lim.max_buffer_size = al->max_buffer_size + 1; break;
    case 6: lim.max_compute_invocations_per_workgroup = al->max_compute_invocations_per_workgroup * 2; break;
    case 7: lim.min_storage_buffer_offset_alignment = al->min_storage_buffer_offset_alignment / 2; break;
    case 8: lim.min_uniform_buffer_offset_alignment = 24; break;
    case 9: lim.max_bind_groups = 100; break;
    }
    wg_device *d = wg_adapter_create_device(c->f->ad, &(wg_device_desc){ .required_features = feat,
        .required_limits = &lim, .cache_dir = "", .copy_engine = (wg_copy_engine)copy,
        .device_memory = (wg_device_memory)memory }, &err);
    CHECK(d == NULL);
    wg_device_release(d);
    return err.id;
}

static void build_cases(const wg_limits *L, bool coop, bool stats) {
    ROWS("buffer usage bits", WG_ERR_BUFFER_USAGE_INVALID, c_buf_usage, 0x10, 0x20, 0x400, 0x800, 0x1000, 0x8000,
         0x10000, 0x80000000u, 0x90, 0xffffffffu);
    ROWS("map usage mix", WG_ERR_BUFFER_MAP_USAGE_MIX, c_buf_usage, 0x3, 0x5, 0x41, 0x81, 0x101, 0x201, 0xa, 0x42,
         0x82, 0x102, 0x202, 0x9 | 0x4);
    ROWS("buffer too large", WG_ERR_BUFFER_TOO_LARGE, c_buf_large, 0, 1, 2, 3, 4);
    ROWS("mapped size", WG_ERR_MAPPED_SIZE_ALIGN, c_buf_mapped, 1, 2, 3, 5, 6, 7, 9, 1023);
    ROWS("write offset", WG_ERR_UNALIGNED_OFFSET, c_write_off, 1, 2, 3, 5, 6, 7, 1022);
    ROWS("write size", WG_ERR_UNALIGNED_SIZE, c_write_size, 1, 2, 3, 5, 6, 7, 1023);
    ROWS("write range", WG_ERR_RANGE_OUT_OF_BOUNDS, c_write_oob, 0, 1, 2, 3, 4, 5);
    ROWS("write usage", WG_ERR_BUFFER_USAGE_MISSING, c_write_usage, WG_BUFFER_USAGE_STORAGE, WG_BUFFER_USAGE_UNIFORM,
         WG_BUFFER_USAGE_MAP_READ, WG_BUFFER_USAGE_INDIRECT, WG_BUFFER_USAGE_QUERY_RESOLVE,
         WG_BUFFER_USAGE_MAP_WRITE | WG_BUFFER_USAGE_COPY_SRC, WG_BUFFER_USAGE_STORAGE | WG_BUFFER_USAGE_COPY_SRC);
    add_case("write destroyed", 0, WG_ERR_BUFFER_DESTROYED, c_write_misc);
    add_case("write mapped", 1, WG_ERR_BUFFER_MAPPED, c_write_misc);
    add_case("write null data", 2, WG_ERR_WRITE_NULL_DATA, c_write_misc);
    add_case("write null buffer", 3, WG_ERR_NULL_OBJECT, c_write_misc);
    add_case("write invalid buffer", 4, WG_ERR_INVALID_OBJECT, c_write_misc);
    add_case("write other device", 5, WG_ERR_WRONG_DEVICE, c_write_misc);
    ROWS("map mode", WG_ERR_MAP_MODE_INVALID, c_map_mode, 0, 1, 2, 3, 4);
    ROWS("map offset", WG_ERR_UNALIGNED_OFFSET, c_map_range, 0, 1, 2, 3, 4, 5, 6);
    ROWS("map size", WG_ERR_UNALIGNED_SIZE, c_map_range, 7, 8, 9, 10);
    ROWS("map range", WG_ERR_RANGE_OUT_OF_BOUNDS, c_map_range, 11, 12, 13);
    ROWS("map twice", WG_ERR_BUFFER_MAPPED, c_map_state, 0, 1);
    add_case("map destroyed", 2, WG_ERR_BUFFER_DESTROYED, c_map_state);
    add_case("map invalid", 3, WG_ERR_INVALID_OBJECT, c_map_state);
    add_case("mapped range unmapped", 0, WG_ERR_BUFFER_NOT_MAPPED, c_mapped_range);
    ROWS("mapped range outside", WG_ERR_MAPPED_RANGE_INVALID, c_mapped_range, 1, 2, 3, 6);
    add_case("mapped range offset", 4, WG_ERR_UNALIGNED_OFFSET, c_mapped_range);
    add_case("mapped range size", 5, WG_ERR_UNALIGNED_SIZE, c_mapped_range);
    add_case("read usage", 0, WG_ERR_BUFFER_USAGE_MISSING, c_read);
    add_case("read destroyed", 1, WG_ERR_BUFFER_DESTROYED, c_read);
    add_case("read range", 2, WG_ERR_RANGE_OUT_OF_BOUNDS, c_read);
    add_case("read null dst", 3, WG_ERR_WRITE_NULL_DATA, c_read);
    ROWS("layout duplicate", WG_ERR_LAYOUT_DUPLICATE_BINDING, c_bgl, 0, 1, 2);
    ROWS("layout type", WG_ERR_LAYOUT_BINDING_TYPE, c_bgl, 3, 4, 5);
    ROWS("layout limits", WG_ERR_LAYOUT_TOO_MANY_BINDINGS, c_bgl, 6, 7, 8, 9, 10, 11, 12, 13);
    add_case("pipeline layout groups", 0, WG_ERR_TOO_MANY_BIND_GROUPS, c_pl);
    add_case("pipeline layout null", 1, WG_ERR_NULL_OBJECT, c_pl);
    add_case("pipeline layout invalid", 2, WG_ERR_INVALID_OBJECT, c_pl);
    add_case("pipeline layout null first", 3, WG_ERR_NULL_OBJECT, c_pl);
    ROWS("spirv empty", WG_ERR_SPIRV_EMPTY, c_spirv, 0, 1);
    ROWS("spirv magic", WG_ERR_SPIRV_MAGIC, c_spirv, 2, 3, 4, 5);
    ROWS("spirv malformed", WG_ERR_SPIRV_MALFORMED, c_spirv, 6, 7, 8, 9, 10, 11, 12, 13);
    add_case("spirv no compute", 14, WG_ERR_SPIRV_NO_COMPUTE_ENTRY, c_spirv);
    add_case("pipeline null module", 0, WG_ERR_NULL_OBJECT, c_pipe_module);
    add_case("pipeline invalid module", 1, WG_ERR_INVALID_OBJECT, c_pipe_module);
    ROWS("entry point", WG_ERR_ENTRY_POINT_NOT_FOUND, c_pipe_entry, 0, 1, 2, 3, 4);
    ROWS("workgroup size", WG_ERR_WORKGROUP_SIZE_LIMIT, c_pipe_wgsize, 0, 1, 2, 3, 4, 5);
    ROWS("auto layout group", WG_ERR_TOO_MANY_BIND_GROUPS, c_pipe_group, 0, 1, 92);
    ROWS("layout mismatch", WG_ERR_LAYOUT_MISMATCH, c_pipe_layout, 0, 1, 2, 3, 4);
    add_case("pipeline invalid layout", 0, WG_ERR_INVALID_OBJECT, c_pipe_invalid_layout);
    ROWS("get group layout", WG_ERR_BIND_GROUP_INDEX, c_get_bgl, 1, 8, 100);
    ROWS("statistics without the feature", WG_ERR_FEATURE_NOT_ENABLED, c_pipe_stats, 0, 1);
    ROWS("group extra entry", WG_ERR_BIND_ENTRY_EXTRA, c_bg_entries, 0, 1, 9);
    add_case("group duplicate entry", 2, WG_ERR_BIND_ENTRY_DUPLICATE, c_bg_entries);
    ROWS("group missing entry", WG_ERR_BIND_ENTRY_MISSING, c_bg_entries, 3, 4, 5, 6);
    add_case("group entries null", 7, WG_ERR_BIND_ENTRY_COUNT, c_bg_entries);
    add_case("group null layout", 8, WG_ERR_NULL_OBJECT, c_bg_entries);
    add_case("group null buffer", 0, WG_ERR_NULL_OBJECT, c_bg_buffer);
    add_case("group invalid buffer", 1, WG_ERR_INVALID_OBJECT, c_bg_buffer);
    add_case("group destroyed buffer", 2, WG_ERR_BUFFER_DESTROYED, c_bg_buffer);
    add_case("group other device", 3, WG_ERR_WRONG_DEVICE, c_bg_buffer);
    ROWS("group usage", WG_ERR_BUFFER_USAGE_MISSING, c_bg_buffer, 4, 5, 6, 7, 8, 9, 10, 11);
    ROWS("group offset", WG_ERR_UNALIGNED_OFFSET, c_bg_range, 0, 1, 2, 3, 4, 5);
    ROWS("group range", WG_ERR_RANGE_OUT_OF_BOUNDS, c_bg_range, 6, 7, 8, 9);
    add_case("group size zero", 10, WG_ERR_BIND_SIZE_ZERO, c_bg_range);
    ROWS("group size align", WG_ERR_BIND_SIZE_ALIGN, c_bg_range, 11, 12);
    ROWS("group uniform limit", WG_ERR_BIND_SIZE_LIMIT, c_bg_range, 13, 14);
    add_case("group min size", 15, WG_ERR_BIND_SIZE_MIN, c_bg_range);
    ROWS("group with 32/33 entries is fine", WG_ERR_NONE, c_bg_big, 0, 1);
    ROWS("group storage limit", WG_ERR_BIND_SIZE_LIMIT, c_bg_dev2_limit, 0, 1);
    add_case("dispatch no pipeline", 0, WG_ERR_NO_PIPELINE, c_dispatch_state);
    add_case("dispatch no group", 1, WG_ERR_BIND_GROUP_MISSING, c_dispatch_state);
    add_case("dispatch incompatible", 2, WG_ERR_BIND_GROUP_INCOMPATIBLE, c_dispatch_state);
    add_case("dispatch unset group", 3, WG_ERR_BIND_GROUP_MISSING, c_dispatch_state);
    add_case("set null pipeline", 4, WG_ERR_NULL_OBJECT, c_dispatch_state);
    add_case("indirect no pipeline", 5, WG_ERR_NO_PIPELINE, c_dispatch_state);
    ROWS("dispatch too large", WG_ERR_DISPATCH_TOO_LARGE, c_dispatch_size, 0, 1, 2, 3, 4, 5);
    ROWS("set group index", WG_ERR_BIND_GROUP_INDEX, c_set_group, 0, 1, 2);
    ROWS("dynamic count", WG_ERR_DYNAMIC_OFFSET_COUNT, c_set_group, 3, 4, 5);
    ROWS("dynamic align", WG_ERR_DYNAMIC_OFFSET_ALIGN, c_set_group, 6, 7);
    ROWS("dynamic range", WG_ERR_DYNAMIC_OFFSET_RANGE, c_set_group, 8, 9);
    add_case("set pipeline null", 10, WG_ERR_NULL_OBJECT, c_set_group);
    add_case("set invalid group", 11, WG_ERR_INVALID_OBJECT, c_set_group);
    add_case("set invalid pipeline", 12, WG_ERR_INVALID_OBJECT, c_set_group);
    add_case("dispatch after null group", 13, WG_ERR_BIND_GROUP_MISSING, c_set_group);
    add_case("copy same buffer", 0, WG_ERR_COPY_SAME_BUFFER, c_copy);
    ROWS("copy offset", WG_ERR_UNALIGNED_OFFSET, c_copy, 1, 2, 3, 4, 5, 6);
    ROWS("copy size", WG_ERR_UNALIGNED_SIZE, c_copy, 7, 8, 9);
    ROWS("copy range", WG_ERR_RANGE_OUT_OF_BOUNDS, c_copy, 10, 11, 12, 13);
    ROWS("copy usage", WG_ERR_BUFFER_USAGE_MISSING, c_copy, 14, 15, 16, 17);
    ROWS("copy destroyed", WG_ERR_BUFFER_DESTROYED, c_copy, 18, 19);
    ROWS("copy null", WG_ERR_NULL_OBJECT, c_copy, 20, 21);
    ROWS("copy other device", WG_ERR_WRONG_DEVICE, c_copy, 22, 23);
    ROWS("clear offset", WG_ERR_UNALIGNED_OFFSET, c_clear, 0, 1, 2);
    ROWS("clear size", WG_ERR_UNALIGNED_SIZE, c_clear, 3, 4, 5);
    ROWS("clear range", WG_ERR_RANGE_OUT_OF_BOUNDS, c_clear, 6, 7);
    ROWS("clear usage", WG_ERR_BUFFER_USAGE_MISSING, c_clear, 8, 9);
    add_case("clear destroyed", 10, WG_ERR_BUFFER_DESTROYED, c_clear);
    add_case("clear null", 11, WG_ERR_NULL_OBJECT, c_clear);
    ROWS("encoder finished", WG_ERR_ENCODER_FINISHED, c_enc_finished, 0, 1, 2, 3, 4, 5);
    ROWS("encoder locked", WG_ERR_ENCODER_LOCKED, c_enc_locked, 0, 1, 2, 3, 4);
    ROWS("pass ended", WG_ERR_PASS_ENDED, c_pass_ended, 0, 1, 2, 3, 4);
    ROWS("pass open at finish", WG_ERR_PASS_OPEN_AT_FINISH, c_open_at_finish, 0, 1);
    ROWS("indirect offset", WG_ERR_INDIRECT_OFFSET, c_indirect, 0, 1, 2, 3, 4, 5);
    add_case("indirect usage", 6, WG_ERR_BUFFER_USAGE_MISSING, c_indirect);
    add_case("indirect destroyed", 7, WG_ERR_BUFFER_DESTROYED, c_indirect);
    ROWS("timestamp index", WG_ERR_QUERY_INDEX, c_timestamp, 0, 1, 3, 4, 6, 7);
    add_case("timestamp destroyed set", 2, WG_ERR_QUERY_SET_DESTROYED, c_timestamp);
    add_case("timestamp same index", 5, WG_ERR_TIMESTAMP_SAME_INDEX, c_timestamp);
    ROWS("resolve offset", WG_ERR_UNALIGNED_OFFSET, c_timestamp, 8, 9);
    add_case("resolve range", 10, WG_ERR_RANGE_OUT_OF_BOUNDS, c_timestamp);
    add_case("resolve usage", 11, WG_ERR_BUFFER_USAGE_MISSING, c_timestamp);
    add_case("timestamp null set", 12, WG_ERR_NULL_OBJECT, c_timestamp);
    ROWS("query set count", WG_ERR_QUERY_COUNT, c_query_set, 0, 1);
    ROWS("query set type", WG_ERR_BAD_ENUM, c_query_set, 2, 3, 4);
    ROWS("query read range", WG_ERR_QUERY_INDEX, c_query_read, 0, 1);
    add_case("query read destroyed", 2, WG_ERR_QUERY_SET_DESTROYED, c_query_read);
    ROWS("resubmit", WG_ERR_CMDBUF_SUBMITTED, c_submit, 0, 1);
    add_case("submit invalid", 2, WG_ERR_CMDBUF_INVALID, c_submit);
    ROWS("submit destroyed buffer", WG_ERR_SUBMIT_DESTROYED_BUFFER, c_submit, 3, 4, 5);
    ROWS("submit mapped buffer", WG_ERR_SUBMIT_MAPPED_BUFFER, c_submit, 6, 7);
    add_case("submit destroyed query set", 8, WG_ERR_SUBMIT_DESTROYED_QUERY, c_submit);
    add_case("submit null", 9, WG_ERR_NULL_OBJECT, c_submit);
    add_case("submit too many", 10, WG_ERR_SUBMIT_TOO_MANY, c_submit);
    add_case("submit 64 is fine", 11, WG_ERR_NONE, c_submit);
    add_case("submit NULL array", 12, WG_ERR_NULL_OBJECT, c_submit);
    ROWS("released buffer", WG_ERR_OBJECT_RELEASED, c_released, 0, 1, 2, 3, 4, 5, 6);
    add_case("run_kernel NULL bindings", 0, WG_ERR_NULL_OBJECT, c_runner);
    add_case("run_kernel NULL overrides", 1, WG_ERR_NULL_OBJECT, c_runner);
    ROWS("scope filter", WG_ERR_BAD_ENUM, c_scope, 0, 5, 99);
    add_case("wgsl syntax error", 1, WG_ERR_WGSL_COMPILE, c_wgsl_only);
    add_case("wgsl without compute entry", 0, WG_ERR_SPIRV_NO_COMPUTE_ENTRY, c_wgsl_only);
    add_case("no loader", 0, WG_ERR_NO_LOADER, c_create);
    ROWS("no adapter", WG_ERR_NO_ADAPTER, c_create, 1, 2);
    if (!coop)
        add_case("feature unsupported", 3, WG_ERR_FEATURE_UNSUPPORTED, c_create);
    if (!stats)
        add_case("statistics unsupported", 10, WG_ERR_FEATURE_UNSUPPORTED, c_create);
    add_case("unknown feature", 4, WG_ERR_FEATURE_UNSUPPORTED, c_create);
    ROWS("limit exceeds adapter", WG_ERR_LIMIT_EXCEEDS_ADAPTER, c_create, 5, 6, 7, 8, 9);
    ROWS("device settings out of range", WG_ERR_BAD_ENUM, c_create, 11, 12, 13);
    (void)L;
}

int main(void) {
    gpu_fixture f;
    fixture_init(&f, NULL);
    ctx c = { .f = &f, .dev = f.dev, .q = f.q };
    c.dev2 = fixture_device(&f, &(wg_device_desc){ .label = "dev2", .required_limits = &(wg_limits){
                                                       .max_storage_buffer_binding_size = 4096,
                                                       .max_storage_buffers_per_shader_stage = 8,
                                                       .max_uniform_buffers_per_shader_stage = 4,
                                                       .max_bindings_per_bind_group = 16 } });
    wg_device *dev = c.dev;
    EXPECT_NO_ERROR(dev, {
        c.storage = mkbuf(dev, "storage", 1024, 0);
        c.uniform = mkbuf(dev, "uniform", 256, WG_BUFFER_USAGE_UNIFORM | WG_BUFFER_USAGE_COPY_DST);
        c.mapread = mkbuf(dev, "mapread", 256, WG_BUFFER_USAGE_MAP_READ | WG_BUFFER_USAGE_COPY_DST);
        c.mapwrite = mkbuf(dev, "mapwrite", 256, WG_BUFFER_USAGE_MAP_WRITE | WG_BUFFER_USAGE_COPY_SRC);
        c.indirect = mkbuf(dev, "indirect", 64, WG_BUFFER_USAGE_INDIRECT | WG_BUFFER_USAGE_COPY_DST);
        c.resolve = mkbuf(dev, "resolve", 1024, WG_BUFFER_USAGE_QUERY_RESOLVE | WG_BUFFER_USAGE_COPY_SRC);
        c.big_uniform = mkbuf(dev, "big uniform", 128 * 1024, WG_BUFFER_USAGE_UNIFORM);
        c.other = mkbuf(c.dev2, "other device", 1024, 0);
        c.inc = mkpipe(dev, "inc", test_inc_spv, test_inc_spv_words);
        c.add = mkpipe(dev, "add", gpu_add_spv, gpu_add_spv_words);
        c.inc_group = mkgroup(dev, c.inc, 1, &c.storage);
        wg_buffer *b3[3] = { c.storage, c.storage, c.storage };
        c.add_group = mkgroup(dev, c.add, 3, b3);
        c.l_storage = wg_device_create_bind_group_layout(dev, &(wg_bind_group_layout_desc){
            .entry_count = 1, .entries = &(wg_bind_group_layout_entry){ .binding = 0 } });
        c.l_uniform = wg_device_create_bind_group_layout(dev, &(wg_bind_group_layout_desc){
            .entry_count = 1, .entries = &(wg_bind_group_layout_entry){ .binding = 0, .type = WG_BINDING_TYPE_UNIFORM } });
        c.l_ro = wg_device_create_bind_group_layout(dev, &(wg_bind_group_layout_desc){
            .entry_count = 1,
            .entries = &(wg_bind_group_layout_entry){ .binding = 0, .type = WG_BINDING_TYPE_READ_ONLY_STORAGE } });
        c.l_dyn = wg_device_create_bind_group_layout(dev, &(wg_bind_group_layout_desc){
            .entry_count = 1, .entries = &(wg_bind_group_layout_entry){ .binding = 0, .has_dynamic_offset = true } });
        c.l_min = wg_device_create_bind_group_layout(dev, &(wg_bind_group_layout_desc){
            .entry_count = 1, .entries = &(wg_bind_group_layout_entry){ .binding = 0, .min_binding_size = 64 } });
        c.dyn_group = wg_device_create_bind_group(dev, &(wg_bind_group_desc){
            .layout = c.l_dyn, .entry_count = 1,
            .entries = &(wg_bind_group_entry){ .binding = 0, .buffer = c.storage, .size = 256 } });
        c.qs = wg_device_create_query_set(dev, &(wg_query_set_desc){ .label = "qs", .count = 4 });
    });
    build_cases(wg_device_get_limits(dev), wg_adapter_has_feature(f.ad, WG_FEATURE_COOPERATIVE_MATRIX),
                wg_adapter_has_feature(f.ad, WG_FEATURE_PIPELINE_STATISTICS));
    printf("%d misuse cases\n", ncases);
    /* the matrix's columns: a NULL argument, a value out of range, a released or destroyed handle
     * (the NULL column of every entry point of every layer is tests/gpu/test_null_args.sh) */
    int n_null = 0, n_range = 0, n_released = 0;
    for (int i = 0; i < ncases; i++)
        switch (cases[i].want) {
        case WG_ERR_NULL_OBJECT: case WG_ERR_WRITE_NULL_DATA: case WG_ERR_BIND_ENTRY_COUNT: n_null++; break;
        case WG_ERR_OBJECT_RELEASED: case WG_ERR_BUFFER_DESTROYED: case WG_ERR_QUERY_SET_DESTROYED:
        case WG_ERR_SUBMIT_DESTROYED_BUFFER: case WG_ERR_SUBMIT_DESTROYED_QUERY: case WG_ERR_INVALID_OBJECT:
            n_released++;
            break;
        case WG_ERR_RANGE_OUT_OF_BOUNDS: case WG_ERR_BUFFER_TOO_LARGE: case WG_ERR_MAPPED_RANGE_INVALID:
        case WG_ERR_UNALIGNED_OFFSET: case WG_ERR_UNALIGNED_SIZE: case WG_ERR_MAPPED_SIZE_ALIGN:
        case WG_ERR_BIND_GROUP_INDEX: case WG_ERR_BIND_SIZE_LIMIT: case WG_ERR_BIND_SIZE_ALIGN:
        case WG_ERR_BIND_SIZE_MIN: case WG_ERR_BIND_SIZE_ZERO: case WG_ERR_DYNAMIC_OFFSET_COUNT:
        case WG_ERR_DYNAMIC_OFFSET_ALIGN: case WG_ERR_DYNAMIC_OFFSET_RANGE: case WG_ERR_DISPATCH_TOO_LARGE:
        case WG_ERR_INDIRECT_OFFSET: case WG_ERR_QUERY_INDEX: case WG_ERR_QUERY_COUNT: case WG_ERR_BAD_ENUM:
        case WG_ERR_WORKGROUP_SIZE_LIMIT: case WG_ERR_TOO_MANY_BIND_GROUPS: case WG_ERR_LAYOUT_TOO_MANY_BINDINGS:
        case WG_ERR_LIMIT_EXCEEDS_ADAPTER: case WG_ERR_SUBMIT_TOO_MANY: case WG_ERR_BUFFER_USAGE_INVALID:
        case WG_ERR_MAP_MODE_INVALID:
            n_range++;
            break;
        default: break;
        }
    printf("columns: %d NULL, %d out-of-range, %d released/destroyed/invalid-handle cases; %d others (state, "
           "usage, layout, SPIR-V)\n", n_null, n_range, n_released, ncases - n_null - n_range - n_released);
    CHECKF(ncases >= 200, "only %d cases", ncases);
    int failed = 0;
    for (int i = 0; i < ncases; i++) {
        mcase *m = &cases[i];
        wg_device_push_error_scope(dev, WG_ERROR_TYPE_VALIDATION);
        wg_device_push_error_scope(dev, WG_ERROR_TYPE_OUT_OF_MEMORY);
        wg_device_push_error_scope(dev, WG_ERROR_TYPE_INTERNAL);
        wg_error_id direct = m->fn(&c, m->p);
        wg_error ei, eo, ev;
        wg_error_id gi = wg_device_pop_error_scope(dev, &ei);
        wg_error_id go = wg_device_pop_error_scope(dev, &eo);
        wg_error_id gv = wg_device_pop_error_scope(dev, &ev);
        wg_error_id got = direct ? direct : gv ? gv : go ? go : gi;
        const char *msg = gv ? ev.message : go ? eo.message : gi ? ei.message : "";
        if (got != m->want) {
            failed++;
            fprintf(stderr, "case %-40s want %s got %s (%s)\n", m->name, wg_error_id_name(m->want),
                    wg_error_id_name(got), msg);
        }
        test_checks_++;
        CHECK(!wg_device_is_lost(dev));
    }
    test_failures_ += failed;
    printf("%d of %d cases gave the expected error id\n", ncases - failed, ncases);
    /* pop with no scope */
    wg_error e;
    CHECK_EQ_INT(wg_device_pop_error_scope(dev, &e), WG_ERR_SCOPE_EMPTY);
    /* the device still works after all that */
    uint32_t v[256];
    EXPECT_NO_ERROR(dev, {
        run1(dev, c.inc, c.inc_group, 4);
        CHECK_EQ_INT(wg_buffer_read(c.storage, 0, v, sizeof v), WG_STATUS_OK);
    });
    CHECK(v[0] >= 1);
    wg_buffer *all[] = { c.storage, c.uniform, c.mapread, c.mapwrite, c.indirect, c.resolve, c.big_uniform, c.other };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        wg_buffer_release(all[i]);
    wg_compute_pipeline_release(c.inc);
    wg_compute_pipeline_release(c.add);
    wg_bind_group_release(c.inc_group);
    wg_bind_group_release(c.add_group);
    wg_bind_group_release(c.dyn_group);
    wg_bind_group_layout_release(c.l_storage);
    wg_bind_group_layout_release(c.l_uniform);
    wg_bind_group_layout_release(c.l_ro);
    wg_bind_group_layout_release(c.l_dyn);
    wg_bind_group_layout_release(c.l_min);
    wg_query_set_release(c.qs);
    wg_device_release(c.dev2);
    fixture_end(&f);
    return test_end();
}
