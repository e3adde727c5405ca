/* test_gguf.c - the GGUF reader on files written here in memory: versions 2 and 3, every metadata
 * type, string and nested arrays, the default and a custom alignment, tensors of several ggml
 * types; then hostile files: every truncation of a small file, huge counts, offsets past the end,
 * overflowing dimensions, bad alignment, duplicate names, unknown and unsupported types.  Each
 * must be a clear error (status + message naming the field), never a crash (make asan). */
#include <stdint.h>
#include <string.h>

#include "test.h"
#include "wgc/llm.h"

typedef struct buf { unsigned char d[1 << 16]; size_t n; } buf;
static void put(buf *b, const void *p, size_t n) { memcpy(b->d + b->n, p, n); b->n += n; }
static void u32(buf *b, uint32_t v) { put(b, &v, 4); }
static void u64(buf *b, uint64_t v) { put(b, &v, 8); }
static void str(buf *b, const char *s) { u64(b, strlen(s)); put(b, s, strlen(s)); }
static void key(buf *b, const char *k, uint32_t type) { str(b, k); u32(b, type); }
static void pad(buf *b, size_t a) { while (b->n % a) b->d[b->n++] = 0; }

/* A file with every metadata type and 3 tensors (F32 [4,2], Q4_0 [64], Q6_K [256,2]). */
static void build(buf *b, uint32_t version, uint32_t align) {
    b->n = 0;
    put(b, "GGUF", 4);
    u32(b, version);
    u64(b, 3);
    u64(b, 16 + (align != 32));
    uint8_t u8 = 200; int8_t i8 = -5; uint16_t u16 = 60000; int16_t i16 = -30000; int32_t i32 = -2000000000;
    float f32 = 1.5f; uint8_t bl = 1; uint64_t big = 1ull << 40; int64_t i64 = -(1ll << 40); double f64 = 0.25;
    key(b, "t.u8", 0); put(b, &u8, 1);
    key(b, "t.i8", 1); put(b, &i8, 1);
    key(b, "t.u16", 2); put(b, &u16, 2);
    key(b, "t.i16", 3); put(b, &i16, 2);
    key(b, "t.u32", 4); u32(b, 4000000000u);
    key(b, "t.i32", 5); put(b, &i32, 4);
    key(b, "t.f32", 6); put(b, &f32, 4);
    key(b, "t.bool", 7); put(b, &bl, 1);
    key(b, "general.architecture", 8); str(b, "llama");
    key(b, "t.u64", 10); u64(b, big);
    key(b, "t.i64", 11); put(b, &i64, 8);
    key(b, "t.f64", 12); put(b, &f64, 8);
    key(b, "t.arr_i32", 9); u32(b, 5); u64(b, 3); for (int32_t i = -1; i < 2; i++) put(b, &i, 4);
    key(b, "t.arr_str", 9); u32(b, 8); u64(b, 2); str(b, "hello"); str(b, "");
    key(b, "t.nested", 9); u32(b, 9); u64(b, 2);
    u32(b, 0); u64(b, 2); put(b, "\x01\x02", 2);
    u32(b, 8); u64(b, 1); str(b, "x");
    key(b, "t.empty", 9); u32(b, 12); u64(b, 0);
    if (align != 32) { key(b, "general.alignment", 4); u32(b, align); }
    str(b, "a.weight"); u32(b, 2); u64(b, 4); u64(b, 2); u32(b, 0); u64(b, 0);
    str(b, "b.weight"); u32(b, 1); u64(b, 64); u32(b, 2); u64(b, align > 32 ? align : 32);
    uint64_t c_off = (32 + 36 + align - 1) / align * align;
    if (c_off < (align > 32 ? align : 32) + 36) c_off += align;
    str(b, "c.weight"); u32(b, 2); u64(b, 256); u64(b, 2); u32(b, 14); u64(b, c_off);
    pad(b, align);
    size_t data = b->n;
    for (int i = 0; i < 8; i++) { float v = (float)i; put(b, &v, 4); }
    memset(b->d + b->n, 0x11, (size_t)(data + c_off + 420 - b->n));
    b->n = data + c_off + 420;
}

