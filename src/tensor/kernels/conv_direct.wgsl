// conv_direct.wgsl - conv2d, one invocation per output element (src/tensor/conv.c): the direct
// sum over the group's Cg input channels and the KH x KW window, for problems too small to fill
// the GEMM tiles (depthwise convolutions, few channels).  Same bindings and Params as
// conv.wgsl; the output is contiguous NCHW, element i = ((n * K + ch) * OH + oh) * OW + ow.

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> xs: array<SA>;
@group(0) @binding(2) var<storage, read> ws: array<SB>;
@group(0) @binding(3) var<storage, read> bs: array<SC>;

const HAS_BIAS: bool = MA == 1u;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = elem_id(gid);
    if i >= P.n { return; }
    let OHW = P.shape[0].y;
    let OW = P.shape[0].z;
    let R = P.shape[0].w;
    let KHW = P.shape[1].x;
    let KW = P.shape[1].y;
    let H = i32(P.shape[1].z);
    let W = i32(P.shape[1].w);
    let Kg = P.aux.x;
    let Cg = P.aux.y;
    let K = P.aux.z;
    let st = P.st[0];
    let nk = i / OHW;
    let q = i - nk * OHW;
    let n = nk / K;
    let ch = nk - n * K;
    let grp = ch / Kg;
    let oh = q / OW;
    let ow = q - oh * OW;
    let y0 = i32(oh * P.sv.x) - P.st[1].x;
    let x0 = i32(ow * P.sv.y) - P.st[1].y;
    let KH = KHW / KW;
    let xb = i32(P.off.x) + i32(n) * st.x + i32(grp * Cg) * st.y;
    let wb = P.off.y + ch * R;
    var acc = 0.0;
    for (var kh = 0u; kh < KH; kh++) {
        let y = y0 + i32(kh * P.sv.z);
        if y < 0 || y >= H { continue; }
        for (var kw = 0u; kw < KW; kw++) {
            let x = x0 + i32(kw * P.sv.w);
            if x < 0 || x >= W { continue; }
            let xo = xb + y * st.z + x * st.w;
            let wo = wb + kh * KW + kw;
            for (var c = 0u; c < Cg; c++) {
                acc = fma(f32(xs[u32(xo + i32(c) * st.y)]), f32(ws[wo + c * KHW]), acc);
            }
        }
    }
    if HAS_BIAS { acc = acc + f32(bs[P.off.z + ch]); }
    out[i] = SO(acc);
}
