enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> s : array<f16>;
@group(0) @binding(1) var<storage, read_write> o : array<f32>;
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) li : u32) {
  if li == 0u { subgroupMatrixStore(&s, 0u, subgroup_matrix_left<f16, 8, 8>(), false, 8u); }
}
