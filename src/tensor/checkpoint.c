/* checkpoint.c - training checkpoints as safetensors files: named tensors, the optimizer's state
 * and its step counts.
 *
 *   file   = u64 little-endian header_len, header (JSON, padded with spaces to a multiple of 8),
 *            data (each tensor's bytes in C order, little-endian, in header order, no gaps)
 *   header = { "__metadata__": { string: string }, name: { "dtype": D, "shape": [n, ...],
 *              "data_offsets": [begin, end] }, ... }      offsets relative to the data
 *
 * Saving reads every tensor back (one wait) and writes path.tmp, then renames it.  Loading reads
 * the whole file, parses the header with the small JSON reader below (objects, arrays, strings,
 * non-negative integers: what the format uses), checks every entry against what the caller
 * expects (names, dtypes, shapes, the optimizer's kind and state) before touching anything, and
 * only then uploads: the model's tensors are copied into place (wt_copy_into: recorded like an
 * op), the optimizer's state tensors are replaced and its step counts and learning rates set.
 * The optimizer's state is saved as "<param name>.<state name>", its counts as metadata. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensor/optim.h"

#define MAX_HEADER (100u << 20)   /* the format's own limit on header_len */

static const char *st_dtype(wt_dtype dt) {
    switch (dt) {
    case WT_F32: return "F32";
    case WT_F16: return "F16";
    case WT_I32: return "I32";
    case WT_U32: return "U32";
    case WT_BOOL: return "BOOL";
    default: return NULL;
    }
}

/* ---- a growable text buffer ---- */
typedef struct sbuf {
    wt_context *ctx;
    char *p;
    size_t len, cap;
    bool oom;
} sbuf;

