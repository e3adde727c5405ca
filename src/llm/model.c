/* model.c - the wl_model both parsers fill: an arena for names and values (freed at close in one
 * walk), growable arrays of metadata and tensors, open-addressing indexes by name (which also catch
 * duplicates), read-only file mappings, the dtype table, typed value access, and wl_model_open,
 * which tells GGUF from safetensors by the file's first bytes. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "llm/llm.h"

struct wl_chunk {
    wl_chunk *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
};

static const char *const status_names[] = {
#define X(name, summary) "WL_STATUS_" #name,
    WL_ERRORS(X)
#undef X
};
_Static_assert(sizeof status_names / sizeof status_names[0] == WL_STATUS_COUNT, "status table");

const char *wl_status_name(wl_status s) {
    return (unsigned)s < WL_STATUS_COUNT ? status_names[s] : "WL_STATUS_?";
}

static const struct dtype_row {
    const char *name;
    uint32_t ggml, block, bytes;
} dtypes[] = {
    { "?", UINT32_MAX, 0, 0 },
#define X(name, id, blk, bytes) { #name, id, blk, bytes },
    WL_DTYPES(X)
#undef X
};
_Static_assert(sizeof dtypes / sizeof dtypes[0] == WL_DTYPE_COUNT, "dtype table");

const char *wl_dtype_name(wl_dtype t) { return (unsigned)t < WL_DTYPE_COUNT ? dtypes[t].name : "?"; }
uint32_t wl_dtype_block_elements(wl_dtype t) { return (unsigned)t < WL_DTYPE_COUNT ? dtypes[t].block : 0; }
uint32_t wl_dtype_block_bytes(wl_dtype t) { return (unsigned)t < WL_DTYPE_COUNT ? dtypes[t].bytes : 0; }

wl_dtype wl__dtype_from_ggml(uint32_t id) {
    for (int t = 1; t < WL_DTYPE_COUNT; t++)
        if (dtypes[t].ggml == id) return (wl_dtype)t;
    return WL_DTYPE_NONE;
}

/* ggml's type names by id, the supported ones and those refused by name. */
const char *wl__ggml_type_name(uint32_t id) {
    static const char *const names[] = {
        "F32", "F16", "Q4_0", "Q4_1", "Q4_2", "Q4_3", "Q5_0", "Q5_1", "Q8_0", "Q8_1", "Q2_K", "Q3_K",
        "Q4_K", "Q5_K", "Q6_K", "Q8_K", "IQ2_XXS", "IQ2_XS", "IQ3_XXS", "IQ1_S", "IQ4_NL", "IQ3_S",
        "IQ2_S", "IQ4_XS", "I8", "I16", "I32", "I64", "F64", "IQ1_M", "BF16", "Q4_0_4_4", "Q4_0_4_8",
        "Q4_0_8_8", "TQ1_0", "TQ2_0", "IQ4_NL_4_4", "IQ4_NL_4_8", "IQ4_NL_8_8", "MXFP4",
    };
    return id < sizeof names / sizeof names[0] ? names[id] : NULL;
}

wl_dtype wl__dtype_from_name(const char *s, size_t len) {
    for (int t = 1; t < WL_DTYPE_COUNT; t++)
        if (strlen(dtypes[t].name) == len && !memcmp(dtypes[t].name, s, len)) return (wl_dtype)t;
    return WL_DTYPE_NONE;
}

wl_status wl__tensor_size(wl_tensor_info *t, wl_error *err, const char *prefix) {
    uint64_t n = 1;
    for (uint32_t d = 0; d < WL_MAX_DIMS; d++) {
        if (t->ne[d] && n > UINT64_MAX / t->ne[d])
            return wl__fail(err, WL_STATUS_FORMAT, prefix, "tensor '%s': element count overflows", t->name);
        n *= t->ne[d];
    }
    if (n > (uint64_t)INT64_MAX)
        return wl__fail(err, WL_STATUS_FORMAT, prefix, "tensor '%s': element count overflows", t->name);
    uint32_t blk = dtypes[t->dtype].block, bytes = dtypes[t->dtype].bytes;
    if (t->ne[0] % blk)
        return wl__fail(err, WL_STATUS_FORMAT, prefix,
                        "tensor '%s': row length %llu is not a multiple of %s's block of %u",
                        t->name, (unsigned long long)t->ne[0], dtypes[t->dtype].name, blk);
    uint64_t blocks = n / blk;
    if (blocks > UINT64_MAX / bytes)
        return wl__fail(err, WL_STATUS_FORMAT, prefix, "tensor '%s': byte size overflows", t->name);
    t->elements = n;
    t->size = blocks * bytes;
    return WL_OK;
}

