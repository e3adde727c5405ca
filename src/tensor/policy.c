/* policy.c - the wt policy: every setting that changes what the library runs (batching, fusion,
 * kernel choice, tensor-core use, tuning), as one struct whose zero fields are the defaults.
 *
 * A context keeps a validated copy (wt_context.pol, strings copied into the context) and the
 * values derived from it (batch limits); ops read only that copy.  The library reads no
 * environment: wt_policy_from_env is the one place that maps WGC_* variables onto the struct,
 * and only programs call it (the CLI, bench, the tests).  The table below is that mapping;
 * doc/tensor.md's settings table repeats it with each default's measurement. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensor/internal.h"

typedef enum { P_U32, P_MB, P_DOUBLE, P_TOGGLE, P_TUNE, P_STRING } ptype;

/* X(variable, field, type, lo, hi): the WGC_* variable of each field; integers within [lo, hi] */
#define POLICY_ENV(X)                                                           \
    X("WGC_BATCH_OPS", max_batch_ops, P_U32, 1, 65536)                          \
    X("WGC_EARLY_OPS", early_ops, P_U32, 1, 65536)                              \
    X("WGC_BATCH_RAMP", batch_ramp, P_TOGGLE, 0, 0)                             \
    X("WGC_BATCH_MB", batch_bytes, P_MB, 1, 1 << 20)                            \
    X("WGC_FUSION", fusion, P_TOGGLE, 0, 0)                                     \
    X("WGC_EW_VPT", ew_vec4_per_thread, P_U32, 1, 4)                            \
    X("WGC_MATMUL_KERNEL", matmul_kernel, P_STRING, 0, 0)                       \
    X("WGC_MATMUL_WGM", matmul_workgroup_matrix, P_TOGGLE, 0, 0)                \
    X("WGC_MM_PAD", matmul_pad, P_TOGGLE, 0, 0)                                 \
    X("WGC_ATTENTION_KERNEL", attention_kernel, P_STRING, 0, 0)                 \
    X("WGC_WINOGRAD_CHUNK_MB", winograd_chunk_bytes, P_MB, 1, 1 << 20)          \
    X("WGC_TUNE", tune, P_TUNE, 0, 0)                                           \
    X("WGC_TUNE_BUDGET_MS", tune_budget_ms, P_U32, 1, 3600000)                  \
    X("WGC_TUNE_MIN_FLOP", tune_min_flop, P_DOUBLE, 0, 0)                       \
    X("WGC_CACHE_DIR", cache_dir, P_STRING, 0, 0)                               \
    X("WGC_TUNE_FAULT", fault_tune_reject, P_STRING, 0, 0)

/* The words of the enum-valued variables (wt_toggle and wt_tune_mode are both int-sized enums). */
typedef struct word {
    const char *text;
    int value;
} word;
static const word toggle_words[] = { { "0", WT_OFF }, { "1", WT_ON }, { "on", WT_ON }, { "off", WT_OFF },
                                     { "auto", WT_AUTO }, { NULL, 0 } };
static const word tune_words[] = { { "0", WT_TUNE_OFF }, { "1", WT_TUNE_FIRST_USE }, { "off", WT_TUNE_OFF },
                                   { "first-use", WT_TUNE_FIRST_USE }, { "ahead", WT_TUNE_AHEAD }, { NULL, 0 } };
_Static_assert(sizeof(wt_toggle) == sizeof(int) && sizeof(wt_tune_mode) == sizeof(int), "int-sized enums");

static bool parse_word(const char *s, const word *w, int *out) {
    for (; w->text; w++)
        if (!strcmp(s, w->text)) {
            *out = w->value;
            return true;
        }
    return false;
}

/* "0, 1, on, off or auto" */
static void list_words(char *buf, size_t n, const word *w) {
    size_t k = 0;
    buf[0] = 0;
    for (const word *v = w; v->text && k < n; v++)
        k += (size_t)snprintf(buf + k, n - k, "%s%s", v == w ? "" : v[1].text ? ", " : " or ", v->text);
}

