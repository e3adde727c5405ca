@compute @workgroup_size(1) fn main() { var i = 3i; let x = i / 0i; _ = x; }
