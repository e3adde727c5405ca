/* test_roundtrip.c - upload, dispatch, copy, clear and readback round trips for odd sizes,
 * through every path: direct writes, the staging ring (also tiny, so it wraps and chunks),
 * mapped_at_creation, map_async read/write, shader copies and vkCmdCopyBuffer copies (the default
 * choice for the adapter type, then each forced with wg_device_desc.copy_engine), and again with
 * device memory the host cannot see (wg_device_desc.device_memory). */
#include "gpu_test.h"
#include "gpu_add.spv.h"

static uint32_t pattern(uint64_t i, uint32_t seed) {
    return (uint32_t)(i * 2654435761u) ^ seed;
}

static void upload_readback(gpu_fixture *f, uint64_t size, uint32_t seed) {
    wg_device *dev = f->dev;
    uint64_t n = (size + 3) / 4;
    uint32_t *src = malloc(n * 4 + 4), *dst = malloc(n * 4 + 4);
    for (uint64_t i = 0; i < n; i++)
        src[i] = pattern(i, seed);
    wg_buffer *b = mkbuf(dev, "rt", size, 0);
    uint64_t aligned = size & ~3ull;
    EXPECT_NO_ERROR(dev, {
        wg_queue_write_buffer(f->q, b, 0, src, aligned);
        CHECK_EQ_INT(wg_buffer_read(b, 0, dst, size), WG_STATUS_OK);
    });
    CHECKF(!memcmp(src, dst, aligned), "size %llu", (unsigned long long)size);
    for (uint64_t i = aligned; i < size; i++)
        CHECK_EQ_INT(((uint8_t *)dst)[i], 0); /* zero-initialised tail */
    /* second write while the buffer is idle, then a read at an odd offset */
    if (size > 8) {
        EXPECT_NO_ERROR(dev, {
            wg_queue_write_buffer(f->q, b, 4, src, aligned - 4);
            CHECK_EQ_INT(wg_buffer_read(b, 5, dst, size - 5), WG_STATUS_OK);
        });
        CHECKF(!memcmp((uint8_t *)src + 1, dst, aligned - 5), "offset read, size %llu", (unsigned long long)size);
    }
    wg_buffer_release(b);
    free(src);
    free(dst);
}

static void add_test(gpu_fixture *f, uint32_t n) {
    wg_device *dev = f->dev;
    float *a = malloc(n * 4), *b = malloc(n * 4), *o = malloc(n * 4);
    for (uint32_t i = 0; i < n; i++)
        a[i] = (float)i, b[i] = 0.25f * (float)(n - i);
    wg_buffer *ba = mkbuf(dev, "a", n * 4, 0), *bb = mkbuf(dev, "b", n * 4, 0), *bo = mkbuf(dev, "o", n * 4, 0);
    wg_compute_pipeline *p = mkpipe(dev, "add", gpu_add_spv, gpu_add_spv_words);
    wg_bind_group *bg = mkgroup(dev, p, 3, (wg_buffer *[]){ ba, bb, bo });
    EXPECT_NO_ERROR(dev, {
        wg_queue_write_buffer(f->q, ba, 0, a, n * 4);
        wg_queue_write_buffer(f->q, bb, 0, b, n * 4);
        run1(dev, p, bg, (n + 63) / 64);
        /* rewrite a while the dispatch may still run: goes through the staging ring */
        for (uint32_t i = 0; i < n; i++)
            a[i] = -a[i];
        wg_queue_write_buffer(f->q, ba, 0, a, n * 4);
        run1(dev, p, bg, (n + 63) / 64);
        CHECK_EQ_INT(wg_buffer_read(bo, 0, o, n * 4), WG_STATUS_OK);
    });
    uint32_t bad = 0;
    for (uint32_t i = 0; i < n; i++)
        bad += o[i] != a[i] + b[i];
    CHECKF(bad == 0, "add n=%u: %u wrong", n, bad);
    wg_bind_group_release(bg);
    wg_compute_pipeline_release(p);
    wg_buffer_release(ba);
    wg_buffer_release(bb);
    wg_buffer_release(bo);
    free(a);
    free(b);
    free(o);
}

static wg_copy_engine copy_engine;   /* the fixture device's, after the WGC_* mapping */

/* The fixture with desc d (WGC_* mapped onto what d leaves at zero, as the fixture does). */
static void open_fixture(gpu_fixture *f, wg_device_desc d) {
    wg_env_strings env;
    d.cache_dir = d.cache_dir ? d.cache_dir : "";
    fixture_env(&env, NULL, NULL, &d);
    copy_engine = d.copy_engine;
    fixture_init(f, &d);
}

/* Big aligned copies: a shader on GPUs, vkCmdCopyBuffer on CPU adapters, unless the device forces one. */
static bool expect_shader_copies(gpu_fixture *f) {
    if (copy_engine == WG_COPY_ENGINE_SHADER)
        return true;
    if (copy_engine == WG_COPY_ENGINE_TRANSFER)
        return false;
    return wg_adapter_get_info(f->ad)->type != WG_ADAPTER_TYPE_CPU;
}