static void good(uint32_t version, uint32_t align) {
    static buf b;
    build(&b, version, align);
    wl_error err;
    wl_model *m = wl_gguf_open_memory(b.d, b.n, NULL, &err);
    CHECKF(m != NULL, "v%u align %u: %s", version, align, err.message);
    if (!m) return;
    CHECK_EQ_INT(wl_model_version(m), version);
    CHECK_EQ_INT(wl_model_alignment(m), align);
    CHECK_EQ_INT(wl_model_metadata_count(m), 16 + (align != 32));
    uint64_t u; int64_t i; double f; bool bl; const char *s; size_t len;
    CHECK(wl_model_get_u64(m, "t.u8", &u) == WL_OK && u == 200);
    CHECK(wl_model_get_i64(m, "t.i8", &i) == WL_OK && i == -5);
    CHECK(wl_model_get_u64(m, "t.i8", &u) == WL_STATUS_TYPE);
    CHECK(wl_model_get_u64(m, "t.u16", &u) == WL_OK && u == 60000);
    CHECK(wl_model_get_i64(m, "t.i16", &i) == WL_OK && i == -30000);
    CHECK(wl_model_get_u64(m, "t.u32", &u) == WL_OK && u == 4000000000u);
    CHECK(wl_model_get_i64(m, "t.i32", &i) == WL_OK && i == -2000000000);
    CHECK(wl_model_get_f64(m, "t.f32", &f) == WL_OK && f == 1.5);
    CHECK(wl_model_get_bool(m, "t.bool", &bl) == WL_OK && bl);
    CHECK(wl_model_get_str(m, "general.architecture", &s, &len) == WL_OK && len == 5 && !memcmp(s, "llama", 5));
    CHECK(wl_model_get_u64(m, "t.u64", &u) == WL_OK && u == 1ull << 40);
    CHECK(wl_model_get_i64(m, "t.i64", &i) == WL_OK && i == -(1ll << 40));
    CHECK(wl_model_get_f64(m, "t.f64", &f) == WL_OK && f == 0.25);
    CHECK(wl_model_get_u64(m, "nope", &u) == WL_STATUS_NOT_FOUND);
    CHECK(wl_model_get_str(m, "t.u8", &s, &len) == WL_STATUS_TYPE);
    const wl_value *a = wl_model_find(m, "t.arr_i32"), *as = wl_model_find(m, "t.arr_str"),
                   *n = wl_model_find(m, "t.nested");
    wl_value e, e2;
    CHECK(a && a->type == WL_VALUE_ARRAY && a->elem_type == WL_VALUE_I32 && a->count == 3);
    CHECK(a && wl_value_at(a, 0, &e) == WL_OK && wl_value_i64(&e, &i) == WL_OK && i == -1);
    CHECK(a && wl_value_at(a, 3, &e) == WL_STATUS_NOT_FOUND);
    CHECK(as && as->count == 2 && wl_value_at(as, 0, &e) == WL_OK && wl_value_str(&e, &s, &len) == WL_OK &&
          len == 5 && !memcmp(s, "hello", 5));
    CHECK(as && wl_value_at(as, 1, &e) == WL_OK && e.type == WL_VALUE_STRING && e.count == 0);
    CHECK(n && n->count == 2 && wl_value_at(n, 0, &e) == WL_OK && e.type == WL_VALUE_ARRAY &&
          wl_value_at(&e, 1, &e2) == WL_OK && wl_value_u64(&e2, &u) == WL_OK && u == 2);
    CHECK(n && wl_value_at(n, 1, &e) == WL_OK && e.elem_type == WL_VALUE_STRING && e.count == 1);
    CHECK(wl_model_find(m, "t.empty") && wl_model_find(m, "t.empty")->count == 0);
    CHECK_EQ_INT(wl_model_tensor_count(m), 3);
    const wl_tensor_info *ta = wl_model_tensor_find(m, "a.weight"), *tb = wl_model_tensor_find(m, "b.weight"),
                         *tc = wl_model_tensor_find(m, "c.weight");
    CHECK(ta && ta->dtype == WL_DTYPE_F32 && ta->ne[0] == 4 && ta->ne[1] == 2 && ta->size == 32 && ta->elements == 8);
    CHECK(ta && ((const float *)ta->data)[7] == 7.0f);
    CHECK(ta && (uintptr_t)((const unsigned char *)ta->data - b.d) % align == 0);
    CHECK(tb && tb->dtype == WL_DTYPE_Q4_0 && tb->size == 36);
    CHECK(tc && tc->dtype == WL_DTYPE_Q6_K && tc->size == 420 && tc->n_dims == 2);
    CHECK(wl_model_tensor_find(m, "zzz") == NULL);
    wl_model_close(m);
}

