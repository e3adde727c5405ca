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
//   32 found_inf: a GradScaler step (amp.c), skipped (nothing written) when fi[off.w] != 0

@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@group(0) @binding(1) var<storage, read_write> st: array<f32>;
@group(0) @binding(2) var<storage, read> a: array<f32>;
@group(0) @binding(3) var<storage, read> fi: array<f32>;

fn lerp_torch(s: f32, e: f32, w: f32) -> f32 {
    if abs(w) < 0.5 { return s + w * (e - s); }
    return e - (e - s) * (1.0 - w);
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = elem_id(gid);
    if i >= P.n { return; }
    let flags = P.aux.x;
    if (flags & 32u) != 0u && fi[P.off.w] != 0.0 { return; }
    let pi = P.off.x + i;
    var p = out[pi];
    var g = a[P.off.z + i];
    if (flags & 2u) != 0u { g = -g; }
    if OP == 0u {
        let lr = bitcast<f32>(P.sv.x);
        let mom = bitcast<f32>(P.sv.y);
        if (flags & 16u) != 0u { g = g + bitcast<f32>(P.sv.w) * p; }
        var buf = g;
        if (flags & 8u) == 0u { buf = st[i] * mom + bitcast<f32>(P.sv.z) * g; }
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
    let denom = sqrt(vv) / bitcast<f32>(P.aux.y) + bitcast<f32>(P.sv.w);
    out[pi] = p + bitcast<f32>(P.aux.z) * (m / denom);
}
