/* grad.c - autograd: the define-by-run tape and wt_backward.
 *
 * Every differentiable op passes its result through wt__grad (grad.h).  When grad mode is on and
 * an input requires grad, that call hangs a node on the result: the op (a row of WT_GRAD_OPS),
 * one edge per input (the input's own node, or the input itself when it is a leaf that requires
 * grad), the inputs' shapes and dtypes, the op's scalar arguments and the tensors the row saves
 * (aliases: same storage, no graph).  Tensors hold their node, nodes hold the nodes of their
 * inputs: the graph lives exactly as long as some result of it is held, and a node goes (with
 * its saved tensors) when its last holder does - iteratively, so long chains do not recurse.
 *
 * wt_backward checks everything it can before any work (the result requires grad, the gradient's
 * shape, every node reached still has its saved tensors and has a rule), then walks the nodes in
 * topological order (a depth-first count of each node's consumers, then Kahn's order), calling
 * each node's rule (derivatives.c) with grad mode off.  A rule is written with wt ops, so the
 * whole pass is recorded lazily into the same batches as forward and reads nothing back.  Each
 * input's gradient is reduced to the input's shape (broadcasting) and cast to its dtype, then
 * summed into the input node's pending gradient, or a leaf's.  A node's gradient and (without
 * retain_graph) its saved tensors are released as soon as its rule ran.  Leaves' gradients are
 * added to their .grad only at the end, all or none: a failing pass leaves every .grad as it
 * was. */
#include <string.h>

#include "tensor/internal.h"

typedef struct wt_gstate {
    wt_node *free_nodes;
    uint64_t live_nodes;
    uint64_t epoch;
    wt_node **nodes, **stack;     /* backward: nodes reached, the work stack */
    uint32_t nodes_cap, stack_cap;
    wt_tensor **leaves, **gin, **tmp, **next;
    wt_tensor *zero[WT_DTYPE_COUNT];  /* wt__gzero's, released at the end of a pass */
    uint32_t leaves_cap, gin_cap, tmp_cap, tmp_count, next_cap;
} wt_gstate;

static const uint8_t save_bits[WT_G_COUNT] = {
    0,
#define X(name, saves) saves,
    WT_GRAD_OPS(X)
#undef X
};

static wt_gstate *gstate(wt_context *ctx) {
    if (!ctx->grad) {
        ctx->grad = wt_alloc(ctx, sizeof *ctx->grad);
        if (ctx->grad)
            memset(ctx->grad, 0, sizeof *ctx->grad);
    }
    return ctx->grad;
}

/* ---- nodes ---- */

static void node_unref(wt_context *ctx, wt_node *n) {
    if (--n->refs)
        return;
    wt_node *stack = n;   /* nodes whose last reference went, linked through next_free */
    n->next_free = NULL;
    while (stack) {
        wt_node *m = stack;
        stack = m->next_free;
        for (int k = 0; k < WT_GSAVED; k++)
            wt_release(m->saved[k]);
        for (uint32_t i = 0; i < m->nin; i++) {
            wt_node *f = m->in[i].fn;
            if (f && !--f->refs) {
                f->next_free = stack;
                stack = f;
            }
            wt_release(m->in[i].leaf);
        }
        wt_release(m->g);
        if (m->in != m->inl)
            wt_free(ctx, m->in);
        if (ctx->grad)
            ctx->grad->live_nodes--;
        if (ctx->destroyed || !ctx->grad) {
            wt_free(ctx, m);
        } else {
            m->next_free = ctx->grad->free_nodes;
            ctx->grad->free_nodes = m;
        }
    }
}

void wt__grad_release(wt_tensor *t) {
    if (t->node)
        node_unref(t->ctx, t->node);
    t->node = NULL;
    wt_release(t->grad);
    wt_release(t->gpend);
    t->grad = t->gpend = NULL;
    t->requires_grad = false;
}

void wt__grad_destroy(wt_context *ctx) {
    wt_gstate *s = ctx->grad;
    if (!s)
        return;
    for (wt_node *n = s->free_nodes, *next; n; n = next) {
        next = n->next_free;
        wt_free(ctx, n);
    }
    wt_free(ctx, s->nodes);
    wt_free(ctx, s->stack);
    wt_free(ctx, s->leaves);
    wt_free(ctx, s->gin);
    wt_free(ctx, s->tmp);
    wt_free(ctx, s->next);
    wt_free(ctx, s);
    ctx->grad = NULL;   /* nodes still held by tensors go back to the allocator when released */
}

