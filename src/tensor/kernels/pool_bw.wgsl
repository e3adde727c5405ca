// pool_bw.wgsl - the input gradients of max_pool2d and avg_pool2d (src/tensor/conv_backward.c):
// one invocation per input element (n, c, h, w), out contiguous [N, C, H, W], gathering from the
// windows that hold it (no atomics, so the result does not depend on the order of the writes):
// for each tap kh with oh = (h + ph - kh dh) / sh exact and in range (likewise kw, ow), window
// (oh, ow) contains (h, w) at that tap, and each window is met at most once.
//   OP 0 max: adds dy[n, c, oh, ow] where the window's argmax (input b: wt_max_pool2d's i32
//        indices, h * W + w within the plane) is this element;
//   OP 1 avg counting the padding, OP 2 avg over the elements inside the image: adds
//        dy[n, c, oh, ow] / the forward's divisor of that window (pool.wgsl's rule).
// Params as pool.wgsl's: shape = (N, C, H, W, OH, OW, KH, KW), sv = (stride h, w, pad h, w),
// aux = (dilation h, w, 0, 0); st[0] = dy strides (n, c, oh, ow), st[2] = indices strides,
// off = (dy, indices) offsets.

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> dys: array<SA>;
@group(0) @binding(2) var<storage, read> idx: array<SB>;

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
    let sh = P.sv.x;
    let sw = P.sv.y;
    let ph = i32(P.sv.z);
    let pw = i32(P.sv.w);
    let w = i32(i % u32(W));
    var r = i / u32(W);
    let h = i32(r % u32(H));
    r = r / u32(H);
    let c = r % C;
    let n = r / C;
    let sd = P.st[0];
    let si = P.st[2];
    let db = i32(P.off.x) + i32(n) * sd.x + i32(c) * sd.y;
    let ib = i32(P.off.y) + i32(n) * si.x + i32(c) * si.y;
    let me = h * W + w;
    var acc = 0.0;
    for (var kh = 0u; kh < KH; kh++) {
        let th = h + ph - i32(kh * P.aux.x);
        if th < 0 { break; }
        let oh = u32(th) / sh;
        if oh * sh != u32(th) || oh >= OH { continue; }
        for (var kw = 0u; kw < KW; kw++) {
            let tw = w + pw - i32(kw * P.aux.y);
            if tw < 0 { break; }
            let ow = u32(tw) / sw;
            if ow * sw != u32(tw) || ow >= OW { continue; }
            let g = f32(dys[u32(db + i32(oh) * sd.z + i32(ow) * sd.w)]);
            if OP == 0u {
                if i32(idx[u32(ib + i32(oh) * si.z + i32(ow) * si.w)]) == me { acc = acc + g; }
            } else {
                let hs = i32(oh * sh) - ph;
                let ws0 = i32(ow * sw) - pw;
                let he = min(hs + i32(KH), H + ph);
                let we = min(ws0 + i32(KW), W + pw);
                var cnt = (he - hs) * (we - ws0);
                if OP == 2u { cnt = (min(he, H) - max(hs, 0)) * (min(we, W) - max(ws0, 0)); }
                acc = acc + g / f32(max(cnt, 1));
            }
        }
    }
    out[i] = SO(acc);
}
