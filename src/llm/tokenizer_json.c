/* tokenizer_json.c - the Hugging Face tokenizer.json beside a safetensors model, read into the
 * same wl_tokenizer as GGUF's keys (tokenizer.c).
 *
 *   { "added_tokens": [{"id": n, "content": s, "special": b}...],
 *     "pre_tokenizer": {...}, "model": {"type": "BPE", "vocab": {s: n...},
 *     "merges": ["a b"...] or [["a", "b"]...], "ignore_merges": b} }
 *
 * Byte-level BPE: the pre-tokenizer is told by its shape: ByteLevel with its own regex is gpt2;
 * Sequence[Digits(individual_digits), ByteLevel] is smollm; Sequence[Split(the Llama 3 or Qwen2
 * regex), ByteLevel] is llama3 or qwen2.  SentencePiece in BPE form (Llama 2, Mistral:
 * byte_fallback, ' ' replaced by U+2581 in a normalizer or an unsplit Metaspace) runs the
 * SentencePiece merge with each token scored by the first merge that makes it (the converters
 * list merges in score order, every split of each piece).  Anything else (WordPiece, Unigram, other
 * pre-tokenizers) is refused as UNSUPPORTED, named.  Added tokens are control tokens when
 * "special", user-defined otherwise; ids the vocabulary skips are empty unused tokens.
 * tokenizer_config.json, when present, gives bos_token, eos_token, unk_token,
 * pad_token (a string or {"content": s}), add_bos_token and add_eos_token. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "llm/llm.h"
#include "llm/tokenizer.h"

#define TJ_MAX_TOKENS (1u << 24)

static const char llama3_regex[] =
    "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|"
    "\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
static const char qwen2_regex[] =
    "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|"
    "\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

static int str_is(const json_node *n, const char *s) {
    return n && n->type == JSON_STRING && n->len == strlen(s) && !memcmp(n->str, s, n->len);
}

static int type_is(const json_node *obj, const char *type) { return str_is(wl__json_get(obj, "type"), type); }

static int flag(const json_node *obj, const char *key, int dflt) {
    const json_node *v = wl__json_get(obj, key);
    return v && v->type == JSON_TRUE ? 1 : v && v->type == JSON_FALSE ? 0 : dflt;
}

/* The pre-tokenizer from the JSON's shape; WL_PRETOK_NONE when it is none wgc knows. */
static wl_pretok pretok_of(const json_node *pre) {
    if (type_is(pre, "ByteLevel")) return flag(pre, "use_regex", 1) ? WL_PRETOK_GPT2 : WL_PRETOK_NONE;
    if (!type_is(pre, "Sequence")) return WL_PRETOK_NONE;
    const json_node *seq = wl__json_get(pre, "pretokenizers");
    if (!seq || seq->type != JSON_ARRAY || seq->count != 2) return WL_PRETOK_NONE;
    const json_node *a = seq->child, *b = a->next;
    if (type_is(a, "Digits") && flag(a, "individual_digits", 0) && type_is(b, "ByteLevel") && flag(b, "use_regex", 1))
        return WL_PRETOK_SMOLLM;
    if (type_is(a, "Split") && type_is(b, "ByteLevel") && !flag(b, "use_regex", 1)) {
        const json_node *pat = wl__json_get(wl__json_get(a, "pattern"), "Regex");
        if (str_is(pat, llama3_regex)) return WL_PRETOK_LLAMA3;
        if (str_is(pat, qwen2_regex)) return WL_PRETOK_QWEN2;
    }
    return WL_PRETOK_NONE;
}

