const x = array<f32, 2 3>();
