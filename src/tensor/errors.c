/* errors.c - the context's error state: a status from WT_ERRORS and a "<op>: <detail>" message,
 * set by wt_fail / wt_failst and kept until wt_clear_error (a later success does not clear it),
 * saved and restored around work whose own errors are not the caller's (the tuner's timing). */
#include <stdio.h>
#include <string.h>

#include "tensor/internal.h"

static const char *const status_names[] = {
#define X(name, summary) "WT_STATUS_" #name,
    WT_ERRORS(X)
#undef X
};
static const char *const status_summaries[] = {
#define X(name, summary) summary,
    WT_ERRORS(X)
#undef X
};
_Static_assert(sizeof status_names / sizeof *status_names == WT_STATUS_COUNT, "one name per status");

const char *wt_status_name(wt_status s) {
    return (unsigned)s < WT_STATUS_COUNT ? status_names[s] : "WT_STATUS_?";
}

static void vset(wt_context *ctx, wt_status st, const char *op, const char *fmt, va_list ap) {
    ctx->status = st;
    int n = snprintf(ctx->message, sizeof ctx->message, "%s: ", op ? op : "wt");
    if (n < 0 || (size_t)n >= sizeof ctx->message)
        return;
    if (fmt && *fmt)
        vsnprintf(ctx->message + n, sizeof ctx->message - (size_t)n, fmt, ap);
    else
        snprintf(ctx->message + n, sizeof ctx->message - (size_t)n, "%s", status_summaries[st]);
}

void *wt_fail(wt_context *ctx, wt_status st, const char *op, const char *fmt, ...) {
    if (!ctx)
        return NULL;
    va_list ap;
    va_start(ap, fmt);
    vset(ctx, st, op, fmt, ap);
    va_end(ap);
    return NULL;
}

wt_status wt_failst(wt_context *ctx, wt_status st, const char *op, const char *fmt, ...) {
    if (!ctx)
        return st;
    va_list ap;
    va_start(ap, fmt);
    vset(ctx, st, op, fmt, ap);
    va_end(ap);
    return st;
}

wt_status wt_last_status(const wt_context *ctx) {
    return ctx ? ctx->status : WT_STATUS_INVALID_ARGUMENT;
}

const char *wt_last_error(const wt_context *ctx) {
    return ctx ? ctx->message : "wt: NULL context";
}

void wt_error_save(const wt_context *ctx, wt_error_state *es) {
    es->status = ctx->status;
    memcpy(es->message, ctx->message, sizeof es->message);
}

void wt_error_restore(wt_context *ctx, const wt_error_state *es) {
    ctx->status = es->status;
    memcpy(ctx->message, es->message, sizeof ctx->message);
}

void wt_clear_error(wt_context *ctx) {
    if (ctx) {
        ctx->status = WT_OK;
        ctx->message[0] = 0;
    }
}

const char *wt_shape_str(char *buf, size_t size, int ndim, const int64_t *shape) {
    size_t n = 0;
    buf[0] = 0;
    n += (size_t)snprintf(buf + n, size - n, "[");
    for (int i = 0; i < ndim && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%lld", i ? ", " : "", (long long)shape[i]);
    if (n < size)
        snprintf(buf + n, size - n, "]");
    return buf;
}

