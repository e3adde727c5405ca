// pad.wgsl - pad (src/tensor/movement.c): out (contiguous, shape P.shape) element c reads input
// coordinate c - before per dim; before[d] sits in input 1's stride slots, the input's sizes in
// input 2's, the input's strides in input 0's.  Coordinates outside the input give the value
// P.sv.x (bits of C) for OP 0 (constant), mirror for OP 1 (reflect: -x, 2(n-1)-x) and clamp for
// OP 2 (replicate).

fn slot(d: u32, k: u32) -> i32 {
    return P.st[2u * k + (d >> 2u)][d & 3u];
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    let i = elem_id(g);
    if i >= P.n { return; }
    var rem = i;
    var src = i32(P.off[0]);
    var inside = true;
    for (var e = P.ndim; e > 0u; e = e - 1u) {
        let d = e - 1u;
        let n = slot(d, 2u);
        var x = peel(&rem, d) - slot(d, 1u);
        if x < 0 || x >= n {
            if OP == 0u {
                inside = false;
            } else if OP == 1u {
                if x < 0 { x = -x; } else { x = 2 * (n - 1) - x; }
            } else {
                x = clamp(x, 0, n - 1);
            }
        }
        src = src + x * slot(d, 0u);
    }
    if inside {
        out[i] = SO(a[u32(src)]);
    } else {
        out[i] = SO(bitcast<C>(P.sv.x));
    }
}
