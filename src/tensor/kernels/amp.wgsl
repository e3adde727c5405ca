// amp.wgsl - torch.cuda.amp.GradScaler's two kernels (src/tensor/amp.c).  The scaler's state is
// one f32 tensor [4]: scale, found_inf (0 or 1), growth tracker (clean steps since the last
// change of the scale, exact as f32 up to 2^24), skipped steps (optim.wgsl takes them off the
// optimizer's step count, as torch never counts a skipped step).
//   OP 0 unscale: out is a gradient (contiguous from off.x, n elements), st the state (from
//        off.y): g = g * (1 / scale), in place; found_inf = 1 when any result is inf or NaN.  The
//        test looks at the exponent bits, so no compiler assumption about NaN can remove it.
//        Many invocations may store the same 1.0: the value is the same whichever lands.
//   OP 1 update (n = 1, out is the state from off.x): found_inf: scale = scale backoff,
//        tracker = 0, skipped + 1; else tracker + 1, and at growth_interval scale = scale growth (kept when
//        that is not finite), tracker = 0; found_inf = 0 for the next step.
//        sv = (growth, backoff, growth_interval as f32) bits.

@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@group(0) @binding(1) var<storage, read_write> st: array<f32>;

fn finite(x: f32) -> bool {
    return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u;
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = elem_id(gid);
    if i >= P.n { return; }
    if OP == 0u {
        let o = P.off.x + i;
        let g = out[o] * (1.0 / st[P.off.y]);
        out[o] = g;
        if !finite(g) { st[P.off.y + 1u] = 1.0; }
        return;
    }
    let s = P.off.x;
    let scale = out[s];
    if out[s + 1u] != 0.0 {
        out[s] = scale * bitcast<f32>(P.sv.y);
        out[s + 2u] = 0.0;
        out[s + 3u] = out[s + 3u] + 1.0;
    } else {
        let t = out[s + 2u] + 1.0;
        if t >= bitcast<f32>(P.sv.z) {
            let grown = scale * bitcast<f32>(P.sv.x);
            if finite(grown) { out[s] = grown; }
            out[s + 2u] = 0.0;
        } else {
            out[s + 2u] = t;
        }
    }
    out[s + 1u] = 0.0;
}
