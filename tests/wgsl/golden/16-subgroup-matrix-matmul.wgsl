enable f16;
enable chromium_experimental_subgroup_matrix;

@group(0) @binding(0) var<storage, read> a : array<f16>;
@group(0) @binding(1) var<storage, read> b : array<f16>;
@group(0) @binding(2) var<storage, read_write> c : array<f32>;
var<workgroup> tile : array<f16, 256>;

@compute @workgroup_size(32)
fn main(@builtin(workgroup_id) wg : vec3<u32>) {
  var acc = subgroup_matrix_result<f32, 16, 16>();
  var z : subgroup_matrix_result<f32, 16, 16> = subgroup_matrix_result<f32, 16, 16>(0.0);
  for (var k = 0u; k < 64u; k += 16u) {
    let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>>(&a, wg.x * 1024u + k, false, 64u);
    let r = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>>(&b, k * 64u, true, 64u);
    acc = subgroupMatrixMultiplyAccumulate(l, r, acc);
  }
  let t = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>>(&tile, 0u, false, 16u);
  let p = subgroupMatrixMultiply<f32>(t, subgroup_matrix_right<f16, 16, 16>());
  subgroupMatrixStore(&c, wg.x * 256u, acc, false, 16u);
  subgroupMatrixStore(&c, 0u, p, true, 16u);
  subgroupMatrixStore(&c, 0u, z, true, 16u);
}
