fn f() { let a = f32(1i); let b = i32(2.7); let c = u32(true); let d = bool(1.0); }
