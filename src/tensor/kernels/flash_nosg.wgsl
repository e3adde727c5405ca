// flash_nosg.wgsl - stand-ins for flash_sg.wgsl's functions, appended after flash3.wgsl by
// src/tensor/kernel.c where the key does not ask for subgroups (MC bit 3 clear: SG is false and
// flash3.wgsl never calls them; they only let it compile without `enable subgroups;`).

fn sg_max(x: vec4<f32>) -> vec4<f32> { return x; }
fn sg_sum(x: vec4<f32>) -> vec4<f32> { return x; }
fn sg_sum_n(x: vec4<f32>, n: u32) -> vec4<f32> { return x; }
