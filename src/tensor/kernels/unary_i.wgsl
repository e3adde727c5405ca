// unary_i.wgsl - unary ops on integer tensors (C is i32 or u32; the result keeps the dtype):
// `fn op(x: C) -> C`, entry point from map1.wgsl / map1v4.wgsl.  OP numbers are the integer
// codes of WT_UNARY_TABLE in src/tensor/ops.c.  u32 has no negation in WGSL, so 0 - x
// (wrapping) is written with a run-time zero.

fn op(x: C) -> C {
    let zero = C(P.pad0);   // 0 at run time: keeps u32 "0 - 1" out of constant evaluation
    let one = zero + C(1);
    switch OP {
        case 0u: { return zero - x; }
        case 1u: { return select(x, zero - x, x < zero); }
        case 2u: { return select(select(zero, one, x > zero), zero - one, x < zero); }
        case 3u: { return max(x, zero); }
        case 4u: { return min(max(x, bitcast<C>(P.sv.x)), bitcast<C>(P.sv.y)); }
        default: { return x; }
    }
}
