/* builtins.c - the built-in function table, overload resolution for built-in functions and
 * operators, value-constructor typing, and constant evaluation of every @const built-in.
 *
 * Signatures are written in builtins.def in a small pattern language (described there).  A
 * signature is parsed once per compile into pattern nodes, cached on the type table.  Resolving a
 * call first walks each overload's parameter patterns against the argument types, binding
 * dimensions, address spaces, access modes and unification variables and narrowing each scalar type
 * variable to the scalars the arguments can convert to; then every remaining substitution of the
 * scalar variables becomes a candidate with one conversion rank per argument.  The candidate whose
 * rank is lowest for every argument wins (the spec's rule); if none dominates, the lowest sum does.
 *
 * Constant evaluation works on scalars: component-wise built-ins map a scalar function over the
 * vector components; floats are computed in double and rounded to the parameter's type, with the
 * spec's domain errors checked first and non-finite results reported as not representable. */
#include "wgsl/builtins.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- the table ------------------------------------------------------------------------------- */

#define BI(name, flags, eval, lf, ls, lu, aux, sig) \
    int bi_eval_##eval(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out);
#include "wgsl/builtins.def"
#undef BI

#define bi_eval_NOEVAL NULL
#define MU BI_F_MU
#define UNI BI_F_UNI
#define SUB BI_F_SUB
#define ATOM BI_F_ATOM
#define CARG1 BI_F_CARG1
#define TMPL BI_F_TMPL
#define COMP BI_F_COMP
#define SGM BI_F_SGM
#define FRAG BI_F_FRAG
#define GLSL(n, k) { BI_LK_GLSL, k, #n }
#define OP(n, k) { BI_LK_OP, k, #n }
#define ID { BI_LK_ID, 0, "" }
#define SPECIAL { BI_LK_SPECIAL, 0, "" }
#define NA { BI_LK_NA, 0, "" }
static const bi_info bi_table[] = {
    { "", 0, NULL, { NA, NA, NA }, 0, "" },
#define BI(name, flags, eval, lf, ls, lu, aux, sig) { #name, flags, bi_eval_##eval, { lf, ls, lu }, aux, sig },
#include "wgsl/builtins.def"
#undef BI
};
#undef MU
#undef UNI
#undef SUB
#undef ATOM
#undef CARG1
#undef TMPL
#undef COMP
#undef SGM
#undef FRAG
#undef GLSL
#undef OP
#undef ID
#undef SPECIAL
#undef NA
_Static_assert(sizeof bi_table / sizeof bi_table[0] == BI_COUNT, "builtin table size");

const bi_info *bi_get(bi_fn f) { return &bi_table[f < BI_COUNT ? f : 0]; }

bi_fn bi_lookup(const char *name, size_t len) {
    if (!len) return BI_NONE;
    for (int i = 1; i < BI_COUNT; i++) {
        const char *n = bi_table[i].name;
        if (n[0] == name[0] && strlen(n) == len && memcmp(n, name, len) == 0) return (bi_fn)i;
    }
    return BI_NONE;
}

static void msgf(char *msg, size_t size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void msgf(char *msg, size_t size, const char *fmt, ...) {
    if (!msg || !size) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, size, fmt, ap);
    va_end(ap);
}

/* ---- pattern language ------------------------------------------------------------------------ */

enum { P_SCALAR = 1, P_VAR, P_VEC, P_MAT, P_PTR, P_ATOMIC, P_RTARR, P_BS };
enum { S_NONE = 0, S_FIU, S_FI, S_FA, S_FC, S_IU, S_IU32, S_SC, S_CN, S_ANY, S_CONS, S_SW };

#define M(t) (1u << (t))
static const uint16_t set_masks[] = {
    [S_FIU] = M(TY_AINT) | M(TY_AFLOAT) | M(TY_I32) | M(TY_U32) | M(TY_F32) | M(TY_F16),
    [S_FI] = M(TY_AINT) | M(TY_AFLOAT) | M(TY_I32) | M(TY_F32) | M(TY_F16),
    [S_FA] = M(TY_AFLOAT) | M(TY_F32) | M(TY_F16),
    [S_FC] = M(TY_F32) | M(TY_F16),
    [S_IU] = M(TY_AINT) | M(TY_I32) | M(TY_U32),
    [S_IU32] = M(TY_I32) | M(TY_U32),
    [S_SC] = M(TY_BOOL) | M(TY_AINT) | M(TY_AFLOAT) | M(TY_I32) | M(TY_U32) | M(TY_F32) | M(TY_F16),
    [S_CN] = M(TY_I32) | M(TY_U32) | M(TY_F32) | M(TY_F16),
};
static const char *const set_names[] = {
    "", "fiu", "fi", "fa", "fc", "iu", "iu32", "sc", "cn", "any", "cons", "sw"
};
#define ABSTRACT_MASK (M(TY_AINT) | M(TY_AFLOAT))

#define PMAXN 24
typedef struct pnode {
    uint8_t kind, tilde;
    uint8_t var;                         /* P_VAR: letter index 0..25 */
    uint8_t d1, d2;                      /* dims: 2..4 literal, 'A'..'Z' variable */
    uint8_t as, am;                      /* ptr: literal enum (< 'A') or variable letter */
    uint8_t bs;                          /* P_BS: ty_builtin_struct */
    uint8_t child;
    ty_t t;                              /* P_SCALAR */
} pnode;

typedef struct povl {
    uint8_t nparams, ret;                /* ret: node index, 0xff = none */
    uint8_t params[BI_MAX_ARGS];
    uint8_t nnodes, has_tilde;
    uint8_t vset[26];                    /* declared variables: set id */
    pnode n[PMAXN];
} povl;

typedef struct psig {
    uint32_t novl;
    povl *ovl;
} psig;

/* Cache of parsed signatures, one per builtin and per operator, hung on the type table. */
#define OPSIG_BASE BI_COUNT
#define NSIGS (BI_COUNT + CV_BINOP_COUNT + CV_UNOP_COUNT)
typedef struct bi_cache { psig *sig[NSIGS]; } bi_cache;

typedef struct pparse {
    const char *s;
    povl *o;
    bool err;
} pparse;

static void skip_ws(pparse *p) { while (*p->s == ' ') p->s++; }

static size_t read_ident(pparse *p, char *buf, size_t cap) {
    skip_ws(p);
    size_t n = 0;
    while ((*p->s >= 'a' && *p->s <= 'z') || (*p->s >= 'A' && *p->s <= 'Z') || (*p->s >= '0' && *p->s <= '9') ||
           *p->s == '_') {
        if (n + 1 < cap) buf[n++] = *p->s;
        p->s++;
    }
    buf[n] = 0;
    return n;
}

static bool expect(pparse *p, char c) {
    skip_ws(p);
    if (*p->s != c) { p->err = true; return false; }
    p->s++;
    return true;
}

static uint8_t new_node(pparse *p) {
    if (p->o->nnodes >= PMAXN) { p->err = true; return 0; }
    uint8_t i = p->o->nnodes++;
    memset(&p->o->n[i], 0, sizeof p->o->n[i]);
    return i;
}

static uint8_t dim_of(char c) { return c >= '2' && c <= '4' ? (uint8_t)(c - '0') : (uint8_t)c; }

static uint8_t parse_type(pparse *p) {
    char id[24];
    size_t len = read_ident(p, id, sizeof id);
    if (!len) { p->err = true; return 0; }
    uint8_t i = new_node(p);
    if (p->err) return 0;
    pnode *n = &p->o->n[i];
    if (len == 1 && id[0] >= 'A' && id[0] <= 'Z') {
        n->kind = P_VAR;
        n->var = (uint8_t)(id[0] - 'A');
        if (!p->o->vset[n->var]) p->err = true;
    } else if (!strcmp(id, "bool")) { n->kind = P_SCALAR; n->t = TY_BOOL; }
    else if (!strcmp(id, "i32")) { n->kind = P_SCALAR; n->t = TY_I32; }
    else if (!strcmp(id, "u32")) { n->kind = P_SCALAR; n->t = TY_U32; }
    else if (!strcmp(id, "f32")) { n->kind = P_SCALAR; n->t = TY_F32; }
    else if (!strcmp(id, "f16")) { n->kind = P_SCALAR; n->t = TY_F16; }
    else if (!strcmp(id, "ai")) { n->kind = P_SCALAR; n->t = TY_AINT; }
    else if (!strcmp(id, "af")) { n->kind = P_SCALAR; n->t = TY_AFLOAT; }
    else if (len == 4 && !memcmp(id, "vec", 3)) {
        n->kind = P_VEC;
        n->d1 = dim_of(id[3]);
    } else if (len == 6 && !memcmp(id, "mat", 3) && id[4] == 'x') {
        n->kind = P_MAT;
        n->d1 = dim_of(id[3]);
        n->d2 = dim_of(id[5]);
    } else if (!strcmp(id, "ptr")) {
        n->kind = P_PTR;
        char a[16];
        expect(p, '<');
        size_t l = read_ident(p, a, sizeof a);
        p->o->n[i].as = l == 1 ? (uint8_t)a[0] : (uint8_t)ty_as_by_name(a, l);
        expect(p, ',');
        uint8_t c = parse_type(p);
        p->o->n[i].child = c;
        expect(p, ',');
        l = read_ident(p, a, sizeof a);
        p->o->n[i].am = l == 1 ? (uint8_t)a[0] : (uint8_t)ty_access_by_name(a, l);
        expect(p, '>');
        if (!p->o->n[i].as || !p->o->n[i].am) p->err = true;
        return i;
    } else if (!strcmp(id, "atomic")) n->kind = P_ATOMIC;
    else if (!strcmp(id, "array")) n->kind = P_RTARR;
    else if (!strcmp(id, "frexp")) { n->kind = P_BS; n->bs = TY_BS_FREXP; }
    else if (!strcmp(id, "modf")) { n->kind = P_BS; n->bs = TY_BS_MODF; }
    else if (!strcmp(id, "cmpxchg")) { n->kind = P_BS; n->bs = TY_BS_ATOMIC_CMPXCHG; }
    else { p->err = true; return 0; }
    if (n->kind >= P_VEC) {
        expect(p, '<');
        uint8_t c = parse_type(p);
        p->o->n[i].child = c;
        expect(p, '>');
    }
    skip_ws(p);
    if (*p->s == '~') {
        p->s++;
        p->o->n[i].tilde = 1;
        p->o->has_tilde = 1;
    }
    return i;
}

static int set_by_name(const char *s) {
    for (int i = 1; i < (int)(sizeof set_names / sizeof set_names[0]); i++)
        if (!strcmp(set_names[i], s)) return i;
    return S_NONE;
}

/* Parses one overload starting at p->s; stops after ';' or at the end. */
static void parse_ovl(pparse *p) {
    povl *o = p->o;
    memset(o, 0, sizeof *o);
    o->ret = 0xff;
    skip_ws(p);
    if (*p->s == '<') {
        p->s++;
        for (;;) {
            char v[8], set[8];
            size_t l = read_ident(p, v, sizeof v);
            if (l != 1 || v[0] < 'A' || v[0] > 'Z') { p->err = true; return; }
            expect(p, ':');
            read_ident(p, set, sizeof set);
            int s = set_by_name(set);
            if (!s) { p->err = true; return; }
            o->vset[v[0] - 'A'] = (uint8_t)s;
            skip_ws(p);
            if (*p->s == ',') { p->s++; continue; }
            break;
        }
        expect(p, '>');
    }
    expect(p, '(');
    skip_ws(p);
    if (*p->s != ')') {
        for (;;) {
            if (o->nparams >= BI_MAX_ARGS) { p->err = true; return; }
            o->params[o->nparams++] = parse_type(p);
            if (p->err) return;
            skip_ws(p);
            if (*p->s == ',') { p->s++; continue; }
            break;
        }
    }
    expect(p, ')');
    skip_ws(p);
    if (p->s[0] == '-' && p->s[1] == '>') {
        p->s += 2;
        o->ret = parse_type(p);
    }
    skip_ws(p);
    if (*p->s == ';') p->s++;
    else if (*p->s) p->err = true;
}

