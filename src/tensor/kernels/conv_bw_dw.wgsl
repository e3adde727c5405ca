// conv_bw_dw.wgsl - conv2d's weight gradient as a tiled product (src/tensor/conv_backward.c):
// per group g, dW[k, r] = sum over pixels p = (n, oh, ow) of dY[k, p] X[p, r], r = (ci, kh, kw),
// X[p, r] = x[n, g Cg + ci, oh sh - ph + kh dh, ow sw - pw + kw dw] (zero outside the image)
// gathered from the input on the fly (no im2col buffer).  A workgroup owns a 64 x 64 tile of
// (k, r) and one chunk of L pixels (L a multiple of 16); out holds the chunks' partial sums
// [S, K, R], which the caller sums (wt_sum), so that a reduction over N OH OW pixels keeps
// enough workgroups busy and no loop runs past lavapipe's 65,535 iterations.
// Steps of 16 pixels: lane t loads pixel t % 16 of the step for rows 4 (t / 16) + j (j < 4) of
// both tiles, stored as one vec4 each (16 neighbouring lanes read 16 neighbouring pixels), then
// lane (tx, ty) = (t % 16, t / 16) accumulates channels 4 ty .. 4 ty + 3 x columns 4 tx ..
// 4 tx + 3 from two 16-byte shared reads per pixel; the next step's loads are issued before
// the products of the current one (registers va, vb), so their latency hides behind them.
// Inputs a = dy, b = x (any strides).  Params as conv_bw.wgsl's, plus st[1] = (K, L, tiles of k,
// tiles of r), st[3].x = groups.  Workgroup w = ((s * G + g) * tiles_k + tk) * tiles_r + tr.

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> dys: array<SA>;
@group(0) @binding(2) var<storage, read> xs: array<SB>;

var<workgroup> As: array<vec4<f32>, 256>;   // [pixel][k quad]
var<workgroup> Bs: array<vec4<f32>, 256>;   // [pixel][r quad]

// the loader's state: its pixel and rows, and the next step's values (fetch)
var<private> lp: u32;
var<private> lr: u32;
var<private> dko: vec4<i32>;      // dy offsets of the 4 channels
var<private> kok: vec4<bool>;
var<private> xro: vec4<i32>;      // x offsets of the 4 columns (ci, kh, kw)
var<private> yr: vec4<i32>;       // their kh dh - ph
var<private> xr: vec4<i32>;       // their kw dw - pw
var<private> rok: vec4<bool>;
var<private> va: vec4<f32>;
var<private> vb: vec4<f32>;

