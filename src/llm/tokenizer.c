/* tokenizer.c - text to token ids and back: byte-level BPE (GPT-2 style, with the gpt2, llama3,
 * qwen2 and smollm pre-tokenizers) and SentencePiece BPE with byte fallback (Llama 2, Mistral),
 * read from a GGUF file's tokenizer.ggml.* keys or a tokenizer.json (tokenizer_json.c).
 *
 * Design.  At open every string the merges can involve - the vocabulary, then each merge's two
 * operands and its result when they are no token - is interned into one pool with an
 * open-addressing index, so a symbol during merging is a string id, and a merge is a hash lookup
 * of the id pair (rank, result id).  Tokenizing a text: (1) the special tokens (control,
 * user-defined, unknown types) are cut out of the text, longest first, as llama.cpp does; (2) each
 * remaining fragment is decoded to code points, classified with the generated Unicode tables
 * (unicode_tables.h) and split into words by the pre-tokenizer, a hand-written scanner per regex;
 * (3) each word's UTF-8 bytes are mapped to GPT-2's byte characters and merged: adjacent pairs
 * go into a binary heap keyed (rank, position) and the best is merged until none is left, stale
 * pairs dropped when popped; (4) each final symbol is its token, or its bytes' tokens.
 * SentencePiece instead escapes ' ' as U+2581 (and prefixes one), starts from UTF-8 characters
 * and merges the adjacent pair whose concatenation is the token of highest score; a character
 * that is no token becomes byte tokens <0xNN>.  All scratch memory of a call is one arena-like
 * set of growable buffers through the allocator hook, so the tokenizer stays immutable and
 * thread-safe.  Pieces (the bytes a token stands for) are decoded once at open. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "llm/llm.h"
#include "llm/tokenizer.h"
#include "llm/unicode_tables.h"

/* ---- Unicode -------------------------------------------------------------------------------- */
#define F_PRESENT 0x10   /* a code point inside the current piece (out of range reads 0) */

static unsigned ucd_flags(uint32_t cp) {
    size_t lo = 0, hi = WL__U_RANGES;   /* the last range whose start <= cp */
    if (cp < 128) hi = WL__U_ASCII_RANGES;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if ((wl__unicode_ranges[mid] >> 8) <= cp) lo = mid;
        else hi = mid;
    }
    return (wl__unicode_ranges[lo] & 0xff) | F_PRESENT;
}

static int is_letter(unsigned f) { return (f & 7) == WL__U_LETTER; }
static int is_number(unsigned f) { return (f & 7) == WL__U_NUMBER; }
static int is_space(unsigned f) { return (f & WL__U_SPACE) != 0; }

/* One code point at s[0..n) the way llama.cpp reads UTF-8: the lead byte's length, continuation
 * bytes checked, nothing else (overlong forms and surrogates pass); anything else is U+FFFD for
 * one byte.  Code points past U+10FFFF (F5..F7 leads) are U+FFFD too. */
static uint32_t utf8_lax(const unsigned char *s, size_t n, size_t *adv) {
    unsigned c = s[0];
    size_t len;
    uint32_t cp;
    *adv = 1;
    if (c < 0x80) return c;
    if (!(c & 0x40)) return 0xFFFD;
    if (!(c & 0x20)) len = 2, cp = c & 0x1f;
    else if (!(c & 0x10)) len = 3, cp = c & 0x0f;
    else if (!(c & 0x08)) len = 4, cp = c & 0x07;
    else return 0xFFFD;
    if (n < len) return 0xFFFD;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80) return 0xFFFD;
        cp = cp << 6 | (s[i] & 0x3fu);
    }
    if (cp > 0x10FFFF) return 0xFFFD;
    *adv = len;
    return cp;
}

