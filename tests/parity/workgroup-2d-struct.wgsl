// Workgroup memory holding a 2-D array and an array of structs, filled by a 3-D workgroup
// (4, 4, 2), read crosswise after a barrier.
// @dispatch 2
// @bind 0:0 storage rw 512
// @expect-py 0:0 u32 [(w * 1000 + ((3 - y) * 4 + (3 - x)) * 10 + (1 - z)) + ((y * 4 + x) * 3 + z) for w in range(2) for z in range(2) for y in range(4) for x in range(4)]
struct Cell { a: u32, b: vec2u }
var<workgroup> grid: array<array<array<u32, 4>, 4>, 2>;
var<workgroup> cells: array<Cell, 32>;
@group(0) @binding(0) var<storage, read_write> r: array<u32, 64>;

@compute @workgroup_size(4, 4, 2)
fn main(@builtin(local_invocation_id) l: vec3u, @builtin(workgroup_id) w: vec3u,
        @builtin(local_invocation_index) li: u32) {
  grid[l.z][l.y][l.x] = w.x * 1000u + (l.x * 4u + l.y) * 10u + l.z;
  cells[li] = Cell(li * 3u, vec2u(l.x, l.y));
  workgroupBarrier();
  let other = grid[1u - l.z][3u - l.x][3u - l.y];
  let c = cells[(l.y * 4u + l.x) + 16u * l.z];
  r[w.x * 32u + li] = other + c.b.x * 0u + ((c.a - l.z * 48u) + l.z);
}
