// Function calls with pointer parameters to function, private and workgroup memory; a
// function returning a struct; a call chain four deep; phony assignment of a call result.
// @dispatch 1
// @bind 0:0 storage rw 256
// @expect-py 0:0 u32 [v for l in range(16) for v in (l * 2 + 1, l + 100, (l + 1) * (l + 2), ((((l + 1) * 2) + 3) * 2) + 5)]
struct Pair { a: u32, b: u32 }
var<private> pv: u32;
var<workgroup> wv: array<u32, 16>;
@group(0) @binding(0) var<storage, read_write> r: array<vec4u, 16>;

fn bump(p: ptr<function, u32>, by: u32) { *p = *p * 2u + by; }
fn setp(p: ptr<private, u32>, v: u32) { *p = v; }
fn setw(p: ptr<workgroup, array<u32, 16>>, i: u32, v: u32) { (*p)[i] = v; }
fn pair(x: u32) -> Pair { return Pair(x + 1u, x + 2u); }
fn f4(x: u32) -> u32 { return x + 5u; }
fn f3(x: u32) -> u32 { return f4(x * 2u); }
fn f2(x: u32) -> u32 { return f3(x + 3u); }
fn f1(x: u32) -> u32 { return f2((x + 1u) * 2u); }

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) l: u32) {
  var v = l;
  bump(&v, 1u);
  setp(&pv, l + 100u);
  setw(&wv, l, l);
  _ = f1(l);
  let p = pair(l);
  r[l] = vec4u(v, pv, p.a * p.b + wv[l] * 0u, f1(l));
}
