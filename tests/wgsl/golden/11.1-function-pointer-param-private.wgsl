var<private> g: u32;
fn bump(p: ptr<private, u32>) { *p += 1u; }
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  bump(&g);
  out[0] = g;
}
