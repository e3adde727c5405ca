// compare.wgsl - comparisons and binary logical ops, result bool (stored as u32 0/1).  Both inputs
// convert to the compute type C (the promoted dtype's); logical ops test x != 0.  OP numbers
// are the rows of WT_COMPARE_CODES in src/tensor/ops.c.

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> a: array<SA>;
@group(0) @binding(2) var<storage, read> b: array<SB>;

fn op(x: C, y: C) -> bool {
    let zero = C(0);
    switch OP {
        case 0u: { return x == y; }
        case 1u: { return x != y; }
        case 2u: { return x < y; }
        case 3u: { return x <= y; }
        case 4u: { return x > y; }
        case 5u: { return x >= y; }
        case 6u: { return x != zero && y != zero; }
        case 7u: { return x != zero || y != zero; }
        case 8u: { return (x != zero) != (y != zero); }
        default: { return false; }
    }
}

fn load_b(i: u32) -> C {
    if MB == 3u { return bitcast<C>(P.sv.y); }
    return C(b[src_index(i, 1u, MB)]);
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    let i = elem_id(g);
    if i >= P.n { return; }
    out[i] = select(0u, 1u, op(C(a[src_index(i, 0u, MA)]), load_b(i)));
}