/* Whether a normalizer (or a Sequence of them) holds one of type `type` whose `key` is `value`. */
static int has_normalizer(const json_node *n, const char *type, const char *key, const char *value) {
    if (type_is(n, "Sequence")) {
        const json_node *seq = wl__json_get(n, "normalizers");
        for (const json_node *e = seq && seq->type == JSON_ARRAY ? seq->child : NULL; e; e = e->next)
            if (has_normalizer(e, type, key, value)) return 1;
        return 0;
    }
    if (!type_is(n, type)) return 0;
    const json_node *v = wl__json_get(n, key);
    if (v && v->type == JSON_OBJECT) v = wl__json_get(v, "String");   /* Replace's pattern */
    return str_is(v, value);
}

/* SentencePiece in BPE form (Llama 2, Mistral): byte fallback, spaces written U+2581 by a Replace
 * normalizer (or an unsplit Metaspace pre-tokenizer); 1 when so, with *prefix whether a U+2581 is
 * put before the text; -1 for a Metaspace that splits words (unsupported). */
static int spm_style(const json_node *root, const json_node *model, bool *prefix) {
    const json_node *norm = wl__json_get(root, "normalizer"), *pre = wl__json_get(root, "pre_tokenizer");
    if (!flag(model, "byte_fallback", 0)) return 0;
    if (has_normalizer(norm, "Replace", "pattern", " ") && has_normalizer(norm, "Replace", "content", "\xe2\x96\x81") &&
        (!pre || pre->type == JSON_NULL)) {
        *prefix = has_normalizer(norm, "Prepend", "prepend", "\xe2\x96\x81");
        return 1;
    }
    if (type_is(pre, "Metaspace") && str_is(wl__json_get(pre, "replacement"), "\xe2\x96\x81")) {
        if (flag(pre, "split", 1)) return -1;
        const json_node *scheme = wl__json_get(pre, "prepend_scheme");
        *prefix = scheme ? !str_is(scheme, "never") : flag(pre, "add_prefix_space", 1);
        return 1;
    }
    return 0;
}

/* A JSON file of dir into m (mapped); NULL root and WL_OK when it is absent and optional. */
static wl_status read_json(wl_model *m, const char *dir, const char *name, bool need, json_node **root,
                           char *path, size_t path_size, wl_error *err) {
    *root = NULL;
    snprintf(path, path_size, "%s/%s", dir, name);
    struct stat st;
    if (stat(path, &st) != 0 && !need) return WL_OK;
    wl_file *f;
    wl_status s = wl__map(m, path, err, &f);
    if (s) return s;
    char msg[160];
    *root = wl__json_parse(m, (const char *)f->base, (size_t)f->size, msg, sizeof msg, &s);
    if (!*root) return wl__fail(err, s, path, "%s", msg);
    if ((*root)->type != JSON_OBJECT) return wl__fail(err, WL_STATUS_FORMAT, path, "not a JSON object");
    return WL_OK;
}

/* A special token named in tokenizer_config.json: a string or {"content": s}. */
static void config_id(const wl_tokenizer *t, const json_node *cfg, const char *key, int32_t *id) {
    const json_node *v = wl__json_get(cfg, key);
    if (v && v->type == JSON_OBJECT) v = wl__json_get(v, "content");
    if (v && v->type == JSON_STRING) {
        int32_t x = wl_token_find(t, v->str, v->len);
        if (x >= 0) *id = x;
    }
}

