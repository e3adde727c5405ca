// Type aliases, shadowing of module-scope names by locals and parameters, const_assert, and
// let/var declared in nested blocks with the same name.
// @dispatch 1
// @bind 0:0 storage rw 32
// @expect 0:0 i32 5,50,7,-3,42,8,0,0
alias Int = i32;
alias V2 = vec2<Int>;
const x: Int = 5;
const_assert x * 2 == 10;
@group(0) @binding(0) var<storage, read_write> r: array<Int, 8>;

fn f(x: Int) -> Int { return x * 10; }

@compute @workgroup_size(1)
fn main() {
  r[0] = x;
  r[1] = f(x);
  let v = V2(7, -3);
  r[2] = v.x;
  r[3] = v.y;
  {
    let x = 42;
    r[4] = x;
    {
      var x = 8;
      const_assert 2 + 2 == 4;
      r[5] = x;
    }
  }
}
