/* test_stop.c - the stop-string matcher (src/llm/stop.c) against a plain reference.
 *
 * The reference works on whole texts: generation stops at the first piece after which the text
 * so far contains a string; the stop point is the earliest position where one occurs in that text
 * (the lower index on a tie), the shown text everything before it.  Random texts over a small
 * alphabet (so strings and their prefixes recur, overlap and straddle pieces) are cut into random
 * pieces and pushed through a wl_stop; after every push: what was written so far is a prefix of
 * the reference's shown text (a stream never shows a byte that a later match takes back), it is
 * all of the text but the longest tail that is a proper prefix of a string (nothing is held longer
 * than needed), and a match is reported at the first push whose text contains one.  At the end
 * the written text equals the reference's.  Then fixed cases (a string
 * split over tokens, the held tail flushed, multi-byte UTF-8 strings) and bad arguments. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "wgc/llm.h"

static uint64_t rng = 0x1234567;
static uint32_t rnd(uint32_t n) {
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng >> 33) % n;
}

/* The earliest position where a string occurs in t[0..len), or len; *which its index or -1. */
static size_t ref_stop(const char *t, size_t len, char **s, size_t n, int *which) {
    *which = -1;
    for (size_t i = 0; i < len; i++)
        for (size_t k = 0; k < n; k++) {
            size_t l = strlen(s[k]);
            if (i + l <= len && !memcmp(t + i, s[k], l)) {
                *which = (int)k;
                return i;
            }
        }
    return len;
}

/* The longest tail of t[0..len) that is a proper prefix of a string. */
static size_t ref_hold(const char *t, size_t len, char **s, size_t n) {
    for (size_t i = 0; i < len; i++)
        for (size_t k = 0; k < n; k++) {
            size_t l = strlen(s[k]);
            if (len - i < l && !memcmp(t + i, s[k], len - i))
                return len - i;
        }
    return 0;
}

static void random_case(int iter) {
    char *strs[4], text[200];
    size_t n = 1 + rnd(4);
    const char *alpha = iter % 2 ? "ab" : "abc\n";
    size_t na = strlen(alpha);
    for (size_t k = 0; k < n; k++) {
        size_t l = 1 + rnd(5);
        strs[k] = calloc(l + 1, 1);
        for (size_t j = 0; j < l; j++)
            strs[k][j] = alpha[rnd((uint32_t)na)];
    }
    size_t len = rnd(sizeof text), cuts[sizeof text + 1], ncuts = 0;
    for (size_t i = 0; i < len; i++)
        text[i] = alpha[rnd((uint32_t)na)];
    for (size_t at = 0; at < len; ncuts++) {   /* piece ends */
        at += 1 + rnd(6);
        cuts[ncuts] = at = at > len ? len : at;
    }
    int want_which = -1;
    size_t want = len;
    for (size_t c = 0; c < ncuts && want_which < 0; c++) {
        size_t p = ref_stop(text, cuts[c], strs, n, &want_which);
        want = want_which >= 0 ? p : len;
    }
    wl_error err;
    wl_stop *st = wl_stop_create((const char *const *)strs, NULL, n, &err);
    CHECKF(st != NULL, "%s", err.message);
    if (!st)
        return;
    char shown[256], out[256];
    size_t nshown = 0, pos = 0;
    int which = -1;
    bool ok = true;
    for (size_t c = 0; c < ncuts && which < 0 && ok; c++) {
        size_t piece = cuts[c] - pos, k;
        ok = wl_stop_push(st, text + pos, piece, out, wl_stop_cap(st, piece), &k, &which) == WL_OK;
        pos += piece;
        memcpy(shown + nshown, out, k);
        nshown += k;
        int w2;
        size_t first = ref_stop(text, pos, strs, n, &w2);   /* the reference on the text so far */
        ok = ok && nshown <= want && !memcmp(shown, text, nshown);
        ok = ok && which == w2 && (which >= 0 ? nshown == first : nshown == pos - ref_hold(text, pos, strs, n));
    }
    CHECKF(ok, "iteration %d: push at %zu (shown %zu, want %zu)", iter, pos, nshown, want);
    size_t k;
    CHECK(wl_stop_flush(st, out, wl_stop_cap(st, 0), &k) == WL_OK);
    memcpy(shown + nshown, out, k);
    nshown += k;
    CHECKF(nshown == want && !memcmp(shown, text, want) && which == want_which,
           "iteration %d: %zu bytes shown, want %zu; string %d, want %d", iter, nshown, want, which, want_which);
    wl_stop_release(st);
    for (size_t i = 0; i < n; i++)
        free(strs[i]);
}

