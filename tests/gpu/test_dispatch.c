/* test_dispatch.c - many dispatches in one submit: dependent ones get exactly one barrier each
 * (and the right result), independent ones none; indirect dispatch with valid and out-of-limit
 * counts; timestamps from passes and encoders in nanoseconds; a bind group per dispatch at one
 * host allocation each; synchronization validation on. */
#include "gpu_test.h"
#include "gpu_add.spv.h"
#include "test_inc.spv.h"

static void dependent(gpu_fixture *f, uint32_t count, uint32_t n) {
    wg_device *dev = f->dev;
    wg_buffer *b = mkbuf(dev, "counter", n * 4, 0);
    wg_compute_pipeline *p = mkpipe(dev, "inc", test_inc_spv, test_inc_spv_words);
    wg_bind_group *bg = mkgroup(dev, p, 1, &b);
    wg_device_stats s0, s1;
    wg_device_get_stats(dev, &s0);
    uint32_t *out = malloc(n * 4);
    EXPECT_NO_ERROR(dev, {
        wg_command_encoder *enc = wg_device_create_command_encoder(dev, NULL);
        wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(enc, NULL);
        wg_compute_pass_set_pipeline(pass, p);
        wg_compute_pass_set_bind_group(pass, 0, bg, 0, NULL);
        for (uint32_t i = 0; i < count; i++)
            wg_compute_pass_dispatch_workgroups(pass, (n + 63) / 64, 1, 1);
        wg_compute_pass_end(pass);
        wg_compute_pass_release(pass);
        wg_command_buffer *cb = wg_command_encoder_finish(enc, NULL);
        wg_command_encoder_release(enc);
        CHECK(wg_queue_submit(f->q, 1, &cb) != 0);
        wg_device_get_stats(dev, &s1);
        CHECK_EQ_INT(wg_buffer_read(b, 0, out, n * 4), WG_STATUS_OK);
    });
    CHECK_EQ_INT(s1.dispatches - s0.dispatches, count);
    CHECK_EQ_INT(s1.barriers - s0.barriers, count - 1);
    CHECK_EQ_INT(s1.submits - s0.submits, 1);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < n; i++)
        bad += out[i] != count;
    CHECKF(bad == 0, "%u of %u elements != %u (first %u)", bad, n, count, out[0]);
    free(out);
    wg_bind_group_release(bg);
    wg_compute_pipeline_release(p);
    wg_buffer_release(b);
}

static void independent(gpu_fixture *f) {
    wg_device *dev = f->dev;
    enum { K = 16, N = 257 };
    wg_buffer *b[K];
    wg_bind_group *g[K];
    wg_compute_pipeline *p = mkpipe(dev, "inc", test_inc_spv, test_inc_spv_words);
    for (int i = 0; i < K; i++) {
        b[i] = mkbuf(dev, "indep", N * 4, 0);
        g[i] = mkgroup(dev, p, 1, &b[i]);
    }
    /* also two disjoint ranges of one buffer: no hazard between them */
    wg_buffer *big = mkbuf(dev, "halves", 2 * 1024, 0);
    wg_bind_group *h[2];
    for (int i = 0; i < 2; i++)
        h[i] = wg_device_create_bind_group(dev, &(wg_bind_group_desc){
            .layout = wg_compute_pipeline_get_bind_group_layout(p, 0), .entry_count = 1,
            .entries = &(wg_bind_group_entry){ .binding = 0, .buffer = big, .offset = (uint64_t)i * 1024, .size = 1024 } });
    wg_device_stats s0, s1;
    wg_device_get_stats(dev, &s0);
    EXPECT_NO_ERROR(dev, {
        wg_command_encoder *enc = wg_device_create_command_encoder(dev, NULL);
        wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(enc, NULL);
        wg_compute_pass_set_pipeline(pass, p);
        for (int i = 0; i < K; i++) {
            wg_compute_pass_set_bind_group(pass, 0, g[i], 0, NULL);
            wg_compute_pass_dispatch_workgroups(pass, (N + 63) / 64, 1, 1);
        }
        for (int i = 0; i < 2; i++) {
            wg_compute_pass_set_bind_group(pass, 0, h[i], 0, NULL);
            wg_compute_pass_dispatch_workgroups(pass, 4, 1, 1);
        }
        /* now a dependent one: needs exactly one barrier */
        wg_compute_pass_set_bind_group(pass, 0, g[0], 0, NULL);
        wg_compute_pass_dispatch_workgroups(pass, (N + 63) / 64, 1, 1);
        wg_compute_pass_end(pass);
        wg_compute_pass_release(pass);
        wg_command_buffer *cb = wg_command_encoder_finish(enc, NULL);
        wg_command_encoder_release(enc);
        wg_queue_submit(f->q, 1, &cb);
        wg_queue_wait(f->q, UINT64_MAX);
    });
    wg_device_get_stats(dev, &s1);
    CHECK_EQ_INT(s1.barriers - s0.barriers, 1);
    uint32_t out[N];
    for (int i = 0; i < K; i++) {
        CHECK_EQ_INT(wg_buffer_read(b[i], 0, out, sizeof out), WG_STATUS_OK);
        CHECK_EQ_INT(out[0], i == 0 ? 2 : 1);
        CHECK_EQ_INT(out[N - 1], i == 0 ? 2 : 1);
    }
    uint32_t hv[512];
    CHECK_EQ_INT(wg_buffer_read(big, 0, hv, sizeof hv), WG_STATUS_OK);
    CHECK_EQ_INT(hv[0], 1);
    CHECK_EQ_INT(hv[511], 1);
    for (int i = 0; i < K; i++) {
        wg_bind_group_release(g[i]);
        wg_buffer_release(b[i]);
    }
    wg_bind_group_release(h[0]);
    wg_bind_group_release(h[1]);
    wg_buffer_release(big);
    wg_compute_pipeline_release(p);
}