static const char *const value_type_names[] = {
    "none", "u8", "i8", "u16", "i16", "u32", "i32", "f32", "bool", "string", "array", "u64", "i64", "f64",
};
_Static_assert(sizeof value_type_names / sizeof value_type_names[0] == WL_VALUE_COUNT, "value types");

const char *wl_value_type_name(wl_value_type t) {
    return (unsigned)t < WL_VALUE_COUNT ? value_type_names[t] : "?";
}

/* ---- errors and memory ------------------------------------------------------------------------ */
wl_status wl__fail(wl_error *err, wl_status status, const char *prefix, const char *fmt, ...) {
    if (err && err->status == WL_OK) {   /* the first error wins */
        err->status = status;
        int n = snprintf(err->message, sizeof err->message, "%s: ", prefix ? prefix : "wl");
        if (n < 0 || (size_t)n >= sizeof err->message) n = 0;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message + n, sizeof err->message - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return status;
}

void *wl__heap_alloc(wl_model *m, size_t size) {
    return m->al.alloc ? m->al.alloc(m->al.user, size) : malloc(size);
}

void wl__heap_free(wl_model *m, void *p) {
    if (m->al.free) m->al.free(m->al.user, p);
    else free(p);
}

wl_model *wl__model_new(const wl_allocator *alloc) {
    wl_allocator al = { 0 };
    if (alloc) al = *alloc;
    wl_model *m = al.alloc ? al.alloc(al.user, sizeof *m) : malloc(sizeof *m);
    if (!m) return NULL;
    memset(m, 0, sizeof *m);
    m->al = al;
    m->alignment = 1;
    return m;
}

void *wl__alloc(wl_model *m, size_t size) {
    size = (size + 15) & ~(size_t)15;
    if (size == 0) size = 16;
    wl_chunk *c = m->arena;
    if (!c || c->cap - c->used < size) {
        size_t cap = size > 60000 ? size : 60000;
        if (cap > SIZE_MAX - sizeof *c) return NULL;
        c = wl__heap_alloc(m, sizeof *c + cap);
        if (!c) return NULL;
        c->cap = cap;
        c->used = 0;
        if (m->arena && size > 60000) {   /* a big block: keep the current chunk filling */
            c->next = m->arena->next;
            m->arena->next = c;
        } else {
            c->next = m->arena;
            m->arena = c;
        }
    }
    void *p = c->data + c->used;
    c->used += size;
    memset(p, 0, size);
    return p;
}

char *wl__strdup(wl_model *m, const char *s, size_t len) {
    if (len == SIZE_MAX) return NULL;
    char *p = wl__alloc(m, len + 1);
    if (p) {
        if (len) memcpy(p, s, len);
        p[len] = 0;
    }
    return p;
}

wl_status wl__grow(wl_model *m, void **arr, uint64_t *cap, uint64_t need, size_t elem) {
    if (need <= *cap) return WL_OK;
    uint64_t nc = *cap ? *cap : 16;
    while (nc < need) {
        if (nc > UINT64_MAX / 2) return WL_STATUS_OUT_OF_MEMORY;
        nc *= 2;
    }
    if (nc > SIZE_MAX / elem) return WL_STATUS_OUT_OF_MEMORY;
    void *p = wl__heap_alloc(m, (size_t)nc * elem);
    if (!p) return WL_STATUS_OUT_OF_MEMORY;
    if (*arr) memcpy(p, *arr, (size_t)*cap * elem);
    memset((char *)p + (size_t)*cap * elem, 0, (size_t)(nc - *cap) * elem);
    wl__heap_free(m, *arr);
    *arr = p;
    *cap = nc;
    return WL_OK;
}

wl_kv *wl__kv_push(wl_model *m) {
    void *a = m->kvs;
    if (wl__grow(m, &a, &m->kv_cap, m->kv_count + 1, sizeof(wl_kv))) return NULL;
    m->kvs = a;
    return &m->kvs[m->kv_count++];
}

wl_tensor_info *wl__tensor_push(wl_model *m) {
    void *a = m->tensors;
    if (wl__grow(m, &a, &m->tensor_cap, m->tensor_count + 1, sizeof(wl_tensor_info))) return NULL;
    m->tensors = a;
    return &m->tensors[m->tensor_count++];
}

wl_file *wl__file_push(wl_model *m) {
    void *a = m->files;
    uint64_t cap = m->file_cap;
    if (m->file_count == UINT32_MAX || wl__grow(m, &a, &cap, (uint64_t)m->file_count + 1, sizeof(wl_file)))
        return NULL;
    m->files = a;
    m->file_cap = (uint32_t)(cap > UINT32_MAX ? UINT32_MAX : cap);
    return &m->files[m->file_count++];
}

/* ---- name indexes ----------------------------------------------------------------------------- */
static uint64_t hash_str(const char *s) {
    uint64_t h = 1469598103934665603ull;   /* FNV-1a */
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* Builds an index over n names (name(i)); returns the duplicate's position + 1, or 0. */
static wl_status build_index(wl_model *m, uint64_t n, const char *(*name)(const wl_model *, uint64_t),
                             uint64_t **index, uint64_t *cap, uint64_t *dup) {
    uint64_t c = 16;
    while (c < n * 2) c *= 2;
    if (c > SIZE_MAX / sizeof(uint64_t)) return WL_STATUS_OUT_OF_MEMORY;
    uint64_t *t = wl__alloc(m, (size_t)c * sizeof *t);
    if (!t) return WL_STATUS_OUT_OF_MEMORY;
    *dup = 0;
    for (uint64_t i = 0; i < n; i++) {
        const char *s = name(m, i);
        uint64_t h = hash_str(s) & (c - 1);
        while (t[h]) {
            if (!strcmp(name(m, t[h] - 1), s)) {
                *dup = i + 1;
                return WL_STATUS_FORMAT;
            }
            h = (h + 1) & (c - 1);
        }
        t[h] = i + 1;
    }
    *index = t;
    *cap = c;
    return WL_OK;
}

static const char *kv_name(const wl_model *m, uint64_t i) { return m->kvs[i].key; }
static const char *tensor_name(const wl_model *m, uint64_t i) { return m->tensors[i].name; }

wl_status wl__index(wl_model *m, wl_error *err, const char *prefix) {
    uint64_t dup;
    wl_status s = build_index(m, m->kv_count, kv_name, &m->kv_index, &m->kv_index_cap, &dup);
    if (s == WL_STATUS_FORMAT)
        return wl__fail(err, s, prefix, "duplicate metadata key '%s'", m->kvs[dup - 1].key);
    if (s) return wl__fail(err, s, prefix, "out of memory");
    s = build_index(m, m->tensor_count, tensor_name, &m->tensor_index, &m->tensor_index_cap, &dup);
    if (s == WL_STATUS_FORMAT)
        return wl__fail(err, s, prefix, "duplicate tensor name '%s'", m->tensors[dup - 1].name);
    if (s) return wl__fail(err, s, prefix, "out of memory");
    return WL_OK;
}

static uint64_t lookup(const uint64_t *t, uint64_t cap, const wl_model *m,
                       const char *(*name)(const wl_model *, uint64_t), const char *s) {
    if (!t || !s) return 0;
    uint64_t h = hash_str(s) & (cap - 1);
    while (t[h]) {
        if (!strcmp(name(m, t[h] - 1), s)) return t[h];
        h = (h + 1) & (cap - 1);
    }
    return 0;
}

/* ---- files ------------------------------------------------------------------------------------ */
wl_status wl__map(wl_model *m, const char *path, wl_error *err, wl_file **out) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return wl__fail(err, WL_STATUS_IO, path, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return wl__fail(err, WL_STATUS_IO, path, "not a regular file");
    }
    if ((uint64_t)st.st_size > SIZE_MAX) {
        close(fd);
        return wl__fail(err, WL_STATUS_IO, path, "too big to map");
    }
    void *base = NULL;
    if (st.st_size > 0) {
        base = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (base == MAP_FAILED) {
            int e = errno;
            close(fd);
            return wl__fail(err, WL_STATUS_IO, path, "cannot map: %s", strerror(e));
        }
    }
    close(fd);
    wl_file *f = wl__file_push(m);
    const char *p = wl__strdup(m, path, strlen(path));
    if (!f || !p) {
        if (base) munmap(base, (size_t)st.st_size);
        return wl__fail(err, WL_STATUS_OUT_OF_MEMORY, path, "out of memory");
    }
    f->path = p;
    f->base = base;
    f->size = (uint64_t)st.st_size;
    f->mapped = base != NULL;
    *out = f;
    return WL_OK;
}

void wl_model_close(wl_model *m) {
    if (!m) return;
    for (uint32_t i = 0; i < m->file_count; i++)
        if (m->files[i].mapped) munmap((void *)(uintptr_t)m->files[i].base, (size_t)m->files[i].size);
    wl__heap_free(m, m->files);
    wl__heap_free(m, m->kvs);
    wl__heap_free(m, m->tensors);
    for (wl_chunk *c = m->arena, *n; c; c = n) {
        n = c->next;
        wl__heap_free(m, c);
    }
    wl_allocator al = m->al;
    if (al.free) al.free(al.user, m);
    else free(m);
}

static wl_model *open_memory(const void *data, size_t size, const wl_allocator *alloc, wl_error *err,
                             wl_status (*parse)(wl_model *, uint32_t, wl_error *)) {
    wl_error local;   /* the parsers may then rely on err */
    if (!err) err = &local;
    memset(err, 0, sizeof *err);
    if (!data && size) {
        wl__fail(err, WL_STATUS_INVALID_ARGUMENT, "wl", "NULL data");
        return NULL;
    }
    wl_model *m = wl__model_new(alloc);
    if (!m) {
        wl__fail(err, WL_STATUS_OUT_OF_MEMORY, "wl", "out of memory");
        return NULL;
    }
    wl_file *f = wl__file_push(m);
    if (!f) {
        wl__fail(err, WL_STATUS_OUT_OF_MEMORY, "wl", "out of memory");
        wl_model_close(m);
        return NULL;
    }
    f->path = "";
    f->base = data;
    f->size = size;
    if (parse(m, 0, err) || wl__index(m, err, "memory")) {
        wl_model_close(m);
        return NULL;
    }
    return m;
}

wl_model *wl_gguf_open_memory(const void *data, size_t size, const wl_allocator *alloc, wl_error *err) {
    return open_memory(data, size, alloc, err, wl__gguf_parse);
}

wl_model *wl_safetensors_open_memory(const void *data, size_t size, const wl_allocator *alloc, wl_error *err) {
    return open_memory(data, size, alloc, err, wl__safetensors_parse);
}

wl_model *wl_model_open(const char *path, const wl_allocator *alloc, wl_error *err) {
    wl_error local;   /* the parsers may then rely on err */
    if (!err) err = &local;
    memset(err, 0, sizeof *err);
    if (!path || !*path) {
        wl__fail(err, WL_STATUS_INVALID_ARGUMENT, "wl_model_open", "no path");
        return NULL;
    }
    wl_model *m = wl__model_new(alloc);
    if (!m) {
        wl__fail(err, WL_STATUS_OUT_OF_MEMORY, path, "out of memory");
        return NULL;
    }
    struct stat st;
    wl_status s;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        s = wl__safetensors_open_path(m, path, err);
    } else {
        char magic[4] = { 0 };
        FILE *f = fopen(path, "rb");
        size_t got = f ? fread(magic, 1, 4, f) : 0;
        if (f) fclose(f);
        if (got == 4 && !memcmp(magic, "GGUF", 4)) {
            wl_file *mf = NULL;
            s = wl__map(m, path, err, &mf);
            if (!s) s = wl__gguf_parse(m, 0, err);
            if (!s) s = wl__index(m, err, path);
        } else {
            /* safetensors (a u64 header length) or an index json ('{'): safetensors.c decides */
            s = wl__safetensors_open_path(m, path, err);
        }
    }
    if (s) {
        if (err->status == WL_OK) wl__fail(err, s, path, "cannot open");
        wl_model_close(m);
        return NULL;
    }
    return m;
}

