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
                 "  per token (JSON: \"pieces\" too)\n"
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
    size_t n = 0, cap = len / 2 + 16;
    int32_t *ids = malloc(cap * sizeof *ids);
    wl_status s = ids ? wl_tokenize(tok, text, len, flags, ids, cap, &n, &err) : WL_STATUS_OUT_OF_MEMORY;
    if (!s && n > cap) {
        int32_t *more = realloc(ids, n * sizeof *ids);
        s = more ? wl_tokenize(tok, text, len, flags, ids = more, cap = n, &n, &err) : WL_STATUS_OUT_OF_MEMORY;
    }
    free(buf);
    if (s) {
        free(ids);
        wl_tokenizer_close(tok);
        return cli_fail("tokenize: %s", s == WL_STATUS_OUT_OF_MEMORY ? "out of memory" : err.message);
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
                char *z = malloc(pl + 1);
                if (z) {
                    memcpy(z, p, pl);
                    z[pl] = 0;
                }
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