/* a tensor for a node to keep: the same view of the same storage, without the graph */
static wt_tensor *alias(wt_context *ctx, wt_tensor *t) {
    return wt_tensor_view(ctx, "wt_backward", t, t->ndim, t->shape, t->strides, t->offset);
}

wt_tensor *wt__grad(wt_context *ctx, wt_tensor *out, wt_gop op, int nin, wt_tensor *const *in, const wt_gargs *a) {
    if (!out || !ctx || ctx->no_grad || !op)
        return out;
    int i = 0;
    while (i < nin && !(in[i] && in[i]->requires_grad))
        i++;
    if (i == nin || !wt_is_float(out->dtype))
        return out;
    for (i = 0; i < nin; i++)
        if (in[i] == out)   /* the op returned its input (contiguous, cast to its own dtype) */
            return out;
    wt_gstate *s = gstate(ctx);
    wt_node *n = s ? s->free_nodes : NULL;
    if (n)
        s->free_nodes = n->next_free;
    else if (!s || !(n = wt_alloc(ctx, sizeof *n)))
        goto oom;
    memset(n, 0, sizeof *n);
    n->in = n->inl;
    if (nin > 3 && !(n->in = wt_alloc(ctx, (size_t)nin * sizeof *n->in))) {
        n->next_free = s->free_nodes;
        s->free_nodes = n;
        goto oom;
    }
    memset(n->in, 0, (size_t)nin * sizeof *n->in);
    s->live_nodes++;
    n->refs = 1;
    n->op = op;
    n->nin = (uint32_t)nin;
    for (i = 0; i < nin; i++) {
        wt_tensor *t = in[i];
        if (!t)
            continue;
        wt_gedge *e = &n->in[i];
        e->dtype = t->dtype;
        e->ndim = t->ndim;
        memcpy(e->shape, t->shape, sizeof e->shape);
        if (t->node) {
            e->fn = t->node;
            e->fn->refs++;
        } else if (t->requires_grad) {
            e->leaf = t;
            wt_retain(t);
        }
    }
    n->out_dtype = out->dtype;
    n->out_ndim = out->ndim;
    memcpy(n->out_shape, out->shape, sizeof n->out_shape);
    if (a) {
        n->a = *a;
        n->a.save[0] = n->a.save[1] = NULL;
    }
    uint8_t bits = save_bits[op];
    for (int k = 0; k < WT_GSAVED; k++) {
        if (!(bits & (1u << k)))
            continue;
        wt_tensor *t = k < 3 ? (k < nin ? in[k] : NULL) : k == 3 ? out : a ? a->save[k - 4] : NULL;
        if (t && !(n->saved[k] = alias(ctx, t))) {
            node_unref(ctx, n);
            wt_release(out);
            return NULL;
        }
    }
    if (out->node)   /* a composite op's inner ops recorded first: this node replaces theirs */
        node_unref(ctx, out->node);
    out->node = n;
    out->requires_grad = true;
    return out;
oom:
    wt_release(out);
    return wt_fail(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, wt__grad_names[op], "out of host memory for the autograd node");
}

bool wt__gneed(const wt_node *n, uint32_t i) {
    return i < n->nin && (n->in[i].fn || n->in[i].leaf);
}

wt_tensor *wt__gtmp(wt_context *ctx, wt_tensor *t) {
    wt_gstate *s = ctx->grad;
    if (t && !wt_grow(ctx, (void **)&s->tmp, &s->tmp_cap, s->tmp_count + 1, sizeof *s->tmp)) {
        wt_release(t);
        return wt_fail(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, "wt_backward", "out of host memory");
    }
    if (t)
        s->tmp[s->tmp_count++] = t;
    return t;
}

wt_tensor *wt__gzero(wt_context *ctx, wt_dtype dt) {
    wt_gstate *s = ctx->grad;
    if (!s->zero[dt])
        s->zero[dt] = wt_zeros(ctx, dt, 0, NULL);
    return s->zero[dt];
}

/* ---- the public calls ---- */

