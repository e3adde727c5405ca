// optim.wgsl - one optimizer step of one parameter with state, in place (src/tensor/optim.c):
// the parameter (binding 0) and its state (binding 1, both read_write: the catalogue's NEEDS_W2)
// are updated by one invocation per element, reading the gradient (binding 2).  The formulas
// and their order of f32 operations are torch.optim's single-tensor ones:
//   OP 0 SGD with momentum: d = g (-g when maximize) + wd p; buf = d on the first step, else
//        buf momentum + (1 - dampening) d; d = d + momentum buf (nesterov) or buf; p = p - lr d
//   OP 1 Adam, OP 2 AdamW (p = p (1 - lr wd) first; Adam adds wd p to the gradient instead):
//        m = lerp(m, g, 1 - beta1); v = v beta2 + (1 - beta2) g g; vmax = max(vmax, v) (amsgrad);
//        p = p - step_size m / (sqrt(v or vmax) / sqrt(1 - beta2^t) + eps), step_size = lr / (1 - beta1^t)
// The state is one tensor [k, n]: row 0 the momentum buffer (SGD) or m, row 1 v, row 2 vmax.
// Params: n elements; off.x the parameter's offset, off.z the gradient's; f32 bits in sv and aux:
//   SGD:  sv = (lr, momentum, 1 - dampening, wd)
//   Adam: sv = (1 - beta1, beta2, 1 - beta2, eps), aux.y = sqrt(1 - beta2^t), aux.z = -step_size,
//         aux.w = wd (Adam) or 1 - lr wd (AdamW)
//   aux.x flags: 1 nesterov, 2 maximize, 4 amsgrad, 8 first step (SGD), 16 weight decay,
//   32 found_inf: a GradScaler step (amp.c), skipped (nothing written) when fi[off.w] != 0; the
//   scaler's count of skipped steps, fi[off.w + 2], is taken off the step count: when it is not 0,
//   t = shape[0].x - skips gives the first-step flag (SGD) and Adam's bias corrections 1 - beta^t,
//   computed here (bias_correction: no cancellation near beta = 1) from sv's 1 - beta and
//   lr = shape[0].y (bits), as torch's step count, which a skipped step does not advance

@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@group(0) @binding(1) var<storage, read_write> st: array<f32>;
@group(0) @binding(2) var<storage, read> a: array<f32>;
@group(0) @binding(3) var<storage, read> fi: array<f32>;

// 1 - (1 - c)^t for c in (0, 1], t >= 1: exp(t ln(1 - c)) with ln(1 - c) and 1 - exp(x) by their
// series where the plain forms would cancel (12 terms: below f32's epsilon there)
fn bias_correction(c: f32, t: f32) -> f32 {
    var l = log(1.0 - c);
    if c < 0.25 {
        var s = 0.0;
        var q = c;
        for (var k = 1u; k <= 12u; k++) { s += q / f32(k); q *= c; }
        l = -s;
    }
    let x = t * l;
    if x > -0.5 {
        var s = 0.0;
        var term = 1.0;
        for (var k = 1u; k <= 12u; k++) { term *= x / f32(k); s += term; }
        return -s;
    }
    return 1.0 - exp(x);
}

fn lerp_torch(s: f32, e: f32, w: f32) -> f32 {
    if abs(w) < 0.5 { return s + w * (e - s); }
    return e - (e - s) * (1.0 - w);
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = elem_id(gid);
    if i >= P.n { return; }
    let flags = P.aux.x;
    var first = (flags & 8u) != 0u;
    var skips = 0.0;
    if (flags & 32u) != 0u {
        if fi[P.off.w] != 0.0 { return; }
        skips = fi[P.off.w + 2u];
        if skips != 0.0 { first = f32(P.shape[0].x) - skips <= 1.0; }
    }
    let pi = P.off.x + i;
    var p = out[pi];
    var g = a[P.off.z + i];
    if (flags & 2u) != 0u { g = -g; }
    if OP == 0u {
        let lr = bitcast<f32>(P.sv.x);
        let mom = bitcast<f32>(P.sv.y);
        if (flags & 16u) != 0u { g = g + bitcast<f32>(P.sv.w) * p; }
        var buf = g;
        if !first { buf = st[i] * mom + bitcast<f32>(P.sv.z) * g; }
        st[i] = buf;
        var d = buf;
        if (flags & 1u) != 0u { d = g + mom * buf; }
        out[pi] = p + (-lr) * d;
        return;
    }
    if (flags & 16u) != 0u {
        if OP == 2u { p = p * bitcast<f32>(P.aux.w); } else { g = g + bitcast<f32>(P.aux.w) * p; }
    }
    let n = P.n;
    let m = lerp_torch(st[i], g, bitcast<f32>(P.sv.x));
    let v = st[n + i] * bitcast<f32>(P.sv.y) + bitcast<f32>(P.sv.z) * g * g;
    st[i] = m;
    st[n + i] = v;
    var vv = v;
    if (flags & 4u) != 0u {
        vv = max(st[2u * n + i], v);
        st[2u * n + i] = vv;
    }
    var sqrt_bc2 = bitcast<f32>(P.aux.y);
    var neg_step = bitcast<f32>(P.aux.z);
    if skips != 0.0 {
        let t = f32(P.shape[0].x) - skips;
        sqrt_bc2 = sqrt(bias_correction(bitcast<f32>(P.sv.z), t));
        neg_step = -(bitcast<f32>(P.shape[0].y) / bias_correction(bitcast<f32>(P.sv.x), t));
    }
    let denom = sqrt(vv) / sqrt_bc2 + bitcast<f32>(P.sv.w);
    out[pi] = p + neg_step * (m / denom);
}
