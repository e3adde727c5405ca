/* test_consteval.c - constant evaluation against plain C references: f16/f32 rounding (every f16
 * and the midpoints between neighbours), integer operators over random operands against exact int64
 * arithmetic, the spec's errors (overflow, INT_MIN / -1, division by zero, shift counts, out of range
 * conversions, non-finite floats), conversions, bitcasts, vector and matrix operators, indexing. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "test.h"
#include "wgsl/arena.h"
#include "wgsl/value.h"

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }

static ty_table tt;
static cv_ctx cx;

/* runs op on scalars, returns status */
static int bin(cv_binop op, cv_value a, cv_value b, cv_value *r) { return cv_binary(&cx, op, &a, &b, r); }

static void test_rounding(void) {
    /* every finite f16: decode, round is identity, bits round-trip */
    int bad = 0;
    for (uint32_t h = 0; h < 0x10000; h++) {
        if (((h >> 10) & 31) == 31) continue;
        double v = cv_f16_from_bits((uint16_t)h);
        if (cv_round_f16(v) != v || cv_f16_bits(v) != h) bad++;
    }
    CHECK_EQ_INT(bad, 0);
    /* midpoints round to the neighbour with the even mantissa; slightly off midpoints go nearest */
    bad = 0;
    for (uint32_t h = 0; h < 0x7bff; h++) {
        double lo = cv_f16_from_bits((uint16_t)h), hi = cv_f16_from_bits((uint16_t)(h + 1));
        double mid = (lo + hi) / 2;
        double want = (h & 1) ? hi : lo;
        if (cv_round_f16(mid) != want) bad++;
        if (cv_round_f16(-mid) != -want) bad++;
        if (cv_round_f16(mid - (hi - lo) / 1024) != lo) bad++;
        if (cv_round_f16(mid + (hi - lo) / 1024) != hi) bad++;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(cv_round_f16(65519.0) == 65504.0);
    CHECK(isinf(cv_round_f16(65520.0)));
    CHECK(cv_round_f16(ldexp(1, -25)) == 0);              /* half of the smallest subnormal: to even (0) */
    CHECK(cv_round_f16(ldexp(1.5, -25)) == ldexp(1, -24));
    CHECK(cv_f16_bits(1.0) == 0x3c00 && cv_f16_bits(-2.0) == 0xc000 && cv_f16_bits(65504.0) == 0x7bff);
    CHECK(cv_f16_bits(ldexp(1, -24)) == 0x0001 && cv_f16_bits(ldexp(1, -14)) == 0x0400);
    /* f32 rounding matches the C conversion (round-to-nearest-even) */
    bad = 0;
    for (int i = 0; i < 200000; i++) {
        uint64_t b = next();
        double d;
        memcpy(&d, &b, 8);
        if (!isfinite(d) || fabs(d) > FLT_MAX || fabs(d) < 1e-50) continue;
        if (cv_round_f32(d) != (double)(float)d) bad++;
        double m = (double)(float)d;                            /* exact midpoint cases */
        double up = nextafterf((float)m, INFINITY);
        if (isfinite(up) && cv_round_f32((m + up) / 2) != (double)(float)((m + up) / 2)) bad++;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(isinf(cv_round_f32(ldexp(1, 128))));
    CHECK(cv_round_f32(ldexp(1, 128) - ldexp(1, 104)) == FLT_MAX);
    CHECK(cv_round_f32(ldexp(1, -150)) == 0);
    CHECK(cv_round_f32(ldexp(1.5, -150)) == ldexp(1, -149));
}

static void test_int_ops(void) {
    cv_value r;
    int bad = 0;
    static const cv_binop ops[] = { CV_ADD, CV_SUB, CV_MUL, CV_DIV, CV_MOD, CV_AND, CV_OR, CV_XOR };
    for (int i = 0; i < 100000; i++) {
        int64_t x = (int32_t)next(), y = (int32_t)next();
        if (i % 7 == 0) y = (int64_t)(next() % 5) - 2;
        if (i % 11 == 0) x = INT32_MIN;
        cv_binop op = ops[next() % 8];
        int64_t ref = 0;
        bool err = false;
        switch (op) {
        case CV_ADD: ref = x + y; break;
        case CV_SUB: ref = x - y; break;
        case CV_MUL: ref = x * y; break;
        case CV_DIV: if (y == 0) err = true; else ref = x / y; break;
        case CV_MOD: if (y == 0 || (x == INT32_MIN && y == -1)) err = true; else ref = x % y; break;
        case CV_AND: ref = x & y; break;
        case CV_OR: ref = x | y; break;
        default: ref = x ^ y; break;
        }
        /* +, -, * wrap; only / and % can fail (INT_MIN / -1 is an overflow error) */
        if (op == CV_ADD || op == CV_SUB || op == CV_MUL) ref = (int32_t)(uint32_t)(uint64_t)ref;
        else if (ref < INT32_MIN || ref > INT32_MAX) err = true;
        int st = bin(op, cv_int(TY_I32, x), cv_int(TY_I32, y), &r);
        if (err != (st != CV_OK) || (!err && (r.type != TY_I32 || r.u.i != ref))) bad++;
        /* u32 */
        uint64_t ux = (uint32_t)x, uy = (uint32_t)y;
        err = false;
        int64_t uref = 0;
        switch (op) {
        case CV_ADD: uref = (int64_t)(uint32_t)(ux + uy); break;
        case CV_SUB: uref = (int64_t)(uint32_t)(ux - uy); break;
        case CV_MUL: uref = (int64_t)(uint32_t)(ux * uy); break;
        case CV_DIV: if (uy == 0) err = true; else uref = (int64_t)(ux / uy); break;
        case CV_MOD: if (uy == 0) err = true; else uref = (int64_t)(ux % uy); break;
        case CV_AND: uref = (int64_t)(ux & uy); break;
        case CV_OR: uref = (int64_t)(ux | uy); break;
        default: uref = (int64_t)(ux ^ uy); break;
        }
        if (uref < 0 || uref > (int64_t)UINT32_MAX) err = true;
        st = bin(op, cv_int(TY_U32, (int64_t)ux), cv_int(TY_U32, (int64_t)uy), &r);
        if (err != (st != CV_OK) || (!err && r.u.i != uref)) bad++;
    }
    CHECK_EQ_INT(bad, 0);

    CHECK(bin(CV_ADD, cv_int(TY_I32, INT32_MAX), cv_int(TY_I32, 1), &r) == CV_OK && r.u.i == INT32_MIN);
    CHECK(bin(CV_DIV, cv_int(TY_I32, INT32_MIN), cv_int(TY_I32, -1), &r) == CV_ERROR);
    CHECK_STR(cx.msg, "'-2147483648 / -1' cannot be represented as 'i32'");
    CHECK(bin(CV_MOD, cv_int(TY_I32, INT32_MIN), cv_int(TY_I32, -1), &r) == CV_ERROR);
    CHECK(bin(CV_DIV, cv_int(TY_I32, 5), cv_int(TY_I32, 0), &r) == CV_ERROR);
    CHECK_STR(cx.msg, "integer division by zero is invalid");
    CHECK(bin(CV_MOD, cv_int(TY_U32, 5), cv_int(TY_U32, 0), &r) == CV_ERROR);
    CHECK(bin(CV_SUB, cv_int(TY_U32, 0), cv_int(TY_U32, 1), &r) == CV_OK && r.u.i == 0xffffffffll);
    CHECK(bin(CV_MUL, cv_int(TY_U32, 65536), cv_int(TY_U32, 65536), &r) == CV_OK && r.u.i == 0);
    CHECK(bin(CV_DIV, cv_int(TY_I32, -7), cv_int(TY_I32, 2), &r) == CV_OK && r.u.i == -3);
    CHECK(bin(CV_MOD, cv_int(TY_I32, -7), cv_int(TY_I32, 2), &r) == CV_OK && r.u.i == -1);
    /* abstract-int: 64-bit range */
    CHECK(bin(CV_ADD, cv_int(TY_AINT, INT64_MAX), cv_int(TY_AINT, 1), &r) == CV_ERROR);
    CHECK_STR(cx.msg, "'9223372036854775807 + 1' cannot be represented as 'abstract-int'");
    CHECK(bin(CV_MUL, cv_int(TY_AINT, 1ll << 32), cv_int(TY_AINT, 1ll << 31), &r) == CV_ERROR);
    CHECK(bin(CV_MUL, cv_int(TY_AINT, 1ll << 31), cv_int(TY_AINT, 1ll << 31), &r) == CV_OK && r.u.i == 1ll << 62);
    CHECK(bin(CV_MUL, cv_int(TY_AINT, 1ll << 32), cv_int(TY_AINT, 1ll << 32), &r) == CV_ERROR);
    CHECK(bin(CV_DIV, cv_int(TY_AINT, INT64_MIN), cv_int(TY_AINT, -1), &r) == CV_ERROR);
    CHECK(bin(CV_MOD, cv_int(TY_AINT, INT64_MIN), cv_int(TY_AINT, -1), &r) == CV_ERROR);
    CHECK(bin(CV_SUB, cv_int(TY_AINT, 0), cv_int(TY_AINT, 5), &r) == CV_OK && r.u.i == -5);
    /* comparisons */
    CHECK(bin(CV_LT, cv_int(TY_I32, -1), cv_int(TY_I32, 0), &r) == CV_OK && r.type == TY_BOOL && r.u.b);
    CHECK(bin(CV_GT, cv_int(TY_U32, 0xffffffff), cv_int(TY_U32, 0), &r) == CV_OK && r.u.b);
    /* negation: the most negative value wraps to itself; complement */
    cv_value a = cv_int(TY_I32, INT32_MIN);
    CHECK(cv_unary(&cx, CV_NEG, &a, &r) == CV_OK && r.u.i == INT32_MIN);
    a = cv_int(TY_U32, 5);
    CHECK(cv_unary(&cx, CV_COMPL, &a, &r) == CV_OK && r.u.i == 0xfffffffa);
    a = cv_int(TY_I32, 5);
    CHECK(cv_unary(&cx, CV_COMPL, &a, &r) == CV_OK && r.u.i == -6);
    CHECK(cv_unary(&cx, CV_NOT, &a, &r) == CV_ERROR);
    a = cv_bool(true);
    CHECK(cv_unary(&cx, CV_NOT, &a, &r) == CV_OK && !r.u.b);
}

static void test_partial(void) {
    cv_value z = cv_int(TY_I32, 0), one = cv_int(TY_I32, 1), c40 = cv_int(TY_U32, 40), r;
    CHECK(cv_check_partial_binary(&cx, CV_DIV, TY_I32, NULL, &z) == CV_ERROR);
    CHECK_STR(cx.msg, "integer division by zero is invalid");
    CHECK(cv_check_partial_binary(&cx, CV_MOD, TY_I32, NULL, &one) == CV_OK);
    CHECK(cv_check_partial_binary(&cx, CV_DIV, TY_F32, NULL, &z) == CV_OK);
    cv_value e[2] = { cv_int(TY_U32, 1), cv_int(TY_U32, 0) };
    CHECK(cv_composite(&cx, ty_vec(&tt, 2, TY_U32), e, 2, &r) == CV_OK);
    CHECK(cv_check_partial_binary(&cx, CV_MOD, ty_vec(&tt, 2, TY_U32), NULL, &r) == CV_ERROR);
    CHECK(cv_check_partial_binary(&cx, CV_SHR, TY_U32, NULL, &c40) == CV_ERROR);
    CHECK_STR(cx.msg, "shift right value must be less than the bit width of the lhs, which is 32");
    CHECK(cv_check_partial_binary(&cx, CV_SHL, TY_I32, NULL, &one) == CV_OK);
    CHECK(cv_check_partial_binary(&cx, CV_DIV, TY_I32, &z, NULL) == CV_OK);
}

static void test_shifts(void) {
    cv_value r;
    CHECK(bin(CV_SHL, cv_int(TY_I32, 1), cv_int(TY_U32, 30), &r) == CV_OK && r.u.i == 1 << 30);
    CHECK(bin(CV_SHL, cv_int(TY_I32, 1), cv_int(TY_U32, 31), &r) == CV_ERROR);   /* sign change */
    CHECK(bin(CV_SHL, cv_int(TY_I32, -1), cv_int(TY_U32, 31), &r) == CV_OK && r.u.i == INT32_MIN);
    CHECK(bin(CV_SHL, cv_int(TY_I32, 1), cv_int(TY_U32, 32), &r) == CV_ERROR);
    CHECK_STR(cx.msg, "shift left value must be less than the bit width of the lhs, which is 32");
    CHECK(bin(CV_SHR, cv_int(TY_U32, 8), cv_int(TY_U32, 32), &r) == CV_ERROR);
    CHECK_STR(cx.msg, "shift right value must be less than the bit width of the lhs, which is 32");
    CHECK(bin(CV_SHL, cv_int(TY_U32, 1), cv_int(TY_U32, 31), &r) == CV_OK && r.u.i == 0x80000000ll);
    CHECK(bin(CV_SHL, cv_int(TY_U32, 2), cv_int(TY_U32, 31), &r) == CV_ERROR);
    CHECK_STR(cx.msg, "'2 << 31' cannot be represented as 'u32'");
    CHECK(bin(CV_SHL, cv_int(TY_I32, 0x40000000), cv_int(TY_U32, 1), &r) == CV_ERROR);
    CHECK_STR(cx.msg, "shift left operation results in sign change");
    CHECK(bin(CV_SHR, cv_int(TY_I32, -8), cv_int(TY_U32, 1), &r) == CV_OK && r.u.i == -4);
    CHECK(bin(CV_SHR, cv_int(TY_U32, 0x80000000ll), cv_int(TY_U32, 31), &r) == CV_OK && r.u.i == 1);
    CHECK(bin(CV_SHL, cv_int(TY_AINT, 1), cv_int(TY_AINT, 62), &r) == CV_OK && r.u.i == 1ll << 62);
    CHECK(bin(CV_SHL, cv_int(TY_AINT, 1), cv_int(TY_AINT, 63), &r) == CV_ERROR);
    CHECK(bin(CV_SHL, cv_int(TY_AINT, 1), cv_int(TY_AINT, 70), &r) == CV_ERROR);
    CHECK_STR(cx.msg, "'1 << 70' cannot be represented as 'abstract-int'");
    CHECK(bin(CV_SHL, cv_int(TY_AINT, 3), cv_int(TY_AINT, 62), &r) == CV_ERROR);
    CHECK_STR(cx.msg, "shift left operation results in sign change");
    CHECK(bin(CV_SHR, cv_int(TY_AINT, 1), cv_int(TY_AINT, 64), &r) == CV_OK && r.u.i == 0);
    CHECK(bin(CV_SHR, cv_int(TY_AINT, -5), cv_int(TY_AINT, 99), &r) == CV_OK && r.u.i == -1);
    CHECK(bin(CV_SHR, cv_int(TY_AINT, 65535), cv_int(TY_AINT, -255), &r) == CV_ERROR);
    CHECK_STR(cx.msg, "value -255 cannot be represented as 'u32'");
    CHECK(bin(CV_SHL, cv_int(TY_AINT, -1), cv_int(TY_AINT, 63), &r) == CV_OK && r.u.i == INT64_MIN);
    /* random i32 shifts against the "shifted-out bits equal the sign bit" rule */
    int bad = 0;
    for (int i = 0; i < 50000; i++) {
        int32_t x = (int32_t)next() >> (next() % 32);
        uint32_t c = (uint32_t)(next() % 32);
        int64_t wide = (int64_t)x * ((int64_t)1 << c);
        bool err = wide < INT32_MIN || wide > INT32_MAX;
        int st = bin(CV_SHL, cv_int(TY_I32, x), cv_int(TY_U32, c), &r);
        if (err != (st != CV_OK) || (!err && r.u.i != wide)) bad++;
        st = bin(CV_SHR, cv_int(TY_I32, x), cv_int(TY_U32, c), &r);
        if (st != CV_OK || r.u.i != (x < 0 ? ~(~(int64_t)x >> c) : (int64_t)x >> c)) bad++;
    }
    CHECK_EQ_INT(bad, 0);
}

static void test_float_ops(void) {
    cv_value r;
    int bad = 0;
    for (int i = 0; i < 100000; i++) {
        float x = (float)ldexp((double)(int32_t)next(), (int)(next() % 200) - 130);
        float y = (float)ldexp((double)(int32_t)next(), (int)(next() % 200) - 130);
        if (!isfinite(x) || !isfinite(y)) continue;
        static const cv_binop ops[] = { CV_ADD, CV_SUB, CV_MUL, CV_DIV };
        cv_binop op = ops[next() % 4];
        /* reference: the same operation in float (C evaluates float ops in float on x86-64 SSE) */
        volatile float fx = x, fy = y;
        float ref = op == CV_ADD ? fx + fy : op == CV_SUB ? fx - fy : op == CV_MUL ? fx * fy : fx / fy;
        bool err = !isfinite(ref);
        int st = bin(op, cv_float(TY_F32, x), cv_float(TY_F32, y), &r);
        if (err != (st != CV_OK) || (!err && r.u.f != (double)ref)) bad++;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(bin(CV_MUL, cv_float(TY_F32, FLT_MAX), cv_float(TY_F32, 2), &r) == CV_ERROR);
    CHECK(strstr(cx.msg, "cannot be represented as 'f32'") != NULL);
    CHECK(bin(CV_DIV, cv_float(TY_F32, 1), cv_float(TY_F32, 0), &r) == CV_ERROR);
    CHECK(bin(CV_MOD, cv_float(TY_F32, 1), cv_float(TY_F32, 0), &r) == CV_ERROR);
    CHECK(bin(CV_MOD, cv_float(TY_F32, -7.5), cv_float(TY_F32, 2), &r) == CV_OK && r.u.f == -1.5);
    /* float % is e1 - e2 * trunc(e1 / e2) in the type (Tint), not fmod: 1e10f % 3 is 0, fmod says 1 */
    CHECK(bin(CV_MOD, cv_float(TY_F32, 1e10), cv_float(TY_F32, 3), &r) == CV_OK && r.u.f == 0);
    CHECK(bin(CV_MOD, cv_float(TY_AFLOAT, 5.1), cv_float(TY_AFLOAT, 1.7), &r) == CV_OK && r.u.f == 5.1 - 1.7 * trunc(5.1 / 1.7));
    CHECK(bin(CV_MUL, cv_float(TY_AFLOAT, 1e308), cv_float(TY_AFLOAT, 10), &r) == CV_ERROR);
    CHECK_STR(cx.msg, "'1e+308 * 10.0' cannot be represented as 'abstract-float'");
    /* Tint's number formatting: fixed up to 63 characters, else %.17g / %.9g */
    CHECK(bin(CV_MUL, cv_float(TY_F32, 3e38f), cv_float(TY_F32, 2), &r) == CV_ERROR);
    CHECK_STR(cx.msg, "'300000000549775575777803994281145270272.0 * 2.0' cannot be represented as 'f32'");
    CHECK(bin(CV_DIV, cv_float(TY_F32, 3e38f), cv_float(TY_F32, 0.1f), &r) == CV_ERROR);
    CHECK_STR(cx.msg, "'300000000549775575777803994281145270272.0 / 0.10000000149011611938' cannot be represented as 'f32'");
    CHECK(bin(CV_DIV, cv_float(TY_F32, 0.5), cv_float(TY_F32, (double)1e-40f), &r) == CV_ERROR);
    CHECK_STR(cx.msg, "'0.5 / 9.9999461e-41' cannot be represented as 'f32'");
    CHECK(bin(CV_DIV, cv_float(TY_F32, -1), cv_float(TY_F32, -0.0), &r) == CV_ERROR);
    CHECK_STR(cx.msg, "'-1.0 / -0.0' cannot be represented as 'f32'");
    /* negating a zero gives the operand back (Tint interns +0 and -0 as one constant) */
    cv_value z0 = cv_float(TY_F32, 0.0);
    CHECK(cv_unary(&cx, CV_NEG, &z0, &r) == CV_OK && !signbit(r.u.f));
    CHECK(bin(CV_MUL, cv_float(TY_AFLOAT, -1e41), cv_float(TY_AFLOAT, 1e300), &r) == CV_ERROR);
    CHECK_STR(cx.msg, "'-1e+41 * 1.0000000000000001e+300' cannot be represented as 'abstract-float'");
    CHECK(bin(CV_MUL, cv_float(TY_AFLOAT, -1e40), cv_float(TY_AFLOAT, 1e300), &r) == CV_ERROR);
    CHECK_STR(cx.msg, "'-10000000000000000303786028427003666890752.0 * 1.0000000000000001e+300' cannot be represented as 'abstract-float'");
    CHECK(bin(CV_DIV, cv_float(TY_AFLOAT, 0.1), cv_float(TY_AFLOAT, 1e-320), &r) == CV_ERROR);
    CHECK_STR(cx.msg, "'0.10000000000000000555 / 9.9998886718268301e-321' cannot be represented as 'abstract-float'");
    CHECK(bin(CV_MUL, cv_float(TY_AFLOAT, 1e300), cv_float(TY_AFLOAT, 10), &r) == CV_OK && r.u.f == 1e301);
    /* f16 arithmetic rounds to f16 and overflows past 65504 */
    CHECK(bin(CV_ADD, cv_float(TY_F16, 2048), cv_float(TY_F16, 1), &r) == CV_OK && r.u.f == 2048);
    CHECK(bin(CV_ADD, cv_float(TY_F16, 2048), cv_float(TY_F16, 3), &r) == CV_OK && r.u.f == 2050);  /* f16 truncates, as Tint */
    CHECK(bin(CV_ADD, cv_float(TY_F16, 1), cv_float(TY_F16, 0.00146484375), &r) == CV_OK && r.u.f == 1.0009765625);
    CHECK(bin(CV_ADD, cv_float(TY_F16, -1), cv_float(TY_F16, -0.00146484375), &r) == CV_OK && r.u.f == -1.0009765625);
    CHECK(cv_quantize_f16(1e-7) == ldexp(1, -24) && cv_quantize_f16(2.9802322387695312e-8) == 0);
    CHECK(cv_quantize_f16(65504.0) == 65504 && isinf(cv_quantize_f16(65504.5)) && cv_quantize_f16(65503.9) == 65472);
    CHECK(bin(CV_MUL, cv_float(TY_F16, 300), cv_float(TY_F16, 300), &r) == CV_ERROR);
    CHECK(bin(CV_ADD, cv_float(TY_F16, 65504), cv_float(TY_F16, 1), &r) == CV_ERROR);  /* 65505 > 65504 */
    CHECK(bin(CV_ADD, cv_float(TY_F16, 65504), cv_float(TY_F16, -1), &r) == CV_OK && r.u.f == 65472);
    CHECK(bin(CV_ADD, cv_float(TY_F32, FLT_MAX), cv_float(TY_F32, 1e31), &r) == CV_OK && r.u.f == FLT_MAX);
    CHECK(bin(CV_EQ, cv_float(TY_F32, 0.5), cv_float(TY_F32, 0.5), &r) == CV_OK && r.u.b);
    /* mixing types is the caller's job: an error here */
    CHECK(bin(CV_ADD, cv_float(TY_F32, 1), cv_int(TY_I32, 1), &r) == CV_ERROR);
    /* bool ops */
    CHECK(bin(CV_AND, cv_bool(true), cv_bool(false), &r) == CV_OK && !r.u.b);
    CHECK(bin(CV_LOR, cv_bool(true), cv_bool(false), &r) == CV_OK && r.u.b);
    CHECK(bin(CV_ADD, cv_bool(true), cv_bool(false), &r) == CV_ERROR);
}

static void test_conversions(void) {
    cv_value r, v;
    v = cv_int(TY_AINT, 2147483648ll);
    CHECK(cv_convert_implicit(&cx, &v, TY_I32, &r) == CV_ERROR);
    CHECK_STR(cx.msg, "value 2147483648 cannot be represented as 'i32'");
    CHECK(cv_convert_implicit(&cx, &v, TY_U32, &r) == CV_OK && r.u.i == 2147483648ll && r.type == TY_U32);
    v = cv_int(TY_AINT, -1);
    CHECK(cv_convert_implicit(&cx, &v, TY_U32, &r) == CV_ERROR);
    CHECK(cv_convert_explicit(&cx, &v, TY_U32, &r) == CV_ERROR);
    CHECK(cv_convert_implicit(&cx, &v, TY_AFLOAT, &r) == CV_OK && r.u.f == -1.0);
    v = cv_int(TY_AINT, 16777217);
    CHECK(cv_convert_implicit(&cx, &v, TY_F32, &r) == CV_OK && r.u.f == 16777216.0);
    v = cv_int(TY_AINT, 70000);
    CHECK(cv_convert_implicit(&cx, &v, TY_F16, &r) == CV_ERROR);
    CHECK_STR(cx.msg, "value 70000 cannot be represented as 'f16'");
    v = cv_float(TY_AFLOAT, 1e39);
    CHECK(cv_convert_implicit(&cx, &v, TY_F32, &r) == CV_ERROR);
    CHECK_STR(cx.msg, "value 999999999999999939709166371603178586112.0 cannot be represented as 'f32'");
    v = cv_float(TY_AFLOAT, 0.1);
    CHECK(cv_convert_implicit(&cx, &v, TY_F32, &r) == CV_OK && r.u.f == (double)0.1f);
    CHECK(cv_convert_implicit(&cx, &v, TY_I32, &r) == CV_ERROR);     /* no automatic af -> i32 */
    v = cv_float(TY_AFLOAT, 65504.0);
    CHECK(cv_convert_implicit(&cx, &v, TY_F16, &r) == CV_OK && r.u.f == 65504.0);
    v = cv_float(TY_AFLOAT, 65519.0);                 /* beyond the largest f16: an error, as in Tint */
    CHECK(cv_convert_implicit(&cx, &v, TY_F16, &r) == CV_ERROR);
    v = cv_float(TY_AFLOAT, 3.40282347e38);           /* just above FLT_MAX */
    CHECK(cv_convert_implicit(&cx, &v, TY_F32, &r) == CV_ERROR);
    v = cv_float(TY_AFLOAT, 65520.0);
    CHECK(cv_convert_implicit(&cx, &v, TY_F16, &r) == CV_ERROR);
    v = cv_int(TY_I32, 1);
    CHECK(cv_convert_implicit(&cx, &v, TY_U32, &r) == CV_ERROR);     /* concrete: no implicit */
    /* explicit */
    v = cv_float(TY_F32, -1.5);
    CHECK(cv_convert_explicit(&cx, &v, TY_I32, &r) == CV_OK && r.u.i == -1);
    CHECK(cv_convert_explicit(&cx, &v, TY_U32, &r) == CV_OK && r.u.i == 0);
    v = cv_float(TY_F32, 3e9);
    CHECK(cv_convert_explicit(&cx, &v, TY_I32, &r) == CV_OK && r.u.i == 2147483520);
    CHECK(cv_convert_explicit(&cx, &v, TY_U32, &r) == CV_OK && r.u.i == 3000000000ll);
    v = cv_float(TY_F32, 1e20);
    CHECK(cv_convert_explicit(&cx, &v, TY_U32, &r) == CV_OK && r.u.i == 4294967040ll);
    v = cv_int(TY_I32, -1);
    CHECK(cv_convert_explicit(&cx, &v, TY_U32, &r) == CV_OK && r.u.i == 4294967295ll);
    v = cv_int(TY_U32, 0x80000000ll);
    CHECK(cv_convert_explicit(&cx, &v, TY_I32, &r) == CV_OK && r.u.i == INT32_MIN);
    CHECK(cv_convert_explicit(&cx, &v, TY_BOOL, &r) == CV_OK && r.u.b);
    v = cv_float(TY_F32, 0.0);
    CHECK(cv_convert_explicit(&cx, &v, TY_BOOL, &r) == CV_OK && !r.u.b);
    v = cv_bool(true);
    CHECK(cv_convert_explicit(&cx, &v, TY_F16, &r) == CV_OK && r.u.f == 1.0 && r.type == TY_F16);
    v = cv_float(TY_F32, 1e5);
    CHECK(cv_convert_explicit(&cx, &v, TY_F16, &r) == CV_ERROR);
    v = cv_float(TY_F32, 1.0009765625);      /* 1 + 2^-10: exact in f16 */
    CHECK(cv_convert_explicit(&cx, &v, TY_F16, &r) == CV_OK && r.u.f == 1.0009765625);
    v = cv_int(TY_I32, 16777217);
    CHECK(cv_convert_explicit(&cx, &v, TY_F32, &r) == CV_OK && r.u.f == 16777216.0);
    /* vectors convert component-wise */
    cv_value e[3] = { cv_int(TY_AINT, 1), cv_int(TY_AINT, -2), cv_int(TY_AINT, 3) };
    CHECK(cv_composite(&cx, ty_vec(&tt, 3, TY_AINT), e, 3, &v) == CV_OK);
    CHECK(cv_convert_implicit(&cx, &v, ty_vec(&tt, 3, TY_F32), &r) == CV_OK);
    CHECK(r.type == ty_vec(&tt, 3, TY_F32) && r.u.elems[1].u.f == -2.0 && r.u.elems[1].type == TY_F32);
    CHECK(cv_convert_implicit(&cx, &v, ty_vec(&tt, 3, TY_U32), &r) == CV_ERROR);
    CHECK_STR(cx.msg, "value -2 cannot be represented as 'u32'");
    cv_value e3b[3] = { cv_int(TY_AINT, -255), cv_int(TY_AINT, -3), cv_int(TY_AINT, 7) };
    CHECK(cv_composite(&cx, ty_vec(&tt, 3, TY_AINT), e3b, 3, &v) == CV_OK);
    CHECK(cv_convert_implicit(&cx, &v, ty_vec(&tt, 3, TY_U32), &r) == CV_ERROR);
    CHECK_STR(cx.msg, "value -3 cannot be represented as 'u32'");   /* the last failing component */
    /* bitcast */
    v = cv_int(TY_U32, 0x3f800000);
    CHECK(cv_bitcast(&cx, &v, TY_F32, &r) == CV_OK && r.u.f == 1.0);
    v = cv_float(TY_F32, -2.0);
    CHECK(cv_bitcast(&cx, &v, TY_U32, &r) == CV_OK && r.u.i == 0xc0000000ll);
    CHECK(cv_bitcast(&cx, &v, TY_I32, &r) == CV_OK && r.u.i == (int32_t)0xc0000000u);
    v = cv_int(TY_U32, 0x7fc00000);
    CHECK(cv_bitcast(&cx, &v, TY_F32, &r) == CV_ERROR);
    v = cv_int(TY_U32, 0xc0003c00);
    CHECK(cv_bitcast(&cx, &v, ty_vec(&tt, 2, TY_F16), &r) == CV_OK && r.u.elems[0].u.f == 1.0 &&
          r.u.elems[1].u.f == -2.0);
    cv_value back;
    CHECK(cv_bitcast(&cx, &r, TY_U32, &back) == CV_OK && back.u.i == 0xc0003c00ll);
    v = cv_int(TY_AINT, -1);
    CHECK(cv_bitcast(&cx, &v, TY_U32, &r) == CV_OK && r.u.i == 0xffffffffll);
    CHECK(cv_bitcast(&cx, &v, ty_vec(&tt, 2, TY_U32), &r) == CV_ERROR);
    CHECK_STR(cx.msg, "no matching call to 'bitcast<vec2<u32>>(abstract-int)'");
}

static void test_composites(void) {
    cv_value r, a, b, m, m2;
    ty_t v3 = ty_vec(&tt, 3, TY_F32);
    cv_value ea[3] = { cv_float(TY_F32, 1), cv_float(TY_F32, 2), cv_float(TY_F32, 3) };
    cv_value eb[3] = { cv_float(TY_F32, 4), cv_float(TY_F32, 5), cv_float(TY_F32, 6) };
    CHECK(cv_composite(&cx, v3, ea, 3, &a) == CV_OK);
    CHECK(cv_composite(&cx, v3, eb, 3, &b) == CV_OK);
    CHECK(cv_composite(&cx, v3, eb, 2, &r) == CV_ERROR);
    CHECK(cv_binary(&cx, CV_ADD, &a, &b, &r) == CV_OK && r.type == v3 && r.u.elems[2].u.f == 9);
    cv_value s = cv_float(TY_F32, 10);
    CHECK(cv_binary(&cx, CV_SUB, &s, &a, &r) == CV_OK && r.type == v3 && r.u.elems[0].u.f == 9);
    CHECK(cv_binary(&cx, CV_MUL, &a, &s, &r) == CV_OK && r.u.elems[1].u.f == 20);
    CHECK(cv_binary(&cx, CV_LT, &a, &b, &r) == CV_OK && r.type == ty_vec(&tt, 3, TY_BOOL) && cv_all_true(&r));
    CHECK(cv_binary(&cx, CV_EQ, &a, &a, &r) == CV_OK && cv_all_true(&r));
    CHECK(cv_binary(&cx, CV_LT, &a, &s, &r) == CV_ERROR);      /* comparisons do not splat */
    CHECK(cv_unary(&cx, CV_NEG, &a, &r) == CV_OK && r.u.elems[2].u.f == -3);
    CHECK(cv_index(&cx, &a, 2, &r) == CV_OK && r.u.f == 3);
    CHECK(cv_index(&cx, &a, 3, &r) == CV_ERROR);
    CHECK_STR(cx.msg, "index 3 out of bounds [0..2]");
    CHECK(cv_index(&cx, &a, -1, &r) == CV_ERROR);
    uint8_t sw[4] = { 2, 2, 0, 1 };
    CHECK(cv_swizzle(&cx, &a, sw, 4, &r) == CV_OK && r.type == ty_vec(&tt, 4, TY_F32) &&
          r.u.elems[0].u.f == 3 && r.u.elems[3].u.f == 2);
    sw[0] = 3;
    CHECK(cv_swizzle(&cx, &a, sw, 2, &r) == CV_ERROR);
    /* vector overflow is reported for the component */
    cv_value big = cv_float(TY_F32, FLT_MAX);
    CHECK(cv_binary(&cx, CV_MUL, &a, &big, &r) == CV_ERROR);

    /* mat2x3<f32> (2 columns of vec3) times vec2 -> vec3 ; reference computed by hand */
    cv_value cols[2] = { a, b };
    ty_t m23 = ty_mat(&tt, 2, 3, TY_F32);
    CHECK(cv_composite(&cx, m23, cols, 2, &m) == CV_OK);
    cv_value e2[2] = { cv_float(TY_F32, 2), cv_float(TY_F32, -1) }, v2;
    CHECK(cv_composite(&cx, ty_vec(&tt, 2, TY_F32), e2, 2, &v2) == CV_OK);
    CHECK(cv_binary(&cx, CV_MUL, &m, &v2, &r) == CV_OK && r.type == v3);
    CHECK(r.u.elems[0].u.f == 2 * 1 - 4 && r.u.elems[1].u.f == 2 * 2 - 5 && r.u.elems[2].u.f == 2 * 3 - 6);
    /* vec3 * mat2x3 -> vec2: dot with each column */
    CHECK(cv_binary(&cx, CV_MUL, &a, &m, &r) == CV_OK && r.type == ty_vec(&tt, 2, TY_F32));
    CHECK(r.u.elems[0].u.f == 14 && r.u.elems[1].u.f == 32);
    /* mat2x3 * mat3x2 -> mat3x3 against a plain C reference */
    cv_value c3[3];
    double B[3][2] = { { 1, 2 }, { -3, 0.5 }, { 4, -1 } };
    for (int c = 0; c < 3; c++) {
        cv_value ce[2] = { cv_float(TY_F32, B[c][0]), cv_float(TY_F32, B[c][1]) };
        CHECK(cv_composite(&cx, ty_vec(&tt, 2, TY_F32), ce, 2, &c3[c]) == CV_OK);
    }
    CHECK(cv_composite(&cx, ty_mat(&tt, 3, 2, TY_F32), c3, 3, &m2) == CV_OK);
    CHECK(cv_binary(&cx, CV_MUL, &m, &m2, &r) == CV_OK && r.type == ty_mat(&tt, 3, 3, TY_F32));
    double A[2][3] = { { 1, 2, 3 }, { 4, 5, 6 } };
    int bad = 0;
    for (int c = 0; c < 3; c++)
        for (int row = 0; row < 3; row++) {
            double ref = A[0][row] * B[c][0] + A[1][row] * B[c][1];
            if (r.u.elems[c].u.elems[row].u.f != ref) bad++;
        }
    CHECK_EQ_INT(bad, 0);
    CHECK(cv_binary(&cx, CV_MUL, &m, &m, &r) == CV_ERROR);     /* 2x3 * 2x3: shapes do not fit */
    CHECK(cv_binary(&cx, CV_ADD, &m, &m, &r) == CV_OK && r.u.elems[1].u.elems[2].u.f == 12);
    CHECK(cv_binary(&cx, CV_MUL, &s, &m, &r) == CV_OK && r.u.elems[1].u.elems[0].u.f == 40);
    CHECK(cv_binary(&cx, CV_ADD, &s, &m, &r) == CV_ERROR);
    CHECK(cv_index(&cx, &m, 1, &r) == CV_OK && r.type == v3);

    /* zero values */
    ty_member mem[2] = { { .name_str = "a", .type = v3 }, { .name_str = "b", .type = ty_array(&tt, TY_I32, 4) } };
    ty_t st = ty_struct_new(&tt, "S", 1, mem, 2);
    CHECK(cv_zero(&cx, st, &r) == CV_OK && r.n == 2 && r.u.elems[1].n == 4 && r.u.elems[1].u.elems[3].u.i == 0);
    CHECK(cv_member(&cx, &r, 0, &a) == CV_OK && a.type == v3);
    CHECK(cv_member(&cx, &r, 2, &a) == CV_ERROR);
    CHECK(cv_zero(&cx, ty_array_runtime(&tt, TY_I32), &r) == CV_ERROR);
    /* zero arrays longer than CV_ZERO_BUILT_MAX stay unbuilt: 65535 x 65535 costs nothing, and
     * indexing yields the element's zero; short ones are built */
    ty_t bigt = ty_array(&tt, ty_array(&tt, TY_F32, 65535), 65535);
    cv_value r1, r2, tmp;
    CHECK(cv_zero(&cx, bigt, &r) == CV_OK && r.n == 65535 && r.u.elems == NULL);
    CHECK(cv_index(&cx, &r, 65534, &r1) == CV_OK && r1.n == 65535 && r1.u.elems == NULL);
    CHECK(cv_index(&cx, &r1, 65534, &r2) == CV_OK && r2.type == TY_F32 && r2.u.f == 0);
    CHECK(cv_index(&cx, &r1, 65535, &r2) == CV_ERROR);
    CHECK(cv_elem(&cx, &r1, 7, &tmp) == &tmp && tmp.type == TY_F32);
    ty_t t65 = ty_array(&tt, TY_I32, CV_ZERO_BUILT_MAX + 1), t64 = ty_array(&tt, TY_I32, CV_ZERO_BUILT_MAX);
    cv_value z65, z64, e65[CV_ZERO_BUILT_MAX + 1];
    for (unsigned i = 0; i <= CV_ZERO_BUILT_MAX; i++) e65[i] = cv_int(TY_I32, 0);
    CHECK(cv_zero(&cx, t64, &z64) == CV_OK && z64.u.elems != NULL);
    CHECK(cv_zero(&cx, t65, &z65) == CV_OK && z65.u.elems == NULL);
    CHECK(cv_composite(&cx, t65, e65, CV_ZERO_BUILT_MAX + 1, &r1) == CV_OK);
    CHECK(cv_equal(&r1, &z65) && cv_equal(&z65, &r1) && cv_equal(&z65, &z65));
    e65[CV_ZERO_BUILT_MAX] = cv_int(TY_I32, 1);
    CHECK(cv_composite(&cx, t65, e65, CV_ZERO_BUILT_MAX + 1, &r1) == CV_OK && !cv_equal(&r1, &z65));
    CHECK(cv_equal(&cols[0], &cols[0]) && !cv_equal(&cols[0], &cols[1]));

    /* integer vector shift by a vector */
    cv_value ia[2] = { cv_int(TY_U32, 1), cv_int(TY_U32, 3) }, ic[2] = { cv_int(TY_U32, 4), cv_int(TY_U32, 1) };
    cv_value iv, cv_;
    CHECK(cv_composite(&cx, ty_vec(&tt, 2, TY_U32), ia, 2, &iv) == CV_OK);
    CHECK(cv_composite(&cx, ty_vec(&tt, 2, TY_U32), ic, 2, &cv_) == CV_OK);
    CHECK(cv_binary(&cx, CV_SHL, &iv, &cv_, &r) == CV_OK && r.u.elems[0].u.i == 16 && r.u.elems[1].u.i == 6);

    char buf[128];
    CHECK_STR(cv_format(&tt, &iv, buf, sizeof buf), "vec(1, 3)");
    cv_value f = cv_float(TY_F32, 0.1f);
    CHECK_STR(cv_format(&tt, &f, buf, sizeof buf), "0.10000000149011611938");
    f = cv_float(TY_AFLOAT, 2);
    CHECK_STR(cv_format(&tt, &f, buf, sizeof buf), "2.0");
}

int main(void) {
    arena ar;
    arena_init(&ar, NULL);
    CHECK(ty_table_init_arena(&tt, &ar) == 0);
    cx.tt = &tt;
    test_rounding();
    test_int_ops();
    test_shifts();
    test_partial();
    test_float_ops();
    test_conversions();
    test_composites();
    arena_free(&ar);
    return test_end();
}
