fn f() -> u32 { return 3u; }
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  _ = out[0];
  _ = f();
  out[1] = 1u;
}