/* Pushes pieces (NULL-ended) and returns what was shown (static), the match in *which. */
static const char *stream(wl_stop *st, const char *const *pieces, int *which, bool flush) {
    static char shown[512];
    char out[512];
    size_t n = 0, k;
    *which = -1;
    for (int i = 0; pieces[i]; i++) {
        CHECK(wl_stop_push(st, pieces[i], strlen(pieces[i]), out, sizeof out, &k, which) == WL_OK);
        memcpy(shown + n, out, k);
        n += k;
    }
    if (flush) {
        CHECK(wl_stop_flush(st, out, sizeof out, &k) == WL_OK);
        memcpy(shown + n, out, k);
        n += k;
    }
    shown[n] = 0;
    return shown;
}

int main(void) {
    for (int i = 0; i < 3000; i++)
        random_case(i);

    wl_error err;
    wl_stop *st = wl_stop_create((const char *const[]){ "<|im_end|>", "\nUser:" }, NULL, 2, &err);
    CHECK(st != NULL);
    int w;
    char out[64];
    size_t k;
    /* a string split over tokens: nothing of it shows, the text before it does */
    CHECK(wl_stop_push(st, "Hi<|im", 6, out, sizeof out, &k, &w) == WL_OK && k == 2 && !memcmp(out, "Hi", 2) && w < 0);
    CHECK(wl_stop_push(st, "_en", 3, out, sizeof out, &k, &w) == WL_OK && k == 0 && w < 0);
    CHECK(wl_stop_push(st, "d|> after", 9, out, sizeof out, &k, &w) == WL_OK && k == 0 && w == 0);
    CHECK(wl_stop_matched(st) == 0);
    CHECK(wl_stop_push(st, "more", 4, out, sizeof out, &k, &w) == WL_OK && k == 0 && w == 0);   /* over */
    CHECK(wl_stop_flush(st, out, sizeof out, &k) == WL_OK && k == 0 && wl_stop_matched(st) == -1);
    /* a held prefix that does not complete comes out, at the next push or the flush */
    CHECK_STR(stream(st, (const char *const[]){ "a <|im", "_start|>", NULL }, &w, true), "a <|im_start|>");
    CHECK(w == -1);
    CHECK_STR(stream(st, (const char *const[]){ "x\nUs", NULL }, &w, true), "x\nUs");
    CHECK_STR(stream(st, (const char *const[]){ "one\n", "Use", "r: two", NULL }, &w, true), "one");
    CHECK(w == 1);
    /* the earliest match wins, whatever the order of the strings */
    CHECK_STR(stream(st, (const char *const[]){ "p\nUser:<|im_end|>", NULL }, &w, true), "p");
    CHECK(w == 1);
    wl_stop_release(st);
    /* strings with NUL and multi-byte UTF-8, given lengths */
    st = wl_stop_create((const char *const[]){ "\xe4\xb8\x96", "a\0b" }, (const size_t[]){ 3, 3 }, 2, &err);
    CHECK(st != NULL);
    CHECK_STR(stream(st, (const char *const[]){ "\xe4\xbd\xa0\xe5\xa5\xbd\xe4", "\xb8", "\x96\xe7\x95\x8c", NULL }, &w,
                     true),
              "\xe4\xbd\xa0\xe5\xa5\xbd");
    CHECK(w == 0);
    wl_stop_reset(st);
    CHECK(wl_stop_push(st, "xa\0b", 4, out, sizeof out, &k, &w) == WL_OK && k == 1 && w == 1);
    CHECK(wl_stop_cap(st, 10) == 12);
    /* the cap is checked before anything happens */
    wl_stop_reset(st);
    CHECK(wl_stop_push(st, "abc", 3, out, 4, &k, &w) == WL_STATUS_INVALID_ARGUMENT && k == 0);
    CHECK(wl_stop_push(st, "abc", 3, out, 5, &k, &w) == WL_OK && k == 3);
    wl_stop_release(st);
    /* no strings: everything passes */
    st = wl_stop_create(NULL, NULL, 0, &err);
    CHECK(st != NULL);
    CHECK_STR(stream(st, (const char *const[]){ "free ", "text", NULL }, &w, false), "free text");
    wl_stop_release(st);
    /* bad arguments */
    CHECK(wl_stop_create((const char *const[]){ "" }, NULL, 1, &err) == NULL && err.status == WL_STATUS_INVALID_ARGUMENT);
    CHECK(strstr(err.message, "empty") != NULL);
    CHECK(wl_stop_create((const char *const[]){ NULL }, NULL, 1, &err) == NULL);
    CHECK(wl_stop_create(NULL, NULL, 2, &err) == NULL);
    CHECK(wl_stop_push(NULL, "a", 1, out, sizeof out, &k, &w) == WL_STATUS_INVALID_ARGUMENT);
    wl_stop_release(NULL);
    return test_end();
}
