/* chat.c - chat templates: a model's tokenizer.chat_template (Jinja text) is recognised by the
 * markers of the families wgc knows, never executed, and conversations are then written the way
 * that family's template writes them (see include/wgc/llm.h, "chat", and doc/llm.md, "Chat").
 *
 * Recognition reads these out of the text: the family (ChatML's <|im_start|>/<|im_end|>,
 * Llama 3's header and end-of-turn tokens, Llama 3.1's "Cutting Knowledge Date:" and "Today
 * Date:" besides), whether contents go through Jinja's trim filter, for ChatML a default system
 * message: the string literal holding "<|im_start|>system\n...<|im_end|>" (Jinja escapes in it
 * undone), and for Llama 3.1 the knowledge date and the default date_string.  Templates of other families are refused by name where a marker
 * tells the family (a table below), else with the template's first bytes.  GGUF files carry the
 * template as tokenizer.chat_template; safetensors models in tokenizer_config.json's chat_template
 * (and bos_token), read from beside the model's first file. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "llm/llm.h"

static const char *const kind_names[] = {
    "none",
#define X(name, str) str,
    WL_CHAT_KINDS(X)
#undef X
};
_Static_assert(sizeof kind_names / sizeof kind_names[0] == WL_CHAT_KIND_COUNT, "chat kind table");

const char *wl_chat_kind_name(wl_chat_kind k) {
    return (unsigned)k < WL_CHAT_KIND_COUNT ? kind_names[k] : "?";
}

/* Markers of families wgc does not format: X(marker, family). */
#define OTHER_FAMILIES(X)                                   \
    X("[INST]", "Llama 2 / Mistral ([INST])")               \
    X("<start_of_turn>", "Gemma (<start_of_turn>)")         \
    X("<|user|>", "Zephyr / Phi-3 (<|user|>)")              \
    X("<\xef\xbd\x9cUser\xef\xbd\x9c>", "DeepSeek (<\xef\xbd\x9cUser\xef\xbd\x9c>)") \
    X("<|User|>", "DeepSeek (<|User|>)")                    \
    X("### Instruction", "Alpaca (### Instruction)")        \
    X("<|START_OF_TURN_TOKEN|>", "Command-R")

static const char *find(const char *s, size_t n, const char *needle) {
    size_t k = strlen(needle);
    for (size_t i = 0; k <= n && i <= n - k; i++)
        if (s[i] == needle[0] && !memcmp(s + i, needle, k))
            return s + i;
    return NULL;
}

/* The text from p up to (not with) the first quote, backslash, newline or '{' into buf: a
 * literal's plain run.  false when it is empty or does not fit. */
static bool run_at(const char *text, size_t n, const char *p, char *buf, size_t cap) {
    size_t k = 0;
    while (p + k < text + n && !strchr("'\"\\\n{", p[k]) && p[k])
        k++;
    if (!k || k >= cap)
        return false;
    memcpy(buf, p, k);
    buf[k] = 0;
    return true;
}

/* The string literal around p (p inside [text, text+n)): its unescaped contents into buf.  false
 * when p is not inside a quoted literal or it does not fit. */
static bool literal_at(const char *text, size_t n, const char *p, char *buf, size_t cap, size_t *blen) {
    const char *open = NULL;
    for (const char *q = p; q > text;) {
        q--;
        if ((*q == '\'' || *q == '"') && (q == text || q[-1] != '\\')) {
            open = q;
            break;
        }
    }
    if (!open)
        return false;
    size_t k = 0;
    for (const char *q = open + 1; q < text + n; q++) {
        char c = *q;
        if (c == *open) {
            *blen = k;
            buf[k < cap ? k : cap - 1] = 0;
            return k < cap && q > p;
        }
        if (c == '\\' && q + 1 < text + n) {
            c = *++q;
            c = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c;
        }
        if (k + 1 < cap)
            buf[k] = c;
        k++;
    }
    return false;
}

