@group(0) @binding(0) var<uniform, read> x: i32;
