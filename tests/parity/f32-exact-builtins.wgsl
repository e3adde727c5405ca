// Builtins whose results are exact for these inputs: ldexp, frexp, modf, fma on small
// integers, dot of small integer vectors, mix at t = 0 and 1; length(3k, 4k) = 5k only within
// 4 ulp (WGSL's sqrt need not be correctly rounded), so slot 6 has its own tolerance.
// @dispatch 1
// @bind 0:0 storage rw 256
// @expect-py 0:0 f32 [v for k in range(8) for v in ((k + 0.5) * 2 ** (k - 3), math.frexp(k * 3.5 + 1)[0], float(math.frexp(k * 3.5 + 1)[1]), (k * 1.25) % 1.0, float(int(k * 1.25)), k * 3.0 + 2.0, None, k - 0.5 if k % 2 else 10.0)]
// @expect-py 0:0 f32 ulp:4 [v for k in range(8) for v in (None, None, None, None, None, None, 5.0 * k, None)]
// @compare 0:0 ulp:4
@group(0) @binding(0) var<storage, read_write> r: array<array<f32, 8>, 8>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) l: u32) {
  let k = f32(l);
  r[l][0] = ldexp(k + 0.5, i32(l) - 3);
  let fr = frexp(k * 3.5 + 1.0);
  r[l][1] = fr.fract;
  r[l][2] = f32(fr.exp);
  let mf = modf(k * 1.25);
  r[l][3] = mf.fract;
  r[l][4] = mf.whole;
  r[l][5] = fma(k, 3.0, 2.0);
  r[l][6] = length(vec2f(3.0 * k, 4.0 * k)) + dot(vec3f(k, 0.0, 1.0), vec3f(0.0, 5.0, 0.0));
  r[l][7] = select(mix(10.0, 20.0, 0.0), mix(k, k - 0.5, 1.0), (l & 1u) == 1u);
}
