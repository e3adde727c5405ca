// flash3.wgsl - flash attention for head dims up to 128, the default of src/tensor/attention.c on
// devices with more than 32 KiB of workgroup memory (flash2.wgsl elsewhere; attention.c's table
// FL names its configurations): out = softmax(scale
// q k^T [causal]) v for one block of BR query rows of one (batch, head) per workgroup, the keys
// streamed in tiles of BC = 64 with an online softmax.  Lanes form NG groups of 16 (16 NH with
// SPL); group g owns rows 4 g .. 4 g + 3 (BR = 4 NG, 32 with 8 groups).
// Without SPL lane c of a group owns keys c, c + 16, c + 32, c + 48 of a tile (a 4 x 4 block of
// S) and output column quads c and c + 16 (a 4 x 8 block of O), all in registers; with SPL (the
// default at D > 64) a workgroup has 256 lanes and lane (c, half h) owns keys 32 h + c and
// 32 h + c + 16 (a 4 x 2 block of S) and output quad 16 h + c (4 x 4 of O).  A warp holds 2
// groups x 16 columns, or with WQ (the default at D > 64 with SG) 4 groups x 8 columns: per 4
// head dims its S step then reads 8 distinct K quads and 4 q quads (6 shared wavefronts per 32
// FMAs against 8; the O step 8 per 64 against 12).  With SD (MC bit 4, with SPL and PT: set
// with SG) the two halves split each K chunk's head dims instead of the
// keys: lane (c, half h) computes a 4 x 4 block of S (keys c + 16 e) over half h of every chunk
// (8 shared wavefronts per 64 FMAs against 6 per 32); half 1 then stores its partial block in P's
// places (key-major: 4 quad stores per lane), and after one more barrier (9
// per tile) half 0 adds it, masks, and alone writes P and its sum shares (half 1's maxima enter
// as -inf, its shares stay 0).  With OK (MC bit 6, SPL at DP 128: set
// with SG) the halves split the O phase over keys instead of the output quads: lane (c,
// half h) owns output quads c and c + 16 of its 4 rows (a 4 x 8 block) over keys 16 h .. 16 h +
// 15 of every 32-key V chunk (one O step: 4 P quads + 8 V quads per 128 FMAs, or with PT per key
// 1 + 2 per 32, against 8 per 64), and at the end each half hands the other its partial block of
// the quad the other stores (through kv, one more barrier per workgroup).  Every loop over head
// dims or keys is unrolled by hand through calls with constant arguments (s_chunk / s_step,
// o_chunk / o_step) and the shared arrays are two-dimensional, so that each shared read is
// [lane-invariant][constant]: a load at a hoisted base plus an immediate offset (wgc clamps every
// dynamic index, and the driver folds a clamp only where its operand becomes constant).  Per tile:
//   1. S = q k^T: K arrives in chunks of KC head dims, row-major (a key per 17-quad row: 16-byte
//      conflict-free stores, and the keys a lane reads at once, 16 rows apart, hit different
//      banks); the q tile (scaled by scale log2(e), so that exp2 is the exponential) stays in
//      shared memory, each group's rows padded by one quad;
//   2. mask only where the tile crosses the causal diagonal or the last key (a uniform test;
//      tiles wholly above the diagonal are never visited); the lanes' row maxima meet in their
//      own buffer (one barrier; with SG a warp's 8 columns first meet by three subgroup
//      shuffles, and each lane reads 4 quads of it instead of 32), the running output and each
//      lane's share of the row sums (summed across the group once, at the end) are rescaled by
//      exp2(m - m'), and P = exp2(S - m') goes to shared memory as quads of consecutive keys
//      (scalar stores), or with PT key-major, a quad of the group's 4 rows per key (two 16-byte
//      stores per lane);
//   3. O += P V: V arrives in chunks of VC keys, row-major (a key per one or two 17-quad rows);
//      with PT one key per step (a P quad and a V quad: 16 FMAs; with OK a P quad and two V
//      quads: 32 FMAs).
// A K or V chunk is either fetched from global memory into registers (f0 ..) one chunk ahead,
// while the current chunk is computed, or (DS: the chunks of S, DO: those of O) fetched right
// before its store, between the same two barriers: fewer live registers, the latency hidden by
// the other warps.  V chunk 0 is stored right after the maxima's barrier, which already proves
// that K is no longer read: 8 barriers per tile with the default 64-dim K chunks (SD 9).  Where q, k and
// v rows are quad-aligned with unit stride along D (MC bit 1, attention.c's flash3_v4) every fetch
// is one 16-byte load, else four element loads; with EX (MC bit 2: also D = DP, Lk % 64 = 0 and
// Lq % BR = 0, attention.c's flash3_exact) no load or store needs a guard.  Workgroups go
// heaviest causal block first across all heads (longest first).  attention.c compiles this file
// without index clamps: every shared index is in range by construction, every global access is
// guarded (or in range by EX).
// Specialisation: MA = log2(DP / 16), DP = the head dim rounded up to a power of two, 16..128
// (zero-padded); MC bit 0 causal (aligned to the end, as flash2.wgsl), bit 1 16-byte loads, bit 2
// EX, bit 3 SG (with WQ: the row maxima and sums of a warp's 8 columns met by subgroup shuffles,
// flash_sg.wgsl, which src/tensor/kernel.c appends with `enable subgroups;`, else the stand-ins
// of flash_nosg.wgsl; attention.c's flash3_sg: subgroups of 8+ lanes), bit 4 SD, bit 6 OK
// (above); MB = mode bits: bit 3 NG 4 (else 8), bit 4 DS, bit 5 DO, bit 6 SPL, bit 0 WQ (with
// SPL), bit 7 PT (with SPL); bit 1 (64-dim K chunks, the only size) is set in every mode
// number.  attention.c's configurations: mode 2 (D <= 64), 195 = 1 + 2 + 64 + 128 with SG, SD and OK (D <= 128 with
// subgroups: H200, causal B1 H32 S4096 D128, f32 29.83 TFLOP/s, f16 28.58), 195 without them
// (f32 without subgroups: 25.97), 114 = 2 + 16 + 32 + 64 (f16 without subgroups: 24.67), and for
// tests 203 = 195 + NG 4 (the D 128 code in 31 KiB, so that lavapipe runs it).
// Workgroup memory 16 (NG (4 DP / 4 + 1) + 64 17 + NG (4 16 + 1) + 4 NG 4 NH) bytes
// (attention.c's flash3_smem): 46336 for D 128 in mode 195, 44288 in mode 2 (NVIDIA's Vulkan
// limit is 48 KiB), 32000 for D 32 in mode 2.
// Registers (the driver's pipeline statistics on the H200, no spills): 170 per lane in mode 195
// with SG, SD and OK (f16 160), so one 256-lane workgroup per multiprocessor.
// Inputs, strides and parameters as flash2.wgsl; P.shape[1].z = query blocks of BR rows.

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> qb: array<vec4<SA>>;
@group(0) @binding(2) var<storage, read> kb: array<vec4<SB>>;
@group(0) @binding(3) var<storage, read> vb: array<vec4<SC>>;

