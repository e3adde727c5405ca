// conv.wgsl - conv2d as an implicit GEMM (src/tensor/conv.c): per group g, out[ch, p] =
// sum_r W[ch, r] * X[r, p] + bias[ch], rows ch = the group's output channels, columns p = output
// pixels (n, oh, ow) flattened, inner r = (c, kh, kw) of the group's input channels and the
// filter window.  X is never materialised: each K step gathers its BK x 128 slice of patches
// straight from the input through its strides (zero outside the padded border), so the
// input may be any view.  W is the contiguous weight [K, Cg, KH, KW] (row ch at ch * R).
//
// Tile: 64 channels x TN = 128 pixels per 256-lane workgroup, K steps of 8, two shared-memory
// buffers (the next step is loaded into registers while the current one is multiplied).  With
// QN = TN / 4, lane (tx, ty) = (t % 16, t / 16) owns channels 4 ty .. 4 ty + 3 and pixels
// tx + 16 h + QN i (h < 2, i < 4): a pixel vec4 in shared memory holds pixels q, q + QN,
// q + 2 QN, q + 3 QN, so neighbouring lanes load and store neighbouring pixels (coalesced in
// NCHW).  The step is unrolled through calls with constant rows (every shared read has a
// constant first index).
//
// H200 (wgc bench nn, N32 C64 K64 128^2 3x3 pad 1 f32; cuDNN f32 36.9 TFLOP/s in the same runs):
// 21.7-22.0 TFLOP/s (0.59-0.60 of cuDNN; 109 registers, two workgroups per SM).
//
// Params: shape = (P pixels, OH*OW, OW, R, KH*KW, KW, H, W), sv = (stride h, w, dilation h, w),
// aux = (Kg, Cg, K, channel tiles), st[0] = input strides (n, c, h, w), st[1] = (pad h, pad w,
// pixel tiles, 0), off = (x, weight, bias) offsets.  MA = 1: bias.  MB, MC: the filter's KH, KW
// as constants (0: read KH*KW and KW from Params).  Workgroup w = (g * pixel tiles + pixel tile)
// * channel tiles + channel tile.

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> xs: array<SA>;
@group(0) @binding(2) var<storage, read> ws: array<SB>;
@group(0) @binding(3) var<storage, read> bs: array<SC>;

const BK: u32 = 8u;                                        // K step
const TN: u32 = 128u;                                      // pixels per tile
const QN: u32 = TN / 4u;                                   // pixel quads per tile
const HAS_BIAS: bool = MA == 1u;

var<workgroup> As: array<array<vec4<f32>, 17>, 2u * BK>;       // [buffer * BK + k][channel quad]
var<workgroup> Bs: array<array<vec4<f32>, QN + 1u>, 2u * BK>;  // [buffer * BK + k][pixel quad]

var<private> tx: u32;
var<private> ty: u32;
var<private> c00: vec4<f32>; var<private> c01: vec4<f32>;
var<private> c10: vec4<f32>; var<private> c11: vec4<f32>;
var<private> c20: vec4<f32>; var<private> c21: vec4<f32>;
var<private> c30: vec4<f32>; var<private> c31: vec4<f32>;

// the patch loader's four pixels: input base index, top-left input row and column
var<private> xb: vec4<i32>;
var<private> ih0: vec4<i32>;
var<private> iw0: vec4<i32>;

fn step(row: u32) {
    let a = As[row][ty];
    let b0 = Bs[row][tx];
    let b1 = Bs[row][tx + 16u];
    c00 = fma(vec4<f32>(a.x), b0, c00);
    c01 = fma(vec4<f32>(a.x), b1, c01);
    c10 = fma(vec4<f32>(a.y), b0, c10);
    c11 = fma(vec4<f32>(a.y), b1, c11);
    c20 = fma(vec4<f32>(a.z), b0, c20);
    c21 = fma(vec4<f32>(a.z), b1, c21);
    c30 = fma(vec4<f32>(a.w), b0, c30);
    c31 = fma(vec4<f32>(a.w), b1, c31);
}

