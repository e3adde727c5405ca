// Several subgroups per workgroup: each loads its own tile at an offset derived from
// subgroup_id (uniform within the subgroup); subgroup_id needs no `enable subgroups` here.
enable f16;
enable chromium_experimental_subgroup_matrix;
var<workgroup> w : array<f16, 1024>;
@group(0) @binding(0) var<storage, read_write> o : array<f32>;
@compute @workgroup_size(128) fn main(@builtin(subgroup_id) sid : u32) {
  for (var k = 0u; k < 4u; k++) {
    let m = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>>(&w, sid * 256u + k * 16u, false, 16u);
    var acc = subgroup_matrix_result<f32, 16, 16>();
    acc = subgroupMatrixMultiplyAccumulate(m, subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>>(&w, 0u, false, 16u), acc);
    subgroupMatrixStore(&o, sid * 256u, acc, false, 16u);
  }
}
