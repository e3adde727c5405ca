var<storage,,> a: i32;