// the loader's values of the step at pixel pb (zero past p1, outside the image, past the tile)
fn fetch(pb: u32, p1: u32) {
    let H = P.shape[0].z;
    let W = P.shape[0].w;
    let OW = P.shape[1].y;
    let OHW = P.shape[1].x * OW;
    let Ptot = P.shape[0].x * OHW;
    let sd = P.st[0];
    let sx = P.st[2];
    let p = pb + lp;
    let pin = p < p1;
    let pc = min(p, Ptot - 1u);
    let n = pc / OHW;
    let qq = pc - n * OHW;
    let oh = qq / OW;
    let ow = qq - oh * OW;
    let dpo = i32(n) * sd.x + i32(oh) * sd.z + i32(ow) * sd.w;
    let ih = vec4<i32>(i32(oh * P.sv.x)) + yr;
    let iw = vec4<i32>(i32(ow * P.sv.y)) + xr;
    let xin = (vec4<u32>(ih) < vec4<u32>(H)) & (vec4<u32>(iw) < vec4<u32>(W)) & rok & vec4<bool>(pin);
    let xo = select(vec4<i32>(0), xro + vec4<i32>(i32(n) * sx.x) + ih * sx.z + iw * sx.w, xin);
    let dok = kok & vec4<bool>(pin);
    let dof = select(vec4<i32>(0), dko + vec4<i32>(dpo), dok);
    va = vec4<f32>(select(0.0, f32(dys[u32(dof.x)]), dok.x), select(0.0, f32(dys[u32(dof.y)]), dok.y),
                   select(0.0, f32(dys[u32(dof.z)]), dok.z), select(0.0, f32(dys[u32(dof.w)]), dok.w));
    vb = vec4<f32>(select(0.0, f32(xs[u32(xo.x)]), xin.x), select(0.0, f32(xs[u32(xo.y)]), xin.y),
                   select(0.0, f32(xs[u32(xo.z)]), xin.z), select(0.0, f32(xs[u32(xo.w)]), xin.w));
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) t: u32) {
    let wg = wid.y * P.gx + wid.x;
    if wg >= P.n / 256u { return; }
    let KH = P.shape[1].z;
    let KW = P.shape[1].w;
    let ph = i32(P.sv.z);
    let pw = i32(P.sv.w);
    let Kg = P.aux.z;
    let Cg = P.aux.w;
    let K = u32(P.st[1].x);
    let L = u32(P.st[1].y);
    let tk = u32(P.st[1].z);
    let tr = u32(P.st[1].w);
    let G = u32(P.st[3].x);
    let R = Cg * KH * KW;
    let Ptot = P.shape[0].x * P.shape[1].x * P.shape[1].y;
    let sd = P.st[0];
    let sx = P.st[2];

    let itr = wg % tr;
    var q = wg / tr;
    let itk = q % tk;
    q = q / tk;
    let g = q % G;
    let s = q / G;
    let k0 = itk * 64u;
    let r0 = itr * 64u;
    let p0 = s * L;
    let p1 = min(p0 + L, Ptot);

    // loader: pixel lp of the step; rows 4 lr + j of both tiles
    lp = t % 16u;
    lr = t / 16u;
    for (var j = 0u; j < 4u; j++) {
        let k = k0 + 4u * lr + j;
        kok[j] = k < Kg;
        dko[j] = i32(P.off.x) + i32(g * Kg + min(k, Kg - 1u)) * sd.y;
        let r = min(r0 + 4u * lr + j, R - 1u);
        rok[j] = r0 + 4u * lr + j < R;
        let ci = r / (KH * KW);
        let rem = r - ci * KH * KW;
        let kh = rem / KW;
        let kw = rem - kh * KW;
        xro[j] = i32(P.off.y) + i32(g * Cg + ci) * sx.y;
        yr[j] = i32(kh * P.aux.x) - ph;
        xr[j] = i32(kw * P.aux.y) - pw;
    }
    let tx = t % 16u;
    let ty = t / 16u;
    var c0 = vec4<f32>(0.0);
    var c1 = vec4<f32>(0.0);
    var c2 = vec4<f32>(0.0);
    var c3 = vec4<f32>(0.0);
    fetch(p0, p1);
    for (var pb = p0; pb < p1; pb += 16u) {
        As[lp * 16u + lr] = va;
        Bs[lp * 16u + lr] = vb;
        workgroupBarrier();
        if pb + 16u < p1 { fetch(pb + 16u, p1); }   // in flight during the products
        for (var pp = 0u; pp < 16u; pp++) {
            let a = As[pp * 16u + ty];
            let b = Bs[pp * 16u + tx];
            c0 = fma(vec4<f32>(a.x), b, c0);
            c1 = fma(vec4<f32>(a.y), b, c1);
            c2 = fma(vec4<f32>(a.z), b, c2);
            c3 = fma(vec4<f32>(a.w), b, c3);
        }
        workgroupBarrier();
    }
    let ob = (s * K + g * Kg) * R;
    put(ob, k0 + 4u * ty, r0 + 4u * tx, Kg, R, c0);
    put(ob, k0 + 4u * ty + 1u, r0 + 4u * tx, Kg, R, c1);
    put(ob, k0 + 4u * ty + 2u, r0 + 4u * tx, Kg, R, c2);
    put(ob, k0 + 4u * ty + 3u, r0 + 4u * tx, Kg, R, c3);
}

fn put(ob: u32, k: u32, r: u32, Kg: u32, R: u32, v: vec4<f32>) {
    if k >= Kg { return; }
    for (var j = 0u; j < 4u; j++) {
        if r + j < R { out[ob + k * R + r + j] = SO(v[j]); }
    }
}