static bool parse_int(const char *s, uint64_t lo, uint64_t hi, uint64_t *out) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end || *s == '-' || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* One variable onto one field (only when the field is still zero); false on a malformed value. */
static bool env_field(const char *name, const char *s, void *field, ptype t, uint64_t lo, uint64_t hi, char *err,
                      size_t n) {
    if (!s || !*s)
        return true;
    uint64_t v = 0;
    bool ok = true;
    switch (t) {
    case P_U32:
        if (*(uint32_t *)field == 0 && (ok = parse_int(s, lo, hi, &v)))
            *(uint32_t *)field = (uint32_t)v;
        break;
    case P_MB:
        if (*(uint64_t *)field == 0 && (ok = parse_int(s, lo, hi, &v)))
            *(uint64_t *)field = v << 20;
        break;
    case P_DOUBLE:
        if (*(double *)field == 0) {
            char *end;
            double d = strtod(s, &end);
            ok = end != s && !*end && d >= 0 && d < 1e30;
            if (ok)
                *(double *)field = d;
        }
        break;
    case P_TOGGLE:
    case P_TUNE:            /* WT_AUTO and WT_TUNE_DEFAULT are 0 */
        if (*(int *)field == 0)
            ok = parse_word(s, t == P_TOGGLE ? toggle_words : tune_words, field);
        break;
    case P_STRING:
        if (!*(const char **)field)
            *(const char **)field = s;
        break;
    }
    if (!ok) {
        char words[96];
        if (t == P_TOGGLE || t == P_TUNE) {
            list_words(words, sizeof words, t == P_TOGGLE ? toggle_words : tune_words);
            snprintf(err, n, "%s=%s: expected %s", name, s, words);
        } else if (t == P_DOUBLE)
            snprintf(err, n, "%s=%s: expected a non-negative number", name, s);
        else
            snprintf(err, n, "%s=%s: expected an integer from %llu to %llu", name, s, (unsigned long long)lo,
                     (unsigned long long)hi);
    }
    return ok;
}

bool wt_policy_from_env(wt_policy *p, char *err, size_t err_size) {
    char dummy[8];
    if (!err || !err_size) {
        err = dummy;
        err_size = sizeof dummy;
    }
    err[0] = 0;
    if (!p) {
        snprintf(err, err_size, "wt_policy_from_env: policy is NULL");
        return false;
    }
#define X(var, field, type, lo, hi)                                                  \
    if (!env_field(var, getenv(var), &p->field, type, lo, hi, err, err_size))   \
        return false;
    POLICY_ENV(X)
#undef X
    wt_toggle slow = WT_AUTO;        /* WGC_WGM_GUARD_FAULT=1: fault_wgm_slow */
    if (!env_field("WGC_WGM_GUARD_FAULT", getenv("WGC_WGM_GUARD_FAULT"), &slow, P_TOGGLE, 0, 0, err, err_size))
        return false;
    p->fault_wgm_slow |= slow == WT_ON;
    return true;
}

static bool fits(wt_context *ctx, const char *op, const char *what, const char *s, size_t n) {
    if (s && strlen(s) >= n) {
        wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "policy %s: longer than %zu bytes", what, n - 1);
        return false;
    }
    return true;
}

