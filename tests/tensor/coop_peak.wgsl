// coop_peak.wgsl - the ceiling of subgroup-matrix multiply-accumulate (VK_KHR_cooperative_matrix)
// on a device, for test_coop_peak.c: every subgroup holds RA x RB accumulators of 16 x 16 (f32)
// and runs p.iters steps, each multiplying RA left fragments (16 x 16 f16) by RB right fragments
// into every accumulator (RA * RB multiply-accumulates, RA * RB * 8192 flops per step).
// test_coop_peak.c puts the prelude in front: MODE, RA, RB (1, 2 or 4) and NSG (subgroups per
// workgroup, the workgroup size / 32).
//   MODE 0: the fragments are loaded once from the storage buffer before the loop and stay in
//           registers (no memory traffic in the loop): the multiply-accumulate ceiling.
//   MODE 1..3: the input is staged once into workgroup memory (one barrier), then every step loads
//           its RA + RB fragments from there (subgroupMatrixLoad, no barrier in the loop), at a
//           K offset that alternates between 0 and 16 so that the loads cannot be hoisted: the
//           cost of the shared-memory load path.  The staged slice is 64 x 32 of A (row-major,
//           rows padded to 40 halves, MODE 1 and 3; column-major, 32 rows of 64 + 8, MODE 2)
//           and 32 x 64 of B (row-major, rows of 64 + 8, MODE 1 and 2; column-major, 64 rows of
//           32 + 8, MODE 3): the layouts of matmul_coop.wgsl's slices with BK 32.
// Input ab: A (64 x 32, row-major) then B (32 x 64, row-major), f16.  Step t uses K columns
// 16 (t % 2) ..+15 (in MODE 0: left fragment i = A rows 16 i.., K 0..15; right j = B K 0..15,
// columns 16 j..).  Output: subgroup g (workgroup id x NSG + subgroup id) stores accumulator
// (i, j) as a row-major 16 x 16 block at out[(g * 16 + i * 4 + j) * 256].
// H200 (driver 580.159.04), TFLOP/s, best of 3 x 3 dispatches of about 4e12 flops: MODE 0 636-646
// for every accumulator shape 2 x 2, 2 x 4, 4 x 4 and 4 to 32 subgroups per SM; MODE 1..3 617-631
// with 8 or more subgroups per SM, 543-596 with 4 (one workgroup of 4 per SM); 4 x 4 with 16
// subgroups per workgroup 9-15 (255 registers asked for by 512 invocations: the driver spills).
// cuBLAS f16 4096^3 through PyTorch 767.1 in the same run.

@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@group(0) @binding(1) var<storage, read> ab: array<f16>;
@group(0) @binding(2) var<uniform> p: vec4<u32>;   // x: steps

alias Left = subgroup_matrix_left<f16, 16, 16>;
alias Right = subgroup_matrix_right<f16, 16, 16>;
alias Acc = subgroup_matrix_result<f32, 16, 16>;

const ACM: bool = MODE == 2u;
const BCM: bool = MODE == 3u;
const AS: u32 = select(40u, 72u, ACM);   // A slice row stride (halves)
const BS: u32 = select(72u, 40u, BCM);
const ALEN: u32 = select(64u * 40u, 32u * 72u, ACM);
const BLEN: u32 = select(32u * 72u, 64u * 40u, BCM);
var<workgroup> sm: array<f16, ALEN + BLEN>;

fn lda(i: u32, k: u32) -> Left {
    return subgroupMatrixLoad<Left>(&sm, select(i * 16u * AS + k, k * AS + i * 16u, ACM), ACM, AS);
}

fn ldb(j: u32, k: u32) -> Right {
    return subgroupMatrixLoad<Right>(&sm, ALEN + select(k * BS + j * 16u, j * 16u * BS + k, BCM), BCM, BS);
}

fn st(v: Acc, g: u32, i: u32, j: u32) {
    subgroupMatrixStore(&out, (g * 16u + i * 4u + j) * 256u, v, false, 16u);
}

