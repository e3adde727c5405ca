// qmatvec.wgsl - the decode path of src/tensor/quant.c: out[m, r] = sum_k W[r, k] x[m, k] (+ bias[r])
// for MA (1..4) rows of x and a weight W [N, K] in a block format (qblock.wgsl, OP), read in place:
// each weight byte is read once.  L = 2^MB lanes take a row (8, 16 or 32 by K: a row of U = K / 32
// units gives each lane U / L units); lane l decodes units l, l + L, ... (neighbouring lanes read
// neighbouring blocks) and dots each unit's 32 weights with the MA rows of x (array<vec4>, from
// quad P.off.y, P.sv.w quads per row; x is small and stays in the caches).  The MA partial sums ride
// in one vec4, and the L lanes of a row add them: with subgroups (MC bit 3) by shuffles over
// aligned runs of 8 lanes (flash_sg.wgsl's sg_sum), then the L / 8 partials in workgroup memory;
// without, a tree in workgroup memory.  MC bit 1 (R = 2): each lane takes two neighbouring weight
// rows, so every x quad it loads serves both (x's loads through L1 are 6-7 times the bytes of a
// 4-bit weight's; quant.c sets it for N >= 4096).  P.sv = (N, U, bytes per row, x row stride in
// quads), P.off.x: the output's first element (rows of N), P.off.z: the bias's; MC bit 0: add
// the bias.
// Loop bound: U / L <= 4096 iterations per lane (K <= 2^20, quant.c refuses more).

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> wq: array<u32>;
@group(0) @binding(2) var<storage, read> b: array<vec4<SB>>;
@group(0) @binding(3) var<storage, read> c: array<SC>;

var<workgroup> red: array<vec4<f32>, 512>;

const R: u32 = select(1u, 2u, (MC & 2u) != 0u);   // weight rows per lane

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) t: u32) {
    let g = wid.y * P.gx + wid.x;
    let N = P.sv.x;
    let U = P.sv.y;
    let L = 1u << MB;
    let lane = t & (L - 1u);
    let r0 = (g * (256u >> MB) + (t >> MB)) * R;
    let two = R == 2u && r0 + 1u < N;
    var acc0 = vec4<f32>(0.0);
    var acc1 = vec4<f32>(0.0);
    if r0 < N {
        let rb0 = r0 * P.sv.z;
        let rb1 = select(rb0, rb0 + P.sv.z, two);
        for (var u = lane; u < U; u = u + L) {
            let w0 = q_unit(rb0, u);
            var w1: array<vec4<f32>, 8>;
            if R == 2u { w1 = q_unit(rb1, u); }
            for (var m = 0u; m < MA; m = m + 1u) {
                let xo = P.off.y + m * P.sv.w + u * 8u;
                var s0 = 0.0;
                var s1 = 0.0;
                for (var j = 0u; j < 8u; j = j + 1u) {
                    let xv = vec4<f32>(b[xo + j]);
                    s0 = s0 + dot(w0[j], xv);
                    if R == 2u { s1 = s1 + dot(w1[j], xv); }
                }
                acc0[m] = acc0[m] + s0;
                acc1[m] = acc1[m] + s1;
            }
        }
    }
    var y0 = vec4<f32>(0.0);
    var y1 = vec4<f32>(0.0);
    if (MC & 8u) != 0u {
        let a0 = sg_sum(acc0);
        var a1 = vec4<f32>(0.0);
        if R == 2u { a1 = sg_sum(acc1); }
        if (lane & 7u) == 0u {
            red[t >> 3u] = a0;
            red[256u + (t >> 3u)] = a1;
        }
        workgroupBarrier();
        if lane == 0u {
            y0 = red[t >> 3u];
            y1 = red[256u + (t >> 3u)];
            for (var i = 1u; i < L / 8u; i = i + 1u) {
                y0 = y0 + red[(t >> 3u) + i];
                y1 = y1 + red[256u + (t >> 3u) + i];
            }
        }
    } else {
        red[t] = acc0;
        red[256u + t] = acc1;
        workgroupBarrier();
        for (var h = L / 2u; h > 0u; h = h / 2u) {
            if lane < h {
                red[t] = red[t] + red[t + h];
                red[256u + t] = red[256u + t] + red[256u + t + h];
            }
            workgroupBarrier();
        }
        y0 = red[t];
        y1 = red[256u + t];
    }
    if lane == 0u && r0 < N {
        var b0 = 0.0;
        var b1 = 0.0;
        if (MC & 1u) != 0u {
            b0 = f32(c[P.off.z + r0]);
            if two { b1 = f32(c[P.off.z + r0 + 1u]); }
        }
        for (var m = 0u; m < MA; m = m + 1u) {
            out[P.off.x + m * N + r0] = SO(y0[m] + b0);
            if two { out[P.off.x + m * N + r0 + 1u] = SO(y1[m] + b1); }
        }
    }
}
