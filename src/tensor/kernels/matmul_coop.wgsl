// matmul_coop.wgsl - f16 x f16 -> f16 matrix product on tensor cores, accumulating in f32, for
// wt_matmul_ex with WT_MATMUL_F16_TENSOR (src/tensor/matmul.c), through Dawn's
// chromium_experimental_subgroup_matrix extension (lowered to VK_KHR_cooperative_matrix).
//
// A workgroup computes a TM x TN tile of out = A . B with NSG subgroups of 32 invocations (matmul.c
// takes this path only where the subgroup size is 32 and the device has 16 x 16 x 16 f16 -> f32
// subgroup shapes); subgroup s (@builtin(subgroup_id), uniform within its subgroup as Tint's
// uniformity rules require of subgroup-matrix arguments) owns the 64 x WN block at row
// (s / (TN / WN)) * 64, column (s % (TN / WN)) * WN as 4 x WN / 16 accumulators of 16 x 16.  The
// variant is the key's op (OP; matmul.c's coop_tiles): tile, subgroups of 64 x WN, slice depth BK
//   0  128 x 128, 4 of 64 x 64, BK 32     5  256 x 128, 8 of 64 x 64, BK 32, SB1
//   1  128 x 256, 8 of 64 x 64, BK 16     6  128 x 128, 8 of 64 x 32, BK 64, SB1
//   2  256 x 128, 8 of 64 x 64, BK 16     7  128 x 256, 8 of 64 x 64, BK 48, SB1, EPS 4
//   3  128 x 128, 8 of 64 x 32, BK 32     8  256 x 128, 8 of 64 x 64, BK 48, SB1, EPS 4
//   4  128 x 256, 8 of 64 x 64, BK 32, SB1   9  128 x 128, 4 of 64 x 64, BK 32, SB1
// (fifth round: the register-lean variants 4 to 8 of the fourth round were deleted and its 9, 10,
// 11 became 4, 5, 6; the history below keeps the numbers of its time).  Along K the workgroup
// stages BK-deep slices of A and B in workgroup memory.  Variants 0 to 3 double-buffer them:
// every invocation loads its 16-byte chunks (8 halves, a vec4<u32>) of slice t + 1 into
// registers before the subgroups multiply slice t, then stores them into the other buffer; one
// barrier per slice.  Variants 4 to 9 (SB1) keep one buffer, twice as deep or more in the same
// workgroup memory: store slice t from the registers, barrier, load slice t + 1 into the
// registers, multiply slice t, barrier; so the global loads have a whole slice of multiplies (32
// per subgroup at BK 32) to arrive in.  Each slice is kept in the operand's own layout
// (A row-major (MA 0): TM rows of BK, A column-major (MA 1): BK rows of TM; B row-major (MB 0): BK
// rows of TN, column-major (MB 1): TN rows of BK), rows padded by 8 halves (16 bytes) so that the
// 8 rows one matrix load touches fall in distinct banks, and read back with subgroupMatrixLoad's
// col_major flag.  A (m, k) is a[P.off.x + m * P.aux.x + k] (MA 0) or a[P.off.x + m + k * P.aux.x]
// (MA 1); B (k, n) is b[P.off.y + k * P.aux.y + n] (MB 0) or b[P.off.y + k + n * P.aux.y] (MB 1);
// offsets and leading dimensions are multiples of 8 (matmul.c, coop_ok).  P.sv = (M, N, K, tiles
// along N).  Chunks with a row or k past the matrix are not read (zeros are staged), so ragged M,
// N and K (a multiple of 16) need no robust access; a chunk starting inside the matrix may run past
// M or N by up to 7 elements, which matmul.c keeps inside the storage and which reach only outputs
// that are not written.  Workgroups walk the tiles in bands of 8 tile rows (L2 reuse of B).  The
// f32 accumulators go through a per-subgroup 16 x 16 workgroup buffer to be rounded to f16 and
// written with bounds checks, plus the bias when MC is 1 (c[P.off.z + n * P.st[4].x]); EPS
// subgroups at a time (all of them but in variants 7 and 8, whose 48-deep slices leave room for
// only 4 KiB of it under the 48 KiB cap with B column-major: 43008 bytes of slice).  kernel.c
// puts the `enable` in the prelude.
// H200, f16 4096^3 (test_matmul_coop with WGC_COOP_BENCH=1 WGC_COOP_VARIANT=v, median of 5 x 10
// products): variant 0 134.4 TFLOP/s, 1 159.9, 2 155.9, 3 154.3 (default kernels 40.6);
// `wgc bench nn` with variant 1 (matmul.c's choice at that size) 150.5, cuBLAS f16 through PyTorch
// 766.4 in the same run (0.20; the target, 0.5, is missed).  Staging in 4-byte words instead
// (neighbouring invocations on neighbouring banks) ran 69.5 / 121.7 / 119.4 / 105.6 for the four
// shapes and was dropped.  The first kernel (one subgroup per 64 x 64 tile, loads straight from
// global memory) ran 76.4.  Second round (same measure; A^T: A column-major, a transposed view):
// variants 0..3 ran 136.7 / 156.5 / 157.7 / 157.9 with A row-major but 158.9 / 171.8 / 176.5 /
// 172.2 with A^T (B^T: 127.7 / 160.0 / 160.1 / 143.6), so the row-major A slice (BK / 8 chunks of
// 16 bytes per row, 8 or 16 rows per subgroup load) costs about 10%.  Tried and dropped: each
// invocation storing its chunk's words from a lane-dependent start (no 2-byte store bank
// conflicts) 54.0 / 96.4 / 92.9 / 83.5, so the 8 f16 stores of a chunk are evidently merged into
// one 16-byte store, which the dynamic order prevents; in another run (default kernels 41.5 in
// both), staging narrow slices eight rows of one chunk column per quarter subgroup (16-byte stores
// in 8 distinct bank groups, where row-major order puts 2 in one) and fetching the chunks two
// slices ahead, both written with helper functions returning the chunk arrays: 97 to 136 against
// 102.0 / 130.8 / 136.0 / 153.1 for the helpers alone (no gain on any shape, up to 26% lost on
// shape 3), the helpers alone 3 to 25% under this file; `wgc bench nn` there 148.8 with variant
// 3, cuBLAS f16 754.1 in the same run.
// Third round.  The ceiling (test_coop_peak, WGC_COOP_BENCH=1): subgroup-matrix multiplies with the
// fragments in registers run 636-646 TFLOP/s on the H200 whatever the accumulators per subgroup (2
// x 2 to 4 x 4) and subgroups per SM (4 to 32), 617-631 with every step's fragments loaded from
// workgroup memory in this file's slice layouts (8 or more subgroups per SM; 543-596 with 4),
// cuBLAS f16 767.1 in the same run: this kernel is at a quarter of what the extension allows.  The
// driver's statistics (read then with a scratch tool, now in test_matmul_coop's WGC_COOP_BENCH table
// through wt_kernel_list): variant 0 241 registers (two workgroups per
// SM), 1 and 2 186, 3 152 (one per SM: 8 subgroups), no stack.  Where the time goes (same measure,
// variants 1 / 3, results wrong on purpose, then removed): 160 / 157 as is; without the global
// loads (stale chunks staged) 252 / 246; without any staging 284 / 270; without the barrier too 433
// / 424: of variant 1's time the global loads take 37%, the staging stores 7%, the per-slice
// barrier (16 multiplies per subgroup between two barriers in both) 19%, and the rest still runs at
// 0.69 of the ceiling with workgroup-memory loads.  Tried and dropped (same measure, one run,
// variant 1 157.6 there): fetching slices two ahead into a second register set (the two swapping
// roles each slice, 198 registers) 149.7 on shape 1, 129.4 on 0 (131.0), 155.4 on 3 (152.8); three
// slice buffers with BK 16 so that each subgroup loads the next slice's first fragments before the
// barrier 74.8 on shape 0 (4 subgroups, 214 registers) and 99.0 on shape 3 (8 multiplies per
// barrier), unmeasured on shape 1, where it needs 47872 bytes of workgroup memory with B row-major
// and more than NVIDIA's 49152 with B column-major (the device was lost). `wgc bench nn` in that
// run, variant 1: 163.5, cuBLAS f16 758.5 (0.22).
// Fourth round (same measure; registers and workgroup bytes from the driver, A row-major).
// Several workgroups per SM through register-lean variants: 4 (115 registers: 2 workgroups of 256
// per SM; 29184 bytes) 97.8, 5 (123) 93.9, 6 (118) 97.5, 7 (166 registers, 128 invocations: 3 per
// SM) 78.7, 8 (152 registers as 3) 151.3, against 153.4 (1), 153.3 (3), 134.1 (0) in that run:
// more workgroups per SM with half the multiplies between barriers lose, and the fragment order
// changes nothing.  Then, in the next run (cuBLAS f16 through PyTorch 759.0 in it), one slice
// buffer twice as deep: variant 9 (227 registers, 35328 bytes) 203.9, 10 (227) 198.2, 11 (179,
// 44032 bytes) 190.4, against 154.1 (1), 153.1 (2), 155.4 (3); A^T / B^T / both: 9 226.1 / 204.0
// / 208.9, 10 224.6 / 202.9 / 220.5, 11 202.8 / 188.7 / 196.7.  matmul.c takes 9 where it took
// 1.  `WGC_COOP_VARIANT=9 wgc bench nn --json` in that run: 218.5 TFLOP/s, cuBLAS f16 755.5
// (0.29; the target, 0.5, is still missed).
// Fifth round (same measure, one run, this file's numbers; cuBLAS f16 through PyTorch 752.6 in it;
// the lean variants 4-8 above were deleted).  Slices 48 deep for 8 subgroups, with the epilogue
// scratch cut to 4 subgroups' worth (two rounds) so that B column-major fits: 7 (128 x 256) 218.2
// TFLOP/s, 8 (256 x 128) 212.1, against 204.1 for 4 and 199.1 for 5 (A^T: 220.8 / 222.3 against
// 229.8 / 219.0; B^T 207.5 / 204.8 against 206.8 / 197.9); 6 192.0.  4 subgroups of 64 x 64 on 128
// x 128 tiles with one slice buffer: 32 deep (variant 9, measured as 11 before this file's last
// renumbering) 219.1, A^T 250.6, B^T 206.5, both 229.2 (against 134 for the same tile
// double-buffered, variant 0, in earlier runs); 48 deep 149.7 (A^T 179.0) and 64 deep 144.8 (A^T
// 187.8), both deleted (their 12 or 16 staged chunks per invocation presumably cost the second
// workgroup per SM that 9's 8 chunks leave room for; registers were not read in that run).  So two
// 4-subgroup workgroups per SM, one's barriers overlapping the other's multiplies, gain more than
// deeper slices in one 8-subgroup workgroup: matmul.c takes 9 where it took 4.  `WGC_COOP_VARIANT=9
// wgc bench nn --json` in that run (as 11): 230.6 TFLOP/s, cuBLAS f16 752.6 (0.31; the target, 0.5,
// is still missed).  Untried then: one operand's fragments straight from global memory (the
// seventh round: slower).
// Sixth round (same measure, two runs, cuBLAS f16 through PyTorch 761.6 and 749.2 in them; row-major /
// A^T / B^T / both, then the driver's Register Count and Shared Memory Size for A and B row-major,
// from test_matmul_coop's STATS lines).  Variant 9: 218.3 / 251.3 / 201.2 / 221.1 and 219.3 / 249.9
// / 206.6 / 219.6 (238 registers, 23040 bytes).  Why A^T is faster: staging a row-major A
// transposed into the column-major slice (the fragments then read as for A^T), with 8 scalar f16
// stores per chunk at transposed positions, lost in three orders: chunks of one row to 4
// invocations (the 8 rows a store step writes for 4 chunk columns in one bank group: 4-way
// conflicts) 174.3 (237 registers); invocations in groups of 8 rows x 4 chunk columns with each
// chunk's words rotated by its column, so that a store step's 4 columns fall in distinct banks,
// 169.2 (249); invocations along 32 rows of one chunk column (each store step 64 contiguous bytes,
// the global loads 32 rows of 16 bytes) 172.8 (233); with A^T (the same code as 9) 250.9-256.3.
// So 8 scalar stores cost more than the layout gains: the staging order alone cannot say whether
// A^T wins by its fragment loads (slice rows of 128 halves) or by its global loads (256 contiguous
// bytes per slice row against 64 for row-major A); B shows the same direction (B row-major, long
// rows, beats B^T).  128 x 128, 4 subgroups, 48 deep (243 registers, 31488 bytes: two workgroups
// per SM by both) 149.5 / 178.2 / 147.9 / 150.7 again, so the registers were not what cost it.
// Three or more workgroups per SM: 128 x 64 with 4 subgroups of 64 x 32 (166 registers, 18944
// bytes: 3 per SM) 141.5 / 151.0 / 135.6 / 143.6; 64 x 128 with 2 of 64 x 64 (246, 15872: 4 of 64
// invocations) 166.1 / 174.0 / 111.5 / 115.8; 128 x 64 with 2 of 64 x 64 (249, 16896) 118.2 /
// 171.0 / 113.0 / 166.4.  All deleted; 9 stays matmul.c's choice.  `WGC_COOP_VARIANT=9 wgc bench nn
// --json`: 228.7 TFLOP/s against cuBLAS f16 761.6 (0.300) and 228.6 against 749.2 (0.305); the
// target, 0.5, is still missed.
// Seventh round (same measure, two runs, each variant twice in turn with 9; row-major / A^T / B^T
// / both; registers for A and B row-major).  Variant 9: 220.7 / 247.6 / 205.1 / 224.6 and 218.5 /
// 245.9 / 205.4 / 227.1, then 216.8 / 246.7 / 199.7 / 226.7 and 219.3 / 249.2 / 204.0 / 222.6.
// Row-major A chunks transposed in registers across lanes (the 8 lanes holding 8 rows of one chunk
// column exchanged their halves in three butterfly steps of subgroupShuffleXor 16, 8, 4, two words
// a lane each, 6 shuffles a chunk, after the barrier-free load and before the stores), then stored
// as one 16-byte run of a column-major slice row, as for A^T: 156.3 / 247.8 / 151.3 / 225.6 and
// 153.6 / 245.8 / 151.3 / 218.7 (231 registers, 21504 bytes): the shuffles cost more (about 65
// TFLOP/s) than the 8 scalar stores of the sixth round (about 45).  B's fragments straight from
// global memory (subgroupMatrixLoad from B bound as array<f16>, the 4 fragments of a step before
// A's from the slice; only A staged, so its slice can be deeper): 64 deep 138.3 / 141.0 / 91.6 /
// 91.7 and 137.4 / 143.2 / 93.0 / 91.8 (255 registers), 32 deep 126.6 / 134.2 / 88.1 / 91.1 and
// 126.9 / 133.9 / 89.1 / 93.8 (233): fragment loads from global memory do not hide their latency
// with 8 subgroups per SM.  Both deleted (correct on the H200 and under coop_emu.py); 9 stays.
// `WGC_COOP_VARIANT=9 wgc bench nn --json`: 229.5 TFLOP/s against cuBLAS f16 746.5 (0.307) and
// 228.5 against 763.1 (0.299); the target, 0.5, is still missed.
// Eighth round (`wgc profile --no-bounds-checks` on variant 9 alone, 4096^3, 1024 workgroups, one
// run each; A row-major / A^T; results wrong on purpose where parts are removed).  As is 224-226
// / 256; without the two barriers 250 / 290; without the staging stores 250 / 295; without the
// global loads 289 / 343; without loads and stores 420 / 415; with the slice loop's loads, stores and
// index arithmetic all gone (fragment loads and multiplies only) 471 / 466, and 524 / 550 without
// the epilogue too.  So the multiply core itself runs at 0.82 of the measured ceiling, the global
// loads cost most, and the epilogue (two barriers per accumulator) about 5% of the total.  Two
// findings: (1) NVIDIA's driver puts two of these workgroups on an SM only while each uses at most
// 24576 bytes of workgroup memory: the same kernel padded to 25088 bytes or more runs 141 (1 per
// SM), as did every earlier variant with deeper slices or a larger epilogue buffer (48 and 64 deep:
// 145-150 above; two or four accumulators a round in the epilogue, 27136 / 35328 bytes: 140), so
// their losses were occupancy, not depth.  (2) Row-major A slices (4 chunks a row, rows 20 banks
// apart) had two rows' 16-byte stores in one bank group per quarter subgroup: amap's order (rows q
// and q + 4 in quarter q) makes them conflict-free, 226 -> 235.  Tried and dropped: prefetching
// slice t + 2 into L1 with one 4-byte load per 32-byte sector (the loads' values folded into a
// never-taken store) 188 / 230; loading all four B fragments of a step before its multiplies (the
// driver already reorders: 224.6 / 255.7).  Variant 0's loss (134 above) was the cliff too (two
// 32-deep buffers, 42 KiB): double-buffered 16-deep slices that fit (23040 bytes with the epilogue
// in two rounds, row-major A; A^T 19456-21504) ran 163 / 179, and one 16-deep buffer (12800 bytes)
// 189 on A^T, against 234.5 / 256.2 for variant 9 in the same run: 16 multiplies a subgroup
// between barriers are too few whatever the buffering.  Tile-exact loads (each chunk's vec4 index
// computed once, then advanced by a uniform step per slice, no guards: a scratch variant, results
// unchecked) ran 248 (A row-major) and 250 (A^T) against 237 / 256.5 in the same two runs: no
// better than A^T through matmul.c's copy, so not kept.  With bounds checks on (user kernels through `wgc
// profile`) this file ran 119 / 138 before the compiler clamped fixed-array subgroup-matrix load
// offsets instead of branching around each load (spirv.c, sgm_call), 123 / 141 after.  Copying a
// row-major A column-major first (A^T's layout, a scratch path in matmul.c at d8e5747): 0.549 ms of
// GPU time per product in wt batches of ten against 0.556 in place (233 / 230 TFLOP/s wall clock),
// 1% for an extra M x K buffer: reverted.

