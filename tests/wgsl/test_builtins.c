/* test_builtins.c - the built-in function table: every signature parses, overload resolution picks
 * the spec's candidate (abstract arguments, concretization when not const, vector/matrix shapes,
 * pointers and atomics), operators and constructors are typed like the spec's tables, constant
 * evaluation matches plain C references (and reports the spec's domain errors), and every SPIR-V
 * number in the table is the one spirv-as assigns to the instruction's name. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include "test.h"
#include "wgsl/arena.h"
#include "wgsl/builtins.h"

static ty_table tt;
static cv_ctx cx;
static char msg[2048];

static bi_fn F(const char *name) { return bi_lookup(name, strlen(name)); }

static int res(const char *name, bool all_const, bi_match *m, uint32_t n, ...) {
    ty_t args[BI_MAX_ARGS];
    va_list ap;
    va_start(ap, n);
    for (uint32_t i = 0; i < n; i++) args[i] = va_arg(ap, ty_t);
    va_end(ap);
    return bi_resolve(&tt, F(name), 0, args, n, all_const, m, msg, sizeof msg);
}

static ty_t V(uint32_t n, ty_t s) { return ty_vec(&tt, n, s); }

static void test_table(void) {
    CHECK(BI_COUNT > 100);
    for (int f = 1; f < BI_COUNT; f++) {
        const bi_info *bi = bi_get((bi_fn)f);
        CHECKF(bi_lookup(bi->name, strlen(bi->name)) == (bi_fn)f, "%s", bi->name);
        /* forces the signature to parse: a malformed row reports "out of memory"/internal */
        bi_match m;
        ty_t none[1] = { 0 };
        msg[0] = 0;
        (void)bi_resolve(&tt, (bi_fn)f, 0, none, 0, true, &m, msg, sizeof msg);
        CHECKF(strstr(msg, "out of memory") == NULL, "%s: %s", bi->name, msg);
        bool any = false;
        for (int k = 0; k < 3; k++) any = any || bi->lower[k].kind != BI_LK_NA;
        CHECKF(any, "%s has no lowering", bi->name);
    }
    CHECK(F("maxx") == BI_NONE && F("") == BI_NONE && F("ma") == BI_NONE);
    CHECK(bi_get(F("atomicAdd"))->eval == NULL && !(bi_get(F("atomicAdd"))->flags & BI_F_MU));
    CHECK(bi_get(F("sqrt"))->eval != NULL && (bi_get(F("sqrt"))->flags & BI_F_MU));
    CHECK(bi_get(F("workgroupBarrier"))->flags & BI_F_UNI);
    CHECK(bi_get(F("subgroupAdd"))->flags & BI_F_SUB);
    CHECK(bi_get(F("subgroupBroadcast"))->flags & BI_F_CARG1);
}

