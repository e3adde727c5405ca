fn f() {
  var x = 0u;
  loop {
    continuing {
      loop { continuing { break if true; } }
      break if x > 1u;
    }
  }
}
