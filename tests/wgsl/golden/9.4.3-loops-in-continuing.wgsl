// Loops of every kind nested inside a continuing block, exiting through break, break-if and
// loop conditions: the emitted module passes spirv-val (no OpUnreachable as a way out).
@group(0) @binding(0) var<storage, read_write> o : u32;
@compute @workgroup_size(1)
fn main() {
  var n = 0u;
  loop {
    if (n > 30u) { break; }
    continuing {
      loop {
        n++;
        continue;
        continuing { break if n > 5u; }
      }
      loop {
        loop {
          n++;
          if (n > 8u) { break; } else { break; }
        }
        continuing { break if n > 12u; }
      }
      for (var i = 0u; i < 3u; i++) {
        loop { n++; continuing { break if true; } }
      }
      while (n < 20u) { n++; continue; }
      switch (n) { case 1u: { loop { break; } } default: { } }
    }
  }
  o = n;
}