wt_status wt_set_requires_grad(wt_context *ctx, wt_tensor *t, bool on) {
    const char *op = "wt_set_requires_grad";
    if (!ctx)
        return WT_STATUS_INVALID_ARGUMENT;
    if (!wt_check_tensor(ctx, op, t))
        return ctx->status;
    char b[160];
    if (on && !wt_is_float(t->dtype))
        return wt_failst(ctx, WT_STATUS_DTYPE, op, "only float tensors can require gradients, got %s tensor of shape %s",
                         wt_dtype_name(t->dtype), wt_shape_str(b, sizeof b, t->ndim, t->shape));
    if (t->node)
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "the tensor of shape %s is the result of %s, not a leaf "
                         "(wt_detach gives a leaf)", wt_shape_str(b, sizeof b, t->ndim, t->shape),
                         wt__grad_names[t->node->op]);
    t->requires_grad = on;
    return WT_OK;
}

bool wt_requires_grad(const wt_tensor *t) {
    return t && t->refs && t->requires_grad;
}

bool wt_is_leaf(const wt_tensor *t) {
    return t && t->refs && !t->node;
}

const char *wt_grad_fn_name(const wt_tensor *t) {
    return t && t->refs && t->node ? wt__grad_names[t->node->op] : NULL;
}

wt_tensor *wt_grad(wt_context *ctx, wt_tensor *t) {
    if (!ctx || !wt_check_tensor(ctx, "wt_grad", t) || !t->grad)
        return NULL;
    wt_retain(t->grad);
    return t->grad;
}

wt_status wt_set_grad(wt_context *ctx, wt_tensor *t, wt_tensor *grad) {
    const char *op = "wt_set_grad";
    if (!ctx)
        return WT_STATUS_INVALID_ARGUMENT;
    if (!wt_check_tensor(ctx, op, t) || (grad && !wt_check_tensor(ctx, op, grad)))
        return ctx->status;
    if (grad) {
        char b[160], c[160];
        if (grad->ndim != t->ndim || memcmp(grad->shape, t->shape, (size_t)t->ndim * sizeof *t->shape) ||
            grad->dtype != t->dtype)
            return wt_failst(ctx, WT_STATUS_SHAPE, op, "gradient %s %s for a %s tensor of shape %s",
                             wt_dtype_name(grad->dtype), wt_shape_str(b, sizeof b, grad->ndim, grad->shape),
                             wt_dtype_name(t->dtype), wt_shape_str(c, sizeof c, t->ndim, t->shape));
        wt_retain(grad);
    }
    wt_release(t->grad);
    t->grad = grad;
    return WT_OK;
}

void wt_zero_grad(wt_context *ctx, wt_tensor *t) {
    if (ctx && t && wt_check_tensor(ctx, "wt_zero_grad", t)) {
        wt_release(t->grad);
        t->grad = NULL;
    }
}

bool wt_set_grad_enabled(wt_context *ctx, bool enabled) {
    if (!ctx)
        return false;
    bool was = !ctx->no_grad;
    ctx->no_grad = !enabled;
    return was;
}

bool wt_is_grad_enabled(const wt_context *ctx) {
    return ctx && !ctx->no_grad;
}

wt_tensor *wt_detach(wt_context *ctx, wt_tensor *t) {
    if (!ctx || !wt_check_tensor(ctx, "wt_detach", t))
        return NULL;
    return wt_tensor_view(ctx, "wt_detach", t, t->ndim, t->shape, t->strides, t->offset);
}

uint64_t wt_grad_node_count(const wt_context *ctx) {
    return ctx && ctx->grad ? ctx->grad->live_nodes : 0;
}

/* ---- backward ---- */

static bool same_shape(int nd, const int64_t *a, int md, const int64_t *b) {
    return nd == md && !memcmp(a, b, (size_t)nd * sizeof *a);
}

/* g (consumed) reduced to the edge's shape (summing broadcast dims) and cast to its dtype */
static wt_tensor *fit(wt_context *ctx, const wt_node *n, const wt_gedge *e, wt_tensor *g) {
    if (!same_shape(g->ndim, g->shape, e->ndim, e->shape)) {
        int dims[WT_MAX_DIMS], k = 0, lead = g->ndim - e->ndim;
        for (int d = 0; d < g->ndim; d++) {
            int j = d - lead;
            if (j < 0 || (e->shape[j] == 1 && g->shape[d] != 1))
                dims[k++] = d;
        }
        wt_tensor *r = g;
        if (k && lead >= 0) {
            r = wt_sum(ctx, g, k, dims, true);
            wt_release(g);
        }
        if (r && !same_shape(r->ndim, r->shape, e->ndim, e->shape)) {
            int64_t numel = 1;
            for (int d = 0; d < e->ndim; d++)
                numel *= e->shape[d];
            if (numel != r->numel) {
                char b[160], c[160];
                wt_fail(ctx, WT_STATUS_SHAPE, "wt_backward", "the rule of %s gave a gradient of shape %s for an input of "
                        "shape %s (a wgc bug)", wt__grad_names[n->op], wt_shape_str(b, sizeof b, r->ndim, r->shape),
                        wt_shape_str(c, sizeof c, e->ndim, e->shape));
                wt_release(r);
                return NULL;
            }
            wt_tensor *v = wt_reshape(ctx, r, e->ndim, e->shape);
            wt_release(r);
            r = v;
        }
        g = r;
    }
    if (g && g->dtype != e->dtype) {
        wt_tensor *c = wt_cast(ctx, g, e->dtype);
        wt_release(g);
        g = c;
    }
    return g;
}

