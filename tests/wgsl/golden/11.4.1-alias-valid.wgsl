// Alias analysis: calls that pass pointers without a conflicting write compile; the emitted
// module passes spirv-val.
@group(0) @binding(0) var<storage, read_write> out : array<u32, 4>;
var<private> x : u32;
var<workgroup> w : array<u32, 4>;

fn sum(pa : ptr<private, u32>, pb : ptr<private, u32>) -> u32 { return *pa + *pb; }

fn bump(p : ptr<workgroup, u32>) { *p += x; }

fn store(p : ptr<storage, array<u32, 4>, read_write>, i : u32, v : u32) { p[i] = v; }

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i : u32) {
  x = i;
  w[i] = sum(&x, &x);
  bump(&w[i]);
  var t = 1u;
  let pt = &t;
  store(&out, i, w[i] + *pt);
}