static const char *const binop_sigs[CV_BINOP_COUNT] = {
#define ARITH "<T:fiu>(T~,T~)->T~;<T:fiu>(vecN<T>,T)->vecN<T>;<T:fiu>(T,vecN<T>)->vecN<T>"
    [CV_ADD] = ARITH ";<T:fa>(matCxR<T>,matCxR<T>)->matCxR<T>",
    [CV_SUB] = ARITH ";<T:fa>(matCxR<T>,matCxR<T>)->matCxR<T>",
    [CV_MUL] = ARITH ";<T:fa>(matCxR<T>,T)->matCxR<T>;<T:fa>(T,matCxR<T>)->matCxR<T>"
               ";<T:fa>(matCxR<T>,vecC<T>)->vecR<T>;<T:fa>(vecR<T>,matCxR<T>)->vecC<T>"
               ";<T:fa>(matKxR<T>,matCxK<T>)->matCxR<T>",
    [CV_DIV] = ARITH,
    [CV_MOD] = ARITH,
#undef ARITH
    [CV_AND] = "(bool~,bool~)->bool~;<T:iu>(T~,T~)->T~",
    [CV_OR] = "(bool~,bool~)->bool~;<T:iu>(T~,T~)->T~",
    [CV_XOR] = "<T:iu>(T~,T~)->T~",
    [CV_SHL] = "<T:iu32>(T~,u32~)->T~;(ai~,u32~)->ai~",
    [CV_SHR] = "<T:iu32>(T~,u32~)->T~;(ai~,u32~)->ai~",
    [CV_LAND] = "(bool,bool)->bool",
    [CV_LOR] = "(bool,bool)->bool",
    [CV_EQ] = "<T:sc>(T~,T~)->bool~",
    [CV_NE] = "<T:sc>(T~,T~)->bool~",
    [CV_LT] = "<T:fiu>(T~,T~)->bool~",
    [CV_LE] = "<T:fiu>(T~,T~)->bool~",
    [CV_GT] = "<T:fiu>(T~,T~)->bool~",
    [CV_GE] = "<T:fiu>(T~,T~)->bool~",
};
static const char *const unop_sigs[CV_UNOP_COUNT] = {
    [CV_NEG] = "<T:fi>(T~)->T~",
    [CV_NOT] = "(bool~)->bool~",
    [CV_COMPL] = "<T:iu>(T~)->T~",
};

static const char *sig_text(uint32_t idx) {
    if (idx < OPSIG_BASE) return bi_table[idx].sig;
    if (idx < OPSIG_BASE + CV_BINOP_COUNT) return binop_sigs[idx - OPSIG_BASE];
    return unop_sigs[idx - OPSIG_BASE - CV_BINOP_COUNT];
}

static void *tt_zalloc(ty_table *tt, size_t n) {
    if (tt->oom) return NULL;
    void *p = tt->alloc(tt->ud, n);
    if (!p) { tt->oom = true; return NULL; }
    memset(p, 0, n);
    return p;
}

/* The parsed signature idx (NULL on OOM or a malformed table row). */
static const psig *get_sig(ty_table *tt, uint32_t idx) {
    bi_cache *c = tt->bi_cache;
    if (!c) {
        c = tt_zalloc(tt, sizeof *c);
        if (!c) return NULL;
        tt->bi_cache = c;
    }
    if (c->sig[idx]) return c->sig[idx];
    const char *s = sig_text(idx);
    uint32_t n = 1;
    for (const char *q = s; *q; q++) n += *q == ';';
    psig *ps = tt_zalloc(tt, sizeof *ps);
    povl *o = ps ? tt_zalloc(tt, n * sizeof *o) : NULL;
    if (!o) return NULL;
    pparse p = { s, NULL, false };
    ps->ovl = o;
    ps->novl = 0;
    if (*s) {
        while (*p.s && !p.err) {
            p.o = &o[ps->novl++];
            parse_ovl(&p);
        }
    }
    if (p.err) return NULL;
    c->sig[idx] = ps;
    return ps;
}

/* ---- matching -------------------------------------------------------------------------------- */

typedef struct env {
    uint32_t val[26];                    /* bound: type handle, dimension, address space or access */
    uint16_t mask[26];                   /* scalar variables: still-possible scalars */
    uint8_t shape;                       /* '~' shape: 0 unbound, 1 scalar, 2..4 vector width */
} env;

static uint16_t convertible_mask(ty_t s) {
    switch (s) {
    case TY_AINT: return M(TY_AINT) | M(TY_AFLOAT) | M(TY_I32) | M(TY_U32) | M(TY_F32) | M(TY_F16);
    case TY_AFLOAT: return M(TY_AFLOAT) | M(TY_F32) | M(TY_F16);
    default: return s >= TY_BOOL && s <= TY_F16 ? (uint16_t)M(s) : 0;
    }
}

static bool bind_dim(env *e, uint8_t d, uint32_t have) {
    if (d >= 2 && d <= 4) return d == have;
    uint32_t *v = &e->val[d - 'A'];
    if (!*v) *v = have;
    return *v == have;
}

static bool bind_enum(env *e, const povl *o, uint8_t pat, uint32_t have) {
    if (pat < 'A') return pat == have;
    uint8_t var = (uint8_t)(pat - 'A');
    if (o->vset[var] == S_SW && have != TY_AS_STORAGE && have != TY_AS_WORKGROUP) return false;
    if (!e->val[var]) e->val[var] = have;
    return e->val[var] == have;
}

/* Phase 1: structure.  Binds dimensions, shape, enums and unification variables; narrows scalar
 * variable masks.  `a` is the argument (sub)type. */
static bool bind(ty_table *tt, const povl *o, uint8_t ni, ty_t a, env *e) {
    const pnode *n = &o->n[ni];
    const ty_info *ai = ty_get(tt, a);
    if (n->kind == P_SCALAR || n->kind == P_VAR) {
        ty_t leaf = a;
        bool scalar_var = n->kind == P_VAR && o->vset[n->var] <= S_CN;
        if (n->tilde) {
            uint8_t sh;
            if (ai->kind == TY_VEC) { sh = ai->n; leaf = ai->elem; }
            else if (ty_is_scalar(tt, a)) sh = 1;
            else return false;
            if (!e->shape) e->shape = sh;
            if (e->shape != sh) return false;
        }
        if (n->kind == P_SCALAR) return ty_conversion_rank(tt, leaf, n->t) != TY_RANK_INF;
        if (scalar_var) {
            if (!ty_is_scalar(tt, leaf)) return false;
            e->mask[n->var] &= convertible_mask(leaf);
            return e->mask[n->var] != 0;
        }
        /* unification variable */
        if (o->vset[n->var] == S_CONS && (!ty_is_constructible(tt, leaf) || ty_is_abstract(tt, leaf))) return false;
        if (!e->val[n->var]) e->val[n->var] = leaf;
        return e->val[n->var] == leaf;
    }
    switch (n->kind) {
    case P_VEC:
        return ai->kind == TY_VEC && bind_dim(e, n->d1, ai->n) && bind(tt, o, n->child, ai->elem, e);
    case P_MAT:
        return ai->kind == TY_MAT && bind_dim(e, n->d1, ai->n) && bind_dim(e, n->d2, ai->rows) &&
               bind(tt, o, n->child, ai->elem, e);
    case P_PTR:
        return ai->kind == TY_PTR && bind_enum(e, o, n->as, ai->as) && bind_enum(e, o, n->am, ai->access) &&
               bind(tt, o, n->child, ai->elem, e);
    case P_ATOMIC:
        return ai->kind == TY_ATOMIC && bind(tt, o, n->child, ai->elem, e);
    case P_RTARR:
        return ai->kind == TY_ARRAY && ai->array_kind == TY_ARRAY_RUNTIME && bind(tt, o, n->child, ai->elem, e);
    default:
        return false;
    }
}

static uint32_t dimval(const env *e, uint8_t d) { return d >= 2 && d <= 4 ? d : e->val[d - 'A']; }
static uint32_t enumval(const env *e, uint8_t x) { return x < 'A' ? x : e->val[x - 'A']; }

/* Phase 2: the concrete type of a pattern under a full substitution (0 if something is unbound). */
static ty_t build(ty_table *tt, const povl *o, uint8_t ni, const env *e) {
    const pnode *n = &o->n[ni];
    ty_t t = 0;
    switch (n->kind) {
    case P_SCALAR: t = n->t; break;
    case P_VAR: t = e->val[n->var]; break;
    case P_VEC: return ty_vec(tt, dimval(e, n->d1), build(tt, o, n->child, e));
    case P_MAT: return ty_mat(tt, dimval(e, n->d1), dimval(e, n->d2), build(tt, o, n->child, e));
    case P_PTR: return ty_ptr(tt, (ty_as)enumval(e, n->as), build(tt, o, n->child, e), (ty_access)enumval(e, n->am));
    case P_ATOMIC: return ty_atomic(tt, build(tt, o, n->child, e));
    case P_RTARR: return ty_array_runtime(tt, build(tt, o, n->child, e));
    case P_BS: return ty_builtin_struct_of(tt, (ty_builtin_struct)n->bs, build(tt, o, n->child, e));
    default: return 0;
    }
    if (n->tilde && e->shape > 1) t = ty_vec(tt, e->shape, t);
    return t;
}

#define MAX_CANDS 96
typedef struct cand {
    uint16_t ovl;
    int rank[BI_MAX_ARGS];
    ty_t params[BI_MAX_ARGS];
    ty_t ret;
} cand;

typedef struct cands {
    cand c[MAX_CANDS];
    uint32_t n;
} cands;

static void try_overload(ty_table *tt, const povl *o, uint16_t oi, const ty_t *args, uint32_t nargs,
                         bool allow_abstract, cands *cs) {
    if (o->nparams != nargs) return;
    env e;
    memset(&e, 0, sizeof e);
    uint8_t vars[26];
    uint32_t nvars = 0;
    for (int v = 0; v < 26; v++) {
        if (o->vset[v] && o->vset[v] <= S_CN) {
            e.mask[v] = set_masks[o->vset[v]];
            if (!allow_abstract) e.mask[v] &= (uint16_t)~ABSTRACT_MASK;
            vars[nvars++] = (uint8_t)v;
        }
    }
    for (uint32_t i = 0; i < nargs; i++)
        if (!bind(tt, o, o->params[i], ty_unref(tt, args[i]), &e)) return;
    if (o->has_tilde && !e.shape) e.shape = 1;
    /* enumerate the scalar variables over their remaining scalars (an odometer) */
    uint8_t opts[26][8];
    uint32_t nopt[26], idx[26];
    for (uint32_t k = 0; k < nvars; k++) {
        nopt[k] = 0;
        idx[k] = 0;
        for (ty_t t = TY_BOOL; t <= TY_F16; t++)
            if (e.mask[vars[k]] & M(t)) opts[k][nopt[k]++] = (uint8_t)t;
        if (!nopt[k]) return;
    }
    for (;;) {
        for (uint32_t k = 0; k < nvars; k++) e.val[vars[k]] = opts[k][idx[k]];
        cand c;
        memset(&c, 0, sizeof c);
        c.ovl = oi;
        bool feasible = true;
        for (uint32_t i = 0; i < nargs && feasible; i++) {
            c.params[i] = build(tt, o, o->params[i], &e);
            c.rank[i] = c.params[i] ? ty_conversion_rank(tt, ty_unref(tt, args[i]), c.params[i]) : TY_RANK_INF;
            if (c.rank[i] == TY_RANK_INF) feasible = false;
        }
        if (feasible && o->ret != 0xff) {
            c.ret = build(tt, o, o->ret, &e);
            if (!c.ret) feasible = false;
            if (!allow_abstract && ty_is_abstract(tt, c.ret)) feasible = false;
        }
        if (feasible && cs->n < MAX_CANDS) cs->c[cs->n++] = c;
        uint32_t k = 0;
        while (k < nvars && ++idx[k] == nopt[k]) { idx[k] = 0; k++; }
        if (k == nvars) return;
    }
}

