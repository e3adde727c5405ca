@compute fn main() {}
