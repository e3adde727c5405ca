/* gguf.c - the GGUF reader (versions 2 and 3; version 1's 32-bit counts are refused).
 *
 *   file     = "GGUF" u32:version u64:tensor_count u64:kv_count kv* tensor_info* padding data
 *   kv       = string:key u32:type value
 *   value    = scalar | string | u32:elem_type u64:count value*   (an array; arrays nest)
 *   string   = u64:length byte*                                   (UTF-8, not NUL-terminated)
 *   tensor   = string:name u32:n_dims u64:ne* u32:ggml_type u64:offset
 *   data     = starts at the first multiple of general.alignment (u32, a power of two, default 32)
 *              after the tensor infos; each offset is relative to it and a multiple of the alignment
 *
 * One cursor walks the mapping; every read first checks that the bytes are there (remaining-size
 * comparisons, never pointer sums that could wrap), so counts from the file bound nothing until
 * they have been checked against what is left of it.  Scalar values and scalar arrays point into
 * the file; string and nested arrays get a wl_value per element in the arena (each element takes
 * at least 8 bytes of file, so the arena is bounded by the file's size).  Errors name the field
 * and its byte offset. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "llm/llm.h"

#define GGUF_MAX_ARRAY_DEPTH 8
#define GGUF_DEFAULT_ALIGNMENT 32

typedef struct reader {
    wl_model *m;
    const unsigned char *base;
    uint64_t size, pos;
    const char *prefix;   /* "<path>: gguf" */
    wl_error *err;
} reader;

#define FAIL(r, status, ...) wl__fail((r)->err, status, (r)->prefix, __VA_ARGS__)

static wl_status need(reader *r, uint64_t n, const char *what) {
    if (n > r->size - r->pos)
        return FAIL(r, WL_STATUS_FORMAT, "offset %" PRIu64 ": %s needs %" PRIu64 " bytes, the file has %" PRIu64
                    " left (truncated?)", r->pos, what, n, r->size - r->pos);
    return WL_OK;
}

static wl_status rd_u32(reader *r, uint32_t *out, const char *what) {
    if (need(r, 4, what)) return WL_STATUS_FORMAT;
    memcpy(out, r->base + r->pos, 4);
    r->pos += 4;
    return WL_OK;
}

static wl_status rd_u64(reader *r, uint64_t *out, const char *what) {
    if (need(r, 8, what)) return WL_STATUS_FORMAT;
    memcpy(out, r->base + r->pos, 8);
    r->pos += 8;
    return WL_OK;
}

/* string = u64:length byte* ; *s points into the file. */
static wl_status rd_str(reader *r, const char **s, uint64_t *len, const char *what) {
    uint64_t at = r->pos;
    if (rd_u64(r, len, what)) return WL_STATUS_FORMAT;
    if (*len > r->size - r->pos)
        return FAIL(r, WL_STATUS_FORMAT, "offset %" PRIu64 ": %s length %" PRIu64 " runs past the end of the file"
                    " (%" PRIu64 " bytes left)", at, what, *len, r->size - r->pos);
    *s = (const char *)r->base + r->pos;
    r->pos += *len;
    return WL_OK;
}

/* A NUL-terminated arena copy of a name (key or tensor); embedded NULs are refused. */
static wl_status rd_name(reader *r, const char **out, const char *what) {
    uint64_t at = r->pos, len;
    const char *s;
    if (rd_str(r, &s, &len, what)) return WL_STATUS_FORMAT;
    if (len == 0) return FAIL(r, WL_STATUS_FORMAT, "offset %" PRIu64 ": empty %s", at, what);
    if (memchr(s, 0, (size_t)len))
        return FAIL(r, WL_STATUS_FORMAT, "offset %" PRIu64 ": %s holds a NUL byte", at, what);
    *out = wl__strdup(r->m, s, (size_t)len);
    return *out ? WL_OK : FAIL(r, WL_STATUS_OUT_OF_MEMORY, "out of memory");
}

/* u32:type in the file -> wl_value_type (GGUF's code + 1). */
static wl_status rd_type(reader *r, wl_value_type *t, const char *what) {
    uint64_t at = r->pos;
    uint32_t code;
    if (rd_u32(r, &code, what)) return WL_STATUS_FORMAT;
    if (code >= (uint32_t)WL_VALUE_COUNT - 1)
        return FAIL(r, WL_STATUS_FORMAT, "offset %" PRIu64 ": unknown %s %" PRIu32, at, what, code);
    *t = (wl_value_type)(code + 1);
    return WL_OK;
}

