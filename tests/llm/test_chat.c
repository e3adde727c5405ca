/* test_chat.c - chat templates (src/llm/chat.c) against Jinja2.
 *
 * tests/llm/golden/chat-templates.txt (written by tests/llm/golden/make_chat_golden.py with Jinja2,
 * the engine of Hugging Face's apply_chat_template) holds templates (SmolLM2's from the model file;
 * ChatML with a default system message, plain ChatML, Llama 3's and Llama 3.1's formats written for
 * the test) and, for several conversations with and without the generation prompt, the text Jinja2
 * renders.  Each template goes into a small GGUF file
 * this test writes in memory (tokenizer.chat_template, a token list holding the BOS token, its id),
 * and wl_chat_format over that model must give the same bytes; so must a safetensors model directory
 * whose tokenizer_config.json holds the template and bos_token.  Then: snprintf-style truncation,
 * other families refused by name, a model without a template, bad arguments.
 *
 * Usage: test_chat [GOLDEN]   (default tests/llm/golden/chat-templates.txt, run from the repo root) */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "wgc/llm.h"

/* ---- a GGUF writer (metadata only) ---------------------------------------------------------- */
typedef struct buf { unsigned char *d; size_t n, cap; } buf;

static void put(buf *b, const void *p, size_t n) {
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->d = realloc(b->d, b->cap);
        if (!b->d) abort();
    }
    memcpy(b->d + b->n, p, n);
    b->n += n;
}
static void u32(buf *b, uint32_t v) { put(b, &v, 4); }
static void u64(buf *b, uint64_t v) { put(b, &v, 8); }
static void strn(buf *b, const char *s, size_t n) { u64(b, n); put(b, s, n); }

/* A GGUF v3 file: tokenizer.chat_template = tmpl; with a BOS text, tokens ["<unk>", bos] and
 * tokenizer.ggml.bos_token_id = 1. */
static buf model_bytes(const char *tmpl, size_t tlen, const char *bos, size_t blen) {
    buf kv = { 0 }, b = { 0 };
    uint64_t count = 0;
    if (tmpl) {
        strn(&kv, "tokenizer.chat_template", 23), u32(&kv, 8), strn(&kv, tmpl, tlen), count++;
    }
    if (blen) {
        strn(&kv, "tokenizer.ggml.tokens", 21), u32(&kv, 9), u32(&kv, 8), u64(&kv, 2);
        strn(&kv, "<unk>", 5), strn(&kv, bos, blen), count++;
        strn(&kv, "tokenizer.ggml.bos_token_id", 27), u32(&kv, 4), u32(&kv, 1), count++;
    }
    put(&b, "GGUF", 4);
    u32(&b, 3);
    u64(&b, 0);
    u64(&b, count);
    if (kv.n) put(&b, kv.d, kv.n);
    free(kv.d);
    return b;
}

/* A safetensors model directory (one tiny tensor) whose tokenizer_config.json holds the template
 * (JSON-escaped) and bos_token; the directory's path in dir. */
