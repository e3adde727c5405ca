enable f16;
fn f() { var m : subgroup_matrix_left<f16, 8, 8>; }
