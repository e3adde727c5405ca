// A loop with no break and no break-if never exits: an error (Tint's), so no inner loop of a
// continuing block reaches the emitter without a way out.
@compute @workgroup_size(1)
fn main() {
  var n = 0u;
  loop {
    if (n > 3u) { break; }
    continuing {
      loop {
        n++;
        if (n > 2u) { continue; }
      }
    }
  }
}
