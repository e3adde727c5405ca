/* sample.c - token sampling from an engine's logits, in llama.cpp's order: repetition penalty,
 * top-k, top-p, min-p, temperature, draw.
 *
 * The penalty runs on the GPU on the logits row (index_select of the seen tokens, a where and a
 * scatter_add of the change), so greedy decoding, an argmax on the GPU, reads back 4 bytes per
 * token.  With a temperature and a top-k of at most 1024 below the vocabulary, wt_topk selects
 * and sorts the k largest on the GPU (ties by index, as the host's sort) and only those k are read
 * back; otherwise (or when a NaN is among them) the penalised row is.  The filters then run on
 * the host in double: top-k keeps the k largest, top-p the smallest prefix of the sorted distribution whose
 * mass reaches p, min-p the tokens whose probability is at least min_p times the largest (these
 * three on the probabilities at temperature 1, as llama.cpp's default chain), then the survivors'
 * logits are divided by the temperature and one is drawn with a uniform number from splitmix64
 * seeded by the desc: the same seed and the same logits give the same tokens everywhere. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "llm/llm.h"

struct wl_sampler {
    wl_sampler_desc d;
    uint64_t state;               /* splitmix64 */
    int32_t *hist;                /* the last repeat_last_n accepted tokens, a ring */
    uint32_t hist_n, hist_head;
};

typedef struct cand {
    int32_t id;
    double logit;
} cand;

