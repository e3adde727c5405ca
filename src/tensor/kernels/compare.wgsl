// compare.wgsl - comparisons and binary logical ops, result bool (stored as u32 0/1).  Both inputs
// convert to the compute type C (the promoted dtype's); logical ops test x != 0.
// `fn op(x: C, y: C) -> u32`, entry point from map2.wgsl / map2v4.wgsl; OP numbers are the codes
// of WT_BINARY_TABLE in src/tensor/ops.c.

fn op(x: C, y: C) -> u32 {
    return select(0u, 1u, test(x, y));
}

fn test(x: C, y: C) -> bool {
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
