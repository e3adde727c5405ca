@compute @workgroup_size(8) fn main() { var i = 0u; loop { workgroupBarrier(); continuing { i++; break if i >= 4u; } } }