@group(0) @binding(0) var<storage, read_write> out: array<SO>;
@group(0) @binding(1) var<storage, read> a: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read> b: array<vec4<u32>>;
@group(0) @binding(3) var<storage, read> c: array<SC>;

const ACM: bool = MA == 1u;           // A column-major
const BCM: bool = MB == 1u;           // B column-major
// the variants (matmul.c's coop_tiles): tile TM x TN, subgroup blocks 64 x WN, slices BK deep
const TM: u32 = select(128u, 256u, OP == 2u || OP == 5u || OP == 8u);
const TN: u32 = select(128u, 256u, OP == 1u || OP == 4u || OP == 7u);
const BK: u32 = select(select(select(32u, 16u, OP == 1u || OP == 2u), 64u, OP == 6u), 48u,
                       OP == 7u || OP == 8u);
const WN: u32 = select(64u, 32u, OP == 3u || OP == 6u);   // a subgroup block's columns
const SB1: bool = OP >= 4u;           // one slice buffer, two barriers per slice
const NBUF: u32 = select(2u, 1u, SB1);
const SGN: u32 = TN / WN;             // subgroups along N
const NSG: u32 = (TM / 64u) * SGN;    // subgroups per workgroup
const WGS: u32 = NSG * 32u;           // invocations per workgroup
const PAD: u32 = 8u;
// A slice: AR rows of AC halves (stride AS); B slice: BR rows of BC halves (stride BS)
const AR: u32 = select(TM, BK, ACM);
const AC: u32 = select(BK, TM, ACM);
const AS: u32 = AC + PAD;
const BR: u32 = select(BK, TN, BCM);
const BC: u32 = select(TN, BK, BCM);
const BS: u32 = BC + PAD;
const ALEN: u32 = AR * AS;
const BLEN: u32 = BR * BS;
const NA: u32 = AR * AC / 8u / WGS;   // 16-byte chunks per invocation per slice
const NB: u32 = BR * BC / 8u / WGS;
// subgroups whose accumulators go through the epilogue scratch at once (the rest wait their round)
const EPS: u32 = select(NSG, 4u, OP == 7u || OP == 8u);

