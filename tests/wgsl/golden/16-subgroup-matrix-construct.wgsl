enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> s : array<f16>;
@group(0) @binding(1) var<storage, read_write> u : array<u32>;
fn f() { let m = subgroup_matrix_result<f32, 8, 8>(1.0); var x = subgroup_matrix_right<i32, 8, 8>(3); _ = m; }
