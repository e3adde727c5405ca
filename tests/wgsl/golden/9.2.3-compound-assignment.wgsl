fn f() {
  var x = 1u;
  x += 1u;
  x -= 1u;
  x *= 2u;
  x /= 2u;
  x %= 3u;
  x &= 1u;
  x |= 2u;
  x ^= 3u;
  x <<= 1u;
  x >>= 1u;
}
