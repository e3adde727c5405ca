/* tokenizer.h (internal) - the wl_tokenizer both loaders fill (tokenizer.c reads GGUF keys,
 * tokenizer_json.c a tokenizer.json) and the helpers they share.  Public API: include/wgc/llm.h. */
#ifndef WGC_LLM_TOKENIZER_H
#define WGC_LLM_TOKENIZER_H

#include "wgc/llm.h"

typedef struct wl__tok_merge { uint32_t rank, result; } wl__tok_merge;

struct wl_tokenizer {
    wl_allocator al;
    wl_vocab_kind kind;
    wl_pretok pre;
    bool ignore_merges;             /* a word that is a token is that token (llama3 family) */
    wl_special_tokens sp;
    uint32_t n_vocab;               /* strings 0..n_vocab-1 are the tokens */
    uint32_t n_str, str_max;        /* interned strings: tokens, then merge strings that are none */
    char *pool;                     /* their bytes */
    size_t pool_len, pool_cap;
    uint32_t *str_off, *str_len;
    uint32_t *str_index, str_index_cap;   /* open addressing: string id + 1, 0 = empty */
    uint8_t *type;                  /* wl_token_type per token */
    float *score;                   /* SentencePiece merge priority per token */
    uint32_t *piece_off, *piece_len;
    char *pieces;                   /* decoded pieces */
    size_t max_piece;
    uint64_t *merge_key;            /* left << 32 | right; UINT64_MAX = empty */
    wl__tok_merge *merge_val;
    uint32_t merge_cap, n_merges;
    int32_t *specials;              /* control, user-defined, unknown ids: longest first */
    uint32_t n_specials;
    uint32_t byte_cp[256];          /* GPT-2: byte -> character */
    int16_t cp_byte[512];           /* and back (-1: none) */
    int32_t byte_token[256];        /* byte fallback: <0xNN> (SentencePiece) or the byte's character */
    int32_t raw_byte_token[256];    /* the one-byte string's token (-1: none) */
};

wl_tokenizer *wl__tok_new(const wl_allocator *alloc);
void *wl__tok_alloc(wl_tokenizer *t, size_t size);
void wl__tok_free(wl_tokenizer *t, void *p);
/* Reserves room for max_strings strings of pool_bytes bytes in all. */
wl_status wl__tok_init_strings(wl_tokenizer *t, uint32_t max_strings, size_t pool_bytes);
uint32_t wl__tok_intern(wl_tokenizer *t, const void *s, size_t n, bool *dup);
wl_status wl__tok_init_merges(wl_tokenizer *t, uint32_t n_merges);
void wl__tok_add_merge(wl_tokenizer *t, uint32_t left, uint32_t right, uint32_t result, uint32_t rank);
/* Interns a merge line "left right" (split at the first space after the first byte) at rank. */
wl_status wl__tok_merge_line(wl_tokenizer *t, const char *s, size_t n, uint32_t rank);
wl_status wl__tok_merge_pair(wl_tokenizer *t, const char *l, size_t ln, const char *r, size_t rn, uint32_t rank);
/* After the tokens, types, scores and merges: pieces, byte tokens, the sorted special tokens. */
wl_status wl__tok_finish(wl_tokenizer *t);
/* llama.cpp's special tokens by text: eot, eom and the fill-in-the-middle roles when no id names
 * them (fim_given[i]: role i has an id; NULL: none has), and every end-of-generation text, are
 * made control tokens. */
void wl__tok_auto_special(wl_tokenizer *t, const bool fim_given[6]);
/* tokenizer_json.c: tokenizer.json (and tokenizer_config.json) in dir. */
wl_status wl__tok_load_json(wl_tokenizer *t, const char *dir, wl_error *err);

#endif
