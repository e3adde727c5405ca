// Module-scope private variables with and without initializers start fresh in every invocation;
// function-scope vars without initializers are zero.
// @dispatch 2
// @bind 0:0 storage rw 512
// @expect-py 0:0 u32 [v for g in range(32) for v in (42 + g, 0 + g, 7, 0)]
var<private> counter: u32 = 42u;
var<private> plain: u32;
var<private> pv: vec2u = vec2u(3u, 4u);
@group(0) @binding(0) var<storage, read_write> r: array<vec4u, 32>;

@compute @workgroup_size(16)
fn main(@builtin(global_invocation_id) g: vec3u) {
  counter += g.x;
  plain += g.x;
  var z: u32;
  var zs: array<u32, 3>;
  r[g.x] = vec4u(counter, plain, pv.x + pv.y, z + zs[0] + zs[1] + zs[2]);
}
