// copy.wgsl - a strided copy into a strided destination (src/tensor/movement.c: cat, stack):
// element i of the logical shape P.shape (rank P.ndim) goes from a[P.off[0] + i . strides 0] to
// out[P.off[1] + i . strides 1], so one dispatch fills one slice of a larger output in place.
// One decomposition of i serves both sides.  MB == 1: each invocation copies 4 neighbours along
// the last dim (its size is a multiple of 4; P.n counts invocations), 4 loads in flight.

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    let i = elem_id(g);
    if i >= P.n { return; }
    var e = i;
    if MB == 1u { e = 4u * i; }
    let st = strided_pair(e);
    let s = st.x;
    let t = st.y;
    if MB == 1u {
        let l = P.ndim - 1u;
        let ss = P.st[l >> 2u][l & 3u];
        let ts = P.st[2u + (l >> 2u)][l & 3u];
        let v0 = a[u32(s)];
        let v1 = a[u32(s + ss)];
        let v2 = a[u32(s + 2 * ss)];
        let v3 = a[u32(s + 3 * ss)];
        out[u32(t)] = SO(v0);
        out[u32(t + ts)] = SO(v1);
        out[u32(t + 2 * ts)] = SO(v2);
        out[u32(t + 3 * ts)] = SO(v3);
    } else {
        out[u32(t)] = SO(a[u32(s)]);
    }
}