/* The spec's choice: a candidate at least as good as every other for each argument. */
static int pick_best(const cands *cs, uint32_t nargs) {
    if (!cs->n) return -1;
    for (uint32_t a = 0; a < cs->n; a++) {
        bool best = true;
        for (uint32_t b = 0; b < cs->n && best; b++)
            for (uint32_t i = 0; i < nargs; i++)
                if (cs->c[a].rank[i] > cs->c[b].rank[i]) { best = false; break; }
        if (best) return (int)a;
    }
    int bi = 0;
    long bsum = -1;
    for (uint32_t a = 0; a < cs->n; a++) {
        long s = 0;
        for (uint32_t i = 0; i < nargs; i++) s += cs->c[a].rank[i];
        if (bsum < 0 || s < bsum) { bsum = s; bi = (int)a; }
    }
    return bi;
}

/* ---- messages -------------------------------------------------------------------------------- */

typedef struct sbuf { char *p; size_t cap, len; } sbuf;

static void sb_puts(sbuf *b, const char *s) {
    size_t l = strlen(s);
    for (size_t i = 0; i < l; i++) {
        if (b->len + 1 < b->cap) b->p[b->len] = s[i];
        b->len++;
    }
    if (b->cap) b->p[b->len < b->cap ? b->len : b->cap - 1] = 0;
}