const CAUSAL: bool = (MC & 1u) != 0u;
const V4: bool = (MC & 2u) != 0u;             // q, k, v rows quad-aligned with unit dim stride
const EX: bool = (MC & 4u) != 0u;             // and D = DP, Lk % 64 = 0, Lq % BR = 0: no guards
const DP: u32 = 16u << MA;                    // padded head dim, 16 .. 128
const D4: u32 = DP / 4u;                      // its quads
const SPL: bool = (MB & 64u) != 0u;           // two lanes per (group, column): 2 keys and 1 O quad each
const NH: u32 = select(1u, 2u, SPL);          // lanes per (group, column)
const NG: u32 = select(8u, 4u, (MB & 8u) != 0u);  // groups of 16 (16 NH) lanes
const WGS: u32 = 16u * NG * NH;               // lanes
const RPG: u32 = 4u;                          // rows per group
const BR: u32 = NG * RPG;                     // query rows per workgroup
const BC: u32 = 64u;                          // keys per tile
const NO4: u32 = max(D4 / 16u, 1u);           // output column quads per 16 lanes (1 or 2)
const OK: bool = (MC & 64u) != 0u && SPL && NO4 == 2u;  // O split over keys: quads c, c + 16 over half the keys
const NOB: bool = NO4 == 2u && (!SPL || OK);  // a lane's second output quad (ob0 ..)
const KC: u32 = min(DP, 64u);                 // head dims per K chunk
const NKC: u32 = DP / KC;                     // K chunks per tile (1 or 2)
const NS: u32 = KC * 16u;                     // quads of a chunk (K: KC x 16, V: VC x D4)
const VC: u32 = NS / D4;                      // keys per V chunk
const NVC: u32 = BC / VC;                     // V chunks per tile (1 or 2)
const VR: u32 = NO4;                          // kv rows per key of a V chunk
const KQ: u32 = KC / 4u;                      // head-dim quads per key of a K chunk
const NPF: u32 = NS / WGS;                    // quads of a chunk per lane (1 .. 8)
const KW: u32 = WGS / KQ;                     // keys a K chunk's slot i advances by
const VW: u32 = WGS / D4;                     // keys a V chunk's slot i advances by
const QG: u32 = RPG * D4 + 1u;                // quads per row group of the q tile (padded)
const PG: u32 = RPG * 16u + 1u;               // quads per row group of P (padded)
const LOG2E: f32 = 1.4426950408889634;
const DS: bool = (MB & 16u) != 0u;            // K chunks and V chunk 0 (the S phase) fetched at their store
const DO: bool = (MB & 32u) != 0u;            // V chunks past 0 and the next K chunk 0 (the O phase) too
const PT: bool = (MB & 128u) != 0u && SPL;    // P key-major (a quad of 4 rows per key), O steps of one key
const WQ: bool = (MB & 1u) != 0u && SPL;      // a warp: 4 groups x 8 columns (else 2 groups x 16 columns)
const SG: bool = (MC & 8u) != 0u && WQ;       // row maxima / sums of a warp's 8 columns met by subgroup shuffles
const SG2: u32 = select(0u, 16u, SG);         // SG: the mxs slots of lanes (0, half 1), (8, half 1)
const SG3: u32 = select(0u, 24u, SG);
const SD: bool = (MC & 16u) != 0u && SPL;    // S split over head dims: half h a 4 x 4 block over half of each chunk

