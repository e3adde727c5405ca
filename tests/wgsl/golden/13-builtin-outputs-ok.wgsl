// Entry point outputs and inputs that are valid.
struct V { @builtin(position) p : vec4f, @location(0) c : vec4f }
@vertex fn vs() -> V { return V(); }
@fragment fn fs(@builtin(position) p : vec4f) -> @builtin(frag_depth) f32 { return p.z; }
struct F { @builtin(sample_mask) m : u32, @location(0) c : vec4f }
@fragment fn fs2() -> F { return F(); }
