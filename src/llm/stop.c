/* stop.c - stop strings over a stream of generated text (wl_stop), with the semantics of
 * llama.cpp's reverse prompts and its server's `stop`: generation ends once the text so far
 * contains one of the strings, and the string itself is never shown.
 *
 * The matcher keeps back the longest tail of the text that is a proper prefix of some stop
 * string (it may yet become one) and writes out everything before it; no text written can
 * therefore be part of a later match, and a match lies wholly in held + new text.  A push looks
 * for the match that starts first in held + new (the lowest index on a tie), writes what is
 * before it and reports it; from then on the stream is over.  Held bytes never exceed the
 * longest string's length - 1, so a push of len bytes writes at most len + that many. */
#include <stdlib.h>
#include <string.h>

#include "llm/llm.h"

struct wl_stop {
    size_t n;                 /* strings */
    char **s;
    size_t *len;
    size_t max_len;
    char *held;               /* max_len bytes */
    size_t nheld;
    int matched;              /* index of the string matched, -1 while none */
};

wl_stop *wl_stop_create(const char *const *strings, const size_t *lens, size_t n, wl_error *err) {
    if (err)
        *err = (wl_error){ 0 };
    if (n && !strings) {
        wl__fail(err, WL_STATUS_INVALID_ARGUMENT, "wl_stop_create", "%zu strings but the array is NULL", n);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        if (!strings[i] || (lens ? lens[i] : strlen(strings[i])) == 0) {
            wl__fail(err, WL_STATUS_INVALID_ARGUMENT, "wl_stop_create", "stop string %zu is %s", i,
                     strings[i] ? "empty" : "NULL");
            return NULL;
        }
    wl_stop *s = calloc(1, sizeof *s);
    if (s) {
        s->n = n;
        s->matched = -1;
        s->s = calloc(n ? n : 1, sizeof *s->s);
        s->len = calloc(n ? n : 1, sizeof *s->len);
    }
    for (size_t i = 0; s && s->s && s->len && i < n; i++) {
        size_t l = lens ? lens[i] : strlen(strings[i]);
        if (!(s->s[i] = malloc(l)))
            break;
        memcpy(s->s[i], strings[i], l);
        s->len[i] = l;
        s->max_len = l > s->max_len ? l : s->max_len;
    }
    if (s && s->s && s->len && (n == 0 || s->s[n - 1]))
        s->held = malloc(s->max_len ? s->max_len : 1);
    if (!s || !s->held) {
        wl_stop_release(s);
        wl__fail(err, WL_STATUS_OUT_OF_MEMORY, "wl_stop_create", "no memory");
        return NULL;
    }
    return s;
}

void wl_stop_release(wl_stop *s) {
    if (!s)
        return;
    for (size_t i = 0; s->s && i < s->n; i++)
        free(s->s[i]);
    free(s->s);
    free(s->len);
    free(s->held);
    free(s);
}

void wl_stop_reset(wl_stop *s) {
    if (s) {
        s->nheld = 0;
        s->matched = -1;
    }
}

size_t wl_stop_cap(const wl_stop *s, size_t len) {
    return len + (s && s->max_len ? s->max_len - 1 : 0);
}

int wl_stop_matched(const wl_stop *s) {
    return s ? s->matched : -1;
}

/* Byte i of held + text. */
static inline char at(const wl_stop *s, const char *text, size_t i) {
    return i < s->nheld ? s->held[i] : text[i - s->nheld];
}

/* Whether string k occurs at i of held + text (total bytes); a prefix of it reaching the end when
 * partial is set. */
static bool occurs(const wl_stop *s, const char *text, size_t total, size_t k, size_t i, bool partial) {
    size_t l = s->len[k];
    if (i + l > total && !partial)
        return false;
    for (size_t j = 0; j < l && i + j < total; j++)
        if (at(s, text, i + j) != s->s[k][j])
            return false;
    return true;
}

wl_status wl_stop_push(wl_stop *s, const char *text, size_t len, char *out, size_t cap, size_t *n, int *which) {
    if (n)
        *n = 0;
    if (which)
        *which = s ? s->matched : -1;
    if (!s || !n || (len && !text) || (!out && cap) || cap < wl_stop_cap(s, len))
        return WL_STATUS_INVALID_ARGUMENT;
    if (s->matched >= 0)
        return WL_OK;
    size_t total = s->nheld + len, cut = total;   /* bytes written: [0, cut) */
    for (size_t i = 0; i < total && s->matched < 0; i++)
        for (size_t k = 0; k < s->n && s->matched < 0; k++)
            if (occurs(s, text, total, k, i, false)) {
                s->matched = (int)k;
                cut = i;
            }
    size_t keep = 0;   /* no match: the tail that may still begin one */
    for (size_t i = total > s->max_len ? total - s->max_len + 1 : 0; s->matched < 0 && i < total && !keep; i++)
        for (size_t k = 0; k < s->n && !keep; k++)
            if (total - i < s->len[k] && occurs(s, text, total, k, i, true))
                keep = total - i;
    if (s->matched < 0)
        cut = total - keep;
    for (size_t i = 0; i < cut; i++)
        out[i] = at(s, text, i);
    *n = cut;
    if (s->matched < 0) {
        if (cut >= s->nheld) {   /* the tail lies in text */
            memcpy(s->held, text + (cut - s->nheld), keep);
        } else {                 /* held's own tail, then all of text */
            memmove(s->held, s->held + cut, s->nheld - cut);
            memcpy(s->held + (s->nheld - cut), text, len);
        }
        s->nheld = keep;
    } else {
        s->nheld = 0;
    }
    if (which)
        *which = s->matched;
    return WL_OK;
}

wl_status wl_stop_flush(wl_stop *s, char *out, size_t cap, size_t *n) {
    if (n)
        *n = 0;
    if (!s || !n || (!out && cap) || cap < wl_stop_cap(s, 0))
        return WL_STATUS_INVALID_ARGUMENT;
    if (s->matched < 0) {
        memcpy(out, s->held, s->nheld);
        *n = s->nheld;
    }
    wl_stop_reset(s);
    return WL_OK;
}
