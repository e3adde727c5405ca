enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> s : array<f16>;
@group(0) @binding(1) var<storage, read_write> u : array<u32>;
fn f(b : bool) { let m = subgroupMatrixLoad<subgroup_matrix_left<f16, 8, 8>>(&s, 0u, b, 8u); }
