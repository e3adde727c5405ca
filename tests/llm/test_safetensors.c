/* test_safetensors.c - the safetensors reader and its JSON parser on files written here: a single
 * file with F32, F16 and BF16 tensors and __metadata__; a directory with config.json (its keys
 * under "config." and the llama sizes under GGUF's names); a model sharded in two through
 * model.safetensors.index.json.  Then hostile input: every truncation of a small file, header
 * lengths past the end or the cap, malformed JSON of every kind, bad data_offsets, unsupported
 * dtypes, shard names that leave the directory, a weight_map naming a missing shard or tensor, and
 * a failing allocation at every point.  Each must be a clear error, never a crash (make asan).
 * The JSON parser (src/llm/json.c, internal) is tested directly too. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "llm/llm.h"
#include "test.h"

/* ---- building files --------------------------------------------------------------------------- */
typedef struct buf { unsigned char d[1 << 14]; size_t n; } buf;

/* u64 header length, the header, then `data` bytes of 0x01, 0x02, ... */
static void st(buf *b, const char *header, size_t data) {
    uint64_t hl = strlen(header);
    memcpy(b->d, &hl, 8);
    memcpy(b->d + 8, header, hl);
    b->n = 8 + hl;
    for (size_t i = 0; i < data; i++) b->d[b->n++] = (unsigned char)(i + 1);
}

static const char good_header[] =
    "{\"__metadata__\": {\"format\": \"pt\", \"note\": \"caf\\u00e9\"},"
    " \"a.weight\": {\"dtype\": \"F32\", \"shape\": [2, 3], \"data_offsets\": [0, 24]},"
    " \"b.bias\": {\"dtype\": \"F16\", \"shape\": [4], \"data_offsets\": [24, 32]},"
    " \"c.norm\": {\"shape\": [2, 1, 2], \"data_offsets\": [32, 40], \"dtype\": \"BF16\"},"
    " \"d.empty\": {\"dtype\": \"F32\", \"shape\": [0, 5], \"data_offsets\": [40, 40]},"
    " \"e.scalar\": {\"dtype\": \"F32\", \"shape\": [], \"data_offsets\": [40, 44]}}";

static void write_file(const char *path, const void *d, size_t n) {
    FILE *f = fopen(path, "wb");
    CHECKF(f != NULL, "cannot write %s", path);
    if (!f) return;
    fwrite(d, 1, n, f);
    fclose(f);
}

static void write_text(const char *dir, const char *name, const char *text) {
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    write_file(p, text, strlen(text));
}

static void write_st(const char *dir, const char *name, const char *header, size_t data) {
    static buf b;
    st(&b, header, data);
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    write_file(p, b.d, b.n);
}

static void clear_dir(const char *dir) {
    static const char *const names[] = { "model.safetensors", "config.json", "model.safetensors.index.json",
                                         "s1.safetensors", "s2.safetensors", "x.safetensors" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char p[512];
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        remove(p);
    }
}

static void bad_mem(const char *header, size_t data, wl_status want, const char *needle) {
    static buf b;
    st(&b, header, data);
    wl_error err;
    wl_model *m = wl_safetensors_open_memory(b.d, b.n, NULL, &err);
    CHECKF(m == NULL, "accepted %s (want '%s')", header, needle);
    wl_model_close(m);
    if (m) return;
    CHECKF(err.status == want, "status %s, want %s: %s", wl_status_name(err.status), wl_status_name(want), err.message);
    CHECKF(strstr(err.message, needle) != NULL, "'%s' lacks '%s'", err.message, needle);
}

static void bad_path(const char *path, wl_status want, const char *needle) {
    wl_error err;
    wl_model *m = wl_model_open(path, NULL, &err);
    CHECKF(m == NULL, "accepted %s (want '%s')", path, needle);
    wl_model_close(m);
    if (m) return;
    CHECKF(err.status == want, "status %s, want %s: %s", wl_status_name(err.status), wl_status_name(want), err.message);
    CHECKF(strstr(err.message, needle) != NULL, "'%s' lacks '%s'", err.message, needle);
}

/* ---- the JSON parser -------------------------------------------------------------------------- */
static json_node *jparse(wl_model *m, const char *text, char *msg) {
    return wl__json_parse(m, text, strlen(text), msg, 160, NULL);
}

