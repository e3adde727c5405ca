// atomicOr, atomicAnd, atomicXor and atomicSub from many invocations: final values fixed.
// @dispatch 4
// @bind 0:0 storage read 1024 init=rand:u32:151
// @bind 0:1 storage rw 16 init=vals:u32:0,0xFFFFFFFF,0,100000
// @expect-py 0:1 u32 [0xFFFFFFFF, 0x0000FFFF, [p := 0] and 0 or [p := p ^ q for q in inp(0,0)][-1], 100000 - sum(range(256))]
struct R {
  o: atomic<u32>,
  a: atomic<u32>,
  x: atomic<u32>,
  s: atomic<u32>,
}
@group(0) @binding(0) var<storage, read> v: array<u32, 256>;
@group(0) @binding(1) var<storage, read_write> r: R;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u) {
  atomicOr(&r.o, 1u << (g.x % 32u));
  atomicAnd(&r.a, ~(1u << (16u + g.x % 16u)));
  atomicXor(&r.x, v[g.x]);
  atomicSub(&r.s, g.x);
}
