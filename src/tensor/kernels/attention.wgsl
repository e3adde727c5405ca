// attention.wgsl - the scale-and-mask pass of plain scaled dot-product attention
// (src/tensor/attention.c), between wt_matmul's q k^T and softmax.wgsl:
//   out[b, h, i, j] = scale * a[b, h, i, j] (+ mask), f32, contiguous [B, H, Lq, Lk];
// masked-out entries are -inf.  MB bit 0 causal (key j visible to query i when
// j <= i + Lk - Lq: aligned to the end, a KV cache); MC mask kind: 0 none, 1 boolean (input c
// nonzero = attend), 2 additive (input c added).  Inputs a = the raw scores, c = the mask, read
// through (batch, head, row, col) strides: a broadcast mask has stride 0.  One invocation per
// score.  Params: shape[0] = (B, H, Lq, Lk); st[0], st[4] = strides of a, c; off = offsets;
// sv.x = scale.

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> a: array<SA>;
@group(0) @binding(2) var<storage, read> unused: array<SB>;
@group(0) @binding(3) var<storage, read> mk: array<SC>;

fn neg_inf() -> f32 {
    return bitcast<f32>(0xff800000u | P.pad0);
}

fn sidx(k: u32, b: u32, h: u32, r: u32, d: u32) -> u32 {
    let s = P.st[2u * k];
    return u32(i32(P.off[k]) + i32(b) * s.x + i32(h) * s.y + i32(r) * s.z + i32(d) * s.w);
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    let idx = elem_id(g);
    if idx >= P.n { return; }
    let H = P.shape[0].y;
    let Lq = P.shape[0].z;
    let Lk = P.shape[0].w;
    let j = idx % Lk;
    let i = (idx / Lk) % Lq;
    let bh = idx / (Lk * Lq);
    let b = bh / H;
    let h = bh % H;
    var s = f32(a[sidx(0u, b, h, i, j)]) * bitcast<f32>(P.sv.x);
    if (MB & 1u) != 0u && i32(j) > i32(i) + i32(Lk) - i32(Lq) { s = neg_inf(); }
    if MC == 1u && f32(mk[sidx(2u, b, h, i, j)]) == 0.0 { s = neg_inf(); }
    if MC == 2u { s = s + f32(mk[sidx(2u, b, h, i, j)]); }
    out[idx] = SO(s);
}
