// qmatvec.wgsl - the decode path of src/tensor/quant.c: out[m, r] = sum_k W[r, k] x[m, k] (+ bias[r])
// for MA (1..4) rows of x and a weight W [N, K] in a block format (qblock.wgsl, OP), read in place:
// each weight byte is read once.  L = 2^MB lanes take a row (8, 16 or 32 by K: a row of U = K / 32
// units gives each lane U / L units); lane l decodes units l, l + L, ... (neighbouring lanes read
// neighbouring blocks) and dots each unit's 32 weights with the MA rows of x (array<vec4>, from
// quad P.off.y, P.sv.w quads per row; x is small and stays in the caches).  The MA partial sums ride
// in one vec4, and the L lanes of a row add them: with subgroups (MC bit 3) by shuffles over
// aligned runs of 8 lanes (flash_sg.wgsl's sg_sum), then the L / 8 partials in workgroup memory;
// without, a tree in workgroup memory.  P.sv = (N, U, bytes per row, x row stride in quads),
// P.off.x: the output's first element (rows of N), P.off.z: the bias's; MC bit 0: add the bias.
// Loop bound: U / L <= 4096 iterations per lane (K <= 2^20, quant.c refuses more).

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> wq: array<u32>;
@group(0) @binding(2) var<storage, read> b: array<vec4<SB>>;
@group(0) @binding(3) var<storage, read> c: array<SC>;

var<workgroup> red: array<vec4<f32>, 256>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) t: u32) {
    let g = wid.y * P.gx + wid.x;
    let N = P.sv.x;
    let U = P.sv.y;
    let L = 1u << MB;
    let lane = t & (L - 1u);
    let r = g * (256u >> MB) + (t >> MB);
    var acc = vec4<f32>(0.0);
    if r < N {
        let rb = r * P.sv.z;
        for (var u = lane; u < U; u = u + L) {
            let w = q_unit(rb, u);
            for (var m = 0u; m < MA; m = m + 1u) {
                let xo = P.off.y + m * P.sv.w + u * 8u;
                var s = dot(w[0], vec4<f32>(b[xo]));
                for (var j = 1u; j < 8u; j = j + 1u) {
                    s = s + dot(w[j], vec4<f32>(b[xo + j]));
                }
                acc[m] = acc[m] + s;
            }
        }
    }
    var y = vec4<f32>(0.0);
    if (MC & 8u) != 0u {
        let s8 = sg_sum(acc);
        if (lane & 7u) == 0u { red[t >> 3u] = s8; }
        workgroupBarrier();
        if lane == 0u {
            y = red[t >> 3u];
            for (var i = 1u; i < L / 8u; i = i + 1u) { y = y + red[(t >> 3u) + i]; }
        }
    } else {
        red[t] = acc;
        workgroupBarrier();
        for (var h = L / 2u; h > 0u; h = h / 2u) {
            if lane < h { red[t] = red[t] + red[t + h]; }
            workgroupBarrier();
        }
        y = red[t];
    }
    if lane == 0u && r < N {
        var bias = 0.0;
        if (MC & 1u) != 0u { bias = f32(c[P.off.z + r]); }
        for (var m = 0u; m < MA; m = m + 1u) {
            out[P.off.x + m * N + r] = SO(y[m] + bias);
        }
    }
}