var<workgroup> sa: array<f16, NBUF * ALEN>;
var<workgroup> sb: array<f16, NBUF * BLEN>;
var<workgroup> scratch: array<f32, EPS * 256>;

alias Left = subgroup_matrix_left<f16, 16, 16>;
alias Right = subgroup_matrix_right<f16, 16, 16>;
alias Acc = subgroup_matrix_result<f32, 16, 16>;

// Slice row and chunk column of A's chunk j.  A row-major slice 32 deep has 4 chunks a row and rows
// 20 banks apart, so lanes 8q..8q+7 of each 32 take rows q and q + 4 (4 chunks each): each quarter
// subgroup's 16-byte stores fall in 8 distinct bank groups, where 2 consecutive rows share one.
fn amap(j: u32) -> vec2<u32> {
    if ACM || AC != 32u { return vec2<u32>(j / (AC / 8u), j % (AC / 8u)); }
    let l = j % 32u;
    return vec2<u32>((j / 32u) * 8u + l / 8u + 4u * ((l % 8u) / 4u), l % 4u);
}

// Chunk j of a slice with `cols` halves per row, whose first row / column lie at (r0, c0) of a
// matrix of `rows` x `ncols` with leading dimension ld at element off: its 8 halves, or zeros when
// its row or first column is outside.
fn chunk_a(j: u32, r0: u32, c0: u32, rows: u32, ncols: u32) -> vec4<u32> {
    let rc = amap(j);
    let r = r0 + rc.x;
    let cc = c0 + rc.y * 8u;
    if r >= rows || cc >= ncols { return vec4<u32>(); }
    return a[(P.off.x + r * P.aux.x + cc) / 8u];
}