@compute @workgroup_size(NSG * 32)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) li: u32,
        @builtin(subgroup_id) sid: u32) {
    let g = wid.x * NSG + sid;
    if MODE != 0u {
        for (var e = li; e < 64u * 32u; e += NSG * 32u) {
            let r = e / 32u;
            let k = e % 32u;
            sm[select(r * AS + k, k * AS + r, ACM)] = ab[e];            // A (r, k)
            let kb = e / 64u;
            let n = e % 64u;
            sm[ALEN + select(kb * BS + n, n * BS + kb, BCM)] = ab[2048u + e];   // B (kb, n)
        }
        workgroupBarrier();
    }
    var a0 = subgroupMatrixLoad<Left>(&ab, 0u, false, 32u);
    var a1 = subgroupMatrixLoad<Left>(&ab, 16u * 32u, false, 32u);
    var a2 = subgroupMatrixLoad<Left>(&ab, 32u * 32u, false, 32u);
    var a3 = subgroupMatrixLoad<Left>(&ab, 48u * 32u, false, 32u);
    var b0 = subgroupMatrixLoad<Right>(&ab, 2048u, false, 64u);
    var b1 = subgroupMatrixLoad<Right>(&ab, 2048u + 16u, false, 64u);
    var b2 = subgroupMatrixLoad<Right>(&ab, 2048u + 32u, false, 64u);
    var b3 = subgroupMatrixLoad<Right>(&ab, 2048u + 48u, false, 64u);
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
    let n = p.x;
    for (var t = 0u; t < n; t++) {
        if MODE != 0u {
            let k = (t % 2u) * 16u;
            a0 = lda(0u, k);
            if RA > 1u { a1 = lda(1u, k); }
            if RA > 2u { a2 = lda(2u, k); a3 = lda(3u, k); }
            b0 = ldb(0u, k);
            if RB > 1u { b1 = ldb(1u, k); }
            if RB > 2u { b2 = ldb(2u, k); b3 = ldb(3u, k); }
        }
        c00 = subgroupMatrixMultiplyAccumulate(a0, b0, c00);
        if RB > 1u { c01 = subgroupMatrixMultiplyAccumulate(a0, b1, c01); }
        if RB > 2u {
            c02 = subgroupMatrixMultiplyAccumulate(a0, b2, c02);
            c03 = subgroupMatrixMultiplyAccumulate(a0, b3, c03);
        }
        if RA > 1u {
            c10 = subgroupMatrixMultiplyAccumulate(a1, b0, c10);
            if RB > 1u { c11 = subgroupMatrixMultiplyAccumulate(a1, b1, c11); }
            if RB > 2u {
                c12 = subgroupMatrixMultiplyAccumulate(a1, b2, c12);
                c13 = subgroupMatrixMultiplyAccumulate(a1, b3, c13);
            }
        }
        if RA > 2u {
            c20 = subgroupMatrixMultiplyAccumulate(a2, b0, c20);
            c30 = subgroupMatrixMultiplyAccumulate(a3, b0, c30);
            if RB > 1u {
                c21 = subgroupMatrixMultiplyAccumulate(a2, b1, c21);
                c31 = subgroupMatrixMultiplyAccumulate(a3, b1, c31);
            }
            if RB > 2u {
                c22 = subgroupMatrixMultiplyAccumulate(a2, b2, c22);
                c23 = subgroupMatrixMultiplyAccumulate(a2, b3, c23);
                c32 = subgroupMatrixMultiplyAccumulate(a3, b2, c32);
                c33 = subgroupMatrixMultiplyAccumulate(a3, b3, c33);
            }
        }
    }
    st(c00, g, 0u, 0u);
    if RB > 1u { st(c01, g, 0u, 1u); }
    if RB > 2u { st(c02, g, 0u, 2u); st(c03, g, 0u, 3u); }
    if RA > 1u {
        st(c10, g, 1u, 0u);
        if RB > 1u { st(c11, g, 1u, 1u); }
        if RB > 2u { st(c12, g, 1u, 2u); st(c13, g, 1u, 3u); }
    }
    if RA > 2u {
        st(c20, g, 2u, 0u);
        st(c30, g, 3u, 0u);
        if RB > 1u { st(c21, g, 2u, 1u); st(c31, g, 3u, 1u); }
        if RB > 2u { st(c22, g, 2u, 2u); st(c23, g, 2u, 3u); st(c32, g, 3u, 2u); st(c33, g, 3u, 3u); }
    }
}
