// unary_f.wgsl - unary float ops, computed in f32 (f16 tensors convert on load and store):
// `fn unary_code(x: f32, code: u32) -> f32`, code = WT_UNARY_TABLE's in src/tensor/ops.c.
// kernel.c puts it together with binary_f.wgsl, chain.wgsl, `fn op(x) = chain(unary_code(x, OP))`
// and the entry point of map1.wgsl / map1v4.wgsl.

fn erf_approx(x: f32) -> f32 {
    // Abramowitz & Stegun 7.1.26, |error| <= 1.5e-7
    let t = 1.0 / (1.0 + 0.3275911 * abs(x));
    let y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * exp(-x * x);
    return select(-y, y, x >= 0.0);
}

fn safe_tanh(x: f32) -> f32 {
    let t = exp(-2.0 * abs(x));
    let r = (1.0 - t) / (1.0 + t);
    return select(-r, r, x >= 0.0);
}

fn sigmoid(x: f32) -> f32 {
    return 1.0 / (1.0 + exp(-x));
}

fn unary_code(x: f32, code: u32) -> f32 {
    switch code {
        case 0u: { return -x; }
        case 1u: { return abs(x); }
        case 2u: { return exp(x); }
        case 3u: { return log(x); }
        case 4u: { return sqrt(x); }
        case 5u: { return inverseSqrt(x); }
        case 6u: { return sin(x); }
        case 7u: { return cos(x); }
        case 8u: { return safe_tanh(x); }
        case 9u: { return sigmoid(x); }
        case 10u: { return max(x, 0.0); }
        case 11u: { return x * sigmoid(x); }
        case 12u: { return 0.5 * x * (1.0 + erf_approx(x * 0.70710678118654752)); }
        case 13u: { return floor(x); }
        case 14u: { return ceil(x); }
        case 15u: { return round(x); }
        case 16u: { return sign(x); }
        case 17u: { return 1.0 / x; }
        case 18u: { return min(max(x, bitcast<f32>(P.sv.x)), bitcast<f32>(P.sv.y)); }
        default: { return x; }
    }
}
