// A runtime-sized array of structs (stride 16) indexed out of range, for whole-struct reads and
// member writes, behind a 16-byte header; the canaries around the binding must survive.
// @dispatch 1
// @bind 0:0 storage rw 80 init=ramp:u32:1 pad=256
// @bind 0:1 storage rw 64 pad=256
// @expect 0:1 u32 5,6,7,8,_,_,_,_,_,_,_,_,4,0,0,0
// @assert-py all(v in set(range(1, 21)) | {0, 0x77} for v in out(0,1)[4:12])
// @assert-py out(0,0)[:4] == [1, 2, 3, 4] and all(v in set(range(1, 21)) | {0x77} for v in out(0,0)[4:])
struct Item { a: u32, b: u32, c: u32, d: u32 }
struct Buf { head: vec4u, items: array<Item> }
@group(0) @binding(0) var<storage, read_write> s: Buf;
@group(0) @binding(1) var<storage, read_write> r: array<u32, 16>;

@compute @workgroup_size(1)
fn main() {
  var big = 4u;
  let i0 = s.items[0];
  r[0] = i0.a; r[1] = i0.b; r[2] = i0.c; r[3] = i0.d;
  let x = s.items[big];
  r[4] = x.a; r[5] = x.b; r[6] = x.c; r[7] = x.d;
  let y = s.items[big * 0x10000000u];
  r[8] = y.a; r[9] = y.b; r[10] = y.c; r[11] = y.d;
  r[12] = arrayLength(&s.items);
  s.items[big + 100u].c = 0x77u;
}