var<workgroup> qs: array<array<vec4<f32>, QG>, NG>;  // [group][row i * D4 + head-dim quad]
var<workgroup> kv: array<array<vec4<f32>, 17>, 64>;  // K chunk [key][head-dim quad], V chunk [key * VR + half][quad]
var<workgroup> ps: array<array<vec4<f32>, PG>, NG>;  // P [group][row i * 16 + key quad] (PT: [group][key])
var<workgroup> mxs: array<array<vec4<f32>, 16u * NH>, NG>;  // lanes' row maxima, then partial sums

// per invocation: group, lane in the group, its output quad, the K / V chunk slot coordinates
var<private> lg: u32;
var<private> lc: u32;
var<private> lcv: u32;
var<private> lh: u32;                         // SPL: the lane's half (keys lk, lk + 16; quad lcv)
var<private> lk: u32;
var<private> lq: u32;                         // SPL: lcv's kv row offset and column in a V chunk
var<private> lm: u32;
var<private> lhd: u32;                        // SD: the lane's first head-dim quad of a K chunk (lh KQ / 2)
var<private> kj: u32;                         // K slot i: key kj + KW i, head-dim quad kd
var<private> kd: u32;
var<private> vj: u32;                         // V slot i: key vj + VW i, quad ve
var<private> ve: u32;
var<private> kb0: i32;                        // element index of K[b, hk, 0, 0] and of V's
var<private> vb0: i32;
// the next chunk, fetched one chunk ahead (slots 0 .. NPF - 1)
var<private> f0: vec4<f32>; var<private> f1: vec4<f32>; var<private> f2: vec4<f32>; var<private> f3: vec4<f32>;
var<private> f4: vec4<f32>; var<private> f5: vec4<f32>; var<private> f6: vec4<f32>; var<private> f7: vec4<f32>;
// S (rows 0 .. RPG - 1 of the group, keys 4 lc ..), O (the same rows, quads lcv and lc + 16)
var<private> s0: vec4<f32>; var<private> s1: vec4<f32>; var<private> s2: vec4<f32>; var<private> s3: vec4<f32>;
// SPL: S rows 0 .. 3, keys lk and lk + 16
var<private> t0: vec2<f32>; var<private> t1: vec2<f32>; var<private> t2: vec2<f32>; var<private> t3: vec2<f32>;
var<private> oa0: vec4<f32>; var<private> oa1: vec4<f32>; var<private> oa2: vec4<f32>; var<private> oa3: vec4<f32>;
var<private> ob0: vec4<f32>; var<private> ob1: vec4<f32>; var<private> ob2: vec4<f32>; var<private> ob3: vec4<f32>;

fn neg_inf() -> f32 {
    return bitcast<f32>(0xff800000u | P.pad0);
}

fn hmax(x: vec4<f32>) -> f32 {
    return max(max(x.x, x.y), max(x.z, x.w));
}

fn hsum(x: vec4<f32>) -> f32 {
    return (x.x + x.y) + (x.z + x.w);
}

fn hmax2(x: vec2<f32>) -> f32 { return max(x.x, x.y); }
fn hsum2(x: vec2<f32>) -> f32 { return x.x + x.y; }

// s + a.x x + a.y y + a.z z + a.w w: one row of an S or O block over four head dims or keys
fn dot4(s: vec4<f32>, a: vec4<f32>, x: vec4<f32>, y: vec4<f32>, z: vec4<f32>, w: vec4<f32>) -> vec4<f32> {
    return fma(vec4<f32>(a.w), w, fma(vec4<f32>(a.z), z, fma(vec4<f32>(a.y), y, fma(vec4<f32>(a.x), x, s))));
}

// the same for two keys
fn dot2(s: vec2<f32>, a: vec4<f32>, x: vec2<f32>, y: vec2<f32>, z: vec2<f32>, w: vec2<f32>) -> vec2<f32> {
    return fma(vec2<f32>(a.w), w, fma(vec2<f32>(a.z), z, fma(vec2<f32>(a.y), y, fma(vec2<f32>(a.x), x, s))));
}

// element i of q, k, v (the strided path: any layout, one element at a time)
fn eq(i: i32) -> f32 { return f32(qb[u32(i) >> 2u][u32(i) & 3u]); }
fn ek(i: i32) -> f32 { return f32(kb[u32(i) >> 2u][u32(i) & 3u]); }
fn ev(i: i32) -> f32 { return f32(vb[u32(i) >> 2u][u32(i) & 3u]); }

// head dims e .. e + 3 of key j of K (a: element index of (j, e)); zeros past Lk and D
fn ld_k(a: i32, j: u32, e: u32) -> vec4<f32> {
    let sw = P.st[2].w;
    let D = P.shape[1].x;
    var x = vec4<f32>(0.0);
    if EX {
        x = vec4<f32>(kb[u32(a) >> 2u]);
    } else if j < P.shape[0].w && e < D {
        if V4 {
            x = vec4<f32>(kb[u32(a) >> 2u]);
        } else {
            x.x = ek(a);
            if e + 1u < D { x.y = ek(a + sw); }
            if e + 2u < D { x.z = ek(a + 2 * sw); }
            if e + 3u < D { x.w = ek(a + 3 * sw); }
        }
    }
    return x;
}

// the same for V
fn ld_v(a: i32, j: u32, e: u32) -> vec4<f32> {
    let sw = P.st[4].w;
    let D = P.shape[1].x;
    var x = vec4<f32>(0.0);
    if EX {
        x = vec4<f32>(vb[u32(a) >> 2u]);
    } else if j < P.shape[0].w && e < D {
        if V4 {
            x = vec4<f32>(vb[u32(a) >> 2u]);
        } else {
            x.x = ev(a);
            if e + 1u < D { x.y = ev(a + sw); }
            if e + 2u < D { x.z = ev(a + 2 * sw); }
            if e + 3u < D { x.w = ev(a + 3 * sw); }
        }
    }
    return x;
}

