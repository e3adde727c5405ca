@group(0) @binding(0) var<storage, read> b : vec4i;

fn f() {
  b.xyz[1] = 2;
}
