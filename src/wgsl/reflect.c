/* reflect.c - reflection of a checked module into the public result (include/wgc/wgsl.h):
 * entry points with their workgroup sizes, resource bindings with their minimum sizes and
 * runtime-array strides, and the overrides.
 *
 * Everything is copied into the result arena (cc->res_arena) so it outlives the compile.  The
 * emitter (spirv.c) calls spv_reflect() after emission, passing the workgroup sizes and
 * override values it computed (with the values of wgsl_options.overrides applied), so the
 * reflection describes exactly the module that was emitted. */
#include <string.h>

#include "wgsl/cc.h"
#include "wgsl/sema.h"
#include "wgsl/spirv.h"

static const char *keep(wgsl_cc *cc, const char *s) { return arena_strndup(cc->res_arena, s, strlen(s)); }

/* Index of the first override an expression refers to, or -1. */
static int32_t first_override(const sema_module *sm, const ast_module *m, uint32_t h, int depth) {
    if (!h || depth > 64) return -1;
    const ast_node *n = ast_get(m, h);
    switch ((ast_kind)n->kind) {
    case AST_IDENT: {
        uint32_t d = sema_ex(sm, h)->decl;
        if (d && ast_get(m, d)->kind == AST_OVERRIDE) return (int32_t)sema_dc(sm, d)->override_index;
        return -1;
    }
    case AST_UNARY: return first_override(sm, m, n->u.unary.operand, depth + 1);
    case AST_BINARY: {
        int32_t r = first_override(sm, m, n->u.binary.lhs, depth + 1);
        return r >= 0 ? r : first_override(sm, m, n->u.binary.rhs, depth + 1);
    }
    case AST_CALL:
        for (uint32_t i = 0; i < n->u.call.args.count; i++) {
            int32_t r = first_override(sm, m, ast_item(m, n->u.call.args, i), depth + 1);
            if (r >= 0) return r;
        }
        return -1;
    default:
        return -1;
    }
}

static wgsl_scalar scalar_of(ty_t t) {
    switch (t) {
    case TY_BOOL: return WGSL_SCALAR_BOOL;
    case TY_I32: return WGSL_SCALAR_I32;
    case TY_U32: return WGSL_SCALAR_U32;
    case TY_F32: return WGSL_SCALAR_F32;
    case TY_F16: return WGSL_SCALAR_F16;
    default: return WGSL_SCALAR_UNDEFINED;
    }
}

static double number_of(const cv_value *v) {
    switch (v->type) {
    case TY_BOOL: return v->u.b ? 1 : 0;
    case TY_I32: case TY_U32: case TY_AINT: return (double)v->u.i;
    default: return v->u.f;
    }
}

void spv_reflect(wgsl_cc *cc, const uint32_t (*wg)[3], const uint64_t *wg_bytes) {
    const sema_module *sm = cc->sema;
    const ast_module *m = &cc->ast;
    wgsl_result *r = cc->res;
    if (!sm || !r) return;
    const ty_table *tt = &sm->tt;

    uint32_t nep = 0;
    for (uint32_t i = 0; i < sm->nfns; i++) nep += sm->fns[i].stage == WGSL_STAGE_COMPUTE;
    wgsl_entry_point *eps = nep ? arena_alloc(cc->res_arena, nep * sizeof *eps) : NULL;
    uint32_t *ep_fn = nep ? arena_alloc(&cc->arena, nep * sizeof *ep_fn) : NULL;
    uint32_t k = 0;
    for (uint32_t i = 0; i < sm->nfns; i++) {
        const sema_fn *f = &sm->fns[i];
        if (f->stage != WGSL_STAGE_COMPUTE) continue; /* the emitter makes compute entry points only */
        wgsl_entry_point *ep = &eps[k];
        ep_fn[k++] = i;
        ep->name = keep(cc, cc_str(cc, ast_get(m, f->node)->u.fn.name));
        ep->stage = f->stage;
        for (int d = 0; d < 3; d++) {
            ep->workgroup_size[d] = wg ? wg[i][d] : (f->wg_size[d] ? f->wg_size[d] : 1);
            ep->workgroup_size_override[d] = -1;
            if (!f->wg_size[d] && f->wg_expr[d])
                ep->workgroup_size_override[d] = first_override(sm, m, f->wg_expr[d], 0);
        }
        uint64_t bytes = wg_bytes ? wg_bytes[i] : f->workgroup_bytes;
        ep->workgroup_memory_bytes = bytes > UINT32_MAX ? UINT32_MAX : (uint32_t)bytes;
    }
    r->entry_points = eps;
    r->entry_point_count = nep;

    wgsl_binding *bs = sm->nresources ? arena_alloc(cc->res_arena, sm->nresources * sizeof *bs) : NULL;
    for (uint32_t i = 0; i < sm->nresources; i++) {
        uint32_t h = sm->resources[i];
        const sema_decl *d = sema_dc(sm, h);
        wgsl_binding *b = &bs[i];
        b->name = keep(cc, cc_str(cc, ast_get(m, h)->u.var.name));
        b->group = d->group;
        b->binding = d->binding;
        b->kind = d->as == TY_AS_UNIFORM ? WGSL_BINDING_UNIFORM
                : d->access == TY_ACCESS_READ ? WGSL_BINDING_STORAGE_READ : WGSL_BINDING_STORAGE_READ_WRITE;
        const ty_info *ti = ty_get(tt, d->type);
        if (ti->kind == TY_ARRAY && ti->array_kind == TY_ARRAY_RUNTIME) {
            b->min_size = 0;
            b->array_stride = ti->stride;
        } else if (ti->kind == TY_STRUCT && ti->nmembers && (ti->flags & TY_F_HAS_RUNTIME)) {
            const ty_member *last = &ti->members[ti->nmembers - 1];
            b->min_size = last->offset;
            b->array_stride = ty_get(tt, last->type)->stride;
        } else {
            b->min_size = ty_size_of(tt, d->type);
        }
        for (uint32_t e = 0; e < nep && e < 64; e++) {
            const sema_fn *f = &sm->fns[ep_fn[e]];
            for (uint32_t g = 0; g < f->nglobals; g++)
                if (f->globals[g] == h) b->entry_point_mask |= 1ull << e;
        }
    }
    r->bindings = bs;
    r->binding_count = sm->nresources;

    wgsl_override *os = sm->noverrides ? arena_alloc(cc->res_arena, sm->noverrides * sizeof *os) : NULL;
    for (uint32_t i = 0; i < sm->noverrides; i++) {
        uint32_t h = sm->overrides[i];
        const sema_decl *d = sema_dc(sm, h);
        wgsl_override *o = &os[i];
        o->name = keep(cc, cc_str(cc, ast_get(m, h)->u.var.name));
        o->id = d->override_id;
        o->has_explicit_id = d->has_id;
        o->type = scalar_of(d->type);
        o->has_default = ast_get(m, h)->u.var.init != 0;
        if (d->cval) o->default_value = number_of(sema_value(sm, d->cval));
    }
    r->overrides = os;
    r->override_count = sm->noverrides;
}