/* *acc += g (g consumed) */
static bool accumulate(wt_context *ctx, wt_tensor **acc, wt_tensor *g) {
    if (!*acc) {
        *acc = g;
        return true;
    }
    wt_tensor *s = wt_add(ctx, *acc, g);
    wt_release(g);
    if (!s)
        return false;
    wt_release(*acc);
    *acc = s;
    return true;
}

static bool grow(wt_context *ctx, void *arr, uint32_t *cap, uint32_t need, size_t esz) {
    if (wt_grow(ctx, (void **)arr, cap, need, esz))
        return true;
    wt_fail(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, "wt_backward", "out of host memory");
    return false;
}

static void drop_temps(wt_gstate *s) {
    while (s->tmp_count)
        wt_release(s->tmp[--s->tmp_count]);
}

static void drop_zeros(wt_gstate *s) {
    for (int i = 0; i < WT_DTYPE_COUNT; i++) {
        wt_release(s->zero[i]);
        s->zero[i] = NULL;
    }
}

wt_status wt_backward(wt_context *ctx, wt_tensor *t, wt_tensor *grad, const wt_backward_desc *desc) {
    const char *op = "wt_backward";
    if (!ctx)
        return WT_STATUS_INVALID_ARGUMENT;
    if (!wt_check_tensor(ctx, op, t) || (grad && !wt_check_tensor(ctx, op, grad)))
        return ctx->status;
    bool retain = desc && desc->retain_graph;
    char b[160], c[160];
    wt_shape_str(b, sizeof b, t->ndim, t->shape);
    if (!t->requires_grad)
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "the tensor of shape %s does not require grad (no input of "
                         "it was marked by wt_set_requires_grad, or grad mode was off)", b);
    if (!grad && t->numel != 1)
        return wt_failst(ctx, WT_STATUS_SHAPE, op, "a gradient is needed for a result of shape %s (only a one-element "
                         "result takes NULL)", b);
    if (grad && (!same_shape(grad->ndim, grad->shape, t->ndim, t->shape) || !wt_is_float(grad->dtype)))
        return wt_failst(ctx, WT_STATUS_SHAPE, op, "gradient %s %s for a result of shape %s",
                         wt_dtype_name(grad->dtype), wt_shape_str(c, sizeof c, grad->ndim, grad->shape), b);
    wt_gstate *s = gstate(ctx);
    if (!s)
        return wt_failst(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "out of host memory");

    /* the nodes reached, each one's count of consumers among them; refuse before any work */
    uint64_t epoch = ++s->epoch;
    uint32_t nn = 0, ns = 0, nl = 0;
    if (t->node) {
        if (!grow(ctx, &s->stack, &s->stack_cap, 1, sizeof *s->stack))
            return ctx->status;
        t->node->epoch = epoch;
        t->node->deps = 0;
        s->stack[ns++] = t->node;
    }
    while (ns) {
        wt_node *n = s->stack[--ns];
        if (!grow(ctx, &s->nodes, &s->nodes_cap, nn + 1, sizeof *s->nodes))
            return ctx->status;
        s->nodes[nn++] = n;
        if (n->freed)
            return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "backward through %s a second time: its saved tensors "
                             "were freed by the first backward (pass retain_graph to keep them)", wt__grad_names[n->op]);
        if (!wt__grad_rules[n->op])
            return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "%s has no backward rule yet", wt__grad_names[n->op]);
        for (uint32_t i = 0; i < n->nin; i++) {
            wt_node *f = n->in[i].fn;
            if (!f)
                continue;
            if (f->epoch != epoch) {
                f->epoch = epoch;
                f->deps = 0;
                if (!grow(ctx, &s->stack, &s->stack_cap, ns + 1, sizeof *s->stack))
                    return ctx->status;
                s->stack[ns++] = f;
            }
            f->deps++;
        }
    }

    if (!grow(ctx, &s->stack, &s->stack_cap, nn + 1, sizeof *s->stack))
        return ctx->status;
    wt_error_state es;
    wt_error_save(ctx, &es);
    wt_clear_error(ctx);
    bool was_off = ctx->no_grad;
    ctx->no_grad = true;
    wt_tensor *g0 = grad ? wt_cast(ctx, grad, t->dtype) : wt_ones(ctx, t->dtype, t->ndim, t->shape);
    if (!g0)
        goto fail;
    if (!t->node) {   /* a leaf */
        t->gpend = g0;
        if (!grow(ctx, &s->leaves, &s->leaves_cap, 1, sizeof *s->leaves))
            goto fail;
        s->leaves[nl++] = t;
    } else {
        t->node->g = g0;
        s->stack[ns++] = t->node;
    }
    while (ns) {
        wt_node *n = s->stack[--ns];
        if (n->g) {
            if (!grow(ctx, &s->gin, &s->gin_cap, n->nin, sizeof *s->gin))
                goto fail;
            memset(s->gin, 0, n->nin * sizeof *s->gin);
            wt__grad_rules[n->op](ctx, n, n->g, s->gin);
            drop_temps(s);
            for (uint32_t i = 0; i < n->nin; i++) {
                wt_tensor *gi = s->gin[i];
                s->gin[i] = NULL;
                if (!gi || !wt__gneed(n, i) || ctx->status != WT_OK) {
                    wt_release(gi);
                    continue;
                }
                wt_gedge *e = &n->in[i];
                if (!(gi = fit(ctx, n, e, gi)))
                    continue;
                if (e->fn) {
                    accumulate(ctx, &e->fn->g, gi);
                } else {
                    if (!e->leaf->gpend) {
                        if (!grow(ctx, &s->leaves, &s->leaves_cap, nl + 1, sizeof *s->leaves)) {
                            wt_release(gi);
                            continue;
                        }
                        s->leaves[nl++] = e->leaf;
                    }
                    accumulate(ctx, &e->leaf->gpend, gi);
                }
            }
            if (ctx->status != WT_OK)
                goto fail;
            wt_release(n->g);
            n->g = NULL;
        }
        if (!retain) {
            for (int k = 0; k < WT_GSAVED; k++) {
                if (n->saved[k])
                    n->freed = true;
                wt_release(n->saved[k]);
                n->saved[k] = NULL;
            }
        }
        for (uint32_t i = 0; i < n->nin; i++) {
            wt_node *f = n->in[i].fn;
            if (f && !--f->deps)
                s->stack[ns++] = f;   /* fits: the stack held every node once */
        }
    }

    /* the leaves' new gradients (private copies: a rule may hand one tensor to several inputs), then
     * all of them at once */
    if (!grow(ctx, &s->next, &s->next_cap, nl, sizeof *s->next))
        goto fail;
    for (uint32_t i = 0; i < nl; i++) {
        wt_tensor *l = s->leaves[i];
        s->next[i] = l->grad ? wt_add(ctx, l->grad, l->gpend) : wt_clone(ctx, l->gpend);
        if (!s->next[i]) {
            for (uint32_t j = 0; j < i; j++)
                wt_release(s->next[j]);
            goto fail;
        }
    }
    for (uint32_t i = 0; i < nl; i++) {
        wt_tensor *l = s->leaves[i];
        wt_release(l->grad);
        wt_release(l->gpend);
        l->grad = s->next[i];
        l->gpend = NULL;
    }
    drop_zeros(s);
    ctx->no_grad = was_off;
    wt_error_restore(ctx, &es);
    return WT_OK;
fail:
    drop_temps(s);
    drop_zeros(s);
    for (uint32_t i = 0; i < nn; i++) {
        wt_release(s->nodes[i]->g);
        s->nodes[i]->g = NULL;
    }
    for (uint32_t i = 0; i < nl; i++) {
        wt_release(s->leaves[i]->gpend);
        s->leaves[i]->gpend = NULL;
    }
    ctx->no_grad = was_off;
    if (ctx->status == WT_OK)
        wt_fail(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "failed");
    return ctx->status;
}