/* value of type t at the cursor into *v. */
static wl_status rd_value(reader *r, wl_value_type t, wl_value *v, int depth, const char *key) {
    memset(v, 0, sizeof *v);
    v->type = t;
    uint64_t at = r->pos;
    size_t sz = wl__scalar_size(t);
    if (sz) {
        if (need(r, sz, key)) return WL_STATUS_FORMAT;
        v->data = r->base + r->pos;
        if (t == WL_VALUE_BOOL && r->base[r->pos] > 1)
            return FAIL(r, WL_STATUS_FORMAT, "offset %" PRIu64 ": '%s': bool byte %u is neither 0 nor 1", at, key,
                        r->base[r->pos]);
        r->pos += sz;
        return WL_OK;
    }
    if (t == WL_VALUE_STRING) {
        const char *s;
        if (rd_str(r, &s, &v->count, key)) return WL_STATUS_FORMAT;
        v->data = s;
        return WL_OK;
    }
    /* array = u32:elem_type u64:count value* */
    if (depth >= GGUF_MAX_ARRAY_DEPTH)
        return FAIL(r, WL_STATUS_FORMAT, "offset %" PRIu64 ": '%s': arrays nested deeper than %d", at, key,
                    GGUF_MAX_ARRAY_DEPTH);
    if (rd_type(r, &v->elem_type, "array element type")) return WL_STATUS_FORMAT;
    uint64_t count_at = r->pos;
    if (rd_u64(r, &v->count, "array count")) return WL_STATUS_FORMAT;
    size_t es = wl__scalar_size(v->elem_type);
    uint64_t min = es ? es : (v->elem_type == WL_VALUE_STRING ? 8 : 12);   /* least bytes per element */
    if (v->count > (r->size - r->pos) / min)
        return FAIL(r, WL_STATUS_FORMAT, "offset %" PRIu64 ": '%s': array of %" PRIu64 " %s elements cannot fit in"
                    " the %" PRIu64 " bytes left", count_at, key, v->count, wl_value_type_name(v->elem_type),
                    r->size - r->pos);
    if (es) {
        v->data = r->base + r->pos;
        if (v->elem_type == WL_VALUE_BOOL)
            for (uint64_t i = 0; i < v->count; i++)
                if (r->base[r->pos + i] > 1)
                    return FAIL(r, WL_STATUS_FORMAT, "offset %" PRIu64 ": '%s': bool byte %u is neither 0 nor 1",
                                r->pos + i, key, r->base[r->pos + i]);
        r->pos += v->count * es;
        return WL_OK;
    }
    wl_value *items = wl__alloc(r->m, v->count ? (size_t)v->count * sizeof *items : 1);
    if (!items) return FAIL(r, WL_STATUS_OUT_OF_MEMORY, "out of memory");
    v->items = items;
    v->data = items;
    for (uint64_t i = 0; i < v->count; i++)
        if (rd_value(r, v->elem_type, &items[i], depth + 1, key)) return WL_STATUS_FORMAT;
    return WL_OK;
}

