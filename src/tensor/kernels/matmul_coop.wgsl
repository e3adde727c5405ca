// matmul_coop.wgsl - f16 x f16 -> f16 matrix product on tensor cores, accumulating in f32, for
// wt_matmul_ex with WT_MATMUL_F16_TENSOR (src/tensor/matmul.c), through Dawn's
// chromium_experimental_subgroup_matrix extension (lowered to VK_KHR_cooperative_matrix).
//
// One workgroup is one subgroup of 32 invocations (matmul.c takes this path only where the
// subgroup size is 32 and the device has 16 x 16 x 16 f16 -> f32 subgroup shapes); it computes a
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

@compute @workgroup_size(32)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let t = wid.y * P.gx + wid.x;
    let tiles_n = P.sv.w;
    let m0 = (t / tiles_n) * TS;
    let n0 = (t % tiles_n) * TS;
    let M = P.sv.x;
    let N = P.sv.y;
    let K = P.sv.z;
    var acc: array<Acc, 16>;
    for (var i = 0u; i < 16u; i++) { acc[i] = Acc(); }
    for (var k = 0u; k < K; k += 16u) {
        let l0 = subgroupMatrixLoad<Left>(&a, a_at(m0, k), ACM, P.aux.x);
        let l1 = subgroupMatrixLoad<Left>(&a, a_at(m0 + 16u, k), ACM, P.aux.x);
        let l2 = subgroupMatrixLoad<Left>(&a, a_at(m0 + 32u, k), ACM, P.aux.x);
        let l3 = subgroupMatrixLoad<Left>(&a, a_at(m0 + 48u, k), ACM, P.aux.x);
        for (var j = 0u; j < 4u; j++) {
            let r = subgroupMatrixLoad<Right>(&b, b_at(k, n0 + 16u * j), BCM, P.aux.y);
            acc[j] = subgroupMatrixMultiplyAccumulate(l0, r, acc[j]);
            acc[4u + j] = subgroupMatrixMultiplyAccumulate(l1, r, acc[4u + j]);
            acc[8u + j] = subgroupMatrixMultiplyAccumulate(l2, r, acc[8u + j]);
            acc[12u + j] = subgroupMatrixMultiplyAccumulate(l3, r, acc[12u + j]);
        }
    }
    for (var i = 0u; i < 16u; i++) {
        let r0 = m0 + 16u * (i / 4u);
        let c0 = n0 + 16u * (i % 4u);
        if r0 >= M || c0 >= N { continue; }
        workgroupBarrier();
        subgroupMatrixStore(&scratch, 0u, acc[i], false, 16u);
        workgroupBarrier();
        for (var e = li; e < 256u; e += 32u) {
            let m = r0 + e / 16u;
            let n = c0 + e % 16u;
            if m < M && n < N {
                var v = scratch[e];
                if MC == 1u { v += f32(c[P.off.z + n * u32(P.st[4].x)]); }
                out[m * N + n] = SO(v);
            }
        }
    }
}
