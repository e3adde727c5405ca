@compute @workgroup_size(1) fn f() -> @location(0) f32 { return 1.0; }