static void sb_put(sbuf *b, const char *s, size_t n) {
    if (b->oom)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *q = wt_realloc(b->ctx, b->p, cap);
        if (!q) {
            b->oom = true;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = 0;
}

static void sb_str(sbuf *b, const char *s) {
    sb_put(b, s, strlen(s));
}

static void sb_fmt(sbuf *b, const char *fmt, ...) {
    char tmp[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0)
        sb_put(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* a JSON string literal */
static void sb_json(sbuf *b, const char *s) {
    sb_put(b, "\"", 1);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            char e[2] = { '\\', (char)c };
            sb_put(b, e, 2);
        } else if (c < 0x20) {
            sb_fmt(b, "\\u%04x", c);
        } else {
            sb_put(b, (const char *)&c, 1);
        }
    }
    sb_put(b, "\"", 1);
}

/* ---- the entries of a checkpoint: the caller's tensors and the optimizer's state ---- */
typedef struct entry {
    char name[256];
    wt_tensor *t;             /* save: what to write (a reference); load: the destination, or NULL */
    int param;                /* optimizer parameter index of a state entry, else -1 */
    int row;                  /* its state row */
    int ndim;
    int64_t shape[WT_MAX_DIMS];
    wt_dtype dtype;
    bool found;               /* load: present in the file */
    uint64_t begin, end;      /* load: data offsets */
} entry;

typedef struct plan {
    wt_context *ctx;
    entry *e;
    int n, cap;
    int *param_of;            /* optimizer parameter i -> index into the caller's list */
} plan;

static void plan_free(plan *pl) {
    for (int i = 0; i < pl->n; i++)
        wt_release(pl->e[i].t);
    wt_free(pl->ctx, pl->e);
    wt_free(pl->ctx, pl->param_of);
}

static entry *plan_add(plan *pl, const char *op) {
    if (pl->n == pl->cap) {
        int cap = pl->cap ? 2 * pl->cap : 32;
        entry *e = wt_realloc(pl->ctx, pl->e, (size_t)cap * sizeof *e);
        if (!e)
            return wt_fail(pl->ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "out of host memory");
        pl->e = e;
        pl->cap = cap;
    }
    entry *e = &pl->e[pl->n++];
    memset(e, 0, sizeof *e);
    e->param = -1;
    return e;
}

/* The caller's tensors and, with an optimizer, one entry per state row of every parameter (save:
 * those with state; load: all that the optimizer's kind and hyperparameters make). */
static wt_status plan_make(plan *pl, const char *op, const wt_named_tensor *ts, int n, wt_optimizer *opt,
                           bool save) {
    wt_context *ctx = pl->ctx;
    if (n < 0 || (n && !ts))
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "%d tensors and ts %s", n, ts ? "given" : "NULL");
    if (opt && opt->ctx != ctx)
        return wt_failst(ctx, WT_STATUS_WRONG_CONTEXT, op, "the optimizer belongs to another context");
    for (int i = 0; i < n; i++) {
        const char *nm = ts[i].name;
        if (!nm || !*nm || strlen(nm) >= 200 || !strcmp(nm, "__metadata__"))
            return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "tensor %d: name %s%s%s (1-199 bytes, not "
                             "__metadata__)", i, nm ? "'" : "", nm ? nm : "NULL", nm ? "'" : "");
        if (!ts[i].tensor)
            return wt_failst(ctx, WT_STATUS_NULL_TENSOR, op, "tensor '%s' is NULL", nm);
        if (!wt_check_tensor(ctx, op, ts[i].tensor))
            return ctx->status;
        if (!st_dtype(ts[i].tensor->dtype))
            return wt_failst(ctx, WT_STATUS_DTYPE, op, "tensor '%s': dtype %s", nm, wt_dtype_name(ts[i].tensor->dtype));
        for (int j = 0; j < i; j++)
            if (!strcmp(ts[j].name, nm))
                return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "name '%s' given twice", nm);
        entry *e = plan_add(pl, op);
        if (!e)
            return ctx->status;
        snprintf(e->name, sizeof e->name, "%s", nm);
        e->t = ts[i].tensor;
        wt_retain(e->t);
        e->ndim = e->t->ndim;
        memcpy(e->shape, e->t->shape, sizeof e->shape);
        e->dtype = e->t->dtype;
    }
    if (!opt)
        return WT_OK;
    pl->param_of = wt_alloc(ctx, (size_t)(opt->nparams ? opt->nparams : 1) * sizeof *pl->param_of);
    if (!pl->param_of)
        return wt_failst(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "out of host memory");
    for (int i = 0; i < opt->nparams; i++) {
        const wt_tensor *p = opt->ps[i].p;
        int k = -1;
        for (int j = 0; j < n && k < 0; j++)
            if (ts[j].tensor == p)
                k = j;
        if (k < 0) {
            char b[160];
            return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "optimizer parameter %d %s is not among the named "
                             "tensors", i, wt_shape_str(b, sizeof b, p->ndim, p->shape));
        }
        pl->param_of[i] = k;
        int rows = wt__optim_state_rows(opt, i);
        if (save && !opt->ps[i].state)
            continue;
        for (int r = 0; r < rows; r++) {
            entry *e = plan_add(pl, op);
            if (!e)
                return ctx->status;
            snprintf(e->name, sizeof e->name, "%s.%s", ts[k].name, wt__optim_state_name(opt, r));
            e->param = i;
            e->row = r;
            e->ndim = p->ndim;
            memcpy(e->shape, p->shape, sizeof e->shape);
            e->dtype = WT_F32;
            if (save && !(e->t = wt_optimizer_state(opt, i, wt__optim_state_name(opt, r))))
                return ctx->status != WT_OK ? ctx->status
                                            : wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "no state '%s'", e->name);
        }
    }
    /* a state name may not collide with a caller's name */
    for (int i = n; i < pl->n; i++)
        for (int j = 0; j < n; j++)
            if (!strcmp(pl->e[i].name, pl->e[j].name))
                return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "name '%s' is also an optimizer state's",
                                 pl->e[i].name);
    return WT_OK;
}

/* ---- save ---- */