static size_t utf8_put(uint32_t cp, unsigned char *o) {
    if (cp < 0x80) return o[0] = (unsigned char)cp, 1;
    if (cp < 0x800) {
        o[0] = (unsigned char)(0xc0 | cp >> 6);
        o[1] = (unsigned char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (unsigned char)(0xe0 | cp >> 12);
        o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
        o[2] = (unsigned char)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (unsigned char)(0xf0 | cp >> 18);
    o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
    o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
    o[3] = (unsigned char)(0x80 | (cp & 0x3f));
    return 4;
}

/* The length of a valid (RFC 3629) UTF-8 sequence at s[0..n): >0 complete, 0 invalid, -k: a valid
 * prefix that needs k more bytes. */
static int utf8_check(const unsigned char *s, size_t n) {
    unsigned c = s[0];
    int len;
    unsigned lo = 0x80, hi = 0xbf;   /* the second byte's range */
    if (c < 0x80) return 1;
    if (c >= 0xc2 && c <= 0xdf) len = 2;
    else if (c >= 0xe0 && c <= 0xef) len = 3, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
    else if (c >= 0xf0 && c <= 0xf4) len = 4, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
    else return 0;
    for (int i = 1; i < len; i++) {
        if ((size_t)i >= n) return -(len - i);
        unsigned b = s[i];
        if (i == 1 ? (b < lo || b > hi) : (b & 0xc0) != 0x80) return 0;
    }
    return len;
}

/* ---- memory --------------------------------------------------------------------------------- */
void *wl__tok_alloc(wl_tokenizer *t, size_t size) {
    if (size == 0) size = 1;
    return t->al.alloc ? t->al.alloc(t->al.user, size) : malloc(size);
}

void wl__tok_free(wl_tokenizer *t, void *p) {
    if (!p) return;
    if (t->al.free) t->al.free(t->al.user, p);
    else free(p);
}

static void *tok_calloc(wl_tokenizer *t, size_t n, size_t elem) {
    if (elem && n > SIZE_MAX / elem) return NULL;
    void *p = wl__tok_alloc(t, n * elem);
    if (p) memset(p, 0, n * elem + (n * elem == 0));
    return p;
}

void wl_tokenizer_close(wl_tokenizer *t) {
    if (!t) return;
    void *ptrs[] = { t->pool, t->str_off, t->str_len, t->str_index, t->type, t->score, t->piece_off,
                     t->piece_len, t->pieces, t->merge_key, t->merge_val, t->specials };
    for (size_t i = 0; i < sizeof ptrs / sizeof ptrs[0]; i++) wl__tok_free(t, ptrs[i]);
    wl_allocator al = t->al;
    if (al.free) al.free(al.user, t);
    else free(t);
}

wl_tokenizer *wl__tok_new(const wl_allocator *alloc) {
    wl_allocator al = { 0 };
    if (alloc) al = *alloc;
    wl_tokenizer *t = al.alloc ? al.alloc(al.user, sizeof *t) : malloc(sizeof *t);
    if (!t) return NULL;
    memset(t, 0, sizeof *t);
    t->al = al;
    t->sp = (wl_special_tokens){ -1, -1, -1, -1, -1, -1, -1, false, false, false };
    return t;
}

/* ---- the string index ----------------------------------------------------------------------- */
static uint64_t fnv(uint64_t h, const void *p, size_t n) {
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) h = (h ^ s[i]) * 1099511628211ull;   /* FNV-1a */
    return h;
}

static uint64_t hash_bytes(const void *p, size_t n) {
    uint64_t h = fnv(1469598103934665603ull, p, n);
    return h ^ (h >> 29);
}

static uint32_t find_str(const wl_tokenizer *t, const void *s, size_t n) {
    if (!t->str_index_cap || n == 0) return UINT32_MAX;
    uint32_t mask = t->str_index_cap - 1, h = (uint32_t)hash_bytes(s, n) & mask;
    for (uint32_t e; (e = t->str_index[h]) != 0; h = (h + 1) & mask)
        if (t->str_len[e - 1] == n && !memcmp(t->pool + t->str_off[e - 1], s, n)) return e - 1;
    return UINT32_MAX;
}

wl_status wl__tok_init_strings(wl_tokenizer *t, uint32_t max_strings, size_t pool_bytes) {
    uint64_t cap = 16;
    while (cap < (uint64_t)max_strings * 2) cap *= 2;
    if (cap > UINT32_MAX / 2 + 1) return WL_STATUS_OUT_OF_MEMORY;
    t->str_index_cap = (uint32_t)cap;
    t->str_index = tok_calloc(t, (size_t)cap, sizeof *t->str_index);
    t->str_off = tok_calloc(t, max_strings, sizeof *t->str_off);
    t->str_len = tok_calloc(t, max_strings, sizeof *t->str_len);
    t->pool = wl__tok_alloc(t, pool_bytes);
    t->str_max = max_strings;
    t->pool_cap = pool_bytes;
    return t->str_index && t->str_off && t->str_len && t->pool ? WL_OK : WL_STATUS_OUT_OF_MEMORY;
}

/* Interns the concatenation a[0..an) b[0..bn) (must fit the reserved pool); *dup set when it was
 * there already.  UINT32_MAX when it is empty or the reservation is exhausted. */
static uint32_t intern2(wl_tokenizer *t, const void *a, size_t an, const void *b, size_t bn, bool *dup) {
    *dup = false;
    size_t n = an + bn;
    if (n == 0 || n > UINT32_MAX) return UINT32_MAX;
    uint64_t hh = fnv(fnv(1469598103934665603ull, a, an), b, bn);
    uint32_t mask = t->str_index_cap - 1, h = (uint32_t)(hh ^ (hh >> 29)) & mask;
    for (uint32_t e; (e = t->str_index[h]) != 0; h = (h + 1) & mask) {
        const char *q = t->pool + t->str_off[e - 1];
        if (t->str_len[e - 1] == n && !memcmp(q, a, an) && (!bn || !memcmp(q + an, b, bn))) {
            *dup = true;
            return e - 1;
        }
    }
    if (t->n_str >= t->str_max || n > t->pool_cap - t->pool_len) return UINT32_MAX;
    uint32_t id = t->n_str++;
    if (an) memcpy(t->pool + t->pool_len, a, an);
    if (bn) memcpy(t->pool + t->pool_len + an, b, bn);
    t->str_off[id] = (uint32_t)t->pool_len;
    t->str_len[id] = (uint32_t)n;
    t->pool_len += n;
    t->str_index[h] = id + 1;
    return id;
}

uint32_t wl__tok_intern(wl_tokenizer *t, const void *s, size_t n, bool *dup) {
    return intern2(t, s, n, NULL, 0, dup);
}

/* ---- merges --------------------------------------------------------------------------------- */
static uint32_t merge_slot(uint64_t key, uint32_t mask) {
    return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & mask;
}

wl_status wl__tok_init_merges(wl_tokenizer *t, uint32_t n_merges) {
    uint64_t cap = 16;
    while (cap < (uint64_t)n_merges * 2) cap *= 2;
    if (cap > UINT32_MAX / 2 + 1) return WL_STATUS_OUT_OF_MEMORY;
    t->merge_cap = (uint32_t)cap;
    t->merge_key = wl__tok_alloc(t, (size_t)cap * sizeof *t->merge_key);
    t->merge_val = wl__tok_alloc(t, (size_t)cap * sizeof *t->merge_val);
    if (!t->merge_key || !t->merge_val) return WL_STATUS_OUT_OF_MEMORY;
    memset(t->merge_key, 0xff, (size_t)cap * sizeof *t->merge_key);
    return WL_OK;
}

/* Adds merge (left, right) -> result at rank unless the pair has a rank already (the first wins,
 * as in llama.cpp). */
void wl__tok_add_merge(wl_tokenizer *t, uint32_t left, uint32_t right, uint32_t result, uint32_t rank) {
    uint64_t key = (uint64_t)left << 32 | right;
    uint32_t mask = t->merge_cap - 1, h = merge_slot(key, mask);
    while (t->merge_key[h] != UINT64_MAX) {
        if (t->merge_key[h] == key) return;
        h = (h + 1) & mask;
    }
    t->merge_key[h] = key;
    t->merge_val[h] = (wl__tok_merge){ rank, result };
    t->n_merges++;
}

wl_status wl__tok_merge_pair(wl_tokenizer *t, const char *l, size_t ln, const char *r, size_t rn, uint32_t rank) {
    bool dup;
    if (!ln || !rn) return WL_OK;   /* can never apply */
    uint32_t a = intern2(t, l, ln, NULL, 0, &dup), b = intern2(t, r, rn, NULL, 0, &dup);
    uint32_t c = intern2(t, l, ln, r, rn, &dup);
    if (a == UINT32_MAX || b == UINT32_MAX || c == UINT32_MAX) return WL_STATUS_OUT_OF_MEMORY;
    wl__tok_add_merge(t, a, b, c, rank);
    return WL_OK;
}

wl_status wl__tok_merge_line(wl_tokenizer *t, const char *s, size_t n, uint32_t rank) {
    for (size_t i = 1; i < n; i++)
        if (s[i] == ' ') return wl__tok_merge_pair(t, s, i, s + i + 1, n - i - 1, rank);
    return WL_OK;   /* no space: a pair that never applies (llama.cpp reads it as ("", "")) */
}

static const wl__tok_merge *find_merge(const wl_tokenizer *t, uint32_t left, uint32_t right) {
    if (!t->merge_cap) return NULL;
    uint64_t key = (uint64_t)left << 32 | right;
    uint32_t mask = t->merge_cap - 1, h = merge_slot(key, mask);
    while (t->merge_key[h] != UINT64_MAX) {
        if (t->merge_key[h] == key) return &t->merge_val[h];
        h = (h + 1) & mask;
    }
    return NULL;
}

/* ---- finishing a loaded vocabulary ---------------------------------------------------------- */
static void byte_tables(wl_tokenizer *t) {
    /* GPT-2's bytes_to_unicode: printable Latin-1 bytes stand for themselves, the other 68
     * bytes for U+0100, U+0101, ... in byte order */
    uint32_t next = 256;
    for (int b = 0; b < 256; b++) {
        int printable = (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae);
        t->byte_cp[b] = printable ? (uint32_t)b : next++;
    }
    for (int i = 0; i < 512; i++) t->cp_byte[i] = -1;
    for (int b = 0; b < 256; b++) t->cp_byte[t->byte_cp[b]] = (int16_t)b;
}

static int cmp_special(const void *a, const void *b, const wl_tokenizer *t) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    uint32_t lx = t->str_len[x], ly = t->str_len[y];
    if (lx != ly) return lx > ly ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* Decodes the pieces, finds the byte tokens and special tokens, sorts the specials. */
wl_status wl__tok_finish(wl_tokenizer *t) {
    byte_tables(t);
    uint32_t n = t->n_vocab;
    size_t total = 0;
    for (uint32_t i = 0; i < n; i++) total += t->str_len[i];
    t->piece_off = tok_calloc(t, n ? n : 1, sizeof *t->piece_off);
    t->piece_len = tok_calloc(t, n ? n : 1, sizeof *t->piece_len);
    t->pieces = wl__tok_alloc(t, total ? total : 1);
    t->specials = tok_calloc(t, n ? n : 1, sizeof *t->specials);
    if (!t->piece_off || !t->piece_len || !t->pieces || !t->specials) return WL_STATUS_OUT_OF_MEMORY;
    size_t at = 0;
    for (uint32_t i = 0; i < n; i++) {
        const unsigned char *s = (const unsigned char *)t->pool + t->str_off[i];
        size_t len = t->str_len[i], k = 0;
        unsigned char *o = (unsigned char *)t->pieces + at;
        switch (t->type[i]) {
        case WL_TOKEN_CONTROL: case WL_TOKEN_UNKNOWN: case WL_TOKEN_USER_DEFINED:
            memcpy(o, s, len);
            k = len;
            break;
        case WL_TOKEN_NORMAL:
            if (t->kind == WL_VOCAB_SPM) {   /* U+2581 is a space */
                for (size_t j = 0; j < len;) {
                    if (len - j >= 3 && s[j] == 0xe2 && s[j + 1] == 0x96 && s[j + 2] == 0x81) {
                        o[k++] = ' ';
                        j += 3;
                    } else {
                        o[k++] = s[j++];
                    }
                }
            } else {   /* byte-level: each character is a byte; another stays as it is */
                for (size_t j = 0; j < len;) {
                    size_t adv;
                    uint32_t cp = utf8_lax(s + j, len - j, &adv);
                    if (cp < 512 && t->cp_byte[cp] >= 0 && cp != 0xFFFD) o[k++] = (unsigned char)t->cp_byte[cp];
                    else memcpy(o + k, s + j, adv), k += adv;
                    j += adv;
                }
            }
            break;
        case WL_TOKEN_BYTE: {   /* <0xNN> */
            unsigned v = 0;
            int ok = len == 6 && !memcmp(s, "<0x", 3) && s[5] == '>';
            for (int d = 3; ok && d < 5; d++) {
                unsigned c = s[d];
                v = v * 16 + (c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10
                              : c >= 'a' && c <= 'f' ? c - 'a' + 10 : (ok = 0));
            }
            if (ok) o[k++] = (unsigned char)v;
            break;
        }
        default: break;   /* unused, undefined: nothing */
        }
        t->piece_off[i] = (uint32_t)at;
        t->piece_len[i] = (uint32_t)k;
        at += k;
        if (k > t->max_piece) t->max_piece = k;
        if ((t->type[i] == WL_TOKEN_CONTROL || t->type[i] == WL_TOKEN_USER_DEFINED ||
             t->type[i] == WL_TOKEN_UNKNOWN) && len)
            t->specials[t->n_specials++] = (int32_t)i;
    }
    /* insertion sort would be quadratic for big special sets: a plain merge sort by (length desc, id) */
    {
        uint32_t m = t->n_specials;
        int32_t *tmp = tok_calloc(t, m ? m : 1, sizeof *tmp);
        if (!tmp) return WL_STATUS_OUT_OF_MEMORY;
        for (uint32_t w = 1; w < m; w *= 2) {
            for (uint32_t lo = 0; lo < m; lo += 2 * w) {
                uint32_t mid = lo + w < m ? lo + w : m, hi = lo + 2 * w < m ? lo + 2 * w : m;
                uint32_t a = lo, b = mid, k = lo;
                while (a < mid && b < hi)
                    tmp[k++] = cmp_special(&t->specials[a], &t->specials[b], t) <= 0 ? t->specials[a++] : t->specials[b++];
                while (a < mid) tmp[k++] = t->specials[a++];
                while (b < hi) tmp[k++] = t->specials[b++];
            }
            memcpy(t->specials, tmp, m * sizeof *tmp);
        }
        wl__tok_free(t, tmp);
    }
    /* byte tokens: byte-level BPE looks up the byte's character; SentencePiece <0xNN>, else the
     * byte itself */
    for (int b = 0; b < 256; b++) {
        unsigned char buf[8];
        uint32_t id;
        if (t->kind == WL_VOCAB_BPE) {
            size_t k = utf8_put(t->byte_cp[b], buf);
            id = find_str(t, buf, k);
        } else {
            static const char hex[] = "0123456789ABCDEF";
            buf[0] = '<', buf[1] = '0', buf[2] = 'x', buf[3] = (unsigned char)hex[b >> 4];
            buf[4] = (unsigned char)hex[b & 15], buf[5] = '>';
            id = find_str(t, buf, 6);
            if (id >= n) {
                buf[0] = (unsigned char)b;
                id = find_str(t, buf, 1);
            }
        }
        t->byte_token[b] = id < n ? (int32_t)id : -1;
        /* the raw single byte as a string: what byte-level BPE falls back to */
        unsigned char one = (unsigned char)b;
        id = find_str(t, &one, 1);
        t->raw_byte_token[b] = id < n ? (int32_t)id : -1;
    }
    return WL_OK;
}

/* ---- accessors ------------------------------------------------------------------------------ */
static const char *const pretok_names[] = {
    "none",
#define X(name, gguf) gguf,
    WL_PRETOKENIZERS(X)
#undef X
};
_Static_assert(sizeof pretok_names / sizeof pretok_names[0] == WL_PRETOK_COUNT, "pretok names");

const char *wl_pretok_name(wl_pretok p) { return (unsigned)p < WL_PRETOK_COUNT ? pretok_names[p] : "?"; }
wl_vocab_kind wl_tokenizer_kind(const wl_tokenizer *t) { return t ? t->kind : WL_VOCAB_NONE; }
wl_pretok wl_tokenizer_pretok(const wl_tokenizer *t) { return t ? t->pre : WL_PRETOK_NONE; }
uint32_t wl_tokenizer_vocab_size(const wl_tokenizer *t) { return t ? t->n_vocab : 0; }
const wl_special_tokens *wl_tokenizer_special(const wl_tokenizer *t) { return t ? &t->sp : NULL; }

const char *wl_token_text(const wl_tokenizer *t, int32_t id, size_t *len) {
    if (!t || id < 0 || (uint32_t)id >= t->n_vocab) return NULL;
    if (len) *len = t->str_len[id];
    return t->pool + t->str_off[id];
}

wl_token_type wl_token_get_type(const wl_tokenizer *t, int32_t id) {
    if (!t || id < 0 || (uint32_t)id >= t->n_vocab) return WL_TOKEN_UNDEFINED;
    return (wl_token_type)t->type[id];
}

const char *wl_token_piece(const wl_tokenizer *t, int32_t id, size_t *len) {
    if (!t || id < 0 || (uint32_t)id >= t->n_vocab) return NULL;
    if (len) *len = t->piece_len[id];
    return t->pieces + t->piece_off[id];
}

int32_t wl_token_find(const wl_tokenizer *t, const char *text, size_t len) {
    if (!t || (!text && len)) return -1;
    uint32_t id = find_str(t, text, len);
    return id < t->n_vocab ? (int32_t)id : -1;
}

/* ---- scratch memory of one call ------------------------------------------------------------- */
typedef struct sym {
    uint32_t off, len;   /* bytes in the word */
    uint32_t id;         /* interned string; UINT32_MAX: none */
    int32_t prev, next;
} sym;

typedef struct pair {
    float score;         /* SentencePiece: the concatenation's score (higher first) */
    uint32_t rank;       /* BPE: the merge's rank (lower first) */
    int32_t left, right;
    uint32_t idl, idr;   /* BPE: the ids when pushed (a changed symbol makes the pair stale) */
    uint32_t size;       /* SentencePiece: the bytes when pushed */
} pair;

typedef struct frag { size_t off, len; int32_t token; } frag;

typedef struct scratch {
    wl_tokenizer *t;     /* for the allocator only */
    bool failed;
    uint32_t *cp; size_t cp_cap;                        /* code points of a fragment */
    unsigned char *fl; size_t fl_cap;                   /* and their flags */
    uint32_t *words; size_t words_n, words_cap;         /* word lengths in code points */
    unsigned char *buf; size_t buf_cap;                 /* a word's bytes */
    sym *syms; size_t syms_cap;
    pair *heap; size_t heap_n, heap_cap;
    frag *frags, *frags2; size_t frags_n, frags_cap, frags2_cap;
    int32_t *ids; size_t n, cap;                        /* the output */
    /* the word cache: words of up to CACHE_WORD bytes -> their ids (most text repeats words) */
    uint32_t *cslot; size_t cslot_cap;                  /* entry + 1, 0 = empty */
    struct centry { uint32_t boff, blen, ioff, ilen; } *cent; size_t cent_n, cent_cap;
    unsigned char *cbytes; size_t cbytes_n, cbytes_cap;
    int32_t *cids; size_t cids_n, cids_cap;
} scratch;

#define CACHE_WORD 64        /* bytes */
#define CACHE_SLOTS 32768    /* at most half used */

static int grow(scratch *s, void **p, size_t *cap, size_t need, size_t elem) {
    if (need <= *cap) return 1;
    size_t nc = *cap ? *cap : 64;
    while (nc < need) {
        if (nc > SIZE_MAX / 4 / elem) return s->failed = true, 0;
        nc *= 2;
    }
    void *q = wl__tok_alloc(s->t, nc * elem);
    if (!q) return s->failed = true, 0;
    if (*p) memcpy(q, *p, *cap * elem);
    wl__tok_free(s->t, *p);
    *p = q;
    *cap = nc;
    return 1;
}
#define GROW(s, arr, cap, need) grow((s), (void **)&(arr), &(cap), (need), sizeof *(arr))

static void scratch_free(scratch *s) {
    void *ptrs[] = { s->cp, s->fl, s->words, s->buf, s->syms, s->heap, s->frags, s->frags2,
                     s->cslot, s->cent, s->cbytes, s->cids };
    for (size_t i = 0; i < sizeof ptrs / sizeof ptrs[0]; i++) wl__tok_free(s->t, ptrs[i]);
}

static void emit(scratch *s, int32_t id) {
    if (s->n < s->cap) s->ids[s->n] = id;
    s->n++;
}

/* ---- the heap of candidate pairs ------------------------------------------------------------ */
static int pair_before(const pair *a, const pair *b, int spm) {
    if (spm) {
        if (a->score != b->score) return a->score > b->score;
    } else if (a->rank != b->rank) {
        return a->rank < b->rank;
    }
    return a->left < b->left;
}

static void heap_push(scratch *s, pair p, int spm) {
    if (!GROW(s, s->heap, s->heap_cap, s->heap_n + 1)) return;
    size_t i = s->heap_n++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (!pair_before(&p, &s->heap[up], spm)) break;
        s->heap[i] = s->heap[up];
        i = up;
    }
    s->heap[i] = p;
}

