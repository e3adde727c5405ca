// conv_bw.wgsl - conv2d's gradients of the input and of the weight (src/tensor/conv_backward.c),
// direct sums for the cases conv_backward.c does not send through wt_conv2d itself.
//   OP 0 dx: one invocation per input element (n, c, h, w), out contiguous [N, C, H, W]: the sum
//        over the filter taps (kh, kw) whose output pixel oh = (h + ph - kh dh) / sh (likewise
//        ow) exists, exactly divisible, and over the group's Kg output channels, of
//        dy[n, k, oh, ow] w[k, c % Cg, kh, kw].  Reads a = dy (any strides), b = w (contiguous).
//   OP 1 dw partial sums: one invocation per (chunk s, output channel k, r = (ci, kh, kw)), out
//        contiguous [S, K, R]: the sum over the pixels p = (n, oh, ow) of chunk s (L pixels,
//        the last one shorter) of dy[n, k, oh, ow] x[n, g Cg + ci, oh sh - ph + kh dh, ...];
//        the caller sums the S chunks (wt_sum).  L <= 65535: lavapipe ends a loop there.
//        Reads a = dy, b = x (any strides).
// Params: shape = (N, C, H, W, OH, OW, KH, KW), sv = (stride h, w, padding h, w), aux =
// (dilation h, w, Kg, Cg), st[0] = dy strides (n, k, oh, ow), st[1] = (K, L, 0, 0), st[2] = x
// strides (OP 1), off = (dy, w or x) offsets.

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> dys: array<SA>;
@group(0) @binding(2) var<storage, read> bs: array<SB>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = elem_id(gid);
    if i >= P.n { return; }
    let C = P.shape[0].y;
    let H = P.shape[0].z;
    let W = P.shape[0].w;
    let OH = P.shape[1].x;
    let OW = P.shape[1].y;
    let KH = P.shape[1].z;
    let KW = P.shape[1].w;
    let sh = P.sv.x;
    let sw = P.sv.y;
    let ph = i32(P.sv.z);
    let pw = i32(P.sv.w);
    let dh = P.aux.x;
    let dw = P.aux.y;
    let Kg = P.aux.z;
    let Cg = P.aux.w;
    let sd = P.st[0];
    if OP == 0u {
        let w = i % W;
        var r = i / W;
        let h = r % H;
        r = r / H;
        let c = r % C;
        let n = r / C;
        let g = c / Cg;
        let ci = c - g * Cg;
        let R = Cg * KH * KW;
        let db = i32(P.off.x) + i32(n) * sd.x + i32(g * Kg) * sd.y;
        let wb = P.off.y + g * Kg * R + ci * KH * KW;
        var acc = 0.0;
        for (var kh = 0u; kh < KH; kh++) {
            let th = i32(h) + ph - i32(kh * dh);
            if th < 0 { break; }
            let oh = u32(th) / sh;
            if oh * sh != u32(th) || oh >= OH { continue; }
            for (var kw = 0u; kw < KW; kw++) {
                let tw = i32(w) + pw - i32(kw * dw);
                if tw < 0 { break; }
                let ow = u32(tw) / sw;
                if ow * sw != u32(tw) || ow >= OW { continue; }
                let d0 = db + i32(oh) * sd.z + i32(ow) * sd.w;
                let w0 = wb + kh * KW + kw;
                for (var kk = 0u; kk < Kg; kk++) {
                    acc = fma(f32(dys[u32(d0 + i32(kk) * sd.y)]), f32(bs[w0 + kk * R]), acc);
                }
            }
        }
        out[i] = SO(acc);
    } else {
        let K = u32(P.st[1].x);
        let L = u32(P.st[1].y);
        let R = Cg * KH * KW;
        let r = i % R;
        var t = i / R;
        let k = t % K;
        let s = t / K;
        let ci = r / (KH * KW);
        let rem = r - ci * KH * KW;
        let kh = rem / KW;
        let kw = rem - kh * KW;
        let g = k / Kg;
        let sx = P.st[2];
        let Ptot = P.shape[0].x * OH * OW;
        let p0 = s * L;
        let p1 = min(p0 + L, Ptot);
        // the chunk's first pixel, then (n, oh, ow) advance with p
        var ow = p0 % OW;
        var oh = (p0 / OW) % OH;
        var n = p0 / (OW * OH);
        let xo = i32(P.off.y) + i32(g * Cg + ci) * sx.y;
        let dyo = i32(P.off.x) + i32(k) * sd.y;
        let yk = i32(kh * dh) - ph;
        let xk = i32(kw * dw) - pw;
        var acc = 0.0;
        for (var p = p0; p < p1; p++) {
            let ih = i32(oh * sh) + yk;
            let iw = i32(ow * sw) + xk;
            if u32(ih) < H && u32(iw) < W {
                let g0 = f32(dys[u32(dyo + i32(n) * sd.x + i32(oh) * sd.z + i32(ow) * sd.w)]);
                acc = fma(g0, f32(bs[u32(xo + i32(n) * sx.x + ih * sx.z + iw * sx.w)]), acc);
            }
            ow++;
            if ow == OW {
                ow = 0u;
                oh++;
                if oh == OH {
                    oh = 0u;
                    n++;
                }
            }
        }
        out[i] = SO(acc);
    }
}
