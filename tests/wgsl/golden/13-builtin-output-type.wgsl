@vertex fn f() -> @builtin(position) vec4i { return vec4i(); }