static void test_resolve(void) {
    bi_match m;
    CHECK(res("max", false, &m, 2, TY_F32, TY_F32) == 0 && m.ret == TY_F32);
    CHECK(m.lower.kind == BI_LK_GLSL && m.lower.num == 40);
    CHECK(res("max", true, &m, 2, TY_AINT, TY_AFLOAT) == 0 && m.ret == TY_AFLOAT && m.params[0] == TY_AFLOAT);
    CHECK(res("max", true, &m, 2, TY_AINT, TY_AINT) == 0 && m.ret == TY_AINT);
    CHECK(res("max", false, &m, 2, TY_AINT, TY_AINT) == 0 && m.ret == TY_I32 && m.lower.num == 42);
    CHECK(res("max", false, &m, 2, TY_U32, TY_AINT) == 0 && m.ret == TY_U32 && m.params[1] == TY_U32 && m.lower.num == 41);
    CHECK(res("max", false, &m, 2, TY_F32, TY_I32) == 1);
    CHECKF(strncmp(msg, "no matching call to 'max(f32, i32)'", 35) == 0, "%s", msg);
    CHECK(strstr(msg, "candidate functions") != NULL && strstr(msg, "'max(T, T) -> T'") != NULL);
    CHECK(strstr(msg, "'T' is 'abstract-float', 'abstract-int', 'f32', 'i32', 'u32' or 'f16'") != NULL);
    CHECK(res("atomicAdd", false, &m, 2, TY_AINT, TY_AINT) == 1);
    CHECK(strstr(msg, "'atomicAdd(ptr<A, atomic<T>, read_write>, T) -> T' where:") != NULL);
    CHECK(strstr(msg, "'A' is 'storage' or 'workgroup'") != NULL);
    CHECK(res("max", false, &m, 1, TY_F32) == 1);
    CHECK(res("max", false, &m, 2, V(3, TY_F32), TY_F32) == 1);
    CHECK(res("abs", false, &m, 1, V(3, TY_I32)) == 0 && m.ret == V(3, TY_I32) && m.lower.num == 5);
    CHECK(res("abs", false, &m, 1, TY_U32) == 0 && m.lower.kind == BI_LK_ID);
    CHECK(res("clamp", false, &m, 3, TY_U32, TY_AINT, TY_AINT) == 0 && m.ret == TY_U32 && m.lower.num == 44);
    CHECK(res("sqrt", false, &m, 1, TY_I32) == 1);
    CHECK(res("sqrt", true, &m, 1, TY_AINT) == 0 && m.ret == TY_AFLOAT);
    CHECK(res("sqrt", false, &m, 1, TY_AINT) == 0 && m.ret == TY_F32);
    CHECK(res("sqrt", false, &m, 1, V(2, TY_F16)) == 0 && m.ret == V(2, TY_F16));
    CHECK(res("select", false, &m, 3, TY_AINT, TY_AINT, TY_BOOL) == 0 && m.ret == TY_I32);
    CHECK(res("select", false, &m, 3, V(3, TY_F32), V(3, TY_F32), V(3, TY_BOOL)) == 0 && m.ovl == 1);
    CHECK(res("select", false, &m, 3, V(2, TY_F32), V(2, TY_F32), TY_BOOL) == 0 && m.ovl == 0 && m.ret == V(2, TY_F32));
    CHECK(res("select", false, &m, 3, V(2, TY_F32), V(2, TY_F32), V(3, TY_BOOL)) == 1);
    CHECK(res("dot", false, &m, 2, V(3, TY_AFLOAT), V(3, TY_F32)) == 0 && m.ret == TY_F32);
    CHECK(res("dot", false, &m, 2, V(3, TY_I32), V(3, TY_I32)) == 0 && m.ret == TY_I32 && m.lower.kind == BI_LK_SPECIAL);
    CHECK(res("length", false, &m, 1, V(3, TY_F32)) == 0 && m.ret == TY_F32);
    CHECK(res("distance", false, &m, 2, TY_F16, TY_F16) == 0 && m.ret == TY_F16);
    CHECK(res("cross", false, &m, 2, V(3, TY_F32), V(3, TY_F32)) == 0 && m.ret == V(3, TY_F32));
    CHECK(res("cross", false, &m, 2, V(2, TY_F32), V(2, TY_F32)) == 1);
    CHECK(res("frexp", false, &m, 1, TY_F32) == 0);
    CHECK_STR(ty_name(&tt, m.ret), "__frexp_result_f32");
    CHECK(res("frexp", true, &m, 1, V(2, TY_AFLOAT)) == 0);
    CHECK_STR(ty_name(&tt, m.ret), "__frexp_result_vec2_abstract");
    CHECK(res("modf", false, &m, 1, V(3, TY_F16)) == 0);
    CHECK_STR(ty_name(&tt, m.ret), "__modf_result_vec3_f16");
    CHECK(res("ldexp", true, &m, 2, TY_AFLOAT, TY_AINT) == 0 && m.ret == TY_AFLOAT && m.ovl == 1);
    CHECK(res("ldexp", true, &m, 2, TY_F32, TY_AINT) == 0 && m.params[1] == TY_I32 && m.ret == TY_F32);
    CHECK(res("ldexp", false, &m, 2, TY_F32, TY_U32) == 1);
    CHECK(res("ldexp", true, &m, 2, TY_AINT, TY_I32) == 0 && m.ret == TY_AFLOAT && m.params[1] == TY_I32);
    CHECK(res("ldexp", false, &m, 2, TY_AINT, TY_I32) == 0 && m.ret == TY_F32);
    CHECK(res("ldexp", false, &m, 2, V(2, TY_F32), V(2, TY_I32)) == 0 && m.ret == V(2, TY_F32));
    CHECK(res("determinant", false, &m, 1, ty_mat(&tt, 3, 3, TY_F32)) == 0 && m.ret == TY_F32);
    CHECK(res("determinant", false, &m, 1, ty_mat(&tt, 2, 3, TY_F32)) == 1);
    CHECK(res("transpose", false, &m, 1, ty_mat(&tt, 2, 3, TY_F32)) == 0 && m.ret == ty_mat(&tt, 3, 2, TY_F32));
    CHECK(res("mix", false, &m, 3, V(3, TY_F32), V(3, TY_F32), TY_F32) == 0 && m.ovl == 1);
    CHECK(res("mix", false, &m, 3, V(3, TY_F32), V(3, TY_F32), V(3, TY_F32)) == 0 && m.ovl == 0);
    CHECK(res("all", false, &m, 1, V(3, TY_BOOL)) == 0 && m.ovl == 0 && m.ret == TY_BOOL && m.lower.num == 155);
    CHECK(res("all", false, &m, 1, TY_BOOL) == 0 && m.ovl == 1);
    CHECK(res("countOneBits", false, &m, 1, TY_AINT) == 0 && m.ret == TY_I32);
    CHECK(res("extractBits", false, &m, 3, V(2, TY_U32), TY_U32, TY_AINT) == 0 && m.ret == V(2, TY_U32) && m.lower.num == 203);
    CHECK(res("quantizeToF16", false, &m, 1, V(2, TY_F32)) == 0 && m.ret == V(2, TY_F32));
    CHECK(res("quantizeToF16", false, &m, 1, TY_F16) == 1);
    CHECK(res("pack4x8snorm", true, &m, 1, V(4, TY_AFLOAT)) == 0 && m.params[0] == V(4, TY_F32) && m.ret == TY_U32);
    CHECK(res("unpack2x16float", false, &m, 1, TY_U32) == 0 && m.ret == V(2, TY_F32));
    CHECK(res("dot4I8Packed", false, &m, 2, TY_U32, TY_AINT) == 0 && m.ret == TY_I32);

    /* pointers and atomics */
    ty_t rt = ty_array_runtime(&tt, TY_F32);
    CHECK(res("arrayLength", false, &m, 1, ty_ptr(&tt, TY_AS_STORAGE, rt, TY_ACCESS_READ_WRITE)) == 0 && m.ret == TY_U32);
    CHECK(m.lower.kind == BI_LK_OP && m.lower.num == 68);
    CHECK(res("arrayLength", false, &m, 1, ty_ptr(&tt, TY_AS_STORAGE, rt, TY_ACCESS_READ)) == 0);
    CHECK(res("arrayLength", false, &m, 1, ty_ptr(&tt, TY_AS_WORKGROUP, ty_array(&tt, TY_F32, 4), 0)) == 1);
    ty_t au = ty_atomic(&tt, TY_U32), ai = ty_atomic(&tt, TY_I32);
    ty_t pau = ty_ptr(&tt, TY_AS_STORAGE, au, TY_ACCESS_READ_WRITE);
    CHECK(res("atomicAdd", false, &m, 2, pau, TY_AINT) == 0 && m.params[1] == TY_U32 && m.ret == TY_U32 && m.lower.num == 234);
    CHECK(res("atomicMax", false, &m, 2, ty_ptr(&tt, TY_AS_WORKGROUP, ai, 0), TY_I32) == 0 && m.lower.num == 238);
    CHECK(res("atomicMax", false, &m, 2, pau, TY_U32) == 0 && m.lower.num == 239);
    CHECK(res("atomicLoad", false, &m, 1, ty_ptr(&tt, TY_AS_STORAGE, au, TY_ACCESS_READ)) == 1);
    CHECK(res("atomicLoad", false, &m, 1, ty_ptr(&tt, TY_AS_PRIVATE, au, 0)) == 1);
    CHECK(res("atomicAdd", false, &m, 2, pau, TY_I32) == 1);
    CHECK(res("atomicStore", false, &m, 2, pau, TY_AINT) == 0 && m.ret == 0);
    CHECK(res("atomicCompareExchangeWeak", false, &m, 3, pau, TY_AINT, TY_AINT) == 0);
    CHECK_STR(ty_name(&tt, m.ret), "__atomic_compare_exchange_result_u32");
    CHECK(res("workgroupUniformLoad", false, &m, 1, ty_ptr(&tt, TY_AS_WORKGROUP, V(4, TY_F32), 0)) == 0 &&
          m.ret == V(4, TY_F32) && m.ovl == 0);
    CHECK(res("workgroupUniformLoad", false, &m, 1, ty_ptr(&tt, TY_AS_WORKGROUP, au, 0)) == 0 && m.ret == TY_U32 && m.ovl == 1);
    CHECK(res("workgroupUniformLoad", false, &m, 1, ty_ptr(&tt, TY_AS_STORAGE, TY_F32, TY_ACCESS_READ_WRITE)) == 1);
    CHECK(res("workgroupBarrier", false, &m, 0) == 0 && m.ret == 0 && m.aux == 1);
    CHECK(res("workgroupBarrier", false, &m, 1, TY_F32) == 1);
    /* subgroups */
    CHECK(res("subgroupAdd", false, &m, 1, V(4, TY_F32)) == 0 && m.lower.num == 350 && m.aux == 0);
    CHECK(res("subgroupExclusiveAdd", false, &m, 1, TY_U32) == 0 && m.lower.num == 349 && m.aux == 2);
    CHECK(res("subgroupBroadcast", false, &m, 2, TY_F32, TY_AINT) == 0 && m.params[1] == TY_I32);
    CHECK(res("subgroupBallot", false, &m, 1, TY_BOOL) == 0 && m.ret == V(4, TY_U32));
    CHECK(res("subgroupElect", false, &m, 0) == 0 && m.ret == TY_BOOL);
    CHECK(res("subgroupAnd", false, &m, 1, TY_F32) == 1);
    CHECK(res("subgroupAdd", false, &m, 1, TY_BOOL) == 1);
    /* constant-argument limits of the subgroup and quad functions */
    {
        cv_value lane = cv_int(TY_U32, 128), neg = cv_int(TY_I32, -1), ok = cv_int(TY_U32, 3);
        const cv_value *vals[2] = { NULL, &lane };
        CHECK(res("subgroupBroadcast", false, &m, 2, TY_F32, TY_U32) == 0);
        CHECK(bi_check_const_args(&tt, &m, vals, 2, msg, sizeof msg) == 1);
        CHECK_STR(msg, "the sourceLaneIndex argument of subgroupBroadcast must be less than 128");
        vals[1] = &neg;
        CHECK(res("subgroupShuffle", false, &m, 2, TY_F32, TY_I32) == 0);
        CHECK(bi_check_const_args(&tt, &m, vals, 2, msg, sizeof msg) == 1);
        CHECK_STR(msg, "the sourceLaneIndex argument of subgroupShuffle must be greater than or equal to zero");
        vals[1] = &ok;
        CHECK(res("quadBroadcast", false, &m, 2, TY_F32, TY_U32) == 0);
        CHECK(bi_check_const_args(&tt, &m, vals, 2, msg, sizeof msg) == -1);
        vals[1] = &lane;
        CHECK(bi_check_const_args(&tt, &m, vals, 2, msg, sizeof msg) == 1);
        CHECK_STR(msg, "the id argument of quadBroadcast must be less than 4");
        vals[1] = NULL;
        CHECK(bi_check_const_args(&tt, &m, vals, 2, msg, sizeof msg) == -1);
        CHECK(res("subgroupShuffleXor", false, &m, 2, TY_F32, TY_U32) == 0);
        vals[1] = &lane;
        CHECK(bi_check_const_args(&tt, &m, vals, 2, msg, sizeof msg) == 1);
        CHECK_STR(msg, "the mask argument of subgroupShuffleXor must be less than 128");
        CHECK(res("max", false, &m, 2, TY_U32, TY_U32) == 0);
        CHECK(bi_check_const_args(&tt, &m, vals, 2, msg, sizeof msg) == -1);
        /* partially constant calls */
        cv_value o30 = cv_int(TY_U32, 30), c3 = cv_int(TY_U32, 3), e200 = cv_int(TY_I32, 200);
        const cv_value *v3[3] = { NULL, &o30, &c3 };
        CHECK(res("extractBits", false, &m, 3, TY_U32, TY_U32, TY_U32) == 0);
        CHECK(bi_check_const_args(&tt, &m, v3, 3, msg, sizeof msg) == 1);
        CHECK_STR(msg, "'offset' + 'count' must be less than or equal to the bit width of 'e'");
        const cv_value *v4[4] = { NULL, NULL, &o30, &c3 };
        CHECK(res("insertBits", false, &m, 4, TY_U32, TY_U32, TY_U32, TY_U32) == 0);
        CHECK(bi_check_const_args(&tt, &m, v4, 4, msg, sizeof msg) == 2);
        const cv_value *v2[2] = { NULL, &e200 };
        CHECK(res("ldexp", false, &m, 2, TY_F32, TY_I32) == 0);
        CHECK(bi_check_const_args(&tt, &m, v2, 2, msg, sizeof msg) == 1);
        CHECK_STR(msg, "e2 must be less than or equal to 128");
        cv_value lo = cv_float(TY_F32, 2), hi = cv_float(TY_F32, 1);
        const cv_value *vc[3] = { NULL, &lo, &hi };
        CHECK(res("clamp", false, &m, 3, TY_F32, TY_F32, TY_F32) == 0);
        CHECK(bi_check_const_args(&tt, &m, vc, 3, msg, sizeof msg) == 1);
        CHECK_STR(msg, "clamp called with 'low' (2.0) greater than 'high' (1.0)");
        const cv_value *vs[3] = { &hi, &hi, NULL };
        CHECK(res("smoothstep", false, &m, 3, TY_F32, TY_F32, TY_F32) == 0);
        CHECK(bi_check_const_args(&tt, &m, vs, 3, msg, sizeof msg) == 0);
        CHECK_STR(msg, "smoothstep called with 'low' (1.0) equal to 'high' (1.0)");
        vs[1] = &lo;
        CHECK(bi_check_const_args(&tt, &m, vs, 3, msg, sizeof msg) == -1);
    }
    /* references are loaded */
    CHECK(res("abs", false, &m, 1, ty_ref(&tt, TY_AS_FUNCTION, TY_F32, 0)) == 0 && m.ret == TY_F32);

    /* bitcast */
    ty_t a1[1] = { TY_U32 };
    CHECK(bi_resolve(&tt, F("bitcast"), TY_F32, a1, 1, false, &m, msg, sizeof msg) == 0 && m.ret == TY_F32);
    a1[0] = TY_F32;
    CHECK(bi_resolve(&tt, F("bitcast"), V(2, TY_F16), a1, 1, false, &m, msg, sizeof msg) == 0);
    a1[0] = V(2, TY_F32);
    CHECK(bi_resolve(&tt, F("bitcast"), TY_F32, a1, 1, false, &m, msg, sizeof msg) == 1);
    CHECK(bi_resolve(&tt, F("bitcast"), V(4, TY_F16), a1, 1, false, &m, msg, sizeof msg) == 0);
    a1[0] = TY_AINT;
    CHECK(bi_resolve(&tt, F("bitcast"), TY_U32, a1, 1, true, &m, msg, sizeof msg) == 0 && m.params[0] == TY_I32);
    CHECK(bi_resolve(&tt, F("bitcast"), 0, a1, 1, true, &m, msg, sizeof msg) == 1);
    a1[0] = TY_BOOL;
    CHECK(bi_resolve(&tt, F("bitcast"), TY_U32, a1, 1, true, &m, msg, sizeof msg) == 1);
    CHECK(bi_resolve(&tt, F("abs"), TY_U32, a1, 1, true, &m, msg, sizeof msg) == 1);
}

