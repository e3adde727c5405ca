@group(0) @binding(0) var<private> x: i32;
