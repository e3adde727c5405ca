fn f() { let m = mat3x3<f32>(); let d = determinant(m); let t = transpose(mat2x3<f32>()); }