static int bop(cv_binop op, ty_t l, ty_t r, bool c, bi_opmatch *o) { return bi_resolve_binary(&tt, op, l, r, c, o, msg, sizeof msg); }

static void test_operators(void) {
    bi_opmatch o;
    ty_t v3 = V(3, TY_F32), m23 = ty_mat(&tt, 2, 3, TY_F32);
    CHECK(bop(CV_ADD, TY_F32, TY_F32, false, &o) == 0 && o.ret == TY_F32);
    CHECK(bop(CV_MUL, v3, TY_F32, false, &o) == 0 && o.ret == v3 && o.rhs == TY_F32);
    CHECK(bop(CV_MUL, TY_AFLOAT, v3, false, &o) == 0 && o.ret == v3 && o.lhs == TY_F32);
    CHECK(bop(CV_ADD, TY_AINT, TY_AFLOAT, true, &o) == 0 && o.ret == TY_AFLOAT && o.lhs == TY_AFLOAT);
    CHECK(bop(CV_ADD, TY_AINT, TY_AINT, false, &o) == 0 && o.ret == TY_I32);
    CHECK(bop(CV_ADD, V(3, TY_AINT), TY_AINT, true, &o) == 0 && o.ret == V(3, TY_AINT));
    CHECK(bop(CV_MOD, TY_F32, TY_F32, false, &o) == 0 && o.ret == TY_F32);
    CHECK(bop(CV_MUL, m23, V(2, TY_F32), false, &o) == 0 && o.ret == v3);
    CHECK(bop(CV_MUL, v3, m23, false, &o) == 0 && o.ret == V(2, TY_F32));
    CHECK(bop(CV_MUL, m23, ty_mat(&tt, 3, 2, TY_F32), false, &o) == 0 && o.ret == ty_mat(&tt, 3, 3, TY_F32));
    CHECK(bop(CV_MUL, m23, m23, false, &o) == 1);
    CHECK(bop(CV_MUL, m23, TY_AFLOAT, false, &o) == 0 && o.ret == m23);
    CHECK(bop(CV_ADD, m23, m23, false, &o) == 0 && o.ret == m23);
    CHECK(bop(CV_ADD, m23, TY_F32, false, &o) == 1);
    CHECK(bop(CV_DIV, m23, m23, false, &o) == 1);
    CHECK(bop(CV_ADD, TY_F32, TY_I32, false, &o) == 1);
    CHECKF(strncmp(msg, "no matching overload for 'operator + (f32, i32)'", 48) == 0, "%s", msg);
    CHECK(bop(CV_ADD, TY_BOOL, TY_BOOL, false, &o) == 1);
    CHECK(bop(CV_SHL, TY_I32, TY_AINT, false, &o) == 0 && o.lhs == TY_I32 && o.rhs == TY_U32 && o.ret == TY_I32);
    CHECK(bop(CV_SHL, TY_I32, TY_I32, false, &o) == 1);
    CHECK(bop(CV_SHL, TY_AINT, TY_AINT, true, &o) == 0 && o.ret == TY_AINT && o.rhs == TY_U32);
    CHECK(bop(CV_SHR, V(2, TY_U32), TY_U32, false, &o) == 1);
    CHECK(bop(CV_SHR, V(2, TY_U32), V(2, TY_U32), false, &o) == 0 && o.ret == V(2, TY_U32));
    CHECK(bop(CV_LT, TY_F32, TY_F32, false, &o) == 0 && o.ret == TY_BOOL);
    CHECK(bop(CV_EQ, V(3, TY_I32), V(3, TY_I32), false, &o) == 0 && o.ret == V(3, TY_BOOL));
    CHECK(bop(CV_EQ, TY_BOOL, TY_BOOL, false, &o) == 0 && o.ret == TY_BOOL);
    CHECK(bop(CV_LT, TY_BOOL, TY_BOOL, false, &o) == 1);
    CHECK(bop(CV_LT, TY_AINT, TY_F32, false, &o) == 0 && o.lhs == TY_F32 && o.ret == TY_BOOL);
    CHECK(bop(CV_LAND, TY_BOOL, TY_BOOL, false, &o) == 0 && o.ret == TY_BOOL);
    CHECK(bop(CV_LAND, V(2, TY_BOOL), V(2, TY_BOOL), false, &o) == 1);
    CHECK(bop(CV_AND, V(2, TY_BOOL), V(2, TY_BOOL), false, &o) == 0 && o.ret == V(2, TY_BOOL));
    CHECK(bop(CV_AND, TY_U32, TY_AINT, false, &o) == 0 && o.ret == TY_U32);
    CHECK(bop(CV_XOR, TY_BOOL, TY_BOOL, false, &o) == 1);
    CHECK(bop(CV_AND, TY_F32, TY_F32, false, &o) == 1);
    CHECK(bop(CV_ADD, ty_ref(&tt, TY_AS_FUNCTION, TY_F32, 0), TY_AFLOAT, false, &o) == 0 && o.ret == TY_F32);
    bi_opmatch u;
    CHECK(bi_resolve_unary(&tt, CV_NEG, TY_U32, false, &u, msg, sizeof msg) == 1);
    CHECK(bi_resolve_unary(&tt, CV_NEG, TY_AINT, true, &u, msg, sizeof msg) == 0 && u.ret == TY_AINT);
    CHECK(bi_resolve_unary(&tt, CV_NEG, TY_AINT, false, &u, msg, sizeof msg) == 0 && u.ret == TY_I32);
    CHECK(bi_resolve_unary(&tt, CV_NOT, V(2, TY_BOOL), false, &u, msg, sizeof msg) == 0 && u.ret == V(2, TY_BOOL));
    CHECK(bi_resolve_unary(&tt, CV_NOT, TY_I32, false, &u, msg, sizeof msg) == 1);
    CHECK(bi_resolve_unary(&tt, CV_COMPL, V(4, TY_U32), false, &u, msg, sizeof msg) == 0 && u.ret == V(4, TY_U32));
}

