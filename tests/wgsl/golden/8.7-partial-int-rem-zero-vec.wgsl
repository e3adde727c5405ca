@compute @workgroup_size(1) fn main() {
  var v = vec2u(3u, 4u);
  let r = v % vec2u(1u, 0u);
  _ = r;
}