static void sb_printf(sbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void sb_printf(sbuf *b, const char *fmt, ...) {
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    sb_puts(b, tmp);
}

static void render_type(sbuf *b, const povl *o, uint8_t ni, bool vec_form) {
    const pnode *n = &o->n[ni];
    char d[4] = { 0 };
    if (n->tilde && vec_form) sb_puts(b, "vecN<");
    switch (n->kind) {
    case P_SCALAR: sb_puts(b, n->t == TY_AINT ? "abstract-int" : n->t == TY_AFLOAT ? "abstract-float" :
                              (const char *[]){ "", "", "bool", "", "", "i32", "u32", "f32", "f16" }[n->t]); break;
    case P_VAR: d[0] = (char)('A' + n->var); sb_puts(b, d); break;
    case P_VEC:
        sb_printf(b, "vec%c<", n->d1 <= 4 ? (char)('0' + n->d1) : (char)n->d1);
        render_type(b, o, n->child, vec_form);
        sb_puts(b, ">");
        break;
    case P_MAT:
        sb_printf(b, "mat%cx%c<", n->d1 <= 4 ? (char)('0' + n->d1) : (char)n->d1,
                  n->d2 <= 4 ? (char)('0' + n->d2) : (char)n->d2);
        render_type(b, o, n->child, vec_form);
        sb_puts(b, ">");
        break;
    case P_PTR:
        sb_puts(b, "ptr<");
        if (n->as < 'A') sb_puts(b, ty_as_name((ty_as)n->as)); else { d[0] = (char)n->as; sb_puts(b, d); }
        sb_puts(b, ", ");
        render_type(b, o, n->child, vec_form);
        sb_puts(b, ", ");
        if (n->am < 'A') sb_puts(b, ty_access_name((ty_access)n->am)); else { d[0] = (char)n->am; sb_puts(b, d); }
        sb_puts(b, ">");
        break;
    case P_ATOMIC: sb_puts(b, "atomic<"); render_type(b, o, n->child, vec_form); sb_puts(b, ">"); break;
    case P_RTARR: sb_puts(b, "array<"); render_type(b, o, n->child, vec_form); sb_puts(b, ">"); break;
    case P_BS:
        sb_puts(b, n->bs == TY_BS_FREXP ? "__frexp_result<" : n->bs == TY_BS_MODF ? "__modf_result<" :
                                                              "__atomic_compare_exchange_result<");
        render_type(b, o, n->child, vec_form);
        sb_puts(b, ">");
        break;
    default: break;
    }
    if (n->tilde && vec_form) sb_puts(b, ">");
}

/* The candidate list under a "no matching call" message, in the shape Tint prints:
 *     2 candidate functions:
 *      • 'max(T, T) -> T' where:
 *           • 'T' is 'abstract-float', 'abstract-int', 'f32', 'i32', 'u32' or 'f16'  */
static void render_candidates(sbuf *b, const char *what, const char *fname, const psig *ps) {
    uint32_t count = 0;
    for (uint32_t k = 0; k < ps->novl; k++) count += ps->ovl[k].has_tilde ? 2 : 1;
    sb_printf(b, "\n\n%u candidate %s%s:", (unsigned)count, what, count == 1 ? "" : "s");
    static const char *const scalar_names[] = { "", "", "bool", "abstract-int", "abstract-float", "i32", "u32", "f32", "f16" };
    static const ty_t order[] = { TY_AFLOAT, TY_AINT, TY_F32, TY_I32, TY_U32, TY_F16, TY_BOOL };
    for (uint32_t k = 0; k < ps->novl; k++) {
        const povl *o = &ps->ovl[k];
        for (int form = 0; form < (o->has_tilde ? 2 : 1); form++) {
            sb_puts(b, "\n \xe2\x80\xa2 '");
            sb_puts(b, fname);
            sb_puts(b, "(");
            for (uint32_t i = 0; i < o->nparams; i++) {
                if (i) sb_puts(b, ", ");
                render_type(b, o, o->params[i], form == 1);
            }
            sb_puts(b, ")");
            if (o->ret != 0xff) { sb_puts(b, " -> "); render_type(b, o, o->ret, form == 1); }
            sb_puts(b, "'");
            bool first = true;
            for (int v = 0; v < 26; v++) {
                if (!o->vset[v] || (o->vset[v] > S_CN && o->vset[v] != S_SW)) continue;
                if (first) sb_puts(b, " where:");
                first = false;
                sb_printf(b, "\n      \xe2\x80\xa2 '%c' is ", 'A' + v);
                if (o->vset[v] == S_SW) { sb_puts(b, "'storage' or 'workgroup'"); continue; }
                uint16_t m = set_masks[o->vset[v]];
                int nm = 0, seen = 0;
                for (int t = TY_BOOL; t <= TY_F16; t++) nm += (m >> t) & 1;
                for (size_t oi = 0; oi < sizeof order / sizeof order[0]; oi++) {
                    ty_t t = order[oi];
                    if (!((m >> t) & 1)) continue;
                    seen++;
                    sb_printf(b, "%s'%s'", seen == 1 ? "" : seen == nm ? " or " : ", ", scalar_names[t]);
                }
            }
        }
    }
}

static void no_match_message(ty_table *tt, char *msg, size_t size, const char *head, const char *fname,
                             const ty_t *args, uint32_t nargs, const psig *ps, const char *what) {
    sbuf b = { msg, size, 0 };
    if (size) msg[0] = 0;
    sb_puts(&b, head);
    sb_puts(&b, " '");
    sb_puts(&b, fname);
    sb_puts(&b, "(");
    for (uint32_t i = 0; i < nargs; i++) {
        if (i) sb_puts(&b, ", ");
        sb_puts(&b, ty_name(tt, ty_unref(tt, args[i])));
    }
    sb_puts(&b, ")'");
    if (ps && ps->novl) render_candidates(&b, what, fname, ps);
}

/* ---- resolution entry points ----------------------------------------------------------------- */

static ty_t key_scalar(const ty_table *tt, ty_t t) {
    for (int guard = 0; guard < 8; guard++) {
        const ty_info *r = ty_get(tt, t);
        switch ((ty_kind)r->kind) {
        case TY_PTR: case TY_REF: case TY_ATOMIC: case TY_VEC: case TY_MAT: case TY_ARRAY: t = r->elem; continue;
        default: return t;
        }
    }
    return t;
}

static bi_lower pick_lower(const ty_table *tt, const bi_info *bi, const bi_match *m) {
    ty_t k = key_scalar(tt, m->nparams ? m->params[0] : m->ret);
    int slot = ty_is_float_scalar(tt, k) ? 0 : (k == TY_I32 || k == TY_AINT) ? 1 : 2;
    return bi->lower[slot];
}

static int resolve_bitcast(ty_table *tt, ty_t tmpl, const ty_t *args, uint32_t nargs, bi_match *out,
                           char *msg, size_t msgsize) {
    if (!tmpl || nargs != 1) {
        msgf(msg, msgsize, tmpl ? "no matching call to 'bitcast<%s>' with %u arguments" :
                                  "missing template argument for 'bitcast'", tmpl ? ty_name(tt, tmpl) : "",
             (unsigned)nargs);
        return 1;
    }
    ty_t a = ty_unref(tt, args[0]);
    ty_t src = a;
    ty_t ts = ty_scalar_of(tt, tmpl);
    uint32_t tbits = ts == TY_F16 ? 16 : 32;
    uint32_t want = ty_width(tt, tmpl) * tbits;
    if (ty_is_abstract(tt, a)) {
        /* lowest-ranked concrete 32-bit form that fits: i32, then u32, then f32 */
        static const ty_t order[3] = { TY_I32, TY_U32, TY_F32 };
        src = 0;
        for (int i = 0; i < 3 && !src; i++) {
            ty_t c = ty_with_scalar(tt, a, order[i]);
            if (c && ty_conversion_rank(tt, a, c) != TY_RANK_INF) src = c;
        }
    }
    ty_t ss = ty_scalar_of(tt, src);
    bool ok = ts && ss && ts != TY_BOOL && ss != TY_BOOL && !ty_is_abstract(tt, tmpl) &&
              !ty_is_mat(tt, tmpl) && !ty_is_mat(tt, src) &&
              ty_width(tt, src) * (ss == TY_F16 ? 16u : 32u) == want;
    if (!ok) {
        msgf(msg, msgsize, "no matching call to 'bitcast<%s>(%s)'", ty_name(tt, tmpl), ty_name(tt, a));
        return 1;
    }
    memset(out, 0, sizeof *out);
    out->fn = BI_bitcast;
    out->nparams = 1;
    out->params[0] = src;
    out->ret = tmpl;
    out->lower = bi_table[BI_bitcast].lower[0];
    return 0;
}

int bi_resolve(ty_table *tt, bi_fn fn, ty_t tmpl, const ty_t *args, uint32_t nargs, bool all_const,
               bi_match *out, char *msg, size_t msgsize) {
    if (fn <= BI_NONE || fn >= BI_COUNT) { msgf(msg, msgsize, "unknown builtin"); return 1; }
    const bi_info *bi = &bi_table[fn];
    if (bi->flags & BI_F_TMPL) return resolve_bitcast(tt, tmpl, args, nargs, out, msg, msgsize);
    if (tmpl) {
        msgf(msg, msgsize, "'%s' does not take template arguments", bi->name);
        return 1;
    }
    const psig *ps = get_sig(tt, (uint32_t)fn);
    if (!ps) { msgf(msg, msgsize, "out of memory"); return 1; }
    cands cs;
    cs.n = 0;
    bool allow_abstract = all_const && bi->eval != NULL;
    for (uint32_t k = 0; k < ps->novl; k++)
        try_overload(tt, &ps->ovl[k], (uint16_t)k, args, nargs, allow_abstract, &cs);
    int best = pick_best(&cs, nargs);
    if (best < 0) {
        no_match_message(tt, msg, msgsize, "no matching call to", bi->name, args, nargs, ps, "function");
        return 1;
    }
    const cand *c = &cs.c[best];
    memset(out, 0, sizeof *out);
    out->fn = fn;
    out->ovl = c->ovl;
    out->nparams = (uint16_t)nargs;
    for (uint32_t i = 0; i < nargs; i++) out->params[i] = c->params[i];
    out->ret = c->ret;
    out->aux = bi->aux;
    out->lower = pick_lower(tt, bi, out);
    return 0;
}

/* Per-builtin limits on constant arguments: [lo, hi) with lo checked only for signed types. */
static const struct {
    bi_fn fn;
    uint8_t arg;
    const char *name;
    int64_t lo, hi;
} const_arg_limits[] = {
    { BI_subgroupBroadcast, 1, "sourceLaneIndex", 0, 128 },
    { BI_subgroupShuffle, 1, "sourceLaneIndex", 0, 128 },
    { BI_subgroupShuffleXor, 1, "mask", 0, 128 },
    { BI_subgroupShuffleUp, 1, "delta", 0, 128 },
    { BI_subgroupShuffleDown, 1, "delta", 0, 128 },
    { BI_quadBroadcast, 1, "id", 0, 4 },
};

static const cv_value *comp(const cv_value *v, uint32_t i) { return v->n ? &v->u.elems[i] : v; }

int bi_check_const_args(ty_table *tt, const bi_match *m, const cv_value *const *vals, uint32_t nargs,
                        char *msg, size_t msgsize) {
    const char *fname = bi_table[m->fn < BI_COUNT ? m->fn : 0].name;
    for (size_t i = 0; i < sizeof const_arg_limits / sizeof const_arg_limits[0]; i++) {
        if (const_arg_limits[i].fn != m->fn) continue;
        uint32_t a = const_arg_limits[i].arg;
        if (a >= nargs || !vals[a] || vals[a]->n) continue;
        int64_t v = vals[a]->u.i;
        if (v < const_arg_limits[i].lo) {
            msgf(msg, msgsize, "the %s argument of %s must be greater than or equal to zero",
                 const_arg_limits[i].name, fname);
            return (int)a;
        }
        if (v >= const_arg_limits[i].hi) {
            msgf(msg, msgsize, "the %s argument of %s must be less than %lld", const_arg_limits[i].name,
                 fname, (long long)const_arg_limits[i].hi);
            return (int)a;
        }
    }
    char b1[64], b2[64];
    switch (m->fn) {
    case BI_extractBits: case BI_insertBits: {
        uint32_t o = m->fn == BI_extractBits ? 1 : 2;
        if (o + 1 < nargs && vals[o] && vals[o + 1] &&
            (uint64_t)vals[o]->u.i + (uint64_t)vals[o + 1]->u.i > 32) {
            msgf(msg, msgsize, "'offset' + 'count' must be less than or equal to the bit width of 'e'");
            return (int)o;
        }
        break;
    }
    case BI_ldexp: {
        if (nargs < 2 || !vals[1]) break;
        ty_t s = ty_scalar_of(tt, m->params[0]);
        int64_t lim = s == TY_F32 ? 128 : s == TY_F16 ? 16 : 1024;
        uint32_t n = vals[1]->n ? vals[1]->n : 1;
        for (uint32_t i = 0; i < n; i++)
            if (comp(vals[1], i)->u.i > lim) {
                msgf(msg, msgsize, "e2 must be less than or equal to %lld", (long long)lim);
                return 1;
            }
        break;
    }
    case BI_clamp: case BI_smoothstep: {
        uint32_t lo = m->fn == BI_clamp ? 1 : 0, hi = lo + 1;
        if (hi >= nargs || !vals[lo] || !vals[hi]) break;
        uint32_t n = vals[lo]->n ? vals[lo]->n : 1;
        for (uint32_t i = 0; i < n; i++) {
            const cv_value *l = comp(vals[lo], i), *h = comp(vals[hi], i);
            bool fl = l->type == TY_AFLOAT || l->type == TY_F32 || l->type == TY_F16;
            if (m->fn == BI_clamp && (fl ? l->u.f > h->u.f : l->u.i > h->u.i)) {
                msgf(msg, msgsize, "clamp called with 'low' (%s) greater than 'high' (%s)",
                     cv_format(tt, l, b1, sizeof b1), cv_format(tt, h, b2, sizeof b2));
                return (int)lo;
            }
            if (m->fn == BI_smoothstep && l->u.f == h->u.f) {
                msgf(msg, msgsize, "smoothstep called with 'low' (%s) equal to 'high' (%s)",
                     cv_format(tt, l, b1, sizeof b1), cv_format(tt, h, b2, sizeof b2));
                return (int)lo;
            }
        }
        break;
    }
    default: break;
    }
    return -1;
}

static int resolve_op(ty_table *tt, uint32_t sigidx, const char *opname, const ty_t *args, uint32_t nargs,
                      bool all_const, bi_opmatch *out, char *msg, size_t msgsize) {
    const psig *ps = get_sig(tt, sigidx);
    if (!ps) { msgf(msg, msgsize, "out of memory"); return 1; }
    cands cs;
    cs.n = 0;
    for (uint32_t k = 0; k < ps->novl; k++)
        try_overload(tt, &ps->ovl[k], (uint16_t)k, args, nargs, all_const, &cs);
    int best = pick_best(&cs, nargs);
    if (best < 0) {
        char head[64];
        snprintf(head, sizeof head, "operator %s ", opname);
        sbuf b = { msg, msgsize, 0 };
        if (msgsize) msg[0] = 0;
        sb_puts(&b, "no matching overload for '");
        sb_puts(&b, head);
        sb_puts(&b, "(");
        for (uint32_t i = 0; i < nargs; i++) {
            if (i) sb_puts(&b, ", ");
            sb_puts(&b, ty_name(tt, ty_unref(tt, args[i])));
        }
        sb_puts(&b, ")'");
        render_candidates(&b, "operator", head, ps);
        return 1;
    }
    out->lhs = cs.c[best].params[0];
    out->rhs = nargs > 1 ? cs.c[best].params[1] : 0;
    out->ret = cs.c[best].ret;
    return 0;
}

int bi_resolve_binary(ty_table *tt, cv_binop op, ty_t lhs, ty_t rhs, bool all_const, bi_opmatch *out,
                      char *msg, size_t msgsize) {
    lhs = ty_unref(tt, lhs);
    rhs = ty_unref(tt, rhs);
    if (op >= CV_BINOP_COUNT) { msgf(msg, msgsize, "bad operator"); return 1; }
    /* fast path: identical concrete scalar/vector operands */
    if (lhs == rhs && !ty_is_abstract(tt, lhs) && (ty_is_scalar(tt, lhs) || ty_is_vec(tt, lhs))) {
        ty_t s = ty_scalar_of(tt, lhs);
        bool num = s != TY_BOOL;
        bool ok = false;
        ty_t ret = lhs;
        switch (op) {
        case CV_ADD: case CV_SUB: case CV_MUL: case CV_DIV: case CV_MOD: ok = num; break;
        case CV_AND: case CV_OR: ok = !ty_is_float_scalar(tt, s); break;
        case CV_XOR: ok = s == TY_I32 || s == TY_U32; break;
        case CV_LAND: case CV_LOR: ok = lhs == TY_BOOL; break;
        case CV_EQ: case CV_NE: ok = true; ret = ty_with_scalar(tt, lhs, TY_BOOL); break;
        case CV_LT: case CV_LE: case CV_GT: case CV_GE: ok = num; ret = ty_with_scalar(tt, lhs, TY_BOOL); break;
        default: break;
        }
        if (ok) { out->lhs = lhs; out->rhs = rhs; out->ret = ret; return 0; }
    }
    ty_t args[2] = { lhs, rhs };
    return resolve_op(tt, OPSIG_BASE + op, cv_binop_str(op), args, 2, all_const, out, msg, msgsize);
}

int bi_resolve_unary(ty_table *tt, cv_unop op, ty_t operand, bool all_const, bi_opmatch *out,
                     char *msg, size_t msgsize) {
    operand = ty_unref(tt, operand);
    if (op >= CV_UNOP_COUNT) { msgf(msg, msgsize, "bad operator"); return 1; }
    return resolve_op(tt, OPSIG_BASE + CV_BINOP_COUNT + op, cv_unop_str(op), &operand, 1, all_const, out,
                      msg, msgsize);
}

/* ---- value constructors ---------------------------------------------------------------------- */

/* The scalar all of `args` (their leaf scalars) convert to with the lowest total rank; 0 if none.
 * `floats_only` restricts to floating point (matrices). */
static ty_t common_scalar(ty_table *tt, const ty_t *args, uint32_t nargs, bool floats_only) {
    ty_t best = 0;
    long bsum = -1;
    for (ty_t s = TY_BOOL; s <= TY_F16; s++) {
        if (floats_only && !ty_is_float_scalar(tt, s)) continue;
        long sum = 0;
        bool ok = true;
        for (uint32_t i = 0; i < nargs && ok; i++) {
            ty_t leaf = ty_scalar_of(tt, ty_unref(tt, args[i]));
            int r = leaf ? ty_conversion_rank(tt, leaf, s) : TY_RANK_INF;
            if (r == TY_RANK_INF) ok = false;
            else sum += r;
        }
        if (ok && (bsum < 0 || sum < bsum)) { bsum = sum; best = s; }
    }
    return best;
}

static ty_t common_type(ty_table *tt, const ty_t *args, uint32_t nargs) {
    ty_t best = 0;
    long bsum = -1;
    for (uint32_t c = 0; c < nargs; c++) {
        ty_t cand_t = ty_unref(tt, args[c]);
        ty_t tries[2] = { cand_t, ty_concretize(tt, cand_t) };
        for (int k = 0; k < 2; k++) {
            long sum = 0;
            bool ok = true;
            for (uint32_t i = 0; i < nargs && ok; i++) {
                int r = ty_conversion_rank(tt, ty_unref(tt, args[i]), tries[k]);
                if (r == TY_RANK_INF) ok = false;
                else sum += r;
            }
            if (ok && (bsum < 0 || sum < bsum)) { bsum = sum; best = tries[k]; }
        }
    }
    /* abstract-int args mixed with abstract-float args: the float form */
    if (!best) {
        for (uint32_t c = 0; c < nargs && !best; c++) {
            ty_t t = ty_unref(tt, args[c]);
            if (ty_scalar_of(tt, t) == TY_AINT) {
                ty_t f = ty_with_scalar(tt, t, TY_AFLOAT);
                bool ok = true;
                for (uint32_t i = 0; i < nargs && ok; i++)
                    ok = ty_conversion_rank(tt, ty_unref(tt, args[i]), f) != TY_RANK_INF;
                if (ok) best = f;
            }
        }
    }
    return best;
}

static int ctor_fail(ty_table *tt, ty_t type, const char *pname, const ty_t *args, uint32_t nargs,
                     char *msg, size_t msgsize) {
    sbuf b = { msg, msgsize, 0 };
    if (msgsize) msg[0] = 0;
    sb_puts(&b, "no matching constructor for '");
    sb_puts(&b, type ? ty_name(tt, type) : pname);
    sb_puts(&b, "(");
    for (uint32_t i = 0; i < nargs; i++) {
        if (i) sb_puts(&b, ", ");
        sb_puts(&b, ty_name(tt, ty_unref(tt, args[i])));
    }
    sb_puts(&b, ")'");
    return 1;
}

static const char *const partial_names[BI_PARTIAL_COUNT] = {
    "", "vec2", "vec3", "vec4", "mat2x2", "mat2x3", "mat2x4", "mat3x2", "mat3x3", "mat3x4",
    "mat4x2", "mat4x3", "mat4x4", "array"
};

/* Types the arguments of a full vecN<T>(...) or matCxR<T>(...). */
static int ctor_vec_mat(ty_table *tt, ty_t type, const ty_t *args, uint32_t nargs, ty_t *params) {
    const ty_info *r = ty_get(tt, type);
    ty_t s = r->elem;
    if (nargs == 1) {
        ty_t a = ty_unref(tt, args[0]);
        const ty_info *ai = ty_get(tt, a);
        /* identity / conversion: same shape, any scalar (matrices: float) */
        if (ai->kind == r->kind && ai->n == r->n && ai->rows == r->rows) {
            params[0] = ty_conversion_rank(tt, a, type) != TY_RANK_INF ? type : a;
            if (r->kind == TY_MAT && !ty_is_float_scalar(tt, ai->elem)) return 1;
            return 0;
        }
        if (r->kind == TY_VEC && ty_is_scalar(tt, a) && ty_conversion_rank(tt, a, s) != TY_RANK_INF) {
            params[0] = s;                               /* splat */
            return 0;
        }
        if (r->kind == TY_VEC) return 1;
    }
    uint32_t want = r->kind == TY_VEC ? r->n : r->n * r->rows;
    uint32_t got = 0;
    bool all_scalar = true, all_cols = r->kind == TY_MAT && nargs == r->n;
    ty_t col = r->kind == TY_MAT ? ty_mat_column(tt, type) : 0;
    for (uint32_t i = 0; i < nargs; i++) {
        ty_t a = ty_unref(tt, args[i]);
        if (ty_is_scalar(tt, a)) {
            if (ty_conversion_rank(tt, a, s) == TY_RANK_INF) return 1;
            params[i] = s;
            got += 1;
            all_cols = false;
        } else if (ty_is_vec(tt, a) && r->kind == TY_VEC) {
            ty_t v = ty_vec(tt, ty_width(tt, a), s);
            if (ty_conversion_rank(tt, a, v) == TY_RANK_INF) return 1;
            params[i] = v;
            got += ty_width(tt, a);
            all_scalar = false;
        } else if (r->kind == TY_MAT && ty_conversion_rank(tt, a, col) != TY_RANK_INF) {
            params[i] = col;
            all_scalar = false;
        } else {
            return 1;
        }
    }
    if (r->kind == TY_MAT) return (all_cols || (all_scalar && got == want)) ? 0 : 1;
    return got == want ? 0 : 1;
}

int bi_resolve_ctor(ty_table *tt, ty_t type, bi_partial partial, const ty_t *args, uint32_t nargs,
                    bool all_const, ty_t *ret, ty_t *params, char *msg, size_t msgsize) {
    (void)all_const;
    const char *pname = partial < BI_PARTIAL_COUNT ? partial_names[partial] : "?";
    if (partial != BI_PARTIAL_NONE) {
        /* infer the full type */
        if (partial == BI_PARTIAL_ARRAY) {
            if (!nargs) return ctor_fail(tt, 0, "array", args, nargs, msg, msgsize);
            ty_t e = common_type(tt, args, nargs);
            if (!e || !ty_is_constructible(tt, e)) return ctor_fail(tt, 0, "array", args, nargs, msg, msgsize);
            type = ty_array(tt, e, nargs);
        } else if (partial <= BI_PARTIAL_VEC4) {
            uint32_t n = (uint32_t)partial - BI_PARTIAL_VEC2 + 2;
            ty_t s = nargs ? common_scalar(tt, args, nargs, false) : TY_AINT;
            /* a single vector argument of the same width converts as itself */
            if (nargs == 1 && ty_is_vec(tt, ty_unref(tt, args[0])) && ty_width(tt, ty_unref(tt, args[0])) == n)
                s = ty_scalar_of(tt, ty_unref(tt, args[0]));
            if (!s) return ctor_fail(tt, 0, pname, args, nargs, msg, msgsize);
            type = ty_vec(tt, n, s);
        } else {
            uint32_t k = (uint32_t)partial - BI_PARTIAL_MAT2X2;
            uint32_t c = 2 + k / 3, rr = 2 + k % 3;
            ty_t s = nargs ? common_scalar(tt, args, nargs, true) : TY_AFLOAT;
            if (nargs == 1 && ty_is_mat(tt, ty_unref(tt, args[0]))) s = ty_scalar_of(tt, ty_unref(tt, args[0]));
            if (!s) return ctor_fail(tt, 0, pname, args, nargs, msg, msgsize);
            type = ty_mat(tt, c, rr, s);
        }
        if (!type) return ctor_fail(tt, 0, pname, args, nargs, msg, msgsize);
    }
    *ret = type;
    const ty_info *r = ty_get(tt, type);
    if (nargs == 0) {
        if (!ty_is_constructible(tt, type)) return ctor_fail(tt, type, pname, args, nargs, msg, msgsize);
        return 0;
    }
    if (nargs > 16 && r->kind != TY_ARRAY && r->kind != TY_STRUCT)
        return ctor_fail(tt, type, pname, args, nargs, msg, msgsize);
    if (ty_is_scalar(tt, type)) {
        if (nargs != 1) return ctor_fail(tt, type, pname, args, nargs, msg, msgsize);
        ty_t a = ty_unref(tt, args[0]);
        if (!ty_is_scalar(tt, a)) return ctor_fail(tt, type, pname, args, nargs, msg, msgsize);
        params[0] = ty_conversion_rank(tt, a, type) != TY_RANK_INF ? type : a;
        return 0;
    }
    switch ((ty_kind)r->kind) {
    case TY_VEC: case TY_MAT:
        if (nargs > BI_MAX_ARGS * 4 || ctor_vec_mat(tt, type, args, nargs, params))
            return ctor_fail(tt, type, pname, args, nargs, msg, msgsize);
        return 0;
    case TY_ARRAY:
        if (r->array_kind != TY_ARRAY_FIXED || nargs != r->count || !ty_is_constructible(tt, type))
            return ctor_fail(tt, type, pname, args, nargs, msg, msgsize);
        for (uint32_t i = 0; i < nargs; i++) {
            if (ty_conversion_rank(tt, ty_unref(tt, args[i]), r->elem) == TY_RANK_INF)
                return ctor_fail(tt, type, pname, args, nargs, msg, msgsize);
            params[i] = r->elem;
        }
        return 0;
    case TY_STRUCT:
        if (nargs != r->nmembers || !ty_is_constructible(tt, type))
            return ctor_fail(tt, type, pname, args, nargs, msg, msgsize);
        for (uint32_t i = 0; i < nargs; i++) {
            if (ty_conversion_rank(tt, ty_unref(tt, args[i]), r->members[i].type) == TY_RANK_INF)
                return ctor_fail(tt, type, pname, args, nargs, msg, msgsize);
            params[i] = r->members[i].type;
        }
        return 0;
    default:
        return ctor_fail(tt, type, pname, args, nargs, msg, msgsize);
    }
}

int bi_eval_ctor(cv_ctx *cx, ty_t type, const cv_value *args, uint32_t nargs, cv_value *out) {
    ty_table *tt = cx->tt;
    const ty_info *r = ty_get(tt, type);
    if (nargs == 0) return cv_zero(cx, type, out);
    if (ty_is_scalar(tt, type)) return cv_convert_explicit(cx, &args[0], type, out);
    if (nargs == 1 && ty_get(tt, args[0].type)->kind == r->kind && (r->kind == TY_VEC || r->kind == TY_MAT) &&
        args[0].n == r->n)
        return cv_convert_explicit(cx, &args[0], type, out);
    if (r->kind == TY_VEC) {
        cv_value comps[4];
        uint32_t k = 0;
        if (nargs == 1) return cv_splat(cx, type, &args[0], out);
        for (uint32_t i = 0; i < nargs; i++) {
            if (args[i].n) {
                for (uint32_t j = 0; j < args[i].n && k < 4; j++) comps[k++] = args[i].u.elems[j];
            } else if (k < 4) {
                comps[k++] = args[i];
            }
        }
        return cv_composite(cx, type, comps, k, out);
    }
    if (r->kind == TY_MAT) {
        if (nargs == r->n) return cv_composite(cx, type, args, nargs, out);
        cv_value cols[4];
        ty_t col = ty_mat_column(tt, type);
        for (uint32_t c = 0; c < r->n; c++)
            if (cv_composite(cx, col, &args[c * r->rows], r->rows, &cols[c])) return CV_ERROR;
        return cv_composite(cx, type, cols, r->n, out);
    }
    return cv_composite(cx, type, args, nargs, out);
}

/* ---- constant evaluation: helpers ------------------------------------------------------------ */

int bi_eval(cv_ctx *cx, const bi_match *m, const cv_value *args, uint32_t nargs, cv_value *out) {
    const bi_info *bi = bi_get(m->fn);
    if (!bi->eval) {
        snprintf(cx->msg, sizeof cx->msg, "'%s' cannot be used in a const-expression", bi->name);
        return CV_ERROR;
    }
    cv_value conv[BI_MAX_ARGS];
    if (nargs > BI_MAX_ARGS) nargs = BI_MAX_ARGS;
    for (uint32_t i = 0; i < nargs; i++) {
        if (args[i].type == m->params[i]) conv[i] = args[i];
        else if (cv_convert_implicit(cx, &args[i], m->params[i], &conv[i])) return CV_ERROR;
    }
    return bi->eval(cx, m, conv, out);
}

static int efail(cv_ctx *cx, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static int efail(cv_ctx *cx, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cx->msg, sizeof cx->msg, fmt, ap);
    va_end(ap);
    return CV_ERROR;
}

typedef int (*scalar_fn)(cv_ctx *cx, const bi_match *m, const cv_value *x, cv_value *out);

/* Maps a scalar function over the components: arguments that are vectors contribute component i,
 * scalars themselves.  The result type is m->ret (a vector when any argument is). */
static int cw(cv_ctx *cx, const bi_match *m, const cv_value *args, scalar_fn f, cv_value *out) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->nparams; i++)
        if (args[i].n > n) n = args[i].n;
    if (!n) return f(cx, m, args, out);
    cv_value comps[4], x[BI_MAX_ARGS];
    for (uint32_t c = 0; c < n && c < 4; c++) {
        for (uint32_t i = 0; i < m->nparams; i++) x[i] = args[i].n ? args[i].u.elems[c] : args[i];
        if (f(cx, m, x, &comps[c])) return CV_ERROR;
    }
    return cv_composite(cx, m->ret, comps, n, out);
}