static pair heap_pop(scratch *s, int spm) {
    pair top = s->heap[0], last = s->heap[--s->heap_n];
    size_t i = 0, n = s->heap_n;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && pair_before(&s->heap[c + 1], &s->heap[c], spm)) c++;
        if (!pair_before(&s->heap[c], &last, spm)) break;
        s->heap[i] = s->heap[c];
        i = c;
    }
    if (n) s->heap[i] = last;
    return top;
}

/* ---- byte-level BPE ------------------------------------------------------------------------- */
static void bpe_try_pair(scratch *s, const wl_tokenizer *t, int32_t l, int32_t r) {
    if (l < 0 || r < 0) return;
    const sym *a = &s->syms[l], *b = &s->syms[r];
    if (a->id == UINT32_MAX || b->id == UINT32_MAX) return;
    const wl__tok_merge *m = find_merge(t, a->id, b->id);
    if (!m) return;
    heap_push(s, (pair){ 0, m->rank, l, r, a->id, b->id, 0 }, 0);
}

/* Merges one word of byte characters (buf[0..len)) and emits its tokens. */
static void bpe_word(scratch *s, const wl_tokenizer *t, const unsigned char *w, size_t len) {
    if (t->ignore_merges) {
        uint32_t id = find_str(t, w, len);
        if (id < t->n_vocab) {
            emit(s, (int32_t)id);
            return;
        }
    }
    if (!GROW(s, s->syms, s->syms_cap, len)) return;
    int32_t n = 0;
    for (size_t off = 0; off < len; n++) {
        size_t adv;
        (void)utf8_lax(w + off, len - off, &adv);
        s->syms[n] = (sym){ (uint32_t)off, (uint32_t)adv, find_str(t, w + off, adv), n - 1, -1 };
        if (n) s->syms[n - 1].next = n;
        off += adv;
    }
    s->heap_n = 0;
    for (int32_t i = 1; i < n; i++) bpe_try_pair(s, t, i - 1, i);
    while (s->heap_n && !s->failed) {
        pair p = heap_pop(s, 0);
        sym *a = &s->syms[p.left], *b = &s->syms[p.right];
        if (!a->len || !b->len || a->id != p.idl || b->id != p.idr) continue;   /* stale */
        const wl__tok_merge *m = find_merge(t, a->id, b->id);
        a->len += b->len;
        a->id = m->result;
        b->len = 0;
        a->next = b->next;
        if (b->next >= 0) s->syms[b->next].prev = p.left;
        bpe_try_pair(s, t, a->prev, p.left);
        bpe_try_pair(s, t, p.left, a->next);
    }
    for (int32_t i = 0; i >= 0 && i < n; i = s->syms[i].next) {
        const sym *y = &s->syms[i];
        if (y->id < t->n_vocab) {
            emit(s, (int32_t)y->id);
            continue;
        }
        for (uint32_t k = 0; k < y->len; k++) {   /* no such token: its bytes' tokens, if any */
            int32_t id = t->raw_byte_token[w[y->off + k]];
            if (id >= 0) emit(s, id);
        }
    }
}

