/* test_create.c - creation and readback: empty/zeros/ones/full/scalar/arange/eye/from_host in
 * every dtype, item(); rand/randn/uniform/normal reproduced bit-for-bit (uniform) or to f32
 * precision (normal) by a C Philox-4x32-10, seeds and counters; .npy save/load round trips in
 * every dtype, <f8/<i8 narrowing, version 2 headers, and clear errors for bad files. */
#include <unistd.h>

#include "tensor/tensor_test.h"

static wt_context *ctx;

/* ---- Philox-4x32-10 reference (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3") ---- */
static void philox(uint32_t c[4], uint32_t k0, uint32_t k1) {
    for (int r = 0; r < 10; r++) {
        if (r) {
            k0 += 0x9E3779B9u;
            k1 += 0xBB67AE85u;
        }
        uint64_t p0 = (uint64_t)0xD2511F53u * c[0], p1 = (uint64_t)0xCD9E8D57u * c[2];
        uint32_t n0 = (uint32_t)(p1 >> 32) ^ c[1] ^ k0, n1 = (uint32_t)p1;
        uint32_t n2 = (uint32_t)(p0 >> 32) ^ c[3] ^ k1, n3 = (uint32_t)p0;
        c[0] = n0, c[1] = n1, c[2] = n2, c[3] = n3;
    }
}

static void rng_ref(uint64_t seed, uint64_t counter, int64_t i, uint32_t out[4]) {
    uint64_t e = counter + (uint64_t)i;
    out[0] = (uint32_t)e, out[1] = (uint32_t)(e >> 32), out[2] = 0, out[3] = 0;
    philox(out, (uint32_t)seed, (uint32_t)(seed >> 32));
}

static void check_rand(uint64_t seed, uint64_t counter, int64_t n, bool normal, double p0, double p1, wt_tensor *t) {
    CHECKF(t != NULL, "rand: %s", wt_last_error(ctx));
    if (!t)
        return;
    double *v = tt_read(ctx, t);
    int64_t bad = 0;
    double mean = 0, m2 = 0;
    for (int64_t i = 0; i < n; i++) {
        uint32_t x[4];
        rng_ref(seed, counter, i, x);
        double want;
        if (!normal) {
            float u = (float)(x[0] >> 8) * (1.0f / 16777216.0f);
            want = (float)((float)p0 + ((float)p1 - (float)p0) * u);
        } else {
            double u1 = ((double)(x[0] >> 8) + 1) / 16777216.0, u2 = (double)(x[1] >> 8) / 16777216.0;
            want = p0 + p1 * sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
        }
        double tol = normal ? 2e-5 * (1 + fabs(want)) * (p1 > 1 ? p1 : 1) : 1e-7 * (1 + fabs(want));
        if (fabs(v[i] - want) > tol && bad++ < 3)
            fprintf(stderr, "rand element %lld: got %.9g want %.9g\n", (long long)i, v[i], want);
        mean += v[i];
        m2 += v[i] * v[i];
    }
    CHECKF(bad == 0, "%lld random numbers differ from the reference", (long long)bad);
    mean /= (double)n;
    double var = m2 / (double)n - mean * mean;
    if (n > 1000) {
        double em = normal ? p0 : (p0 + p1) / 2, ev = normal ? p1 * p1 : (p1 - p0) * (p1 - p0) / 12;
        CHECKF(fabs(mean - em) < 5 * sqrt(ev / (double)n) + 1e-9, "mean %g, want %g", mean, em);
        CHECKF(fabs(var - ev) < 0.05 * ev, "variance %g, want %g", var, ev);
    }
    free(v);
}

static void check_all(const char *what, wt_tensor *t, wt_dtype dt, int64_t n, double (*want)(int64_t)) {
    CHECKF(t != NULL, "%s: %s", what, wt_last_error(ctx));
    if (!t)
        return;
    CHECKF(wt_dtype_of(t) == dt, "%s: dtype %s", what, wt_dtype_name(wt_dtype_of(t)));
    CHECK_EQ_INT(wt_numel(t), n);
    double *v = tt_read(ctx, t);
    int64_t bad = 0;
    for (int64_t i = 0; i < n; i++)
        if (v[i] != want(i) && bad++ < 3)
            fprintf(stderr, "%s[%lld] = %g, want %g\n", what, (long long)i, v[i], want(i));
    CHECKF(bad == 0, "%s: %lld wrong", what, (long long)bad);
    free(v);
}