wl_status wl_chat_template_parse(const char *text, size_t len, const char *bos, wl_chat_template *out,
                                 wl_error *err) {
    static const char pre[] = "chat template";
    if (!text || !out)
        return wl__fail(err, WL_STATUS_INVALID_ARGUMENT, pre, "NULL template or output");
    memset(out, 0, sizeof *out);
    if (err)
        err->status = WL_OK, err->message[0] = 0;
#define X(marker, family)                                                                           \
    if (find(text, len, marker))                                                                    \
        return wl__fail(err, WL_STATUS_UNSUPPORTED, pre,                                            \
                        "a %s template: wgc formats only ChatML and Llama 3 ones", family);
    OTHER_FAMILIES(X)
#undef X
    bool chatml = find(text, len, "<|im_start|>") && find(text, len, "<|im_end|>");
    bool llama3 = find(text, len, "<|start_header_id|>") && find(text, len, "<|end_header_id|>") &&
                  find(text, len, "<|eot_id|>");
    if (chatml == llama3) {
        char head[61];
        size_t k = 0;
        for (size_t i = 0; i < len && k + 1 < sizeof head; i++)
            head[k++] = text[i] == '\n' ? ' ' : text[i];
        head[k] = 0;
        return wl__fail(err, WL_STATUS_UNSUPPORTED, pre,
                        "%s (it begins '%s%s'): wgc formats only ChatML and Llama 3 ones",
                        chatml ? "both ChatML and Llama 3 markers" : "not a ChatML or Llama 3 template", head,
                        len > k ? "..." : "");
    }
    out->kind = chatml ? WL_CHAT_CHATML : WL_CHAT_LLAMA3;
    out->end_of_turn = chatml ? "<|im_end|>" : "<|eot_id|>";
    out->trim = find(text, len, "|trim") || find(text, len, "| trim");
    static const char kd[] = "Cutting Knowledge Date: ", td[] = "Today Date: ", ds[] = "date_string = ";
    const char *kp = llama3 ? find(text, len, kd) : NULL;
    if (kp && find(text, len, td)) {   /* Llama 3.1: a dated system turn */
        out->kind = WL_CHAT_LLAMA31;
        out->trim = true;
        if (!run_at(text, len, kp + sizeof kd - 1, out->knowledge, sizeof out->knowledge))
            return wl__fail(err, WL_STATUS_UNSUPPORTED, pre, "a Llama 3.1 template whose knowledge date wgc cannot read");
        snprintf(out->date, sizeof out->date, "26 Jul 2024");   /* the templates' own default */
        for (const char *p = text; (p = find(p, len - (size_t)(p - text), ds)) != NULL; p += sizeof ds - 1) {
            const char *q = p + sizeof ds - 1;
            if (q < text + len && (*q == '"' || *q == '\'') && run_at(text, len, q + 1, out->date, sizeof out->date))
                break;
        }
    } else if (llama3 && find(text, len, "<|start_header_id|>system<|end_header_id|>")) {
        return wl__fail(err, WL_STATUS_UNSUPPORTED, pre,
                        "a Llama 3 template that always writes its own system header without Llama 3.1's dates: "
                        "wgc formats Llama 3's plain one and Llama 3.1's");
    }
    if (llama3 && find(text, len, "bos_token") && bos && *bos) {
        if (strlen(bos) >= sizeof out->bos_text)
            return wl__fail(err, WL_STATUS_UNSUPPORTED, pre, "the BOS token's text is longer than %zu bytes",
                            sizeof out->bos_text - 1);
        out->bos = true;
        strcpy(out->bos_text, bos);
    }
    if (chatml) {
        static const char sys[] = "<|im_start|>system";
        for (const char *p = text; (p = find(p, len - (size_t)(p - text), sys)) != NULL; p += sizeof sys - 1) {
            char lit[sizeof out->default_system + 64];
            size_t n;
            if (!literal_at(text, len, p, lit, sizeof lit, &n))
                continue;
            const char *s = strstr(lit, "<|im_start|>system\n"), *e = s ? strstr(s, "<|im_end|>") : NULL;
            if (!e)
                continue;
            s += strlen("<|im_start|>system\n");
            if ((size_t)(e - s) >= sizeof out->default_system)
                return wl__fail(err, WL_STATUS_UNSUPPORTED, pre, "the default system message is longer than %zu bytes",
                                sizeof out->default_system - 1);
            memcpy(out->default_system, s, (size_t)(e - s));
            out->default_system[e - s] = 0;
            break;
        }
    }
    return WL_OK;
}

