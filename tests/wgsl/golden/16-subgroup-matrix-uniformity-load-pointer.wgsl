enable f16;
enable chromium_experimental_subgroup_matrix;
var<workgroup> w: array<array<f16, 256>, 4>;
@compute @workgroup_size(128) fn main(@builtin(local_invocation_index) li : u32) {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>>(&w[li / 32u], 0u, false, 16u);
  _ = m;
}
