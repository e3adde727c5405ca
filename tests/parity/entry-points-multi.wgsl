// A module with several entry points; the spec selects one (@entry second); the others use
// different bindings and workgroup sizes and must not interfere.
// @dispatch 1
// @entry second
// @bind 0:1 storage rw 64
// @expect-py 0:1 u32 [k * k + 1 for k in range(16)]
@group(0) @binding(0) var<storage, read_write> a: array<u32, 16>;
@group(0) @binding(1) var<storage, read_write> b: array<u32, 16>;

@compute @workgroup_size(1)
fn first() { a[0] = 99u; }

fn sq(x: u32) -> u32 { return x * x; }

@compute @workgroup_size(16)
fn second(@builtin(local_invocation_index) l: u32) { b[l] = sq(l) + 1u; }

@compute @workgroup_size(8, 2)
fn third(@builtin(local_invocation_id) l: vec3u) { a[l.x] = b[l.y]; }
