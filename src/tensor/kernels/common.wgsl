// common.wgsl - the part every elementwise tensor kernel shares: the per-dispatch parameter block
// and the element indexing.  The C side (src/tensor/kernel.c) prepends a prelude that defines the
// specialisation: storage element types SO (output), SA/SB/SC (inputs), the compute type C, the op
// code OP and one addressing mode per input (MA/MB/MC):
//   0 strided: shape/strides/offset from P (any rank up to 8, broadcast = stride 0)
//   1 contiguous: element i of the output reads element off + i
//   2 one element: every output element reads element off (a broadcast scalar)
//   3 parameter: the value comes from P.sv (a scalar operand), no buffer read
// For the catalogue's STD files and the scalar map entry points the prelude also declares the
// standard bindings: out (array<SO>, read_write) and the inputs a, b, c (array<SA / SB / SC>).
// The output is always a fresh contiguous tensor.  One invocation per element; the grid is 2-D
// (P.gx workgroups per row) so that more than 65535 x 256 elements fit.

struct Params {
    n: u32,                        // output elements
    ndim: u32,                     // rank of the output (strided inputs are padded to it)
    gx: u32,                       // workgroups along x
    pad0: u32,
    off: vec4<u32>,                // element offset of inputs a, b, c
    sv: vec4<u32>,                 // scalar operands / values, as bits of the compute type
    aux: vec4<u32>,                // kernel-specific words (eye width, rng seed and counter, ...)
    shape: array<vec4<u32>, 2>,    // output shape, dims 0..7
    st: array<vec4<i32>, 6>,       // strides of input k: st[2k], st[2k + 1]
}

@group(1) @binding(0) var<uniform> P: Params;

// Peels dim d off a flat index over dims 0..d: returns the coordinate along d and leaves in *rem
// the flat index over dims 0..d-1 (shape P.shape).
fn peel(rem: ptr<function, u32>, d: u32) -> i32 {
    let sz = P.shape[d >> 2u][d & 3u];
    let q = *rem / sz;
    let c = *rem - q * sz;
    *rem = q;
    return i32(c);
}

// base + the coordinates of flat index i (shape P.shape, rank P.ndim) . the strides of input k
fn offset_of(i: u32, k: u32, base: i32) -> i32 {
    var rem = i;
    var o = base;
    for (var d = P.ndim; d > 0u; d = d - 1u) {
        o = o + peel(&rem, d - 1u) * P.st[2u * k + ((d - 1u) >> 2u)][(d - 1u) & 3u];
    }
    return o;
}

fn strided_index(i: u32, k: u32) -> u32 {
    return u32(offset_of(i, k, i32(P.off[k])));
}

// Element i's offsets in input 0 and in input 1 (a copy's source and destination) in one pass
// over the dims: (P.off[0] + coordinates . strides 0, P.off[1] + coordinates . strides 1).
fn strided_pair(i: u32) -> vec2<i32> {
    var rem = i;
    var s = i32(P.off[0]);
    var t = i32(P.off[1]);
    for (var d = P.ndim; d > 0u; d = d - 1u) {
        let e = d - 1u;
        let c = peel(&rem, e);
        s = s + c * P.st[e >> 2u][e & 3u];
        t = t + c * P.st[2u + (e >> 2u)][e & 3u];
    }
    return vec2<i32>(s, t);
}

fn src_index(i: u32, k: u32, mode: u32) -> u32 {
    if mode == 1u { return P.off[k] + i; }
    if mode == 2u { return P.off[k]; }
    return strided_index(i, k);
}

// An index value (i32 bits, or u32 when MB == 1) along a dim of n elements (gather, scatter): a
// negative one counts from the end; -1 when out of range.
fn wrap_index(raw: u32, n: i32) -> i32 {
    var k = bitcast<i32>(raw);
    if MB == 1u && k < 0 { return -1; }   // a u32 index above 2^31 - 1
    if k < 0 { k = k + n; }
    if k < 0 || k >= n { return -1; }
    return k;
}

fn elem_id(g: vec3<u32>) -> u32 {
    return g.y * (P.gx * 256u) + g.x;
}

fn nan_f32() -> f32 {
    return bitcast<f32>(P.pad0 | 0x7fc00000u);   // P.pad0 is 0: a run-time NaN (const NaN is an error)
}
