const a = bitcast<f32>(0x7fc00000u);