// fetch K chunk (keys k0 .., head dims dc ..) into f0 ..
fn fetch_k(k0: u32, dc: u32) {
    let sk = P.st[2];
    let e = dc + 4u * kd;
    let j = k0 + kj;
    let a = kb0 + i32(j) * sk.z + i32(e) * sk.w;
    let st = i32(KW) * sk.z;
    f0 = ld_k(a, j, e);
    if NPF > 1u { f1 = ld_k(a + st, j + KW, e); }
    if NPF > 2u {
        f2 = ld_k(a + 2 * st, j + 2u * KW, e);
        f3 = ld_k(a + 3 * st, j + 3u * KW, e);
    }
    if NPF > 4u {
        f4 = ld_k(a + 4 * st, j + 4u * KW, e);
        f5 = ld_k(a + 5 * st, j + 5u * KW, e);
        f6 = ld_k(a + 6 * st, j + 6u * KW, e);
        f7 = ld_k(a + 7 * st, j + 7u * KW, e);
    }
}

fn store_k() {
    kv[kj][kd] = f0;
    if NPF > 1u { kv[kj + KW][kd] = f1; }
    if NPF > 2u {
        kv[kj + 2u * KW][kd] = f2;
        kv[kj + 3u * KW][kd] = f3;
    }
    if NPF > 4u {
        kv[kj + 4u * KW][kd] = f4;
        kv[kj + 5u * KW][kd] = f5;
        kv[kj + 6u * KW][kd] = f6;
        kv[kj + 7u * KW][kd] = f7;
    }
}

// fetch V chunk (keys j0 ..) into f0 ..
fn fetch_v(j0: u32) {
    let sv = P.st[4];
    let j = j0 + vj;
    let e = 4u * ve;
    let a = vb0 + i32(j) * sv.z + i32(e) * sv.w;
    let st = i32(VW) * sv.z;
    f0 = ld_v(a, j, e);
    if NPF > 1u { f1 = ld_v(a + st, j + VW, e); }
    if NPF > 2u {
        f2 = ld_v(a + 2 * st, j + 2u * VW, e);
        f3 = ld_v(a + 3 * st, j + 3u * VW, e);
    }
    if NPF > 4u {
        f4 = ld_v(a + 4 * st, j + 4u * VW, e);
        f5 = ld_v(a + 5 * st, j + 5u * VW, e);
        f6 = ld_v(a + 6 * st, j + 6u * VW, e);
        f7 = ld_v(a + 7 * st, j + 7u * VW, e);
    }
}

// key j of the chunk, quad ve: row j VR + ve / 16, column ve % 16
fn sv_(i: u32, x: vec4<f32>) {
    kv[(vj + VW * i) * VR + ve / 16u][ve % 16u] = x;
}

fn store_v() {
    sv_(0u, f0);
    if NPF > 1u { sv_(1u, f1); }
    if NPF > 2u { sv_(2u, f2); sv_(3u, f3); }
    if NPF > 4u { sv_(4u, f4); sv_(5u, f5); sv_(6u, f6); sv_(7u, f7); }
}

// S += q k^T over head-dim quad dq of the q tile (a constant at every call): keys lc + 16 e of
// the K chunk, column dq % KQ (every shared read is [lane-invariant][constant])
fn s_step(dq: u32) {
    let d = dq % KQ;
    if SPL {
        let k0 = kv[lk][d];
        let k1 = kv[lk + 16u][d];
        let kx = vec2<f32>(k0.x, k1.x);
        let ky = vec2<f32>(k0.y, k1.y);
        let kz = vec2<f32>(k0.z, k1.z);
        let kw = vec2<f32>(k0.w, k1.w);
        t0 = dot2(t0, qs[lg][dq], kx, ky, kz, kw);
        t1 = dot2(t1, qs[lg][D4 + dq], kx, ky, kz, kw);
        t2 = dot2(t2, qs[lg][2u * D4 + dq], kx, ky, kz, kw);
        t3 = dot2(t3, qs[lg][3u * D4 + dq], kx, ky, kz, kw);
        return;
    }
    let k0 = kv[lc][d];
    let k1 = kv[lc + 16u][d];
    let k2 = kv[lc + 32u][d];
    let k3 = kv[lc + 48u][d];
    let kx = vec4<f32>(k0.x, k1.x, k2.x, k3.x);
    let ky = vec4<f32>(k0.y, k1.y, k2.y, k3.y);
    let kz = vec4<f32>(k0.z, k1.z, k2.z, k3.z);
    let kw = vec4<f32>(k0.w, k1.w, k2.w, k3.w);
    s0 = dot4(s0, qs[lg][dq], kx, ky, kz, kw);
    s1 = dot4(s1, qs[lg][D4 + dq], kx, ky, kz, kw);
    s2 = dot4(s2, qs[lg][2u * D4 + dq], kx, ky, kz, kw);
    s3 = dot4(s3, qs[lg][3u * D4 + dq], kx, ky, kz, kw);

}

