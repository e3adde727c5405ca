// winograd.wgsl - the three transforms of conv2d by Winograd's F(2x2, 3x3) (src/tensor/conv.c,
// WT_CONV_WINOGRAD: 3 x 3 filters, stride 1, dilation 1, one group).  The output is cut into
// 2 x 2 tiles; tile (ty, tx) of image n needs the 4 x 4 input patch d at rows 2 ty - pad_h ..
// + 3 and columns 2 tx - pad_w .. + 3 (zero outside the image), and
//     y = A^T [ (G g G^T) .* (B^T d B) ] A      (.* elementwise over the 16 positions xi)
// with B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1], G = [1 0 0; 1/2 1/2 1/2; 1/2 -1/2 1/2;
// 0 0 1], A^T = [1 1 1 0; 0 1 -1 -1].  Summed over the input channels c, the elementwise product
// becomes 16 independent GEMMs M[xi] = U[xi] . V[xi], [K x C] . [C x T] (T tiles), which
// conv.c runs through wt_matmul_ex; this file computes U, V and y from M.  One invocation per
// item, items consecutive along the tiles so that V and M are read and written coalesced.
// Layouts (f32 whatever the tensors' dtype): U [16][K][C], V [16][C][T], M [16][K][T], the tile
// index t' = n TT + t of the chunk's image n and its tile t = ty TW + tx (TT = TH TW tiles per
// image, TH = ceil(OH / 2), TW = ceil(OW / 2)).  Every index is in range: the item index is
// below P.n (the product of the ranges of its parts), input reads are the select's 0 or inside
// the image, output writes only where 2 ty + a < OH and 2 tx + b < OW.
//
// H200 (wgc bench nn, N32 C64 K64 128^2 pad 1 f32; cuDNN f32 36.9 TFLOP/s in the same runs):
// 256 MiB chunks (16 images), the GEMMs on matmul3's tile64x64v4w (conv.c's choice for K <= 64,
// and the tuner's) 29.5-30.3 TFLOP/s of the direct sum's flop (0.80 of cuDNN; the implicit GEMM
// conv.wgsl 21.7-21.9).
//
// OP 0, filter: item i = k C + c (P.n = K C); xs = the contiguous weight [K, C, 3, 3] from
//   P.off.x; shape[0] = (K, C); writes U.
// OP 1, input: item i = (n C + c) TT + t (P.n = images C TT); xs = x through its strides st[0]
//   = (n, c, h, w) from P.off.x (the chunk's first image); st[1] = (pad h, pad w);
//   shape[0] = (C, TT, TW, T), shape[1] = (H, W); writes V.
// OP 2, output: item i = (n K + k) TT + t (P.n = images K TT); xs = M, bs = bias (MA = 1);
//   shape[0] = (K, TT, TW, T), shape[1] = (OH, OW); out element (n K + k) OH OW + oh OW + ow
//   from P.aux.x (the chunk's first output element); writes y.

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> xs: array<SA>;
@group(0) @binding(2) var<storage, read> bs: array<SB>;

const HAS_BIAS: bool = MA == 1u;
const STAGE: u32 = OP;

// One row (or column) of B^T d B: (a - c, b + c, c - b, b - e).
fn bt4(v: vec4<f32>) -> vec4<f32> {
    return vec4<f32>(v.x - v.z, v.y + v.z, v.z - v.y, v.y - v.w);
}

// One row (or column) of G g G^T: (a, (a + b + c) / 2, (a - b + c) / 2, c).
fn g3(a: f32, b: f32, c: f32) -> vec4<f32> {
    let h = 0.5 * (a + c);
    return vec4<f32>(a, h + 0.5 * b, h - 0.5 * b, c);
}

// One row (or column) of A^T m A: (a + b + c, b - c - e).
fn at4(v: vec4<f32>) -> vec2<f32> {
    return vec2<f32>(v.x + v.y + v.z, v.y - v.z - v.w);
}

fn tr_filter(i: u32) {
    let KC = P.n;
    let o = i;
    let b = P.off.x + 9u * i;
    var g: array<f32, 9>;
    for (var j = 0u; j < 9u; j++) {
        g[j] = f32(xs[b + j]);
    }
    // rows of G g (4 x 3), then each row through G^T
    let c0 = g3(g[0], g[3], g[6]);
    let c1 = g3(g[1], g[4], g[7]);
    let c2 = g3(g[2], g[5], g[8]);
    for (var r = 0u; r < 4u; r++) {
        let u = g3(c0[r], c1[r], c2[r]);
        for (var s = 0u; s < 4u; s++) {
            out[(4u * r + s) * KC + o] = SO(u[s]);
        }
    }
}

// Stores the 16 values B^T d B of the 4 x 4 patch d (rows d0 .. d3) at V[xi][o] (plane stride CT).
fn st_v(d0: vec4<f32>, d1: vec4<f32>, d2: vec4<f32>, d3: vec4<f32>, CT: u32, o: u32) {
    // B^T d: columns; then each row through B
    let e0 = bt4(vec4<f32>(d0.x, d1.x, d2.x, d3.x));
    let e1 = bt4(vec4<f32>(d0.y, d1.y, d2.y, d3.y));
    let e2 = bt4(vec4<f32>(d0.z, d1.z, d2.z, d3.z));
    let e3 = bt4(vec4<f32>(d0.w, d1.w, d2.w, d3.w));
    for (var r = 0u; r < 4u; r++) {
        let v = bt4(vec4<f32>(e0[r], e1[r], e2[r], e3[r]));
        out[(4u * r) * CT + o] = SO(v.x);
        out[(4u * r + 1u) * CT + o] = SO(v.y);
        out[(4u * r + 2u) * CT + o] = SO(v.z);
        out[(4u * r + 3u) * CT + o] = SO(v.w);
    }
}

