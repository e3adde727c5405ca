// scan.wgsl - cumsum (src/tensor/reduce.c): inclusive prefix sums along one dim, one workgroup
// per block of 256 elements of a row, a Hillis-Steele scan in shared memory in the compute type.
// Rows are the kept dims P.shape[0 .. P.ndim) with input strides in input 0's slots of P.st and
// output strides in input 1's slots; the scanned dim is dim P.ndim (length P.aux.y, input stride
// and output stride in the same slots).  P.aux = (rows, length, blocks per row, 0).
//   OP 0: write the scanned values, plus (MB == 1) the inclusive sum of the earlier blocks of the
//         row, read from b[row * blocks + block - 1] (the cumsum of the block totals);
//   OP 1: write each block's total to out[row * blocks + block] (a contiguous [rows, blocks]).
// Long rows thus take three dispatches per level: totals, cumsum of the totals, scan + prefix.

var<workgroup> ws: array<C, 256>;

fn sidx(d: u32, k: u32) -> i32 {
    return P.st[2u * k + (d >> 2u)][d & 3u];
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let R = P.aux.x;
    let L = P.aux.y;
    let B = P.aux.z;
    let w = wid.y * P.gx + wid.x;
    let live = w < R * B;
    var row = 0u;
    var blk = 0u;
    var v = C(0);
    let nd = P.ndim;
    if live {
        row = w / B;
        blk = w % B;
        let j = blk * 256u + lid;
        if j < L {
            v = C(a[u32(offset_of(row, 0u, i32(P.off[0])) + i32(j) * sidx(nd, 0u))]);
        }
    }
    ws[lid] = v;
    workgroupBarrier();
    var off = 1u;
    loop {
        if off >= 256u { break; }
        var t = C(0);
        if lid >= off { t = ws[lid - off]; }
        workgroupBarrier();
        ws[lid] = ws[lid] + t;
        workgroupBarrier();
        off = off << 1u;
    }
    if !live { return; }
    if OP == 1u {
        if lid == 255u { out[row * B + blk] = SO(ws[255]); }
        return;
    }
    let j = blk * 256u + lid;
    if j >= L { return; }
    var pre = C(0);
    if MB == 1u && blk > 0u { pre = C(b[row * B + blk - 1u]); }
    out[u32(offset_of(row, 1u, i32(P.off[1])) + i32(j) * sidx(nd, 1u))] = SO(ws[lid] + pre);
}
