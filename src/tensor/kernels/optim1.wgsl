// optim1.wgsl - in-place writes without state (src/tensor/optim.c, init.c, checkpoint.c), one
// invocation per element of the destination `out` (contiguous from off.x, n elements):
//   OP 0 plain SGD step: d = g (-g when maximize) + wd p; p = p - lr d; g = a[off.y + i],
//        sv = (lr, wd), aux.x flags (2 maximize, 16 weight decay, 32 found_inf: a GradScaler step,
//        skipped when fi[off.z] != 0)
//   OP 1 scale: out *= a[off.y] (clip_grad_norm's coefficient, a one-element tensor on the GPU)
//   OP 2 copy: out = a[off.y + i] (same storage type: load into an existing tensor)

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> a: array<SA>;
@group(0) @binding(2) var<storage, read> fi: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = elem_id(gid);
    if i >= P.n { return; }
    let o = P.off.x + i;
    if OP == 2u {
        out[o] = SO(a[P.off.y + i]);
        return;
    }
    if OP == 1u {
        out[o] = SO(f32(out[o]) * f32(a[P.off.y]));
        return;
    }
    if (P.aux.x & 32u) != 0u && fi[P.off.z] != 0.0 { return; }
    let p = f32(out[o]);
    var g = f32(a[P.off.y + i]);
    if (P.aux.x & 2u) != 0u { g = -g; }
    if (P.aux.x & 16u) != 0u { g = g + bitcast<f32>(P.sv.y) * p; }
    out[o] = SO(p + (-bitcast<f32>(P.sv.x)) * g);
}
