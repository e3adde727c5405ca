enable subgroups;
@fragment fn main(@builtin(subgroup_id) sid : u32) -> @location(0) vec4f { return vec4f(f32(sid)); }
