fn f() { let a = bitcast<u32>(1.0); let b = bitcast<i32>(1u); }
