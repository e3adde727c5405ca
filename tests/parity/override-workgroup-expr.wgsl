// A workgroup size from an override expression (@workgroup_size(base * 2, 1)), an override used
// in a workgroup array size and in a loop bound; default values where not overridden.
// @dispatch 2
// @override base=16
// @bind 0:0 storage rw 256
// @expect-py 0:0 u32 [(g % 32) * 3 + 5 for g in range(64)]
override base: u32 = 8;
override steps: u32 = 5;
var<workgroup> scratch: array<u32, base * 2>;
@group(0) @binding(0) var<storage, read_write> r: array<u32, 64>;

@compute @workgroup_size(base * 2, 1)
fn main(@builtin(global_invocation_id) g: vec3u, @builtin(local_invocation_index) l: u32) {
  scratch[l] = l * 3u;
  workgroupBarrier();
  var acc = scratch[l];
  for (var k = 0u; k < steps; k++) { acc += 1u; }
  r[g.x] = acc;
}