static uint64_t splitmix64(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double uniform(uint64_t *s) {
    return (double)(splitmix64(s) >> 11) * (1.0 / 9007199254740992.0);   /* [0, 1) */
}

static void clear_err(wl_error *err) {
    if (err) {
        err->status = WL_OK;
        err->message[0] = 0;
    }
}

wl_sampler *wl_sampler_create(const wl_sampler_desc *desc, wl_error *err) {
    clear_err(err);
    wl_sampler_desc d = desc ? *desc : (wl_sampler_desc){ 0 };
    if (!d.repeat_last_n)
        d.repeat_last_n = 64;
    if (d.repeat_last_n > (1u << 20) || d.top_p < 0 || d.min_p < 0 || d.min_p > 1 || d.repeat_penalty < 0 ||
        isnan(d.temperature) || isnan(d.top_p) || isnan(d.min_p) || isnan(d.repeat_penalty)) {
        wl__fail(err, WL_STATUS_INVALID_ARGUMENT, "wl_sampler_create",
                 "top_p %g, min_p %g (in [0, 1]), repeat_penalty %g (>= 0) or repeat_last_n %u (<= 2^20) out of range",
                 d.top_p, d.min_p, d.repeat_penalty, d.repeat_last_n);
        return NULL;
    }
    wl_sampler *s = calloc(1, sizeof *s);
    if (s)
        s->hist = malloc(d.repeat_last_n * sizeof *s->hist);
    if (!s || !s->hist) {
        free(s);
        wl__fail(err, WL_STATUS_OUT_OF_MEMORY, "wl_sampler_create", "no memory");
        return NULL;
    }
    s->d = d;
    s->state = d.seed;
    return s;
}

void wl_sampler_release(wl_sampler *s) {
    if (s)
        free(s->hist);
    free(s);
}

void wl_sampler_accept(wl_sampler *s, int32_t token) {
    if (!s)
        return;
    s->hist[s->hist_head] = token;
    s->hist_head = (s->hist_head + 1) % s->d.repeat_last_n;
    if (s->hist_n < s->d.repeat_last_n)
        s->hist_n++;
}

void wl_sampler_reset(wl_sampler *s) {
    if (!s)
        return;
    s->hist_n = s->hist_head = 0;
    s->state = s->d.seed;
}

static int by_logit(const void *a, const void *b) {
    const cand *x = a, *y = b;
    return x->logit < y->logit ? 1 : x->logit > y->logit ? -1 : (x->id > y->id) - (x->id < y->id);
}

static int by_int(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* The row with the penalty applied (a new reference), or NULL with ctx's error set. */
static wt_tensor *penalised(wl_sampler *s, wt_context *ctx, wt_tensor *row, uint32_t V) {
    float p = s->d.repeat_penalty;
    if (!s->hist_n || p == 0 || p == 1) {
        wt_retain(row);
        return row;
    }
    int32_t ids[1u << 12], *u = s->hist_n <= (1u << 12) ? ids : malloc(s->hist_n * sizeof *u);
    if (!u)
        return NULL;
    uint32_t m = 0;
    memcpy(u, s->hist, s->hist_n * sizeof *u);
    qsort(u, s->hist_n, sizeof *u, by_int);
    for (uint32_t i = 0; i < s->hist_n; i++)   /* unique ids in range: each penalised once */
        if (u[i] >= 0 && (uint32_t)u[i] < V && (!m || u[m - 1] != u[i]))
            u[m++] = u[i];
    wt_tensor *out = NULL;
    if (m) {
        wt_tensor *idx = wt_from_host(ctx, WT_I32, WT_SHAPE(m), u);
        wt_tensor *v = idx ? wt_index_select(ctx, row, 0, idx) : NULL;
        wt_tensor *pos = v ? wt_gt_scalar(ctx, v, 0) : NULL;
        wt_tensor *dv = v ? wt_div_scalar(ctx, v, p) : NULL, *mv = v ? wt_mul_scalar(ctx, v, p) : NULL;
        wt_tensor *nv = pos && dv && mv ? wt_where(ctx, pos, dv, mv) : NULL;
        wt_tensor *delta = nv ? wt_sub(ctx, nv, v) : NULL;
        out = delta ? wt_scatter_add(ctx, row, 0, idx, delta) : NULL;
        wt_release(idx), wt_release(v), wt_release(pos), wt_release(dv), wt_release(mv), wt_release(nv);
        wt_release(delta);
    } else {
        wt_retain(row);
        out = row;
    }
    if (u != ids)
        free(u);
    return out;
}

/* The whole row as candidates, sorted (NaN as -inf). */
static wt_status whole_row(wt_context *ctx, wt_tensor *pr, uint32_t V, cand **out, size_t *n) {
    float *l = malloc((size_t)V * sizeof *l);
    cand *c = malloc((size_t)V * sizeof *c);
    wt_status st = l && c ? wt_to_host(ctx, pr, l, (size_t)V * sizeof *l) : WT_STATUS_HOST_OUT_OF_MEMORY;
    if (st == WT_OK) {
        for (uint32_t i = 0; i < V; i++)
            c[i] = (cand){ (int32_t)i, isnan(l[i]) ? -INFINITY : (double)l[i] };
        qsort(c, V, sizeof *c, by_logit);
        *out = c;
        *n = V;
    } else {
        free(c);
    }
    free(l);
    return st;
}

/* The top_k candidates, selected and sorted on the GPU (wt_topk), when top_k is in 1..1024 and
 * below V; *out stays NULL when it is not, or when a NaN is among them (the host ranks NaN last,
 * wt_topk first: whole_row decides). */
static wt_status top_k_on_gpu(const wl_sampler *s, wt_context *ctx, wt_tensor *pr, uint32_t V, cand **out, size_t *n) {
    uint32_t k = s->d.top_k;
    if (!k || k > 1024 || k >= V)
        return WT_OK;
    wt_tensor *ix = NULL, *v = wt_topk(ctx, pr, k, 0, true, &ix);
    float *l = malloc(k * sizeof *l);
    int32_t *id = malloc(k * sizeof *id);
    cand *c = malloc(k * sizeof *c);
    wt_status st = !v ? wt_last_status(ctx) : !l || !id || !c ? WT_STATUS_HOST_OUT_OF_MEMORY
                                                               : wt_to_host(ctx, v, l, k * sizeof *l);
    if (st == WT_OK)
        st = wt_to_host(ctx, ix, id, k * sizeof *id);
    bool nan = false;
    for (uint32_t i = 0; st == WT_OK && i < k; i++) {
        c[i] = (cand){ id[i], (double)l[i] };
        nan = nan || isnan(l[i]);
    }
    wt_release(v);
    wt_release(ix);
    free(l);
    free(id);
    if (st == WT_OK && !nan) {
        *out = c;
        *n = k;
    } else {
        free(c);
    }
    return st;
}

wl_status wl_sampler_sample(wl_sampler *s, wl_engine *e, uint32_t row, int32_t *token, wl_error *err) {
    clear_err(err);
    wt_tensor *lg = wl_engine_logits(e);
    if (!s || !token || !lg)
        return wl__fail(err, WL_STATUS_INVALID_ARGUMENT, "wl_sampler_sample", "NULL sampler or token, or no logits");
    if (row >= (uint32_t)wt_size(lg, 0))
        return wl__fail(err, WL_STATUS_INVALID_ARGUMENT, "wl_sampler_sample", "row %u of %lld", row,
                        (long long)wt_size(lg, 0));
    wt_context *ctx = wl_engine_context(e);
    uint32_t V = (uint32_t)wt_size(lg, 1);
    wt_tensor *r = wt_select(ctx, lg, 0, row);
    wt_tensor *pr = r ? penalised(s, ctx, r, V) : NULL;
    wt_release(r);
    if (!pr)
        return wl__fail(err, WL_STATUS_GPU, "wl_sampler_sample", "%s", wt_last_error(ctx));
    if (s->d.temperature <= 0) {
        wt_tensor *am = wt_argmax(ctx, pr, 0, NULL, false);
        double v = 0;
        wt_status st = am ? wt_item(ctx, am, &v) : wt_last_status(ctx);
        wt_release(am);
        wt_release(pr);
        if (st != WT_OK)
            return wl__fail(err, WL_STATUS_GPU, "wl_sampler_sample", "%s", wt_last_error(ctx));
        *token = (int32_t)v;
        return WL_OK;
    }
    size_t n = 0;
    cand *c = NULL;
    wt_status st = top_k_on_gpu(s, ctx, pr, V, &c, &n);
    if (st == WT_OK && !c)
        st = whole_row(ctx, pr, V, &c, &n);
    wt_release(pr);
    if (st != WT_OK)
        return wl__fail(err, st == WT_STATUS_HOST_OUT_OF_MEMORY ? WL_STATUS_OUT_OF_MEMORY : WL_STATUS_GPU,
                        "wl_sampler_sample", "%s", st == WT_STATUS_HOST_OUT_OF_MEMORY ? "no memory" : wt_last_error(ctx));
    if (s->d.top_k && s->d.top_k < n)
        n = s->d.top_k;
    /* probabilities at temperature 1 over the kept candidates */
    double mx = c[0].logit, sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += exp(c[i].logit - mx);
    if (s->d.top_p > 0 && s->d.top_p < 1) {
        double acc = 0;
        size_t k = 0;
        while (k < n) {
            acc += exp(c[k].logit - mx) / sum;
            k++;
            if (acc >= s->d.top_p)
                break;
        }
        n = k;
    }
    if (s->d.min_p > 0) {   /* p_i >= min_p * p_max  <=>  logit_i - max >= log(min_p) */
        size_t k = 1;
        while (k < n && c[k].logit - mx >= log(s->d.min_p))
            k++;
        n = k;
    }
    double t = s->d.temperature, z = 0;
    for (size_t i = 0; i < n; i++)
        z += exp((c[i].logit - mx) / t);
    double x = uniform(&s->state) * z, acc = 0;
    size_t pick = n - 1;
    for (size_t i = 0; i < n; i++) {
        acc += exp((c[i].logit - mx) / t);
        if (x < acc) {
            pick = i;
            break;
        }
    }
    *token = c[pick].id;
    free(c);
    return WL_OK;
}
