// A loop inside a continuing block whose body always breaks: the dead merge after its `if`
// branches to the inner loop's merge, so the outer back-edge block post-dominates the continue
// construct (issue 21; spirv-val rejected the OpUnreachable form).
@group(0) @binding(0) var<storage, read_write> out: array<i32, 4>;
@compute @workgroup_size(1) fn main() {
  var n = 0;
  loop {
    n += 1;
    continuing {
      loop {
        out[1] += 1;
        if (n > 1) { out[2] += 10; break; } else { break; }
      }
      for (var i = 0; i < 2; i++) {
        switch (n) { case 1 { break; } default { out[3] += 1; } }
        if (i > 0) { break; } else { break; }
      }
      break if n >= 3;
    }
  }
  out[0] = n;
}
