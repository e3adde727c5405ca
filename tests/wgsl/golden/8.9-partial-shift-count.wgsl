@compute @workgroup_size(1) fn main() {
  var i = 1i;
  let x = i << 31u;
  let y = i >> 32u;
  _ = x; _ = y;
}
