var<storage> x: i32;
