// pool.wgsl - maxpool2d / avgpool2d, one invocation per output element (src/tensor/conv.c).
//   OP 0 max value, OP 1 max index (i32: h * W + w within the input plane, PyTorch's index;
//   the first maximum in row-major window order wins, the last NaN wins over numbers: PyTorch's
//   rule `val > max || isnan(val)`), OP 2 average
//   counting the zero padding (count_include_pad), OP 3 average over the elements inside the
//   image.  Padding is -inf for max.  Windows may overhang the padded border (ceil mode) only
//   by what clipping removes; the max of an empty window is -inf (index -1).
// Params: shape = (N, C, H, W, OH, OW, KH, KW), st[0] = input strides (n, c, h, w),
// sv = (stride h, w, pad h, pad w), aux = (dilation h, w, 0, 0), off.x = input offset.
// The output is contiguous [N, C, OH, OW].

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> xs: array<SA>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = elem_id(gid);
    if i >= P.n { return; }
    let C = P.shape[0].y;
    let H = i32(P.shape[0].z);
    let W = i32(P.shape[0].w);
    let OH = P.shape[1].x;
    let OW = P.shape[1].y;
    let KH = P.shape[1].z;
    let KW = P.shape[1].w;
    let st = P.st[0];
    let ow = i % OW;
    let r = i / OW;
    let oh = r % OH;
    let nc = r / OH;
    let c = nc % C;
    let n = nc / C;
    let y0 = i32(oh * P.sv.x) - i32(P.sv.z);
    let x0 = i32(ow * P.sv.y) - i32(P.sv.w);
    let base = i32(P.off.x) + i32(n) * st.x + i32(c) * st.y;
    if OP <= 1u {
        var best = bitcast<f32>(P.pad0 | 0xff800000u);   // -inf
        var at = -1;
        for (var kh = 0u; kh < KH; kh++) {
            let y = y0 + i32(kh * P.aux.x);
            if y < 0 || y >= H { continue; }
            for (var kw = 0u; kw < KW; kw++) {
                let x = x0 + i32(kw * P.aux.y);
                if x < 0 || x >= W { continue; }
                let v = f32(xs[u32(base + y * st.z + x * st.w)]);
                if at < 0 || v > best || v != v {
                    best = v;
                    at = y * W + x;
                }
            }
        }
        if OP == 0u { out[i] = SO(best); } else { out[i] = SO(at); }
    } else {
        // PyTorch: the divisor counts the window clipped to the padded image (count_include_pad)
        // or to the image
        let hs = y0;
        let ws0 = x0;
        let he = min(hs + i32(KH), H + i32(P.sv.z));
        let we = min(ws0 + i32(KW), W + i32(P.sv.w));
        let pool = (he - hs) * (we - ws0);
        let h0 = max(hs, 0);
        let w0 = max(ws0, 0);
        let h1 = min(he, H);
        let w1 = min(we, W);
        var s = 0.0;
        for (var y = h0; y < h1; y++) {
            for (var x = w0; x < w1; x++) {
                s = s + f32(xs[u32(base + y * st.z + x * st.w)]);
            }
        }
        var cnt = (h1 - h0) * (w1 - w0);
        if OP == 2u { cnt = pool; }
        out[i] = SO(s / f32(max(cnt, 1)));
    }
}