/* bpe_word through the word cache: a word seen before in this call emits its ids again. */
static void bpe_word_cached(scratch *s, const wl_tokenizer *t, const unsigned char *w, size_t len) {
    if (len > CACHE_WORD) {
        bpe_word(s, t, w, len);
        return;
    }
    if (!s->cslot) {
        s->cslot = wl__tok_alloc(s->t, CACHE_SLOTS * sizeof *s->cslot);
        if (!s->cslot) {
            s->failed = true;
            return;
        }
        memset(s->cslot, 0, CACHE_SLOTS * sizeof *s->cslot);
    }
    uint32_t h = (uint32_t)hash_bytes(w, len) & (CACHE_SLOTS - 1);
    for (uint32_t e; (e = s->cslot[h]) != 0; h = (h + 1) & (CACHE_SLOTS - 1)) {
        const struct centry *c = &s->cent[e - 1];
        if (c->blen == len && !memcmp(s->cbytes + c->boff, w, len)) {
            for (uint32_t i = 0; i < c->ilen; i++) emit(s, s->cids[c->ioff + i]);
            return;
        }
    }
    /* a miss: merge, with the output captured */
    int32_t *ids = s->ids;
    size_t n = s->n, cap = s->cap;
    if (!GROW(s, s->cids, s->cids_cap, s->cids_n + len)) return;   /* a word gives at most len ids */
    s->ids = s->cids + s->cids_n, s->n = 0, s->cap = len;
    bpe_word(s, t, w, len);
    size_t got = s->n;
    s->ids = ids, s->n = n, s->cap = cap;
    for (size_t i = 0; i < got; i++) emit(s, s->cids[s->cids_n + i]);
    if (s->failed || s->cent_n >= CACHE_SLOTS / 2 || !GROW(s, s->cent, s->cent_cap, s->cent_n + 1) ||
        !GROW(s, s->cbytes, s->cbytes_cap, s->cbytes_n + len))
        return;
    memcpy(s->cbytes + s->cbytes_n, w, len);
    s->cent[s->cent_n] = (struct centry){ (uint32_t)s->cbytes_n, (uint32_t)len, (uint32_t)s->cids_n, (uint32_t)got };
    s->cslot[h] = (uint32_t)++s->cent_n;
    s->cbytes_n += len;
    s->cids_n += got;
}

/* Appends the length (in code points) of [*prev, end) when not empty. */
static void add_word(scratch *s, size_t *prev, size_t end) {
    if (end <= *prev) return;
    if (!GROW(s, s->words, s->words_cap, s->words_n + 1)) return;
    s->words[s->words_n++] = (uint32_t)(end - *prev);
    *prev = end;
}

#define FL(i) ((i) >= ini && (i) < end ? s->fl[i] : 0u)
#define CP(i) ((i) >= ini && (i) < end ? s->cp[i] : UINT32_MAX)

/* 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+ over [ini, end). */
static void split_gpt2(scratch *s, size_t ini, size_t end) {
    size_t pos = ini, prev = ini;
    while (pos < end) {
        uint32_t c = s->cp[pos];
        unsigned f = s->fl[pos];
        if (c == '\'' && pos + 1 < end) {
            uint32_t c1 = s->cp[pos + 1];
            if (c1 == 's' || c1 == 't' || c1 == 'm' || c1 == 'd') {
                add_word(s, &prev, pos += 2);
                continue;
            }
            if (pos + 2 < end) {
                uint32_t c2 = s->cp[pos + 2];
                if ((c1 == 'r' && c2 == 'e') || (c1 == 'v' && c2 == 'e') || (c1 == 'l' && c2 == 'l')) {
                    add_word(s, &prev, pos += 3);
                    continue;
                }
            }
        }
        unsigned f2 = c == ' ' ? FL(pos + 1) : f;
        if (is_letter(f2) || is_number(f2)) {   /*  ?\p{L}+ and  ?\p{N}+ */
            int (*same)(unsigned) = is_letter(f2) ? is_letter : is_number;
            pos += c == ' ';
            while (same(FL(pos))) pos++;
            add_word(s, &prev, pos);
            continue;
        }
        if ((f2 & F_PRESENT) && !is_space(f2)) {   /*  ?[^\s\p{L}\p{N}]+ */
            pos += c == ' ';
            for (unsigned g; (g = FL(pos)) & F_PRESENT && !is_space(g) && !is_letter(g) && !is_number(g);) pos++;
            add_word(s, &prev, pos);
            continue;
        }
        size_t nws = 0;
        while (is_space(FL(pos + nws))) nws++;
        if (nws > 1 && (FL(pos + nws) & F_PRESENT)) pos += nws - 1;   /* \s+(?!\S) */
        else if (nws > 0) pos += nws;                                  /* \s+ */
        else pos++;
        add_word(s, &prev, pos);
    }
}