wt_status wt_policy_apply(wt_context *ctx, const char *op, const wt_policy *in) {
    wt_policy p = in ? *in : (wt_policy){ 0 };
    if ((unsigned)p.batch_ramp >= WT_TOGGLE_COUNT || (unsigned)p.fusion >= WT_TOGGLE_COUNT ||
        (unsigned)p.matmul_workgroup_matrix >= WT_TOGGLE_COUNT || (unsigned)p.matmul_pad >= WT_TOGGLE_COUNT ||
        (unsigned)p.tune >= WT_TUNE_MODE_COUNT)
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "policy: a setting out of its enum's range");
    if (p.ew_vec4_per_thread != 0 && p.ew_vec4_per_thread != 1 && p.ew_vec4_per_thread != 2 &&
        p.ew_vec4_per_thread != 4)
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "policy ew_vec4_per_thread %u: 0, 1, 2 or 4",
                         p.ew_vec4_per_thread);
    if (p.max_batch_ops > 65536 || p.early_ops > 65536)
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "policy max_batch_ops / early_ops: at most 65536");
    if (!(p.tune_min_flop >= 0 && p.tune_min_flop < 1e30))
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "policy tune_min_flop: a non-negative number");
    if (p.matmul_kernel && !wt_matmul_kernel_known(p.matmul_kernel))
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "policy matmul_kernel '%s': no such kernel",
                         p.matmul_kernel);
    if (p.attention_kernel && !wt_attention_kernel_known(p.attention_kernel))
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "policy attention_kernel '%s': no such kernel",
                         p.attention_kernel);
    if (!fits(ctx, op, "cache_dir", p.cache_dir, sizeof ctx->pol_cache_dir) ||
        !fits(ctx, op, "matmul_kernel", p.matmul_kernel, sizeof ctx->pol_matmul_kernel) ||
        !fits(ctx, op, "fault_tune_reject", p.fault_tune_reject, sizeof ctx->pol_fault_tune) ||
        !fits(ctx, op, "attention_kernel", p.attention_kernel, sizeof ctx->pol_attention_kernel))
        return ctx->status;
    /* valid: commit */
    if (p.cache_dir && p.cache_dir != ctx->pol_cache_dir) {   /* not the context's own copy */
        snprintf(ctx->pol_cache_dir, sizeof ctx->pol_cache_dir, "%s", p.cache_dir);
        p.cache_dir = ctx->pol_cache_dir;
    }
    if (p.matmul_kernel && p.matmul_kernel != ctx->pol_matmul_kernel) {   /* not the context's own copy */
        snprintf(ctx->pol_matmul_kernel, sizeof ctx->pol_matmul_kernel, "%s", p.matmul_kernel);
        p.matmul_kernel = ctx->pol_matmul_kernel;
    }
    if (p.attention_kernel && p.attention_kernel != ctx->pol_attention_kernel) {   /* not the context's own copy */
        snprintf(ctx->pol_attention_kernel, sizeof ctx->pol_attention_kernel, "%s", p.attention_kernel);
        p.attention_kernel = ctx->pol_attention_kernel;
    }
    if (p.fault_tune_reject && p.fault_tune_reject != ctx->pol_fault_tune) {   /* not the context's own copy */
        snprintf(ctx->pol_fault_tune, sizeof ctx->pol_fault_tune, "%s", p.fault_tune_reject);
        p.fault_tune_reject = ctx->pol_fault_tune;
    }
    ctx->pol = p;
    ctx->max_batch = p.max_batch_ops ? p.max_batch_ops : 128;
    ctx->early = p.max_batch_ops == 0;
    ctx->early_ops = p.early_ops ? p.early_ops : 16;
    ctx->ramp_on = p.batch_ramp != WT_OFF;
    ctx->ramp = 0;
    /* default: 1 GiB, or 1/16 of the device-local heap when that is more (8.8 GB on the H200:
     * fewer submits in a chain of big ops; there 8 GiB measured unary x5 +2-3%, mul +3%) */
    wg_adapter *ad = wg_device_get_adapter(ctx->dev);
    const wg_adapter_info *ai = ad ? wg_adapter_get_info(ad) : NULL;
    uint64_t heap16 = ai ? ai->device_local_bytes / 16 : 0;
    ctx->batch_flush_bytes = p.batch_bytes ? p.batch_bytes : heap16 > WT_BATCH_BYTES ? heap16 : WT_BATCH_BYTES;
    ctx->no_fusion = p.fusion == WT_OFF;
    ctx->ew_vpt = p.ew_vec4_per_thread;
    return WT_OK;
}

wt_status wt_context_set_policy(wt_context *ctx, const wt_policy *policy) {
    const char *op = "wt_context_set_policy";
    if (!ctx)
        return WT_STATUS_INVALID_ARGUMENT;
    if (!policy)
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "policy is NULL");
    wt_status s = wt_batch_flush(ctx, op);
    return s != WT_OK ? s : wt_policy_apply(ctx, op, policy);
}

void wt_context_get_policy(const wt_context *ctx, wt_policy *out) {
    if (ctx && out)
        *out = ctx->pol;
}

void wt_context_set_fusion(wt_context *ctx, bool on) {
    if (ctx) {
        ctx->pol.fusion = on ? WT_AUTO : WT_OFF;
        ctx->no_fusion = !on;
    }
}
