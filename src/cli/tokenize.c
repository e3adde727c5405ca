/* tokenize.c - `wgc tokenize -m FILE TEXT`: the token ids of a text under a model's tokenizer
 * (GGUF tokenizer.ggml.* keys, or the tokenizer.json beside a safetensors model).  Special-token
 * text (<|im_start|>) is parsed as special tokens unless --no-parse-special; BOS/EOS are added as
 * the file says unless --no-add-special. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "wgc/llm.h"

/* s[0..n) as a NUL-terminated string for JSON: whole UTF-8 sequences kept, any other byte (a byte
 * token's part of a character) U+FFFD; NUL bytes too. */
static char *json_piece(const char *s, size_t n) {
    char *z = malloc(3 * n + 1);
    size_t k = 0;
    if (!z) return NULL;
    for (size_t i = 0; i < n;) {
        unsigned c = (unsigned char)s[i];
        size_t len = c >= 0x01 && c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
                   : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
        uint32_t cp = len == 1 ? c : c & (0x7fu >> len);
        for (size_t j = 1; len && j < len; j++) {
            if (i + j >= n || ((unsigned char)s[i + j] & 0xc0) != 0x80) len = 0;
            else cp = cp << 6 | ((unsigned char)s[i + j] & 0x3fu);
        }
        if (len && ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff))))
            len = 0;
        if (len) {
            memcpy(z + k, s + i, len);
            k += len, i += len;
        } else {
            memcpy(z + k, "\xef\xbf\xbd", 3);
            k += 3, i++;
        }
    }
    z[k] = 0;
    return z;
}

int cli_tokenize(int argc, char **argv) {
    const char *model = NULL, *text = NULL, *file = NULL;
    int json = 0, pieces = 0;
    uint32_t flags = WL_TOKENIZE_PARSE_SPECIAL | WL_TOKENIZE_ADD_SPECIAL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            puts("usage: wgc tokenize -m FILE (TEXT | -f TEXT_FILE) [--json] [--pieces] [--no-parse-special]\n"
                 "                    [--no-add-special]\n"
                 "  FILE: a .gguf (its tokenizer.ggml.* keys) or a safetensors model (tokenizer.json beside it)\n"
                 "  prints the token ids on one line; --json: {\"ids\": [...]}; --pieces: one 'id<TAB>piece' line\n"
                 "  per token (JSON: \"pieces\" too; bytes that are not whole UTF-8 show as U+FFFD)\n"
                 "  -f TEXT_FILE: the text from a file ('-': standard input), byte for byte\n"
                 "  --no-parse-special: special-token text such as <|im_start|> stays text\n"
                 "  --no-add-special: no BOS/EOS even where the file asks for them");
            return 0;
        } else if (!strcmp(argv[i], "-m") || !strcmp(argv[i], "--model")) {
            if (++i >= argc) return cli_fail("tokenize: %s needs a FILE (try wgc tokenize --help)", argv[i - 1]);
            model = argv[i];
        } else if (!strcmp(argv[i], "-f") || !strcmp(argv[i], "--file")) {
            if (++i >= argc) return cli_fail("tokenize: %s needs a TEXT_FILE (try wgc tokenize --help)", argv[i - 1]);
            file = argv[i];
        } else if (!strcmp(argv[i], "--json")) {
            json = 1;
        } else if (!strcmp(argv[i], "--pieces")) {
            pieces = 1;
        } else if (!strcmp(argv[i], "--no-parse-special")) {
            flags &= ~WL_TOKENIZE_PARSE_SPECIAL;
        } else if (!strcmp(argv[i], "--no-add-special")) {
            flags &= ~WL_TOKENIZE_ADD_SPECIAL;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_fail("tokenize: unknown option '%s' (try wgc tokenize --help)", argv[i]);
        } else if (!text) {
            text = argv[i];
        } else {
            return cli_fail("tokenize: one TEXT only (quote it; try wgc tokenize --help)");
        }
    }
    if (!model) return cli_fail("tokenize: no model (-m FILE; try wgc tokenize --help)");
    if (!text == !file) return cli_fail("tokenize: give a TEXT or -f TEXT_FILE (try wgc tokenize --help)");
    char *buf = NULL;
    size_t len = 0;
    if (file) {
        int rc = cli_read_source("tokenize", file, (size_t)1 << 30, &buf, &len);
        if (rc) return rc;
        text = buf;
    } else {
        len = strlen(text);
    }
    wl_error err;
    wl_model *m = wl_model_open(model, NULL, &err);
    if (!m) {
        free(buf);
        return cli_fail("tokenize: %s", err.message);
    }
    wl_tokenizer *tok = wl_tokenizer_open(m, NULL, &err);
    wl_model_close(m);
    if (!tok) {
        free(buf);
        return cli_fail("tokenize: %s: %s", model, err.message);
    }
    size_t n = 0;
    int32_t *ids = cli_tokens(tok, text, len, flags, &n, &err);
    free(buf);
    if (!ids) {
        wl_tokenizer_close(tok);
        return cli_fail("tokenize: %s", err.message);
    }
    if (json) {
        printf("{\"ids\":[");
        for (size_t i = 0; i < n; i++) printf("%s%" PRId32, i ? "," : "", ids[i]);
        printf("]");
        if (pieces) {
            printf(",\"pieces\":[");
            for (size_t i = 0; i < n; i++) {
                size_t pl;
                const char *p = wl_token_piece(tok, ids[i], &pl);
                char *z = json_piece(p, pl);
                printf("%s", i ? "," : "");
                cli_json_str(stdout, z ? z : "");
                free(z);
            }
            printf("]");
        }
        printf("}\n");
    } else if (pieces) {
        for (size_t i = 0; i < n; i++) {
            size_t pl;
            const char *p = wl_token_piece(tok, ids[i], &pl);
            printf("%" PRId32 "\t%.*s\n", ids[i], (int)pl, p);
        }
    } else {
        for (size_t i = 0; i < n; i++) printf("%s%" PRId32, i ? " " : "", ids[i]);
        printf("\n");
    }
    free(ids);
    wl_tokenizer_close(tok);
    return 0;
}