fn tile(buf: u32) {
    let r = buf * BK;
    step(r); step(r + 1u); step(r + 2u); step(r + 3u);
    step(r + 4u); step(r + 5u); step(r + 6u); step(r + 7u);
}

// Four weights: channels ch .. ch + 3 of the group at inner index r (0 outside).
fn ldw(wbase: u32, ch: u32, r: u32) -> vec4<f32> {
    let R = P.shape[0].w;
    let Kg = P.aux.x;
    let ok = r < R;
    let i = wbase + ch * R + r;
    return vec4<f32>(select(0.0, f32(ws[select(0u, i, ok && ch < Kg)]), ok && ch < Kg),
                     select(0.0, f32(ws[select(0u, i + R, ok && ch + 1u < Kg)]), ok && ch + 1u < Kg),
                     select(0.0, f32(ws[select(0u, i + 2u * R, ok && ch + 2u < Kg)]), ok && ch + 2u < Kg),
                     select(0.0, f32(ws[select(0u, i + 3u * R, ok && ch + 3u < Kg)]), ok && ch + 3u < Kg));
}

// The loader's four pixels at inner index r (0 outside the image or past R).
fn ldx(r: u32) -> vec4<f32> {
    let R = P.shape[0].w;
    var KHW = P.shape[1].x;
    var KW = P.shape[1].y;
    if MB != 0u {
        KHW = MB * MC;
        KW = MC;
    }
    let H = P.shape[1].z;
    let W = P.shape[1].w;
    let rr = min(r, R - 1u);
    let c = rr / KHW;
    let rem = rr - c * KHW;
    let kh = rem / KW;
    let kw = rem - kh * KW;
    let dy = i32(kh * P.sv.z);
    let dx = i32(kw * P.sv.w);
    let st = P.st[0];
    let delta = i32(c) * st.y + dy * st.z + dx * st.w;
    let ih = ih0 + vec4<i32>(dy);
    let iw = iw0 + vec4<i32>(dx);
    // 0 <= ih < H and 0 <= iw < W as one unsigned compare each
    let ok = (vec4<u32>(ih) < vec4<u32>(H)) & (vec4<u32>(iw) < vec4<u32>(W)) & vec4<bool>(r < R);
    let idx = select(vec4<i32>(0), xb + vec4<i32>(delta), ok);
    return vec4<f32>(select(0.0, f32(xs[u32(idx.x)]), ok.x), select(0.0, f32(xs[u32(idx.y)]), ok.y),
                     select(0.0, f32(xs[u32(idx.z)]), ok.z), select(0.0, f32(xs[u32(idx.w)]), ok.w));
}

// Output index of channel 0 at the four pixels pix: n K OHW + q for p = n OHW + q (one division
// per pixel, shared by the lane's channels).
fn obase(pix: vec4<u32>) -> vec4<u32> {
    let OHW = P.shape[0].y;
    let n = pix / vec4<u32>(OHW);
    return n * (P.aux.z * OHW) + (pix - n * OHW);
}