wt_status wt_checkpoint_save(wt_context *ctx, const char *path, const wt_named_tensor *ts, int n, wt_optimizer *opt) {
    const char *op = "wt_checkpoint_save";
    if (!ctx)
        return WT_STATUS_INVALID_ARGUMENT;
    if (!path)
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "path is NULL");
    plan pl = { ctx, NULL, 0, 0, NULL };
    wt_status st = plan_make(&pl, op, ts, n, opt, true);
    sbuf h = { ctx, NULL, 0, 0, false };
    unsigned char *data = NULL;
    if (st != WT_OK)
        goto done;
    sb_str(&h, "{\"__metadata__\":{\"format\":\"pt\"");
    if (opt) {
        sb_fmt(&h, ",\"wt.optimizer\":\"%s\",\"wt.steps\":\"%" PRId64 "\"", wt__optim_kind_name(opt->kind), opt->steps);
        for (int g = 0; g < opt->ngroups; g++)
            sb_fmt(&h, ",\"wt.lr.%d\":\"%.17g\"", g, opt->h[g].lr);
        for (int i = 0; i < opt->nparams; i++) {
            char key[256];
            snprintf(key, sizeof key, "%s.step", ts[pl.param_of[i]].name);
            sb_str(&h, ",");
            sb_json(&h, key);
            sb_fmt(&h, ":\"%" PRId64 "\"", opt->ps[i].step);
        }
    }
    sb_str(&h, "}");
    uint64_t off = 0;
    for (int i = 0; i < pl.n; i++) {
        entry *e = &pl.e[i];
        uint64_t bytes = (uint64_t)wt_numel(e->t) * wt_dtype_size(e->dtype);
        sb_str(&h, ",");
        sb_json(&h, e->name);
        sb_fmt(&h, ":{\"dtype\":\"%s\",\"shape\":[", st_dtype(e->dtype));
        for (int d = 0; d < e->ndim; d++)
            sb_fmt(&h, "%s%" PRId64, d ? "," : "", e->shape[d]);
        sb_fmt(&h, "],\"data_offsets\":[%" PRIu64 ",%" PRIu64 "]}", off, off + bytes);
        e->begin = off;
        off += bytes;
        e->end = off;
    }
    sb_str(&h, "}");
    while (!h.oom && h.len % 8)
        sb_str(&h, " ");
    if (h.oom || !(data = wt_alloc(ctx, off ? (size_t)off : 1))) {
        st = wt_failst(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "out of host memory for %" PRIu64 " bytes", off);
        goto done;
    }
    for (int i = 0; i < pl.n && st == WT_OK; i++)
        if (pl.e[i].end > pl.e[i].begin)
            st = wt_to_host(ctx, pl.e[i].t, data + pl.e[i].begin, (size_t)(pl.e[i].end - pl.e[i].begin));
    if (st != WT_OK)
        goto done;
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        st = wt_failst(ctx, WT_STATUS_IO, op, "%s: path too long", path);
        goto done;
    }
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        st = wt_failst(ctx, WT_STATUS_IO, op, "%s: %s", tmp, strerror(errno));
        goto done;
    }
    unsigned char len8[8];
    for (int i = 0; i < 8; i++)
        len8[i] = (unsigned char)((uint64_t)h.len >> (8 * i));
    bool ok = fwrite(len8, 1, 8, f) == 8 && fwrite(h.p, 1, h.len, f) == h.len &&
              (off == 0 || fwrite(data, 1, (size_t)off, f) == off);
    int err = errno;
    if (fclose(f) != 0 && ok) {
        ok = false;
        err = errno;
    }
    if (!ok || rename(tmp, path) != 0) {
        if (ok)
            err = errno;
        remove(tmp);
        st = wt_failst(ctx, WT_STATUS_IO, op, "%s: %s", ok ? path : tmp, strerror(err));
    }
done:
    wt_free(ctx, data);
    wt_free(ctx, h.p);
    plan_free(&pl);
    return st;
}

/* ---- a JSON reader for the header ---- */
typedef struct jr {
    const char *s, *end;
    const char *err;          /* the first problem */
    size_t at;                /* its offset in the header */
    const char *base;
} jr;

static void jr_fail(jr *j, const char *msg) {
    if (!j->err) {
        j->err = msg;
        j->at = (size_t)(j->s - j->base);
    }
}

static void jr_ws(jr *j) {
    while (j->s < j->end && (*j->s == ' ' || *j->s == '\t' || *j->s == '\n' || *j->s == '\r'))
        j->s++;
}

static bool jr_eat(jr *j, char c) {
    jr_ws(j);
    if (j->s < j->end && *j->s == c) {
        j->s++;
        return true;
    }
    return false;
}