/* A tokenizer_config.json string member: a string, or an object's "content" (special tokens). */
static const json_node *config_str(const json_node *cfg, const char *key) {
    const json_node *v = wl__json_get(cfg, key);
    if (v && v->type == JSON_OBJECT)
        v = wl__json_get(v, "content");
    return v && v->type == JSON_STRING ? v : NULL;
}

/* safetensors: chat_template and bos_token of the tokenizer_config.json beside the model's first
 * file (chat_template a string, or a list of {"name", "template"} whose "default" entry is taken). */
static wl_status template_from_config(const wl_model *m, wl_chat_template *out, wl_error *err) {
    static const char pre[] = "chat template";
    const char *path = wl_model_file_path(m, 0);
    size_t dl = strlen(path);
    while (dl && path[dl - 1] != '/')
        dl--;
    char file[4096];
    if (!*path || dl + sizeof "tokenizer_config.json" > sizeof file)
        return wl__fail(err, WL_STATUS_NOT_FOUND, pre, "the model has no chat template (no file path)");
    memcpy(file, path, dl);
    memcpy(file + dl, "tokenizer_config.json", sizeof "tokenizer_config.json");
    if (!dl)
        memmove(file + 2, file, sizeof "tokenizer_config.json"), memcpy(file, "./", 2);
    struct stat st;
    if (stat(file, &st) != 0)
        return wl__fail(err, WL_STATUS_NOT_FOUND, pre, "the model has no chat template (no %s)", file);
    wl_model *scratch = wl__model_new(NULL);   /* an arena for the mapping and the JSON tree */
    if (!scratch)
        return wl__fail(err, WL_STATUS_OUT_OF_MEMORY, pre, "out of memory");
    wl_file *f;
    wl_status s = wl__map(scratch, file, err, &f);
    char msg[160];
    const json_node *cfg = s ? NULL : wl__json_parse(scratch, (const char *)f->base, (size_t)f->size, msg, sizeof msg, &s);
    if (!s && !cfg)
        s = wl__fail(err, s, file, "%s", msg);
    const json_node *t = cfg ? wl__json_get(cfg, "chat_template") : NULL;
    if (t && t->type == JSON_ARRAY) {
        const json_node *e = t->child;
        for (; e; e = e->next) {
            const json_node *name = wl__json_get(e, "name");
            if (name && name->type == JSON_STRING && !strcmp(name->str, "default"))
                break;
        }
        t = e ? wl__json_get(e, "template") : NULL;
    }
    if (!s && (!t || t->type != JSON_STRING))
        s = wl__fail(err, WL_STATUS_NOT_FOUND, pre, "%s has no chat_template (a string)", file);
    if (!s) {
        const json_node *bos = config_str(cfg, "bos_token");
        s = wl_chat_template_parse(t->str, t->len, bos ? bos->str : NULL, out, err);
    }
    wl_model_close(scratch);
    return s;
}

wl_status wl_chat_template_from_model(const wl_model *m, wl_chat_template *out, wl_error *err) {
    static const char pre[] = "chat template";
    const char *text, *bos = NULL;
    size_t len, blen = 0;
    if (!m || !out)
        return wl__fail(err, WL_STATUS_INVALID_ARGUMENT, pre, "NULL model or output");
    if (wl_model_format(m) == WL_FORMAT_SAFETENSORS && !wl_model_find(m, "tokenizer.chat_template"))
        return template_from_config(m, out, err);
    if (wl_model_get_str(m, "tokenizer.chat_template", &text, &len) != WL_OK)
        return wl__fail(err, WL_STATUS_NOT_FOUND, pre, "the model has no tokenizer.chat_template (a string)");
    uint64_t id;
    const wl_value *toks = wl_model_find(m, "tokenizer.ggml.tokens");
    wl_value v;
    if (toks && wl_model_get_u64(m, "tokenizer.ggml.bos_token_id", &id) == WL_OK && wl_value_at(toks, id, &v) == WL_OK &&
        wl_value_str(&v, &bos, &blen) == WL_OK) {
        char b[64];
        if (blen >= sizeof b)
            return wl__fail(err, WL_STATUS_UNSUPPORTED, pre, "the BOS token's text is longer than %zu bytes", sizeof b - 1);
        memcpy(b, bos, blen);
        b[blen] = 0;
        return wl_chat_template_parse(text, len, b, out, err);
    }
    return wl_chat_template_parse(text, len, NULL, out, err);
}