fn chunk_b(j: u32, r0: u32, c0: u32, rows: u32, ncols: u32) -> vec4<u32> {
    let r = r0 + j / (BC / 8u);
    let cc = c0 + (j % (BC / 8u)) * 8u;
    if r >= rows || cc >= ncols { return vec4<u32>(); }
    return b[(P.off.y + r * P.aux.y + cc) / 8u];
}

fn put_a(base: u32, j: u32, v: vec4<u32>) {
    let rc = amap(j);
    let o = base + rc.x * AS + rc.y * 8u;
    let h0 = bitcast<vec2<f16>>(v.x);
    let h1 = bitcast<vec2<f16>>(v.y);
    let h2 = bitcast<vec2<f16>>(v.z);
    let h3 = bitcast<vec2<f16>>(v.w);
    sa[o] = h0.x; sa[o + 1u] = h0.y; sa[o + 2u] = h1.x; sa[o + 3u] = h1.y;
    sa[o + 4u] = h2.x; sa[o + 5u] = h2.y; sa[o + 6u] = h3.x; sa[o + 7u] = h3.y;
}

fn put_b(base: u32, j: u32, v: vec4<u32>) {
    let o = base + (j / (BC / 8u)) * BS + (j % (BC / 8u)) * 8u;
    let h0 = bitcast<vec2<f16>>(v.x);
    let h1 = bitcast<vec2<f16>>(v.y);
    let h2 = bitcast<vec2<f16>>(v.z);
    let h3 = bitcast<vec2<f16>>(v.w);
    sb[o] = h0.x; sb[o + 1u] = h0.y; sb[o + 2u] = h1.x; sb[o + 3u] = h1.y;
    sb[o + 4u] = h2.x; sb[o + 5u] = h2.y; sb[o + 6u] = h3.x; sb[o + 7u] = h3.y;
}

