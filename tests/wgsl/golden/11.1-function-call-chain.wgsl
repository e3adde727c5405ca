fn a(x: u32) -> u32 { return x + 1u; }
fn b(x: u32) -> u32 { return a(x) * 2u; }
fn c(x: u32) -> u32 { return b(a(x)); }
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  out[0] = c(gid.x);
}
