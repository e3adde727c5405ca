fn f() { let a = dot4U8Packed(1u, 2u); let b = dot4I8Packed(1u, 2u); }