// SD: S += q k^T over head-dim quad dq of the q tile, column d of the K chunk (dq = a constant +
// lhd, d = dq % KQ): keys lc + 16 e, a 4 x 4 block, 8 shared reads per 64 FMAs
fn s_sd(dq: u32, d: u32) {
    let k0 = kv[lc][d];
    let k1 = kv[lc + 16u][d];
    let k2 = kv[lc + 32u][d];
    let k3 = kv[lc + 48u][d];
    let kx = vec4<f32>(k0.x, k1.x, k2.x, k3.x);
    let ky = vec4<f32>(k0.y, k1.y, k2.y, k3.y);
    let kz = vec4<f32>(k0.z, k1.z, k2.z, k3.z);
    let kw = vec4<f32>(k0.w, k1.w, k2.w, k3.w);
    s0 = dot4(s0, qs[lg][dq], kx, ky, kz, kw);
    s1 = dot4(s1, qs[lg][D4 + dq], kx, ky, kz, kw);
    s2 = dot4(s2, qs[lg][2u * D4 + dq], kx, ky, kz, kw);
    s3 = dot4(s3, qs[lg][3u * D4 + dq], kx, ky, kz, kw);
}

// the whole K chunk ch (a constant); SD: the lane's half of its head dims
fn s_chunk(ch: u32) {
    if SD {
        let p = ch * KQ + lhd;
        s_sd(p, lhd); s_sd(p + 1u, lhd + 1u);
        if KQ >= 8u { s_sd(p + 2u, lhd + 2u); s_sd(p + 3u, lhd + 3u); }
        if KQ >= 16u {
            s_sd(p + 4u, lhd + 4u); s_sd(p + 5u, lhd + 5u); s_sd(p + 6u, lhd + 6u); s_sd(p + 7u, lhd + 7u);
        }
        return;
    }
    let q = ch * KQ;
    s_step(q); s_step(q + 1u); s_step(q + 2u); s_step(q + 3u);
    if KC >= 32u { s_step(q + 4u); s_step(q + 5u); s_step(q + 6u); s_step(q + 7u); }
    if KC == 64u {
        s_step(q + 8u); s_step(q + 9u); s_step(q + 10u); s_step(q + 11u);
        s_step(q + 12u); s_step(q + 13u); s_step(q + 14u); s_step(q + 15u);
    }
}

// PT: O += P V over key j of the tile (P's quad j: rows 0 .. 3), V chunk row r (constants)
fn o_key(j: u32, r: u32) {
    let p = ps[lg][j];
    let x = kv[r + lq][lm];
    oa0 = fma(vec4<f32>(p.x), x, oa0);
    oa1 = fma(vec4<f32>(p.y), x, oa1);
    oa2 = fma(vec4<f32>(p.z), x, oa2);
    oa3 = fma(vec4<f32>(p.w), x, oa3);
    if OK {
        let y = kv[r + 1u][lc];
        ob0 = fma(vec4<f32>(p.x), y, ob0);
        ob1 = fma(vec4<f32>(p.y), y, ob1);
        ob2 = fma(vec4<f32>(p.z), y, ob2);
        ob3 = fma(vec4<f32>(p.w), y, ob3);
    }
}

// O += P V over key quad pj of P, V chunk rows from vr (constants at every call)
fn o_step(pj: u32, vr: u32) {
    if PT {
        o_key(4u * pj, vr);
        o_key(4u * pj + 1u, vr + VR);
        o_key(4u * pj + 2u, vr + 2u * VR);
        o_key(4u * pj + 3u, vr + 3u * VR);
        return;
    }
    let p0 = ps[lg][pj];
    let p1 = ps[lg][16u + pj];
    let p2 = ps[lg][32u + pj];
    let p3 = ps[lg][48u + pj];
    if SPL && !OK {
        let sx = kv[vr + lq][lm];
        let sy = kv[vr + VR + lq][lm];
        let sz = kv[vr + 2u * VR + lq][lm];
        let sw = kv[vr + 3u * VR + lq][lm];
        oa0 = dot4(oa0, p0, sx, sy, sz, sw);
        oa1 = dot4(oa1, p1, sx, sy, sz, sw);
        oa2 = dot4(oa2, p2, sx, sy, sz, sw);
        oa3 = dot4(oa3, p3, sx, sy, sz, sw);
        return;
    }
    let vx = kv[vr][lcv];
    let vy = kv[vr + VR][lcv];
    let vz = kv[vr + 2u * VR][lcv];
    let vw = kv[vr + 3u * VR][lcv];
    oa0 = dot4(oa0, p0, vx, vy, vz, vw);
    oa1 = dot4(oa1, p1, vx, vy, vz, vw);
    oa2 = dot4(oa2, p2, vx, vy, vz, vw);
    oa3 = dot4(oa3, p3, vx, vy, vz, vw);
    if NOB {
        let ux = kv[vr + 1u][lc];
        let uy = kv[vr + VR + 1u][lc];
        let uz = kv[vr + 2u * VR + 1u][lc];
        let uw = kv[vr + 3u * VR + 1u][lc];
        ob0 = dot4(ob0, p0, ux, uy, uz, uw);
        ob1 = dot4(ob1, p1, ux, uy, uz, uw);
        ob2 = dot4(ob2, p2, ux, uy, uz, uw);
        ob3 = dot4(ob3, p3, ux, uy, uz, uw);

    }
}

