// Out-of-bounds writes to a runtime-sized array (16 u32 bound at offset 256 of a larger
// buffer): the canary pads around the binding must stay intact (dawn-run fails the kernel
// otherwise), and every element holds its initial value or one of the written values.
// @dispatch 1
// @bind 0:0 storage rw 64 init=fill:0x11111111 pad=256
// @bind 0:1 storage rw 64 init=fill:0x22222222 pad=256
// @assert-py all(v in {0x11111111} | {0xB0000000 + k for k in range(8)} for v in out(0,0))
// @assert-py out(0,1) == [0x22222222] * 16
@group(0) @binding(0) var<storage, read_write> a: array<u32>;
@group(0) @binding(1) var<storage, read_write> b: array<u32>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  var idx = array<u32, 8>(16u, 17u, 32u, 64u, 1000u, 0x40000000u, 0x80000000u, 0xFFFFFFFFu);
  a[idx[i]] = 0xB0000000u + i;
}
