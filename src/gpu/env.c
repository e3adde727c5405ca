/* env.c - wg_config_from_env, the one place the runtime reads WGC_* variables.  The library itself
 * takes every setting from descriptor fields; programs (the wgc CLI and its benchmarks, the tests,
 * python/wgc) call this to map the variables onto those fields before creating the instance,
 * adapter and device.
 *
 * One row per variable below: its name, the descriptor and field it fills, and how its value is
 * read (a string copied into the caller's wg_env_strings, a number, or one of a list of words).
 * A field the program already set is left alone; an unset or empty variable changes nothing; a
 * value that cannot be honoured is an error naming the variable, never ignored. */
#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/internal.h"

typedef struct env_word {
    const char *word;
    int value;
} env_word;

static const env_word validation_words[] = { { "1", 1 }, { "0", -1 }, { NULL, 0 } };
static const env_word copy_words[] = { { "shader", WG_COPY_ENGINE_SHADER }, { "transfer", WG_COPY_ENGINE_TRANSFER },
                                       { NULL, 0 } };
static const env_word unmapped_words[] = { { "1", WG_DEVICE_MEMORY_UNMAPPED }, { "0", WG_DEVICE_MEMORY_DEFAULT },
                                           { NULL, 0 } };

typedef enum env_target { IN_INSTANCE, IN_ADAPTER, IN_DEVICE } env_target;
typedef enum env_kind {
    ENV_STRING,        /* const char * field, pointed at the copy in wg_env_strings */
    ENV_STRING_NULL,   /* the same, but "" in the field is a setting (cache_dir: none) */
    ENV_U32,           /* uint32_t field, a decimal number */
    ENV_ENUM,          /* int-sized field, one of `words` */
} env_kind;

typedef struct env_var {
    const char *name;
    env_target target;
    size_t field;                  /* offset of the field in its descriptor */
    env_kind kind;
    size_t store, cap;             /* strings: offset and size of the buffer in wg_env_strings */
    const env_word *words;         /* ENV_ENUM */
} env_var;

#define STORE(f) offsetof(wg_env_strings, f), sizeof(((wg_env_strings *)0)->f)
static const env_var env_vars[] = {
    { "WGC_VULKAN_LIB", IN_INSTANCE, offsetof(wg_instance_desc, vulkan_library), ENV_STRING, STORE(vulkan_library),
      NULL },
    { "WGC_VALIDATION", IN_INSTANCE, offsetof(wg_instance_desc, validation), ENV_ENUM, 0, 0, validation_words },
    { "WGC_ADAPTER", IN_ADAPTER, offsetof(wg_adapter_options, select), ENV_STRING, STORE(adapter), NULL },
    { "WGC_LOST_TIMEOUT_MS", IN_DEVICE, offsetof(wg_device_desc, lost_timeout_ms), ENV_U32, 0, 0, NULL },
    { "WGC_CACHE_DIR", IN_DEVICE, offsetof(wg_device_desc, cache_dir), ENV_STRING_NULL, STORE(cache_dir), NULL },
    { "WGC_COPY", IN_DEVICE, offsetof(wg_device_desc, copy_engine), ENV_ENUM, 0, 0, copy_words },
    { "WGC_DEBUG_UNMAPPED", IN_DEVICE, offsetof(wg_device_desc, device_memory), ENV_ENUM, 0, 0, unmapped_words },
};
#undef STORE
static_assert(sizeof env_vars / sizeof env_vars[0] == 7, "a WGC_* variable: update gpu.h's table and doc/gpu.md");
static_assert(sizeof(wg_copy_engine) == sizeof(int) && sizeof(wg_device_memory) == sizeof(int), "enum fields");

/* Records the first error only: the other variables are still mapped after a bad one. */
static bool bad(wg_error *err, const char *name, const char *value, const char *want) {
    if (err && err->type == WG_ERROR_TYPE_NONE)
        wg__error_fill(err, WG_ERR_ENV_VALUE, "%s='%.200s': %s", name, value, want);
    return false;
}