// Left matrix of rows m.. m+15, k.. k+15 of the slice in buffer `base` (uniform in the subgroup).
fn ld_a(base: u32, m: u32, k: u32) -> Left {
    return subgroupMatrixLoad<Left>(&sa, select(base + m * AS + k, base + k * AS + m, ACM), ACM, AS);
}

fn ld_b(base: u32, k: u32, n: u32) -> Right {
    return subgroupMatrixLoad<Right>(&sb, select(base + k * BS + n, base + n * BS + k, BCM), BCM, BS);
}

// Accumulator (i, j) of every subgroup to out, through the workgroup buffer, EPS subgroups at a
// time; called by the whole workgroup in uniform control flow.
fn put(v: Acc, i: u32, j: u32, sid: u32, m0: u32, n0: u32, li: u32) {
    let M = P.sv.x;
    let N = P.sv.y;
    for (var g = 0u; g < NSG / EPS; g++) {
        workgroupBarrier();
        if sid / EPS == g { subgroupMatrixStore(&scratch, (sid % EPS) * 256u, v, false, 16u); }
        workgroupBarrier();
        for (var e = li; e < EPS * 256u; e += WGS) {
            let s = g * EPS + e / 256u;
            let l = e % 256u;
            let m = m0 + (s / SGN) * 64u + i * 16u + l / 16u;
            let n = n0 + (s % SGN) * WN + j * 16u + l % 16u;
            if m < M && n < N {
                var x = scratch[e];
                if MC == 1u { x += f32(c[P.off.z + n * u32(P.st[4].x)]); }
                out[m * N + n] = SO(x);
            }
        }
    }
}

