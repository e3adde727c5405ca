// A dispatch of zero workgroups runs nothing: the binding keeps its initial contents.
// @dispatch 0,1,1
// @bind 0:0 storage rw 64 init=fill:0x5A5A5A5A
// @expect-py 0:0 u32 [0x5A5A5A5A] * 16
@group(0) @binding(0) var<storage, read_write> r: array<u32, 16>;

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) i: u32) {
  r[i] = 0u;
}