/* Rounds a double result into type t; a non-finite result is reported as Tint does for most
 * built-ins ("value inf cannot be represented as 'f32'"). */
static int fin(cv_ctx *cx, const bi_match *m, ty_t t, double r, const cv_value *x, uint32_t nx, cv_value *out) {
    (void)m; (void)x; (void)nx;
    double rr = cv_round_result(t, r);
    if (!isfinite(rr))
        return efail(cx, "value %s cannot be represented as '%s'", isnan(rr) ? "nan" : rr < 0 ? "-inf" : "inf",
                     ty_name(cx->tt, t));
    *out = cv_float(t, rr);
    return CV_OK;
}

/* exp/exp2/pow name the operation instead: "e^100.0 cannot be represented as 'f32'". */
enum { NAMED_EXP, NAMED_EXP2, NAMED_POW };
static int fin_named(cv_ctx *cx, ty_t t, double r, int kind, const cv_value *x, cv_value *out) {
    double rr = cv_round_result(t, r);
    if (!isfinite(rr)) {
        char a[64], b[64];
        cv_format(cx->tt, &x[0], a, sizeof a);
        if (kind == NAMED_POW) {
            cv_format(cx->tt, &x[1], b, sizeof b);
            return efail(cx, "'%s ^ %s' cannot be represented as '%s'", a, b, ty_name(cx->tt, t));
        }
        return efail(cx, "%s^%s cannot be represented as '%s'", kind == NAMED_EXP ? "e" : "2", a, ty_name(cx->tt, t));
    }
    *out = cv_float(t, rr);
    return CV_OK;
}

/* F1(name, double expression, float expression, domain check): abstract-float evaluates in double;
 * f32 and f16 evaluate in float with the float libm functions, as Tint does (so last-ulp results
 * agree with it), then round (f16: truncate) to the type. */
