@group(0) @binding(0) var<storage, read> x: atomic<u32>;
