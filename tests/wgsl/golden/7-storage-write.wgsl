@group(0) @binding(0) var<storage, write> x: i32;