#define F1(name, expr, fexpr, check)                                                            \
    static int sc_##name(cv_ctx *cx, const bi_match *m, const cv_value *x, cv_value *out) {      \
        double v = x[0].u.f;                                                                     \
        float vf = (float)v;                                                                     \
        (void)vf;                                                                                \
        check;                                                                                   \
        return fin(cx, m, x[0].type, x[0].type == TY_AFLOAT ? (double)(expr) : (double)(fexpr), x, 1, out); \
    }                                                                                            \
    int bi_eval_##name(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) {     \
        return cw(cx, m, args, sc_##name, out);                                                  \
    }

#define NOCHECK (void)0
F1(acos, acos(v), acosf(vf), if (v < -1 || v > 1) return efail(cx, "acos must be called with a value in the range [-1 .. 1] (inclusive)"))
F1(asin, asin(v), asinf(vf), if (v < -1 || v > 1) return efail(cx, "asin must be called with a value in the range [-1 .. 1] (inclusive)"))
F1(acosh, acosh(v), acoshf(vf), if (v < 1) return efail(cx, "acosh must be called with a value >= 1.0"))
F1(asinh, asinh(v), asinhf(vf), NOCHECK)
F1(atan, atan(v), atanf(vf), NOCHECK)
F1(atanh, atanh(v), atanhf(vf), if (v <= -1 || v >= 1) return efail(cx, "atanh must be called with a value in the range (-1 .. 1) (exclusive)"))
F1(ceil, ceil(v), ceilf(vf), NOCHECK)
F1(floor, floor(v), floorf(vf), NOCHECK)
F1(trunc, trunc(v), truncf(vf), NOCHECK)
F1(round, nearbyint(v), nearbyintf(vf), NOCHECK)
F1(fract, v - floor(v), vf - floorf(vf), NOCHECK)
F1(cos, cos(v), cosf(vf), NOCHECK)
F1(cosh, cosh(v), coshf(vf), NOCHECK)
F1(sin, sin(v), sinf(vf), NOCHECK)
F1(sinh, sinh(v), sinhf(vf), NOCHECK)
F1(tan, tan(v), tanf(vf), NOCHECK)
F1(tanh, tanh(v), tanhf(vf), NOCHECK)
F1(log, log(v), logf(vf), if (v <= 0) return efail(cx, "log must be called with a value > 0"))
F1(log2, log2(v), log2f(vf), if (v <= 0) return efail(cx, "log2 must be called with a value > 0"))
F1(sqrt, sqrt(v), sqrtf(vf), if (v < 0) return efail(cx, "sqrt must be called with a value >= 0"))
/* inverseSqrt is 1 / sqrt(e) in the type: for f16 the square root is quantized first, as in Tint */
F1(inverse_sqrt, 1.0 / sqrt(v), x[0].type == TY_F16 ? 1.0f / (float)cv_quantize_f16(sqrtf(vf)) : 1.0f / sqrtf(vf),
   if (v <= 0) return efail(cx, "inverseSqrt must be called with a value > 0"))
F1(saturate, v < 0 ? 0.0 : v > 1 ? 1.0 : v, vf < 0 ? 0.0f : vf > 1 ? 1.0f : vf, NOCHECK)
#undef F1

static int sc_atan2(cv_ctx *cx, const bi_match *m, const cv_value *x, cv_value *out) {
    double r = x[0].type == TY_AFLOAT ? atan2(x[0].u.f, x[1].u.f) : (double)atan2f((float)x[0].u.f, (float)x[1].u.f);
    return fin(cx, m, x[0].type, r, x, 2, out);
}
int bi_eval_atan2(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) { return cw(cx, m, args, sc_atan2, out); }

static int sc_pow(cv_ctx *cx, const bi_match *m, const cv_value *x, cv_value *out) {
    double a = x[0].u.f, b = x[1].u.f;
    /* undefined for a < 0, and for a == 0 with b <= 0: Tint reports it as not representable */
    double r = (a < 0 || (a == 0 && b <= 0)) ? NAN : x[0].type == TY_AFLOAT ? pow(a, b) : (double)powf((float)a, (float)b);
    return fin_named(cx, x[0].type, r, NAMED_POW, x, out);
}
static int sc_exp(cv_ctx *cx, const bi_match *m, const cv_value *x, cv_value *out) {
    double r = x[0].type == TY_AFLOAT ? exp(x[0].u.f) : (double)expf((float)x[0].u.f);
    return fin_named(cx, x[0].type, r, NAMED_EXP, x, out);
}
static int sc_exp2(cv_ctx *cx, const bi_match *m, const cv_value *x, cv_value *out) {
    double r = x[0].type == TY_AFLOAT ? exp2(x[0].u.f) : (double)exp2f((float)x[0].u.f);
    return fin_named(cx, x[0].type, r, NAMED_EXP2, x, out);
}
int bi_eval_exp(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) { return cw(cx, m, args, sc_exp, out); }
int bi_eval_exp2(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) { return cw(cx, m, args, sc_exp2, out); }

/* degrees/radians multiply by 180/pi (pi/180) computed in the type's precision from the type's pi,
 * as Tint does; overflow is reported as the product */
static double round_to(ty_t t, double v) { return cv_round_result(t, v); }
static int sc_degrees(cv_ctx *cx, const bi_match *m, const cv_value *x, cv_value *out) {
    ty_t t = x[0].type;
    cv_value k = cv_float(t, round_to(t, 180.0 / round_to(t, 3.14159265358979323846)));
    return cv_binary(cx, CV_MUL, &x[0], &k, out);
}
static int sc_radians(cv_ctx *cx, const bi_match *m, const cv_value *x, cv_value *out) {
    ty_t t = x[0].type;
    cv_value k = cv_float(t, round_to(t, round_to(t, 3.14159265358979323846) / 180.0));
    return cv_binary(cx, CV_MUL, &x[0], &k, out);
}
int bi_eval_degrees(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) { return cw(cx, m, args, sc_degrees, out); }
int bi_eval_radians(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) { return cw(cx, m, args, sc_radians, out); }
int bi_eval_pow(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) { return cw(cx, m, args, sc_pow, out); }

static int sc_step(cv_ctx *cx, const bi_match *m, const cv_value *x, cv_value *out) {
    (void)cx; (void)m;
    *out = cv_float(x[0].type, x[1].u.f >= x[0].u.f ? 1.0 : 0.0);
    return CV_OK;
}
int bi_eval_step(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) { return cw(cx, m, args, sc_step, out); }

static int sc_fma(cv_ctx *cx, const bi_match *m, const cv_value *x, cv_value *out) {
    cv_value p;                                  /* a * b + c, each step checked */
    if (cv_binary(cx, CV_MUL, &x[0], &x[1], &p)) return CV_ERROR;
    return cv_binary(cx, CV_ADD, &p, &x[2], out);
}
int bi_eval_fma(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) { return cw(cx, m, args, sc_fma, out); }

static int sc_mix(cv_ctx *cx, const bi_match *m, const cv_value *x, cv_value *out) {
    /* e1 * (1 - e3) + e2 * e3, each step checked */
    cv_value one = cv_float(x[0].type, 1.0), t1, t2, t3;
    if (cv_binary(cx, CV_SUB, &one, &x[2], &t1) || cv_binary(cx, CV_MUL, &x[0], &t1, &t2) ||
        cv_binary(cx, CV_MUL, &x[1], &x[2], &t3))
        return CV_ERROR;
    return cv_binary(cx, CV_ADD, &t2, &t3, out);
}
int bi_eval_mix(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) { return cw(cx, m, args, sc_mix, out); }

static int sc_smoothstep(cv_ctx *cx, const bi_match *m, const cv_value *x, cv_value *out) {
    double lo = x[0].u.f, hi = x[1].u.f;
    if (lo == hi) {
        char b1[64], b2[64];
        return efail(cx, "smoothstep called with 'low' (%s) equal to 'high' (%s)",
                     cv_format(cx->tt, &x[0], b1, sizeof b1), cv_format(cx->tt, &x[1], b2, sizeof b2));
    }
    /* t = clamp((x - low) / (high - low), 0, 1); t * t * (3 - 2 * t), each step checked */
    ty_t ty = x[0].type;
    cv_value num, den, t, two = cv_float(ty, 2), three = cv_float(ty, 3), a, b, c;
    if (cv_binary(cx, CV_SUB, &x[2], &x[0], &num) || cv_binary(cx, CV_SUB, &x[1], &x[0], &den) ||
        cv_binary(cx, CV_DIV, &num, &den, &t))
        return CV_ERROR;
    if (t.u.f < 0) t.u.f = 0;
    if (t.u.f > 1) t.u.f = 1;
    if (cv_binary(cx, CV_MUL, &two, &t, &a) || cv_binary(cx, CV_SUB, &three, &a, &b) ||
        cv_binary(cx, CV_MUL, &t, &t, &c))
        return CV_ERROR;
    return cv_binary(cx, CV_MUL, &c, &b, out);
}
int bi_eval_smoothstep(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) { return cw(cx, m, args, sc_smoothstep, out); }

static int sc_ldexp(cv_ctx *cx, const bi_match *m, const cv_value *x, cv_value *out) {
    ty_t t = x[0].type;
    int64_t e = x[1].u.i;
    int64_t bias = t == TY_F32 ? 127 : t == TY_F16 ? 15 : 1023;
    if (e > bias + 1)
        return efail(cx, "e2 must be less than or equal to %d", (int)(bias + 1));
    if (e > 100000) e = 100000;
    if (e < -100000) e = -100000;
    return fin(cx, m, t, ldexp(x[0].u.f, (int)e), x, 2, out);
}
int bi_eval_ldexp(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) { return cw(cx, m, args, sc_ldexp, out); }

static int sc_quantize(cv_ctx *cx, const bi_match *m, const cv_value *x, cv_value *out) {
    (void)m;
    double r = cv_round_convert(TY_F16, x[0].u.f);
    if (!isfinite(r)) {
        char b[64];
        return efail(cx, "value %s cannot be represented as 'f16'", cv_format(cx->tt, &x[0], b, sizeof b));
    }
    *out = cv_float(TY_F32, r);
    return CV_OK;
}
int bi_eval_quantize_f16(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) { return cw(cx, m, args, sc_quantize, out); }

/* integer or float component functions */
static bool is_f(const cv_value *v) { return v->type == TY_AFLOAT || v->type == TY_F32 || v->type == TY_F16; }

static int sc_abs(cv_ctx *cx, const bi_match *m, const cv_value *x, cv_value *out) {
    (void)cx; (void)m;
    if (is_f(x)) { *out = cv_float(x[0].type, fabs(x[0].u.f)); return CV_OK; }
    int64_t v = x[0].u.i;
    if (x[0].type == TY_U32) { *out = x[0]; return CV_OK; }
    int64_t minv = x[0].type == TY_AINT ? INT64_MIN : INT32_MIN;
    *out = cv_int(x[0].type, v == minv ? v : v < 0 ? -v : v);
    return CV_OK;
}
int bi_eval_abs(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) { return cw(cx, m, args, sc_abs, out); }

static int sc_sign(cv_ctx *cx, const bi_match *m, const cv_value *x, cv_value *out) {
    (void)cx; (void)m;
    if (is_f(x)) *out = cv_float(x[0].type, x[0].u.f > 0 ? 1.0 : x[0].u.f < 0 ? -1.0 : 0.0);
    else *out = cv_int(x[0].type, x[0].u.i > 0 ? 1 : x[0].u.i < 0 ? -1 : 0);
    return CV_OK;
}
int bi_eval_sign(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) { return cw(cx, m, args, sc_sign, out); }

static int sc_min(cv_ctx *cx, const bi_match *m, const cv_value *x, cv_value *out) {
    (void)cx; (void)m;
    if (is_f(x)) *out = x[1].u.f < x[0].u.f ? x[1] : x[0];
    else *out = x[1].u.i < x[0].u.i ? x[1] : x[0];
    return CV_OK;
}
static int sc_max(cv_ctx *cx, const bi_match *m, const cv_value *x, cv_value *out) {
    (void)cx; (void)m;
    if (is_f(x)) *out = x[1].u.f > x[0].u.f ? x[1] : x[0];
    else *out = x[1].u.i > x[0].u.i ? x[1] : x[0];
    return CV_OK;
}
int bi_eval_min(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) { return cw(cx, m, args, sc_min, out); }
int bi_eval_max(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) { return cw(cx, m, args, sc_max, out); }

