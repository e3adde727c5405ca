@group(0) @binding(0) var<storage> x: bool;
