// attention.wgsl - the two products of plain scaled dot-product attention (src/tensor/attention.c),
// with softmax.wgsl in between:
//   OP 0  scores: out[b, h, i, j] = scale * q[b, h, i, :] . k[b, h / G, j, :] (+ mask), f32,
//         contiguous [B, H, Lq, Lk]; masked-out entries are -inf.  MB bit 0 causal (key j visible
//         to query i when j <= i + Lk - Lq: aligned to the end, a KV cache); MC mask kind: 0 none,
//         1 boolean (input c nonzero = attend), 2 additive (input c added).  Inputs a = q, b = k,
//         c = mask, read through (batch, head, row, col) strides: a broadcast mask has stride 0.
//   OP 1  output: out[b, h, i, e] = sum_j p[b, h, i, j] v[b, h / G, j, e]; a = p (contiguous f32
//         [B, H, Lq, Lk]), b = v.  Output contiguous [B, H, Lq, Dv].
// One invocation per output element, a loop over the inner dim (D or Lk, at most 65535: the C
// side refuses longer ones for this path).
// Params: shape[0] = (B, H, Lq, Lk), shape[1] = (D or Dv, G, 0, 0); st[0], st[2], st[4] = strides
// of a, b, c as (batch, head, row, col); off = offsets; sv.x = scale.

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> a: array<SA>;
@group(0) @binding(2) var<storage, read> bt: array<SB>;
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
    let D = P.shape[1].x;
    let G = P.shape[1].y;
    if OP == 0u {
        let j = idx % Lk;
        let i = (idx / Lk) % Lq;
        let bh = idx / (Lk * Lq);
        let b = bh / H;
        let h = bh % H;
        var acc = 0.0;
        for (var d = 0u; d < D; d = d + 1u) {
            acc = fma(f32(a[sidx(0u, b, h, i, d)]), f32(bt[sidx(1u, b, h / G, j, d)]), acc);
        }
        var s = acc * bitcast<f32>(P.sv.x);
        if (MB & 1u) != 0u && i32(j) > i32(i) + i32(Lk) - i32(Lq) { s = neg_inf(); }
        if MC == 1u && f32(mk[sidx(2u, b, h, i, j)]) == 0.0 { s = neg_inf(); }
        if MC == 2u { s = s + f32(mk[sidx(2u, b, h, i, j)]); }
        out[idx] = SO(s);
    } else {
        let e = idx % D;
        let i = (idx / D) % Lq;
        let bh = idx / (D * Lq);
        let b = bh / H;
        let h = bh % H;
        var acc = 0.0;
        let pb = (bh * Lq + i) * Lk;
        for (var j = 0u; j < Lk; j = j + 1u) {
            acc = fma(f32(a[pb + j]), f32(bt[sidx(1u, b, h / G, j, e)]), acc);
        }
        out[idx] = SO(acc);
    }
}