/* RAW through different bindings: add writes o, a later add reads o as input. */
static void chain(gpu_fixture *f) {
    wg_device *dev = f->dev;
    const uint32_t n = 999;
    float *one = malloc(n * 4), *res = malloc(n * 4);
    for (uint32_t i = 0; i < n; i++)
        one[i] = 1.0f;
    wg_buffer *x = mkbuf(dev, "x", n * 4, 0), *y = mkbuf(dev, "y", n * 4, 0), *c = mkbuf(dev, "ones", n * 4, 0);
    wg_compute_pipeline *p = mkpipe(dev, "add", gpu_add_spv, gpu_add_spv_words);
    wg_bind_group *xy = mkgroup(dev, p, 3, (wg_buffer *[]){ x, c, y }); /* y = x + 1 */
    wg_bind_group *yx = mkgroup(dev, p, 3, (wg_buffer *[]){ y, c, x }); /* x = y + 1 */
    EXPECT_NO_ERROR(dev, {
        wg_queue_write_buffer(f->q, c, 0, one, n * 4);
        wg_command_encoder *enc = wg_device_create_command_encoder(dev, NULL);
        wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(enc, NULL);
        wg_compute_pass_set_pipeline(pass, p);
        for (int i = 0; i < 50; i++) {
            wg_compute_pass_set_bind_group(pass, 0, i % 2 ? yx : xy, 0, NULL);
            wg_compute_pass_dispatch_workgroups(pass, (n + 63) / 64, 1, 1);
        }
        wg_compute_pass_end(pass);
        wg_compute_pass_release(pass);
        wg_command_buffer *cb = wg_command_encoder_finish(enc, NULL);
        wg_command_encoder_release(enc);
        wg_queue_submit(f->q, 1, &cb);
        CHECK_EQ_INT(wg_buffer_read(x, 0, res, n * 4), WG_STATUS_OK);
    });
    CHECKF(res[0] == 50.0f && res[n - 1] == 50.0f, "chain: %g %g", res[0], res[n - 1]);
    wg_bind_group_release(xy);
    wg_bind_group_release(yx);
    wg_compute_pipeline_release(p);
    wg_buffer_release(x);
    wg_buffer_release(y);
    wg_buffer_release(c);
    free(one);
    free(res);
}

