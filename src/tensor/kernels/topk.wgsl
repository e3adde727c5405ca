// topk.wgsl - wt_topk (src/tensor/reduce.c): the k largest (or smallest) of each contiguous row
// of a, sorted, and their indices.  One workgroup per row (row = the workgroup's linear id):
//   1. every element gets a u32 key that orders as the values do: floats by their bits (negative
//      ones inverted, positive ones with the top bit set; -0 counts as +0, NaN above +inf as
//      torch ranks it), i32 with the sign bit flipped; for the smallest, the key inverted
//   2. radix select, 8 bits a pass, 4 passes: a histogram of the next byte over the elements
//      whose higher bytes equal the prefix chosen so far, suffix sums, the byte where the count
//      from the top reaches the k still wanted; after the passes the prefix is the k-th largest
//      key T, and `need` elements equal to T belong to the result
//   3. collect: each invocation walks a contiguous segment of the row; keys above T take a slot
//      by atomicAdd, keys equal to T take the first `need` slots after them in index order (an
//      exclusive scan of the per-segment counts), so the result does not depend on scheduling
//   4. a bitonic sort of the k (key, index) pairs in workgroup memory, key descending, index
//      ascending on ties; the values are read again from a (bits kept: -0, NaN payloads)
// OP 0: float input (f32, f16), 1: i32.  Params: sv = (L row length, k, largest, R rows);
// off.z = a's offset; aux.x = the sort's size (a power of two >= k, <= KMAX).  Loops: a pass
// walks ceil(L / 256) elements per invocation, which reduce.c keeps under 65,535.

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read_write> idx: array<i32>;
@group(0) @binding(2) var<storage, read> a: array<SB>;

const KMAX: u32 = 1024u;
var<workgroup> hist: array<atomic<u32>, 256>;
var<workgroup> sums: array<u32, 256>;
var<workgroup> pick: array<u32, 2>;
var<workgroup> slot: atomic<u32>;
var<workgroup> keys: array<u32, KMAX>;
var<workgroup> ids: array<u32, KMAX>;

fn key_at(i: u32) -> u32 {
    let v = a[P.off[2] + i];
    var k = 0u;
    if OP == 0u {
        let f = f32(v);
        if f != f {
            k = 0xffffffffu;
        } else if f == 0.0 {
            k = 0x80000000u;
        } else {
            let u = bitcast<u32>(f);
            k = select(u | 0x80000000u, ~u, (u >> 31u) == 1u);
        }
    } else {
        k = bitcast<u32>(i32(v)) ^ 0x80000000u;
    }
    return select(~k, k, P.sv[2] == 1u);
}

// inclusive suffix sums of sums[] (sums[b] = count of bins >= b), all 256 invocations
fn suffix_sums(lane: u32) {
    for (var o = 1u; o < 256u; o = o << 1u) {
        var v = 0u;
        if lane + o < 256u { v = sums[lane + o]; }
        workgroupBarrier();
        sums[lane] = sums[lane] + v;
        workgroupBarrier();
    }
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lane: u32) {
    let row = wid.y * P.gx + wid.x;
    if row >= P.sv[3] { return; }
    let L = P.sv[0];
    let k = P.sv[1];
    let base = row * L;
    // 2. radix select
    var prefix = 0u;
    var mask = 0u;
    var want = k;
    for (var rp = 0u; rp < 4u; rp = rp + 1u) {
        let shift = 24u - 8u * rp;
        atomicStore(&hist[lane], 0u);
        workgroupBarrier();
        for (var j = lane; j < L; j = j + 256u) {
            let key = key_at(base + j);
            if (key & mask) == prefix { atomicAdd(&hist[(key >> shift) & 255u], 1u); }
        }
        workgroupBarrier();
        sums[lane] = atomicLoad(&hist[lane]);
        workgroupBarrier();
        suffix_sums(lane);
        var above = 0u;
        if lane < 255u { above = sums[lane + 1u]; }
        if sums[lane] >= want && above < want {
            pick[0] = lane;
            pick[1] = want - above;
        }
        let b = workgroupUniformLoad(&pick[0]);
        want = workgroupUniformLoad(&pick[1]);
        prefix = prefix | (b << shift);
        mask = mask | (255u << shift);
    }
    // 3. collect: keys > prefix anywhere, the first `want` keys == prefix in index order
    let seg = (L + 255u) / 256u;
    let s0 = min(lane * seg, L);
    let s1 = min(s0 + seg, L);
    var eq = 0u;
    for (var j = s0; j < s1; j = j + 1u) {
        if key_at(base + j) == prefix { eq = eq + 1u; }
    }
    sums[lane] = eq;
    if lane == 0u { atomicStore(&slot, 0u); }
    workgroupBarrier();
    suffix_sums(lane);
    let after = sums[lane] - eq;         // equal keys in later segments
    let total = workgroupUniformLoad(&sums[0]);
    var first = total - eq - after;      // equal keys in earlier segments
    let gt = k - want;
    for (var j = s0; j < s1; j = j + 1u) {
        let key = key_at(base + j);
        if key > prefix {
            let s = atomicAdd(&slot, 1u);
            if s < gt {
                keys[s] = key;
                ids[s] = j;
            }
        } else if key == prefix {
            if first < want {
                keys[gt + first] = key;
                ids[gt + first] = j;
            }
            first = first + 1u;
        }
    }
    let n2 = P.aux.x;
    for (var j = k + lane; j < n2; j = j + 256u) {
        keys[j] = 0u;
        ids[j] = 0xffffffffu;
    }
    workgroupBarrier();
    // 4. bitonic sort of n2 pairs: key descending, index ascending
    for (var size = 2u; size <= n2; size = size << 1u) {
        for (var stride = size >> 1u; stride > 0u; stride = stride >> 1u) {
            for (var t = lane; t < n2 / 2u; t = t + 256u) {
                let lo = 2u * t - (t & (stride - 1u));
                let hi = lo + stride;
                let down = (lo & size) == 0u;    // this block sorts descending
                let ka = keys[lo];
                let kb = keys[hi];
                let ia = ids[lo];
                let ib = ids[hi];
                let a_first = ka > kb || (ka == kb && ia < ib);
                if a_first != down {
                    keys[lo] = kb;
                    keys[hi] = ka;
                    ids[lo] = ib;
                    ids[hi] = ia;
                }
            }
            workgroupBarrier();
        }
    }
    for (var j = lane; j < k; j = j + 256u) {
        let i = ids[j];
        out[row * k + j] = SO(a[P.off[2] + base + i]);
        idx[row * k + j] = i32(i);
    }
}
