const W = 4u;
@compute @workgroup_size(W, W * 2u)
fn main() {
}