// Stores output channel ch's four pixels tx + 16 h + QN i (pixel indices in pix, output indices
// of channel 0 in ob) of the accumulator v.
fn st4(ch: u32, pix: vec4<u32>, ob: vec4<u32>, v: vec4<f32>) {
    let Ptot = P.shape[0].x;
    let oc = ch * P.shape[0].y;
    var bias = 0.0;
    if HAS_BIAS { bias = f32(bs[P.off.z + ch]); }
    for (var i = 0u; i < 4u; i++) {
        if pix[i] < Ptot {
            out[ob[i] + oc] = SO(v[i] + bias);
        }
    }
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) t: u32) {
    let g = wid.y * P.gx + wid.x;
    if g >= P.n / 256u { return; }
    let Ptot = P.shape[0].x;
    let OHW = P.shape[0].y;
    let OW = P.shape[0].z;
    let R = P.shape[0].w;
    let Kg = P.aux.x;
    let Cg = P.aux.y;
    let tiles_c = P.aux.w;
    let tiles_p = u32(P.st[1].z);
    let tc = g % tiles_c;
    let gp = g / tiles_c;
    let tp = gp % tiles_p;
    let grp = gp / tiles_p;
    let ch0 = tc * 64u;
    let p0 = tp * TN;
    let wbase = P.off.y + grp * Kg * R;
    tx = t % 16u;
    ty = t / 16u;

    // patch loader: slot t = (k row t / QN, pixel quad t % QN)
    let kr = t / QN;
    let qd = t % QN;
    let st = P.st[0];
    for (var i = 0u; i < 4u; i++) {
        let p = p0 + qd + QN * i;
        let pc = min(p, Ptot - 1u);
        let n = pc / OHW;
        let q = pc - n * OHW;
        let oh = q / OW;
        let ow = q - oh * OW;
        let y0 = i32(oh * P.sv.x) - P.st[1].x;
        let x0 = i32(ow * P.sv.y) - P.st[1].y;
        xb[i] = i32(P.off.x) + i32(n) * st.x + i32(grp * Cg) * st.y + y0 * st.z + x0 * st.w;
        ih0[i] = select(-0x40000000, y0, p < Ptot);
        iw0[i] = x0;
    }
    // weight loader: lanes t < 16 BK, slot = (k t % BK, channel quad t / BK)
    let wl = t < 16u * BK;
    let wk = t % BK;
    let wq = (t / BK) % 16u;
    let wch = ch0 + 4u * wq;

    let nkt = (R + BK - 1u) / BK;
    var pa = vec4<f32>(0.0);
    if wl { pa = ldw(wbase, wch, wk); }
    var pb = ldx(kr);
    if wl { As[wk][wq] = pa; }
    Bs[kr][qd] = pb;
    workgroupBarrier();

    var kt = 0u;
    loop {
        if kt >= nkt { break; }
        var k0 = (kt + 1u) * BK;
        var more = kt + 1u < nkt;
        if more {
            if wl { pa = ldw(wbase, wch, k0 + wk); }
            pb = ldx(k0 + kr);
        }
        tile(0u);
        if more {
            if wl { As[BK + wk][wq] = pa; }
            Bs[BK + kr][qd] = pb;
        }
        workgroupBarrier();
        kt = kt + 1u;
        if kt >= nkt { break; }
        k0 = (kt + 1u) * BK;
        more = kt + 1u < nkt;
        if more {
            if wl { pa = ldw(wbase, wch, k0 + wk); }
            pb = ldx(k0 + kr);
        }
        tile(1u);
        if more {
            if wl { As[wk][wq] = pa; }
            Bs[kr][qd] = pb;
        }
        workgroupBarrier();
        kt = kt + 1u;
    }

    let pq = p0 + tx + QN * vec4<u32>(0u, 1u, 2u, 3u);
    let ch = grp * Kg + ch0 + 4u * ty;
    let cl = ch0 + 4u * ty;
    let ob0 = obase(pq);
    let p16 = pq + vec4<u32>(16u);
    let ob16 = obase(p16);
    st4c(ch, cl, pq, ob0, c00);
    st4c(ch, cl, p16, ob16, c01);
    st4c(ch + 1u, cl + 1u, pq, ob0, c10);
    st4c(ch + 1u, cl + 1u, p16, ob16, c11);
    st4c(ch + 2u, cl + 2u, pq, ob0, c20);
    st4c(ch + 2u, cl + 2u, p16, ob16, c21);
    st4c(ch + 3u, cl + 3u, pq, ob0, c30);
    st4c(ch + 3u, cl + 3u, p16, ob16, c31);
}

// st4 for output channel ch (global) that is channel cl of its group.
fn st4c(ch: u32, cl: u32, pix: vec4<u32>, ob: vec4<u32>, v: vec4<f32>) {
    if cl >= P.aux.x { return; }
    st4(ch, pix, ob, v);
}
