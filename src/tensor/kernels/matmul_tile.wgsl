// matmul_tile.wgsl - the tile walk shared by matmul2.wgsl, matmul3.wgsl and matmul4.wgsl (src/tensor/kernel.c puts it after each).  Workgroup g of the grid computes one
// output tile: batch bi = g / (tiles_m x tiles_n) (P.sv.w x P.off.w), then inside the batch the
// tiles are visited in groups of 8 tile rows (a wave of workgroups reuses the same columns of B
// from L2).  A's and B's element offsets for the batch add batch coordinate x stride over the
// P.ndim batch dims (P.shape; strides P.st[0..1] for A, P.st[2..3] for B; 0 = broadcast) to
// P.off.x / P.off.y.  live is false for the grid's padding workgroups (g >= P.n / 256).

fn ast(d: u32) -> i32 { return P.st[d >> 2u][d & 3u]; }
fn bst(d: u32) -> i32 { return P.st[2u + (d >> 2u)][d & 3u]; }

struct MmTile {
    live: bool,
    bi: u32,          // batch
    tm: u32,          // tile row
    tn: u32,          // tile column
    oa: u32,          // A's offset for the batch
    ob: u32,          // B's offset for the batch
}

fn mm_tile(g: u32) -> MmTile {
    var r: MmTile;
    let tiles_m = P.sv.w;
    let tiles_n = P.off.w;
    let per_batch = tiles_m * tiles_n;
    r.live = g < P.n / 256u;
    r.bi = g / per_batch;
    let pid = g - r.bi * per_batch;
    let in_group = 8u * tiles_n;
    let first_m = (pid / in_group) * 8u;
    let gsz = min(tiles_m - first_m, 8u);
    let pg = pid % in_group;
    r.tm = first_m + pg % gsz;
    r.tn = pg / gsz;
    var oa = P.off.x;
    var ob = P.off.y;
    var rem = r.bi;
    var d = P.ndim;
    loop {
        if d == 0u { break; }
        d = d - 1u;
        let sz = P.shape[d >> 2u][d & 3u];
        let q = rem / sz;
        let cd = rem - q * sz;
        oa = u32(i32(oa) + i32(cd) * ast(d));
        ob = u32(i32(ob) + i32(cd) * bst(d));
        rem = q;
    }
    r.oa = oa;
    r.ob = ob;
    return r;
}
