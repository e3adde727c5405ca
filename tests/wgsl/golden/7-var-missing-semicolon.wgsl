var<private> x: i32
