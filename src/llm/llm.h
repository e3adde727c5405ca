/* llm.h (internal) - what the wl parsers share: the model's layout, its arena, the error helper
 * and the name index.  Public API: include/wgc/llm.h. */
#ifndef WGC_LLM_INTERNAL_H
#define WGC_LLM_INTERNAL_H

#include <stdarg.h>

#include "wgc/llm.h"

typedef struct wl_kv {
    const char *key;      /* NUL-terminated, in the arena */
    wl_value value;
} wl_kv;

typedef struct wl_file {
    const char *path;     /* in the arena; "" for memory */
    const unsigned char *base;
    uint64_t size;
    bool mapped;          /* munmap at close */
} wl_file;

typedef struct wl_chunk wl_chunk;

struct wl_model {
    wl_allocator al;
    wl_format format;
    uint32_t version;
    uint64_t alignment;
    wl_file *files;
    uint32_t file_count, file_cap;
    wl_kv *kvs;
    uint64_t kv_count, kv_cap;
    wl_tensor_info *tensors;
    uint64_t tensor_count, tensor_cap;
    uint64_t *kv_index, *tensor_index;   /* open addressing: entry+1, 0 = empty */
    uint64_t kv_index_cap, tensor_index_cap;
    wl_chunk *arena;
};

/* Formats "<prefix>: <fmt...>" into err (when not NULL) and returns status. */
wl_status wl__fail(wl_error *err, wl_status status, const char *prefix, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
wl_model *wl__model_new(const wl_allocator *alloc);
void *wl__alloc(wl_model *m, size_t size);                 /* arena: zeroed, 16-aligned, freed at close */
char *wl__strdup(wl_model *m, const char *s, size_t len);  /* NUL-terminated copy in the arena */
size_t wl__scalar_size(wl_value_type t);                   /* bytes of a scalar value type; 0: not one */
void *wl__heap_alloc(wl_model *m, size_t size);
void wl__heap_free(wl_model *m, void *p);
wl_status wl__grow(wl_model *m, void **arr, uint64_t *cap, uint64_t need, size_t elem);
wl_kv *wl__kv_push(wl_model *m);                            /* NULL: out of memory */
wl_tensor_info *wl__tensor_push(wl_model *m);
wl_file *wl__file_push(wl_model *m);
/* Builds the key and tensor name indexes; a duplicate is an error naming it. */
wl_status wl__index(wl_model *m, wl_error *err, const char *prefix);
/* Maps path read-only into a new file entry (size 0 files map to nothing). */
wl_status wl__map(wl_model *m, const char *path, wl_error *err, wl_file **out);
wl_dtype wl__dtype_from_ggml(uint32_t id);
const char *wl__ggml_type_name(uint32_t id);                /* known ggml names incl. unsupported; NULL */
wl_dtype wl__dtype_from_name(const char *s, size_t len);    /* "F32", "F16", "BF16" and the rest */
/* Sizes the tensor from dtype and ne: elements and size; an error names the tensor. */
wl_status wl__tensor_size(wl_tensor_info *t, wl_error *err, const char *prefix);

/* json.c: a strict JSON (RFC 8259) parser into an arena tree.  Strings are unescaped to UTF-8
 * and NUL-terminated; numbers keep their double and, when integral and in range, their int64. */
typedef enum json_type { JSON_NONE = 0, JSON_NULL, JSON_FALSE, JSON_TRUE, JSON_NUMBER, JSON_STRING,
                         JSON_ARRAY, JSON_OBJECT } json_type;
typedef struct json_node {
    json_type type;
    uint64_t count;                  /* arrays and objects: members */
    struct json_node *child, *next;  /* first member; next sibling */
    const char *key;                 /* object members: the key (unescaped) */
    size_t key_len;
    const char *str;                 /* strings */
    size_t len;
    double num;
    int64_t i;
    bool is_int;                     /* an integer literal within int64 */
    size_t offset;                   /* in the text */
} json_node;
#define JSON_MAX_DEPTH 64
/* NULL on error, with "offset N: what" in msg and WL_STATUS_FORMAT or WL_STATUS_OUT_OF_MEMORY in
 * *status (status may be NULL). */
json_node *wl__json_parse(wl_model *m, const char *text, size_t len, char *msg, size_t msg_size,
                          wl_status *status);
const json_node *wl__json_get(const json_node *obj, const char *key);

/* gguf.c, safetensors.c: parse a file already in m->files[file]. */
wl_status wl__gguf_parse(wl_model *m, uint32_t file, wl_error *err);
wl_status wl__safetensors_parse(wl_model *m, uint32_t file, wl_error *err);
/* safetensors.c: open a path (file, index json or directory) into m. */
wl_status wl__safetensors_open_path(wl_model *m, const char *path, wl_error *err);

#endif