static void test_ctors(void) {
    ty_t ret, p[16];
    ty_t a[16];
    a[0] = TY_AINT; a[1] = TY_AINT; a[2] = TY_AINT;
    CHECK(bi_resolve_ctor(&tt, V(3, TY_F32), 0, a, 3, true, &ret, p, msg, sizeof msg) == 0 && ret == V(3, TY_F32) && p[2] == TY_F32);
    a[1] = TY_AFLOAT;
    CHECK(bi_resolve_ctor(&tt, 0, BI_PARTIAL_VEC3, a, 3, true, &ret, p, msg, sizeof msg) == 0 && ret == V(3, TY_AFLOAT));
    a[0] = TY_I32; a[1] = TY_AINT;
    CHECK(bi_resolve_ctor(&tt, 0, BI_PARTIAL_VEC2, a, 2, true, &ret, p, msg, sizeof msg) == 0 && ret == V(2, TY_I32));
    a[0] = V(2, TY_F32); a[1] = TY_F32; a[2] = TY_AFLOAT;
    CHECK(bi_resolve_ctor(&tt, V(4, TY_F32), 0, a, 3, false, &ret, p, msg, sizeof msg) == 0 && p[0] == V(2, TY_F32));
    CHECK(bi_resolve_ctor(&tt, V(4, TY_F32), 0, a, 2, false, &ret, p, msg, sizeof msg) == 1);
    CHECK(strncmp(msg, "no matching constructor for 'vec4<f32>(vec2<f32>, f32)'", 55) == 0);
    a[0] = V(3, TY_I32);
    CHECK(bi_resolve_ctor(&tt, V(3, TY_F32), 0, a, 1, false, &ret, p, msg, sizeof msg) == 0 && p[0] == V(3, TY_I32));
    a[0] = TY_AFLOAT;
    CHECK(bi_resolve_ctor(&tt, V(2, TY_F32), 0, a, 1, true, &ret, p, msg, sizeof msg) == 0 && p[0] == TY_F32);
    a[0] = TY_I32;
    CHECK(bi_resolve_ctor(&tt, V(2, TY_F32), 0, a, 1, true, &ret, p, msg, sizeof msg) == 1);
    ty_t m22 = ty_mat(&tt, 2, 2, TY_F32);
    a[0] = V(2, TY_F32); a[1] = V(2, TY_AFLOAT);
    CHECK(bi_resolve_ctor(&tt, m22, 0, a, 2, true, &ret, p, msg, sizeof msg) == 0 && p[1] == V(2, TY_F32));
    a[0] = a[1] = a[2] = a[3] = TY_AINT;
    CHECK(bi_resolve_ctor(&tt, m22, 0, a, 4, true, &ret, p, msg, sizeof msg) == 0 && p[3] == TY_F32);
    CHECK(bi_resolve_ctor(&tt, 0, BI_PARTIAL_MAT2X2, a, 4, true, &ret, p, msg, sizeof msg) == 0 && ret == ty_mat(&tt, 2, 2, TY_AFLOAT));
    CHECK(bi_resolve_ctor(&tt, m22, 0, a, 3, true, &ret, p, msg, sizeof msg) == 1);
    a[0] = TY_AINT; a[1] = TY_AINT; a[2] = TY_AINT;
    CHECK(bi_resolve_ctor(&tt, 0, BI_PARTIAL_ARRAY, a, 3, true, &ret, p, msg, sizeof msg) == 0 && ret == ty_array(&tt, TY_AINT, 3));
    a[1] = TY_AFLOAT;
    CHECK(bi_resolve_ctor(&tt, 0, BI_PARTIAL_ARRAY, a, 3, true, &ret, p, msg, sizeof msg) == 0 && ret == ty_array(&tt, TY_AFLOAT, 3));
    a[1] = TY_U32;
    CHECK(bi_resolve_ctor(&tt, 0, BI_PARTIAL_ARRAY, a, 3, true, &ret, p, msg, sizeof msg) == 0 && ret == ty_array(&tt, TY_U32, 3));
    a[1] = TY_F32; a[2] = TY_I32;
    CHECK(bi_resolve_ctor(&tt, 0, BI_PARTIAL_ARRAY, a, 3, true, &ret, p, msg, sizeof msg) == 1);
    a[0] = TY_AINT; a[1] = TY_AFLOAT;
    CHECK(bi_resolve_ctor(&tt, ty_array(&tt, TY_F32, 2), 0, a, 2, true, &ret, p, msg, sizeof msg) == 0 && p[0] == TY_F32);
    CHECK(bi_resolve_ctor(&tt, ty_array(&tt, TY_F32, 3), 0, a, 2, true, &ret, p, msg, sizeof msg) == 1);
    CHECK(bi_resolve_ctor(&tt, ty_array_runtime(&tt, TY_F32), 0, a, 0, true, &ret, p, msg, sizeof msg) == 1);
    ty_member mem[2] = { { .name_str = "a", .type = TY_U32 }, { .name_str = "b", .type = V(2, TY_F32) } };
    ty_t st = ty_struct_new(&tt, "S", 1, mem, 2);
    a[0] = TY_AINT; a[1] = V(2, TY_AFLOAT);
    CHECK(bi_resolve_ctor(&tt, st, 0, a, 2, true, &ret, p, msg, sizeof msg) == 0 && p[1] == V(2, TY_F32));
    a[0] = TY_I32;
    CHECK(bi_resolve_ctor(&tt, st, 0, a, 2, true, &ret, p, msg, sizeof msg) == 1);
    CHECK(bi_resolve_ctor(&tt, st, 0, a, 0, true, &ret, p, msg, sizeof msg) == 0);
    /* scalar conversions */
    a[0] = TY_AFLOAT;
    CHECK(bi_resolve_ctor(&tt, TY_I32, 0, a, 1, true, &ret, p, msg, sizeof msg) == 0 && p[0] == TY_AFLOAT);
    a[0] = TY_AINT;
    CHECK(bi_resolve_ctor(&tt, TY_U32, 0, a, 1, true, &ret, p, msg, sizeof msg) == 0 && p[0] == TY_U32);
    a[0] = V(2, TY_F32);
    CHECK(bi_resolve_ctor(&tt, TY_U32, 0, a, 1, true, &ret, p, msg, sizeof msg) == 1);

    /* evaluation */
    cv_value args[4], out;
    args[0] = cv_float(TY_AFLOAT, 1.75);
    CHECK(bi_eval_ctor(&cx, TY_I32, args, 1, &out) == CV_OK && out.type == TY_I32 && out.u.i == 1);
    args[0] = cv_int(TY_AINT, -1);
    CHECK(bi_eval_ctor(&cx, TY_U32, args, 1, &out) == CV_ERROR);
    cv_value v2;
    cv_value e2[2] = { cv_float(TY_F32, 1), cv_float(TY_F32, 2) };
    CHECK(cv_composite(&cx, V(2, TY_F32), e2, 2, &v2) == CV_OK);
    args[0] = v2; args[1] = cv_float(TY_F32, 3); args[2] = cv_float(TY_F32, 4);
    CHECK(bi_eval_ctor(&cx, V(4, TY_F32), args, 3, &out) == CV_OK && out.n == 4 && out.u.elems[3].u.f == 4 && out.u.elems[1].u.f == 2);
    args[0] = cv_float(TY_F32, 7);
    CHECK(bi_eval_ctor(&cx, V(3, TY_F32), args, 1, &out) == CV_OK && out.n == 3 && out.u.elems[2].u.f == 7);
    for (int i = 0; i < 4; i++) args[i] = cv_float(TY_F32, i + 1);
    CHECK(bi_eval_ctor(&cx, m22, args, 4, &out) == CV_OK && out.u.elems[1].u.elems[0].u.f == 3);
    cv_value iv;
    cv_value ie[2] = { cv_int(TY_I32, -3), cv_int(TY_I32, 5) };
    CHECK(cv_composite(&cx, V(2, TY_I32), ie, 2, &iv) == CV_OK);
    CHECK(bi_eval_ctor(&cx, V(2, TY_F32), &iv, 1, &out) == CV_OK && out.type == V(2, TY_F32) && out.u.elems[0].u.f == -3);
    CHECK(bi_eval_ctor(&cx, V(2, TY_F32), NULL, 0, &out) == CV_OK && out.u.elems[1].u.f == 0);
}

