@group(0) @binding(0) var<storage, read_write> o: vec4f;
fn set_wx(p: ptr<function, vec4f>, x: vec2f) { p.wx = x; }
@compute @workgroup_size(1) fn main() {
  var v = vec4f(1.0, 2.0, 3.0, 4.0);
  v.zx = vec2f(10.0, 30.0);
  v.yx += vec2f(18.0, 0.0);
  set_wx(&v, v.xy);
  o.yw = v.xz;
  o.rgb *= 2.0;
  v.zyx.yx = vec2f(5.0, 6.0);
  o.xy.y += v.w;
}
