/* test_oom.c - out of GPU memory is an error value: a buffer larger than the device's memory
 * heap gives WG_ERR_DEVICE_OOM of type out-of-memory (caught by an out-of-memory scope, not a
 * validation one), the handle is an invalid object, and the buffers that exist keep their
 * contents and stay usable.  Also the error-scope rules: innermost matching scope, first error
 * kept, uncaptured errors to the callback. */
#include "gpu_test.h"
#include "test_inc.spv.h"

static int uncaptured;
static wg_error last;
static void on_error(void *u, const wg_error *e) {
    (void)u;
    uncaptured++;
    last = *e;
}

int main(void) {
    gpu_fixture f;
    fixture_init(&f, &(wg_device_desc){ .uncaptured_error = on_error });
    wg_device *dev = f.dev;
    const uint32_t n = 4096;
    uint32_t *v = malloc(n * 4), *back = malloc(n * 4);
    for (uint32_t i = 0; i < n; i++)
        v[i] = i * 7 + 3;
    wg_buffer *keep = mkbuf(dev, "keep", n * 4, 0);
    wg_queue_write_buffer(f.q, keep, 0, v, n * 4);

    uint64_t heap = wg_adapter_get_info(f.ad)->device_local_bytes;
    uint64_t huge = (heap + (1u << 20)) & ~3ull;
    CHECKF(huge <= wg_device_get_limits(dev)->max_buffer_size, "heap %llu is not below maxBufferSize %llu",
           (unsigned long long)heap, (unsigned long long)wg_device_get_limits(dev)->max_buffer_size);
    wg_device_push_error_scope(dev, WG_ERROR_TYPE_OUT_OF_MEMORY);
    wg_device_push_error_scope(dev, WG_ERROR_TYPE_VALIDATION);
    wg_buffer *big = mkbuf(dev, "huge", huge, 0);
    wg_error ve, oe;
    CHECK_EQ_INT(wg_device_pop_error_scope(dev, &ve), WG_ERR_NONE);
    CHECK_EQ_INT(wg_device_pop_error_scope(dev, &oe), WG_ERR_DEVICE_OOM);
    CHECK_EQ_INT(oe.type, WG_ERROR_TYPE_OUT_OF_MEMORY);
    CHECKF(strstr(oe.message, "'huge'") != NULL, "message names the label: %s", oe.message);
    CHECK(big != NULL && !wg_buffer_is_valid(big));
    wg_buffer_release(big);

    /* uncaptured: goes to the callback */
    big = mkbuf(dev, "huge2", huge, 0);
    CHECK_EQ_INT(uncaptured, 1);
    CHECK_EQ_INT(last.id, WG_ERR_DEVICE_OOM);
    wg_buffer_release(big);

    /* the existing buffer kept its contents and still works */
    wg_compute_pipeline *p = mkpipe(dev, "inc", test_inc_spv, test_inc_spv_words);
    wg_bind_group *g = mkgroup(dev, p, 1, &keep);
    EXPECT_NO_ERROR(dev, {
        CHECK_EQ_INT(wg_buffer_read(keep, 0, back, n * 4), WG_STATUS_OK);
        CHECK(!memcmp(v, back, n * 4));
        run1(dev, p, g, n / 64);
        CHECK_EQ_INT(wg_buffer_read(keep, 0, back, n * 4), WG_STATUS_OK);
    });
    CHECK_EQ_INT(back[0], 4);
    CHECK_EQ_INT(back[n - 1], (n - 1) * 7 + 4);
    /* and new allocations still succeed */
    wg_buffer *after = NULL;
    EXPECT_NO_ERROR(dev, after = mkbuf(dev, "after", 1 << 20, 0));
    CHECK(wg_buffer_is_valid(after));
    wg_buffer_release(after);

    /* scope rules: nested, the innermost matching one catches, only the first error is kept */
    wg_device_push_error_scope(dev, WG_ERROR_TYPE_VALIDATION);
    wg_device_push_error_scope(dev, WG_ERROR_TYPE_OUT_OF_MEMORY);
    wg_buffer *bad1 = mkbuf(dev, "first", 1ull << 62, 0);                           /* BUFFER_TOO_LARGE */
    wg_buffer *bad2 = mkbuf(dev, "second", 64, WG_BUFFER_USAGE_MAP_READ | WG_BUFFER_USAGE_STORAGE);
    wg_error e_oom, e_val;
    CHECK_EQ_INT(wg_device_pop_error_scope(dev, &e_oom), WG_ERR_NONE);
    CHECK_EQ_INT(e_oom.type, WG_ERROR_TYPE_NONE);
    CHECK_EQ_INT(wg_device_pop_error_scope(dev, &e_val), WG_ERR_BUFFER_TOO_LARGE);
    CHECK(strstr(e_val.message, "'first'") != NULL);
    CHECK_STR(wg_error_id_name(e_val.id), "WG_ERR_BUFFER_TOO_LARGE");
    CHECK_STR(wg_error_type_name(e_val.type), "validation");
    CHECK_EQ_INT(uncaptured, 1);
    /* an object made from an invalid object is invalid */
    wg_device_push_error_scope(dev, WG_ERROR_TYPE_VALIDATION);
    wg_bind_group *bg = mkgroup(dev, p, 1, &bad1);
    (void)bg;
    CHECK_EQ_INT(wg_device_pop_error_scope(dev, NULL), WG_ERR_INVALID_OBJECT);
    wg_bind_group_release(bg);
    wg_buffer_release(bad1);
    wg_buffer_release(bad2);
    for (int i = 0; i < WG_ERR_COUNT; i++)
        CHECK(strncmp(wg_error_id_name((wg_error_id)i), "WG_ERR_", 7) == 0);

    wg_bind_group_release(g);
    wg_compute_pipeline_release(p);
    wg_buffer_release(keep);
    free(v);
    free(back);
    fixture_end(&f);
    return test_end();
}
