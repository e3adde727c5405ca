enable f16;
@group(0) @binding(0) var<storage, read_write> outh: mat2x2h;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  outh = outh * mat2x2h(1.0h, 0.0h, 0.0h, 1.0h);
}