// The 16 accumulators are separate variables and every multiply is written out, so that they
// stay in registers (an indexed array of them could live in local memory).
@compute @workgroup_size(WGS)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) li: u32,
        @builtin(subgroup_id) sid: u32) {
    let M = P.sv.x;
    let N = P.sv.y;
    let K = P.sv.z;
    let tiles_n = P.sv.w;
    let tiles_m = (M + TM - 1u) / TM;
    let t = wid.y * P.gx + wid.x;
    if t >= tiles_m * tiles_n { return; }
    // bands of 8 tile rows, walked column by column inside a band
    let band = t / (8u * tiles_n);
    let rows = min(tiles_m - band * 8u, 8u);
    let r = t - band * 8u * tiles_n;
    let m0 = (band * 8u + r % rows) * TM;
    let n0 = (r / rows) * TN;
    let wm = (sid / SGN) * 64u;
    let wn = (sid % SGN) * WN;
    // slice origins: A (row, col) = (m, k) or (k, m); B = (k, n) or (n, k)
    let a_rows = select(M, K, ACM);
    let a_cols = select(K, M, ACM);
    let b_rows = select(K, N, BCM);
    let b_cols = select(N, K, BCM);
    var ra: array<vec4<u32>, NA>;
    var rb: array<vec4<u32>, NB>;
    for (var q = 0u; q < NA; q++) {
        let j = li + q * WGS;
        ra[q] = chunk_a(j, select(m0, 0u, ACM), select(0u, m0, ACM), a_rows, a_cols);
    }
    for (var q = 0u; q < NB; q++) {
        let j = li + q * WGS;
        rb[q] = chunk_b(j, select(0u, n0, BCM), select(n0, 0u, BCM), b_rows, b_cols);
    }
    if !SB1 {
        for (var q = 0u; q < NA; q++) { put_a(0u, li + q * WGS, ra[q]); }
        for (var q = 0u; q < NB; q++) { put_b(0u, li + q * WGS, rb[q]); }
        workgroupBarrier();
    }
    var c00 = Acc();
    var c01 = Acc();
    var c02 = Acc();
    var c03 = Acc();
    var c10 = Acc();
    var c11 = Acc();
    var c12 = Acc();
    var c13 = Acc();
    var c20 = Acc();
    var c21 = Acc();
    var c22 = Acc();
    var c23 = Acc();
    var c30 = Acc();
    var c31 = Acc();
    var c32 = Acc();
    var c33 = Acc();
    let nt = (K + BK - 1u) / BK;
    for (var kt = 0u; kt < nt; kt++) {
        let cur = select(kt % 2u, 0u, SB1);
        let more = kt + 1u < nt;
        if SB1 {                                // slice kt from registers into the one buffer
            for (var q = 0u; q < NA; q++) { put_a(0u, li + q * WGS, ra[q]); }
            for (var q = 0u; q < NB; q++) { put_b(0u, li + q * WGS, rb[q]); }
            workgroupBarrier();
        }
        if more {                               // next slice into registers
            let k1 = (kt + 1u) * BK;
            for (var q = 0u; q < NA; q++) {
                let j = li + q * WGS;
                ra[q] = chunk_a(j, select(m0, k1, ACM), select(k1, m0, ACM), a_rows, a_cols);
            }
            for (var q = 0u; q < NB; q++) {
                let j = li + q * WGS;
                rb[q] = chunk_b(j, select(k1, n0, BCM), select(n0, k1, BCM), b_rows, b_cols);
            }
        }
        let abase = cur * ALEN;
        let bbase = cur * BLEN;
        for (var kk = 0u; kk < BK; kk += 16u) {
            let a0 = ld_a(abase, wm, kk);
            let a1 = ld_a(abase, wm + 16u, kk);
            let a2 = ld_a(abase, wm + 32u, kk);
            let a3 = ld_a(abase, wm + 48u, kk);
            var bm = ld_b(bbase, kk, wn);
            c00 = subgroupMatrixMultiplyAccumulate(a0, bm, c00);
            c10 = subgroupMatrixMultiplyAccumulate(a1, bm, c10);
            c20 = subgroupMatrixMultiplyAccumulate(a2, bm, c20);
            c30 = subgroupMatrixMultiplyAccumulate(a3, bm, c30);
            bm = ld_b(bbase, kk, wn + 16u);
            c01 = subgroupMatrixMultiplyAccumulate(a0, bm, c01);
            c11 = subgroupMatrixMultiplyAccumulate(a1, bm, c11);
            c21 = subgroupMatrixMultiplyAccumulate(a2, bm, c21);
            c31 = subgroupMatrixMultiplyAccumulate(a3, bm, c31);
            if WN > 32u {
                bm = ld_b(bbase, kk, wn + 32u);
                c02 = subgroupMatrixMultiplyAccumulate(a0, bm, c02);
                c12 = subgroupMatrixMultiplyAccumulate(a1, bm, c12);
                c22 = subgroupMatrixMultiplyAccumulate(a2, bm, c22);
                c32 = subgroupMatrixMultiplyAccumulate(a3, bm, c32);
                bm = ld_b(bbase, kk, wn + 48u);
                c03 = subgroupMatrixMultiplyAccumulate(a0, bm, c03);
                c13 = subgroupMatrixMultiplyAccumulate(a1, bm, c13);
                c23 = subgroupMatrixMultiplyAccumulate(a2, bm, c23);
                c33 = subgroupMatrixMultiplyAccumulate(a3, bm, c33);
            }
        }
        if more && !SB1 {                       // the other buffer: last read before the previous barrier
            let nxt = 1u - cur;
            for (var q = 0u; q < NA; q++) { put_a(nxt * ALEN, li + q * WGS, ra[q]); }
            for (var q = 0u; q < NB; q++) { put_b(nxt * BLEN, li + q * WGS, rb[q]); }
        }
        workgroupBarrier();
    }
    put(c00, 0u, 0u, sid, m0, n0, li);
    put(c01, 0u, 1u, sid, m0, n0, li);
    put(c10, 1u, 0u, sid, m0, n0, li);
    put(c11, 1u, 1u, sid, m0, n0, li);
    put(c20, 2u, 0u, sid, m0, n0, li);
    put(c21, 2u, 1u, sid, m0, n0, li);
    put(c30, 3u, 0u, sid, m0, n0, li);
    put(c31, 3u, 1u, sid, m0, n0, li);
    if WN > 32u {
        put(c02, 0u, 2u, sid, m0, n0, li);
        put(c03, 0u, 3u, sid, m0, n0, li);
        put(c12, 1u, 2u, sid, m0, n0, li);
        put(c13, 1u, 3u, sid, m0, n0, li);
        put(c22, 2u, 2u, sid, m0, n0, li);
        put(c23, 2u, 3u, sid, m0, n0, li);
        put(c32, 3u, 2u, sid, m0, n0, li);
        put(c33, 3u, 3u, sid, m0, n0, li);
    }
}
