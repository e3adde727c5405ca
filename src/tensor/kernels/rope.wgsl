// rope.wgsl - rotary position embedding over the last dim (src/tensor/nn.c).  One invocation per
// output element (contiguous output, any input layout via strided_index): element d < rd of a
// row is rotated with its partner by angle pos * inv_freq[p], pos = the row's coordinate along
// the sequence dim + the position offset (a KV cache's length), inv_freq = input b (rd / 2 f32
// values theta^(-2p / rd), computed in double on the host); elements d >= rd pass through.
//   OP 0 interleaved: pairs (2p, 2p + 1)          (GPT-J, llama.cpp "normal")
//   OP 1 half-split:  pairs (p, p + rd / 2)       (GPT-NeoX, Hugging Face llama)
// y_first = x_first cos - x_second sin, y_second = x_second cos + x_first sin.
// Params: ndim/shape = the shape, st[0..1] = input strides, off[0] = input offset, off[1] =
// position offset, off[2] = input stride of the last dim (i32 bits), off[3] = inv_freq offset,
// aux = (D, rd, elements per step of the sequence dim, sequence length).  The angle is reduced to
// [-pi, pi] (Cody-Waite) before sin/cos, which are only accurate there on GPUs.

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    let i = elem_id(g);
    if i >= P.n { return; }
    let D = P.aux.x;
    let rd = P.aux.y;
    let d = i % D;
    let src = strided_index(i, 0u);
    let x = f32(a[src]);
    if d >= rd {
        out[i] = SO(x);
        return;
    }
    var p = d >> 1u;
    var partner = d ^ 1u;
    var first = (d & 1u) == 0u;
    if OP == 1u {
        let half = rd >> 1u;
        first = d < half;
        p = select(d - half, d, first);
        partner = select(d - half, d + half, first);
    }
    let sl = bitcast<i32>(P.off[2]);
    let y = f32(a[u32(i32(src) + (i32(partner) - i32(d)) * sl)]);
    let pos = (i / P.aux.z) % P.aux.w + P.off[1];
    let ang = f32(pos) * f32(b[P.off[3] + p]);
    let k = round(ang * 0.15915494309189535);
    let r = (ang - k * 6.28125) - k * 0.0019353071795864769;
    let c = cos(r);
    let s = sin(r);
    var o = x * c + y * s;
    if first { o = x * c - y * s; }
    out[i] = SO(o);
}
