// chain.wgsl - the fused elementwise chain of src/tensor/batch.c, shared by the unary_f and
// binary_f kernels: after the kernel's own op, links OP1 .. OP<NCH> in order, each a unary float
// op (code < 64: unary_code) or a binary float op whose right operand is a scalar (64 + its
// binary code), the scalar's bits in word i of P.st[4..5] for link i (the strides of a third
// input, which one- and two-input kernels do not have).  Every value stays f32, as the separate
// kernels stored it between the ops.  NCH = 0 (no chain) reduces to the identity.

fn link(y: f32, code: u32, i: u32) -> f32 {
    if code >= 64u { return binary_code(y, bitcast<f32>(P.st[4u + i / 4u][i % 4u]), code - 64u); }
    return unary_code(y, code);
}

fn chain(x: f32) -> f32 {
    var y = x;
    if NCH > 0u { y = link(y, OP1, 0u); }
    if NCH > 1u { y = link(y, OP2, 1u); }
    if NCH > 2u { y = link(y, OP3, 2u); }
    if NCH > 3u { y = link(y, OP4, 3u); }
    if NCH > 4u { y = link(y, OP5, 4u); }
    if NCH > 5u { y = link(y, OP6, 5u); }
    if NCH > 6u { y = link(y, OP7, 6u); }
    return y;
}
