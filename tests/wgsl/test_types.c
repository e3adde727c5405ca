/* test_types.c - interned types: handle equality, Tint-style names, predicates, conversion ranks,
 * concretization and the WGSL memory layout (expected numbers worked out by hand from the spec's
 * "Memory Layout" tables), plus the uniform address-space constraints. */
#include <stdlib.h>

#include "test.h"
#include "wgsl/types.h"

static void *test_alloc(void *ud, size_t n) {
    (void)ud;
    /* leaked on purpose into a list freed at exit */
    void **p = calloc(1, n + sizeof(void *) * 2);
    static void **head;
    if (!p) return NULL;
    p[0] = head;
    head = p;
    return p + 2;
}

static int fail_after;
static void *failing_alloc(void *ud, size_t n) {
    if (fail_after-- <= 0) return NULL;
    return test_alloc(ud, n);
}

int main(void) {
    ty_table tt;
    CHECK(ty_table_init(&tt, test_alloc, NULL) == 0);

    /* scalars have fixed handles */
    CHECK(ty_kind_of(&tt, TY_F32) == TY_F32);
    CHECK_STR(ty_name(&tt, TY_AINT), "abstract-int");
    CHECK_STR(ty_name(&tt, TY_AFLOAT), "abstract-float");
    CHECK_STR(ty_name(&tt, TY_F16), "f16");

    /* interning: equal structure, equal handle */
    ty_t v3f = ty_vec(&tt, 3, TY_F32);
    CHECK(v3f != 0);
    CHECK(v3f == ty_vec(&tt, 3, TY_F32));
    CHECK(v3f != ty_vec(&tt, 3, TY_I32));
    CHECK(v3f == ty_predeclared_alias(&tt, "vec3f", 5));
    CHECK(ty_vec(&tt, 5, TY_F32) == 0);
    CHECK(ty_vec(&tt, 2, v3f) == 0);
    CHECK(ty_mat(&tt, 2, 2, TY_I32) == 0);
    CHECK(ty_predeclared_alias(&tt, "mat2x3h", 7) == ty_mat(&tt, 2, 3, TY_F16));
    CHECK(ty_predeclared_alias(&tt, "mat2x3i", 7) == 0);
    CHECK(ty_predeclared_alias(&tt, "vec4u", 5) == ty_vec(&tt, 4, TY_U32));
    CHECK(ty_scalar_by_name("u32", 3) == TY_U32);
    CHECK(ty_scalar_by_name("abstract-int", 12) == 0);

    ty_t a4 = ty_array(&tt, TY_U32, 4);
    CHECK(a4 == ty_array(&tt, TY_U32, 4));
    CHECK(a4 != ty_array(&tt, TY_U32, 5));
    CHECK(ty_array(&tt, TY_U32, 0) == 0);
    ty_t rt = ty_array_runtime(&tt, TY_F32);
    CHECK(rt != ty_array(&tt, TY_F32, 1));
    ty_t ov = ty_array_override(&tt, TY_F32, 7, "N");
    CHECK(ov == ty_array_override(&tt, TY_F32, 7, "N"));
    CHECK(ov != ty_array_override(&tt, TY_F32, 8, NULL));

    /* names as Tint prints them */
    CHECK_STR(ty_name(&tt, v3f), "vec3<f32>");
    CHECK_STR(ty_name(&tt, ty_mat(&tt, 2, 3, TY_F16)), "mat2x3<f16>");
    CHECK_STR(ty_name(&tt, a4), "array<u32, 4>");
    CHECK_STR(ty_name(&tt, rt), "array<f32>");
    CHECK_STR(ty_name(&tt, ov), "array<f32, N>");
    CHECK_STR(ty_name(&tt, ty_array_override(&tt, TY_F32, 8, NULL)), "array<f32, [unnamed override-expression]>");
    CHECK_STR(ty_name(&tt, ty_ptr(&tt, TY_AS_STORAGE, TY_F32, TY_ACCESS_READ_WRITE)), "ptr<storage, f32, read_write>");
    CHECK_STR(ty_name(&tt, ty_ptr(&tt, TY_AS_STORAGE, rt, 0)), "ptr<storage, array<f32>, read>");
    CHECK_STR(ty_name(&tt, ty_ref(&tt, TY_AS_FUNCTION, TY_I32, 0)), "ref<function, i32, read_write>");
    CHECK_STR(ty_name(&tt, ty_atomic(&tt, TY_U32)), "atomic<u32>");
    CHECK_STR(ty_name(&tt, ty_vec(&tt, 2, TY_AINT)), "vec2<abstract-int>");
    CHECK_STR(ty_name(&tt, ty_array(&tt, ty_array(&tt, v3f, 2), 3)), "array<array<vec3<f32>, 2>, 3>");
    CHECK(ty_atomic(&tt, TY_F32) == 0);

    /* layout: scalars, vectors, matrices */
    CHECK_EQ_INT(ty_align_of(&tt, v3f), 16);
    CHECK_EQ_INT(ty_size_of(&tt, v3f), 12);
    CHECK_EQ_INT(ty_align_of(&tt, ty_vec(&tt, 2, TY_F16)), 4);
    CHECK_EQ_INT(ty_size_of(&tt, ty_vec(&tt, 3, TY_F16)), 6);
    CHECK_EQ_INT(ty_align_of(&tt, ty_vec(&tt, 3, TY_F16)), 8);
    ty_t m3 = ty_mat(&tt, 3, 3, TY_F32);
    CHECK_EQ_INT(ty_align_of(&tt, m3), 16);
    CHECK_EQ_INT(ty_size_of(&tt, m3), 48);
    CHECK_EQ_INT(ty_size_of(&tt, ty_mat(&tt, 4, 2, TY_F32)), 32);
    CHECK_EQ_INT(ty_size_of(&tt, ty_mat(&tt, 2, 3, TY_F16)), 16);
    CHECK_EQ_INT(ty_size_of(&tt, ty_mat(&tt, 3, 2, TY_F16)), 12);
    /* arrays: stride = roundUp(align, size) */
    ty_t av3 = ty_array(&tt, v3f, 5);
    CHECK_EQ_INT(ty_stride_of(&tt, av3), 16);
    CHECK_EQ_INT(ty_size_of(&tt, av3), 80);
    CHECK_EQ_INT(ty_stride_of(&tt, rt), 4);
    CHECK_EQ_INT(ty_size_of(&tt, ty_array(&tt, TY_F16, 3)), 6);
    /* huge array sizes do not wrap (nested 2^32-element arrays saturate) */
    ty_t huge = ty_array(&tt, ty_array(&tt, ty_vec(&tt, 4, TY_F32), 0xffffffffu), 0xffffffffu);
    CHECK(ty_size_of(&tt, huge) > 0xffffffffull);
    CHECK(ty_size_of(&tt, ty_array(&tt, huge, 0xffffffffu)) == UINT64_MAX);
    CHECK(ty_size_of(&tt, ty_array(&tt, ty_vec(&tt, 4, TY_F32), 0x40000000u)) == 0x400000000ull);

    /* structs: the spec's example  struct A { u: f32, v: f32, w: vec2<f32>, x: f32 } -> 24/8 */
    ty_member ma[4] = {
        { .name_str = "u", .type = TY_F32 }, { .name_str = "v", .type = TY_F32 },
        { .name_str = "w", .type = ty_vec(&tt, 2, TY_F32) }, { .name_str = "x", .type = TY_F32 },
    };
    ty_t sa = ty_struct_new(&tt, "A", 1, ma, 4);
    const ty_info *ia = ty_get(&tt, sa);
    CHECK_EQ_INT(ia->members[2].offset, 8);
    CHECK_EQ_INT(ia->members[3].offset, 16);
    CHECK_EQ_INT(ty_size_of(&tt, sa), 24);
    CHECK_EQ_INT(ty_align_of(&tt, sa), 8);
    CHECK(sa != ty_struct_new(&tt, "A", 1, ma, 4));    /* nominal */
    CHECK_STR(ty_name(&tt, sa), "A");
    CHECK_EQ_INT(ty_member_index_str(&tt, sa, "w", 1), 2);
    CHECK_EQ_INT(ty_member_index_str(&tt, sa, "q", 1), -1);
    /* struct B { a: vec2<f32>, b: vec3<f32>, c: f32, d: f32, e: A, f: vec3<f32>, g: array<A, 3>, h: i32 }
     * offsets 0 16 28 32 40 64 80 152, size 160, align 16 (spec example) */
    ty_member mb[8] = {
        { .name_str = "a", .type = ty_vec(&tt, 2, TY_F32) }, { .name_str = "b", .type = v3f },
        { .name_str = "c", .type = TY_F32 }, { .name_str = "d", .type = TY_F32 },
        { .name_str = "e", .type = sa }, { .name_str = "f", .type = v3f },
        { .name_str = "g", .type = ty_array(&tt, sa, 3) }, { .name_str = "h", .type = TY_I32 },
    };
    ty_t sb = ty_struct_new(&tt, "B", 2, mb, 8);
    const ty_info *ib = ty_get(&tt, sb);
    static const uint32_t offs[8] = { 0, 16, 28, 32, 40, 64, 80, 152 };
    for (int i = 0; i < 8; i++) CHECK_EQ_INT(ib->members[i].offset, offs[i]);
    CHECK_EQ_INT(ty_size_of(&tt, sb), 160);
    CHECK_EQ_INT(ty_align_of(&tt, sb), 16);
    /* @align/@size */
    ty_member mc[2] = { { .name_str = "a", .type = TY_F32, .size_attr = 12 },
                        { .name_str = "b", .type = TY_F32, .align_attr = 32 } };
    ty_t sc = ty_struct_new(&tt, "C", 3, mc, 2);
    CHECK_EQ_INT(ty_get(&tt, sc)->members[1].offset, 32);
    CHECK_EQ_INT(ty_size_of(&tt, sc), 64);
    CHECK_EQ_INT(ty_align_of(&tt, sc), 32);
    char msg[512];
    CHECK(ty_member_attr_check(&tt, TY_F32, 3, 0, msg, sizeof msg) == 1);
    CHECK(ty_member_attr_check(&tt, v3f, 0, 8, msg, sizeof msg) == 1);
    CHECK(ty_member_attr_check(&tt, v3f, 16, 12, msg, sizeof msg) == 0);
    CHECK(ty_member_attr_check(&tt, TY_F32, 2, 0, msg, sizeof msg) == 1);
    CHECK_STR(msg, "alignment must be a multiple of '4' bytes");
    CHECK(ty_member_attr_check(&tt, v3f, 8, 0, msg, sizeof msg) == 1);
    CHECK_STR(msg, "alignment must be a multiple of '16' bytes");
    CHECK(ty_member_attr_check(&tt, ty_array_runtime(&tt, TY_F32), 0, 8, msg, sizeof msg) == 1);
    CHECK_STR(msg, "'@size' can only be applied to members where the member's type size can be fully determined at shader creation time");
    /* the 4 GiB limit */
    ty_t big = ty_array(&tt, ty_vec(&tt, 4, TY_F32), 268435456u);
    CHECK(ty_size_limit_check(&tt, big, msg, sizeof msg) == 1);
    CHECK_STR(msg, "array byte size (0x100000000) must not exceed 0xffffffff bytes");
    CHECK(ty_size_limit_check(&tt, ty_array(&tt, ty_vec(&tt, 4, TY_F32), 268435455u), msg, sizeof msg) == 0);
    ty_member mbig[2] = { { .name_str = "a", .type = ty_array(&tt, ty_vec(&tt, 4, TY_F32), 268435455u) },
                          { .name_str = "b", .type = TY_F32 } };
    ty_t sbig = ty_struct_new(&tt, "Big", 9, mbig, 2);
    CHECK(ty_size_limit_check(&tt, sbig, msg, sizeof msg) == 1);
    CHECK_STR(msg, "struct size (0x100000000) must not exceed 0xffffffff bytes");
    CHECK(ty_layout_check(&tt, sbig, TY_AS_STORAGE, msg, sizeof msg, NULL, NULL) == 1);

    /* predicates */
    CHECK(ty_is_host_shareable(&tt, sa));
    CHECK(!ty_is_host_shareable(&tt, TY_BOOL));
    CHECK(!ty_is_host_shareable(&tt, ty_vec(&tt, 2, TY_BOOL)));
    CHECK(ty_is_constructible(&tt, a4));
    CHECK(!ty_is_constructible(&tt, rt));
    CHECK(!ty_is_constructible(&tt, ov));
    CHECK(!ty_is_constructible(&tt, ty_array(&tt, ty_atomic(&tt, TY_U32), 4)));
    CHECK(ty_is_storable(&tt, ty_atomic(&tt, TY_U32)));
    CHECK(!ty_is_storable(&tt, TY_AINT));
    CHECK(!ty_is_storable(&tt, ty_ptr(&tt, TY_AS_FUNCTION, TY_I32, 0)));
    CHECK(ty_is_fixed_footprint(&tt, ov) && !ty_is_creation_fixed_footprint(&tt, ov));
    CHECK(!ty_is_fixed_footprint(&tt, rt));
    ty_member md[2] = { { .name_str = "n", .type = TY_U32 }, { .name_str = "data", .type = rt } };
    ty_t sd = ty_struct_new(&tt, "D", 4, md, 2);
    CHECK(ty_has(&tt, sd, TY_F_HAS_RUNTIME));
    CHECK(!ty_is_constructible(&tt, sd));
    CHECK(ty_is_host_shareable(&tt, sd));
    CHECK(ty_is_abstract(&tt, ty_vec(&tt, 2, TY_AFLOAT)));
    CHECK(ty_is_integer_scalar(&tt, TY_AINT) && !ty_is_integer_scalar(&tt, TY_F32));
    CHECK(ty_has(&tt, ty_mat(&tt, 2, 2, TY_F16), TY_F_HAS_F16));
    CHECK(ty_first_non_host_shareable(&tt, ty_array(&tt, ty_vec(&tt, 2, TY_BOOL), 2)) == TY_BOOL);
    CHECK(ty_first_non_host_shareable(&tt, sa) == 0);

    /* conversion rank (spec table) */
    CHECK_EQ_INT(ty_conversion_rank(&tt, TY_AFLOAT, TY_F32), 1);
    CHECK_EQ_INT(ty_conversion_rank(&tt, TY_AFLOAT, TY_F16), 2);
    CHECK_EQ_INT(ty_conversion_rank(&tt, TY_AINT, TY_I32), 3);
    CHECK_EQ_INT(ty_conversion_rank(&tt, TY_AINT, TY_U32), 4);
    CHECK_EQ_INT(ty_conversion_rank(&tt, TY_AINT, TY_AFLOAT), 5);
    CHECK_EQ_INT(ty_conversion_rank(&tt, TY_AINT, TY_F32), 6);
    CHECK_EQ_INT(ty_conversion_rank(&tt, TY_AINT, TY_F16), 7);
    CHECK_EQ_INT(ty_conversion_rank(&tt, TY_AFLOAT, TY_I32), TY_RANK_INF);
    CHECK_EQ_INT(ty_conversion_rank(&tt, TY_I32, TY_U32), TY_RANK_INF);
    CHECK_EQ_INT(ty_conversion_rank(&tt, TY_I32, TY_I32), 0);
    CHECK_EQ_INT(ty_conversion_rank(&tt, ty_vec(&tt, 3, TY_AINT), ty_vec(&tt, 3, TY_U32)), 4);
    CHECK_EQ_INT(ty_conversion_rank(&tt, ty_vec(&tt, 3, TY_AINT), ty_vec(&tt, 2, TY_U32)), TY_RANK_INF);
    CHECK_EQ_INT(ty_conversion_rank(&tt, ty_mat(&tt, 2, 2, TY_AFLOAT), ty_mat(&tt, 2, 2, TY_F16)), 2);
    CHECK_EQ_INT(ty_conversion_rank(&tt, ty_array(&tt, TY_AINT, 2), ty_array(&tt, TY_F32, 2)), 6);
    CHECK_EQ_INT(ty_conversion_rank(&tt, ty_array(&tt, TY_AINT, 2), ty_array(&tt, TY_F32, 3)), TY_RANK_INF);
    CHECK_EQ_INT(ty_conversion_rank(&tt, ty_ref(&tt, TY_AS_PRIVATE, TY_F32, 0), TY_F32), 0);
    CHECK_EQ_INT(ty_conversion_rank(&tt, ty_ref(&tt, TY_AS_STORAGE, TY_F32, TY_ACCESS_WRITE), TY_F32), TY_RANK_INF);
    ty_t fr_a = ty_builtin_struct_of(&tt, TY_BS_FREXP, TY_AFLOAT);
    ty_t fr_f = ty_builtin_struct_of(&tt, TY_BS_FREXP, TY_F32);
    CHECK(fr_a && fr_a == ty_builtin_struct_of(&tt, TY_BS_FREXP, TY_AFLOAT));
    CHECK_STR(ty_name(&tt, fr_f), "__frexp_result_f32");
    CHECK_STR(ty_name(&tt, ty_builtin_struct_of(&tt, TY_BS_MODF, ty_vec(&tt, 3, TY_F16))), "__modf_result_vec3_f16");
    CHECK_STR(ty_name(&tt, ty_builtin_struct_of(&tt, TY_BS_ATOMIC_CMPXCHG, TY_U32)), "__atomic_compare_exchange_result_u32");
    CHECK_EQ_INT(ty_conversion_rank(&tt, fr_a, fr_f), 1);
    CHECK(ty_get(&tt, fr_a)->members[1].type == TY_AINT);

    /* concretization */
    CHECK(ty_concretize(&tt, TY_AINT) == TY_I32);
    CHECK(ty_concretize(&tt, TY_AFLOAT) == TY_F32);
    CHECK(ty_concretize(&tt, ty_vec(&tt, 4, TY_AINT)) == ty_vec(&tt, 4, TY_I32));
    CHECK(ty_concretize(&tt, ty_array(&tt, ty_vec(&tt, 2, TY_AFLOAT), 3)) == ty_array(&tt, ty_vec(&tt, 2, TY_F32), 3));
    CHECK(ty_concretize(&tt, fr_a) == fr_f);
    CHECK(ty_concretize(&tt, TY_U32) == TY_U32);

    /* uniform layout constraints */
    ty_t u = 0;
    uint32_t mi = 0;
    CHECK(ty_layout_check(&tt, ty_array(&tt, TY_F32, 4), TY_AS_UNIFORM, msg, sizeof msg, &u, &mi) == 1);
    CHECK_STR(msg, "uniform storage requires that array elements are aligned to 16 bytes, but array element of type 'f32' has a stride of 4 bytes. Consider using a vector or struct as the element type instead.");
    CHECK(ty_layout_check(&tt, ty_array(&tt, TY_F32, 4), TY_AS_STORAGE, msg, sizeof msg, &u, &mi) == 0);
    CHECK(ty_layout_check(&tt, ty_array(&tt, ty_vec(&tt, 4, TY_F32), 4), TY_AS_UNIFORM, msg, sizeof msg, &u, &mi) == 0);
    /* struct E { a: f32, b: A }: b at offset 8, uniform needs 16 */
    ty_member me[2] = { { .name_str = "a", .type = TY_F32 }, { .name_str = "b", .type = sa } };
    ty_t se = ty_struct_new(&tt, "E", 5, me, 2);
    CHECK(ty_layout_check(&tt, se, TY_AS_UNIFORM, msg, sizeof msg, &u, &mi) == 1);
    CHECK(u == se && mi == 1);
    CHECK_STR(msg, "the offset of a struct member of type 'A' in address space 'uniform' must be a multiple of 16 bytes, but 'b' is currently at offset 8. Consider setting @align(16) on this member");
    CHECK(ty_layout_check(&tt, se, TY_AS_STORAGE, msg, sizeof msg, &u, &mi) == 0);
    /* struct F { a: A, b: f32 }: 'b' at 24 - 0 < roundUp(16, 24) = 32 */
    ty_member mf[2] = { { .name_str = "a", .type = sa }, { .name_str = "b", .type = TY_F32 } };
    ty_t sf = ty_struct_new(&tt, "F", 6, mf, 2);
    CHECK(ty_layout_check(&tt, sf, TY_AS_UNIFORM, msg, sizeof msg, &u, &mi) == 1);
    CHECK(u == sf && mi == 1);
    /* nested: error inside a member struct points at the inner struct */
    ty_member mg[1] = { { .name_str = "x", .type = se } };
    ty_t sg = ty_struct_new(&tt, "G", 7, mg, 1);
    CHECK(ty_layout_check(&tt, sg, TY_AS_UNIFORM, msg, sizeof msg, &u, &mi) == 1);
    CHECK(u == se && mi == 1);

    /* many types: the hash table grows and keeps identities */
    ty_t first = ty_array(&tt, TY_I32, 1);
    for (uint32_t n = 1; n <= 3000; n++) CHECK(ty_array(&tt, TY_I32, n) != 0);
    CHECK(first == ty_array(&tt, TY_I32, 1));
    CHECK(ty_array(&tt, TY_I32, 2999) == ty_array(&tt, TY_I32, 2999));
    CHECK_STR(ty_name(&tt, ty_array(&tt, TY_I32, 2999)), "array<i32, 2999>");

    /* allocation failure is a state, not a crash */
    for (int k = 0; k < 12; k++) {
        ty_table t2;
        fail_after = k;
        if (ty_table_init(&t2, failing_alloc, NULL) != 0) { CHECK(t2.oom); continue; }
        ty_t x = 0;
        for (uint32_t n = 1; n <= 200 && !t2.oom; n++) x = ty_array(&t2, TY_F32, n);
        CHECK(t2.oom || x != 0);
    }
    return test_end();
}