// the whole V chunk ch (a constant); OK: the lane's half of its keys
fn o_chunk(ch: u32) {
    let q = ch * (VC / 4u);
    if OK {
        let n = VC / 8u;                  // key quads per half: 4 (VC 32) or 2 (16)
        let b = q + n * lh;
        let r = 4u * VR * n * lh;
        o_step(b, r); o_step(b + 1u, r + 4u * VR);
        if n >= 4u { o_step(b + 2u, r + 8u * VR); o_step(b + 3u, r + 12u * VR); }
        if n >= 8u {
            o_step(b + 4u, r + 16u * VR); o_step(b + 5u, r + 20u * VR);
            o_step(b + 6u, r + 24u * VR); o_step(b + 7u, r + 28u * VR);
        }
        return;
    }
    o_step(q, 0u); o_step(q + 1u, 4u * VR); o_step(q + 2u, 8u * VR); o_step(q + 3u, 12u * VR);
    if VC >= 32u {
        o_step(q + 4u, 16u * VR); o_step(q + 5u, 20u * VR); o_step(q + 6u, 24u * VR); o_step(q + 7u, 28u * VR);
    }
    if VC >= 64u {
        o_step(q + 8u, 32u * VR); o_step(q + 9u, 36u * VR); o_step(q + 10u, 40u * VR); o_step(q + 11u, 44u * VR);
        o_step(q + 12u, 48u * VR); o_step(q + 13u, 52u * VR); o_step(q + 14u, 56u * VR); o_step(q + 15u, 60u * VR);
    }
}

// P of row i (keys lc + 16 e) into the row's quads of consecutive keys
fn put_p(i: u32, p: vec4<f32>) {
    let x = 16u * i + lc / 4u;
    let e = lc % 4u;
    ps[lg][x][e] = p.x;
    ps[lg][x + 4u][e] = p.y;
    ps[lg][x + 8u][e] = p.z;
    ps[lg][x + 12u][e] = p.w;
}

// keys at or below lim (a row's last visible key) keep their scores, the rest become -inf
fn msk(s: vec4<f32>, jv: vec4<i32>, lim: i32) -> vec4<f32> {
    return select(vec4<f32>(neg_inf()), s, jv <= vec4<i32>(lim));
}

fn msk2(s: vec2<f32>, jv: vec2<i32>, lim: i32) -> vec2<f32> {
    return select(vec2<f32>(neg_inf()), s, jv <= vec2<i32>(lim));
}

// SPL: P of row i (keys lk, lk + 16)
fn put_p2(i: u32, p: vec2<f32>) {
    let x = 16u * i + lc / 4u + 8u * lh;
    let e = lc % 4u;
    ps[lg][x][e] = p.x;
    ps[lg][x + 4u][e] = p.y;
}

fn store_row(i: u32, e4: u32, y: vec4<f32>, Lq: u32, D: u32, bh: u32) {
    if !EX && i >= Lq { return; }
    let ob = (bh * Lq + i) * D + 4u * e4;
    for (var e = 0u; e < 4u; e = e + 1u) {
        if EX || 4u * e4 + e < D { out[ob + e] = SO(y[e]); }
    }
}