static void indirect(gpu_fixture *f) {
    wg_device *dev = f->dev;
    const uint32_t n = 640;
    wg_buffer *b = mkbuf(dev, "counter", n * 4, 0);
    wg_buffer *args = mkbuf(dev, "args", 64, WG_BUFFER_USAGE_INDIRECT | WG_BUFFER_USAGE_COPY_DST |
                                                 WG_BUFFER_USAGE_STORAGE);
    wg_compute_pipeline *p = mkpipe(dev, "inc", test_inc_spv, test_inc_spv_words);
    wg_bind_group *bg = mkgroup(dev, p, 1, &b);
    uint32_t a[16] = { 0 };
    a[0] = n / 64, a[1] = 1, a[2] = 1;     /* valid: all elements */
    a[4] = 5, a[5] = 70000, a[6] = 1;      /* y over the limit: no-op */
    a[8] = 2, a[9] = 1, a[10] = 1;         /* valid: first 128 */
    uint32_t out[640];
    EXPECT_NO_ERROR(dev, {
        wg_queue_write_buffer(f->q, args, 0, a, sizeof a);
        wg_command_encoder *enc = wg_device_create_command_encoder(dev, NULL);
        wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(enc, NULL);
        wg_compute_pass_set_pipeline(pass, p);
        wg_compute_pass_set_bind_group(pass, 0, bg, 0, NULL);
        wg_compute_pass_dispatch_workgroups_indirect(pass, args, 0);
        wg_compute_pass_dispatch_workgroups_indirect(pass, args, 16);
        wg_compute_pass_dispatch_workgroups_indirect(pass, args, 32);
        wg_compute_pass_end(pass);
        wg_compute_pass_release(pass);
        wg_command_buffer *cb = wg_command_encoder_finish(enc, NULL);
        wg_command_encoder_release(enc);
        wg_queue_submit(f->q, 1, &cb);
        CHECK_EQ_INT(wg_buffer_read(b, 0, out, sizeof out), WG_STATUS_OK);
    });
    CHECK_EQ_INT(out[0], 2);
    CHECK_EQ_INT(out[127], 2);
    CHECK_EQ_INT(out[128], 1);
    CHECK_EQ_INT(out[639], 1);
    wg_bind_group_release(bg);
    wg_compute_pipeline_release(p);
    wg_buffer_release(b);
    wg_buffer_release(args);
}

static void timestamps(gpu_fixture *f) {
    wg_device *dev = f->dev;
    CHECK(wg_device_has_feature(dev, WG_FEATURE_TIMESTAMP_QUERY));
    const uint32_t n = 1 << 16;
    wg_buffer *b = mkbuf(dev, "ts data", n * 4, 0);
    wg_buffer *res = mkbuf(dev, "resolve", 512, WG_BUFFER_USAGE_QUERY_RESOLVE | WG_BUFFER_USAGE_COPY_SRC);
    wg_query_set *qs = wg_device_create_query_set(dev, &(wg_query_set_desc){ .label = "ts", .count = 8 });
    wg_compute_pipeline *p = mkpipe(dev, "inc", test_inc_spv, test_inc_spv_words);
    wg_bind_group *bg = mkgroup(dev, p, 1, &b);
    uint64_t ns[8] = { 0 }, raw[8] = { 0 };
    EXPECT_NO_ERROR(dev, {
        wg_command_encoder *enc = wg_device_create_command_encoder(dev, NULL);
        wg_command_encoder_write_timestamp(enc, qs, 0);
        wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(
            enc, &(wg_compute_pass_desc){ .timestamp_query_set = qs, .beginning_index = 1, .end_index = 2,
                                          .write_beginning = true, .write_end = true });
        wg_compute_pass_set_pipeline(pass, p);
        wg_compute_pass_set_bind_group(pass, 0, bg, 0, NULL);
        for (int i = 0; i < 20; i++)
            wg_compute_pass_dispatch_workgroups(pass, n / 64, 1, 1);
        wg_compute_pass_end(pass);
        wg_compute_pass_release(pass);
        wg_command_encoder_write_timestamp(enc, qs, 3);
        wg_command_encoder_resolve_query_set(enc, qs, 0, 4, res, 256);
        wg_command_buffer *cb = wg_command_encoder_finish(enc, NULL);
        wg_command_encoder_release(enc);
        wg_queue_submit(f->q, 1, &cb);
        CHECK_EQ_INT(wg_query_set_read_ns(qs, 0, 8, ns), WG_STATUS_OK);
        CHECK_EQ_INT(wg_buffer_read(res, 256, raw, 32), WG_STATUS_OK);
    });
    CHECK(ns[0] > 0);
    CHECK(ns[1] >= ns[0]);
    CHECKF(ns[2] > ns[1], "pass took %llu ns", (unsigned long long)(ns[2] - ns[1]));
    CHECK(ns[3] >= ns[2]);
    CHECK_EQ_INT(ns[4], 0); /* never written */
    double period = wg_adapter_get_info(f->ad)->timestamp_period_ns;
    for (int i = 0; i < 4; i++)
        CHECKF((uint64_t)((double)raw[i] * period) == ns[i], "resolved %d: %llu vs %llu", i,
               (unsigned long long)raw[i], (unsigned long long)ns[i]);
    printf("20 dispatches of %u elements: %.1f us GPU time (lavapipe)\n", n, (double)(ns[2] - ns[1]) / 1000.0);
    wg_bind_group_release(bg);
    wg_compute_pipeline_release(p);
    wg_query_set_release(qs);
    wg_buffer_release(b);
    wg_buffer_release(res);
}