static void bad(const unsigned char *d, size_t n, wl_status want, const char *needle) {
    wl_error err;
    wl_model *m = wl_gguf_open_memory(d, n, NULL, &err);
    CHECKF(m == NULL, "accepted a bad file (want '%s')", needle);
    wl_model_close(m);
    if (m) return;
    CHECKF(err.status == want, "status %s, want %s: %s", wl_status_name(err.status), wl_status_name(want), err.message);
    CHECKF(strstr(err.message, needle) != NULL, "'%s' lacks '%s'", err.message, needle);
}

/* A header with one tensor: n_dims, dims, type, offset; the data section holds `data` bytes. */
static size_t one_tensor(buf *b, uint32_t nd, const uint64_t *dims, uint32_t type, uint64_t off, size_t data) {
    b->n = 0;
    put(b, "GGUF", 4); u32(b, 3); u64(b, 1); u64(b, 0);
    str(b, "w"); u32(b, nd);
    for (uint32_t i = 0; i < nd; i++) u64(b, dims[i]);
    u32(b, type); u64(b, off);
    pad(b, 32);
    memset(b->d + b->n, 0, data);
    b->n += data;
    return b->n;
}

static void hostile(void) {
    static buf b, c;
    build(&b, 3, 32);
    /* every truncation */
    for (size_t n = 0; n < b.n; n++) {
        wl_error err;
        wl_model *m = wl_gguf_open_memory(b.d, n, NULL, &err);
        CHECKF(m == NULL && err.status == WL_STATUS_FORMAT && err.message[0], "truncated at %zu: %s", n,
               m ? "accepted" : err.message);
        wl_model_close(m);
    }
    bad(b.d, 3, WL_STATUS_FORMAT, "magic");
    memcpy(&c, &b, sizeof b); c.d[0] = 'X';
    bad(c.d, c.n, WL_STATUS_FORMAT, "bad magic");
    memcpy(&c, &b, sizeof b); c.d[4] = 1;
    bad(c.d, c.n, WL_STATUS_UNSUPPORTED, "version 1");
    memcpy(&c, &b, sizeof b); memset(c.d + 8, 0xff, 8);
    bad(c.d, c.n, WL_STATUS_FORMAT, "tensor count");
    memcpy(&c, &b, sizeof b); memset(c.d + 16, 0x7f, 8);
    bad(c.d, c.n, WL_STATUS_FORMAT, "metadata count");
    memcpy(&c, &b, sizeof b); memset(c.d + 24, 0xff, 8);   /* first key's length */
    bad(c.d, c.n, WL_STATUS_FORMAT, "offset 24: metadata key length");
    memcpy(&c, &b, sizeof b); c.d[24 + 8 + 4] = 13;        /* first value type */
    bad(c.d, c.n, WL_STATUS_FORMAT, "unknown metadata value type 13");
    /* huge array count */
    c.n = 0; put(&c, "GGUF", 4); u32(&c, 3); u64(&c, 0); u64(&c, 1); key(&c, "k", 9); u32(&c, 4); u64(&c, 1ull << 61);
    bad(c.d, c.n, WL_STATUS_FORMAT, "array of 2305843009213693952 u32");
    c.n = 0; put(&c, "GGUF", 4); u32(&c, 3); u64(&c, 0); u64(&c, 1); key(&c, "k", 9); u32(&c, 8); u64(&c, 1ull << 60);
    bad(c.d, c.n, WL_STATUS_FORMAT, "cannot fit");
    /* nested too deep */
    c.n = 0; put(&c, "GGUF", 4); u32(&c, 3); u64(&c, 0); u64(&c, 1); key(&c, "k", 9);
    for (int i = 0; i < 20; i++) { u32(&c, 9); u64(&c, 1); }
    u32(&c, 0); u64(&c, 0);
    bad(c.d, c.n, WL_STATUS_FORMAT, "nested deeper");
    /* bool that is not 0/1 */
    c.n = 0; put(&c, "GGUF", 4); u32(&c, 3); u64(&c, 0); u64(&c, 1); key(&c, "k", 7); put(&c, "\x02", 1);
    bad(c.d, c.n, WL_STATUS_FORMAT, "bool byte 2");
    /* bad alignment */
    c.n = 0; put(&c, "GGUF", 4); u32(&c, 3); u64(&c, 0); u64(&c, 1); key(&c, "general.alignment", 4); u32(&c, 24);
    bad(c.d, c.n, WL_STATUS_FORMAT, "general.alignment 24 is not a power of two");
    c.n = 0; put(&c, "GGUF", 4); u32(&c, 3); u64(&c, 0); u64(&c, 1); key(&c, "general.alignment", 4); u32(&c, 0);
    bad(c.d, c.n, WL_STATUS_FORMAT, "not a power of two");
    c.n = 0; put(&c, "GGUF", 4); u32(&c, 3); u64(&c, 0); u64(&c, 1); key(&c, "general.alignment", 10); u64(&c, 32);
    bad(c.d, c.n, WL_STATUS_FORMAT, "not u32");
    /* duplicate key */
    c.n = 0; put(&c, "GGUF", 4); u32(&c, 3); u64(&c, 0); u64(&c, 2); key(&c, "k", 4); u32(&c, 1); key(&c, "k", 4); u32(&c, 2);
    bad(c.d, c.n, WL_STATUS_FORMAT, "duplicate metadata key 'k'");
    /* tensors */
    uint64_t d4[] = { 4, 2 };
    one_tensor(&c, 2, d4, 0, 0, 32);
    wl_error err;
    wl_model *m = wl_gguf_open_memory(c.d, c.n, NULL, &err);
    CHECKF(m != NULL, "%s", err.message);
    wl_model_close(m);
    one_tensor(&c, 2, d4, 0, 0, 31);
    bad(c.d, c.n, WL_STATUS_FORMAT, "runs past the end of the data section");
    one_tensor(&c, 2, d4, 0, 1ull << 62, 32);
    bad(c.d, c.n, WL_STATUS_FORMAT, "runs past the end");
    one_tensor(&c, 2, d4, 0, 8, 64);
    bad(c.d, c.n, WL_STATUS_FORMAT, "not a multiple of the alignment");
    uint64_t huge[] = { 1ull << 32, 1ull << 32, 1ull << 32, 1 };
    one_tensor(&c, 4, huge, 0, 0, 32);
    bad(c.d, c.n, WL_STATUS_FORMAT, "element count overflows");
    uint64_t neg[] = { 1ull << 63 };
    one_tensor(&c, 1, neg, 0, 0, 32);
    bad(c.d, c.n, WL_STATUS_FORMAT, "dimension 0 is");
    uint64_t d5[] = { 4, 2, 1, 1, 1 };
    one_tensor(&c, 5, d5, 0, 0, 32);
    bad(c.d, c.n, WL_STATUS_FORMAT, "5 dimensions");
    one_tensor(&c, 0, d4, 0, 0, 32);
    bad(c.d, c.n, WL_STATUS_FORMAT, "0 dimensions");
    uint64_t odd[] = { 33 };
    one_tensor(&c, 1, odd, 2, 0, 64);
    bad(c.d, c.n, WL_STATUS_FORMAT, "not a multiple of Q4_0's block of 32");
    one_tensor(&c, 2, d4, 16, 0, 32);
    bad(c.d, c.n, WL_STATUS_UNSUPPORTED, "type IQ2_XXS");
    one_tensor(&c, 2, d4, 1000, 0, 32);
    bad(c.d, c.n, WL_STATUS_FORMAT, "unknown type 1000");
    /* duplicate tensor names */
    c.n = 0; put(&c, "GGUF", 4); u32(&c, 3); u64(&c, 2); u64(&c, 0);
    for (int i = 0; i < 2; i++) { str(&c, "w"); u32(&c, 1); u64(&c, 8); u32(&c, 0); u64(&c, 0); }
    pad(&c, 32); memset(c.d + c.n, 0, 32); c.n += 32;
    bad(c.d, c.n, WL_STATUS_FORMAT, "duplicate tensor name 'w'");
    /* empty and NUL names */
    c.n = 0; put(&c, "GGUF", 4); u32(&c, 3); u64(&c, 0); u64(&c, 1); u64(&c, 2); put(&c, "a\0", 2); u32(&c, 4); u32(&c, 0);
    bad(c.d, c.n, WL_STATUS_FORMAT, "NUL byte");
    bad(NULL, 0, WL_STATUS_FORMAT, "magic");
}