/* ---- accessors -------------------------------------------------------------------------------- */
wl_format wl_model_format(const wl_model *m) { return m ? m->format : WL_FORMAT_NONE; }
uint32_t wl_model_version(const wl_model *m) { return m ? m->version : 0; }
uint64_t wl_model_alignment(const wl_model *m) { return m ? m->alignment : 0; }
uint32_t wl_model_file_count(const wl_model *m) { return m ? m->file_count : 0; }
const char *wl_model_file_path(const wl_model *m, uint32_t i) {
    return m && i < m->file_count ? m->files[i].path : NULL;
}
uint64_t wl_model_file_size(const wl_model *m, uint32_t i) {
    return m && i < m->file_count ? m->files[i].size : 0;
}
uint64_t wl_model_metadata_count(const wl_model *m) { return m ? m->kv_count : 0; }
const char *wl_model_metadata_key(const wl_model *m, uint64_t i) {
    return m && i < m->kv_count ? m->kvs[i].key : NULL;
}
const wl_value *wl_model_metadata_value(const wl_model *m, uint64_t i) {
    return m && i < m->kv_count ? &m->kvs[i].value : NULL;
}
const wl_value *wl_model_find(const wl_model *m, const char *key) {
    if (!m) return NULL;
    uint64_t i = lookup(m->kv_index, m->kv_index_cap, m, kv_name, key);
    return i ? &m->kvs[i - 1].value : NULL;
}
uint64_t wl_model_tensor_count(const wl_model *m) { return m ? m->tensor_count : 0; }
const wl_tensor_info *wl_model_tensor(const wl_model *m, uint64_t i) {
    return m && i < m->tensor_count ? &m->tensors[i] : NULL;
}
const wl_tensor_info *wl_model_tensor_find(const wl_model *m, const char *name) {
    if (!m) return NULL;
    uint64_t i = lookup(m->tensor_index, m->tensor_index_cap, m, tensor_name, name);
    return i ? &m->tensors[i - 1] : NULL;
}

