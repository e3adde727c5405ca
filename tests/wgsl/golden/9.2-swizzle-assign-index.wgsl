// One element of a swizzle of a vector reference is assignable, also through a pointer and with
// a runtime index (clamped to the swizzle, then mapped to the vector's component).
@group(0) @binding(0) var<storage, read_write> o : vec4i;

fn put(p : ptr<function, vec4i>, i : u32) {
  p.wzyx[i] = 7;
  (*p).xz[1] += 5;
}

@compute @workgroup_size(1)
fn main(@builtin(local_invocation_index) i : u32) {
  var v = vec4i(1, 2, 3, 4);
  v.xyz[1] = 2;
  v.zyx.yx[i] *= 3;
  put(&v, i);
  o.yx[0] = v.x;
  o.xy[i] = v.w;
}