static double w_zero(int64_t i) { return (void)i, 0; }
static double w_one(int64_t i) { return (void)i, 1; }
static double w_full(int64_t i) { return (void)i, -3; }
static double w_arange(int64_t i) { return -5 + 3 * (double)i; }
static double w_arangef(int64_t i) { return (float)(0.5f + (float)i * 0.25f); }
static double w_eye(int64_t i) { return i / 7 == i % 7; }
static double w_true(int64_t i) { return (void)i, 1; }

static void expect_npy_error(const char *name, const void *bytes, size_t n, const char *needle) {
    char path[256];
    snprintf(path, sizeof path, "/tmp/wt_test_%d_%s.npy", (int)getpid(), name);
    FILE *fp = fopen(path, "wb");
    fwrite(bytes, 1, n, fp);
    fclose(fp);
    wt_tensor *t = wt_load_npy(ctx, path);
    CHECKF(t == NULL, "%s: loaded a bad file", name);
    wt_release(t);
    CHECKF(wt_last_status(ctx) == WT_STATUS_NPY_FORMAT, "%s: status %s", name, wt_status_name(wt_last_status(ctx)));
    CHECKF(strstr(wt_last_error(ctx), needle) != NULL, "%s: message '%s' lacks '%s'", name, wt_last_error(ctx), needle);
    wt_clear_error(ctx);
    unlink(path);
}

/* Writes a .npy with the given header dict (v1) and data. */
static size_t make_npy(unsigned char *buf, int major, const char *dict, const void *data, size_t n) {
    size_t hl = strlen(dict), pre = major == 1 ? 10 : 12;
    size_t total = (pre + hl + 1 + 63) / 64 * 64;
    memcpy(buf, "\x93NUMPY", 6);
    buf[6] = (unsigned char)major, buf[7] = 0;
    size_t h = total - pre;
    buf[8] = (unsigned char)h, buf[9] = (unsigned char)(h >> 8);
    if (major != 1)
        buf[10] = (unsigned char)(h >> 16), buf[11] = (unsigned char)(h >> 24);
    memcpy(buf + pre, dict, hl);
    memset(buf + pre + hl, ' ', total - pre - hl);
    buf[total - 1] = '\n';
    memcpy(buf + total, data, n);
    return total + n;
}