/* ---- values ----------------------------------------------------------------------------------- */
size_t wl__scalar_size(wl_value_type t) {
    switch (t) {
    case WL_VALUE_U8: case WL_VALUE_I8: case WL_VALUE_BOOL: return 1;
    case WL_VALUE_U16: case WL_VALUE_I16: return 2;
    case WL_VALUE_U32: case WL_VALUE_I32: case WL_VALUE_F32: return 4;
    case WL_VALUE_U64: case WL_VALUE_I64: case WL_VALUE_F64: return 8;
    default: return 0;
    }
}

wl_status wl_value_at(const wl_value *a, uint64_t i, wl_value *out) {
    if (!a || !out) return WL_STATUS_INVALID_ARGUMENT;
    if (a->type != WL_VALUE_ARRAY) return WL_STATUS_TYPE;
    if (i >= a->count) return WL_STATUS_NOT_FOUND;
    if (a->items) {
        *out = a->items[i];
        return WL_OK;
    }
    memset(out, 0, sizeof *out);
    out->type = a->elem_type;
    out->data = (const unsigned char *)a->data + i * wl__scalar_size(a->elem_type);
    return WL_OK;
}

/* Reads an integer value: *neg when negative, the magnitude in *mag. */
static wl_status read_int(const wl_value *v, int *neg, uint64_t *mag) {
    if (!v) return WL_STATUS_INVALID_ARGUMENT;
    const void *p = v->data;
    int64_t s = 0;
    uint64_t u = 0;
    int is_signed = 0;
    switch (v->type) {
    case WL_VALUE_BOOL: case WL_VALUE_U8: { uint8_t x; memcpy(&x, p, 1); u = x; break; }
    case WL_VALUE_U16: { uint16_t x; memcpy(&x, p, 2); u = x; break; }
    case WL_VALUE_U32: { uint32_t x; memcpy(&x, p, 4); u = x; break; }
    case WL_VALUE_U64: memcpy(&u, p, 8); break;
    case WL_VALUE_I8: { int8_t x; memcpy(&x, p, 1); s = x; is_signed = 1; break; }
    case WL_VALUE_I16: { int16_t x; memcpy(&x, p, 2); s = x; is_signed = 1; break; }
    case WL_VALUE_I32: { int32_t x; memcpy(&x, p, 4); s = x; is_signed = 1; break; }
    case WL_VALUE_I64: memcpy(&s, p, 8); is_signed = 1; break;
    default: return WL_STATUS_TYPE;
    }
    if (is_signed) {
        *neg = s < 0;
        *mag = s < 0 ? (uint64_t)0 - (uint64_t)s : (uint64_t)s;
    } else {
        *neg = 0;
        *mag = u;
    }
    return WL_OK;
}

