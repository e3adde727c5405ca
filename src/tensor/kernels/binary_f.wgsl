// binary_f.wgsl - binary float ops: out = f(a, b) computed in f32.  Input b may be a scalar
// from the parameter block (MB == 3).  OP numbers are the rows of WT_BINARY_F_CODES in ops.c.

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> a: array<SA>;
@group(0) @binding(2) var<storage, read> b: array<SB>;

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

fn load_b(i: u32) -> f32 {
    if MB == 3u { return bitcast<f32>(P.sv.y); }
    return f32(b[src_index(i, 1u, MB)]);
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    let i = elem_id(g);
    if i >= P.n { return; }
    out[i] = SO(op(f32(a[src_index(i, 0u, MA)]), load_b(i)));
}
