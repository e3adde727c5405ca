// binary_f.wgsl - binary float ops computed in f32: `fn op(x: f32, y: f32) -> f32`, entry point
// from map2.wgsl / map2v4.wgsl.  OP numbers are the codes of WT_BINARY_TABLE in src/tensor/ops.c.

fn fpow(x: f32, y: f32) -> f32 {
    if y == 0.0 { return 1.0; }
    var r = pow(abs(x), y);
    if x < 0.0 {
        if floor(y) != y { return nan_f32(); }
        if floor(y * 0.5) != y * 0.5 { r = -r; }
    }
    return r;
}

fn op(x: f32, y: f32) -> f32 {
    switch OP {
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
