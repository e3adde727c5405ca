struct U { v: vec2f, m: mat2x2f, a: array<vec4f, 2> }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
fn col(p: ptr<uniform, mat2x2f>, i: u32) -> vec2f { return (*p)[i]; }
fn whole(p: ptr<uniform, U>) -> f32 { return p.v.x + p.a[1].w; }
@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) g: vec3u) {
  let pm = &u.m;
  let pa = &u.a;
  out[0] = pm[g.x].y + pa[g.y].z + col(pm, g.x).x + col(&u.m, 1u).y + whole(&u);
}
