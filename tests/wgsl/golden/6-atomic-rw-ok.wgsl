@group(0) @binding(0) var<storage, read_write> x: atomic<u32>;
