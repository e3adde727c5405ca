@fragment fn f() -> @builtin(position) vec4f { return vec4f(); }
