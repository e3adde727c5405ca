struct O { @location(0) c : vec4f, d : f32 }
@fragment fn f() -> O { return O(); }