static int sc_clamp(cv_ctx *cx, const bi_match *m, const cv_value *x, cv_value *out) {
    (void)m;
    bool f = is_f(x);
    bool bad = f ? x[1].u.f > x[2].u.f : x[1].u.i > x[2].u.i;
    if (bad) {
        char b1[64], b2[64];
        return efail(cx, "clamp called with 'low' (%s) greater than 'high' (%s)",
                     cv_format(cx->tt, &x[1], b1, sizeof b1), cv_format(cx->tt, &x[2], b2, sizeof b2));
    }
    cv_value t;
    sc_max(cx, m, x, &t);
    cv_value y[2] = { t, x[2] };
    return sc_min(cx, m, y, out);
}
int bi_eval_clamp(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) { return cw(cx, m, args, sc_clamp, out); }

/* 32-bit integer bit functions */
static uint32_t u32_of(const cv_value *v) { return (uint32_t)v->u.i; }
static cv_value int_like(const cv_value *x, uint32_t bits) {
    return cv_int(x->type, x->type == TY_I32 ? (int64_t)(int32_t)bits : (int64_t)bits);
}

static int sc_clz(cv_ctx *cx, const bi_match *m, const cv_value *x, cv_value *out) {
    (void)cx; (void)m;
    uint32_t v = u32_of(x), n = 0;
    while (n < 32 && !(v & (0x80000000u >> n))) n++;
    *out = int_like(x, n);
    return CV_OK;
}
static int sc_ctz(cv_ctx *cx, const bi_match *m, const cv_value *x, cv_value *out) {
    (void)cx; (void)m;
    uint32_t v = u32_of(x), n = 0;
    while (n < 32 && !(v & (1u << n))) n++;
    *out = int_like(x, n);
    return CV_OK;
}
static int sc_popcount(cv_ctx *cx, const bi_match *m, const cv_value *x, cv_value *out) {
    (void)cx; (void)m;
    uint32_t v = u32_of(x), n = 0;
    for (; v; v &= v - 1) n++;
    *out = int_like(x, n);
    return CV_OK;
}
static int sc_first_leading_bit(cv_ctx *cx, const bi_match *m, const cv_value *x, cv_value *out) {
    (void)cx; (void)m;
    uint32_t v = u32_of(x);
    if (x->type == TY_I32 && (v & 0x80000000u)) v = ~v;    /* signed: the highest bit differing from the sign */
    int i = 31;
    while (i >= 0 && !(v & (1u << i))) i--;
    *out = int_like(x, (uint32_t)i);                       /* -1 -> all ones */
    return CV_OK;
}
static int sc_first_trailing_bit(cv_ctx *cx, const bi_match *m, const cv_value *x, cv_value *out) {
    (void)cx; (void)m;
    uint32_t v = u32_of(x);
    int i = 0;
    while (i < 32 && !(v & (1u << i))) i++;
    *out = int_like(x, i == 32 ? 0xffffffffu : (uint32_t)i);
    return CV_OK;
}
static int sc_reverse_bits(cv_ctx *cx, const bi_match *m, const cv_value *x, cv_value *out) {
    (void)cx; (void)m;
    uint32_t v = u32_of(x), r = 0;
    for (int i = 0; i < 32; i++) if (v & (1u << i)) r |= 0x80000000u >> i;
    *out = int_like(x, r);
    return CV_OK;
}
int bi_eval_clz(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) { return cw(cx, m, args, sc_clz, out); }
int bi_eval_ctz(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) { return cw(cx, m, args, sc_ctz, out); }
int bi_eval_popcount(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) { return cw(cx, m, args, sc_popcount, out); }
int bi_eval_first_leading_bit(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) { return cw(cx, m, args, sc_first_leading_bit, out); }
int bi_eval_first_trailing_bit(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) { return cw(cx, m, args, sc_first_trailing_bit, out); }
int bi_eval_reverse_bits(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) { return cw(cx, m, args, sc_reverse_bits, out); }

static int bits_args(cv_ctx *cx, const cv_value *off, const cv_value *cnt, uint32_t *o, uint32_t *c) {
    uint64_t ov = (uint64_t)off->u.i, cv = (uint64_t)cnt->u.i;
    if (ov + cv > 32) return efail(cx, "'offset' + 'count' must be less than or equal to the bit width of 'e'");
    *o = (uint32_t)ov;
    *c = (uint32_t)cv;
    return CV_OK;
}
static int sc_extract_bits(cv_ctx *cx, const bi_match *m, const cv_value *x, cv_value *out) {
    (void)m;
    uint32_t o = 0, c = 0;
    if (bits_args(cx, &x[1], &x[2], &o, &c)) return CV_ERROR;
    uint32_t v = u32_of(&x[0]);
    uint32_t r = 0;
    if (c) {
        r = (uint32_t)(((uint64_t)v >> o) & ((1ull << c) - 1));
        if (x[0].type == TY_I32 && c < 32 && (r & (1u << (c - 1)))) r |= ~((1u << c) - 1);
    }
    *out = int_like(&x[0], r);
    return CV_OK;
}
static int sc_insert_bits(cv_ctx *cx, const bi_match *m, const cv_value *x, cv_value *out) {
    (void)m;
    uint32_t o = 0, c = 0;
    if (bits_args(cx, &x[2], &x[3], &o, &c)) return CV_ERROR;
    uint32_t e = u32_of(&x[0]), nb = u32_of(&x[1]);
    uint32_t mask = (uint32_t)(((1ull << c) - 1) << o);
    uint32_t r = (e & ~mask) | ((uint32_t)((uint64_t)nb << o) & mask);
    *out = int_like(&x[0], r);
    return CV_OK;
}
/* extractBits/insertBits take scalar offset/count: map over e only */
int bi_eval_extract_bits(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) { return cw(cx, m, args, sc_extract_bits, out); }
int bi_eval_insert_bits(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) { return cw(cx, m, args, sc_insert_bits, out); }

/* ---- vector / matrix functions ---- */

static int vdot(cv_ctx *cx, const cv_value *a, const cv_value *b, cv_value *out) {
    cv_value acc, p;
    for (uint32_t i = 0; i < a->n; i++) {
        if (cv_binary(cx, CV_MUL, &a->u.elems[i], &b->u.elems[i], &p)) return CV_ERROR;
        if (i == 0) acc = p;
        else if (cv_binary(cx, CV_ADD, &acc, &p, &acc)) return CV_ERROR;
    }
    *out = acc;
    return CV_OK;
}
int bi_eval_dot(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) {
    (void)m;
    return vdot(cx, &args[0], &args[1], out);
}

static ty_t ftype(const cv_value *v) { return v->n ? v->u.elems[0].type : v->type; }

/* length: |x| for scalars, sqrt(dot(v, v)) with each step checked for vectors */
static int vlength(cv_ctx *cx, const bi_match *m, const cv_value *v, cv_value *out) {
    if (!v->n) { *out = cv_float(v->type, fabs(v->u.f)); return CV_OK; }
    cv_value d;
    if (vdot(cx, v, v, &d)) return CV_ERROR;
    return fin(cx, m, d.type, sqrt(d.u.f), v, 1, out);
}
int bi_eval_length(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) {
    return vlength(cx, m, &args[0], out);
}
int bi_eval_distance(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) {
    cv_value d;
    if (cv_binary(cx, CV_SUB, &args[0], &args[1], &d)) return CV_ERROR;
    return vlength(cx, m, &d, out);
}
int bi_eval_normalize(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) {
    /* e / length(e), component-wise in the type's precision */
    cv_value l;
    if (vlength(cx, m, &args[0], &l)) return CV_ERROR;
    if (l.u.f == 0) return efail(cx, "zero length vector can not be normalized");
    cv_value comps[4];
    for (uint32_t i = 0; i < args[0].n; i++)
        if (cv_binary(cx, CV_DIV, &args[0].u.elems[i], &l, &comps[i])) return CV_ERROR;
    return cv_composite(cx, m->ret, comps, args[0].n, out);
}
int bi_eval_cross(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) {
    const cv_value *a = args[0].u.elems, *b = args[1].u.elems;
    cv_value comps[3], p, q;
    static const int i1[3] = { 1, 2, 0 }, i2[3] = { 2, 0, 1 };
    for (int k = 0; k < 3; k++) {
        if (cv_binary(cx, CV_MUL, &a[i1[k]], &b[i2[k]], &p) || cv_binary(cx, CV_MUL, &a[i2[k]], &b[i1[k]], &q) ||
            cv_binary(cx, CV_SUB, &p, &q, &comps[k]))
            return CV_ERROR;
    }
    return cv_composite(cx, m->ret, comps, 3, out);
}
int bi_eval_face_forward(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) {
    (void)m;
    cv_value d;
    if (vdot(cx, &args[1], &args[2], &d)) return CV_ERROR;
    if (d.u.f < 0) { *out = args[0]; return CV_OK; }
    return cv_unary(cx, CV_NEG, &args[0], out);
}
int bi_eval_reflect(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) {
    /* e1 - 2 * dot(e2, e1) * e2 */
    cv_value d, two = cv_float(ftype(&args[0]), 2.0), s, v;
    (void)m;
    if (vdot(cx, &args[1], &args[0], &d) || cv_binary(cx, CV_MUL, &two, &d, &s) ||
        cv_binary(cx, CV_MUL, &args[1], &s, &v))
        return CV_ERROR;
    return cv_binary(cx, CV_SUB, &args[0], &v, out);
}
int bi_eval_refract(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) {
    /* k = 1 - e3 * e3 * (1 - dot(e2, e1) * dot(e2, e1)); k < 0 ? 0 : e3 * e1 - (e3 * dot(e2, e1) + sqrt(k)) * e2,
     * each step in the type's precision */
    ty_t t = ftype(&args[0]);
    const cv_value *eta = &args[2];
    cv_value one = cv_float(t, 1.0), d, dd, omd, ee, prod, k;
    if (vdot(cx, &args[1], &args[0], &d) || cv_binary(cx, CV_MUL, &d, &d, &dd) ||
        cv_binary(cx, CV_SUB, &one, &dd, &omd) || cv_binary(cx, CV_MUL, eta, eta, &ee) ||
        cv_binary(cx, CV_MUL, &ee, &omd, &prod) || cv_binary(cx, CV_SUB, &one, &prod, &k))
        return CV_ERROR;
    if (k.u.f < 0) return cv_zero(cx, m->ret, out);
    cv_value sk, ed, coef, a, bv;
    if (fin(cx, m, t, sqrt(k.u.f), args, 3, &sk) || cv_binary(cx, CV_MUL, eta, &d, &ed) ||
        cv_binary(cx, CV_ADD, &ed, &sk, &coef) || cv_binary(cx, CV_MUL, eta, &args[0], &a) ||
        cv_binary(cx, CV_MUL, &coef, &args[1], &bv))
        return CV_ERROR;
    return cv_binary(cx, CV_SUB, &a, &bv, out);
}

/* Determinant by cofactor expansion along the first row, every product and sum in the type's
 * precision (column-major scalars a[c * n + r]). */
