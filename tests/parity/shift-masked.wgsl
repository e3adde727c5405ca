// Shifts by a runtime count >= the bit width use the count modulo 32 (WGSL "Bit Expressions").
// Counts 0..63 for <<, >> on u32 and arithmetic >> on i32.
// @dispatch 1
// @bind 0:0 storage read 16 init=vals:u32:0x89ABCDEF,0xF0000001,0x80000000,1
// @bind 0:1 storage rw 768
// @bind 0:2 storage rw 768
// @bind 0:3 storage rw 768
// @expect-py 0:1 u32 [u32(inp(0,0)[n % 3] << (n % 32)) for n in range(64)] + [u32(inp(0,0)[3] << (n % 32)) for n in range(64,192)]
// @expect-py 0:2 u32 [inp(0,0)[n % 3] >> (n % 32) for n in range(64)] + [inp(0,0)[3] >> (n % 32) for n in range(64,192)]
// @expect-py 0:3 i32 [i32(inp(0,0)[n % 3]) >> (n % 32) for n in range(64)] + [1 >> (n % 32) for n in range(64,192)]
@group(0) @binding(0) var<storage, read> a: array<u32, 4>;
@group(0) @binding(1) var<storage, read_write> shl: array<u32, 192>;
@group(0) @binding(2) var<storage, read_write> shr: array<u32, 192>;
@group(0) @binding(3) var<storage, read_write> sar: array<i32, 192>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) n: u32) {
  for (var k = 0u; k < 3u; k++) {
    let i = n + 64u * k;
    let x = select(a[3], a[n % 3u], k == 0u);
    shl[i] = x << i;
    shr[i] = x >> i;
    sar[i] = bitcast<i32>(x) >> i;
  }
}