@compute @workgroup_size(WGS)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let B = P.shape[0].x;
    let H = P.shape[0].y;
    let Lq = P.shape[0].z;
    let Lk = P.shape[0].w;
    let D = P.shape[1].x;
    let G = P.shape[1].y;
    let nqb = P.shape[1].z;
    let scale = bitcast<f32>(P.sv.x) * LOG2E;
    let w = wid.y * P.gx + wid.x;
    let nbh = max(B * H, 1u);
    let live = w < nbh * nqb;             // uniform: the same for the whole workgroup
    let bh = w % nbh;                     // heaviest (causal) blocks of all heads first
    let qblk = nqb - 1u - min(w / nbh, nqb - 1u);
    let b = bh / max(H, 1u);
    let h = bh % max(H, 1u);
    let hk = h / G;
    let q0 = qblk * BR;
    lg = (lid / 16u) % NG;
    lc = lid % 16u;
    if WQ {
        lg = (lid / 8u) % 4u + 4u * ((lid / 64u) % (NG / 4u));
        lc = lid % 8u + 8u * ((lid / 32u) % 2u);
    }
    lh = lid / (16u * NG);
    lk = lc + 32u * lh;
    lcv = min(select(lc, lc + 16u * lh, SPL && !OK), D4 - 1u);
    lq = lcv / 16u;
    lhd = lh * (KQ / 2u);
    lm = lcv % 16u;
    kj = lid / KQ;
    kd = lid % KQ;
    vj = lid / D4;
    ve = lid % D4;
    let shift = i32(Lk) - i32(Lq);
    kb0 = i32(P.off[1]) + i32(b) * P.st[2].x + i32(hk) * P.st[2].y;
    vb0 = i32(P.off[2]) + i32(b) * P.st[4].x + i32(hk) * P.st[4].y;

    // the q tile, scaled, zero-padded
    let sq = P.st[0];
    for (var u = lid; u < BR * D4; u = u + WGS) {
        let r = u / D4;
        let e = 4u * (u % D4);
        var x = vec4<f32>(0.0);
        if live && (EX || (q0 + r < Lq && e < D)) {
            let a = i32(P.off[0]) + i32(b) * sq.x + i32(h) * sq.y + i32(q0 + r) * sq.z + i32(e) * sq.w;
            if V4 {
                x = vec4<f32>(qb[u32(a) >> 2u]);
            } else {
                x.x = eq(a);
                if e + 1u < D { x.y = eq(a + sq.w); }
                if e + 2u < D { x.z = eq(a + 2 * sq.w); }
                if e + 3u < D { x.w = eq(a + 3 * sq.w); }
            }
        }
        qs[r / RPG][(r % RPG) * D4 + u % D4] = x * scale;
    }

    let ni = vec4<f32>(neg_inf());
    var ma = ni;                          // running max of the group's rows 0..3
    var la = vec4<f32>(0.0);              // this lane's share of the running sums

    // keys visible to this block: [0, kend)
    var kend = Lk;
    if CAUSAL { kend = u32(clamp(i32(q0 + BR) + shift, 0, i32(Lk))); }
    if !live { kend = 0u; }
    let ntiles = (kend + BC - 1u) / BC;
    if ntiles > 0u && !DO { fetch_k(0u, 0u); }

    for (var t = 0u; t < ntiles; t = t + 1u) {
        let k0 = t * BC;
        // 1. S = q k^T, K chunk by chunk; each chunk's fetch brings the next one (after the
        //    last, V chunk 0)
        s0 = vec4<f32>(0.0); s1 = vec4<f32>(0.0); s2 = vec4<f32>(0.0); s3 = vec4<f32>(0.0);
        t0 = vec2<f32>(0.0); t1 = vec2<f32>(0.0); t2 = vec2<f32>(0.0); t3 = vec2<f32>(0.0);
        workgroupBarrier();
        if DO { fetch_k(k0, 0u); }
        store_k();
        workgroupBarrier();
        if !DS { if NKC > 1u { fetch_k(k0, KC); } else { fetch_v(k0); } }
        s_chunk(0u);
        if NKC > 1u {
            workgroupBarrier();
            if DS { fetch_k(k0, KC); }
            store_k();
            workgroupBarrier();
            if !DS { fetch_v(k0); }
            s_chunk(1u);
        }
        // SD: half 1's partial S meets half 0's in P's places (P of the last tile is read: a
        //     barrier has passed since; with PT key-major: 4 quads per lane)
        if SD {
            if lh == 1u {
                ps[lg][lc] = vec4<f32>(s0.x, s1.x, s2.x, s3.x);
                ps[lg][lc + 16u] = vec4<f32>(s0.y, s1.y, s2.y, s3.y);
                ps[lg][lc + 32u] = vec4<f32>(s0.z, s1.z, s2.z, s3.z);
                ps[lg][lc + 48u] = vec4<f32>(s0.w, s1.w, s2.w, s3.w);
            }
            workgroupBarrier();
            if lh == 0u {
                let a = ps[lg][lc];
                let b = ps[lg][lc + 16u];
                let c = ps[lg][lc + 32u];
                let d = ps[lg][lc + 48u];
                s0 += vec4<f32>(a.x, b.x, c.x, d.x);
                s1 += vec4<f32>(a.y, b.y, c.y, d.y);
                s2 += vec4<f32>(a.z, b.z, c.z, d.z);
                s3 += vec4<f32>(a.w, b.w, c.w, d.w);
            }
        }
        // 2. mask (only tiles that cross the diagonal or the last key), row maxima, rescale, P
        if k0 + BC > Lk || (CAUSAL && i32(k0 + BC) - 1 > i32(q0) + shift) {
            let jv = vec4<i32>(i32(k0 + lc)) + vec4<i32>(0, 16, 32, 48);
            var lim = vec4<i32>(i32(Lk) - 1);
            if CAUSAL {
                let ib = vec4<i32>(i32(q0 + RPG * lg) + shift) + vec4<i32>(0, 1, 2, 3);
                lim = min(lim, ib);
            }
            let jw = vec2<i32>(i32(k0 + lk)) + vec2<i32>(0, 16);
            t0 = msk2(t0, jw, lim.x);
            t1 = msk2(t1, jw, lim.y);
            t2 = msk2(t2, jw, lim.z);
            t3 = msk2(t3, jw, lim.w);
            s0 = msk(s0, jv, lim.x);
            s1 = msk(s1, jv, lim.y);
            s2 = msk(s2, jv, lim.z);
            s3 = msk(s3, jv, lim.w);

        }
        var mxa = vec4<f32>(hmax(s0), hmax(s1), hmax(s2), hmax(s3));
        if SPL && !SD { mxa = vec4<f32>(hmax2(t0), hmax2(t1), hmax2(t2), hmax2(t3)); }
        if SD && lh == 1u { mxa = ni; }
        let me = lh * 16u + lc;
        if SG { mxa = sg_max(mxa); }
        mxs[lg][me] = mxa;

        workgroupBarrier();
        if SG {
            mxa = max(max(mxs[lg][0], mxs[lg][8]), max(mxs[lg][SG2], mxs[lg][SG3]));
        } else {
            for (var u = 0u; u < 16u * NH; u = u + 1u) {
                mxa = max(mxa, mxs[lg][u]);

            }
        }
        // every lane is past S: V chunk 0 may replace the last K chunk
        if DS { fetch_v(k0); }
        store_v();
        let mna = max(ma, mxa);
        let mua = select(mna, vec4<f32>(0.0), mna == ni);
        let aa = exp2(ma - mua);
        ma = mna;
        la = la * aa;
        oa0 = oa0 * aa.x; oa1 = oa1 * aa.y; oa2 = oa2 * aa.z; oa3 = oa3 * aa.w;
        if NOB { ob0 = ob0 * aa.x; ob1 = ob1 * aa.y; ob2 = ob2 * aa.z; ob3 = ob3 * aa.w; }
        if SPL && !SD {
            let p0 = exp2(t0 - vec2<f32>(mua.x));
            let p1 = exp2(t1 - vec2<f32>(mua.y));
            let p2 = exp2(t2 - vec2<f32>(mua.z));
            let p3 = exp2(t3 - vec2<f32>(mua.w));
            la = la + vec4<f32>(hsum2(p0), hsum2(p1), hsum2(p2), hsum2(p3));
            if PT {
                ps[lg][lk] = vec4<f32>(p0.x, p1.x, p2.x, p3.x);
                ps[lg][lk + 16u] = vec4<f32>(p0.y, p1.y, p2.y, p3.y);
            } else {
                put_p2(0u, p0);
                put_p2(1u, p1);
                put_p2(2u, p2);
                put_p2(3u, p3);
            }
        } else if !SD || lh == 0u {
            let p0 = exp2(s0 - vec4<f32>(mua.x));
            let p1 = exp2(s1 - vec4<f32>(mua.y));
            let p2 = exp2(s2 - vec4<f32>(mua.z));
            let p3 = exp2(s3 - vec4<f32>(mua.w));
            la = la + vec4<f32>(hsum(p0), hsum(p1), hsum(p2), hsum(p3));
            if PT {
                ps[lg][lc] = vec4<f32>(p0.x, p1.x, p2.x, p3.x);
                ps[lg][lc + 16u] = vec4<f32>(p0.y, p1.y, p2.y, p3.y);
                ps[lg][lc + 32u] = vec4<f32>(p0.z, p1.z, p2.z, p3.z);
                ps[lg][lc + 48u] = vec4<f32>(p0.w, p1.w, p2.w, p3.w);
            } else {
                put_p(0u, p0);
                put_p(1u, p1);
                put_p(2u, p2);
                put_p(3u, p3);
            }
        }

        // 3. O += P V, V chunk by chunk; the last chunk's fetch brings K chunk 0 of the next tile
        workgroupBarrier();
        let more = t + 1u < ntiles;
        if !DO { if NVC > 1u { fetch_v(k0 + VC); } else if more { fetch_k(k0 + BC, 0u); } }
        o_chunk(0u);
        if NVC > 1u {
            workgroupBarrier();
            if DO { fetch_v(k0 + VC); }
            store_v();
            workgroupBarrier();
            if !DO && more { fetch_k(k0 + BC, 0u); }
            o_chunk(1u);
        }
    }

    // OK: each half's partial O of the quad the other half stores goes to kv (half h's region:
    // rows 32 h ..), after a barrier (every lane is past its last V read)
    let xs = lg * 16u + lc;
    let xc = (xs % 4u) * 4u;
    if OK {
        workgroupBarrier();
        let xr = 32u * lh + xs / 4u;
        let h1 = lh == 1u;
        kv[xr][xc] = select(ob0, oa0, h1);
        kv[xr][xc + 1u] = select(ob1, oa1, h1);
        kv[xr][xc + 2u] = select(ob2, oa2, h1);
        kv[xr][xc + 3u] = select(ob3, oa3, h1);
    }
    // the row sums: the 16 lanes' shares (mxs is free: a barrier has passed since its last read)
    let me = lh * 16u + lc;
    if SG { la = sg_sum(la); }
    mxs[lg][me] = la;

    workgroupBarrier();
    if OK {
        let xr = 32u * (1u - lh) + xs / 4u;
        if lh == 0u {
            oa0 += kv[xr][xc]; oa1 += kv[xr][xc + 1u]; oa2 += kv[xr][xc + 2u]; oa3 += kv[xr][xc + 3u];
        } else {
            ob0 += kv[xr][xc]; ob1 += kv[xr][xc + 1u]; ob2 += kv[xr][xc + 2u]; ob3 += kv[xr][xc + 3u];
        }
    }
    var ta = vec4<f32>(0.0);
    if SG {
        ta = (mxs[lg][0] + mxs[lg][8]) + (mxs[lg][SG2] + mxs[lg][SG3]);
    } else {
        for (var u = 0u; u < 16u * NH; u = u + 1u) {
            ta = ta + mxs[lg][u];

        }
    }
    if live && select(lc, lc + 16u * lh, SPL) < D4 {
        let ia = select(vec4<f32>(1.0) / ta, vec4<f32>(0.0), ta == vec4<f32>(0.0));
        let r0 = q0 + RPG * lg;
        if !OK || lh == 0u {
            store_row(r0, lcv, oa0 * ia.x, Lq, D, bh);
            store_row(r0 + 1u, lcv, oa1 * ia.y, Lq, D, bh);
            store_row(r0 + 2u, lcv, oa2 * ia.z, Lq, D, bh);
            store_row(r0 + 3u, lcv, oa3 * ia.w, Lq, D, bh);
        }
        if NOB && (!OK || lh == 1u) {
            store_row(r0, lc + 16u, ob0 * ia.x, Lq, D, bh);
            store_row(r0 + 1u, lc + 16u, ob1 * ia.y, Lq, D, bh);
            store_row(r0 + 2u, lc + 16u, ob2 * ia.z, Lq, D, bh);
            store_row(r0 + 3u, lc + 16u, ob3 * ia.w, Lq, D, bh);
        }

    }
}
