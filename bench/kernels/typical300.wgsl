// typical300.wgsl - a typical 300-line compute kernel file for `wgc bench compile` (and the
// pipeline-creation kernel of `wgc bench runtime`): the pieces of a transformer block as a
// tensor library would write them - layer norm with a workgroup reduction, a row softmax, a
// tiled matrix product in workgroup memory, GELU, a residual add and an atomic histogram.
// SALT is rewritten by the runtime benchmark to make every cold pipeline a new one.

const SALT: f32 = 1.0;
const TILE: u32 = 16u;
const WG: u32 = 256u;
const EPS: f32 = 1e-5;

struct Params {
    rows: u32,
    cols: u32,
    inner: u32,
    flags: u32,
    scale: f32,
    bias: f32,
    pad0: f32,
    pad1: f32,
}

struct Stats {
    mean: f32,
    rstd: f32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read> w: array<f32>;
@group(0) @binding(3) var<storage, read_write> y: array<f32>;
@group(0) @binding(4) var<storage, read_write> stats: array<Stats>;
@group(0) @binding(5) var<storage, read_write> hist: array<atomic<u32>, 64>;

var<workgroup> red_sum: array<f32, WG>;
var<workgroup> red_sq: array<f32, WG>;
var<workgroup> tile_a: array<array<f32, TILE>, TILE>;
var<workgroup> tile_b: array<array<f32, TILE>, TILE>;

fn gelu(v: f32) -> f32 {
    let k0 = 0.7978845608;
    let k1 = 0.044715;
    let inner = k0 * (v + k1 * v * v * v);
    return 0.5 * v * (1.0 + tanh(inner));
}

fn gelu4(v: vec4<f32>) -> vec4<f32> {
    return vec4<f32>(gelu(v.x), gelu(v.y), gelu(v.z), gelu(v.w));
}

fn index2(r: u32, c: u32, ncols: u32) -> u32 {
    return r * ncols + c;
}

fn safe_div(a: f32, b: f32) -> f32 {
    if (abs(b) < 1e-30) {
        return 0.0;
    }
    return a / b;
}

fn bucket_of(v: f32) -> u32 {
    let t = clamp((v + 4.0) / 8.0, 0.0, 0.999999);
    return u32(t * 64.0);
}

// Tree reduction of red_sum and red_sq over the workgroup; every invocation gets the totals.
fn reduce_pair(lid: u32) -> vec2<f32> {
    var stride = WG / 2u;
    loop {
        if (stride == 0u) {
            break;
        }
        if (lid < stride) {
            red_sum[lid] = red_sum[lid] + red_sum[lid + stride];
            red_sq[lid] = red_sq[lid] + red_sq[lid + stride];
        }
        workgroupBarrier();
        stride = stride / 2u;
    }
    return vec2<f32>(red_sum[0], red_sq[0]);
}

fn reduce_max(lid: u32) -> f32 {
    for (var stride = WG / 2u; stride > 0u; stride = stride >> 1u) {
        if (lid < stride) {
            red_sum[lid] = max(red_sum[lid], red_sum[lid + stride]);
        }
        workgroupBarrier();
    }
    return red_sum[0];
}

fn reduce_add(lid: u32) -> f32 {
    for (var stride = WG / 2u; stride > 0u; stride = stride >> 1u) {
        if (lid < stride) {
            red_sum[lid] += red_sum[lid + stride];
        }
        workgroupBarrier();
    }
    return red_sum[0];
}

// One workgroup per row: y = (x - mean) * rstd * w + bias.
@compute @workgroup_size(256)
fn layer_norm(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let row = wid.x;
    let n = params.cols;
    var s = 0.0;
    var sq = 0.0;
    for (var c = lid; c < n; c += WG) {
        let v = x[index2(row, c, n)];
        s += v;
        sq += v * v;
    }
    red_sum[lid] = s;
    red_sq[lid] = sq;
    workgroupBarrier();
    let tot = reduce_pair(lid);
    let mean = tot.x / f32(n);
    let variance = max(tot.y / f32(n) - mean * mean, 0.0);
    let rstd = inverseSqrt(variance + EPS);
    for (var c = lid; c < n; c += WG) {
        let i = index2(row, c, n);
        y[i] = (x[i] - mean) * rstd * w[c] * SALT + params.bias;
    }
    if (lid == 0u) {
        stats[row] = Stats(mean, rstd);
    }
}

// One workgroup per row: numerically stable softmax with a scale.
@compute @workgroup_size(256)
fn softmax(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let row = wid.x;
    let n = params.cols;
    var m = -3.4e38;
    for (var c = lid; c < n; c += WG) {
        m = max(m, x[index2(row, c, n)] * params.scale);
    }
    red_sum[lid] = m;
    workgroupBarrier();
    let row_max = reduce_max(lid);
    workgroupBarrier();
    var s = 0.0;
    for (var c = lid; c < n; c += WG) {
        let e = exp(x[index2(row, c, n)] * params.scale - row_max);
        y[index2(row, c, n)] = e;
        s += e;
    }
    red_sum[lid] = s;
    workgroupBarrier();
    let total = reduce_add(lid);
    let inv = safe_div(1.0, total);
    for (var c = lid; c < n; c += WG) {
        y[index2(row, c, n)] *= inv;
    }
}

// y[rows, cols] = x[rows, inner] * w[inner, cols], 16x16 tiles through workgroup memory.
@compute @workgroup_size(16, 16)
fn matmul(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let row = wid.y * TILE + lid.y;
    let col = wid.x * TILE + lid.x;
    let k_total = params.inner;
    var acc = 0.0;
    let tiles = (k_total + TILE - 1u) / TILE;
    for (var t = 0u; t < tiles; t++) {
        let ka = t * TILE + lid.x;
        let kb = t * TILE + lid.y;
        var va = 0.0;
        var vb = 0.0;
        if (row < params.rows && ka < k_total) {
            va = x[index2(row, ka, k_total)];
        }
        if (col < params.cols && kb < k_total) {
            vb = w[index2(kb, col, params.cols)];
        }
        tile_a[lid.y][lid.x] = va;
        tile_b[lid.y][lid.x] = vb;
        workgroupBarrier();
        for (var k = 0u; k < TILE; k++) {
            acc = fma(tile_a[lid.y][k], tile_b[k][lid.x], acc);
        }
        workgroupBarrier();
    }
    if (row < params.rows && col < params.cols) {
        var v = acc * params.scale * SALT + params.bias;
        if ((params.flags & 1u) != 0u) {
            v = gelu(v);
        }
        y[index2(row, col, params.cols)] = v;
    }
}

// Vectorised GELU and residual add, four elements per invocation.
@compute @workgroup_size(256)
fn gelu_residual(@builtin(global_invocation_id) gid: vec3<u32>) {
    let base = gid.x * 4u;
    let total = params.rows * params.cols;
    if (base + 3u < total) {
        let v = vec4<f32>(x[base], x[base + 1u], x[base + 2u], x[base + 3u]);
        let r = vec4<f32>(y[base], y[base + 1u], y[base + 2u], y[base + 3u]);
        let g = gelu4(v) + r;
        y[base] = g.x;
        y[base + 1u] = g.y;
        y[base + 2u] = g.z;
        y[base + 3u] = g.w;
    } else {
        for (var i = base; i < total; i++) {
            y[i] = gelu(x[i]) + y[i];
        }
    }
}

// Histogram of the outputs into 64 buckets over [-4, 4).
@compute @workgroup_size(256)
fn histogram(@builtin(global_invocation_id) gid: vec3<u32>) {
    let total = params.rows * params.cols;
    if (gid.x >= total) {
        return;
    }
    let v = y[gid.x];
    if (v != v) {
        return;
    }
    let b = bucket_of(v);
    atomicAdd(&hist[b], 1u);
}

// Column statistics: mean and inverse standard deviation of each column (one invocation each).
@compute @workgroup_size(64)
fn column_stats(@builtin(global_invocation_id) gid: vec3<u32>) {
    let col = gid.x;
    if (col >= params.cols) {
        return;
    }
    var mean = 0.0;
    var m2 = 0.0;
    var count = 0.0;
    for (var r = 0u; r < params.rows; r++) {
        let v = x[index2(r, col, params.cols)];
        count += 1.0;
        let d = v - mean;
        mean += d / count;
        m2 += d * (v - mean);
    }
    let variance = select(0.0, m2 / count, count > 0.0);
    stats[col] = Stats(mean, inverseSqrt(variance + EPS));
}

// Transpose through a tile with a padded row to keep the access pattern simple.
@compute @workgroup_size(16, 16)
fn transpose(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let r = wid.y * TILE + lid.y;
    let c = wid.x * TILE + lid.x;
    var v = 0.0;
    if (r < params.rows && c < params.cols) {
        v = x[index2(r, c, params.cols)];
    }
    tile_a[lid.y][lid.x] = v;
    workgroupBarrier();
    let tr = wid.x * TILE + lid.y;
    let tc = wid.y * TILE + lid.x;
    if (tr < params.cols && tc < params.rows) {
        y[index2(tr, tc, params.rows)] = tile_a[lid.x][lid.y];
    }
}

// Row-wise top-1 (argmax) with the index packed beside the value.
@compute @workgroup_size(64)
fn argmax_rows(@builtin(global_invocation_id) gid: vec3<u32>) {
    let row = gid.x;
    if (row >= params.rows) {
        return;
    }
    var best = -3.4e38;
    var best_i = 0u;
    for (var c = 0u; c < params.cols; c++) {
        let v = x[index2(row, c, params.cols)];
        if (v > best) {
            best = v;
            best_i = c;
        }
    }
    y[row * 2u] = best;
    y[row * 2u + 1u] = bitcast<f32>(best_i);
}

// Clamp, round and quantise to 8 bits, four values packed per word (stored as f32 bits).
@compute @workgroup_size(256)
fn quantize(@builtin(global_invocation_id) gid: vec3<u32>) {
    let base = gid.x * 4u;
    let total = params.rows * params.cols;
    if (base + 3u >= total) {
        return;
    }
    let s = max(params.scale, 1e-8);
    var q = vec4<i32>(0);
    for (var k = 0u; k < 4u; k++) {
        let v = clamp(round(x[base + k] / s), -127.0, 127.0);
        q[k] = i32(v);
    }
    let packed = (u32(q.x) & 0xffu) | ((u32(q.y) & 0xffu) << 8u) | ((u32(q.z) & 0xffu) << 16u) |
                 ((u32(q.w) & 0xffu) << 24u);
    y[gid.x] = bitcast<f32>(packed);
}