static uint32_t ascii_lower(uint32_t c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

/* (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|
 * \s*[\r\n]+|\s+(?!\S)|\s+  over [ini, end); digits: 3 (llama3) or 1 (qwen2). */
static void split_llama3(scratch *s, size_t ini, size_t end, size_t digits) {
    size_t pos = ini, prev = ini;
    while (pos < end) {
        uint32_t c = s->cp[pos];
        unsigned f = s->fl[pos];
        if (c == '\'' && pos + 1 < end) {
            uint32_t c1 = ascii_lower(s->cp[pos + 1]);
            if (c1 == 's' || c1 == 't' || c1 == 'm' || c1 == 'd') {
                add_word(s, &prev, pos += 2);
                continue;
            }
            if (pos + 2 < end) {
                uint32_t c2 = ascii_lower(s->cp[pos + 2]);
                if ((c1 == 'r' && c2 == 'e') || (c1 == 'v' && c2 == 'e') || (c1 == 'l' && c2 == 'l')) {
                    add_word(s, &prev, pos += 3);
                    continue;
                }
            }
        }
        if (c != '\r' && c != '\n' && !is_number(f) && (is_letter(f) || is_letter(FL(pos + 1)))) {
            pos++;   /* [^\r\n\p{L}\p{N}]?\p{L}+ */
            while (is_letter(FL(pos))) pos++;
            add_word(s, &prev, pos);
            continue;
        }
        if (is_number(f)) {   /* \p{N}{1,digits} */
            size_t run = 0;
            while (run < digits && is_number(FL(pos))) pos++, run++;
            add_word(s, &prev, pos);
            continue;
        }
        unsigned f2 = c == ' ' ? FL(pos + 1) : f;
        if ((f2 & F_PRESENT) && !is_space(f2) && !is_letter(f2) && !is_number(f2)) {
            pos += c == ' ';   /*  ?[^\s\p{L}\p{N}]+[\r\n]* */
            for (unsigned g; (g = FL(pos)) & F_PRESENT && !is_space(g) && !is_letter(g) && !is_number(g);) pos++;
            while (CP(pos) == '\r' || CP(pos) == '\n') pos++;
            add_word(s, &prev, pos);
            continue;
        }
        size_t nws = 0, last_rn = 0;
        for (; is_space(FL(pos + nws)); nws++)
            if (s->cp[pos + nws] == '\r' || s->cp[pos + nws] == '\n') last_rn = pos + nws + 1;
        if (last_rn) pos = last_rn;                                         /* \s*[\r\n]+ */
        else if (nws > 1 && (FL(pos + nws) & F_PRESENT)) pos += nws - 1;    /* \s+(?!\S) */
        else if (nws > 0) pos += nws;                                       /* \s+ */
        else pos++;
        add_word(s, &prev, pos);
    }
}
#undef FL
#undef CP

/* One text fragment through the pre-tokenizer and the merges. */
static void bpe_fragment(scratch *s, const wl_tokenizer *t, const unsigned char *text, size_t len) {
    if (!GROW(s, s->cp, s->cp_cap, len + 1) || !GROW(s, s->fl, s->fl_cap, len + 1)) return;
    size_t n = 0;
    for (size_t i = 0; i < len;) {
        size_t adv;
        uint32_t cp = utf8_lax(text + i, len - i, &adv);
        s->cp[n] = cp;
        s->fl[n++] = (unsigned char)ucd_flags(cp);
        i += adv;
    }
    s->words_n = 0;
    switch (t->pre) {
    case WL_PRETOK_GPT2: split_gpt2(s, 0, n); break;
    case WL_PRETOK_LLAMA3: split_llama3(s, 0, n, 3); break;
    case WL_PRETOK_QWEN2: split_llama3(s, 0, n, 1); break;
    case WL_PRETOK_SMOLLM:   /* every \p{N} its own piece, then GPT-2 within each piece */
        for (size_t a = 0; a < n;) {
            size_t b = a + 1;
            if (!is_number(s->fl[a]))
                while (b < n && !is_number(s->fl[b])) b++;
            split_gpt2(s, a, b);
            a = b;
        }
        break;
    default: add_word(s, &(size_t){ 0 }, n); break;
    }
    if (s->failed) return;
    size_t at = 0;
    for (size_t w = 0; w < s->words_n && !s->failed; w++) {
        size_t wn = s->words[w], k = 0;
        if (!GROW(s, s->buf, s->buf_cap, wn * 8)) return;   /* 4 bytes a code point, 2 a byte character */
        for (size_t i = at; i < at + wn; i++) {   /* the word's UTF-8, each byte as its character */
            unsigned char u[4];
            size_t m = utf8_put(s->cp[i], u);
            for (size_t j = 0; j < m; j++)
                k += utf8_put(t->byte_cp[u[j]], s->buf + k);
        }
        bpe_word_cached(s, t, s->buf, k);
        at += wn;
    }
}

/* ---- SentencePiece -------------------------------------------------------------------------- */
static void spm_try_pair(scratch *s, const wl_tokenizer *t, const unsigned char *w, int32_t l, int32_t r) {
    if (l < 0 || r < 0) return;
    const sym *a = &s->syms[l], *b = &s->syms[r];
    uint32_t id = find_str(t, w + a->off, (size_t)a->len + b->len);   /* adjacent: contiguous */
    if (id >= t->n_vocab) return;
    heap_push(s, (pair){ t->score[id], 0, l, r, 0, 0, a->len + b->len }, 1);
}

static void spm_fragment(scratch *s, const wl_tokenizer *t, const unsigned char *text, size_t len, bool prefix) {
    size_t spaces = prefix;
    for (size_t i = 0; i < len; i++) spaces += text[i] == ' ';
    if (!GROW(s, s->buf, s->buf_cap, len + 2 * spaces + 1)) return;
    size_t k = 0;
    unsigned char *w = s->buf;
    for (size_t i = 0; i < len + prefix; i++) {   /* ' ' is U+2581 */
        unsigned char c = i < prefix ? ' ' : text[i - prefix];
        if (c == ' ') w[k++] = 0xe2, w[k++] = 0x96, w[k++] = 0x81;
        else w[k++] = c;
    }
    if (!GROW(s, s->syms, s->syms_cap, k)) return;
    static const unsigned char lead_len[16] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 4 };
    int32_t n = 0;
    for (size_t off = 0; off < k; n++) {
        size_t adv = lead_len[w[off] >> 4];
        if (adv > k - off) adv = k - off;
        s->syms[n] = (sym){ (uint32_t)off, (uint32_t)adv, 0, n - 1, -1 };
        if (n) s->syms[n - 1].next = n;
        off += adv;
    }
    s->heap_n = 0;
    for (int32_t i = 1; i < n; i++) spm_try_pair(s, t, w, i - 1, i);
    while (s->heap_n && !s->failed) {
        pair p = heap_pop(s, 1);
        sym *a = &s->syms[p.left], *b = &s->syms[p.right];
        if (!a->len || !b->len || a->len + b->len != p.size) continue;   /* stale */
        a->len += b->len;
        b->len = 0;
        a->next = b->next;
        if (b->next >= 0) s->syms[b->next].prev = p.left;
        spm_try_pair(s, t, w, a->prev, p.left);
        spm_try_pair(s, t, w, p.left, a->next);
    }
    for (int32_t i = 0; i >= 0 && i < n; i = s->syms[i].next) {
        const sym *y = &s->syms[i];
        uint32_t id = find_str(t, w + y->off, y->len);
        if (id < t->n_vocab) {
            emit(s, (int32_t)id);
            continue;
        }
        for (uint32_t j = 0; j < y->len; j++) {   /* byte fallback */
            int32_t b = t->byte_token[w[y->off + j]];
            if (b >= 0) emit(s, b);
            else if (t->sp.unk >= 0) emit(s, t->sp.unk);
        }
    }
}

static const char *find_bytes(const char *h, size_t hn, const char *p, size_t pn) {
    if (pn == 0 || hn < pn) return NULL;
    const char *end = h + (hn - pn) + 1;
    for (const char *q = h; q < end; q++) {
        q = memchr(q, p[0], (size_t)(end - q));
        if (!q) return NULL;
        if (!memcmp(q, p, pn)) return q;
    }
    return NULL;
}

/* ---- tokenize ------------------------------------------------------------------------------- */
/* Cuts the special tokens out of the text: each in turn, longest first, takes every occurrence
 * in the fragments still raw (llama.cpp's order, so overlapping specials resolve alike). */