static int det_ops(cv_ctx *cx, const cv_value *a, int n, cv_value *out) {
    if (n == 2) {
        cv_value p, q;
        if (cv_binary(cx, CV_MUL, &a[0], &a[3], &p) || cv_binary(cx, CV_MUL, &a[2], &a[1], &q)) return CV_ERROR;
        return cv_binary(cx, CV_SUB, &p, &q, out);
    }
    cv_value acc, sub[9];
    for (int c = 0; c < n; c++) {
        int k = 0;
        for (int cc = 0; cc < n; cc++) {
            if (cc == c) continue;
            for (int r = 1; r < n; r++) sub[k++] = a[cc * n + r];
        }
        cv_value minor, term;
        if (det_ops(cx, sub, n - 1, &minor) || cv_binary(cx, CV_MUL, &a[c * n], &minor, &term)) return CV_ERROR;
        if (c == 0) acc = term;
        else if (cv_binary(cx, (c & 1) ? CV_SUB : CV_ADD, &acc, &term, &acc)) return CV_ERROR;
    }
    *out = acc;
    return CV_OK;
}
int bi_eval_determinant(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) {
    const cv_value *mat = &args[0];
    int n = (int)mat->n;
    cv_value a[16];
    for (int c = 0; c < n; c++)
        for (int r = 0; r < n; r++) a[c * n + r] = mat->u.elems[c].u.elems[r];
    return det_ops(cx, a, n, out);
}
int bi_eval_transpose(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) {
    const ty_info *r = ty_get(cx->tt, m->ret);
    cv_value cols[4];
    ty_t colt = ty_mat_column(cx->tt, m->ret);
    for (uint32_t c = 0; c < r->n; c++) {
        cv_value comps[4];
        for (uint32_t k = 0; k < r->rows; k++) comps[k] = args[0].u.elems[k].u.elems[c];
        if (cv_composite(cx, colt, comps, r->rows, &cols[c])) return CV_ERROR;
    }
    return cv_composite(cx, m->ret, cols, r->n, out);
}

/* frexp / modf return their result structs */
static int sc_frexp_parts(const cv_value *x, cv_value *fr, cv_value *ex) {
    int e = 0;
    double f = x->u.f == 0 ? x->u.f : frexp(x->u.f, &e);
    *fr = cv_float(x->type, f);
    *ex = cv_int(x->type == TY_AFLOAT ? TY_AINT : TY_I32, e);
    return CV_OK;
}
static int split_struct(cv_ctx *cx, const bi_match *m, const cv_value *a, bool is_frexp, cv_value *out) {
    const ty_info *st = ty_get(cx->tt, m->ret);
    cv_value parts[2];
    if (!a->n) {
        if (is_frexp) sc_frexp_parts(a, &parts[0], &parts[1]);
        else {
            double w = trunc(a->u.f);
            parts[0] = cv_float(a->type, a->u.f - w);
            parts[1] = cv_float(a->type, w);
        }
    } else {
        cv_value p0[4], p1[4];
        for (uint32_t i = 0; i < a->n; i++) {
            const cv_value *c = &a->u.elems[i];
            if (is_frexp) sc_frexp_parts(c, &p0[i], &p1[i]);
            else {
                double w = trunc(c->u.f);
                p0[i] = cv_float(c->type, c->u.f - w);
                p1[i] = cv_float(c->type, w);
            }
        }
        if (cv_composite(cx, st->members[0].type, p0, a->n, &parts[0]) ||
            cv_composite(cx, st->members[1].type, p1, a->n, &parts[1]))
            return CV_ERROR;
    }
    return cv_composite(cx, m->ret, parts, 2, out);
}
int bi_eval_frexp(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) { return split_struct(cx, m, &args[0], true, out); }
int bi_eval_modf(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) { return split_struct(cx, m, &args[0], false, out); }

/* ---- logical ---- */
int bi_eval_all(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) {
    (void)cx; (void)m;
    *out = cv_bool(cv_all_true(&args[0]));
    return CV_OK;
}
int bi_eval_any(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) {
    (void)cx; (void)m;
    bool any = args[0].n ? false : args[0].u.b;
    for (uint32_t i = 0; i < args[0].n; i++) any = any || args[0].u.elems[i].u.b;
    *out = cv_bool(any);
    return CV_OK;
}
static int sc_select(cv_ctx *cx, const bi_match *m, const cv_value *x, cv_value *out) {
    (void)cx; (void)m;
    *out = x[2].u.b ? x[1] : x[0];
    return CV_OK;
}
int bi_eval_select(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) {
    if (!args[2].n) { *out = args[2].u.b ? args[1] : args[0]; return CV_OK; }   /* scalar condition */
    return cw(cx, m, args, sc_select, out);
}

int bi_eval_bitcast(cv_ctx *cx, const bi_match *m, const cv_value *args, cv_value *out) {
    return cv_bitcast(cx, &args[0], m->ret, out);
}

/* ---- packing ---- */
static double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

static int pack_norm(const cv_value *v, uint32_t n, uint32_t bits, bool snorm, cv_value *out) {
    uint32_t r = 0;
    double scale = snorm ? (double)((1u << (bits - 1)) - 1) : (double)((1ull << bits) - 1);
    for (uint32_t i = 0; i < n; i++) {
        double c = clampd(v->u.elems[i].u.f, snorm ? -1.0 : 0.0, 1.0);
        int64_t q = (int64_t)floor(0.5 + scale * c);
        r |= ((uint32_t)q & (uint32_t)((1ull << bits) - 1)) << (i * bits);
    }
    *out = cv_int(TY_U32, r);
    return CV_OK;
}
int bi_eval_pack4x8snorm(cv_ctx *cx, const bi_match *m, const cv_value *a, cv_value *out) { (void)cx; (void)m; return pack_norm(&a[0], 4, 8, true, out); }
int bi_eval_pack4x8unorm(cv_ctx *cx, const bi_match *m, const cv_value *a, cv_value *out) { (void)cx; (void)m; return pack_norm(&a[0], 4, 8, false, out); }
int bi_eval_pack2x16snorm(cv_ctx *cx, const bi_match *m, const cv_value *a, cv_value *out) { (void)cx; (void)m; return pack_norm(&a[0], 2, 16, true, out); }
int bi_eval_pack2x16unorm(cv_ctx *cx, const bi_match *m, const cv_value *a, cv_value *out) { (void)cx; (void)m; return pack_norm(&a[0], 2, 16, false, out); }
int bi_eval_pack2x16float(cv_ctx *cx, const bi_match *m, const cv_value *a, cv_value *out) {
    (void)m;
    uint32_t r = 0;
    for (uint32_t i = 0; i < 2; i++) {
        double h = cv_round_convert(TY_F16, a[0].u.elems[i].u.f);
        if (!isfinite(h)) {
            char b[64];
            return efail(cx, "value %s cannot be represented as 'f16'", cv_format(cx->tt, &a[0].u.elems[i], b, sizeof b));
        }
        r |= (uint32_t)cv_f16_bits(h) << (16 * i);
    }
    *out = cv_int(TY_U32, r);
    return CV_OK;
}
static int pack_8(const cv_value *v, bool clampit, bool sign, cv_value *out) {
    uint32_t r = 0;
    for (uint32_t i = 0; i < 4; i++) {
        int64_t c = v->u.elems[i].u.i;
        if (clampit) c = sign ? (c < -128 ? -128 : c > 127 ? 127 : c) : (c > 255 ? 255 : c);
        r |= ((uint32_t)c & 0xffu) << (8 * i);
    }
    *out = cv_int(TY_U32, r);
    return CV_OK;
}
int bi_eval_pack4xi8(cv_ctx *cx, const bi_match *m, const cv_value *a, cv_value *out) { (void)cx; (void)m; return pack_8(&a[0], false, true, out); }
int bi_eval_pack4xu8(cv_ctx *cx, const bi_match *m, const cv_value *a, cv_value *out) { (void)cx; (void)m; return pack_8(&a[0], false, false, out); }
int bi_eval_pack4xi8clamp(cv_ctx *cx, const bi_match *m, const cv_value *a, cv_value *out) { (void)cx; (void)m; return pack_8(&a[0], true, true, out); }
int bi_eval_pack4xu8clamp(cv_ctx *cx, const bi_match *m, const cv_value *a, cv_value *out) { (void)cx; (void)m; return pack_8(&a[0], true, false, out); }

static int unpack_norm(cv_ctx *cx, const bi_match *m, uint32_t v, uint32_t n, uint32_t bits, bool snorm, cv_value *out) {
    cv_value comps[4];
    for (uint32_t i = 0; i < n; i++) {
        uint32_t f = (v >> (i * bits)) & (uint32_t)((1ull << bits) - 1);
        double d;
        if (snorm) {
            int32_t s = (int32_t)(f << (32 - bits)) >> (32 - bits);
            d = (double)s / (double)((1u << (bits - 1)) - 1);
            if (d < -1) d = -1;
        } else {
            d = (double)f / (double)((1ull << bits) - 1);
        }
        comps[i] = cv_float(TY_F32, cv_round_f32(d));
    }
    return cv_composite(cx, m->ret, comps, n, out);
}
int bi_eval_unpack4x8snorm(cv_ctx *cx, const bi_match *m, const cv_value *a, cv_value *out) { return unpack_norm(cx, m, u32_of(&a[0]), 4, 8, true, out); }
int bi_eval_unpack4x8unorm(cv_ctx *cx, const bi_match *m, const cv_value *a, cv_value *out) { return unpack_norm(cx, m, u32_of(&a[0]), 4, 8, false, out); }
int bi_eval_unpack2x16snorm(cv_ctx *cx, const bi_match *m, const cv_value *a, cv_value *out) { return unpack_norm(cx, m, u32_of(&a[0]), 2, 16, true, out); }
int bi_eval_unpack2x16unorm(cv_ctx *cx, const bi_match *m, const cv_value *a, cv_value *out) { return unpack_norm(cx, m, u32_of(&a[0]), 2, 16, false, out); }
int bi_eval_unpack2x16float(cv_ctx *cx, const bi_match *m, const cv_value *a, cv_value *out) {
    cv_value comps[2];
    uint32_t v = u32_of(&a[0]);
    for (uint32_t i = 0; i < 2; i++) {
        double d = cv_f16_from_bits((uint16_t)(v >> (16 * i)));
        if (!isfinite(d)) return efail(cx, "value %s cannot be represented as 'f32'", isnan(d) ? "nan" : "inf");
        comps[i] = cv_float(TY_F32, d);
    }
    return cv_composite(cx, m->ret, comps, 2, out);
}
static int unpack_8(cv_ctx *cx, const bi_match *m, uint32_t v, bool sign, cv_value *out) {
    cv_value comps[4];
    for (uint32_t i = 0; i < 4; i++) {
        uint32_t b = (v >> (8 * i)) & 0xffu;
        comps[i] = sign ? cv_int(TY_I32, (int8_t)b) : cv_int(TY_U32, b);
    }
    return cv_composite(cx, m->ret, comps, 4, out);
}
int bi_eval_unpack4xi8(cv_ctx *cx, const bi_match *m, const cv_value *a, cv_value *out) { return unpack_8(cx, m, u32_of(&a[0]), true, out); }
int bi_eval_unpack4xu8(cv_ctx *cx, const bi_match *m, const cv_value *a, cv_value *out) { return unpack_8(cx, m, u32_of(&a[0]), false, out); }

int bi_eval_dot4u8(cv_ctx *cx, const bi_match *m, const cv_value *a, cv_value *out) {
    (void)cx; (void)m;
    uint32_t x = u32_of(&a[0]), y = u32_of(&a[1]), s = 0;
    for (int i = 0; i < 4; i++) s += ((x >> (8 * i)) & 0xffu) * ((y >> (8 * i)) & 0xffu);
    *out = cv_int(TY_U32, s);
    return CV_OK;
}
int bi_eval_dot4i8(cv_ctx *cx, const bi_match *m, const cv_value *a, cv_value *out) {
    (void)cx; (void)m;
    uint32_t x = u32_of(&a[0]), y = u32_of(&a[1]);
    int32_t s = 0;
    for (int i = 0; i < 4; i++) s += (int8_t)(x >> (8 * i)) * (int8_t)(y >> (8 * i));
    *out = cv_int(TY_I32, s);
    return CV_OK;
}
