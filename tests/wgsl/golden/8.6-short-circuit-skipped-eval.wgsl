// The operand that a constant lhs of && / || skips is type-checked but not evaluated: its
// const-evaluation errors are not raised, and the whole expression is the constant lhs (a
// const-expression even when the skipped operand is not).
@group(0) @binding(0) var<storage, read_write> o : array<u32, 4>;

const a = false && (1 / 0 == 0);
const b = true || (i32(5000000000) == 0);

@compute @workgroup_size(1)
fn main(@builtin(local_invocation_index) i : u32) {
  let x = i32(i);
  const c = false && (x / 0 == 0);
  let v = vec2(1, 2);
  let d = false && (v[5] == 0 || sqrt(-1.0) == 0.0);
  let e = true || (array(1, 2)[2] == 0 && (1i << 33u) == 0);
  o[0] = u32(a) + u32(b) * 2u + u32(c) * 4u + u32(d) * 8u + u32(e) * 16u;
}