static void partition(scratch *s, const wl_tokenizer *t, const char *text, size_t len, bool parse_special) {
    s->frags_n = 0;
    if (!len) return;
    if (!GROW(s, s->frags, s->frags_cap, 1)) return;
    s->frags[s->frags_n++] = (frag){ 0, len, -1 };
    for (uint32_t k = 0; k < t->n_specials && !s->failed; k++) {
        int32_t id = t->specials[k];
        uint8_t ty = t->type[id];
        if (!parse_special && (ty == WL_TOKEN_CONTROL || ty == WL_TOKEN_UNKNOWN)) continue;
        const char *pat = t->pool + t->str_off[id];
        size_t plen = t->str_len[id];
        size_t out = 0;
        for (size_t f = 0; f < s->frags_n; f++) {
            frag fr = s->frags[f];
            const char *hit = NULL;
            if (fr.token < 0 && fr.len >= plen) hit = find_bytes(text + fr.off, fr.len, pat, plen);
            if (!hit) {
                if (!GROW(s, s->frags2, s->frags2_cap, out + 1)) return;
                s->frags2[out++] = fr;
                continue;
            }
            size_t at = fr.off, stop = fr.off + fr.len;
            while (hit) {
                size_t h = (size_t)(hit - text);
                if (!GROW(s, s->frags2, s->frags2_cap, out + 3)) return;
                if (h > at) s->frags2[out++] = (frag){ at, h - at, -1 };
                s->frags2[out++] = (frag){ h, plen, id };
                at = h + plen;
                hit = stop - at >= plen ? find_bytes(text + at, stop - at, pat, plen) : NULL;
            }
            if (at < stop) s->frags2[out++] = (frag){ at, stop - at, -1 };
        }
        frag *tmp = s->frags;
        size_t tcap = s->frags_cap;
        s->frags = s->frags2, s->frags_cap = s->frags2_cap, s->frags_n = out;
        s->frags2 = tmp, s->frags2_cap = tcap;
    }
}

wl_status wl_tokenize(const wl_tokenizer *t, const char *text, size_t len, uint32_t flags, int32_t *ids,
                      size_t cap, size_t *n, wl_error *err) {
    if (n) *n = 0;
    if (!t || !n || (!text && len) || (!ids && cap))
        return wl__fail(err, WL_STATUS_INVALID_ARGUMENT, "wl_tokenize", "NULL tokenizer, text, ids or n");
    scratch s = { 0 };
    s.t = (wl_tokenizer *)(uintptr_t)t;   /* the allocator only; t is not changed */
    s.ids = ids;
    s.cap = cap;
    bool add = (flags & WL_TOKENIZE_ADD_SPECIAL) != 0;
    if (add && t->sp.add_bos && t->sp.bos >= 0) emit(&s, t->sp.bos);
    partition(&s, t, text, len, (flags & WL_TOKENIZE_PARSE_SPECIAL) != 0);
    bool prev_special = true;
    for (size_t f = 0; f < s.frags_n && !s.failed; f++) {
        frag fr = s.frags[f];
        if (fr.token >= 0) {
            emit(&s, fr.token);
            prev_special = true;
            continue;
        }
        const unsigned char *p = (const unsigned char *)text + fr.off;
        if (t->kind == WL_VOCAB_SPM) spm_fragment(&s, t, p, fr.len, t->sp.add_space_prefix && prev_special);
        else bpe_fragment(&s, t, p, fr.len);
        prev_special = false;
    }
    if (add && t->sp.add_eos && t->sp.eos >= 0) emit(&s, t->sp.eos);
    scratch_free(&s);
    if (s.failed) {
        *n = 0;
        return wl__fail(err, WL_STATUS_OUT_OF_MEMORY, "wl_tokenize", "out of memory");
    }
    *n = s.n;
    return WL_OK;
}

/* ---- streaming detokenizer ------------------------------------------------------------------ */
void wl_detok_init(wl_detok *d, const wl_tokenizer *t, uint32_t flags) {
    if (!d)
        return;
    memset(d, 0, sizeof *d);
    d->tok = t;
    d->flags = flags;
    d->at_start = true;
}

size_t wl_detok_cap(const wl_tokenizer *t) { return t ? 3 * (t->max_piece + 4) : 0; }

/* Writes in[0..n) after the held bytes: whole sequences as they are, bytes that cannot start
 * or continue one as U+FFFD; an incomplete tail is held (or, at the end, replaced). */
static size_t detok_write(wl_detok *d, const unsigned char *in, size_t n, char *out, bool end) {
    unsigned char tmp[8];
    size_t k = 0;
    /* the held bytes first, completed from in */
    while (d->npending) {
        size_t take = 0;
        memcpy(tmp, d->pending, d->npending);
        while (take < n && d->npending + take < 4) tmp[d->npending + take] = in[take], take++;
        int r = utf8_check(tmp, d->npending + take);
        if (r > 0) {   /* complete */
            size_t used = (size_t)r - d->npending;
            memcpy(out + k, tmp, (size_t)r);
            k += (size_t)r;
            in += used, n -= used;
            d->npending = 0;
        } else if (r < 0 && !end) {   /* still incomplete: hold all */
            memcpy(d->pending + d->npending, in, n);
            d->npending += (uint32_t)n;
            return k;
        } else {   /* invalid (or cut at the end): the first held byte is U+FFFD, retry the rest */
            k += utf8_put(0xFFFD, (unsigned char *)out + k);
            memmove(d->pending, d->pending + 1, --d->npending);
        }
    }
    for (size_t i = 0; i < n;) {
        int r = utf8_check(in + i, n - i);
        if (r > 0) {
            memcpy(out + k, in + i, (size_t)r);
            k += (size_t)r;
            i += (size_t)r;
        } else if (r < 0 && !end) {
            d->npending = (uint32_t)(n - i);
            memcpy(d->pending, in + i, n - i);
            break;
        } else {
            k += utf8_put(0xFFFD, (unsigned char *)out + k);
            i++;
        }
    }
    return k;
}

wl_status wl_detok_push(wl_detok *d, int32_t id, char *out, size_t cap, size_t *n) {
    if (n) *n = 0;
    if (!d || !d->tok || !n || !out || cap < wl_detok_cap(d->tok) || id < 0 || (uint32_t)id >= d->tok->n_vocab)
        return WL_STATUS_INVALID_ARGUMENT;
    const wl_tokenizer *t = d->tok;
    uint8_t ty = t->type[id];
    bool special = ty == WL_TOKEN_CONTROL || ty == WL_TOKEN_UNKNOWN || ty == WL_TOKEN_USER_DEFINED;
    const unsigned char *p = (const unsigned char *)t->pieces + t->piece_off[id];
    size_t len = t->piece_len[id];
    if ((ty == WL_TOKEN_CONTROL || ty == WL_TOKEN_UNKNOWN) && !(d->flags & WL_DETOK_SPECIAL)) len = 0;
    if (special) {
        d->at_start = true;
    } else if (len) {
        if ((d->flags & WL_DETOK_STRIP_SPACE) && t->sp.add_space_prefix && d->at_start && p[0] == ' ') p++, len--;
        d->at_start = false;
    }
    *n = detok_write(d, p, len, out, false);
    return WL_OK;
}

wl_status wl_detok_flush(wl_detok *d, char *out, size_t cap, size_t *n) {
    if (n) *n = 0;
    if (!d || !d->tok || !n || !out || cap < wl_detok_cap(d->tok)) return WL_STATUS_INVALID_ARGUMENT;
    *n = detok_write(d, NULL, 0, out, true);
    d->npending = 0;
    d->at_start = true;
    return WL_OK;
}

