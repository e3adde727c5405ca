// Statements after a return, break or continue are unreachable and do not count for uniformity.
fn f(i : u32) -> u32 {
  return 1u;
  if (i == 0u) { return 2u; }
  return 3u;
}

fn g(p : ptr<function, u32>, i : u32) {
  return;
  *p = i;
}

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i : u32) {
  var x = 0u;
  for (var k = 0u; k < 4u; k++) {
    break;
    x = i;
  }
  loop {
    if (x > 4u) { break; }
    x++;
    continue;
    x = i;
  }
  switch (i) {
    case 0u: { break; x = i; }
    default: { }
  }
  g(&x, i);
  if (f(i) == 1u && x == 5u) { workgroupBarrier(); }
}
