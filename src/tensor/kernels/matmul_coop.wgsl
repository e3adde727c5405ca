// matmul_coop.wgsl - f16 x f16 -> f16 matrix product on tensor cores, accumulating in f32, for
// wt_matmul_ex with WT_MATMUL_F16_TENSOR (src/tensor/matmul.c), through Dawn's
// chromium_experimental_subgroup_matrix extension (lowered to VK_KHR_cooperative_matrix).
//
// One workgroup is one subgroup of 32 invocations (matmul.c takes this path only where the
// subgroup size is 32 and the device has 16 x 16 x 16 f16 -> f32 subgroup shapes), so every
// subgroup-matrix argument is workgroup-uniform as Tint's uniformity rules require; it computes a
// 64 x 64 tile of out = A . B as 4 x 4 accumulators of 16 x 16, marching along K in steps of 16:
// per step 4 left and 4 right matrices are loaded straight from the storage buffers and 16
// multiply-accumulates issued.  A (m, k) is a[P.off.x + m * P.aux.x + k] (MA 0, row-major) or
// a[P.off.x + m + k * P.aux.x] (MA 1, column-major); B (k, n) is b[P.off.y + k * P.aux.y + n] (MB 0)
// or b[P.off.y + k + n * P.aux.y] (MB 1).  P.sv = (M, N, K, tiles along N).  K is a multiple of 16,
// so every k read is in range; rows past M and columns past N read other memory of the
// binding (never past it: matmul.c checks the extent) that only reaches outputs past M and N,
// which are not written.  The f32 accumulators go through a 16 x 16 workgroup buffer to be
// rounded to f16 and written with bounds checks (32 invocations x 8 elements), plus the bias
// when MC is 1 (c[P.off.z + n * P.st[4].x]).  kernel.c puts the `enable` in the prelude.
// H200 (test_matmul_coop, WGC_COOP_BENCH=1): f16 4096^3 76.4 TFLOP/s (default kernels 40.3,
// cuBLAS through PyTorch 750): loads straight from global memory bound it; staging tiles through
// workgroup memory (several subgroups per workgroup) is the next step.

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> a: array<f16>;
@group(0) @binding(2) var<storage, read> b: array<f16>;
@group(0) @binding(3) var<storage, read> c: array<SC>;

const TS: u32 = 64u;                  // tile side
const ACM: bool = MA == 1u;           // A column-major
const BCM: bool = MB == 1u;           // B column-major

var<workgroup> scratch: array<f32, 256>;

alias Left = subgroup_matrix_left<f16, 16, 16>;
alias Right = subgroup_matrix_right<f16, 16, 16>;
alias Acc = subgroup_matrix_result<f32, 16, 16>;

fn a_at(m: u32, k: u32) -> u32 {
    return select(P.off.x + m * P.aux.x + k, P.off.x + m + k * P.aux.x, ACM);
}

fn b_at(k: u32, n: u32) -> u32 {
    return select(P.off.y + k * P.aux.y + n, P.off.y + k + n * P.aux.y, BCM);
}

fn ld_a(m: u32, k: u32) -> Left {
    return subgroupMatrixLoad<Left>(&a, a_at(m, k), ACM, P.aux.x);
}

fn ld_b(k: u32, n: u32) -> Right {
    return subgroupMatrixLoad<Right>(&b, b_at(k, n), BCM, P.aux.y);
}

// One 16 x 16 accumulator at (r0, c0) to out, through the workgroup buffer.
fn put(v: Acc, r0: u32, c0: u32, li: u32) {
    let M = P.sv.x;
    let N = P.sv.y;
    if r0 >= M || c0 >= N { return; }
    workgroupBarrier();
    subgroupMatrixStore(&scratch, 0u, v, false, 16u);
    workgroupBarrier();
    for (var e = li; e < 256u; e += 32u) {
        let m = r0 + e / 16u;
        let n = c0 + e % 16u;
        if m < M && n < N {
            var x = scratch[e];
            if MC == 1u { x += f32(c[P.off.z + n * u32(P.st[4].x)]); }
            out[m * N + n] = SO(x);
        }
    }
}

// The 16 accumulators are separate variables and every loop body is written out, so that they
// stay in registers (an indexed array of them would live in local memory).
@compute @workgroup_size(32)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let t = wid.y * P.gx + wid.x;
    let tiles_n = P.sv.w;
    let m0 = (t / tiles_n) * TS;
    let n0 = (t % tiles_n) * TS;
    let K = P.sv.z;
    var c00 = Acc();
    var c01 = Acc();
    var c02 = Acc();
    var c03 = Acc();
    var c10 = Acc();
    var c11 = Acc();
    var c12 = Acc();
    var c13 = Acc();
    var c20 = Acc();
    var c21 = Acc();
    var c22 = Acc();
    var c23 = Acc();
    var c30 = Acc();
    var c31 = Acc();
    var c32 = Acc();
    var c33 = Acc();
    for (var k = 0u; k < K; k += 16u) {
        let a0 = ld_a(m0, k);
        let a1 = ld_a(m0 + 16u, k);
        let a2 = ld_a(m0 + 32u, k);
        let a3 = ld_a(m0 + 48u, k);
        var b = ld_b(k, n0);
        c00 = subgroupMatrixMultiplyAccumulate(a0, b, c00);
        c10 = subgroupMatrixMultiplyAccumulate(a1, b, c10);
        c20 = subgroupMatrixMultiplyAccumulate(a2, b, c20);
        c30 = subgroupMatrixMultiplyAccumulate(a3, b, c30);
        b = ld_b(k, n0 + 16u);
        c01 = subgroupMatrixMultiplyAccumulate(a0, b, c01);
        c11 = subgroupMatrixMultiplyAccumulate(a1, b, c11);
        c21 = subgroupMatrixMultiplyAccumulate(a2, b, c21);
        c31 = subgroupMatrixMultiplyAccumulate(a3, b, c31);
        b = ld_b(k, n0 + 32u);
        c02 = subgroupMatrixMultiplyAccumulate(a0, b, c02);
        c12 = subgroupMatrixMultiplyAccumulate(a1, b, c12);
        c22 = subgroupMatrixMultiplyAccumulate(a2, b, c22);
        c32 = subgroupMatrixMultiplyAccumulate(a3, b, c32);
        b = ld_b(k, n0 + 48u);
        c03 = subgroupMatrixMultiplyAccumulate(a0, b, c03);
        c13 = subgroupMatrixMultiplyAccumulate(a1, b, c13);
        c23 = subgroupMatrixMultiplyAccumulate(a2, b, c23);
        c33 = subgroupMatrixMultiplyAccumulate(a3, b, c33);
    }
    put(c00, m0 + 0u, n0 + 0u, li);
    put(c01, m0 + 0u, n0 + 16u, li);
    put(c02, m0 + 0u, n0 + 32u, li);
    put(c03, m0 + 0u, n0 + 48u, li);
    put(c10, m0 + 16u, n0 + 0u, li);
    put(c11, m0 + 16u, n0 + 16u, li);
    put(c12, m0 + 16u, n0 + 32u, li);
    put(c13, m0 + 16u, n0 + 48u, li);
    put(c20, m0 + 32u, n0 + 0u, li);
    put(c21, m0 + 32u, n0 + 16u, li);
    put(c22, m0 + 32u, n0 + 32u, li);
    put(c23, m0 + 32u, n0 + 48u, li);
    put(c30, m0 + 48u, n0 + 0u, li);
    put(c31, m0 + 48u, n0 + 16u, li);
    put(c32, m0 + 48u, n0 + 32u, li);
    put(c33, m0 + 48u, n0 + 48u, li);
}
