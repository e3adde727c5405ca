@group(1) @binding(3) var<storage, read> a: array<u32>;
@group(2) @binding(0) var<storage, read> b: array<u32>;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  out[0] = a[0] + b[0];
}
