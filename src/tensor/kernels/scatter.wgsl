// scatter.wgsl - scatter_add (src/tensor/movement.c) into out, a fresh copy of the target:
// element i of the index's shape P.shape adds a[P.off[0] + i . strides 0] (the source) at
// out[i . strides 2 + index * P.aux.y], index = b[P.off[1] + i . strides 1], strides 2 being the
// target's contiguous strides with 0 along dim (size P.aux.x).  Integers add with atomicAdd on
// the u32 bits (two's complement: the same sum); f32 adds with a compare-exchange loop.  A
// negative index counts from the end; one out of range is skipped.

@group(0) @binding(0) var<storage, read_write> out: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read> a: array<SA>;
@group(0) @binding(2) var<storage, read> b: array<SB>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    let i = elem_id(g);
    if i >= P.n { return; }
    let k = wrap_index(u32(b[strided_index(i, 1u)]), i32(P.aux.x));
    if k < 0 { return; }
    let dst = u32(i32(strided_index(i, 2u)) + k * bitcast<i32>(P.aux.y));
    let v = a[strided_index(i, 0u)];
    if OP == 0u {
        atomicAdd(&out[dst], bitcast<u32>(v));
        return;
    }
    var old = atomicLoad(&out[dst]);
    loop {
        let r = atomicCompareExchangeWeak(&out[dst], old, bitcast<u32>(bitcast<f32>(old) + f32(v)));
        if r.exchanged { break; }
        old = r.old_value;
    }
}