int main(void) {
    tt_fixture f;
    ctx = tt_init(&f, NULL);
    const wt_dtype all[] = { WT_F32, WT_F16, WT_I32, WT_U32, WT_BOOL };
    for (size_t k = 0; k < sizeof all / sizeof *all; k++) {
        wt_dtype dt = all[k];
        if (dt == WT_F16 && !wt_context_has_f16(ctx))
            continue;
        wt_tensor *t = wt_zeros(ctx, dt, WT_SHAPE(3, 300));
        check_all("zeros", t, dt, 900, w_zero);
        wt_release(t);
        t = wt_ones(ctx, dt, WT_SHAPE(1001));
        check_all("ones", t, dt, 1001, w_one);
        wt_release(t);
        if (dt != WT_U32 && dt != WT_BOOL) {
            t = wt_full(ctx, dt, WT_SHAPE(2, 2, 2), -3);
            check_all("full", t, dt, 8, w_full);
            wt_release(t);
        }
        if (dt == WT_I32 || dt == WT_F32) {
            t = wt_arange(ctx, dt, -5, 295, 3);
            check_all("arange", t, dt, 100, w_arange);
            wt_release(t);
        }
        t = wt_eye(ctx, dt, 5, 7);
        check_all("eye", t, dt, 35, w_eye);
        wt_release(t);
        t = wt_scalar(ctx, dt, 1);
        double item = -1;
        CHECK(t && wt_ndim(t) == 0 && wt_item(ctx, t, &item) == WT_OK && item == 1);
        wt_release(t);
        t = wt_empty(ctx, dt, WT_SHAPE(4, 0));
        CHECK(t && wt_numel(t) == 0);
        unsigned char dummy = 0;
        CHECK(wt_to_host(ctx, t, &dummy, 0) == WT_OK);
        wt_release(t);
    }
    wt_tensor *t = wt_arange(ctx, WT_F32, 0.5, 250.5, 0.25);
    check_all("arange f32", t, WT_F32, 1000, w_arangef);
    wt_release(t);
    t = wt_full(ctx, WT_BOOL, WT_SHAPE(5), 2.5);
    check_all("full bool", t, WT_BOOL, 5, w_true);
    wt_release(t);
    t = wt_arange(ctx, WT_F32, 5, 0, 1);
    CHECK(t && wt_numel(t) == 0);
    wt_release(t);

    /* from_host of odd-sized f16 and bool; item on each dtype */
    const uint8_t bools[5] = { 0, 1, 7, 0, 1 };
    t = wt_from_host(ctx, WT_BOOL, WT_SHAPE(5), bools);
    uint8_t bb[5];
    CHECK(wt_to_host(ctx, t, bb, 5) == WT_OK && bb[0] == 0 && bb[1] == 1 && bb[2] == 1 && bb[3] == 0 && bb[4] == 1);
    wt_release(t);
    if (wt_context_has_f16(ctx)) {
        uint16_t h[3] = { wt_f32_to_f16(1.5f), wt_f32_to_f16(-2.25f), wt_f32_to_f16(65504.0f) }, back[3];
        t = wt_from_host(ctx, WT_F16, WT_SHAPE(3), h);
        wt_tensor *sl = wt_slice(ctx, t, 0, 1, 3, 1);   /* offset 1: an unaligned readback */
        CHECK(wt_to_host(ctx, sl, back, 4) == WT_OK && back[0] == h[1] && back[1] == h[2]);
        double it;
        wt_tensor *one = wt_select(ctx, t, 0, 1);
        CHECK(wt_item(ctx, one, &it) == WT_OK && it == -2.25);
        wt_release(one);
        wt_release(sl);
        wt_release(t);
    }
    CHECK(wt_f16_to_f32(wt_f32_to_f16(1.0f / 3.0f)) == 0.333251953125f);
    CHECK(wt_f32_to_f16(1e-8f) == 0 && wt_f32_to_f16(1e6f) == 0x7c00 && wt_f16_to_f32(1) == 5.9604644775390625e-8f);
    CHECK(wt_f32_to_f16(2049.0f) == wt_f32_to_f16(2048.0f));   /* ties to even */

    /* random numbers: reproducible, and equal to the C reference */
    wt_manual_seed(ctx, 42);
    wt_tensor *r1 = wt_rand(ctx, WT_F32, WT_SHAPE(100, 50));
    wt_tensor *r2 = wt_randn(ctx, WT_F32, WT_SHAPE(5001));
    wt_tensor *r3 = wt_uniform(ctx, WT_F32, WT_SHAPE(3000), -2, 6);
    wt_tensor *r4 = wt_normal(ctx, WT_F32, WT_SHAPE(3000), 10, 3);
    check_rand(42, 0, 5000, false, 0, 1, r1);
    check_rand(42, 5000, 5001, true, 0, 1, r2);
    check_rand(42, 10001, 3000, false, -2, 6, r3);
    check_rand(42, 13001, 3000, true, 10, 3, r4);
    wt_manual_seed(ctx, 42);
    wt_tensor *r5 = wt_rand(ctx, WT_F32, WT_SHAPE(5000));
    double *a = tt_read(ctx, r1), *b = tt_read(ctx, r5);
    CHECK(memcmp(a, b, 5000 * sizeof(double)) == 0);
    free(a);
    free(b);
    wt_manual_seed(ctx, 0xfedcba9876543210ull);
    wt_tensor *r6 = wt_rand(ctx, WT_F32, WT_SHAPE(300));
    check_rand(0xfedcba9876543210ull, 0, 300, false, 0, 1, r6);
    if (wt_context_has_f16(ctx)) {
        wt_tensor *r7 = wt_randn(ctx, WT_F16, WT_SHAPE(64));
        CHECK(r7 && wt_dtype_of(r7) == WT_F16);
        wt_release(r7);
    }
    wt_tensor *ri = wt_rand(ctx, WT_I32, WT_SHAPE(3));
    CHECK(ri == NULL && wt_last_status(ctx) == WT_STATUS_DTYPE);
    wt_clear_error(ctx);
    wt_release(r1), wt_release(r2), wt_release(r3), wt_release(r4), wt_release(r5), wt_release(r6);

    /* .npy round trips */
    char path[256];
    snprintf(path, sizeof path, "/tmp/wt_test_%d.npy", (int)getpid());
    for (size_t k = 0; k < sizeof all / sizeof *all; k++) {
        wt_dtype dt = all[k];
        if (dt == WT_F16 && !wt_context_has_f16(ctx))
            continue;
        wt_tensor *x = wt_eye(ctx, dt, 3, 4);
        wt_tensor *xt = wt_transpose(ctx, x, 0, 1);   /* saved in C order of the view */
        CHECK(wt_save_npy(ctx, xt, path) == WT_OK);
        wt_tensor *y = wt_load_npy(ctx, path);
        CHECKF(y != NULL, "load %s: %s", wt_dtype_name(dt), wt_last_error(ctx));
        if (y) {
            CHECK(wt_dtype_of(y) == dt && wt_ndim(y) == 2 && wt_shape(y)[0] == 4 && wt_shape(y)[1] == 3);
            wt_tensor *eq = wt_eq(ctx, y, xt);
            wt_tensor *ne = wt_logical_not(ctx, eq);
            double *v = tt_read(ctx, ne);
            int bad = 0;
            for (int i = 0; i < 12; i++)
                bad += v[i] != 0;
            CHECK_EQ_INT(bad, 0);
            free(v);
            wt_release(eq);
            wt_release(ne);
        }
        wt_release(x), wt_release(xt), wt_release(y);
    }
    /* scalar and 1-d shapes in the header */
    wt_tensor *s0 = wt_scalar(ctx, WT_I32, -7);
    CHECK(wt_save_npy(ctx, s0, path) == WT_OK);
    wt_tensor *s1 = wt_load_npy(ctx, path);
    double it = 0;
    CHECK(s1 && wt_ndim(s1) == 0 && wt_item(ctx, s1, &it) == WT_OK && it == -7);
    wt_release(s0), wt_release(s1);
    FILE *fp = fopen(path, "rb");
    char head[256] = { 0 };
    CHECK(fp && fread(head, 1, 255, fp) > 64);
    if (fp)
        fclose(fp);
    const char *nl = memchr(head, '\n', sizeof head);
    CHECK(strstr(head + 10, "'shape': ()") != NULL && nl && (nl - head + 1) % 64 == 0);
    unlink(path);

    /* <f8 and <i8 load narrowed; version 2 header */
    unsigned char buf[512];
    double d8[3] = { 1.5, -2.25, 1e3 };
    size_t n = make_npy(buf, 2, "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }", d8, sizeof d8);
    fp = fopen(path, "wb");
    fwrite(buf, 1, n, fp);
    fclose(fp);
    t = wt_load_npy(ctx, path);
    CHECKF(t && wt_dtype_of(t) == WT_F32, "f8: %s", wt_last_error(ctx));
    if (t) {
        double *v = tt_read(ctx, t);
        CHECK(v[0] == 1.5 && v[1] == -2.25 && v[2] == 1000);
        free(v);
    }
    wt_release(t);
    int64_t i8[2] = { -5, 1ll << 40 };
    n = make_npy(buf, 1, "{'descr': '<i8', 'fortran_order': False, 'shape': (2,), }", i8, sizeof i8);
    expect_npy_error("i8range", buf, n, "does not fit i32");
    unlink(path);

    /* bad files */
    float f4[4] = { 0 };
    expect_npy_error("magic", "NOTNUMPY........", 16, "bad magic");
    n = make_npy(buf, 1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", f4, sizeof f4);
    expect_npy_error("fortran", buf, n, "fortran_order");
    n = make_npy(buf, 1, "{'descr': '>f4', 'fortran_order': False, 'shape': (2, 2), }", f4, sizeof f4);
    expect_npy_error("bigendian", buf, n, "'>f4'");
    n = make_npy(buf, 1, "{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }", f4, sizeof f4);
    expect_npy_error("complex", buf, n, "unsupported dtype '<c8'");
    n = make_npy(buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", f4, sizeof f4);
    expect_npy_error("short", buf, n, "shorter");
    n = make_npy(buf, 9, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", f4, 4);
    expect_npy_error("version", buf, n, "version 9");
    n = make_npy(buf, 1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", f4, 4);
    expect_npy_error("structured", buf, n, "descr");
    CHECK(wt_load_npy(ctx, "/nonexistent/x.npy") == NULL && wt_last_status(ctx) == WT_STATUS_IO);
    CHECK(strstr(wt_last_error(ctx), "/nonexistent/x.npy") != NULL);
    wt_clear_error(ctx);

    /* creation errors */
    CHECK(wt_zeros(ctx, WT_F32, WT_SHAPE(2, -1)) == NULL && wt_last_status(ctx) == WT_STATUS_SHAPE);
    CHECK(wt_zeros(ctx, (wt_dtype)42, WT_SHAPE(2)) == NULL && wt_last_status(ctx) == WT_STATUS_DTYPE);
    CHECK(wt_zeros(ctx, WT_F32, 9, (const int64_t[]){ 1, 1, 1, 1, 1, 1, 1, 1, 1 }) == NULL);
    CHECK(wt_zeros(ctx, WT_F32, WT_SHAPE(1 << 20, 1 << 20)) == NULL && wt_last_status(ctx) == WT_STATUS_SHAPE);
    CHECK(wt_arange(ctx, WT_F32, 0, 1, 0) == NULL && wt_last_status(ctx) == WT_STATUS_INVALID_ARGUMENT);
    CHECK(wt_arange(ctx, WT_I32, 0, 1, 0.5) == NULL && strstr(wt_last_error(ctx), "integral"));
    CHECK(wt_from_host(ctx, WT_F32, WT_SHAPE(3), NULL) == NULL && wt_last_status(ctx) == WT_STATUS_INVALID_ARGUMENT);
    float h3[3];
    wt_tensor *x3 = wt_ones(ctx, WT_F32, WT_SHAPE(3));
    CHECK(wt_to_host(ctx, x3, h3, 8) == WT_STATUS_INVALID_ARGUMENT && strstr(wt_last_error(ctx), "12 bytes"));
    CHECK(wt_item(ctx, x3, &it) == WT_STATUS_SHAPE);
    wt_clear_error(ctx);
    CHECK(wt_to_host(ctx, x3, NULL, 12) == WT_STATUS_INVALID_ARGUMENT && strstr(wt_last_error(ctx), "pointer is NULL"));
    wt_clear_error(ctx);
    wt_tensor *x1 = wt_ones(ctx, WT_F32, WT_SHAPE(1));
    CHECK(wt_item(ctx, x1, NULL) == WT_STATUS_INVALID_ARGUMENT && strstr(wt_last_error(ctx), "output pointer is NULL"));
    wt_release(x1);
    wt_clear_error(ctx);
    wt_release(x3);

    /* releasing twice is an error, not a corrupted free list; tensors held past
     * wt_context_destroy may still be released (the context's shell goes with the last one) */
    wt_clear_error(ctx);
    wt_tensor *twice = wt_ones(ctx, WT_F32, WT_SHAPE(3));
    wt_release(twice);
    wt_release(twice);
    CHECK(wt_last_status(ctx) == WT_STATUS_INVALID_ARGUMENT && strstr(wt_last_error(ctx), "already released"));
    wt_clear_error(ctx);
    CHECK(wt_to_host(ctx, twice, h3, 12) == WT_STATUS_INVALID_ARGUMENT);
    wt_clear_error(ctx);
    {
        test_alloc ta2 = { 0 };
        wt_context *c2 = wt_context_create(f.g.dev, &(wt_context_desc){ .allocator = test_allocator(&ta2) });
        wt_tensor *ta = wt_ones(c2, WT_F32, WT_SHAPE(4)), *tb = wt_slice(c2, ta, 0, 1, 3, 1);
        wt_tensor *tc = wt_add(c2, ta, ta);
        CHECK(ta && tb && tc);
        wt_release(tc);
        wt_context_destroy(c2);
        CHECK(ta2.live > 0);   /* the shell and the two tensors still held */
        wt_release(tb);
        CHECK(ta2.live > 0);
        wt_release(ta);
        CHECK_EQ_INT(ta2.live, 0);
    }
    tt_end(&f);
    return test_end();
}