/* ---- reading GGUF's tokenizer.ggml.* keys --------------------------------------------------- */
/* tokenizer.ggml.pre names (llama.cpp's) -> pre-tokenizer, ignore_merges, add_bos by default. */
static const struct pre_name {
    const char *name;
    wl_pretok pre;
    bool ignore_merges, add_bos;
} pre_names[] = {
    { "gpt-2", WL_PRETOK_GPT2, 0, 0 }, { "phi-2", WL_PRETOK_GPT2, 0, 0 }, { "mpt", WL_PRETOK_GPT2, 0, 0 },
    { "olmo", WL_PRETOK_GPT2, 0, 0 }, { "jais", WL_PRETOK_GPT2, 0, 0 }, { "jina-es", WL_PRETOK_GPT2, 0, 0 },
    { "jina-de", WL_PRETOK_GPT2, 0, 0 }, { "jina-v2-es", WL_PRETOK_GPT2, 0, 0 },
    { "jina-v2-de", WL_PRETOK_GPT2, 0, 0 }, { "gigachat", WL_PRETOK_GPT2, 0, 0 },
    { "a.x-4.0", WL_PRETOK_GPT2, 0, 0 }, { "mellum", WL_PRETOK_GPT2, 0, 0 },
    { "modern-bert", WL_PRETOK_GPT2, 0, 0 }, { "exaone4", WL_PRETOK_GPT2, 0, 0 },
    { "trillion", WL_PRETOK_GPT2, 0, 0 }, { "granite-docling", WL_PRETOK_GPT2, 0, 0 },
    { "llama3", WL_PRETOK_LLAMA3, 1, 1 }, { "llama-v3", WL_PRETOK_LLAMA3, 1, 1 },
    { "llama-bpe", WL_PRETOK_LLAMA3, 1, 1 }, { "falcon3", WL_PRETOK_LLAMA3, 1, 1 },
    { "falcon-h1", WL_PRETOK_LLAMA3, 1, 1 }, { "pixtral", WL_PRETOK_LLAMA3, 1, 1 },
    { "midm-2.0", WL_PRETOK_LLAMA3, 1, 1 }, { "lfm2", WL_PRETOK_LLAMA3, 1, 1 },
    { "jina-v5-nano", WL_PRETOK_LLAMA3, 1, 1 }, { "dbrx", WL_PRETOK_LLAMA3, 0, 0 },
    { "smaug-bpe", WL_PRETOK_LLAMA3, 0, 0 },
    { "qwen2", WL_PRETOK_QWEN2, 0, 0 }, { "deepseek-r1-qwen", WL_PRETOK_QWEN2, 0, 0 },
    { "kormo", WL_PRETOK_QWEN2, 0, 0 }, { "f2llmv2", WL_PRETOK_QWEN2, 0, 0 },
    { "stablelm2", WL_PRETOK_QWEN2, 0, 0 }, { "megrez", WL_PRETOK_QWEN2, 0, 0 },
    { "smollm", WL_PRETOK_SMOLLM, 0, 0 }, { "starcoder", WL_PRETOK_SMOLLM, 0, 0 },
    { "refact", WL_PRETOK_SMOLLM, 0, 0 }, { "command-r", WL_PRETOK_SMOLLM, 0, 0 },
    { "codeshell", WL_PRETOK_SMOLLM, 0, 0 }, { "exaone", WL_PRETOK_SMOLLM, 0, 0 },
    { "minerva-7b", WL_PRETOK_SMOLLM, 0, 0 }, { "mellum2", WL_PRETOK_SMOLLM, 0, 0 },
};

/* Tokens llama.cpp recognises by their text (its conversion scripts do not always mark them):
 * when the file names no id for a role, the first of its list present is taken (wgc: in list
 * order), and made a control token.  Every end-of-generation text present is made control too.
 * Strings: NUL-separated, ending with an empty one. */
static const char eot_texts[] = "<|eot_id|>\0<|im_end|>\0<|end|>\0<end_of_turn>\0<|endoftext|>\0<|end_of_text|>\0"
                                "<EOT>\0_<EOT>\0[EOT]\0<\xef\xbd\x9c" "end\xe2\x96\x81of\xe2\x96\x81sentence\xef\xbd\x9c>\0"
                                "<end_of_utterance>\0";
static const char eom_texts[] = "<|eom_id|>\0";
static const char *const fim_texts[][2] = {   /* GGUF key, texts */
    { "tokenizer.ggml.fim_pre_token_id", "<|fim_prefix|>\0<fim-prefix>\0<fim_prefix>\0<\xef\xbd\x9c" "fim\xe2\x96\x81"
      "begin\xef\xbd\x9c>\0<PRE>\0\xe2\x96\x81<PRE>\0<|code_prefix|>\0<|prefix|>\0" },
    { "tokenizer.ggml.fim_suf_token_id", "<|fim_suffix|>\0<fim-suffix>\0<fim_suffix>\0<\xef\xbd\x9c" "fim\xe2\x96\x81"
      "hole\xef\xbd\x9c>\0<SUF>\0\xe2\x96\x81<SUF>\0<|code_suffix|>\0<|suffix|>\0" },
    { "tokenizer.ggml.fim_mid_token_id", "<|fim_middle|>\0<fim-middle>\0<fim_middle>\0<\xef\xbd\x9c" "fim\xe2\x96\x81"
      "end\xef\xbd\x9c>\0<MID>\0\xe2\x96\x81<MID>\0<|code_middle|>\0<|middle|>\0" },
    { "tokenizer.ggml.fim_pad_token_id", "<|fim_pad|>\0<fim-pad>\0<fim_pad>\0<PAD>\0[PAD]\0" },
    { "tokenizer.ggml.fim_rep_token_id", "<|fim_repo|>\0<|repo_name|>\0<fim-repo>\0<REPO>\0<reponame>\0" },
    { "tokenizer.ggml.fim_sep_token_id", "<|file_sep|>\0" },
};
static const char eog_texts[] = "<|eot_id|>\0<|im_end|>\0<|end|>\0<|return|>\0<|call|>\0<|flush|>\0<|calls|>\0"
                                "<end_of_turn>\0<|endoftext|>\0</s>\0<|eom_id|>\0<EOT>\0_<EOT>\0[EOT]\0[EOS]\0"
                                "<|end_of_text|>\0<end_of_utterance>\0<eos>\0<turn|>\0<|tool_response>\0"
                                "<\xef\xbd\x9c" "end\xe2\x96\x81of\xe2\x96\x81sentence\xef\xbd\x9c>\0[e~[\0";

static int32_t first_of(wl_tokenizer *t, const char *list, bool make_control) {
    for (const char *p = list; *p; p += strlen(p) + 1) {
        int32_t id = wl_token_find(t, p, strlen(p));
        if (id >= 0) {
            if (make_control) t->type[id] = WL_TOKEN_CONTROL;
            return id;
        }
    }
    return -1;
}

void wl__tok_auto_special(wl_tokenizer *t, const bool fim_given[6]) {
    if (t->sp.eot < 0) t->sp.eot = first_of(t, eot_texts, true);
    if (t->sp.eom < 0) t->sp.eom = first_of(t, eom_texts, true);
    for (int i = 0; i < 6; i++)
        if (!fim_given || !fim_given[i]) (void)first_of(t, fim_texts[i][1], true);
    for (const char *p = eog_texts; *p; p += strlen(p) + 1) {
        int32_t id = wl_token_find(t, p, strlen(p));
        if (id >= 0) t->type[id] = WL_TOKEN_CONTROL;
    }
}

static wl_status gguf_array(const wl_model *m, const char *key, bool need, const wl_value **out, wl_error *err) {
    const wl_value *v = wl_model_find(m, key);
    *out = NULL;
    if (!v) return need ? wl__fail(err, WL_STATUS_FORMAT, "tokenizer", "no %s in the file", key) : WL_OK;
    if (v->type != WL_VALUE_ARRAY)
        return wl__fail(err, WL_STATUS_FORMAT, "tokenizer", "%s is a %s, not an array", key, wl_value_type_name(v->type));
    *out = v;
    return WL_OK;
}

static void gguf_id(const wl_model *m, const char *key, uint32_t n, int32_t *id) {
    uint64_t v;
    if (wl_model_get_u64(m, key, &v) == WL_OK && v < n) *id = (int32_t)v;   /* else the default */
}

static void gguf_bool(const wl_model *m, const char *key, bool *b) {
    bool v;
    if (wl_model_get_bool(m, key, &v) == WL_OK) *b = v;
}

