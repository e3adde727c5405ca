// matmul_step.wgsl - what matmul2.wgsl and matmul3.wgsl share (src/tensor/kernel.c puts it after
// either, with matmul_tile.wgsl): the tile shapes of OP (matmul2.wgsl's 0..2, bit 2 the 8 x 4 warp
// layout), the two-buffer workgroup tiles, the invocation's 8 x 8 accumulators as private
// variables, the unrolled K step (every workgroup read at a constant first index) and the store
// of the accumulators through the including file's st4 (scalar in matmul2, 16-byte in matmul3).

const SHAPE: u32 = OP & 3u;                                 // 0: 128 x 128, 1: 64 x 64, 2: 128 x 64
const WARP8: bool = (OP & 4u) != 0u;                        // 8 x 4 invocations per warp
const BK: u32 = select(8u, 16u, SHAPE == 1u);               // K step
const TM: u32 = select(128u, 64u, SHAPE == 1u);             // tile rows
const TN: u32 = select(64u, 128u, SHAPE == 0u);             // tile columns
const QM: u32 = TM / 4u;
const QN: u32 = TN / 4u;
const RA: u32 = QM + 1u;                                    // padded rows, in vec4
const RB: u32 = QN + 1u;
const SLA: u32 = TM * BK / 4u;                              // vec4 load slots per step
const SLB: u32 = TN * BK / 4u;

var<workgroup> As: array<array<vec4<f32>, RA>, 2u * BK>;   // [buffer * BK + k][quad]
var<workgroup> Bs: array<array<vec4<f32>, RB>, 2u * BK>;

var<private> tx: u32;
var<private> ty: u32;
var<private> c00: vec4<f32>; var<private> c01: vec4<f32>;
var<private> c10: vec4<f32>; var<private> c11: vec4<f32>;
var<private> c20: vec4<f32>; var<private> c21: vec4<f32>;
var<private> c30: vec4<f32>; var<private> c31: vec4<f32>;
var<private> c40: vec4<f32>; var<private> c41: vec4<f32>;
var<private> c50: vec4<f32>; var<private> c51: vec4<f32>;
var<private> c60: vec4<f32>; var<private> c61: vec4<f32>;
var<private> c70: vec4<f32>; var<private> c71: vec4<f32>;

// One k of the tile in buffer row `row` (a constant at every call).
fn step(row: u32) {
    let a0 = As[row][ty];
    let b0 = Bs[row][tx];
    c00 = fma(vec4<f32>(a0.x), b0, c00);
    c10 = fma(vec4<f32>(a0.y), b0, c10);
    c20 = fma(vec4<f32>(a0.z), b0, c20);
    c30 = fma(vec4<f32>(a0.w), b0, c30);
    if TM == 128u {
        let a1 = As[row][ty + 16u];
        c40 = fma(vec4<f32>(a1.x), b0, c40);
        c50 = fma(vec4<f32>(a1.y), b0, c50);
        c60 = fma(vec4<f32>(a1.z), b0, c60);
        c70 = fma(vec4<f32>(a1.w), b0, c70);
        if TN == 128u {
            let b1 = Bs[row][tx + 16u];
            c01 = fma(vec4<f32>(a0.x), b1, c01);
            c11 = fma(vec4<f32>(a0.y), b1, c11);
            c21 = fma(vec4<f32>(a0.z), b1, c21);
            c31 = fma(vec4<f32>(a0.w), b1, c31);
            c41 = fma(vec4<f32>(a1.x), b1, c41);
            c51 = fma(vec4<f32>(a1.y), b1, c51);
            c61 = fma(vec4<f32>(a1.z), b1, c61);
            c71 = fma(vec4<f32>(a1.w), b1, c71);
        }
    }
}

// The whole K step of buffer `buf` (a constant at every call).
fn tile(buf: u32) {
    let r = buf * BK;
    step(r); step(r + 1u); step(r + 2u); step(r + 3u);
    step(r + 4u); step(r + 5u); step(r + 6u); step(r + 7u);
    if BK == 16u {
        step(r + 8u); step(r + 9u); step(r + 10u); step(r + 11u);
        step(r + 12u); step(r + 13u); step(r + 14u); step(r + 15u);
    }
}

// The accumulators of invocation (tx, ty) to the output tile (tm, tn) of the batch at oo.
fn store_tile(oo: u32, tm: u32, tn: u32) {
    let m0 = tm * TM + 4u * ty;
    let n0 = tn * TN + 4u * tx;
    st4(oo, m0, n0, c00);
    st4(oo, m0 + 1u, n0, c10);
    st4(oo, m0 + 2u, n0, c20);
    st4(oo, m0 + 3u, n0, c30);
    if TM == 128u {
        st4(oo, m0 + 64u, n0, c40);
        st4(oo, m0 + 65u, n0, c50);
        st4(oo, m0 + 66u, n0, c60);
        st4(oo, m0 + 67u, n0, c70);
    }
    if TN == 128u {
        st4(oo, m0, n0 + 64u, c01);
        st4(oo, m0 + 1u, n0 + 64u, c11);
        st4(oo, m0 + 2u, n0 + 64u, c21);
        st4(oo, m0 + 3u, n0 + 64u, c31);
        st4(oo, m0 + 64u, n0 + 64u, c41);
        st4(oo, m0 + 65u, n0 + 64u, c51);
        st4(oo, m0 + 66u, n0 + 64u, c61);
        st4(oo, m0 + 67u, n0 + 64u, c71);
    }
}
