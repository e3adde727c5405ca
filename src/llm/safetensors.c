/* safetensors.c - the safetensors reader: single files, sharded models through
 * model.safetensors.index.json, and the Hugging Face config.json beside them.
 *
 *   file   = u64:header_len  header (JSON, header_len bytes)  buffer
 *   header = { "__metadata__": {string: string}?, name: {"dtype": D, "shape": [n*], "data_offsets": [b, e]}* }
 *
 * Offsets are relative to the buffer; each tensor's [b, e) must lie inside it, hold exactly its
 * shape's bytes, and not overlap another; a tensor's three fields appear once each.  Dtypes F32, F16 and BF16 are read; the rest are refused
 * by name.  Shapes (row-major, slowest first) become ggml-order ne[] (fastest first).  The index's
 * weight_map must name, for every tensor, the shard that holds it; shard names are plain file
 * names in the index's directory ('/' refused). */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "llm/llm.h"

#define ST_MAX_HEADER (100u << 20)   /* the format's own limit on header_len */
#define ST_MAX_JSON_FILE (64u << 20) /* config.json, index json */

static int cmp_range(const void *a, const void *b) {
    const wl_tensor_info *x = *(wl_tensor_info *const *)a, *y = *(wl_tensor_info *const *)b;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

wl_status wl__safetensors_parse(wl_model *m, uint32_t file, wl_error *err) {
    const wl_file *f = &m->files[file];
    char prefix[300];
    snprintf(prefix, sizeof prefix, "%s%ssafetensors", f->path, *f->path ? ": " : "");
    m->format = WL_FORMAT_SAFETENSORS;
    if (f->size < 8) return wl__fail(err, WL_STATUS_FORMAT, prefix, "offset 0: %" PRIu64 " bytes, too short for the"
                                     " header length", f->size);
    uint64_t hl;
    memcpy(&hl, f->base, 8);
    if (hl > f->size - 8)
        return wl__fail(err, WL_STATUS_FORMAT, prefix, "offset 0: header length %" PRIu64 " runs past the end of the"
                        " file (%" PRIu64 " bytes)", hl, f->size);
    if (hl > ST_MAX_HEADER)
        return wl__fail(err, WL_STATUS_FORMAT, prefix, "offset 0: header length %" PRIu64 " exceeds the format's"
                        " limit of %u", hl, ST_MAX_HEADER);
    char msg[160];
    wl_status js;
    json_node *root = wl__json_parse(m, (const char *)f->base + 8, (size_t)hl, msg, sizeof msg, &js);
    if (!root) return wl__fail(err, js, prefix, "header JSON (starting at offset 8): %s", msg);
    if (root->type != JSON_OBJECT) return wl__fail(err, WL_STATUS_FORMAT, prefix, "offset 8: header is not an object");
    uint64_t buf_start = 8 + hl, buf_size = f->size - buf_start;
    uint64_t first = m->tensor_count;
    for (json_node *e = root->child; e; e = e->next) {
        uint64_t at = 8 + e->offset;
        if (!strcmp(e->key, "__metadata__")) {
            if (e->type != JSON_OBJECT)
                return wl__fail(err, WL_STATUS_FORMAT, prefix, "offset %" PRIu64 ": __metadata__ is not an object", at);
            if (file != 0 && m->kv_count) continue;   /* shards repeat it: the first one's counts */
            for (json_node *kv = e->child; kv; kv = kv->next) {
                if (kv->type != JSON_STRING)
                    return wl__fail(err, WL_STATUS_FORMAT, prefix, "offset %" PRIu64 ": __metadata__ value '%s' is not"
                                    " a string", 8 + kv->offset, kv->key);
                wl_kv *d = wl__kv_push(m);
                if (!d) return wl__fail(err, WL_STATUS_OUT_OF_MEMORY, prefix, "out of memory");
                d->key = kv->key;
                d->value.type = WL_VALUE_STRING;
                d->value.data = kv->str;
                d->value.count = kv->len;
            }
            continue;
        }
        if (e->type != JSON_OBJECT)
            return wl__fail(err, WL_STATUS_FORMAT, prefix, "offset %" PRIu64 ": tensor '%s' is not an object", at, e->key);
        if (!e->key_len || memchr(e->key, 0, e->key_len))
            return wl__fail(err, WL_STATUS_FORMAT, prefix, "offset %" PRIu64 ": empty tensor name or one with a NUL", at);
        const json_node *dt = wl__json_get(e, "dtype"), *shape = wl__json_get(e, "shape"),
                        *offs = wl__json_get(e, "data_offsets");
        for (const json_node *x = e->child; x; x = x->next)   /* each field once (linear: 3 names) */
            if ((x == dt || x == shape || x == offs) ? 0 : !strcmp(x->key, "dtype") || !strcmp(x->key, "shape") ||
                                                          !strcmp(x->key, "data_offsets"))
                return wl__fail(err, WL_STATUS_FORMAT, prefix, "offset %" PRIu64 ": tensor '%s' repeats the key '%s'",
                                8 + x->offset, e->key, x->key);
        if (!dt || dt->type != JSON_STRING)
            return wl__fail(err, WL_STATUS_FORMAT, prefix, "offset %" PRIu64 ": tensor '%s' has no string dtype", at, e->key);
        if (!shape || shape->type != JSON_ARRAY)
            return wl__fail(err, WL_STATUS_FORMAT, prefix, "offset %" PRIu64 ": tensor '%s' has no shape array", at, e->key);
        if (!offs || offs->type != JSON_ARRAY || offs->count != 2)
            return wl__fail(err, WL_STATUS_FORMAT, prefix, "offset %" PRIu64 ": tensor '%s' has no data_offsets [begin, end]",
                            at, e->key);
        wl_tensor_info *t = wl__tensor_push(m);
        if (!t) return wl__fail(err, WL_STATUS_OUT_OF_MEMORY, prefix, "out of memory");
        t->name = e->key;
        t->file = file;
        t->dtype = wl__dtype_from_name(dt->str, dt->len);
        if (t->dtype != WL_DTYPE_F32 && t->dtype != WL_DTYPE_F16 && t->dtype != WL_DTYPE_BF16)
            return wl__fail(err, WL_STATUS_UNSUPPORTED, prefix, "offset %" PRIu64 ": tensor '%s' has dtype %.20s, which"
                            " wgc does not read (F32, F16, BF16)", 8 + dt->offset, e->key, dt->str);
        if (shape->count > WL_MAX_DIMS)
            return wl__fail(err, WL_STATUS_UNSUPPORTED, prefix, "offset %" PRIu64 ": tensor '%s' has %" PRIu64
                            " dimensions (at most %d)", 8 + shape->offset, e->key, shape->count, WL_MAX_DIMS);
        for (uint32_t d = 0; d < WL_MAX_DIMS; d++) t->ne[d] = 1;
        t->n_dims = shape->count ? (uint32_t)shape->count : 1;
        uint32_t d = (uint32_t)shape->count;
        for (const json_node *s = shape->child; s; s = s->next) {
            if (s->type != JSON_NUMBER || !s->is_int || s->i < 0)
                return wl__fail(err, WL_STATUS_FORMAT, prefix, "offset %" PRIu64 ": tensor '%s': a shape entry is not a"
                                " non-negative integer", 8 + s->offset, e->key);
            t->ne[--d] = (uint64_t)s->i;
        }
        if (wl__tensor_size(t, err, prefix)) return WL_STATUS_FORMAT;
        const json_node *b = offs->child, *en = b->next;
        if (b->type != JSON_NUMBER || !b->is_int || b->i < 0 || en->type != JSON_NUMBER || !en->is_int || en->i < b->i)
            return wl__fail(err, WL_STATUS_FORMAT, prefix, "offset %" PRIu64 ": tensor '%s': data_offsets are not"
                            " integers 0 <= begin <= end", 8 + offs->offset, e->key);
        uint64_t ub = (uint64_t)b->i, ue = (uint64_t)en->i;
        if (ue > buf_size)
            return wl__fail(err, WL_STATUS_FORMAT, prefix, "offset %" PRIu64 ": tensor '%s': data_offsets end %" PRIu64
                            " is past the data buffer's %" PRIu64 " bytes", 8 + offs->offset, e->key, ue, buf_size);
        if (ue - ub != t->size)
            return wl__fail(err, WL_STATUS_FORMAT, prefix, "offset %" PRIu64 ": tensor '%s': data_offsets span %" PRIu64
                            " bytes, its shape and dtype need %" PRIu64, 8 + offs->offset, e->key, ue - ub, t->size);
        t->offset = buf_start + ub;
        t->data = f->base + t->offset;
    }
    /* no two tensors may share bytes */
    uint64_t n = m->tensor_count - first;
    if (n > 1) {
        wl_tensor_info **order = wl__heap_alloc(m, (size_t)n * sizeof *order);
        if (!order) return wl__fail(err, WL_STATUS_OUT_OF_MEMORY, prefix, "out of memory");
        for (uint64_t i = 0; i < n; i++) order[i] = &m->tensors[first + i];
        qsort(order, (size_t)n, sizeof *order, cmp_range);
        for (uint64_t i = 1; i < n; i++)
            if (order[i]->size && order[i - 1]->offset + order[i - 1]->size > order[i]->offset) {
                wl__fail(err, WL_STATUS_FORMAT, prefix, "tensors '%s' and '%s' overlap", order[i - 1]->name,
                         order[i]->name);
                wl__heap_free(m, order);
                return WL_STATUS_FORMAT;
            }
        wl__heap_free(m, order);
    }
    return WL_OK;
}

/* ---- paths: index json, shards, config.json ------------------------------------------------ */

/* The whole of a small file into the arena (*text NUL-terminated); *text NULL and WL_OK when it
 * does not exist. */
static wl_status read_small(wl_model *m, const char *path, char **text, size_t *len, wl_error *err) {
    *text = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return errno == ENOENT ? WL_OK : wl__fail(err, WL_STATUS_IO, path, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        return wl__fail(err, WL_STATUS_IO, path, "not a regular file");
    }
    if ((uint64_t)st.st_size > ST_MAX_JSON_FILE) {
        fclose(f);
        return wl__fail(err, WL_STATUS_FORMAT, path, "bigger than %u bytes", ST_MAX_JSON_FILE);
    }
    size_t size = (size_t)st.st_size;
    char *buf = wl__alloc(m, size + 1);
    size_t n = buf ? fread(buf, 1, size, f) : 0;
    int bad = ferror(f);
    fclose(f);
    if (!buf) return wl__fail(err, WL_STATUS_OUT_OF_MEMORY, path, "out of memory");
    if (bad || n != size) return wl__fail(err, WL_STATUS_IO, path, "read error");
    buf[n] = 0;
    *text = buf;
    *len = n;
    return WL_OK;
}

/* dir/name into out; an over-long path is cut (and then not found). */
static void join(char *out, size_t size, const char *dir, const char *name) {
    if (!*dir) dir = ".";
    size_t dl = strlen(dir), nl = strlen(name);
    if (dl + 1 + nl >= size) dl = nl = 0;
    memcpy(out, dir, dl);
    out[dl] = '/';
    memcpy(out + dl + 1, name, nl);
    out[dl + 1 + nl] = 0;
}

static wl_status push_value(wl_model *m, const char *key, wl_value v) {
    wl_kv *kv = wl__kv_push(m);
    if (!kv) return WL_STATUS_OUT_OF_MEMORY;
    kv->key = key;
    kv->value = v;
    return WL_OK;
}

/* A scalar JSON value as a wl_value; false for null, arrays and objects. */
static bool json_scalar(const json_node *e, wl_value *v) {
    static const unsigned char bools[2] = { 0, 1 };
    *v = (wl_value){ 0 };
    if (e->type == JSON_STRING) {
        v->type = WL_VALUE_STRING;
        v->data = e->str;
        v->count = e->len;
    } else if (e->type == JSON_TRUE || e->type == JSON_FALSE) {
        v->type = WL_VALUE_BOOL;
        v->data = &bools[e->type == JSON_TRUE];
    } else if (e->type == JSON_NUMBER) {
        v->type = e->is_int ? WL_VALUE_I64 : WL_VALUE_F64;
        v->data = e->is_int ? (const void *)&e->i : (const void *)&e->num;
    } else {
        return false;
    }
    return true;
}

/* Pushes "<a>.<b>" (b may be NULL) = v. */
static wl_status push_key(wl_model *m, const char *a, size_t alen, const char *b, wl_value v) {
    size_t kl = alen + (b ? 1 + strlen(b) : 0) + 1;
    char *key = wl__alloc(m, kl);
    if (!key) return WL_STATUS_OUT_OF_MEMORY;
    snprintf(key, kl, "%.*s%s%s", (int)alen, a, b ? "." : "", b ? b : "");
    return push_value(m, key, v);
}

/* config.json's scalars as "config.<key>" (and an object's scalars as "config.<object>.<key>"), and
 * the llama family's sizes under GGUF's names; rope_scaling's as <arch>.rope.scaling.{type,
 * factor, low_freq_factor, high_freq_factor, original_context_length}. */
static wl_status read_config(wl_model *m, const char *dir, wl_error *err) {
    char path[4096];
    join(path, sizeof path, dir, "config.json");
    size_t len = 0;
    char *text;
    wl_status s = read_small(m, path, &text, &len, err);
    if (s || !text) return s;
    char msg[160];
    json_node *root = wl__json_parse(m, text, len, msg, sizeof msg, &s);
    if (!root) return wl__fail(err, s, path, "%s", msg);
    if (root->type != JSON_OBJECT) return wl__fail(err, WL_STATUS_FORMAT, path, "not a JSON object");
    char prefix[320];
    for (json_node *e = root->child; e; e = e->next) {
        wl_value v;
        snprintf(prefix, sizeof prefix, "config.%s", e->key);
        if (strlen(e->key) > 256) continue;
        if (e->type == JSON_OBJECT) {   /* one level: "config.rope_scaling.factor" */
            for (json_node *c = e->child; c; c = c->next)
                if (strlen(c->key) <= 256 && json_scalar(c, &v) && push_key(m, prefix, strlen(prefix), c->key, v))
                    return wl__fail(err, WL_STATUS_OUT_OF_MEMORY, path, "out of memory");
            continue;
        }
        if (!json_scalar(e, &v)) continue;   /* null, arrays */
        if (push_key(m, prefix, strlen(prefix), NULL, v)) return wl__fail(err, WL_STATUS_OUT_OF_MEMORY, path, "out of memory");
    }
    const json_node *mt = wl__json_get(root, "model_type");
    if (!mt || mt->type != JSON_STRING || !mt->len || memchr(mt->str, 0, mt->len)) return WL_OK;
    static const char *const map[][2] = {
        { "num_hidden_layers", "block_count" },
        { "hidden_size", "embedding_length" },
        { "intermediate_size", "feed_forward_length" },
        { "num_attention_heads", "attention.head_count" },
        { "num_key_value_heads", "attention.head_count_kv" },
        { "max_position_embeddings", "context_length" },
        { "rope_theta", "rope.freq_base" },
        { "rms_norm_eps", "attention.layer_norm_rms_epsilon" },
        { "vocab_size", "vocab_size" },
        { "head_dim", "attention.key_length" },
    };
    if (push_value(m, "general.architecture", (wl_value){ .type = WL_VALUE_STRING, .data = mt->str, .count = mt->len }))
        return wl__fail(err, WL_STATUS_OUT_OF_MEMORY, path, "out of memory");
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        const json_node *e = wl__json_get(root, map[i][0]);
        if (!e || e->type != JSON_NUMBER) continue;
        size_t kl = mt->len + 1 + strlen(map[i][1]) + 1;
        char *key = wl__alloc(m, kl);
        if (!key) return wl__fail(err, WL_STATUS_OUT_OF_MEMORY, path, "out of memory");
        snprintf(key, kl, "%s.%s", mt->str, map[i][1]);
        wl_value v = { .type = e->is_int ? WL_VALUE_I64 : WL_VALUE_F64 };
        v.data = e->is_int ? (const void *)&e->i : (const void *)&e->num;
        if (push_value(m, key, v)) return wl__fail(err, WL_STATUS_OUT_OF_MEMORY, path, "out of memory");
    }
    const json_node *rs = wl__json_get(root, "rope_scaling");
    static const char *const rmap[][2] = {
        { "rope_type", "rope.scaling.type" },   /* "type" in older files */
        { "type", "rope.scaling.type" },
        { "factor", "rope.scaling.factor" },
        { "low_freq_factor", "rope.scaling.low_freq_factor" },
        { "high_freq_factor", "rope.scaling.high_freq_factor" },
        { "original_max_position_embeddings", "rope.scaling.original_context_length" },
    };
    bool typed = false;
    for (size_t i = 0; rs && rs->type == JSON_OBJECT && i < sizeof rmap / sizeof rmap[0]; i++) {
        const json_node *e = wl__json_get(rs, rmap[i][0]);
        wl_value v;
        if (!e || !json_scalar(e, &v) || (i < 2 && (e->type != JSON_STRING || typed))) continue;
        typed = typed || i < 2;
        if (push_key(m, mt->str, mt->len, rmap[i][1], v))
            return wl__fail(err, WL_STATUS_OUT_OF_MEMORY, path, "out of memory");
    }
    return WL_OK;
}