static wl_status load_gguf(wl_tokenizer *t, const wl_model *m, wl_error *err) {
    const char *model, *pre = NULL;
    size_t model_len, pre_len = 0;
    if (wl_model_get_str(m, "tokenizer.ggml.model", &model, &model_len) != WL_OK)
        return wl__fail(err, WL_STATUS_NOT_FOUND, "tokenizer", "the file has no tokenizer (no string tokenizer.ggml.model)");
    if (model_len == 4 && !memcmp(model, "gpt2", 4)) {
        t->kind = WL_VOCAB_BPE;
        if (wl_model_get_str(m, "tokenizer.ggml.pre", &pre, &pre_len) != WL_OK)
            return wl__fail(err, WL_STATUS_UNSUPPORTED, "tokenizer",
                            "no tokenizer.ggml.pre: llama.cpp's 'default' pre-tokenizer is not one wgc reads");
        size_t i = 0;
        for (; i < sizeof pre_names / sizeof pre_names[0]; i++)
            if (strlen(pre_names[i].name) == pre_len && !memcmp(pre_names[i].name, pre, pre_len)) break;
        if (i == sizeof pre_names / sizeof pre_names[0])
            return wl__fail(err, WL_STATUS_UNSUPPORTED, "tokenizer",
                            "tokenizer.ggml.pre '%.*s' is not a pre-tokenizer wgc knows (gpt-2, llama-bpe, qwen2, smollm, ...)",
                            (int)(pre_len > 64 ? 64 : pre_len), pre);
        t->pre = pre_names[i].pre;
        t->ignore_merges = pre_names[i].ignore_merges;
        t->sp.add_bos = pre_names[i].add_bos;
    } else if (model_len == 5 && !memcmp(model, "llama", 5)) {
        t->kind = WL_VOCAB_SPM;
        t->sp.add_bos = true;
        t->sp.add_space_prefix = true;
    } else {
        return wl__fail(err, WL_STATUS_UNSUPPORTED, "tokenizer",
                        "tokenizer.ggml.model '%.*s' is not a tokenizer wgc reads (gpt2, llama)",
                        (int)(model_len > 64 ? 64 : model_len), model);
    }
    const wl_value *tokens, *types, *scores, *merges;
    wl_status st;
    if ((st = gguf_array(m, "tokenizer.ggml.tokens", true, &tokens, err)) ||
        (st = gguf_array(m, "tokenizer.ggml.token_type", false, &types, err)) ||
        (st = gguf_array(m, "tokenizer.ggml.scores", false, &scores, err)) ||
        (st = gguf_array(m, "tokenizer.ggml.merges", t->kind == WL_VOCAB_BPE, &merges, err)))
        return st;
    if (tokens->elem_type != WL_VALUE_STRING || tokens->count == 0 || tokens->count > INT32_MAX / 4)
        return wl__fail(err, WL_STATUS_FORMAT, "tokenizer", "tokenizer.ggml.tokens must be 1..%d strings", INT32_MAX / 4);
    if (merges && (merges->elem_type != WL_VALUE_STRING || merges->count > INT32_MAX / 4))
        return wl__fail(err, WL_STATUS_FORMAT, "tokenizer", "tokenizer.ggml.merges must be strings");
    uint32_t n = (uint32_t)tokens->count, nm = merges ? (uint32_t)merges->count : 0;
    if (types && types->count < n)
        return wl__fail(err, WL_STATUS_FORMAT, "tokenizer", "tokenizer.ggml.token_type has %llu entries for %u tokens",
                        (unsigned long long)types->count, n);
    if (scores && scores->count < n)
        return wl__fail(err, WL_STATUS_FORMAT, "tokenizer", "tokenizer.ggml.scores has %llu entries for %u tokens",
                        (unsigned long long)scores->count, n);
    size_t pool = 0;
    for (uint32_t i = 0; i < n; i++) pool += (size_t)tokens->items[i].count;
    for (uint32_t i = 0; i < nm; i++) pool += 2 * (size_t)merges->items[i].count;
    if (wl__tok_init_strings(t, n + 3 * nm, pool) || wl__tok_init_merges(t, nm)) goto nomem;
    t->n_vocab = n;
    t->type = wl__tok_alloc(t, n);
    t->score = wl__tok_alloc(t, (size_t)n * sizeof *t->score);
    if (!t->type || !t->score) goto nomem;
    for (uint32_t i = 0; i < n; i++) {
        const wl_value *v = &tokens->items[i];
        bool dup = false;
        uint32_t id = v->count ? wl__tok_intern(t, v->data, (size_t)v->count, &dup) : i;
        if (dup)
            return wl__fail(err, WL_STATUS_FORMAT, "tokenizer", "token %u '%.*s' repeats token %u", i,
                            (int)(v->count > 64 ? 64 : v->count), (const char *)v->data, id);
        if (!v->count) {   /* an empty token: no string, never matched */
            if (t->n_str >= t->str_max) goto nomem;
            id = t->n_str++;
            t->str_off[id] = (uint32_t)t->pool_len;
            t->str_len[id] = 0;
        }
        if (id != i) goto nomem;
        int64_t ty = WL_TOKEN_NORMAL;
        wl_value e;
        if (types && (wl_value_at(types, i, &e) || wl_value_i64(&e, &ty)))
            return wl__fail(err, WL_STATUS_FORMAT, "tokenizer", "tokenizer.ggml.token_type[%u] is not an integer", i);
        t->type[i] = (uint8_t)(ty >= WL_TOKEN_NORMAL && ty < WL_TOKEN_TYPE_COUNT ? ty : WL_TOKEN_UNDEFINED);
        double sc = 0;
        if (scores && (wl_value_at(scores, i, &e) || wl_value_f64(&e, &sc)))
            return wl__fail(err, WL_STATUS_FORMAT, "tokenizer", "tokenizer.ggml.scores[%u] is not a number", i);
        t->score[i] = (float)sc;
    }
    for (uint32_t i = 0; i < nm; i++) {
        const wl_value *v = &merges->items[i];
        if (wl__tok_merge_line(t, v->count ? v->data : "", (size_t)v->count, i)) goto nomem;
    }
    if (t->kind == WL_VOCAB_SPM) t->sp.bos = 1, t->sp.eos = 2, t->sp.unk = 0;
    else t->sp.bos = 11, t->sp.eos = 11;   /* llama.cpp's defaults for gpt2 vocabularies */
    if (t->sp.bos >= (int32_t)n) t->sp.bos = -1;
    if (t->sp.eos >= (int32_t)n) t->sp.eos = -1;
    if (t->sp.unk >= (int32_t)n) t->sp.unk = -1;
    gguf_id(m, "tokenizer.ggml.bos_token_id", n, &t->sp.bos);
    gguf_id(m, "tokenizer.ggml.eos_token_id", n, &t->sp.eos);
    gguf_id(m, "tokenizer.ggml.eot_token_id", n, &t->sp.eot);
    gguf_id(m, "tokenizer.ggml.eom_token_id", n, &t->sp.eom);
    gguf_id(m, "tokenizer.ggml.unknown_token_id", n, &t->sp.unk);
    gguf_id(m, "tokenizer.ggml.seperator_token_id", n, &t->sp.sep);
    gguf_id(m, "tokenizer.ggml.padding_token_id", n, &t->sp.pad);
    gguf_bool(m, "tokenizer.ggml.add_bos_token", &t->sp.add_bos);
    gguf_bool(m, "tokenizer.ggml.add_eos_token", &t->sp.add_eos);
    gguf_bool(m, "tokenizer.ggml.add_space_prefix", &t->sp.add_space_prefix);
    if (t->kind != WL_VOCAB_SPM) t->sp.add_space_prefix = false;   /* byte-level BPE never adds one */
    bool fim_given[6];
    static const char *const old_keys[6] = { "tokenizer.ggml.prefix_token_id", "tokenizer.ggml.suffix_token_id",
                                             "tokenizer.ggml.middle_token_id", NULL, NULL, NULL };
    for (int i = 0; i < 6; i++) {
        int32_t id = -1;
        gguf_id(m, fim_texts[i][0], n, &id);
        if (old_keys[i]) gguf_id(m, old_keys[i], n, &id);
        fim_given[i] = id >= 0;
    }
    wl__tok_auto_special(t, fim_given);
    return WL_OK;
nomem:
    return wl__fail(err, WL_STATUS_OUT_OF_MEMORY, "tokenizer", "out of memory");
}

wl_tokenizer *wl_tokenizer_open(const struct wl_model *m, const wl_allocator *alloc, wl_error *err) {
    wl_error local;
    if (!err) err = &local;
    memset(err, 0, sizeof *err);
    if (!m) {
        wl__fail(err, WL_STATUS_INVALID_ARGUMENT, "wl_tokenizer_open", "NULL model");
        return NULL;
    }
    wl_tokenizer *t = wl__tok_new(alloc);
    if (!t) {
        wl__fail(err, WL_STATUS_OUT_OF_MEMORY, "tokenizer", "out of memory");
        return NULL;
    }
    wl_status s;
    if (wl_model_format(m) == WL_FORMAT_SAFETENSORS) {
        const char *path = wl_model_file_path(m, 0);
        size_t dl = strlen(path);
        while (dl && path[dl - 1] != '/') dl--;
        char dir[4096];
        if (!*path || dl >= sizeof dir) {
            s = wl__fail(err, WL_STATUS_NOT_FOUND, "tokenizer", "no tokenizer.json: the model has no file path");
        } else {
            if (dl > 1) dl--;   /* the '/' */
            memcpy(dir, path, dl);
            dir[dl] = 0;
            s = wl__tok_load_json(t, dl ? dir : ".", err);
        }
    } else {
        s = load_gguf(t, m, err);
    }
    if (!s && wl__tok_finish(t)) s = wl__fail(err, WL_STATUS_OUT_OF_MEMORY, "tokenizer", "out of memory");
    if (s) {
        wl_tokenizer_close(t);
        return NULL;
    }
    return t;
}
