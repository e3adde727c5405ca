// matmul_wgm.wgsl - f16 x f16 -> f16 (or f32) matrix product on tensor cores, accumulating in f32,
// through workgroup-scope matrices (wgc's own `enable wgc_workgroup_matrix;`, lowered to
// VK_NV_cooperative_matrix2's workgroup-scope cooperative matrices, whose staging through
// workgroup memory the driver manages).  matmul.c (wgm_fits) takes it for WT_MATMUL_F16_TENSOR
// where the device has WG_FEATURE_WORKGROUP_MATRIX with a 128 x 256 x 64 f16 -> f32 shape for 256
// invocations and the product is made of whole tiles: M a multiple of 128, N of 256, K of 512,
// leading dimensions and offsets multiples of 8 (16 bytes), no batch.  Otherwise matmul_coop.wgsl
// (subgroup matrices, every shape) runs.  kernel.c puts the `enable` in the prelude and compiles
// this file without the compiler's bounds checks: every load and store lies inside its binding
// by wgm_fits's conditions.
//
// A workgroup of 256 invocations computes one 128 x 256 tile of out = A . B as one workgroup matrix,
// one 64-deep slice per loop step (a tile-walk like matmul_coop.wgsl's, bands of 8 tile rows for
// L2 reuse of B).  A (m, k) is a[P.off.x + m * LDA + k] (MA 0) or a[P.off.x + m + k * LDA] (MA 1);
// B (k, n) is b[P.off.y + k * LDB + n] (MB 0) or b[P.off.y + k + n * LDB] (MB 1); out (m, n) is
// out[m * LDO + n] (LDO = N), K = KC.  LDA, LDB, LDO and KC are constants of the kernel (kernel.c's
// prelude, from wt_kkey.ld): with the strides read from P the same product ran 15.2 TFLOP/s in the
// harness below (32-deep slices: 65.5) against 309.3, so each set of them gets its own pipeline.
// With MC 1 the workgroup then adds the bias c[P.off.z + n * P.st[4].x] to its stored tile.
// P.sv = (M, N, K, tiles along N).
//
// H200, M = N = 4096 (GPU clocks warmed up): 307-314 TFLOP/s at K 4096 against 237-243 for
// matmul_coop.wgsl.  TWO (two slices per loop step where KC % 1024 == 0): 307-312 against 298-309
// for one.  K must be a multiple of 512: NVIDIA's driver unrolls the slice loop by 8, and with a
// remainder the code doubles and spills (96-109 at K 3328-4032 against 219-232 for
// matmul_coop.wgsl).  Some pipelines run far below these figures on a fresh device: matmul.c's
// guard (wgm_guard) times each key against matmul_coop.wgsl.  The measurements behind the layout
// (slice depth, tile shapes, loop shape): doc/results/2026-11-28-retired-matmul.md.

alias WL = workgroup_matrix_left<f16, 64, 128>;
alias WR = workgroup_matrix_right<f16, 256, 64>;
alias WAcc = workgroup_matrix_result<f32, 256, 128>;
alias WOut = workgroup_matrix_result<SO, 256, 128>;

const TM: u32 = 128u;
const TN: u32 = 256u;
const BK: u32 = 64u;
const TWO: bool = KC % 1024u == 0u;   // two slices per loop step (16 or more: the driver unrolls by 8)
const ACM: bool = MA == 1u;           // A column-major
const BCM: bool = MB == 1u;           // B column-major
const AS: u32 = select(BK, BK * LDA, ACM);   // a slice's step along K in a and in b
const BS: u32 = select(BK * LDB, BK, BCM);

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> a: array<SA>;
@group(0) @binding(2) var<storage, read> b: array<SB>;
@group(0) @binding(3) var<storage, read> c: array<SC>;

// the 64-deep slices of A and B at element offsets o (a[o] is A (m0, k), b[o] is B (k, n0))
fn ld_a(o: u32) -> WL {
    return workgroupMatrixLoad<WL>(&a, o, ACM, LDA);
}

fn ld_b(o: u32) -> WR {
    return workgroupMatrixLoad<WR>(&b, o, BCM, LDB);
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let M = P.sv.x;
    let N = P.sv.y;
    let tiles_n = P.sv.w;
    let tiles_m = M / TM;
    let t = wid.y * P.gx + wid.x;
    if t >= tiles_m * tiles_n { return; }   // uniform: the whole workgroup leaves
    let band = t / (8u * tiles_n);
    let rows = min(tiles_m - band * 8u, 8u);
    let r = t - band * 8u * tiles_n;
    let m0 = (band * 8u + r % rows) * TM;
    let n0 = (r / rows) * TN;
    var acc = WAcc();
    // the slices' offsets step along K (computing them from k each step ran 309-313 TFLOP/s at
    // 4096^3 against 318-327, 321-329 against 329-342 at K 8192: the header)
    var ao = P.off.x + select(m0 * LDA, m0, ACM);
    var bo = P.off.y + select(n0, n0 * LDB, BCM);
    if TWO {
        for (var k = 0u; k < KC; k += 2u * BK) {
            let a0 = ld_a(ao);
            let b0 = ld_b(bo);
            let a1 = ld_a(ao + AS);
            let b1 = ld_b(bo + BS);
            acc = workgroupMatrixMultiplyAccumulate(a0, b0, acc);
            acc = workgroupMatrixMultiplyAccumulate(a1, b1, acc);
            ao += 2u * AS;
            bo += 2u * BS;
        }
    } else {
        for (var k = 0u; k < KC; k += BK) {
            acc = workgroupMatrixMultiplyAccumulate(ld_a(ao), ld_b(bo), acc);
            ao += AS;
            bo += BS;
        }
    }
    workgroupMatrixStore(&out, m0 * LDO + n0, WOut(acc), false, LDO);
    if MC == 1u {                          // the bias, added to the stored tile by its own workgroup
        storageBarrier();
        for (var e = li; e < TM * TN; e += 256u) {
            let o = (m0 + e / TN) * N + n0 + e % TN;
            out[o] = SO(f32(out[o]) + f32(c[P.off.z + (n0 + e % TN) * u32(P.st[4].x)]));
        }
    }
}