/* A string into out (NUL-terminated, truncated to cap); \u escapes of ASCII only. */
static bool jr_string(jr *j, char *out, size_t cap) {
    if (!jr_eat(j, '"')) {
        jr_fail(j, "a string expected");
        return false;
    }
    size_t n = 0;
    while (j->s < j->end && *j->s != '"') {
        char c = *j->s++;
        if (c == '\\') {
            if (j->s >= j->end)
                break;
            char e = *j->s++;
            switch (e) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'u': {
                unsigned v = 0;
                for (int k = 0; k < 4; k++, j->s++) {
                    char h = j->s < j->end ? *j->s : 0;
                    int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
                            : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
                    if (d < 0) {
                        jr_fail(j, "bad \\u escape");
                        return false;
                    }
                    v = v * 16 + (unsigned)d;
                }
                if (v > 0x7f) {
                    jr_fail(j, "non-ASCII \\u escape");
                    return false;
                }
                c = (char)v;
                break;
            }
            default: c = e; break;
            }
        }
        if (n + 1 < cap)
            out[n++] = c;
    }
    if (cap)
        out[n] = 0;
    if (j->s >= j->end) {
        jr_fail(j, "unterminated string");
        return false;
    }
    j->s++;
    return true;
}

static bool jr_uint(jr *j, uint64_t *v) {
    jr_ws(j);
    if (j->s >= j->end || *j->s < '0' || *j->s > '9') {
        jr_fail(j, "a non-negative integer expected");
        return false;
    }
    uint64_t x = 0;
    while (j->s < j->end && *j->s >= '0' && *j->s <= '9') {
        if (x > (UINT64_MAX - 9) / 10) {
            jr_fail(j, "integer too large");
            return false;
        }
        x = x * 10 + (uint64_t)(*j->s++ - '0');
    }
    *v = x;
    return true;
}

/* [n, ...] of at most max integers */
static int jr_uints(jr *j, uint64_t *v, int max) {
    if (!jr_eat(j, '[')) {
        jr_fail(j, "an array expected");
        return -1;
    }
    int n = 0;
    if (jr_eat(j, ']'))
        return 0;
    do {
        uint64_t x;
        if (!jr_uint(j, &x))
            return -1;
        if (n == max) {
            jr_fail(j, "array too long");
            return -1;
        }
        v[n++] = x;
    } while (jr_eat(j, ','));
    if (!jr_eat(j, ']')) {
        jr_fail(j, "']' expected");
        return -1;
    }
    return n;
}

typedef struct kv {
    char key[256], value[64];
} kv;

/* ---- load ---- */

static const kv *meta_get(const kv *m, int n, const char *key) {
    for (int i = 0; i < n; i++)
        if (!strcmp(m[i].key, key))
            return &m[i];
    return NULL;
}

static bool parse_i64(const char *s, int64_t *v) {
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (errno || end == s || *end)
        return false;
    *v = x;
    return true;
}

/* inside the entry loop: keep the first mismatch, go on reading the header */
#define ENTRY_FAIL(status, ...)                                         \
    {                                                                   \
        if (bad == WT_OK)                                               \
            bad = wt_failst(ctx, status, op, __VA_ARGS__);              \
        continue;                                                       \
    }

