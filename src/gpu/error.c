/* error.c - the error table, error scopes, the uncaptured-error path, and the small shared
 * helpers every object uses (allocator hook, object header, argument checks).
 *
 * WG_ERRORS in gpu.h is the one table of numbered errors; the names and summaries here are
 * generated from it.  A reported error goes to the innermost scope whose filter matches its
 * type (only the first error per scope is kept), else to the device's uncaptured-error callback.
 * Once a device is lost, errors are dropped (the WebGPU rule): calls still fail, silently. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

#include "gpu/internal.h"

static const struct { const char *name, *summary; wg_error_type type; } error_table[] = {
#define X(name, type, summary) { "WG_ERR_" #name, summary, WG_ERROR_TYPE_##type },
    WG_ERRORS(X)
#undef X
};
static_assert(sizeof error_table / sizeof error_table[0] == WG_ERR_COUNT, "error table out of sync");

static const char *const type_names[] = {
#define X(name, str) str,
    WG_ERROR_TYPES(X)
#undef X
};
static_assert(sizeof type_names / sizeof type_names[0] == WG_ERROR_TYPE_COUNT, "error types out of sync");

const char *wg_error_id_name(wg_error_id id) {
    return (unsigned)id < WG_ERR_COUNT ? error_table[id].name : "WG_ERR_?";
}
const char *wg_error_id_summary(wg_error_id id) {
    return (unsigned)id < WG_ERR_COUNT ? error_table[id].summary : "unknown error";
}
wg_error_type wg_error_id_type(wg_error_id id) {
    return (unsigned)id < WG_ERR_COUNT ? error_table[id].type : WG_ERROR_TYPE_INTERNAL;
}
const char *wg_error_type_name(wg_error_type t) {
    return (unsigned)t < WG_ERROR_TYPE_COUNT ? type_names[t] : "?";
}

static void error_vfill(wg_error *e, wg_error_id id, const char *fmt, va_list ap) {
    e->id = id;
    e->type = wg_error_id_type(id);
    int n = snprintf(e->message, sizeof e->message, "%s", wg_error_id_summary(id));
    if (fmt && *fmt && n > 0 && (size_t)n < sizeof e->message - 3) {
        memcpy(e->message + n, ": ", 3);
        vsnprintf(e->message + n + 2, sizeof e->message - (size_t)n - 2, fmt, ap);
    }
}

void wg__error_fill(wg_error *e, wg_error_id id, const char *fmt, ...) {
    if (!e)
        return;
    va_list ap;
    va_start(ap, fmt);
    error_vfill(e, id, fmt, ap);
    va_end(ap);
}

void wg__verr(wg_device *dev, wg_error_id id, const char *fmt, va_list ap) {
    if (!dev || dev->lost)
        return;
    wg_error_type t = wg_error_id_type(id);
    for (uint32_t i = dev->nscopes; i-- > 0;) {
        wg_scope *s = &dev->scopes[i];
        if (s->filter != t)
            continue;
        if (!s->caught) {
            s->caught = true;
            error_vfill(&s->err, id, fmt, ap);
        }
        return;
    }
    wg_error e;
    error_vfill(&e, id, fmt, ap);
    if (dev->uncaptured)
        dev->uncaptured(dev->uncaptured_user, &e);
    else
        fprintf(stderr, "wg: uncaptured %s error [%s] %s\n", wg_error_type_name(e.type), wg_error_id_name(id),
                e.message);
}

void wg__err(wg_device *dev, wg_error_id id, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    wg__verr(dev, id, fmt, ap);
    va_end(ap);
}

void wg_device_push_error_scope(wg_device *dev, wg_error_type filter) {
    if (!dev)
        return;
    if (filter <= WG_ERROR_TYPE_NONE || filter >= WG_ERROR_TYPE_COUNT) {
        wg__err(dev, WG_ERR_BAD_ENUM, "error scope filter %d", (int)filter);
        return;
    }
    if (dev->nscopes == WG_MAX_SCOPES) {
        wg__err(dev, WG_ERR_SCOPE_OVERFLOW, "at most %d scopes", WG_MAX_SCOPES);
        return;
    }
    wg_scope *s = &dev->scopes[dev->nscopes++];
    s->filter = filter;
    s->caught = false;
    s->err.id = WG_ERR_NONE;
    s->err.type = WG_ERROR_TYPE_NONE;
    s->err.message[0] = 0;
}

wg_error_id wg_device_pop_error_scope(wg_device *dev, wg_error *out) {
    if (!dev)
        return WG_ERR_NULL_OBJECT;
    if (dev->nscopes == 0) {
        if (out)
            wg__error_fill(out, WG_ERR_SCOPE_EMPTY, "device '%s'", dev->label);
        return WG_ERR_SCOPE_EMPTY;
    }
    wg_scope *s = &dev->scopes[--dev->nscopes];
    if (out) {
        if (s->caught)
            *out = s->err;
        else
            wg__error_fill(out, WG_ERR_NONE, NULL);
        if (!s->caught)
            out->type = WG_ERROR_TYPE_NONE;
    }
    return s->caught ? s->err.id : WG_ERR_NONE;
}

/* ---- allocator hook ---------------------------------------------------------------------- */
void *wg__alloc(const wg_allocator *a, size_t size) {
    if (size == 0)
        size = 1;
    return a && a->alloc ? a->alloc(a->user, size) : malloc(size);
}
void *wg__calloc(const wg_allocator *a, size_t size) {
    void *p = wg__alloc(a, size);
    if (p)
        memset(p, 0, size);
    return p;
}
void *wg__realloc(const wg_allocator *a, void *p, size_t size) {
    if (size == 0)
        size = 1;
    return a && a->realloc ? a->realloc(a->user, p, size) : realloc(p, size);
}
void wg__free(const wg_allocator *a, void *p) {
    if (!p)
        return;
    if (a && a->free)
        a->free(a->user, p);
    else
        free(p);
}
bool wg__grow(const wg_allocator *a, void **arr, size_t *cap, size_t n, size_t elem) {
    if (n <= *cap)
        return true;
    size_t nc = *cap ? *cap * 2 : 8;
    while (nc < n)
        nc *= 2;
    void *p = wg__realloc(a, *arr, nc * elem);
    if (!p)
        return false;
    *arr = p;
    *cap = nc;
    return true;
}