static int st_dir(char *dir, const char *tmpl, size_t tlen, const char *bos, size_t blen) {
    strcpy(dir, "/tmp/wgc-test-chat-XXXXXX");
    if (!mkdtemp(dir)) return -1;
    char path[128];
    snprintf(path, sizeof path, "%s/model.safetensors", dir);
    FILE *f = fopen(path, "wb");
    static const char hdr[] = "{\"t\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}";
    uint64_t hl = sizeof hdr - 1;
    float x = 1;
    if (!f) return -1;
    fwrite(&hl, 8, 1, f), fwrite(hdr, 1, hl, f), fwrite(&x, 4, 1, f), fclose(f);
    snprintf(path, sizeof path, "%s/tokenizer_config.json", dir);
    if (!(f = fopen(path, "wb"))) return -1;
    fputs("{\"add_bos_token\": false, \"bos_token\": ", f);
    if (blen) fprintf(f, "{\"content\": \"%.*s\", \"special\": true}", (int)blen, bos);
    else fputs("null", f);
    fputs(", \"chat_template\": \"", f);
    for (size_t i = 0; i < tlen; i++) {
        unsigned char c = (unsigned char)tmpl[i];
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputs("\"}\n", f);
    fclose(f);
    return 0;
}

static void st_remove(const char *dir) {
    char path[128];
    snprintf(path, sizeof path, "%s/model.safetensors", dir), remove(path);
    snprintf(path, sizeof path, "%s/tokenizer_config.json", dir), remove(path);
    rmdir(dir);
}

/* ---- the golden file ---------------------------------------------------------------------------- */
typedef struct reader { const char *p, *end; } reader;

/* The next line's fields (a header line), skipping comments. */
static int header(reader *r, char *line, size_t cap) {
    for (;;) {
        const char *nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
        if (!nl) return 0;
        size_t n = (size_t)(nl - r->p);
        if (n >= cap) return 0;
        memcpy(line, r->p, n);
        line[n] = 0;
        r->p = nl + 1;
        if (line[0] != '#') return 1;
    }
}
static const char *blob(reader *r, size_t n) {
    if ((size_t)(r->end - r->p) < n + 1 || r->p[n] != '\n') return NULL;
    const char *s = r->p;
    r->p += n + 1;
    return s;
}

static char *dupn(const char *s, size_t n) {
    char *d = malloc(n + 1);
    if (!d) abort();
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

static void test_golden(const char *path) {
    size_t size;
    char *file = test_read_file(path, &size);
    CHECKF(file != NULL, "cannot read %s (regenerate it with tests/llm/golden/make_chat_golden.py)", path);
    if (!file) return;
    reader r = { file, file + size };
    char line[256], name[64] = "", cur[64] = "";
    wl_model *m = NULL, *ms = NULL;   /* the template in a GGUF file; in tokenizer_config.json */
    buf mb = { 0 };
    int cases = 0, templates = 0, safetensors_cases = 0;
    char dir[64] = "";   /* the current safetensors directory (read at each wl_chat_format) */
    while (header(&r, line, sizeof line)) {
        size_t a, b;
        int gen, nmsg;
        if (sscanf(line, "template %63s %zu %zu", name, &a, &b) == 3) {
            const char *s = blob(&r, a + b);
            CHECKF(s != NULL, "%s: malformed template record '%s'", path, line);
            if (!s) break;
            wl_model_close(m);
            free(mb.d);
            mb = model_bytes(s + a, b, s, a);
            wl_error err;
            m = wl_gguf_open_memory(mb.d, mb.n, NULL, &err);
            CHECKF(m != NULL, "%s: %s", name, err.message);
            wl_chat_template t;
            CHECKF(wl_chat_template_from_model(m, &t, &err) == WL_OK, "%s: %s", name, err.message);
            CHECK_STR(wl_chat_kind_name(t.kind), !strcmp(name, "llama31") ? "llama31" : !strcmp(name, "llama3") ? "llama3" : "chatml");
            wl_model_close(ms);
            ms = NULL;
            if (dir[0]) st_remove(dir);
            CHECKF(st_dir(dir, s + a, b, s, a) == 0, "cannot write a safetensors directory under /tmp");
            ms = wl_model_open(dir, NULL, &err);
            CHECKF(ms != NULL, "%s: %s", dir, err.message);
            snprintf(cur, sizeof cur, "%s", name);
            templates++;
        } else if (sscanf(line, "case %63s %d %d", name, &gen, &nmsg) == 3 && nmsg >= 0 && nmsg < 16) {
            wl_chat_message msgs[16];
            char *own[32];
            int nown = 0, ok = 1;
            for (int i = 0; i < nmsg && ok; i++) {
                const char *s;
                ok = header(&r, line, sizeof line) && sscanf(line, "msg %zu %zu", &a, &b) == 2 && (s = blob(&r, a + b));
                if (ok) {
                    msgs[i].role = own[nown++] = dupn(s, a);
                    msgs[i].content = own[nown++] = dupn(s + a, b);
                }
            }
            const char *want = NULL;
            ok = ok && header(&r, line, sizeof line) && sscanf(line, "expect %zu", &a) == 1 && (want = blob(&r, a));
            CHECKF(ok && !strcmp(name, cur), "%s: malformed case record near '%s'", path, line);
            if (!ok) break;
            char out[4096];
            size_t len = 0;
            wl_error err;
            wl_status st = wl_chat_format(m, msgs, (size_t)nmsg, gen != 0, out, sizeof out, &len, &err);
            CHECKF(st == WL_OK, "%s: %s", name, err.message);
            CHECKF(len == a && !memcmp(out, want, a), "%s, %d messages, generation prompt %d:\n"
                   "--- wgc (%zu bytes)\n%s\n--- jinja2 (%zu bytes)\n%.*s", name, nmsg, gen, len, out, a, (int)a, want);
            /* the same template from a safetensors model's tokenizer_config.json */
            char out2[4096];
            size_t len2 = 0;
            st = ms ? wl_chat_format(ms, msgs, (size_t)nmsg, gen != 0, out2, sizeof out2, &len2, &err) : WL_STATUS_IO;
            CHECKF(st == WL_OK && len2 == a && !memcmp(out2, want, a), "%s (safetensors): %s", name, err.message);
            safetensors_cases += st == WL_OK && len2 == a && !memcmp(out2, want, a);
            /* snprintf semantics: a short buffer gets a NUL-ended prefix and the same total */
            if (a > 4) {
                char small[5];
                CHECK(wl_chat_format(m, msgs, (size_t)nmsg, gen != 0, small, sizeof small, &len2, NULL) == WL_OK);
                CHECK(len2 == a && strlen(small) == 4 && !memcmp(small, want, 4));
                CHECK(wl_chat_format(m, msgs, (size_t)nmsg, gen != 0, NULL, 0, &len2, NULL) == WL_OK && len2 == a);
            }
            for (int i = 0; i < nown; i++) free(own[i]);
            cases++;
        } else {
            CHECKF(0, "%s: unknown record '%s'", path, line);
            break;
        }
    }
    printf("%s: %d templates, %d conversations equal Jinja2's text (GGUF; %d through tokenizer_config.json)\n",
           path, templates, cases, safetensors_cases);
    CHECK(templates >= 5 && cases >= 60);
    wl_model_close(m);
    wl_model_close(ms);
    if (dir[0]) st_remove(dir);
    free(mb.d);
    free(file);
}

/* Other families are refused, naming what was found; no template is NOT_FOUND. */
static void test_refusals(void) {
    static const struct { const char *text, *named; } other[] = {
        { "{{ bos_token }}{% for message in messages %}{% if message['role'] == 'user' %}{{ '[INST] ' + "
          "message['content'] + ' [/INST]' }}{% elif message['role'] == 'assistant' %}{{ message['content'] + "
          "eos_token}}{% endif %}{% endfor %}", "[INST]" },
        { "{% for message in messages %}{{ '<start_of_turn>' + message['role'] + '\n' + message['content'] | trim "
          "+ '<end_of_turn>\n' }}{% endfor %}", "Gemma" },
        { "{{- bos_token }}<|start_header_id|>system<|end_header_id|>\n\nCutting Knowledge Date: December 2023\n"
          "{%- for message in messages %}<|eot_id|>{% endfor %}", "Llama 3.1's dates" },
        { "{{- bos_token }}<|start_header_id|>system<|end_header_id|>\n\n{{ system_message }}<|eot_id|>"
          "{%- for message in messages %}{{- '<|start_header_id|>' + message['role'] + '<|end_header_id|>\n\n' }}"
          "{% endfor %}", "system header" },
        { "{% for m in messages %}{{ m['role'] }}: {{ m['content'] }}\n{% endfor %}", "it begins '{% for m in" },
        { "<|im_start|><|im_end|><|start_header_id|><|end_header_id|><|eot_id|>", "both" },
    };
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
        wl_chat_template t;
        wl_error err;
        wl_status st = wl_chat_template_parse(other[i].text, strlen(other[i].text), "<s>", &t, &err);
        CHECKF(st == WL_STATUS_UNSUPPORTED, "template %zu: status %s", i, wl_status_name(st));
        CHECKF(strstr(err.message, other[i].named) != NULL, "template %zu: '%s' does not name '%s'", i, err.message,
               other[i].named);
    }
    buf b = model_bytes(NULL, 0, "<s>", 3);
    wl_error err;
    wl_model *m = wl_gguf_open_memory(b.d, b.n, NULL, &err);
    CHECK(m != NULL);
    char out[64];
    size_t len;
    wl_chat_message msg = { "user", "hi" };
    CHECK(wl_chat_format(m, &msg, 1, true, out, sizeof out, &len, &err) == WL_STATUS_NOT_FOUND);
    CHECK(strstr(err.message, "tokenizer.chat_template") != NULL);
    wl_model_close(m);
    free(b.d);
    /* bad arguments */
    wl_chat_template t;
    const char *chatml = "{{ '<|im_start|>' + m + '<|im_end|>' }}";
    CHECK(wl_chat_template_parse(chatml, strlen(chatml), NULL, &t, &err) == WL_OK && t.kind == WL_CHAT_CHATML);
    CHECK(t.default_system[0] == 0 && !t.trim && !strcmp(t.end_of_turn, "<|im_end|>"));
    wl_chat_message bad = { "user", NULL };
    CHECK(wl_chat_apply(&t, &bad, 1, true, out, sizeof out, &len, &err) == WL_STATUS_INVALID_ARGUMENT);
    CHECK(wl_chat_apply(&t, NULL, 1, true, out, sizeof out, &len, &err) == WL_STATUS_INVALID_ARGUMENT);
    CHECK(wl_chat_apply(NULL, &msg, 1, true, out, sizeof out, &len, &err) == WL_STATUS_INVALID_ARGUMENT);
    CHECK(wl_chat_apply(&t, &msg, 1, true, out, sizeof out, &len, NULL) == WL_OK && len == strlen(out));
    CHECK_STR(wl_chat_kind_name(WL_CHAT_NONE), "none");
    /* Llama 3.1: the knowledge date and default date read from the template; the caller's date */
    const char *l31 = "{{- bos_token }}{% set date_string = '02 Feb 2025' %}<|start_header_id|>system<|end_header_id|>"
                      "\\n\\n{{ 'Cutting Knowledge Date: March 2024\\n' }}Today Date: {{ date_string }}<|eot_id|>";
    CHECK(wl_chat_template_parse(l31, strlen(l31), "<B>", &t, &err) == WL_OK && t.kind == WL_CHAT_LLAMA31);
    CHECK_STR(t.knowledge, "March 2024");
    CHECK_STR(t.date, "02 Feb 2025");
    snprintf(t.date, sizeof t.date, "%s", "28 Nov 2026");
    wl_chat_message two[] = { { "system", " Be brief. " }, { "user", "hi" } };
    char big[512];
    CHECK(wl_chat_apply(&t, two, 2, true, big, sizeof big, &len, &err) == WL_OK);
    CHECK_STR(big, "<B><|start_header_id|>system<|end_header_id|>\n\nCutting Knowledge Date: March 2024\nToday Date: "
                   "28 Nov 2026\n\nBe brief.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nhi<|eot_id|>"
                   "<|start_header_id|>assistant<|end_header_id|>\n\n");
    CHECK_STR(wl_chat_kind_name((wl_chat_kind)99), "?");
}

int main(int argc, char **argv) {
    test_golden(argc > 1 ? argv[1] : "tests/llm/golden/chat-templates.txt");
    test_refusals();
    return test_end();
}