static void copy_test(gpu_fixture *f, uint64_t size, uint64_t so, uint64_t dof) {
    wg_device *dev = f->dev;
    uint64_t n = (size + so + 3) / 4 + 1;
    uint32_t *src = malloc(n * 4), *dst = malloc(n * 4 + 64);
    for (uint64_t i = 0; i < n; i++)
        src[i] = pattern(i, 7);
    wg_buffer *a = mkbuf(dev, "csrc", n * 4, 0), *b = mkbuf(dev, "cdst", size + dof + 16, 0);
    wg_device_stats s0, s1;
    wg_device_get_stats(dev, &s0);
    EXPECT_NO_ERROR(dev, {
        wg_queue_write_buffer(f->q, a, 0, src, n * 4);
        wg_command_encoder *e = wg_device_create_command_encoder(dev, NULL);
        wg_command_encoder_clear_buffer(e, b, 0, 0);
        wg_command_encoder_copy_buffer_to_buffer(e, a, so, b, dof, size);
        wg_command_buffer *cb = wg_command_encoder_finish(e, NULL);
        wg_command_encoder_release(e);
        wg_queue_submit(f->q, 1, &cb);
        CHECK_EQ_INT(wg_buffer_read(b, 0, dst, size + dof + 16), WG_STATUS_OK);
    });
    wg_device_get_stats(dev, &s1);
    bool shader = size >= (1u << 20) && !(so % 16) && !(dof % 16) && !(size % 16) && expect_shader_copies(f);
    CHECK_EQ_INT(s1.shader_copies - s0.shader_copies, shader);
    CHECK_EQ_INT(s1.transfer_copies - s0.transfer_copies, !shader);
    CHECKF(!memcmp((uint8_t *)dst + dof, (uint8_t *)src + so, size), "copy %llu bytes", (unsigned long long)size);
    for (uint64_t i = 0; i < dof; i++)
        CHECK_EQ_INT(((uint8_t *)dst)[i], 0);
    for (uint64_t i = dof + size; i < dof + size + 16; i++)
        CHECK_EQ_INT(((uint8_t *)dst)[i], 0);
    wg_buffer_release(a);
    wg_buffer_release(b);
    free(src);
    free(dst);
}

static int map_done, map_status;
static void on_map(void *user, wg_map_status st) {
    (void)user;
    map_done++;
    map_status = st;
}

static void map_test(gpu_fixture *f) {
    wg_device *dev = f->dev;
    const uint32_t n = 1001;
    /* mapped_at_creation into a storage buffer, then copy into a MAP_READ buffer, map it */
    wg_buffer *s = wg_device_create_buffer(dev, &(wg_buffer_desc){ .label = "mac", .size = n * 4,
                                                                   .mapped_at_creation = true });
    uint32_t *w = wg_buffer_get_mapped_range(s, 0, n * 4);
    CHECK(w != NULL);
    for (uint32_t i = 0; w && i < n; i++)
        w[i] = i * 3 + 1;
    wg_buffer_unmap(s);
    wg_buffer *r = mkbuf(dev, "readback", n * 4, WG_BUFFER_USAGE_MAP_READ | WG_BUFFER_USAGE_COPY_DST);
    EXPECT_NO_ERROR(dev, {
        wg_command_encoder *e = wg_device_create_command_encoder(dev, NULL);
        wg_command_encoder_copy_buffer_to_buffer(e, s, 0, r, 0, n * 4);
        wg_command_buffer *cb = wg_command_encoder_finish(e, NULL);
        wg_command_encoder_release(e);
        wg_queue_submit(f->q, 1, &cb);
        map_done = 0;
        wg_buffer_map_async(r, WG_MAP_MODE_READ, 0, WG_WHOLE_SIZE, on_map, NULL);
        CHECK_EQ_INT(map_done, 0); /* never synchronous */
        wg_device_poll(dev, true);
    });
    CHECK_EQ_INT(map_done, 1);
    CHECK_EQ_INT(map_status, WG_MAP_STATUS_SUCCESS);
    const uint32_t *rd = wg_buffer_get_const_mapped_range(r, 0, n * 4);
    CHECK(rd != NULL);
    uint32_t bad = 0;
    for (uint32_t i = 0; rd && i < n; i++)
        bad += rd[i] != i * 3 + 1;
    CHECK_EQ_INT(bad, 0);
    wg_buffer_unmap(r);
    /* MAP_WRITE staging: map, fill, unmap, copy to a storage buffer */
    wg_buffer *up = mkbuf(dev, "upload", n * 4, WG_BUFFER_USAGE_MAP_WRITE | WG_BUFFER_USAGE_COPY_SRC);
    map_done = 0;
    wg_buffer_map_async(up, WG_MAP_MODE_WRITE, 0, n * 4, on_map, NULL);
    wg_device_poll(dev, true);
    CHECK_EQ_INT(map_status, WG_MAP_STATUS_SUCCESS);
    uint32_t *uw = wg_buffer_get_mapped_range(up, 0, n * 4);
    for (uint32_t i = 0; uw && i < n; i++)
        uw[i] = ~i;
    wg_buffer_unmap(up);
    uint32_t *back = malloc(n * 4);
    EXPECT_NO_ERROR(dev, {
        wg_command_encoder *e = wg_device_create_command_encoder(dev, NULL);
        wg_command_encoder_copy_buffer_to_buffer(e, up, 0, s, 0, n * 4);
        wg_command_buffer *cb = wg_command_encoder_finish(e, NULL);
        wg_command_encoder_release(e);
        wg_queue_submit(f->q, 1, &cb);
        CHECK_EQ_INT(wg_buffer_read(s, 0, back, n * 4), WG_STATUS_OK);
    });
    bad = 0;
    for (uint32_t i = 0; i < n; i++)
        bad += back[i] != ~i;
    CHECK_EQ_INT(bad, 0);
    /* unmap of a pending map aborts it */
    map_done = 0;
    wg_buffer_map_async(r, WG_MAP_MODE_READ, 0, 16, on_map, NULL);
    wg_buffer_unmap(r);
    CHECK_EQ_INT(map_done, 1);
    CHECK_EQ_INT(map_status, WG_MAP_STATUS_ABORTED);
    free(back);
    wg_buffer_release(s);
    wg_buffer_release(r);
    wg_buffer_release(up);
}

