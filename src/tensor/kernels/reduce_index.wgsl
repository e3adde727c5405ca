// reduce_index.wgsl - element addressing shared by reduce.wgsl and reduce4.wgsl (src/tensor/kernel.c
// puts it after either): the kept dims come first (P.shape[0 .. P.ndim), strides P.st) and the
// reduced dims after them (P.shape[P.ndim .. P.ndim + P.sv.y)); element (o, r) of input 0 lives
// at base(o) + roff(r).

fn st(d: u32) -> i32 {
    return P.st[d >> 2u][d & 3u];
}

fn dim(d: u32) -> u32 {
    return P.shape[d >> 2u][d & 3u];
}

// offset of output o's first element (kept dims 0 .. P.ndim, strides P.st, offset P.off[0])
fn base(o: u32) -> i32 {
    return i32(strided_index(o, 0u));
}

// offset of reduced element r (reduced dims P.ndim .. P.ndim + P.sv.y)
fn roff(r: u32) -> i32 {
    let nk = P.ndim;
    let nr = P.sv.y;
    if nr == 0u { return 0; }
    if nr == 1u { return i32(r) * st(nk); }
    var rem = r;
    var o = 0;
    var d = nk + nr;
    loop {
        if d == nk { break; }
        d = d - 1u;
        let sz = dim(d);
        let q = rem / sz;
        o = o + i32(rem - q * sz) * st(d);
        rem = q;
    }
    return o;
}
