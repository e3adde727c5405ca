// rows.wgsl - the row statistics shared by norm4.wgsl and softmax4.wgsl (src/tensor/kernel.c puts
// it after either): LPR lanes per row (the including file's constant), shared memory for the
// lanes' values and the rows' partials.

var<workgroup> red: array<f32, 256>;
var<workgroup> red2: array<f32, 128>;

// The sum (or max) over the LPR lanes of each row in two barriers: lanes l < 16 of a row fold
// LPR / 16 values each, then every lane folds the row's 16 partials.  A following call is safe
// (its first barrier orders it after this call's reads).
fn row_reduce(lid: u32, v: f32, is_max: bool) -> f32 {
    red[lid] = v;
    workgroupBarrier();
    let l = lid % LPR;
    let head = lid - l;
    let pb = head / LPR * 16u;
    if l < 16u {
        var x = red[head + l];
        for (var i = 1u; i < LPR / 16u; i = i + 1u) {
            let y = red[head + l + 16u * i];
            x = select(x + y, max(x, y), is_max);
        }
        red2[pb + l] = x;
    }
    workgroupBarrier();
    var x = red2[pb];
    for (var i = 1u; i < 16u; i = i + 1u) {
        let y = red2[pb + i];
        x = select(x + y, max(x, y), is_max);
    }
    return x;
}