// Four input elements of one row: columns x .. x + 3 from the row's element rb (column 0), zero
// outside the image or when the row is outside (rok).
fn ld4(rb: i32, x: i32, rok: bool) -> vec4<f32> {
    let sw = P.st[0].w;
    let ok = (vec4<u32>(vec4<i32>(x) + vec4<i32>(0, 1, 2, 3)) < vec4<u32>(P.shape[1].y)) & vec4<bool>(rok);
    let idx = select(vec4<i32>(0), vec4<i32>(rb + x * sw) + vec4<i32>(0, 1, 2, 3) * sw, ok);
    return vec4<f32>(select(0.0, f32(xs[u32(idx.x)]), ok.x), select(0.0, f32(xs[u32(idx.y)]), ok.y),
                     select(0.0, f32(xs[u32(idx.z)]), ok.z), select(0.0, f32(xs[u32(idx.w)]), ok.w));
}

fn tr_input(i: u32) {
    let C = P.shape[0].x;
    let TT = P.shape[0].y;
    let TW = P.shape[0].z;
    let T = P.shape[0].w;
    let H = P.shape[1].x;
    let st = P.st[0];
    let t = i % TT;                    // items per (image, channel): TT
    let nc = i / TT;
    let c = nc % C;
    let n = nc / C;
    let ty = t / TW;
    let tx = t - ty * TW;
    let o = c * T + n * TT + ty * TW + tx;
    let y0 = i32(2u * ty) - P.st[1].x;
    let x0 = i32(2u * tx) - P.st[1].y;
    let rb = i32(P.off.x) + i32(n) * st.x + i32(c) * st.y + y0 * st.z;
    let d0 = ld4(rb, x0, u32(y0) < H);
    let d1 = ld4(rb + st.z, x0, u32(y0 + 1) < H);
    let d2 = ld4(rb + 2 * st.z, x0, u32(y0 + 2) < H);
    let d3 = ld4(rb + 3 * st.z, x0, u32(y0 + 3) < H);
    let CT = C * T;
    st_v(d0, d1, d2, d3, CT, o);
}

// A^T m A of the tile at M[xi][o] (plane stride KT): (y00, y01, y10, y11).
fn ld_y(KT: u32, o: u32) -> vec4<f32> {
    var m: array<vec4<f32>, 4>;
    for (var r = 0u; r < 4u; r++) {
        m[r] = vec4<f32>(f32(xs[(4u * r) * KT + o]), f32(xs[(4u * r + 1u) * KT + o]),
                         f32(xs[(4u * r + 2u) * KT + o]), f32(xs[(4u * r + 3u) * KT + o]));
    }
    // A^T m: 2 rows of 4, then each row through A
    let a0 = at4(vec4<f32>(m[0].x, m[1].x, m[2].x, m[3].x));
    let a1 = at4(vec4<f32>(m[0].y, m[1].y, m[2].y, m[3].y));
    let a2 = at4(vec4<f32>(m[0].z, m[1].z, m[2].z, m[3].z));
    let a3 = at4(vec4<f32>(m[0].w, m[1].w, m[2].w, m[3].w));
    let y0 = at4(vec4<f32>(a0.x, a1.x, a2.x, a3.x));
    let y1 = at4(vec4<f32>(a0.y, a1.y, a2.y, a3.y));
    return vec4<f32>(y0, y1);
}

fn tr_output(i: u32) {
    let K = P.shape[0].x;
    let TT = P.shape[0].y;
    let TW = P.shape[0].z;
    let T = P.shape[0].w;
    let OH = P.shape[1].x;
    let OW = P.shape[1].y;
    let t = i % TT;
    let nk = i / TT;
    let k = nk % K;
    let n = nk / K;
    let ty = t / TW;
    let tx = t - ty * TW;
    let o = k * T + n * TT + ty * TW + tx;
    let KT = K * T;
    var bias = 0.0;
    if HAS_BIAS { bias = f32(bs[P.off.z + k]); }
    let y = ld_y(KT, o) + vec4<f32>(bias);
    let oy = 2u * ty;
    let ox = 2u * tx;
    let ob = P.aux.x + nk * (OH * OW) + oy * OW + ox;
    let two = oy + 1u < OH;
    out[ob] = SO(y.x);
    if two { out[ob + OW] = SO(y.z); }
    if ox + 1u < OW {
        out[ob + 1u] = SO(y.y);
        if two { out[ob + OW + 1u] = SO(y.w); }
    }
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = elem_id(gid);
    if i >= P.n { return; }
    if STAGE == 0u {
        tr_filter(i);
    } else if STAGE == 1u {
        tr_input(i);
    } else {
        tr_output(i);
    }
}
