// Pipeline-overridable constants: named and @id, with and without defaults, bool, an override
// expression depending on another, and an override workgroup size.
// @dispatch 2
// @override scale=3
// @override 7=-4
// @override flag=true
// @override wg=32
// @bind 0:0 storage rw 1024
// @expect-py 0:0 i32 [v for i in range(64) for v in (3 * i - 4, 3 * i + 5, 10, 32)]
override scale: i32;
@id(7) override bias: i32 = 1;
override flag: bool = false;
override keep: i32 = 5;
override scale_plus: i32 = scale + keep;
override wg: u32 = 64;
@group(0) @binding(0) var<storage, read_write> r: array<vec4i, 64>;

@compute @workgroup_size(wg)
fn main(@builtin(global_invocation_id) g: vec3u) {
  let i = i32(g.x);
  r[g.x] = vec4i(scale * i + bias, scale * i + keep, select(0, 10, flag) + scale_plus - 8, i32(wg));
}