/* Explicit layout with a dynamic offset: one bind group, two windows of one buffer. */
static void dynamic_offsets(gpu_fixture *f) {
    wg_device *dev = f->dev;
    wg_buffer *b = mkbuf(dev, "dyn", 2048, 0);
    wg_bind_group_layout *l = wg_device_create_bind_group_layout(dev, &(wg_bind_group_layout_desc){
        .label = "dyn layout", .entry_count = 1,
        .entries = &(wg_bind_group_layout_entry){ .binding = 0, .has_dynamic_offset = true, .min_binding_size = 4 } });
    wg_pipeline_layout *pl = wg_device_create_pipeline_layout(dev, &(wg_pipeline_layout_desc){
        .bind_group_layout_count = 1, .bind_group_layouts = &l });
    wg_shader_module *m = wg_device_create_shader_module(dev, &(wg_shader_module_desc){
        .spirv = test_inc_spv, .spirv_words = test_inc_spv_words });
    wg_compute_pipeline *p = wg_device_create_compute_pipeline(dev, &(wg_compute_pipeline_desc){
        .label = "inc explicit", .layout = pl, .module = m });
    wg_bind_group *g = wg_device_create_bind_group(dev, &(wg_bind_group_desc){
        .layout = l, .entry_count = 1, .entries = &(wg_bind_group_entry){ .binding = 0, .buffer = b, .size = 512 } });
    uint32_t out[512];
    wg_device_stats s0, s1;
    wg_device_get_stats(dev, &s0);
    EXPECT_NO_ERROR(dev, {
        CHECK(wg_compute_pipeline_is_valid(p));
        wg_command_encoder *e = wg_device_create_command_encoder(dev, NULL);
        wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(e, NULL);
        wg_compute_pass_set_pipeline(pass, p);
        uint32_t offs[3] = { 0, 1024, 0 };
        for (int i = 0; i < 3; i++) {
            wg_compute_pass_set_bind_group(pass, 0, g, 1, &offs[i]);
            wg_compute_pass_dispatch_workgroups(pass, 2, 1, 1);
        }
        wg_compute_pass_end(pass);
        wg_compute_pass_release(pass);
        wg_command_buffer *cb = wg_command_encoder_finish(e, NULL);
        wg_command_encoder_release(e);
        wg_queue_submit(f->q, 1, &cb);
        wg_device_get_stats(dev, &s1);
        CHECK_EQ_INT(wg_buffer_read(b, 0, out, sizeof out), WG_STATUS_OK);
    });
    CHECK_EQ_INT(s1.barriers - s0.barriers, 1); /* only the third dispatch depends on the first */
    CHECK_EQ_INT(out[0], 2);
    CHECK_EQ_INT(out[127], 2);
    CHECK_EQ_INT(out[128], 0);
    CHECK_EQ_INT(out[256], 1);
    CHECK_EQ_INT(out[383], 1);
    CHECK_EQ_INT(out[384], 0);
    wg_bind_group_release(g);
    wg_compute_pipeline_release(p);
    wg_shader_module_release(m);
    wg_pipeline_layout_release(pl);
    wg_bind_group_layout_release(l);
    wg_buffer_release(b);
}

/* Releasing objects the GPU still uses: freed once it is done (the validation layer would
 * report a destroyed in-use buffer or descriptor set). */
