// fill.wgsl - creation kernels with no input: OP 0 full (value P.sv.x as bits of C), OP 1 arange
// (start P.sv.x + i * step P.sv.y, in C), OP 2 eye (1 where i / width == i % width, width P.aux.x).

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    let i = elem_id(g);
    if i >= P.n { return; }
    switch OP {
        case 0u: { out[i] = SO(bitcast<C>(P.sv.x)); }
        case 1u: { out[i] = SO(bitcast<C>(P.sv.x) + C(i) * bitcast<C>(P.sv.y)); }
        default: {
            let w = P.aux.x;
            out[i] = SO(select(0u, 1u, i / w == i % w));
        }
    }
}
