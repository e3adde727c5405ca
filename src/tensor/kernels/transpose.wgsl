// transpose.wgsl - the contiguous copy of a view whose last two dims are swapped (the input's
// dim -2 has stride 1): 32x32 tiles go through shared memory so that both the reads (down the
// input's contiguous columns) and the writes (along the output's rows) are coalesced.  Leading
// (batch) dims: P.shape[0 .. P.ndim) with input strides in input 0's slots.  P.aux = (rows R,
// cols C, input stride of a col, tiles per batch); the output is [batch..., R, C] contiguous;
// workgroup w: batch w / tiles, tile row (w % tiles) / ceil(C / 32), tile col the rest.  A lane
// (x, y) of the 32 x 8 workgroup moves rows y, y + 8, y + 16, y + 24 of the tile.

var<workgroup> tile: array<array<SA, 33>, 32>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let R = P.aux.x;
    let C = P.aux.y;
    let sc = i32(P.aux.z);
    let tiles = P.aux.w;
    let w = wid.y * P.gx + wid.x;
    let tcols = (C + 31u) / 32u;
    let b = w / tiles;
    let t = w % tiles;
    let i0 = (t / tcols) * 32u;
    let j0 = (t % tcols) * 32u;
    let x = lid & 31u;
    let y = lid >> 5u;
    let live = w < P.n / 256u;
    var base = 0;
    if live { base = offset_of(b, 0u, i32(P.off[0])); }
    // read: lane x walks down the input's contiguous dim (rows i), y picks the column j
    for (var k = 0u; k < 32u; k = k + 8u) {
        let i = i0 + x;
        let j = j0 + y + k;
        if live && i < R && j < C {
            tile[y + k][x] = a[u32(base + i32(i) + i32(j) * sc)];
        }
    }
    workgroupBarrier();
    // write: lane x walks along the output's row i
    for (var k = 0u; k < 32u; k = k + 8u) {
        let i = i0 + y + k;
        let j = j0 + x;
        if live && i < R && j < C {
            out[(b * R + i) * C + j] = SO(tile[x][y + k]);
        }
    }
}