static wl_status open_shard(wl_model *m, const char *path, wl_error *err) {
    wl_file *f;
    wl_status s = wl__map(m, path, err, &f);
    if (s) return s;
    return wl__safetensors_parse(m, m->file_count - 1, err);
}

static wl_status open_index(wl_model *m, const char *dir, const char *path, wl_error *err) {
    size_t len = 0;
    char *text;
    wl_status s = read_small(m, path, &text, &len, err);
    if (s) return s;
    if (!text) return wl__fail(err, WL_STATUS_IO, path, "cannot open: no such file");
    char msg[160];
    json_node *root = wl__json_parse(m, text, len, msg, sizeof msg, &s);
    if (!root) return wl__fail(err, s, path, "%s", msg);
    const json_node *wm = wl__json_get(root, "weight_map");
    if (!wm || wm->type != JSON_OBJECT) return wl__fail(err, WL_STATUS_FORMAT, path, "no weight_map object");
    if (!wm->count) return wl__fail(err, WL_STATUS_FORMAT, path, "empty weight_map");
    for (const json_node *e = wm->child; e; e = e->next) {
        if (e->type != JSON_STRING || !e->len || memchr(e->str, '/', e->len) || memchr(e->str, 0, e->len) ||
            !strcmp(e->str, "..") || !strcmp(e->str, "."))
            return wl__fail(err, WL_STATUS_FORMAT, path, "offset %zu: weight_map entry '%s' is not a plain file name",
                            e->offset, e->key);
        int seen = 0;
        for (const json_node *p = wm->child; p != e; p = p->next)
            if (!strcmp(p->str, e->str)) seen = 1;
        if (seen) continue;
        char shard[4096];
        join(shard, sizeof shard, dir, e->str);
        s = open_shard(m, shard, err);
        if (s) return s;
    }
    s = wl__index(m, err, path);
    if (s) return s;
    for (const json_node *e = wm->child; e; e = e->next) {
        const wl_tensor_info *t = wl_model_tensor_find(m, e->key);
        const char *p = t ? m->files[t->file].path : "";
        const char *base = strrchr(p, '/') ? strrchr(p, '/') + 1 : p;
        if (!t || strcmp(base, e->str))
            return wl__fail(err, WL_STATUS_FORMAT, path, "weight_map puts tensor '%s' in %s, which does not hold it",
                            e->key, e->str);
    }
    if (m->tensor_count != wm->count)
        return wl__fail(err, WL_STATUS_FORMAT, path, "the shards hold %" PRIu64 " tensors, weight_map names %" PRIu64,
                        m->tensor_count, wm->count);
    return WL_OK;
}