/* ---- const evaluation ---- */

static int ev(const char *name, cv_value *out, uint32_t n, ...) {
    cv_value args[BI_MAX_ARGS];
    ty_t types[BI_MAX_ARGS];
    va_list ap;
    va_start(ap, n);
    for (uint32_t i = 0; i < n; i++) { args[i] = va_arg(ap, cv_value); types[i] = args[i].type; }
    va_end(ap);
    bi_match m;
    if (bi_resolve(&tt, F(name), 0, types, n, true, &m, msg, sizeof msg)) { snprintf(cx.msg, sizeof cx.msg, "resolve: %.200s", msg); return 2; }
    return bi_eval(&cx, &m, args, n, out);
}

static cv_value vec(ty_t s, uint32_t n, const double *c) {
    cv_value e[4], v;
    for (uint32_t i = 0; i < n; i++) e[i] = (s == TY_AFLOAT || s == TY_F32 || s == TY_F16) ? cv_float(s, c[i]) : cv_int(s, (int64_t)c[i]);
    if (cv_composite(&cx, V(n, s), e, n, &v)) v.type = 0;
    return v;
}

static double f32r(double v) { return (double)(float)v; }

static void test_eval_float(void) {
    cv_value r;
    /* a sweep of abstract-float inputs against libm in double */
    /* abstract-float evaluates with the double libm functions, f32 with the float ones (as Tint) */
    typedef double (*fn1)(double);
    typedef float (*fn1f)(float);
    struct { const char *name; fn1 f; fn1f ff; double lo, hi; } fs[] = {
        { "sin", sin, sinf, -10, 10 }, { "cos", cos, cosf, -10, 10 }, { "tan", tan, tanf, -1.5, 1.5 },
        { "exp", exp, expf, -20, 20 }, { "exp2", exp2, exp2f, -20, 20 }, { "log", log, logf, 0.001, 1000 },
        { "log2", log2, log2f, 0.001, 1000 }, { "sqrt", sqrt, sqrtf, 0, 1000 }, { "atan", atan, atanf, -100, 100 },
        { "asin", asin, asinf, -1, 1 }, { "acos", acos, acosf, -1, 1 }, { "sinh", sinh, sinhf, -10, 10 },
        { "cosh", cosh, coshf, -10, 10 }, { "tanh", tanh, tanhf, -10, 10 }, { "asinh", asinh, asinhf, -10, 10 },
        { "acosh", acosh, acoshf, 1, 100 }, { "atanh", atanh, atanhf, -0.99, 0.99 }, { "floor", floor, floorf, -50, 50 },
        { "ceil", ceil, ceilf, -50, 50 }, { "trunc", trunc, truncf, -50, 50 },
    };
    int bad = 0;
    for (size_t k = 0; k < sizeof fs / sizeof fs[0]; k++) {
        for (int i = 0; i <= 40; i++) {
            double x = fs[k].lo + (fs[k].hi - fs[k].lo) * i / 40.0;
            if (ev(fs[k].name, &r, 1, cv_float(TY_AFLOAT, x)) != CV_OK || r.type != TY_AFLOAT || r.u.f != fs[k].f(x)) {
                bad++;
                fprintf(stderr, "%s(%g) -> %s %g\n", fs[k].name, x, cx.msg, r.u.f);
            }
            float xf = (float)x;
            if (ev(fs[k].name, &r, 1, cv_float(TY_F32, xf)) != CV_OK || r.type != TY_F32 || r.u.f != (double)fs[k].ff(xf)) bad++;
        }
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(ev("sqrt", &r, 1, cv_int(TY_AINT, 4)) == CV_OK && r.type == TY_AFLOAT && r.u.f == 2.0);
    CHECK(ev("sqrt", &r, 1, cv_float(TY_F32, -1)) == CV_ERROR);
    CHECK_STR(cx.msg, "sqrt must be called with a value >= 0");
    CHECK(ev("log", &r, 1, cv_float(TY_F32, 0)) == CV_ERROR);
    CHECK(ev("log2", &r, 1, cv_float(TY_F32, -2)) == CV_ERROR);
    CHECK(ev("acos", &r, 1, cv_float(TY_F32, 1.5)) == CV_ERROR);
    CHECK_STR(cx.msg, "acos must be called with a value in the range [-1 .. 1] (inclusive)");
    CHECK(ev("asin", &r, 1, cv_float(TY_F32, -1.5)) == CV_ERROR);
    CHECK(ev("acosh", &r, 1, cv_float(TY_F32, 0.5)) == CV_ERROR);
    CHECK(ev("atanh", &r, 1, cv_float(TY_F32, 1)) == CV_ERROR);
    CHECK(ev("inverseSqrt", &r, 1, cv_float(TY_F32, 0)) == CV_ERROR);
    CHECK(ev("inverseSqrt", &r, 1, cv_float(TY_F32, 4)) == CV_OK && r.u.f == 0.5);
    CHECK(ev("exp", &r, 1, cv_float(TY_F32, 100)) == CV_ERROR);
    CHECK_STR(cx.msg, "e^100.0 cannot be represented as 'f32'");
    /* the other overflow messages, worded as Tint words them */
    CHECK(ev("exp2", &r, 1, cv_float(TY_F32, 200)) == CV_ERROR);
    CHECK_STR(cx.msg, "2^200.0 cannot be represented as 'f32'");
    CHECK(ev("pow", &r, 2, cv_float(TY_F32, 10), cv_float(TY_F32, 40)) == CV_ERROR);
    CHECK_STR(cx.msg, "'10.0 ^ 40.0' cannot be represented as 'f32'");
    CHECK(ev("sinh", &r, 1, cv_float(TY_F32, 100)) == CV_ERROR);
    CHECK_STR(cx.msg, "value inf cannot be represented as 'f32'");
    CHECK(ev("fma", &r, 3, cv_float(TY_F32, 3e38f), cv_float(TY_F32, 10), cv_float(TY_F32, 0)) == CV_ERROR);
    CHECK_STR(cx.msg, "'300000000549775575777803994281145270272.0 * 10.0' cannot be represented as 'f32'");
    CHECK(ev("mix", &r, 3, cv_float(TY_F32, -3e38f), cv_float(TY_F32, 3e38f), cv_float(TY_F32, 2)) == CV_ERROR);
    CHECK_STR(cx.msg, "'300000000549775575777803994281145270272.0 * 2.0' cannot be represented as 'f32'");
    CHECK(ev("degrees", &r, 1, cv_float(TY_F32, 1e37f)) == CV_ERROR);
    CHECK_STR(cx.msg, "'9999999933815812510711506376257961984.0 * 57.2957763671875' cannot be represented as 'f32'");
    CHECK(ev("exp", &r, 1, cv_float(TY_AFLOAT, 100)) == CV_OK && r.u.f == exp(100.0));
    CHECK(ev("exp", &r, 1, cv_float(TY_AFLOAT, 1000)) == CV_ERROR);
    CHECK(ev("exp", &r, 1, cv_float(TY_F16, 12)) == CV_ERROR);            /* 162754 > 65504 */
    CHECK(ev("exp", &r, 1, cv_float(TY_F16, 2)) == CV_OK && r.u.f == 7.38671875);  /* truncated */
    CHECK(ev("pow", &r, 2, cv_float(TY_F32, 2), cv_float(TY_F32, 10)) == CV_OK && r.u.f == 1024);
    CHECK(ev("pow", &r, 2, cv_float(TY_F32, -1), cv_float(TY_F32, 0.5)) == CV_ERROR);
    CHECK(ev("atan2", &r, 2, cv_float(TY_AFLOAT, 1), cv_float(TY_AFLOAT, -1)) == CV_OK && r.u.f == atan2(1, -1));
    CHECK(ev("round", &r, 1, cv_float(TY_F32, 2.5)) == CV_OK && r.u.f == 2);
    CHECK(ev("round", &r, 1, cv_float(TY_F32, 3.5)) == CV_OK && r.u.f == 4);
    CHECK(ev("round", &r, 1, cv_float(TY_F32, -2.5)) == CV_OK && r.u.f == -2);
    CHECK(ev("fract", &r, 1, cv_float(TY_F32, -1.25)) == CV_OK && r.u.f == 0.75);
    CHECK(ev("degrees", &r, 1, cv_float(TY_AFLOAT, 3.14159265358979323846)) == CV_OK && fabs(r.u.f - 180) < 1e-12);
    CHECK(ev("radians", &r, 1, cv_float(TY_F32, 180)) == CV_OK && r.u.f == f32r(3.14159265358979323846));
    CHECK(ev("saturate", &r, 1, cv_float(TY_F32, 1.5)) == CV_OK && r.u.f == 1);
    CHECK(ev("sign", &r, 1, cv_float(TY_F32, -0.5)) == CV_OK && r.u.f == -1);
    CHECK(ev("sign", &r, 1, cv_int(TY_I32, 0)) == CV_OK && r.u.i == 0);
    CHECK(ev("step", &r, 2, cv_float(TY_F32, 1), cv_float(TY_F32, 1)) == CV_OK && r.u.f == 1);
    CHECK(ev("fma", &r, 3, cv_float(TY_F32, 2), cv_float(TY_F32, 3), cv_float(TY_F32, 1)) == CV_OK && r.u.f == 7);
    CHECK(ev("mix", &r, 3, cv_float(TY_F32, 2), cv_float(TY_F32, 4), cv_float(TY_F32, 0.25)) == CV_OK && r.u.f == 2.5);
    CHECK(ev("smoothstep", &r, 3, cv_float(TY_F32, 0), cv_float(TY_F32, 1), cv_float(TY_F32, 0.5)) == CV_OK && r.u.f == 0.5);
    CHECK(ev("smoothstep", &r, 3, cv_float(TY_F32, 1), cv_float(TY_F32, 1), cv_float(TY_F32, 0.5)) == CV_ERROR);
    CHECK(ev("clamp", &r, 3, cv_float(TY_F32, 5), cv_float(TY_F32, 0), cv_float(TY_F32, 1)) == CV_OK && r.u.f == 1);
    CHECK(ev("clamp", &r, 3, cv_int(TY_I32, 5), cv_int(TY_I32, 3), cv_int(TY_I32, 1)) == CV_ERROR);
    CHECK_STR(cx.msg, "clamp called with 'low' (3) greater than 'high' (1)");
    CHECK(ev("clamp", &r, 3, cv_int(TY_AINT, -5), cv_int(TY_AINT, -3), cv_int(TY_AINT, 1)) == CV_OK && r.u.i == -3);
    CHECK(ev("max", &r, 2, cv_int(TY_AINT, 1), cv_float(TY_AFLOAT, 2.5)) == CV_OK && r.type == TY_AFLOAT && r.u.f == 2.5);
    CHECK(ev("min", &r, 2, cv_int(TY_U32, 7), cv_int(TY_AINT, 3)) == CV_OK && r.type == TY_U32 && r.u.i == 3);
    CHECK(ev("min", &r, 2, cv_int(TY_U32, 7), cv_int(TY_AINT, -3)) == CV_ERROR);   /* -3 is not a u32 */
    CHECK(ev("abs", &r, 1, cv_int(TY_I32, INT32_MIN)) == CV_OK && r.u.i == INT32_MIN);
    CHECK(ev("abs", &r, 1, cv_int(TY_AINT, -9)) == CV_OK && r.u.i == 9);
    CHECK(ev("ldexp", &r, 2, cv_float(TY_F32, 1), cv_int(TY_AINT, 128)) == CV_ERROR);   /* 2^128 overflows */
    CHECK(ev("ldexp", &r, 2, cv_float(TY_F32, 0.5), cv_int(TY_AINT, 128)) == CV_OK && r.u.f == ldexp(1, 127));
    CHECK(ev("ldexp", &r, 2, cv_float(TY_F32, 0.5), cv_int(TY_AINT, 129)) == CV_ERROR);
    CHECK_STR(cx.msg, "e2 must be less than or equal to 128");
    CHECK(ev("ldexp", &r, 2, cv_float(TY_F32, 1), cv_int(TY_AINT, 127)) == CV_OK && r.u.f == ldexp(1, 127));
    CHECK(ev("ldexp", &r, 2, cv_float(TY_F32, 2), cv_int(TY_AINT, 127)) == CV_ERROR);
    CHECK(ev("ldexp", &r, 2, cv_float(TY_AFLOAT, 1), cv_int(TY_AINT, 1023)) == CV_OK && r.u.f == ldexp(1, 1023));
    CHECK(ev("ldexp", &r, 2, cv_float(TY_AFLOAT, 0.5), cv_int(TY_AINT, 1024)) == CV_OK && r.u.f == ldexp(1, 1023));
    CHECK(ev("ldexp", &r, 2, cv_float(TY_AFLOAT, 0.5), cv_int(TY_AINT, 1025)) == CV_ERROR);
    CHECK_STR(cx.msg, "e2 must be less than or equal to 1024");
    CHECK(ev("quantizeToF16", &r, 1, cv_float(TY_F32, f32r(1.0001))) == CV_OK && r.type == TY_F32 && r.u.f == 1.0);
    CHECK(ev("quantizeToF16", &r, 1, cv_float(TY_F32, f32r(1.0017))) == CV_OK && r.u.f == 1.0009765625);
    CHECK(ev("quantizeToF16", &r, 1, cv_float(TY_F32, 1e5)) == CV_ERROR);

    /* vectors and matrices */
    double a3[3] = { 1, 2, 3 }, b3[3] = { 4, 5, 6 }, z3[3] = { 0, 0, 0 };
    cv_value a = vec(TY_F32, 3, a3), b = vec(TY_F32, 3, b3);
    CHECK(ev("dot", &r, 2, a, b) == CV_OK && r.u.f == 32);
    CHECK(ev("cross", &r, 2, a, b) == CV_OK && r.u.elems[0].u.f == -3 && r.u.elems[1].u.f == 6 && r.u.elems[2].u.f == -3);
    CHECK(ev("length", &r, 1, vec(TY_F32, 2, (double[]){ 3, 4 })) == CV_OK && r.u.f == 5);
    CHECK(ev("length", &r, 1, cv_float(TY_F32, -3)) == CV_OK && r.u.f == 3);
    CHECK(ev("length", &r, 1, vec(TY_AFLOAT, 2, (double[]){ 3e200, 3e200 })) == CV_ERROR);
    CHECK_STR(cx.msg, "'2.9999999999999999e+200 * 2.9999999999999999e+200' cannot be represented as 'abstract-float'");
    CHECK(ev("distance", &r, 2, a, b) == CV_OK && r.u.f == f32r(sqrt(27)));
    CHECK(ev("normalize", &r, 1, vec(TY_F32, 2, (double[]){ 3, 4 })) == CV_OK && r.u.elems[0].u.f == f32r(0.6));
    CHECK(ev("normalize", &r, 1, vec(TY_F32, 3, z3)) == CV_ERROR);
    CHECK(ev("sqrt", &r, 1, vec(TY_F32, 3, b3)) == CV_OK && r.type == V(3, TY_F32) && r.u.elems[0].u.f == 2);
    CHECK(ev("max", &r, 2, a, b) == CV_OK && r.u.elems[2].u.f == 6);
    CHECK(ev("mix", &r, 3, a, b, cv_float(TY_F32, 0.5)) == CV_OK && r.u.elems[0].u.f == 2.5);
    CHECK(ev("reflect", &r, 2, vec(TY_F32, 2, (double[]){ 1, -1 }), vec(TY_F32, 2, (double[]){ 0, 1 })) == CV_OK &&
          r.u.elems[0].u.f == 1 && r.u.elems[1].u.f == 1);
    CHECK(ev("faceForward", &r, 3, a, b, b) == CV_OK && r.u.elems[0].u.f == -1);
    CHECK(ev("refract", &r, 3, vec(TY_F32, 2, (double[]){ 0, -1 }), vec(TY_F32, 2, (double[]){ 0, 1 }), cv_float(TY_F32, 1)) == CV_OK &&
          r.u.elems[1].u.f == -1);
    CHECK(ev("all", &r, 1, vec(TY_BOOL, 2, (double[]){ 1, 1 })) == CV_OK);
    cv_value bv[2] = { cv_bool(true), cv_bool(false) }, bvv;
    CHECK(cv_composite(&cx, V(2, TY_BOOL), bv, 2, &bvv) == CV_OK);
    CHECK(ev("all", &r, 1, bvv) == CV_OK && !r.u.b);
    CHECK(ev("any", &r, 1, bvv) == CV_OK && r.u.b);
    CHECK(ev("select", &r, 3, vec(TY_F32, 2, a3), vec(TY_F32, 2, b3), bvv) == CV_OK && r.u.elems[0].u.f == 4 && r.u.elems[1].u.f == 2);
    CHECK(ev("select", &r, 3, cv_int(TY_AINT, 1), cv_int(TY_AINT, 2), cv_bool(false)) == CV_OK && r.u.i == 1 && r.type == TY_AINT);
    /* determinant and transpose against a plain C reference */
    double M[3][3] = { { 2, -1, 0 }, { 1, 3, 4 }, { 0.5, 2, -2 } };
    cv_value cols[3], mat;
    for (int c = 0; c < 3; c++) cols[c] = vec(TY_F32, 3, M[c]);
    CHECK(cv_composite(&cx, ty_mat(&tt, 3, 3, TY_F32), cols, 3, &mat) == CV_OK);
    double ref = M[0][0] * (M[1][1] * M[2][2] - M[2][1] * M[1][2]) - M[1][0] * (M[0][1] * M[2][2] - M[2][1] * M[0][2]) +
                 M[2][0] * (M[0][1] * M[1][2] - M[1][1] * M[0][2]);
    CHECK(ev("determinant", &r, 1, mat) == CV_OK && r.u.f == ref);
    CHECK(ev("transpose", &r, 1, mat) == CV_OK && r.u.elems[0].u.elems[1].u.f == M[1][0] && r.u.elems[2].u.elems[0].u.f == M[0][2]);
    /* frexp / modf */
    CHECK(ev("frexp", &r, 1, cv_float(TY_F32, 8)) == CV_OK && r.n == 2 && r.u.elems[0].u.f == 0.5 && r.u.elems[1].u.i == 4 &&
          r.u.elems[1].type == TY_I32);
    CHECK(ev("frexp", &r, 1, cv_float(TY_AFLOAT, 0)) == CV_OK && r.u.elems[0].u.f == 0 && r.u.elems[1].u.i == 0 &&
          r.u.elems[1].type == TY_AINT);
    CHECK(ev("modf", &r, 1, cv_float(TY_F32, -2.5)) == CV_OK && r.u.elems[0].u.f == -0.5 && r.u.elems[1].u.f == -2);
    CHECK(ev("modf", &r, 1, vec(TY_F32, 3, (double[]){ 1.5, -0.25, 3 })) == CV_OK && r.u.elems[0].u.elems[1].u.f == -0.25 &&
          r.u.elems[1].u.elems[2].u.f == 3);
}

static uint32_t ref_clz(uint32_t v) { return v ? (uint32_t)__builtin_clz(v) : 32; }
static uint32_t ref_ctz(uint32_t v) { return v ? (uint32_t)__builtin_ctz(v) : 32; }

static void test_eval_int(void) {
    cv_value r;
    uint64_t s = 0x9e3779b97f4a7c15ull;
    int bad = 0;
    for (int i = 0; i < 5000; i++) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        uint32_t v = (uint32_t)s >> (s >> 59);
        cv_value u = cv_int(TY_U32, v), si = cv_int(TY_I32, (int32_t)v);
        if (ev("countLeadingZeros", &r, 1, u) || (uint32_t)r.u.i != ref_clz(v)) bad++;
        if (ev("countTrailingZeros", &r, 1, si) || (uint32_t)r.u.i != ref_ctz(v)) bad++;
        if (ev("countOneBits", &r, 1, u) || (uint32_t)r.u.i != (uint32_t)__builtin_popcount(v)) bad++;
        if (ev("firstLeadingBit", &r, 1, u) || (uint32_t)r.u.i != (v ? 31 - ref_clz(v) : 0xffffffffu)) bad++;
        uint32_t sv = (int32_t)v < 0 ? ~v : v;
        if (ev("firstLeadingBit", &r, 1, si) || r.u.i != (sv ? (int64_t)(31 - ref_clz(sv)) : -1)) bad++;
        if (ev("firstTrailingBit", &r, 1, u) || (uint32_t)r.u.i != (v ? ref_ctz(v) : 0xffffffffu)) bad++;
        uint32_t rv = 0;
        for (int b = 0; b < 32; b++) if (v >> b & 1) rv |= 1u << (31 - b);
        if (ev("reverseBits", &r, 1, u) || (uint32_t)r.u.i != rv) bad++;
        uint32_t off = (uint32_t)(s >> 20) % 33, cnt = (uint32_t)(s >> 30) % 33;
        int st = ev("extractBits", &r, 3, si, cv_int(TY_U32, off), cv_int(TY_U32, cnt));
        if (off + cnt > 32) { if (st != CV_ERROR) bad++; continue; }
        int64_t want = 0;
        if (cnt) {
            uint64_t f = ((uint64_t)v >> off) & ((1ull << cnt) - 1);
            if (f >> (cnt - 1) & 1) f |= ~((1ull << cnt) - 1);
            want = (int32_t)(uint32_t)f;
        }
        if (st || r.u.i != want) bad++;
        uint32_t nb = (uint32_t)(s >> 11);
        uint64_t mask = ((1ull << cnt) - 1) << off;
        uint32_t iw = (uint32_t)(((uint64_t)v & ~mask) | (((uint64_t)nb << off) & mask));
        if (ev("insertBits", &r, 4, u, cv_int(TY_U32, nb), cv_int(TY_U32, off), cv_int(TY_U32, cnt)) || (uint32_t)r.u.i != iw) bad++;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(ev("extractBits", &r, 3, cv_int(TY_I32, 0xf0), cv_int(TY_U32, 4), cv_int(TY_U32, 4)) == CV_OK && r.u.i == -1);
    CHECK(ev("extractBits", &r, 3, cv_int(TY_U32, 0xf0), cv_int(TY_U32, 4), cv_int(TY_U32, 4)) == CV_OK && r.u.i == 15);
    CHECK(ev("extractBits", &r, 3, cv_int(TY_U32, 1), cv_int(TY_U32, 30), cv_int(TY_U32, 3)) == CV_ERROR);
    CHECK_STR(cx.msg, "'offset' + 'count' must be less than or equal to the bit width of 'e'");
    CHECK(ev("countLeadingZeros", &r, 1, cv_int(TY_AINT, 1)) == CV_OK && r.type == TY_I32 && r.u.i == 31);

    /* packing against the spec's formulas */
    double p4[4] = { 1, -1, 0.5, -0.3 };
    uint32_t want = 0;
    for (int i = 0; i < 4; i++) want |= ((uint32_t)(int32_t)floor(0.5 + 127 * p4[i]) & 0xffu) << (8 * i);
    CHECK(ev("pack4x8snorm", &r, 1, vec(TY_F32, 4, p4)) == CV_OK && (uint32_t)r.u.i == want);
    double q4[4] = { 1, 0, 0.5, 2 };
    want = 0;
    for (int i = 0; i < 4; i++) want |= ((uint32_t)floor(0.5 + 255 * fmin(1, q4[i]))) << (8 * i);
    CHECK(ev("pack4x8unorm", &r, 1, vec(TY_F32, 4, q4)) == CV_OK && (uint32_t)r.u.i == want);
    CHECK(ev("pack2x16float", &r, 1, vec(TY_F32, 2, (double[]){ 1, -2 })) == CV_OK && (uint32_t)r.u.i == 0xc0003c00u);
    CHECK(ev("pack2x16float", &r, 1, vec(TY_F32, 2, (double[]){ 1e6, 0 })) == CV_ERROR);
    CHECK(ev("pack2x16snorm", &r, 1, vec(TY_F32, 2, (double[]){ -1, 1 })) == CV_OK && (uint32_t)r.u.i == 0x7fff8001u);
    CHECK(ev("pack2x16unorm", &r, 1, vec(TY_F32, 2, (double[]){ 0, 1 })) == CV_OK && (uint32_t)r.u.i == 0xffff0000u);
    CHECK(ev("pack4xI8", &r, 1, vec(TY_I32, 4, (double[]){ -1, 2, 300, -129 })) == CV_OK && (uint32_t)r.u.i == 0x7f2c02ffu);
    CHECK(ev("pack4xI8Clamp", &r, 1, vec(TY_I32, 4, (double[]){ -1, 2, 300, -129 })) == CV_OK && (uint32_t)r.u.i == 0x807f02ffu);
    CHECK(ev("pack4xU8Clamp", &r, 1, vec(TY_U32, 4, (double[]){ 1, 2, 300, 255 })) == CV_OK && (uint32_t)r.u.i == 0xffff0201u);
    CHECK(ev("unpack4xI8", &r, 1, cv_int(TY_U32, 0x807f02ffu)) == CV_OK && r.u.elems[0].u.i == -1 && r.u.elems[3].u.i == -128);
    CHECK(ev("unpack4xU8", &r, 1, cv_int(TY_U32, 0x807f02ffu)) == CV_OK && r.u.elems[0].u.i == 255);
    CHECK(ev("unpack2x16float", &r, 1, cv_int(TY_U32, 0xc0003c00u)) == CV_OK && r.u.elems[0].u.f == 1 && r.u.elems[1].u.f == -2);
    CHECK(ev("unpack2x16float", &r, 1, cv_int(TY_U32, 0x7c00u)) == CV_ERROR);
    CHECK(ev("unpack4x8snorm", &r, 1, cv_int(TY_U32, 0x0000807fu)) == CV_OK && r.u.elems[0].u.f == 1 && r.u.elems[1].u.f == -1);
    CHECK(ev("unpack4x8unorm", &r, 1, cv_int(TY_U32, 0xff80u)) == CV_OK && r.u.elems[1].u.f == 1 && r.u.elems[0].u.f == f32r(128.0 / 255));
    CHECK(ev("unpack2x16unorm", &r, 1, cv_int(TY_U32, 0xffff0000u)) == CV_OK && r.u.elems[1].u.f == 1 && r.u.elems[0].u.f == 0);
    CHECK(ev("dot4U8Packed", &r, 2, cv_int(TY_U32, 0x01020304u), cv_int(TY_U32, 0x01010101u)) == CV_OK && r.u.i == 10);
    CHECK(ev("dot4I8Packed", &r, 2, cv_int(TY_U32, 0xffffffffu), cv_int(TY_U32, 0x01010101u)) == CV_OK && r.u.i == -4);
    /* round trips */
    int rbad = 0;
    for (uint32_t v = 0; v < 0x10000; v += 7) {
        uint32_t w = v * 0x10001u;
        if (ev("unpack4x8unorm", &r, 1, cv_int(TY_U32, w)) || ev("pack4x8unorm", &r, 1, r) || (uint32_t)r.u.i != w) rbad++;
        if (ev("unpack2x16snorm", &r, 1, cv_int(TY_U32, w)) || ev("pack2x16snorm", &r, 1, r)) { rbad++; continue; }
        /* 0x8000 unpacks to -1 and packs back to 0x8001 */
        uint32_t lo = w & 0xffff, hi = w >> 16;
        uint32_t want2 = (lo == 0x8000 ? 0x8001 : lo) | (hi == 0x8000 ? 0x8001 : hi) << 16;
        if ((uint32_t)r.u.i != want2) rbad++;
    }
    CHECK_EQ_INT(rbad, 0);
    /* bitcast through the table */
    bi_match m;
    ty_t at[1] = { TY_U32 };
    CHECK(bi_resolve(&tt, F("bitcast"), TY_F32, at, 1, true, &m, msg, sizeof msg) == 0);
    cv_value one = cv_int(TY_U32, 0x3f800000);
    CHECK(bi_eval(&cx, &m, &one, 1, &r) == CV_OK && r.u.f == 1.0);
    /* not const */
    ty_t pa[1] = { ty_ptr(&tt, TY_AS_STORAGE, ty_array_runtime(&tt, TY_F32), 0) };
    CHECK(bi_resolve(&tt, F("arrayLength"), 0, pa, 1, false, &m, msg, sizeof msg) == 0);
    CHECK(bi_eval(&cx, &m, &one, 1, &r) == CV_ERROR);
}

/* Every SPIR-V number in the table is what spirv-as assigns to its name. */
static const char *op_operands(const char *name, bool *has_result) {
    *has_result = true;
    static const struct { const char *name; const char *ops; int noresult; } t[] = {
        { "OpDot", "%x %x", 0 }, { "OpSelect", "%x %x %x", 0 }, { "OpBitFieldInsert", "%x %x %x %x", 0 },
        { "OpBitFieldSExtract", "%x %x %x", 0 }, { "OpBitFieldUExtract", "%x %x %x", 0 }, { "OpArrayLength", "%x 0", 0 },
        { "OpAtomicLoad", "%x %x %x", 0 }, { "OpAtomicStore", "%x %x %x %x", 1 },
        { "OpAtomicCompareExchange", "%x %x %x %x %x %x", 0 }, { "OpControlBarrier", "%x %x %x", 1 },
        { "OpGroupNonUniformElect", "%x", 0 }, { "OpGroupNonUniformAll", "%x %x", 0 }, { "OpGroupNonUniformAny", "%x %x", 0 },
        { "OpGroupNonUniformBallot", "%x %x", 0 }, { "OpGroupNonUniformBroadcastFirst", "%x %x", 0 },
        { "OpGroupNonUniformBroadcast", "%x %x %x", 0 }, { "OpGroupNonUniformShuffle", "%x %x %x", 0 },
        { "OpGroupNonUniformShuffleXor", "%x %x %x", 0 }, { "OpGroupNonUniformShuffleUp", "%x %x %x", 0 },
        { "OpGroupNonUniformShuffleDown", "%x %x %x", 0 }, { "OpGroupNonUniformQuadBroadcast", "%x %x %x", 0 },
        { "OpGroupNonUniformQuadSwap", "%x %x %x", 0 },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (!strcmp(t[i].name, name)) { *has_result = !t[i].noresult; return t[i].ops; }
    if (!strncmp(name, "OpAtomic", 8)) return "%x %x %x %x";
    if (!strncmp(name, "OpGroupNonUniform", 17)) return "%x Reduce %x";
    return "%x";
}

static uint32_t first_param_count(const char *sig) {
    const char *p = strchr(sig, '(');
    if (!p || p[1] == ')') return 0;
    uint32_t n = 1;
    int depth = 0;
    for (p++; *p && *p != ')'; p++) {
        if (*p == '<') depth++;
        else if (*p == '>') depth--;
        else if (*p == ',' && depth == 0) n++;
    }
    return n;
}

static void test_spirv_numbers(void) {
    const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char asmf[512], binf[512], cmd[1400];
    snprintf(asmf, sizeof asmf, "%s/wgc_test_builtins_%d.spvasm", dir, (int)getpid());
    snprintf(binf, sizeof binf, "%s/wgc_test_builtins_%d.spv", dir, (int)getpid());
    FILE *f = fopen(asmf, "w");
    CHECK(f != NULL);
    if (!f) return;
    fprintf(f, "OpCapability Shader\n%%glsl = OpExtInstImport \"GLSL.std.450\"\n");
    uint32_t expect[1024];
    uint32_t n = 0;
    for (int fn = 1; fn < BI_COUNT; fn++) {
        const bi_info *bi = bi_get((bi_fn)fn);
        for (int k = 0; k < 3; k++) {
            const bi_lower *l = &bi->lower[k];
            if (l->kind == BI_LK_GLSL) {
                fprintf(f, "%%r%u = OpExtInst %%t %%glsl %s", n, l->spv_name);
                for (uint32_t i = 0; i < first_param_count(bi->sig); i++) fprintf(f, " %%x");
                fprintf(f, "\n");
                expect[n++] = 0x10000u | l->num;
            } else if (l->kind == BI_LK_OP) {
                bool has_result;
                const char *ops = op_operands(l->spv_name, &has_result);
                if (has_result) fprintf(f, "%%r%u = %s %%t %s\n", n, l->spv_name, ops);
                else fprintf(f, "%s %s\n", l->spv_name, ops);
                expect[n++] = l->num;
            }
        }
    }
    fclose(f);
    snprintf(cmd, sizeof cmd, "spirv-as --target-env spv1.6 '%s' -o '%s'", asmf, binf);
    int rc = system(cmd);
    CHECKF(rc == 0, "spirv-as failed (is spirv-tools installed?)");
    FILE *b = fopen(binf, "rb");
    CHECK(b != NULL);
    if (!b) return;
    static uint32_t words[65536];
    size_t nw = fread(words, 4, 65536, b);
    fclose(b);
    remove(asmf);
    remove(binf);
    uint32_t got = 0;
    int bad = 0;
    for (size_t w = 5; w < nw;) {
        uint32_t wc = words[w] >> 16, op = words[w] & 0xffff;
        if (!wc) break;
        if (op == 12) {                                    /* OpExtInst: instruction number at word 4 */
            if (got < n && expect[got] != (0x10000u | words[w + 4])) { bad++; fprintf(stderr, "ext #%u: %u\n", got, words[w + 4]); }
            got++;
        } else if (op != 17 && op != 11) {
            if (got < n && expect[got] != op) { bad++; fprintf(stderr, "op #%u: %u vs %u\n", got, op, expect[got]); }
            got++;
        }
        w += wc;
    }
    CHECK_EQ_INT(got, n);
    CHECK_EQ_INT(bad, 0);
    CHECK(n > 150);
}

int main(void) {
    arena ar;
    arena_init(&ar, NULL);
    CHECK(ty_table_init_arena(&tt, &ar) == 0);
    cx.tt = &tt;
    test_table();
    test_resolve();
    test_operators();
    test_ctors();
    test_eval_float();
    test_eval_int();
    test_spirv_numbers();
    arena_free(&ar);
    return test_end();
}