/* Maps one variable's value onto the field at `field` (unset there, checked by the caller). */
static bool env_map(const env_var *v, const char *val, char *field, wg_env_strings *s, wg_error *err) {
    if (!val || !*val)
        return true;
    char want[96];
    switch (v->kind) {
    case ENV_STRING:
    case ENV_STRING_NULL: {
        size_t n = strlen(val);
        if (n >= v->cap) {
            snprintf(want, sizeof want, "longer than %zu bytes", v->cap - 1);
            return bad(err, v->name, val, want);
        }
        char *copy = (char *)s + v->store;
        memcpy(copy, val, n + 1);
        const char *p = copy;
        memcpy(field, &p, sizeof p);
        return true;
    }
    case ENV_U32: {
        char *end;
        errno = 0;
        unsigned long long x = strtoull(val, &end, 10);
        if (*val < '0' || *val > '9' || *end || errno || x > UINT32_MAX)
            return bad(err, v->name, val, "want a decimal number below 2^32");
        uint32_t u = (uint32_t)x;
        memcpy(field, &u, sizeof u);
        return true;
    }
    case ENV_ENUM:
        snprintf(want, sizeof want, "want");
        for (const env_word *w = v->words; w->word; w++) {
            if (!strcmp(val, w->word)) {
                memcpy(field, &w->value, sizeof w->value);
                return true;
            }
            snprintf(want + strlen(want), sizeof want - strlen(want), "%s %s", w == v->words ? "" : " or", w->word);
        }
        return bad(err, v->name, val, want);
    }
    return true;
}

/* Whether the field still holds its default, so the variable may fill it. */
static bool unset(const env_var *v, const char *field) {
    const char *p;
    int i;
    uint32_t u;
    switch (v->kind) {
    case ENV_STRING:
        memcpy(&p, field, sizeof p);
        return !p || !*p;
    case ENV_STRING_NULL:
        memcpy(&p, field, sizeof p);
        return !p;
    case ENV_U32:
        memcpy(&u, field, sizeof u);
        return !u;
    case ENV_ENUM:
        memcpy(&i, field, sizeof i);
        return !i;
    }
    return false;
}

bool wg_config_from_env(wg_env_strings *s, wg_instance_desc *inst, wg_adapter_options *adapter, wg_device_desc *dev,
                        wg_error *err) {
    if (err)
        wg__error_fill(err, WG_ERR_NONE, NULL), err->type = WG_ERROR_TYPE_NONE;
    if (!s && (inst || adapter || dev)) {
        wg__error_fill(err, WG_ERR_NULL_OBJECT, "wg_config_from_env: strings is NULL");
        return false;
    }
    char *const targets[] = { [IN_INSTANCE] = (char *)inst, [IN_ADAPTER] = (char *)adapter, [IN_DEVICE] = (char *)dev };
    bool ok = true;
    for (size_t i = 0; i < sizeof env_vars / sizeof env_vars[0]; i++) {
        const env_var *v = &env_vars[i];
        char *desc = targets[v->target];
        if (desc && unset(v, desc + v->field) && !env_map(v, getenv(v->name), desc + v->field, s, err))
            ok = false;
    }
    /* no cache directory yet: the usual per-user one, $XDG_CACHE_HOME/wgc, else ~/.cache/wgc */
    if (dev && !dev->cache_dir) {
        const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
        int n = x && *x ? snprintf(s->cache_dir, sizeof s->cache_dir, "%s/wgc", x)
              : h && *h ? snprintf(s->cache_dir, sizeof s->cache_dir, "%s/.cache/wgc", h) : -1;
        if (n > 0 && (size_t)n < sizeof s->cache_dir)
            dev->cache_dir = s->cache_dir;
    }
    return ok;
}