wl_status wl_value_u64(const wl_value *v, uint64_t *out) {
    int neg;
    uint64_t mag;
    wl_status s = read_int(v, &neg, &mag);
    if (s) return s;
    if (neg) return WL_STATUS_TYPE;
    *out = mag;
    return WL_OK;
}

wl_status wl_value_i64(const wl_value *v, int64_t *out) {
    int neg;
    uint64_t mag;
    wl_status s = read_int(v, &neg, &mag);
    if (s) return s;
    if (!neg && mag > (uint64_t)INT64_MAX) return WL_STATUS_TYPE;
    if (neg && mag > (uint64_t)INT64_MAX + 1) return WL_STATUS_TYPE;
    *out = neg ? (mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag) : (int64_t)mag;
    return WL_OK;
}

wl_status wl_value_f64(const wl_value *v, double *out) {
    if (!v) return WL_STATUS_INVALID_ARGUMENT;
    if (v->type == WL_VALUE_F32) {
        float f;
        memcpy(&f, v->data, 4);
        *out = f;
        return WL_OK;
    }
    if (v->type == WL_VALUE_F64) {
        memcpy(out, v->data, 8);
        return WL_OK;
    }
    int neg;
    uint64_t mag;
    if (v->type == WL_VALUE_BOOL || read_int(v, &neg, &mag)) return WL_STATUS_TYPE;
    *out = neg ? -(double)mag : (double)mag;
    return WL_OK;
}