wl_status wl__tok_load_json(wl_tokenizer *t, const char *dir, wl_error *err) {
    wl_model *m = wl__model_new(&t->al);
    if (!m) return wl__fail(err, WL_STATUS_OUT_OF_MEMORY, "tokenizer", "out of memory");
    char path[4200];
    json_node *root, *cfg = NULL;
    wl_status s = read_json(m, dir, "tokenizer.json", true, &root, path, sizeof path, err);
    const json_node *model = root ? wl__json_get(root, "model") : NULL, *vocab = wl__json_get(model, "vocab"),
                    *merges = wl__json_get(model, "merges"), *added = root ? wl__json_get(root, "added_tokens") : NULL;
    if (s) goto done;
    if (!type_is(model, "BPE")) {
        const json_node *ty = wl__json_get(model, "type");
        s = wl__fail(err, WL_STATUS_UNSUPPORTED, path, "model type '%s' is not one wgc reads (BPE)",
                     ty && ty->type == JSON_STRING ? ty->str : "?");
        goto done;
    }
    bool prefix = false;
    int spm = spm_style(root, model, &prefix);
    if (spm < 0) {
        s = wl__fail(err, WL_STATUS_UNSUPPORTED, path, "a Metaspace pre-tokenizer that splits words is not one wgc reads");
        goto done;
    }
    t->pre = spm ? WL_PRETOK_NONE : pretok_of(root ? wl__json_get(root, "pre_tokenizer") : NULL);
    if (!spm && t->pre == WL_PRETOK_NONE) {
        s = wl__fail(err, WL_STATUS_UNSUPPORTED, path,
                     "pre_tokenizer is not one wgc knows (byte-level BPE: gpt2, llama3, qwen2, smollm shapes; "
                     "SentencePiece BPE with byte_fallback)");
        goto done;
    }
    if (!vocab || vocab->type != JSON_OBJECT || !merges || merges->type != JSON_ARRAY ||
        (added && added->type != JSON_ARRAY)) {
        s = wl__fail(err, WL_STATUS_FORMAT, path, "model.vocab must be an object, model.merges and added_tokens arrays");
        goto done;
    }
    t->kind = spm ? WL_VOCAB_SPM : WL_VOCAB_BPE;
    t->ignore_merges = flag(model, "ignore_merges", 0);
    t->sp.add_bos = spm || t->pre == WL_PRETOK_LLAMA3;
    t->sp.add_space_prefix = prefix;
    /* the token texts by id */
    uint64_t n = 0, pool = 0;
    for (const json_node *e = vocab->child; e; e = e->next) {
        if (e->type != JSON_NUMBER || !e->is_int || e->i < 0 || e->i >= TJ_MAX_TOKENS) {
            s = wl__fail(err, WL_STATUS_FORMAT, path, "offset %zu: vocab id of '%.40s' is not an integer in [0, %u)",
                         e->offset, e->key, TJ_MAX_TOKENS);
            goto done;
        }
        if ((uint64_t)e->i + 1 > n) n = (uint64_t)e->i + 1;
        pool += e->key_len;
    }
    for (const json_node *e = added ? added->child : NULL; e; e = e->next) {
        const json_node *id = wl__json_get(e, "id"), *c = wl__json_get(e, "content");
        if (!id || !id->is_int || id->i < 0 || id->i >= TJ_MAX_TOKENS || !c || c->type != JSON_STRING) {
            s = wl__fail(err, WL_STATUS_FORMAT, path, "offset %zu: an added token needs an integer id and a string content",
                         e->offset);
            goto done;
        }
        if ((uint64_t)id->i + 1 > n) n = (uint64_t)id->i + 1;
        pool += c->len;
    }
    for (const json_node *e = merges->child; e; e = e->next) {
        if (e->type == JSON_STRING) pool += 2 * e->len;
        else if (e->type == JSON_ARRAY && e->count == 2 && e->child->type == JSON_STRING &&
                 e->child->next->type == JSON_STRING)
            pool += 2 * (e->child->len + e->child->next->len);
        else {
            s = wl__fail(err, WL_STATUS_FORMAT, path, "offset %zu: a merge is \"a b\" or [\"a\", \"b\"]", e->offset);
            goto done;
        }
    }
    if (n == 0) {
        s = wl__fail(err, WL_STATUS_FORMAT, path, "empty vocabulary");
        goto done;
    }
    const char **text = wl__alloc(m, (size_t)n * sizeof *text);
    size_t *len = wl__alloc(m, (size_t)n * sizeof *len);
    if (!text || !len || wl__tok_init_strings(t, (uint32_t)(n + 3 * merges->count), (size_t)pool) ||
        wl__tok_init_merges(t, (uint32_t)merges->count))
        goto nomem;
    t->n_vocab = (uint32_t)n;
    t->type = wl__tok_alloc(t, (size_t)n);
    t->score = wl__tok_alloc(t, (size_t)n * sizeof *t->score);
    if (!t->type || !t->score) goto nomem;
    memset(t->type, WL_TOKEN_UNUSED, (size_t)n);
    memset(t->score, 0, (size_t)n * sizeof *t->score);
    for (const json_node *e = vocab->child; e; e = e->next) {
        text[e->i] = e->key, len[e->i] = e->key_len;
        t->type[e->i] = WL_TOKEN_NORMAL;
        if (spm && e->key_len == 6 && !memcmp(e->key, "<0x", 3) && e->key[5] == '>') t->type[e->i] = WL_TOKEN_BYTE;
    }
    for (const json_node *e = added ? added->child : NULL; e; e = e->next) {
        const json_node *id = wl__json_get(e, "id"), *c = wl__json_get(e, "content");
        text[id->i] = c->str, len[id->i] = c->len;
        t->type[id->i] = flag(e, "special", 0) ? WL_TOKEN_CONTROL : WL_TOKEN_USER_DEFINED;
    }
    for (uint32_t i = 0; i < n; i++) {
        bool dup = false;
        uint32_t id;
        if (len[i]) {
            id = wl__tok_intern(t, text[i], len[i], &dup);
        } else {   /* a hole or an empty token: no string */
            id = t->n_str < t->str_max ? t->n_str++ : UINT32_MAX;
            if (id != UINT32_MAX) t->str_off[id] = (uint32_t)t->pool_len, t->str_len[id] = 0;
        }
        if (dup) {
            s = wl__fail(err, WL_STATUS_FORMAT, path, "token %u '%.40s' repeats token %u", i, text[i], id);
            goto done;
        }
        if (id != i) goto nomem;
    }
    uint32_t rank = 0;
    for (const json_node *e = merges->child; e; e = e->next, rank++) {
        wl_status ms = e->type == JSON_STRING
                           ? wl__tok_merge_line(t, e->str, e->len, rank)
                           : wl__tok_merge_pair(t, e->child->str, e->child->len, e->child->next->str,
                                                e->child->next->len, rank);
        if (ms) goto nomem;
    }
    if (spm) {   /* SentencePiece's priority: a token made by an earlier merge scores higher */
        for (uint32_t i = 0; i < n; i++) t->score[i] = -1e30f;
        for (uint32_t h = 0; h < t->merge_cap; h++)
            if (t->merge_key[h] != UINT64_MAX && t->merge_val[h].result < n &&
                -(float)t->merge_val[h].rank > t->score[t->merge_val[h].result])
                t->score[t->merge_val[h].result] = -(float)t->merge_val[h].rank;
        const json_node *unk = wl__json_get(model, "unk_token");
        if (unk && unk->type == JSON_STRING) t->sp.unk = wl_token_find(t, unk->str, unk->len);
    }
    s = read_json(m, dir, "tokenizer_config.json", false, &cfg, path, sizeof path, err);
    if (s) goto done;
    if (cfg) {
        config_id(t, cfg, "bos_token", &t->sp.bos);
        config_id(t, cfg, "eos_token", &t->sp.eos);
        config_id(t, cfg, "unk_token", &t->sp.unk);
        config_id(t, cfg, "pad_token", &t->sp.pad);
        t->sp.add_bos = flag(cfg, "add_bos_token", t->sp.add_bos);
        t->sp.add_eos = flag(cfg, "add_eos_token", t->sp.add_eos);
    }
    wl__tok_auto_special(t, NULL);
    goto done;
nomem:
    s = wl__fail(err, WL_STATUS_OUT_OF_MEMORY, "tokenizer", "out of memory");
done:
    wl_model_close(m);
    return s;
}