static void deferred_release(gpu_fixture *f) {
    wg_device *dev = f->dev;
    const uint32_t n = 1 << 18;
    wg_device_stats s0, s1, s2;
    wg_device_get_stats(dev, &s0);
    wg_buffer *b = mkbuf(dev, "short-lived", n * 4, 0);
    wg_compute_pipeline *p = mkpipe(dev, "inc", test_inc_spv, test_inc_spv_words);
    wg_bind_group *g = mkgroup(dev, p, 1, &b);
    EXPECT_NO_ERROR(dev, {
        wg_command_encoder *e = wg_device_create_command_encoder(dev, NULL);
        wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(e, NULL);
        wg_compute_pass_set_pipeline(pass, p);
        wg_compute_pass_set_bind_group(pass, 0, g, 0, NULL);
        for (int i = 0; i < 8; i++)
            wg_compute_pass_dispatch_workgroups(pass, n / 64, 1, 1);
        wg_compute_pass_end(pass);
        wg_compute_pass_release(pass);
        wg_command_buffer *cb = wg_command_encoder_finish(e, NULL);
        wg_command_encoder_release(e);
        wg_queue_submit(f->q, 1, &cb);
        wg_bind_group_release(g);
        wg_compute_pipeline_release(p);
        wg_buffer_release(b); /* still in use by the submission */
        wg_device_get_stats(dev, &s1);
        wg_device_poll(dev, true);
    });
    wg_device_get_stats(dev, &s2);
    CHECK_EQ_INT(s1.buffer_bytes, s0.buffer_bytes); /* accounting drops at release ... */
    CHECK_EQ_INT(s2.buffer_bytes, s0.buffer_bytes);
    CHECK_EQ_INT(wg_instance_validation_message_count(f->inst), 0); /* ... the memory after the GPU */
}

/* The tensor layer's pattern: a bind group per dispatch.  Recording it costs no host allocation
 * once warm (bind group objects are reused, their entries live inside them up to 4 bindings, the
 * encoder's object list reuses the previous encoder's array), and a group of 5 bindings (entries
 * on the heap) works too. */
static void bind_group_per_dispatch(gpu_fixture *f) {
    wg_device *dev = f->dev;
    wg_buffer *b = mkbuf(dev, "counter", 1024 * 4, 0);
    wg_compute_pipeline *p = mkpipe(dev, "inc", test_inc_spv, test_inc_spv_words);
    wg_bind_group_layout *l = wg_compute_pipeline_get_bind_group_layout(p, 0);
    const int n = 200;
    long before = 0, after = 0;
    for (int round = 0; round < 2; round++) EXPECT_NO_ERROR(dev, {
        wg_command_encoder *e = wg_device_create_command_encoder(dev, NULL);
        wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(e, NULL);
        wg_compute_pass_set_pipeline(pass, p);
        before = f->ta.total;
        for (int i = 0; i < n; i++) {
            wg_bind_group *g = wg_device_create_bind_group(dev, &(wg_bind_group_desc){ .label = "per-dispatch",
                .layout = l, .entry_count = 1, .entries = &(wg_bind_group_entry){ .binding = 0, .buffer = b } });
            wg_compute_pass_set_bind_group(pass, 0, g, 0, NULL);
            wg_compute_pass_dispatch_workgroups(pass, 16, 1, 1);
            wg_bind_group_release(g);
        }
        after = f->ta.total;
        wg_compute_pass_end(pass);
        wg_compute_pass_release(pass);
        wg_command_buffer *cb = wg_command_encoder_finish(e, NULL);
        wg_command_encoder_release(e);
        wg_queue_submit(f->q, 1, &cb);
    });
    uint32_t v = 0;
    CHECK_EQ_INT(wg_buffer_read(b, 4 * 1023, &v, 4), WG_STATUS_OK);
    CHECK_EQ_INT(v, 2 * n);
    CHECKF(after - before == 0, "%ld host allocations for %d bind groups + dispatches", after - before, n);
    wg_compute_pipeline_release(p);
    wg_buffer_release(b);

    /* five bindings: x[i] = a[i] + b[i] + c[i] + d[i] */
    static const char *five =
        "@group(0) @binding(0) var<storage, read> a: array<u32>;\n"
        "@group(0) @binding(1) var<storage, read> b: array<u32>;\n"
        "@group(0) @binding(2) var<storage, read> c: array<u32>;\n"
        "@group(0) @binding(3) var<storage, read> d: array<u32>;\n"
        "@group(0) @binding(4) var<storage, read_write> x: array<u32>;\n"
        "@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) i: vec3u) {\n"
        "    if (i.x < arrayLength(&x)) { x[i.x] = a[i.x] + b[i.x] + c[i.x] + d[i.x]; }\n"
        "}\n";
    uint32_t out[64] = { 0 };
    EXPECT_NO_ERROR(dev, {
        wg_shader_module *m = wg_device_create_shader_module(dev, &(wg_shader_module_desc){ .label = "five", .wgsl = five });
        wg_compute_pipeline *p5 = wg_device_create_compute_pipeline(dev, &(wg_compute_pipeline_desc){ .module = m });
        wg_buffer *bufs[5];
        for (uint32_t k = 0; k < 5; k++) {
            bufs[k] = mkbuf(dev, "five", sizeof out, 0);
            uint32_t init[64];
            for (uint32_t i = 0; i < 64; i++)
                init[i] = k < 4 ? (k + 1) * 1000 + i : 7;
            wg_queue_write_buffer(f->q, bufs[k], 0, init, sizeof init);
        }
        wg_bind_group *g5 = mkgroup(dev, p5, 5, bufs);
        run1(dev, p5, g5, 1);
        CHECK_EQ_INT(wg_buffer_read(bufs[4], 0, out, sizeof out), WG_STATUS_OK);
        wg_bind_group_release(g5);
        for (uint32_t k = 0; k < 5; k++)
            wg_buffer_release(bufs[k]);
        wg_compute_pipeline_release(p5);
        wg_shader_module_release(m);
    });
    uint32_t bad = 0;
    for (uint32_t i = 0; i < 64; i++)
        bad += out[i] != 10000 + 4 * i;
    CHECKF(bad == 0, "five bindings: %u wrong (out[1] = %u)", bad, out[1]);
}