wl_status wl_value_bool(const wl_value *v, bool *out) {
    if (!v) return WL_STATUS_INVALID_ARGUMENT;
    if (v->type != WL_VALUE_BOOL) return WL_STATUS_TYPE;
    *out = *(const unsigned char *)v->data != 0;
    return WL_OK;
}

wl_status wl_value_str(const wl_value *v, const char **s, size_t *len) {
    if (!v) return WL_STATUS_INVALID_ARGUMENT;
    if (v->type != WL_VALUE_STRING) return WL_STATUS_TYPE;
    if (s) *s = v->count ? v->data : "";
    if (len) *len = (size_t)v->count;
    return WL_OK;
}

#define GETTER(name, type, conv)                                                  \
    wl_status name(const wl_model *m, const char *key, type *out) {              \
        const wl_value *v = wl_model_find(m, key);                                \
        if (!v) return m && key && out ? WL_STATUS_NOT_FOUND : WL_STATUS_INVALID_ARGUMENT; \
        return out ? conv(v, out) : WL_STATUS_INVALID_ARGUMENT;                   \
    }
GETTER(wl_model_get_u64, uint64_t, wl_value_u64)
GETTER(wl_model_get_i64, int64_t, wl_value_i64)
GETTER(wl_model_get_f64, double, wl_value_f64)
GETTER(wl_model_get_bool, bool, wl_value_bool)
#undef GETTER

wl_status wl_model_get_str(const wl_model *m, const char *key, const char **s, size_t *len) {
    const wl_value *v = wl_model_find(m, key);
    if (!v) return m && key ? WL_STATUS_NOT_FOUND : WL_STATUS_INVALID_ARGUMENT;
    return wl_value_str(v, s, len);
}
