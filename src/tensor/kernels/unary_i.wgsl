// unary_i.wgsl - unary ops on integer tensors (C is i32 or u32; the result keeps the dtype).
// OP numbers are the rows of WT_UNARY_I_CODES in src/tensor/ops.c.  u32 has no negation in
// WGSL, so 0 - x (wrapping) is written with a runtime zero.

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> a: array<SA>;

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

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    let i = elem_id(g);
    if i >= P.n { return; }
    out[i] = SO(op(C(a[src_index(i, 0u, MA)])));
}
