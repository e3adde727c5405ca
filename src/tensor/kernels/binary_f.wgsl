// binary_f.wgsl - binary float ops computed in f32: `fn binary_code(x: f32, y: f32, code: u32) -> f32`,
// code = WT_BINARY_TABLE's in src/tensor/ops.c.  kernel.c puts it together with unary_f.wgsl,
// chain.wgsl, `fn op(x, y) = chain(binary_code(x, y, OP))` and the entry point of map2.wgsl /
// map2v4.wgsl.

fn fpow(x: f32, y: f32) -> f32 {
    if y == 0.0 { return 1.0; }
    var r = pow(abs(x), y);
    if x < 0.0 {
        if floor(y) != y { return nan_f32(); }
        if floor(y * 0.5) != y * 0.5 { r = -r; }
    }
    return r;
}

fn binary_code(x: f32, y: f32, code: u32) -> f32 {
    switch code {
        case 0u: { return x + y; }
        case 1u: { return x - y; }
        case 2u: { return x * y; }
        case 3u: { return x / y; }
        case 4u: { return fpow(x, y); }
        case 5u: { return min(x, y); }
        case 6u: { return max(x, y); }
        case 7u: { return x - floor(x / y) * y; }
        default: { return x; }
    }
}
