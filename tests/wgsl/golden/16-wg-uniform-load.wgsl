var<workgroup> w: u32;
@compute @workgroup_size(1) fn main() { let v = workgroupUniformLoad(&w); }