wl_status wl__gguf_parse(wl_model *m, uint32_t file, wl_error *err) {
    const wl_file *f = &m->files[file];
    char prefix[256];
    snprintf(prefix, sizeof prefix, "%s%sgguf", f->path, *f->path ? ": " : "");
    reader rr = { m, f->base, f->size, 0, prefix, err }, *r = &rr;
    m->format = WL_FORMAT_GGUF;
    uint32_t magic, version;
    if (rd_u32(r, &magic, "magic")) return WL_STATUS_FORMAT;
    if (memcmp(f->base, "GGUF", 4)) return FAIL(r, WL_STATUS_FORMAT, "offset 0: bad magic (not a GGUF file)");
    if (rd_u32(r, &version, "version")) return WL_STATUS_FORMAT;
    if (version != 2 && version != 3)
        return FAIL(r, WL_STATUS_UNSUPPORTED, "offset 4: version %" PRIu32 " (only 2 and 3 are read)", version);
    m->version = version;
    uint64_t tensor_count, kv_count;
    if (rd_u64(r, &tensor_count, "tensor count") || rd_u64(r, &kv_count, "metadata count")) return WL_STATUS_FORMAT;
    /* a kv takes >= 8 (key) + 1 (key byte) + 4 (type) + 1 bytes; a tensor info >= 8+1+4+8+4+8 */
    if (kv_count > (r->size - r->pos) / 14)
        return FAIL(r, WL_STATUS_FORMAT, "offset 16: metadata count %" PRIu64 " cannot fit in the %" PRIu64
                    " bytes left", kv_count, r->size - r->pos);
    if (tensor_count > (r->size - r->pos) / 33)
        return FAIL(r, WL_STATUS_FORMAT, "offset 8: tensor count %" PRIu64 " cannot fit in the %" PRIu64
                    " bytes left", tensor_count, r->size - r->pos);

    uint64_t alignment = GGUF_DEFAULT_ALIGNMENT;
    for (uint64_t i = 0; i < kv_count; i++) {
        wl_kv *kv = wl__kv_push(m);
        if (!kv) return FAIL(r, WL_STATUS_OUT_OF_MEMORY, "out of memory");
        if (rd_name(r, &kv->key, "metadata key")) return WL_STATUS_FORMAT;
        wl_value_type t;
        if (rd_type(r, &t, "metadata value type")) return WL_STATUS_FORMAT;
        uint64_t at = r->pos;
        if (rd_value(r, t, &kv->value, 0, kv->key)) return r->err ? r->err->status : WL_STATUS_FORMAT;
        if (!strcmp(kv->key, "general.alignment")) {
            uint32_t a;
            if (t != WL_VALUE_U32)
                return FAIL(r, WL_STATUS_FORMAT, "offset %" PRIu64 ": general.alignment is %s, not u32", at,
                            wl_value_type_name(t));
            memcpy(&a, kv->value.data, 4);
            if (a == 0 || (a & (a - 1)))
                return FAIL(r, WL_STATUS_FORMAT, "offset %" PRIu64 ": general.alignment %" PRIu32
                            " is not a power of two", at, a);
            alignment = a;
        }
    }
    m->alignment = alignment;

    for (uint64_t i = 0; i < tensor_count; i++) {
        wl_tensor_info *t = wl__tensor_push(m);
        if (!t) return FAIL(r, WL_STATUS_OUT_OF_MEMORY, "out of memory");
        uint64_t at = r->pos;
        if (rd_name(r, &t->name, "tensor name")) return WL_STATUS_FORMAT;
        uint64_t dims_at = r->pos;
        if (rd_u32(r, &t->n_dims, "tensor dimension count")) return WL_STATUS_FORMAT;
        if (t->n_dims == 0 || t->n_dims > WL_MAX_DIMS)
            return FAIL(r, WL_STATUS_FORMAT, "offset %" PRIu64 ": tensor '%s' has %" PRIu32 " dimensions (1..%d)",
                        dims_at, t->name, t->n_dims, WL_MAX_DIMS);
        for (uint32_t d = 0; d < WL_MAX_DIMS; d++) t->ne[d] = 1;
        for (uint32_t d = 0; d < t->n_dims; d++) {
            uint64_t dat = r->pos;
            if (rd_u64(r, &t->ne[d], "tensor dimension")) return WL_STATUS_FORMAT;
            if (t->ne[d] > (uint64_t)INT64_MAX)
                return FAIL(r, WL_STATUS_FORMAT, "offset %" PRIu64 ": tensor '%s' dimension %" PRIu32 " is %" PRIu64,
                            dat, t->name, d, t->ne[d]);
        }
        uint64_t type_at = r->pos;
        uint32_t gt;
        if (rd_u32(r, &gt, "tensor type")) return WL_STATUS_FORMAT;
        t->dtype = wl__dtype_from_ggml(gt);
        if (!t->dtype) {
            const char *name = wl__ggml_type_name(gt);
            if (name)
                return FAIL(r, WL_STATUS_UNSUPPORTED, "offset %" PRIu64 ": tensor '%s' has type %s, which wgc does"
                            " not read", type_at, t->name, name);
            return FAIL(r, WL_STATUS_FORMAT, "offset %" PRIu64 ": tensor '%s' has unknown type %" PRIu32, type_at,
                        t->name, gt);
        }
        if (rd_u64(r, &t->offset, "tensor offset")) return WL_STATUS_FORMAT;
        if (t->offset % alignment)
            return FAIL(r, WL_STATUS_FORMAT, "offset %" PRIu64 ": tensor '%s' data offset %" PRIu64
                        " is not a multiple of the alignment %" PRIu64, at, t->name, t->offset, alignment);
        if (wl__tensor_size(t, err, prefix)) return WL_STATUS_FORMAT;
        t->file = file;
    }

    /* data section: the next multiple of the alignment */
    uint64_t data = r->pos + (alignment - r->pos % alignment) % alignment;
    if (tensor_count && data > r->size)
        return FAIL(r, WL_STATUS_FORMAT, "offset %" PRIu64 ": the data section (aligned to %" PRIu64
                    ") starts past the end of the file", r->pos, alignment);
    uint64_t avail = data <= r->size ? r->size - data : 0;
    for (uint64_t i = 0; i < m->tensor_count; i++) {
        wl_tensor_info *t = &m->tensors[i];
        if (t->offset > avail || t->size > avail - t->offset)
            return FAIL(r, WL_STATUS_FORMAT, "tensor '%s': data [%" PRIu64 ", +%" PRIu64 ") runs past the end of the"
                        " data section (%" PRIu64 " bytes at offset %" PRIu64 ")", t->name, t->offset, t->size,
                        avail, data);
        t->offset += data;
        t->data = f->base + t->offset;
    }
    return WL_OK;
}