typedef struct sink {
    char *out;
    size_t cap, len;
} sink;

static void put(sink *s, const char *p, size_t n) {
    if (s->len < s->cap) {
        size_t k = s->cap - 1 - s->len < n ? s->cap - 1 - s->len : n;
        memcpy(s->out + s->len, p, k);
        s->out[s->len + k] = 0;
    }
    s->len += n;
}

static void puts_(sink *s, const char *p) {
    put(s, p, strlen(p));
}

static void put_content(sink *s, const char *c, bool trim) {
    size_t n = strlen(c);
    if (trim) {
        while (n && strchr(" \t\n\r\v\f", c[0]))
            c++, n--;
        while (n && strchr(" \t\n\r\v\f", c[n - 1]))
            n--;
    }
    put(s, c, n);
}

wl_status wl_chat_apply(const wl_chat_template *t, const wl_chat_message *msgs, size_t n,
                        bool add_generation_prompt, char *out, size_t cap, size_t *len, wl_error *err) {
    static const char pre[] = "chat template";
    if (!t || (n && !msgs) || (cap && !out) || !len || t->kind <= WL_CHAT_NONE || t->kind >= WL_CHAT_KIND_COUNT)
        return wl__fail(err, WL_STATUS_INVALID_ARGUMENT, pre, "NULL argument or no template");
    for (size_t i = 0; i < n; i++)
        if (!msgs[i].role || !msgs[i].content)
            return wl__fail(err, WL_STATUS_INVALID_ARGUMENT, pre, "message %zu has a NULL role or content", i);
    sink s = { out, cap, 0 };
    if (cap)
        out[0] = 0;
    if (t->kind == WL_CHAT_CHATML) {
        if (n && t->default_system[0] && strcmp(msgs[0].role, "system")) {
            puts_(&s, "<|im_start|>system\n");
            puts_(&s, t->default_system);
            puts_(&s, "<|im_end|>\n");
        }
        for (size_t i = 0; i < n; i++) {
            puts_(&s, "<|im_start|>");
            puts_(&s, msgs[i].role);
            puts_(&s, "\n");
            put_content(&s, msgs[i].content, t->trim);
            puts_(&s, "<|im_end|>\n");
        }
        if (add_generation_prompt)
            puts_(&s, "<|im_start|>assistant\n");
    } else {
        size_t i = 0;
        if ((n || t->kind == WL_CHAT_LLAMA31) && t->bos)
            puts_(&s, t->bos_text);
        if (t->kind == WL_CHAT_LLAMA31) {   /* the dated system turn, always */
            puts_(&s, "<|start_header_id|>system<|end_header_id|>\n\nCutting Knowledge Date: ");
            puts_(&s, t->knowledge);
            puts_(&s, "\nToday Date: ");
            put(&s, t->date, strnlen(t->date, sizeof t->date));
            puts_(&s, "\n\n");
            if (n && !strcmp(msgs[0].role, "system"))
                put_content(&s, msgs[i++].content, true);
            puts_(&s, "<|eot_id|>");
        }
        for (; i < n; i++) {
            puts_(&s, "<|start_header_id|>");
            puts_(&s, msgs[i].role);
            puts_(&s, "<|end_header_id|>\n\n");
            put_content(&s, msgs[i].content, t->trim);
            puts_(&s, "<|eot_id|>");
        }
        if (add_generation_prompt)
            puts_(&s, "<|start_header_id|>assistant<|end_header_id|>\n\n");
    }
    *len = s.len;
    if (err)
        err->status = WL_OK, err->message[0] = 0;
    return WL_OK;
}

wl_status wl_chat_format(const wl_model *m, const wl_chat_message *msgs, size_t n, bool add_generation_prompt,
                         char *out, size_t cap, size_t *len, wl_error *err) {
    wl_chat_template t;
    wl_status st = wl_chat_template_from_model(m, &t, err);
    return st != WL_OK ? st : wl_chat_apply(&t, msgs, n, add_generation_prompt, out, cap, len, err);
}
