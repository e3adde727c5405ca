// matmul_wgm.wgsl - f16 x f16 -> f16 (or f32) matrix product on tensor cores, accumulating in f32,
// through workgroup-scope matrices (wgc's own `enable wgc_workgroup_matrix;`, lowered to
// VK_NV_cooperative_matrix2's workgroup-scope cooperative matrices, whose staging through
// workgroup memory the driver manages).  matmul.c (wgm_ok) takes it for WT_MATMUL_F16_TENSOR
// where the device has WG_FEATURE_WORKGROUP_MATRIX with a 128 x 256 x 64 f16 -> f32 shape for 256
// invocations and the product is made of whole tiles: M a multiple of 128, N of 256, K of 512,
// leading dimensions and offsets multiples of 8 (16 bytes), no batch.  Otherwise matmul_coop.wgsl
// (subgroup matrices, every shape) runs.  kernel.c puts the `enable` in the prelude and compiles
// this file without the compiler's bounds checks: every load and store lies inside its binding
// by wgm_ok's conditions.
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
// H200, 4096^3, one run each (a scratch harness timing hand-assembled SPIR-V, batches of ten,
// cuBLAS f16 through PyTorch about 728-766 in other runs): 128 x 256 tiles of 256 invocations,
// 64-deep slices two per step 311.6 TFLOP/s, one per step 298.0-298.9 (B column-major 296.9),
// 32-deep 192.2 (two per step 201.7); 128 x 128 of 128 invocations 64 deep 271.8, 32 deep 198.4;
// 256 x 128 (256 invocations) 135.5 at 64 deep, 195.8 at 32; 256 x 256 45.6; 128 deep 20-49;
// prefetching the next slices into registers before the multiply 69-110.  Loads through
// SPV_NV_tensor_addressing's tensor layouts ran the same (307.3 at 64 deep, 311.1 at 32 deep two
// per step) and 41.1 with their clamp-to-zero bounds (so ragged shapes stay on matmul_coop.wgsl).
// The subgroup-matrix kernel (matmul_coop.wgsl, variant 9) ran 224-242 on the same product.
// Through wt (scratch probes: batches of ten products timed by the host clock, each process with
// empty pipeline caches): this file, one slice per step, ran 278-305 TFLOP/s in 7 of 7 processes
// (A^T 292-305, B^T 278-291, A^T B^T 283-296), against 226-242 for matmul_coop.wgsl.  Two slices
// per step ran 291-315 in some processes but 93-150 in 4 of 7 (255 registers, 64-84 bytes of local
// memory, 66 KB of code against 36-38 KB for one slice).  Session 8 found most such slow figures
// to be the GPU's clocks, not the kernel: after about 1.5 s idle (a pipeline build) the H200's
// SM clock drops to 345 MHz and the first 0.2-0.3 s of work run 4-6x slower (doc/tensor.md).
// Timed after 0.5 s of warm-up (session 8 probes, best of 7 batches of 10, TFLOP/s): two slices
// per step 307-312 at K 4096 against 298-309 for one, 320-327 at 8192 against 311-313, 297 at
// 2048 against 291-292, 246-292 at 1024 against 263-276; so TWO takes two where KC / 128 is a
// multiple of 8 (KC % 1024).  Four per step ran 60.  Some pipelines still run far below
// these figures after warm-up (59-168 in some processes, erratic; doc/tensor.md): matmul.c's
// guard times each key against matmul_coop.wgsl.  The loop's shape matters too:
// `for (var k = 0u; k < KC; ...)` to the kernel constant, not a `k + 128 <= K` loop with a tail
// (223-251).  Masking P.off to multiples of 8 cost 3-10%; dropping it changed nothing measurable;
// 128 x 128 tiles for 256 invocations ran 193-213.
// K a multiple of 512 (session 7, H200, M = N = 4096, each process's first pipeline, batches of
// five timed by the host clock, TFLOP/s): NVIDIA's driver unrolls the slice loop by 8, so with
// KC / 64 a multiple of 8 the code is small (K 4096: 37.9 KB, 80 bytes of local memory per
// invocation) and K 512-8192 ran 199-296 (K 1536-8192: 259-296), but with a remainder it is
// 78.8-83.2 KB with 1792-1872 bytes (spills): K 3328, 3840, 3904, 3968, 4032 ran 96-109, against
// 219-232 for matmul_coop.wgsl at K 3328-4096 (session 8, after warm-up: 108-109 at 3840 and 3328
// against 233-239).  A second loop for the remainder slices ran 213-219 there (54-65
// KB), a loop bound read from P 206-209 at every K (35.8 KB), so those K stay on matmul_coop.wgsl.
// Session 9 (doc/tensor.md): the tile's store costs about 8 us per tile (without it: 328 at K 4096,
// 346-351 at 2048); a persistent grid, 512 invocations, 256 x 128 or 128 x 128 tiles, Aligned 16
// on the loads and stores and other tile-walk bands gained nothing.  Session 10 (same probe, three
// rounds in each of three runs, M = N = 4096, TFLOP/s): writing an f32 tile (twice the bytes) ran
// as the f16 one (308-311), so the store's cost is not its bytes.  The loop's shape matters again:
// the slices' offsets kept in two variables stepped by AS and BS each step ran 318-327 at K 4096
// (against 309-313 with the offsets computed from k, as before), 329-342 at 8192 (321-329),
// 307-316 at 2048 (297-299); stepping A's offset alone 320-323, B's alone 313-314, four stepped
// offsets (one per load) 310-311, the increments before the multiplies 320-325, a loop counter i
// in place of k 320-324, and a loop bounded by A's offset instead of k 253-256.
// matmul.c (wgm_ok) takes this kernel by default, where its guard (wgm_guard) finds it faster than
// matmul_coop.wgsl; WGC_MATMUL_WGM=0 turns it off.

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
