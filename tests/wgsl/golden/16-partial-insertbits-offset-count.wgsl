@group(0) @binding(0) var<storage, read_write> o: array<f32>;
@compute @workgroup_size(1) fn main() {
  o[0] = f32(insertBits(1u, u32(o[1]), 20u, 20u));
}
