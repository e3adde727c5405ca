// flash_tc.wgsl - the functions flash_coop.wgsl (f16) and flash_x3.wgsl (f32 split into f16 parts)
// share (src/tensor/kernel.c puts this after either).  The including file declares the bindings
// out (array<SO>), qb, kb, vb (16-byte chunks), the head dim D, EPC (elements per 16-byte chunk),
// the workgroup array sc (4 x 256 f32 at least) and the alias Acc.

fn neg_inf() -> f32 {
    return bitcast<f32>(0xff800000u | P.pad0);
}

// chunk c (EPC elements of head dims EPC c..) of row r of operand k (0 q, 1 k, 2 v) at (b, h);
// zeros past `rows`
fn chunk(k: u32, b: u32, h: u32, r: u32, c: u32, rows: u32) -> vec4<u32> {
    if r >= rows { return vec4<u32>(); }
    let s = P.st[2u * k];
    let e = u32(i32(P.off[k]) + i32(b) * s.x + i32(h) * s.y + i32(r) * s.z) + c * EPC;
    if k == 0u { return qb[e / EPC]; }
    if k == 1u { return kb[e / EPC]; }
    return vb[e / EPC];
}

// One O accumulator with row R's part scaled by `a` (the invocation's half row of 8 columns).
fn rescale(o: Acc, sid: u32, li: u32, a: f32) -> Acc {
    workgroupBarrier();
    subgroupMatrixStore(&sc, sid * 256u, o, false, 16u);
    workgroupBarrier();
    let R = li / 2u;
    let base = (R / 16u) * 256u + (R % 16u) * 16u + (li % 2u) * 8u;
    for (var c = 0u; c < 8u; c++) { sc[base + c] *= a; }
    workgroupBarrier();
    return subgroupMatrixLoad<Acc>(&sc, sid * 256u, false, 16u);
}

// One O accumulator (head dims 16 i..) of every subgroup to out, times f (1 / the row sum, and
// for flash_x3.wgsl O's scale).
fn emit(o: Acc, i: u32, sid: u32, li: u32, f: f32, ob: u32, q0: u32, Lq: u32) {
    workgroupBarrier();
    subgroupMatrixStore(&sc, sid * 256u, o, false, 16u);
    workgroupBarrier();
    let R = li / 2u;
    let base = (R / 16u) * 256u + (R % 16u) * 16u + (li % 2u) * 8u;
    if q0 + R < Lq {
        let e = ob + (q0 + R) * D + i * 16u + (li % 2u) * 8u;
        for (var c = 0u; c < 8u; c++) { out[e + c] = SO(sc[base + c] * f); }
    }
}
