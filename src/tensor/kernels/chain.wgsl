// chain.wgsl - the fused elementwise chain of src/tensor/batch.c, shared by the unary_f and
// binary_f kernels: after the kernel's own op, links LINK1 .. LINK<NCHAIN> (kernel.c's prelude) in order, each a unary float
// op (code < 64: unary_code) or a binary float op whose right operand is a scalar (64 + its
// binary code), the scalar's bits in word i of P.st[4..5] for link i (the strides of a third
// input, which one- and two-input kernels do not have).  Every value stays f32, as the separate
// kernels stored it between the ops.  Only kernels with a chain include this file.

fn link(y: f32, code: u32, i: u32) -> f32 {
    if code >= 64u { return binary_code(y, bitcast<f32>(P.st[4u + i / 4u][i % 4u]), code - 64u); }
    return unary_code(y, code);
}

fn chain(x: f32) -> f32 {
    var y = x;
    if NCHAIN > 0u { y = link(y, LINK1, 0u); }
    if NCHAIN > 1u { y = link(y, LINK2, 1u); }
    if NCHAIN > 2u { y = link(y, LINK3, 2u); }
    if NCHAIN > 3u { y = link(y, LINK4, 3u); }
    if NCHAIN > 4u { y = link(y, LINK5, 4u); }
    if NCHAIN > 5u { y = link(y, LINK6, 5u); }
    if NCHAIN > 6u { y = link(y, LINK7, 6u); }
    return y;
}