static void files(void) {
    static buf b;
    build(&b, 2, 64);
    char path[] = "/tmp/wgc-test-gguf-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0) return;
    FILE *f = fdopen(fd, "wb");
    fwrite(b.d, 1, b.n, f);
    fclose(f);
    wl_error err;
    wl_model *m = wl_model_open(path, NULL, &err);
    CHECKF(m != NULL, "%s", err.message);
    CHECK(wl_model_format(m) == WL_FORMAT_GGUF && wl_model_file_count(m) == 1);
    CHECK_STR(wl_model_file_path(m, 0), path);
    const wl_tensor_info *t = wl_model_tensor_find(m, "a.weight");
    CHECK(t && ((const float *)t->data)[3] == 3.0f && (uintptr_t)t->data % 64 == 0);
    wl_model_close(m);
    remove(path);
    m = wl_model_open("/nonexistent/x.gguf", NULL, &err);
    CHECK(m == NULL && err.status == WL_STATUS_IO && strstr(err.message, "/nonexistent/x.gguf"));
}

/* Fails the Nth allocation: every one must give OUT_OF_MEMORY, never a crash or leak. */
static int fail_at, allocs;
static void *fail_alloc(void *u, size_t n) { (void)u; return ++allocs == fail_at ? NULL : malloc(n); }

static void oom(void) {
    static buf b;
    build(&b, 3, 32);
    wl_allocator al = { fail_alloc, NULL, NULL };
    for (fail_at = 1; fail_at < 50; fail_at++) {
        allocs = 0;
        wl_error err;
        wl_model *m = wl_gguf_open_memory(b.d, b.n, &al, &err);
        if (m) { wl_model_close(m); break; }
        CHECKF(err.status == WL_STATUS_OUT_OF_MEMORY, "alloc %d: %s", fail_at, err.message);
    }
    CHECKF(fail_at > 1 && fail_at < 50, "opened after %d failing allocations", fail_at);
}

int main(void) {
    good(3, 32);
    good(2, 32);
    good(3, 64);
    good(2, 256);
    hostile();
    files();
    oom();
    CHECK_STR(wl_dtype_name(WL_DTYPE_Q5_K), "Q5_K");
    CHECK_EQ_INT(wl_dtype_block_bytes(WL_DTYPE_Q3_K), 110);
    CHECK_STR(wl_status_name(WL_STATUS_TYPE), "WL_STATUS_TYPE");
    return test_end();
}
