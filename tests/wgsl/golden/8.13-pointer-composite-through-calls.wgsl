alias V = vec4<f32>;
struct P { a: V, b: array<V, 2> }
@group(0) @binding(0) var<storage, read_write> out: array<P>;
fn fetch(p: ptr<storage, P, read_write>) -> V { return p.b[1] + (*p).a; }
@compute @workgroup_size(1)
fn main() {
  let p = &out[2];
  p.a = fetch(p);
  let q = &p.b;
  q[0] = vec4f(1.0);
  var loc = out[0];
  let lp = &loc.b[1];
  lp.x = 3.0;
  out[1] = loc;
}