/* State set per op, as a tensor library records: the same pipeline and bind group again bind
 * nothing; alternating groups rebind each time; the results are those of the dependent chain. */
static void state_per_op(gpu_fixture *f) {
    wg_device *dev = f->dev;
    wg_buffer *b0 = mkbuf(dev, "c0", 1024 * 4, 0), *b1 = mkbuf(dev, "c1", 1024 * 4, 0);
    wg_compute_pipeline *p = mkpipe(dev, "inc", test_inc_spv, test_inc_spv_words);
    wg_bind_group *g0 = mkgroup(dev, p, 1, &b0), *g1 = mkgroup(dev, p, 1, &b1);
    wg_device_stats s0, s1, s2;
    const uint32_t n = 100;
    EXPECT_NO_ERROR(dev, {
        wg_device_get_stats(dev, &s0);
        wg_command_encoder *e = wg_device_create_command_encoder(dev, NULL);
        wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(e, NULL);
        for (uint32_t i = 0; i < n; i++) {
            wg_compute_pass_set_pipeline(pass, p);
            wg_compute_pass_set_bind_group(pass, 0, g0, 0, NULL);
            wg_compute_pass_dispatch_workgroups(pass, 16, 1, 1);
        }
        wg_device_get_stats(dev, &s1);
        for (uint32_t i = 0; i < n; i++) {
            wg_compute_pass_set_pipeline(pass, p);
            wg_compute_pass_set_bind_group(pass, 0, i % 2 ? g1 : g0, 0, NULL);
            wg_compute_pass_dispatch_workgroups(pass, 16, 1, 1);
        }
        wg_device_get_stats(dev, &s2);
        wg_compute_pass_end(pass);
        wg_compute_pass_release(pass);
        wg_command_buffer *cb = wg_command_encoder_finish(e, NULL);
        wg_command_encoder_release(e);
        wg_queue_submit(f->q, 1, &cb);
    });
    CHECK_EQ_INT(s1.bind_group_binds - s0.bind_group_binds, 1);
    CHECK_EQ_INT(s2.bind_group_binds - s1.bind_group_binds, n - 1); /* the first is g0, already bound */
    CHECK_EQ_INT(s2.dispatches - s0.dispatches, 2 * n);
    uint32_t v0 = 0, v1 = 0;
    CHECK_EQ_INT(wg_buffer_read(b0, 4 * 1023, &v0, 4), WG_STATUS_OK);
    CHECK_EQ_INT(wg_buffer_read(b1, 4 * 1023, &v1, 4), WG_STATUS_OK);
    CHECK_EQ_INT(v0, n + n / 2);
    CHECK_EQ_INT(v1, n / 2);
    wg_bind_group_release(g0);
    wg_bind_group_release(g1);
    wg_compute_pipeline_release(p);
    wg_buffer_release(b0);
    wg_buffer_release(b1);
}

int main(void) {
    gpu_fixture f;
    fixture_init(&f, NULL);
    dependent(&f, 1000, 1024);
    dependent(&f, 7, 100003);
    independent(&f);
    chain(&f);
    indirect(&f);
    timestamps(&f);
    dynamic_offsets(&f);
    deferred_release(&f);
    bind_group_per_dispatch(&f);
    state_per_op(&f);
    fixture_end(&f);
    return test_end();
}
