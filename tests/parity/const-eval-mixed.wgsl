// const and abstract-numeric expressions folded at compile time combined with runtime values:
// large abstract intermediate results, const arrays indexed at runtime, const-declared vectors.
// @dispatch 1
// @bind 0:0 storage rw 128
// @expect-py 0:0 i32 [v for i in range(8) for v in (3000000000 // 1000 + i, [2, 3, 5, 7, 11, 13, 17, 19][i], 6 * i + 1, -2147483648 + i)]
const big = 3000000000;                 // abstract int, too big for i32, fine in const-eval
const primes = array<i32, 8>(2, 3, 5, 7, 11, 13, 17, 19);
const v = vec3(1, 2, 3);
const minint = -2147483647i - 1i;     // (the literal 2147483648i alone would not fit)
@group(0) @binding(0) var<storage, read_write> r: array<vec4i, 8>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) l: u32) {
  let i = i32(l);
  var idx = l;
  r[l] = vec4i(big / 1000 + i, primes[idx], (v.x + v.y + v.z) * i + v.x, minint + i);
}