static void json_good(void) {
    wl_model *m = wl__model_new(NULL);
    CHECK(m != NULL);
    if (!m) return;
    char msg[160];
    json_node *r = jparse(m, " {\"a\": [1, -2, 3.5, 1e3, -0, true, false, null, \"x\\n\\\"\\\\\\/\\b\\f\\r\\t\"],"
                             " \"big\": 9223372036854775807, \"bigger\": 9223372036854775808,"
                             " \"min\": -9223372036854775808, \"u\": \"\\u00e9\\u20ac\\ud83d\\ude00\\u0041\","
                             " \"raw\": \"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\", \"o\": {}, \"e\": []} \n", msg);
    CHECKF(r != NULL, "%s", msg);
    if (!r) { wl_model_close(m); return; }
    CHECK(r->type == JSON_OBJECT && r->count == 8);
    const json_node *a = wl__json_get(r, "a");
    CHECK(a && a->type == JSON_ARRAY && a->count == 9);
    if (a && a->count == 9) {
        const json_node *x = a->child;
        CHECK(x->type == JSON_NUMBER && x->is_int && x->i == 1); x = x->next;
        CHECK(x->is_int && x->i == -2); x = x->next;
        CHECK(!x->is_int && x->num == 3.5); x = x->next;
        CHECK(!x->is_int && x->num == 1000.0); x = x->next;
        CHECK(x->is_int && x->i == 0); x = x->next;
        CHECK(x->type == JSON_TRUE); x = x->next;
        CHECK(x->type == JSON_FALSE); x = x->next;
        CHECK(x->type == JSON_NULL); x = x->next;
        CHECK(x->type == JSON_STRING && x->len == 9 && !memcmp(x->str, "x\n\"\\/\b\f\r\t", 9));
    }
    const json_node *big = wl__json_get(r, "big"), *bigger = wl__json_get(r, "bigger"), *mn = wl__json_get(r, "min");
    CHECK(big && big->is_int && big->i == INT64_MAX);
    CHECK(bigger && !bigger->is_int && bigger->num == 9223372036854775808.0);
    CHECK(mn && mn->is_int && mn->i == INT64_MIN);
    const json_node *u = wl__json_get(r, "u"), *raw = wl__json_get(r, "raw");
    CHECK(u && u->len == 10 && !memcmp(u->str, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80" "A", 10) && u->str[10] == 0);
    CHECK(raw && raw->len == 9 && !memcmp(raw->str, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 9));
    CHECK(wl__json_get(r, "o") && wl__json_get(r, "o")->type == JSON_OBJECT && wl__json_get(r, "o")->count == 0);
    CHECK(wl__json_get(r, "e") && wl__json_get(r, "e")->type == JSON_ARRAY);
    CHECK(wl__json_get(r, "nope") == NULL && wl__json_get(a, "x") == NULL && wl__json_get(NULL, "x") == NULL);
    /* duplicate keys parse, in order (callers refuse the ones that matter); the first one is found */
    r = jparse(m, "{\"k\": 1, \"k\": 2}", msg);
    CHECK(r && r->count == 2 && wl__json_get(r, "k")->i == 1);
    /* a NUL inside a key survives, with its length */
    r = jparse(m, "{\"a\\u0000b\": 1}", msg);
    CHECK(r && r->child->key_len == 3 && r->child->key[1] == 0);
    /* nesting up to the limit parses; one more does not */
    char deep[2 * JSON_MAX_DEPTH + 8];
    size_t k = 0;
    for (int i = 0; i <= JSON_MAX_DEPTH; i++) deep[k++] = '[';
    for (int i = 0; i <= JSON_MAX_DEPTH; i++) deep[k++] = ']';
    deep[k] = 0;
    CHECKF(jparse(m, deep, msg) != NULL, "depth %d: %s", JSON_MAX_DEPTH, msg);
    memmove(deep + 1, deep, k + 1);
    deep[0] = '[';
    deep[k + 1] = ']';
    deep[k + 2] = 0;
    CHECK(jparse(m, deep, msg) == NULL && strstr(msg, "nested too deeply"));
    CHECK(jparse(m, "1", msg) && jparse(m, "1", msg)->type == JSON_NUMBER);
    CHECK(jparse(m, "\"\"", msg) && jparse(m, "\"\"", msg)->len == 0);
    wl_model_close(m);
}

static void json_bad(void) {
    static const char *const cases[][2] = {
        { "", "offset 0: unexpected end of text" },
        { "   ", "unexpected end of text" },
        { "{", "expected a string key" },
        { "{\"a\"", "expected ':'" },
        { "{\"a\":", "unexpected end of text" },
        { "{\"a\":1", "unterminated object" },
        { "{\"a\":1,}", "expected a string key" },
        { "{\"a\":1 \"b\":2}", "expected ',' or '}'" },
        { "{1:2}", "expected a string key" },
        { "[1,]", "unexpected character" },
        { "[1 2]", "expected ',' or ']'" },
        { "[", "unexpected end of text" },
        { "[1", "unterminated array" },
        { "\"abc", "unterminated string" },
        { "\"abc\\", "unterminated escape" },
        { "\"a\\x\"", "bad escape" },
        { "\"a\\u12\"", "bad \\u escape" },
        { "\"a\\u12g4\"", "bad \\u escape" },
        { "\"\\udc00\"", "lone low surrogate" },
        { "\"\\ud800\"", "high surrogate without a low one" },
        { "\"\\ud800\\u0041\"", "bad low surrogate" },
        { "\"a\tb\"", "control character" },
        { "\"\x80\"", "invalid UTF-8" },
        { "\"\xc3\"", "invalid UTF-8" },
        { "\"\xc0\xaf\"", "invalid UTF-8" },          /* overlong '/' */
        { "\"\xe0\x80\xaf\"", "invalid UTF-8" },      /* overlong */
        { "\"\xed\xa0\x80\"", "invalid UTF-8" },      /* a surrogate */
        { "\"\xf4\x90\x80\x80\"", "invalid UTF-8" },  /* past U+10FFFF */
        { "\"\xff\"", "invalid UTF-8" },
        { "01", "leading zero" },
        { "-", "bad number" },
        { "-a", "bad number" },
        { "1.", "bad fraction" },
        { "1.e5", "bad fraction" },
        { "1e", "bad exponent" },
        { "1e+", "bad exponent" },
        { "1e999", "number out of range" },
        { "-1e999", "number out of range" },
        { "+1", "unexpected character" },
        { ".5", "unexpected character" },
        { "tru", "unexpected character" },
        { "nul", "unexpected character" },
        { "True", "unexpected character" },
        { "NaN", "unexpected character" },
        { "Infinity", "unexpected character" },
        { "{} {}", "text after the value" },
        { "1 2", "text after the value" },
        { "[]x", "offset 2: text after the value" },
        { "// c\n1", "unexpected character" },
        { "'a'", "unexpected character" },
    };
    wl_model *m = wl__model_new(NULL);
    if (!m) return;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char msg[160];
        json_node *r = jparse(m, cases[i][0], msg);
        CHECKF(r == NULL && strstr(msg, cases[i][1]), "'%s': %s (want '%s')", cases[i][0], r ? "accepted" : msg,
               cases[i][1]);
    }
    /* a NUL byte in the text is an unexpected character, not an end */
    char msg[160];
    wl_status st = WL_OK;
    CHECK(wl__json_parse(m, "[", 1, msg, sizeof msg, &st) == NULL && st == WL_STATUS_FORMAT);
    CHECK(wl__json_parse(m, "[]", 2, msg, sizeof msg, &st) != NULL && st == WL_OK);
    CHECK(wl__json_parse(m, "[1,\0]", 5, msg, sizeof msg, NULL) == NULL && strstr(msg, "offset 3"));
    /* the message is cut to its buffer, never overrun */
    char small[12];
    memset(small, 'x', sizeof small);
    CHECK(wl__json_parse(m, "[1,", 3, small, 8, NULL) == NULL && strlen(small) == 7 && small[8] == 'x');
    wl_model_close(m);
}

/* ---- single files ------------------------------------------------------------------------------ */
static void single(void) {
    static buf b;
    st(&b, good_header, 44);
    wl_error err;
    wl_model *m = wl_safetensors_open_memory(b.d, b.n, NULL, &err);
    CHECKF(m != NULL, "%s", err.message);
    if (!m) return;
    CHECK(wl_model_format(m) == WL_FORMAT_SAFETENSORS && wl_model_version(m) == 0 && wl_model_alignment(m) == 1);
    CHECK(wl_model_file_count(m) == 1 && !strcmp(wl_model_file_path(m, 0), "") && wl_model_file_size(m, 0) == b.n);
    CHECK_EQ_INT(wl_model_metadata_count(m), 2);
    const char *s;
    size_t len;
    CHECK_STR(wl_model_metadata_key(m, 0), "format");
    CHECK(wl_model_get_str(m, "format", &s, &len) == WL_OK && len == 2 && !memcmp(s, "pt", 2));
    CHECK(wl_model_get_str(m, "note", &s, &len) == WL_OK && len == 5 && !memcmp(s, "caf\xc3\xa9", 5));
    CHECK_EQ_INT(wl_model_tensor_count(m), 5);
    size_t data = b.n - 44;
    const wl_tensor_info *a = wl_model_tensor(m, 0), *bb = wl_model_tensor_find(m, "b.bias"),
                         *c = wl_model_tensor_find(m, "c.norm"), *d = wl_model_tensor_find(m, "d.empty"),
                         *e = wl_model_tensor_find(m, "e.scalar");
    CHECK(a && !strcmp(a->name, "a.weight") && a->dtype == WL_DTYPE_F32 && a->n_dims == 2 && a->ne[0] == 3 &&
          a->ne[1] == 2 && a->ne[2] == 1 && a->ne[3] == 1 && a->elements == 6 && a->size == 24 && a->offset == data &&
          a->data == b.d + data && a->file == 0);
    CHECK(bb && bb->dtype == WL_DTYPE_F16 && bb->n_dims == 1 && bb->ne[0] == 4 && bb->size == 8 &&
          bb->offset == data + 24 && ((const unsigned char *)bb->data)[0] == 25);
    CHECK(c && c->dtype == WL_DTYPE_BF16 && c->n_dims == 3 && c->ne[0] == 2 && c->ne[1] == 1 && c->ne[2] == 2 &&
          c->size == 8);
    CHECK(d && d->elements == 0 && d->size == 0 && d->ne[0] == 5 && d->ne[1] == 0);
    CHECK(e && e->n_dims == 1 && e->elements == 1 && e->size == 4);
    CHECK(wl_model_tensor_find(m, "__metadata__") == NULL && wl_model_tensor(m, 5) == NULL);
    wl_model_close(m);
    /* no metadata, no tensors: an empty model */
    st(&b, "{}", 0);
    m = wl_safetensors_open_memory(b.d, b.n, NULL, &err);
    CHECK(m && wl_model_tensor_count(m) == 0 && wl_model_metadata_count(m) == 0);
    wl_model_close(m);
    /* white space around the header, as writers pad it to 8 bytes */
    st(&b, "  {\"t\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [0, 4]}}    ", 4);
    m = wl_safetensors_open_memory(b.d, b.n, NULL, &err);
    CHECKF(m && wl_model_tensor_count(m) == 1, "%s", err.message);
    wl_model_close(m);
    /* unread buffer bytes are allowed (gaps, a tail) */
    st(&b, "{\"t\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [4, 8]}}", 16);
    m = wl_safetensors_open_memory(b.d, b.n, NULL, &err);
    CHECKF(m != NULL, "%s", err.message);
    wl_model_close(m);
}

/* ---- hostile files ---------------------------------------------------------------------------- */
#define T(dtype, shape, offs) "{\"dtype\": \"" dtype "\", \"shape\": " shape ", \"data_offsets\": " offs "}"

static void hostile(void) {
    static buf b;
    st(&b, good_header, 44);
    for (size_t n = 0; n < b.n; n++) {
        wl_error err;
        wl_model *m = wl_safetensors_open_memory(b.d, n, NULL, &err);
        CHECKF(m == NULL && err.status == WL_STATUS_FORMAT && err.message[0], "truncated at %zu: %s", n,
               m ? "accepted" : err.message);
        wl_model_close(m);
    }
    wl_error err;
    CHECK(wl_safetensors_open_memory(NULL, 0, NULL, &err) == NULL && strstr(err.message, "too short"));
    CHECK(wl_safetensors_open_memory(NULL, 5, NULL, &err) == NULL && err.status == WL_STATUS_INVALID_ARGUMENT);
    /* header lengths */
    st(&b, "{}", 0);
    uint64_t hl = 3;
    memcpy(b.d, &hl, 8);
    CHECK(wl_safetensors_open_memory(b.d, b.n, NULL, &err) == NULL && strstr(err.message, "runs past the end"));
    hl = UINT64_MAX;
    memcpy(b.d, &hl, 8);
    CHECK(wl_safetensors_open_memory(b.d, b.n, NULL, &err) == NULL &&
          strstr(err.message, "header length 18446744073709551615 runs past the end"));
    hl = 0;
    memcpy(b.d, &hl, 8);
    CHECK(wl_safetensors_open_memory(b.d, 8, NULL, &err) == NULL && strstr(err.message, "unexpected end of text"));
    size_t capped = (100u << 20) + 1;
    unsigned char *huge = calloc(1, capped + 8);
    CHECK(huge != NULL);
    if (huge) {
        hl = capped;
        memcpy(huge, &hl, 8);
        CHECK(wl_safetensors_open_memory(huge, capped + 8, NULL, &err) == NULL &&
              strstr(err.message, "exceeds the format's limit of 104857600"));
        free(huge);
    }
    /* JSON, through the header: the message gives the offset in the file */
    bad_mem("{\"a\": \"x", 0, WL_STATUS_FORMAT, "header JSON (starting at offset 8): offset 8: unterminated string");
    bad_mem("{\"a\\q\": 1}", 0, WL_STATUS_FORMAT, "bad escape");
    bad_mem("{\"\xfe\": 1}", 0, WL_STATUS_FORMAT, "invalid UTF-8");
    bad_mem("{} x", 0, WL_STATUS_FORMAT, "text after the value");
    bad_mem("{\"t\": " T("F32", "[1]", "[0, 1e400]") "}", 4, WL_STATUS_FORMAT, "number out of range");
    bad_mem("[]", 0, WL_STATUS_FORMAT, "header is not an object");
    char deep[300] = "{\"a\": ";
    for (int i = 0; i < 70; i++) strcat(deep, "[");
    bad_mem(deep, 0, WL_STATUS_FORMAT, "nested too deeply");
    /* duplicates */
    bad_mem("{\"t\": " T("F32", "[1]", "[0, 4]") ", \"t\": " T("F32", "[1]", "[4, 8]") "}", 8, WL_STATUS_FORMAT,
            "duplicate tensor name 't'");
    bad_mem("{\"__metadata__\": {\"k\": \"1\", \"k\": \"2\"}}", 0, WL_STATUS_FORMAT, "duplicate metadata key 'k'");
    bad_mem("{\"t\": {\"dtype\": \"F32\", \"dtype\": \"F16\", \"shape\": [1], \"data_offsets\": [0, 4]}}", 4,
            WL_STATUS_FORMAT, "tensor 't' repeats the key 'dtype'");
    bad_mem("{\"t\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [0, 4], \"shape\": [2]}}", 8,
            WL_STATUS_FORMAT, "repeats the key 'shape'");
    /* structure */
    bad_mem("{\"__metadata__\": []}", 0, WL_STATUS_FORMAT, "__metadata__ is not an object");
    bad_mem("{\"__metadata__\": {\"k\": 1}}", 0, WL_STATUS_FORMAT, "__metadata__ value 'k' is not a string");
    bad_mem("{\"t\": 1}", 0, WL_STATUS_FORMAT, "tensor 't' is not an object");
    bad_mem("{\"\": " T("F32", "[1]", "[0, 4]") "}", 4, WL_STATUS_FORMAT, "empty tensor name");
    bad_mem("{\"a\\u0000b\": " T("F32", "[1]", "[0, 4]") "}", 4, WL_STATUS_FORMAT, "with a NUL");
    bad_mem("{\"t\": {\"shape\": [1], \"data_offsets\": [0, 4]}}", 4, WL_STATUS_FORMAT, "tensor 't' has no string dtype");
    bad_mem("{\"t\": {\"dtype\": 5, \"shape\": [1], \"data_offsets\": [0, 4]}}", 4, WL_STATUS_FORMAT, "no string dtype");
    bad_mem("{\"t\": {\"dtype\": \"F32\", \"data_offsets\": [0, 4]}}", 4, WL_STATUS_FORMAT, "has no shape array");
    bad_mem("{\"t\": {\"dtype\": \"F32\", \"shape\": [1]}}", 4, WL_STATUS_FORMAT, "has no data_offsets");
    bad_mem("{\"t\": " T("F32", "[1]", "[0]") "}", 4, WL_STATUS_FORMAT, "has no data_offsets [begin, end]");
    bad_mem("{\"t\": " T("F32", "[1]", "[0, 4, 8]") "}", 8, WL_STATUS_FORMAT, "has no data_offsets [begin, end]");
    /* shapes */
    bad_mem("{\"t\": " T("F32", "[1, 1, 1, 1, 1]", "[0, 4]") "}", 4, WL_STATUS_UNSUPPORTED, "has 5 dimensions (at most 4)");
    bad_mem("{\"t\": " T("F32", "[-1]", "[0, 4]") "}", 4, WL_STATUS_FORMAT, "a shape entry is not a non-negative integer");
    bad_mem("{\"t\": " T("F32", "[1.5]", "[0, 4]") "}", 4, WL_STATUS_FORMAT, "not a non-negative integer");
    bad_mem("{\"t\": " T("F32", "[\"2\"]", "[0, 8]") "}", 8, WL_STATUS_FORMAT, "not a non-negative integer");
    bad_mem("{\"t\": " T("F32", "[99999999999999999999]", "[0, 4]") "}", 4, WL_STATUS_FORMAT, "not a non-negative");
    bad_mem("{\"t\": " T("F32", "[4294967296, 4294967296, 4294967296]", "[0, 4]") "}", 4, WL_STATUS_FORMAT,
            "element count overflows");
    bad_mem("{\"t\": " T("F32", "[4611686018427387904]", "[0, 4]") "}", 4, WL_STATUS_FORMAT, "overflows");
    /* dtypes */
    bad_mem("{\"t\": " T("I64", "[1]", "[0, 8]") "}", 8, WL_STATUS_UNSUPPORTED, "tensor 't' has dtype I64, which wgc"
            " does not read (F32, F16, BF16)");
    bad_mem("{\"t\": " T("F8_E4M3", "[1]", "[0, 1]") "}", 1, WL_STATUS_UNSUPPORTED, "dtype F8_E4M3");
    bad_mem("{\"t\": " T("Q4_0", "[32]", "[0, 18]") "}", 18, WL_STATUS_UNSUPPORTED, "dtype Q4_0");
    bad_mem("{\"t\": " T("f32", "[1]", "[0, 4]") "}", 4, WL_STATUS_UNSUPPORTED, "dtype f32");
    /* data_offsets */
    bad_mem("{\"t\": " T("F32", "[1]", "[4, 0]") "}", 4, WL_STATUS_FORMAT, "data_offsets are not integers 0 <= begin <= end");
    bad_mem("{\"t\": " T("F32", "[1]", "[-4, 0]") "}", 4, WL_STATUS_FORMAT, "0 <= begin <= end");
    bad_mem("{\"t\": " T("F32", "[1]", "[0, 4.0]") "}", 4, WL_STATUS_FORMAT, "0 <= begin <= end");
    bad_mem("{\"t\": " T("F32", "[1]", "[\"0\", 4]") "}", 4, WL_STATUS_FORMAT, "0 <= begin <= end");
    bad_mem("{\"t\": " T("F32", "[1]", "[0, 8]") "}", 4, WL_STATUS_FORMAT, "data_offsets end 8 is past the data"
            " buffer's 4 bytes");
    bad_mem("{\"t\": " T("F32", "[1]", "[9223372036854775800, 9223372036854775804]") "}", 4, WL_STATUS_FORMAT,
            "is past the data buffer");
    bad_mem("{\"t\": " T("F32", "[2]", "[0, 4]") "}", 8, WL_STATUS_FORMAT, "data_offsets span 4 bytes, its shape and"
            " dtype need 8");
    bad_mem("{\"t\": " T("F16", "[2]", "[0, 8]") "}", 8, WL_STATUS_FORMAT, "span 8 bytes, its shape and dtype need 4");
    bad_mem("{\"t\": " T("F32", "[2]", "[0, 8]") ", \"u\": " T("F32", "[2]", "[4, 12]") "}", 12, WL_STATUS_FORMAT,
            "tensors 't' and 'u' overlap");
    bad_mem("{\"u\": " T("F32", "[2]", "[4, 12]") ", \"t\": " T("F32", "[1]", "[0, 8]") "}", 12, WL_STATUS_FORMAT,
            "span 8 bytes");
    bad_mem("{\"u\": " T("F32", "[2]", "[4, 12]") ", \"t\": " T("F32", "[2]", "[0, 8]") "}", 12, WL_STATUS_FORMAT,
            "tensors 't' and 'u' overlap");
    bad_mem("{\"u\": " T("F32", "[1]", "[0, 4]") ", \"t\": " T("F32", "[1]", "[0, 4]") "}", 4, WL_STATUS_FORMAT,
            "overlap");
    /* touching ranges and empty tensors inside others are fine */
    static buf c;
    st(&c, "{\"u\": " T("F32", "[1]", "[4, 8]") ", \"t\": " T("F32", "[1]", "[0, 4]") ", \"z\": "
           T("F32", "[0]", "[2, 2]") "}", 8);
    wl_model *m = wl_safetensors_open_memory(c.d, c.n, NULL, &err);
    CHECKF(m != NULL, "%s", err.message);
    wl_model_close(m);
}

/* ---- directories: config.json, shards ---------------------------------------------------------- */
static const char config[] =
    "{\"architectures\": [\"LlamaForCausalLM\"], \"model_type\": \"llama\", \"hidden_size\": 64,"
    " \"intermediate_size\": 128, \"num_attention_heads\": 4, \"num_hidden_layers\": 2,"
    " \"num_key_value_heads\": 2, \"max_position_embeddings\": 256, \"rms_norm_eps\": 1e-05,"
    " \"rope_theta\": 10000.0, \"vocab_size\": 100, \"head_dim\": 16, \"tie_word_embeddings\": true,"
    " \"torch_dtype\": \"bfloat16\", \"rope_scaling\": null, \"bos_token_id\": 1}";

static void directories(const char *dir) {
    char p[512];
    wl_error err;
    clear_dir(dir);
    write_st(dir, "model.safetensors", good_header, 44);
    write_text(dir, "config.json", config);
    wl_model *m = wl_model_open(dir, NULL, &err);
    CHECKF(m != NULL, "%s", err.message);
    if (m) {
        uint64_t u;
        double f;
        bool bl;
        const char *s;
        size_t len;
        CHECK(wl_model_format(m) == WL_FORMAT_SAFETENSORS && wl_model_tensor_count(m) == 5);
        CHECK(wl_model_get_str(m, "general.architecture", &s, &len) == WL_OK && len == 5 && !memcmp(s, "llama", 5));
        CHECK(wl_model_get_u64(m, "llama.block_count", &u) == WL_OK && u == 2);
        CHECK(wl_model_get_u64(m, "llama.embedding_length", &u) == WL_OK && u == 64);
        CHECK(wl_model_get_u64(m, "llama.feed_forward_length", &u) == WL_OK && u == 128);
        CHECK(wl_model_get_u64(m, "llama.attention.head_count", &u) == WL_OK && u == 4);
        CHECK(wl_model_get_u64(m, "llama.attention.head_count_kv", &u) == WL_OK && u == 2);
        CHECK(wl_model_get_u64(m, "llama.context_length", &u) == WL_OK && u == 256);
        CHECK(wl_model_get_u64(m, "llama.vocab_size", &u) == WL_OK && u == 100);
        CHECK(wl_model_get_u64(m, "llama.attention.key_length", &u) == WL_OK && u == 16);
        CHECK(wl_model_get_f64(m, "llama.rope.freq_base", &f) == WL_OK && f == 10000.0);
        CHECK(wl_model_get_f64(m, "llama.attention.layer_norm_rms_epsilon", &f) == WL_OK && f == 1e-5);
        CHECK(wl_model_get_u64(m, "llama.rope.freq_base", &u) == WL_STATUS_TYPE);
        CHECK(wl_model_get_bool(m, "config.tie_word_embeddings", &bl) == WL_OK && bl);
        CHECK(wl_model_get_str(m, "config.torch_dtype", &s, &len) == WL_OK && len == 8);
        CHECK(wl_model_get_u64(m, "config.bos_token_id", &u) == WL_OK && u == 1);
        CHECK(wl_model_find(m, "config.architectures") == NULL && wl_model_find(m, "config.rope_scaling") == NULL);
        CHECK_STR(wl_model_metadata_key(m, 0), "format");   /* __metadata__ first */
        snprintf(p, sizeof p, "%s/model.safetensors", dir);
        CHECK_STR(wl_model_file_path(m, 0), p);
        const wl_tensor_info *t = wl_model_tensor_find(m, "b.bias");
        CHECK(t && ((const unsigned char *)t->data)[0] == 25);
        wl_model_close(m);
    }
    /* the file itself, config beside it */
    snprintf(p, sizeof p, "%s/model.safetensors", dir);
    m = wl_model_open(p, NULL, &err);
    CHECKF(m && wl_model_find(m, "llama.block_count"), "%s", m ? "no config keys" : err.message);
    wl_model_close(m);
    /* a config without model_type: only config.* keys */
    write_text(dir, "config.json", "{\"hidden_size\": 64}");
    m = wl_model_open(dir, NULL, &err);
    CHECK(m && wl_model_find(m, "config.hidden_size") && !wl_model_find(m, "general.architecture"));
    wl_model_close(m);
    /* bad configs */
    write_text(dir, "config.json", "{\"hidden_size\": 64,}");
    bad_path(dir, WL_STATUS_FORMAT, "config.json: offset 19: expected a string key");
    CHECK(wl_model_open(dir, NULL, NULL) == NULL);   /* err may be NULL */
    write_text(dir, "config.json", "[1]");
    bad_path(dir, WL_STATUS_FORMAT, "config.json: not a JSON object");
    write_text(dir, "config.json", "{\"a\": 1, \"a\": 2}");
    bad_path(dir, WL_STATUS_FORMAT, "duplicate metadata key 'config.a'");
    write_text(dir, "config.json", "{\"format\": \"x\", \"model_type\": \"llama\", \"general.architecture\": 1}");
    m = wl_model_open(dir, NULL, &err);   /* config.general.architecture does not clash */
    CHECKF(m != NULL, "%s", err.message);
    wl_model_close(m);
    snprintf(p, sizeof p, "%s/config.json", dir);
    remove(p);
    m = wl_model_open(dir, NULL, &err);   /* no config: fine */
    CHECK(m && !wl_model_find(m, "general.architecture") && wl_model_metadata_count(m) == 2);
    wl_model_close(m);
    /* a corrupt single file is named in the message */
    write_st(dir, "model.safetensors", "{\"t\": " T("F32", "[1]", "[0, 8]") "}", 4);
    bad_path(dir, WL_STATUS_FORMAT, "model.safetensors: safetensors: offset");
    clear_dir(dir);
    bad_path(dir, WL_STATUS_IO, "no model.safetensors.index.json or model.safetensors here");
}

static const char shard1[] = "{\"__metadata__\": {\"format\": \"pt\"}, \"a\": " T("F32", "[2, 2]", "[0, 16]")
                             ", \"b\": " T("F16", "[2]", "[16, 20]") "}";
static const char shard2[] = "{\"__metadata__\": {\"format\": \"pt\"}, \"c\": " T("BF16", "[3]", "[0, 6]") "}";

static void index_with(const char *dir, const char *weight_map) {
    char text[1024];
    snprintf(text, sizeof text, "{\"metadata\": {\"total_size\": 26}, \"weight_map\": %s}", weight_map);
    write_text(dir, "model.safetensors.index.json", text);
}

static void sharded(const char *dir) {
    char p[512];
    wl_error err;
    clear_dir(dir);
    write_st(dir, "s1.safetensors", shard1, 20);
    write_st(dir, "s2.safetensors", shard2, 6);
    write_text(dir, "config.json", config);
    index_with(dir, "{\"a\": \"s1.safetensors\", \"c\": \"s2.safetensors\", \"b\": \"s1.safetensors\"}");
    snprintf(p, sizeof p, "%s/model.safetensors.index.json", dir);
    for (int via = 0; via < 2; via++) {
        wl_model *m = wl_model_open(via ? p : dir, NULL, &err);
        CHECKF(m != NULL, "%s", err.message);
        if (!m) continue;
        CHECK(wl_model_format(m) == WL_FORMAT_SAFETENSORS && wl_model_file_count(m) == 2);
        CHECK_EQ_INT(wl_model_tensor_count(m), 3);
        const wl_tensor_info *a = wl_model_tensor_find(m, "a"), *c = wl_model_tensor_find(m, "c");
        CHECK(a && a->file == 0 && a->ne[0] == 2 && a->size == 16);
        CHECK(c && c->file == 1 && c->dtype == WL_DTYPE_BF16 && c->size == 6 &&
              ((const unsigned char *)c->data)[0] == 1);
        CHECK(strstr(wl_model_file_path(m, 1), "s2.safetensors") != NULL);
        CHECK(wl_model_file_size(m, 1) == 8 + strlen(shard2) + 6 && wl_model_file_path(m, 2) == NULL);
        CHECK(wl_model_find(m, "format") && wl_model_find(m, "llama.block_count"));   /* metadata once */
        wl_model_close(m);
    }
    /* hostile indexes */
    index_with(dir, "{\"a\": \"../s1.safetensors\", \"b\": \"s1.safetensors\", \"c\": \"s2.safetensors\"}");
    bad_path(dir, WL_STATUS_FORMAT, "weight_map entry 'a' is not a plain file name");
    index_with(dir, "{\"a\": \"sub/s1.safetensors\"}");
    bad_path(dir, WL_STATUS_FORMAT, "not a plain file name");
    index_with(dir, "{\"a\": \"..\"}");
    bad_path(dir, WL_STATUS_FORMAT, "not a plain file name");
    index_with(dir, "{\"a\": \"\"}");
    bad_path(dir, WL_STATUS_FORMAT, "not a plain file name");
    index_with(dir, "{\"a\": 1}");
    bad_path(dir, WL_STATUS_FORMAT, "not a plain file name");
    index_with(dir, "{\"a\": \"/etc/passwd\"}");
    bad_path(dir, WL_STATUS_FORMAT, "not a plain file name");
    index_with(dir, "{\"a\": \"s1.safetensors\", \"b\": \"s1.safetensors\", \"c\": \"s3.safetensors\"}");
    bad_path(dir, WL_STATUS_IO, "s3.safetensors: cannot open");
    index_with(dir, "{\"a\": \"s1.safetensors\", \"b\": \"s1.safetensors\", \"c\": \"s2.safetensors\", \"d\": \"s2.safetensors\"}");
    bad_path(dir, WL_STATUS_FORMAT, "weight_map puts tensor 'd' in s2.safetensors, which does not hold it");
    index_with(dir, "{\"a\": \"s1.safetensors\", \"b\": \"s2.safetensors\", \"c\": \"s2.safetensors\"}");
    bad_path(dir, WL_STATUS_FORMAT, "weight_map puts tensor 'b' in s2.safetensors");
    index_with(dir, "{\"a\": \"s1.safetensors\", \"c\": \"s2.safetensors\"}");
    bad_path(dir, WL_STATUS_FORMAT, "the shards hold 3 tensors, weight_map names 2");
    index_with(dir, "{}");
    bad_path(dir, WL_STATUS_FORMAT, "empty weight_map");
    write_text(dir, "model.safetensors.index.json", "{\"metadata\": {}}");
    bad_path(dir, WL_STATUS_FORMAT, "no weight_map object");
    write_text(dir, "model.safetensors.index.json", "{\"weight_map\": {\"a\": \"s1.safetensors\"");
    bad_path(dir, WL_STATUS_FORMAT, "unterminated object");
    /* two shards holding the same tensor */
    write_st(dir, "s2.safetensors", "{\"a\": " T("F32", "[1]", "[0, 4]") "}", 4);
    index_with(dir, "{\"a\": \"s1.safetensors\", \"b\": \"s1.safetensors\", \"x\": \"s2.safetensors\"}");
    bad_path(dir, WL_STATUS_FORMAT, "duplicate tensor name 'a'");
    /* a corrupt shard is named */
    write_st(dir, "s2.safetensors", "{\"c\": " T("BF16", "[3]", "[0, 6]") "}", 5);
    index_with(dir, "{\"a\": \"s1.safetensors\", \"b\": \"s1.safetensors\", \"c\": \"s2.safetensors\"}");
    bad_path(dir, WL_STATUS_FORMAT, "s2.safetensors: safetensors: offset");
    clear_dir(dir);
}

/* ---- allocation failure at every point --------------------------------------------------------- */
static int fail_at, allocs, live;
static void *fail_alloc(void *u, size_t n) {
    (void)u;
    if (++allocs == fail_at) return NULL;
    void *p = malloc(n);
    if (p) live++;
    return p;
}
static void fail_free(void *u, void *p) {
    (void)u;
    if (p) live--;
    free(p);
}

static wl_status oom_status;
static char oom_message[320];
static wl_model *open_mem(const void *ctx) {
    const buf *b = ctx;
    wl_allocator al = { fail_alloc, fail_free, NULL };
    wl_error err;
    wl_model *m = wl_safetensors_open_memory(b->d, b->n, &al, &err);
    if (!m) {
        oom_status = err.status;
        memcpy(oom_message, err.message, sizeof oom_message);
    }
    return m;
}
static wl_model *open_path(const void *ctx) {
    wl_allocator al = { fail_alloc, fail_free, NULL };
    wl_error err;
    wl_model *m = wl_model_open(ctx, &al, &err);
    if (!m) {
        oom_status = err.status;
        memcpy(oom_message, err.message, sizeof oom_message);
    }
    return m;
}
static wl_model *open_json(const void *ctx) {
    wl_allocator al = { fail_alloc, fail_free, NULL };
    wl_model *m = wl__model_new(&al);
    if (!m) {
        oom_status = WL_STATUS_OUT_OF_MEMORY;
        return NULL;
    }
    char msg[160];
    json_node *r = wl__json_parse(m, ctx, strlen(ctx), msg, sizeof msg, &oom_status);
    if (!r) {
        snprintf(oom_message, sizeof oom_message, "%s", msg);
        wl_model_close(m);
    }
    return r ? m : NULL;
}

static void oom(const char *dir) {
    static buf b;
    st(&b, good_header, 44);
    /* every failing allocation is OUT_OF_MEMORY, nothing leaks, and a later one opens */
    for (int which = 0; which < 4; which++) {
        char p[512];
        const void *ctx = &b;
        wl_model *(*open)(const void *) = open_mem;
        if (which == 1) {   /* a big header: the JSON arena grows past its first chunk */
            static char big[12000];
            strcpy(big, "[");
            for (int i = 0; i < 1500; i++) strcat(big, i ? ",\"abcd\"" : "\"abcd\"");
            strcat(big, "]");
            ctx = big;
            open = open_json;
        } else if (which == 2) {
            clear_dir(dir);
            write_st(dir, "model.safetensors", good_header, 44);
            write_text(dir, "config.json", config);
            ctx = dir;
            open = open_path;
        } else if (which == 3) {
            clear_dir(dir);
            write_st(dir, "s1.safetensors", shard1, 20);
            write_st(dir, "s2.safetensors", shard2, 6);
            write_text(dir, "config.json", config);
            index_with(dir, "{\"a\": \"s1.safetensors\", \"c\": \"s2.safetensors\", \"b\": \"s1.safetensors\"}");
            snprintf(p, sizeof p, "%s/model.safetensors.index.json", dir);
            ctx = p;
            open = open_path;
        }
        static const char *const names[] = { "memory", "json", "directory", "index" };
        for (fail_at = 1; fail_at < 400; fail_at++) {
            allocs = live = 0;
            oom_status = WL_OK;
            wl_model *m = open(ctx);
            if (m) {
                wl_model_close(m);
                CHECKF(live == 0, "%s: %d blocks leaked", names[which], live);
                break;
            }
            CHECKF(oom_status == WL_STATUS_OUT_OF_MEMORY, "%s: alloc %d: %s %s", names[which], fail_at,
                   wl_status_name(oom_status), oom_message);
            CHECKF(live == 0, "%s: alloc %d failed: %d blocks leaked", names[which], fail_at, live);
        }
        CHECKF(fail_at > 1 && fail_at < 400, "%s: opened after %d failing allocations", names[which], fail_at);
    }
    clear_dir(dir);
}

int main(void) {
    char dir[] = "/tmp/wgc-test-st-XXXXXX";
    if (!mkdtemp(dir)) {
        CHECKF(0, "mkdtemp failed");
        return test_end();
    }
    json_good();
    json_bad();
    single();
    hostile();
    directories(dir);
    sharded(dir);
    oom(dir);
    clear_dir(dir);
    rmdir(dir);
    return test_end();
}