wt_status wt_checkpoint_load(wt_context *ctx, const char *path, const wt_named_tensor *ts, int n, wt_optimizer *opt) {
    const char *op = "wt_checkpoint_load";
    if (!ctx)
        return WT_STATUS_INVALID_ARGUMENT;
    if (!path)
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "path is NULL");
    plan pl = { ctx, NULL, 0, 0, NULL };
    unsigned char *file = NULL;
    kv *meta = NULL;
    int nmeta = 0, capmeta = 0;
    wt_tensor **newstate = NULL;
    wt_status bad = WT_OK;        /* the first entry that does not match (reported after the optimizer's kind) */
    wt_status st = plan_make(&pl, op, ts, n, opt, false);
    if (st != WT_OK)
        goto done;
    FILE *f = fopen(path, "rb");
    if (!f) {
        st = wt_failst(ctx, WT_STATUS_IO, op, "%s: %s", path, strerror(errno));
        goto done;
    }
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (size < 0 || fseek(f, 0, SEEK_SET) != 0 || !(file = wt_alloc(ctx, (size_t)size + 1)) ||
        fread(file, 1, (size_t)size, f) != (size_t)size) {
        fclose(f);
        st = wt_failst(ctx, file || size < 0 ? WT_STATUS_IO : WT_STATUS_HOST_OUT_OF_MEMORY, op, "%s: cannot read", path);
        goto done;
    }
    fclose(f);
    uint64_t hl = 0;
    for (int i = 0; i < 8 && i < size; i++)
        hl |= (uint64_t)file[i] << (8 * i);
    if (size < 8 || hl > (uint64_t)size - 8 || hl > MAX_HEADER) {
        st = wt_failst(ctx, WT_STATUS_IO, op, "%s: not a safetensors file (header length %" PRIu64 ", %ld bytes)", path,
                       hl, size);
        goto done;
    }
    const unsigned char *data = file + 8 + hl;
    uint64_t data_size = (uint64_t)size - 8 - hl;
    jr j = { (const char *)file + 8, (const char *)file + 8 + hl, NULL, 0, (const char *)file + 8 };
    if (!jr_eat(&j, '{'))
        jr_fail(&j, "'{' expected");
    bool first = true;
    while (!j.err && !jr_eat(&j, '}')) {
        if (!first && !jr_eat(&j, ','))
            jr_fail(&j, "',' or '}' expected");
        first = false;
        char name[256];
        if (!jr_string(&j, name, sizeof name) || !jr_eat(&j, ':')) {
            jr_fail(&j, "':' expected");
            break;
        }
        if (!strcmp(name, "__metadata__")) {
            if (!jr_eat(&j, '{'))
                jr_fail(&j, "__metadata__ is not an object");
            bool mfirst = true;
            while (!j.err && !jr_eat(&j, '}')) {
                if (!mfirst && !jr_eat(&j, ','))
                    jr_fail(&j, "',' or '}' expected");
                mfirst = false;
                if (nmeta == capmeta) {
                    int cap = capmeta ? 2 * capmeta : 16;
                    kv *m = wt_realloc(ctx, meta, (size_t)cap * sizeof *m);
                    if (!m) {
                        st = wt_failst(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "out of host memory");
                        goto done;
                    }
                    meta = m;
                    capmeta = cap;
                }
                kv *m = &meta[nmeta++];
                if (!jr_string(&j, m->key, sizeof m->key) || !jr_eat(&j, ':'))
                    jr_fail(&j, "':' expected");
                else
                    jr_string(&j, m->value, sizeof m->value);
            }
            continue;
        }
        char dt[16] = "";
        uint64_t shp[WT_MAX_DIMS + 1], offs[3];
        int nd = -1, no = -1;
        if (!jr_eat(&j, '{'))
            jr_fail(&j, "a tensor entry is not an object");
        bool ffirst = true;
        while (!j.err && !jr_eat(&j, '}')) {
            if (!ffirst && !jr_eat(&j, ','))
                jr_fail(&j, "',' or '}' expected");
            ffirst = false;
            char field[32];
            if (!jr_string(&j, field, sizeof field) || !jr_eat(&j, ':'))
                jr_fail(&j, "':' expected");
            else if (!strcmp(field, "dtype"))
                jr_string(&j, dt, sizeof dt);
            else if (!strcmp(field, "shape"))
                nd = jr_uints(&j, shp, WT_MAX_DIMS + 1);
            else if (!strcmp(field, "data_offsets"))
                no = jr_uints(&j, offs, 3);
            else
                jr_fail(&j, "unknown field in a tensor entry");
        }
        if (j.err)
            break;
        entry *e = NULL;
        bool state = false;
        for (int i = 0; i < pl.n && !e; i++)
            if (!strcmp(pl.e[i].name, name))
                e = &pl.e[i];
        if (!e && !opt) {   /* a training checkpoint loaded without its optimizer: skip the state */
            const char *dot = strrchr(name, '.');
            for (int i = 0; dot && i < n && !state; i++)
                state = (size_t)(dot - name) == strlen(ts[i].name) && !strncmp(name, ts[i].name, (size_t)(dot - name)) &&
                        (!strcmp(dot + 1, "momentum_buffer") || !strcmp(dot + 1, "exp_avg") ||
                         !strcmp(dot + 1, "exp_avg_sq") || !strcmp(dot + 1, "max_exp_avg_sq"));
        }
        if (state)
            continue;
        if (!e) {
            ENTRY_FAIL(WT_STATUS_SHAPE, "%s: tensor '%s' is not part of the model%s", path, name,
                       opt ? " or its optimizer" : "");
        }
        if (e->found) {
            ENTRY_FAIL(WT_STATUS_SHAPE, "%s: tensor '%s' appears twice", path, name);
        }
        e->found = true;
        char want[160], got[160];
        int64_t gs[WT_MAX_DIMS];
        for (int d = 0; d < nd && d < WT_MAX_DIMS; d++)
            gs[d] = (int64_t)shp[d];
        wt_shape_str(want, sizeof want, e->ndim, e->shape);
        if (nd < 0 || no != 2 || !*dt) {
            ENTRY_FAIL(WT_STATUS_IO, "%s: tensor '%s' lacks dtype, shape or data_offsets", path, name);
        }
        if (nd > WT_MAX_DIMS) {
            ENTRY_FAIL(WT_STATUS_SHAPE, "%s: tensor '%s' has %d dims, the model's %s", path, name, nd, want);
        }
        wt_shape_str(got, sizeof got, nd, gs);
        if (strcmp(dt, st_dtype(e->dtype))) {
            ENTRY_FAIL(WT_STATUS_SHAPE, "%s: tensor '%s' is %s %s, the model's %s %s", path, name, dt, got,
                       st_dtype(e->dtype), want);
        }
        if (nd != e->ndim || memcmp(gs, e->shape, (size_t)nd * sizeof *gs)) {
            ENTRY_FAIL(WT_STATUS_SHAPE, "%s: tensor '%s' has shape %s, the model's %s", path, name, got, want);
        }
        int64_t numel = 1;
        for (int d = 0; d < nd; d++)
            numel *= gs[d];
        if (offs[0] > offs[1] || offs[1] > data_size || offs[1] - offs[0] != (uint64_t)numel * wt_dtype_size(e->dtype)) {
            ENTRY_FAIL(WT_STATUS_IO, "%s: tensor '%s': data_offsets [%" PRIu64 ", %" PRIu64 "] do not hold %s %s in %" PRIu64
                       " bytes of data", path, name, offs[0], offs[1], dt, got, data_size);
        }
        e->begin = offs[0];
        e->end = offs[1];
    }
    if (j.err) {
        st = wt_failst(ctx, WT_STATUS_IO, op, "%s: header offset %zu: %s", path, j.at, j.err);
        goto done;
    }
    if (opt) {
        const kv *k = meta_get(meta, nmeta, "wt.optimizer");
        if (!k || strcmp(k->value, wt__optim_kind_name(opt->kind))) {
            st = wt_failst(ctx, WT_STATUS_SHAPE, op, "%s: optimizer '%s' in the file, '%s' given", path,
                           k ? k->value : "(none)", wt__optim_kind_name(opt->kind));
            goto done;
        }
    }
    if (bad != WT_OK) {
        st = bad;
        goto done;
    }
    /* every model tensor present; a parameter's state all present or all absent */
    for (int i = 0; i < pl.n; i++) {
        const entry *e = &pl.e[i];
        if (e->param < 0 && !e->found) {
            st = wt_failst(ctx, WT_STATUS_SHAPE, op, "%s: tensor '%s' is missing", path, e->name);
            goto done;
        }
        if (e->param >= 0 && e->found != pl.e[i - e->row].found) {
            st = wt_failst(ctx, WT_STATUS_SHAPE, op, "%s: optimizer state '%s' is %s", path, e->name,
                           e->found ? "there without the rest of its parameter's state" : "missing");
            goto done;
        }
    }
    int64_t steps = 0, *psteps = NULL;
    if (opt) {
        const kv *k = meta_get(meta, nmeta, "wt.steps");
        if (!k || !parse_i64(k->value, &steps) || steps < 0) {
            st = wt_failst(ctx, WT_STATUS_IO, op, "%s: metadata wt.steps missing or malformed", path);
            goto done;
        }
        for (int g = 0; g < opt->ngroups; g++) {
            char key[32];
            snprintf(key, sizeof key, "wt.lr.%d", g);
            k = meta_get(meta, nmeta, key);
            char *end;
            if (!k || !(strtod(k->value, &end) > 0) || *end) {
                st = wt_failst(ctx, WT_STATUS_SHAPE, op, "%s: learning rate of group %d missing (the file's optimizer "
                               "has other groups?)", path, g);
                goto done;
            }
        }
        if (!(newstate = wt_alloc(ctx, (size_t)(opt->nparams ? opt->nparams : 1) * (sizeof *newstate + sizeof *psteps)))) {
            st = wt_failst(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "out of host memory");
            goto done;
        }
        psteps = (int64_t *)(newstate + (opt->nparams ? opt->nparams : 1));
        for (int i = 0; i < opt->nparams; i++)
            newstate[i] = NULL;
        for (int i = 0; i < opt->nparams; i++) {
            char key[256];
            snprintf(key, sizeof key, "%s.step", ts[pl.param_of[i]].name);
            k = meta_get(meta, nmeta, key);
            if (!k || !parse_i64(k->value, &psteps[i]) || psteps[i] < 0) {
                st = wt_failst(ctx, WT_STATUS_SHAPE, op, "%s: metadata '%s' missing or malformed", path, key);
                goto done;
            }
        }
    }
    /* everything checked: upload, then change the model and the optimizer */
    for (int i = 0; i < pl.n && st == WT_OK; i++) {
        entry *e = &pl.e[i];
        if (e->param >= 0 && e->row == 0 && e->found) {   /* the whole state [rows, numel] in one upload */
            int rows = wt__optim_state_rows(opt, e->param);
            int64_t numel = opt->ps[e->param].p->numel;
            float *buf = wt_alloc(ctx, (size_t)(rows * numel) * sizeof *buf + 4);
            if (!buf) {
                st = wt_failst(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "out of host memory");
                break;
            }
            for (int r = 0; r < rows; r++)
                memcpy(buf + r * numel, data + pl.e[i + r].begin, (size_t)numel * sizeof *buf);
            newstate[e->param] = wt_from_host(ctx, WT_F32, WT_SHAPE(rows, numel), buf);
            wt_free(ctx, buf);
            if (!newstate[e->param])
                st = ctx->status;
        }
    }
    wt_tensor **up = NULL;
    if (st == WT_OK && !(up = wt_alloc(ctx, (size_t)(n ? n : 1) * sizeof *up)))
        st = wt_failst(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "out of host memory");
    for (int i = 0; i < n && st == WT_OK; i++)
        if (!(up[i] = wt_from_host(ctx, pl.e[i].dtype, pl.e[i].ndim, pl.e[i].shape, data + pl.e[i].begin))) {
            st = ctx->status;
            for (int k = 0; k < i; k++)
                wt_release(up[k]);
        }
    if (st == WT_OK) {
        for (int i = 0; i < n; i++) {
            if (st == WT_OK)
                st = wt_copy_into(ctx, pl.e[i].t, up[i]);
            wt_release(up[i]);
        }
        if (opt && st == WT_OK) {
            for (int i = 0; i < opt->nparams; i++) {
                wt_release(opt->ps[i].state);
                opt->ps[i].state = newstate[i];
                newstate[i] = NULL;
                opt->ps[i].step = psteps[i];
            }
            opt->steps = steps;
            for (int g = 0; g < opt->ngroups; g++) {
                char key[32];
                snprintf(key, sizeof key, "wt.lr.%d", g);
                opt->h[g].lr = strtod(meta_get(meta, nmeta, key)->value, NULL);
            }
        }
    }
    wt_free(ctx, up);
done:
    if (newstate && opt)
        for (int i = 0; i < opt->nparams; i++)
            wt_release(newstate[i]);
    wt_free(ctx, newstate);
    wt_free(ctx, meta);
    wt_free(ctx, file);
    plan_free(&pl);
    return st;
}
