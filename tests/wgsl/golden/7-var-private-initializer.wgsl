var<private> x: i32 = 1;
