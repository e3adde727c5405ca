// Swizzles through pointers are values of the pointee: load first, then OpVectorShuffle (issue 21).
@group(0) @binding(0) var<storage, read_write> out: array<vec4f, 4>;
var<private> pv = vec4f(5, 6, 7, 8);
fn g(q: ptr<function, vec4f>) -> vec3f { return q.zyx; }
@compute @workgroup_size(1) fn main() {
  var v = vec4f(1, 2, 3, 4);
  let p = &v;
  out[0] = p.wzyx;
  out[1] = vec4f(g(p), p.x);
  let pp = &pv;
  out[2] = vec4f(pp.ww, (*pp).xy);
  let po = &out[0];
  out[3] = po.yxwz;
}
