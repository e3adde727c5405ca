// rand.wgsl - counter-based random numbers: Philox-4x32-10 keyed by the 64-bit seed
// (P.aux.x low, P.aux.y high) on the counter (e, 0, 0) + 64-bit base (P.aux.z, P.aux.w) for element e.
// OP 0 uniform in [lo, hi) (P.sv.x, P.sv.y as f32 bits) from word 0: lo + (hi - lo) * (x0 >> 8) / 2^24.
// OP 1 normal (mean P.sv.x, std P.sv.y) by Box-Muller from words 0 and 1:
//   u1 = ((x0 >> 8) + 1) / 2^24, u2 = (x1 >> 8) / 2^24, z = sqrt(-2 ln u1) cos(2 pi u2).
// The same seed gives the same numbers on every adapter (integer arithmetic only up to the last step).

fn mulhilo(a: u32, b: u32) -> vec2<u32> {
    let a0 = a & 0xffffu;
    let a1 = a >> 16u;
    let b0 = b & 0xffffu;
    let b1 = b >> 16u;
    let p00 = a0 * b0;
    let p01 = a0 * b1;
    let p10 = a1 * b0;
    let p11 = a1 * b1;
    let mid = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
    let hi = p11 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u);
    return vec2<u32>(hi, a * b);
}

fn philox(ctr: vec4<u32>, key: vec2<u32>) -> vec4<u32> {
    var c = ctr;
    var k = key;
    for (var r = 0u; r < 10u; r = r + 1u) {
        if r > 0u {
            k = k + vec2<u32>(0x9E3779B9u, 0xBB67AE85u);
        }
        let m0 = mulhilo(0xD2511F53u, c.x);
        let m1 = mulhilo(0xCD9E8D57u, c.z);
        c = vec4<u32>(m1.x ^ c.y ^ k.x, m1.y, m0.x ^ c.w ^ k.y, m0.y);
    }
    return c;
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    let i = elem_id(g);
    if i >= P.n { return; }
    let lo = P.aux.z + i;
    let hi = P.aux.w + select(0u, 1u, lo < i);
    let x = philox(vec4<u32>(lo, hi, 0u, 0u), P.aux.xy);
    let p = bitcast<vec2<f32>>(P.sv.xy);
    let inv = 1.0 / 16777216.0;
    if OP == 0u {
        out[i] = SO(p.x + (p.y - p.x) * (f32(x.x >> 8u) * inv));
    } else {
        let u1 = (f32(x.x >> 8u) + 1.0) * inv;
        let u2 = f32(x.y >> 8u) * inv;
        out[i] = SO(p.x + p.y * (sqrt(-2.0 * log(u1)) * cos(6.2831853071795865 * u2)));
    }
}
