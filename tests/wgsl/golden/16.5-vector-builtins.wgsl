@group(0) @binding(0) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let v = vec3f(out[0], out[1], out[2]);
  let w = vec3f(1.0, 0.0, 0.0);
  out[3] = length(v) + distance(v, w) + dot(v, w) + cross(v, w).y + normalize(v).x + reflect(v, w).z + faceForward(v, w, v).x + refract(v, w, 0.5).y;
}