wl_status wl__safetensors_open_path(wl_model *m, const char *path, wl_error *err) {
    char dir[4096], p[4096];
    struct stat st;
    m->format = WL_FORMAT_SAFETENSORS;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(dir, sizeof dir, "%s", path);
        join(p, sizeof p, dir, "model.safetensors.index.json");
        if (stat(p, &st) != 0) join(p, sizeof p, dir, "model.safetensors");
        if (stat(p, &st) != 0)
            return wl__fail(err, WL_STATUS_IO, path, "no model.safetensors.index.json or model.safetensors here");
    } else {
        snprintf(p, sizeof p, "%s", path);
        snprintf(dir, sizeof dir, "%s", path);
        char *slash = strrchr(dir, '/');
        if (slash) *slash = 0;
        else dir[0] = 0;
    }
    /* an index json starts with '{' (after white space); a safetensors file with a u64 length */
    unsigned char head[8] = { 0 };
    FILE *f = fopen(p, "rb");
    size_t got = f ? fread(head, 1, sizeof head, f) : 0;
    if (f) fclose(f);
    size_t k = 0;
    while (k < got && (head[k] == ' ' || head[k] == '\n' || head[k] == '\r' || head[k] == '\t')) k++;
    wl_status s;
    if (k < got && head[k] == '{') {
        s = open_index(m, dir, p, err);
    } else {
        s = open_shard(m, p, err);
        if (!s) s = wl__index(m, err, p);
    }
    if (!s) s = read_config(m, dir, err);
    if (!s) s = wl__index(m, err, p);   /* again, with config's keys */
    return s;
}