static void copy_tests(gpu_fixture *f) {
    copy_test(f, 4u << 20, 0, 0);          /* shader copy (where chosen) */
    copy_test(f, (4u << 20) + 16, 32, 48); /* shader copy with offsets */
    copy_test(f, (1u << 20) + 4, 4, 0);    /* large but unaligned: transfer copy */
}

static void suite(gpu_fixture *f) {
    static const uint64_t sizes[] = { 1, 3, 4, 5, 7, 64, 1023, 4097, 65537, 1000003, (70u << 20) + 13 };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        upload_readback(f, sizes[i], (uint32_t)i);
    static const uint32_t ns[] = { 1, 63, 64, 65, 1000, 100003 };
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        add_test(f, ns[i]);
    copy_test(f, 4, 0, 0);
    copy_test(f, 1000, 8, 4);
    copy_tests(f);
    map_test(f);
    wg_device_stats st;
    wg_device_get_stats(f->dev, &st);
    CHECKF(st.memory_blocks <= 6, "memory blocks %llu (suballocation)", (unsigned long long)st.memory_blocks);
}

int main(void) {
    gpu_fixture f;
    open_fixture(&f, (wg_device_desc){ 0 });
    suite(&f);
    fixture_end(&f);

    /* again with device memory the host cannot see (as on discrete GPUs): zero-init by GPU fill,
     * every write through the staging ring, reads through the readback buffer, mapped_at_creation
     * through a host shadow; big copies by the shader, as on GPUs */
    open_fixture(&f, (wg_device_desc){ .device_memory = WG_DEVICE_MEMORY_UNMAPPED,
                                       .copy_engine = WG_COPY_ENGINE_SHADER });
    suite(&f);
    fixture_end(&f);

    /* and with vkCmdCopyBuffer forced, as on CPU adapters */
    open_fixture(&f, (wg_device_desc){ .copy_engine = WG_COPY_ENGINE_TRANSFER });
    copy_tests(&f);
    fixture_end(&f);

    /* a tiny staging ring: writes wrap and split into chunks */
    fixture_init(&f, &(wg_device_desc){ .staging_size = 4096 });
    for (int round = 0; round < 3; round++) {
        uint32_t n = 10000;
        uint32_t *src = malloc(n * 4), *dst = malloc(n * 4);
        for (uint32_t i = 0; i < n; i++)
            src[i] = pattern(i, (uint32_t)round);
        wg_buffer *b = mkbuf(f.dev, "ring", n * 4, 0);
        wg_buffer *c = mkbuf(f.dev, "ring2", n * 4, 0);
        EXPECT_NO_ERROR(f.dev, {
            /* make b busy so writes take the ring */
            wg_command_encoder *e = wg_device_create_command_encoder(f.dev, NULL);
            wg_command_encoder_copy_buffer_to_buffer(e, c, 0, b, 0, n * 4);
            wg_command_buffer *cb = wg_command_encoder_finish(e, NULL);
            wg_command_encoder_release(e);
            wg_queue_submit(f.q, 1, &cb);
            for (uint32_t k = 0; k < n; k += 1000)
                wg_queue_write_buffer(f.q, b, k * 4, src + k, 4000);
            wg_queue_write_buffer(f.q, c, 0, src, n * 4);
            CHECK_EQ_INT(wg_buffer_read(b, 0, dst, n * 4), WG_STATUS_OK);
        });
        CHECK(!memcmp(src, dst, n * 4));
        memset(dst, 0, n * 4);
        CHECK_EQ_INT(wg_buffer_read(c, 0, dst, n * 4), WG_STATUS_OK);
        CHECK(!memcmp(src, dst, n * 4));
        wg_buffer_release(b);
        wg_buffer_release(c);
        free(src);
        free(dst);
    }
    fixture_end(&f);
    return test_end();
}
