// Value (let) arrays and structs indexed by runtime values; whole-array and whole-struct copies
// between storage, function and private memory.
// @dispatch 1
// @bind 0:0 storage read 128 init=ramp:u32:5:3
// @bind 0:1 storage rw 128
// @bind 0:2 storage rw 128
// @expect-py 0:1 u32 [[11, 22, 33, 44, 55, 66, 77, 88][(i * 3) % 8] + i for i in range(32)]
// @expect-py 0:2 u32 [inp(0,0)[31 - i] + 1 if i < 16 else inp(0,0)[i] for i in range(32)]
struct Blob { head: u32, body: array<u32, 31> }
var<private> saved: Blob;
@group(0) @binding(0) var<storage, read> src: Blob;
@group(0) @binding(1) var<storage, read_write> r: array<u32, 32>;
@group(0) @binding(2) var<storage, read_write> dst: Blob;

@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) i: u32) {
  let table = array<u32, 8>(11u, 22u, 33u, 44u, 55u, 66u, 77u, 88u);
  r[i] = table[(i * 3u) % 8u] + i;
  if (i == 0u) {
    saved = src;                      // storage -> private (whole struct)
    var local = saved.body;           // private -> function (whole array)
    var out: Blob;
    out.head = local[30] + 1u;
    for (var k = 1u; k < 16u; k++) { out.body[k - 1u] = local[30u - k] + 1u; }
    for (var k = 15u; k < 31u; k++) { out.body[k] = local[k]; }
    dst = out;                        // function -> storage (whole struct)
  }
}
