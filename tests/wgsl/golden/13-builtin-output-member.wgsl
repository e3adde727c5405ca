struct O { @builtin(front_facing) b : bool, @location(0) c : vec4f }
@fragment fn f() -> O { return O(); }
