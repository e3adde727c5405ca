override o: i32 = 3;
override p = o * 2;
@compute @workgroup_size(p) fn main() {}
