// act_bw.wgsl - the gradients of the activations (src/tensor/nn_backward.c): dx = dy f'(x),
// `fn op(x, dy)` for map2.wgsl / map2v4.wgsl; unary_f.wgsl (appended) gives sigmoid and
// erf_approx, so the derivative matches the forward's formula.
//   OP 0 silu:  s (1 + x (1 - s)), s = sigmoid(x)
//   OP 1 gelu:  Phi(x) + x phi(x), Phi(x) = (1 + erf(x / sqrt 2)) / 2, phi the normal density

fn op(x: f32, dy: f32) -> f32 {
    if OP == 0u {
        let s = sigmoid(x);
        return dy * (s * (1.0 + x * (1.0 - s)));
    }
    let cdf = 0.5 * (1.0 + erf_approx(x * 0.70710678118654752));
    let pdf = 0.3989422804014327 * exp(-0.5 * x * x);
    return dy * (cdf + x * pdf);
}