/* ---- object header ----------------------------------------------------------------------- */
static const char *const kind_names[] = {
    "object", "buffer", "shader module", "bind group layout", "pipeline layout", "compute pipeline",
    "bind group", "command encoder", "command buffer", "query set",
};
static_assert(sizeof kind_names / sizeof kind_names[0] == WG_OBJ_COUNT, "object kinds out of sync");

const char *wg__kind_name(wg_obj_kind k) {
    return (unsigned)k < WG_OBJ_COUNT ? kind_names[k] : "object";
}

const char *wg__label(const void *obj) {
    const wg_obj *o = obj;
    return o && o->label[0] ? o->label : "(unnamed)";
}

void *wg__obj_new(wg_device *dev, wg_obj_kind kind, size_t size, const char *label) {
    wg_obj *o;
    if (kind == WG_OBJ_BIND_GROUP && dev->nbg_pool) {  /* see wg__obj_release */
        o = dev->bg_pool[--dev->nbg_pool];
        memset(o, 0, size);
    } else if (kind == WG_OBJ_BUFFER && dev->nbuf_spare) {  /* see keep_released in device.c */
        o = dev->buf_spare[--dev->nbuf_spare];
        memset(o, 0, size);
    } else {
        o = wg__calloc(&dev->alloc, size);
    }
    if (!o) {
        wg__err(dev, WG_ERR_HOST_OOM, "creating %s '%s'", wg__kind_name(kind), label ? label : "");
        return NULL;
    }
    o->kind = kind;
    o->refs = 1;
    o->dev = dev;
    if (label) {  /* truncated copy (a plain loop: objects made per dispatch pass through here) */
        size_t i = 0;
        for (; i + 1 < sizeof o->label && label[i]; i++)
            o->label[i] = label[i];
        o->label[i] = 0;
    }
    wg__device_ref(dev);
    return o;
}

bool wg__check_obj(wg_device *dev, const void *obj, const char *what) {
    const wg_obj *o = obj;
    if (!o) {
        wg__err(dev, WG_ERR_NULL_OBJECT, "%s is NULL", what);
        return false;
    }
    if (o->kind == WG_OBJ_NONE) {  /* a released buffer (see keep_released in device.c) */
        wg__err(dev, WG_ERR_OBJECT_RELEASED, "%s '%s' was already released", what, wg__label(o));
        return false;
    }
    if (o->dev != dev) {
        wg__err(dev, WG_ERR_WRONG_DEVICE, "%s '%s'", what, wg__label(o));
        return false;
    }
    if (o->invalid) {
        wg__err(dev, WG_ERR_INVALID_OBJECT, "%s '%s' is invalid", what, wg__label(o));
        return false;
    }
    return true;
}
