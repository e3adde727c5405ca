// flash_sg.wgsl - flash3.wgsl's warp reductions with subgroup shuffles, appended after it by
// src/tensor/kernel.c (with `enable subgroups;` in the prelude) where the key asks for them
// (MC bit 3: attention.c's flash3_sg, the device has subgroups of 8 or more lanes).  sg_max /
// sg_sum: the maximum / sum over the lanes lid ^ 1, ^ 2, ^ 4 (with WQ the 8 columns of one row
// group in a warp: lc % 8 = lid % 8, and every subgroup is aligned lanes, a multiple of 8);
// flash_nosg.wgsl has the stand-ins for keys without the bit, where SG is false and they are
// never called.  sg_sum_n: qmatvec.wgsl's sums over runs of 8, 16 or 32 lanes.

fn sg_max(x: vec4<f32>) -> vec4<f32> {
    var y = max(x, subgroupShuffleXor(x, 1u));
    y = max(y, subgroupShuffleXor(y, 2u));
    return max(y, subgroupShuffleXor(y, 4u));
}

fn sg_sum(x: vec4<f32>) -> vec4<f32> {
    var y = x + subgroupShuffleXor(x, 1u);
    y = y + subgroupShuffleXor(y, 2u);
    return y + subgroupShuffleXor(y, 4u);
}

// the sum over aligned runs of n lanes (n = 8, 16 or 32; qmatvec.wgsl)
fn sg_sum_n(x: vec4<f32>, n: u32) -> vec4<f32> {
    var y = sg_sum(x);
    if n >= 16u { y = y + subgroupShuffleXor(y, 8u); }
    if n >= 32u { y = y + subgroupShuffleXor(y, 16u); }
    return y;
}
