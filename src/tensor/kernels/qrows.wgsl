// qrows.wgsl - whole rows of a weight in a block format (qblock.wgsl, OP) decoded to f32, for
// wt_qdequantize and wt_qlinear's prefill (MA 0: output row i is weight row P.aux.x + i) and
// wt_qembedding (MA 1: output row i is the weight row named by id b[P.off.y + i], i32 or u32 by MB
// as gather.wgsl's; a negative id counts from the end, one out of range gives a row of zeros).  One
// invocation per unit of 32 weights: element i of the grid writes unit i % U of output row i / U
// as 8 quads.  P.sv = (N, U, bytes per row).

@group(0) @binding(0) var<storage, read_write> out: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read> wq: array<u32>;
@group(0) @binding(2) var<storage, read> b: array<u32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = elem_id(gid);
    if i >= P.n { return; }
    let U = P.sv.y;
    let ro = i / U;
    let u = i - ro * U;
    var row = i32(ro + P.aux.x);
    if MA == 1u { row = wrap_index(b[P.off.y + ro], i32(P.sv.x)); }
    var w: array<vec4<f32>, 8>;
    if row >= 0 { w = q_unit(u32(row) * P.sv.z, u); }
    let o = i * 8u;
    for (var j = 0u; j < 8u; j = j + 1u) { out[o + j] = w[j]; }
}
