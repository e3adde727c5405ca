// Derivative built-ins are known everywhere; only a compute entry point may not reach them.  The
// functions that use them are emitted (the Fine/Coarse ones with DerivativeControl) and the
// module passes spirv-val.
@group(0) @binding(0) var<storage, read_write> o : f32;

fn edges(v : vec3f) -> vec3f {
  return dpdxFine(v) + dpdyFine(v) + fwidthFine(v) + dpdxCoarse(v) + dpdyCoarse(v) + fwidthCoarse(v);
}

@fragment
fn fs(@location(0) v : vec2f) -> @location(0) vec4f {
  return vec4f(dpdx(v), dpdy(v.x), fwidth(1.0)) + vec4f(edges(vec3f(v, 1.0)), 0.0);
}

@compute @workgroup_size(1)
fn main() {
  o = 1.0;
}
