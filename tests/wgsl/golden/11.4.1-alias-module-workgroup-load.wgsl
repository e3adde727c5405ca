// Alias analysis: workgroupUniformLoad reads its argument's memory.
var<workgroup> w : i32;

fn callee(p : ptr<workgroup, i32>) {
  *p = 1;
  _ = workgroupUniformLoad(&w);
}

@compute @workgroup_size(1)
fn main() {
  callee(&w);
}
